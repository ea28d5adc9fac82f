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

#include "synth/synlinux_int.h"

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
	ssp_synlinux_path_build_irq(s, h, sc, p.dev, from_user);
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
	sp = ssp_synlinux_path_span(s, h, SSP_SK_HOST_MMIO, t, key, ssp_synlinux_path_ctx_span(c), 0);
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
	*m = (struct nic_mmio){ ssp_synlinux_path_ctx_span(c), 1, st->posted, st->off, 4, val, 0,
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

	ssp_synlinux_path_mfill(L, t);
	m->id = ssp_synheap_alloc(&L->ids, 0, 0x30, 0);	/* new TimingPioCompl */
	ssp_syngem5_mmio(&c->g, t, m->write, BAR0_BASE + m->off, 4, m->id, 0,
	    m->off, m->posted);
	snprintf(key, sizeof(key), "%" PRIu64, m->id);
	m->span = ssp_synlinux_path_span(s, h, SSP_SK_HOST_MMIO, t, key, m->span, 0);
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

	ssp_synlinux_path_mfill(L, t);
	ssp_syngem5_insn(&c->g, c->io_t0, c->io_pc, 'w', c->io_ea);
	c->g.step_fp = c->io_saved;
	if (c->g.next_fp < (uint64_t)t << 8)
		c->g.next_fp = (uint64_t)t << 8;
	c->blocked = 0;
	ssp_synlinux_path_kick(s, L, c, t + c->io_dur);
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
					ssp_synlinux_path_build_poll(s, h, c, sc);
				} else {
					ssp_synlinux_path_fnx(s, h, sc, "wakeup_softirqd",
					    A_WAKE_KSIRQ)->val = c->sirq_raiser;
				}
				continue;
			}
			if (f->kind != FK_TASK) {
				c->depth--;
				continue;
			}
			if (c->cur == &c->idle) {
				ssp_synlinux_path_script_reset(sc);
				ssp_synlinux_path_idle_loop(s, c);
			} else if (c->cur->role == TR_KSIRQD) {
				fail(s, "ksoftirqd ran out of script");
				return;
			} else {
				ssp_synlinux_path_app_next(s, h, c->cur);
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
			ssp_synlinux_path_kick(s, L, c, L->last_sys + 125);
			return;
		}
		sc->pc++;
		sc->cur = sc->pc;
		dur = st->dur;
		switch (st->op) {
		case LO_FUNC:
			ssp_synlinux_path_mfill(L, t);
			c->g.user = 0;
			ssp_syngem5_func(&c->g, t, st->fn->addr);
			c->last_fn = st->fn;
			if (st->act != A_NONE)
				ssp_synlinux_path_run_act(s, h, c, st, t);
			break;
		case LO_UFUNC:
			ssp_synlinux_path_mfill(L, t);
			c->g.user = 1;
			ssp_syngem5_func(&c->g, t, st->pc);
			if (st->arg == APP_REQUEST) {	/* a request begins */
				char key[16];

				snprintf(key, sizeof(key), "%u", c->idx);
				c->app = c->cur->app = ssp_synlinux_path_span(s, h, SSP_SK_HOST_APP,
				    t, key, 0, 0);
			}
			break;
		case LO_UPC:
			ssp_synlinux_path_mfill(L, t);
			c->g.user = 1;
			ssp_syngem5_insn(&c->g, t, st->pc, 0, 0);
			break;
		case LO_MMIO:
			ssp_synlinux_path_mfill(L, t);
			if (s->real) {
				run_mmio_real(s, h, c, st, t);
				return;
			}
			run_mmio(s, h, c, st, t);
			if (c->blocked)
				return;
			break;
		case LO_ACT:
			ssp_synlinux_path_run_act(s, h, c, st, t);
			continue;
		case LO_LABEL:
			ssp_synlinux_path_mfill(L, t);
			ssp_syngem5_push_imm_at(&c->g, t, s->lbl_safe_stack->addr, 0);
			break;
		case LO_HALT:
			/* default_idle_call halts only when nothing is due */
			if (c->need_resched || c->rqn > 0 || c->npend > 0)
				break;
			ssp_synlinux_path_halt(c);
			return;
		}
		if (dur > 0) {
			ssp_synlinux_path_kick(s, L, c, t + dur);
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
		ssp_synlinux_path_interrupt(s, L, &L->cpu[ev->a & 0xff], t, 0, ev->a >> 8);
		break;
	case EV_LX_IO_REQ:
		io_req(s, h, ev->p, t);
		break;
	case EV_LX_IO_RESP:
		io_resp(s, h, &L->cpu[ev->a], t);
		break;
	case EV_LX_MSIX: {
		unsigned vec = ev->who >> 16;

		ssp_synlinux_path_mfill(L, t);
		ssp_syngem5_procin(&L->cpu[0].g, t);
		ssp_syngem5_msix(&L->cpu[0].g, t, vec);
		snprintf(key, sizeof(key), "%u", vec);
		ssp_synmodel_schedule(s, t + mem_latency(4), EV_LX_MSIX_DONE,
		    ev->who, ssp_synlinux_path_span(s, h, SSP_SK_HOST_MSIX, t, key, ev->a, 0), NULL);
		break;
	}
	case EV_LX_MSIX_DONE: {
		unsigned vec = ev->who >> 16;

		ssp_synlinux_path_mfill(L, t);
		ssp_syngem5_dma_done(&L->cpu[0].g, t, 0);
		ssp_synlinux_path_interrupt(s, L, &L->cpu[(vec - 1) % L->ncpu], t, 1, ev->a);
		break;
	}
	case EV_LX_MMIO_DONE: {
		struct nic_mmio *m = ev->p;
		struct lcpu *c = &L->cpu[m->cpu];

		ssp_synlinux_path_mfill(L, t);
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
			ssp_synlinux_path_kick(s, L, c, t + c->wait_dur);
		}
		break;
	}
	case EV_HOST_SYNC:
		if (s->ending && t > s->end)
			break;
		ssp_synlinux_path_mfill(L, t);
		if (t == 0)
			ssp_syngem5_constructed(&L->cpu[0].g, 0);
		ssp_syngem5_sync(&L->cpu[0].g, t, t);
		ssp_syngem5_procin(&L->cpu[0].g, t == 0 ? 1 : t);
		ssp_synmodel_schedule(s, t + s->p->sync_interval, EV_HOST_SYNC,
		    h->idx, 0, NULL);
		break;
	case EV_HOST_DMA: {
		struct dmaop *op = ev->p;

		ssp_synlinux_path_mfill(L, t);
		ssp_syngem5_procin(&L->cpu[0].g, t);
		ssp_syngem5_dma(&L->cpu[0].g, t, op->write, op->ptr, op->addr,
		    op->len);
		snprintf(key, sizeof(key), "%" PRIu64, op->ptr);
		ssp_synlinux_path_span(s, h, SSP_SK_HOST_DMA, t, key, op->span, 0);
		ssp_synmodel_schedule(s, t + mem_latency(op->len), EV_HOST_DMA_DONE,
		    h->idx, 0, op);
		break;
	}
	case EV_HOST_DMA_DONE: {
		struct dmaop *op = ev->p;

		ssp_synlinux_path_mfill(L, t);
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

	if (th == NULL || ssp_synlinux_path_script_init(&th->sc) != 0 || L->nthr == LX_THR) {
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
				if (ssp_synlinux_path_script_init(&c->isc[d]) != 0)
					return SSP_ERR_NOMEM;
			if (ssp_synlinux_path_script_init(&c->idle.sc) != 0 ||
			    ssp_synlinux_path_script_init(&c->ksirqd.sc) != 0)
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

			ssp_synlinux_path_rq_push(c, th);
			c->need_resched = 1;
		}
		for (k = 0; k < L->ncpu; k++) {
			struct lcpu *c = &L->cpu[k];
			int64_t t = tick_round(s->t0 / 2 + (s->hosts[i].server ? 0 :
			    20 * US) + (int64_t)ssp_synrng_below(&s->hosts[i].rng,
			    2000) * NS);

			/* the CPU shows up at t in do_idle's loop */
			ssp_synlinux_path_script_reset(&c->idle.sc);
			ssp_synlinux_path_fn(s, &s->hosts[i], &c->idle.sc, "do_idle");
			ssp_synlinux_path_idle_loop(s, c);
			if (c->g.next_fp < (uint64_t)t << 8)
				c->g.next_fp = (uint64_t)t << 8;
			ssp_synlinux_path_kick(s, L, c, t);
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
	ssp_synlinux_path_mfill(L, t);
	ssp_syngem5_sync(&L->cpu[0].g, t, t);
	for (k = 0; k < L->nthr; k++)
		if (L->thr[k]->in_sys)
			ssp_synlinux_path_sys_row(s, h, L->thr[k]);
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
