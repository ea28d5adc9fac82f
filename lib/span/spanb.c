#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fifo.h"
#include "base/map3.h"
#include "base/pool.h"
#include "span/spanb.h"

#define NC SSP_SF_NCOMMON
#define NA 12			/* attribute slots: the most any kind has */
_Static_assert(NC + NA <= SSP_MAXF, "attributes fit a record");
_Static_assert(NA == 12, "mk() clears 12 attribute slots");
/* Attribute field f (a constant SSP_SA_*) of span s, an lvalue; a field
 * outside the slots does not compile. */
#define SA(s, f) ((s)->a[(f) - NC + 0 * sizeof(struct { int sa_ok; \
	_Static_assert((unsigned)(f) - (unsigned)NC < NA, "SA: no such slot"); })])
#define RESYNC 8		/* mmio contexts looked at past a mismatch */

/* --- names ------------------------------------------------------------- */

static const char *const drop_names[SSP_DROP_N] = {
	"noise (sync, processInEvent)", "instruction", "blacklisted function",
	"function outside any syscall", "end without start",
	"background packet", "no packet uid", "non-network syscall (root rule)",
	"no span rule (intx, net rx)", "event of another simulator",
};
static const char *const cause_names[SSP_CAUSE_N] = {
	"syscall", "mmio", "dma", "msix", "nic-cause", "tx", "rx", "packet",
	"no-context", "no-msix", "no-irq",
	"msix-fifo", "raised-fifo", "wakeup-fifo", "app-root", "system-vector",
	"last-cpu", "rx-batch", "dma-chain", "tso", "tx-writeback",
	"no-irq-exit", "no-syscall-exit", "no-sched-in", "suspend-limit",
};
static const char *const ctx_names[SSP_CTX_N] = {
	"mmio", "dma", "msix", "tx", "rx", "recv", "irq",
};
#define RXB_MAX 64		/* rx spans kept per NIC between two MSI-X */
#define TSO_MAX 16		/* TSO sends followed per NIC (kctx) */
#define IRQQ_MAX 64		/* host msix spans waiting for an irq entry */
#define FC_SYSVEC 0x80000000u	/* sinfo: an asm_sysvec_* irq entry */

const char *ssp_spanb_drop_name(unsigned r) { return r < SSP_DROP_N ? drop_names[r] : NULL; }
const char *ssp_spanb_cause_name(unsigned c) { return c < SSP_CAUSE_N ? cause_names[c] : NULL; }
const char *ssp_spanb_ctx_name(unsigned c) { return c < SSP_CTX_N ? ctx_names[c] : NULL; }

/* --- spans, member events, links --------------------------------------- */

enum { ST_OPEN, ST_DONE, ST_WRITTEN, ST_GONE };
enum {
	X_NICWORK = 0x1,	/* syscall: sent a context to a NIC */
	X_RECEIVED = 0x2,	/* syscall: looked for rx contexts */
	X_TENTATIVE = 0x4,	/* background device span, adapter not reached */
	X_INSIDE = 0x8,		/* host mmio answered inside gem5 */
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

/* --- streams and links --------------------------------------------------- */

struct sinfo {			/* what an input string id means, computed once */
	uint32_t out;		/* output string id */
	uint32_t fcls;		/* function classes (| FC_SYSVEC) */
	uint16_t link;		/* host: pcie link + 1 of an adapter component */
	uint16_t cpu;		/* host: cpu index + 1 */
	uint8_t have;		/* HAVE_* */
	uint8_t dev;		/* net: DEV_*, what a device type name is */
};
enum { HAVE_OUT = 1, HAVE_FCLS = 2, HAVE_LINK = 4, HAVE_CPU = 8, HAVE_DEV = 16 };
enum { DEV_OTHER, DEV_SIMPLE, DEV_SWITCH };	/* SimpleNetDevice, NetSwitch */

struct ssp_spanb_sim;

/* Every stream: what the core keeps, and its simulator's own state. */
struct stream {
	const struct ssp_spanb_sim *sim;	/* its handlers */
	enum ssp_sim kind;
	int ended;
	struct sinfo *si;
	size_t nsi;
	void *x;		/* sim->size bytes, zeroed at the start */
};

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
	struct span *intr;	/* postInt waiting for clearInt */
	unsigned *plinks, nplinks;	/* its pcie links */
	struct ssp_fifo recv;	/* rx contexts for receiving syscalls */
	struct ssp_fifo irqq;	/* host msix spans for irq entries (kctx) */
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
	uint8_t rxo[RXB_MAX];	/* their DMAs not completed yet */
	unsigned nrxb;
	/* NIC work chains (kctx): a DMA issue or eth tx at the time of a read
	 * completion inherits its cause; TSO segments follow their send. */
	struct span *chain;	/* the cause to inherit (reference), or NULL */
	int64_t chain_ts;
	int chain_tx;		/* chain came from an eth tx (else a read) */
	struct tso {
		struct span *cause;	/* the doorbell (reference) */
		int64_t last;	/* its last segment's time */
		int64_t bytes;	/* that segment's wire bytes (frame + 20) */
	} tso[TSO_MAX];
	unsigned ntso;
	int64_t tso_ppb;	/* ps per wire byte, learnt (0: not yet) */
	struct span *txwb;	/* doorbell of the newest tx write-back (reference) */
};

/* A network stream (ns-3 and net_switch). */
struct wstate {
	struct span *held;	/* switch: the last egress span, not finished
				 * yet (a drop line may still end it) */
};

struct plink {
	unsigned host, nic;
	unsigned bars;		/* BARs addressing the NIC */
	struct ssp_fifo *recv;	/* the host's rx contexts for receiving
				 * syscalls, or NULL */
	struct ssp_fifo mmio;	/* host -> NIC */
	struct ssp_fifo msix;	/* NIC -> host */
	struct span *msix_open;	/* host msix waiting for "completed DMA id 0" */
};

struct elink {
	unsigned nic, net;
	uint32_t node, dev;
	struct ssp_fifo tx;		/* NIC -> network */
	struct ssp_fifo rx;		/* network -> NIC */
};

struct ssp_spanb {
	const struct ssp_topo *t;
	const struct ssp_rules *rules;
	struct ssp_spanb_opts o;
	struct ssp_spanb_sink sink;
	struct stream *s;
	size_t ns;
	struct plink *pl;
	struct elink *el;
	struct ssp_map3 mmio_open;	/* (id, 0, host) */
	struct ssp_map3 hdma_open;	/* (id, adapter key, host) */
	struct ssp_map3 ndma_open;	/* (op, 0, nic) */
	struct ssp_map3 dma_ctx;	/* (op, 0, pcie link) */
	struct ssp_map3 net_open;	/* (uid, node << 32 | dev, net) */
	struct ssp_map3 chain;	/* (uid, 0, net): last hop of a packet */
	struct ssp_map3 elmap;	/* (node << 32 | dev, 0, net) -> elink */
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
	int status;
	struct ssp_err err;
	struct ssp_spanb_stats st;
};

/* The state of stream st, by its kind. */
static inline struct hstate *host_of(struct ssp_spanb *b, unsigned st) { return b->s[st].x; }
static inline struct nstate *nic_of(struct ssp_spanb *b, unsigned st) { return b->s[st].x; }
static inline struct wstate *net_of(struct ssp_spanb *b, unsigned st) { return b->s[st].x; }

static void
fail(struct ssp_spanb *b, int code, const char *what)
{
	if (b->status == SSP_OK)
		b->status = ssp_err_set(&b->err, code, 0, "%s", what);
}

static void
nomem(struct ssp_spanb *b)
{
	fail(b, SSP_ERR_NOMEM, "out of memory");
}

/* --- strings --------------------------------------------------------------- */

static struct sinfo * __attribute__((noinline))
sinfo_grow(struct ssp_spanb *b, unsigned st, uint64_t id)
{
	struct stream *s = &b->s[st];
	static struct sinfo none;
	size_t n = s->nsi ? s->nsi : 256;
	struct sinfo *ni;

	while (n <= id)
		n *= 2;
	if ((ni = realloc(s->si, n * sizeof(*ni))) == NULL) {
		nomem(b);
		memset(&none, 0, sizeof(none));
		none.have = 0xff;
		return &none;
	}
	memset(ni + s->nsi, 0, (n - s->nsi) * sizeof(*ni));
	s->si = ni;
	s->nsi = n;
	return &s->si[id];
}

static inline struct sinfo *
sinfo(struct ssp_spanb *b, unsigned st, uint64_t id)
{
	struct stream *s = &b->s[st];

	return id < s->nsi ? &s->si[id] : sinfo_grow(b, st, id);
}

static const char *
text(struct ssp_spanb *b, unsigned st, uint64_t id, size_t *len)
{
	const char *t = id != 0 ? b->sink.text(b->sink.ctx, st, id, len) : NULL;

	if (t == NULL) {
		*len = 0;
		return "";
	}
	return t;
}

static uint64_t
intern(struct ssp_spanb *b, const char *s, size_t len)
{
	uint64_t id;

	if (b->status != SSP_OK)
		return 0;
	if ((id = b->sink.intern(b->sink.ctx, s, len, &b->err)) == 0)
		b->status = b->err.code ? b->err.code : SSP_ERR_IO;
	return id;
}

static uint64_t __attribute__((noinline))
ostr_new(struct ssp_spanb *b, unsigned st, uint64_t id, struct sinfo *si)
{
	const char *t;
	size_t len;

	t = text(b, st, id, &len);
	si->out = (uint32_t)intern(b, t, len);
	si->have |= HAVE_OUT;
	return si->out;
}

/* Output string id of an input string id. */
static inline uint64_t
ostr(struct ssp_spanb *b, unsigned st, uint64_t id)
{
	struct sinfo *si;

	if (id == 0)
		return 0;
	si = sinfo(b, st, id);
	return (si->have & HAVE_OUT) ? si->out : ostr_new(b, st, id, si);
}

static unsigned __attribute__((noinline))
fclass_new(struct ssp_spanb *b, unsigned st, uint64_t id, struct sinfo *si)
{
	const char *t;
	size_t len;

	t = text(b, st, id, &len);
	si->fcls = ssp_rules_fclass(b->rules, t, len);
	if ((si->fcls & SSP_FC_IRQ_ENTRY) && len > 11 &&
	    memcmp(t, "asm_sysvec_", 11) == 0)
		si->fcls |= FC_SYSVEC;
	si->have |= HAVE_FCLS;
	return si->fcls;
}

static inline unsigned
fclass(struct ssp_spanb *b, unsigned st, uint64_t id)
{
	struct sinfo *si = sinfo(b, st, id);

	return (si->have & HAVE_FCLS) ? si->fcls : fclass_new(b, st, id, si);
}

static __attribute__((noinline)) void
link_new(struct ssp_spanb *b, unsigned st, uint64_t comp, struct sinfo *si)
{
	struct hstate *h = host_of(b, st);
	const char *t;
	size_t len, k;

	si->link = 0;
	t = text(b, st, comp, &len);
	if (len > 4 && memcmp(t + len - 4, ".pio", 4) == 0)
		len -= 4;	/* the posted-write responder of the adapter */
	for (k = 0; k < h->nplinks; k++) {
		const char *a = b->t->pcie[h->plinks[k]].adapter;

		if (a == NULL || (strlen(a) == len && memcmp(a, t, len) == 0)) {
			si->link = (uint16_t)(h->plinks[k] + 1);
			break;
		}
	}
	if (si->link == 0 && b->st.nolink_comp[0] == '\0') {
		snprintf(b->st.nolink_comp, sizeof(b->st.nolink_comp),
		    "%.*s", (int)len, t);
		b->st.nolink_stream = st;
	}
	si->have |= HAVE_LINK;
}

/* The pcie link an adapter component of a host names, or -1 (found once
 * per name, out of line). */
static inline int
link_of(struct ssp_spanb *b, unsigned st, uint64_t comp)
{
	struct sinfo *si;

	if (host_of(b, st)->nplinks == 0)
		return -1;
	si = sinfo(b, st, comp);
	if (!(si->have & HAVE_LINK))
		link_new(b, st, comp, si);
	return (int)si->link - 1;
}

static uint64_t
cause_str(struct ssp_spanb *b, unsigned c)
{
	if (b->cause_str[c] == 0)
		b->cause_str[c] = intern(b, cause_names[c], strlen(cause_names[c]));
	return b->cause_str[c];
}

/* --- span life cycle ------------------------------------------------------- */

static struct span *
mk(struct ssp_spanb *b, unsigned kind, unsigned st, int64_t ts)
{
	struct span *s = ssp_pool_get(&b->spool);

	if (s == NULL) {
		nomem(b);
		return NULL;
	}
	/* everything up to the attributes, and the attributes of this kind */
	/* Field by field: gcc turns a memset of this size into rep stos,
	 * several times slower than these stores. */
	s->parent = s->next = s->wait_head = s->wait_tail = NULL;
	s->ev_head = s->ev_tail = NULL;
	s->out = s->in = NULL;
	s->seq = ++b->seq;
	s->id = s->trace = 0;
	s->start = s->end = ts;
	s->refs = s->nev = s->fcls = s->pend = 0;
	s->kind = (uint16_t)kind;
	s->stream = (uint16_t)st;
	s->state = ST_OPEN;
	s->flags = s->cause = s->xf = 0;
	s->a[0] = s->a[1] = s->a[2] = s->a[3] = s->a[4] = s->a[5] = 0;
	s->a[6] = s->a[7] = s->a[8] = s->a[9] = s->a[10] = s->a[11] = 0;
	if (++b->live > b->peak)
		b->peak = b->live;
	return s;
}

static void
sfree(struct ssp_spanb *b, struct span *s)
{
	ssp_pool_put(&b->spool, s);
	b->live--;
}

static void
unref(struct ssp_spanb *b, struct span *s)
{
	if (--s->refs == 0 && s->state >= ST_WRITTEN)
		sfree(b, s);
}

static void
ref(struct span *s)
{
	s->refs++;
}

static void
orphan(struct span *s, unsigned cause)
{
	s->flags |= SSP_SPAN_ORPHAN;
	s->cause = (uint8_t)(cause + 1);
}

/* Copy a member event (--events only). */
static void __attribute__((noinline))
keep_ev(struct ssp_spanb *b, struct span *s, const struct ssp_rec *ev)
{
	unsigned nf = ssp_event_schema.types[ev->type].nf, i;
	struct evn *n = ssp_pool_get(nf <= EV_SMALL ? &b->evsmall : &b->evlarge);

	if (n == NULL) {
		nomem(b);
		return;
	}
	n->next = NULL;
	n->ts = ev->ts;
	n->type = ev->type;
	n->nf = nf;
	for (i = 0; i < nf; i++)
		n->f[i] = (b->strmask[ev->type] & (1u << i)) ?
		    ostr(b, s->stream, ev->f[i]) : ev->f[i];
	if (s->ev_tail != NULL)
		s->ev_tail->next = n;
	else
		s->ev_head = n;
	s->ev_tail = n;
}

/* Attach an event (counted; copied with --events). */
static inline void
add_ev(struct ssp_spanb *b, struct span *s, const struct ssp_rec *ev)
{
	s->nev++;
	if (ev->ts > s->end)
		s->end = ev->ts;
	if (b->o.events)
		keep_ev(b, s, ev);
}

static void
free_evs(struct ssp_spanb *b, struct span *s)
{
	struct evn *n, *nx;

	for (n = s->ev_head; n != NULL; n = nx) {
		nx = n->next;
		ssp_pool_put(n->nf <= EV_SMALL ? &b->evsmall : &b->evlarge, n);
	}
	s->ev_head = s->ev_tail = NULL;
}

static void
put(struct ssp_spanb *b, const struct ssp_rec *r)
{
	int rc;

	if (b->status != SSP_OK)
		return;
	if ((rc = b->sink.put(b->sink.ctx, r, &b->err)) != SSP_OK)
		b->status = rc;
}

static void
emit_link(struct ssp_spanb *b, const struct lnk *l)
{
	struct ssp_rec r;

	memset(&r, 0, sizeof(r));
	r.type = SSP_SPAN_T_LINK;
	r.ts = l->dst->start;
	r.nf = 5;
	r.f[SSP_LF_SPAN] = l->src->id;
	r.f[SSP_LF_TRACE_HI] = b->o.salt;
	r.f[SSP_LF_TRACE_LO] = l->dst->trace;
	r.f[SSP_LF_TARGET] = l->dst->id;
	if (l->resume) {
		if (b->link_resume == 0)
			b->link_resume = intern(b, "resume", 6);
		r.f[SSP_LF_KIND] = b->link_resume;
	} else {
		if (b->link_kind == 0)
			b->link_kind = intern(b, "rx", 2);
		r.f[SSP_LF_KIND] = b->link_kind;
	}
	put(b, &r);
	b->st.links++;
}

static void
ready(struct ssp_spanb *b, struct span *s)
{
	s->next = NULL;
	if (b->ready_tail != NULL)
		b->ready_tail->next = s;
	else
		b->ready_head = s;
	b->ready_tail = s;
}

/* Hand the finished children waiting for s over to the ready list. */
static void
release_waiters(struct ssp_spanb *b, struct span *s)
{
	if (s->wait_head == NULL)
		return;
	if (b->ready_tail != NULL)
		b->ready_tail->next = s->wait_head;
	else
		b->ready_head = s->wait_head;
	b->ready_tail = s->wait_tail;
	s->wait_head = s->wait_tail = NULL;
}

/* Last step of writing or leaving out s: wake its waiters, drop its hold on
 * its parent, and free it unless links still point at it. */
static void
detach(struct ssp_spanb *b, struct span *s)
{
	struct span *p = s->parent;

	release_waiters(b, s);
	s->parent = NULL;
	if (p != NULL)
		unref(b, p);
	if (s->refs == 0)
		sfree(b, s);
}

/* s is written or left out: the spans whose links wait for it may be
 * ready.  Links are rare: out of line, the callers test s->in. */
static void __attribute__((noinline))
wake_linkers(struct ssp_spanb *b, struct span *s)
{
	struct lnk *l, *nx;

	for (l = s->in; l != NULL; l = nx) {
		nx = l->wnext;
		l->wnext = NULL;
		if (--l->src->pend == 0)
			ready(b, l->src);
	}
	s->in = NULL;
}

/* A span with links is written after all its link targets, so that its
 * link records can follow it at once.  Returns whether s has to wait. */
static int __attribute__((noinline))
wait_links(struct span *s)
{
	struct lnk *l;

	for (l = s->out; l != NULL; l = l->next)
		if (l->dst->state < ST_WRITTEN) {
			l->wnext = l->dst->in;
			l->dst->in = l;
			s->pend++;
		}
	return s->pend != 0;
}

/* The links from s, right after it: their targets are written (or were
 * left out, then the link goes too). */
static void __attribute__((noinline))
emit_links(struct ssp_spanb *b, struct span *s)
{
	struct lnk *l, *nx;

	for (l = s->out; l != NULL; l = nx) {
		nx = l->next;
		if (l->dst->state == ST_WRITTEN)
			emit_link(b, l);
		unref(b, l->dst);
		ssp_pool_put(&b->lpool, l);
	}
	s->out = NULL;
}

static void
write_span(struct ssp_spanb *b, struct span *s)
{
	struct ssp_rec r;
	struct span *p = s->parent;
	struct evn *n;
	unsigned i;

	s->id = ++b->next_id;
	s->trace = p != NULL ? p->trace : s->id;
	r.type = s->kind;
	r.ts = s->start;
	r.nf = NC + b->nattr[s->kind];
	r.f[SSP_SF_TRACE_HI] = b->o.salt;
	r.f[SSP_SF_TRACE_LO] = s->trace;
	r.f[SSP_SF_SPAN] = s->id;
	r.f[SSP_SF_PARENT] = p != NULL ? p->id : 0;
	r.f[SSP_SF_STREAM] = s->stream;
	r.f[SSP_SF_DUR] = (uint64_t)(s->end - s->start);
	r.f[SSP_SF_FLAGS] = s->flags;
	r.f[SSP_SF_CAUSE] = s->cause ? cause_str(b, s->cause - 1u) : 0;
	if (s->kind == SSP_SK_HOST_SYSCALL) {
		SA(s, SSP_SA_SYSCALL_KTX) = !!(s->fcls & SSP_FC_KERNEL_TX);
		SA(s, SSP_SA_SYSCALL_DTX) = !!(s->fcls & SSP_FC_DRIVER_TX);
		SA(s, SSP_SA_SYSCALL_KRX) = !!(s->fcls & SSP_FC_KERNEL_RX);
		SA(s, SSP_SA_SYSCALL_DRX) = !!(s->fcls & SSP_FC_DRIVER_RX);
	}
	/* all slots: a fixed-size copy; those past the kind's are not written */
	memcpy(&r.f[NC], s->a, sizeof(s->a));
	put(b, &r);
	for (n = s->ev_head; n != NULL; n = n->next) {
		r.type = SSP_SPAN_T_EV0 + n->type;
		r.ts = n->ts;
		r.nf = SSP_EF_NCOMMON + n->nf;
		r.f[SSP_EF_SPAN] = s->id;
		r.f[SSP_EF_STREAM] = s->stream;
		for (i = 0; i < n->nf; i++)
			r.f[SSP_EF_NCOMMON + i] = n->f[i];
		put(b, &r);
	}
	free_evs(b, s);
	b->st.spans[s->kind]++;
	b->st.used[s->stream] += s->nev;
	if (p == NULL)
		b->st.roots++;
	if (s->cause)
		b->st.causes[s->cause - 1]++;
	if (s->flags != 0) {
		if (s->flags & SSP_SPAN_ORPHAN)
			b->st.orphans[s->cause - 1]++;
		if (s->flags & SSP_SPAN_OPEN)
			b->st.open++;
		if (s->flags & SSP_SPAN_BACKGROUND)
			b->st.background++;
		if (s->flags & SSP_SPAN_INCOMPLETE)
			b->st.incomplete++;
	}
	s->state = ST_WRITTEN;
	if (s->out != NULL)
		emit_links(b, s);
	if (s->in != NULL)
		wake_linkers(b, s);
	detach(b, s);
}

/* Leave a span out (and everything waiting for it).  Never called while s
 * waits for link targets: s waits only once its parent is written. */
static void
gone(struct ssp_spanb *b, struct span *s, unsigned reason)
{
	struct lnk *l, *nx;

	b->st.dropped[s->stream] += s->nev;
	b->st.drop[reason] += s->nev;
	if (reason == SSP_DROP_NONNET)
		b->st.suppressed++;
	free_evs(b, s);
	s->state = ST_GONE;
	for (l = s->out; l != NULL; l = nx) {
		nx = l->next;
		unref(b, l->dst);
		ssp_pool_put(&b->lpool, l);
	}
	s->out = NULL;
	if (s->in != NULL)
		wake_linkers(b, s);	/* their links to s are dropped then */
	detach(b, s);
}

/* Write (or leave out) whatever became ready. */
static void
settle(struct ssp_spanb *b)
{
	struct span *s;

	while ((s = b->ready_head) != NULL) {
		b->ready_head = s->next;
		if (b->ready_head == NULL)
			b->ready_tail = NULL;
		if (s->parent != NULL && s->parent->state == ST_GONE)
			gone(b, s, SSP_DROP_NONNET);	/* under a left-out syscall */
		else if (s->out == NULL || !wait_links(s))
			write_span(b, s);
		/* else wake_linkers() makes it ready again */
	}
}

static int
is_net_syscall(const struct span *s)
{
	return (s->fcls & SSP_FC_NET) || (s->xf & X_NICWORK) || s->parent != NULL;
}

/* The span has all its events. */
static void
finish(struct ssp_spanb *b, struct span *s)
{
	struct span *p = s->parent;

	s->state = ST_DONE;
	if (s->kind == SSP_SK_HOST_SYSCALL && b->root == SSP_ROOT_NET_SYSCALLS &&
	    !is_net_syscall(s)) {
		gone(b, s, SSP_DROP_NONNET);
		settle(b);
		return;
	}
	if (p == NULL || p->state >= ST_WRITTEN) {
		ready(b, s);
		settle(b);
		return;
	}
	s->next = NULL;
	if (p->wait_tail != NULL)
		p->wait_tail->next = s;
	else
		p->wait_head = s;
	p->wait_tail = s;
}

static void
set_parent(struct span *s, struct span *p)
{
	s->parent = p;
	if (p != NULL)
		ref(p);
}

/* A context is queued: the queue holds a reference.  Beyond the limit the
 * oldest is dropped. */
static void
send(struct ssp_spanb *b, struct ssp_fifo *q, struct span *s, unsigned kind)
{
	if (q->n >= b->ctx_limit) {
		unref(b, ssp_fifo_pop(q));
		b->st.ctx_overflow[kind]++;
	}
	if (ssp_fifo_push(q, s) != 0) {
		nomem(b);
		return;
	}
	ref(s);
}

/* --- host ------------------------------------------------------------------ */

static __attribute__((noinline)) unsigned
cpu_new(struct ssp_spanb *b, unsigned st, uint64_t cpu, struct sinfo *si)
{
	struct hstate *h = host_of(b, st);
	uint64_t out;
	unsigned i;

	out = ostr(b, st, cpu);
	for (i = 0; i < h->ncpu; i++)
		if (h->cpu_out[i] == out)
			break;
	if (i == h->ncpu) {
		if (h->ncpu == h->ccpu) {
			unsigned n = h->ccpu ? h->ccpu * 2 : 4;
			struct span **nc = realloc(h->cur, n * sizeof(*nc));
			uint64_t *no;

			if (nc == NULL) {
				nomem(b);
				return 0;
			}
			h->cur = nc;
			if ((no = realloc(h->cpu_out, n * sizeof(*no))) == NULL) {
				nomem(b);
				return 0;
			}
			h->cpu_out = no;
			h->ccpu = n;
		}
		h->cur[h->ncpu] = NULL;
		h->cpu_out[h->ncpu++] = out;
	}
	si->cpu = (uint16_t)(i + 1);
	si->have |= HAVE_CPU;
	return i;
}

/* A host's CPU index by its name's string id (found once per name, out of
 * line). */
static inline unsigned
cpu_of(struct ssp_spanb *b, unsigned st, uint64_t cpu)
{
	struct sinfo *si = sinfo(b, st, cpu);

	return (si->have & HAVE_CPU) ? si->cpu - 1u : cpu_new(b, st, cpu, si);
}

/* The syscall span new host spans hang under. */
static struct span *
cur_syscall(const struct hstate *h)
{
	return h->last_cpu >= 0 ? h->cur[h->last_cpu] : NULL;
}

/* Kernel contexts: work is parented to the innermost context of the CPU
 * that issued it (the event's cpu field, else the last CPU that entered a
 * function: a heuristic when the host has several). */
static void
kctx_work_parent(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	int f = ssp_event_cpu_field(ev->type), cpu = h->last_cpu, guess = 1;
	struct span *p;

	if (f >= 0 && ev->nf > (unsigned)f && ev->f[f] != 0 &&
	    ev->f[f] != UINT64_MAX) {
		cpu = (int)cpu_of(b, st, ev->f[f]);
		guess = 0;
	}
	p = cpu >= 0 ? ssp_kctx_top(h->kctx, (unsigned)cpu) : NULL;
	if (p == NULL) {
		orphan(s, SSP_CAUSE_NO_CONTEXT);
		return;
	}
	set_parent(s, p);
	if (guess && h->ncpu > 1)
		s->cause = SSP_CAUSE_LAST_CPU + 1;
}

/* A host span whose parent is the current syscall span. */
static struct span *
host_child(struct ssp_spanb *b, unsigned kind, unsigned st,
    const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	struct span *s = mk(b, kind, st, ev->ts), *sc;

	if (s == NULL)
		return NULL;
	if (h->kctx != NULL) {
		kctx_work_parent(b, st, s, ev);
		add_ev(b, s, ev);
		return s;
	}
	sc = cur_syscall(h);
	if (sc != NULL)
		set_parent(s, sc);
	else
		orphan(s, SSP_CAUSE_SYSCALL);
	add_ev(b, s, ev);
	return s;
}

/* A receiving syscall: parent = oldest rx context that started before it,
 * links to the other such contexts. */
static void
receive(struct ssp_spanb *b, struct hstate *h, struct span *sc)
{
	struct lnk **tail = &sc->out;
	struct span *c;

	sc->xf |= X_RECEIVED;
	/* Only contexts made before the syscall (seq): with timestamps going
	 * backwards a later one could be its own descendant, and a span
	 * cannot wait for its descendant. */
	while (h->recv.n > 0 && q_at(&h->recv, 0)->start < sc->start &&
	    q_at(&h->recv, 0)->seq < sc->seq) {
		c = ssp_fifo_pop(&h->recv);		/* its reference moves over */
		if (sc->parent == NULL) {
			sc->parent = c;
			continue;
		}
		{
			struct lnk *l = ssp_pool_get(&b->lpool);

			if (l == NULL) {
				nomem(b);
				unref(b, c);
				return;
			}
			l->dst = c;
			l->src = sc;
			l->next = l->wnext = NULL;
			l->resume = 0;
			while (*tail != NULL)
				tail = &(*tail)->next;
			*tail = l;
		}
	}
}

static void drop(struct ssp_spanb *b, unsigned st, unsigned reason);

/* --- kernel contexts (SPEC §3b): the callbacks of lib/span/kctx ------- */

static const uint16_t kctx_kinds[SSP_KCTX_NKINDS] = {
	[SSP_KCTX_SYSCALL] = SSP_SK_HOST_SYSCALL, [SSP_KCTX_IRQ] = SSP_SK_HOST_IRQ,
	[SSP_KCTX_SOFTIRQ] = SSP_SK_HOST_SOFTIRQ,
	[SSP_KCTX_RESUME] = SSP_SK_HOST_RESUME, [SSP_KCTX_APP] = SSP_SK_HOST_APP,
};
static const uint8_t kctx_causes[SSP_KCTX_WHY_N] = {
	[SSP_KCTX_WHY_MSIX_FIFO] = SSP_CAUSE_MSIX_FIFO + 1,
	[SSP_KCTX_WHY_RAISED_FIFO] = SSP_CAUSE_RAISED_FIFO + 1,
	[SSP_KCTX_WHY_WAKEUP_FIFO] = SSP_CAUSE_WAKEUP_FIFO + 1,
	[SSP_KCTX_WHY_APP_ROOT] = SSP_CAUSE_APP_ROOT + 1,
	[SSP_KCTX_WHY_SYSVEC] = SSP_CAUSE_SYSVEC + 1,
	[SSP_KCTX_WHY_NO_MSIX] = SSP_CAUSE_NO_MSIX + 1,
	[SSP_KCTX_WHY_NO_IRQ] = SSP_CAUSE_NO_IRQ + 1,
	[SSP_KCTX_WHY_NO_IRQ_EXIT] = SSP_CAUSE_NO_IRQ_EXIT + 1,
	[SSP_KCTX_WHY_NO_SYSCALL_EXIT] = SSP_CAUSE_NO_SYSCALL_EXIT + 1,
	[SSP_KCTX_WHY_NO_SCHED_IN] = SSP_CAUSE_NO_SCHED_IN + 1,
	[SSP_KCTX_WHY_SUSPEND_LIMIT] = SSP_CAUSE_SUSPEND_LIMIT + 1,
};

static void *
k_open(void *ctx, const struct ssp_kctx_open *o)
{
	struct khost *kh = ctx;
	struct ssp_spanb *b = kh->b;
	struct hstate *h = host_of(b, kh->st);
	const struct ssp_rec *ev = h->kev;
	unsigned kind = kctx_kinds[o->kind];
	struct span *s = mk(b, kind, kh->st, ev->ts), *p = o->parent;

	if (s == NULL)
		return NULL;
	if (kind == SSP_SK_HOST_SYSCALL) {
		SA(s, SSP_SA_SYSCALL_CPU) = h->cpu_out[o->cpu];
		SA(s, SSP_SA_SYSCALL_ENTRY) = ostr(b, kh->st,
		    ev->f[SSP_F_FUNC_SYM]);
	} else {
		SA(s, SSP_SA_CTX_CPU) = h->cpu_out[o->cpu];
		SA(s, SSP_SA_CTX_ENTRY) = ostr(b, kh->st,
		    ev->f[SSP_F_FUNC_SYM]);
	}
	if (o->kind == SSP_KCTX_IRQ) {
		if (h->kcls & FC_SYSVEC) {
			s->cause = SSP_CAUSE_SYSVEC + 1;	/* a root */
		} else if ((p = ssp_fifo_pop(&h->irqq)) != NULL) {
			s->parent = p;		/* the queue's reference moves */
			s->cause = SSP_CAUSE_MSIX_FIFO + 1;
		} else {
			orphan(s, SSP_CAUSE_NO_MSIX);
		}
		return s;
	}
	if (p != NULL) {
		set_parent(s, p);
		s->cause = kctx_causes[o->why];
	} else if (o->kind == SSP_KCTX_SOFTIRQ) {
		orphan(s, SSP_CAUSE_NO_IRQ);
	}
	return s;
}

/* A member function entry of a context span. */
static void
k_member(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev, unsigned cls)
{
	add_ev(b, s, ev);
	if (s->kind != SSP_SK_HOST_SYSCALL) {
		SA(s, SSP_SA_CTX_FUNCS)++;
		return;
	}
	SA(s, SSP_SA_SYSCALL_FUNCS)++;
	if (SA(s, SSP_SA_SYSCALL_CALL) == 0 && !(cls & SSP_FC_SYSCALL_ENTRY))
		SA(s, SSP_SA_SYSCALL_CALL) = ostr(b, st, ev->f[SSP_F_FUNC_SYM]);
	s->fcls |= cls & ~FC_SYSVEC;
}

static void
k_close(void *ctx, void *c, unsigned why, int last)
{
	struct khost *kh = ctx;
	struct ssp_spanb *b = kh->b;
	struct hstate *h = host_of(b, kh->st);
	struct span *s = c;

	if (h->kev != NULL) {
		if (last) {
			k_member(b, kh->st, s, h->kev, h->kcls);
			h->kev_used = 1;
		}
		/* It lasted until now; not a syscall ended by the next entry
		 * (SPEC §3: up to its last function). */
		if (h->kev->ts > s->end && !(s->kind == SSP_SK_HOST_SYSCALL &&
		    (h->kcls & SSP_FC_SYSCALL_ENTRY)))
			s->end = h->kev->ts;
	}
	if (why == SSP_KCTX_WHY_END) {
		s->flags |= SSP_SPAN_OPEN;
	} else if (why != SSP_KCTX_WHY_NONE) {
		s->flags |= SSP_SPAN_INCOMPLETE;
		if (!(s->flags & SSP_SPAN_ORPHAN))	/* the missing parent first */
			s->cause = kctx_causes[why];
	}
	finish(b, s);
}

static void
k_hold(void *ctx, void *c)
{
	(void)ctx;
	ref(c);
}

static void
k_release(void *ctx, void *c)
{
	struct khost *kh = ctx;

	unref(kh->b, c);
}

/* The suspended syscall gets a link to its resume span, unless the resume
 * descends from it (the syscall's own request came back): the syscall
 * would then wait for a span that waits for it. */
static void
k_link(void *ctx, void *sysp, void *resp)
{
	struct khost *kh = ctx;
	struct ssp_spanb *b = kh->b;
	struct span *sys = sysp, *res = resp, *p;
	struct lnk *l, **tail = &sys->out;

	for (p = res; p != NULL; p = p->parent)
		if (p == sys) {
			b->st.links_cyclic++;
			return;
		}
	if ((l = ssp_pool_get(&b->lpool)) == NULL) {
		nomem(b);
		return;
	}
	l->dst = res;
	l->src = sys;
	l->next = l->wnext = NULL;
	l->resume = 1;
	ref(res);
	while (*tail != NULL)
		tail = &(*tail)->next;
	*tail = l;
}

/* A wakeup found a sleeping syscall: the rx contexts queued for receiving
 * syscalls were delivered through the waker (softirq -> resume); a later
 * syscall that reads without sleeping must not take them. */
static void
k_woke(void *ctx, void *waker, void *sys)
{
	struct khost *kh = ctx;
	struct ssp_spanb *b = kh->b;
	struct hstate *h = host_of(b, kh->st);

	(void)waker;
	(void)sys;
	while (h->recv.n > 0) {
		unref(b, ssp_fifo_pop(&h->recv));
		b->st.rx_woken++;
	}
}

static unsigned
kctx_classes(unsigned cls)
{
	unsigned k = 0;

	if (cls & SSP_FC_SYSCALL_ENTRY)  k |= SSP_KCTX_C_SYSCALL_ENTRY;
	if (cls & SSP_FC_SYSCALL_EXIT)   k |= SSP_KCTX_C_SYSCALL_EXIT;
	if (cls & SSP_FC_IRQ_ENTRY)      k |= SSP_KCTX_C_IRQ_ENTRY;
	if (cls & SSP_FC_IRQ_EXIT)       k |= SSP_KCTX_C_IRQ_EXIT;
	if (cls & SSP_FC_SOFTIRQ_ENTRY)  k |= SSP_KCTX_C_SOFTIRQ_ENTRY;
	if (cls & SSP_FC_SLEEP)          k |= SSP_KCTX_C_SLEEP;
	if (cls & SSP_FC_SCHED_IN)       k |= SSP_KCTX_C_SCHED_IN;
	if (cls & SSP_FC_WAKEUP)         k |= SSP_KCTX_C_WAKEUP;
	if (cls & SSP_FC_IDLE)           k |= SSP_KCTX_C_IDLE;
	if (cls & SSP_FC_APP_ROOT)       k |= SSP_KCTX_C_APP_ROOT;
	if (cls & FC_SYSVEC)             k |= SSP_KCTX_C_SYSVEC;
	return k;
}

/* A function entry with the kernel context model on. */
static void
ev_func_kctx(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    unsigned cls)
{
	struct hstate *h = host_of(b, st);
	unsigned cpu = cpu_of(b, st, ev->f[SSP_F_FUNC_CPU]), kc;
	struct span *c, *t;

	if (b->status != SSP_OK)
		return;
	h->last_cpu = (int)cpu;
	h->last_fcls = cls;
	kc = kctx_classes(cls);
	/* The entry trampoline going on (entry_SYSCALL_64, then
	 * entry_SYSCALL_64_safe_stack): the same syscall, as in ev_func. */
	if ((kc & SSP_KCTX_C_SYSCALL_ENTRY) &&
	    (t = ssp_kctx_task(h->kctx, cpu)) != NULL &&
	    ssp_kctx_top(h->kctx, cpu) == t &&
	    SA(t, SSP_SA_SYSCALL_CALL) == 0 &&
	    SA(t, SSP_SA_SYSCALL_ENTRY) != ostr(b, st, ev->f[SSP_F_FUNC_SYM]))
		kc &= ~(unsigned)SSP_KCTX_C_SYSCALL_ENTRY;
	h->kev = ev;
	h->kcls = cls;
	h->kev_used = 0;
	c = ssp_kctx_func(h->kctx, cpu, kc);
	h->kev = NULL;
	if (c == NULL) {
		if (!h->kev_used)
			drop(b, st, SSP_DROP_NO_SYSCALL);
		return;
	}
	k_member(b, st, c, ev, cls);
	/* Columbo's case: the syscall itself (not a softirq, not after a
	 * wakeup) reads packets that are already there. */
	if (c->kind == SSP_SK_HOST_SYSCALL && (cls & SSP_FC_RX) &&
	    !(c->xf & X_RECEIVED))
		receive(b, h, c);
}

static void
ev_func(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	unsigned cls = fclass(b, st, ev->f[SSP_F_FUNC_SYM]), cpu;
	struct span *sc;

	if (cls & SSP_FC_BLACKLIST) {
		b->st.drop[SSP_DROP_BLACKLIST]++;
		b->st.dropped[st]++;
		return;
	}
	if (h->kctx != NULL) {
		ev_func_kctx(b, st, ev, cls);
		return;
	}
	cpu = cpu_of(b, st, ev->f[SSP_F_FUNC_CPU]);
	if (b->status != SSP_OK)
		return;
	h->last_cpu = (int)cpu;
	h->last_fcls = cls;
	sc = h->cur[cpu];
	if (cls & SSP_FC_SYSCALL_ENTRY) {
		/* Another syscall-entry function before any other function of
		 * the syscall is the entry trampoline going on (entry_SYSCALL_64,
		 * then its label entry_SYSCALL_64_safe_stack, which gem5 names
		 * too): the same syscall.  Its own entry function again is a
		 * new syscall. */
		if (sc != NULL && SA(sc, SSP_SA_SYSCALL_CALL) == 0 &&
		    SA(sc, SSP_SA_SYSCALL_ENTRY) !=
		    ostr(b, st, ev->f[SSP_F_FUNC_SYM])) {
			add_ev(b, sc, ev);
			SA(sc, SSP_SA_SYSCALL_FUNCS)++;
			return;
		}
		if (sc != NULL)
			finish(b, sc);
		if ((sc = h->cur[cpu] = mk(b, SSP_SK_HOST_SYSCALL, st, ev->ts)) == NULL)
			return;
		SA(sc, SSP_SA_SYSCALL_CPU) = h->cpu_out[cpu];
		/* interned after finish(): the output's string order stays */
		SA(sc, SSP_SA_SYSCALL_ENTRY) = ostr(b, st,
		    ev->f[SSP_F_FUNC_SYM]);
		SA(sc, SSP_SA_SYSCALL_FUNCS) = 1;
		sc->fcls = cls;
		add_ev(b, sc, ev);
		return;
	}
	if (sc == NULL) {
		b->st.drop[SSP_DROP_NO_SYSCALL]++;
		b->st.dropped[st]++;
		return;
	}
	add_ev(b, sc, ev);
	SA(sc, SSP_SA_SYSCALL_FUNCS)++;
	if (SA(sc, SSP_SA_SYSCALL_CALL) == 0)
		SA(sc, SSP_SA_SYSCALL_CALL) = ostr(b, st, ev->f[SSP_F_FUNC_SYM]);
	sc->fcls |= cls;
	if ((cls & SSP_FC_RX) && !(sc->xf & X_RECEIVED))
		receive(b, h, sc);
}

static void
drop(struct ssp_spanb *b, unsigned st, unsigned reason)
{
	b->st.drop[reason]++;
	b->st.dropped[st]++;
}

/* Close a span whose last event will not come. */
static void
finish_incomplete(struct ssp_spanb *b, struct span *s)
{
	s->flags |= SSP_SPAN_INCOMPLETE;
	finish(b, s);
}

/* A posted write whose immediate response did not come: expected for
 * accesses answered inside gem5, else the span is incomplete. */
static void
close_posted(struct ssp_spanb *b, struct hstate *h)
{
	struct span *s = h->posted;

	h->posted = NULL;
	if (s->xf & X_INSIDE)
		finish(b, s);
	else
		finish_incomplete(b, s);
}

static void
ev_mmio(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	int write = ev->type == SSP_EV_MMIO_WR;
	int link = link_of(b, st, ev->f[SSP_F_MMIO_COMP]);
	int64_t bar = (int64_t)ev->f[SSP_F_MMIO_BAR];
	int64_t posted = write && ev->nf > SSP_F_MMIO_POSTED ?
	    (int64_t)ev->f[SSP_F_MMIO_POSTED] : -1;
	unsigned bars = link >= 0 ? b->pl[link].bars :
	    ssp_rules_device_bars(b->rules, "");
	struct span *s = host_child(b, SSP_SK_HOST_MMIO, st, ev), *old;
	void *o;

	if (s == NULL)
		return;
	SA(s, SSP_SA_HMMIO_COMP) = ostr(b, st, ev->f[SSP_F_MMIO_COMP]);
	SA(s, SSP_SA_HMMIO_WRITE) = (uint64_t)write;
	SA(s, SSP_SA_HMMIO_ADDR) = ev->f[SSP_F_MMIO_ADDR];
	SA(s, SSP_SA_HMMIO_SIZE) = ev->f[SSP_F_MMIO_SIZE];
	SA(s, SSP_SA_HMMIO_ID) = ev->f[SSP_F_MMIO_ID];
	SA(s, SSP_SA_HMMIO_BAR) = (uint64_t)bar;
	SA(s, SSP_SA_HMMIO_OFFS) = ev->f[SSP_F_MMIO_OFFS];
	SA(s, SSP_SA_HMMIO_POSTED) = (uint64_t)posted;
	/* Other BARs (the MSI-X table) and MSI programming are answered
	 * inside gem5: no NIC line, no completion. */
	if ((bar >= 0 && (bar > 31 || !(bars & (1u << bar)))) ||
	    (h->last_fcls & SSP_FC_PCI_WRITE)) {
		if (posted == 1) {	/* may still get its immediate response */
			if (h->posted != NULL)
				close_posted(b, h);
			s->xf |= X_INSIDE;
			h->posted = s;
			return;
		}
		finish(b, s);
		return;
	}
	if (link >= 0) {
		send(b, &b->pl[link].mmio, s, SSP_CTX_MMIO);
		if (s->parent != NULL)
			s->parent->xf |= X_NICWORK;
	} else {
		b->st.ctx_nowhere[SSP_CTX_MMIO]++;
	}
	if (posted == 1) {
		if (h->posted != NULL)	/* the previous one got no response */
			close_posted(b, h);
		h->posted = s;
		return;
	}
	if (ssp_map3_put(&b->mmio_open, ev->f[SSP_F_MMIO_ID], 0, st, s, &o) != 0) {
		nomem(b);
		return;
	}
	if ((old = o) != NULL) {
		b->st.dup_ids++;
		finish_incomplete(b, old);
	}
}

static void
ev_host_dma(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	int link = link_of(b, st, ev->f[SSP_F_DMA_COMP]);
	uint64_t id = ev->f[SSP_F_DMA_ID];
	struct span *s = mk(b, SSP_SK_HOST_DMA, st, ev->ts), *c = NULL, *old;
	void *o;

	if (s == NULL)
		return;
	if (link >= 0)
		c = ssp_map3_del(&b->dma_ctx, id, 0, (uint32_t)link);
	if (c != NULL)
		s->parent = c;		/* the map's reference moves over */
	else
		orphan(s, SSP_CAUSE_DMA);
	add_ev(b, s, ev);
	SA(s, SSP_SA_HDMA_COMP) = ostr(b, st, ev->f[SSP_F_DMA_COMP]);
	SA(s, SSP_SA_HDMA_WRITE) = ev->type == SSP_EV_DMA_WR;
	SA(s, SSP_SA_HDMA_ID) = id;
	SA(s, SSP_SA_HDMA_ADDR) = ev->f[SSP_F_DMA_ADDR];
	SA(s, SSP_SA_HDMA_SIZE) = ev->f[SSP_F_DMA_SIZE];
	/* Two NICs on one host may use the same DMA op pointer (nicbm
	 * processes with ASLR off): open host DMA spans are keyed by (id,
	 * adapter component). */
	if (ssp_map3_put(&b->hdma_open, id, SA(s, SSP_SA_HDMA_COMP), st, s,
	    &o) != 0) {
		nomem(b);
		return;
	}
	if ((old = o) != NULL) {
		b->st.dup_ids++;
		finish_incomplete(b, old);
	}
}

static void
ev_dma_done(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	uint64_t id = ev->f[SSP_F_DONE_ID];
	int link = link_of(b, st, ev->f[SSP_F_DONE_COMP]);
	struct span *s;

	if (id == 0) {		/* the gem5-internal write of an MSI(-X) */
		if (link >= 0 && (s = b->pl[link].msix_open) != NULL) {
			b->pl[link].msix_open = NULL;
			add_ev(b, s, ev);
			finish(b, s);
		} else {
			drop(b, st, SSP_DROP_NO_START);
		}
		return;
	}
	if ((s = ssp_map3_del(&b->hdma_open, id, ostr(b, st, ev->f[SSP_F_DONE_COMP]),
	    st)) == NULL) {
		drop(b, st, SSP_DROP_NO_START);
		return;
	}
	add_ev(b, s, ev);
	finish(b, s);
}

static void
ev_msix(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	int link = link_of(b, st, ev->f[SSP_F_IRQ_COMP]);
	struct span *s = mk(b, SSP_SK_HOST_MSIX, st, ev->ts), *c = NULL;

	if (s == NULL)
		return;
	if (link >= 0) {
		struct plink *l = &b->pl[link];

		if (l->msix_open != NULL) {	/* no completion came */
			finish_incomplete(b, l->msix_open);
			l->msix_open = NULL;
		}
		if ((c = ssp_fifo_pop(&l->msix)) != NULL &&
		    SA(c, SSP_SA_NMSIX_VEC) != ev->f[SSP_F_IRQ_VEC])
			b->st.msix_mismatch++;
		l->msix_open = s;
	}
	if (c != NULL)
		s->parent = c;
	else
		orphan(s, SSP_CAUSE_MSIX);
	add_ev(b, s, ev);
	SA(s, SSP_SA_HMSIX_COMP) = ostr(b, st, ev->f[SSP_F_IRQ_COMP]);
	SA(s, SSP_SA_HMSIX_VEC) = ev->f[SSP_F_IRQ_VEC];
	if (host_of(b, st)->kctx != NULL) {	/* for the irq entry that serves it */
		struct ssp_fifo *q = &host_of(b, st)->irqq;

		if (q->n >= IRQQ_MAX) {	/* a log without irq entries */
			unref(b, ssp_fifo_pop(q));
			b->st.ctx_overflow[SSP_CTX_IRQ]++;
		}
		send(b, q, s, SSP_CTX_IRQ);
	}
	if (link < 0)
		finish(b, s);	/* no link to take its completion from */
}

static void
pci_attrs(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev)
{
	SA(s, SSP_SA_HPCI_COMP) = ostr(b, st, ev->f[SSP_F_CFG_COMP]);
	SA(s, SSP_SA_HPCI_WRITE) = ev->type == SSP_EV_CFG_WR;
	SA(s, SSP_SA_HPCI_DEV) = ev->f[SSP_F_CFG_DEV];
	SA(s, SSP_SA_HPCI_FUNC) = ev->f[SSP_F_CFG_FUNC];
	SA(s, SSP_SA_HPCI_REG) = ev->f[SSP_F_CFG_REG];
	SA(s, SSP_SA_HPCI_BYTES) = ev->f[SSP_F_CFG_BYTES];
	SA(s, SSP_SA_HPCI_DATA) = ev->f[SSP_F_CFG_DATA];
}

static void
ev_host(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	struct span *s;

	/* Lines gem5 prints at the same tick as their start are over. */
	if (h->posted != NULL && ev->ts > h->posted->start)
		close_posted(b, h);
	if (h->pci != NULL && ev->ts > h->pci->start) {
		finish(b, h->pci);
		h->pci = NULL;
	}
	switch (ev->type) {
	case SSP_EV_SYNC:
	case SSP_EV_PROC_IN:
		drop(b, st, SSP_DROP_NOISE);
		break;
	case SSP_EV_INSN:
		drop(b, st, SSP_DROP_INSN);
		break;
	case SSP_EV_USER:
		if (h->kctx != NULL) {
			unsigned cpu = cpu_of(b, st, ev->f[SSP_F_USER_CPU]);

			if (b->status == SSP_OK) {
				h->kev = ev;	/* the time contexts close */
				h->kcls = 0;
				ssp_kctx_user(h->kctx, cpu);
				h->kev = NULL;
			}
		}
		drop(b, st, SSP_DROP_INSN);
		break;
	case SSP_EV_FUNC:
		ev_func(b, st, ev);
		break;
	case SSP_EV_MMIO_RD:
	case SSP_EV_MMIO_WR:
		ev_mmio(b, st, ev);
		break;
	case SSP_EV_MMIO_POSTED:
		if ((s = h->posted) != NULL && ev->ts == s->start) {
			h->posted = NULL;
			add_ev(b, s, ev);
			finish(b, s);
		} else {
			drop(b, st, SSP_DROP_NO_START);
		}
		break;
	case SSP_EV_MMIO_RD_DONE:
	case SSP_EV_MMIO_WR_DONE:
		if ((s = ssp_map3_del(&b->mmio_open, ev->f[SSP_F_DONE_ID], 0, st)) != NULL) {
			add_ev(b, s, ev);
			finish(b, s);
		} else {
			drop(b, st, SSP_DROP_NO_START);
		}
		break;
	case SSP_EV_DMA_RD:
	case SSP_EV_DMA_WR:
		ev_host_dma(b, st, ev);
		break;
	case SSP_EV_DMA_DONE:
		ev_dma_done(b, st, ev);
		break;
	case SSP_EV_MSIX:
	case SSP_EV_MSI:
	case SSP_EV_INTR:
		ev_msix(b, st, ev);
		break;
	case SSP_EV_CFG_RD:
	case SSP_EV_CFG_WR:
		s = h->pci;
		if (s != NULL && SA(s, SSP_SA_HPCI_WRITE) ==
		    (ev->type == SSP_EV_CFG_WR)) {
			h->pci = NULL;
			add_ev(b, s, ev);
		} else if ((s = host_child(b, SSP_SK_HOST_PCI, st, ev)) == NULL) {
			break;
		}
		pci_attrs(b, st, s, ev);
		finish(b, s);
		break;
	case SSP_EV_PCIHOST_RD:
	case SSP_EV_PCIHOST_WR:
		if (h->pci != NULL) {
			finish(b, h->pci);
			h->pci = NULL;
		}
		if ((s = host_child(b, SSP_SK_HOST_PCI, st, ev)) == NULL)
			break;
		SA(s, SSP_SA_HPCI_COMP) = ostr(b, st, ev->f[SSP_F_PH_COMP]);
		SA(s, SSP_SA_HPCI_WRITE) = ev->type == SSP_EV_PCIHOST_WR;
		SA(s, SSP_SA_HPCI_DEV) = ev->f[SSP_F_PH_DEV];
		SA(s, SSP_SA_HPCI_FUNC) = ev->f[SSP_F_PH_FUNC];
		SA(s, SSP_SA_HPCI_REG) = ev->f[SSP_F_PH_OFFSET];
		SA(s, SSP_SA_HPCI_BYTES) = ev->f[SSP_F_PH_SIZE];
		h->pci = s;
		break;
	case SSP_EV_POST_INT:
		if (h->intr != NULL) {
			finish_incomplete(b, h->intr);
			h->intr = NULL;
		}
		if ((s = host_child(b, SSP_SK_HOST_INTR, st, ev)) == NULL)
			break;
		SA(s, SSP_SA_HINTR_COMP) = ostr(b, st, ev->f[SSP_F_INT_COMP]);
		h->intr = s;
		break;
	case SSP_EV_CLEAR_INT:
		if ((s = h->intr) != NULL) {
			h->intr = NULL;
			add_ev(b, s, ev);
		} else if ((s = host_child(b, SSP_SK_HOST_INTR, st, ev)) != NULL) {
			SA(s, SSP_SA_HINTR_COMP) =
			    ostr(b, st, ev->f[SSP_F_INT_COMP]);
		} else {
			break;
		}
		finish(b, s);
		break;
	default:
		drop(b, st, SSP_DROP_FOREIGN);
	}
}

/* --- NIC ------------------------------------------------------------------- */

/* A NIC span caused by the NIC's last causing span. */
static struct span *
nic_caused(struct ssp_spanb *b, unsigned kind, unsigned st,
    const struct ssp_rec *ev)
{
	struct span *s = mk(b, kind, st, ev->ts), *last = nic_of(b, st)->last;

	if (s == NULL)
		return NULL;
	if (last != NULL)
		set_parent(s, last);
	else
		orphan(s, SSP_CAUSE_NIC);
	add_ev(b, s, ev);
	return s;
}

static void
set_last(struct ssp_spanb *b, struct nstate *n, struct span *s)
{
	ref(s);
	if (n->last != NULL)
		unref(b, n->last);
	n->last = s;
}

/* --- NIC work chains (kctx) ---------------------------------------------- */

static void
chain_set(struct ssp_spanb *b, struct nstate *n, struct span *c, int64_t ts,
    int tx)
{
	if (c != NULL)
		ref(c);
	if (n->chain != NULL)
		unref(b, n->chain);
	n->chain = c;
	n->chain_ts = ts;
	n->chain_tx = tx;
}

/* The cause a NIC line at ts inherits from the read completion (tx: 0) or
 * eth tx (tx: 1) just before it at the same time, or NULL. */
static struct span *
chain_at(const struct nstate *n, int64_t ts, int tx)
{
	return n->chain != NULL && n->chain_ts == ts && n->chain_tx == tx ?
	    n->chain : NULL;
}

static void
tso_del(struct ssp_spanb *b, struct nstate *n, unsigned i)
{
	unref(b, n->tso[i].cause);
	memmove(&n->tso[i], &n->tso[i + 1],
	    (n->ntso - i - 1) * sizeof(n->tso[0]));
	n->ntso--;
}

/* The TSO send an eth tx of len bytes at ts continues: the one whose next
 * segment is due closest to ts (one wire time after its last one).  The
 * wire time per byte is learnt from the first send seen alone. */
static struct span *
tso_next(struct nstate *n, int64_t ts, uint64_t len)
{
	struct tso *j, *best = NULL;
	int64_t d, bd = 0;
	unsigned i;

	if (n->ntso == 1 && n->tso_ppb == 0 && ts > n->tso[0].last)
		n->tso_ppb = (ts - n->tso[0].last) / n->tso[0].bytes;
	for (i = 0; i < n->ntso; i++) {
		j = &n->tso[i];
		d = ts - (j->last + j->bytes * n->tso_ppb);
		if (d < 0)
			d = -d;
		if (best == NULL || d < bd) {
			best = j;
			bd = d;
		}
	}
	if (best == NULL)
		return NULL;
	best->last = ts;
	best->bytes = (int64_t)(len & 0xffff) + 20;
	return best->cause;
}

static void
tso_start(struct ssp_spanb *b, struct nstate *n, struct span *c, int64_t ts,
    uint64_t len)
{
	if (n->ntso == TSO_MAX)
		tso_del(b, n, 0);
	ref(c);
	n->tso[n->ntso].cause = c;
	n->tso[n->ntso].last = ts;
	n->tso[n->ntso].bytes = (int64_t)(len & 0xffff) + 20;
	n->ntso++;
}

/* A tx write-back is issued with the send's last segment: the send ends. */
static void
tso_end(struct ssp_spanb *b, struct nstate *n, const struct span *c)
{
	unsigned i;

	for (i = 0; i < n->ntso; i++)
		if (n->tso[i].cause == c) {
			tso_del(b, n, i);
			return;
		}
}

/* An rx of the batch list issued (d = 1) or completed (-1) a DMA. */
static void
rx_dma(struct nstate *n, const struct span *rx, int d)
{
	unsigned i = n->nrxb;

	while (i-- > 0)
		if (n->rxb[i] == rx) {
			if (d > 0 ? n->rxo[i] < UINT8_MAX : n->rxo[i] > 0)
				n->rxo[i] = (uint8_t)(n->rxo[i] + d);
			return;
		}
}

/* Whether an rx of the batch list has all its DMAs completed. */
static int
rx_any_done(const struct nstate *n)
{
	unsigned i;

	for (i = 0; i < n->nrxb; i++)
		if (n->rxo[i] == 0)
			return 1;
	return 0;
}

static void
nic_chain_free(struct ssp_spanb *b, struct nstate *n)
{
	chain_set(b, n, NULL, 0, 0);
	while (n->ntso > 0)
		tso_del(b, n, n->ntso - 1);
	if (n->txwb != NULL) {
		unref(b, n->txwb);
		n->txwb = NULL;
	}
}

static void
ev_nic_mmio(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	int write = ev->type == SSP_EV_NIC_WR;
	struct span *s = mk(b, SSP_SK_NIC_MMIO, st, ev->ts), *c = NULL;
	uint64_t off = ev->f[SSP_F_NMMIO_OFF];

	if (s == NULL)
		return;
	if (n->plink >= 0) {
		struct ssp_fifo *q = &b->pl[n->plink].mmio;
		uint32_t i, k = 0;

		/* FIFO order per link, checked by the BAR offset; a short look
		 * ahead skips host contexts that never reached the NIC. */
		if (q->n > 0 && SA(q_at(q, 0), SSP_SA_HMMIO_OFFS) != off) {
			for (i = 1; i < q->n && i <= RESYNC; i++)
				if (SA(q_at(q, i), SSP_SA_HMMIO_OFFS) == off) {
					k = i;
					break;
				}
			if (k == 0)
				b->st.mmio_mismatch++;
			for (i = 0; i < k; i++) {
				unref(b, ssp_fifo_pop(q));
				b->st.mmio_skipped++;
			}
		}
		c = ssp_fifo_pop(q);
	}
	if (c != NULL)
		s->parent = c;
	else
		orphan(s, SSP_CAUSE_MMIO);
	add_ev(b, s, ev);
	SA(s, SSP_SA_NMMIO_WRITE) = (uint64_t)write;
	SA(s, SSP_SA_NMMIO_OFF) = off;
	SA(s, SSP_SA_NMMIO_LEN) = ev->f[SSP_F_NMMIO_LEN];
	SA(s, SSP_SA_NMMIO_VAL) = ev->f[SSP_F_NMMIO_VAL];
	SA(s, SSP_SA_NMMIO_POSTED) = write && ev->nf > SSP_F_NMMIO_POSTED ?
	    ev->f[SSP_F_NMMIO_POSTED] : (uint64_t)-1;
	if (write)
		set_last(b, n, s);
	if (write && b->kctx)
		chain_set(b, n, NULL, 0, 0);
	finish(b, s);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Bound the DMA context map: drop its older half (rare: the host stream
 * is missing its DMA lines). */
static void
trim_dma_ctx(struct ssp_spanb *b)
{
	size_t i, k = 0, m = b->dma_ctx.n;
	uint64_t *seqs = malloc(m * sizeof(*seqs)), cut;

	if (seqs == NULL) {
		nomem(b);
		return;
	}
	for (i = 0; i < b->dma_ctx.cap; i++)
		if (b->dma_ctx.t[i].used)
			seqs[k++] = ((struct span *)b->dma_ctx.t[i].v)->seq;
	qsort(seqs, k, sizeof(*seqs), cmp_u64);
	cut = seqs[k / 2];
	free(seqs);
	for (i = 0; i < b->dma_ctx.cap; ) {
		struct span *x = b->dma_ctx.t[i].v;

		if (b->dma_ctx.t[i].used && x->seq < cut) {
			ssp_map3_del_at(&b->dma_ctx, i);
			unref(b, x);
			b->st.ctx_overflow[SSP_CTX_DMA]++;
		} else {
			i++;
		}
	}
}

static void
ev_nic_dma(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	uint64_t op = ev->f[SSP_F_NDMA_OP], addr = ev->f[SSP_F_NDMA_ADDR];
	struct ssp_map3_ent *hf = ssp_map3_find(&b->ndma_open, op, 0, st);
	struct span *s = hf != NULL ? hf->v : NULL, *old;
	void *o;

	switch (ev->type) {
	case SSP_EV_NIC_DMA_ISSUE:
	case SSP_EV_NIC_DMA_ENQ:
		if (s != NULL) {
			b->st.dup_ids++;
			ssp_map3_del_at(&b->ndma_open, (size_t)(hf - b->ndma_open.t));
			finish_incomplete(b, s);
		}
		if (b->kctx && (old = chain_at(n, ev->ts, 0)) != NULL) {
			if ((s = mk(b, SSP_SK_NIC_DMA, st, ev->ts)) == NULL)
				return;
			set_parent(s, old);
			s->cause = SSP_CAUSE_DMA_CHAIN + 1;
			add_ev(b, s, ev);
		} else if (b->kctx && (old = chain_at(n, ev->ts, 1)) != NULL) {
			/* the write-back after a send's last segment */
			if ((s = mk(b, SSP_SK_NIC_DMA, st, ev->ts)) == NULL)
				return;
			set_parent(s, old);
			s->cause = SSP_CAUSE_DMA_CHAIN + 1;
			add_ev(b, s, ev);
			tso_end(b, n, old);
			chain_set(b, n, NULL, 0, 0);
		} else if ((s = nic_caused(b, SSP_SK_NIC_DMA, st, ev)) == NULL) {
			return;
		} else if (b->kctx && s->parent != NULL &&
		    s->parent->kind == SSP_SK_NIC_RX) {
			rx_dma(n, s->parent, 1);
		}
		SA(s, SSP_SA_NDMA_OP) = op;
		SA(s, SSP_SA_NDMA_ADDR) = addr;
		SA(s, SSP_SA_NDMA_LEN) = ev->f[SSP_F_NDMA_LEN];
		if (ssp_map3_put(&b->ndma_open, op, 0, st, s, &o) != 0)
			nomem(b);
		return;
	case SSP_EV_NIC_DMA_EXEC:
		if (s == NULL) {	/* its issue line is missing */
			if ((s = nic_caused(b, SSP_SK_NIC_DMA, st, ev)) == NULL)
				return;
			SA(s, SSP_SA_NDMA_OP) = op;
			SA(s, SSP_SA_NDMA_ADDR) = addr;
			SA(s, SSP_SA_NDMA_LEN) = ev->f[SSP_F_NDMA_LEN];
			if (ssp_map3_put(&b->ndma_open, op, 0, st, s, &o) != 0) {
				nomem(b);
				return;
			}
		} else {
			if (SA(s, SSP_SA_NDMA_ADDR) != addr)
				b->st.dma_mismatch++;
			add_ev(b, s, ev);
		}
		if (n->plink < 0) {
			b->st.ctx_nowhere[SSP_CTX_DMA]++;
			return;
		}
		if (ssp_map3_put(&b->dma_ctx, op, 0, (uint32_t)n->plink, s, &o) != 0) {
			nomem(b);
			return;
		}
		ref(s);
		if ((old = o) != NULL) {	/* the host never took it */
			b->st.ctx_unused[SSP_CTX_DMA]++;
			unref(b, old);
		}
		if (b->dma_ctx.n > b->ctx_limit)
			trim_dma_ctx(b);
		return;
	default:		/* completed dma read / write */
		if (s == NULL) {
			drop(b, st, SSP_DROP_NO_START);
			return;
		}
		ssp_map3_del_at(&b->ndma_open, (size_t)(hf - b->ndma_open.t));
		if (SA(s, SSP_SA_NDMA_ADDR) != addr)
			b->st.dma_mismatch++;
		SA(s, SSP_SA_NDMA_WRITE) = ev->type == SSP_EV_NIC_DMA_DONE_WR;
		add_ev(b, s, ev);
		if (b->kctx && s->parent != NULL) {
			if (ev->type == SSP_EV_NIC_DMA_DONE_RD)
				chain_set(b, n, s->parent, ev->ts, 0);
			else if (s->parent->kind == SSP_SK_NIC_RX)
				rx_dma(n, s->parent, -1);
			else if (s->parent->kind == SSP_SK_NIC_MMIO) {
				ref(s->parent);	/* a tx write-back */
				if (n->txwb != NULL)
					unref(b, n->txwb);
				n->txwb = s->parent;
			}
		}
		finish(b, s);
	}
}

/* Receive batching (SPEC §3b): an MSI-X after k rx has the newest as its
 * parent and links to the k-1 others. */
static struct span *
nic_msix_batch(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	struct span *s = mk(b, SSP_SK_NIC_MSIX, st, ev->ts);
	struct span *sel[RXB_MAX];
	struct lnk **tail;
	unsigned i, k = 0, nsel = 0, ndone = 0;

	if (s == NULL)
		return NULL;
	/* only the rx whose write-backs completed asked for it (all when
	 * none did: their completion lines are missing) */
	for (i = 0; i < n->nrxb; i++)
		ndone += n->rxo[i] == 0;
	for (i = 0; i < n->nrxb; i++) {
		if (ndone == 0 || n->rxo[i] == 0) {
			sel[nsel++] = n->rxb[i];
		} else {
			n->rxb[k] = n->rxb[i];
			n->rxo[k++] = n->rxo[i];
		}
	}
	n->nrxb = k;
	s->parent = sel[--nsel];	/* the reference moves over */
	tail = &s->out;
	for (i = 0; i < nsel; i++) {
		struct lnk *l = ssp_pool_get(&b->lpool);

		if (l == NULL) {
			nomem(b);
			unref(b, sel[i]);
			continue;
		}
		l->dst = sel[i];	/* so does this one */
		l->src = s;
		l->next = l->wnext = NULL;
		l->resume = 0;
		*tail = l;
		tail = &l->next;
		b->st.rx_batched++;
	}
	if (nsel > 0)
		s->cause = SSP_CAUSE_RX_BATCH + 1;
	add_ev(b, s, ev);
	return s;
}

/* kctx: an eth tx at the time of a read completion is the first segment of
 * that DMA's send; others continue the TSO send whose segment is due. */
static struct span *
nic_tx_chained(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	struct span *s, *c = chain_at(n, ev->ts, 0);
	uint64_t len = ev->f[SSP_F_NTX_LEN];
	unsigned why = SSP_CAUSE_DMA_CHAIN;

	if (c != NULL)
		tso_start(b, n, c, ev->ts, len);
	else if ((c = tso_next(n, ev->ts, len)) != NULL)
		why = SSP_CAUSE_TSO;
	else
		return nic_caused(b, SSP_SK_NIC_TX, st, ev);
	if ((s = mk(b, SSP_SK_NIC_TX, st, ev->ts)) == NULL)
		return NULL;
	set_parent(s, c);
	s->cause = (uint8_t)(why + 1);
	add_ev(b, s, ev);
	chain_set(b, n, c, ev->ts, 1);
	return s;
}

static void
ev_nic(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	struct span *s, *c;

	switch (ev->type) {
	case SSP_EV_NIC_RD:
	case SSP_EV_NIC_WR:
		ev_nic_mmio(b, st, ev);
		break;
	case SSP_EV_NIC_DMA_ISSUE:
	case SSP_EV_NIC_DMA_EXEC:
	case SSP_EV_NIC_DMA_ENQ:
	case SSP_EV_NIC_DMA_DONE_RD:
	case SSP_EV_NIC_DMA_DONE_WR:
		ev_nic_dma(b, st, ev);
		break;
	case SSP_EV_NIC_MSIX:
	case SSP_EV_NIC_MSI:
		if (b->kctx && n->nrxb > 0 &&
		    (n->txwb == NULL || rx_any_done(n))) {
			s = nic_msix_batch(b, st, ev);
		} else if (b->kctx && n->txwb != NULL) {
			if ((s = mk(b, SSP_SK_NIC_MSIX, st, ev->ts)) != NULL) {
				s->parent = n->txwb;	/* the reference moves */
				n->txwb = NULL;
				s->cause = SSP_CAUSE_TX_WB + 1;
				add_ev(b, s, ev);
			}
		} else {
			s = nic_caused(b, SSP_SK_NIC_MSIX, st, ev);
		}
		if (b->kctx && n->txwb != NULL) {
			unref(b, n->txwb);
			n->txwb = NULL;
		}
		if (s == NULL)
			break;
		SA(s, SSP_SA_NMSIX_VEC) = ev->f[SSP_F_NIRQ_VEC];
		SA(s, SSP_SA_NMSIX_MSI) = ev->type == SSP_EV_NIC_MSI;
		if (n->plink >= 0)
			send(b, &b->pl[n->plink].msix, s, SSP_CTX_MSIX);
		else
			b->st.ctx_nowhere[SSP_CTX_MSIX]++;
		finish(b, s);
		break;
	case SSP_EV_NIC_TX:
		if (b->kctx) {
			s = nic_tx_chained(b, st, ev);
			if (s == NULL)
				break;
		} else if ((s = nic_caused(b, SSP_SK_NIC_TX, st, ev)) == NULL) {
			break;
		}
		SA(s, SSP_SA_NTX_LEN) = ev->f[SSP_F_NTX_LEN];
		if (n->elink >= 0)
			send(b, &b->el[n->elink].tx, s, SSP_CTX_TX);
		else
			b->st.ctx_nowhere[SSP_CTX_TX]++;
		finish(b, s);
		break;
	case SSP_EV_NIC_RX:
		if ((s = mk(b, SSP_SK_NIC_RX, st, ev->ts)) == NULL)
			break;
		c = n->elink >= 0 ? ssp_fifo_pop(&b->el[n->elink].rx) : NULL;
		if (c != NULL)
			s->parent = c;
		else
			orphan(s, SSP_CAUSE_RX);
		add_ev(b, s, ev);
		SA(s, SSP_SA_NRX_PORT) = ev->f[SSP_F_NRX_PORT];
		SA(s, SSP_SA_NRX_LEN) = ev->f[SSP_F_NRX_LEN];
		set_last(b, n, s);
		if (b->kctx)
			chain_set(b, n, NULL, 0, 0);
		if (b->kctx) {		/* for the next MSI-X */
			if (n->nrxb == RXB_MAX) {
				unref(b, n->rxb[0]);
				memmove(&n->rxb[0], &n->rxb[1],
				    (RXB_MAX - 1) * sizeof(n->rxb[0]));
				memmove(&n->rxo[0], &n->rxo[1],
				    (RXB_MAX - 1) * sizeof(n->rxo[0]));
				n->nrxb--;
			}
			ref(s);
			n->rxo[n->nrxb] = 0;
			n->rxb[n->nrxb++] = s;
		}
		if (n->plink >= 0)
			send(b, b->pl[n->plink].recv, s, SSP_CTX_RECV);
		else
			b->st.ctx_nowhere[SSP_CTX_RECV]++;
		finish(b, s);
		break;
	case SSP_EV_NIC_INTX:
		drop(b, st, SSP_DROP_NO_RULE);
		break;
	default:
		drop(b, st, SSP_DROP_FOREIGN);
	}
}

/* --- network --------------------------------------------------------------- */

static struct elink *
elink_at(struct ssp_spanb *b, unsigned st, uint64_t node, uint64_t dev)
{
	return ssp_map3_get(&b->elmap, node << 32 | (dev & 0xffffffffu), 0, st);
}

static __attribute__((noinline)) unsigned
dev_kind_new(struct ssp_spanb *b, unsigned st, uint64_t devtype,
    struct sinfo *si)
{
	size_t len;
	const char *t = text(b, st, devtype, &len);

	si->dev = len == 15 && memcmp(t, "SimpleNetDevice", 15) == 0 ?
	    DEV_SIMPLE : len == 9 && memcmp(t, "NetSwitch", 9) == 0 ?
	    DEV_SWITCH : DEV_OTHER;
	si->have |= HAVE_DEV;
	return si->dev;
}

/* What a network device type name is (DEV_*), computed once per name
 * (out of line: the lookup is all an event pays). */
static inline unsigned
dev_kind(struct ssp_spanb *b, unsigned st, uint64_t devtype)
{
	struct sinfo *si = sinfo(b, st, devtype);

	return (si->have & HAVE_DEV) ? si->dev : dev_kind_new(b, st, devtype, si);
}

static void
net_attrs(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev, int first)
{
	if (first) {
		SA(s, SSP_SA_NET_NODE) = ev->f[SSP_F_NET_NODE];
		SA(s, SSP_SA_NET_DEV) = ev->f[SSP_F_NET_DEV];
		SA(s, SSP_SA_NET_DEVTYPE) = ostr(b, st, ev->f[SSP_F_NET_DEVTYPE]);
		SA(s, SSP_SA_NET_UID) = ev->f[SSP_F_NET_UID];
		SA(s, SSP_SA_NET_INTERESTING) = ev->f[SSP_F_NET_INTERESTING];
		SA(s, SSP_SA_NET_PAYLOAD) = (uint64_t)-1;
		SA(s, SSP_SA_NET_IP_PROTO) = (uint64_t)-1;
	}
	if (ev->f[SSP_F_NET_BOUNDARY] != SSP_NET_INTERNAL)
		SA(s, SSP_SA_NET_BOUNDARY) = ev->f[SSP_F_NET_BOUNDARY];
	if ((int64_t)SA(s, SSP_SA_NET_PAYLOAD) < 0)
		SA(s, SSP_SA_NET_PAYLOAD) = ev->f[SSP_F_NET_PAYLOAD];
	/* The manual Ethernet header of SimpleNetDevice lines is garbage. */
	if (SA(s, SSP_SA_NET_ETH_TYPE) == 0 &&
	    dev_kind(b, st, ev->f[SSP_F_NET_DEVTYPE]) != DEV_SIMPLE)
		SA(s, SSP_SA_NET_ETH_TYPE) = ev->f[SSP_F_NET_ETH_TYPE];
	if (SA(s, SSP_SA_NET_IP_SRC) == 0 && SA(s, SSP_SA_NET_IP_DST) == 0) {
		SA(s, SSP_SA_NET_IP_SRC) = ev->f[SSP_F_NET_IP_SRC];
		SA(s, SSP_SA_NET_IP_DST) = ev->f[SSP_F_NET_IP_DST];
	}
	if ((int64_t)SA(s, SSP_SA_NET_IP_PROTO) < 0)
		SA(s, SSP_SA_NET_IP_PROTO) = ev->f[SSP_F_NET_IP_PROTO];
}

/*
 * A device span starts (enqueue, or a drop with no enqueue before it).
 * Returns NULL when the event is not traced (background, dropped here).
 */
static struct span *
net_start(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	uint64_t uid = ev->f[SSP_F_NET_UID];
	int interesting = ev->f[SSP_F_NET_INTERESTING] != 0;
	struct elink *el;
	struct span *s, *prev, *c = NULL;
	unsigned xf = 0;
	int bg = 0;

	if (ev->f[SSP_F_NET_BOUNDARY] == SSP_NET_FROM_ADAPTER) {
		el = elink_at(b, st, ev->f[SSP_F_NET_NODE], ev->f[SSP_F_NET_DEV]);
		if (el != NULL)
			c = ssp_fifo_pop(&el->tx);
		if ((s = mk(b, SSP_SK_NET_DEVICE, st, ev->ts)) == NULL) {
			if (c != NULL)
				unref(b, c);
			return NULL;
		}
		if (c != NULL)
			s->parent = c;
		else
			orphan(s, SSP_CAUSE_TX);
		bg = !interesting && c == NULL;
	} else {
		prev = ssp_map3_get(&b->chain, uid, 0, st);
		if (prev == NULL && !interesting) {
			if (b->bg == SSP_BG_ADAPTER) {
				el = elink_at(b, st, ev->f[SSP_F_NET_NODE],
				    ev->f[SSP_F_NET_DEV]);
				if (el == NULL)
					return NULL;
				xf = X_TENTATIVE;	/* kept if it reaches the NIC */
			}
			bg = 1;
		} else if (prev != NULL) {
			bg = (prev->flags & SSP_SPAN_BACKGROUND) != 0;
		}
		if ((s = mk(b, SSP_SK_NET_DEVICE, st, ev->ts)) == NULL)
			return NULL;
		if (prev != NULL)
			set_parent(s, prev);
		else if (interesting)
			orphan(s, SSP_CAUSE_PACKET);
		s->xf |= (uint8_t)xf;
	}
	if (bg)
		s->flags |= SSP_SPAN_BACKGROUND;
	add_ev(b, s, ev);
	net_attrs(b, st, s, ev, 1);
	return s;
}

/* Forget packets whose last hop is older than packet-idle.  Runs at most
 * once per half packet-idle of simulated time, so the map holds about 1.5
 * packet-idle worth of packets and each sweep costs O(1) per packet. */
static void
sweep(struct ssp_spanb *b)
{
	int64_t horizon = b->now - b->idle;
	size_t i;

	b->next_sweep = b->now + b->idle / 2;
	for (i = 0; i < b->chain.cap; ) {
		struct span *x = b->chain.t[i].v;

		if (b->chain.t[i].used && x->end < horizon) {
			ssp_map3_del_at(&b->chain, i);
			unref(b, x);
			b->st.packets_expired++;
		} else {
			i++;
		}
	}
}

static void
net_end(struct ssp_spanb *b, unsigned st, struct span *s,
    const struct ssp_rec *ev)
{
	int to_adapter = ev->type == SSP_EV_NET_DEQ &&
	    ev->f[SSP_F_NET_BOUNDARY] == SSP_NET_TO_ADAPTER;
	struct elink *el;
	void *o;

	if (ev->type == SSP_EV_NET_DROP)
		SA(s, SSP_SA_NET_DROPPED) = 1;
	if (s->xf & X_TENTATIVE) {
		if (!to_adapter) {	/* background that stays inside ns-3 */
			add_ev(b, s, ev);
			gone(b, s, SSP_DROP_BACKGROUND);
			return;
		}
		s->xf &= (uint8_t)~X_TENTATIVE;
	}
	add_ev(b, s, ev);
	net_attrs(b, st, s, ev, 0);
	/* Chain the packet's next hops to this one; not for background
	 * traffic kept only where it reaches a NIC: each copy of it that
	 * reaches another NIC starts a trace of its own, the others vanish. */
	if (ev->type == SSP_EV_NET_DEQ && !(b->bg == SSP_BG_ADAPTER &&
	    (s->flags & SSP_SPAN_BACKGROUND))) {
		if (ssp_map3_put(&b->chain, ev->f[SSP_F_NET_UID], 0, st, s, &o) != 0) {
			nomem(b);
			return;
		}
		ref(s);
		if (o != NULL)
			unref(b, o);
		if (b->now >= b->next_sweep)
			sweep(b);
	}
	if (to_adapter) {
		el = elink_at(b, st, ev->f[SSP_F_NET_NODE], ev->f[SSP_F_NET_DEV]);
		if (el != NULL)
			send(b, &el->rx, s, SSP_CTX_RX);
		else
			b->st.ctx_nowhere[SSP_CTX_RX]++;
	}
	finish(b, s);
}

/* --- net_switch ------------------------------------------------------------ */

/*
 * The chain key of a switch packet: its uid (vaastav/simbricks), or, for
 * NETSWITCH_DEBUG lines that have none, its identity (MACs, IPv4 or ARP
 * addresses, length, EtherType): the latest ingress with that identity.
 */
static uint64_t
sw_key(const struct ssp_rec *ev)
{
	uint64_t h;

	if ((int64_t)ev->f[SSP_F_NET_UID] >= 0)
		return 0;
	h = ev->f[SSP_F_NET_ETH_SRC] * 0x9e3779b97f4a7c15ULL;
	h ^= (h >> 29) ^ ev->f[SSP_F_NET_ETH_DST] * 0xc2b2ae3d27d4eb4fULL;
	h ^= (h >> 31) ^ (ev->f[SSP_F_NET_IP_SRC] << 32 | ev->f[SSP_F_NET_IP_DST]) *
	    0x165667b19e3779f9ULL;
	h ^= (h >> 27) ^ (ev->f[SSP_F_NET_IP_LEN] << 16 | ev->f[SSP_F_NET_ETH_TYPE]) *
	    0x27d4eb2f165667c5ULL;
	return h | 1;
}

/* The held egress span is complete: no drop line followed it. */
static void
sw_flush(struct ssp_spanb *b, struct wstate *w)
{
	struct span *s = w->held;

	if (s != NULL) {
		w->held = NULL;
		finish(b, s);
	}
}

/*
 * A net_switch port (formats/spans.md §3): net_enq at the ingress port is
 * a span of its own whose parent is the NIC's tx context there; each
 * net_deq at an egress port is a span whose parent is that ingress (found
 * by uid or packet identity), and its context goes to the NIC of the
 * egress port.  An egress span is finished at the next event of the
 * stream, so that a "dropping packet on port" line can still end it.
 */
static void
ev_switch(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct wstate *w = net_of(b, st);
	uint64_t uid = ev->f[SSP_F_NET_UID], key = sw_key(ev);
	struct elink *el = elink_at(b, st, ev->f[SSP_F_NET_NODE], ev->f[SSP_F_NET_DEV]);
	struct span *s, *c, *held = w->held;
	void *o;

	if (ev->type == SSP_EV_NET_DROP && (int64_t)uid < 0 && key == 1 &&
	    held != NULL && SA(held, SSP_SA_NET_DEV) == ev->f[SSP_F_NET_DEV]) {
		/* "forward_pkt: dropping packet on port N": the copy just
		 * forwarded there never reached the NIC */
		w->held = NULL;
		SA(held, SSP_SA_NET_DROPPED) = 1;
		add_ev(b, held, ev);
		if (el != NULL && ssp_fifo_last(&el->rx) == held) {
			ssp_fifo_pop_last(&el->rx);
			unref(b, held);
		}
		finish(b, held);
		return;
	}
	sw_flush(b, w);
	if (ev->type == SSP_EV_NET_ENQ) {
		c = el != NULL ? ssp_fifo_pop(&el->tx) : NULL;
		if ((s = mk(b, SSP_SK_NET_DEVICE, st, ev->ts)) == NULL) {
			if (c != NULL)
				unref(b, c);
			return;
		}
		if (c != NULL)
			s->parent = c;
		else if (el != NULL)
			orphan(s, SSP_CAUSE_TX);
		/* else a port without a NIC (another network): a root */
		add_ev(b, s, ev);
		net_attrs(b, st, s, ev, 1);
		if (ssp_map3_put(&b->chain, uid, key, st, s, &o) != 0) {
			nomem(b);
			return;
		}
		ref(s);
		if (o != NULL)
			unref(b, o);
		if (b->now >= b->next_sweep)
			sweep(b);
		finish(b, s);
		return;
	}
	/* net_deq (a copy sent on a port), net_drop (a copy dropped) */
	c = ssp_map3_get(&b->chain, uid, key, st);
	if ((s = mk(b, SSP_SK_NET_DEVICE, st, ev->ts)) == NULL)
		return;
	if (c != NULL)
		set_parent(s, c);
	else
		orphan(s, SSP_CAUSE_PACKET);
	add_ev(b, s, ev);
	net_attrs(b, st, s, ev, 1);
	if (ev->type == SSP_EV_NET_DROP) {
		SA(s, SSP_SA_NET_DROPPED) = 1;
		finish(b, s);
		return;
	}
	if (el != NULL)
		send(b, &el->rx, s, SSP_CTX_RX);
	else
		b->st.ctx_nowhere[SSP_CTX_RX]++;
	w->held = s;
}

static void
ev_net(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	uint64_t uid = ev->f[SSP_F_NET_UID];
	uint64_t nd = ev->f[SSP_F_NET_NODE] << 32 |
	    (ev->f[SSP_F_NET_DEV] & 0xffffffffu);
	struct span *s, *old;
	void *o;

	if (ev->type == SSP_EV_NET_RX) {
		drop(b, st, SSP_DROP_NO_RULE);
		return;
	}
	if (ev->type > SSP_EV_NET_RX || ev->type < SSP_EV_NET_ENQ) {
		drop(b, st, SSP_DROP_FOREIGN);
		return;
	}
	if (dev_kind(b, st, ev->f[SSP_F_NET_DEVTYPE]) == DEV_SWITCH) {
		ev_switch(b, st, ev);
		return;
	}
	if ((int64_t)uid < 0) {
		drop(b, st, SSP_DROP_NO_UID);
		return;
	}
	if (ev->type == SSP_EV_NET_ENQ) {
		if ((s = net_start(b, st, ev)) == NULL) {
			drop(b, st, SSP_DROP_BACKGROUND);
			return;
		}
		if (ssp_map3_put(&b->net_open, uid, nd, st, s, &o) != 0) {
			nomem(b);
			return;
		}
		if ((old = o) != NULL) {	/* enqueued twice here */
			b->st.dup_ids++;
			if (old->xf & X_TENTATIVE)
				gone(b, old, SSP_DROP_BACKGROUND);
			else
				finish_incomplete(b, old);
		}
		return;
	}
	s = ssp_map3_del(&b->net_open, uid, nd, st);
	if (s == NULL) {
		if (ev->type != SSP_EV_NET_DROP) {
			drop(b, st, ssp_map3_get(&b->chain, uid, 0, st) != NULL ||
			    ev->f[SSP_F_NET_INTERESTING] ? SSP_DROP_NO_START :
			    SSP_DROP_BACKGROUND);
			return;
		}
		/* dropped before it was enqueued: a one-event span */
		if ((s = net_start(b, st, ev)) == NULL) {
			drop(b, st, SSP_DROP_BACKGROUND);
			return;
		}
		SA(s, SSP_SA_NET_DROPPED) = 1;
		if (s->xf & X_TENTATIVE) {
			gone(b, s, SSP_DROP_BACKGROUND);
			return;
		}
		finish(b, s);
		return;
	}
	net_end(b, st, s, ev);
}

/* --- the simulators' handlers ------------------------------------------- */

/*
 * What the core calls for a stream of one simulator kind: one row of sims[]
 * per enum ssp_sim.
 */
struct ssp_spanb_sim {
	size_t size;		/* bytes of its state (stream.x), zeroed */
	/* Set up the state once every stream has its own (NULL: nothing). */
	int (*init)(struct ssp_spanb *b, unsigned st, struct ssp_err *e);
	/* A run of n >= 1 events of the stream, packed (ssp_rec_packed_next). */
	void (*events)(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
	    size_t n);
	/* No more events: close what is open (SSP_SPAN_OPEN), drop references. */
	void (*end)(struct ssp_spanb *b, unsigned st);
	/* The end of all input, every stream ended: contexts the stream still
	 * queues were never used (NULL: none). */
	void (*drain)(struct ssp_spanb *b, unsigned st);
	/* Free what init allocated, also after it failed (NULL: nothing). */
	void (*free)(struct ssp_spanb *b, unsigned st);
};

/* Is ev of this stream kind's simulator (and of a known type)? */
static inline int
ours(const struct ssp_spanb *b, enum ssp_sim kind, const struct ssp_rec *ev)
{
	return ev->type < SSP_EV_NTYPES && b->evsim[ev->type] == kind;
}

static int by_seq(const void *a, const void *b);
static struct span **take_stream(struct ssp_spanb *b, struct ssp_map3 *m,
    unsigned st, size_t *np);
static void close_open(struct ssp_spanb *b, struct span *s);
static void drain(struct ssp_spanb *b, struct ssp_fifo *q, unsigned kind);

/* Close the spans of a map that belong to stream st, in creation order. */
static void
close_stream(struct ssp_spanb *b, struct ssp_map3 *m, unsigned st)
{
	struct span **v;
	size_t n, i;

	v = take_stream(b, m, st, &n);
	for (i = 0; i < n; i++)
		close_open(b, v[i]);
	free(v);
}

/* host (gem5) */

static int
host_init(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct hstate *h = host_of(b, st);
	const struct ssp_topo *t = b->t;
	size_t i;

	h->last_cpu = -1;
	for (i = 0; i < t->npcie; i++) {
		unsigned *np;

		if (t->pcie[i].host != st)
			continue;
		if ((np = realloc(h->plinks, (h->nplinks + 1) * sizeof(*np))) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		h->plinks = np;
		h->plinks[h->nplinks++] = (unsigned)i;
		b->pl[i].recv = &h->recv;
	}
	if (b->kctx) {
		struct ssp_kctx_cfg kc = { ssp_rules_count(b->rules,
		    SSP_FC_SYSCALL_EXIT) > 0 };
		struct ssp_kctx_ops ops = { &h->kh, k_open, k_close, k_hold,
		    k_release, k_link, k_woke };

		h->kh.b = b;
		h->kh.st = st;
		return ssp_kctx_new(&h->kctx, &kc, &ops, e);
	}
	return SSP_OK;
}

static void
host_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev))
		if (ours(b, SSP_SIM_GEM5, ev))
			ev_host(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
}

/* Close the spans in list (k of them) in creation order. */
static void
close_list(struct ssp_spanb *b, struct span **list, size_t k)
{
	size_t i;

	qsort(list, k, sizeof(list[0]), by_seq);
	for (i = 0; i < k; i++)
		close_open(b, list[i]);
}

static void
host_stream_end(struct ssp_spanb *b, unsigned st)
{
	struct hstate *h = host_of(b, st);
	struct span *list[8];
	size_t i, k = 0;
	unsigned c;

	if (h->kctx != NULL) {
		const struct ssp_kctx_stats *ks;
		const uint64_t *from;
		uint64_t *to;

		h->kev = NULL;
		ssp_kctx_end(h->kctx);
		ks = ssp_kctx_stats(h->kctx);
		from = (const uint64_t *)ks;
		to = (uint64_t *)&b->st.kst;
		for (i = 0; i < sizeof(*ks) / sizeof(uint64_t); i++)
			to[i] += from[i];
	}
	/* the spans held in slots, in creation order */
	for (c = 0; c < h->ncpu; c++) {
		if (h->cur[c] == NULL)
			continue;
		if (k == sizeof(list) / sizeof(list[0])) {
			close_list(b, list, k);
			k = 0;
		}
		list[k++] = h->cur[c];
		h->cur[c] = NULL;
	}
	close_list(b, list, k);
	k = 0;
	if (h->posted != NULL)
		list[k++] = h->posted;
	if (h->pci != NULL)
		list[k++] = h->pci;
	if (h->intr != NULL)
		list[k++] = h->intr;
	h->posted = h->pci = h->intr = NULL;
	for (c = 0; c < h->nplinks; c++) {
		struct plink *l = &b->pl[h->plinks[c]];

		if (l->msix_open != NULL) {
			if (k == sizeof(list) / sizeof(list[0])) {
				close_list(b, list, k);
				k = 0;
			}
			list[k++] = l->msix_open;
			l->msix_open = NULL;
		}
	}
	close_list(b, list, k);
	close_stream(b, &b->mmio_open, st);
	close_stream(b, &b->hdma_open, st);
}

static void
host_drain(struct ssp_spanb *b, unsigned st)
{
	struct hstate *h = host_of(b, st);

	drain(b, &h->recv, SSP_CTX_RECV);
	drain(b, &h->irqq, SSP_CTX_IRQ);
}

static void
host_free(struct ssp_spanb *b, unsigned st)
{
	struct hstate *h = host_of(b, st);

	free(h->cur);
	free(h->cpu_out);
	free(h->plinks);
	ssp_fifo_free(&h->recv);
	ssp_fifo_free(&h->irqq);
	ssp_kctx_free(h->kctx);
}

static const struct ssp_spanb_sim host_sim = {
	sizeof(struct hstate), host_init, host_events, host_stream_end, host_drain,
	host_free,
};

/* NIC (nicbm) */

static int
nic_init(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct nstate *n = nic_of(b, st);

	(void)e;
	n->plink = b->t->streams[st].pcie;
	n->elink = b->t->streams[st].eth;
	return SSP_OK;
}

static void
nic_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev))
		if (ours(b, SSP_SIM_NICBM, ev))
			ev_nic(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
}

static void
nic_stream_end(struct ssp_spanb *b, unsigned st)
{
	struct nstate *n = nic_of(b, st);
	unsigned i;

	close_stream(b, &b->ndma_open, st);
	if (n->last != NULL) {
		unref(b, n->last);
		n->last = NULL;
	}
	for (i = 0; i < n->nrxb; i++)
		unref(b, n->rxb[i]);
	n->nrxb = 0;
	nic_chain_free(b, n);
}

static const struct ssp_spanb_sim nic_sim = {
	sizeof(struct nstate), nic_init, nic_events, nic_stream_end, NULL, NULL,
};

/* network (ns-3, net_switch) */

static void
net_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev)) {
		b->now = ev->ts;	/* packet-idle sweeps */
		if (ours(b, SSP_SIM_NS3, ev))
			ev_net(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
	}
}

static void
net_stream_end(struct ssp_spanb *b, unsigned st)
{
	sw_flush(b, net_of(b, st));
	close_stream(b, &b->net_open, st);
}

static const struct ssp_spanb_sim net_sim = {
	sizeof(struct wstate), NULL, net_events, net_stream_end, NULL, NULL,
};

/* The handlers of each simulator kind a topology stream may have. */
static const struct ssp_spanb_sim *const sims[SSP_SIM_N] = {
	[SSP_SIM_GEM5] = &host_sim,
	[SSP_SIM_NICBM] = &nic_sim,
	[SSP_SIM_NS3] = &net_sim,
};

/* --- public ---------------------------------------------------------------- */

int
ssp_spanb_event(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    struct ssp_err *e)
{
	return ssp_spanb_events(b, st, ev, 1, e);
}

int
ssp_spanb_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n, struct ssp_err *e)
{
	struct stream *s = &b->s[st];

	b->st.in[st] += n;
	if (s->ended) {
		b->st.drop[SSP_DROP_FOREIGN] += n;
		b->st.dropped[st] += n;
	} else if (n > 0) {
		s->sim->events(b, st, ev, n);
	}
	if (b->status != SSP_OK && e != NULL)
		*e = b->err;
	return b->status;
}

void
ssp_spanb_strings_reset(struct ssp_spanb *b, unsigned st)
{
	struct stream *s = &b->s[st];

	if (s->si != NULL)
		memset(s->si, 0, s->nsi * sizeof(*s->si));
}

static int
by_seq(const void *a, const void *b)
{
	const struct span *x = *(struct span *const *)a;
	const struct span *y = *(struct span *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Remove the entries of stream st from m (k3 == st), in creation order. */
static struct span **
take_stream(struct ssp_spanb *b, struct ssp_map3 *m, unsigned st, size_t *np)
{
	struct span **v;
	size_t i, n = 0;

	*np = 0;
	if (m->n == 0)
		return NULL;
	if ((v = malloc(m->n * sizeof(*v))) == NULL) {
		nomem(b);
		return NULL;
	}
	for (i = 0; i < m->cap; ) {
		if (m->t[i].used && m->t[i].k3 == st) {
			v[n++] = m->t[i].v;
			ssp_map3_del_at(m, i);
		} else {
			i++;
		}
	}
	qsort(v, n, sizeof(*v), by_seq);
	*np = n;
	return v;
}

static void
close_open(struct ssp_spanb *b, struct span *s)
{
	if (s->xf & X_TENTATIVE) {
		gone(b, s, SSP_DROP_BACKGROUND);
		return;
	}
	s->flags |= SSP_SPAN_OPEN;
	finish(b, s);
}

int
ssp_spanb_stream_end(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct stream *s = &b->s[st];

	if (s->ended)
		return b->status;
	s->ended = 1;
	s->sim->end(b, st);
	if (b->status != SSP_OK && e != NULL)
		*e = b->err;
	return b->status;
}

static void
drain(struct ssp_spanb *b, struct ssp_fifo *q, unsigned kind)
{
	struct span *s;

	while ((s = ssp_fifo_pop(q)) != NULL) {
		b->st.ctx_unused[kind]++;
		unref(b, s);
	}
}

static void
drain_map(struct ssp_spanb *b, struct ssp_map3 *m, unsigned kind)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->t[i].used) {
			if (kind < SSP_CTX_N)
				b->st.ctx_unused[kind]++;
			unref(b, m->t[i].v);
			ssp_map3_del_at(m, i);
		}
}

int
ssp_spanb_finish(struct ssp_spanb *b, struct ssp_err *e)
{
	size_t i;

	for (i = 0; i < b->ns; i++)
		ssp_spanb_stream_end(b, (unsigned)i, NULL);
	for (i = 0; i < b->t->npcie; i++) {
		drain(b, &b->pl[i].mmio, SSP_CTX_MMIO);
		drain(b, &b->pl[i].msix, SSP_CTX_MSIX);
	}
	for (i = 0; i < b->t->neth; i++) {
		drain(b, &b->el[i].tx, SSP_CTX_TX);
		drain(b, &b->el[i].rx, SSP_CTX_RX);
	}
	for (i = 0; i < b->ns; i++)
		if (b->s[i].sim->drain != NULL)
			b->s[i].sim->drain(b, (unsigned)i);
	drain_map(b, &b->dma_ctx, SSP_CTX_DMA);
	drain_map(b, &b->chain, SSP_CTX_N);
	settle(b);
	if (b->status != SSP_OK && e != NULL)
		*e = b->err;
	return b->status;
}

const struct ssp_spanb_stats *
ssp_spanb_stats(const struct ssp_spanb *b)
{
	return &b->st;
}

uint64_t ssp_spanb_live(const struct ssp_spanb *b) { return b->live; }
uint64_t ssp_spanb_peak(const struct ssp_spanb *b) { return b->peak; }

int
ssp_spanb_new(struct ssp_spanb **bp, const struct ssp_topo *t,
    const struct ssp_rules *rules, const struct ssp_spanb_opts *o,
    const struct ssp_spanb_sink *sink, struct ssp_err *e)
{
	struct ssp_spanb *b;
	const struct ssp_schema *sch = ssp_span_schema(0);
	size_t i;
	unsigned k;
	int rc;

	*bp = NULL;
	if ((b = calloc(1, sizeof(*b))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	b->t = t;
	b->rules = rules;
	b->o = *o;
	b->sink = *sink;
	b->ns = t->nstreams;
	b->ctx_limit = ssp_rules_context_limit(rules);
	b->idle = ssp_rules_packet_idle(rules);
	b->root = ssp_rules_root(rules);
	b->bg = ssp_rules_background(rules);
	b->kctx = b->st.kctx = ssp_rules_kctx(rules);
	ssp_pool_init(&b->spool, sizeof(struct span));
	ssp_pool_init(&b->evsmall, sizeof(struct evn) + EV_SMALL * sizeof(uint64_t));
	ssp_pool_init(&b->evlarge, sizeof(struct evn) + SSP_MAXF * sizeof(uint64_t));
	ssp_pool_init(&b->lpool, sizeof(struct lnk));
	for (k = 0; k < SSP_SK_NKINDS; k++)
		b->nattr[k] = sch->types[k].nf - NC;
	for (k = 0; k < SSP_EV_NTYPES; k++) {
		const struct ssp_rec_type *et = &ssp_event_schema.types[k];
		unsigned f;

		for (f = 0; f < et->nf; f++)
			if (et->f[f].enc == SSP_ENC_S)
				b->strmask[k] |= 1u << f;
		b->evsim[k] = (uint8_t)ssp_event_sim(k);
	}
	b->s = calloc(b->ns ? b->ns : 1, sizeof(*b->s));
	b->pl = calloc(t->npcie ? t->npcie : 1, sizeof(*b->pl));
	b->el = calloc(t->neth ? t->neth : 1, sizeof(*b->el));
	b->st.nstreams = b->ns;
	b->st.in = calloc(b->ns ? b->ns : 1, sizeof(uint64_t));
	b->st.used = calloc(b->ns ? b->ns : 1, sizeof(uint64_t));
	b->st.dropped = calloc(b->ns ? b->ns : 1, sizeof(uint64_t));
	if (b->s == NULL || b->pl == NULL || b->el == NULL || b->st.in == NULL ||
	    b->st.used == NULL || b->st.dropped == NULL)
		goto nomem;
	for (i = 0; i < b->ns; i++) {
		struct stream *s = &b->s[i];

		s->kind = t->streams[i].kind;
		if ((unsigned)s->kind >= SSP_SIM_N || sims[s->kind] == NULL) {
			rc = ssp_err_set(e, SSP_ERR_INVAL, 0, "stream %s: no span "
			    "builder for its kind", t->streams[i].name);
			goto fail;
		}
		s->sim = sims[s->kind];
		if ((s->x = calloc(1, s->sim->size)) == NULL)
			goto nomem;
	}
	for (i = 0; i < t->npcie; i++) {
		struct plink *l = &b->pl[i];

		l->host = t->pcie[i].host;
		l->nic = t->pcie[i].nic;
		l->bars = ssp_rules_device_bars(rules, t->streams[l->nic].name);
	}
	for (i = 0; i < t->neth; i++) {
		struct elink *l = &b->el[i];
		void *old;

		l->nic = t->eth[i].nic;
		l->net = t->eth[i].net;
		l->node = t->eth[i].node;
		l->dev = t->eth[i].dev;
		if (ssp_map3_put(&b->elmap, (uint64_t)l->node << 32 | l->dev, 0,
		    l->net, l, &old) != 0)
			goto nomem;
	}
	for (i = 0; i < b->ns; i++)
		if (b->s[i].sim->init != NULL &&
		    (rc = b->s[i].sim->init(b, (unsigned)i, e)) != SSP_OK)
			goto fail;
	*bp = b;
	return SSP_OK;
nomem:
	rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
fail:
	ssp_spanb_free(b);
	return rc;
}

void
ssp_spanb_free(struct ssp_spanb *b)
{
	size_t i;

	if (b == NULL)
		return;
	for (i = 0; b->s != NULL && i < b->ns; i++) {
		struct stream *s = &b->s[i];

		if (s->x != NULL && s->sim->free != NULL)
			s->sim->free(b, (unsigned)i);
		free(s->x);
		free(s->si);
	}
	for (i = 0; b->pl != NULL && i < b->t->npcie; i++) {
		ssp_fifo_free(&b->pl[i].mmio);
		ssp_fifo_free(&b->pl[i].msix);
	}
	for (i = 0; b->el != NULL && i < b->t->neth; i++) {
		ssp_fifo_free(&b->el[i].tx);
		ssp_fifo_free(&b->el[i].rx);
	}
	free(b->s);
	free(b->pl);
	free(b->el);
	ssp_map3_free(&b->mmio_open);
	ssp_map3_free(&b->hdma_open);
	ssp_map3_free(&b->ndma_open);
	ssp_map3_free(&b->dma_ctx);
	ssp_map3_free(&b->net_open);
	ssp_map3_free(&b->chain);
	ssp_map3_free(&b->elmap);
	ssp_pool_fini(&b->spool);
	ssp_pool_fini(&b->evsmall);
	ssp_pool_fini(&b->evlarge);
	ssp_pool_fini(&b->lpool);
	free(b->st.in);
	free(b->st.used);
	free(b->st.dropped);
	free(b);
}
