/* The kernel context machine (lib/span/kctx) on hand-written input
 * sequences: a syscall with an irq inside, hardirq -> softirq -> wakeup ->
 * resume, ksoftirqd, nesting, two CPUs, preemption, app-root, and every
 * unbalanced case (irq-exit without entry, a log starting inside an
 * interrupt, sched-in with nothing suspended, stack and suspend limits,
 * CPUs past the limit, contexts open at the end).  Contexts are recorded
 * objects; holds and releases must balance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "span/kctx.h"

enum {
	SE = SSP_KCTX_C_SYSCALL_ENTRY, SX = SSP_KCTX_C_SYSCALL_EXIT,
	IE = SSP_KCTX_C_IRQ_ENTRY, IX = SSP_KCTX_C_IRQ_EXIT,
	SI = SSP_KCTX_C_SOFTIRQ_ENTRY, SL = SSP_KCTX_C_SLEEP,
	SC = SSP_KCTX_C_SCHED_IN, WK = SSP_KCTX_C_WAKEUP, ID = SSP_KCTX_C_IDLE,
	AR = SSP_KCTX_C_APP_ROOT, SV = SSP_KCTX_C_SYSVEC,
};

struct ctx {
	unsigned kind, cpu, why, close_why, n;
	struct ctx *parent, *link;
	int closed, last, holds;
};

struct rec {
	struct ctx c[512];
	unsigned n;
	int woke;
};

static void *
r_open(void *p, const struct ssp_kctx_open *o)
{
	struct rec *r = p;
	struct ctx *c;

	assert_true(r->n < 512);
	c = &r->c[r->n++];
	c->kind = o->kind;
	c->cpu = o->cpu;
	c->why = o->why;
	c->parent = o->parent;
	if (c->parent != NULL)
		assert_false(c->parent == c);
	return c;
}

static void
r_close(void *p, void *x, unsigned why, int last)
{
	struct ctx *c = x;

	(void)p;
	assert_false(c->closed);	/* closed once */
	c->closed = 1;
	c->close_why = why;
	c->last = last;
}

static void r_hold(void *p, void *x) { (void)p; ((struct ctx *)x)->holds++; }

static void
r_release(void *p, void *x)
{
	(void)p;
	assert_true(((struct ctx *)x)->holds > 0);
	((struct ctx *)x)->holds--;
}

static void
r_link(void *p, void *sys, void *res)
{
	(void)p;
	((struct ctx *)sys)->link = res;
}

static void r_woke(void *p, void *w, void *s) { (void)w; (void)s; ((struct rec *)p)->woke++; }

/* A taken-back resume is forgotten: counted as closed, its link gone. */
static void
r_retract(void *p, void *sys, void *res)
{
	(void)p;
	assert_ptr_equal(((struct ctx *)sys)->link, res);
	((struct ctx *)sys)->link = NULL;
	if (res != NULL) {
		assert_false(((struct ctx *)res)->closed);
		((struct ctx *)res)->closed = 1;
		((struct ctx *)res)->close_why = SSP_KCTX_WHY_N;
	}
}

static struct ssp_kctx *
mk(struct rec *r, int syscall_exit)
{
	struct ssp_kctx_cfg cfg = { syscall_exit };
	struct ssp_kctx_ops ops = { r, r_open, r_close, r_hold, r_release,
	    r_link, r_woke, NULL };
	struct ssp_kctx *k;
	struct ssp_err e;

	memset(r, 0, sizeof(*r));
	assert_int_equal(ssp_kctx_new(&k, &cfg, &ops, &e), SSP_OK);
	return k;
}

/* ... with the retract callback. */
static struct ssp_kctx *
mk_retract(struct rec *r)
{
	struct ssp_kctx_cfg cfg = { 1 };
	struct ssp_kctx_ops ops = { r, r_open, r_close, r_hold, r_release,
	    r_link, r_woke, r_retract };
	struct ssp_kctx *k;
	struct ssp_err e;

	memset(r, 0, sizeof(*r));
	assert_int_equal(ssp_kctx_new(&k, &cfg, &ops, &e), SSP_OK);
	return k;
}

/* End, free, and check that nothing is left open or held. */
static void
done(struct ssp_kctx *k, struct rec *r)
{
	unsigned i;

	ssp_kctx_end(k);
	for (i = 0; i < r->n; i++) {
		assert_true(r->c[i].closed);
		assert_int_equal(r->c[i].holds, 0);
	}
	ssp_kctx_free(k);
}

#define F(cpu, cls) ((struct ctx *)ssp_kctx_func(k, (cpu), (cls)))

/* A syscall; a device irq inside it runs its softirq; the syscall goes on
 * and ends at syscall-exit, which is its last member. */
static void
test_irq_inside_syscall(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	struct ctx *sys, *irq, *soft;

	(void)state;
	sys = F(0, SE);
	assert_non_null(sys);
	assert_int_equal(sys->kind, SSP_KCTX_SYSCALL);
	assert_ptr_equal(F(0, 0), sys);
	irq = F(0, IE);
	assert_int_equal(irq->kind, SSP_KCTX_IRQ);
	assert_ptr_equal(F(0, 0), irq);		/* work goes to the irq */
	assert_ptr_equal(F(0, SE), irq);	/* error_entry: a member */
	soft = F(0, SI);
	assert_int_equal(soft->kind, SSP_KCTX_SOFTIRQ);
	assert_ptr_equal(soft->parent, irq);
	assert_int_equal(soft->why, SSP_KCTX_WHY_NONE);
	assert_true(irq->closed);		/* the irq ends at softirq entry */
	assert_ptr_equal(F(0, SI), soft);	/* __do_softirq again: a member */
	assert_null(F(0, IX));			/* the last member of the softirq */
	assert_true(soft->closed && soft->last);
	assert_ptr_equal(ssp_kctx_top(k, 0), sys);
	assert_null(F(0, SX));
	assert_true(sys->closed && sys->last);
	assert_int_equal(sys->close_why, SSP_KCTX_WHY_NONE);
	assert_null(ssp_kctx_top(k, 0));
	assert_int_equal(ssp_kctx_stats(k)->entry_in_syscall, 1);
	done(k, &r);
}

/* recvfrom sleeps on CPU 1, CPU 0 idles; the irq on CPU 0 raises the
 * softirq that wakes it; CPU 1's sched-in resumes it as a child of the
 * softirq, and the syscall gets a link to the resume. */
static void
test_wakeup_resume(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	struct ctx *sys, *irq, *soft, *res;

	(void)state;
	assert_null(F(0, ID));
	sys = F(1, SE);
	F(1, 0);
	assert_ptr_equal(F(1, SL), sys);	/* still its own until switched */
	assert_null(F(1, SC));			/* switched to idle */
	assert_int_equal(ssp_kctx_stats(k)->sched_in_empty, 1);
	assert_null(F(1, ID));
	assert_null(F(1, 0));			/* idle: no context */
	irq = F(0, IE);
	soft = F(0, SI);
	assert_ptr_equal(F(0, WK), soft);	/* the waker */
	assert_int_equal(r.woke, 1);
	assert_int_equal(soft->holds, 1);
	assert_null(F(0, IX));
	assert_true(irq->closed && soft->closed);
	res = F(1, SC);
	assert_non_null(res);
	assert_int_equal(res->kind, SSP_KCTX_RESUME);
	assert_ptr_equal(res->parent, soft);
	assert_int_equal(res->why, SSP_KCTX_WHY_WAKEUP_FIFO);
	assert_int_equal(res->cpu, 1);
	assert_ptr_equal(sys->link, res);
	assert_int_equal(soft->holds, 0);
	assert_ptr_equal(F(1, 0), res);		/* work after the resume */
	assert_ptr_equal(ssp_kctx_task(k, 1), sys);
	assert_null(F(1, SX));
	assert_true(res->closed && res->last);
	assert_true(sys->closed && !sys->last);
	done(k, &r);
}

/* An irq that ran no softirq raises one that ksoftirqd runs later: the
 * ksoftirqd softirq's parent is that irq (raised-fifo); it ends at the
 * next sched-in. */
static void
test_ksoftirqd(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	struct ctx *irq, *soft, *soft2;

	(void)state;
	irq = F(0, IE);
	assert_null(F(0, IX));
	assert_int_equal(irq->holds, 1);	/* pending for its softirq */
	assert_null(F(0, SC));
	soft = F(0, SI);			/* run_ksoftirqd */
	assert_ptr_equal(soft->parent, irq);
	assert_int_equal(soft->why, SSP_KCTX_WHY_RAISED_FIFO);
	assert_int_equal(irq->holds, 0);
	assert_ptr_equal(F(0, SI), soft);	/* its __do_softirq */
	assert_ptr_equal(F(0, 0), soft);
	F(0, SC);
	assert_true(soft->closed);
	assert_int_equal(soft->close_why, SSP_KCTX_WHY_NONE);
	soft2 = F(0, SI);			/* nothing raised: a root */
	assert_null(soft2->parent);
	assert_int_equal(soft2->why, SSP_KCTX_WHY_NO_IRQ);
	assert_int_equal(ssp_kctx_stats(k)->softirq_no_irq, 1);
	done(k, &r);
}

/* A softirq run in its irq leaves work (wakeup_softirqd): the ksoftirqd
 * softirq after it, with no irq pending, is that irq's (leftover). */
static void
test_ksoftirqd_leftover(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	struct ctx *irq, *soft, *ks, *irq2, *ks2;

	(void)state;
	irq = F(0, IE);
	soft = F(0, SI);
	assert_null(F(0, IX));
	assert_true(irq->closed && soft->closed);
	assert_int_equal(irq->holds, 1);	/* the CPU's last softirq's */
	assert_null(F(0, SC));
	ks = F(0, SI);				/* run_ksoftirqd */
	assert_ptr_equal(ks->parent, irq);
	assert_int_equal(ks->why, SSP_KCTX_WHY_LEFTOVER);
	assert_int_equal(ssp_kctx_stats(k)->softirq_no_irq, 0);
	/* an irq while ksoftirqd runs: its loop takes what it raises, it is
	 * not pending for a later ksoftirqd */
	irq2 = F(0, IE);
	assert_null(F(0, IX));
	assert_int_equal(irq2->holds, 0);
	assert_ptr_equal(F(0, 0), ks);
	assert_null(F(0, SC));
	ks2 = F(0, SI);
	assert_ptr_equal(ks2->parent, irq);	/* still the leftover */
	done(k, &r);
}

/* One CPU: a softirq wakes the sleeping syscall, a later irq leaves its
 * softirq to ksoftirqd.  The next sched-in is ksoftirqd's, but with a
 * wakeup pending it is first taken for the syscall's: the softirq-entry
 * (run_ksoftirqd) right after it takes that resume back, and the syscall
 * is resumed at the sched-in after.  A softirq-entry later in a resumed
 * syscall (local_bh_enable) stays in it. */
static void
test_ksoftirqd_not_resume(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk_retract(&r);
	struct ctx *sys, *irq, *soft, *irq2, *res, *ks, *res2;
	unsigned i;

	(void)state;
	sys = F(0, SE);
	assert_ptr_equal(F(0, SL), sys);
	assert_null(F(0, SC));			/* to idle */
	irq = F(0, IE);
	soft = F(0, SI);
	assert_ptr_equal(F(0, WK), soft);	/* wakes the syscall */
	assert_null(F(0, IX));
	irq2 = F(0, IE);
	assert_null(F(0, IX));			/* its softirq: ksoftirqd's */
	res = F(0, SC);				/* finish_task_switch */
	assert_int_equal(res->kind, SSP_KCTX_RESUME);
	assert_ptr_equal(sys->link, res);
	assert_ptr_equal(F(0, 0), res);		/* smpboot_thread_fn */
	ks = F(0, SI);				/* run_ksoftirqd */
	assert_int_equal(ks->kind, SSP_KCTX_SOFTIRQ);
	assert_ptr_equal(ks->parent, irq2);
	assert_int_equal(ks->why, SSP_KCTX_WHY_RAISED_FIFO);
	assert_int_equal(res->close_why, SSP_KCTX_WHY_N);	/* taken back */
	assert_null(sys->link);
	assert_int_equal(ssp_kctx_stats(k)->resume_retracted, 1);
	assert_int_equal(ssp_kctx_stats(k)->softirq_in_task, 0);
	assert_null(ssp_kctx_task(k, 0));
	assert_ptr_equal(F(0, 0), ks);
	res2 = F(0, SC);			/* now the syscall's */
	assert_true(ks->closed);
	assert_int_equal(res2->kind, SSP_KCTX_RESUME);
	assert_ptr_equal(res2->parent, soft);	/* the same wakeup */
	assert_ptr_equal(sys->link, res2);
	assert_int_equal(soft->holds, 1);	/* until it is sure */
	for (i = 0; i < SSP_KCTX_KSOFTIRQD_FUNCS; i++)
		assert_ptr_equal(F(0, 0), res2);
	assert_int_equal(soft->holds, 1);
	/* past the window: local_bh_enable's softirq, kept in it */
	assert_ptr_equal(F(0, SI), res2);
	assert_int_equal(soft->holds, 0);
	assert_int_equal(ssp_kctx_stats(k)->softirq_in_task, 1);
	assert_int_equal(ssp_kctx_stats(k)->resume_retracted, 1);
	assert_null(F(0, SX));
	assert_true(res2->closed && sys->closed);
	assert_true(irq->closed);
	done(k, &r);
}

/* An irq inside a softirq inside an irq-free syscall; a system vector is
 * not a pending device irq. */
static void
test_nested(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	struct ctx *sys, *i1, *s1, *i2, *tv;

	(void)state;
	sys = F(0, SE);
	i1 = F(0, IE);
	s1 = F(0, SI);
	i2 = F(0, IE);
	assert_ptr_equal(F(0, 0), i2);
	assert_null(F(0, IX));			/* i2 ends, no softirq in it */
	assert_true(i2->closed);
	assert_int_equal(i2->holds, 0);		/* it interrupted a softirq */
	assert_ptr_equal(F(0, 0), s1);
	assert_null(F(0, IX));
	assert_true(s1->closed);
	tv = F(0, IE | SV);
	assert_null(F(0, IX));
	assert_int_equal(tv->holds, 0);		/* a timer raises nothing of ours */
	assert_ptr_equal(F(0, 0), sys);
	(void)i1;
	done(k, &r);
}

/* Two CPUs, a syscall asleep on each; wakeups are matched at the sched-in
 * that switches a sleeper back in, so the one asleep on the CPU of that
 * sched-in resumes, not the one asleep longest; a wakeup is kept only
 * while someone sleeps. */
static void
test_two_cpus(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	struct ctx *a, *b, *c, *soft, *rb, *ra;

	(void)state;
	a = F(0, SE);
	F(0, SL);
	F(0, SC);			/* a asleep on CPU 0 */
	b = F(1, SE);
	F(1, SL);
	F(1, SC);			/* b asleep on CPU 1, after a */
	c = F(0, SE);			/* another task's syscall on CPU 0 */
	assert_ptr_equal(F(0, 0), c);
	F(2, IE);
	soft = F(2, SI);
	F(2, WK);			/* b's packet (we cannot tell yet) */
	F(2, IX);
	assert_int_equal(soft->holds, 1);
	rb = F(1, SC);			/* CPU 1 switches b in */
	assert_int_equal(rb->kind, SSP_KCTX_RESUME);
	assert_ptr_equal(rb->parent, soft);
	assert_ptr_equal(ssp_kctx_task(k, 1), b);
	assert_ptr_equal(b->link, rb);
	assert_null(a->link);
	assert_int_equal(soft->holds, 0);
	F(0, SL);			/* c sleeps too: no wakeup pending */
	assert_null(F(0, SC));
	assert_int_equal(ssp_kctx_stats(k)->sched_in_empty, 3);
	F(1, WK);			/* b wakes someone: a or c */
	F(1, WK);
	F(1, WK);			/* a third: only two sleep */
	assert_int_equal(ssp_kctx_stats(k)->wakeup_dropped, 1);
	ra = F(0, SC);			/* CPU 0: a, asleep longer than c */
	assert_ptr_equal(ssp_kctx_task(k, 0), a);
	assert_ptr_equal(a->link, ra);
	assert_ptr_equal(ra->parent, rb);	/* the pending wakeups by b's resume */
	assert_int_equal(r.woke, 4);
	F(0, SX);
	F(1, SX);
	F(2, IE);
	F(2, WK);			/* c still sleeps */
	assert_int_equal(ssp_kctx_stats(k)->wakeup_none, 0);
	assert_int_equal(F(0, SC)->kind, SSP_KCTX_RESUME);	/* c */
	assert_ptr_equal(ssp_kctx_task(k, 0), c);
	F(0, SX);
	F(2, WK);			/* nothing asleep any more */
	assert_int_equal(ssp_kctx_stats(k)->wakeup_none, 1);
	done(k, &r);
}

/* A preempted syscall (sched-in without sleep) comes back at a later
 * sched-in without a resume span. */
static void
test_preempt(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	struct ctx *a;

	(void)state;
	a = F(0, SE);
	F(0, IE);
	F(0, IX);
	assert_null(F(0, SC));		/* a preempted, another task runs */
	assert_ptr_equal(F(0, SC), a);	/* back, no resume */
	assert_null(a->link);
	assert_int_equal(ssp_kctx_stats(k)->resumed_unwoken, 1);
	assert_null(F(0, SX));
	assert_true(a->closed);
	done(k, &r);
}

/* app-root: syscalls on its CPU are its children until it is entered
 * again; user mode ends a syscall without syscall-exit. */
static void
test_app_root(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	struct ctx *app, *s1, *app2, *s2, *s3;

	(void)state;
	app = F(0, AR);
	assert_int_equal(app->kind, SSP_KCTX_APP);
	s1 = F(0, SE);
	assert_ptr_equal(s1->parent, app);
	assert_int_equal(s1->why, SSP_KCTX_WHY_APP_ROOT);
	ssp_kctx_user(k, 0);
	assert_true(s1->closed);
	assert_int_equal(s1->close_why, SSP_KCTX_WHY_NONE);
	app2 = F(0, AR);
	assert_true(app->closed);
	s2 = F(0, SE);
	assert_ptr_equal(s2->parent, app2);
	s3 = F(1, SE);			/* another CPU: no app */
	assert_null(s3->parent);
	done(k, &r);
	assert_int_equal(app2->close_why, SSP_KCTX_WHY_END);
}

/* Unbalanced input: nothing crashes, everything is counted, contexts
 * close with the cause that names what was missing. */
static void
test_unbalanced(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	const struct ssp_kctx_stats *st = ssp_kctx_stats(k);
	struct ctx *s, *i1, *s2;
	unsigned n;

	(void)state;
	/* the log starts inside an interrupt */
	assert_null(F(0, 0));
	assert_null(F(0, IX));
	assert_int_equal(st->irq_exit_unmatched, 1);
	assert_null(F(0, SX));
	assert_int_equal(st->exit_unmatched, 1);
	/* sched-in with nothing suspended */
	assert_null(F(0, SC));
	assert_int_equal(st->sched_in_empty, 1);
	/* an irq never exited: user mode closes it */
	s = F(0, SE);
	i1 = F(0, IE);
	ssp_kctx_user(k, 0);
	assert_true(i1->closed);
	assert_int_equal(i1->close_why, SSP_KCTX_WHY_NO_IRQ_EXIT);
	assert_true(s->closed);
	/* nesting past the limit */
	s = F(0, SE);
	for (n = 0; n < SSP_KCTX_DEPTH + 5; n++)
		F(0, IE);
	assert_int_equal(st->stack_overflow, 5);
	for (n = 0; n < 5; n++)
		F(0, IX);			/* the overflow ones first */
	assert_false(r.c[r.n - 1].closed);
	F(0, SX);				/* closes the 16 still open */
	assert_true(r.c[r.n - 1].closed);
	assert_int_equal(r.c[r.n - 1].close_why, SSP_KCTX_WHY_NO_IRQ_EXIT);
	/* more suspended syscalls than the limit on one CPU */
	for (n = 0; n < SSP_KCTX_MAXSUSP + 3; n++) {
		F(0, SE);
		F(0, SL);
		F(0, SC);
	}
	assert_int_equal(st->suspend_overflow, 3);
	/* raised irqs past the limit */
	for (n = 0; n < SSP_KCTX_MAXRAISED + 2; n++) {
		F(2, IE);
		F(2, IX);
	}
	assert_int_equal(st->raised_overflow, 2);
	/* a CPU past the limit */
	assert_null(F(SSP_KCTX_MAXCPU, SE));
	assert_null(ssp_kctx_top(k, SSP_KCTX_MAXCPU + 7));
	ssp_kctx_user(k, SSP_KCTX_MAXCPU);
	assert_int_equal(st->cpu_limit, 2);
	/* exits were seen: an entry inside a running syscall closes it as
	 * unbalanced */
	s2 = F(3, SE);
	assert_true(F(3, SE) != s2);
	assert_true(s2->closed);
	assert_int_equal(s2->close_why, SSP_KCTX_WHY_NO_SYSCALL_EXIT);
	/* a CPU that vanishes: its contexts close at the end */
	F(4, SE);
	F(4, IE);
	ssp_kctx_end(k);	/* done() frees k, and st with it */
	assert_true(st->open_at_end >= 2);
	done(k, &r);
}

/* A log without irq exits (the one-CPU model's synthetic logs): a syscall
 * entry well inside an irq ends it as unbalanced; error_entry right after
 * the irq entry stays a member. */
static void
test_stale_irq(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 1);
	struct ctx *s1, *irq, *s2;
	unsigned i;

	(void)state;
	s1 = F(0, SE);
	irq = F(0, IE);
	assert_ptr_equal(F(0, SE), irq);	/* error_entry */
	for (i = 0; i < 5; i++)
		assert_ptr_equal(F(0, 0), irq);
	s2 = F(0, SE);
	assert_true(s2 != irq && s2 != s1);
	assert_int_equal(s2->kind, SSP_KCTX_SYSCALL);
	assert_true(irq->closed);
	assert_int_equal(irq->close_why, SSP_KCTX_WHY_NO_IRQ_EXIT);
	assert_true(s1->closed);
	assert_int_equal(s1->close_why, SSP_KCTX_WHY_NONE);	/* no exits seen */
	done(k, &r);
}

/* Without a syscall-exit class (SPEC §3): a syscall ends at the next
 * syscall entry of its CPU. */
static void
test_no_exit_class(void **state)
{
	struct rec r;
	struct ssp_kctx *k = mk(&r, 0);
	struct ctx *a, *b;

	(void)state;
	a = F(0, SE);
	b = F(0, SE);
	assert_true(a != b);
	assert_true(a->closed);
	assert_int_equal(a->close_why, SSP_KCTX_WHY_NONE);
	F(0, IE);
	assert_ptr_equal(F(0, 0), ssp_kctx_top(k, 0));
	assert_int_equal(ssp_kctx_why_name(SSP_KCTX_WHY_MSIX_FIFO)[0], 'm');
	assert_null(ssp_kctx_why_name(SSP_KCTX_WHY_NONE));
	assert_null(ssp_kctx_why_name(SSP_KCTX_WHY_N));
	done(k, &r);
	(void)b;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irq_inside_syscall),
		cmocka_unit_test(test_wakeup_resume),
		cmocka_unit_test(test_ksoftirqd),
		cmocka_unit_test(test_ksoftirqd_not_resume),
		cmocka_unit_test(test_ksoftirqd_leftover),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_two_cpus),
		cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_app_root),
		cmocka_unit_test(test_unbalanced),
		cmocka_unit_test(test_no_exit_class),
		cmocka_unit_test(test_stale_irq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
