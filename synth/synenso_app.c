/*
 * simsynth --nic enso's host side (synenso_int.h): Ensō's userspace
 * library on a QEMU host, as crossroadsfpga/enso simbricks-24.04 runs it
 * (software/src/pcie.cpp: notification_buf_init, enso_pipe_init,
 * __get_new_tails, __consume_queue, advance_pipe, __send_to_queue,
 * update_tx_head, send_config; pipe.cpp and pipe.h: RxTxPipe's PeekPkts,
 * SendAndFree, ProcessCompletions; examples/echo.cpp and ensogen.cpp's
 * single-core loop), printing through QEMU's simbricks-pci
 * (synqemu.h).  The library polls host memory, which prints nothing: what
 * it finds there is what the NIC's DMA writes put, as QEMU serves them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synenso_int.h"

static int64_t
react(struct host *h)
{
	/* a busy loop notices a memory write within an iteration or two */
	return 80 * NS + (int64_t)ssp_synrng_below(&h->rng, 240) * NS;
}

#define MMIO_COST (45 * NS)	/* a trapped access in QEMU */

/* DevBackend::mmio_write32/read32 through simbricks-pci: the line, the
 * host.mmio span (a root by the rules: real cause `cause`), the message. */
static void
app_mmio(struct syn *s, struct host *h, int64_t t, int write, uint32_t off,
    uint32_t val, uint64_t cause)
{
	struct nic_mmio *m;
	char key[32];
	uint64_t span;

	snprintf(key, sizeof(key), "%" PRIu64, ssp_synqemu_mmio(h->qemu, t,
	    write, off, 4, val));
	span = ssp_synmodel_span(s, h->stream, SSP_SK_HOST_MMIO, t, key, cause, 0);
	if ((m = calloc(1, sizeof(*m))) == NULL) {
		ssp_synenso_fail(s, SSP_ERR_NOMEM, "out of memory", h->name);
		return;
	}
	*m = (struct nic_mmio){ span, write, 0, off, 4, val, 0, NULL, 0 };
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_NIC_MMIO, h->idx, 0, m);
}

static void
app_wake(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	int64_t at = t + react(h);

	if (a->sched || a->blocked)
		return;
	if (at < a->busy)
		at = a->busy;
	a->sched = 1;
	ssp_synmodel_schedule(s, at, EV_ENSO_APP, h->idx, 0, NULL);
}

/* __send_to_queue: TX notifications for [addr, addr + len) (split at
 * kMaxTransferLen and at the huge page's end, where the address wraps
 * to the page's start), then the TX tail register. */
static int64_t
send_to_queue(struct syn *s, struct host *h, int64_t t, uint64_t addr,
    uint32_t len, struct pkt **pk, unsigned npk, uint64_t cause)
{
	struct app *a = &h->nic->enso->app;
	uint64_t base = addr & ~((uint64_t)HUGEPAGE - 1), xa = addr;
	uint32_t missing = len;

	while (missing > 0) {
		uint32_t req = missing < MAX_XFER ? missing : MAX_XFER;
		uint32_t inpage = (uint32_t)(base + HUGEPAGE - xa);
		struct txn *tn;

		if (((a->txhead - a->txtail - 1) % NOTIF_SLOTS) == 0 ||
		    ((a->txtail - a->txhead) % NOTIF_SLOTS) >= WIN - 1) {
			ssp_synenso_fail(s, SSP_ERR_LIMIT, "TX notification buffer full",
			    h->name);
			return t;
		}
		if (req > inpage)
			req = inpage;
		tn = &a->slot[a->txtail % WIN];
		*tn = (struct txn){ 1, xa, req, 0, missing > req, NULL, 0 };
		if (missing == req) {	/* the packets go with the last part */
			tn->pk = pk;
			tn->npk = npk;
		}
		xa = base + (xa + req) % HUGEPAGE;
		a->txtail = (a->txtail + 1) % NOTIF_SLOTS;
		missing -= req;
	}
	app_mmio(s, h, t, 1, NOTIF_REGS + R_TX_TAIL, a->txtail, cause);
	return t + MMIO_COST;
}

/* send_config: one configuration notification and the tail. */
static void
send_config(struct syn *s, struct host *h, int64_t t, unsigned cfg)
{
	struct app *a = &h->nic->enso->app;

	a->slot[a->txtail % WIN] = (struct txn){ 2, 0, 64, cfg, 0, NULL, 0 };
	a->txtail = (a->txtail + 1) % NOTIF_SLOTS;
	app_mmio(s, h, t, 1, NOTIF_REGS + R_TX_TAIL, a->txtail, 0);
}

/* update_tx_head: notifications the NIC has written back (signal 0), up
 * to a batch; returns the completions to report (a split transfer's
 * first part is none). */
static unsigned
tx_head(struct app *a)
{
	unsigned i, done = 0;

	for (i = 0; i < BATCH && a->txhead != a->txtail; i++) {
		struct txn *tn = &a->slot[a->txhead % WIN];

		if (tn->signal != 0)
			break;
		if (!tn->split && tn->cfg == 0)
			done++;
		a->txhead = (a->txhead + 1) % NOTIF_SLOTS;
	}
	return done;
}

/* __get_new_tails: up to a batch of notifications; their pipe's tail;
 * the buffer's head written back.  Returns how many, the host.dma of the
 * first in *cause. */
static unsigned
new_tails(struct syn *s, struct host *h, int64_t *t, uint64_t *cause)
{
	struct app *a = &h->nic->enso->app;
	unsigned k;

	for (k = 0; k < BATCH && a->llen > 0; k++) {
		struct landed *l = &a->land[a->lhead];

		if (k == 0)
			*cause = l->span;
		a->pend = l->tail;
		a->pend_span = l->span;
		a->lhead = (a->lhead + 1) % LANDQ;
		a->llen--;
		a->nhead = (a->nhead + 1) % NOTIF_SLOTS;
	}
	if (k > 0) {
		app_mmio(s, h, *t, 1, NOTIF_REGS + R_RX_HEAD, a->nhead, *cause);
		*t += MMIO_COST;
	}
	return k;
}

/* The packets between the consumed tail and the notified one. */
static unsigned
take_batch(struct syn *s, struct host *h, struct pkt ***out, uint32_t *bytes)
{
	struct app *a = &h->nic->enso->app;
	uint32_t flits = (a->pend - a->ptail) % PIPE_FLITS, got = 0;
	struct pkt **v = NULL;
	unsigned npk = 0;

	if (flits > 0 && (v = malloc(a->ilen * sizeof(*v) + 1)) == NULL) {
		ssp_synenso_fail(s, SSP_ERR_NOMEM, "out of memory", h->name);
		return 0;
	}
	while (got < flits && a->ilen > 0) {
		struct inpipe *ip = &a->in[a->ihead];

		got += ip->flits;
		v[npk++] = ip->pk;
		a->ihead = (a->ihead + 1) % PIPEQ;
		a->ilen--;
	}
	a->ptail = a->pend;
	*bytes = 64 * flits;
	*out = v;
	return npk;
}

/* echo.cpp's loop, one PeekPkts (ProcessCompletions first) and the
 * SendAndFree of what it got. */
static int64_t
echo_iter(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	uint64_t cause = 0;
	uint32_t freed = 0, bytes, start = a->ptail;
	struct pkt **v;
	unsigned i, done = tx_head(a), npk;

	for (i = 0; i < done && a->ptlen > 0; i++) {	/* NotifyCompletion */
		freed += a->pending_tx[a->pthead];
		a->pthead = (a->pthead + 1) % WIN;
		a->ptlen--;
	}
	if (freed > 0) {	/* the RX pipe gets the space back: advance_pipe */
		a->phead = (a->phead + (freed - 1) / 64 + 1) % PIPE_FLITS;
		app_mmio(s, h, t, 1, R_RX_HEAD, a->phead, a->compl_span);
		t += MMIO_COST;
	}
	new_tails(s, h, &t, &cause);
	npk = take_batch(s, h, &v, &bytes);
	if (npk == 0) {
		free(v);
		return t;
	}
	for (i = 0; i < npk; i++) {	/* ++pkt[63]: the same frame back */
		struct pkt *pk = ssp_synmodel_pkt_new(s, PK_RESP);

		if (pk == NULL)
			break;
		*pk = *v[i];
		pk->kind = v[i]->kind == PK_REQ ? PK_RESP : v[i]->kind;
		pk->refs = 1;
		pk->tx_span = 0;
		ssp_synmodel_pkt_put(v[i]);
		v[i] = pk;
		t += 10 * NS;
	}
	if (a->ptlen == WIN) {
		ssp_synenso_fail(s, SSP_ERR_LIMIT, "more than 512 transfers pending", h->name);
		return t;
	}
	a->pending_tx[(a->pthead + a->ptlen++) % WIN] = bytes;
	return send_to_queue(s, h, t, a->pbuf + 64ull * start, bytes, v, npk,
	    a->pend_span);
}

/* EnsoGen's request whose echo this is: one fewer to wait for. */
static void
echo_seen(struct syn *s, struct host *h, const struct pkt *pk, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	unsigned i;

	if (pk->kind != PK_RESP || pk->src_host != (int)h->idx)
		return;
	for (i = 0; i < a->nout; i++)
		if (a->out[i].req == pk->req) {
			if (--a->out[i].left == 0) {
				ssp_synmodel_request_done(s, pk->req, t);
				a->out[i] = a->out[--a->nout];
			}
			return;
		}
}

/* ensogen.cpp single core: receive_pkts (recv_select, free_enso_pipe),
 * then transmit_pkts. */
static int64_t
gen_iter(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	uint64_t cause = 0;
	uint32_t bytes;
	struct pkt **v;
	unsigned i, npk;

	if (a->ids == 0)
		a->ids += new_tails(s, h, &t, &cause);
	if (a->ids > 0) {
		a->ids--;
		npk = take_batch(s, h, &v, &bytes);
		for (i = 0; i < npk; i++) {
			echo_seen(s, h, v[i], t);
			ssp_synmodel_pkt_put(v[i]);
		}
		free(v);
		if (bytes > 0) {	/* advance_pipe */
			a->phead = (a->phead + (bytes - 1) / 64 + 1) % PIPE_FLITS;
			app_mmio(s, h, t, 1, R_RX_HEAD, a->phead, a->pend_span);
			t += MMIO_COST;
		}
	}
	/* transmit_pkts reclaims notifications once many are pending (its
	 * update_tx_head reads memory only: no line) */
	if ((a->txtail - a->txhead) % NOTIF_SLOTS > WIN / 2)
		tx_head(a);
	if (a->sqlen > 0) {
		struct pkt **pk = a->sendq[a->sqhead];
		unsigned n = a->sqn[a->sqhead], len = 0;

		a->sqhead = (a->sqhead + 1) % SENDQ;
		a->sqlen--;
		for (i = 0; i < n; i++)
			len += ssp_synenso_aligned(pk[i]->frame);
		/* the pcap's packets, copied cache-aligned into a buffer
		 * after the RX pipe in its huge page's neighbour */
		t = send_to_queue(s, h, t, a->pbuf + HUGEPAGE, len, pk, n, 0);
	}
	return t;
}

/* The setup of echo.cpp / ensogen.cpp, in order: notification_buf_init,
 * enso_pipe_init (whose update_fallback_queues_config is a
 * configuration), then Bind (echo) or the rate limit and round robin
 * (EnsoGen). */
static void
script(struct app *a)
{
	const uint32_t N = NOTIF_REGS;
	uint64_t tx = a->nbuf + HUGEPAGE / 2;
	struct astep st[] = {
		{ 'W', N + R_RX_LO, 0, 0 }, { 'W', N + R_RX_HI, 0, 0 },
		{ 'R', N + R_RX_LO, 0, 0 }, { 'R', N + R_RX_HI, 0, 0 },
		{ 'W', N + R_RX_TAIL, 0, 0 }, { 'R', N + R_RX_TAIL, 0, 0 },
		{ 'W', N + R_RX_HEAD, 0, 0 }, { 'R', N + R_RX_HEAD, 0, 0 },
		{ 'R', N + R_RX_HEAD, 0, 0 }, { 'R', N + R_TX_TAIL, 0, 0 },
		{ 'W', N + R_TX_HEAD, 0, 0 },
		{ 'W', N + R_RX_LO, (uint32_t)a->nbuf, 0 },
		{ 'W', N + R_RX_HI, (uint32_t)(a->nbuf >> 32), 0 },
		{ 'W', N + R_TX_LO, (uint32_t)tx, 0 },
		{ 'W', N + R_TX_HI, (uint32_t)(tx >> 32), 0 },
		{ 'W', R_RX_LO, 0, 0 }, { 'W', R_RX_HI, 0, 0 },
		{ 'R', R_RX_LO, 0, 0 }, { 'R', R_RX_HI, 0, 0 },
		{ 'W', R_RX_TAIL, 0, 0 }, { 'R', R_RX_TAIL, 0, 0 },
		{ 'W', R_RX_HEAD, 0, 0 }, { 'R', R_RX_HEAD, 0, 0 },
		{ 'W', R_RX_LO, (uint32_t)a->pbuf + 0 /* + buffer id 0 */, 0 },
		{ 'W', R_RX_HI, (uint32_t)(a->pbuf >> 32), 0 },
		{ 'C', 0, 0, CFG_FALLBACK },
	};
	unsigned i;

	a->nscript = 0;
	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++)
		a->script[a->nscript++] = st[i];
	if (a->client) {
		a->script[a->nscript++] = (struct astep){ 'C', 0, 0, CFG_RATE };
		a->script[a->nscript++] = (struct astep){ 'C', 0, 0, CFG_FALLBACK };
	} else {
		a->script[a->nscript++] = (struct astep){ 'C', 0, 0, CFG_FLOW };
	}
}

/* The next setup step; 1 while the setup goes on. */
static int
setup_step(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;
	const struct astep *st;

	if (a->pc == a->nscript) {
		a->ready = 1;
		return 0;
	}
	st = &a->script[a->pc++];
	if (st->op == 'C') {
		send_config(s, h, t, st->cfg);
		a->blocked = 1;		/* until its completion is written */
		return 1;
	}
	app_mmio(s, h, t, st->op == 'W', st->off, st->val, 0);
	if (st->op == 'R') {
		a->blocked = 1;		/* QEMU waits for a read */
		return 1;
	}
	a->sched = 1;
	ssp_synmodel_schedule(s, t + MMIO_COST, EV_ENSO_APP, h->idx, 0, NULL);
	return 1;
}

static void
app_run(struct syn *s, struct host *h, int64_t t)
{
	struct app *a = &h->nic->enso->app;

	a->sched = 0;
	if (!a->ready && setup_step(s, h, t))
		return;
	if (!a->ready)
		return;
	t = a->client ? gen_iter(s, h, t) : echo_iter(s, h, t);
	a->busy = t;
	/* more left than one iteration takes */
	if (a->llen > 0 || a->ids > 0 || a->sqlen > 0) {
		a->sched = 1;
		ssp_synmodel_schedule(s, t + 20 * NS, EV_ENSO_APP, h->idx, 0,
		    NULL);
	}
}

/* QEMU serves a DMA: the line, the host.dma span, and for a write what
 * it puts into memory, which the polling application finds. */
static void
host_dma(struct syn *s, struct host *h, int64_t t, struct dmaop *op)
{
	struct app *a = &h->nic->enso->app;
	char key[32];
	uint64_t span;

	snprintf(key, sizeof(key), "%" PRIu64, ssp_synqemu_dma(h->qemu, t,
	    op->write));
	span = ssp_synmodel_span(s, h->stream, SSP_SK_HOST_DMA, t, key, op->span,
	    op->span);
	ssp_synmodel_schedule(s, t + 15 * NS + (int64_t)op->len * 125 / 2,
	    EV_HOST_DMA_DONE, h->idx, 0, op);
	if (!op->write)
		return;
	switch (op->q) {
	case W_DATA:
		if (a->ilen == PIPEQ) {
			ssp_synenso_fail(s, SSP_ERR_LIMIT, "more than 4096 packets in a pipe",
			    h->name);
			return;
		}
		a->in[(a->ihead + a->ilen++) % PIPEQ] = (struct inpipe){ op->pk,
		    op->pos };
		op->pk = NULL;
		return;
	case W_NOTIF:
		if (a->llen == LANDQ) {
			ssp_synenso_fail(s, SSP_ERR_LIMIT, "more than 1024 notifications "
			    "unread", h->name);
			return;
		}
		a->land[(a->lhead + a->llen++) % LANDQ] = (struct landed){ op->pos,
		    span };
		break;
	case W_COMPL:
		a->slot[op->pos % WIN].signal = 0;
		a->compl_span = span;
		if (!a->ready && a->blocked) {	/* send_config's wait */
			a->blocked = 0;
			app_wake(s, h, t);
			return;
		}
		break;
	}
	if (a->ready)
		app_wake(s, h, t);
}

void
ssp_synenso_app_event(struct syn *s, const struct sev *ev)
{
	struct host *h = &s->hosts[ev->who];
	struct nic *n = &s->nics[ev->who];

	switch (ev->type) {
	case EV_HOST_SYNC:
		if (s->ending && ev->t > s->end)
			break;
		ssp_synqemu_sync(h->qemu, ev->t);
		ssp_synmodel_schedule(s, ev->t + s->p->sync_interval, EV_HOST_SYNC,
		    h->idx, 0, NULL);
		break;
	case EV_HOST_MMIO_DONE: {
		struct nic_mmio *m = ev->p;
		struct app *a = &n->enso->app;
		int read = !m->write;

		ssp_synqemu_mmio_done(h->qemu, ev->t, m->write, m->off, m->len,
		    m->val);
		free(m);
		if (read && a->blocked) {	/* the vCPU goes on */
			a->blocked = 0;
			a->sched = 1;
			ssp_synmodel_schedule(s, ev->t + MMIO_COST, EV_ENSO_APP,
			    h->idx, 0, NULL);
		}
		break;
	}
	case EV_HOST_DMA:
		host_dma(s, h, ev->t, ev->p);
		break;
	case EV_HOST_DMA_DONE:
		ssp_synmodel_schedule(s, ev->t + s->p->pcie_lat, EV_NIC_DMA_DONE,
		    h->idx, 0, ev->p);
		break;
	case EV_ENSO_APP:
		app_run(s, h, ev->t);
		break;
	default:
		break;
	}
}

void
ssp_synenso_app_send(struct syn *s, struct host *h, struct pkt *pk)
{
	struct app *a = &h->nic->enso->app;
	unsigned k, n = s->p->enso_pkts;
	struct pkt **v;

	if (a->sqlen == SENDQ || a->nout == OUTQ) {
		ssp_synenso_fail(s, SSP_ERR_LIMIT, "more than 256 transfers waiting", h->name);
		ssp_synmodel_pkt_put(pk);
		return;
	}
	if ((v = calloc(n, sizeof(*v))) == NULL) {
		ssp_synenso_fail(s, SSP_ERR_NOMEM, "out of memory", h->name);
		ssp_synmodel_pkt_put(pk);
		return;
	}
	/* the pcap's frames: to Ensō's base address and port, MAC addresses
	 * no port has, so net_switch floods them (and their echoes) */
	pk->dip = BASE_IP;
	pk->dport = DST_PORT;
	pk->smac = 0x0cc47a000001ull + h->idx;
	pk->dmac = 0x0cc47affff01ull;
	pk->broadcast = 1;
	pk->dst_host = -1;
	pk->iplen = 28 + pk->payload;
	pk->frame = 14 + pk->iplen;
	v[0] = pk;
	for (k = 1; k < n; k++) {
		if ((v[k] = ssp_synmodel_pkt_new(s, PK_REQ)) == NULL) {
			free(v);
			return;
		}
		*v[k] = *pk;
		v[k]->refs = 1;
		v[k]->ipid = (uint16_t)(pk->ipid + k);
	}
	a->sendq[(a->sqhead + a->sqlen) % SENDQ] = v;
	a->sqn[(a->sqhead + a->sqlen) % SENDQ] = n;
	a->sqlen++;
	a->out[a->nout++] = (struct outreq){ pk->req, n };
	if (a->ready)
		app_wake(s, h, s->now);
}

void
ssp_synenso_app_init(struct syn *s, struct nic *n)
{
	struct app *a = &n->enso->app;

	(void)s;
	a->client = !n->h->server;
	/* huge pages: notification buffers (RX half, TX half), the pipe */
	a->nbuf = 0x100000000ull + (ssp_synrng_below(&n->rng, 1024) << 21);
	a->pbuf = 0x180000000ull + (ssp_synrng_below(&n->rng, 1024) << 22);
	script(a);
}

void
ssp_synenso_app_start(struct syn *s, struct nic *n)
{
	struct host *h = n->h;

	ssp_synmodel_schedule(s, 0, EV_HOST_SYNC, h->idx, 0, NULL);
	/* the application starts (echo sleeps a second first: well before
	 * the requests, which the model starts at t0) */
	n->enso->app.sched = 1;
	ssp_synmodel_schedule(s, s->t0 / 8 + (int64_t)ssp_synrng_below(&h->rng,
	    1000) * NS, EV_ENSO_APP, h->idx, 0, NULL);
}

void
ssp_synenso_app_free(struct synenso *e)
{
	struct app *a = &e->app;
	unsigned i, k;

	for (i = 0; i < a->ilen; i++)
		ssp_synmodel_pkt_put(a->in[(a->ihead + i) % PIPEQ].pk);
	for (i = 0; i < a->sqlen; i++) {
		unsigned q = (a->sqhead + i) % SENDQ;

		for (k = 0; k < a->sqn[q]; k++)
			ssp_synmodel_pkt_put(a->sendq[q][k]);
		free(a->sendq[q]);
	}
	for (i = 0; i < WIN; i++) {
		for (k = 0; k < a->slot[i].npk; k++)
			ssp_synmodel_pkt_put(a->slot[i].pk[k]);
		free(a->slot[i].pk);
	}
}
