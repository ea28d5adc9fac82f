/*
 * The kernel execution context machine of SPEC §3b (formats/spans.md §4b):
 * per CPU of one host, a stack of interrupt contexts (hardirq, softirq)
 * over a task context (a syscall, possibly resumed after a wakeup, or
 * ksoftirqd), the syscalls suspended on that CPU, and the application
 * span of the CPU.  It is driven by function entries (their rules classes)
 * and kernel->user transitions per CPU, and tells its user, through
 * callbacks, which context opens, closes, resumes or gets a link; it
 * returns the context a function entry belongs to.
 *
 * It knows nothing of spans: a context is an opaque pointer the open
 * callback returns; the machine holds on to it (hold/release) while it
 * keeps it beyond the open/close pair (a waker, an irq whose softirq has
 * not run yet).  Memory is bounded: SSP_KCTX_MAXCPU CPUs, SSP_KCTX_DEPTH
 * nested interrupt contexts, SSP_KCTX_MAXSUSP suspended syscalls and
 * SSP_KCTX_MAXRAISED pending irqs per CPU; every case where the input is
 * unbalanced is counted (struct ssp_kctx_stats) and closes or opens a
 * context with a cause that names what was missing.
 */
#ifndef SSP_KCTX_H
#define SSP_KCTX_H

#include <stdint.h>

#include "base/err.h"

#define SSP_KCTX_MAXCPU    256
#define SSP_KCTX_DEPTH     16
#define SSP_KCTX_MAXSUSP   64
#define SSP_KCTX_MAXRAISED 8
#define SSP_KCTX_MAXWAKE   64	/* pending wakeups per host */
/* A softirq-entry among the first this many function entries after a
 * sched-in that switched a syscall back in means the sched-in switched in
 * ksoftirqd (finish_task_switch, smpboot_thread_fn, ..., run_ksoftirqd):
 * the syscall's resume is taken back (the retract callback). */
#define SSP_KCTX_KSOFTIRQD_FUNCS 8
/* A syscall-entry function among the first this many function entries
 * after the one that opened an interrupt context is a member of it
 * (error_entry on the entry path); later it ends the interrupt contexts of
 * the CPU (a log without their exits). */
#define SSP_KCTX_ENTRY_PATH 3

/* Context kinds. */
enum ssp_kctx_kind {
	SSP_KCTX_SYSCALL,	/* task: a syscall */
	SSP_KCTX_IRQ,		/* hardirq */
	SSP_KCTX_SOFTIRQ,	/* softirq, in an irq or as ksoftirqd */
	SSP_KCTX_RESUME,	/* a woken syscall, from sched-in to its end */
	SSP_KCTX_APP,		/* an app-root user function, per CPU */
	SSP_KCTX_NKINDS
};

/* Input classes (a bit mask; the rules classes of a function). */
enum {
	SSP_KCTX_C_SYSCALL_ENTRY = 0x001,
	SSP_KCTX_C_SYSCALL_EXIT  = 0x002,
	SSP_KCTX_C_IRQ_ENTRY     = 0x004,
	SSP_KCTX_C_IRQ_EXIT      = 0x008,
	SSP_KCTX_C_SOFTIRQ_ENTRY = 0x010,
	SSP_KCTX_C_SLEEP         = 0x020,
	SSP_KCTX_C_SCHED_IN      = 0x040,
	SSP_KCTX_C_WAKEUP        = 0x080,
	SSP_KCTX_C_IDLE          = 0x100,
	SSP_KCTX_C_APP_ROOT      = 0x200,
	SSP_KCTX_C_SYSVEC        = 0x400,	/* irq-entry of a system vector
						 * (timer, IPI): no device */
	SSP_KCTX_C_ALL           = 0x7ff	/* every class */
};

/*
 * Why a context has the parent it has, or why it was closed as it was
 * (the span's cause attribute).  SSP_KCTX_WHY_NONE: a plain parent (an
 * irq's softirq run in that irq) or a normal close.
 */
enum ssp_kctx_why {
	SSP_KCTX_WHY_NONE,
	/* parents chosen by a heuristic */
	SSP_KCTX_WHY_MSIX_FIFO,		/* irq: the oldest unserved host msix */
	SSP_KCTX_WHY_RAISED_FIFO,	/* softirq outside its irq: the oldest irq on the CPU that ran none */
	SSP_KCTX_WHY_WAKEUP_FIFO,	/* resume: the oldest pending wakeup went to the syscall asleep longest on the CPU of the sched-in */
	SSP_KCTX_WHY_APP_ROOT,		/* syscall: the app-root span of its CPU */
	SSP_KCTX_WHY_LEFTOVER,		/* ksoftirqd with no irq pending: the irq whose softirq ran last on the CPU (wakeup_softirqd: work it left) */
	/* parents missing: roots */
	SSP_KCTX_WHY_SYSVEC,		/* irq of a system vector (timer, IPI) */
	SSP_KCTX_WHY_NO_MSIX,		/* device irq with no host msix waiting */
	SSP_KCTX_WHY_NO_IRQ,		/* softirq with no irq that raised it */
	/* abnormal closes */
	SSP_KCTX_WHY_NO_IRQ_EXIT,	/* irq/softirq still open at user mode, a syscall entry, sched-in or idle */
	SSP_KCTX_WHY_NO_SYSCALL_EXIT,	/* syscall still running at the next syscall entry */
	SSP_KCTX_WHY_NO_SCHED_IN,	/* ksoftirqd still running at user mode or a syscall entry */
	SSP_KCTX_WHY_SUSPEND_LIMIT,	/* more than SSP_KCTX_MAXSUSP suspended */
	SSP_KCTX_WHY_END,		/* still open at the end of the stream */
	SSP_KCTX_WHY_N
};

/* What a callback is told about a context being opened. */
struct ssp_kctx_open {
	unsigned kind;		/* enum ssp_kctx_kind */
	unsigned cpu;
	unsigned cls;		/* the classes of the function that opened it */
	void *parent;		/* a context of this machine, or NULL */
	unsigned why;		/* enum ssp_kctx_why: of the parent */
};

struct ssp_kctx_ops {
	void *ctx;
	/* A context opens; returns its handle (NULL: not tracked, e.g. out
	 * of memory; the machine then goes on without it).  For an irq the
	 * user picks the parent itself (the host msix it serves): o->parent
	 * is NULL. */
	void *(*open)(void *ctx, const struct ssp_kctx_open *o);
	/* A context closes.  last: the current function entry is its last
	 * member (it was not given to any other context). */
	void (*close)(void *ctx, void *c, unsigned why, int last);
	/* Keep c alive beyond its close / stop keeping it. */
	void (*hold)(void *ctx, void *c);
	void (*release)(void *ctx, void *c);
	/* A resumed syscall gets a link to its resume context. */
	void (*link)(void *ctx, void *sys, void *resume);
	/* A wakeup by waker while a syscall sleeps (which one is known only
	 * at its sched-in: sys is NULL); may be NULL. */
	void (*woke)(void *ctx, void *waker, void *sys);
	/* The sched-in that switched syscall sys back in switched in
	 * ksoftirqd instead: its resume context (NULL: a preempted syscall,
	 * none) is to be forgotten with the link to it, as if never opened;
	 * may be NULL (then nothing is taken back). */
	void (*retract)(void *ctx, void *sys, void *resume);
};

struct ssp_kctx_stats {
	uint64_t opened[SSP_KCTX_NKINDS];
	uint64_t irq_exit_unmatched;	/* irq-exit with no irq or softirq open */
	uint64_t softirq_no_irq;	/* softirq with no irq to run for */
	uint64_t softirq_in_task;	/* softirq entered inside a syscall (local_bh_enable): kept in the syscall */
	uint64_t sched_in_empty;	/* sched-in with nothing to resume */
	uint64_t resumed_unwoken;	/* preempted syscalls switched back in */
	uint64_t resume_retracted;	/* sched-ins of ksoftirqd first taken for a syscall's */
	uint64_t wakeup_none;		/* wakeup with no syscall asleep */
	uint64_t wakeup_dropped;	/* pending wakeups dropped: more than sleepers */
	uint64_t exit_unmatched;	/* syscall-exit with no syscall running */
	uint64_t entry_in_syscall;	/* syscall-entry inside an interrupt: kept as a member */
	uint64_t closed_unbalanced;	/* contexts closed for a missing exit */
	uint64_t stack_overflow;	/* irq entries past SSP_KCTX_DEPTH */
	uint64_t suspend_overflow;	/* suspended past SSP_KCTX_MAXSUSP */
	uint64_t raised_overflow;	/* pending irqs past SSP_KCTX_MAXRAISED */
	uint64_t cpu_limit;		/* inputs of CPUs past SSP_KCTX_MAXCPU */
	uint64_t open_at_end;		/* contexts open at the end */
};

/* A syscall entry outside interrupts closes the running syscall of its
 * CPU (SPEC §3); once a syscall-exit has come, that close counts as
 * unbalanced (WHY_NO_SYSCALL_EXIT).  syscall_exit: the rules have a
 * syscall-exit class (informative; the machine goes by what comes). */
struct ssp_kctx_cfg {
	int syscall_exit;
};

struct ssp_kctx;

/* ops: all but woke must be set.  SSP_ERR_NOMEM. */
SSP_MUST_USE enum ssp_status ssp_kctx_new(struct ssp_kctx **kp,
    const struct ssp_kctx_cfg *cfg, const struct ssp_kctx_ops *ops,
    struct ssp_err *e);
/* A function entry of classes cls (SSP_KCTX_C_*) on cpu: applies its
 * transitions and returns the context it belongs to (NULL: none, or it
 * was handed to a closing context as its last member). */
void *ssp_kctx_func(struct ssp_kctx *k, unsigned cpu, unsigned cls);
/* The first user-mode pc on cpu after kernel ones. */
void ssp_kctx_user(struct ssp_kctx *k, unsigned cpu);
/* The innermost context on cpu (NULL: idle, a user task, unknown). */
void *ssp_kctx_top(const struct ssp_kctx *k, unsigned cpu);
/* The syscall whose task runs on cpu now, and its resume (or NULL). */
void *ssp_kctx_task(const struct ssp_kctx *k, unsigned cpu);
/* Close everything (WHY_END), release what is held. */
void ssp_kctx_end(struct ssp_kctx *k);
const struct ssp_kctx_stats *ssp_kctx_stats(const struct ssp_kctx *k);
/* "msix-fifo", ...; NULL for WHY_NONE or out of range. */
const char *ssp_kctx_why_name(unsigned why);
void ssp_kctx_free(struct ssp_kctx *k);

#endif
