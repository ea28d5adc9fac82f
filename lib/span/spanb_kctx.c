/*
 * The kernel context model (SPEC §3b) on a host stream: the callbacks
 * through which lib/span/kctx makes syscall, irq, softirq, resume and app
 * spans, function entries and user-mode events handed to it, and the
 * parent of host device work (the innermost context of its CPU).  The
 * host handlers (spanb_host.c) call it when the rules turn it on.
 */
#include <stddef.h>
#include <stdint.h>

#include "span/spanb_int.h"

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

/* Kernel contexts: work is parented to the innermost context of the CPU
 * that issued it (the event's cpu field, else the last CPU that entered a
 * function: a heuristic when the host has several). */
void
ssp_spanb_kctx_parent(struct ssp_spanb *b, unsigned st, struct span *s,
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

/* --- the callbacks of span/kctx.h ------------------------------------------ */

static void *
k_open(void *ctx, const struct ssp_kctx_open *o)
{
	struct khost *kh = ctx;
	struct ssp_spanb *b = kh->b;
	struct hstate *h = host_of(b, kh->st);
	const struct ssp_rec *ev = h->kev;
	unsigned kind = kctx_kinds[o->kind];
	struct span *s = ssp_spanb_mk(b, kind, kh->st, ev->ts), *p = o->parent;

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
	ssp_spanb_done(b, s);
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

	if ((cls & (SSP_FC_SYSCALL_ENTRY | SSP_FC_SYSCALL_EXIT | SSP_FC_IRQ_ENTRY |
	    SSP_FC_IRQ_EXIT | SSP_FC_SOFTIRQ_ENTRY | SSP_FC_SLEEP | SSP_FC_SCHED_IN |
	    SSP_FC_WAKEUP | SSP_FC_IDLE | SSP_FC_APP_ROOT | FC_SYSVEC)) == 0)
		return 0;	/* most function entries: one test, not eleven */
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

/* --- what the host handlers call ------------------------------------------ */

/* A function entry with the kernel context model on. */
void
ssp_spanb_kctx_func(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
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
		ssp_spanb_host_receive(b, h, c);
}

enum ssp_status
ssp_spanb_kctx_new(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct hstate *h = host_of(b, st);
	struct ssp_kctx_cfg kc = { ssp_rules_count(b->rules,
	    SSP_FC_SYSCALL_EXIT) > 0 };
	struct ssp_kctx_ops ops = { &h->kh, k_open, k_close, k_hold,
	    k_release, k_link, k_woke };

	h->kh.b = b;
	h->kh.st = st;
	return ssp_kctx_new(&h->kctx, &kc, &ops, e);
}

/* A user-mode event: the time the contexts of its CPU close. */
void
ssp_spanb_kctx_user(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct hstate *h = host_of(b, st);
	unsigned cpu = cpu_of(b, st, ev->f[SSP_F_USER_CPU]);

	if (b->status != SSP_OK)
		return;
	h->kev = ev;
	h->kcls = 0;
	ssp_kctx_user(h->kctx, cpu);
	h->kev = NULL;
}

/* The host stream ended: its contexts close, their counts add up. */
void
ssp_spanb_kctx_end(struct ssp_spanb *b, unsigned st)
{
	struct hstate *h = host_of(b, st);
	const struct ssp_kctx_stats *ks;
	const uint64_t *from;
	uint64_t *to;
	size_t i;

	h->kev = NULL;
	ssp_kctx_end(h->kctx);
	ks = ssp_kctx_stats(h->kctx);
	from = (const uint64_t *)ks;
	to = (uint64_t *)&b->st.kst;
	for (i = 0; i < sizeof(*ks) / sizeof(uint64_t); i++)
		to[i] += from[i];
}
