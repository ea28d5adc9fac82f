/*
 * The core of the simsynth model (synmodel.c): the state of hosts, NICs
 * and the network, the event queue, span recording and packets.  Shared
 * by synsim.c (run entry, event loop, outputs), synhost.c (gem5 hosts),
 * synnic.c (nicbm NICs) and synnet.c (the ns-3 network).  Not an API:
 * only synth/ includes it.
 *
 * All times are SimBricks time in ps.  Every cross-simulator message is
 * an event scheduled at least one link latency after its cause, and every
 * log is written while events are taken in time order, so each log is
 * monotonic by construction.
 */
#ifndef SSP_SYNMODEL_H
#define SSP_SYNMODEL_H

#include <stdint.h>

#include "stream/span.h"
#include "synth/syngem5.h"
#include "synth/synlog.h"
#include "synth/synparams.h"
#include "synth/synqemu.h"
#include "synth/synrng.h"
#include "synth/synsym.h"
#include "synth/syntruth.h"

/* i40e registers in BAR 0 (drivers/net/ethernet/intel/i40e/i40e_register.h) */
#define I40E_QTX_TAIL0      0x108000u
#define I40E_QRX_TAIL0      0x128000u
#define I40E_PFINT_DYN_CTLN 0x034800u	/* + 4 * (vector - 1) */
#define I40E_GLPRT_GORCL0   0x300000u	/* statistics */
#define BAR0_BASE 0xc0000000ull
#define BAR3_BASE 0xc0400000ull		/* i40e: MSI-X table in BAR 3 */
#define RX_VEC 1			/* queue pair 0 */

/* corundum_bm registers, all in BAR 0 (16 MiB), one queue of each kind
 * (simbricks sims/nic/corundum_bm/corundum_bm.h); per queue: base
 * address +0x0, active/log size +0x8, completion queue or interrupt
 * index +0xc (bit 31 arms it), head pointer +0x10, tail pointer +0x18.
 * The driver writes the head of the TX and RX queues and the tail of the
 * completion and event queues; the NIC advances the others. */
#define CQM_EQ    0x100000u	/* event queue */
#define CQM_TXQ   0x200000u
#define CQM_TXCQ  0x400000u	/* TX completion queue */
#define CQM_RXQ   0x600000u
#define CQM_RXCQ  0x700000u	/* RX completion queue */
#define CQM_INDEX 0x0cu
#define CQM_HEAD  0x10u
#define CQM_TAIL  0x18u
#define CQM_ARM   0x80000000u
#define CQM_RING  1024u		/* entries of every ring */
#define CQM_MSI_VEC 0		/* EventRing::dmaDone: MsiIssue(0) */
#define CQM_IRQ_VECTOR 37	/* the CPU vector of that MSI */

/* e1000_gem5 registers, all in BAR 0 (i8254xGBe_defs.h, Linux e1000_hw.h) */
#define E1K_STATUS 0x0008u
#define E1K_ICR    0x00c0u
#define E1K_IMS    0x00d0u
#define E1K_IMC    0x00d8u
#define E1K_RDT    0x2818u
#define E1K_TDT    0x3818u
#define E1K_STATS  0x4000u	/* statistics registers */
#define E1K_IMS_ENABLE 0x9du	/* RXT0 | RXDMT0 | RXSEQ | LSC | TXDW */
#define E1K_RING 256u		/* the driver's default ring sizes */
#define E1K_IRQ_VECTOR 43	/* the CPU vector of its IO-APIC line */

#define TAIL_PS 20000000LL	/* run on 20 us after the last response */

enum sev_type {
	EV_ROUND,		/* a round of requests starts */
	EV_HOST_STEP,		/* the CPU runs the next step of its task */
	EV_HOST_TASK,		/* a task becomes runnable (a = kind) */
	EV_HOST_MMIO_DONE,	/* read/write completion reaches the host */
	EV_HOST_DMA,		/* NIC DMA request reaches the host */
	EV_HOST_DMA_DONE,	/* host memory finished a DMA */
	EV_HOST_MSIX,		/* MSI-X reaches the host */
	EV_HOST_MSIX_DONE,	/* the interrupt's memory write finished */
	EV_HOST_SYNC,		/* periodic SimBricks sync */
	EV_HOST_HOUSE,		/* housekeeping task arrival */
	EV_HOST_PUSH,		/* the inner label's push after a syscall entry */
	EV_NIC_MMIO,		/* register access reaches the NIC */
	EV_NIC_DMA_DONE,	/* DMA completion reaches the NIC */
	EV_NIC_IRQ,		/* throttled interrupt fires */
	EV_NIC_RX,		/* frame reaches the NIC */
	EV_NIC_INFO,		/* a SIGUSR1 main_time line */
	EV_NET_IN,		/* frame from a NIC reaches ns-3 */
	EV_NET_DEQ,		/* bottleneck starts sending a packet */
	EV_NET_ARRIVE,		/* packet reaches the far end of a link */
	EV_NET_OUT,		/* delayed TxPacketToAdapter */
	EV_BG_BURST,		/* background flow sends a burst */
	EV_BG_PROBE,		/* background packet to a simulated host */
	EV_BG_ACK,		/* ns-3 host sends an ACK */
	EV_RESTART,		/* simulators restart from a checkpoint */
	/* --kernel linux (synlinux.c, and the NIC's segmentation offload) */
	EV_LX_STEP,		/* a CPU runs its next step (a = CPU) */
	EV_LX_MSIX,		/* MSI-X reaches the host (a = span, p = vector) */
	EV_LX_MSIX_DONE,	/* its memory write finished: interrupt the CPU */
	EV_LX_IPI,		/* a reschedule IPI reaches a CPU (a = CPU) */
	EV_LX_MMIO_DONE,	/* read/write completion reaches the host */
	EV_NIC_TSO,		/* the NIC sends the next segment of a TSO send */
	/* --print real (SPEC §3c) */
	EV_LX_IO_REQ,		/* an uncached access reaches the adapter (p = nic_mmio) */
	EV_LX_IO_RESP,		/* its response reaches the CPU (a = CPU) */
	EV_NIC_RTL,		/* --nic corundum-verilator: an AXI-Lite access
				 * completes (p = the nic_mmio) */
	EV_NIC_E1000,		/* --nic e1000: a timer of its model (a = which) */
	EV_HOST_INTX,		/* INTx level change reaches the host (a = level,
				 * p = the span that caused it, as a number) */
	EV_ENSO_APP,		/* --nic enso: the host's Ensō application runs
				 * (synenso.c) */
};

struct sev {
	int64_t t;
	uint64_t seq;
	uint32_t type, who;
	uint64_t a;
	void *p;
};

/* What a packet is, as far as the scenario cares. */
enum pkt_kind { PK_REQ, PK_RESP, PK_BG_TCP, PK_BG_ACK, PK_BG_UDP, PK_BG_ARP,
	PK_TCP_ACK };

struct pkt {
	enum pkt_kind kind;
	int interesting;
	unsigned req;			/* request number (PK_REQ/PK_RESP) */
	int src_host, dst_host;		/* simulated hosts, -1 if none */
	int src_dummy, dst_dummy;	/* ns-3 hosts (index), -1 if none */
	int broadcast;
	uint64_t uid;
	uint32_t sip, dip;
	uint16_t sport, dport, ipid;
	uint8_t proto;
	unsigned payload, iplen, frame;
	uint64_t smac, dmac;
	uint32_t tcpseq;
	uint64_t tx_span;		/* nic.tx that sent it */
	int refs;			/* copies in flight (broadcast) */
	/* --kernel linux */
	unsigned conn;			/* connection (client thread) */
	int req_end;			/* request whose last byte this is, or -1 */
	struct pkt *next;		/* the next segment of one TSO send */
};

/* A received frame as the Linux host model sees it in its RX ring. */
struct lrx {
	uint64_t span;			/* nic.rx */
	int64_t ts;
	enum pkt_kind kind;
	unsigned conn, bytes, segs;
	int req_end, proto, to_server;
};

/* Hop state of one copy of a packet inside ns-3. */
struct hop {
	struct pkt *pk;
	int sw;				/* switch it is at */
	unsigned dev;			/* device it arrives on / is at */
	uint64_t prev_span;		/* previous device span (interesting) */
};

/* A receive context the NIC queued for the host's receiving syscall. */
struct rxctx {
	uint64_t span;
	int64_t ts;
	enum pkt_kind kind;
	unsigned req;
	int src_host;
};

/* A register access on its way from a host to its NIC. */
struct nic_mmio {
	uint64_t span;			/* host.mmio */
	int write, posted;
	uint32_t off;
	unsigned len;
	uint64_t val, id;
	struct pkt *pk;
	unsigned cpu;			/* --kernel linux: the CPU that waits */
};

enum task_kind { TK_SEND, TK_RECV, TK_IRQ, TK_OTHER, TK_STATS, TK_CFG,
	TK_MSIX, TK_FSYNC, TK_TCP, TK_NKINDS };

struct task {
	enum task_kind kind;
	struct pkt *pk;			/* TK_SEND */
};

enum step_op { ST_FUNC, ST_MMIO, ST_CFG, ST_POSTINT, ST_CLEARINT, ST_FAULT };

struct step {
	enum step_op op;
	int write, bar, posted;
	const struct ssp_synsym *fn;
	uint32_t off;
	uint64_t val;
	unsigned size;
	int64_t dur;			/* until the next step */
	struct pkt *pk;			/* doorbell: the frame to send */
};

#define MAXSTEPS 400
#define TASKQ 64
#define RXQ 256

struct nic;
struct synq;
struct syne1000;
struct synenso;
struct ssp_synnslog;
struct ssp_synpcap;
struct lhost;
struct lworld;

struct host {
	unsigned idx;
	char name[32];
	int server;
	unsigned stream;		/* truth stream index */
	int sw;				/* switch of its NIC */
	unsigned dev;			/* ns-3 device of its NIC */
	uint32_t ip;
	struct nic *nic;
	struct ssp_synlog *log;
	struct ssp_syngem5 g;
	struct ssp_synrng rng;
	/* CPU */
	int busy, blocked;
	struct task q[TASKQ];
	unsigned qhead, qlen;
	int recv_queued;
	struct task cur;
	struct step steps[MAXSTEPS];
	unsigned nsteps, pc;
	uint64_t cur_sys;		/* truth id of the current syscall span */
	/* receive contexts not yet taken by a receiving syscall */
	struct rxctx rx[RXQ];
	unsigned rxhead, rxlen;
	struct rxctx taken[RXQ];	/* what the running receive syscall took */
	unsigned ntaken;
	/* things that make values look real */
	uint64_t compl_pool[8];		/* PciPioCompl addresses (mmio ids) */
	uint32_t tx_tail, rx_tail;
	uint16_t ipid;
	uint64_t stat_ctr;
	unsigned tcp_step;		/* loopback TCP: socket, bind, connect, close */
	/* Corundum: what the NIC wrote to the host's rings, not yet handled */
	unsigned eq_tx, eq_rx;		/* events of each type */
	unsigned txcq;			/* TX completions */
	unsigned rx_missing;		/* RX buffers used since the last refill */
	uint32_t eq_tail, txcq_tail, rxcq_tail;	/* the driver's pointers */
	struct lhost *lx;		/* --kernel linux: the host model */
	struct ssp_synqemu *qemu;	/* --host qemu: its log writer, else NULL */
	int intx;			/* --nic e1000: the INTx line's level */
};

/* One NIC DMA operation; its address is the nicbm op pointer. */
enum dma_cont { DC_TX_DESC, DC_TX_DATA, DC_TX_WB, DC_RX_DATA, DC_RX_DESC,
	DC_PREFETCH,
	/* corundum_bm: descriptor read, then the same op moves the payload;
	 * then a completion write, an event write, MSI */
	DC_CQM_TX_DESC, DC_CQM_TX_DATA, DC_CQM_RX_DESC, DC_CQM_RX_DATA,
	DC_CQM_TX_CPL, DC_CQM_RX_CPL, DC_CQM_EVENT,
	/* --print real: i40e_bm's queues (synq.c) */
	DC_Q_FETCH, DC_Q_DATA, DC_Q_RXDATA, DC_Q_WB, DC_Q_HWB,
	/* --nic enso (synenso.c): a write, a TX notification read, a data
	 * read */
	DC_ENSO_WR, DC_ENSO_TXN, DC_ENSO_DATA };

struct rxwork {
	uint64_t span;
	int left;
	unsigned q;			/* --kernel linux: RX queue */
	struct lrx rx;
};

struct dmaop {
	uint64_t ptr;
	int busy, write;
	uint64_t addr;
	unsigned len;
	uint64_t span;			/* nic.dma span */
	uint64_t cause;			/* real cause span */
	enum dma_cont cont;
	struct pkt *pk;
	struct rxwork *rw;
	unsigned evtype;		/* DC_CQM_EVENT: 0 TX, 1 RX completion */
	unsigned q;			/* --kernel linux: TX queue */
	struct dmaop *next_free;
	/* --print real (synq.c): the queue, its descriptors, a payload
	 * read's parts */
	unsigned rxq, pos, nd, bin;
	unsigned rest;			/* bytes still to read after this part */
	/* --nic enso: the object's data buffer (malloc'd with it), what
	 * comes after it, a value for its bytes */
	uint64_t dbuf, arg;
	void *ext;
	uint8_t *qdata;			/* a queued write's bytes (synnicbm.c) */
};

/* --kernel linux: one MSI-X vector of a NIC (queue pair vec - 1). */
#define NIC_MAXVEC 4
#define NIC_VRX 64
struct nicvec {
	int sched, masked, pending;
	int64_t last;
	uint64_t tx_cause;		/* newest TX write-back's doorbell */
	uint64_t rx[NIC_VRX];		/* rx spans since the last MSI-X */
	unsigned nrx;
};

#define NIC_MAXOPS 256

struct nic {
	unsigned idx;
	char name[40];
	unsigned stream;
	struct host *h;
	struct ssp_synlog *log;
	struct ssp_synrng rng;
	enum ssp_synparams_nicbm dialect;	/* which nicbm version prints the log */
	uint64_t mac;			/* in wire order, first byte highest */
	uint64_t last_cause;		/* SPEC §3 "last causing span" */
	unsigned pending;		/* DMAs in flight */
	struct dmaop ops[NIC_MAXOPS];
	struct dmaop *free_ops;
	int glue;			/* dma data bytes not ended by a newline */
	int64_t last_rx_ts, last_tx_ts;
	/* interrupt throttling */
	int irq_sched;
	uint64_t irq_cause;
	int64_t irq_last;
	/* addresses */
	uint64_t tx_ring, rx_ring, tx_buf, rx_buf;
	uint32_t tx_idx, rx_idx;
	/* Corundum: the other rings and the NIC's pointers (16 bit) */
	int corundum;
	uint64_t txcq_ring, rxcq_ring, eq_ring;
	uint32_t txq_head, txq_fetch, txq_tail;	/* host's head, next fetch, done */
	uint32_t rxq_head, rxq_fetch, rxq_tail;
	uint32_t txcq_head, rxcq_head, eq_head;	/* written and completed */
	uint32_t txcq_next, rxcq_next, eq_next;	/* next entry to write */
	uint64_t nev[SSP_EV_NTYPES];
	uint64_t nskip[SSP_SYNSKIP_N];
	uint64_t glued;
	struct nicvec lv[NIC_MAXVEC];	/* --kernel linux */
	struct synq *rq;		/* --print real: i40e_bm's queues */
	struct syne1000 *e1k;		/* --nic e1000: its model (syne1000.c) */
	struct synenso *enso;		/* --nic enso: its model and its host's
					 * application (synenso.c) */
	struct ssp_synlog *devlog;	/* --nic enso: enso_bm's stderr */
};

/* Bottleneck direction (from switch sw). */
struct link {
	int64_t busy_until;
	int64_t *deq;			/* dequeue times of packets in the queue */
	unsigned qhead, qlen, qcap;
};

struct net {
	struct ssp_synlog *log;
	unsigned stream;
	uint64_t next_uid;
	unsigned ncosim[2];		/* NICs per switch */
	struct link bl[2];
	int64_t *last_out;		/* per (switch, device): last TxPacketToAdapter */
	unsigned ndev[2], maxdev;
	unsigned nflows;		/* ns-3 host pairs */
	uint32_t *seq;			/* per flow: next TCP sequence number */
	unsigned *acks;			/* per flow: segments not yet acked */
	uint16_t *ipid;			/* per ns-3 host */
	int64_t burst_mean;		/* ps between bursts of one flow */
	uint64_t nev[SSP_EV_NTYPES];
	uint64_t bg_packets, bg_drops, bg_to_nic;
	struct ssp_synrng rng;
	int64_t sw_fwd;			/* --net switch: last forwarding */
	struct ssp_synnslog *nslog;	/* --net ns3-nslog: the printer's state */
	struct ssp_synpcap *pcap;	/* --net switch-pcap: the capture */
	uint64_t pcap_bytes;		/* its size */
};

struct req {
	unsigned client, server;
	int64_t t_send, t_done;
};

struct syn {
	const struct ssp_synparams *p;
	int dry;
	struct ssp_synrng rng;
	struct ssp_synsym_set *syms;
	struct ssp_syngem5_execpool *kpool, *upool;
	struct ssp_syngem5_execpool *lkpool[4], *lupool[4];	/* per CPU */
	int lx;				/* --kernel linux */
	int real;			/* --print real (synq.c, SPEC §3c) */
	struct lworld *lw;
	struct ssp_syntruth *truth;
	struct ssp_pacer pacer;
	/* events */
	struct sev *heap;
	size_t nheap, capheap;
	uint64_t seq;
	int64_t now, end, t0;
	int ending;			/* all requests answered: stop periodic work */
	/* model */
	unsigned nhosts, nservers, nclients;
	struct host *hosts;
	struct nic *nics;
	struct net net;
	struct req *reqs;
	unsigned nreqs, rounds_sent, reqs_sent, reqs_done;
	char **stream_names;
	unsigned nstreams;
	/* symbols used by the scripts */
	const struct ssp_synsym *fn_entry, *fn_error_entry;
	const struct ssp_synsym *lbl_safe_stack;	/* inside fn_entry */
	int failed;
	struct ssp_err err;
	uint8_t *qemu_stream;		/* --host qemu: 1 for the hosts' streams */
};

/* The event queue, a min-heap on (t, seq).  Never schedules into the
 * past (t < now runs at now); out of memory sets s->failed. */
void ssp_synmodel_schedule(struct syn *s, int64_t t, uint32_t type,
    uint32_t who, uint64_t a, void *p);
/* Take the next event into *out: 1, or 0 if the queue is empty. */
int ssp_synmodel_pop(struct syn *s, struct sev *out);
/* Record a span in the truth; rule_parent is the parent SPEC §3's rules
 * give it, if other than the real one. */
uint64_t ssp_synmodel_span(struct syn *s, unsigned stream, unsigned kind,
    int64_t start, const char *key, uint64_t parent, uint64_t rule_parent);
uint64_t ssp_synmodel_span_links(struct syn *s, unsigned stream,
    unsigned kind, int64_t start, const char *key, uint64_t parent,
    const uint64_t *links, size_t nlinks);
/* A vmlinux function the scripts use; a missing one fails the run. */
const struct ssp_synsym *ssp_synmodel_fn(struct syn *s, const char *name);
/* Request req answered at t; the last one sets the end of the run. */
void ssp_synmodel_request_done(struct syn *s, unsigned req, int64_t t);
/* Packets are reference counted (a broadcast has a copy per port). */
struct pkt *ssp_synmodel_pkt_new(struct syn *s, enum pkt_kind kind);
void ssp_synmodel_pkt_put(struct pkt *pk);

#endif
