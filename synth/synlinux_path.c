/*
 * simsynth --kernel linux: the kernel paths a CPU runs, as scripts of
 * steps, and the actions between them (synlinux_int.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "synth/synheap.h"
#include "synth/synlinux.h"

#include "synth/synlinux_int.h"

/* --- scripts ------------------------------------------------------------- */

int
ssp_synlinux_path_script_init(struct script *sc)
{
	sc->st = calloc(LX_NSTEP, sizeof(*sc->st));
	sc->n = sc->pc = sc->cur = 0;
	return sc->st == NULL ? -1 : 0;
}

void
ssp_synlinux_path_script_reset(struct script *sc)
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

struct lstep *
ssp_synlinux_path_fnx(struct syn *s, struct host *h, struct script *sc, const char *name, int act)
{
	struct lstep *st = put(s, sc);

	st->op = LO_FUNC;
	st->fn = ssp_synmodel_fn(s, name);
	st->act = (uint8_t)act;
	st->dur = tick_round(20 * NS + ssp_synrng_exp(&h->rng, 60 * NS));
	return st;
}

void
ssp_synlinux_path_fn(struct syn *s, struct host *h, struct script *sc, const char *name)
{
	ssp_synlinux_path_fnx(s, h, sc, name, A_NONE);
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
		ssp_synlinux_path_fn(s, h, sc, ssp_synsym_noise(s->syms, ssp_synrng_below(&h->rng,
		    nn))->name);
		return;
	}
	ssp_synlinux_path_fn(s, h, sc, helpers[ssp_synrng_below(&h->rng, sizeof(helpers) /
	    sizeof(helpers[0]))]);
}

static void
fns(struct syn *s, struct host *h, struct script *sc, const char *const *names)
{
	for (; *names != NULL; names++) {
		ssp_synlinux_path_fn(s, h, sc, *names);
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
void
ssp_synlinux_path_mfill(struct lhost *L, int64_t t)
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

void
ssp_synlinux_path_halt(struct lcpu *c)
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

uint64_t
ssp_synlinux_path_span(struct syn *s, struct host *h, unsigned kind, int64_t t, const char *key,
    uint64_t parent, int amb)
{
	uint64_t id = ssp_syntruth_reserve(s->truth);

	ssp_syntruth_row(s->truth, id, h->stream, s->stream_names[h->stream],
	    kind, t, key, parent, NULL, 0, 0, amb);
	return id;
}

void
ssp_synlinux_path_sys_row(struct syn *s, struct host *h, struct lthr *th)
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

void
ssp_synlinux_path_kick(struct syn *s, struct lhost *L, struct lcpu *c, int64_t t)
{
	if (c->scheduled || c->blocked || c->halted)
		return;
	c->scheduled = 1;
	ssp_synmodel_schedule(s, t, EV_LX_STEP, L->h->idx, c->idx, NULL);
}

void
ssp_synlinux_path_rq_push(struct lcpu *c, struct lthr *th)
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
void
ssp_synlinux_path_interrupt(struct syn *s, struct lhost *L, struct lcpu *c, int64_t t, int dev,
    uint64_t msix)
{
	if (c->npend == LX_PEND) {
		fail(s, "too many interrupts pending on one CPU");
		return;
	}
	c->pend[c->npend++] = (struct pend){ dev, msix };
	if (c->halted) {
		unhalt(c, t);
		ssp_synlinux_path_kick(s, L, c, tick_round(t + 40 * NS));
	}
}

/* --- building the paths ---------------------------------------------------- */

static void sys_exit(struct syn *s, struct host *h, struct lthr *th);

static void
sys_enter(struct syn *s, struct host *h, struct lthr *th, const char *sysfn)
{
	struct lstep *st = ssp_synlinux_path_fnx(s, h, &th->sc, "entry_SYSCALL_64", A_SYS_OPEN);

	st->dur = 4 * 125;	/* on through entry_SYSCALL_64_safe_stack */
	st = put(s, &th->sc);
	st->op = LO_LABEL;
	st->dur = tick_round(2 * 125 + ssp_synrng_exp(&h->rng, 30 * NS));
	ssp_synlinux_path_fn(s, h, &th->sc, "do_syscall_64");
	ssp_synlinux_path_fn(s, h, &th->sc, "syscall_enter_from_user_mode");
	ssp_synlinux_path_fn(s, h, &th->sc, sysfn);
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
		ssp_synlinux_path_fn(s, h, sc, "skb_cow_head.constprop.0");
	ssp_synlinux_path_fn(s, h, sc, "dma_map_page_attrs");
	if (s->real) {	/* the tail is taken when the doorbell runs */
		mmio_step(s, h, sc, "i40e_lan_xmit_frame", I40E_QTX_TAIL0 + 4 * q,
		    0, pk);
	} else {
		h->tx_tail = (h->tx_tail + 1) % 512;
		mmio_step(s, h, sc, "i40e_lan_xmit_frame", I40E_QTX_TAIL0 + 4 * q,
		    h->tx_tail, pk);
	}
	ssp_synlinux_path_fn(s, h, sc, "i40e_maybe_stop_tx");
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
		ssp_synlinux_path_fn(s, h, &th->sc, "release_sock");
		ssp_synlinux_path_fn(s, h, &th->sc, "tcp_release_cb");
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
	ssp_synlinux_path_fnx(s, h, &th->sc, "syscall_exit_to_user_mode", A_SYS_CLOSE);
	ssp_synlinux_path_fn(s, h, &th->sc, "exit_to_user_mode_prepare");
	act(s, &th->sc, A_RESCHED_SYS, th, 0);
	ssp_synlinux_path_fn(s, h, &th->sc, "syscall_return_via_sysret");
	act(s, &th->sc, A_TO_USER, th, 0);
	user(s, h, &th->sc, 100 * NS);
}

/* The scheduler path before a context switch (prev gives the CPU up). */
static void
sched_path(struct syn *s, struct host *h, struct script *sc, const char *first)
{
	if (first != NULL)
		ssp_synlinux_path_fn(s, h, sc, first);
	/* __schedule takes the run queue lock with interrupts off until
	 * finish_task_switch */
	ssp_synlinux_path_fnx(s, h, sc, "__schedule", A_IRQS_OFF);
	ssp_synlinux_path_fn(s, h, sc, "pick_next_task_fair");
	ssp_synlinux_path_fn(s, h, sc, "__switch_to_asm");
	ssp_synlinux_path_fn(s, h, sc, "__switch_to");
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
void
ssp_synlinux_path_app_next(struct syn *s, struct host *h, struct lthr *th)
{
	int stream = s->p->flow == SSP_SYN_FLOW_TCP_STREAM;

	ssp_synlinux_path_script_reset(&th->sc);
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
		ssp_synlinux_path_fn(s, h, &th->sc, "hrtimer_nanosleep");
		ssp_synlinux_path_fnx(s, h, &th->sc, "do_nanosleep", A_NONE);
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
void
ssp_synlinux_path_idle_loop(struct syn *s, struct lcpu *c)
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
			ssp_synlinux_path_fnx(s, h, sc, "finish_task_switch.isra.0", A_SCHED_IN);
		if (th->cont == TC_IRQ_USER) {
			ssp_synlinux_path_fn(s, h, sc, "swapgs_restore_regs_and_return_to_usermode");
			act(s, sc, A_TO_USER, th, 0);
		}
		th->cont = TC_FIRST;
		return;
	}
	ssp_synlinux_path_script_reset(sc);
	if (switched)
		ssp_synlinux_path_fnx(s, h, sc, "finish_task_switch.isra.0", A_SCHED_IN);
	switch (th->cont) {
	case TC_FIRST:
		ssp_synlinux_path_fn(s, h, sc, "swapgs_restore_regs_and_return_to_usermode");
		act(s, sc, A_TO_USER, th, 0);
		user(s, h, sc, 200 * NS);
		break;
	case TC_USER:
	case TC_IRQ_USER:
		break;
	case TC_RECV:
		if (tcp(s)) {
			ssp_synlinux_path_fn(s, h, sc, "lock_sock_nested");
			ssp_synlinux_path_fn(s, h, sc, "remove_wait_queue");
		} else {
			ssp_synlinux_path_fn(s, h, sc, "finish_wait");
			ssp_synlinux_path_fn(s, h, sc, "__skb_try_recv_from_queue");
		}
		act(s, sc, A_RECV_CHECK, th, 0);
		break;
	case TC_IDLE:
		ssp_synlinux_path_fn(s, h, sc, "do_idle");
		ssp_synlinux_path_idle_loop(s, c);
		break;
	case TC_KSIRQ:
		ssp_synlinux_path_fn(s, h, sc, "smpboot_thread_fn");
		ssp_synlinux_path_fnx(s, h, sc, "run_ksoftirqd", A_KSIRQ_OPEN);
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
	ssp_synlinux_path_fn(s, h, sc, "i40e_alloc_rx_buffers");
	c->rx_tail = (c->rx_tail + c->rx_unused) % 512;
	c->rx_unused = 0;
	mmio_step(s, h, sc, "i40e_alloc_rx_buffers", I40E_QRX_TAIL0 + 4 * c->idx,
	    c->rx_tail, NULL);
}

/* The NAPI poll of CPU c's queue: TX completions, up to the budget of
 * received frames through GRO, the RX tail, then either
 * napi_complete_done (deliveries, i40e_update_enable_itr's register
 * write) or, with the budget used up, the deliveries and a repoll. */
void
ssp_synlinux_path_build_poll(struct syn *s, struct host *h, struct lcpu *c, struct script *sc)
{
	static const char *const gro_ip[] = { "inet_gro_receive", NULL };
	unsigned budget = s->p->napi_budget, k, i, n;
	struct lskb *list;

	ssp_synlinux_path_fn(s, h, sc, "net_rx_action");
	ssp_synlinux_path_fn(s, h, sc, "__napi_poll");
	ssp_synlinux_path_fn(s, h, sc, "i40e_napi_poll");
	for (i = 0; i < c->txdone && i < 4; i++)
		ssp_synlinux_path_fn(s, h, sc, "napi_consume_skb");
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
		ssp_synlinux_path_fn(s, h, sc, "__napi_alloc_skb");
		ssp_synlinux_path_fn(s, h, sc, "i40e_process_skb_fields");
		ssp_synlinux_path_fn(s, h, sc, "eth_type_trans");
		ssp_synlinux_path_fn(s, h, sc, "napi_gro_receive");
		ssp_synlinux_path_fn(s, h, sc, "dev_gro_receive");
		if (r->kind != PK_BG_ARP) {
			fns(s, h, sc, gro_ip);
			ssp_synlinux_path_fn(s, h, sc, r->proto == 6 ? "tcp4_gro_receive" :
			    "udp4_gro_receive");
			if (r->proto == 6)
				ssp_synlinux_path_fn(s, h, sc, "tcp_gro_receive");
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
		ssp_synlinux_path_fn(s, h, sc, "i40e_alloc_rx_buffers");
		c->rx_tail = (c->rx_tail + k) % 512;
		mmio_step(s, h, sc, "i40e_release_rx_desc", I40E_QRX_TAIL0 +
		    4 * c->idx, c->rx_tail, NULL);
	}
	if (k == budget && c->rxn > k) {
		ssp_synlinux_path_fn(s, h, sc, "netif_receive_skb_list_internal");
	} else {
		ssp_synlinux_path_fnx(s, h, sc, "napi_complete_done", A_NAPI_DONE);
		if (n > 0) {
			if (list[0].kind == PK_REQ || list[0].kind == PK_RESP ||
			    list[0].kind == PK_TCP_ACK)
				ssp_synlinux_path_fn(s, h, sc, "napi_gro_flush");
			ssp_synlinux_path_fn(s, h, sc, "netif_receive_skb_list_internal");
		}
	}
	if (n > 0) {
		ssp_synlinux_path_fn(s, h, sc, "__netif_receive_skb_list_core");
		ssp_synlinux_path_fn(s, h, sc, "ip_list_rcv");
		ssp_synlinux_path_fn(s, h, sc, "ip_sublist_rcv");
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
		ssp_synlinux_path_fnx(s, h, sc, "i40e_update_itr", A_NONE)->cond = s->real;
		ssp_synlinux_path_fnx(s, h, sc, "i40e_update_itr", A_NONE)->cond = s->real;
		mmio_step(s, h, sc, "i40e_napi_poll", I40E_PFINT_DYN_CTLN +
		    4 * c->idx, 0x1b, NULL)->cond = s->real;
	}
	act(s, sc, A_POLL_END, NULL, k == budget && c->rxn > 0);
}

/* A hardirq: MSI-X (device) or a reschedule IPI. */
void
ssp_synlinux_path_build_irq(struct syn *s, struct host *h, struct script *sc, int dev,
    int from_user)
{
	static const char *const devp[] = { "common_interrupt",
	    "irqentry_enter", "irq_enter_rcu", "__common_interrupt",
	    "handle_edge_irq", "irq_chip_ack_parent", "apic_ack_edge",
	    "handle_irq_event", "__handle_irq_event_percpu",
	    "i40e_msix_clean_rings", NULL };

	ssp_synlinux_path_script_reset(sc);
	ssp_synlinux_path_fnx(s, h, sc, dev ? "asm_common_interrupt" : "asm_sysvec_reschedule_ipi",
	    A_IRQ_OPEN);
	ssp_synlinux_path_fn(s, h, sc, "error_entry");
	if (from_user)
		ssp_synlinux_path_fn(s, h, sc, "sync_regs");
	if (dev) {
		fns(s, h, sc, devp);
		ssp_synlinux_path_fnx(s, h, sc, "napi_schedule_prep", A_NAPI_PREP);
		ssp_synlinux_path_fn(s, h, sc, "add_interrupt_randomness");
		ssp_synlinux_path_fn(s, h, sc, "irq_exit_rcu");
		act(s, sc, A_IRQ_EXIT, NULL, 0);
	} else {
		ssp_synlinux_path_fn(s, h, sc, "sysvec_reschedule_ipi");
		ssp_synlinux_path_fnx(s, h, sc, "irqentry_enter", A_IPI_RESCHED);
	}
	ssp_synlinux_path_fn(s, h, sc, "irqentry_exit");
	if (from_user) {
		ssp_synlinux_path_fn(s, h, sc, "irqentry_exit_to_user_mode");
		ssp_synlinux_path_fn(s, h, sc, "exit_to_user_mode_prepare");
		act(s, sc, A_RESCHED_USER, NULL, 0);
	}
	ssp_synlinux_path_fn(s, h, sc, "error_return");
	if (from_user) {
		ssp_synlinux_path_fn(s, h, sc, "swapgs_restore_regs_and_return_to_usermode");
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
		ssp_synlinux_path_rq_push(c, prev);
	c->cur = next;
	next->st = TS_RUN;
	c->depth = 1;
	c->fr[0] = (struct frame){ FK_TASK, &next->sc, 0, 0, 0 };
	cont_build(s, h, c, next, 1);
}

/* --- actions ------------------------------------------------------------ */

uint64_t
ssp_synlinux_path_ctx_span(struct lcpu *c)
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

	ssp_synlinux_path_fn(s, h, sc, "select_task_rq_fair");
	th->waker = ssp_synlinux_path_ctx_span(c);
	th->woken = 1;
	if (tc->cur == th) {	/* still on its CPU, not switched out yet */
		th->st = TS_RUN;
		th->early = 1;
		return;
	}
	th->st = TS_RUNNABLE;
	L->nwoken++;
	ssp_synlinux_path_rq_push(tc, th);
	ssp_synlinux_path_fn(s, h, sc, "enqueue_task_fair");
	ssp_synlinux_path_fn(s, h, sc, "check_preempt_curr");
	ssp_synlinux_path_fn(s, h, sc, "check_preempt_wakeup");
	ssp_synlinux_path_fn(s, h, sc, "resched_curr");
	if (tc == c) {
		c->need_resched = 1;
	} else {
		ssp_synlinux_path_fn(s, h, sc, "native_smp_send_reschedule");
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
		ssp_synlinux_path_fn(s, h, sc, "arp_rcv");
		ssp_synlinux_path_fn(s, h, sc, "arp_process");
		ssp_synlinux_path_fn(s, h, sc, "consume_skb");
		return;
	}
	fns(s, h, sc, ipl);
	if (r->kind == PK_BG_UDP || r->kind == PK_BG_TCP || r->kind == PK_BG_ACK ||
	    r->conn >= W->nconn) {	/* no socket: port unreachable */
		ssp_synlinux_path_fn(s, h, sc, "udp_rcv");
		ssp_synlinux_path_fn(s, h, sc, "__udp4_lib_rcv");
		ssp_synlinux_path_fn(s, h, sc, "__udp4_lib_lookup");
		ssp_synlinux_path_fn(s, h, sc, "__icmp_send");
		ssp_synlinux_path_fn(s, h, sc, "icmp_global_allow");
		ssp_synlinux_path_fn(s, h, sc, "kfree_skb");
		return;
	}
	cn = &W->conns[r->conn];
	sk = r->to_server ? &cn->ss : &cn->cs;
	if (r->proto == 17) {
		fns(s, h, sc, udp);
	} else {
		fns(s, h, sc, tcpl);
		if (!data) {		/* a pure ACK */
			ssp_synlinux_path_fn(s, h, sc, "tcp_ack");
			ssp_synlinux_path_fn(s, h, sc, "__kfree_skb");
			return;
		}
		ssp_synlinux_path_fn(s, h, sc, "tcp_data_queue");
		ssp_synlinux_path_fn(s, h, sc, "tcp_data_ready");
	}
	if (sk->n < LX_SKQ) {
		sk->q[(sk->h + sk->n) % LX_SKQ] = (struct lskb){ r->span,
		    r->bytes, r->segs, r->req_end, r->kind };
		sk->n++;
	}
	ssp_synlinux_path_fn(s, h, sc, "sock_def_readable");
	if ((th = sk->waiter) != NULL) {
		sk->waiter = NULL;
		ssp_synlinux_path_fn(s, h, sc, "__wake_up_sync_key");
		ssp_synlinux_path_fn(s, h, sc, "__wake_up_common_lock");
		ssp_synlinux_path_fn(s, h, sc, "__wake_up_common");
		if (r->proto == 17) {
			ssp_synlinux_path_fn(s, h, sc, "receiver_wake_function");
			ssp_synlinux_path_fn(s, h, sc, "autoremove_wake_function");
		} else {
			ssp_synlinux_path_fn(s, h, sc, "woken_wake_function");
		}
		ssp_synlinux_path_fn(s, h, sc, "default_wake_function");
		ssp_synlinux_path_fnx(s, h, sc, "try_to_wake_up", A_WAKE)->p = th;
	}
	if (r->proto == 6) {
		int now;

		sk->unacked += r->segs;
		now = s->p->flow == SSP_SYN_FLOW_TCP_STREAM ? sk->unacked >= 2 :
		    sk->quick > 0;
		ssp_synlinux_path_fn(s, h, sc, "__tcp_ack_snd_check");
		if (now) {
			if (sk->quick > 0)
				sk->quick--;
			sk->unacked = 0;
			ack_path(s, h, c, sc, cn, r->to_server);
		} else {
			ssp_synlinux_path_fn(s, h, sc, "tcp_send_delayed_ack");
			ssp_synlinux_path_fn(s, h, sc, "sk_reset_timer");
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
			ssp_synlinux_path_fn(s, h, sc, "sk_wait_data");
			ssp_synlinux_path_fnx(s, h, sc, "release_sock", A_NONE);
			ssp_synlinux_path_fnx(s, h, sc, "wait_woken", A_BLOCK)->p = th;
		} else {
			ssp_synlinux_path_fn(s, h, sc, "__skb_wait_for_more_packets");
			ssp_synlinux_path_fnx(s, h, sc, "prepare_to_wait_exclusive", A_BLOCK)->p = th;
		}
		ssp_synlinux_path_fn(s, h, sc, "schedule_timeout");
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
	ssp_synlinux_path_fn(s, h, sc, "exit_to_user_mode_loop");
	sched_path(s, h, sc, "schedule");
	th->cont = cont;
	act(s, sc, A_SWITCH, th, 0);
}

int
ssp_synlinux_path_run_act(struct syn *s, struct host *h, struct lcpu *c, struct lstep *st,
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
			ssp_synlinux_path_sys_row(s, h, th);
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
			id = ssp_synlinux_path_span(s, h, SSP_SYNTRUTH_K_RESUME, t, key, th->waker,
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

		f->span = ssp_synlinux_path_span(s, h, SSP_SYNTRUTH_K_IRQ, t, key, parent, 0);
		break;
	}
	case A_NAPI_PREP:
		if (c->napi_sched && s->real) {
			/* napi_schedule_prep on a scheduled NAPI: MISSED,
			 * the poll runs once more */
			c->napi_missed = 1;
		} else if (!c->napi_sched) {
			c->napi_sched = 1;
			ssp_synlinux_path_fn(s, h, sc, "__napi_schedule_irqoff");
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
		ssp_synlinux_path_script_reset(&c->isc[c->depth]);
		c->fr[c->depth] = (struct frame){ FK_SIRQ, &c->isc[c->depth], 0,
		    c->sirq_raiser, 0 };
		c->depth++;
		ssp_synlinux_path_fnx(s, h, &c->isc[c->depth - 1], "__do_softirq", A_SIRQ_OPEN);
		break;
	}
	case A_SIRQ_OPEN:
		f->span = ssp_synlinux_path_span(s, h, SSP_SYNTRUTH_K_SOFTIRQ, t, key,
		    f->parent_irq, 0);
		c->sirq_pending = 0;
		c->sirq_raiser = 0;
		c->restarts = 0;
		ssp_synlinux_path_build_poll(s, h, c, sc);
		break;
	case A_KSIRQ_OPEN: {
		uint64_t id = ssp_synlinux_path_span(s, h, SSP_SYNTRUTH_K_SOFTIRQ, t, key,
		    c->ksirq_parent, 0);

		c->cur->ctx = id;
		c->sirq_pending = 0;
		c->sirq_raiser = 0;
		ssp_synlinux_path_fn(s, h, sc, "__do_softirq");
		ssp_synlinux_path_build_poll(s, h, c, sc);
		break;
	}
	case A_NAPI_DONE:
		c->napi_repoll = 0;
		if (c->napi_missed) {	/* --print real: reschedule, return false */
			c->napi_missed = 0;
			c->napi_repoll = 1;
			c->sirq_pending = 1;
			ssp_synlinux_path_fn(s, h, sc, "__napi_schedule");
			break;
		}
		c->napi_sched = 0;
		break;
	case A_POLL_END:
		if (st->arg) {		/* budget used up, work left */
			ssp_synlinux_path_fn(s, h, sc, "__raise_softirq_irqoff");
			if (c->cur == &c->ksirqd && f->kind == FK_TASK) {
				ssp_synlinux_path_fnx(s, h, sc, "run_ksoftirqd", A_NONE);
				ssp_synlinux_path_fn(s, h, sc, "__do_softirq");
				ssp_synlinux_path_build_poll(s, h, c, sc);
			} else if (!c->need_resched && ++c->restarts < 10) {
				ssp_synlinux_path_build_poll(s, h, c, sc);
			} else {
				ssp_synlinux_path_fnx(s, h, sc, "wakeup_softirqd", A_WAKE_KSIRQ)->val =
				    f->parent_irq;
			}
		} else if (c->cur == &c->ksirqd && f->kind == FK_TASK &&
		    c->sirq_pending) {	/* raised meanwhile: once more */
			c->sirq_pending = 0;
			c->sirq_raiser = 0;
			ssp_synlinux_path_fnx(s, h, sc, "run_ksoftirqd", A_NONE);
			ssp_synlinux_path_fn(s, h, sc, "__do_softirq");
			ssp_synlinux_path_build_poll(s, h, c, sc);
		} else if (c->cur == &c->ksirqd && f->kind == FK_TASK) {
			/* ksoftirqd is done: back to sleep */
			c->ksirq_woken = 0;
			c->cur->ctx = 0;
			ssp_synlinux_path_fn(s, h, sc, "smpboot_thread_fn");
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
			ssp_synlinux_path_rq_push(c, &c->ksirqd);
			c->need_resched = 1;
			ssp_synlinux_path_fn(s, h, sc, "wake_up_process");
			ssp_synlinux_path_fn(s, h, sc, "try_to_wake_up");
			ssp_synlinux_path_fn(s, h, sc, "enqueue_task_fair");
			ssp_synlinux_path_fn(s, h, sc, "check_preempt_curr");
			ssp_synlinux_path_fn(s, h, sc, "resched_curr");
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
		    h->idx, st->arg | ssp_synlinux_path_ctx_span(c) << 8, NULL);
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
			ssp_synlinux_path_fn(s, h, sc, "default_idle_call");
			ssp_synlinux_path_fn(s, h, sc, "arch_cpu_idle");
			ssp_synlinux_path_fn(s, h, sc, "default_idle");
			ssp_synlinux_path_fn(s, h, sc, "native_safe_halt");
			put(s, sc)->op = LO_HALT;
			act(s, sc, A_IDLE_CHECK, NULL, 0);
		}
		break;
	}
	return 0;
}
