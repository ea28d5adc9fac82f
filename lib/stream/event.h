/*
 * The event types of SPEC §2 as a record schema (formats/events.md).
 * The table in ssp_event.c is the single source of truth: type and field
 * names written into every stream header come from it, and the index
 * constants below must follow its order.
 */
#ifndef SSP_EVENT_H
#define SSP_EVENT_H

#include "stream/rec.h"

enum ssp_ev_type {
	/* gem5 host */
	SSP_EV_SYNC,		/* sending sync message for ts= */
	SSP_EV_PROC_IN,		/* simbricks: processInEvent */
	SSP_EV_INSN,		/* one Exec line (only with sim2ev -I) */
	SSP_EV_FUNC,		/* function entry */
	SSP_EV_MMIO_RD,		/* simbricks-pci: sending read */
	SSP_EV_MMIO_WR,		/* simbricks-pci: sending write */
	SSP_EV_MMIO_POSTED,	/* sending immediate response for posted write */
	SSP_EV_MMIO_RD_DONE,	/* received read completion */
	SSP_EV_MMIO_WR_DONE,	/* received write completion */
	SSP_EV_DMA_RD,		/* received DMA read */
	SSP_EV_DMA_WR,		/* received DMA write */
	SSP_EV_DMA_DONE,	/* completed DMA */
	SSP_EV_MSIX,		/* received MSI-X intr vec */
	SSP_EV_MSI,		/* received MSI intr vec */
	SSP_EV_INTR,		/* received intr vec (old adapters: MSI or MSI-X) */
	SSP_EV_CFG_RD,		/* readConfig */
	SSP_EV_CFG_WR,		/* writeConfig */
	SSP_EV_PCIHOST_RD,	/* pci_host read */
	SSP_EV_PCIHOST_WR,	/* pci_host write */
	SSP_EV_POST_INT,	/* postInt */
	SSP_EV_CLEAR_INT,	/* clearInt */
	/* nicbm NIC */
	SSP_EV_NIC_RD,		/* read(off=, len=, val=) */
	SSP_EV_NIC_WR,		/* write(off=, len=, val=[, posted=]) */
	SSP_EV_NIC_DMA_ISSUE,
	SSP_EV_NIC_DMA_EXEC,
	SSP_EV_NIC_DMA_ENQ,
	SSP_EV_NIC_DMA_DONE_RD,
	SSP_EV_NIC_DMA_DONE_WR,
	SSP_EV_NIC_MSIX,
	SSP_EV_NIC_MSI,
	SSP_EV_NIC_INTX,
	SSP_EV_NIC_TX,
	SSP_EV_NIC_RX,
	/* ns-3 network */
	SSP_EV_NET_ENQ,		/* + */
	SSP_EV_NET_DEQ,		/* - */
	SSP_EV_NET_DROP,	/* d */
	SSP_EV_NET_RX,		/* r (standard ns-3 ascii traces only) */
	/* gem5 host, added in 1.1 (types are appended, never inserted) */
	SSP_EV_USER,		/* a CPU's first user-mode pc after kernel ones */
	/* NIC, added in 1.2: the Corundum Verilator adapter's register
	 * access completions (AXI-Lite read/write done, with the host's
	 * request id) */
	SSP_EV_NIC_RD_DONE,	/* CorundumAXILManager::read_done() */
	SSP_EV_NIC_WR_DONE,	/* CorundumAXILManager::write_done() */
	/* network, also added in 1.2: a packet in a pcap capture (direction and
	 * port not recorded) */
	SSP_EV_NET_SEEN,
	SSP_EV_NTYPES
};

/* Field positions, per group of types sharing a layout. */
enum { SSP_F_SYNC_TS };					/* sync */
enum { SSP_F_INSN_CPU, SSP_F_INSN_PC, SSP_F_INSN_UPC };	/* insn: upc -1 = macro-op */
enum { SSP_F_FUNC_CPU, SSP_F_FUNC_SYM, SSP_F_FUNC_TABLE };	/* func */
enum { SSP_F_USER_CPU, SSP_F_USER_PC };			/* user */
/*
 * mmio_rd, mmio_wr: bar -1 and offs 0 when the adapter did not print them,
 * posted -1 when absent (mmio_wr only).  Host device events (mmio_rd/wr,
 * cfg_rd/wr, pcihost_rd/wr, post/clear_int) end with `cpu` (version 1.1):
 * the CPU of the Exec line before them, 0 (no string) when none; its
 * position differs per type: ssp_event_cpu_field, ssp_event_dev_cpu.
 */
enum { SSP_F_MMIO_COMP, SSP_F_MMIO_ADDR, SSP_F_MMIO_SIZE, SSP_F_MMIO_ID,
	SSP_F_MMIO_BAR, SSP_F_MMIO_OFFS, SSP_F_MMIO_POSTED };
enum { SSP_F_MMIO_RD_CPU = SSP_F_MMIO_OFFS + 1,
	SSP_F_MMIO_WR_CPU = SSP_F_MMIO_POSTED + 1 };
/* mmio_posted, mmio_rd_done, mmio_wr_done, dma_done: comp[, id] */
enum { SSP_F_DONE_COMP, SSP_F_DONE_ID };
enum { SSP_F_DMA_COMP, SSP_F_DMA_ID, SSP_F_DMA_ADDR, SSP_F_DMA_SIZE };	/* dma_rd/wr */
enum { SSP_F_IRQ_COMP, SSP_F_IRQ_VEC };			/* msix, msi, intr */
enum { SSP_F_CFG_COMP, SSP_F_CFG_DEV, SSP_F_CFG_FUNC, SSP_F_CFG_REG,
	SSP_F_CFG_BYTES, SSP_F_CFG_DATA, SSP_F_CFG_CPU };	/* cfg_rd/wr */
enum { SSP_F_PH_COMP, SSP_F_PH_BUS, SSP_F_PH_DEV, SSP_F_PH_FUNC,
	SSP_F_PH_OFFSET, SSP_F_PH_SIZE, SSP_F_PH_CPU };	/* pcihost_* */
enum { SSP_F_INT_COMP, SSP_F_INT_BUS, SSP_F_INT_DEV, SSP_F_INT_FUNC,
	SSP_F_INT_CPU };				/* post/clear_int */
enum { SSP_F_NMMIO_OFF, SSP_F_NMMIO_LEN, SSP_F_NMMIO_VAL,
	SSP_F_NMMIO_POSTED };				/* nic_rd/wr; posted -1 = absent */
enum { SSP_F_NDMA_OP, SSP_F_NDMA_ADDR, SSP_F_NDMA_LEN,
	SSP_F_NDMA_PENDING };				/* nic_dma_*; no pending on done */
enum { SSP_F_NIRQ_VEC };				/* nic_msix, nic_msi; nic_intx: level */
enum { SSP_F_NTX_LEN };					/* nic_tx */
enum { SSP_F_NRX_PORT, SSP_F_NRX_LEN };			/* nic_rx */
/* nic_rd_done, nic_wr_done (posted: nic_wr_done only) */
enum { SSP_F_NDONE_ID, SSP_F_NDONE_OFF, SSP_F_NDONE_VAL, SSP_F_NDONE_POSTED };
/* net_* (net_seen too): uid -1 when the trace has none; payload/ip_proto/ip_id -1 when
 * absent; eth_type 0 when absent; boundary is enum ssp_net_boundary */
enum { SSP_F_NET_NODE, SSP_F_NET_DEV, SSP_F_NET_DEVTYPE, SSP_F_NET_SOURCE,
	SSP_F_NET_UID, SSP_F_NET_INTERESTING, SSP_F_NET_BOUNDARY,
	SSP_F_NET_PAYLOAD, SSP_F_NET_ETH_TYPE, SSP_F_NET_ETH_SRC,
	SSP_F_NET_ETH_DST, SSP_F_NET_IP_SRC, SSP_F_NET_IP_DST,
	SSP_F_NET_IP_PROTO, SSP_F_NET_IP_LEN, SSP_F_NET_IP_ID,
	SSP_F_NET_SPORT, SSP_F_NET_DPORT };

enum ssp_net_boundary {
	SSP_NET_INTERNAL = 0,
	SSP_NET_FROM_ADAPTER = 1,	/* RxPacketFromAdapter: enters ns-3 from a NIC */
	SSP_NET_TO_ADAPTER = 2,		/* TxPacketToAdapter: leaves ns-3 towards a NIC */
};

/* Simulator kinds and the stream kinds evspan uses. */
enum ssp_sim {
	SSP_SIM_NONE = 0,
	SSP_SIM_GEM5,		/* kind "host" */
	SSP_SIM_NICBM,		/* kind "nic" */
	SSP_SIM_NS3,		/* kind "net" */
	SSP_SIM_SWITCH,		/* kind "net": SimBricks net_switch (net_* types) */
	/* since 1.2: simulators that write the types of another one's kind */
	SSP_SIM_QEMU,		/* kind "host": simbricks-pci DEBUG_PRINTS (host types) */
	SSP_SIM_CORUNDUM,	/* kind "nic": Corundum Verilator adapter (nic types) */
	SSP_SIM_E1000,		/* kind "nic": e1000_gem5 E1000_DEBUG (nic types) */
	SSP_SIM_PCAP,		/* kind "net": a pcap capture (ns-3, net_switch -p) */
	SSP_SIM_N
};

extern const struct ssp_schema ssp_event_schema;

/* Names: "gem5"/"nicbm"/"ns3"/"switch"/"qemu"/"corundum"/"e1000"/"pcap" and
 * "host"/"nic"/"net"; parse returns SSP_SIM_NONE if unknown.  A kind parses
 * to its first simulator (host: gem5, nic: nicbm, net: ns3): a topology
 * kind names a role, and the types of a kind are shared by its simulators. */
const char *ssp_event_sim_name(enum ssp_sim s);
const char *ssp_event_sim_kind(enum ssp_sim s);
enum ssp_sim ssp_event_sim_parse(const char *name);
enum ssp_sim ssp_event_sim_parse_kind(const char *kind);
/* The first simulator of the kind whose streams hold an event type
 * (gem5 for host types, which QEMU writes too; nicbm for NIC types; ns3
 * for the net_* types): compare kinds, not simulators. */
enum ssp_sim ssp_event_sim(unsigned type);

/* User-mode pcs are below this (x86-64 canonical lower half; FORMATS §4). */
#define SSP_USER_PC_END 0x0000800000000000ull

/* Index of the `cpu` field of a host device event type, or -1 when the
 * type has none (func, insn and user have theirs first). */
int ssp_event_cpu_field(unsigned type);
/*
 * The CPU that issued a host device event: the string id of its `cpu`
 * field, or -1 when there is none (no Exec line came before it, the type
 * has no such field, or the stream is version 1.0, written before the
 * field existed; readers fill the missing field with 0).
 */
static inline int64_t
ssp_event_dev_cpu(const struct ssp_rec *r)
{
	int k = ssp_event_cpu_field(r->type);

	if (k < 0 || (unsigned)k >= r->nf || r->f[k] == 0)
		return -1;
	return (int64_t)r->f[k];
}

/* The minor version event streams are written with (formats/events.md). */
#define SSP_EVENT_MINOR 2

/* Open an event stream writer with the standard metadata.  extra may add
 * more key/value pairs (source file, symbol tables, time offset). */
SSP_MUST_USE enum ssp_status ssp_event_writer_open(struct ssp_rec_wr **wp,
    struct ssp_out *o, const char *stream, enum ssp_sim sim,
    const char *producer, const struct ssp_meta *extra, size_t nextra,
    struct ssp_err *e);
/* Open an event stream reader (concatenated segments accepted). */
SSP_MUST_USE enum ssp_status ssp_event_reader_open(struct ssp_rec_rd **rp,
    struct ssp_in *in, struct ssp_err *e);
/* The simulator a reader's stream header names (SSP_SIM_NONE if absent). */
enum ssp_sim ssp_event_reader_sim(const struct ssp_rec_rd *rr);

#endif
