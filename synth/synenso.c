/*
 * simsynth --nic enso (synenso.h): enso_bm as nicbm runs it; the host's
 * library is synenso_app.c.  What the NIC does and in which order follows
 * the sources: component-enso enso_bm/enso_bm.cc (register reads and
 * writes, the flow director, DmaData, send_rx_notif, dma_read_tx_notif,
 * process_tx_notif, dma_read_data, tx_pipeline::enqueue_data, the
 * DEBUG_DEV lines), nicbm.cc (IssueDma, DmaDo, DmaTrigger, the completion
 * handlers, which run the device's DmaComplete before they count the DMA
 * done).
 *
 * Truth: the NIC's spans have the parents SPEC §3 describes, the real
 * cause recorded where the NIC's last causing span is another (a data
 * read issued when the notification read completes, a packet sent when
 * its data arrives).  A QEMU host has no kernel spans, so its MMIO writes
 * are trace roots by the rules; their real cause is what the application
 * polled from memory, the host.dma that wrote the notification or the
 * completion it acts on.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synenso_int.h"
#include "synth/synnic.h"
#include "synth/synnicbm.h"

/* --- small helpers ------------------------------------------------------ */

void
ssp_synenso_fail(struct syn *s, int code, const char *what, const char *name)
{
	if (s->failed)
		return;
	s->failed = 1;
	ssp_err_set(&s->err, code, 0, "%s: %s", name, what);
}

static uint8_t *
put_le(uint8_t *b, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		*b++ = (uint8_t)(v >> (8 * i));
	return b;
}

/* A 64-byte notification as enso_bm writes it: three words, zero pad. */
static void
notif_bytes(uint8_t d[64], uint64_t a, uint64_t b, uint64_t c)
{
	memset(d, 0, 64);
	put_le(put_le(put_le(d, a), b), c);
}

/* --- the NIC: enso_bm ---------------------------------------------------- */

/* enso_bm's logger (logger.cc) with DEBUG_DEV, on stderr: "<ps> enso: "
 * and the message, its numbers in hex without 0x (ss << std::hex). */
static char *
dev_begin(struct nic *n, int64_t t)
{
	char *p = ssp_synlog_room(n->devlog);

	p = ssp_synlog_put_u64(p, (uint64_t)t);
	return ssp_synlog_put_str(p, " enso: ");
}

static void
dev_end(struct nic *n, char *p)
{
	*p++ = '\n';
	ssp_synlog_commit(n->devlog, p);
}

static void
dev_line(struct nic *n, int64_t t, const char *msg, uint64_t v)
{
	char *p = dev_begin(n, t);

	p = ssp_synlog_put_str(p, msg);
	if (v != UINT64_MAX)
		p = ssp_synlog_put_hex(p, v);
	dev_end(n, p);
}

static uint32_t
be(const uint8_t *b, int n)
{
	uint32_t v = 0;

	while (n-- > 0)
		v = v << 8 | *b++;
	return v;
}

/* rx_pipeline::flow_director's four-tuple, read from the frame as it
 * reads it (an IPv4 header after Ethernet's, whatever the frame is). */
static void
dev_flow(struct nic *n, int64_t t, const uint8_t *f)
{
	uint32_t dport = 0, sport = 0, dip = be(f + 30, 4), sip = 0;
	char *p = dev_begin(n, t);

	if (f[23] == 6) {		/* TCP; a SYN matches on the destination */
		dport = be(f + 36, 2);
		if (!(f[47] & 0x02)) {
			sport = be(f + 34, 2);
			sip = be(f + 26, 4);
		}
	} else if (f[23] == 17) {
		dport = be(f + 36, 2);
	}
	p = ssp_synlog_put_str(p, "RX: Flow director: dst_port=");
	p = ssp_synlog_put_hex(p, dport);
	p = ssp_synlog_put_str(p, " src_port=");
	p = ssp_synlog_put_hex(p, sport);
	p = ssp_synlog_put_str(p, " dst_ip=");
	p = ssp_synlog_put_hex(p, dip);
	p = ssp_synlog_put_str(p, " src_ip=");
	p = ssp_synlog_put_hex(p, sip);
	dev_end(n, p);
}

/* new dma_*: the object, then (for a write, or a read's buffer) its
 * data; buffers of more than 72 bytes are in other size classes. */
static struct dmaop *
op_new(struct syn *s, struct nic *n, unsigned dlen)
{
	struct synenso *e = n->enso;
	struct dmaop *op;

	if ((op = ssp_synnicbm_op_get(s, n)) == NULL)
		return NULL;
	op->ptr = ssp_synheap_alloc(&e->heap, 0, CHUNK, 0);
	op->dbuf = dlen > 0 && dlen <= 72 ? ssp_synheap_alloc(&e->heap, 0,
	    CHUNK, 0) : 0;
	op->ext = NULL;
	return op;
}

/* delete: ~dma_*'s delete[] data_, then the object. */
static void
op_delete(struct nic *n, struct dmaop *op)
{
	struct synenso *e = n->enso;

	if (op->dbuf != 0)
		ssp_synheap_free(&e->heap, 0, op->dbuf);
	ssp_synheap_free(&e->heap, 0, op->ptr);
	ssp_synnicbm_op_put(n, op);
}

/* Runner::IssueDma: executed now, or queued behind 64 executing. */
static void
issue(struct syn *s, struct nic *n, int64_t t, struct dmaop *op, int write,
    uint64_t addr, unsigned len, uint64_t cause, enum dma_cont cont,
    struct pkt *pk, const uint8_t *data)
{
	struct synenso *e = n->enso;

	if (n->pending < MAX_PENDING) {
		ssp_synnicbm_dma_start(s, n, t, op, write, addr, len, cause, cont,
		    pk, NULL, data);
		return;
	}
	if (ssp_synnicbm_dma_enqueue(s, n, t, op, write, addr, len, cause, cont,
	    pk, NULL, data) != SSP_OK)
		return;
	e->dq[(e->dqhead + e->dqlen++) % NIC_MAXOPS] = op;
}

static void
dma_write(struct syn *s, struct nic *n, int64_t t, uint64_t addr,
    const uint8_t *d, unsigned len, uint64_t cause, unsigned what,
    uint32_t pos, struct pkt *pk)
{
	struct dmaop *op = op_new(s, n, len);

	if (op == NULL)
		return;
	op->q = what;
	op->pos = pos;
	issue(s, n, t, op, 1, addr, len, cause, DC_ENSO_WR, pk, d);
}

/* send_rx_notif: tell notification buffer 0 the pipe's new tail. */
static void
rx_notif(struct syn *s, struct nic *n, int64_t t, uint64_t cause)
{
	struct synenso *e = n->enso;
	uint8_t d[64];

	if (((e->rxn.head - e->rxn.tail - 1) % PIPE_FLITS) == 0) {
		/* full: enso_bm drops the notification */
		dev_line(n, t, "RX notification buffer is full.", UINT64_MAX);
		return;
	}
	notif_bytes(d, 1, 0, e->pipe.tail);
	dma_write(s, n, t, e->rxn.buf + 64ull * e->rxn.tail, d, 64, cause,
	    W_NOTIF, e->pipe.tail, NULL);
	e->rxn.tail = (e->rxn.tail + 1) % NOTIF_SLOTS;
}

/* dma_read_tx_notif: the notifications from old_tail to the tail, in two
 * reads when the tail wrapped (Issue: this one, then next_dma_). */
static void
read_notifs(struct syn *s, struct nic *n, int64_t t, uint32_t old_tail,
    uint64_t cause)
{
	struct synenso *e = n->enso;
	uint32_t tail = e->txn.tail, from[2] = { old_tail, 0 }, cnt[2];
	struct dmaop *op[2] = { NULL, NULL };
	unsigned k, parts = 1;

	if (old_tail > tail && tail != 0) {
		parts = 2;
		cnt[1] = tail;
		tail = 0;
	}
	cnt[0] = (tail - old_tail) % NOTIF_SLOTS;
	for (k = 0; k < parts; k++)	/* the constructors: this, then next */
		if ((op[k] = op_new(s, n, 64 * cnt[k])) == NULL)
			return;
	for (k = 0; k < parts; k++) {
		op[k]->pos = from[k];
		op[k]->nd = cnt[k];
		issue(s, n, t, op[k], 0, e->txn.buf + 64ull * from[k], 64 * cnt[k],
		    cause, DC_ENSO_TXN, NULL, NULL);
	}
}

static void
reg_write(struct syn *s, struct nic *n, int64_t t, uint32_t off, uint32_t v,
    uint64_t span)
{
	struct synenso *e = n->enso;
	struct ering *r = off >= NOTIF_REGS ? &e->rxn : &e->pipe;
	uint32_t reg = off & 0xfffu, old;

	if (off >= NOTIF_REGS && reg >= R_TX_TAIL)
		r = &e->txn;
	switch (reg) {
	case R_RX_TAIL:
		r->tail = v;
		break;
	case R_TX_TAIL:	/* DMA read the new notifications */
		old = r->tail;
		r->tail = v;
		if (old != v)
			read_notifs(s, n, t, old, span);
		break;
	case R_RX_HEAD: case R_TX_HEAD:
		r->head = v;
		/* reactive notification: the pipe has data past the head */
		if (r == &e->pipe && e->pipe.head != e->pipe.tail)
			rx_notif(s, n, t, span);
		break;
	case R_RX_LO: case R_TX_LO:
		r->buf = (r->buf & 0xffffffff00000000ull) | v;
		break;
	case R_RX_HI: case R_TX_HI:
		r->buf = (r->buf & 0xffffffffull) | (uint64_t)v << 32;
		break;
	}
}

static uint32_t
reg_read(const struct nic *n, uint32_t off)
{
	const struct synenso *e = n->enso;
	const struct ering *r = off >= NOTIF_REGS ? &e->rxn : &e->pipe;
	uint32_t reg = off & 0xfffu;

	if (off >= NOTIF_REGS && reg >= R_TX_TAIL)
		r = &e->txn;
	switch (reg) {
	case R_RX_TAIL: case R_TX_TAIL:
		return r->tail;
	case R_RX_HEAD: case R_TX_HEAD:
		return r->head;
	case R_RX_LO: case R_TX_LO:
		return (uint32_t)r->buf;
	default:
		return (uint32_t)(r->buf >> 32);
	}
}

/* nicbm's H2DRead / H2DWrite: the line, the register, the completion
 * (QEMU sends every write non-posted). */
static void
mmio_in(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m)
{
	char key[32], *p = ssp_synnicbm_begin(n, t);
	uint64_t span;

	if (!m->write)
		m->val = reg_read(n, m->off);
	p = ssp_synlog_put_str(p, m->write ? "write(off=0x" : "read(off=0x");
	p = ssp_synlog_put_hex(p, m->off);
	p = ssp_synlog_put_str(p, ", len=");
	p = ssp_synlog_put_u64(p, m->len);
	p = ssp_synlog_put_str(p, ", val=0x");
	p = ssp_synlog_put_hex(p, m->val);
	if (m->write && n->dialect == SSP_SYN_NICBM_UPSTREAM)
		p = ssp_synlog_put_str(p, ", posted=0");
	*p++ = ')';
	ssp_synnicbm_end(n, p, m->write ? SSP_EV_NIC_WR : SSP_EV_NIC_RD);
	snprintf(key, sizeof(key), "0x%x", m->off);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_MMIO, t, key, m->span,
	    m->span);
	if (m->write) {
		n->last_cause = span;
		reg_write(s, n, t, m->off, (uint32_t)m->val, span);
	}
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_MMIO_DONE,
	    n->h->idx, 0, m);
}

/* rx_pipeline::flow_director: the echo server's Bind (UDP to port 80 of
 * 192.168.0.0), else a fallback queue, else dropped. */
static int
flow_pipe(const struct synenso *e, const struct pkt *pk)
{
	if (e->flow && pk->kind != PK_BG_ARP && pk->proto == 17 &&
	    pk->dport == DST_PORT && pk->dip == BASE_IP)
		return 0;
	return e->fallback > 0 ? 0 : -1;
}

/* EthRx -> DmaData: the packet to the pipe's tail, a notification if the
 * pipe was empty. */
static void
eth_rx(struct syn *s, struct nic *n, int64_t t, struct pkt *pk, uint64_t from)
{
	static uint8_t frame[2048];
	struct synenso *e = n->enso;
	char *p = ssp_synnicbm_begin(n, t);
	uint64_t span;
	unsigned len, al, flits;
	uint32_t old, free_slots;

	p = ssp_synlog_put_str(p, "eth rx: port 0 len ");
	p = ssp_synlog_put_u64(p, pk->frame);
	ssp_synnicbm_end(n, p, SSP_EV_NIC_RX);
	dev_line(n, t, "received packet len=", pk->frame);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_RX, t, "", from, from);
	n->last_cause = span;
	memset(frame, 0, sizeof(frame));
	len = ssp_synnicbm_frame(pk, frame, sizeof(frame));
	if (pk->kind == PK_RESP && len > 63)
		frame[63]++;	/* echo.cpp: ++pkt[63] */
	dev_flow(n, t, frame);
	if (flow_pipe(e, pk) < 0) {
		dev_line(n, t, "RX: Packet dropped", UINT64_MAX);
		e->drops++;
		ssp_synmodel_pkt_put(pk);
		return;
	}
	dev_line(n, t, "RX: Sending packet to enso pipe ", 0);
	al = ssp_synenso_aligned(pk->frame);
	flits = al / 64;
	free_slots = (e->pipe.head - e->pipe.tail - 1) % PIPE_FLITS;
	p = dev_begin(n, t);
	p = ssp_synlog_put_str(p, "enso: DMA data to pipe 0 len=");
	p = ssp_synlog_put_hex(p, pk->frame);
	p = ssp_synlog_put_str(p, " aligned_len=");
	p = ssp_synlog_put_hex(p, al);
	p = ssp_synlog_put_str(p, " flits=");
	p = ssp_synlog_put_hex(p, flits);
	p = ssp_synlog_put_str(p, " nb_free_slots=");
	p = ssp_synlog_put_hex(p, free_slots);
	dev_end(n, p);
	if (free_slots < flits) {
		dev_line(n, t, "enso: Packet dropped.", UINT64_MAX);
		e->drops++;	/* no room in the pipe */
		ssp_synmodel_pkt_put(pk);
		return;
	}
	dma_write(s, n, t, (e->pipe.buf & ~1023ull) + 64ull * e->pipe.tail,
	    frame, al, span, W_DATA, flits, pk);
	old = e->pipe.tail;
	e->pipe.tail = (e->pipe.tail + flits) % PIPE_FLITS;
	if (old == e->pipe.head)
		rx_notif(s, n, t, span);
}

/* process_tx_notif for each notification the read brought.  Real memory
 * is read when QEMU serves the read; the model's notifications do not
 * change once written, so reading them now is the same. */
static void
tx_notifs(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	struct synenso *e = n->enso;
	struct app *a = &e->app;
	unsigned i, k, nchunk;

	for (i = 0; i < op->nd; i++) {
		struct txn *tn = &a->slot[(op->pos + i) % WIN];
		uint64_t caddr = op->addr + 64ull * i;
		struct dmaop *c, *ch[MAX_XFER / MAX_DMA];
		uint8_t d[64];

		if (tn->signal == 2) {	/* process_config, then the completion */
			if (tn->cfg == CFG_FLOW) {	/* Bind(kDstPort, 0, base, 0) */
				char *q = dev_begin(n, t);

				q = ssp_synlog_put_str(q, "RX: Adding flow table "
				    "entry: dst_port=");
				q = ssp_synlog_put_hex(q, DST_PORT);
				q = ssp_synlog_put_str(q, " src_port=0 dst_ip=");
				q = ssp_synlog_put_hex(q, BASE_IP);
				q = ssp_synlog_put_str(q, " src_ip=0 enso_pipe_id=0");
				dev_end(n, q);
				e->flow = 1;
			}
			else if (tn->cfg == CFG_FALLBACK)
				e->fallback = a->client ? 1 : 0;
			notif_bytes(d, 0, tn->cfg, 0);
			dma_write(s, n, t, caddr, d, 64, op->cause, W_COMPL,
			    op->pos + i, NULL);
			continue;
		}
		if (tn->signal != 1)
			continue;
		for (k = 0; k < tn->npk; k++) {	/* into the TX pipeline */
			if (e->txqlen == PIPEQ) {
				ssp_synenso_fail(s, SSP_ERR_LIMIT, "more than 4096 packets "
				    "being sent", n->name);
				return;
			}
			e->txq[(e->txqhead + e->txqlen++) % PIPEQ] = (struct txpkt){
			    tn->pk[k], op->cause };
		}
		free(tn->pk);
		tn->pk = NULL;
		tn->npk = 0;
		/* new dma_write (the completion), then the dma_read_data
		 * chain: its objects in order (each constructor makes the
		 * next first), then their buffers from the last back */
		if ((c = op_new(s, n, 64)) == NULL)
			return;
		c->q = W_COMPL;
		c->pos = op->pos + i;
		c->addr = caddr;
		c->len = tn->len;
		c->arg = tn->addr;	/* what its bytes say */
		nchunk = (tn->len + MAX_DMA - 1) / MAX_DMA;
		for (k = 0; k < nchunk; k++)
			if ((ch[k] = op_new(s, n, 0)) == NULL)
				return;
		for (k = nchunk; k-- > 0;) {
			unsigned len = k + 1 < nchunk ? MAX_DMA : tn->len -
			    MAX_DMA * (nchunk - 1);

			if (len <= 72)
				ch[k]->dbuf = ssp_synheap_alloc(&e->heap, 0, CHUNK, 0);
			ch[k]->len = len;
		}
		for (k = 0; k < nchunk; k++) {
			ch[k]->ext = k + 1 == nchunk ? c : NULL;
			issue(s, n, t, ch[k], 0, tn->addr + (uint64_t)MAX_DMA * k,
			    ch[k]->len, op->cause, DC_ENSO_DATA, NULL, NULL);
		}
	}
}

/* dma_read_data::done: the last one issues the completion, then
 * tx_pipeline::enqueue_data sends every packet whose (64-byte aligned)
 * end has arrived. */
static void
data_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	struct synenso *e = n->enso;
	struct dmaop *c = op->ext;

	if (c != NULL) {	/* the notification back, signal 0 */
		uint8_t d[64];

		notif_bytes(d, 0, c->arg, c->len);
		issue(s, n, t, c, 1, c->addr, 64, op->cause, DC_ENSO_WR, NULL, d);
	}
	dev_line(n, t, "TX pipeline: enqueue data len=0x", op->len);
	e->txgot += op->len;
	while (e->txqlen > 0) {
		struct txpkt *tp = &e->txq[e->txqhead];
		unsigned al = ssp_synenso_aligned(tp->pk->frame);

		if (al > e->txgot)
			break;
		e->txgot -= al;
		e->txqhead = (e->txqhead + 1) % PIPEQ;
		e->txqlen--;
		dev_line(n, t, "TX: sending packet to ethernet len=", tp->pk->frame);
		ssp_synnicbm_eth_tx(s, n, t, tp->pk, tp->cause);
	}
}

static void
dma_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	struct synenso *e = n->enso;
	ssp_synnicbm_dma_done_line(n, t, op);
	/* DmaComplete runs before nicbm counts the DMA done */
	if (op->cont == DC_ENSO_TXN)
		tx_notifs(s, n, t, op);
	else if (op->cont == DC_ENSO_DATA)
		data_done(s, n, t, op);
	n->pending--;
	op_delete(n, op);
	if (e->dqlen > 0 && n->pending < MAX_PENDING) {	/* DmaTrigger */
		struct dmaop *q = e->dq[e->dqhead];

		e->dqhead = (e->dqhead + 1) % NIC_MAXOPS;
		e->dqlen--;
		ssp_synnicbm_dma_dequeue(s, n, t, q);
	}
}

void
ssp_synenso_event(struct syn *s, const struct sev *ev)
{
	struct nic *n = &s->nics[ev->who];

	switch (ev->type) {
	case EV_NIC_MMIO:
		mmio_in(s, n, ev->t, ev->p);
		break;
	case EV_NIC_DMA_DONE:
		dma_done(s, n, ev->t, ev->p);
		break;
	case EV_NIC_RX:
		eth_rx(s, n, ev->t, ev->p, ev->a);
		break;
	case EV_NIC_INFO:
		ssp_synnic_event(s, ev);
		break;
	default:	/* the host's */
		ssp_synenso_app_event(s, ev);
		break;
	}
}

void
ssp_synenso_send(struct syn *s, struct host *h, struct pkt *pk)
{
	ssp_synenso_app_send(s, h, pk);
}

int
ssp_synenso_init(struct syn *s, struct nic *n)
{
	struct synenso *e;

	ssp_synnic_init(s, n);
	ssp_synrng_seed(&n->h->rng, s->p->seed, 100 + n->h->idx);
	if ((e = calloc(1, sizeof(*e))) == NULL)
		return ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
	n->enso = e;
	ssp_synheap_init(&e->heap, 0x55c000000000ull +
	    (ssp_synrng_below(&n->rng, 0x4000) << 20) + 0x2a0);
	ssp_synenso_app_init(s, n);
	return SSP_OK;
}

void
ssp_synenso_start(struct syn *s, struct nic *n)
{
	ssp_synnic_start(s, n);
	ssp_synenso_app_start(s, n);
}

void
ssp_synenso_finish(struct syn *s, struct nic *n)
{
	ssp_synnic_finish(s, n);
}

void
ssp_synenso_free(struct nic *n)
{
	struct synenso *e = n->enso;
	unsigned i;

	if (e == NULL)
		return;
	for (i = 0; i < e->txqlen; i++)
		ssp_synmodel_pkt_put(e->txq[(e->txqhead + i) % PIPEQ].pk);
	ssp_synenso_app_free(e);
	free(e);
	n->enso = NULL;
}
