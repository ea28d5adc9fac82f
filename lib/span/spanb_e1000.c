/*
 * The span builder's e1000 NICs (sim2ev -f e1000): nicbm's handlers.
 * e1000 prints a DMA's issue and completion, no execution, and no id the
 * host knows (the op is sim2ev's number): an issue is also the moment the
 * DMA goes to the host, which takes the NIC's DMAs in order (the pcie
 * link's dma queue).  Its interrupts are INTx, which no span is made of.
 */
#include "span/spanb_int.h"

static void
ev_e1000(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev)
{
	struct nstate *n = nic_of(b, st);
	struct span *s;

	ssp_spanb_nic_event(b, st, ev);
	/* the DMA goes to the host as it is issued */
	if (ev->type == SSP_EV_NIC_DMA_ISSUE && n->plink >= 0 &&
	    (s = ssp_map3_get(&b->ndma_open, ev->f[SSP_F_NDMA_OP], 0, st)) != NULL)
		ssp_spanb_send(b, &b->pl[n->plink].dma, s, SSP_CTX_DMA);
}

static enum ssp_status
e1000_init(struct ssp_spanb *b, unsigned st, struct ssp_err *e)
{
	struct nstate *n = nic_of(b, st);
	enum ssp_status rc = ssp_spanb_nic_sim.init(b, st, e);

	if (rc == SSP_OK && n->plink >= 0)
		b->pl[n->plink].dma_fifo = 1;
	return rc;
}

static void
e1000_events(struct ssp_spanb *b, unsigned st, const struct ssp_rec *ev,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++, ev = ssp_rec_packed_next(ev))
		if (ours(b, SSP_SIM_NICBM, ev))
			ev_e1000(b, st, ev);
		else
			drop(b, st, SSP_DROP_FOREIGN);
}

/* Its state is nicbm's. */
static void
e1000_stream_end(struct ssp_spanb *b, unsigned st)
{
	ssp_spanb_nic_sim.end(b, st);
}

const struct ssp_spanb_sim ssp_spanb_e1000_sim = {
	e1000_init, e1000_events, e1000_stream_end, NULL, NULL,
	NULL,	/* no reader filters: every event comes through */
};
