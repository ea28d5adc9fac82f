#include <stdlib.h>
#include <string.h>

#include "synth/synheap.h"
#include "synth/synlinux.h"
#include "synth/synnicbm.h"
#include "synth/synq.h"

#define QLEN    512u		/* ring entries (the driver's count) */
#define QACTIVE 128u		/* queue_base::MAX_ACTIVE_DESCS */
#define MAX_DMA 9024u		/* MAX_DMA_SIZE: longer payload reads go in parts */
#define NQ      NIC_MAXVEC

/* glibc size classes of the DMA objects (i40e_bm.h): dma_fetch and
 * dma_wb are 56 bytes (64-byte chunks); dma_data_fetch, dma_data_wb and
 * dma_hwb 64 bytes (80-byte chunks).  A fresh one is followed by its
 * data buffer. */
enum { BIN_DESC, BIN_DATA };
static const unsigned bin_chunk[] = { 0x40, 0x50 };

enum dstate { DS_EMPTY, DS_FETCHING, DS_PREPARING, DS_PREPARED,
	DS_PROCESSING, DS_PROCESSED, DS_WB, DS_WBDONE };

/* What the driver wrote into a TX ring entry. */
struct qslot {
	uint8_t ctx, eop;
	unsigned len;
	uint64_t buf;
	uint64_t cause;			/* the doorbell nic.mmio */
	struct pkt *pk;			/* eop: the frames of the send */
};

/* An active descriptor (queue_base::desc_ctx). */
struct qd {
	uint8_t st;
	uint32_t idx;
	uint64_t cause;
	struct lrx rx;			/* RX: the frame, once one came */
	unsigned len;			/* RX: its length */
};

struct lq {
	int rx;
	unsigned q;
	uint64_t base, bufs;
	unsigned dlen;			/* descriptor bytes: 16 TX, 32 RX */
	uint32_t tail, fidx, fpos, cnt;	/* reg_tail, active_first_idx/pos/cnt */
	struct qd d[QACTIVE];
	uint32_t fifo[QACTIVE];		/* RX dcache / TX ready_segments */
	unsigned fh, fn;
	struct qslot slot[QLEN];	/* TX */
};

struct qvec {
	int armed;
	uint32_t gen;
	uint64_t rx[NIC_VRX];		/* frames whose write-back asked */
	unsigned nrx;
	uint64_t tx;			/* the newest TX write-back's doorbell */
};

struct synq {
	struct lq txq[NQ], rxq[NQ];
	struct qvec v[NQ];
	struct ssp_synheap heap;
};

static void trigger(struct syn *s, struct nic *n, struct lq *l, int64_t t,
    uint64_t ctx);

static void
fail(struct syn *s, const char *msg)
{
	if (!s->failed) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_LIMIT, 0, "internal: %s", msg);
	}
}


int
ssp_synq_new(struct syn *s, struct nic *n)
{
	struct synq *Q = calloc(1, sizeof(*Q));
	unsigned q, i;

	if (Q == NULL)
		return SSP_ERR_NOMEM;
	n->rq = Q;
	/* the heap nicbm's objects come from (as ssp_synnic_init's ops) */
	ssp_synheap_init(&Q->heap, n->ops[NIC_MAXOPS - 1].ptr - 0x540 + 0x2a0);
	for (q = 0; q < NQ; q++) {
		struct lq *tx = &Q->txq[q], *rx = &Q->rxq[q];
		uint32_t rxt = 0, txt = 0;

		if (q < s->p->cpus)
			ssp_synlinux_rings(n->h, q, &rxt, &txt);
		tx->q = rx->q = q;
		rx->rx = 1;
		tx->dlen = 16;
		rx->dlen = 32;
		tx->base = n->tx_ring + ((uint64_t)q << 16);
		rx->base = n->rx_ring + ((uint64_t)q << 16);
		tx->bufs = n->tx_buf + ((uint64_t)q << 24);
		rx->bufs = n->rx_buf + ((uint64_t)q << 24);
		tx->tail = tx->fidx = txt % QLEN;
		/* the driver filled the ring at ifup (i40e_alloc_rx_buffers
		 * of 511 buffers) and the NIC fetched the first 128: they
		 * wait for frames */
		rx->tail = rxt % QLEN;
		rx->fidx = (rx->tail + 1) % QLEN;
		rx->cnt = QACTIVE;
		for (i = 0; i < QACTIVE; i++) {
			rx->d[i].st = DS_PROCESSING;
			rx->d[i].idx = (rx->fidx + i) % QLEN;
			rx->fifo[i] = i;
		}
		rx->fn = QACTIVE;
	}
	return SSP_OK;
}

void
ssp_synq_free(struct nic *n)
{
	free(n->rq);
	n->rq = NULL;
}

/* --- DMA objects ------------------------------------------------------------ */

static struct dmaop *
op_new(struct syn *s, struct nic *n, unsigned bin, struct lq *l, unsigned gap)
{
	struct dmaop *op = ssp_synnicbm_op_get(s, n);

	if (op == NULL)
		return NULL;
	op->ptr = ssp_synheap_alloc(&n->rq->heap, bin, bin_chunk[bin], gap);
	op->bin = bin;
	op->rxq = (unsigned)l->rx;
	op->q = l->q;
	op->rest = 0;
	return op;
}

/* "delete this": at the end of the op's done(), after what it started. */
static void
op_delete(struct nic *n, struct dmaop *op)
{
	ssp_synheap_free(&n->rq->heap, op->bin, op->ptr);
	ssp_synnicbm_op_put(n, op);
}

static struct lq *
op_queue(struct nic *n, const struct dmaop *op)
{
	return op->rxq ? &n->rq->rxq[op->q % NQ] : &n->rq->txq[op->q % NQ];
}

/* --- interrupts (i40e_bm::SignalInterrupt, Timed) ------------------------------- */

static void
irq_request(struct syn *s, struct nic *n, unsigned q, int64_t t)
{
	struct qvec *V = &n->rq->v[q % NQ];

	/* newtime = now + ITR; an armed event that is not later stays */
	if (V->armed)
		return;
	V->armed = 1;
	V->gen++;
	ssp_synmodel_schedule(s, t + s->p->itr, EV_NIC_IRQ, n->idx,
	    (q % NQ) | (uint64_t)V->gen << 8, NULL);
}

void
ssp_synq_irq(struct syn *s, struct nic *n, uint64_t a, int64_t t)
{
	struct qvec *V = &n->rq->v[(a & 0xff) % NQ];
	uint64_t parent;
	unsigned nl = 0;

	if (!V->armed || V->gen != (uint32_t)(a >> 8))
		return;
	V->armed = 0;
	if (V->nrx > 0) {
		parent = V->rx[V->nrx - 1];
		nl = V->nrx - 1;
	} else {
		parent = V->tx;
	}
	ssp_synnicbm_msix(s, n, t, (unsigned)(a & 0xff) + 1, parent, V->rx, nl);
	V->nrx = 0;
	V->tx = 0;
}

/* --- the queue logic (queue_base) ------------------------------------------------- */

static void
fetch(struct syn *s, struct nic *n, struct lq *l, int64_t t, uint64_t ctx)
{
	uint32_t next = (l->fidx + l->cnt) % QLEN;
	uint32_t k = (l->tail + QLEN - next) % QLEN, pos, i;
	uint64_t cause;
	struct dmaop *op;

	if (k > QACTIVE - l->cnt)
		k = QACTIVE - l->cnt;
	if (next + k > QLEN)
		k = QLEN - next;
	if (k == 0)
		return;
	pos = (l->fpos + l->cnt) % QACTIVE;
	cause = l->rx ? ctx : l->slot[next].cause;
	for (i = 0; i < k; i++) {
		struct qd *d = &l->d[(pos + i) % QACTIVE];

		d->st = DS_FETCHING;
		d->idx = (next + i) % QLEN;
		d->cause = l->rx ? ctx : l->slot[d->idx].cause;
	}
	l->cnt += k;
	if ((op = op_new(s, n, BIN_DESC, l, 16 + l->dlen * k)) == NULL)
		return;
	op->pos = pos;
	op->nd = k;
	ssp_synnicbm_dma_start(s, n, t, op, 0, l->base + (uint64_t)next * l->dlen,
	    l->dlen * k, cause, DC_Q_FETCH, NULL, NULL, NULL);
}

/* TX: every send whose descriptors are all processing goes out. */
static void
trigger_tx(struct syn *s, struct nic *n, struct lq *l, int64_t t)
{
	for (;;) {
		unsigned j, eop = l->fn;
		struct qslot *e;
		struct pkt *pk, *next;

		for (j = 0; j < l->fn; j++)
			if (l->slot[l->d[l->fifo[(l->fh + j) % QACTIVE]].idx].eop) {
				eop = j;
				break;
			}
		if (eop == l->fn)
			return;		/* the unit is not all fetched yet */
		e = &l->slot[l->d[l->fifo[(l->fh + eop) % QACTIVE]].idx];
		for (pk = e->pk; pk != NULL; pk = next) {
			next = pk->next;
			pk->next = NULL;
			ssp_synnicbm_eth_tx(s, n, t, pk, e->cause);
		}
		e->pk = NULL;
		for (j = 0; j <= eop; j++) {
			l->d[l->fifo[l->fh]].st = DS_PROCESSED;
			l->fh = (l->fh + 1) % QACTIVE;
			l->fn--;
		}
	}
}

static void
process(struct syn *s, struct nic *n, struct lq *l, int64_t t)
{
	uint32_t i, j;

	for (i = 0; i < l->cnt; i++)
		if (l->d[(l->fpos + i) % QACTIVE].st <= DS_PREPARED)
			break;
	for (j = i; j < l->cnt; j++) {
		uint32_t pos = (l->fpos + j) % QACTIVE;

		if (l->d[pos].st != DS_PREPARED)
			break;
		l->d[pos].st = DS_PROCESSING;
		l->fifo[(l->fh + l->fn) % QACTIVE] = pos;
		l->fn++;
		if (!l->rx)
			trigger_tx(s, n, l, t);
	}
}

static void
desc_wb(uint8_t *b, const struct lq *l, uint32_t pos, uint32_t k)
{
	uint32_t i;

	memset(b, 0, 32 * k);
	for (i = 0; i < k; i++) {
		const struct qd *d = &l->d[(pos + i) % QACTIVE];
		uint64_t qw1 = 1 | 1u << 1 | 1u << 3 |	/* DD, EOF, L3L4P */
		    (uint64_t)d->len << 38;
		unsigned k2;

		for (k2 = 0; k2 < 8; k2++)
			b[32 * i + 8 + k2] = (uint8_t)(qw1 >> (8 * k2));
	}
}

static void
writeback(struct syn *s, struct nic *n, struct lq *l, int64_t t)
{
	uint8_t data[32 * QACTIVE];
	uint32_t k, i;
	struct dmaop *op;

	for (k = 0; k < l->cnt; k++)
		if (l->d[(l->fpos + k) % QACTIVE].st != DS_PROCESSED)
			break;
	if (l->fidx + k > QLEN)
		k = QLEN - l->fidx;
	if (k == 0)
		return;
	for (i = 0; i < k; i++)
		l->d[(l->fpos + i) % QACTIVE].st = DS_WB;
	if ((op = op_new(s, n, l->rx ? BIN_DESC : BIN_DATA, l,
	    l->rx ? 16 + 32 * k : 0)) == NULL)
		return;
	op->pos = l->fpos;
	op->nd = k;
	if (l->rx) {
		desc_wb(data, l, l->fpos, k);
		ssp_synnicbm_dma_start(s, n, t, op, 1, l->base + (uint64_t)l->fidx * 32,
		    32 * k, l->d[l->fpos].cause, DC_Q_WB, NULL, NULL, data);
	} else {	/* dma_hwb: the next head, to the word after the ring */
		uint32_t head = (l->fidx + k) % QLEN;

		for (i = 0; i < 4; i++)
			data[i] = (uint8_t)(head >> (8 * i));
		ssp_synnicbm_dma_start(s, n, t, op, 1, l->base + 16ull * QLEN, 4,
		    l->d[l->fpos].cause, DC_Q_HWB, NULL, NULL, data);
	}
}

static void
trigger(struct syn *s, struct nic *n, struct lq *l, int64_t t, uint64_t ctx)
{
	fetch(s, n, l, t, ctx);
	process(s, n, l, t);
	writeback(s, n, l, t);
}

/* queue_base::writeback_done, then lan_queue_base::interrupt. */
static void
writeback_done(struct syn *s, struct nic *n, struct lq *l, int64_t t,
    const struct dmaop *op)
{
	struct qvec *V = &n->rq->v[l->q];
	uint32_t i;

	for (i = 0; i < op->nd; i++)
		l->d[(op->pos + i) % QACTIVE].st = DS_WBDONE;
	while (l->cnt > 0 && l->d[l->fpos].st == DS_WBDONE) {
		struct qd *d = &l->d[l->fpos];

		if (l->rx) {
			ssp_synlinux_rx_done(s, n->h, l->q, &d->rx);
			if (V->nrx == NIC_VRX)
				memmove(&V->rx[0], &V->rx[1],
				    (NIC_VRX - 1) * sizeof(V->rx[0]));
			else
				V->nrx++;
			V->rx[V->nrx - 1] = d->rx.span;
		} else if (l->slot[d->idx].eop) {
			ssp_synlinux_tx_done(s, n->h, l->q);
			V->tx = d->cause;
		}
		d->st = DS_EMPTY;
		l->fpos = (l->fpos + 1) % QACTIVE;
		l->fidx = (l->fidx + 1) % QLEN;
		l->cnt--;
	}
	irq_request(s, n, l->q, t);
}

void
ssp_synq_dma_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	struct lq *l = op_queue(n, op);
	uint64_t cause = op->cause;
	uint32_t i;

	switch (op->cont) {
	case DC_Q_FETCH:	/* dma_fetch::done: prepare each descriptor */
		for (i = 0; i < op->nd; i++) {
			uint32_t pos = (op->pos + i) % QACTIVE;
			struct qd *d = &l->d[pos];
			struct qslot *sl = &l->slot[d->idx];
			struct dmaop *dop;

			d->st = DS_PREPARING;
			if (l->rx || sl->ctx) {
				d->st = DS_PREPARED;
				continue;
			}
			/* desc_ctx::data_fetch */
			if ((dop = op_new(s, n, BIN_DATA, l, 0)) == NULL)
				return;
			dop->pos = pos;
			dop->nd = 1;
			dop->rest = sl->len > MAX_DMA ? sl->len - MAX_DMA : 0;
			ssp_synnicbm_dma_start(s, n, t, dop, 0, sl->buf,
			    sl->len > MAX_DMA ? MAX_DMA : sl->len, sl->cause,
			    DC_Q_DATA, NULL, NULL, NULL);
		}
		trigger(s, n, l, t, cause);
		break;
	case DC_Q_DATA:		/* dma_data_fetch::done */
		if (op->rest > 0) {	/* the next part, with the same op */
			unsigned len = op->rest > MAX_DMA ? MAX_DMA : op->rest;

			op->rest -= len;
			ssp_synnicbm_dma_start(s, n, t, op, 0, op->addr + op->len,
			    len, op->cause, DC_Q_DATA, NULL, NULL, NULL);
			return;
		}
		l->d[op->pos].st = DS_PREPARED;
		trigger(s, n, l, t, cause);
		break;
	case DC_Q_RXDATA:	/* dma_data_wb::done: the descriptor is done */
		l->d[op->pos].st = DS_PROCESSED;
		trigger(s, n, l, t, cause);
		break;
	case DC_Q_WB:
	case DC_Q_HWB:		/* dma_wb::done, dma_hwb::done */
		writeback_done(s, n, l, t, op);
		trigger(s, n, l, t, cause);
		break;
	default:
		break;
	}
	op_delete(n, op);
}

void
ssp_synq_write(struct syn *s, struct nic *n, int64_t t,
    const struct nic_mmio *m, uint64_t span)
{
	struct synq *Q = n->rq;
	unsigned q;

	if (m->off >= I40E_QTX_TAIL0 && m->off < I40E_QTX_TAIL0 + 4 * NQ) {
		struct lq *l = &Q->txq[(m->off - I40E_QTX_TAIL0) / 4];
		struct pkt *pk = m->pk;
		unsigned nd, i, pay = 0, hdr;
		const struct pkt *x;

		if (pk == NULL)
			return;
		/* what i40e_tx_map wrote: context, header, payload pieces */
		nd = ssp_synlinux_ndesc(pk);
		for (x = pk; x != NULL; x = x->next)
			pay += x->payload;
		hdr = pk->frame - pk->payload;
		for (i = 0; i < nd; i++) {
			struct qslot *sl = &l->slot[(l->tail + i) % QLEN];

			memset(sl, 0, sizeof(*sl));
			sl->cause = span;
			sl->buf = l->bufs + 0x4000ull * ((l->tail + i) % QLEN);
			sl->eop = i + 1 == nd;
			if (nd == 1)
				sl->len = pk->frame;
			else if (nd > 2 && i == 0)
				sl->ctx = 1;	/* the TSO context descriptor */
			else if (i == (nd > 2 ? 1u : 0u))
				sl->len = hdr;	/* the header (linear part) */
			else	/* payload piece i - 2 (TSO) or the payload */
				sl->len = nd == 2 ? pay : pay - SSP_SYNLINUX_TXD_MAX * (i - 2) >
				    SSP_SYNLINUX_TXD_MAX ? SSP_SYNLINUX_TXD_MAX : pay - SSP_SYNLINUX_TXD_MAX * (i - 2);
			if (sl->eop)
				sl->pk = pk;
		}
		l->tail = (l->tail + nd) % QLEN;
		trigger(s, n, l, t, span);
		return;
	}
	if (m->off >= I40E_QRX_TAIL0 && m->off < I40E_QRX_TAIL0 + 4 * NQ) {
		q = (m->off - I40E_QRX_TAIL0) / 4;
		Q->rxq[q].tail = (uint32_t)m->val % QLEN;
		trigger(s, n, &Q->rxq[q], t, span);
	}
	/* PFINT_DYN_CTLN and the rest: stored by i40e_bm, no effect here */
}

void
ssp_synq_rx(struct syn *s, struct nic *n, int64_t t, const struct pkt *pk,
    unsigned q, const struct lrx *rx)
{
	static uint8_t frame[2048];
	struct lq *l = &n->rq->rxq[q % NQ];
	struct dmaop *op;
	struct qd *d;
	uint32_t pos;
	unsigned len;

	if (l->fn == 0) {	/* "not enough rx descs": dropped */
		fail(s, "i40e_bm dropped a frame: no RX descriptor fetched");
		return;
	}
	pos = l->fifo[l->fh];
	l->fh = (l->fh + 1) % QACTIVE;
	l->fn--;
	d = &l->d[pos];
	d->rx = *rx;
	d->cause = rx->span;
	len = ssp_synnicbm_frame(pk, frame, sizeof(frame));
	d->len = len;
	if ((op = op_new(s, n, BIN_DATA, l, 16 + len)) == NULL)
		return;
	op->pos = pos;
	op->nd = 1;
	ssp_synnicbm_dma_start(s, n, t, op, 1, l->bufs + 0x800ull * d->idx, len,
	    rx->span, DC_Q_RXDATA, NULL, NULL, frame);
}
