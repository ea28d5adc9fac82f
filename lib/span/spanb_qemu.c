/*
 * The span builder's QEMU hosts (sim2ev -f qemu): QEMU prints no
 * instruction trace, so there are no syscall spans and a host.mmio span is
 * a trace root; the NIC's spans hang under it.  A read lasts from QEMU's
 * start line to the CPU's done line; a write is an instant (QEMU does not
 * wait for it, its completion message is not used).  QEMU prints no DMA
 * id and no interrupt vector: host.dma and host.msix spans take their
 * parents from the NIC's DMAs and interrupts in order (the pcie link's
 * dma and msix queues), and a host.msix span the vector of the NIC's.
 */
#include <stdlib.h>

#include "span/spanb_int.h"

static struct qstate *
qemu_of(struct ssp_spanb *b, unsigned st)
{
	return &b->s[st].u.qemu;
}

static void
ev_mmio(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct qstate *q = qemu_of(b, st);
	int write = ev->type == SSP_EV_MMIO_WR;
	struct span *s = ssp_spanb_mk(b, SSP_SK_HOST_MMIO, st, ev->ts), *old;
	void *o;

	if (s == NULL)
		return;
	add_ev(b, s, ev);
	SA(s, SSP_SA_HMMIO_COMP) = ostr(b, st, ev->f[SSP_F_MMIO_COMP]);
	SA(s, SSP_SA_HMMIO_WRITE) = (uint64_t)write;
	SA(s, SSP_SA_HMMIO_ADDR) = ev->f[SSP_F_MMIO_ADDR];
	SA(s, SSP_SA_HMMIO_SIZE) = ev->f[SSP_F_MMIO_SIZE];
	SA(s, SSP_SA_HMMIO_ID) = ev->f[SSP_F_MMIO_ID];
	SA(s, SSP_SA_HMMIO_BAR) = ev->f[SSP_F_MMIO_BAR];
	SA(s, SSP_SA_HMMIO_OFFS) = ev->f[SSP_F_MMIO_OFFS];
	SA(s, SSP_SA_HMMIO_POSTED) = write ? ev->f[SSP_F_MMIO_POSTED] :
	    (uint64_t)-1;
	if (q->plink >= 0)
		ssp_spanb_send(b, &b->pl[q->plink].mmio, s, SSP_CTX_MMIO);
	else
		b->st.ctx_nowhere[SSP_CTX_MMIO]++;
	if (write) {
		ssp_spanb_done(b, s);
		return;
	}
	if (ssp_map3_put(&b->mmio_open, ev->f[SSP_F_MMIO_ID], 0, st, s, &o) != 0) {
		nomem(b);
		return;
	}
	if ((old = o) != NULL) {
		b->st.dup_ids++;
		ssp_spanb_incomplete(b, old);
	}
}

static void
ev_rd_done(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct span *s = ssp_map3_del(&b->mmio_open, ev->f[SSP_F_DONE_ID], 0, st);

	if (s == NULL) {
		drop(b, st, SSP_DROP_NO_START);
		return;
	}
	add_ev(b, s, ev);
	ssp_spanb_done(b, s);
}

/* A DMA message: the NIC's oldest DMA sent on the link. */
static void
ev_dma(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct qstate *q = qemu_of(b, st);
	struct span *s = ssp_spanb_mk(b, SSP_SK_HOST_DMA, st, ev->ts), *c = NULL;

	if (s == NULL)
		return;
	if (q->plink >= 0)
		c = ssp_fifo_pop(&b->pl[q->plink].dma);
	if (c != NULL)
		s->parent = c;		/* the queue's reference moves over */
	else
		orphan(s, SSP_CAUSE_DMA);
	add_ev(b, s, ev);
	SA(s, SSP_SA_HDMA_COMP) = ostr(b, st, ev->f[SSP_F_DMA_COMP]);
	SA(s, SSP_SA_HDMA_WRITE) = ev->type == SSP_EV_DMA_WR;
	SA(s, SSP_SA_HDMA_ID) = ev->f[SSP_F_DMA_ID];
	SA(s, SSP_SA_HDMA_ADDR) = c != NULL ? SA(c, SSP_SA_NDMA_ADDR) : 0;
	SA(s, SSP_SA_HDMA_SIZE) = c != NULL ? SA(c, SSP_SA_NDMA_LEN) : 0;
	ssp_spanb_done(b, s);	/* QEMU does the DMA at once */
}

/* An interrupt message: the NIC's oldest interrupt, and its vector. */
static void
ev_intr(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct qstate *q = qemu_of(b, st);
	struct span *s = ssp_spanb_mk(b, SSP_SK_HOST_MSIX, st, ev->ts), *c = NULL;

	if (s == NULL)
		return;
	if (q->plink >= 0)
		c = ssp_fifo_pop(&b->pl[q->plink].msix);
	if (c != NULL)
		s->parent = c;
	else
		orphan(s, SSP_CAUSE_MSIX);
	add_ev(b, s, ev);
	SA(s, SSP_SA_HMSIX_COMP) = ostr(b, st, ev->f[SSP_F_IRQ_COMP]);
	SA(s, SSP_SA_HMSIX_VEC) = c != NULL ? SA(c, SSP_SA_NMSIX_VEC) :
	    ev->f[SSP_F_IRQ_VEC];
	ssp_spanb_done(b, s);
}

static void
ev_qemu(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	switch (ev->type) {
	case SSP_EV_MMIO_RD:
	case SSP_EV_MMIO_WR:
		ev_mmio(b, st, ev);
		break;
	case SSP_EV_MMIO_RD_DONE:
		ev_rd_done(b, st, ev);
		break;
	case SSP_EV_DMA_RD:
	case SSP_EV_DMA_WR:
		ev_dma(b, st, ev);
		break;
	case SSP_EV_INTR:
	case SSP_EV_MSIX:
	case SSP_EV_MSI:
		ev_intr(b, st, ev);
		break;
	case SSP_EV_SYNC:
	case SSP_EV_PROC_IN:
		drop(b, st, SSP_DROP_NOISE);
		break;
	default:	/* the write completion QEMU does not wait for */
		drop(b, st, SSP_DROP_NO_RULE);
	}
}

static enum ssp_status
qemu_init(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct qstate *q = qemu_of(b, st);
	size_t i;

	(void)e;
	q->plink = -1;
	for (i = 0; i < b->t->npcie; i++)
		if (b->t->pcie[i].host == st) {
			if (q->plink < 0)
				q->plink = (int)i;
			b->pl[i].dma_fifo = 1;	/* QEMU prints no DMA id */
		}
	return SSP_OK;
}

static void
qemu_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev))
		if (ours(b, SSP_SIM_GEM5, ev))
			ev_qemu(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
}

static void
qemu_stream_end(struct ssp_spanb *b, unsigned st)
{
	ssp_spanb_close_stream(b, &b->mmio_open, st);
}

const struct ssp_spanb_sim ssp_spanb_qemu_sim = {
	qemu_init, qemu_events, qemu_stream_end, NULL, NULL,
	NULL,	/* no reader filters: every event comes through */
};
