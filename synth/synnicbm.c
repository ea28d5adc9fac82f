#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synnicbm.h"

#define NS 1000LL

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
ssp_synnicbm_ip_checksum(const struct pkt *pk)
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
ssp_synnicbm_frame(const struct pkt *pk, uint8_t *buf, unsigned cap)
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

char *
ssp_synnicbm_begin(struct nic *n, int64_t t)
{
	char *p = ssp_synlog_room(n->log);

	if (n->dialect != SSP_SYN_NICBM_SIGCOMM22)
		p = ssp_synlog_put_str(p, "info: ");
	p = ssp_synlog_put_str(p, "main_time = ");
	p = ssp_synlog_put_u64(p, (uint64_t)t);
	return ssp_synlog_put_str(p, ": nicbm: ");
}

char *
ssp_synnicbm_addr(const struct nic *n, char *p, uint64_t addr)
{
	p = ssp_synlog_put_str(p, n->dialect == SSP_SYN_NICBM_UPSTREAM ? " addr 0x" :
	    " addr ");
	return ssp_synlog_put_hex(p, addr);
}

void
ssp_synnicbm_end(struct nic *n, char *p, int evtype)
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

/* "dma write data: " then one "XX " per byte ("info: XX " where nicbm
 * logs through its logger) and no newline: the next message is glued onto
 * the bytes (FORMATS.md §5). */
static void
dma_data(struct nic *n, int64_t t, const uint8_t *d, unsigned len)
{
	char *p = ssp_synnicbm_begin(n, t);
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

/* "<what> dma op 0x<op> addr <a> len <n> pending <p>" */
static void
dma_line(struct nic *n, int64_t t, const char *what, const struct dmaop *op,
    int evtype)
{
	char *p = ssp_synnicbm_begin(n, t);

	p = ssp_synlog_put_str(p, what);
	p = ssp_synlog_put_hex(p, op->ptr);
	p = ssp_synnicbm_addr(n, p, op->addr);
	p = ssp_synlog_put_str(p, " len ");
	p = ssp_synlog_put_u64(p, op->len);
	p = ssp_synlog_put_str(p, " pending ");
	p = ssp_synlog_put_u64(p, n->pending);
	ssp_synnicbm_end(n, p, evtype);
}

static void
dma_fill(struct dmaop *op, int write, uint64_t addr, unsigned len,
    uint64_t cause, enum dma_cont cont, struct pkt *pk, struct rxwork *rw)
{
	op->busy = 1;
	op->write = write;
	op->addr = addr;
	op->len = len;
	op->cause = cause;
	op->cont = cont;
	op->pk = pk;
	op->rw = rw;
}

static void
dma_span(struct syn *s, struct nic *n, int64_t t, struct dmaop *op)
{
	char key[40];

	snprintf(key, sizeof(key), "0x%" PRIx64, op->ptr);
	op->span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_DMA, t, key,
	    op->cause, n->last_cause);
}

/* nicbm prints a DMA's op pointer; corundum_bm reuses one op for a
 * descriptor read and the payload it describes, i40e_bm allocates one per
 * DMA (freed ones come back, synheap.h). */
void
ssp_synnicbm_dma_start(struct syn *s, struct nic *n, int64_t t,
    struct dmaop *op, int write, uint64_t addr, unsigned len, uint64_t cause,
    enum dma_cont cont,
    struct pkt *pk, struct rxwork *rw, const uint8_t *data)
{
	dma_fill(op, write, addr, len, cause, cont, pk, rw);
	dma_line(n, t, "issuing dma op 0x", op, SSP_EV_NIC_DMA_ISSUE);
	n->pending++;
	dma_line(n, t, "executing dma op 0x", op, SSP_EV_NIC_DMA_EXEC);
	dma_span(s, n, t, op);
	if (write)
		dma_data(n, t, data, len);
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_DMA, n->h->idx, 0, op);
}

int
ssp_synnicbm_dma_enqueue(struct syn *s, struct nic *n, int64_t t,
    struct dmaop *op, int write, uint64_t addr, unsigned len, uint64_t cause,
    enum dma_cont cont, struct pkt *pk, struct rxwork *rw, const uint8_t *data)
{
	dma_fill(op, write, addr, len, cause, cont, pk, rw);
	op->qdata = NULL;
	if (write && len > 0 && (op->qdata = malloc(len)) == NULL) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
		return SSP_ERR_NOMEM;
	}
	if (op->qdata != NULL)
		memcpy(op->qdata, data, len);
	dma_line(n, t, "enqueuing dma op 0x", op, SSP_EV_NIC_DMA_ENQ);
	dma_span(s, n, t, op);
	return SSP_OK;
}

void
ssp_synnicbm_dma_dequeue(struct syn *s, struct nic *n, int64_t t,
    struct dmaop *op)
{
	n->pending++;
	dma_line(n, t, "executing dma op 0x", op, SSP_EV_NIC_DMA_EXEC);
	if (op->write)
		dma_data(n, t, op->qdata, op->len);
	free(op->qdata);
	op->qdata = NULL;
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_HOST_DMA, n->h->idx, 0, op);
}

void
ssp_synnicbm_dma_done_line(struct nic *n, int64_t t, const struct dmaop *op)
{
	char *p = ssp_synnicbm_begin(n, t);

	p = ssp_synlog_put_str(p, op->write ? "completed dma write op 0x" :
	    "completed dma read op 0x");
	p = ssp_synlog_put_hex(p, op->ptr);
	p = ssp_synnicbm_addr(n, p, op->addr);
	p = ssp_synlog_put_str(p, " len ");
	p = ssp_synlog_put_u64(p, op->len);
	ssp_synnicbm_end(n, p, op->write ? SSP_EV_NIC_DMA_DONE_WR :
	    SSP_EV_NIC_DMA_DONE_RD);
}

struct dmaop *
ssp_synnicbm_op_get(struct syn *s, struct nic *n)
{
	struct dmaop *op = n->free_ops;

	if (op == NULL) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_LIMIT, 0, "%s: more than %d DMAs "
		    "in flight", n->name, NIC_MAXOPS);
		return NULL;
	}
	n->free_ops = op->next_free;
	return op;
}

void
ssp_synnicbm_op_put(struct nic *n, struct dmaop *op)
{
	op->busy = 0;
	op->pk = NULL;
	op->rw = NULL;
	op->next_free = n->free_ops;
	n->free_ops = op;
}

uint64_t
ssp_synnicbm_eth_tx(struct syn *s, struct nic *n, int64_t t, struct pkt *pk,
    uint64_t cause)
{
	char *p = ssp_synnicbm_begin(n, t);

	p = ssp_synlog_put_str(p, "eth tx: len ");
	p = ssp_synlog_put_u64(p, pk->frame);
	ssp_synnicbm_end(n, p, SSP_EV_NIC_TX);
	pk->tx_span = ssp_synmodel_span(s, n->stream, SSP_SK_NIC_TX, t, "",
	    cause, n->last_cause);
	/* ns-3 runs on nanoseconds */
	ssp_synmodel_schedule(s, (t + s->p->eth_lat + NS - 1) / NS * NS,
	    EV_NET_IN, n->idx, 0, pk);
	return pk->tx_span;
}

void
ssp_synnicbm_msix(struct syn *s, struct nic *n, int64_t t, unsigned vec,
    uint64_t parent, const uint64_t *links, size_t nlinks)
{
	char *p = ssp_synnicbm_begin(n, t), key[16];
	uint64_t span;

	p = ssp_synlog_put_str(p, "issue MSI-X interrupt vec ");
	p = ssp_synlog_put_u64(p, vec);
	ssp_synnicbm_end(n, p, SSP_EV_NIC_MSIX);
	snprintf(key, sizeof(key), "%u", vec);
	span = ssp_synmodel_span_links(s, n->stream, SSP_SK_NIC_MSIX, t, key,
	    parent, links, nlinks);
	ssp_synmodel_schedule(s, t + s->p->pcie_lat, EV_LX_MSIX,
	    n->h->idx | vec << 16, span, NULL);
}

