/*
 * The span builder's nicbm NICs (SPEC §3): mmio spans under the host's
 * mmio contexts, dma spans whose contexts go to the host, msix, tx and rx
 * spans and the contexts they hand to the host and the network, and with
 * the kernel context model (SPEC §3b) the NIC work chains, TSO sends and
 * the batching of rx under one MSI-X.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "span/spanb_int.h"

#define RESYNC 8		/* mmio contexts looked at past a mismatch */

/* A NIC span caused by the NIC's last causing span. */
static struct span *
nic_caused(struct ssp_spanb *b, unsigned kind, unsigned st,
    const struct ssp_rec *ev)
{
	struct span *s = ssp_spanb_mk(b, kind, st, ev->ts);
	struct span *last = nic_of(b, st)->last;

	if (s == NULL)
		return NULL;
	if (last != NULL)
		set_parent(s, last);
	else
		orphan(s, SSP_CAUSE_NIC);
	add_ev(b, s, ev);
	return s;
}

void
ssp_spanb_nic_set_last(struct ssp_spanb *b, struct nstate *n, struct span *s)
{
	ref(s);
	if (n->last != NULL)
		unref(b, n->last);
	n->last = s;
}

/* --- NIC work chains (kctx) ------------------------------------------------ */

static void
chain_set(struct ssp_spanb *b, struct nstate *n, struct span *c, int64_t ts,
    int tx)
{
	if (c != NULL)
		ref(c);
	if (n->chain != NULL)
		unref(b, n->chain);
	n->chain = c;
	n->chain_ts = ts;
	n->chain_tx = tx;
}

/* The cause a NIC line at ts inherits from the read completion (tx: 0) or
 * eth tx (tx: 1) just before it at the same time, or NULL. */
static struct span *
chain_at(const struct nstate *n, int64_t ts, int tx)
{
	return n->chain != NULL && n->chain_ts == ts && n->chain_tx == tx ?
	    n->chain : NULL;
}

static void
tso_del(struct ssp_spanb *b, struct nstate *n, unsigned i)
{
	unref(b, n->tso[i].cause);
	memmove(&n->tso[i], &n->tso[i + 1],
	    (n->ntso - i - 1) * sizeof(n->tso[0]));
	n->ntso--;
}

/* The TSO send an eth tx of len bytes at ts continues: the one whose next
 * segment is due closest to ts (one wire time after its last one).  The
 * wire time per byte is learnt from the first send seen alone. */
static struct span *
tso_next(struct nstate *n, int64_t ts, uint64_t len)
{
	struct tso *j, *best = NULL;
	int64_t d, bd = 0;
	unsigned i;

	if (n->ntso == 1 && n->tso_ppb == 0 && ts > n->tso[0].last)
		n->tso_ppb = (ts - n->tso[0].last) / n->tso[0].bytes;
	for (i = 0; i < n->ntso; i++) {
		j = &n->tso[i];
		d = ts - (j->last + j->bytes * n->tso_ppb);
		if (d < 0)
			d = -d;
		if (best == NULL || d < bd) {
			best = j;
			bd = d;
		}
	}
	if (best == NULL)
		return NULL;
	best->last = ts;
	best->bytes = (int64_t)(len & 0xffff) + 20;
	return best->cause;
}

static void
tso_start(struct ssp_spanb *b, struct nstate *n, struct span *c, int64_t ts,
    uint64_t len)
{
	if (n->ntso == TSO_MAX) {
		tso_del(b, n, 0);
		b->st.tso_overflow++;
	}
	ref(c);
	n->tso[n->ntso].cause = c;
	n->tso[n->ntso].last = ts;
	n->tso[n->ntso].bytes = (int64_t)(len & 0xffff) + 20;
	n->ntso++;
}

/* A tx write-back is issued with the send's last segment: the send ends. */
static void
tso_end(struct ssp_spanb *b, struct nstate *n, const struct span *c)
{
	unsigned i;

	for (i = 0; i < n->ntso; i++)
		if (n->tso[i].cause == c) {
			tso_del(b, n, i);
			return;
		}
}

/* An rx of the batch list issued (d = 1) or completed (-1) a DMA. */
static void
rx_dma(struct nstate *n, const struct span *rx, int d)
{
	unsigned i = n->nrxb;

	while (i-- > 0)
		if (n->rxb[i] == rx) {
			if (d > 0 ? n->rxo[i] < UINT8_MAX : n->rxo[i] > 0)
				n->rxo[i] = (uint8_t)(n->rxo[i] + d);
			return;
		}
}

/* Whether an rx of the batch list has all its DMAs completed. */
static int
rx_any_done(const struct nstate *n)
{
	unsigned i;

	for (i = 0; i < n->nrxb; i++)
		if (n->rxo[i] == 0)
			return 1;
	return 0;
}

static void
nic_chain_free(struct ssp_spanb *b, struct nstate *n)
{
	chain_set(b, n, NULL, 0, 0);
	while (n->ntso > 0)
		tso_del(b, n, n->ntso - 1);
	if (n->txwb != NULL) {
		unref(b, n->txwb);
		n->txwb = NULL;
	}
}

struct span *
ssp_spanb_nic_mmio_ctx(struct ssp_spanb *b, struct nstate *n, uint64_t off)
{
	struct ssp_fifo *q;
	uint32_t i, k = 0;

	if (n->plink < 0)
		return NULL;
	q = &b->pl[n->plink].mmio;
	/* FIFO order per link, checked by the BAR offset; a short look ahead
	 * skips host contexts that never reached the NIC. */
	if (q->n > 0 && SA(q_at(q, 0), SSP_SA_HMMIO_OFFS) != off) {
		for (i = 1; i < q->n && i <= RESYNC; i++)
			if (SA(q_at(q, i), SSP_SA_HMMIO_OFFS) == off) {
				k = i;
				break;
			}
		if (k == 0)
			b->st.mmio_mismatch++;
		for (i = 0; i < k; i++) {
			unref(b, ssp_fifo_pop(q));
			b->st.mmio_skipped++;
		}
	}
	return ssp_fifo_pop(q);
}

static void
ev_nic_mmio(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	int write = ev->type == SSP_EV_NIC_WR;
	struct span *s = ssp_spanb_mk(b, SSP_SK_NIC_MMIO, st, ev->ts);
	struct span *c;
	uint64_t off = ev->f[SSP_F_NMMIO_OFF];

	if (s == NULL)
		return;
	c = ssp_spanb_nic_mmio_ctx(b, n, off);
	if (c != NULL)
		s->parent = c;
	else
		orphan(s, SSP_CAUSE_MMIO);
	add_ev(b, s, ev);
	SA(s, SSP_SA_NMMIO_WRITE) = (uint64_t)write;
	SA(s, SSP_SA_NMMIO_OFF) = off;
	SA(s, SSP_SA_NMMIO_LEN) = ev->f[SSP_F_NMMIO_LEN];
	SA(s, SSP_SA_NMMIO_VAL) = ev->f[SSP_F_NMMIO_VAL];
	SA(s, SSP_SA_NMMIO_POSTED) = write && ev->nf > SSP_F_NMMIO_POSTED ?
	    ev->f[SSP_F_NMMIO_POSTED] : (uint64_t)-1;
	if (write)
		ssp_spanb_nic_set_last(b, n, s);
	if (write && b->kctx)
		chain_set(b, n, NULL, 0, 0);
	ssp_spanb_done(b, s);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Bound the DMA context map: drop its older half (rare: the host stream
 * is missing its DMA lines). */
static void
trim_dma_ctx(struct ssp_spanb *b)
{
	size_t i, k = 0, m = b->dma_ctx.n;
	uint64_t *seqs = malloc(m * sizeof(*seqs)), cut;

	if (seqs == NULL) {
		nomem(b);
		return;
	}
	for (i = 0; i < b->dma_ctx.cap; i++)
		if (b->dma_ctx.t[i].used)
			seqs[k++] = ((struct span *)b->dma_ctx.t[i].v)->seq;
	qsort(seqs, k, sizeof(*seqs), cmp_u64);
	cut = seqs[k / 2];
	free(seqs);
	for (i = 0; i < b->dma_ctx.cap; ) {
		struct span *x = b->dma_ctx.t[i].v;

		if (b->dma_ctx.t[i].used && x->seq < cut) {
			ssp_map3_del_at(&b->dma_ctx, i);
			unref(b, x);
			b->st.ctx_overflow[SSP_CTX_DMA]++;
		} else {
			i++;
		}
	}
}

static void
ev_nic_dma(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	uint64_t op = ev->f[SSP_F_NDMA_OP], addr = ev->f[SSP_F_NDMA_ADDR];
	struct ssp_map3_ent *hf = ssp_map3_find(&b->ndma_open, op, 0, st);
	struct span *s = hf != NULL ? hf->v : NULL, *old;
	void *o;

	switch (ev->type) {
	case SSP_EV_NIC_DMA_ISSUE:
	case SSP_EV_NIC_DMA_ENQ:
		if (s != NULL) {
			b->st.dup_ids++;
			ssp_map3_del_at(&b->ndma_open, (size_t)(hf - b->ndma_open.t));
			ssp_spanb_incomplete(b, s);
		}
		if (b->kctx && (old = chain_at(n, ev->ts, 0)) != NULL) {
			s = ssp_spanb_mk(b, SSP_SK_NIC_DMA, st, ev->ts);
			if (s == NULL)
				return;
			set_parent(s, old);
			s->cause = SSP_CAUSE_DMA_CHAIN + 1;
			add_ev(b, s, ev);
		} else if (b->kctx && (old = chain_at(n, ev->ts, 1)) != NULL) {
			/* the write-back after a send's last segment */
			s = ssp_spanb_mk(b, SSP_SK_NIC_DMA, st, ev->ts);
			if (s == NULL)
				return;
			set_parent(s, old);
			s->cause = SSP_CAUSE_DMA_CHAIN + 1;
			add_ev(b, s, ev);
			tso_end(b, n, old);
			chain_set(b, n, NULL, 0, 0);
		} else if ((s = nic_caused(b, SSP_SK_NIC_DMA, st, ev)) == NULL) {
			return;
		} else if (b->kctx && s->parent != NULL &&
		    s->parent->kind == SSP_SK_NIC_RX) {
			rx_dma(n, s->parent, 1);
		}
		SA(s, SSP_SA_NDMA_OP) = op;
		SA(s, SSP_SA_NDMA_ADDR) = addr;
		SA(s, SSP_SA_NDMA_LEN) = ev->f[SSP_F_NDMA_LEN];
		if (ssp_map3_put(&b->ndma_open, op, 0, st, s, &o) != 0)
			nomem(b);
		return;
	case SSP_EV_NIC_DMA_EXEC:
		if (s == NULL) {	/* its issue line is missing */
			if ((s = nic_caused(b, SSP_SK_NIC_DMA, st, ev)) == NULL)
				return;
			SA(s, SSP_SA_NDMA_OP) = op;
			SA(s, SSP_SA_NDMA_ADDR) = addr;
			SA(s, SSP_SA_NDMA_LEN) = ev->f[SSP_F_NDMA_LEN];
			if (ssp_map3_put(&b->ndma_open, op, 0, st, s, &o) != 0) {
				nomem(b);
				return;
			}
		} else {
			if (SA(s, SSP_SA_NDMA_ADDR) != addr)
				b->st.dma_mismatch++;
			add_ev(b, s, ev);
		}
		if (n->plink < 0) {
			b->st.ctx_nowhere[SSP_CTX_DMA]++;
			return;
		}
		if (b->pl[n->plink].dma_fifo) {	/* the host takes them in order */
			ssp_spanb_send(b, &b->pl[n->plink].dma, s, SSP_CTX_DMA);
			return;
		}
		if (ssp_map3_put(&b->dma_ctx, op, 0, (uint32_t)n->plink, s, &o) != 0) {
			nomem(b);
			return;
		}
		ref(s);
		if ((old = o) != NULL) {	/* the host never took it */
			b->st.ctx_unused[SSP_CTX_DMA]++;
			unref(b, old);
		}
		if (b->dma_ctx.n > b->ctx_limit)
			trim_dma_ctx(b);
		return;
	default:		/* completed dma read / write */
		if (s == NULL) {
			drop(b, st, SSP_DROP_NO_START);
			return;
		}
		ssp_map3_del_at(&b->ndma_open, (size_t)(hf - b->ndma_open.t));
		if (SA(s, SSP_SA_NDMA_ADDR) != addr)
			b->st.dma_mismatch++;
		SA(s, SSP_SA_NDMA_WRITE) = ev->type == SSP_EV_NIC_DMA_DONE_WR;
		add_ev(b, s, ev);
		if (b->kctx && s->parent != NULL) {
			if (ev->type == SSP_EV_NIC_DMA_DONE_RD)
				chain_set(b, n, s->parent, ev->ts, 0);
			else if (s->parent->kind == SSP_SK_NIC_RX)
				rx_dma(n, s->parent, -1);
			else if (s->parent->kind == SSP_SK_NIC_MMIO) {
				ref(s->parent);	/* a tx write-back */
				if (n->txwb != NULL)
					unref(b, n->txwb);
				n->txwb = s->parent;
			}
		}
		ssp_spanb_done(b, s);
	}
}

/* Receive batching (SPEC §3b): an MSI-X after k rx has the newest as its
 * parent and links to the k-1 others. */
static struct span *
nic_msix_batch(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	struct span *s = ssp_spanb_mk(b, SSP_SK_NIC_MSIX, st, ev->ts);
	struct span *sel[RXB_MAX];
	struct lnk **tail;
	unsigned i, k = 0, nsel = 0, ndone = 0;

	if (s == NULL)
		return NULL;
	/* only the rx whose write-backs completed asked for it (all when
	 * none did: their completion lines are missing) */
	for (i = 0; i < n->nrxb; i++)
		ndone += n->rxo[i] == 0;
	for (i = 0; i < n->nrxb; i++) {
		if (ndone == 0 || n->rxo[i] == 0) {
			sel[nsel++] = n->rxb[i];
		} else {
			n->rxb[k] = n->rxb[i];
			n->rxo[k++] = n->rxo[i];
		}
	}
	n->nrxb = k;
	s->parent = sel[--nsel];	/* the reference moves over */
	tail = &s->out;
	for (i = 0; i < nsel; i++) {
		struct lnk *l = ssp_pool_get(&b->lpool);

		if (l == NULL) {
			nomem(b);
			unref(b, sel[i]);
			continue;
		}
		l->dst = sel[i];	/* so does this one */
		l->src = s;
		l->next = l->wnext = NULL;
		l->resume = 0;
		*tail = l;
		tail = &l->next;
		b->st.rx_batched++;
	}
	if (nsel > 0)
		s->cause = SSP_CAUSE_RX_BATCH + 1;
	add_ev(b, s, ev);
	return s;
}

/* kctx: an eth tx at the time of a read completion is the first segment of
 * that DMA's send; others continue the TSO send whose segment is due. */
static struct span *
nic_tx_chained(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	struct span *s, *c = chain_at(n, ev->ts, 0);
	uint64_t len = ev->f[SSP_F_NTX_LEN];
	unsigned why = SSP_CAUSE_DMA_CHAIN;

	if (c != NULL)
		tso_start(b, n, c, ev->ts, len);
	else if ((c = tso_next(n, ev->ts, len)) != NULL)
		why = SSP_CAUSE_TSO;
	else
		return nic_caused(b, SSP_SK_NIC_TX, st, ev);
	if ((s = ssp_spanb_mk(b, SSP_SK_NIC_TX, st, ev->ts)) == NULL)
		return NULL;
	set_parent(s, c);
	s->cause = (uint8_t)(why + 1);
	add_ev(b, s, ev);
	chain_set(b, n, c, ev->ts, 1);
	return s;
}

void
ssp_spanb_nic_event(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	struct span *s, *c;

	switch (ev->type) {
	case SSP_EV_NIC_RD:
	case SSP_EV_NIC_WR:
		ev_nic_mmio(b, st, ev);
		break;
	case SSP_EV_NIC_DMA_ISSUE:
	case SSP_EV_NIC_DMA_EXEC:
	case SSP_EV_NIC_DMA_ENQ:
	case SSP_EV_NIC_DMA_DONE_RD:
	case SSP_EV_NIC_DMA_DONE_WR:
		ev_nic_dma(b, st, ev);
		break;
	case SSP_EV_NIC_MSIX:
	case SSP_EV_NIC_MSI:
		if (b->kctx && n->nrxb > 0 &&
		    (n->txwb == NULL || rx_any_done(n))) {
			s = nic_msix_batch(b, st, ev);
		} else if (b->kctx && n->txwb != NULL) {
			s = ssp_spanb_mk(b, SSP_SK_NIC_MSIX, st, ev->ts);
			if (s != NULL) {
				s->parent = n->txwb;	/* the reference moves */
				n->txwb = NULL;
				s->cause = SSP_CAUSE_TX_WB + 1;
				add_ev(b, s, ev);
			}
		} else {
			s = nic_caused(b, SSP_SK_NIC_MSIX, st, ev);
		}
		if (b->kctx && n->txwb != NULL) {
			unref(b, n->txwb);
			n->txwb = NULL;
		}
		if (s == NULL)
			break;
		SA(s, SSP_SA_NMSIX_VEC) = ev->f[SSP_F_NIRQ_VEC];
		SA(s, SSP_SA_NMSIX_MSI) = ev->type == SSP_EV_NIC_MSI;
		if (n->plink >= 0)
			ssp_spanb_send(b, &b->pl[n->plink].msix, s,
			    SSP_CTX_MSIX);
		else
			b->st.ctx_nowhere[SSP_CTX_MSIX]++;
		ssp_spanb_done(b, s);
		break;
	case SSP_EV_NIC_TX:
		if (b->kctx) {
			s = nic_tx_chained(b, st, ev);
			if (s == NULL)
				break;
		} else if ((s = nic_caused(b, SSP_SK_NIC_TX, st, ev)) == NULL) {
			break;
		}
		SA(s, SSP_SA_NTX_LEN) = ev->f[SSP_F_NTX_LEN];
		if (n->elink >= 0) {
			ssp_spanb_send(b, &b->el[n->elink].tx, s, SSP_CTX_TX);
			if ((size_t)n->elink < b->t->neth)
				b->st.eth_sent[n->elink]++;
		} else
			b->st.ctx_nowhere[SSP_CTX_TX]++;
		ssp_spanb_done(b, s);
		break;
	case SSP_EV_NIC_RX:
		if ((s = ssp_spanb_mk(b, SSP_SK_NIC_RX, st, ev->ts)) == NULL)
			break;
		c = n->elink >= 0 ? ssp_spanb_pcap_rx(b, &b->el[n->elink],
		    ev->ts, ev->f[SSP_F_NRX_LEN]) : NULL;
		if (c != NULL)
			s->parent = c;
		else
			orphan(s, SSP_CAUSE_RX);
		add_ev(b, s, ev);
		SA(s, SSP_SA_NRX_PORT) = ev->f[SSP_F_NRX_PORT];
		SA(s, SSP_SA_NRX_LEN) = ev->f[SSP_F_NRX_LEN];
		ssp_spanb_nic_set_last(b, n, s);
		if (b->kctx)
			chain_set(b, n, NULL, 0, 0);
		if (b->kctx) {		/* for the next MSI-X */
			if (n->nrxb == RXB_MAX) {
				b->st.rxb_overflow++;
				unref(b, n->rxb[0]);
				memmove(&n->rxb[0], &n->rxb[1],
				    (RXB_MAX - 1) * sizeof(n->rxb[0]));
				memmove(&n->rxo[0], &n->rxo[1],
				    (RXB_MAX - 1) * sizeof(n->rxo[0]));
				n->nrxb--;
			}
			ref(s);
			n->rxo[n->nrxb] = 0;
			n->rxb[n->nrxb++] = s;
		}
		if (n->plink >= 0 && b->pl[n->plink].recv != NULL)
			ssp_spanb_send(b, b->pl[n->plink].recv, s,
			    SSP_CTX_RECV);
		else if (n->plink < 0)	/* a QEMU host: no receiving syscall */
			b->st.ctx_nowhere[SSP_CTX_RECV]++;
		ssp_spanb_done(b, s);
		break;
	case SSP_EV_NIC_INTX:
		drop(b, st, SSP_DROP_NO_RULE);
		break;
	default:
		drop(b, st, SSP_DROP_FOREIGN);
	}
}

static enum ssp_status
nic_init(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct nstate *n = nic_of(b, st);

	(void)e;
	n->plink = b->t->streams[st].pcie;
	n->elink = b->t->streams[st].eth;
	return SSP_OK;
}

static void
nic_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev))
		if (ours(b, SSP_SIM_NICBM, ev))
			ssp_spanb_nic_event(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
}

static void
nic_stream_end(struct ssp_spanb *b, unsigned st)
{
	struct nstate *n = nic_of(b, st);
	unsigned i;

	ssp_spanb_close_stream(b, &b->ndma_open, st);
	if (n->last != NULL) {
		unref(b, n->last);
		n->last = NULL;
	}
	for (i = 0; i < n->nrxb; i++)
		unref(b, n->rxb[i]);
	n->nrxb = 0;
	nic_chain_free(b, n);
}

static void
nic_skips(struct ssp_spanb *b, unsigned st)
{
	skip_foreign(b, st, SSP_SIM_NICBM);
	skip(b, st, SSP_EV_NIC_INTX, SSP_RA_SKIP, SSP_DROP_NO_RULE);
}

const struct ssp_spanb_sim ssp_spanb_nic_sim = {
	nic_init, nic_events, nic_stream_end, NULL, NULL, nic_skips,
};
