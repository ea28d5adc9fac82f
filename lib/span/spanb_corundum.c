/*
 * The span builder's Corundum Verilator NICs (sim2ev -f corundum): nicbm's
 * handlers for what the adapter prints as nicbm does (DMAs, MSI, tx, rx),
 * and its register accesses, which last from the h2d line to the AXI-Lite
 * manager's read_done / write_done.  Those carry the host's request id:
 * for a gem5 host the id of its mmio span, an exact key that corrects the
 * in-order match when the two differ.  The adapter prints no DMA
 * completion unless the AXI library's debug flags are on: until the first
 * such line, a nic.dma span ends where it starts.
 */
#include <stdlib.h>

#include "span/spanb_int.h"

static struct cstate *
cor_of(struct ssp_spanb *b, unsigned st)
{
	return &b->s[st].u.corundum;
}

/* An access waits for its completion line: the queue holds its maker's
 * reference.  Beyond the context limit the oldest ends incomplete. */
static void
wait_done(struct ssp_spanb *b, struct ssp_fifo *q, struct span *s)
{
	if (q->n >= b->ctx_limit) {
		ssp_spanb_incomplete(b, ssp_fifo_pop(q));
		b->st.ctx_overflow[SSP_CTX_MMIO]++;
	}
	if (ssp_fifo_push(q, s) != 0) {
		nomem(b);
		ssp_spanb_incomplete(b, s);
	}
}

/* h2d_read / h2d_write: a nic.mmio span under the host's context, open
 * until its completion line. */
static void
ev_mmio(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct cstate *c = cor_of(b, st);
	int write = ev->type == SSP_EV_NIC_WR;
	struct span *s = ssp_spanb_mk(b, SSP_SK_NIC_MMIO, st, ev->ts), *p;
	uint64_t off = ev->f[SSP_F_NMMIO_OFF];

	if (s == NULL)
		return;
	if ((p = ssp_spanb_nic_mmio_ctx(b, &c->n, off)) != NULL)
		s->parent = p;		/* the queue's reference moves over */
	else
		orphan(s, SSP_CAUSE_MMIO);
	add_ev(b, s, ev);
	SA(s, SSP_SA_NMMIO_WRITE) = (uint64_t)write;
	SA(s, SSP_SA_NMMIO_OFF) = off;
	SA(s, SSP_SA_NMMIO_LEN) = ev->f[SSP_F_NMMIO_LEN];
	SA(s, SSP_SA_NMMIO_VAL) = ev->f[SSP_F_NMMIO_VAL];
	SA(s, SSP_SA_NMMIO_POSTED) = write ? ev->f[SSP_F_NMMIO_POSTED] :
	    (uint64_t)-1;
	if (write)	/* the doorbell: what the NIC does next it causes */
		ssp_spanb_nic_set_last(b, &c->n, s);
	wait_done(b, write ? &c->wr : &c->rd, s);
}

/* read_done / write_done: the oldest access of its kind (AXI-Lite
 * completes them in order) ends; its request id names the host span. */
static void
ev_done(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct cstate *c = cor_of(b, st);
	int write = ev->type == SSP_EV_NIC_WR_DONE;
	struct span *s = ssp_fifo_pop(write ? &c->wr : &c->rd), *h;
	int plink = c->n.plink;

	if (s == NULL) {
		drop(b, st, SSP_DROP_NO_START);
		return;
	}
	if (SA(s, SSP_SA_NMMIO_OFF) != ev->f[SSP_F_NDONE_OFF])
		b->st.mmio_mismatch++;
	SA(s, SSP_SA_NMMIO_VAL) = ev->f[SSP_F_NDONE_VAL];
	add_ev(b, s, ev);
	/* a gem5 host's read waits in its open mmio map under that id: the
	 * exact parent, when the in-order match took another */
	if (!write && plink >= 0 && (h = ssp_map3_get(&b->mmio_open,
	    ev->f[SSP_F_NDONE_ID], 0, b->pl[plink].host)) != NULL &&
	    h != s->parent) {
		if (s->parent != NULL) {
			unref(b, s->parent);
		} else {
			s->flags &= (uint8_t)~SSP_SPAN_ORPHAN;
			s->cause = 0;
		}
		set_parent(s, h);
		b->st.mmio_mismatch++;
	}
	ssp_spanb_done(b, s);
}

/* doRead / doWrite: nicbm's DMA without an issue line; ended at once
 * while the log has no DMA completions. */
static void
ev_dma(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct cstate *c = cor_of(b, st);
	struct span *s;

	if (ev->type != SSP_EV_NIC_DMA_EXEC)
		c->dma_done_seen = 1;
	ssp_spanb_nic_event(b, st, ev);
	if (ev->type == SSP_EV_NIC_DMA_EXEC && !c->dma_done_seen &&
	    (s = ssp_map3_del(&b->ndma_open, ev->f[SSP_F_NDMA_OP], 0, st)) != NULL)
		ssp_spanb_done(b, s);
}

static void
ev_corundum(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	switch (ev->type) {
	case SSP_EV_NIC_RD:
	case SSP_EV_NIC_WR:
		ev_mmio(b, st, ev);
		break;
	case SSP_EV_NIC_RD_DONE:
	case SSP_EV_NIC_WR_DONE:
		ev_done(b, st, ev);
		break;
	case SSP_EV_NIC_DMA_EXEC:
	case SSP_EV_NIC_DMA_DONE_RD:
	case SSP_EV_NIC_DMA_DONE_WR:
		ev_dma(b, st, ev);
		break;
	default:
		ssp_spanb_nic_event(b, st, ev);
	}
}

static enum ssp_status
cor_init(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct cstate *c = cor_of(b, st);

	enum ssp_status rc = ssp_spanb_nic_sim.init(b, st, e);

	if (rc == SSP_OK && c->n.plink >= 0)	/* write ids repeat: in order, by id */
		b->pl[c->n.plink].dma_fifo = b->pl[c->n.plink].dma_keyed = 1;
	return rc;
}

static void
cor_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev))
		if (ours(b, SSP_SIM_NICBM, ev))
			ev_corundum(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
}

/* Accesses whose completion line did not come. */
static void
close_fifo(struct ssp_spanb *b, struct ssp_fifo *q)
{
	struct span *s;

	while ((s = ssp_fifo_pop(q)) != NULL)
		ssp_spanb_close_open(b, s);
}

static void
cor_stream_end(struct ssp_spanb *b, unsigned st)
{
	struct cstate *c = cor_of(b, st);

	close_fifo(b, &c->rd);
	close_fifo(b, &c->wr);
	ssp_spanb_nic_sim.end(b, st);	/* c->n, as a nicbm NIC's */
}

static void
cor_free(struct ssp_spanb *b, unsigned st)
{
	struct cstate *c = cor_of(b, st);

	ssp_fifo_free(&c->rd);
	ssp_fifo_free(&c->wr);
}

const struct ssp_spanb_sim ssp_spanb_corundum_sim = {
	cor_init, cor_events, cor_stream_end, NULL, cor_free,
	NULL,	/* no reader filters: every event comes through */
};
