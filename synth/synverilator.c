#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synhost.h"
#include "synth/synnic.h"
#include "synth/synnicbm.h"
#include "synth/synverilator.h"

#define NS 1000LL
#define CLK 4000LL		/* the adapter's default clock: 250 MHz */
#define AXIL_CYCLES 3		/* an AXI-Lite access in the RTL */
#define RING_MASK (CQM_RING - 1)

/* Messages are polled when a cycle starts (main_time a multiple of CLK);
 * the RTL's steps (DMA requests, packets out, MSI) run at rising edges,
 * half a cycle later. */
static int64_t
at_poll(int64_t t)
{
	return (t + CLK - 1) / CLK * CLK;
}

static int64_t
at_edge(int64_t t)
{
	int64_t e = at_poll(t - CLK / 2) + CLK / 2;

	return e < t ? e + CLK : e;
}

/* --- lines -------------------------------------------------------------- */

static char *
vbegin(struct nic *n, const char *lvl)
{
	return ssp_synlog_put_str(ssp_synlog_room(n->log), lvl);
}

static void
vend(struct nic *n, char *p, int evtype)
{
	*p++ = '\n';
	ssp_synlog_commit(n->log, p);
	if (evtype >= 0)
		n->nev[evtype]++;
}

static void
vinfo(struct nic *n, const char *text, int reason)
{
	char *p = ssp_synlog_put_str(ssp_synlog_room(n->log), text);

	*p++ = '\n';
	ssp_synlog_commit(n->log, p);
	n->nskip[reason]++;
}

/* " data=" and "%02X " per byte (fprintf'd after the sim_log part). */
static char *
put_data(char *p, const uint8_t *d, unsigned len)
{
	unsigned i;

	p = ssp_synlog_put_str(p, "data=");
	for (i = 0; i < len; i++) {
		p = ssp_synlog_put_hex_up(p, d[i], 2);
		*p++ = ' ';
	}
	return p;
}

static void
le_bytes(uint8_t *b, uint64_t v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

/* --- DMA ---------------------------------------------------------------- */

/* DMA ids (simbricks lib/simbricks/axi/axi_subordinate.hh): a read's is
 * its AXI id << 32 | a rolling counter, a write's its AXI id.  mqnic's
 * DMA engine uses a few AXI ids; one per queue kind here. */
static uint64_t
dma_id(struct nic *n, int write, enum dma_cont cont)
{
	static uint32_t rolling;	/* one per run is enough: ids are unique */
	unsigned axi = cont == DC_CQM_TX_DESC || cont == DC_CQM_TX_DATA ? 1 :
	    cont == DC_CQM_RX_DESC || cont == DC_CQM_RX_DATA ? 2 : 3;

	(void)n;
	return write ? axi : (uint64_t)axi << 32 | rolling++;
}

/* doRead/doWrite: the request goes to the host at the next rising edge. */
static struct dmaop *
dma_issue(struct syn *s, struct nic *n, int64_t t, int write, uint64_t addr,
    unsigned len, uint64_t cause, enum dma_cont cont, struct pkt *pk,
    const uint8_t *data)
{
	struct dmaop *op = ssp_synnicbm_op_get(s, n);
	char key[40], *p;

	if (op == NULL)
		return NULL;
	t = at_edge(t);
	op->busy = 1;
	op->write = write;
	op->addr = addr;
	op->len = len;
	op->cause = cause;
	op->cont = cont;
	op->pk = pk;
	op->rw = NULL;
	op->ptr = dma_id(n, write, cont);
	p = vbegin(n, write ? "info: CorundumAXISubordinateWrite::doWrite() ts=" :
	    "info: CorundumAXISubordinateRead::doRead() ts=");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, " id=");
	p = ssp_synlog_put_u64(p, op->ptr);
	p = ssp_synlog_put_str(p, " addr=0x");
	p = ssp_synlog_put_hex(p, addr);
	p = ssp_synlog_put_str(p, " len=");
	p = ssp_synlog_put_u64(p, len);
	if (write) {
		*p++ = ' ';
		p = put_data(p, data, len);
	}
	vend(n, p, SSP_EV_NIC_DMA_EXEC);
	snprintf(key, sizeof(key), "0x%" PRIx64, op->ptr);
	op->span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_DMA, t, key, cause,
	    n->last_cause);
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_DMA, n->h->idx, 0, op);
	return op;
}

/* A completion (struct Cpl) for ring pointer idx, then an event. */
static void
cpl(struct syn *s, struct nic *n, int64_t t, int tx, uint32_t idx,
    unsigned len, uint64_t cause)
{
	uint32_t *next = tx ? &n->txcq_next : &n->rxcq_next;
	uint64_t ring = tx ? n->txcq_ring : n->rxcq_ring;
	uint8_t b[32];
	struct dmaop *op;

	memset(b, 0, sizeof(b));
	le_bytes(b + 2, idx & 0xffff, 2);
	le_bytes(b + 4, len, 2);
	op = dma_issue(s, n, t, 1, ring + 32ull * (*next & RING_MASK), 32, cause,
	    tx ? DC_CQM_TX_CPL : DC_CQM_RX_CPL, NULL, b);
	*next = (*next + 1) & 0xffff;
	if (op != NULL)
		op->evtype = !tx;
}

static void
event(struct syn *s, struct nic *n, int64_t t, unsigned type, uint64_t cause)
{
	uint8_t b[32];
	struct dmaop *op;

	memset(b, 0, sizeof(b));
	le_bytes(b, type, 2);
	op = dma_issue(s, n, t, 1, n->eq_ring + 32ull * (n->eq_next & RING_MASK),
	    32, cause, DC_CQM_EVENT, NULL, b);
	n->eq_next = (n->eq_next + 1) & 0xffff;
	if (op != NULL)
		op->evtype = type;
}

/* The RTL's interrupt line: MsiInterruptHandler::step, msi_issue. */
static void
msi(struct syn *s, struct nic *n, int64_t t, uint64_t cause)
{
	char key[16], *p;
	uint64_t span;

	t = at_edge(t);
	p = vbegin(n, "info: MsiInterruptHandler::step: MSI interrupt ts=");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, ", msi_irq=1");
	vend(n, p, -1);
	n->nskip[SSP_SYNSKIP_SBOTHER]++;
	p = vbegin(n, "info: MsiInterruptHandler::msi_issue: MSI interrupt ts=");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, ", vec=");
	p = ssp_synlog_put_u64(p, CQM_MSI_VEC);
	vend(n, p, SSP_EV_NIC_MSI);
	snprintf(key, sizeof(key), "%u", CQM_MSI_VEC);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_MSIX, t, key, cause,
	    n->last_cause);
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_MSIX, n->h->idx, span,
	    NULL);
}

/* packet_d2n: the frame leaves at a rising edge. */
static void
tx(struct syn *s, struct nic *n, int64_t t, struct pkt *pk, uint64_t cause)
{
	static uint8_t frame[2048];
	unsigned len = ssp_synnicbm_frame(pk, frame, sizeof(frame));
	char *p;

	t = at_edge(t);
	p = vbegin(n, "info: ");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, " corundum verilator packet_d2n try packet "
	    "transmission");
	vend(n, p, -1);
	n->nskip[SSP_SYNSKIP_SBOTHER]++;
	p = vbegin(n, "info: ");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, " corundum verilator packet_d2n transmitted "
	    "packet: packet len=");
	p = ssp_synlog_put_u64(p, len);
	p = ssp_synlog_put_str(p, ", packet ");
	p = put_data(p, frame, len);
	vend(n, p, SSP_EV_NIC_TX);
	pk->frame = len;
	pk->tx_span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_TX, t, "", cause,
	    n->last_cause);
	ssp_synmodel_schedule(s, (t + s->p->eth_lat + NS - 1) / NS * NS,
	    EV_NET_IN, n->idx, 0, pk);
}

/* A DMA's completion came back from the host: what corundum_bm's queues
 * do next, each step a DMA of its own. */
static void
dma_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	static uint8_t frame[2048];
	struct pkt *pk = op->pk;
	uint32_t idx = op->evtype;
	uint64_t cause = op->cause;
	enum dma_cont cont = op->cont;
	unsigned len = op->len;
	struct dmaop *nx;

	ssp_synnicbm_op_put(n, op);		/* op is reissued from here on */
	switch (cont) {
	case DC_CQM_TX_DESC:	/* the descriptor: fetch the payload */
		nx = dma_issue(s, n, t, 0, n->tx_buf + 2048ull * (idx & RING_MASK),
		    pk->frame, cause, DC_CQM_TX_DATA, pk, NULL);
		if (nx != NULL)
			nx->evtype = idx;
		break;
	case DC_CQM_TX_DATA:
		tx(s, n, t, pk, cause);
		n->txq_tail = (n->txq_tail + 1) & 0xffff;
		cpl(s, n, t, 1, idx, len, cause);
		break;
	case DC_CQM_RX_DESC:	/* the descriptor: write the frame */
		len = ssp_synnicbm_frame(pk, frame, sizeof(frame));
		nx = dma_issue(s, n, t, 1, n->rx_buf + 2048ull * (idx & RING_MASK),
		    len, cause, DC_CQM_RX_DATA, NULL, frame);
		if (nx != NULL)
			nx->evtype = idx;
		ssp_synmodel_pkt_put(pk);
		break;
	case DC_CQM_RX_DATA:
		n->rxq_tail = (n->rxq_tail + 1) & 0xffff;
		cpl(s, n, t, 0, idx, len, cause);
		break;
	case DC_CQM_TX_CPL:
	case DC_CQM_RX_CPL:
		if (cont == DC_CQM_TX_CPL) {
			n->txcq_head = (n->txcq_head + 1) & 0xffff;
			n->h->txcq++;
		} else {
			n->rxcq_head = (n->rxcq_head + 1) & 0xffff;
		}
		event(s, n, t, idx, cause);
		break;
	case DC_CQM_EVENT:
		n->eq_head = (n->eq_head + 1) & 0xffff;
		if (idx == 0)
			n->h->eq_tx++;
		else
			n->h->eq_rx++;
		msi(s, n, t, cause);
		break;
	default:
		break;
	}
}

/* --- registers ---------------------------------------------------------- */

/* What a register read returns (the same pointers as corundum_bm's). */
static uint64_t
reg_read(const struct nic *n, uint32_t off)
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

/* The AXI-Lite write reached the register: the doorbells. */
static void
reg_write(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m,
    uint64_t span)
{
	struct dmaop *op;

	if (m->off == CQM_RXQ + CQM_HEAD) {
		n->rxq_head = (uint32_t)m->val & 0xffff;
		return;
	}
	if (m->off != CQM_TXQ + CQM_HEAD)
		return;
	n->txq_head = (uint32_t)m->val & 0xffff;
	while (n->txq_fetch != n->txq_head && m->pk != NULL) {
		op = dma_issue(s, n, t, 0, n->tx_ring + 16ull * (n->txq_fetch &
		    RING_MASK), 16, span, DC_CQM_TX_DESC, m->pk, NULL);
		m->pk = NULL;	/* the model sends one frame per doorbell */
		if (op != NULL)
			op->evtype = n->txq_fetch;
		n->txq_fetch = (n->txq_fetch + 1) & 0xffff;
	}
}

/* A completion message to the host (a copy: the host frees it). */
static void
to_host(struct syn *s, struct nic *n, int64_t t, const struct nic_mmio *m)
{
	struct nic_mmio *c = malloc(sizeof(*c));

	if (c == NULL) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
		return;
	}
	*c = *m;
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_MMIO_DONE, n->h->idx,
	    0, c);
}

/* h2d_read / h2d_write: the message is polled at the next cycle start;
 * the AXI-Lite access completes AXIL_CYCLES later (EV_NIC_RTL). */
static void
mmio_in(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m)
{
	uint8_t d[8];
	char key[32], *p;
	uint64_t span;

	t = at_poll(t);
	p = vbegin(n, m->write ? "info: h2d_write ts=" : "info: h2d_read ts=");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, " bar=0 offset=0x");
	p = ssp_synlog_put_hex(p, m->off);
	p = ssp_synlog_put_str(p, " len=");
	p = ssp_synlog_put_u64(p, m->len);
	if (m->write) {
		p = ssp_synlog_put_str(p, m->posted ? " posted=1 " : " posted=0 ");
		le_bytes(d, m->val, 4);
		p = put_data(p, d, m->len < 4 ? m->len : 4);
	}
	vend(n, p, m->write ? SSP_EV_NIC_WR : SSP_EV_NIC_RD);
	snprintf(key, sizeof(key), "0x%x", m->off);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_MMIO, t, key, m->span,
	    m->span);
	m->span = span;		/* the NIC's span from here on */
	if (m->write) {
		n->last_cause = span;
		if (!m->posted)		/* h2d_write answers at once ... */
			to_host(s, n, t, m);
	}
	ssp_synmodel_schedule(s, at_edge(t + AXIL_CYCLES * CLK), EV_NIC_RTL, n->idx,
	    0, m);
}

/* read_done / write_done: the AXI-Lite manager has the register. */
static void
axil_done(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m)
{
	uint8_t d[8];
	char *p;

	if (!m->write)
		m->val = reg_read(n, m->off);
	p = vbegin(n, m->write ? "info: CorundumAXILManager::write_done() ts=" :
	    "info: CorundumAXILManager::read_done() ts=");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, "  id=");
	p = ssp_synlog_put_u64(p, m->id);
	p = ssp_synlog_put_str(p, "  addr=0x");
	p = ssp_synlog_put_hex(p, m->off);
	if (m->write)
		p = ssp_synlog_put_str(p, m->posted ? " posted=1" : " posted=0");
	*p++ = ' ';
	le_bytes(d, m->val, 8);
	p = put_data(p, d, 8);
	vend(n, p, m->write ? SSP_EV_NIC_WR_DONE : SSP_EV_NIC_RD_DONE);
	if (!m->write) {
		to_host(s, n, t, m);
	} else {
		/* ... and write_done once more: the adapter sends a non-posted
		 * write's completion twice */
		if (!m->posted)
			to_host(s, n, t, m);
		reg_write(s, n, t, m, m->span);
	}
	free(m);
}

/* n2d_recv: a frame from the network, then its RX descriptor. */
static void
eth_rx(struct syn *s, struct nic *n, int64_t t, struct pkt *pk, uint64_t from)
{
	static uint8_t frame[2048];
	unsigned len = ssp_synnicbm_frame(pk, frame, sizeof(frame));
	struct rxctx rx;
	struct dmaop *op;
	char *p;

	t = at_poll(t);
	p = vbegin(n, "info: ");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	p = ssp_synlog_put_str(p, " corundum verilator n2d_recv received packet: "
	    "packet ");
	p = put_data(p, frame, len);
	vend(n, p, SSP_EV_NIC_RX);
	rx.span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_RX, t, "", from, from);
	rx.ts = t;
	rx.kind = pk->kind;
	rx.req = pk->req;
	rx.src_host = pk->src_host;
	n->last_cause = rx.span;
	ssp_synhost_rx(s, n->h, &rx);
	if (n->rxq_head == n->rxq_fetch) {	/* ring empty: dropped */
		ssp_synmodel_pkt_put(pk);
		return;
	}
	op = dma_issue(s, n, t, 0, n->rx_ring + 16ull * (n->rxq_fetch & RING_MASK),
	    16, rx.span, DC_CQM_RX_DESC, pk, NULL);
	if (op != NULL)
		op->evtype = n->rxq_fetch;
	else
		ssp_synmodel_pkt_put(pk);
	n->rxq_fetch = (n->rxq_fetch + 1) & 0xffff;
}

/* --- the NIC ------------------------------------------------------------ */

void
ssp_synverilator_init(struct syn *s, struct nic *n)
{
	ssp_synnic_init(s, n);	/* rings, buffers, the op pool */
}

void
ssp_synverilator_start(struct syn *s, struct nic *n)
{
	vinfo(n, "info: sync_pci=1 sync_eth=1", SSP_SYNSKIP_NICINFO);
	vinfo(n, "info: corundum start main simulation loop", SSP_SYNSKIP_NICINFO);
	ssp_synmodel_schedule(s, s->t0 + (int64_t)ssp_synrng_below(&n->rng,
	    (uint64_t)s->t0), EV_NIC_INFO, n->idx, 0, NULL);
}

void
ssp_synverilator_event(struct syn *s, const struct sev *ev)
{
	struct nic *n = &s->nics[ev->who];
	char buf[64];

	switch (ev->type) {
	case EV_NIC_MMIO:
		mmio_in(s, n, ev->t, ev->p);
		break;
	case EV_NIC_RTL:
		axil_done(s, n, ev->t, ev->p);
		break;
	case EV_NIC_DMA_DONE:
		dma_done(s, n, ev->t, ev->p);
		break;
	case EV_NIC_RX:
		eth_rx(s, n, ev->t, ev->p, ev->a);
		break;
	case EV_NIC_INFO:	/* SIGUSR1: sim_log::LogError */
		snprintf(buf, sizeof(buf), "error: main_time = %" PRId64, ev->t);
		vinfo(n, buf, SSP_SYNSKIP_NICINFO);
		break;
	default:
		break;
	}
}

void
ssp_synverilator_finish(struct syn *s, struct nic *n)
{
	(void)s;
	vinfo(n, "info: corundum simbricks adapter finished", SSP_SYNSKIP_NICINFO);
}
