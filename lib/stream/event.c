#include <stdlib.h>
#include <string.h>

#include "stream/event.h"

/* Field lists shared by several types. */
#define MMIO_RD_F { "comp", 's' }, { "addr", 'x' }, { "size", 'u' }, \
	{ "id", 'u' }, { "bar", 'i' }, { "offs", 'x' }
#define CPU_F { "cpu", 's' }	/* host device events: the issuing CPU */
#define DMA_F { "comp", 's' }, { "id", 'u' }, { "addr", 'x' }, { "size", 'u' }
#define CFG_F { "comp", 's' }, { "dev", 'u' }, { "func", 'u' }, { "reg", 'x' }, \
	{ "bytes", 'u' }, { "data", 'x' }
#define PH_F { "comp", 's' }, { "bus", 'u' }, { "dev", 'u' }, { "func", 'u' }, \
	{ "offset", 'x' }, { "size", 'u' }
#define INT_F { "comp", 's' }, { "bus", 'u' }, { "dev", 'u' }, { "func", 'u' }
#define NDMA_F { "op", 'x' }, { "addr", 'x' }, { "len", 'u' }, { "pending", 'u' }
#define NDONE_F { "op", 'x' }, { "addr", 'x' }, { "len", 'u' }
#define NET_F { "node", 'u' }, { "dev", 'u' }, { "devtype", 's' }, \
	{ "source", 's' }, { "uid", 'i' }, { "interesting", 'b' }, \
	{ "boundary", 'u' }, { "payload", 'i' }, { "eth_type", 'x' }, \
	{ "eth_src", 'm' }, { "eth_dst", 'm' }, { "ip_src", 'a' }, \
	{ "ip_dst", 'a' }, { "ip_proto", 'i' }, { "ip_len", 'u' }, \
	{ "ip_id", 'i' }, { "sport", 'u' }, { "dport", 'u' }

static const struct ssp_rec_type types[SSP_EV_NTYPES] = {
	[SSP_EV_SYNC]        = { "sync", 1, { { "sync_ts", 't' } } },
	[SSP_EV_PROC_IN]     = { "proc_in", 0, { { NULL, 0 } } },
	[SSP_EV_INSN]        = { "insn", 3, { { "cpu", 's' }, { "pc", 'x' },
	    { "upc", 'i' } } },
	[SSP_EV_FUNC]        = { "func", 3, { { "cpu", 's' }, { "sym", 's' },
	    { "table", 's' } } },
	[SSP_EV_MMIO_RD]     = { "mmio_rd", 7, { MMIO_RD_F, CPU_F } },
	[SSP_EV_MMIO_WR]     = { "mmio_wr", 8, { MMIO_RD_F, { "posted", 'i' },
	    CPU_F } },
	[SSP_EV_MMIO_POSTED] = { "mmio_posted", 1, { { "comp", 's' } } },
	[SSP_EV_MMIO_RD_DONE] = { "mmio_rd_done", 2, { { "comp", 's' }, { "id", 'u' } } },
	[SSP_EV_MMIO_WR_DONE] = { "mmio_wr_done", 2, { { "comp", 's' }, { "id", 'u' } } },
	[SSP_EV_DMA_RD]      = { "dma_rd", 4, { DMA_F } },
	[SSP_EV_DMA_WR]      = { "dma_wr", 4, { DMA_F } },
	[SSP_EV_DMA_DONE]    = { "dma_done", 2, { { "comp", 's' }, { "id", 'u' } } },
	[SSP_EV_MSIX]        = { "msix", 2, { { "comp", 's' }, { "vec", 'u' } } },
	[SSP_EV_MSI]         = { "msi", 2, { { "comp", 's' }, { "vec", 'u' } } },
	[SSP_EV_INTR]        = { "intr", 2, { { "comp", 's' }, { "vec", 'u' } } },
	[SSP_EV_CFG_RD]      = { "cfg_rd", 7, { CFG_F, CPU_F } },
	[SSP_EV_CFG_WR]      = { "cfg_wr", 7, { CFG_F, CPU_F } },
	[SSP_EV_PCIHOST_RD]  = { "pcihost_rd", 7, { PH_F, CPU_F } },
	[SSP_EV_PCIHOST_WR]  = { "pcihost_wr", 7, { PH_F, CPU_F } },
	[SSP_EV_POST_INT]    = { "post_int", 5, { INT_F, CPU_F } },
	[SSP_EV_CLEAR_INT]   = { "clear_int", 5, { INT_F, CPU_F } },
	[SSP_EV_NIC_RD]      = { "nic_rd", 3, { { "off", 'x' }, { "len", 'u' },
	    { "val", 'x' } } },
	[SSP_EV_NIC_WR]      = { "nic_wr", 4, { { "off", 'x' }, { "len", 'u' },
	    { "val", 'x' }, { "posted", 'i' } } },
	[SSP_EV_NIC_DMA_ISSUE] = { "nic_dma_issue", 4, { NDMA_F } },
	[SSP_EV_NIC_DMA_EXEC]  = { "nic_dma_exec", 4, { NDMA_F } },
	[SSP_EV_NIC_DMA_ENQ]   = { "nic_dma_enq", 4, { NDMA_F } },
	[SSP_EV_NIC_DMA_DONE_RD] = { "nic_dma_done_rd", 3, { NDONE_F } },
	[SSP_EV_NIC_DMA_DONE_WR] = { "nic_dma_done_wr", 3, { NDONE_F } },
	[SSP_EV_NIC_MSIX]    = { "nic_msix", 1, { { "vec", 'u' } } },
	[SSP_EV_NIC_MSI]     = { "nic_msi", 1, { { "vec", 'u' } } },
	[SSP_EV_NIC_INTX]    = { "nic_intx", 1, { { "level", 'u' } } },
	[SSP_EV_NIC_TX]      = { "nic_tx", 1, { { "len", 'u' } } },
	[SSP_EV_NIC_RX]      = { "nic_rx", 2, { { "port", 'u' }, { "len", 'u' } } },
	[SSP_EV_NET_ENQ]     = { "net_enq", 18, { NET_F } },
	[SSP_EV_NET_DEQ]     = { "net_deq", 18, { NET_F } },
	[SSP_EV_NET_DROP]    = { "net_drop", 18, { NET_F } },
	[SSP_EV_NET_RX]      = { "net_rx", 18, { NET_F } },
	[SSP_EV_USER]        = { "user", 2, { { "cpu", 's' }, { "pc", 'x' } } },
	[SSP_EV_NIC_RD_DONE] = { "nic_rd_done", 3, { { "id", 'u' }, { "off", 'x' },
	    { "val", 'x' } } },
	[SSP_EV_NIC_WR_DONE] = { "nic_wr_done", 4, { { "id", 'u' }, { "off", 'x' },
	    { "val", 'x' }, { "posted", 'i' } } },
	[SSP_EV_NET_SEEN]    = { "net_seen", 18, { NET_F } },
};

const struct ssp_schema ssp_event_schema = { SSP_EV_NTYPES, types };

static const struct {
	const char *name, *kind;
} sims[] = {
	[SSP_SIM_NONE]  = { "", "" },
	[SSP_SIM_GEM5]  = { "gem5", "host" },
	[SSP_SIM_NICBM] = { "nicbm", "nic" },
	[SSP_SIM_NS3]   = { "ns3", "net" },
	[SSP_SIM_SWITCH] = { "switch", "net" },
	[SSP_SIM_QEMU]  = { "qemu", "host" },
	[SSP_SIM_CORUNDUM] = { "corundum", "nic" },
	[SSP_SIM_E1000] = { "e1000", "nic" },
	[SSP_SIM_PCAP]  = { "pcap", "net" },
};

const char *ssp_event_sim_name(enum ssp_sim s) { return sims[s].name; }
const char *ssp_event_sim_kind(enum ssp_sim s) { return sims[s].kind; }

enum ssp_sim
ssp_event_sim_parse(const char *name)
{
	unsigned i;

	for (i = SSP_SIM_GEM5; i < SSP_SIM_N; i++)
		if (strcmp(name, sims[i].name) == 0)
			return (enum ssp_sim)i;
	return SSP_SIM_NONE;
}

enum ssp_sim
ssp_event_sim_parse_kind(const char *kind)
{
	unsigned i;

	for (i = SSP_SIM_GEM5; i < SSP_SIM_N; i++)
		if (strcmp(kind, sims[i].kind) == 0)
			return (enum ssp_sim)i;
	return SSP_SIM_NONE;
}

enum ssp_sim
ssp_event_sim(unsigned type)
{
	if (type < SSP_EV_NIC_RD || type == SSP_EV_USER)
		return SSP_SIM_GEM5;
	if (type < SSP_EV_NET_ENQ)
		return SSP_SIM_NICBM;
	if (type <= SSP_EV_NET_RX || type == SSP_EV_NET_SEEN)
		return SSP_SIM_NS3;
	if (type == SSP_EV_NIC_RD_DONE || type == SSP_EV_NIC_WR_DONE)
		return SSP_SIM_NICBM;
	return SSP_SIM_NONE;
}

int
ssp_event_cpu_field(unsigned type)
{
	switch (type) {
	case SSP_EV_MMIO_RD:	return SSP_F_MMIO_RD_CPU;
	case SSP_EV_MMIO_WR:	return SSP_F_MMIO_WR_CPU;
	case SSP_EV_CFG_RD:
	case SSP_EV_CFG_WR:	return SSP_F_CFG_CPU;
	case SSP_EV_PCIHOST_RD:
	case SSP_EV_PCIHOST_WR:	return SSP_F_PH_CPU;
	case SSP_EV_POST_INT:
	case SSP_EV_CLEAR_INT:	return SSP_F_INT_CPU;
	default:		return -1;
	}
}

enum ssp_status
ssp_event_writer_open(struct ssp_rec_wr **wp, struct ssp_out *o, const char *stream,
    enum ssp_sim sim, const char *producer, const struct ssp_meta *extra,
    size_t nextra, struct ssp_err *e)
{
	struct ssp_meta *m;
	size_t n = 0;
	int r;

	m = calloc(5 + nextra, sizeof(*m));
	if (m == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	m[n++] = (struct ssp_meta){ "stream", stream };
	m[n++] = (struct ssp_meta){ "simulator", ssp_event_sim_name(sim) };
	m[n++] = (struct ssp_meta){ "kind", ssp_event_sim_kind(sim) };
	m[n++] = (struct ssp_meta){ "time-unit", "ps" };
	m[n++] = (struct ssp_meta){ "producer", producer };
	if (nextra > 0)
		memcpy(m + n, extra, nextra * sizeof(*m));
	r = ssp_rec_wr_open_minor(wp, o, ssp_frame_magic_events,
	    SSP_EVENT_MINOR, &ssp_event_schema, m, n + nextra, e);
	free(m);
	return r;
}

enum ssp_status
ssp_event_reader_open(struct ssp_rec_rd **rp, struct ssp_in *in, struct ssp_err *e)
{
	return ssp_rec_rd_open(rp, in, ssp_frame_magic_events, &ssp_event_schema,
	    SSP_RR_CONCAT, e);
}

enum ssp_sim
ssp_event_reader_sim(const struct ssp_rec_rd *rr)
{
	const char *s = ssp_rec_rd_meta(rr, "simulator");

	return s != NULL ? ssp_event_sim_parse(s) : SSP_SIM_NONE;
}
