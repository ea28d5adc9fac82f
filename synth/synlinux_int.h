/*
 * What the two files of simsynth --kernel linux share, and nothing else
 * includes: the CPUs, threads, sockets and scripts of a Linux host.
 *
 *   synlinux.c  running the CPUs: interrupts, MMIO timing, events, setup
 *   synlinux_path.c the kernel paths as scripts of steps (syscalls, NAPI
 *               poll, interrupts, context switches) and the actions that
 *               decide what comes next
 */
#ifndef SSP_SYNLINUX_INT_H
#define SSP_SYNLINUX_INT_H

#include <stdint.h>

#include "synth/synheap.h"
#include "synth/synlinux.h"

#define NS 1000LL
#define US 1000000LL

#define LX_CPUS 4
#define LX_NSTEP 2048
#define LX_DEPTH 6
#define LX_PEND 32
#define LX_RXQ 512
#define LX_SKQ 512
#define LX_LINKS 32
#define LX_THR (64 + 2 * LX_CPUS)
#define MSS 1448
#define LIBC_SYSRET 0x7ffff7e9d1f2ull	/* user pc after libc's syscall */
#define LIBC_TEXT 0x7ffff7e00000ull
/* --print real: an uncached access of x86 full-system gem5 crosses the
 * membus (SystemXBar: 3 + 4 cycles), the IO bridge (Bridge delay 50ns,
 * configs/common/FSConfig.py, simbricks configs/simbricks/simbricks.py)
 * and the iobus (IOXBar: 2 + 1 cycles) to the adapter; its response
 * comes back the same way (2 + 50ns + 2) to the CPU's next clock edge */
#define IO_REQ_PS  (60 * NS)
#define IO_RESP_PS (55 * NS)
#define IO_VBASE   0xffffc90000400000ull	/* where ioremap put BAR 0 */
#define RX_BUFFER_WRITE 16	/* I40E_RX_BUFFER_WRITE: RX tail every 16 */

enum lop { LO_FUNC, LO_UFUNC, LO_UPC, LO_MMIO, LO_ACT, LO_HALT, LO_LABEL };

enum lact {
	A_NONE, A_SYS_OPEN, A_SYS_CLOSE, A_RECV_CHECK, A_BLOCK, A_SWITCH,
	A_SCHED_IN, A_IRQ_OPEN, A_NAPI_PREP, A_IRQ_EXIT, A_RESCHED_USER,
	A_RESCHED_SYS, A_SIRQ_OPEN, A_POLL_END, A_DELIVER, A_WAKE, A_ACK,
	A_IDLE_CHECK, A_KSIRQ_OPEN, A_KSIRQ_END, A_IPI_RESCHED, A_TO_USER,
	A_NAPI_DONE, A_WAKE_KSIRQ, A_FOREVER, A_IRQS_OFF, A_SEND_IPI,
};

struct lstep {
	uint8_t op, act, write, posted;
	uint32_t off;
	uint64_t val, pc;
	int64_t dur;
	const struct ssp_synsym *fn;	/* LO_FUNC; LO_MMIO: the function doing it */
	void *p;
	unsigned arg;
	uint8_t cond;			/* --print real: only after a
					 * napi_complete_done that completed */
};

struct script {
	struct lstep *st;
	unsigned n, pc, cur;		/* steps, next to run, insert position */
};

enum fkind { FK_TASK, FK_IRQ, FK_SIRQ };

struct frame {
	int kind;
	struct script *sc;
	uint64_t span;			/* host.irq / host.softirq */
	uint64_t parent_irq;		/* softirq: the host.irq that raised it */
	int from_user;			/* irq: it interrupted user mode */
};

enum trole { TR_IDLE, TR_KSIRQD, TR_CLIENT, TR_SERVER };
enum tstate { TS_RUN, TS_RUNNABLE, TS_SLEEP };
/* What a task does when it is switched in again. */
enum tcont { TC_FIRST, TC_USER, TC_IRQ_USER, TC_RECV, TC_IDLE, TC_KSIRQ,
	TC_FOREVER };

struct lskb {
	uint64_t span;			/* nic.rx (the first segment) */
	unsigned bytes, segs;
	int req_end;
	enum pkt_kind kind;
};

struct lsock {
	struct lskb q[LX_SKQ];
	unsigned h, n;
	struct lthr *waiter;		/* a task blocked in recvfrom on it */
	unsigned unacked, quick;	/* TCP: segments since the last ACK */
};

struct lconn;

struct lthr {
	enum trole role;
	unsigned cpu;
	struct script sc;
	enum tstate st;
	enum tcont cont;
	int user;			/* executing user code */
	struct lconn *cn;
	struct lsock *sk;
	int started, done;
	/* the current syscall */
	int in_sys, slept, woken, recv, sys_amb, early;
	uint64_t sys_id, sys_parent, ctx, waker;
	int64_t sys_start;
	uint64_t links[LX_LINKS];
	unsigned nlinks;
	/* the application */
	unsigned want, got, req;
	int phase;
	uint64_t app;			/* host.app of the request it is in */
};

struct lconn {
	unsigned idx;
	struct host *ch, *sh;
	struct lthr *ct, *st;
	struct lsock cs, ss;
	uint16_t cport, sport;
};

struct pend {
	int dev;			/* MSI-X (else a reschedule IPI) */
	uint64_t msix;			/* host.msix span */
};

struct lcpu {
	unsigned idx;
	char name[32];
	struct ssp_syngem5 g;
	uint64_t saved_step;		/* padding while halted */
	struct frame fr[LX_DEPTH];
	unsigned depth;
	struct script isc[LX_DEPTH];	/* irq/softirq scripts by depth */
	struct lthr *cur, idle, ksirqd;
	struct lthr *rq[LX_THR];
	unsigned rqn;
	int need_resched, halted, blocked, scheduled, irqs_off;
	struct pend pend[LX_PEND];
	unsigned npend;
	int sirq_pending, napi_sched, ksirq_woken;
	uint64_t sirq_raiser;		/* host.irq that raised NET_RX */
	uint64_t ksirq_parent;
	struct lrx rx[LX_RXQ];		/* RX queue idx: descriptors done */
	unsigned rxh, rxn, txdone, restarts;
	uint32_t rx_tail;
	const struct ssp_synsym *last_fn;
	uint64_t app;			/* the last host.app begun here */
	int64_t wait_dur;		/* after the non-posted MMIO in flight */
	/* --print real */
	uint64_t io_saved;		/* padding while stalled on an access */
	int64_t io_t0, io_dur;		/* the access's Exec tick, what follows */
	uint64_t io_pc, io_ea;
	unsigned rx_unused;		/* RX buffers cleaned, not given back */
	uint32_t tx_tail;		/* the queue's TX tail */
	int napi_missed, napi_repoll;	/* NAPIF_STATE_MISSED; poll again */
};

struct lhost {
	struct host *h;
	unsigned ncpu;
	struct lcpu cpu[LX_CPUS];
	struct lthr *thr[LX_THR];
	unsigned nthr;
	int64_t last_sys;		/* last syscall entry (no ties) */
	unsigned nwoken;		/* woken tasks not yet switched in */
	struct ssp_synheap ids;		/* --print real: PciPioCompl addresses */
};

struct lworld {
	struct lhost *lh;
	struct lconn *conns;
	unsigned nconn;
};

/* The application (app.syms): offsets from SSP_SYNLINUX_APP_BASE.
 * client_request (APP_REQUEST) is the function a client thread enters
 * for each request of a request-response flow: a host.app span. */
#define APP_REQUEST 3
static const struct {
	const char *name;
	unsigned off, size;
} app_funcs[] = {
	{ "_start", 0x1100, 0x26 }, { "main", 0x1130, 0x1b4 },
	{ "client_loop", 0x12f0, 0xd2 }, { "client_request", 0x13d0, 0x9a },
	{ "server_loop", 0x1470, 0xc8 }, { "server_reply", 0x1540, 0x7b },
	{ "stream_send_loop", 0x15c0, 0x8e }, { "stream_recv_loop", 0x1650, 0x84 },
	{ "fill_buffer", 0x16e0, 0x3d }, { "check_reply", 0x1720, 0x52 },
};

static inline int64_t
tick_round(int64_t t)
{
	return (t + 124) / 125 * 125;
}

static inline struct lhost *
LH(struct host *h)
{
	return h->lx;
}

static inline void
fail(struct syn *s, const char *msg)
{
	if (!s->failed) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_LIMIT, 0, "internal: %s", msg);
	}
}



void ssp_synlinux_path_app_next(struct syn *s, struct host *h, struct lthr *th);
void ssp_synlinux_path_build_irq(struct syn *s, struct host *h, struct script *sc, int dev, int from_user);
void ssp_synlinux_path_build_poll(struct syn *s, struct host *h, struct lcpu *c, struct script *sc);
uint64_t ssp_synlinux_path_ctx_span(struct lcpu *c);
void ssp_synlinux_path_fn(struct syn *s, struct host *h, struct script *sc, const char *name);
struct lstep * ssp_synlinux_path_fnx(struct syn *s, struct host *h, struct script *sc, const char *name, int act);
void ssp_synlinux_path_halt(struct lcpu *c);
void ssp_synlinux_path_idle_loop(struct syn *s, struct lcpu *c);
void ssp_synlinux_path_interrupt(struct syn *s, struct lhost *L, struct lcpu *c, int64_t t, int dev, uint64_t msix);
void ssp_synlinux_path_kick(struct syn *s, struct lhost *L, struct lcpu *c, int64_t t);
void ssp_synlinux_path_mfill(struct lhost *L, int64_t t);
void ssp_synlinux_path_rq_push(struct lcpu *c, struct lthr *th);
int ssp_synlinux_path_run_act(struct syn *s, struct host *h, struct lcpu *c, struct lstep *st, int64_t t);
int ssp_synlinux_path_script_init(struct script *sc);
void ssp_synlinux_path_script_reset(struct script *sc);
uint64_t ssp_synlinux_path_span(struct syn *s, struct host *h, unsigned kind, int64_t t, const char *key, uint64_t parent, int amb);
void ssp_synlinux_path_sys_row(struct syn *s, struct host *h, struct lthr *th);

#endif
