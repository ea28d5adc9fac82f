/*
 * The span builder's insides, shared by its files and by nothing else
 * (scripts/checkdeps.py refuses an include of this header from any file
 * but lib/span/spanb.c and lib/span/spanb_*.c):
 *
 *   spanb.c         the core: span life cycle (make, reference, finish,
 *                   write in parent order, leave out), ids, the ready and
 *                   wait lists, links, context queues, string ids, the
 *                   public API and the table of simulators (sims[])
 *   spanb_host.c    gem5 hosts: syscalls, mmio, dma, msix, pci, intr
 *   spanb_kctx.c    the kernel context model's glue with a host (the
 *                   callbacks of span/kctx.h, function entries)
 *   spanb_nic.c     nicbm NICs: mmio, dma, msix, tx, rx, the NIC work
 *                   chains, TSO, rx batching
 *   spanb_net.c     ns-3 networks: device spans, packet chains, sweeps
 *   spanb_switch.c  SimBricks net_switch ports, inside a net stream
 *   spanb_qemu.c    QEMU hosts: mmio, dma and msix spans, no syscalls
 *   spanb_corundum.c  Corundum Verilator NICs: nicbm's handlers, and the
 *                   register completions with the host's request id
 *   spanb_e1000.c   e1000 NICs: nicbm's handlers, DMAs matched in order
 *   spanb_nslog.c   ns-3 NS_LOG device spans' parents, inside a net stream
 *   spanb_pcap.c    packet captures (net_seen), inside a net stream
 *
 * A simulator is one row of sims[] (spanb.c): a struct ssp_spanb_sim of
 * handlers the core calls for every stream of that enum ssp_sim; nothing
 * outside the simulator's own file branches on the kind.  To add a
 * simulator X (SSP_SIM_X in stream/event.h, given to its topology
 * streams by config/topo.c):
 *   1. lib/span/spanb_X.c with
 *      - its per-stream state: struct hstate, nstate or wstate when it
 *        plays that role, so that the other roles find what they share
 *        (a host sets the recv queue of its pcie links; NICs and
 *        networks meet on b->pl and b->el), or a struct of its own
 *        (defined here, a member of struct stream's union u);
 *      - events(b, st, ev, n): each of the n packed events
 *        (ssp_rec_packed_next) is handled if ours(b, SSP_SIM_Y, ev),
 *        Y the simulator whose event types X writes (ssp_event_sim),
 *        else drop(b, st, SSP_DROP_FOREIGN);
 *      - end(b, st): close what is still open (ssp_spanb_close_open,
 *        _close_list, _close_stream) and drop the references it holds;
 *      - init, drain and free if it needs them (NULL otherwise);
 *      - skips(b, st): the event types the stream's reader may leave out
 *        (see struct ssp_spanb_sim), or NULL: it reads every event;
 *      - const struct ssp_spanb_sim ssp_spanb_X_sim = { init, events,
 *        end, drain, free, skips };
 *   2. its declaration with the others below (extern const ...);
 *   3. the row [SSP_SIM_X] = &ssp_spanb_X_sim in sims[] (spanb.c);
 *   4. its line in lib/span/README.md, its cases in tests/unit/test_spanb.c.
 * Handlers make spans with ssp_spanb_mk, attach events with add_ev, set
 * attributes with SA(s, SSP_SA_*), parents with set_parent (or orphan),
 * hand contexts to other simulators with ssp_spanb_send on the links'
 * queues, and end spans with ssp_spanb_done.  Names: what is shared
 * across files and not inline is ssp_spanb_* (the core) or
 * ssp_spanb_<file>_* (make checksymbols); inline helpers have short names.
 */
#ifndef SSP_SPANB_INT_H
#define SSP_SPANB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/fifo.h"
#include "base/map3.h"
#include "base/pool.h"
#include "span/kctx.h"
#include "span/spanb.h"
#include "stream/event.h"

#define NC SSP_SF_NCOMMON
#define NA 12			/* attribute slots: the most any kind has */
_Static_assert(NC + NA <= SSP_MAXF, "attributes fit a record");
_Static_assert(NA == 12, "ssp_spanb_mk() clears 12 attribute slots");
/* Attribute field f (a constant SSP_SA_*) of span s, an lvalue; a field
 * outside the slots does not compile. */
#define SA(s, f) ((s)->a[(f) - NC + 0 * sizeof(struct { int sa_ok; \
	_Static_assert((unsigned)(f) - (unsigned)NC < NA, "SA: no such slot"); })])

#define RXB_MAX SSP_SPANB_RXB_MAX
#define RING_MAX 16		/* descriptor rings told apart per NIC */
#define VEC_MAX 16		/* MSI-X vectors learnt per ring (vec < 16) */
#define RING_SHIFT 14		/* ring key: address / 16 KiB (512 x 32 B) */
#define RING_MASK ((UINT64_C(1) << RING_SHIFT) - 1)
#define BUFR_SHIFT 20		/* rx buffer region: address / 1 MiB */
#define BUFR_N 64		/* buffer regions remembered per NIC */
#define VDELAY_N 8		/* interrupt delay candidates per NIC */
#define TSO_MAX SSP_SPANB_TSO_MAX
#define IRQQ_MAX SSP_SPANB_IRQQ_MAX
#define INTX_MAX SSP_SPANB_INTX_MAX
enum { CHAIN_READ, CHAIN_TX, CHAIN_WRITE };	/* nstate.chain_tx */
#define FC_SYSVEC 0x80000000u	/* sinfo: an asm_sysvec_* irq entry */
#define FC_HANDLER 0x40000000u	/* sinfo: a syscall handler (sinfo.call) */
#define IPI_MAX 64		/* reschedule IPIs sent, not yet taken, per host */

/* --- spans, member events, links ----------------------------------------- */

enum { ST_OPEN, ST_DONE, ST_WRITTEN, ST_GONE };
enum {
	X_NICWORK = 0x1,	/* syscall: sent a context to a NIC */
	X_RECEIVED = 0x2,	/* syscall: looked for rx contexts */
	X_TENTATIVE = 0x4,	/* background device span, adapter not reached */
	X_INSIDE = 0x8,		/* host mmio answered inside gem5 */
	X_HANDLER = 0x10,	/* syscall: call is its handler's name */
};

struct evn {			/* a member event (with --events) */
	struct evn *next;
	int64_t ts;
	uint32_t type, nf;
	uint64_t f[];
};
#define EV_SMALL 4

struct lnk {
	struct lnk *next;	/* in the source's out list */
	struct lnk *wnext;	/* in the target's in list, while waiting */
	struct span *src;	/* the span that has the link */
	struct span *dst;	/* the target; holds a reference */
	int resume;		/* kind "resume" (else "rx") */
};

struct span {
	struct span *parent;	/* holds a reference until written */
	struct span *next;	/* in the parent's wait list or the ready list */
	struct span *wait_head, *wait_tail;	/* finished children waiting */
	struct evn *ev_head, *ev_tail;
	struct lnk *out;	/* links from this span, until it is written */
	struct lnk *in;		/* links whose source waits for this span */
	uint64_t seq;		/* creation order */
	uint64_t id, trace;	/* when written */
	int64_t start, end;
	uint32_t refs, nev;
	uint32_t pend;		/* unwritten link targets waited for */
	uint32_t fcls;		/* syscall: function classes entered */
	uint16_t kind, stream;
	uint8_t state, flags, cause, xf;
	uint64_t a[NA];		/* attributes, field NC + i */
};

/* The i-th oldest span of a context queue. */
static inline struct span *
q_at(const struct ssp_fifo *q, uint32_t i)
{
	return ssp_fifo_at(q, i);
}

/* Take the i-th oldest span out of a context queue (i < n), keeping the
 * others' order. */
static inline struct span *
q_take(struct ssp_fifo *q, uint32_t i)
{
	struct span *x = ssp_fifo_at(q, i);

	for (; i > 0; i--)
		q->v[(q->head + i) & (q->cap - 1)] =
		    q->v[(q->head + i - 1) & (q->cap - 1)];
	ssp_fifo_pop(q);
	return x;
}

/* --- streams and links --------------------------------------------------- */

struct sinfo {			/* what an input string id means, computed once */
	uint32_t out;		/* output string id */
	uint32_t fcls;		/* function classes (| FC_SYSVEC, FC_HANDLER) */
	uint32_t call;		/* FC_HANDLER: output id of the syscall's name */
	uint16_t link;		/* host: pcie link + 1 of an adapter component */
	uint16_t cpu;		/* host: cpu index + 1 */
	uint8_t have;		/* HAVE_* */
	uint8_t dev;		/* net: DEV_*, what a device type name is */
	uint8_t src;		/* net: SRC_*, what a trace source name is */
};
enum { HAVE_OUT = 1, HAVE_FCLS = 2, HAVE_LINK = 4, HAVE_CPU = 8, HAVE_DEV = 16,
	HAVE_SRC = 32 };
enum { DEV_OTHER, DEV_SIMPLE, DEV_SWITCH };	/* SimpleNetDevice, NetSwitch */
/* NS_LOG sources: a device receives, the bridge takes, a device sends */
enum { SRC_OTHER, SRC_NSLOG_IN, SRC_NSLOG_BRIDGE, SRC_NSLOG_OUT };

struct ssp_spanb_sim;

struct khost {			/* the kctx callbacks' context */
	struct ssp_spanb *b;
	unsigned st;
};

/* A host stream (gem5). */
struct hstate {
	struct span **cur;	/* current syscall per cpu */
	uint64_t *cpu_out;	/* output string id of each cpu */
	unsigned ncpu, ccpu;
	int last_cpu;
	unsigned last_fcls;	/* classes of the function entered last */
	struct span *posted;	/* posted write waiting for its response */
	struct span *pci;	/* pci_host access waiting for its config line */
	/* postInts waiting for their clearInt, one per interface (a disk's
	 * interrupt may come between a NIC's postInt and clearInt), oldest
	 * first */
	struct intx {
		struct span *s;
		uint64_t comp;	/* the interface: comp's output string id */
		uint64_t bdf;	/* bus << 16 | dev << 8 | func */
	} intx[INTX_MAX];
	unsigned nintx;
	unsigned *plinks, nplinks;	/* its pcie links */
	struct ssp_fifo recv;	/* rx contexts for receiving syscalls */
	struct ssp_fifo irqq;	/* host msix spans for irq entries (kctx) */
	struct ipi {		/* reschedule IPIs sent (kctx; references) */
		struct span *from;
		unsigned cpu;
	} ipi[IPI_MAX];
	unsigned nipi;
	struct ssp_fifo hdma_dup;	/* open dma spans whose id another open
					 * one has (a dma_keyed link) */
	struct ssp_kctx *kctx;	/* kernel contexts (SPEC §3b), or NULL */
	struct khost kh;
	const struct ssp_rec *kev;	/* the function entry kctx works on */
	unsigned kcls;			/* its classes */
	int kev_used;			/* a closing context took it */
};

/* A NIC stream (nicbm). */
struct nstate {
	int plink, elink;	/* its pcie and eth links, or -1 */
	struct span *last;	/* last causing span (reference) */
	struct span *rxb[RXB_MAX];	/* rx since the last MSI-X (kctx; references) */
	uint8_t rxw[RXB_MAX];	/* their write DMAs completed (payload,
				 * then descriptor write-back: 2 asked for
				 * the interrupt) */
	uint64_t rxk[RXB_MAX];	/* ring key + 1 of its shortest write: the
				 * descriptor write-back (0: none) */
	uint32_t rxl[RXB_MAX];	/* ... its length */
	int64_t rxt[RXB_MAX];	/* time it asked (its second write) */
	uint8_t rxc[RXB_MAX];	/* a descriptor write-back covers it */
	uint16_t rxm[RXB_MAX];	/* the rings (bits of ring[]) whose
				 * write-back was under way when its
				 * payload was written: it waits for one
				 * of them (0: any) */
	uint64_t rxp[RXB_MAX];	/* its payload's buffer region + 1 */
	unsigned nrxb;
	/* Which vector each ring's write-backs ask for (the log names
	 * neither): evidence that an MSI-X of vector v came for that ring's
	 * write-backs, strong when it came the interrupt delay after the
	 * first of them (i40e_bm fires an ITR after the first request): the
	 * delay that repeats exactly, from a few candidates. */
	struct ring {
		uint64_t key;
		uint32_t score[VEC_MAX];
		uint32_t exact;		/* vectors with an exact delay, bits */
		uint8_t tx;		/* a tx ring (head write-backs) */
		uint64_t wbseq;		/* rx: the seq of its descriptor
					 * write-back under way (0: none) */
		uint64_t dsize;		/* rx: bytes per descriptor */
	} ring[RING_MAX];
	unsigned nring, nring_tx;
	/* the rings whose write-back the current MSI-X answers first: the
	 * vector's delay after it (or, that delay not known yet, the
	 * oldest waiting one) */
	uint64_t fire[RING_MAX];
	unsigned nfire;
	struct vdelay {
		int64_t d[VDELAY_N];
		uint32_t n[VDELAY_N];
	} vd;
	/* NIC work chains (kctx): a DMA issue or eth tx at the time of a
	 * completion inherits its cause; TSO segments follow their send. */
	struct span *chain;	/* the cause to inherit (reference), or NULL */
	int64_t chain_ts;
	int chain_tx;		/* CHAIN_*: what it came from */
	/* The rx ring a buffer region (address / 1 MiB) was last seen
	 * on for sure: a ring's buffers are allocated together (i40e fills
	 * each ring at ifup and reuses its pages in it). */
	struct bufring {
		uint64_t key;	/* region + 1, 0: free */
		unsigned ring;
	} bufr[BUFR_N];
	int chain_ring;		/* the rx ring whose descriptor write-back
				 * completed (index into ring[]), or -1 */
	uint64_t chain_end;	/* ... the address past it */
	struct tso {
		struct span *cause;	/* the doorbell (reference) */
		int64_t last;	/* its last segment's time */
		int64_t bytes;	/* that segment's wire bytes (frame + 20) */
	} tso[TSO_MAX];
	unsigned ntso;
	int64_t tso_ppb;	/* ps per wire byte, learnt (0: not yet) */
	struct txask {		/* the newest tx write-back of a ring */
		struct span *db;	/* its doorbell (reference) */
		uint64_t key;		/* its ring key + 1 */
		uint64_t seq;
		int64_t first;		/* the first since its vector fired */
	} txa[RING_MAX];
	unsigned ntxa;
	uint64_t txseq;
};

/* A network stream (ns-3 and net_switch). */
struct ssp_spanb_pcap;
struct wstate {
	struct span *held;	/* switch: the last egress span, not finished
				 * yet (a drop line may still end it) */
	struct ssp_spanb_pcap *pc;	/* a capture's state (spanb_pcap.c) */
};

/* A QEMU host stream: one simbricks-pci device per log (QEMU prints no
 * device name), the host's first pcie link. */
struct qstate {
	int plink;		/* or -1 */
};

/* A Corundum Verilator NIC: a NIC (nicbm's state first, so that
 * nic_of() finds it) whose register accesses finish apart. */
struct cstate {
	struct nstate n;	/* first: nicbm's handlers see it as u.nic */
	struct ssp_fifo rd, wr;	/* nic.mmio spans waiting for read_done /
				 * write_done, in order (their makers' references) */
	int dma_done_seen;	/* the AXI library's DMA completions are in the
				 * log: nic.dma spans end at them */
};

/* Every stream: what the core keeps, and the state of its simulator (a
 * union: one more load on each access to a separate allocation cost 0.5 %
 * of evspan's instructions). */
struct stream {
	const struct ssp_spanb_sim *sim;	/* its handlers */
	enum ssp_sim kind;
	int ended;
	struct sinfo *si;
	size_t nsi;
	/* what its reader may leave out (enum ssp_rec_act) and why (SSP_DROP_*),
	 * per event type, [SSP_EV_NTYPES] for unknown types */
	uint8_t act[SSP_EV_NTYPES + 1], why[SSP_EV_NTYPES + 1];
	union {			/* zeroed at the start */
		struct hstate host;
		struct nstate nic;
		struct wstate net;
		struct qstate qemu;
		struct cstate corundum;
	} u;
};

struct plink {
	unsigned host, nic;
	unsigned bars;		/* BARs addressing the NIC */
	struct ssp_fifo *recv;	/* the host's rx contexts for receiving
				 * syscalls, or NULL */
	struct ssp_fifo mmio;	/* host -> NIC */
	struct ssp_fifo msix;	/* NIC -> host */
	struct ssp_fifo dma;	/* NIC -> host, when dma_fifo */
	int dma_fifo;		/* DMAs are matched in order, not by the NIC's
				 * op (a QEMU host or an e1000 NIC prints none
				 * the other side knows) */
	int dma_keyed;		/* ... checked against the op, which repeats
				 * (Corundum's AXI write ids; with dma_fifo) */
	struct span *msix_open;	/* host msix waiting for "completed DMA id 0" */
};

/* An eth link (NIC <-> network device), or one end of an n2n link
 * (network device <-> network device, formats/topology.md): there the
 * other end is peer, what comes in from it is queued on tx (as a NIC's
 * transmissions are) and what leaves goes to the peer's tx; rx is unused. */
struct elink {
	unsigned nic, net;
	uint32_t node, dev;
	struct ssp_fifo tx;		/* NIC -> network; n2n: peer -> here */
	struct ssp_fifo rx;		/* network -> NIC */
	struct elink *peer;		/* n2n: the other end; eth: NULL */
};

struct ssp_spanb {
	const struct ssp_topo *t;
	const struct ssp_rules *rules;
	struct ssp_spanb_opts o;
	struct ssp_spanb_sink sink;
	struct stream *s;
	size_t ns;
	struct plink *pl;
	struct elink *el;		/* neth eth links, then 2 * nn2n n2n ends */
	size_t nel;
	struct ssp_map3 mmio_open;	/* (id, 0, host) */
	struct ssp_map3 hdma_open;	/* (id, adapter key, host) */
	struct ssp_map3 ndma_open;	/* (op, 0, nic) */
	struct ssp_map3 dma_ctx;	/* (op, 0, pcie link) */
	struct ssp_map3 net_open;	/* (uid, node << 32 | dev, net) */
	struct ssp_map3 chain;	/* (uid, 0, net): last hop of a packet */
	struct ssp_map3 elmap;	/* (node << 32 | dev, 0, net) -> elink */
	struct ssp_fifo pc_hold;	/* spanb_pcap.c: capture sightings of
					 * time pc_hold_ts, still open */
	int64_t pc_hold_ts;
	struct ssp_pool spool, evsmall, evlarge, lpool;
	struct span *ready_head, *ready_tail;
	uint64_t seq, next_id, live, peak;
	uint64_t cause_str[SSP_CAUSE_N];
	uint64_t link_kind, link_resume;
	int kctx;			/* the kernel context model is on */
	unsigned nattr[SSP_SK_NKINDS];
	uint32_t strmask[SSP_EV_NTYPES];	/* string fields per event type */
	uint8_t evsim[SSP_EV_NTYPES];	/* simulator of each event type */
	uint32_t ctx_limit;
	int64_t idle, now;
	enum ssp_root_policy root;
	enum ssp_bg_policy bg;
	int64_t next_sweep;
	enum ssp_status status;	/* the first error (b->err), sticky */
	struct ssp_err err;
	struct ssp_spanb_stats st;
};

/* --- simulators ---------------------------------------------------------- */

/* What the core calls for the streams of one simulator kind (sims[]). */
struct ssp_spanb_sim {
	/* Set up the state once every stream has its own (NULL: nothing). */
	enum ssp_status (*init)(struct ssp_spanb *b, unsigned st,
	    struct ssp_err *e);
	/* A run of n >= 1 events of the stream (ssp_rec_packed_next). */
	void (*events)(struct ssp_spanb *b, unsigned st,
	    const struct ssp_rec *ev, size_t n);
	/* No more events: close what is open (OPEN), drop references. */
	void (*end)(struct ssp_spanb *b, unsigned st);
	/* The end of all input, every stream ended: contexts the stream still
	 * queues were never used (NULL: none). */
	void (*drain)(struct ssp_spanb *b, unsigned st);
	/* Free what init allocated, also after it failed (NULL: nothing). */
	void (*free)(struct ssp_spanb *b, unsigned st);
	/*
	 * After init: which event types the reader may leave out, with
	 * skip(b, st, type, act, why) (NULL: none).  SSP_RA_SKIP: events()
	 * would only drop(b, st, why) them.  SSP_RA_TICK: it would drop them
	 * too, but first end what waits for a later event of the stream
	 * (host: a posted write, a pci_host access), and nothing else:
	 * such waits must start at an event of an SSP_RA_ARM type, at its
	 * timestamp.  A handler that gains a wait of this kind marks the
	 * types that start it ARM; one that makes anything else of an event
	 * type keeps it (tests/cli/evspan-skip.sh compares the output with
	 * and without the filter).
	 */
	void (*skips)(struct ssp_spanb *b, unsigned st);
};

extern const struct ssp_spanb_sim ssp_spanb_host_sim;	/* gem5 */
extern const struct ssp_spanb_sim ssp_spanb_nic_sim;	/* nicbm */
extern const struct ssp_spanb_sim ssp_spanb_net_sim;	/* ns-3, net_switch */
extern const struct ssp_spanb_sim ssp_spanb_qemu_sim;	/* qemu */
extern const struct ssp_spanb_sim ssp_spanb_corundum_sim;	/* corundum */
extern const struct ssp_spanb_sim ssp_spanb_e1000_sim;	/* e1000 */

/* --- the core (spanb.c) -------------------------------------------------- */

/* A new open span of stream st starting at ts (NULL: out of memory). */
struct span *ssp_spanb_mk(struct ssp_spanb *b, unsigned kind, unsigned st,
    int64_t ts);
/* The span has all its events: written once its parent is (its links'
 * targets first), or left out under a left-out syscall. */
void ssp_spanb_done(struct ssp_spanb *b, struct span *s);
/* The same for a span whose last event will not come (INCOMPLETE). */
void ssp_spanb_incomplete(struct ssp_spanb *b, struct span *s);
/* Leave a span out (its events counted as dropped for reason). */
void ssp_spanb_gone(struct ssp_spanb *b, struct span *s, unsigned reason);
/* Queue s as a context of kind ctx (SSP_CTX_*); the queue holds a
 * reference, the oldest is dropped past the rules' context-limit. */
void ssp_spanb_send(struct ssp_spanb *b, struct ssp_fifo *q, struct span *s,
    unsigned ctx);
/* Stream end: close s (OPEN), or leave it out if it was tentative. */
void ssp_spanb_close_open(struct ssp_spanb *b, struct span *s);
/* The same for k spans, in creation order (list is sorted). */
void ssp_spanb_close_list(struct ssp_spanb *b, struct span **list, size_t k);
/* The same for the spans of map m whose k3 is st (removed from m). */
void ssp_spanb_close_stream(struct ssp_spanb *b, struct ssp_map3 *m,
    unsigned st);
/* Drop the contexts left in q, counted as never used (ctx_unused). */
void ssp_spanb_drain(struct ssp_spanb *b, struct ssp_fifo *q, unsigned ctx);
/* An output string id for text of the builder's own (0: failed). */
uint64_t ssp_spanb_intern(struct ssp_spanb *b, const char *s, size_t len);
/* Behind the inline helpers: */
void ssp_spanb_fail(struct ssp_spanb *b, enum ssp_status code,
    const char *what);
struct sinfo *ssp_spanb_sinfo_grow(struct ssp_spanb *b, unsigned st,
    uint64_t id);
uint64_t ssp_spanb_ostr_new(struct ssp_spanb *b, unsigned st, uint64_t id,
    struct sinfo *si);
void ssp_spanb_keep_ev(struct ssp_spanb *b, struct span *s,
    const struct ssp_rec *ev);

/* --- between the handlers ------------------------------------------------ */

/* spanb_nic.c, for the NICs built on nicbm's handlers: one event of a NIC
 * stream as nicbm's; the host mmio context a NIC access at BAR offset off
 * takes from the NIC's pcie link (NULL: none); the NIC's last causing
 * span. */
void ssp_spanb_nic_event(struct ssp_spanb *b, unsigned st,
    const struct ssp_rec *ev);
struct span *ssp_spanb_nic_mmio_ctx(struct ssp_spanb *b, struct nstate *n,
    uint64_t off);
void ssp_spanb_nic_set_last(struct ssp_spanb *b, struct nstate *n,
    struct span *s);

/* spanb_host.c: a host CPU's index by name (behind cpu_of); a receiving
 * syscall takes its rx contexts. */
unsigned ssp_spanb_host_cpu_new(struct ssp_spanb *b, unsigned st,
    uint64_t cpu, struct sinfo *si);
void ssp_spanb_host_receive(struct ssp_spanb *b, struct hstate *h,
    struct span *sc);
/* A member function entry of syscall sc: its call (the handler's name,
 * else the first function after the entry). */
void ssp_spanb_host_call(struct ssp_spanb *b, unsigned st, struct span *sc,
    const struct ssp_rec *ev, unsigned cls);
/* spanb_kctx.c: the kernel context model of a host stream (the rules turn
 * it on): its set-up, a function entry, a user-mode event, the stream's
 * end, and the parent of host device work. */
enum ssp_status ssp_spanb_kctx_new(struct ssp_spanb *b, unsigned st,
    struct ssp_err *e);
void ssp_spanb_kctx_func(struct ssp_spanb *b, unsigned st,
    const struct ssp_rec *ev, unsigned cls);
void ssp_spanb_kctx_user(struct ssp_spanb *b, unsigned st,
    const struct ssp_rec *ev);
void ssp_spanb_kctx_end(struct ssp_spanb *b, unsigned st);
void ssp_spanb_kctx_parent(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev);
/* spanb_net.c, for the switch: the eth link of a network device, the
 * attributes of a device span, the packet-idle sweep of b->chain. */
struct elink *ssp_spanb_net_elink(struct ssp_spanb *b, unsigned st,
    uint64_t node, uint64_t dev);
void ssp_spanb_net_attrs(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev, int first);
void ssp_spanb_net_sweep(struct ssp_spanb *b);
/* spanb_switch.c: an event of a net_switch device; the held egress span
 * is complete (the next event, the stream's end). */
void ssp_spanb_switch_event(struct ssp_spanb *b, unsigned st,
    const struct ssp_rec *ev);
void ssp_spanb_switch_flush(struct ssp_spanb *b, struct wstate *w);
/* spanb_nslog.c: the parent of an NS_LOG device span (the span that
 * brought the packet into this node, for one that sends it on), and the
 * chain key its dequeue is remembered under. */
struct span *ssp_spanb_nslog_prev(struct ssp_spanb *b, unsigned st,
    const struct ssp_rec *ev);
uint64_t ssp_spanb_nslog_key(struct ssp_spanb *b, unsigned st,
    const struct ssp_rec *ev);
/* Which way an NS_LOG event's packet goes at its device: -1 in (a
 * reception and the bridge taking it), 1 out (a send), 0 not NS_LOG. */
int ssp_spanb_nslog_dir(struct ssp_spanb *b, unsigned st,
    const struct ssp_rec *ev);
/* spanb_pcap.c: a net_seen event of a capture; the end of its stream, the
 * drain of its unplaced copies, its state freed; the context of a NIC's
 * reception at ts of len bytes over eth link el (what the network sent on
 * el->rx, or a switch capture's copy whose port was not known: a
 * reference, or NULL). */
void ssp_spanb_pcap_event(struct ssp_spanb *b, unsigned st,
    const struct ssp_rec *ev);
void ssp_spanb_pcap_end(struct ssp_spanb *b, unsigned st);
void ssp_spanb_pcap_drain(struct ssp_spanb *b, unsigned st);
void ssp_spanb_pcap_free(struct ssp_spanb *b, unsigned st);
struct span *ssp_spanb_pcap_rx(struct ssp_spanb *b, struct elink *el,
    int64_t ts, uint64_t len);

/* --- inline helpers ------------------------------------------------------ */

/* The state of stream st, by its kind. */
static inline struct hstate *
host_of(struct ssp_spanb *b, unsigned st)
{
	return &b->s[st].u.host;
}

static inline struct nstate *
nic_of(struct ssp_spanb *b, unsigned st)
{
	return &b->s[st].u.nic;
}

static inline struct wstate *
net_of(struct ssp_spanb *b, unsigned st)
{
	return &b->s[st].u.net;
}

/* A packet leaves a network device by link el: its span's context goes to
 * the NIC (eth), or into the other network at the peer end (n2n). */
static inline void
el_out(struct ssp_spanb *b, struct elink *el, struct span *s)
{
	if (el->peer != NULL)
		ssp_spanb_send(b, &el->peer->tx, s, SSP_CTX_TX);
	else
		ssp_spanb_send(b, &el->rx, s, SSP_CTX_RX);
}

/* The queue el_out put s on last. */
static inline struct ssp_fifo *
el_outq(struct elink *el)
{
	return el->peer != NULL ? &el->peer->tx : &el->rx;
}


/* The first error sticks (b->status, b->err); the builder goes on without
 * effect until the caller sees it. */
static inline void
nomem(struct ssp_spanb *b)
{
	ssp_spanb_fail(b, SSP_ERR_NOMEM, "out of memory");
}

/* What input string id means in stream st (zeroed when new). */
static inline struct sinfo *
sinfo(struct ssp_spanb *b, unsigned st, uint64_t id)
{
	struct stream *s = &b->s[st];

	return id < s->nsi ? &s->si[id] : ssp_spanb_sinfo_grow(b, st, id);
}

/* The text of an input string id ("" when unknown). */
static inline const char *
text(struct ssp_spanb *b, unsigned st, uint64_t id, size_t *len)
{
	const char *t = id != 0 ? b->sink.text(b->sink.ctx, st, id, len) : NULL;

	if (t == NULL) {
		*len = 0;
		return "";
	}
	return t;
}

/* Output string id of an input string id. */
static inline uint64_t
ostr(struct ssp_spanb *b, unsigned st, uint64_t id)
{
	struct sinfo *si;

	if (id == 0)
		return 0;
	si = sinfo(b, st, id);
	return (si->have & HAVE_OUT) ? si->out :
	    ssp_spanb_ostr_new(b, st, id, si);
}

/* Span references: the parent, links, context queues and maps each hold
 * one; a span is freed when it is written (or left out) and unreferenced. */
static inline void
sfree(struct ssp_spanb *b, struct span *s)
{
	ssp_pool_put(&b->spool, s);
	b->live--;
}

static inline void
unref(struct ssp_spanb *b, struct span *s)
{
	if (--s->refs == 0 && s->state >= ST_WRITTEN)
		sfree(b, s);
}

static inline void
ref(struct span *s)
{
	s->refs++;
}

/* The span misses its parent: why (SSP_CAUSE_*). */
static inline void
orphan(struct span *s, unsigned cause)
{
	s->flags |= SSP_SPAN_ORPHAN;
	s->cause = (uint8_t)(cause + 1);
}

/* Attach an event (counted; copied with --events). */
static inline void
add_ev(struct ssp_spanb *b, struct span *s, const struct ssp_rec *ev)
{
	s->nev++;
	if (ev->ts > s->end)
		s->end = ev->ts;
	if (b->o.events)
		ssp_spanb_keep_ev(b, s, ev);
}

static inline void
set_parent(struct span *s, struct span *p)
{
	s->parent = p;
	if (p != NULL)
		ref(p);
}

/* An event used in no span, and why (SSP_DROP_*). */
static inline void
drop(struct ssp_spanb *b, unsigned st, unsigned reason)
{
	b->st.drop[reason]++;
	b->st.dropped[st]++;
}

/* A host's CPU index by its name's string id (found once per name, out of
 * line). */
static inline unsigned
cpu_of(struct ssp_spanb *b, unsigned st, uint64_t cpu)
{
	struct sinfo *si = sinfo(b, st, cpu);

	return (si->have & HAVE_CPU) ? si->cpu - 1u :
	    ssp_spanb_host_cpu_new(b, st, cpu, si);
}

/* The reader of stream st may leave out events of type t (SSP_EV_NTYPES:
 * unknown types) with action act (enum ssp_rec_act); they are dropped
 * for reason why. */
static inline void
skip(struct ssp_spanb *b, unsigned st, unsigned t, unsigned act,
    unsigned why)
{
	b->s[st].act[t] = (uint8_t)act;
	b->s[st].why[t] = (uint8_t)why;
}

/* Every type not of simulator kind may be left out (ours() is false). */
static inline void
skip_foreign(struct ssp_spanb *b, unsigned st, enum ssp_sim kind)
{
	unsigned t;

	for (t = 0; t <= SSP_EV_NTYPES; t++)
		if (t == SSP_EV_NTYPES || b->evsim[t] != kind)
			skip(b, st, t, SSP_RA_SKIP, SSP_DROP_FOREIGN);
}

/* Is ev of this stream kind's simulator (and of a known type)? */
static inline int
ours(const struct ssp_spanb *b, enum ssp_sim kind, const struct ssp_rec *ev)
{
	return ev->type < SSP_EV_NTYPES && b->evsim[ev->type] == kind;
}

#endif
