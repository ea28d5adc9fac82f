/*
 * The span builder's core (spanb_int.h says which file does what): the
 * life cycle of spans, their ids and write order, links, context queues,
 * string ids, and the public API, which reaches each simulator's handlers
 * only through sims[].
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "span/spanb.h"
#include "span/spanb_int.h"

/* The handlers of each simulator kind a topology stream may have: one row
 * per simulator (spanb_int.h, "To add a simulator"). */
static const struct ssp_spanb_sim *const sims[SSP_SIM_N] = {
	[SSP_SIM_GEM5] = &ssp_spanb_host_sim,
	[SSP_SIM_NICBM] = &ssp_spanb_nic_sim,
	[SSP_SIM_NS3] = &ssp_spanb_net_sim,
	[SSP_SIM_QEMU] = &ssp_spanb_qemu_sim,
	[SSP_SIM_CORUNDUM] = &ssp_spanb_corundum_sim,
	[SSP_SIM_E1000] = &ssp_spanb_e1000_sim,
};

/* --- names ----------------------------------------------------------------- */

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
	"last-cpu", "rx-batch", "dma-chain", "tso", "tx-writeback", "ipi", "no-ipi",
	"leftover",
	"no-irq-exit", "no-syscall-exit", "no-sched-in", "suspend-limit",
};
static const char *const ctx_names[SSP_CTX_N] = {
	"mmio", "dma", "msix", "tx", "rx", "recv", "irq",
};

const char *ssp_spanb_drop_name(unsigned r) { return r < SSP_DROP_N ? drop_names[r] : NULL; }
const char *ssp_spanb_cause_name(unsigned c) { return c < SSP_CAUSE_N ? cause_names[c] : NULL; }
const char *ssp_spanb_ctx_name(unsigned c) { return c < SSP_CTX_N ? ctx_names[c] : NULL; }

/* --- errors and strings ---------------------------------------------------- */

void
ssp_spanb_fail(struct ssp_spanb *b, enum ssp_status code, const char *what)
{
	if (b->status == SSP_OK)
		b->status = ssp_err_set(&b->err, code, 0, "%s", what);
}

struct sinfo * __attribute__((noinline))
ssp_spanb_sinfo_grow(struct ssp_spanb *b, unsigned st, uint64_t id)
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

static uint64_t
intern(struct ssp_spanb *b, const char *s, size_t len)
{
	uint64_t id;

	if (b->status != SSP_OK)
		return 0;
	if ((b->status = b->sink.intern(b->sink.ctx, s, len, &id, &b->err)) !=
	    SSP_OK)
		return 0;
	SSP_ASSERT(id != 0);
	return id;
}

uint64_t
ssp_spanb_intern(struct ssp_spanb *b, const char *s, size_t len)
{
	return intern(b, s, len);
}

uint64_t __attribute__((noinline))
ssp_spanb_ostr_new(struct ssp_spanb *b, unsigned st, uint64_t id,
    struct sinfo *si)
{
	const char *t;
	size_t len;

	t = text(b, st, id, &len);
	si->out = (uint32_t)intern(b, t, len);
	si->have |= HAVE_OUT;
	return si->out;
}

static uint64_t
cause_str(struct ssp_spanb *b, unsigned c)
{
	if (b->cause_str[c] == 0)
		b->cause_str[c] = intern(b, cause_names[c], strlen(cause_names[c]));
	return b->cause_str[c];
}

/* --- span life cycle ------------------------------------------------------- */

struct span *
ssp_spanb_mk(struct ssp_spanb *b, unsigned kind, unsigned st, int64_t ts)
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

/* Copy a member event (--events only). */
void __attribute__((noinline))
ssp_spanb_keep_ev(struct ssp_spanb *b, struct span *s, const struct ssp_rec *ev)
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
	if (b->status == SSP_OK)
		b->status = b->sink.put(b->sink.ctx, r, &b->err);
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
void
ssp_spanb_gone(struct ssp_spanb *b, struct span *s, unsigned reason)
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
			/* under a left-out syscall */
			ssp_spanb_gone(b, s, SSP_DROP_NONNET);
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
void
ssp_spanb_done(struct ssp_spanb *b, struct span *s)
{
	struct span *p = s->parent;

	s->state = ST_DONE;
	if (s->kind == SSP_SK_HOST_SYSCALL && b->root == SSP_ROOT_NET_SYSCALLS &&
	    !is_net_syscall(s)) {
		ssp_spanb_gone(b, s, SSP_DROP_NONNET);
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

/* A context is queued: the queue holds a reference.  Beyond the limit the
 * oldest is dropped. */
void
ssp_spanb_send(struct ssp_spanb *b, struct ssp_fifo *q, struct span *s,
    unsigned kind)
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

/* Close a span whose last event will not come. */
void
ssp_spanb_incomplete(struct ssp_spanb *b, struct span *s)
{
	s->flags |= SSP_SPAN_INCOMPLETE;
	ssp_spanb_done(b, s);
}

/* --- the end of a stream ---------------------------------------------------- */

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

/* Stream end: the span will get no more events. */
void
ssp_spanb_close_open(struct ssp_spanb *b, struct span *s)
{
	if (s->xf & X_TENTATIVE) {
		ssp_spanb_gone(b, s, SSP_DROP_BACKGROUND);
		return;
	}
	s->flags |= SSP_SPAN_OPEN;
	ssp_spanb_done(b, s);
}

/* Close the spans of a map that belong to stream st, in creation order. */
void
ssp_spanb_close_stream(struct ssp_spanb *b, struct ssp_map3 *m, unsigned st)
{
	struct span **v;
	size_t n, i;

	v = take_stream(b, m, st, &n);
	for (i = 0; i < n; i++)
		ssp_spanb_close_open(b, v[i]);
	free(v);
}

/* Close the spans in list (k of them) in creation order. */
void
ssp_spanb_close_list(struct ssp_spanb *b, struct span **list, size_t k)
{
	size_t i;

	qsort(list, k, sizeof(list[0]), by_seq);
	for (i = 0; i < k; i++)
		ssp_spanb_close_open(b, list[i]);
}

/* The end of all input: contexts nobody took. */
void
ssp_spanb_drain(struct ssp_spanb *b, struct ssp_fifo *q, unsigned kind)
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

/* --- public ------------------------------------------------------------------ */

/* The status of the calls so far, into e too when one failed. */
static enum ssp_status
status(const struct ssp_spanb *b, struct ssp_err *e)
{
	if (b->status != SSP_OK && e != NULL)
		*e = b->err;
	return b->status;
}

enum ssp_status
ssp_spanb_event(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    struct ssp_err *e)
{
	return ssp_spanb_events(b, st, ev, 1, e);
}

enum ssp_status
ssp_spanb_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n, struct ssp_err *e)
{
	struct stream *s;

	SSP_ASSERT(b != NULL && st < b->ns);
	SSP_ASSERT(ev != NULL || n == 0);
	s = &b->s[st];
	b->st.in[st] += n;
	if (s->ended) {
		b->st.drop[SSP_DROP_FOREIGN] += n;
		b->st.dropped[st] += n;
	} else if (n > 0) {
		s->sim->events(b, st, ev, n);
	}
	return status(b, e);
}

void
ssp_spanb_skips(const struct ssp_spanb *b, unsigned st,
    uint8_t act[SSP_EV_NTYPES + 1])
{
	SSP_ASSERT(b != NULL && st < b->ns && act != NULL);
	_Static_assert(SSP_RA_KEEP == 0, "streams start with every type kept");
	memcpy(act, b->s[st].act, SSP_EV_NTYPES + 1);
}

void
ssp_spanb_skipped(struct ssp_spanb *b, unsigned st, uint32_t t, uint64_t n)
{
	struct stream *s;

	SSP_ASSERT(b != NULL && st < b->ns);
	s = &b->s[st];
	if (t >= SSP_EV_NTYPES)
		t = SSP_EV_NTYPES;
	SSP_ASSERT(n == 0 || s->act[t] >= SSP_RA_TICK);
	b->st.in[st] += n;
	b->st.drop[s->why[t]] += n;
	b->st.dropped[st] += n;
	b->st.skipped += n;
}

void
ssp_spanb_strings_reset(struct ssp_spanb *b, unsigned st)
{
	struct stream *s;

	SSP_ASSERT(b != NULL && st < b->ns);
	s = &b->s[st];
	if (s->si != NULL)
		memset(s->si, 0, s->nsi * sizeof(*s->si));
}


static void
stream_end(struct ssp_spanb *b, unsigned st)
{
	struct stream *s = &b->s[st];

	if (!s->ended) {
		s->ended = 1;
		s->sim->end(b, st);
	}
}

enum ssp_status
ssp_spanb_stream_end(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	SSP_ASSERT(b != NULL && st < b->ns);
	stream_end(b, st);
	return status(b, e);
}

enum ssp_status
ssp_spanb_finish(struct ssp_spanb *b, struct ssp_err *e)
{
	size_t i;

	SSP_ASSERT(b != NULL);
	for (i = 0; i < b->ns; i++)
		stream_end(b, (unsigned)i);
	for (i = 0; i < b->t->npcie; i++) {
		ssp_spanb_drain(b, &b->pl[i].mmio, SSP_CTX_MMIO);
		ssp_spanb_drain(b, &b->pl[i].msix, SSP_CTX_MSIX);
		ssp_spanb_drain(b, &b->pl[i].dma, SSP_CTX_DMA);
	}
	for (i = 0; i < b->nel; i++) {
		ssp_spanb_drain(b, &b->el[i].tx, SSP_CTX_TX);
		ssp_spanb_drain(b, &b->el[i].rx, SSP_CTX_RX);
	}
	for (i = 0; i < b->ns; i++)
		if (b->s[i].sim->drain != NULL)
			b->s[i].sim->drain(b, (unsigned)i);
	drain_map(b, &b->dma_ctx, SSP_CTX_DMA);
	drain_map(b, &b->chain, SSP_CTX_N);
	settle(b);
	return status(b, e);
}

const struct ssp_spanb_stats *
ssp_spanb_stats(const struct ssp_spanb *b)
{
	return &b->st;
}

uint64_t ssp_spanb_live(const struct ssp_spanb *b) { return b->live; }
uint64_t ssp_spanb_peak(const struct ssp_spanb *b) { return b->peak; }

enum ssp_status
ssp_spanb_new(struct ssp_spanb **bp, const struct ssp_topo *t,
    const struct ssp_rules *rules, const struct ssp_spanb_opts *o,
    const struct ssp_spanb_sink *sink, struct ssp_err *e)
{
	struct ssp_spanb *b;
	const struct ssp_schema *sch = ssp_span_schema(0);
	size_t i;
	unsigned k;
	enum ssp_status rc;

	SSP_ASSERT(bp != NULL && t != NULL && rules != NULL && o != NULL);
	SSP_ASSERT(sink != NULL && sink->text != NULL &&
	    sink->intern != NULL && sink->put != NULL);
	SSP_ASSERT(t->nstreams <= UINT16_MAX);	/* struct span's stream */
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
	b->nel = t->neth + 2 * t->nn2n;
	b->el = calloc(b->nel ? b->nel : 1, sizeof(*b->el));
	b->st.nstreams = b->ns;
	b->st.in = calloc(b->ns ? b->ns : 1, sizeof(uint64_t));
	b->st.used = calloc(b->ns ? b->ns : 1, sizeof(uint64_t));
	b->st.dropped = calloc(b->ns ? b->ns : 1, sizeof(uint64_t));
	b->st.eth_sent = calloc(t->neth ? t->neth : 1, sizeof(uint64_t));
	b->st.eth_seen = calloc(t->neth ? t->neth : 1, sizeof(uint64_t));
	if (b->s == NULL || b->pl == NULL || b->el == NULL || b->st.in == NULL ||
	    b->st.used == NULL || b->st.dropped == NULL ||
	    b->st.eth_sent == NULL || b->st.eth_seen == NULL)
		goto nomem;
	for (i = 0; i < b->ns; i++) {
		struct stream *s = &b->s[i];

		s->kind = t->streams[i].kind;
		/* the simulator the stream's header names, when it has
		 * handlers of its own (qemu for a host, corundum for a NIC) */
		if (o->sims != NULL && (unsigned)o->sims[i] < SSP_SIM_N &&
		    sims[o->sims[i]] != NULL)
			s->kind = o->sims[i];
		if ((unsigned)s->kind >= SSP_SIM_N || sims[s->kind] == NULL) {
			rc = ssp_err_set(e, SSP_ERR_INVAL, 0, "stream %s: no span "
			    "builder for its kind", t->streams[i].name);
			goto fail;
		}
		s->sim = sims[s->kind];
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
	for (i = 0; i < t->nn2n; i++) {		/* its two ends, each other's peer */
		struct elink *l = &b->el[t->neth + 2 * i];
		unsigned j;
		void *old;

		for (j = 0; j < 2; j++) {
			l[j].nic = UINT32_MAX;
			l[j].net = t->n2n[i].net[j];
			l[j].node = t->n2n[i].node[j];
			l[j].dev = t->n2n[i].dev[j];
			l[j].peer = &l[!j];
			if (ssp_map3_put(&b->elmap, (uint64_t)l[j].node << 32 |
			    l[j].dev, 0, l[j].net, &l[j], &old) != 0)
				goto nomem;
		}
	}
	for (i = 0; i < b->ns; i++)
		if (b->s[i].sim->init != NULL &&
		    (rc = b->s[i].sim->init(b, (unsigned)i, e)) != SSP_OK)
			goto fail;
	for (i = 0; i < b->ns; i++)	/* act[] is zero, SSP_RA_KEEP */
		if (b->s[i].sim->skips != NULL)
			b->s[i].sim->skips(b, (unsigned)i);
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

		if (s->sim != NULL && s->sim->free != NULL)
			s->sim->free(b, (unsigned)i);
		free(s->si);
	}
	for (i = 0; b->pl != NULL && i < b->t->npcie; i++) {
		ssp_fifo_free(&b->pl[i].mmio);
		ssp_fifo_free(&b->pl[i].msix);
		ssp_fifo_free(&b->pl[i].dma);
	}
	for (i = 0; b->el != NULL && i < b->nel; i++) {
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
	free(b->st.eth_sent);
	free(b->st.eth_seen);
	free(b);
}
