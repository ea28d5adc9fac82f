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
#include "synth/synnic.h"

#define NS 1000LL

static char *
nbegin(struct nic *n, int64_t t)
{
	char *p = ssp_synlog_room(n->log);

	if (n->dialect != SSP_SYN_NICBM_SIGCOMM22)
		p = ssp_synlog_put_str(p, "info: ");
	p = ssp_synlog_put_str(p, "main_time = ");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	return ssp_synlog_put_str(p, ": nicbm: ");
}

/* " addr 0x<hex>" (upstream) or " addr <hex>" (older versions) */
static char *
put_addr(const struct nic *n, char *p, uint64_t addr)
{
	p = ssp_synlog_put_str(p, n->dialect == SSP_SYN_NICBM_UPSTREAM ? " addr 0x" :
	    " addr ");
	return ssp_synlog_put_hex(p, addr);
}

/* Status lines get "info: " where nicbm logs through its logger. */
static const char *
info_pfx(const struct nic *n)
{
	return n->dialect == SSP_SYN_NICBM_SIGCOMM22 ? "" : "info: ";
}

static void
nend(struct nic *n, char *p, int evtype)
{
	*p++ = '\n';
	ssp_synlog_commit(n->log, p);
	if (evtype >= 0)
		n->nev[evtype]++;
	if (n->glue) {
		n->glue = 0;
		n->glued++;
	}
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

static uint16_t
ip_checksum(const uint8_t *h)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint8_t *
put_be(uint8_t *b, uint64_t v, int n)
{
	while (n-- > 0)
		*b++ = (uint8_t)(v >> (8 * n));
	return b;
}

uint16_t
ssp_synnic_ip_checksum(const struct pkt *pk)
{
	uint8_t h[20], *b = h;

	b = put_be(b, 0x4500, 2);
	b = put_be(b, pk->iplen, 2);
	b = put_be(b, pk->ipid, 2);
	b = put_be(b, pk->interesting ? 0x4000 : 0, 2);
	*b++ = 64;
	*b++ = pk->proto;
	b = put_be(b, 0, 2);
	b = put_be(b, pk->sip, 4);
	put_be(b, pk->dip, 4);
	return ip_checksum(h);
}

unsigned
ssp_synnic_frame(const struct pkt *pk, uint8_t *buf, unsigned cap)
{
	uint8_t *b = buf, *ip;
	unsigned i, n = pk->frame < cap ? pk->frame : cap;

	if (cap < 64)
		return 0;
	memset(buf, 0, n);
	b = put_be(b, pk->dmac, 6);
	b = put_be(b, pk->smac, 6);
	if (pk->kind == PK_BG_ARP) {
		b = put_be(b, 0x0806, 2);
		b = put_be(b, 0x0001080006040001ull, 8);
		b = put_be(b, pk->smac, 6);
		b = put_be(b, pk->sip, 4);
		b = put_be(b, 0, 6);
		put_be(b, pk->dip, 4);
		return n;
	}
	b = put_be(b, 0x0800, 2);
	ip = b;
	b = put_be(b, 0x4500, 2);
	b = put_be(b, pk->iplen, 2);
	b = put_be(b, pk->ipid, 2);
	b = put_be(b, pk->interesting ? 0x4000 : 0, 2);	/* DF */
	*b++ = 64;
	*b++ = pk->proto;
	b = put_be(b, 0, 2);
	b = put_be(b, pk->sip, 4);
	b = put_be(b, pk->dip, 4);
	put_be(ip + 10, ip_checksum(ip), 2);
	b = put_be(b, pk->sport, 2);
	b = put_be(b, pk->dport, 2);
	b = put_be(b, pk->iplen - 20, 2);
	b = put_be(b, 0, 2);
	for (i = (unsigned)(b - buf); i < n; i++)
		buf[i] = (uint8_t)(i * 7 + pk->req);
	return n;
}

/* "dma write data: " then one "XX " per byte ("info: XX " where nicbm
 * logs through its logger) and no newline: the next message is glued onto
 * the bytes (FORMATS.md §5). */
static void
dma_data(struct nic *n, int64_t t, const uint8_t *d, unsigned len)
{
	char *p = nbegin(n, t);
	unsigned i;

	p = ssp_synlog_put_str(p, "dma write data: \n");
	ssp_synlog_commit(n->log, p);
	n->nskip[SSP_SYNSKIP_DMADATA]++;
	p = ssp_synlog_room(n->log);
	for (i = 0; i < len; i++) {
		if (n->dialect != SSP_SYN_NICBM_SIGCOMM22)
			p = ssp_synlog_put_str(p, "info: ");
		p = ssp_synlog_put_hex_up(p, d[i], 2);
		*p++ = ' ';
	}
	ssp_synlog_commit(n->log, p);
	n->glue = 1;
}

/* Log the issue and execution of op, record its span and send it to the
 * host.  nicbm prints a DMA's op pointer, and corundum_bm reuses one op
 * for a descriptor read and the payload it describes. */
static void
dma_start(struct syn *s, struct nic *n, int64_t t, struct dmaop *op, int write,
    uint64_t addr, unsigned len, uint64_t cause, enum dma_cont cont,
    struct pkt *pk, struct rxwork *rw, const uint8_t *data)
{
	char key[40], *p;
	int i;

	op->busy = 1;
	op->write = write;
	op->addr = addr;
	op->len = len;
	op->cause = cause;
	op->cont = cont;
	op->pk = pk;
	op->rw = rw;
	for (i = 0; i < 2; i++) {	/* issuing, then executing */
		p = nbegin(n, t);
		p = ssp_synlog_put_str(p, i == 0 ? "issuing dma op 0x" :
		    "executing dma op 0x");
		p = ssp_synlog_put_hex(p, op->ptr);
		p = put_addr(n, p, addr);
		p = ssp_synlog_put_str(p, " len ");
		p = ssp_synlog_put_u64(p, len);
		p = ssp_synlog_put_str(p, " pending ");
		if (i == 1)
			n->pending++;
		p = ssp_synlog_put_u64(p, n->pending);
		nend(n, p, i == 0 ? SSP_EV_NIC_DMA_ISSUE : SSP_EV_NIC_DMA_EXEC);
	}
	snprintf(key, sizeof(key), "0x%" PRIx64, op->ptr);
	op->span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_DMA, t, key, cause,
	    n->last_cause);
	if (write)
		dma_data(n, t, data, len);
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_DMA, n->h->idx, 0, op);
}

static struct dmaop *
dma_issue(struct syn *s, struct nic *n, int64_t t, int write, uint64_t addr,
    unsigned len, uint64_t cause, enum dma_cont cont, struct pkt *pk,
    struct rxwork *rw, const uint8_t *data)
{
	struct dmaop *op = n->free_ops;

	if (op == NULL) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_LIMIT, 0, "%s: more than %d DMAs "
		    "in flight", n->name, NIC_MAXOPS);
		return NULL;
	}
	n->free_ops = op->next_free;
	dma_start(s, n, t, op, write, addr, len, cause, cont, pk, rw, data);
	return op;
}

static void
irq_fire(struct syn *s, struct nic *n, int64_t t)
{
	char *p = nbegin(n, t);
	uint64_t span;

	p = ssp_synlog_put_str(p, "issue MSI-X interrupt vec ");
	p = ssp_synlog_put_u64(p, RX_VEC);
	nend(n, p, SSP_EV_NIC_MSIX);
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
	char key[16], *p = nbegin(n, t);
	uint64_t span;

	p = ssp_synlog_put_str(p, "issue MSI interrupt vec ");
	p = ssp_synlog_put_u64(p, CQM_MSI_VEC);
	nend(n, p, SSP_EV_NIC_MSI);
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
		dma_start(s, n, t, op, 0, n->tx_buf + 2048ull * (idx & CQM_MASK),
		    pk->frame, op->cause, DC_CQM_TX_DATA, pk, NULL, NULL);
		op->evtype = idx;
		return 1;
	case DC_CQM_TX_DATA:
		p = nbegin(n, t);
		p = ssp_synlog_put_str(p, "eth tx: len ");
		p = ssp_synlog_put_u64(p, pk->frame);
		nend(n, p, SSP_EV_NIC_TX);
		pk->tx_span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_TX, t, "",
		    op->cause, n->last_cause);
		ssp_synmodel_schedule(s, (t + s->p->eth_lat + NS - 1) / NS * NS,
		    EV_NET_IN, n->idx, 0, pk);
		op->pk = NULL;
		n->txq_tail = (n->txq_tail + 1) & 0xffff;
		cqm_cpl(s, n, t, 1, idx, op->len, op->cause);
		return 0;
	case DC_CQM_RX_DESC:	/* the same op writes the frame */
		len = ssp_synnic_frame(pk, frame, sizeof(frame));
		dma_start(s, n, t, op, 1, n->rx_buf + 2048ull * (idx & CQM_MASK),
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

static void
mmio_in(struct syn *s, struct nic *n, int64_t t, struct nic_mmio *m)
{
	char key[32], *p = nbegin(n, t);
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
		nend(n, p, SSP_EV_NIC_RD);
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
		nend(n, p, SSP_EV_NIC_WR);
	}
	snprintf(key, sizeof(key), "0x%x", m->off);
	span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_MMIO, t, key, m->span,
	    m->span);
	if (m->write) {
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
		ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_MMIO_DONE,
		    n->h->idx, 0, m);
	else
		free(m);
}

static void
dma_done(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	uint8_t d[32];
	char *p = nbegin(n, t);
	struct pkt *pk = op->pk;

	p = ssp_synlog_put_str(p, op->write ? "completed dma write op 0x" :
	    "completed dma read op 0x");
	p = ssp_synlog_put_hex(p, op->ptr);
	p = put_addr(n, p, op->addr);
	p = ssp_synlog_put_str(p, " len ");
	p = ssp_synlog_put_u64(p, op->len);
	nend(n, p, op->write ? SSP_EV_NIC_DMA_DONE_WR : SSP_EV_NIC_DMA_DONE_RD);
	n->pending--;
	if (n->corundum && cqm_dma_done(s, n, t, op))
		return;		/* reissued */
	switch (op->cont) {
	case DC_TX_DESC:
		dma_issue(s, n, t, 0, n->tx_buf + 2048ull * n->tx_idx, pk->frame,
		    op->cause, DC_TX_DATA, pk, NULL, NULL);
		break;
	case DC_TX_DATA:
		p = nbegin(n, t);
		p = ssp_synlog_put_str(p, "eth tx: len ");
		p = ssp_synlog_put_u64(p, pk->frame);
		nend(n, p, SSP_EV_NIC_TX);
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
	op->busy = 0;
	op->pk = NULL;
	op->rw = NULL;
	op->next_free = n->free_ops;
	n->free_ops = op;
}

static void
eth_rx(struct syn *s, struct nic *n, int64_t t, struct pkt *pk, uint64_t from)
{
	static uint8_t frame[2048];
	struct rxctx rx;
	struct rxwork *rw;
	uint8_t d[32];
	char *p = nbegin(n, t);
	unsigned len;

	p = ssp_synlog_put_str(p, "eth rx: port 0 len ");
	p = ssp_synlog_put_u64(p, pk->frame);
	nend(n, p, SSP_EV_NIC_RX);
	rx.span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_RX, t, "", from, from);
	rx.ts = t;
	rx.kind = pk->kind;
	rx.req = pk->req;
	rx.src_host = pk->src_host;
	n->last_cause = rx.span;
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
	n->rx_idx = (n->rx_idx + 1) % 512;
	len = ssp_synnic_frame(pk, frame, sizeof(frame));
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
		irq_fire(s, n, ev->t);
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
