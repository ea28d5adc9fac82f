#include <stdlib.h>
#include <string.h>

#include "base/scan.h"
#include "source/nicbm.h"

struct ssp_nicbm {
	int debug_seen;		/* a DEBUG_NICBM line gave an event */
};

int
ssp_nicbm_new(struct ssp_nicbm **np, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e)
{
	(void)cfg;
	if ((*np = calloc(1, sizeof(**np))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
}

void
ssp_nicbm_free(struct ssp_nicbm *n)
{
	free(n);
}

static int
at_end(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p == end;
}

/* glibc %p: "0x<hex>" or "(nil)". */
static int
scan_ptr(const char **pp, const char *end, uint64_t *v)
{
	if (SSP_LIT(pp, end, "(nil)") == 0) {
		*v = 0;
		return 0;
	}
	return ssp_scan_0xhex(pp, end, v);
}

/* DMA address: "0x%lx" since 2024-08, "%lx" before. */
static int
scan_addr(const char **pp, const char *end, uint64_t *v)
{
	if (SSP_HAS(*pp, end, "0x"))
		return ssp_scan_0xhex(pp, end, v);
	return ssp_scan_hex(pp, end, v);
}

static void
dma_line(unsigned type, uint64_t ts, const char *p, const char *end,
    struct ssp_pline *o)
{
	uint64_t op, addr, len, pending = 0;
	int done = type == SSP_EV_NIC_DMA_DONE_RD || type == SSP_EV_NIC_DMA_DONE_WR;

	if (SSP_LIT(&p, end, " op ") != 0 || scan_ptr(&p, end, &op) != 0 ||
	    SSP_LIT(&p, end, " addr ") != 0 ||
	    scan_addr(&p, end, &addr) != 0 || SSP_LIT(&p, end, " len ") != 0 ||
	    ssp_scan_small(&p, end, &len) != 0 ||
	    (!done && (SSP_LIT(&p, end, " pending ") != 0 ||
	    ssp_scan_small(&p, end, &pending) != 0)) || !at_end(p, end))
		return ssp_pline_bad(o, done ? "nicbm completed dma: expected "
		    "'op 0x<ptr> addr [0x]<hex> len <dec>'" : "nicbm dma: expected "
		    "'op 0x<ptr> addr [0x]<hex> len <dec> pending <dec>'");
	ssp_pline_event(o, type, ts);
	o->ev.f[SSP_F_NDMA_OP] = op;
	o->ev.f[SSP_F_NDMA_ADDR] = addr;
	o->ev.f[SSP_F_NDMA_LEN] = len;
	if (!done)
		o->ev.f[SSP_F_NDMA_PENDING] = pending;
}

static void entry(struct ssp_nicbm *n, const char *s, const char *end,
    struct ssp_pline *o, int depth);

/* The message after "nicbm: ". */
static void
msg_line(struct ssp_nicbm *n, uint64_t ts, const char *p, const char *end,
    struct ssp_pline *o, int depth)
{
	uint64_t a, b, c;
	int64_t posted = -1;
	unsigned type;

	if (SSP_LIT(&p, end, "read(off=") == 0) {
		if (ssp_scan_0xhex(&p, end, &a) != 0 || SSP_LIT(&p, end, ", len=") != 0 ||
		    ssp_scan_small(&p, end, &b) != 0 || SSP_LIT(&p, end, ", val=") != 0 ||
		    ssp_scan_0xhex(&p, end, &c) != 0 || SSP_LIT(&p, end, ")") != 0 ||
		    !at_end(p, end))
			return ssp_pline_bad(o, "nicbm read: expected "
			    "'read(off=0x<hex>, len=<dec>, val=0x<hex>)'");
		ssp_pline_event(o, SSP_EV_NIC_RD, ts);
		o->ev.f[SSP_F_NMMIO_OFF] = a;
		o->ev.f[SSP_F_NMMIO_LEN] = b;
		o->ev.f[SSP_F_NMMIO_VAL] = c;
		return;
	}
	if (SSP_LIT(&p, end, "write(off=") == 0) {
		if (ssp_scan_0xhex(&p, end, &a) != 0 || SSP_LIT(&p, end, ", len=") != 0 ||
		    ssp_scan_small(&p, end, &b) != 0 || SSP_LIT(&p, end, ", val=") != 0 ||
		    ssp_scan_0xhex(&p, end, &c) != 0 ||
		    (SSP_LIT(&p, end, ", posted=") == 0 && ssp_scan_sdec(&p, end, &posted) != 0) ||
		    SSP_LIT(&p, end, ")") != 0 || !at_end(p, end))
			return ssp_pline_bad(o, "nicbm write: expected 'write(off=0x<hex>, "
			    "len=<dec>, val=0x<hex>[, posted=<0|1>])'");
		ssp_pline_event(o, SSP_EV_NIC_WR, ts);
		o->ev.f[SSP_F_NMMIO_OFF] = a;
		o->ev.f[SSP_F_NMMIO_LEN] = b;
		o->ev.f[SSP_F_NMMIO_VAL] = c;
		o->ev.f[SSP_F_NMMIO_POSTED] = (uint64_t)posted;
		return;
	}
	if (SSP_LIT(&p, end, "issuing dma") == 0)
		return dma_line(SSP_EV_NIC_DMA_ISSUE, ts, p, end, o);
	if (SSP_LIT(&p, end, "executing dma") == 0)
		return dma_line(SSP_EV_NIC_DMA_EXEC, ts, p, end, o);
	if (SSP_LIT(&p, end, "enqueuing dma") == 0)
		return dma_line(SSP_EV_NIC_DMA_ENQ, ts, p, end, o);
	if (SSP_LIT(&p, end, "completed dma read") == 0)
		return dma_line(SSP_EV_NIC_DMA_DONE_RD, ts, p, end, o);
	if (SSP_LIT(&p, end, "completed dma write") == 0)
		return dma_line(SSP_EV_NIC_DMA_DONE_WR, ts, p, end, o);
	type = SSP_LIT(&p, end, "issue MSI-X interrupt vec") == 0 ? SSP_EV_NIC_MSIX :
	    SSP_LIT(&p, end, "issue MSI interrupt vec") == 0 ? SSP_EV_NIC_MSI :
	    SSP_LIT(&p, end, "set intx interrupt") == 0 ? SSP_EV_NIC_INTX :
	    SSP_LIT(&p, end, "eth tx: len") == 0 ? SSP_EV_NIC_TX : SSP_EV_NTYPES;
	if (type != SSP_EV_NTYPES) {
		if (SSP_LIT(&p, end, " ") != 0 || ssp_scan_small(&p, end, &a) != 0 ||
		    !at_end(p, end))
			return ssp_pline_bad(o, type == SSP_EV_NIC_TX ?
			    "nicbm eth tx: expected 'len <dec>'" : type == SSP_EV_NIC_INTX ?
			    "nicbm set intx interrupt: expected '<level>'" :
			    "nicbm interrupt: expected 'vec <dec>'");
		ssp_pline_event(o, type, ts);
		o->ev.f[0] = a;
		return;
	}
	if (SSP_LIT(&p, end, "eth rx:") == 0) {
		if (SSP_LIT(&p, end, " port ") != 0 || ssp_scan_small(&p, end, &a) != 0 ||
		    SSP_LIT(&p, end, " len ") != 0 || ssp_scan_small(&p, end, &b) != 0 || !at_end(p, end))
			return ssp_pline_bad(o, "nicbm eth rx: expected "
			    "'port <dec> len <dec>'");
		ssp_pline_event(o, SSP_EV_NIC_RX, ts);
		o->ev.f[SSP_F_NRX_PORT] = a;
		o->ev.f[SSP_F_NRX_LEN] = b;
		return;
	}
	if (SSP_LIT(&p, end, "dma write data:") == 0) {
		/* payload printed on the same line (a modified build): the
		 * next message may be glued behind it */
		const char *q = memmem(p, (size_t)(end - p), "main_time = ", 12);

		if (q != NULL && depth < 4) {
			entry(n, q, end, o, depth + 1);
			if (o->skip == SSP_SKIP_NONE)
				o->recovered = 1;
			return;
		}
		return ssp_pline_skip(o, SSP_SKIP_DMADATA);
	}
	ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
}

/*
 * Enso's device logger (simbricks/component-enso enso_bm/logger.cc):
 * "<ps> enso: <msg>" on stderr, every number in hex without 0x.  Its
 * DEBUG_DEV lines "received packet len=<hex>" and "TX: sending packet to
 * ethernet len=<hex>" are the NIC's rx and tx; the others are skipped.
 * Once a DEBUG_NICBM line gave an event, nicbm's eth rx/tx lines are the
 * events and these give none.
 */
static void
enso_line(struct ssp_nicbm *n, uint64_t ts, const char *p, const char *end,
    struct ssp_pline *o)
{
	uint64_t len;
	unsigned type;

	if (SSP_LIT(&p, end, "received packet len=") == 0)
		type = SSP_EV_NIC_RX;
	else if (SSP_LIT(&p, end, "TX: sending packet to ethernet len=") == 0)
		type = SSP_EV_NIC_TX;
	else
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	if (ssp_scan_hex(&p, end, &len) != 0 || !at_end(p, end))
		return ssp_pline_bad(o, type == SSP_EV_NIC_RX ? "enso received packet: "
		    "expected 'len=<hex>'" : "enso TX: expected 'len=<hex>'");
	if (ts > INT64_MAX)
		return ssp_pline_bad(o, "timestamp out of range");
	if (n->debug_seen)
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	ssp_pline_event(o, type, ts);
	if (type == SSP_EV_NIC_RX) {
		o->ev.f[SSP_F_NRX_PORT] = 0;
		o->ev.f[SSP_F_NRX_LEN] = len;
	} else {
		o->ev.f[SSP_F_NTX_LEN] = len;
	}
}

static int
is_upper_hex(int c)
{
	return ((unsigned)c - '0' < 10) || ((unsigned)c - 'A' < 6);
}

/* "XX " payload bytes, as "%02X " prints them (each with "info: " in
 * newer versions). */
static int
is_payload(const char *p, const char *end)
{
	if (end - p < 2 || !is_upper_hex(p[0]) || !is_upper_hex(p[1]))
		return 0;
	p += 2;
	if (p == end)
		return 1;
	if (*p != ' ')
		return 0;
	p++;
	return p == end || SSP_HAS(p, end, "info: ") || SSP_HAS(p, end, "main_time") ||
	    (end - p >= 2 && is_upper_hex(p[0]) && is_upper_hex(p[1]) &&
	    (end - p == 2 || p[2] == ' '));
}

/* Status lines nicbm always prints. */
static int
is_status(const char *p, const char *end)
{
	static const char *const pfx[] = { "mac_addr=", "sync_pci=", "exit main_time",
	    "poll_h2d:", "[Runner ", "warn: ", "eth connection", "eth intro",
	    "eth net info", "pci connection", "pci intro", "pci host info",
	    "Unknown RX pipe register", "Unknown notification buffer" /* enso */ };
	const char *q;
	size_t i;

	for (i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if ((size_t)(end - p) >= strlen(pfx[i]) &&
		    memcmp(p, pfx[i], strlen(pfx[i])) == 0)
			return 1;
	/* older builds print the MAC as bare hex */
	for (q = p; q < end && ssp_hexval(*q) >= 0; q++)
		;
	if (q == end && end - p >= 8 && end - p <= 12)
		return 1;
	/* statistics table */
	if (*p == ' ' && (memmem(p, (size_t)(end - p), "_total:", 7) != NULL ||
	    memmem(p, (size_t)(end - p), "_sync:", 6) != NULL))
		return 1;
	return 0;
}

static void
entry(struct ssp_nicbm *n, const char *s, const char *end, struct ssp_pline *o,
    int depth)
{
	const char *p = s, *q;
	uint64_t ts;
	int info;

	info = SSP_LIT(&p, end, "info: ") == 0;
	if (SSP_LIT(&p, end, "main_time = ") == 0) {
		if (ssp_scan_dec(&p, end, &ts) != 0)
			return ssp_pline_bad(o, "main_time: expected '= <dec>'");
		if (at_end(p, end))
			return ssp_pline_skip(o, SSP_SKIP_NICINFO);	/* SIGUSR1 */
		if (SSP_LIT(&p, end, ": nicbm: ") != 0)
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		if (ts > INT64_MAX)
			return ssp_pline_bad(o, "main_time out of range");
		msg_line(n, ts, p, end, o, depth);
		if (o->skip == SSP_SKIP_NONE)
			n->debug_seen = 1;
		return;
	}
	/* Enso's "<ps> enso: " first: the checks below would scan its
	 * lines (most of a DEBUG_DEV log) for nothing */
	q = p;
	if (p < end && (unsigned)(*p - '0') < 10 &&
	    ssp_scan_dec(&q, end, &ts) == 0 &&
	    SSP_LIT(&q, end, " enso: ") == 0)
		return enso_line(n, ts, q, end, o);
	if (SSP_HAS(p, end, "nicbm: "))
		return ssp_pline_skip(o, SSP_SKIP_NOTS);
	if (is_payload(p, end)) {
		q = memmem(p, (size_t)(end - p), "main_time = ", 12);
		if (q != NULL && depth < 4) {
			entry(n, q, end, o, depth + 1);
			if (o->skip == SSP_SKIP_NONE)
				o->recovered = 1;
			return;
		}
		return ssp_pline_skip(o, SSP_SKIP_DMADATA);
	}
	if (is_status(p, end))
		return ssp_pline_skip(o, SSP_SKIP_NICINFO);
	/* "<ps> nicbm: <msg>" (the 2021 trace parser's form) */
	q = p;
	if (ssp_scan_dec(&q, end, &ts) == 0 && SSP_LIT(&q, end, " ") == 0) {
		if (SSP_LIT(&q, end, "nicbm: ") == 0) {
			if (ts > INT64_MAX)
				return ssp_pline_bad(o, "timestamp out of range");
			msg_line(n, ts, q, end, o, depth);
			if (o->skip == SSP_SKIP_NONE)
				n->debug_seen = 1;
			return;
		}
	}
	ssp_pline_skip(o, info ? SSP_SKIP_UNKNOWN : SSP_SKIP_TEXT);
}

void
ssp_nicbm_line(struct ssp_nicbm *n, const char *s, size_t len,
    struct ssp_pline *o)
{
	entry(n, s, s + len, o, 0);
}
