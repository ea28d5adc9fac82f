#include <stdlib.h>
#include <string.h>

#include "base/scan.h"
#include "source/e1000.h"
#include "source/nicbm.h"

/* DMA channels: one DMA of each is in flight at a time (a descriptor
 * cache fetches or writes back one batch at a time; one packet moves at
 * a time each way). */
enum { CH_RX_FETCH, CH_TX_FETCH, CH_RX_WB, CH_TX_WB, CH_TX_PKT, CH_RX_PKT, CH_N };

#define TXQ_MAX 64	/* lengths of packets ready and not yet sent */
#define DESC_BYTES 16	/* an e1000 descriptor (legacy and advanced) */

struct chan {
	uint64_t op, addr, len;
};

struct ssp_e1000 {
	struct ssp_nicbm *nicbm;
	int nicbm_seen;			/* a nicbm debug line gave an event */
	uint64_t nop;			/* DMA numbers handed out */
	struct chan ch[CH_N];
	uint32_t txlen[TXQ_MAX];
	unsigned txhead, ntx;
};

int
ssp_e1000_new(struct ssp_e1000 **ep, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e)
{
	struct ssp_e1000 *x = calloc(1, sizeof(*x));
	int r;

	*ep = NULL;
	if (x == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((r = ssp_nicbm_new(&x->nicbm, cfg, e)) != SSP_OK) {
		free(x);
		return r;
	}
	*ep = x;
	return SSP_OK;
}

void
ssp_e1000_free(struct ssp_e1000 *x)
{
	if (x == NULL)
		return;
	ssp_nicbm_free(x->nicbm);
	free(x);
}

static int
at_end(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p == end;
}

/* printf's "%#x": "0" for 0, "0x<hex>" otherwise. */
static int
scan_hashx(const char **pp, const char *end, uint64_t *v)
{
	if (SSP_HAS(*pp, end, "0x"))
		return ssp_scan_0xhex(pp, end, v);
	if (*pp < end && **pp == '0' && (*pp + 1 == end || !ssp_isdigit((*pp)[1]))) {
		(*pp)++;
		*v = 0;
		return 0;
	}
	return -1;
}

static void
dma_issue(struct ssp_e1000 *x, uint64_t ts, unsigned ch, uint64_t addr,
    uint64_t len, struct ssp_pline *o)
{
	struct chan *c = &x->ch[ch];

	c->op = ++x->nop;
	c->addr = addr;
	c->len = len;
	ssp_pline_event(o, SSP_EV_NIC_DMA_ISSUE, ts);
	o->ev.f[SSP_F_NDMA_OP] = c->op;
	o->ev.f[SSP_F_NDMA_ADDR] = addr;
	o->ev.f[SSP_F_NDMA_LEN] = len;
	o->ev.f[SSP_F_NDMA_PENDING] = 0;	/* not printed */
}

static void
dma_done(struct ssp_e1000 *x, uint64_t ts, unsigned ch, int write,
    struct ssp_pline *o)
{
	struct chan *c = &x->ch[ch];

	ssp_pline_event(o, write ? SSP_EV_NIC_DMA_DONE_WR : SSP_EV_NIC_DMA_DONE_RD, ts);
	o->ev.f[SSP_F_NDMA_OP] = c->op;		/* 0: its issue line is missing */
	o->ev.f[SSP_F_NDMA_ADDR] = c->addr;
	o->ev.f[SSP_F_NDMA_LEN] = c->len;
	*c = (struct chan){ 0, 0, 0 };
}

/* EthernetDesc: "[RxDesc] ..." / "[TxDesc] ...", or a packet's DMA. */
static void
desc_line(struct ssp_e1000 *x, uint64_t ts, const char *p, const char *end,
    struct ssp_pline *o)
{
	uint64_t a, b, n;
	int tx;

	if (SSP_LIT(&p, end, "[") == 0) {
		if (SSP_LIT(&p, end, "RxDesc] ") == 0)
			tx = 0;
		else if (SSP_LIT(&p, end, "TxDesc] ") == 0)
			tx = 1;
		else
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		if (SSP_LIT(&p, end, "Fetching descriptors at ") == 0) {
			/* "at %#lx (%#lx), size: %#lx": bus address, DMA address */
			if (scan_hashx(&p, end, &a) != 0 || SSP_LIT(&p, end, " (") != 0 ||
			    scan_hashx(&p, end, &a) != 0 || SSP_LIT(&p, end, "), size: ") != 0 ||
			    scan_hashx(&p, end, &b) != 0 || !at_end(p, end))
				return ssp_pline_bad(o, "e1000 descriptor fetch: expected "
				    "'at <%#x> (<%#x>), size: <%#x>'");
			return dma_issue(x, ts, tx ? CH_TX_FETCH : CH_RX_FETCH, a, b, o);
		}
		if (SSP_HAS(p, end, "Fetching complete "))
			return dma_done(x, ts, tx ? CH_TX_FETCH : CH_RX_FETCH, 0, o);
		if (SSP_LIT(&p, end, "Begining DMA of ") == 0) {	/* sic */
			if (ssp_scan_dec(&p, end, &n) != 0 ||
			    SSP_LIT(&p, end, " descriptors") != 0 || !at_end(p, end) ||
			    n > UINT32_MAX)
				return ssp_pline_bad(o, "e1000 descriptor write-back: "
				    "expected 'Begining DMA of <d> descriptors'");
			return dma_issue(x, ts, tx ? CH_TX_WB : CH_RX_WB, 0,
			    n * DESC_BYTES, o);
		}
		if (SSP_HAS(p, end, "Writeback complete "))
			return dma_done(x, ts, tx ? CH_TX_WB : CH_RX_WB, 1, o);
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	}
	if (SSP_LIT(&p, end, "Starting DMA of packet at offset ") == 0) {
		if (ssp_scan_dec(&p, end, &n) != 0)
			return ssp_pline_bad(o, "e1000 packet DMA: expected "
			    "'Starting DMA of packet at offset <d>'");
		if (!at_end(p, end))	/* TSO: "... length: N", the same DMA */
			return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
		return dma_issue(x, ts, CH_TX_PKT, 0, 0, o);
	}
	if (SSP_HAS(p, end, "DMA of packet complete"))
		return dma_done(x, ts, CH_TX_PKT, 0, o);
	if (SSP_LIT(&p, end, "Packet Length: ") == 0) {
		/* legacy "Packet Length: %d Desc Size: %d", advanced one-buffer
		 * "Packet Length: %d srrctl: %#x Desc Size: %d" */
		if (ssp_scan_dec(&p, end, &n) != 0 || (SSP_LIT(&p, end, " srrctl: ") == 0 &&
		    scan_hashx(&p, end, &a) != 0) || SSP_LIT(&p, end, " Desc Size: ") != 0 ||
		    ssp_scan_dec(&p, end, &b) != 0 || !at_end(p, end))
			return ssp_pline_bad(o, "e1000 receive DMA: expected "
			    "'Packet Length: <d> [srrctl: <%#x> ]Desc Size: <d>'");
		return dma_issue(x, ts, CH_RX_PKT, 0, n < b ? n : b, o);
	}
	if (SSP_HAS(p, end, "Packet written to memory updating Descriptor"))
		return dma_done(x, ts, CH_RX_PKT, 1, o);
	if (SSP_LIT(&p, end, "------Packet of ") == 0) {
		if (ssp_scan_dec(&p, end, &n) != 0 ||
		    SSP_LIT(&p, end, " bytes ready for transmission") != 0 ||
		    n > UINT32_MAX)
			return ssp_pline_bad(o, "e1000: expected '------Packet of <d> "
			    "bytes ready for transmission-------'");
		if (x->ntx == TXQ_MAX) {
			x->txhead = (x->txhead + 1) % TXQ_MAX;
			x->ntx--;
		}
		x->txlen[(x->txhead + x->ntx++) % TXQ_MAX] = (uint32_t)n;
	}
	ssp_pline_skip(o, SSP_SKIP_SBOTHER);
}

/* The message after "<ps>: <flag>: ". */
static void
msg_line(struct ssp_e1000 *x, uint64_t ts, unsigned flag, const char *p,
    const char *end, struct ssp_pline *o)
{
	uint64_t a, b;
	int64_t avail;

	switch (flag) {
	case 0:		/* Ethernet */
		if (SSP_LIT(&p, end, "Read device register ") == 0) {
			if (scan_hashx(&p, end, &a) != 0 || !at_end(p, end))
				return ssp_pline_bad(o, "e1000 register read: expected "
				    "'Read device register <%#x>'");
			ssp_pline_event(o, SSP_EV_NIC_RD, ts);
			o->ev.f[SSP_F_NMMIO_OFF] = a;
			o->ev.f[SSP_F_NMMIO_LEN] = 4;	/* e1000 asserts 4 */
			o->ev.f[SSP_F_NMMIO_VAL] = 0;	/* not printed */
			return;
		}
		if (SSP_LIT(&p, end, "Wrote device register ") == 0) {
			if (scan_hashx(&p, end, &a) != 0 || SSP_LIT(&p, end, " value ") != 0 ||
			    scan_hashx(&p, end, &b) != 0 || !at_end(p, end))
				return ssp_pline_bad(o, "e1000 register write: expected "
				    "'Wrote device register <%#x> value <%#x>'");
			ssp_pline_event(o, SSP_EV_NIC_WR, ts);
			o->ev.f[SSP_F_NMMIO_OFF] = a;
			o->ev.f[SSP_F_NMMIO_LEN] = 4;
			o->ev.f[SSP_F_NMMIO_VAL] = b;
			o->ev.f[SSP_F_NMMIO_POSTED] = (uint64_t)(int64_t)-1;
			return;
		}
		if (SSP_HAS(p, end, "RxFIFO: Receiving pcakte from wire")) {
			ssp_pline_event(o, SSP_EV_NIC_RX, ts);
			o->ev.f[SSP_F_NRX_PORT] = 0;
			o->ev.f[SSP_F_NRX_LEN] = 0;	/* not printed */
			return;
		}
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	case 1:		/* EthernetDesc */
		return desc_line(x, ts, p, end, o);
	case 2:		/* EthernetIntr */
		if (SSP_LIT(&p, end, "EINT: Posting interrupt to CPU now. Vector ") == 0)
			a = 1;
		else if (SSP_LIT(&p, end, "EINT: Clearing interrupt to CPU now. Vector ") == 0)
			a = 0;
		else
			return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
		if (scan_hashx(&p, end, &b) != 0 || !at_end(p, end))
			return ssp_pline_bad(o, "e1000 interrupt: expected "
			    "'... to CPU now. Vector <%#x>'");
		ssp_pline_event(o, SSP_EV_NIC_INTX, ts);	/* INTx level */
		o->ev.f[SSP_F_NIRQ_VEC] = a;
		return;
	case 3:		/* EthernetSM */
		if (SSP_LIT(&p, end, "TxFIFO: Successful transmit, bytes available "
		    "in fifo: ") == 0) {
			if (ssp_scan_sdec(&p, end, &avail) != 0 || !at_end(p, end))
				return ssp_pline_bad(o, "e1000 transmit: expected 'TxFIFO: "
				    "Successful transmit, bytes available in fifo: <d>'");
			ssp_pline_event(o, SSP_EV_NIC_TX, ts);
			/* the oldest packet that got ready (0: its line is missing) */
			o->ev.f[SSP_F_NTX_LEN] = 0;
			if (x->ntx > 0) {
				o->ev.f[SSP_F_NTX_LEN] = x->txlen[x->txhead];
				x->txhead = (x->txhead + 1) % TXQ_MAX;
				x->ntx--;
			}
			return;
		}
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	default:	/* EthernetEEPROM */
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	}
}

/* e1000_gem5.cc's own stderr lines besides the debug ones. */
static int
is_status(const char *p, const char *end)
{
	return SSP_HAS(p, end, "warn: ") || SSP_HAS(p, end, "panic: ") ||
	    SSP_HAS(p, end, "schedule: ") || SSP_HAS(p, end, "reschedule: ") ||
	    SSP_HAS(p, end, "deschedule: ");
}

void
ssp_e1000_line(struct ssp_e1000 *x, const char *s, size_t len,
    struct ssp_pline *o)
{
	static const struct { const char *s; size_t n; } flags[] = {
		{ "Ethernet: ", 10 }, { "EthernetDesc: ", 14 },
		{ "EthernetIntr: ", 14 }, { "EthernetSM: ", 12 },
		{ "EthernetEEPROM: ", 16 } };
	const char *p = s, *end = s + len;
	uint64_t ts;
	unsigned f;

	if (ssp_scan_dec(&p, end, &ts) == 0 && SSP_LIT(&p, end, ": ") == 0) {
		for (f = 0; f < sizeof(flags) / sizeof(flags[0]); f++)
			if (ssp_scan_lit(&p, end, flags[f].s, flags[f].n) == 0)
				break;
		if (f < sizeof(flags) / sizeof(flags[0])) {
			if (ts > INT64_MAX)
				return ssp_pline_bad(o, "e1000: time out of range");
			msg_line(x, ts, f, p, end, o);
			if (o->skip == SSP_SKIP_NONE && x->nicbm_seen)
				ssp_pline_skip(o, SSP_SKIP_SBOTHER);
			return;
		}
		return ssp_pline_skip(o, SSP_SKIP_TEXT);
	}
	ssp_nicbm_line(x->nicbm, s, len, o);
	if (o->skip == SSP_SKIP_NONE)
		x->nicbm_seen = 1;
	else if (o->skip == SSP_SKIP_TEXT && is_status(s, end))
		ssp_pline_skip(o, SSP_SKIP_NICINFO);
}
