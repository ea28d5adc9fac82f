#include <stdlib.h>
#include <string.h>

#include "base/scan.h"
#include "source/corundum.h"

struct ssp_corundum {
	int unused;
};

int
ssp_corundum_new(struct ssp_corundum **cp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e)
{
	(void)cfg;
	if ((*cp = calloc(1, sizeof(**cp))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
}

void
ssp_corundum_free(struct ssp_corundum *c)
{
	free(c);
}

/* Spaces, then "<name>" and a decimal (the adapter puts one or two
 * spaces between its fields). */
static int
dec_f(const char **pp, const char *end, const char *name, size_t n, uint64_t *v)
{
	const char *p = *pp;

	ssp_skip_sp(&p, end);
	if (ssp_scan_lit(&p, end, name, n) != 0 || ssp_scan_dec(&p, end, v) != 0)
		return -1;
	*pp = p;
	return 0;
}

static int
hex_f(const char **pp, const char *end, const char *name, size_t n, uint64_t *v)
{
	const char *p = *pp;

	ssp_skip_sp(&p, end);
	if (ssp_scan_lit(&p, end, name, n) != 0 || ssp_scan_0xhex(&p, end, v) != 0)
		return -1;
	*pp = p;
	return 0;
}

static int
sdec_f(const char **pp, const char *end, const char *name, size_t n, int64_t *v)
{
	const char *p = *pp;

	ssp_skip_sp(&p, end);
	if (ssp_scan_lit(&p, end, name, n) != 0 || ssp_scan_sdec(&p, end, v) != 0)
		return -1;
	*pp = p;
	return 0;
}

#define DEC(pp, end, name, v) dec_f((pp), (end), name, sizeof(name) - 1, (v))
#define HEX(pp, end, name, v) hex_f((pp), (end), name, sizeof(name) - 1, (v))
#define SDEC(pp, end, name, v) sdec_f((pp), (end), name, sizeof(name) - 1, (v))

static int
is_hex2(const char *p)
{
	return ssp_hexval(p[0]) >= 0 && ssp_hexval(p[1]) >= 0;
}

/*
 * "data=" and the bytes printed as "%02X " each, up to the end of the
 * line: their number, and the first eight as a little-endian value.
 */
static int
data_f(const char **pp, const char *end, uint64_t *nbytes, uint64_t *val)
{
	const char *p = *pp;
	uint64_t n = 0, v = 0;

	ssp_skip_sp(&p, end);
	if (SSP_LIT(&p, end, "data=") != 0)
		return -1;
	while (end - p >= 2 && is_hex2(p)) {
		if (n < 8)
			v |= (uint64_t)(ssp_hexval(p[0]) << 4 | ssp_hexval(p[1])) << (8 * n);
		n++;
		p += 2;
		if (p < end && *p != ' ')
			return -1;
		if (p < end)
			p++;
	}
	if (p != end)
		return -1;
	*pp = p;
	*nbytes = n;
	*val = v;
	return 0;
}

static int
at_end(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p == end;
}

static int
ts_ok(struct ssp_pline *o, uint64_t ts)
{
	if (ts > INT64_MAX) {
		ssp_pline_bad(o, "corundum: ts out of range");
		return 0;
	}
	return 1;
}

/* "h2d_read ts=.. bar=.. offset=0x.. len=..", "h2d_write ... posted=.. data=" */
static void
h2d_line(const char *p, const char *end, struct ssp_pline *o, int write)
{
	uint64_t ts, off, len, n, val = 0;
	int64_t bar, posted = -1;

	if (DEC(&p, end, "ts=", &ts) != 0 || SDEC(&p, end, "bar=", &bar) != 0 ||
	    HEX(&p, end, "offset=", &off) != 0 || DEC(&p, end, "len=", &len) != 0 ||
	    (write && (SDEC(&p, end, "posted=", &posted) != 0 ||
	    data_f(&p, end, &n, &val) != 0)) || !at_end(p, end))
		return ssp_pline_bad(o, write ? "corundum h2d_write: expected 'ts=<ps> "
		    "bar=<d> offset=0x<hex> len=<d> posted=<d> data=<XX >...'" :
		    "corundum h2d_read: expected 'ts=<ps> bar=<d> offset=0x<hex> len=<d>'");
	if (!ts_ok(o, ts))
		return;
	ssp_pline_event(o, write ? SSP_EV_NIC_WR : SSP_EV_NIC_RD, ts);
	o->ev.f[SSP_F_NMMIO_OFF] = off;
	o->ev.f[SSP_F_NMMIO_LEN] = len;
	o->ev.f[SSP_F_NMMIO_VAL] = val;	/* a read's value comes with read_done */
	if (write)
		o->ev.f[SSP_F_NMMIO_POSTED] = (uint64_t)posted;
}

/* "CorundumAXILManager::read_done() ts=..  id=..  addr=0x.. data=.." and
 * write_done() with "posted=.." before the data */
static void
axil_done_line(const char *p, const char *end, struct ssp_pline *o, int write)
{
	uint64_t ts, id, addr, n, val;
	int64_t posted = -1;

	if (DEC(&p, end, "ts=", &ts) != 0 || DEC(&p, end, "id=", &id) != 0 ||
	    HEX(&p, end, "addr=", &addr) != 0 ||
	    (write && SDEC(&p, end, "posted=", &posted) != 0) ||
	    data_f(&p, end, &n, &val) != 0)
		return ssp_pline_bad(o, write ? "corundum write_done: expected "
		    "'ts=<ps> id=<d> addr=0x<hex> posted=<d> data=<XX >...'" :
		    "corundum read_done: expected 'ts=<ps> id=<d> addr=0x<hex> "
		    "data=<XX >...'");
	if (!ts_ok(o, ts))
		return;
	ssp_pline_event(o, write ? SSP_EV_NIC_WR_DONE : SSP_EV_NIC_RD_DONE, ts);
	o->ev.f[SSP_F_NDONE_ID] = id;
	o->ev.f[SSP_F_NDONE_OFF] = addr;
	o->ev.f[SSP_F_NDONE_VAL] = val;
	if (write)
		o->ev.f[SSP_F_NDONE_POSTED] = (uint64_t)posted;
}

/* "CorundumAXISubordinateRead::doRead() ts=.. id=.. addr=0x.. len=.." and
 * doWrite() with "data=..": the DMA request goes to the host now */
static void
dma_line(const char *p, const char *end, struct ssp_pline *o, int write)
{
	uint64_t ts, id, addr, len, n, val;

	if (DEC(&p, end, "ts=", &ts) != 0 || DEC(&p, end, "id=", &id) != 0 ||
	    HEX(&p, end, "addr=", &addr) != 0 || DEC(&p, end, "len=", &len) != 0 ||
	    (write && data_f(&p, end, &n, &val) != 0) || !at_end(p, end))
		return ssp_pline_bad(o, write ? "corundum doWrite: expected 'ts=<ps> "
		    "id=<d> addr=0x<hex> len=<d> data=<XX >...'" : "corundum doRead: "
		    "expected 'ts=<ps> id=<d> addr=0x<hex> len=<d>'");
	if (!ts_ok(o, ts))
		return;
	ssp_pline_event(o, SSP_EV_NIC_DMA_EXEC, ts);
	o->ev.f[SSP_F_NDMA_OP] = id;
	o->ev.f[SSP_F_NDMA_ADDR] = addr;
	o->ev.f[SSP_F_NDMA_LEN] = len;
	o->ev.f[SSP_F_NDMA_PENDING] = 0;	/* not printed */
}

/* "MsiInterruptHandler::msi_issue: MSI interrupt ts=<ps>, vec=<d>" */
static void
msi_line(const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t ts, vec;

	if (DEC(&p, end, "ts=", &ts) != 0 || SSP_LIT(&p, end, ",") != 0 ||
	    DEC(&p, end, "vec=", &vec) != 0 || !at_end(p, end))
		return ssp_pline_bad(o, "corundum msi_issue: expected "
		    "'ts=<ps>, vec=<d>'");
	if (!ts_ok(o, ts))
		return;
	ssp_pline_event(o, SSP_EV_NIC_MSI, ts);
	o->ev.f[SSP_F_NIRQ_VEC] = vec;
}

/* "<ps> corundum verilator <what>" */
static void
packet_line(uint64_t ts, const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t len, n, val;

	if (SSP_LIT(&p, end, "packet_d2n transmitted packet:") == 0) {
		if (DEC(&p, end, "packet len=", &len) != 0 || SSP_LIT(&p, end, ",") != 0 ||
		    SSP_LIT(&p, end, " packet ") != 0 || data_f(&p, end, &n, &val) != 0)
			return ssp_pline_bad(o, "corundum transmitted packet: expected "
			    "'packet len=<d>, packet data=<XX >...'");
		if (!ts_ok(o, ts))
			return;
		ssp_pline_event(o, SSP_EV_NIC_TX, ts);
		o->ev.f[SSP_F_NTX_LEN] = len;
		return;
	}
	if (SSP_LIT(&p, end, "n2d_recv received packet:") == 0) {
		if (SSP_LIT(&p, end, " packet ") != 0 || data_f(&p, end, &n, &val) != 0)
			return ssp_pline_bad(o, "corundum received packet: expected "
			    "'packet data=<XX >...'");
		if (!ts_ok(o, ts))
			return;
		ssp_pline_event(o, SSP_EV_NIC_RX, ts);
		o->ev.f[SSP_F_NRX_PORT] = 0;
		o->ev.f[SSP_F_NRX_LEN] = n;
		return;
	}
	ssp_pline_skip(o, SSP_HAS(p, end, "packet_d2n ") || SSP_HAS(p, end,
	    "n2d_recv") ? SSP_SKIP_SBOTHER : SSP_SKIP_UNKNOWN);
}

/* AXI_R_DEBUG / AXI_W_DEBUG / AXIL_*_DEBUG lines of the AXI library:
 * "<ps> AXI R: ...", "<ps> AXI W ...", "<ps> AXIL R ...". */
static void
axi_line(uint64_t ts, const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t id;
	unsigned type;

	if (SSP_LIT(&p, end, "AXI R: read_done id=") == 0) {
		if (ssp_scan_0xhex(&p, end, &id) != 0 || !at_end(p, end))
			return ssp_pline_bad(o, "AXI R read_done: expected 'id=0x<hex>'");
		type = SSP_EV_NIC_DMA_DONE_RD;
	} else if (SSP_LIT(&p, end, "AXI W completed write for id=") == 0) {
		if (ssp_scan_dec(&p, end, &id) != 0 || !at_end(p, end))
			return ssp_pline_bad(o, "AXI W completed write: expected "
			    "'id=<d>'");
		type = SSP_EV_NIC_DMA_DONE_WR;
	} else {
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	}
	if (!ts_ok(o, ts))
		return;
	ssp_pline_event(o, type, ts);
	o->ev.f[SSP_F_NDMA_OP] = id;
	o->ev.f[SSP_F_NDMA_ADDR] = 0;	/* not printed */
	o->ev.f[SSP_F_NDMA_LEN] = 0;
}

/* The adapter's status and error lines (sim_log info/warn/error). */
static int
is_status(const char *p, const char *end)
{
	static const char *const pfx[] = { "sync_pci=", "corundum start main",
	    "corundum simbricks adapter", "corundum-verilator-nic tx_status",
	    "exit main_time", "SimbricksPcieIfD2HOutSync",
	    "poll_h2d: ", "poll_n2d: ", "write to unexpected bar",
	    "h2d_write() ", "corundum packet_d2n ", "MsiInterruptHandler::msi_issue: unable",
	    "CorundumAXI" };
	const char *q = p;
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if ((size_t)(end - p) >= strlen(pfx[i]) &&
		    memcmp(p, pfx[i], strlen(pfx[i])) == 0)
			return 1;
	/* SIGUSR1: "main_time = <ps>" */
	return SSP_LIT(&q, end, "main_time = ") == 0 && ssp_scan_dec(&q, end, &v) == 0 &&
	    at_end(q, end);
}

void
ssp_corundum_line(struct ssp_corundum *c, const char *s, size_t len,
    struct ssp_pline *o)
{
	const char *p = s, *end = s + len, *q;
	uint64_t ts;
	int lvl;

	(void)c;
	lvl = SSP_LIT(&p, end, "info: ") == 0 ? 1 : SSP_LIT(&p, end, "warn: ") == 0 ||
	    SSP_LIT(&p, end, "error: ") == 0 ? 2 : 0;
	if (lvl != 2) {
		if (SSP_LIT(&p, end, "h2d_read ") == 0)
			return h2d_line(p, end, o, 0);
		if (SSP_LIT(&p, end, "h2d_write ") == 0)
			return h2d_line(p, end, o, 1);
		if (SSP_LIT(&p, end, "CorundumAXILManager::read_done()") == 0)
			return axil_done_line(p, end, o, 0);
		if (SSP_LIT(&p, end, "CorundumAXILManager::write_done()") == 0)
			return axil_done_line(p, end, o, 1);
		if (SSP_LIT(&p, end, "CorundumAXISubordinateRead::doRead()") == 0)
			return dma_line(p, end, o, 0);
		if (SSP_LIT(&p, end, "CorundumAXISubordinateWrite::doWrite()") == 0)
			return dma_line(p, end, o, 1);
		if (SSP_LIT(&p, end, "MsiInterruptHandler::msi_issue: MSI interrupt") == 0)
			return msi_line(p, end, o);
		if (SSP_HAS(p, end, "MsiInterruptHandler::step: "))
			return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
		q = p;
		if (ssp_scan_dec(&q, end, &ts) == 0 && SSP_LIT(&q, end, " ") == 0) {
			if (SSP_LIT(&q, end, "corundum verilator ") == 0)
				return packet_line(ts, q, end, o);
			if (lvl == 0 && (SSP_HAS(q, end, "AXI R") ||
			    SSP_HAS(q, end, "AXI W") || SSP_HAS(q, end, "AXIL ")))
				return axi_line(ts, q, end, o);
		}
		if (lvl == 0 && (SSP_HAS(p, end, "AXI W next segment:") ||
		    SSP_HAS(p, end, "AXI W Issuing request")))
			return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	}
	if (lvl != 0 && SSP_HAS(p, end, "corundum verilator n2d_recv: dropping"))
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	if (lvl != 0 && is_status(p, end))
		return ssp_pline_skip(o, SSP_SKIP_NICINFO);
	ssp_pline_skip(o, lvl != 0 ? SSP_SKIP_UNKNOWN : SSP_SKIP_TEXT);
}
