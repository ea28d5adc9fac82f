/*
 * i40e NICs as the nicbm behavioural model logs them with DEBUG_NICBM on,
 * in one of three versions (FORMATS.md §5): current upstream ("info: "
 * prefix, "addr 0x", "posted="), the Columbo fork ("info: ", "addr %lx",
 * no posted=) and the 2022 printf builds of the sigcomm22 artifact (no
 * prefix, "addr %lx", no posted=, payload bytes without "info: ").
 * Transmit: doorbell -> descriptor read -> payload read -> eth tx ->
 * descriptor write-back -> MSI-X.  Receive: eth rx -> payload and
 * descriptor writes -> MSI-X.  An RX tail write makes the NIC prefetch
 * descriptors.  Every span records its real cause and, separately, the
 * "last causing span" SPEC §3 would give it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synhost.h"
#include "synth/synlinux.h"
#include "synth/synnic.h"
#include "synth/synnicbm.h"
#include "synth/synq.h"

#define NS 1000LL

/* Status lines get "info: " where nicbm logs through its logger. */
static const char *
info_pfx(const struct nic *n)
{
	return n->dialect == SSP_SYN_NICBM_SIGCOMM22 ? "" : "info: ";
}

/* A line that is not a debug message (stderr of nicbm). */
static void
ninfo(struct nic *n, const char *text)
{
	char *p = ssp_synlog_room(n->log);

	if (n->glue) {		/* the process ends: bytes line stays alone */
		*p++ = '\n';
		n->glue = 0;
		n->nskip[SSP_SYNSKIP_DMADATA]++;
	}
	p = ssp_synlog_put_str(p, text);
	*p++ = '\n';
	ssp_synlog_commit(n->log, p);
	n->nskip[SSP_SYNSKIP_NICINFO]++;
}


static struct dmaop *
dma_issue(struct syn *s, struct nic *n, int64_t t, int write, uint64_t addr,
    unsigned len, uint64_t cause, enum dma_cont cont, struct pkt *pk,
    struct rxwork *rw, const uint8_t *data)
{
	struct dmaop *op = ssp_synnicbm_op_get(s, n);

	if (op == NULL)
		return NULL;
	ssp_synnicbm_dma_start(s, n, t, op, write, addr, len, cause, cont, pk, rw, data);
	return op;
}

static void
irq_fire(struct syn *s, struct nic *n, int64_t t)
{
	char *p = ssp_synnicbm_begin(n, t);
	uint64_t span;

	p = ssp_synlog_put_str(p, "issue MSI-X interrupt vec ");
	p = ssp_synlog_put_u64(p, RX_VEC);
	ssp_synnicbm_end(n, p, SSP_EV_NIC_MSIX);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_MSIX, t, "1", n->irq_cause,
	    n->last_cause);
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_MSIX, n->h->idx, span,
	    NULL);
	n->irq_last = t;
	n->irq_sched = 0;
}

/* Write-backs ask for an interrupt; throttling merges requests. */
static void
irq_request(struct syn *s, struct nic *n, int64_t t, uint64_t cause)
{
	int64_t at;

	if (n->irq_sched) {
		n->irq_cause = cause;	/* the newest write-back triggers it */
		return;
	}
	if (n->irq_last == t && t > 0)
		return;		/* already raised at this instant */
	n->irq_cause = cause;
	at = n->irq_last + s->p->itr;
	if (at <= t) {
		irq_fire(s, n, t);
		return;
	}
	n->irq_sched = 1;
	ssp_synmodel_schedule(s, at, EV_NIC_IRQ, n->idx, 0, NULL);
}

/*
 * --kernel linux: one MSI-X vector per queue pair (vector q + 1 for queue
 * q), interrupt throttling per vector, and i40e's auto-masking: a vector
 * that fired stays masked until the driver writes PFINT_DYN_CTLN
 * (i40e_update_enable_itr after napi_complete_done); write-backs meanwhile
 * only mark it pending.  The nic.msix's parent is the newest rx since the
 * vector's previous MSI-X (else the newest TX write-back's doorbell), the
 * other rx since then are its links.
 */
static void
lx_fire(struct syn *s, struct nic *n, unsigned v, int64_t t)
{
	struct nicvec *V = &n->lv[v];
	char *p, key[16];
	uint64_t span, parent;
	unsigned nl = 0;

	V->sched = 0;
	if (V->masked || !V->pending)
		return;
	p = ssp_synnicbm_begin(n, t);
	p = ssp_synlog_put_str(p, "issue MSI-X interrupt vec ");
	p = ssp_synlog_put_u64(p, v + 1);
	ssp_synnicbm_end(n, p, SSP_EV_NIC_MSIX);
	snprintf(key, sizeof(key), "%u", v + 1);
	if (V->nrx > 0) {
		parent = V->rx[V->nrx - 1];
		nl = V->nrx - 1;
	} else {
		parent = V->tx_cause;
	}
	span = ssp_synmodel_span_links(s, n->stream, SSP_SK_NIC_MSIX, t, key,
	    parent, V->rx, nl);
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_LX_MSIX,
	    n->h->idx | (v + 1) << 16, span, NULL);
	V->last = t;
	V->masked = 1;
	V->pending = 0;
	V->nrx = 0;
}

static void
lx_irq_request(struct syn *s, struct nic *n, unsigned v, int64_t t,
    uint64_t cause, int rx)
{
	struct nicvec *V = &n->lv[v % NIC_MAXVEC];
	int64_t at;

	v %= NIC_MAXVEC;
	if (rx) {
		if (V->nrx == NIC_VRX)	/* keep the newest */
			memmove(&V->rx[0], &V->rx[1], (NIC_VRX - 1) * sizeof(V->rx[0]));
		else
			V->nrx++;
		V->rx[V->nrx - 1] = cause;
	} else {
		V->tx_cause = cause;
	}
	V->pending = 1;
	if (V->masked || V->sched)
		return;
	at = V->last + s->p->itr;
	if (at <= t) {
		lx_fire(s, n, v, t);
		return;
	}
	V->sched = 1;
	ssp_synmodel_schedule(s, at, EV_NIC_IRQ, n->idx, v, NULL);
}

/* PFINT_DYN_CTLN: the driver re-enables the vector. */
static void
lx_unmask(struct syn *s, struct nic *n, unsigned v, int64_t t)
{
	struct nicvec *V = &n->lv[v % NIC_MAXVEC];
	int64_t at;

	V->masked = 0;
	if (!V->pending || V->sched)
		return;
	at = V->last + s->p->itr;
	if (at <= t) {
		lx_fire(s, n, v % NIC_MAXVEC, t);
		return;
	}
	V->sched = 1;
	ssp_synmodel_schedule(s, at, EV_NIC_IRQ, n->idx, v % NIC_MAXVEC, NULL);
}

static void
desc_bytes(uint8_t *d, unsigned len, unsigned frame, uint32_t idx)
{
	memset(d, 0, len);
	d[0] = (uint8_t)idx;
	d[1] = (uint8_t)(idx >> 8);
	d[8] = 0x01;			/* DD: descriptor done */
	d[12] = (uint8_t)(frame << 6);	/* length field */
	d[13] = (uint8_t)(frame >> 2);
}

/* --- corundum_bm ------------------------------------------------------
 * A TX head-pointer write makes the NIC read each new 16-byte descriptor;
 * when one arrives, the same op reads the payload; when that arrives the
 * frame goes out and a 32-byte completion is written; when that is done a
 * 32-byte event; when that is done, MSI vector 0.  A received frame makes
 * the NIC read the next RX descriptor, then write the frame with the same
 * op, then a completion, an event, MSI (sims/nic/corundum_bm).  No
 * interrupt moderation: every event raises its own MSI. */

#define CQM_MASK (CQM_RING - 1)

static void
put_le(uint8_t *b, uint64_t v, int n)
{
	while (n-- > 0) {
		*b++ = (uint8_t)v;
		v >>= 8;
	}
}

/* A completion (struct Cpl: queue, index, len, ...) for ring pointer idx. */
static void
cqm_cpl(struct syn *s, struct nic *n, int64_t t, int tx, uint32_t idx,
    unsigned len, uint64_t cause)
{
	uint32_t *next = tx ? &n->txcq_next : &n->rxcq_next;
	uint64_t ring = tx ? n->txcq_ring : n->rxcq_ring;
	uint8_t cpl[32];
	struct dmaop *op;

	memset(cpl, 0, sizeof(cpl));
	put_le(cpl + 2, idx & 0xffff, 2);
	put_le(cpl + 4, len, 2);
	op = dma_issue(s, n, t, 1, ring + 32ull * (*next & CQM_MASK), 32, cause,
	    tx ? DC_CQM_TX_CPL : DC_CQM_RX_CPL, NULL, NULL, cpl);
	*next = (*next + 1) & 0xffff;
	if (op != NULL)
		op->evtype = !tx;
}

/* An event (struct Event: type 0 TX / 1 RX completion, source queue 0). */
static void
cqm_event(struct syn *s, struct nic *n, int64_t t, unsigned type,
    uint64_t cause)
{
	uint8_t ev[32];
	struct dmaop *op;

	memset(ev, 0, sizeof(ev));
	put_le(ev, type, 2);
	op = dma_issue(s, n, t, 1, n->eq_ring + 32ull * (n->eq_next & CQM_MASK),
	    32, cause, DC_CQM_EVENT, NULL, NULL, ev);
	n->eq_next = (n->eq_next + 1) & 0xffff;
	if (op != NULL)
		op->evtype = type;
}

static void
cqm_msi(struct syn *s, struct nic *n, int64_t t, uint64_t cause)
{
	char key[16], *p = ssp_synnicbm_begin(n, t);
	uint64_t span;

	p = ssp_synlog_put_str(p, "issue MSI interrupt vec ");
	p = ssp_synlog_put_u64(p, CQM_MSI_VEC);
	ssp_synnicbm_end(n, p, SSP_EV_NIC_MSI);
	snprintf(key, sizeof(key), "%u", CQM_MSI_VEC);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_MSIX, t, key, cause,
	    n->last_cause);
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_MSIX, n->h->idx, span,
	    NULL);
}

/* What a register read returns (corundum_bm RegRead). */
static uint64_t
cqm_read(const struct nic *n, uint32_t off)
{
	switch (off) {
	case CQM_EQ + CQM_HEAD: return n->eq_head;
	case CQM_TXQ + CQM_TAIL: return n->txq_tail;
	case CQM_TXCQ + CQM_HEAD: return n->txcq_head;
	case CQM_RXQ + CQM_TAIL: return n->rxq_tail;
	case CQM_RXCQ + CQM_HEAD: return n->rxcq_head;
	default: return 0;
	}
}

/* A register write (span: its nic.mmio). */
static void
cqm_write(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m,
    uint64_t span)
{
	struct dmaop *op;

	if (m->off == CQM_RXQ + CQM_HEAD) {
		n->rxq_head = (uint32_t)m->val & 0xffff;
		return;
	}
	if (m->off != CQM_TXQ + CQM_HEAD)
		return;		/* tails, arming: no DMA */
	n->txq_head = (uint32_t)m->val & 0xffff;
	while (n->txq_fetch != n->txq_head && m->pk != NULL) {
		op = dma_issue(s, n, t, 0, n->tx_ring + 16ull * (n->txq_fetch &
		    CQM_MASK), 16, span, DC_CQM_TX_DESC, m->pk, NULL, NULL);
		m->pk = NULL;	/* the model sends one frame per doorbell */
		if (op != NULL)
			op->evtype = n->txq_fetch;
		n->txq_fetch = (n->txq_fetch + 1) & 0xffff;
	}
}

/* A DMA of corundum_bm completed (after its "completed" line).  Returns
 * 1 if op goes on (reissued), 0 if it is free again. */
static int
cqm_dma_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	static uint8_t frame[2048];
	struct pkt *pk = op->pk;
	uint32_t idx = op->evtype;
	unsigned len;
	char *p;

	switch (op->cont) {
	case DC_CQM_TX_DESC:	/* the same op fetches the payload */
		ssp_synnicbm_dma_start(s, n, t, op, 0, n->tx_buf + 2048ull * (idx & CQM_MASK),
		    pk->frame, op->cause, DC_CQM_TX_DATA, pk, NULL, NULL);
		op->evtype = idx;
		return 1;
	case DC_CQM_TX_DATA:
		p = ssp_synnicbm_begin(n, t);
		p = ssp_synlog_put_str(p, "eth tx: len ");
		p = ssp_synlog_put_u64(p, pk->frame);
		ssp_synnicbm_end(n, p, SSP_EV_NIC_TX);
		pk->tx_span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_TX, t, "",
		    op->cause, n->last_cause);
		ssp_synmodel_schedule(s, (t + s->p->eth_lat + NS - 1) / NS * NS,
		    EV_NET_IN, n->idx, 0, pk);
		op->pk = NULL;
		n->txq_tail = (n->txq_tail + 1) & 0xffff;
		cqm_cpl(s, n, t, 1, idx, op->len, op->cause);
		return 0;
	case DC_CQM_RX_DESC:	/* the same op writes the frame */
		len = ssp_synnicbm_frame(pk, frame, sizeof(frame));
		ssp_synnicbm_dma_start(s, n, t, op, 1, n->rx_buf + 2048ull * (idx & CQM_MASK),
		    len, op->cause, DC_CQM_RX_DATA, NULL, NULL, frame);
		op->evtype = idx;
		ssp_synmodel_pkt_put(pk);
		return 1;
	case DC_CQM_RX_DATA:
		n->rxq_tail = (n->rxq_tail + 1) & 0xffff;
		cqm_cpl(s, n, t, 0, idx, op->len, op->cause);
		return 0;
	case DC_CQM_TX_CPL:
	case DC_CQM_RX_CPL:
		if (op->cont == DC_CQM_TX_CPL) {
			n->txcq_head = (n->txcq_head + 1) & 0xffff;
			n->h->txcq++;
		} else {
			n->rxcq_head = (n->rxcq_head + 1) & 0xffff;
		}
		cqm_event(s, n, t, op->evtype, op->cause);
		return 0;
	case DC_CQM_EVENT:
		n->eq_head = (n->eq_head + 1) & 0xffff;
		if (op->evtype == 0)
			n->h->eq_tx++;
		else
			n->h->eq_rx++;
		cqm_msi(s, n, t, op->cause);
		return 0;
	default:
		return 0;
	}
}

/* corundum_bm EthRx: the next RX descriptor, if the driver posted one. */
static void
cqm_rx(struct syn *s, struct nic *n, int64_t t, struct pkt *pk, uint64_t span)
{
	struct dmaop *op;

	if (n->rxq_head == n->rxq_fetch) {	/* ring empty: dropped */
		ssp_synmodel_pkt_put(pk);
		return;
	}
	op = dma_issue(s, n, t, 0, n->rx_ring + 16ull * (n->rxq_fetch &
	    CQM_MASK), 16, span, DC_CQM_RX_DESC, pk, NULL, NULL);
	if (op != NULL)
		op->evtype = n->rxq_fetch;
	else
		ssp_synmodel_pkt_put(pk);
	n->rxq_fetch = (n->rxq_fetch + 1) & 0xffff;
}

/* --kernel linux: QTX_TAIL(q) and QRX_TAIL(q) per queue, DYN_CTLN per
 * vector.  A doorbell may carry several frames (TSO): one descriptor
 * read, one payload read, an eth tx per segment. */
static void
lx_mmio_write(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m,
    uint64_t span)
{
	struct dmaop *op;

	if (m->off >= I40E_QTX_TAIL0 && m->off < I40E_QTX_TAIL0 + 4 * NIC_MAXVEC &&
	    m->pk != NULL) {
		n->tx_idx = (n->tx_idx + 1) % 512;
		op = dma_issue(s, n, t, 0, n->tx_ring + 16ull * n->tx_idx,
		    m->pk->next != NULL ? 32 : 16, span, DC_TX_DESC, m->pk, NULL,
		    NULL);
		if (op != NULL)
			op->q = (m->off - I40E_QTX_TAIL0) / 4;
		m->pk = NULL;
	} else if (m->off >= I40E_QRX_TAIL0 &&
	    m->off < I40E_QRX_TAIL0 + 4 * NIC_MAXVEC) {
		dma_issue(s, n, t, 0, n->rx_ring + 32ull * n->rx_idx,
		    32 * (4 + (unsigned)ssp_synrng_below(&n->rng, 28)), span,
		    DC_PREFETCH, NULL, NULL, NULL);
	} else if (m->off >= I40E_PFINT_DYN_CTLN &&
	    m->off < I40E_PFINT_DYN_CTLN + 4 * NIC_MAXVEC) {
		lx_unmask(s, n, (m->off - I40E_PFINT_DYN_CTLN) / 4, t);
	}
}

/* One TSO send: the segments go out one wire time apart. */
struct tsojob {
	struct pkt *pk;			/* the next segment */
	uint64_t cause;			/* the doorbell nic.mmio */
	unsigned q;
	uint32_t idx;
};

static void lx_tx_seg(struct syn *s, struct nic *n, int64_t t,
    struct tsojob *j);
static void lx_dma_done(struct syn *s, struct nic *n, int64_t t,
    struct dmaop *op);

static void
mmio_in(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m)
{
	char key[32], *p = ssp_synnicbm_begin(n, t);
	uint64_t span;

	if (!m->write) {
		if (n->corundum) {
			m->val = cqm_read(n, m->off);
		} else {
			m->val = n->h->stat_ctr += 1 + ssp_synrng_below(&n->rng, 5000);
			m->val &= 0xffffffffull;
		}
		p = ssp_synlog_put_str(p, "read(off=0x");
		p = ssp_synlog_put_hex(p, m->off);
		p = ssp_synlog_put_str(p, ", len=");
		p = ssp_synlog_put_u64(p, m->len);
		p = ssp_synlog_put_str(p, ", val=0x");
		p = ssp_synlog_put_hex(p, m->val);
		*p++ = ')';
		ssp_synnicbm_end(n, p, SSP_EV_NIC_RD);
	} else {
		p = ssp_synlog_put_str(p, "write(off=0x");
		p = ssp_synlog_put_hex(p, m->off);
		p = ssp_synlog_put_str(p, ", len=");
		p = ssp_synlog_put_u64(p, m->len);
		p = ssp_synlog_put_str(p, ", val=0x");
		p = ssp_synlog_put_hex(p, m->val);
		if (n->dialect == SSP_SYN_NICBM_UPSTREAM)
			p = ssp_synlog_put_str(p, m->posted ? ", posted=1" : ", posted=0");
		*p++ = ')';
		ssp_synnicbm_end(n, p, SSP_EV_NIC_WR);
	}
	snprintf(key, sizeof(key), "0x%x", m->off);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_MMIO, t, key, m->span,
	    m->span);
	if (m->write && s->real) {
		n->last_cause = span;
		ssp_synq_write(s, n, t, m, span);
	} else if (m->write && s->lx) {
		n->last_cause = span;
		lx_mmio_write(s, n, t, m, span);
	} else if (m->write) {
		n->last_cause = span;
		if (n->corundum) {
			cqm_write(s, n, t, m, span);
		} else if (m->off == I40E_QTX_TAIL0 && m->pk != NULL) {
			n->tx_idx = (n->tx_idx + 1) % 512;
			dma_issue(s, n, t, 0, n->tx_ring + 16ull * n->tx_idx, 16,
			    span, DC_TX_DESC, m->pk, NULL, NULL);
			m->pk = NULL;
		} else if (m->off == I40E_QRX_TAIL0) {
			dma_issue(s, n, t, 0, n->rx_ring + 32ull * n->rx_idx,
			    32 * (4 + (unsigned)ssp_synrng_below(&n->rng, 28)), span,
			    DC_PREFETCH, NULL, NULL, NULL);
		}
	}
	if (!m->write || !m->posted)
		ssp_synmodel_schedule(s, t + s->p->pcie_lat, s->lx ?
		    EV_LX_MMIO_DONE : EV_HOST_MMIO_DONE, n->h->idx, 0, m);
	else
		free(m);
}

/* The device's DmaComplete: what the completed DMA leads to. */
static void
dma_cont(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	uint8_t d[32];
	char *p;
	struct pkt *pk = op->pk;

	if (s->real) {
		ssp_synq_dma_done(s, n, t, op);
		return;
	}
	if (n->corundum && cqm_dma_done(s, n, t, op))
		return;		/* reissued */
	if (s->lx && op->cont != DC_PREFETCH && op->cont != DC_TX_DESC) {
		lx_dma_done(s, n, t, op);
		ssp_synnicbm_op_put(n, op);
		return;
	}
	switch (op->cont) {
	case DC_TX_DESC:
		if (s->lx) {	/* the whole send: headers once, all payload */
			unsigned len = pk->frame;
			const struct pkt *x;
			struct dmaop *dop;

			for (x = pk->next; x != NULL; x = x->next)
				len += x->payload;
			dop = dma_issue(s, n, t, 0, n->tx_buf + 2048ull * n->tx_idx,
			    len, op->cause, DC_TX_DATA, pk, NULL, NULL);
			if (dop != NULL)
				dop->q = op->q;
			break;
		}
		dma_issue(s, n, t, 0, n->tx_buf + 2048ull * n->tx_idx, pk->frame,
		    op->cause, DC_TX_DATA, pk, NULL, NULL);
		break;
	case DC_TX_DATA:
		p = ssp_synnicbm_begin(n, t);
		p = ssp_synlog_put_str(p, "eth tx: len ");
		p = ssp_synlog_put_u64(p, pk->frame);
		ssp_synnicbm_end(n, p, SSP_EV_NIC_TX);
		pk->tx_span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_TX, t, "",
		    op->cause, n->last_cause);
		/* ns-3 runs on nanoseconds */
		ssp_synmodel_schedule(s, (t + s->p->eth_lat + NS - 1) / NS * NS,
		    EV_NET_IN, n->idx, 0, pk);
		desc_bytes(d, 16, pk->frame, n->tx_idx);
		dma_issue(s, n, t, 1, n->tx_ring + 16ull * n->tx_idx, 16,
		    op->cause, DC_TX_WB, NULL, NULL, d);
		break;
	case DC_TX_WB:
		irq_request(s, n, t, op->cause);
		break;
	case DC_RX_DATA:
	case DC_RX_DESC:
		if (--op->rw->left == 0) {
			irq_request(s, n, t, op->rw->span);
			free(op->rw);
		}
		break;
	case DC_PREFETCH:
	default:		/* corundum_bm: done above */
		break;
	}
	ssp_synnicbm_op_put(n, op);
}

/* nicbm's H2DReadcomp / H2DWritecomp: the line, the device's
 * DmaComplete (whose DMAs still count this one as pending), then the
 * count. */
static void
dma_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	ssp_synnicbm_dma_done_line(n, t, op);
	dma_cont(s, n, t, op);
	n->pending--;
}

static void
lx_tx_seg(struct syn *s, struct nic *n, int64_t t, struct tsojob *j)
{
	struct pkt *pk = j->pk;
	char *p = ssp_synnicbm_begin(n, t);
	uint8_t d[32];

	p = ssp_synlog_put_str(p, "eth tx: len ");
	p = ssp_synlog_put_u64(p, pk->frame);
	ssp_synnicbm_end(n, p, SSP_EV_NIC_TX);
	pk->tx_span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_TX, t, "",
	    j->cause, n->last_cause);
	j->pk = pk->next;
	pk->next = NULL;
	ssp_synmodel_schedule(s, (t + s->p->eth_lat + NS - 1) / NS * NS,
	    EV_NET_IN, n->idx, 0, pk);
	if (j->pk != NULL) {	/* 10 Gbit/s: 0.8 ns per byte */
		ssp_synmodel_schedule(s, t + (int64_t)(pk->frame + 20) * 800,
		    EV_NIC_TSO, n->idx, 0, j);
		return;
	}
	desc_bytes(d, 16, pk->frame, j->idx);
	{
		struct dmaop *op = dma_issue(s, n, t, 1, n->tx_ring + 16ull * j->idx,
		    16, j->cause, DC_TX_WB, NULL, NULL, d);

		if (op != NULL)
			op->q = j->q;
	}
	free(j);
}

static void
lx_dma_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	struct tsojob *j;

	switch (op->cont) {
	case DC_TX_DATA:
		if ((j = calloc(1, sizeof(*j))) == NULL) {
			s->failed = 1;
			ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
			return;
		}
		*j = (struct tsojob){ op->pk, op->cause, op->q, n->tx_idx };
		lx_tx_seg(s, n, t, j);
		break;
	case DC_TX_WB:
		ssp_synlinux_tx_done(s, n->h, op->q);
		lx_irq_request(s, n, op->q, t, op->cause, 0);
		break;
	case DC_RX_DATA:
	case DC_RX_DESC:
		if (--op->rw->left == 0) {
			ssp_synlinux_rx_done(s, n->h, op->rw->q, &op->rw->rx);
			lx_irq_request(s, n, op->rw->q, t, op->rw->span, 1);
			free(op->rw);
		}
		break;
	default:
		break;
	}
}

static unsigned
lx_rss(const struct nic *n, const struct pkt *pk, unsigned nq)
{
	uint32_t x = pk->sip * 2654435761u ^ pk->dip * 40503u ^
	    ((uint32_t)pk->sport << 16 | pk->dport) * 2246822519u;

	(void)n;
	return (x >> 7) % nq;
}

static void
eth_rx(struct syn *s, struct nic *n, int64_t t, struct pkt *pk, uint64_t from)
{
	static uint8_t frame[2048];
	struct rxctx rx;
	struct rxwork *rw;
	uint8_t d[32];
	char *p = ssp_synnicbm_begin(n, t);
	unsigned len;

	p = ssp_synlog_put_str(p, "eth rx: port 0 len ");
	p = ssp_synlog_put_u64(p, pk->frame);
	ssp_synnicbm_end(n, p, SSP_EV_NIC_RX);
	rx.span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_RX, t, "", from, from);
	rx.ts = t;
	rx.kind = pk->kind;
	rx.req = pk->req;
	rx.src_host = pk->src_host;
	n->last_cause = rx.span;
	if (s->real) {
		struct lrx lr = { rx.span, t, pk->kind, pk->conn, pk->payload, 1,
		    pk->req_end, pk->proto, n->h->server };

		if (pk->kind != PK_REQ && pk->kind != PK_RESP &&
		    pk->kind != PK_TCP_ACK)
			lr.conn = UINT32_MAX;
		ssp_synq_rx(s, n, t, pk, lx_rss(n, pk, s->p->cpus), &lr);
		ssp_synmodel_pkt_put(pk);
		return;
	}
	if (!s->lx)
		ssp_synhost_rx(s, n->h, &rx);
	if (n->corundum) {
		cqm_rx(s, n, t, pk, rx.span);
		return;
	}
	if ((rw = calloc(1, sizeof(*rw))) == NULL) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
		ssp_synmodel_pkt_put(pk);
		return;
	}
	rw->span = rx.span;
	rw->left = 2;
	if (s->lx) {
		rw->q = lx_rss(n, pk, s->p->cpus);
		rw->rx = (struct lrx){ rx.span, t, pk->kind, pk->conn,
		    pk->payload, 1, pk->req_end, pk->proto, n->h->server };
		if (pk->kind != PK_REQ && pk->kind != PK_RESP &&
		    pk->kind != PK_TCP_ACK)
			rw->rx.conn = UINT32_MAX;
	}
	n->rx_idx = (n->rx_idx + 1) % 512;
	len = ssp_synnicbm_frame(pk, frame, sizeof(frame));
	dma_issue(s, n, t, 1, n->rx_buf + 2048ull * n->rx_idx, len, rx.span,
	    DC_RX_DATA, NULL, rw, frame);
	desc_bytes(d, 32, len, n->rx_idx);
	dma_issue(s, n, t, 1, n->rx_ring + 32ull * n->rx_idx, 32, rx.span,
	    DC_RX_DESC, NULL, rw, d);
	ssp_synmodel_pkt_put(pk);
}

void
ssp_synnic_event(struct syn *s, const struct sev *ev)
{
	struct nic *n = &s->nics[ev->who];
	char buf[96];

	switch (ev->type) {
	case EV_NIC_MMIO:
		mmio_in(s, n, ev->t, ev->p);
		break;
	case EV_NIC_DMA_DONE:
		dma_done(s, n, ev->t, ev->p);
		break;
	case EV_NIC_IRQ:
		if (s->real)
			ssp_synq_irq(s, n, ev->a, ev->t);
		else if (s->lx)
			lx_fire(s, n, (unsigned)ev->a, ev->t);
		else
			irq_fire(s, n, ev->t);
		break;
	case EV_NIC_TSO:
		lx_tx_seg(s, n, ev->t, ev->p);
		break;
	case EV_NIC_RX:
		eth_rx(s, n, ev->t, ev->p, ev->a);
		break;
	case EV_NIC_INFO:	/* someone sent the NIC SIGUSR1 */
		if (n->dialect == SSP_SYN_NICBM_UPSTREAM)
			snprintf(buf, sizeof(buf), "[Runner 0x%" PRIx64 "] "
			    "main_time = %" PRId64, n->ops[0].ptr - 0x1f40, ev->t);
		else	/* before the Runner class */
			snprintf(buf, sizeof(buf), "main_time = %" PRId64, ev->t);
		ninfo(n, buf);
		break;
	}
}

void
ssp_synnic_init(struct syn *s, struct nic *n)
{
	uint64_t base;
	unsigned i;

	ssp_synrng_seed(&n->rng, s->p->seed, 200 + n->idx);
	n->dialect = s->p->nicbm_dialect;
	n->mac = ssp_synrng_next(&n->rng) & 0xfcffffffffffull;
	base = 0x55ea00000000ull + (ssp_synrng_below(&n->rng, 0x10000) << 16);
	for (i = 0; i < NIC_MAXOPS; i++) {
		n->ops[i].ptr = base + 0x540 + 0x60ull * (NIC_MAXOPS - 1 - i);
		n->ops[i].next_free = i + 1 < NIC_MAXOPS ? &n->ops[i + 1] : NULL;
	}
	n->free_ops = &n->ops[0];
	n->tx_ring = 0x100240000ull + (ssp_synrng_below(&n->rng, 256) << 16);
	n->rx_ring = 0x100600000ull + (ssp_synrng_below(&n->rng, 256) << 16);
	n->tx_buf = 0x102000000ull + (ssp_synrng_below(&n->rng, 256) << 20);
	n->rx_buf = 0x112000000ull + (ssp_synrng_below(&n->rng, 256) << 20);
	n->tx_idx = (uint32_t)ssp_synrng_below(&n->rng, 512);
	n->rx_idx = (uint32_t)ssp_synrng_below(&n->rng, 512);
	n->irq_last = -s->p->itr - 1;
	n->corundum = s->p->nic == SSP_SYN_NIC_CORUNDUM;
	if (n->corundum) {	/* the completion and event rings */
		n->txcq_ring = 0x100a00000ull + (ssp_synrng_below(&n->rng, 256) << 16);
		n->rxcq_ring = 0x100e00000ull + (ssp_synrng_below(&n->rng, 256) << 16);
		n->eq_ring = 0x101200000ull + (ssp_synrng_below(&n->rng, 256) << 16);
		n->txcq_next = (uint32_t)ssp_synrng_below(&n->rng, 0x10000);
		n->rxcq_next = (uint32_t)ssp_synrng_below(&n->rng, 0x10000);
		n->eq_next = (uint32_t)ssp_synrng_below(&n->rng, 0x10000);
	}
	for (i = 0; i < NIC_MAXVEC; i++)
		n->lv[i].last = -s->p->itr - 1;
}

void
ssp_synnic_start(struct syn *s, struct nic *n)
{
	char buf[64];
	uint64_t le = 0, m = n->mac;
	int i;

	for (i = 0; i < 6; i++)	/* nicbm prints its u64 holding the bytes */
		le |= ((m >> (8 * (5 - i))) & 0xff) << (8 * i);
	snprintf(buf, sizeof(buf), "%smac_addr=%" PRIx64, info_pfx(n), le);
	ninfo(n, buf);
	snprintf(buf, sizeof(buf), "%ssync_pci=1 sync_eth=1", info_pfx(n));
	ninfo(n, buf);
	ssp_synmodel_schedule(s, s->t0 + (int64_t)ssp_synrng_below(&n->rng,
	    (uint64_t)s->t0), EV_NIC_INFO, n->idx, 0, NULL);
}

void
ssp_synnic_finish(struct syn *s, struct nic *n)
{
	static const char *const stats[] = {
		"      h2d_poll_total:            54241850474         h2d_poll_suc:              263850245  poll_suc_rate: 0.004864",
		"                                                    h2d_poll_sync:              262429776  sync_rate: 0.994616",
		"      n2d_poll_total:            54241850474         n2d_poll_suc:                7990525  poll_suc_rate: 0.000147",
		"                                                    n2d_poll_sync:                7886626  sync_rate: 0.986997",
		"          recv_total:              271840770            recv_sync:              270316402  sync_rate: 0.994392",
	};
	char buf[64];
	unsigned i;

	ninfo(n, "poll_h2d: peer terminated");
	snprintf(buf, sizeof(buf), "exit main_time: %" PRId64, s->end);
	ninfo(n, buf);
	for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++)
		ninfo(n, stats[i]);
}
