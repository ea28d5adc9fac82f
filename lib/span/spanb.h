/*
 * The span builder (SPEC §3, formats/spans.md): takes the events of all
 * streams of one simulation one by one, in merged timestamp order, and
 * emits span, link and member-event records in the span schema through a
 * sink.  A span is emitted only when it is finished and its parent has
 * been emitted, so span ids (sequential from 1 in output order) and trace
 * ids are final when written.  Memory is bounded by open spans, spans
 * waiting for an unwritten parent, and the context queues (capped by the
 * rules' context-limit).  No I/O here: the sink does it.
 */
#ifndef SSP_SPANB_H
#define SSP_SPANB_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "config/rules.h"
#include "config/topo.h"
#include "stream/event.h"
#include "stream/rec.h"
#include "stream/span.h"
#include "span/kctx.h"

/* Why an event was not used in any span. */
enum ssp_drop {
	SSP_DROP_NOISE,		/* sync / processInEvent */
	SSP_DROP_INSN,		/* instruction events */
	SSP_DROP_BLACKLIST,	/* blacklisted function */
	SSP_DROP_NO_SYSCALL,	/* function entry before any syscall entry */
	SSP_DROP_NO_START,	/* completion / end without its start */
	SSP_DROP_BACKGROUND,	/* background packet not reaching an adapter */
	SSP_DROP_NO_UID,	/* network event without packet uid */
	SSP_DROP_NONNET,	/* syscall span left out by root,net-syscalls */
	SSP_DROP_NO_RULE,	/* event type no span is made of (intx, net rx) */
	SSP_DROP_FOREIGN,	/* event of another simulator, or unknown type */
	SSP_DROP_N
};

/* Which context a span missed (the cause attribute of orphans). */
enum ssp_cause {
	SSP_CAUSE_SYSCALL,	/* host: no syscall span to hang under */
	SSP_CAUSE_MMIO,		/* NIC mmio: no host mmio context queued */
	SSP_CAUSE_DMA,		/* host dma: no NIC dma with this id */
	SSP_CAUSE_MSIX,		/* host msix: no NIC msix context queued */
	SSP_CAUSE_NIC,		/* NIC dma/tx/msix: no last causing span */
	SSP_CAUSE_TX,		/* network: no NIC tx context at the adapter */
	SSP_CAUSE_RX,		/* NIC rx: no network context queued */
	SSP_CAUSE_PACKET,	/* network: no previous hop of this packet */
	/* kernel contexts (SPEC §3b), missing parents: */
	SSP_CAUSE_NO_CONTEXT,	/* host work on a CPU running no traced context */
	SSP_CAUSE_NO_MSIX,	/* device irq: no host msix waiting */
	SSP_CAUSE_NO_IRQ,	/* softirq: no irq that raised it */
	/* parents a heuristic chose (not orphans): */
	SSP_CAUSE_MSIX_FIFO,	/* irq: the oldest unserved host msix */
	SSP_CAUSE_RAISED_FIFO,	/* softirq outside an irq: oldest pending irq of the CPU */
	SSP_CAUSE_WAKEUP_FIFO,	/* resume: wakeup to the longest-sleeping syscall */
	SSP_CAUSE_APP_ROOT,	/* syscall: the app-root span of its CPU */
	SSP_CAUSE_SYSVEC,	/* irq of a system vector (timer, IPI): a root */
	SSP_CAUSE_LAST_CPU,	/* work without a cpu field: the last CPU with a function */
	SSP_CAUSE_RX_BATCH,	/* nic msix: newest rx, the others are links */
	SSP_CAUSE_DMA_CHAIN,	/* nic dma/tx: the cause of a completion at that time */
	SSP_CAUSE_TSO,		/* nic tx: the TSO send whose next segment is due */
	SSP_CAUSE_TX_WB,	/* nic msix: the doorbell of the newest tx write-back */
	SSP_CAUSE_IPI,		/* irq of a reschedule IPI: the context that sent it */
	SSP_CAUSE_NO_IPI,	/* ... orphan: no IPI sent from another CPU pending */
	SSP_CAUSE_LEFTOVER,	/* ksoftirqd, no irq pending: the irq of the CPU's last softirq */
	/* contexts closed early: */
	SSP_CAUSE_NO_IRQ_EXIT,
	SSP_CAUSE_NO_SYSCALL_EXIT,
	SSP_CAUSE_NO_SCHED_IN,
	SSP_CAUSE_SUSPEND_LIMIT,
	SSP_CAUSE_N
};
#define SSP_CAUSE_COLUMBO (SSP_CAUSE_PACKET + 1)	/* the causes of SPEC §3 */

/* Context queues, by kind. */
enum ssp_ctx {
	SSP_CTX_MMIO,		/* host mmio -> NIC */
	SSP_CTX_DMA,		/* NIC dma -> host, by op */
	SSP_CTX_MSIX,		/* NIC msix -> host */
	SSP_CTX_TX,		/* NIC tx -> network */
	SSP_CTX_RX,		/* network -> NIC */
	SSP_CTX_RECV,		/* NIC rx -> receiving syscall */
	SSP_CTX_IRQ,		/* host msix -> host irq (SPEC §3b) */
	SSP_CTX_N
};

const char *ssp_spanb_drop_name(unsigned reason);
const char *ssp_spanb_cause_name(unsigned cause);	/* the cause attribute */
const char *ssp_spanb_ctx_name(unsigned ctx);

/* Fixed limits past which the builder drops data (counted in the stats;
 * evcheck warns about each). */
#define SSP_SPANB_RXB_MAX  64	/* rx spans kept per NIC between two MSI-X */
#define SSP_SPANB_TSO_MAX  16	/* TSO sends followed per NIC (kctx) */
#define SSP_SPANB_IRQQ_MAX 64	/* host msix spans waiting for an irq entry */
#define SSP_SPANB_INTX_MAX 8	/* INTx interfaces raised at once per host */

struct ssp_spanb_stats {
	size_t nstreams;
	uint64_t *in, *used, *dropped;	/* per stream */
	uint64_t drop[SSP_DROP_N];
	uint64_t spans[SSP_SK_NKINDS];
	uint64_t roots, orphans[SSP_CAUSE_N], open, background, incomplete;
	uint64_t links, suppressed;
	uint64_t ctx_unused[SSP_CTX_N];	/* queued, never consumed */
	uint64_t ctx_overflow[SSP_CTX_N];	/* dropped at the context limit */
	uint64_t ctx_nowhere[SSP_CTX_N];	/* no link to send them on */
	uint64_t mmio_mismatch;		/* host offs != NIC off */
	uint64_t mmio_skipped;		/* host contexts skipped to resync */
	uint64_t msix_mismatch;		/* host vec != NIC vec */
	uint64_t dma_mismatch;		/* NIC dma addr changed between lines */
	uint64_t dup_ids;		/* start with an id already open */
	uint64_t packets_expired;	/* packet chains idle past packet-idle */
	uint64_t skipped;		/* dropped events the readers' filters
					 * left out (ssp_spanb_skipped) */
	/* kernel contexts (SPEC §3b), when the rules turn them on */
	int kctx;
	struct ssp_kctx_stats kst;	/* summed over the host streams */
	uint64_t causes[SSP_CAUSE_N];	/* spans written with each cause */
	uint64_t rx_woken;		/* rx contexts a wakeup consumed */
	uint64_t rx_batched;		/* rx that became nic msix links */
	uint64_t links_cyclic;		/* resume links left out: a cycle */
	uint64_t ipi_dropped;		/* IPIs sent and never taken (past IPI_MAX) */
	uint64_t rx_wb_none;		/* rx write-backs with no frame waiting (their chain's parent) */
	uint64_t rxb_overflow;		/* rx past RXB_MAX left out of a batch */
	/* Per eth link of the topology (t->neth): the NIC's tx spans sent
	 * on it, and the packets its network end saw (from or to the NIC);
	 * and the packets of adapter devices no eth link names, with the
	 * first such device (network stream, node, dev). */
	uint64_t *eth_sent, *eth_seen;
	uint64_t eth_nolink;
	unsigned eth_nolink_net;
	uint32_t eth_nolink_node, eth_nolink_dev;
	uint64_t tso_overflow;		/* TSO sends past TSO_MAX forgotten */
	uint64_t intx_overflow;		/* host.intr spans closed INCOMPLETE:
					 * a postInt past INTX_MAX raised */
	/* The first adapter component of a host with PCIe links that none
	 * of them names (a wrong adapter in the topology), and its stream. */
	char nolink_comp[64];
	size_t nolink_stream;
};

/*
 * Where records go.  text: the text of an input string id of a stream (the
 * reader's string table; NULL: unknown); intern: *id gets the output
 * string id (> 0) of a text; put: write one record (type indexes
 * ssp_span_schema(1)).  intern and put return a status (e set), which the
 * builder returns from then on.
 */
struct ssp_spanb_sink {
	void *ctx;
	const char *(*text)(void *ctx, unsigned stream, uint64_t id, size_t *len);
	enum ssp_status (*intern)(void *ctx, const char *s, size_t len,
	    uint64_t *id, struct ssp_err *e);
	enum ssp_status (*put)(void *ctx, const struct ssp_rec *r,
	    struct ssp_err *e);
};

struct ssp_spanb_opts {
	uint64_t salt;		/* trace_hi of every trace */
	int events;		/* emit member events after each span */
	/* Per stream (NULL: none): the simulator its header names, whose
	 * span handlers it gets when the simulator has its own (qemu,
	 * corundum, e1000); others get their topology kind's. */
	const enum ssp_sim *sims;
};

struct ssp_spanb;

/*
 * A builder for the streams of t (t, rules and the sink must outlive it).
 * SSP_ERR_INVAL: a stream of a kind the builder has no handlers for;
 * SSP_ERR_NOMEM.
 *
 * stream, in the calls below, is an index of t->streams (checked with
 * make ASSERTS=1).  Once a call failed, every later one returns the same
 * status without doing anything: the sink's error, or SSP_ERR_NOMEM.
 */
SSP_MUST_USE enum ssp_status ssp_spanb_new(struct ssp_spanb **bp,
    const struct ssp_topo *t, const struct ssp_rules *rules,
    const struct ssp_spanb_opts *o, const struct ssp_spanb_sink *sink,
    struct ssp_err *e);
/* One event of a stream (type = SSP_EV_* or SSP_TYPE_UNKNOWN).  Events
 * must come in merged order.  Errors come only from the sink or memory. */
SSP_MUST_USE enum ssp_status ssp_spanb_event(struct ssp_spanb *b,
    unsigned stream, const struct ssp_rec *ev, struct ssp_err *e);
/* The same for n consecutive events of one stream (a merge run), packed:
 * each takes offsetof(struct ssp_rec, f) + nf * 8 bytes (the fields past
 * its nf are not there) and the next follows. */
SSP_MUST_USE enum ssp_status ssp_spanb_events(struct ssp_spanb *b,
    unsigned stream, const struct ssp_rec *ev, size_t n, struct ssp_err *e);
/*
 * The filter for the reader of stream st (ssp_rec_rd_filter, by event
 * type: act[t] for t < SSP_EV_NTYPES, act[SSP_EV_NTYPES] for unknown
 * types): the events it leaves out are those the builder would only count
 * as dropped, or (SSP_RA_TICK) count and let end what waits for a later
 * event, so the spans are the same with it.  Give their numbers to
 * ssp_spanb_skipped before ssp_spanb_finish.
 */
void ssp_spanb_skips(const struct ssp_spanb *b, unsigned stream,
    uint8_t act[SSP_EV_NTYPES + 1]);
/* n events of type t (SSP_TYPE_UNKNOWN: of an unknown type) of a stream
 * that its filter left out: counted as dropped, as the builder would. */
void ssp_spanb_skipped(struct ssp_spanb *b, unsigned stream, uint32_t t,
    uint64_t n);
/* The stream's input string ids start over (concatenated segment). */
void ssp_spanb_strings_reset(struct ssp_spanb *b, unsigned stream);
/* No more events of this stream: its open spans are closed (OPEN flag).
 * Later events of the stream are dropped (SSP_DROP_FOREIGN). */
SSP_MUST_USE enum ssp_status ssp_spanb_stream_end(struct ssp_spanb *b,
    unsigned stream, struct ssp_err *e);
/* End of all input: close everything, write what is left. */
SSP_MUST_USE enum ssp_status ssp_spanb_finish(struct ssp_spanb *b,
    struct ssp_err *e);
const struct ssp_spanb_stats *ssp_spanb_stats(const struct ssp_spanb *b);
/* Spans in memory now, and the most at any time (memory bound checks). */
uint64_t ssp_spanb_live(const struct ssp_spanb *b);
uint64_t ssp_spanb_peak(const struct ssp_spanb *b);
void ssp_spanb_free(struct ssp_spanb *b);

#endif
