/*
 * simsynth --kernel linux: gem5 hosts running Linux 5.15 on 1-4 CPUs.
 *
 * Every CPU executes a stack of contexts: the current task (an
 * application thread, ksoftirqd or the idle task) at the bottom, a
 * softirq and hardirqs above it.  Each context is a script of steps
 * (function entries, user-mode instructions, MMIO accesses and actions
 * that decide what comes next); the CPU runs the top script one step at
 * a time.  An interrupt (MSI-X from the NIC, a reschedule IPI) is taken at
 * the next step boundary of whatever runs, unless a hardirq runs or the
 * CPU waits for a non-posted MMIO; a halted idle CPU wakes up.  The
 * function sequences follow the Linux 5.15 x86-64 paths (entry_64.S,
 * kernel/entry/common.c, kernel/softirq.c, kernel/sched/, net/core/dev.c,
 * net/ipv4/, drivers/net/ethernet/intel/i40e), with static inline
 * functions left out as a real trace shows them: i40e_clean_rx_irq,
 * i40e_clean_tx_irq and i40e_update_enable_itr are inlined into
 * i40e_napi_poll (the real i40e.ko has no symbol for them),
 * __irq_exit_rcu and invoke_softirq into irq_exit_rcu.
 *
 * The truth of every span comes from this bookkeeping: which MSI-X an
 * interrupt serves, which hardirq raised the NET_RX softirq, which
 * context ran try_to_wake_up for a blocked receiver, which context issued
 * an MMIO.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

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

const char ssp_synlinux_rules[] =
    "# --kernel linux: the kernel-context classes of SPEC 3b (Linux 5.15)\r\n"
    "syscall-exit,syscall_exit_to_user_mode\r\n"
    "irq-entry,asm_common_interrupt\r\n"
    "irq-entry,asm_sysvec_apic_timer_interrupt\r\n"
    "irq-entry,asm_sysvec_call_function_single\r\n"
    "irq-entry,asm_sysvec_reschedule_ipi\r\n"
    "irq-exit,irqentry_exit\r\n"
    "softirq-entry,__do_softirq\r\n"
    "softirq-entry,run_ksoftirqd\r\n"
    "sleep,schedule_timeout\r\n"
    "sleep,__skb_wait_for_more_packets\r\n"
    "sleep,sk_wait_data\r\n"
    "sleep,do_nanosleep\r\n"
    "sleep,wait_woken\r\n"
    "sched-in,finish_task_switch\r\n"
    "sched-in,finish_task_switch.isra.0\r\n"
    "wakeup,try_to_wake_up\r\n"
    "idle,do_idle\r\n"
    "app-root,client_request\r\n";

const char ssp_synlinux_rules_real[] =
    "# --print real: the truth of a reschedule IPI is its sender (SPEC 3c)\r\n"
    "ipi-entry,asm_sysvec_reschedule_ipi\r\n"
    "ipi-send,native_smp_send_reschedule\r\n";

static int64_t
tick_round(int64_t t)
{
	return (t + 124) / 125 * 125;
}

static struct lhost *
LH(struct host *h)
{
	return h->lx;
}

static void
fail(struct syn *s, const char *msg)
{
	if (!s->failed) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_LIMIT, 0, "internal: %s", msg);
	}
}

/* --- scripts ------------------------------------------------------------- */

static int
script_init(struct script *sc)
{
	sc->st = calloc(LX_NSTEP, sizeof(*sc->st));
	sc->n = sc->pc = sc->cur = 0;
	return sc->st == NULL ? -1 : 0;
}

static void
script_reset(struct script *sc)
{
	sc->n = sc->pc = sc->cur = 0;
}

static struct lstep *
put(struct syn *s, struct script *sc)
{
	static struct lstep dummy;
	struct lstep *st;

	if (sc->n >= LX_NSTEP) {
		fail(s, "host script longer than its buffer");
		memset(&dummy, 0, sizeof(dummy));
		return &dummy;
	}
	if (sc->cur < sc->n)
		memmove(&sc->st[sc->cur + 1], &sc->st[sc->cur],
		    (sc->n - sc->cur) * sizeof(*st));
	sc->n++;
	st = &sc->st[sc->cur++];
	memset(st, 0, sizeof(*st));
	return st;
}

static struct lstep *
fnx(struct syn *s, struct host *h, struct script *sc, const char *name, int act)
{
	struct lstep *st = put(s, sc);

	st->op = LO_FUNC;
	st->fn = ssp_synmodel_fn(s, name);
	st->act = (uint8_t)act;
	st->dur = tick_round(20 * NS + ssp_synrng_exp(&h->rng, 60 * NS));
	return st;
}

static void
fn(struct syn *s, struct host *h, struct script *sc, const char *name)
{
	fnx(s, h, sc, name, A_NONE);
}

/* Now and then a helper the kernel calls everywhere, or a function of
 * the rules' blacklist. */
static void
noise(struct syn *s, struct host *h, struct script *sc)
{
	static const char *helpers[] = { "_raw_spin_lock", "__rcu_read_lock",
	    "__rcu_read_unlock", "ktime_get", "kfree", "memcpy",
	    "_raw_spin_lock_irqsave", "_raw_spin_unlock_irqrestore" };
	size_t nn = ssp_synsym_nnoise(s->syms);

	if (!ssp_synrng_chance(&h->rng, 0.2))
		return;
	if (nn > 0 && ssp_synrng_chance(&h->rng, 0.2)) {
		fn(s, h, sc, ssp_synsym_noise(s->syms, ssp_synrng_below(&h->rng,
		    nn))->name);
		return;
	}
	fn(s, h, sc, helpers[ssp_synrng_below(&h->rng, sizeof(helpers) /
	    sizeof(helpers[0]))]);
}

static void
fns(struct syn *s, struct host *h, struct script *sc, const char *const *names)
{
	for (; *names != NULL; names++) {
		fn(s, h, sc, *names);
		noise(s, h, sc);
	}
}

static void
act(struct syn *s, struct script *sc, int a, void *p, unsigned arg)
{
	struct lstep *st = put(s, sc);

	st->op = LO_ACT;
	st->act = (uint8_t)a;
	st->p = p;
	st->arg = arg;
}

static struct lstep *
mmio_step(struct syn *s, struct host *h, struct script *sc, const char *in,
    uint32_t off, uint64_t val, struct pkt *pk)
{
	struct lstep *st = put(s, sc);

	st->op = LO_MMIO;
	st->fn = ssp_synmodel_fn(s, in);
	st->write = 1;
	st->off = off;
	st->val = val;
	st->p = pk;
	st->posted = !ssp_synrng_chance(&h->rng, s->p->nonposted);
	if (s->p->gem5_dialect & (SSP_SYN_G5_NOPOSTED | SSP_SYN_G5_NOBAR))
		st->posted = 0;
	st->dur = tick_round(20 * NS + (int64_t)ssp_synrng_below(&h->rng, 40 * NS));
	return st;
}

static void
ufn(struct syn *s, struct host *h, struct script *sc, unsigned i)
{
	struct lstep *st = put(s, sc);

	st->op = LO_UFUNC;
	st->pc = SSP_SYNLINUX_APP_BASE + app_funcs[i].off;
	st->arg = i;
	st->dur = tick_round(30 * NS + ssp_synrng_exp(&h->rng, 80 * NS));
}

static int
app_start(uint64_t pc)
{
	size_t i;

	for (i = 0; i < sizeof(app_funcs) / sizeof(app_funcs[0]); i++)
		if (pc == SSP_SYNLINUX_APP_BASE + app_funcs[i].off)
			return 1;
	return 0;
}

/* dur of user-mode execution (split so interrupts find boundaries). */
static void
user(struct syn *s, struct host *h, struct script *sc, int64_t dur)
{
	do {
		struct lstep *st = put(s, sc);
		int64_t d = dur > 3 * US ? 2 * US + (int64_t)ssp_synrng_below(
		    &h->rng, US) : dur;

		st->op = LO_UPC;
		st->pc = ssp_synrng_chance(&h->rng, 0.5) ? LIBC_TEXT +
		    ssp_synrng_below(&h->rng, 0x90000) :
		    SSP_SYNLINUX_APP_BASE + 0x1100 + ssp_synrng_below(&h->rng, 0x600);
		/* not at a function's first byte: that is a function entry
		 * to sim2ev (a spurious client_request, a host.app span) */
		if (app_start(st->pc))
			st->pc++;
		st->dur = tick_round(d < 50 * NS ? 50 * NS : d);
		dur -= d;
	} while (dur > 0);
}

/* --- the gem5 log of a host with several CPUs ---------------------------- */

/* Pad every CPU up to (not including) t, lines merged in tick order
 * (CPU index order within a tick). */
static void
mfill(struct lhost *L, int64_t t)
{
	for (;;) {
		unsigned i, best = 0, second = LX_CPUS;
		int64_t bt = INT64_MAX, st2 = INT64_MAX, lim;

		for (i = 0; i < L->ncpu; i++) {
			int64_t n = ssp_syngem5_next_fill(&L->cpu[i].g);

			if (n < bt) {
				st2 = bt;
				second = best;
				bt = n;
				best = i;
			} else if (n < st2) {
				st2 = n;
				second = i;
			}
		}
		if (bt >= t)
			return;
		lim = st2 == INT64_MAX ? t : second > best ? st2 + 1 : st2;
		if (lim > t)
			lim = t;
		if (lim <= bt)
			lim = bt + 1;
		ssp_syngem5_fill(&L->cpu[best].g, lim);
	}
}

static void
halt(struct lcpu *c)
{
	c->halted = 1;
	c->saved_step = c->g.step_fp;
	c->g.step_fp = 0;
}

static void
unhalt(struct lcpu *c, int64_t t)
{
	c->halted = 0;
	c->g.step_fp = c->saved_step;
	if (c->g.next_fp < (uint64_t)t << 8)
		c->g.next_fp = (uint64_t)t << 8;
}

/* --- spans ----------------------------------------------------------------- */

static uint64_t
span(struct syn *s, struct host *h, unsigned kind, int64_t t, const char *key,
    uint64_t parent, int amb)
{
	uint64_t id = ssp_syntruth_reserve(s->truth);

	ssp_syntruth_row(s->truth, id, h->stream, s->stream_names[h->stream],
	    kind, t, key, parent, NULL, 0, 0, amb);
	return id;
}

static void
sys_row(struct syn *s, struct host *h, struct lthr *th)
{
	ssp_syntruth_row(s->truth, th->sys_id, h->stream,
	    s->stream_names[h->stream], SSP_SK_HOST_SYSCALL, th->sys_start, "",
	    th->sys_parent, th->links, th->nlinks, 0, th->sys_amb);
	th->in_sys = 0;
}

/* --- packets --------------------------------------------------------------- */

static int
tcp(const struct syn *s)
{
	return s->p->flow != SSP_SYN_FLOW_UDP_RR;
}

/* The frames of one send: TSO cuts TCP payloads into MSS segments. */
static struct pkt *
mkpkts(struct syn *s, struct lconn *cn, int to_server, enum pkt_kind kind,
    unsigned bytes, int req_end)
{
	struct host *src = to_server ? cn->ch : cn->sh;
	struct host *dst = to_server ? cn->sh : cn->ch;
	struct pkt *first = NULL, **tail = &first;
	unsigned left = bytes;

	do {
		struct pkt *pk = ssp_synmodel_pkt_new(s, kind);
		unsigned seg = tcp(s) ? (left > MSS ? MSS : left) : left;

		if (pk == NULL)
			break;
		pk->interesting = 1;
		pk->req = req_end >= 0 ? (unsigned)req_end : 0;
		pk->req_end = left == seg ? req_end : -1;
		pk->conn = cn->idx;
		pk->src_host = (int)src->idx;
		pk->dst_host = (int)dst->idx;
		pk->sip = src->ip;
		pk->dip = dst->ip;
		pk->sport = to_server ? cn->cport : cn->sport;
		pk->dport = to_server ? cn->sport : cn->cport;
		pk->proto = tcp(s) ? 6 : 17;
		pk->payload = seg;
		pk->ipid = src->ipid++;
		pk->iplen = (tcp(s) ? 40 : 28) + seg;
		pk->frame = 14 + pk->iplen;
		pk->smac = src->nic->mac;
		pk->dmac = dst->nic->mac;
		*tail = pk;
		tail = &pk->next;
		left -= seg;
	} while (left > 0);
	return first;
}

/* --- scheduling ------------------------------------------------------------ */

static void
kick(struct syn *s, struct lhost *L, struct lcpu *c, int64_t t)
{
	if (c->scheduled || c->blocked || c->halted)
		return;
	c->scheduled = 1;
	ssp_synmodel_schedule(s, t, EV_LX_STEP, L->h->idx, c->idx, NULL);
}

static void
rq_push(struct lcpu *c, struct lthr *th)
{
	unsigned i;

	for (i = 0; i < c->rqn; i++)
		if (c->rq[i] == th)
			return;
	if (c->rqn < LX_THR)
		c->rq[c->rqn++] = th;
}

static struct lthr *
rq_pop(struct lcpu *c)
{
	struct lthr *th;

	if (c->rqn == 0)
		return NULL;
	th = c->rq[0];
	memmove(&c->rq[0], &c->rq[1], (c->rqn - 1) * sizeof(c->rq[0]));
	c->rqn--;
	return th;
}

/* An interrupt for CPU c (an idle CPU wakes up). */
static void
interrupt(struct syn *s, struct lhost *L, struct lcpu *c, int64_t t, int dev,
    uint64_t msix)
{
	if (c->npend == LX_PEND) {
		fail(s, "too many interrupts pending on one CPU");
		return;
	}
	c->pend[c->npend++] = (struct pend){ dev, msix };
	if (c->halted) {
		unhalt(c, t);
		kick(s, L, c, tick_round(t + 40 * NS));
	}
}

/* --- building the paths ---------------------------------------------------- */

static void sys_exit(struct syn *s, struct host *h, struct lthr *th);

static void
sys_enter(struct syn *s, struct host *h, struct lthr *th, const char *sysfn)
{
	struct lstep *st = fnx(s, h, &th->sc, "entry_SYSCALL_64", A_SYS_OPEN);

	st->dur = 4 * 125;	/* on through entry_SYSCALL_64_safe_stack */
	st = put(s, &th->sc);
	st->op = LO_LABEL;
	st->dur = tick_round(2 * 125 + ssp_synrng_exp(&h->rng, 30 * NS));
	fn(s, h, &th->sc, "do_syscall_64");
	fn(s, h, &th->sc, "syscall_enter_from_user_mode");
	fn(s, h, &th->sc, sysfn);
}

/* The common tail of a send: IP output to the driver's doorbell. */
static void
xmit_tail(struct syn *s, struct host *h, struct script *sc, unsigned q,
    struct pkt *pk, int tso)
{
	static const char *const ipout[] = { "ip_local_out", "__ip_local_out",
	    "ip_output", "ip_finish_output", "__ip_finish_output",
	    "ip_finish_output2", "dev_queue_xmit", "__dev_queue_xmit",
	    "netdev_core_pick_tx", "sch_direct_xmit", "dev_hard_start_xmit",
	    "i40e_lan_xmit_frame", NULL };
	fns(s, h, sc, ipout);
	if (tso)
		fn(s, h, sc, "skb_cow_head.constprop.0");
	fn(s, h, sc, "dma_map_page_attrs");
	if (s->real) {	/* the tail is taken when the doorbell runs */
		mmio_step(s, h, sc, "i40e_lan_xmit_frame", I40E_QTX_TAIL0 + 4 * q,
		    0, pk);
	} else {
		h->tx_tail = (h->tx_tail + 1) % 512;
		mmio_step(s, h, sc, "i40e_lan_xmit_frame", I40E_QTX_TAIL0 + 4 * q,
		    h->tx_tail, pk);
	}
	fn(s, h, sc, "i40e_maybe_stop_tx");
}

static void
build_send(struct syn *s, struct host *h, struct lthr *th, unsigned bytes,
    int req_end)
{
	static const char *const udp[] = { "__sys_sendto", "sockfd_lookup_light",
	    "sock_sendmsg", "security_socket_sendmsg", "inet_sendmsg",
	    "udp_sendmsg", "ip_route_output_flow", "ip_make_skb",
	    "__ip_append_data", "sock_alloc_send_pskb", "__alloc_skb",
	    "_copy_from_user", "udp_send_skb", "ip_send_skb", NULL };
	static const char *const tcps[] = { "__sys_sendto", "sockfd_lookup_light",
	    "sock_sendmsg", "security_socket_sendmsg", "inet_sendmsg",
	    "tcp_sendmsg", "lock_sock_nested", "tcp_sendmsg_locked",
	    "sk_stream_alloc_skb", "__alloc_skb",
	    "_copy_from_iter", "tcp_push", "__tcp_push_pending_frames",
	    "tcp_write_xmit", "__tcp_transmit_skb", "tcp_v4_send_check",
	    "ip_queue_xmit", "__ip_queue_xmit", NULL };
	int to_server = th->role == TR_CLIENT;
	struct pkt *pk = mkpkts(s, th->cn, to_server, to_server ? PK_REQ :
	    PK_RESP, bytes, req_end);

	if (pk == NULL)
		return;
	sys_enter(s, h, th, "__x64_sys_sendto");
	fns(s, h, &th->sc, tcp(s) ? tcps : udp);
	xmit_tail(s, h, &th->sc, th->cpu, pk, pk->next != NULL);
	if (tcp(s)) {
		fn(s, h, &th->sc, "release_sock");
		fn(s, h, &th->sc, "tcp_release_cb");
	}
	sys_exit(s, h, th);
}

static void
build_recv(struct syn *s, struct host *h, struct lthr *th)
{
	static const char *const udp[] = { "__sys_recvfrom",
	    "sockfd_lookup_light", "sock_recvmsg", "security_socket_recvmsg",
	    "inet_recvmsg", "udp_recvmsg", "__skb_recv_udp",
	    "__skb_try_recv_from_queue", NULL };
	static const char *const tcps[] = { "__sys_recvfrom",
	    "sockfd_lookup_light", "sock_recvmsg", "security_socket_recvmsg",
	    "inet_recvmsg", "tcp_recvmsg", "lock_sock_nested",
	    "tcp_recvmsg_locked", NULL };

	sys_enter(s, h, th, "__x64_sys_recvfrom");
	fns(s, h, &th->sc, tcp(s) ? tcps : udp);
	th->recv = 1;
	act(s, &th->sc, A_RECV_CHECK, th, 0);
}

/* syscall_exit_to_user_mode and the way back to user mode. */
static void
sys_exit(struct syn *s, struct host *h, struct lthr *th)
{
	fnx(s, h, &th->sc, "syscall_exit_to_user_mode", A_SYS_CLOSE);
	fn(s, h, &th->sc, "exit_to_user_mode_prepare");
	act(s, &th->sc, A_RESCHED_SYS, th, 0);
	fn(s, h, &th->sc, "syscall_return_via_sysret");
	act(s, &th->sc, A_TO_USER, th, 0);
	user(s, h, &th->sc, 100 * NS);
}

/* The scheduler path before a context switch (prev gives the CPU up). */
static void
sched_path(struct syn *s, struct host *h, struct script *sc, const char *first)
{
	if (first != NULL)
		fn(s, h, sc, first);
	/* __schedule takes the run queue lock with interrupts off until
	 * finish_task_switch */
	fnx(s, h, sc, "__schedule", A_IRQS_OFF);
	fn(s, h, sc, "pick_next_task_fair");
	fn(s, h, sc, "__switch_to_asm");
	fn(s, h, sc, "__switch_to");
}

/* --- the applications -------------------------------------------------------- */

static void
think(struct syn *s, struct host *h, struct lthr *th)
{
	int64_t iv = s->p->interval;

	user(s, h, &th->sc, iv * 3 / 4 + (int64_t)ssp_synrng_below(&h->rng,
	    (uint64_t)iv / 2 + 1));
}

/* The thread's next segment, when its script has run out. */
static void
app_next(struct syn *s, struct host *h, struct lthr *th)
{
	int stream = s->p->flow == SSP_SYN_FLOW_TCP_STREAM;

	script_reset(&th->sc);
	if (!th->started) {
		th->started = 1;
		user(s, h, &th->sc, 200 * NS);
		ufn(s, h, &th->sc, 1);			/* main */
		user(s, h, &th->sc, 300 * NS);
		ufn(s, h, &th->sc, th->role == TR_CLIENT ? (stream ? 6 : 2) :
		    (stream ? 7 : 4));
		th->phase = th->role == TR_CLIENT ? 0 : 1;
		return;
	}
	if (th->done) {	/* sleeps for good: the syscall stays open */
		sys_enter(s, h, th, "__x64_sys_clock_nanosleep");
		fn(s, h, &th->sc, "hrtimer_nanosleep");
		fnx(s, h, &th->sc, "do_nanosleep", A_NONE);
		act(s, &th->sc, A_FOREVER, th, 0);
		sched_path(s, h, &th->sc, "schedule");
		act(s, &th->sc, A_SWITCH, NULL, 0);
		return;
	}
	if (th->role == TR_CLIENT) {
		if (th->phase == 0) {		/* a new request */
			if (s->reqs_sent >= s->nreqs) {
				th->done = 1;
				user(s, h, &th->sc, 500 * NS);
				return;
			}
			th->req = s->reqs_sent++;
			s->reqs[th->req] = (struct req){ h->idx, th->cn->sh->idx,
			    s->now, 0 };
			ufn(s, h, &th->sc, stream ? 8 : APP_REQUEST);
			user(s, h, &th->sc, 200 * NS);
			build_send(s, h, th, s->p->req_size, (int)th->req);
			if (stream) {
				th->phase = 2;
			} else {
				th->phase = 1;
				th->want = s->p->resp_size;
				th->got = 0;
			}
			return;
		}
		if (th->phase == 1) {		/* (more of) the response */
			if (th->got >= th->want) {
				ssp_synmodel_request_done(s, th->req, s->now);
				th->app = 0;	/* client_request returns */
				ufn(s, h, &th->sc, 9);
				th->phase = 0;
				think(s, h, th);
				return;
			}
			build_recv(s, h, th);
			return;
		}
		think(s, h, th);		/* stream: the next write */
		th->phase = 0;
		return;
	}
	/* server */
	if (th->phase == 1) {
		th->want = stream ? 1 : s->p->req_size;
		th->got = 0;
		th->phase = 2;
	}
	if (th->phase == 2) {
		if (th->got >= th->want && !stream) {
			user(s, h, &th->sc, 300 * NS);
			ufn(s, h, &th->sc, 5);		/* server_reply */
			build_send(s, h, th, s->p->resp_size, (int)th->req);
			th->phase = 1;
			return;
		}
		if (stream && th->got > 0) {
			user(s, h, &th->sc, 200 * NS);
			th->phase = 1;
			return;
		}
		build_recv(s, h, th);
	}
}

/* The idle task: do_idle's loop. */
static void
idle_loop(struct syn *s, struct lcpu *c)
{
	act(s, &c->idle.sc, A_IDLE_CHECK, NULL, 0);
}

/* What a task runs right after it is switched in. */
static void
cont_build(struct syn *s, struct host *h, struct lcpu *c, struct lthr *th,
    int switched)
{
	struct script *sc = &th->sc;

	th->user = 0;
	if (th->cont == TC_USER || th->cont == TC_IRQ_USER) {
		/* preempted on the way to user mode: the rest of its script
		 * (the return, its user code) runs after the switch */
		sc->cur = sc->pc;
		if (switched)
			fnx(s, h, sc, "finish_task_switch.isra.0", A_SCHED_IN);
		if (th->cont == TC_IRQ_USER) {
			fn(s, h, sc, "swapgs_restore_regs_and_return_to_usermode");
			act(s, sc, A_TO_USER, th, 0);
		}
		th->cont = TC_FIRST;
		return;
	}
	script_reset(sc);
	if (switched)
		fnx(s, h, sc, "finish_task_switch.isra.0", A_SCHED_IN);
	switch (th->cont) {
	case TC_FIRST:
		fn(s, h, sc, "swapgs_restore_regs_and_return_to_usermode");
		act(s, sc, A_TO_USER, th, 0);
		user(s, h, sc, 200 * NS);
		break;
	case TC_USER:
	case TC_IRQ_USER:
		break;
	case TC_RECV:
		if (tcp(s)) {
			fn(s, h, sc, "lock_sock_nested");
			fn(s, h, sc, "remove_wait_queue");
		} else {
			fn(s, h, sc, "finish_wait");
			fn(s, h, sc, "__skb_try_recv_from_queue");
		}
		act(s, sc, A_RECV_CHECK, th, 0);
		break;
	case TC_IDLE:
		fn(s, h, sc, "do_idle");
		idle_loop(s, c);
		break;
	case TC_KSIRQ:
		fn(s, h, sc, "smpboot_thread_fn");
		fnx(s, h, sc, "run_ksoftirqd", A_KSIRQ_OPEN);
		break;
	case TC_FOREVER:
		break;
	}
	th->cont = TC_FIRST;
}

/* --print real: i40e_clean_rx_irq gives the cleaned buffers back (a new
 * RX tail in i40e_alloc_rx_buffers) when at least 16 wait, at the top of
 * each pass of its loop. */
static void
rx_refill(struct syn *s, struct host *h, struct lcpu *c, struct script *sc)
{
	if (c->rx_unused < RX_BUFFER_WRITE)
		return;
	fn(s, h, sc, "i40e_alloc_rx_buffers");
	c->rx_tail = (c->rx_tail + c->rx_unused) % 512;
	c->rx_unused = 0;
	mmio_step(s, h, sc, "i40e_alloc_rx_buffers", I40E_QRX_TAIL0 + 4 * c->idx,
	    c->rx_tail, NULL);
}

/* The NAPI poll of CPU c's queue: TX completions, up to the budget of
 * received frames through GRO, the RX tail, then either
 * napi_complete_done (deliveries, i40e_update_enable_itr's register
 * write) or, with the budget used up, the deliveries and a repoll. */
static void
build_poll(struct syn *s, struct host *h, struct lcpu *c, struct script *sc)
{
	static const char *const gro_ip[] = { "inet_gro_receive", NULL };
	unsigned budget = s->p->napi_budget, k, i, n;
	struct lskb *list;

	fn(s, h, sc, "net_rx_action");
	fn(s, h, sc, "__napi_poll");
	fn(s, h, sc, "i40e_napi_poll");
	for (i = 0; i < c->txdone && i < 4; i++)
		fn(s, h, sc, "napi_consume_skb");
	c->txdone = 0;
	k = c->rxn < budget ? c->rxn : budget;
	list = calloc(k + 1, sizeof(*list));
	if (list == NULL) {
		fail(s, "out of memory");
		return;
	}
	for (i = 0, n = 0; i < k; i++) {
		struct lrx *r = &c->rx[(c->rxh + i) % LX_RXQ];
		/* GRO merges TCP segments of one flow until one with PSH (the
		 * last of a send) */
		int merge = n > 0 && r->proto == 6 && r->bytes > 0 &&
		    (r->kind == PK_REQ || r->kind == PK_RESP) &&
		    list[n - 1].kind == r->kind && list[n - 1].req_end < 0 &&
		    c->rx[(c->rxh + i - 1) % LX_RXQ].conn == r->conn;

		if (s->real)
			rx_refill(s, h, c, sc);
		fn(s, h, sc, "__napi_alloc_skb");
		fn(s, h, sc, "i40e_process_skb_fields");
		fn(s, h, sc, "eth_type_trans");
		fn(s, h, sc, "napi_gro_receive");
		fn(s, h, sc, "dev_gro_receive");
		if (r->kind != PK_BG_ARP) {
			fns(s, h, sc, gro_ip);
			fn(s, h, sc, r->proto == 6 ? "tcp4_gro_receive" :
			    "udp4_gro_receive");
			if (r->proto == 6)
				fn(s, h, sc, "tcp_gro_receive");
		}
		if (merge) {		/* GRO: one skb for the segments */
			list[n - 1].bytes += r->bytes;
			list[n - 1].segs++;
			list[n - 1].req_end = r->req_end;
		} else {
			list[n++] = (struct lskb){ r->span, r->bytes, r->segs,
			    r->req_end, r->kind };
		}
		c->rx_unused++;
	}
	if (s->real) {
		if (k < budget)		/* the pass that finds no frame */
			rx_refill(s, h, c, sc);
	} else if (k > 0) {
		fn(s, h, sc, "i40e_alloc_rx_buffers");
		c->rx_tail = (c->rx_tail + k) % 512;
		mmio_step(s, h, sc, "i40e_release_rx_desc", I40E_QRX_TAIL0 +
		    4 * c->idx, c->rx_tail, NULL);
	}
	if (k == budget && c->rxn > k) {
		fn(s, h, sc, "netif_receive_skb_list_internal");
	} else {
		fnx(s, h, sc, "napi_complete_done", A_NAPI_DONE);
		if (n > 0) {
			if (list[0].kind == PK_REQ || list[0].kind == PK_RESP ||
			    list[0].kind == PK_TCP_ACK)
				fn(s, h, sc, "napi_gro_flush");
			fn(s, h, sc, "netif_receive_skb_list_internal");
		}
	}
	if (n > 0) {
		fn(s, h, sc, "__netif_receive_skb_list_core");
		fn(s, h, sc, "ip_list_rcv");
		fn(s, h, sc, "ip_sublist_rcv");
	}
	/* the deliveries, one action per skb (it knows the socket) */
	for (i = 0; i < k; i++) {
		struct lrx *r = &c->rx[(c->rxh + i) % LX_RXQ];
		unsigned j;

		/* the skb this frame went into: the first of its GRO group */
		for (j = 0; j < n; j++)
			if (list[j].span == r->span)
				break;
		if (j == n)
			continue;	/* merged into the previous skb */
		{
			struct lrx *cp = malloc(sizeof(*cp));

			if (cp == NULL) {
				fail(s, "out of memory");
				break;
			}
			*cp = *r;
			cp->bytes = list[j].bytes;
			cp->segs = list[j].segs;
			cp->req_end = list[j].req_end;
			act(s, sc, A_DELIVER, cp, 0);
		}
	}
	c->rxh = (c->rxh + k) % LX_RXQ;
	c->rxn -= k;
	free(list);
	if (!(k == budget && c->rxn > 0)) {
		/* i40e_update_enable_itr, only when napi_complete_done
		 * completed (no interrupt came meanwhile) */
		fnx(s, h, sc, "i40e_update_itr", A_NONE)->cond = s->real;
		fnx(s, h, sc, "i40e_update_itr", A_NONE)->cond = s->real;
		mmio_step(s, h, sc, "i40e_napi_poll", I40E_PFINT_DYN_CTLN +
		    4 * c->idx, 0x1b, NULL)->cond = s->real;
	}
	act(s, sc, A_POLL_END, NULL, k == budget && c->rxn > 0);
}

/* A hardirq: MSI-X (device) or a reschedule IPI. */
static void
build_irq(struct syn *s, struct host *h, struct script *sc, int dev,
    int from_user)
{
	static const char *const devp[] = { "common_interrupt",
	    "irqentry_enter", "irq_enter_rcu", "__common_interrupt",
	    "handle_edge_irq", "irq_chip_ack_parent", "apic_ack_edge",
	    "handle_irq_event", "__handle_irq_event_percpu",
	    "i40e_msix_clean_rings", NULL };

	script_reset(sc);
	fnx(s, h, sc, dev ? "asm_common_interrupt" : "asm_sysvec_reschedule_ipi",
	    A_IRQ_OPEN);
	fn(s, h, sc, "error_entry");
	if (from_user)
		fn(s, h, sc, "sync_regs");
	if (dev) {
		fns(s, h, sc, devp);
		fnx(s, h, sc, "napi_schedule_prep", A_NAPI_PREP);
		fn(s, h, sc, "add_interrupt_randomness");
		fn(s, h, sc, "irq_exit_rcu");
		act(s, sc, A_IRQ_EXIT, NULL, 0);
	} else {
		fn(s, h, sc, "sysvec_reschedule_ipi");
		fnx(s, h, sc, "irqentry_enter", A_IPI_RESCHED);
	}
	fn(s, h, sc, "irqentry_exit");
	if (from_user) {
		fn(s, h, sc, "irqentry_exit_to_user_mode");
		fn(s, h, sc, "exit_to_user_mode_prepare");
		act(s, sc, A_RESCHED_USER, NULL, 0);
	}
	fn(s, h, sc, "error_return");
	if (from_user) {
		fn(s, h, sc, "swapgs_restore_regs_and_return_to_usermode");
		act(s, sc, A_TO_USER, NULL, 0);
	}
}

/* --- context switches -------------------------------------------------- */

/* Switch CPU c from its current task to the next runnable one (the
 * current script has run schedule ... __switch_to). */
static void
do_switch(struct syn *s, struct host *h, struct lcpu *c)
{
	struct lthr *prev = c->cur, *next = rq_pop(c);

	c->need_resched = 0;
	c->irqs_off = 0;
	if (next == NULL)
		next = &c->idle;
	if (prev->st == TS_RUN && prev != &c->idle)
		prev->st = TS_RUNNABLE;
	if (next == prev) {		/* nothing else to run */
		if (prev->st != TS_SLEEP) {
			prev->st = TS_RUN;
			c->depth = 1;
			cont_build(s, h, c, prev, 0);
			c->fr[0] = (struct frame){ FK_TASK, &prev->sc, 0, 0, 0 };
		}
		return;
	}
	if (prev->st == TS_RUNNABLE && prev != &c->idle)
		rq_push(c, prev);
	c->cur = next;
	next->st = TS_RUN;
	c->depth = 1;
	c->fr[0] = (struct frame){ FK_TASK, &next->sc, 0, 0, 0 };
	cont_build(s, h, c, next, 1);
}

/* --- actions ------------------------------------------------------------ */

static uint64_t
ctx_span(struct lcpu *c)
{
	struct frame *f = &c->fr[c->depth - 1];

	if (f->kind != FK_TASK)
		return f->span;
	return c->cur->ctx;
}

static void
wake(struct syn *s, struct host *h, struct lcpu *c, struct script *sc,
    struct lthr *th, int64_t t)
{
	struct lhost *L = LH(h);
	struct lcpu *tc = &L->cpu[th->cpu];

	fn(s, h, sc, "select_task_rq_fair");
	th->waker = ctx_span(c);
	th->woken = 1;
	if (tc->cur == th) {	/* still on its CPU, not switched out yet */
		th->st = TS_RUN;
		th->early = 1;
		return;
	}
	th->st = TS_RUNNABLE;
	L->nwoken++;
	rq_push(tc, th);
	fn(s, h, sc, "enqueue_task_fair");
	fn(s, h, sc, "check_preempt_curr");
	fn(s, h, sc, "check_preempt_wakeup");
	fn(s, h, sc, "resched_curr");
	if (tc == c) {
		c->need_resched = 1;
	} else {
		fn(s, h, sc, "native_smp_send_reschedule");
		if (s->real)	/* sent when native_smp_send_reschedule runs */
			act(s, sc, A_SEND_IPI, NULL, tc->idx);
		else
			ssp_synmodel_schedule(s, tick_round(t + 300 * NS),
			    EV_LX_IPI, h->idx, tc->idx, NULL);
	}
}

/* TCP: __tcp_ack_snd_check decides; the ACK leaves from softirq. */
static void
ack_path(struct syn *s, struct host *h, struct lcpu *c, struct script *sc,
    struct lconn *cn, int server_side)
{
	static const char *const ack[] = { "tcp_send_ack", "__tcp_send_ack",
	    "__alloc_skb", "__tcp_transmit_skb", "tcp_v4_send_check",
	    "ip_queue_xmit", "__ip_queue_xmit", NULL };
	struct pkt *pk = mkpkts(s, cn, !server_side, PK_TCP_ACK, 0, -1);

	if (pk == NULL)
		return;
	pk->iplen = 40;
	pk->frame = 54;
	pk->payload = 0;
	fns(s, h, sc, ack);
	xmit_tail(s, h, sc, c->idx, pk, 0);
}

static void
deliver(struct syn *s, struct host *h, struct lcpu *c, struct script *sc,
    struct lrx *r, int64_t t)
{
	static const char *const ipl[] = { "ip_rcv_core",
	    "ip_rcv_finish_core.constprop.0", "ip_sublist_rcv_finish",
	    "ip_local_deliver", "ip_local_deliver_finish",
	    "ip_protocol_deliver_rcu", NULL };
	static const char *const udp[] = { "udp_rcv", "__udp4_lib_rcv",
	    "__udp4_lib_lookup", "udp_unicast_rcv_skb", "udp_queue_rcv_skb",
	    "udp_queue_rcv_one_skb", "__udp_enqueue_schedule_skb", NULL };
	static const char *const tcpl[] = { "tcp_v4_rcv", "tcp_v4_do_rcv",
	    "tcp_rcv_established", NULL };
	struct lworld *W = s->lw;
	struct lconn *cn;
	struct lsock *sk;
	struct lthr *th;
	int data = r->kind == PK_REQ || r->kind == PK_RESP;

	if (r->kind == PK_BG_ARP) {
		fn(s, h, sc, "arp_rcv");
		fn(s, h, sc, "arp_process");
		fn(s, h, sc, "consume_skb");
		return;
	}
	fns(s, h, sc, ipl);
	if (r->kind == PK_BG_UDP || r->kind == PK_BG_TCP || r->kind == PK_BG_ACK ||
	    r->conn >= W->nconn) {	/* no socket: port unreachable */
		fn(s, h, sc, "udp_rcv");
		fn(s, h, sc, "__udp4_lib_rcv");
		fn(s, h, sc, "__udp4_lib_lookup");
		fn(s, h, sc, "__icmp_send");
		fn(s, h, sc, "icmp_global_allow");
		fn(s, h, sc, "kfree_skb");
		return;
	}
	cn = &W->conns[r->conn];
	sk = r->to_server ? &cn->ss : &cn->cs;
	if (r->proto == 17) {
		fns(s, h, sc, udp);
	} else {
		fns(s, h, sc, tcpl);
		if (!data) {		/* a pure ACK */
			fn(s, h, sc, "tcp_ack");
			fn(s, h, sc, "__kfree_skb");
			return;
		}
		fn(s, h, sc, "tcp_data_queue");
		fn(s, h, sc, "tcp_data_ready");
	}
	if (sk->n < LX_SKQ) {
		sk->q[(sk->h + sk->n) % LX_SKQ] = (struct lskb){ r->span,
		    r->bytes, r->segs, r->req_end, r->kind };
		sk->n++;
	}
	fn(s, h, sc, "sock_def_readable");
	if ((th = sk->waiter) != NULL) {
		sk->waiter = NULL;
		fn(s, h, sc, "__wake_up_sync_key");
		fn(s, h, sc, "__wake_up_common_lock");
		fn(s, h, sc, "__wake_up_common");
		if (r->proto == 17) {
			fn(s, h, sc, "receiver_wake_function");
			fn(s, h, sc, "autoremove_wake_function");
		} else {
			fn(s, h, sc, "woken_wake_function");
		}
		fn(s, h, sc, "default_wake_function");
		fnx(s, h, sc, "try_to_wake_up", A_WAKE)->p = th;
	}
	if (r->proto == 6) {
		int now;

		sk->unacked += r->segs;
		now = s->p->flow == SSP_SYN_FLOW_TCP_STREAM ? sk->unacked >= 2 :
		    sk->quick > 0;
		fn(s, h, sc, "__tcp_ack_snd_check");
		if (now) {
			if (sk->quick > 0)
				sk->quick--;
			sk->unacked = 0;
			ack_path(s, h, c, sc, cn, r->to_server);
		} else {
			fn(s, h, sc, "tcp_send_delayed_ack");
			fn(s, h, sc, "sk_reset_timer");
		}
	}
	(void)t;
}

/* A receiving syscall looks at its socket. */
static void
recv_check(struct syn *s, struct host *h, struct lthr *th)
{
	static const char *const cpy_udp[] = { "skb_copy_datagram_iter",
	    "__skb_datagram_iter", "_copy_to_iter", "skb_consume_udp",
	    "__consume_stateless_skb", "skb_release_data", "kmem_cache_free",
	    NULL };
	static const char *const cpy_tcp[] = { "skb_copy_datagram_iter",
	    "__skb_datagram_iter", "_copy_to_iter", "tcp_rcv_space_adjust",
	    "tcp_cleanup_rbuf", "__kfree_skb", "release_sock", NULL };
	struct script *sc = &th->sc;
	struct lsock *sk = th->sk;
	int stream = s->p->flow == SSP_SYN_FLOW_TCP_STREAM;

	if (sk->n == 0) {		/* nothing there: sleep */
		if (tcp(s)) {
			fn(s, h, sc, "sk_wait_data");
			fnx(s, h, sc, "release_sock", A_NONE);
			fnx(s, h, sc, "wait_woken", A_BLOCK)->p = th;
		} else {
			fn(s, h, sc, "__skb_wait_for_more_packets");
			fnx(s, h, sc, "prepare_to_wait_exclusive", A_BLOCK)->p = th;
		}
		fn(s, h, sc, "schedule_timeout");
		sched_path(s, h, sc, "schedule");
		act(s, sc, A_SWITCH, th, 0);
		return;
	}
	while (sk->n > 0 && (stream || th->got < th->want)) {
		struct lskb *k = &sk->q[sk->h];

		if (!th->slept) {	/* data was there: Columbo's case */
			if (th->sys_parent == 0)
				th->sys_parent = k->span;
			else if (th->nlinks < LX_LINKS)
				th->links[th->nlinks++] = k->span;
		}
		th->got += k->bytes;
		if (k->req_end >= 0) {
			th->req = (unsigned)k->req_end;
			if (stream && th->role == TR_SERVER)
				ssp_synmodel_request_done(s, th->req, s->now);
		}
		sk->h = (sk->h + 1) % LX_SKQ;
		sk->n--;
		if (!tcp(s))
			break;		/* one datagram per recvfrom */
	}
	if (th->early)
		th->sys_amb = 1;	/* a sleep without a switch */
	fns(s, h, sc, tcp(s) ? cpy_tcp : cpy_udp);
	th->recv = 0;
	sys_exit(s, h, th);
}

/* Preemption on the way back to user mode (syscall or interrupt). */
static void
resched_user(struct syn *s, struct host *h, struct lcpu *c, struct script *sc,
    enum tcont cont)
{
	struct lthr *th = c->cur;

	if (!c->need_resched || c->rqn == 0 || th == &c->idle)
		return;
	fn(s, h, sc, "exit_to_user_mode_loop");
	sched_path(s, h, sc, "schedule");
	th->cont = cont;
	act(s, sc, A_SWITCH, th, 0);
}

static int
run_act(struct syn *s, struct host *h, struct lcpu *c, struct lstep *st,
    int64_t t)
{
	struct lhost *L = LH(h);
	struct frame *f = &c->fr[c->depth - 1];
	struct script *sc = f->sc;
	struct lthr *th = st->p;
	char key[16];

	snprintf(key, sizeof(key), "%u", c->idx);
	switch (st->act) {
	case A_SYS_OPEN:
		th = c->cur;
		th->in_sys = 1;
		th->sys_id = ssp_syntruth_reserve(s->truth);
		th->sys_start = t;
		th->sys_parent = 0;
		th->nlinks = 0;
		th->slept = th->woken = th->early = th->sys_amb = 0;
		th->ctx = th->sys_id;
		th->user = 0;
		L->last_sys = t;
		/* Inside client_request the request caused the syscall.  The
		 * log names no thread: when the last host.app begun on this
		 * CPU is not this thread's own request (the thread is
		 * outside one, or another thread entered one here since),
		 * the CPU's app span is not the parent (truth.md). */
		th->sys_parent = th->app;
		if (th->app != c->app)
			th->sys_amb = 1;
		break;
	case A_SYS_CLOSE:
		th = c->cur;
		if (th->in_sys)
			sys_row(s, h, th);
		th->ctx = 0;
		break;
	case A_TO_USER:
		if (c->cur != &c->idle && c->depth == 1)
			c->cur->user = 1;
		break;
	case A_RECV_CHECK:
		recv_check(s, h, th);
		break;
	case A_BLOCK:
		th->cont = TC_RECV;
		th->woken = 0;
		if (th->sk->n > 0) {	/* data came in meanwhile: no sleep */
			th->early = 1;
			break;
		}
		th->st = TS_SLEEP;
		th->slept = 1;
		th->early = 0;
		th->sk->waiter = th;
		break;
	case A_FOREVER:
		th = c->cur;
		th->st = TS_SLEEP;
		th->cont = TC_FOREVER;
		break;
	case A_KSIRQ_END:
		break;
	case A_SWITCH:
		if (th != NULL && th->st == TS_RUN && th->cont == TC_RECV &&
		    th->early) {
			/* woken between prepare_to_wait and schedule */
			c->irqs_off = 0;
			th->slept = 0;
			th->woken = 0;
			cont_build(s, h, c, th, 0);
			c->depth = 1;
			c->fr[0] = (struct frame){ FK_TASK, &th->sc, 0, 0, 0 };
			break;
		}
		do_switch(s, h, c);
		break;
	case A_SCHED_IN:
		th = c->cur;
		if (th == &c->ksirqd || th->woken)
			L->nwoken = L->nwoken > 0 ? L->nwoken - 1 : 0;
		if (th->role != TR_IDLE && th->role != TR_KSIRQD && th->in_sys &&
		    th->slept && th->woken) {
			unsigned k, susp = 0;
			uint64_t id;

			for (k = 0; k < L->nthr; k++) {
				struct lthr *o = L->thr[k];

				if (o != th && o->cpu == c->idx && o->in_sys &&
				    o->slept && o->st == TS_SLEEP)
					susp++;
			}
			id = span(s, h, SSP_SYNTRUTH_K_RESUME, t, key, th->waker,
			    L->nwoken > 0 || susp > 0);
			if (L->nwoken > 0 || susp > 0)
				th->sys_amb = 1;
			if (th->nlinks < LX_LINKS)
				th->links[th->nlinks++] = id;
			th->ctx = id;
		}
		th->woken = 0;
		break;
	case A_IRQ_OPEN: {
		uint64_t parent = st->val;

		f->span = span(s, h, SSP_SYNTRUTH_K_IRQ, t, key, parent, 0);
		break;
	}
	case A_NAPI_PREP:
		if (c->napi_sched && s->real) {
			/* napi_schedule_prep on a scheduled NAPI: MISSED,
			 * the poll runs once more */
			c->napi_missed = 1;
		} else if (!c->napi_sched) {
			c->napi_sched = 1;
			fn(s, h, sc, "__napi_schedule_irqoff");
			c->sirq_pending = 1;
			if (c->sirq_raiser == 0)
				c->sirq_raiser = f->span;
		}
		break;
	case A_IRQ_EXIT: {
		unsigned d;
		int in_sirq = 0;

		for (d = 0; d + 1 < c->depth; d++)
			in_sirq |= c->fr[d].kind == FK_SIRQ;
		if (!c->sirq_pending || in_sirq || c->ksirq_woken ||
		    c->depth >= LX_DEPTH)
			break;
		script_reset(&c->isc[c->depth]);
		c->fr[c->depth] = (struct frame){ FK_SIRQ, &c->isc[c->depth], 0,
		    c->sirq_raiser, 0 };
		c->depth++;
		fnx(s, h, &c->isc[c->depth - 1], "__do_softirq", A_SIRQ_OPEN);
		break;
	}
	case A_SIRQ_OPEN:
		f->span = span(s, h, SSP_SYNTRUTH_K_SOFTIRQ, t, key,
		    f->parent_irq, 0);
		c->sirq_pending = 0;
		c->sirq_raiser = 0;
		c->restarts = 0;
		build_poll(s, h, c, sc);
		break;
	case A_KSIRQ_OPEN: {
		uint64_t id = span(s, h, SSP_SYNTRUTH_K_SOFTIRQ, t, key,
		    c->ksirq_parent, 0);

		c->cur->ctx = id;
		c->sirq_pending = 0;
		c->sirq_raiser = 0;
		fn(s, h, sc, "__do_softirq");
		build_poll(s, h, c, sc);
		break;
	}
	case A_NAPI_DONE:
		c->napi_repoll = 0;
		if (c->napi_missed) {	/* --print real: reschedule, return false */
			c->napi_missed = 0;
			c->napi_repoll = 1;
			c->sirq_pending = 1;
			fn(s, h, sc, "__napi_schedule");
			break;
		}
		c->napi_sched = 0;
		break;
	case A_POLL_END:
		if (st->arg) {		/* budget used up, work left */
			fn(s, h, sc, "__raise_softirq_irqoff");
			if (c->cur == &c->ksirqd && f->kind == FK_TASK) {
				fnx(s, h, sc, "run_ksoftirqd", A_NONE);
				fn(s, h, sc, "__do_softirq");
				build_poll(s, h, c, sc);
			} else if (!c->need_resched && ++c->restarts < 10) {
				build_poll(s, h, c, sc);
			} else {
				fnx(s, h, sc, "wakeup_softirqd", A_WAKE_KSIRQ)->val =
				    f->parent_irq;
			}
		} else if (c->cur == &c->ksirqd && f->kind == FK_TASK &&
		    c->sirq_pending) {	/* raised meanwhile: once more */
			c->sirq_pending = 0;
			c->sirq_raiser = 0;
			fnx(s, h, sc, "run_ksoftirqd", A_NONE);
			fn(s, h, sc, "__do_softirq");
			build_poll(s, h, c, sc);
		} else if (c->cur == &c->ksirqd && f->kind == FK_TASK) {
			/* ksoftirqd is done: back to sleep */
			c->ksirq_woken = 0;
			c->cur->ctx = 0;
			fn(s, h, sc, "smpboot_thread_fn");
			c->ksirqd.st = TS_SLEEP;
			c->ksirqd.cont = TC_KSIRQ;
			sched_path(s, h, sc, "schedule");
			act(s, sc, A_SWITCH, NULL, 0);
		}
		break;
	case A_WAKE_KSIRQ:
		if (!c->ksirq_woken) {
			c->ksirq_woken = 1;
			c->ksirq_parent = st->val;
			c->ksirqd.st = TS_RUNNABLE;
			c->ksirqd.cont = TC_KSIRQ;
			L->nwoken++;
			rq_push(c, &c->ksirqd);
			c->need_resched = 1;
			fn(s, h, sc, "wake_up_process");
			fn(s, h, sc, "try_to_wake_up");
			fn(s, h, sc, "enqueue_task_fair");
			fn(s, h, sc, "check_preempt_curr");
			fn(s, h, sc, "resched_curr");
		}
		break;
	case A_DELIVER:
		deliver(s, h, c, sc, st->p, t);
		free(st->p);
		st->p = NULL;
		break;
	case A_WAKE:
		wake(s, h, c, sc, th, t);
		break;
	case A_IPI_RESCHED:
		c->need_resched = 1;
		break;
	case A_SEND_IPI:	/* --print real: its truth is the sender */
		ssp_synmodel_schedule(s, tick_round(t + 300 * NS), EV_LX_IPI,
		    h->idx, st->arg | ctx_span(c) << 8, NULL);
		break;
	case A_IRQS_OFF:
		c->irqs_off = 1;
		break;
	case A_RESCHED_USER:
		resched_user(s, h, c, sc, TC_IRQ_USER);
		break;
	case A_RESCHED_SYS:
		resched_user(s, h, c, sc, TC_USER);
		break;
	case A_IDLE_CHECK:
		if (c->need_resched || c->rqn > 0) {
			c->idle.cont = TC_IDLE;
			sched_path(s, h, sc, "schedule_idle");
			act(s, sc, A_SWITCH, NULL, 0);
		} else {
			fn(s, h, sc, "default_idle_call");
			fn(s, h, sc, "arch_cpu_idle");
			fn(s, h, sc, "default_idle");
			fn(s, h, sc, "native_safe_halt");
			put(s, sc)->op = LO_HALT;
			act(s, sc, A_IDLE_CHECK, NULL, 0);
		}
		break;
	}
	return 0;
}

/* --- running the CPUs -------------------------------------------------------- */

static int
can_irq(const struct lcpu *c)
{
	return !c->blocked && !c->irqs_off &&
	    c->fr[c->depth - 1].kind != FK_IRQ && c->depth < LX_DEPTH;
}

static void
take_irq(struct syn *s, struct host *h, struct lcpu *c)
{
	struct pend p = c->pend[0];
	struct frame *f;
	struct script *sc = &c->isc[c->depth];
	int from_user = c->depth == 1 && c->cur->user;

	memmove(&c->pend[0], &c->pend[1], (c->npend - 1) * sizeof(c->pend[0]));
	c->npend--;
	build_irq(s, h, sc, p.dev, from_user);
	sc->st[0].val = p.msix;		/* A_IRQ_OPEN: the parent */
	f = &c->fr[c->depth++];
	*f = (struct frame){ FK_IRQ, sc, 0, 0, from_user };
}

static uint64_t
pc_in(const struct syn *s, const struct ssp_synsym *f)
{
	uint64_t pc = f->addr + (f->size > 0x30 ? 0x1d : f->size / 2);

	while (ssp_synsym_is_start(s->syms, pc) && pc > f->addr)
		pc--;
	return pc;
}

static void
run_mmio(struct syn *s, struct host *h, struct lcpu *c, struct lstep *st,
    int64_t t)
{
	uint64_t id = h->compl_pool[ssp_synrng_below(&h->rng, 8)];
	uint64_t sp;
	struct nic_mmio *m;
	char key[32];

	ssp_syngem5_insn(&c->g, t, pc_in(s, st->fn), 'w', BAR0_BASE + st->off);
	ssp_syngem5_mmio(&c->g, t, 1, BAR0_BASE + st->off, 4, id, 0, st->off,
	    st->posted);
	if (st->posted)
		ssp_syngem5_posted(&c->g, t);
	snprintf(key, sizeof(key), "%" PRIu64, id);
	sp = span(s, h, SSP_SK_HOST_MMIO, t, key, ctx_span(c), 0);
	if ((m = calloc(1, sizeof(*m))) == NULL) {
		fail(s, "out of memory");
		return;
	}
	*m = (struct nic_mmio){ sp, 1, st->posted, st->off, 4, st->val, id,
	    st->p, c->idx };
	st->p = NULL;
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_NIC_MMIO, h->idx, 0, m);
	if (!st->posted) {
		c->blocked = 1;
		c->wait_dur = st->dur;
	}
}

/*
 * --print real: TimingSimpleCPU executes the store (its Exec tick is now)
 * and stalls until the response: the adapter prints the access when it
 * arrives over the IO bridge, and the store's Exec lines are printed when
 * the response is back (BaseSimpleCPU::postExecute after
 * TimingSimpleCPU::completeDataAccess), with the tick of the store.  The
 * CPU prints nothing meanwhile; other CPUs go on.
 */
static void
run_mmio_real(struct syn *s, struct host *h, struct lcpu *c, struct lstep *st,
    int64_t t)
{
	struct nic_mmio *m;
	uint64_t val = st->val;

	if (st->p != NULL && st->off >= I40E_QTX_TAIL0 &&
	    st->off < I40E_QTX_TAIL0 + 4 * LX_CPUS) {
		struct lcpu *qc = &LH(h)->cpu[(st->off - I40E_QTX_TAIL0) / 4 %
		    LH(h)->ncpu];

		qc->tx_tail = (qc->tx_tail + ssp_synlinux_ndesc(st->p)) % 512;
		val = qc->tx_tail;
	}
	if ((m = calloc(1, sizeof(*m))) == NULL) {
		fail(s, "out of memory");
		return;
	}
	*m = (struct nic_mmio){ ctx_span(c), 1, st->posted, st->off, 4, val, 0,
	    st->p, c->idx };
	st->p = NULL;
	c->io_t0 = t;
	c->io_pc = pc_in(s, st->fn);
	c->io_ea = IO_VBASE + ((uint64_t)h->idx << 22) + st->off;
	c->io_dur = st->dur;
	c->io_saved = c->g.step_fp;
	c->g.step_fp = 0;
	c->blocked = 1;
	ssp_synmodel_schedule(s, tick_round(t + IO_REQ_PS), EV_LX_IO_REQ, h->idx,
	    0, m);
}

/* The access reaches the adapter (m->span: the context that made it). */
static void
io_req(struct syn *s, struct host *h, struct nic_mmio *m, int64_t t)
{
	struct lhost *L = LH(h);
	struct lcpu *c = &L->cpu[m->cpu];
	char key[32];

	mfill(L, t);
	m->id = ssp_synheap_alloc(&L->ids, 0, 0x30, 0);	/* new TimingPioCompl */
	ssp_syngem5_mmio(&c->g, t, m->write, BAR0_BASE + m->off, 4, m->id, 0,
	    m->off, m->posted);
	snprintf(key, sizeof(key), "%" PRIu64, m->id);
	m->span = span(s, h, SSP_SK_HOST_MMIO, t, key, m->span, 0);
	if (m->posted) {	/* answered now, the completion deleted */
		ssp_syngem5_posted(&c->g, t);
		ssp_synheap_free(&L->ids, 0, m->id);
		ssp_synmodel_schedule(s, tick_round(t + 1 + IO_RESP_PS),
		    EV_LX_IO_RESP, h->idx, m->cpu, NULL);
	}
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_NIC_MMIO, h->idx, 0, m);
}

/* The response is back: the access's Exec lines, the CPU goes on. */
static void
io_resp(struct syn *s, struct host *h, struct lcpu *c, int64_t t)
{
	struct lhost *L = LH(h);

	mfill(L, t);
	ssp_syngem5_insn(&c->g, c->io_t0, c->io_pc, 'w', c->io_ea);
	c->g.step_fp = c->io_saved;
	if (c->g.next_fp < (uint64_t)t << 8)
		c->g.next_fp = (uint64_t)t << 8;
	c->blocked = 0;
	kick(s, L, c, t + c->io_dur);
}

/* Run CPU c from t until it waits (a step's duration, an MMIO, halt). */
static void
cpu_run(struct syn *s, struct host *h, struct lcpu *c, int64_t t)
{
	struct lhost *L = LH(h);
	unsigned guard;

	c->scheduled = 0;
	for (guard = 0; guard < 100000 && !s->failed; guard++) {
		struct frame *f;
		struct script *sc;
		struct lstep *st;
		int64_t dur;

		if (c->blocked || c->halted)
			return;
		if (c->npend > 0 && can_irq(c))
			take_irq(s, h, c);
		f = &c->fr[c->depth - 1];
		sc = f->sc;
		if (sc->pc >= sc->n) {
			if (f->kind == FK_SIRQ && c->sirq_pending &&
			    !c->ksirq_woken) {
				/* __do_softirq: NET_RX raised again meanwhile */
				sc->cur = sc->n;
				if (!c->need_resched && ++c->restarts < 10) {
					c->sirq_pending = 0;
					c->sirq_raiser = 0;
					build_poll(s, h, c, sc);
				} else {
					fnx(s, h, sc, "wakeup_softirqd",
					    A_WAKE_KSIRQ)->val = c->sirq_raiser;
				}
				continue;
			}
			if (f->kind != FK_TASK) {
				c->depth--;
				continue;
			}
			if (c->cur == &c->idle) {
				script_reset(sc);
				idle_loop(s, c);
			} else if (c->cur->role == TR_KSIRQD) {
				fail(s, "ksoftirqd ran out of script");
				return;
			} else {
				app_next(s, h, c->cur);
			}
			continue;
		}
		if (sc->pc > LX_NSTEP / 2) {	/* drop what ran (idle loops) */
			memmove(&sc->st[0], &sc->st[sc->pc], (sc->n - sc->pc) *
			    sizeof(sc->st[0]));
			sc->n -= sc->pc;
			sc->pc = sc->cur = 0;
		}
		st = &sc->st[sc->pc];
		if (st->cond && c->napi_repoll) {	/* not run: no output */
			sc->pc++;
			sc->cur = sc->pc;
			continue;
		}
		if (st->op == LO_FUNC && st->act == A_SYS_OPEN &&
		    t <= L->last_sys) {	/* no two syscalls at one tick */
			kick(s, L, c, L->last_sys + 125);
			return;
		}
		sc->pc++;
		sc->cur = sc->pc;
		dur = st->dur;
		switch (st->op) {
		case LO_FUNC:
			mfill(L, t);
			c->g.user = 0;
			ssp_syngem5_func(&c->g, t, st->fn->addr);
			c->last_fn = st->fn;
			if (st->act != A_NONE)
				run_act(s, h, c, st, t);
			break;
		case LO_UFUNC:
			mfill(L, t);
			c->g.user = 1;
			ssp_syngem5_func(&c->g, t, st->pc);
			if (st->arg == APP_REQUEST) {	/* a request begins */
				char key[16];

				snprintf(key, sizeof(key), "%u", c->idx);
				c->app = c->cur->app = span(s, h, SSP_SK_HOST_APP,
				    t, key, 0, 0);
			}
			break;
		case LO_UPC:
			mfill(L, t);
			c->g.user = 1;
			ssp_syngem5_insn(&c->g, t, st->pc, 0, 0);
			break;
		case LO_MMIO:
			mfill(L, t);
			if (s->real) {
				run_mmio_real(s, h, c, st, t);
				return;
			}
			run_mmio(s, h, c, st, t);
			if (c->blocked)
				return;
			break;
		case LO_ACT:
			run_act(s, h, c, st, t);
			continue;
		case LO_LABEL:
			mfill(L, t);
			ssp_syngem5_push_imm_at(&c->g, t, s->lbl_safe_stack->addr, 0);
			break;
		case LO_HALT:
			/* default_idle_call halts only when nothing is due */
			if (c->need_resched || c->rqn > 0 || c->npend > 0)
				break;
			halt(c);
			return;
		}
		if (dur > 0) {
			kick(s, L, c, t + dur);
			return;
		}
	}
	if (!s->failed)
		fail(s, "a CPU loops without time passing");
}

/* --- events -------------------------------------------------------------- */

static int64_t
mem_latency(unsigned len)
{
	return 15 * NS + (int64_t)len * 125 / 2;
}

void
ssp_synlinux_event(struct syn *s, const struct sev *ev)
{
	struct host *h = &s->hosts[ev->who & 0xffff];
	struct lhost *L = LH(h);
	int64_t t = ev->t;
	char key[48];

	switch (ev->type) {
	case EV_LX_STEP:
		cpu_run(s, h, &L->cpu[ev->a], t);
		break;
	case EV_LX_IPI:	/* a: CPU | sender context << 8 (--print real) */
		interrupt(s, L, &L->cpu[ev->a & 0xff], t, 0, ev->a >> 8);
		break;
	case EV_LX_IO_REQ:
		io_req(s, h, ev->p, t);
		break;
	case EV_LX_IO_RESP:
		io_resp(s, h, &L->cpu[ev->a], t);
		break;
	case EV_LX_MSIX: {
		unsigned vec = ev->who >> 16;

		mfill(L, t);
		ssp_syngem5_procin(&L->cpu[0].g, t);
		ssp_syngem5_msix(&L->cpu[0].g, t, vec);
		snprintf(key, sizeof(key), "%u", vec);
		ssp_synmodel_schedule(s, t + mem_latency(4), EV_LX_MSIX_DONE,
		    ev->who, span(s, h, SSP_SK_HOST_MSIX, t, key, ev->a, 0), NULL);
		break;
	}
	case EV_LX_MSIX_DONE: {
		unsigned vec = ev->who >> 16;

		mfill(L, t);
		ssp_syngem5_dma_done(&L->cpu[0].g, t, 0);
		interrupt(s, L, &L->cpu[(vec - 1) % L->ncpu], t, 1, ev->a);
		break;
	}
	case EV_LX_MMIO_DONE: {
		struct nic_mmio *m = ev->p;
		struct lcpu *c = &L->cpu[m->cpu];

		mfill(L, t);
		ssp_syngem5_procin(&L->cpu[0].g, t);
		ssp_syngem5_mmio_done(&L->cpu[0].g, t, m->write, m->id);
		if (s->real) {	/* the completion deleted, the response sent */
			ssp_synheap_free(&L->ids, 0, m->id);
			free(m);
			ssp_synmodel_schedule(s, tick_round(t + IO_RESP_PS),
			    EV_LX_IO_RESP, h->idx, c->idx, NULL);
			break;
		}
		free(m);
		if (c->blocked) {
			c->blocked = 0;
			kick(s, L, c, t + c->wait_dur);
		}
		break;
	}
	case EV_HOST_SYNC:
		if (s->ending && t > s->end)
			break;
		mfill(L, t);
		if (t == 0)
			ssp_syngem5_constructed(&L->cpu[0].g, 0);
		ssp_syngem5_sync(&L->cpu[0].g, t, t);
		ssp_syngem5_procin(&L->cpu[0].g, t == 0 ? 1 : t);
		ssp_synmodel_schedule(s, t + s->p->sync_interval, EV_HOST_SYNC,
		    h->idx, 0, NULL);
		break;
	case EV_HOST_DMA: {
		struct dmaop *op = ev->p;

		mfill(L, t);
		ssp_syngem5_procin(&L->cpu[0].g, t);
		ssp_syngem5_dma(&L->cpu[0].g, t, op->write, op->ptr, op->addr,
		    op->len);
		snprintf(key, sizeof(key), "%" PRIu64, op->ptr);
		span(s, h, SSP_SK_HOST_DMA, t, key, op->span, 0);
		ssp_synmodel_schedule(s, t + mem_latency(op->len), EV_HOST_DMA_DONE,
		    h->idx, 0, op);
		break;
	}
	case EV_HOST_DMA_DONE: {
		struct dmaop *op = ev->p;

		mfill(L, t);
		ssp_syngem5_dma_done(&L->cpu[0].g, t, op->ptr);
		ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_NIC_DMA_DONE,
		    h->idx, 0, op);
		break;
	}
	default:
		break;
	}
}

void
ssp_synlinux_rx_done(struct syn *s, struct host *h, unsigned q,
    const struct lrx *rx)
{
	struct lcpu *c = &LH(h)->cpu[q % LH(h)->ncpu];

	if (c->rxn == LX_RXQ) {
		fail(s, "RX ring full (raise --napi-budget or --interval)");
		return;
	}
	c->rx[(c->rxh + c->rxn) % LX_RXQ] = *rx;
	c->rxn++;
}

unsigned
ssp_synlinux_ndesc(const struct pkt *pk)
{
	const struct pkt *x;
	unsigned pay = 0;

	for (x = pk; x != NULL; x = x->next)
		pay += x->payload;
	if (pk->proto != 6 || pay == 0)
		return 1;		/* UDP, ARP, a pure ACK: linear */
	if (pk->next == NULL)
		return 2;		/* TCP: header, payload in a page frag */
	return 2 + (pay + SSP_SYNLINUX_TXD_MAX - 1) / SSP_SYNLINUX_TXD_MAX;	/* TSO: context first */
}

void
ssp_synlinux_rings(const struct host *h, unsigned q, uint32_t *rx_tail,
    uint32_t *tx_tail)
{
	const struct lcpu *c = &h->lx->cpu[q % h->lx->ncpu];

	*rx_tail = c->rx_tail;
	*tx_tail = c->tx_tail;
}

void
ssp_synlinux_tx_done(struct syn *s, struct host *h, unsigned q)
{
	(void)s;
	LH(h)->cpu[q % LH(h)->ncpu].txdone++;
}

/* --- setup ----------------------------------------------------------------- */

void
ssp_synlinux_cpu_name(unsigned ncpu, unsigned k, char *buf, size_t n)
{
	if (ncpu <= 1)
		snprintf(buf, n, "system.switch_cpus");
	else
		snprintf(buf, n, "system.switch_cpus%u", k);
}

static struct lthr *
new_thread(struct syn *s, struct lhost *L, enum trole role, unsigned cpu)
{
	struct lthr *th = calloc(1, sizeof(*th));

	if (th == NULL || script_init(&th->sc) != 0 || L->nthr == LX_THR) {
		if (th != NULL)
			free(th->sc.st);
		free(th);
		fail(s, "out of memory (threads)");
		return NULL;
	}
	th->role = role;
	th->cpu = cpu % L->ncpu;
	th->st = TS_RUNNABLE;
	th->cont = TC_FIRST;
	L->thr[L->nthr++] = th;
	return th;
}

int
ssp_synlinux_setup(struct syn *s)
{
	const struct ssp_synparams *p = s->p;
	struct lworld *W = calloc(1, sizeof(*W));
	unsigned i, k, d, nc = 0;

	if (W == NULL)
		return SSP_ERR_NOMEM;
	s->lw = W;
	W->lh = calloc(s->nhosts, sizeof(*W->lh));
	W->nconn = s->nclients * p->concurrency;
	W->conns = calloc(W->nconn + 1, sizeof(*W->conns));
	if (W->lh == NULL || W->conns == NULL)
		return SSP_ERR_NOMEM;
	for (i = 0; i < s->nhosts; i++) {
		struct host *h = &s->hosts[i];
		struct lhost *L = &W->lh[i];

		uint64_t base;

		h->lx = L;
		L->h = h;
		ssp_synrng_seed(&h->rng, p->seed, 100 + h->idx);
		/* PciPioCompl objects on gem5's heap (as synhost.c) */
		base = 0x55e000000000ull + (ssp_synrng_below(&h->rng, 0x400) << 28);
		for (k = 0; k < 8; k++)
			h->compl_pool[k] = base + (ssp_synrng_below(&h->rng,
			    1u << 24) << 4);
		h->tx_tail = (uint32_t)ssp_synrng_below(&h->rng, 512);
		L->ncpu = p->cpus;
		L->last_sys = -1;
		for (k = 0; k < L->ncpu; k++) {
			struct lcpu *c = &L->cpu[k];

			c->idx = k;
			ssp_synlinux_cpu_name(L->ncpu, k, c->name, sizeof(c->name));
			ssp_syngem5_init(&c->g, h->log, c->name,
			    p->ckpt_offset, s->lkpool[k], s->lupool[k],
			    997u * h->idx + 131u * k + ssp_synrng_below(&h->rng, 4096));
			c->g.dialect = p->gem5_dialect;
			c->g.user = 0;
			for (d = 0; d < LX_DEPTH; d++)
				if (script_init(&c->isc[d]) != 0)
					return SSP_ERR_NOMEM;
			if (script_init(&c->idle.sc) != 0 ||
			    script_init(&c->ksirqd.sc) != 0)
				return SSP_ERR_NOMEM;
			c->idle.role = TR_IDLE;
			c->idle.cpu = k;
			c->idle.st = TS_RUN;
			c->ksirqd.role = TR_KSIRQD;
			c->ksirqd.cpu = k;
			c->ksirqd.st = TS_SLEEP;
			c->ksirqd.cont = TC_KSIRQ;
			c->cur = &c->idle;
			c->depth = 1;
			c->fr[0] = (struct frame){ FK_TASK, &c->idle.sc, 0, 0, 0 };
			c->rx_tail = (uint32_t)ssp_synrng_below(&h->rng, 512);
			if (s->real) {	/* the rings as the driver left them */
				c->tx_tail = (uint32_t)ssp_synrng_below(&h->rng,
				    512);
				c->rx_unused = 1;	/* 511 of 512 posted */
			}
		}
		if (s->real)
			ssp_synheap_init(&L->ids, h->compl_pool[0]);
	}
	/* connections: client thread k of client host c talks to server
	 * (c * concurrency + k) % servers */
	for (i = 0; i < s->nclients; i++)
		for (k = 0; k < p->concurrency; k++, nc++) {
			struct lconn *cn = &W->conns[nc];
			struct host *ch = &s->hosts[s->nservers + i];
			struct host *sh = &s->hosts[nc % s->nservers];

			cn->idx = nc;
			cn->ch = ch;
			cn->sh = sh;
			cn->cport = (uint16_t)(40000 + nc);
			cn->sport = (uint16_t)(7000 + nc / s->nservers);
			cn->cs.quick = cn->ss.quick = 4;
			if ((cn->ct = new_thread(s, LH(ch), TR_CLIENT, k)) == NULL ||
			    (cn->st = new_thread(s, LH(sh), TR_SERVER,
			    nc / s->nservers)) == NULL)
				return SSP_ERR_NOMEM;
			cn->ct->cn = cn->st->cn = cn;
			cn->ct->sk = &cn->cs;
			cn->st->sk = &cn->ss;
		}
	for (i = 0; i < s->nhosts; i++) {
		struct host *h = &s->hosts[i];

		ssp_synmodel_schedule(s, 0, EV_HOST_SYNC, h->idx, 0, NULL);
	}
	return s->failed ? s->err.code : SSP_OK;
}

void
ssp_synlinux_dump(struct syn *s, FILE *f)
{
	unsigned i, k;

	for (i = 0; i < s->nhosts; i++) {
		struct lhost *L = LH(&s->hosts[i]);

		for (k = 0; k < L->ncpu; k++) {
			struct lcpu *c = &L->cpu[k];

			fprintf(f, "%s cpu%u: depth %u cur %d halted %d blocked %d "
			    "sched %d resched %d rqn %u npend %u rxn %u napi %d "
			    "ksirq %d sirqpend %d\n", s->hosts[i].name, k, c->depth,
			    c->cur->role, c->halted, c->blocked, c->scheduled,
			    c->need_resched, c->rqn, c->npend, c->rxn, c->napi_sched,
			    c->ksirq_woken, c->sirq_pending);
		}
		for (k = 0; k < L->nthr; k++) {
			struct lthr *th = L->thr[k];

			fprintf(f, "  thr %u role %d cpu %u st %d cont %d phase %d "
			    "want %u got %u req %u insys %d slept %d sk.n %u "
			    "waiter %d done %d pc %u/%u\n", k, th->role, th->cpu,
			    th->st, th->cont, th->phase, th->want, th->got, th->req,
			    th->in_sys, th->slept, th->sk->n, th->sk->waiter == th,
			    th->done, th->sc.pc, th->sc.n);
		}
	}
	for (i = 0; i < s->nhosts; i++) {
		unsigned v;

		for (v = 0; v < NIC_MAXVEC; v++) {
			struct nicvec *V = &s->nics[i].lv[v];

			fprintf(f, "%s vec%u: masked %d pending %d sched %d nrx %u\n",
			    s->nics[i].name, v + 1, V->masked, V->pending, V->sched,
			    V->nrx);
		}
	}
}

void
ssp_synlinux_density(struct host *h, double lines_per_us)
{
	unsigned k;

	for (k = 0; k < LH(h)->ncpu; k++)
		ssp_syngem5_density(&LH(h)->cpu[k].g, lines_per_us);
}

void
ssp_synlinux_start(struct syn *s)
{
	unsigned i, k;

	for (i = 0; i < s->nhosts; i++) {
		struct lhost *L = LH(&s->hosts[i]);

		/* servers first, then clients a little later */
		for (k = 0; k < L->nthr; k++) {
			struct lthr *th = L->thr[k];
			struct lcpu *c = &L->cpu[th->cpu];

			rq_push(c, th);
			c->need_resched = 1;
		}
		for (k = 0; k < L->ncpu; k++) {
			struct lcpu *c = &L->cpu[k];
			int64_t t = tick_round(s->t0 / 2 + (s->hosts[i].server ? 0 :
			    20 * US) + (int64_t)ssp_synrng_below(&s->hosts[i].rng,
			    2000) * NS);

			/* the CPU shows up at t in do_idle's loop */
			script_reset(&c->idle.sc);
			fn(s, &s->hosts[i], &c->idle.sc, "do_idle");
			idle_loop(s, c);
			if (c->g.next_fp < (uint64_t)t << 8)
				c->g.next_fp = (uint64_t)t << 8;
			kick(s, L, c, t);
		}
	}
}

void
ssp_synlinux_finish(struct syn *s, struct host *h)
{
	struct lhost *L = LH(h);
	int64_t t = s->end, last = 0;
	unsigned k;

	for (k = 0; k < L->ncpu; k++)
		if (L->cpu[k].g.last > last)
			last = L->cpu[k].g.last;
	if (t < last)
		t = last;
	mfill(L, t);
	ssp_syngem5_sync(&L->cpu[0].g, t, t);
	for (k = 0; k < L->nthr; k++)
		if (L->thr[k]->in_sys)
			sys_row(s, h, L->thr[k]);
	for (k = 0; k < L->ncpu; k++) {
		unsigned e;

		for (e = 0; e < SSP_EV_NTYPES; e++)
			h->g.nev[e] += L->cpu[k].g.nev[e];
		for (e = 0; e < SSP_G5_NSKIP; e++)
			h->g.nskip[e] += L->cpu[k].g.nskip[e];
	}
}

void
ssp_synlinux_free(struct syn *s)
{
	struct lworld *W = s->lw;
	unsigned i, k, d;

	if (W == NULL)
		return;
	for (i = 0; W->lh != NULL && i < s->nhosts; i++) {
		struct lhost *L = &W->lh[i];

		for (k = 0; k < L->nthr; k++) {
			free(L->thr[k]->sc.st);
			free(L->thr[k]);
		}
		for (k = 0; k < L->ncpu; k++) {
			struct lcpu *c = &L->cpu[k];

			for (d = 0; d < LX_DEPTH; d++) {
				unsigned j;

				for (j = c->isc[d].pc; c->isc[d].st != NULL &&
				    j < c->isc[d].n; j++)
					if (c->isc[d].st[j].op == LO_ACT &&
					    c->isc[d].st[j].act == A_DELIVER)
						free(c->isc[d].st[j].p);
				free(c->isc[d].st);
			}
			free(c->idle.sc.st);
			free(c->ksirqd.sc.st);
		}
	}
	free(W->lh);
	free(W->conns);
	free(W);
	s->lw = NULL;
}

int
ssp_synlinux_write_app(const char *path, struct ssp_err *e)
{
	FILE *f = fopen(path, "w");
	size_t i;
	int bad;

	if (f == NULL)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path,
		    strerror(errno));
	fprintf(f, "\napp:     file format elf64-x86-64\n\nSYMBOL TABLE:\n");
	fprintf(f, "0000000000001100 l    d  .text\t0000000000000000 .text\n");
	for (i = 0; i < sizeof(app_funcs) / sizeof(app_funcs[0]); i++)
		fprintf(f, "%016x %c     F .text\t%016x %s\n", app_funcs[i].off,
		    i < 2 ? 'g' : 'l', app_funcs[i].size, app_funcs[i].name);
	fprintf(f, "\n");
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: write failed", path);
	return SSP_OK;
}
