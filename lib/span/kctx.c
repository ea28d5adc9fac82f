#include <stdlib.h>
#include <string.h>

#include "span/kctx.h"

/* What runs as the task of a CPU. */
enum { T_NONE, T_SYSCALL, T_KSOFTIRQD };
/* A suspended syscall. */
enum { S_SLEEPING, S_RUNNABLE };

struct susp {
	void *sys;
	uint64_t order;		/* when it went to sleep / was preempted */
	uint8_t state;
};

struct kcpu {
	void *irq[SSP_KCTX_DEPTH];	/* interrupt contexts, innermost last */
	uint8_t ikind[SSP_KCTX_DEPTH];
	uint8_t isysvec[SSP_KCTX_DEPTH];
	uint8_t iunder[SSP_KCTX_DEPTH];	/* entered over a softirq */
	uint32_t ifuncs[SSP_KCTX_DEPTH];	/* function entries in it */
	unsigned n, over;		/* depth; entries past the cap */
	void *task, *resume;
	unsigned tkind;
	int task_noirq;			/* ksoftirqd opened with no pending irq */
	/* the running syscall went into a sleep class */
	uint8_t sleeping;
	uint64_t sleep_order;
	struct susp sus[SSP_KCTX_MAXSUSP];	/* oldest first */
	unsigned nsus;
	void *raised[SSP_KCTX_MAXRAISED];	/* held irqs whose softirq did not run in them */
	unsigned nraised;
	void *lastirq;		/* the irq whose softirq ran last in it (held) */
	void *app;
	/* The syscall the last sched-in switched in, while it may still turn
	 * out to be ksoftirqd (rfuncs function entries since, up to
	 * SSP_KCTX_KSOFTIRQD_FUNCS): as it was suspended, and the wakeup
	 * that resumed it (held; NULL for a preempted one). */
	struct susp rin;
	void *rwaker;
	uint32_t rfuncs;
	uint8_t rpend;
};

struct ssp_kctx {
	struct ssp_kctx_cfg cfg;
	struct ssp_kctx_ops ops;
	struct kcpu *cpu[SSP_KCTX_MAXCPU];
	unsigned ncpu;			/* highest cpu seen + 1 */
	int seen_exit;			/* a syscall-exit came */
	uint64_t order;
	/* Wakeups not yet matched to a sleeping syscall, oldest first (held):
	 * the sched-in that switches a sleeping syscall back in tells which
	 * CPU it sleeps on, the wakeup does not. */
	void *wk[SSP_KCTX_MAXWAKE];
	unsigned nwk;
	struct ssp_kctx_stats st;
};

static const char *const why_names[SSP_KCTX_WHY_N] = {
	NULL, "msix-fifo", "raised-fifo", "wakeup-fifo", "app-root", "leftover",
	"system-vector", "no-msix", "no-irq", "no-irq-exit", "no-syscall-exit",
	"no-sched-in", "suspend-limit", "end",
};

const char *
ssp_kctx_why_name(unsigned why)
{
	return why < SSP_KCTX_WHY_N ? why_names[why] : NULL;
}

enum ssp_status
ssp_kctx_new(struct ssp_kctx **kp, const struct ssp_kctx_cfg *cfg,
    const struct ssp_kctx_ops *ops, struct ssp_err *e)
{
	struct ssp_kctx *k;

	SSP_ASSERT(kp != NULL && cfg != NULL && ops != NULL);
	SSP_ASSERT(ops->open != NULL && ops->close != NULL &&
	    ops->hold != NULL && ops->release != NULL && ops->link != NULL);
	*kp = NULL;
	k = calloc(1, sizeof(*k));
	if (k == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	k->cfg = *cfg;
	k->ops = *ops;
	*kp = k;
	return SSP_OK;
}

void
ssp_kctx_free(struct ssp_kctx *k)
{
	unsigned i;

	if (k == NULL)
		return;
	for (i = 0; i < k->ncpu; i++)
		free(k->cpu[i]);
	free(k);
}

const struct ssp_kctx_stats *
ssp_kctx_stats(const struct ssp_kctx *k)
{
	SSP_ASSERT(k != NULL);
	return &k->st;
}

static struct kcpu *
getcpu(struct ssp_kctx *k, unsigned cpu)
{
	if (cpu >= SSP_KCTX_MAXCPU) {
		k->st.cpu_limit++;
		return NULL;
	}
	if (k->cpu[cpu] == NULL) {
		if ((k->cpu[cpu] = calloc(1, sizeof(struct kcpu))) == NULL)
			return NULL;	/* not tracked: as if past the limit */
		if (cpu >= k->ncpu)
			k->ncpu = cpu + 1;
	}
	return k->cpu[cpu];
}

static void *
top(const struct kcpu *c)
{
	if (c->n > 0)
		return c->irq[c->n - 1];
	if (c->resume != NULL)
		return c->resume;
	return c->task;
}

void *
ssp_kctx_top(const struct ssp_kctx *k, unsigned cpu)
{
	SSP_ASSERT(k != NULL);
	return cpu < SSP_KCTX_MAXCPU && k->cpu[cpu] != NULL ?
	    top(k->cpu[cpu]) : NULL;
}

void *
ssp_kctx_task(const struct ssp_kctx *k, unsigned cpu)
{
	const struct kcpu *c;

	SSP_ASSERT(k != NULL);
	c = cpu < SSP_KCTX_MAXCPU ? k->cpu[cpu] : NULL;
	return c != NULL && c->tkind == T_SYSCALL ? c->task : NULL;
}

static void *
kopen(struct ssp_kctx *k, unsigned kind, unsigned cpu, unsigned cls,
    void *parent, unsigned why)
{
	struct ssp_kctx_open o = { kind, cpu, cls, parent, why };

	k->st.opened[kind]++;
	return k->ops.open(k->ops.ctx, &o);
}

static void
kclose(struct ssp_kctx *k, void *c, unsigned why, int last)
{
	if (c == NULL)
		return;
	if (why == SSP_KCTX_WHY_END)
		k->st.open_at_end++;
	else if (why != SSP_KCTX_WHY_NONE && why != SSP_KCTX_WHY_SUSPEND_LIMIT)
		k->st.closed_unbalanced++;
	k->ops.close(k->ops.ctx, c, why, last);
}

static void
hold(struct ssp_kctx *k, void *c)
{
	if (c != NULL)
		k->ops.hold(k->ops.ctx, c);
}

static void
release(struct ssp_kctx *k, void *c)
{
	if (c != NULL)
		k->ops.release(k->ops.ctx, c);
}

/* Close every interrupt context of a CPU, innermost first. */
static void
close_irqs(struct ssp_kctx *k, struct kcpu *c, unsigned why)
{
	while (c->n > 0) {
		c->n--;
		kclose(k, c->irq[c->n], why, 0);
	}
	c->over = 0;
}

static void
clear_sleep(struct kcpu *c)
{
	c->sleeping = 0;
}

/* The switched-in syscall is the task for good (or gone). */
static void
confirm_in(struct ssp_kctx *k, struct kcpu *c)
{
	if (!c->rpend)
		return;
	release(k, c->rwaker);
	c->rwaker = NULL;
	c->rpend = 0;
}

/* The task of a CPU ends (its resume first). */
static void
task_close(struct ssp_kctx *k, struct kcpu *c, unsigned why, int last)
{
	confirm_in(k, c);
	if (c->resume != NULL) {
		kclose(k, c->resume, why, last);
		c->resume = NULL;
		last = 0;
	}
	kclose(k, c->task, why, last);
	c->task = NULL;
	c->tkind = T_NONE;
	clear_sleep(c);
}

/* The running task is switched out: a syscall is suspended, ksoftirqd
 * ends. */
static void
suspend_running(struct ssp_kctx *k, struct kcpu *c)
{
	struct susp *s;

	if (c->tkind == T_KSOFTIRQD) {
		task_close(k, c, SSP_KCTX_WHY_NONE, 0);
		return;
	}
	if (c->tkind != T_SYSCALL)
		return;
	confirm_in(k, c);
	if (c->resume != NULL) {	/* it sleeps again: that resume is over */
		kclose(k, c->resume, SSP_KCTX_WHY_NONE, 0);
		c->resume = NULL;
	}
	if (c->nsus == SSP_KCTX_MAXSUSP) {
		k->st.suspend_overflow++;
		kclose(k, c->sus[0].sys, SSP_KCTX_WHY_SUSPEND_LIMIT, 0);
		memmove(&c->sus[0], &c->sus[1], (c->nsus - 1) * sizeof(c->sus[0]));
		c->nsus--;
	}
	s = &c->sus[c->nsus++];
	s->sys = c->task;
	if (c->sleeping) {
		s->state = S_SLEEPING;
		s->order = c->sleep_order;
	} else {
		s->state = S_RUNNABLE;	/* preempted */
		s->order = ++k->order;
	}
	c->sleeping = 0;
	c->task = NULL;
	c->tkind = T_NONE;
}

/* Which suspended syscall a sched-in switches in: with a wakeup pending,
 * the one asleep longest on this CPU; else the one preempted first; else
 * none (-1). */
static int
pick(const struct ssp_kctx *k, const struct kcpu *c)
{
	unsigned i, st;
	int best = -1;

	for (st = k->nwk > 0 ? S_SLEEPING : S_RUNNABLE; st <= S_RUNNABLE; st++) {
		for (i = 0; i < c->nsus; i++)
			if (c->sus[i].state == st &&
			    (best < 0 || c->sus[i].order < c->sus[best].order))
				best = (int)i;
		if (best >= 0)
			return best;
	}
	return -1;
}

static void
sched_in(struct ssp_kctx *k, struct kcpu *c, unsigned cpu, unsigned cls)
{
	struct susp in;
	int i;

	close_irqs(k, c, SSP_KCTX_WHY_NO_IRQ_EXIT);
	i = pick(k, c);
	if (i >= 0) {
		in = c->sus[i];
		memmove(&c->sus[i], &c->sus[i + 1],
		    (c->nsus - (unsigned)i - 1) * sizeof(c->sus[0]));
		c->nsus--;
	}
	suspend_running(k, c);
	if (i < 0) {
		k->st.sched_in_empty++;
		return;
	}
	c->task = in.sys;
	c->tkind = T_SYSCALL;
	c->rin = in;
	c->rpend = k->ops.retract != NULL;
	c->rfuncs = 0;
	if (in.state == S_SLEEPING) {	/* woken by the oldest pending wakeup */
		void *w = k->wk[0];

		memmove(&k->wk[0], &k->wk[1], (k->nwk - 1) * sizeof(k->wk[0]));
		k->nwk--;
		c->resume = kopen(k, SSP_KCTX_RESUME, cpu, cls, w,
		    SSP_KCTX_WHY_WAKEUP_FIFO);
		if (c->rpend)
			c->rwaker = w;	/* the hold moves over */
		else
			release(k, w);
		if (c->resume != NULL && k->ops.link != NULL)
			k->ops.link(k->ops.ctx, in.sys, c->resume);
	} else {
		k->st.resumed_unwoken++;
	}
}

/* A softirq-entry right after a sched-in that switched a syscall in: it
 * was ksoftirqd.  The syscall is suspended again as it was, its wakeup
 * pending again (the oldest), its resume forgotten. */
static void
retract_in(struct ssp_kctx *k, struct kcpu *c)
{
	unsigned i;

	/* a wakeup the resume made in the meantime goes with it */
	for (i = 0; c->resume != NULL && i < k->nwk; )
		if (k->wk[i] == c->resume) {
			release(k, k->wk[i]);
			memmove(&k->wk[i], &k->wk[i + 1],
			    (k->nwk - i - 1) * sizeof(k->wk[0]));
			k->nwk--;
		} else {
			i++;
		}
	k->ops.retract(k->ops.ctx, c->task, c->resume);
	k->st.resume_retracted++;
	if (c->rin.state == S_RUNNABLE)
		k->st.resumed_unwoken--;
	c->resume = NULL;
	if (c->nsus < SSP_KCTX_MAXSUSP)
		c->sus[c->nsus++] = c->rin;
	else	/* suspend_running made no room: cannot happen, closed */
		kclose(k, c->rin.sys, SSP_KCTX_WHY_SUSPEND_LIMIT, 0);
	if (c->rwaker != NULL) {
		if (k->nwk == SSP_KCTX_MAXWAKE) {
			k->st.wakeup_dropped++;
			release(k, k->wk[--k->nwk]);
		}
		memmove(&k->wk[1], &k->wk[0], k->nwk * sizeof(k->wk[0]));
		k->wk[0] = c->rwaker;	/* the hold moves back */
		k->nwk++;
	}
	c->rwaker = NULL;
	c->rpend = 0;
	c->task = NULL;
	c->tkind = T_NONE;
	clear_sleep(c);
}

/* A wakeup: the waker is the innermost context of the CPU.  Which
 * sleeping syscall it wakes is decided at the sched-in that switches one
 * back in; here it is only kept (at most one per sleeping syscall). */
static void
wakeup(struct ssp_kctx *k, struct kcpu *wc)
{
	void *waker = top(wc), *self = wc->n == 0 ? wc->task : NULL;
	unsigned i, j, sleepers = 0;

	if (waker == NULL) {
		k->st.wakeup_none++;
		return;
	}
	for (i = 0; i < k->ncpu; i++) {
		struct kcpu *c = k->cpu[i];

		if (c == NULL)
			continue;
		if (c->tkind == T_SYSCALL && c->sleeping && c->task != self)
			sleepers++;
		for (j = 0; j < c->nsus; j++)
			sleepers += c->sus[j].state == S_SLEEPING;
	}
	if (sleepers == 0) {
		k->st.wakeup_none++;
		return;
	}
	if (k->nwk >= sleepers || k->nwk == SSP_KCTX_MAXWAKE) {
		k->st.wakeup_dropped++;	/* more wakeups than sleepers */
		release(k, k->wk[0]);
		memmove(&k->wk[0], &k->wk[1], (k->nwk - 1) * sizeof(k->wk[0]));
		k->nwk--;
	}
	hold(k, waker);
	k->wk[k->nwk++] = waker;
	if (k->ops.woke != NULL)
		k->ops.woke(k->ops.ctx, waker, NULL);
}

static void
irq_entry(struct ssp_kctx *k, struct kcpu *c, unsigned cpu, unsigned cls)
{
	void *x;

	if (c->n == SSP_KCTX_DEPTH) {
		c->over++;
		k->st.stack_overflow++;
		return;
	}
	x = kopen(k, SSP_KCTX_IRQ, cpu, cls, NULL, SSP_KCTX_WHY_NONE);
	if (x == NULL)
		return;
	/* over a softirq (in an irq, or ksoftirqd's): that one's loop runs
	 * what this irq raises */
	c->iunder[c->n] = c->n > 0 ? c->ikind[c->n - 1] == SSP_KCTX_SOFTIRQ :
	    c->tkind == T_KSOFTIRQD;
	c->ikind[c->n] = SSP_KCTX_IRQ;
	c->isysvec[c->n] = (cls & SSP_KCTX_C_SYSVEC) != 0;
	c->ifuncs[c->n] = 0;
	c->irq[c->n++] = x;
}

static int
irq_exit(struct ssp_kctx *k, struct kcpu *c)
{
	void *x;

	if (c->over > 0) {
		c->over--;
		return 0;
	}
	if (c->n == 0) {
		k->st.irq_exit_unmatched++;
		/* A "ksoftirqd" softirq opened with no task: the log started
		 * inside the irq that ran it, and this is that irq's exit. */
		if (c->tkind == T_KSOFTIRQD && c->task_noirq) {
			kclose(k, c->task, SSP_KCTX_WHY_NONE, 1);
			c->task = NULL;
			c->tkind = T_NONE;
			return 1;
		}
		return 0;
	}
	x = c->irq[--c->n];
	/* A device irq that ran no softirq and did not interrupt one: the
	 * softirq it raised runs later (ksoftirqd). */
	if (c->ikind[c->n] == SSP_KCTX_IRQ && !c->isysvec[c->n] &&
	    !c->iunder[c->n]) {
		if (c->nraised == SSP_KCTX_MAXRAISED) {
			k->st.raised_overflow++;
			release(k, c->raised[0]);
			memmove(&c->raised[0], &c->raised[1],
			    (c->nraised - 1) * sizeof(c->raised[0]));
			c->nraised--;
		}
		hold(k, x);
		c->raised[c->nraised++] = x;
	}
	kclose(k, x, SSP_KCTX_WHY_NONE, 1);
	return 1;
}

static void
softirq_entry(struct ssp_kctx *k, struct kcpu *c, unsigned cpu, unsigned cls)
{
	void *x, *p;
	unsigned why;

	if (c->n > 0) {
		if (c->ikind[c->n - 1] == SSP_KCTX_SOFTIRQ)
			return;		/* __do_softirq of a softirq going on */
		p = c->irq[c->n - 1];
		x = kopen(k, SSP_KCTX_SOFTIRQ, cpu, cls, p, SSP_KCTX_WHY_NONE);
		if (x == NULL)
			return;
		c->ikind[c->n - 1] = SSP_KCTX_SOFTIRQ;
		c->ifuncs[c->n - 1] = 0;
		c->irq[c->n - 1] = x;
		hold(k, p);
		release(k, c->lastirq);
		c->lastirq = p;
		kclose(k, p, SSP_KCTX_WHY_NONE, 0);	/* the irq ends here */
		return;
	}
	if (c->tkind == T_KSOFTIRQD)
		return;
	if (c->tkind == T_SYSCALL && c->rpend)	/* ksoftirqd, not it */
		retract_in(k, c);
	if (c->tkind == T_SYSCALL) {	/* local_bh_enable in the syscall */
		k->st.softirq_in_task++;
		return;
	}
	p = NULL;
	why = SSP_KCTX_WHY_NO_IRQ;
	if (c->nraised > 0) {
		p = c->raised[0];
		memmove(&c->raised[0], &c->raised[1],
		    (c->nraised - 1) * sizeof(c->raised[0]));
		c->nraised--;
		why = SSP_KCTX_WHY_RAISED_FIFO;
	} else if (c->lastirq != NULL) {
		/* no irq left one to run: the last softirq's work goes on
		 * (__do_softirq's wakeup_softirqd) */
		p = c->lastirq;
		hold(k, p);
		why = SSP_KCTX_WHY_LEFTOVER;
	} else {
		k->st.softirq_no_irq++;
	}
	x = kopen(k, SSP_KCTX_SOFTIRQ, cpu, cls, p, why);
	release(k, p);
	if (x != NULL) {
		c->task = x;
		c->tkind = T_KSOFTIRQD;
		c->task_noirq = p == NULL;
	}
}

static void
syscall_entry(struct ssp_kctx *k, struct kcpu *c, unsigned cpu, unsigned cls)
{
	/* error_entry on the interrupt entry path (right after the irq
	 * entry) is a member.  Later in an interrupt context a syscall entry
	 * means the log has no exits for it (a one-CPU-model log): the
	 * interrupt contexts were over. */
	if (c->n > 0 && c->ifuncs[c->n - 1] <= SSP_KCTX_ENTRY_PATH) {
		k->st.entry_in_syscall++;
		return;
	}
	close_irqs(k, c, SSP_KCTX_WHY_NO_IRQ_EXIT);
	/* A syscall still running: its exit is missing, or the log has no
	 * syscall-exit function at all (SPEC §3: a syscall lasts up to the
	 * next entry; only unbalanced once exits were seen). */
	if (c->tkind == T_SYSCALL)
		task_close(k, c, k->seen_exit ?
		    SSP_KCTX_WHY_NO_SYSCALL_EXIT : SSP_KCTX_WHY_NONE, 0);
	else if (c->tkind == T_KSOFTIRQD)
		task_close(k, c, SSP_KCTX_WHY_NO_SCHED_IN, 0);
	c->task = kopen(k, SSP_KCTX_SYSCALL, cpu, cls, c->app,
	    c->app != NULL ? SSP_KCTX_WHY_APP_ROOT : SSP_KCTX_WHY_NONE);
	c->tkind = c->task != NULL ? T_SYSCALL : T_NONE;
}

/* Leaving the kernel for user mode, or a new task in user mode. */
static void
to_user(struct ssp_kctx *k, struct kcpu *c)
{
	close_irqs(k, c, SSP_KCTX_WHY_NO_IRQ_EXIT);
	if (c->tkind == T_KSOFTIRQD)
		task_close(k, c, SSP_KCTX_WHY_NO_SCHED_IN, 0);
	else if (c->tkind == T_SYSCALL)
		task_close(k, c, SSP_KCTX_WHY_NONE, 0);
}

void *
ssp_kctx_func(struct ssp_kctx *k, unsigned cpu, unsigned cls)
{
	struct kcpu *c;
	int used = 0;

	/* a cpu past SSP_KCTX_MAXCPU is data (counted), unknown classes not */
	SSP_ASSERT(k != NULL && (cls & ~(unsigned)SSP_KCTX_C_ALL) == 0);
	c = getcpu(k, cpu);
	if (c == NULL)
		return NULL;
	if (c->n > 0 && c->ifuncs[c->n - 1] < UINT32_MAX)
		c->ifuncs[c->n - 1]++;
	if (c->rpend && ++c->rfuncs > SSP_KCTX_KSOFTIRQD_FUNCS)
		confirm_in(k, c);
	if (cls == 0)		/* most function entries */
		return top(c);
	if (cls & SSP_KCTX_C_SYSCALL_EXIT) {
		k->seen_exit = 1;
		if (c->tkind == T_SYSCALL) {
			close_irqs(k, c, SSP_KCTX_WHY_NO_IRQ_EXIT);
			task_close(k, c, SSP_KCTX_WHY_NONE, 1);
			used = 1;
		} else {
			k->st.exit_unmatched++;
		}
	}
	if ((cls & SSP_KCTX_C_IRQ_EXIT) && irq_exit(k, c))
		used = 1;
	if (cls & SSP_KCTX_C_SCHED_IN)
		sched_in(k, c, cpu, cls);
	if (cls & SSP_KCTX_C_IDLE) {
		close_irqs(k, c, SSP_KCTX_WHY_NO_IRQ_EXIT);
		suspend_running(k, c);
	}
	if (cls & SSP_KCTX_C_IRQ_ENTRY)
		irq_entry(k, c, cpu, cls);
	if (cls & SSP_KCTX_C_SOFTIRQ_ENTRY)
		softirq_entry(k, c, cpu, cls);
	if (cls & SSP_KCTX_C_SYSCALL_ENTRY)
		syscall_entry(k, c, cpu, cls);
	if ((cls & SSP_KCTX_C_SLEEP) && c->n == 0 && c->tkind == T_SYSCALL &&
	    !c->sleeping) {
		c->sleeping = 1;
		c->sleep_order = ++k->order;
	}
	if (cls & SSP_KCTX_C_WAKEUP)
		wakeup(k, c);
	if (cls & SSP_KCTX_C_APP_ROOT) {
		kclose(k, c->app, SSP_KCTX_WHY_NONE, 0);
		c->app = kopen(k, SSP_KCTX_APP, cpu, cls, NULL, SSP_KCTX_WHY_NONE);
		return c->app;
	}
	if (used && !(cls & (SSP_KCTX_C_SCHED_IN | SSP_KCTX_C_IRQ_ENTRY |
	    SSP_KCTX_C_SOFTIRQ_ENTRY | SSP_KCTX_C_SYSCALL_ENTRY)))
		return NULL;
	return top(c);
}

void
ssp_kctx_user(struct ssp_kctx *k, unsigned cpu)
{
	struct kcpu *c;

	SSP_ASSERT(k != NULL);
	c = getcpu(k, cpu);
	if (c != NULL)
		to_user(k, c);
}

void
ssp_kctx_end(struct ssp_kctx *k)
{
	unsigned i, j;

	SSP_ASSERT(k != NULL);
	for (i = 0; i < k->ncpu; i++) {
		struct kcpu *c = k->cpu[i];

		if (c == NULL)
			continue;
		close_irqs(k, c, SSP_KCTX_WHY_END);
		confirm_in(k, c);
		task_close(k, c, SSP_KCTX_WHY_END, 0);
		for (j = 0; j < c->nsus; j++)
			kclose(k, c->sus[j].sys, SSP_KCTX_WHY_END, 0);
		c->nsus = 0;
		for (j = 0; j < c->nraised; j++)
			release(k, c->raised[j]);
		c->nraised = 0;
		release(k, c->lastirq);
		c->lastirq = NULL;
		kclose(k, c->app, SSP_KCTX_WHY_END, 0);
		c->app = NULL;
	}
	for (i = 0; i < k->nwk; i++)
		release(k, k->wk[i]);
	k->nwk = 0;
}
