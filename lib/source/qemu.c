#include <stdlib.h>
#include <string.h>

#include "base/scan.h"
#include "source/qemu.h"

/* SimBricks PCIe device-to-host message types (simbricks
 * lib/simbricks/pcie/proto.h, base/proto.h), as the process line prints
 * them (%u). */
enum { D2H_SYNC = 0x00, D2H_TERMINATE = 0x01, D2H_READ = 0x40,
	D2H_WRITE = 0x41, D2H_INTERRUPT = 0x42, D2H_READCOMP = 0x43,
	D2H_WRITECOMP = 0x44 };

#define QRD_MAX 64	/* reads waiting for their done line (one per vCPU) */
#define QWR_MAX 256	/* writes waiting for their completion message */

struct qrd {
	uint64_t addr, size, id;
};

struct ssp_qemu {
	uint32_t comp;			/* atom "simbricks-pci" */
	uint64_t nmmio, ndma;		/* ids handed out so far */
	struct qrd rd[QRD_MAX];		/* outstanding reads, oldest first */
	unsigned nrd;
	uint64_t wr[QWR_MAX];		/* write ids, oldest at whead */
	unsigned whead, nwr;
	int64_t last_ts;		/* ps of the last timed event line */
};

int
ssp_qemu_new(struct ssp_qemu **qp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e)
{
	struct ssp_qemu *q = calloc(1, sizeof(*q));

	*qp = NULL;
	if (q == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((q->comp = ssp_atoms_intern(cfg->atoms, "simbricks-pci", 13)) == 0) {
		free(q);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory (names)");
	}
	*qp = q;
	return SSP_OK;
}

void
ssp_qemu_free(struct ssp_qemu *q)
{
	free(q);
}

static int
at_end(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p == end;
}

/* QEMU's virtual clock in ns to ps; -1 past the int64 range. */
static int64_t
ns_ps(uint64_t ns)
{
	return ns > (uint64_t)INT64_MAX / 1000 ? -1 : (int64_t)ns * 1000;
}

static int
timed(struct ssp_qemu *q, struct ssp_pline *o, unsigned type, uint64_t ns)
{
	int64_t ps = ns_ps(ns);

	if (ps < 0) {
		ssp_pline_bad(o, "qemu: time out of range");
		return -1;
	}
	ssp_pline_event(o, type, (uint64_t)ps);
	q->last_ts = ps;
	return 0;
}

static void
mmio_fields(struct ssp_qemu *q, struct ssp_pline *o, uint64_t addr,
    uint64_t size, uint64_t id)
{
	o->ev.f[SSP_F_MMIO_COMP] = q->comp;
	o->ev.f[SSP_F_MMIO_ADDR] = addr;	/* QEMU prints the BAR offset */
	o->ev.f[SSP_F_MMIO_SIZE] = size;
	o->ev.f[SSP_F_MMIO_ID] = id;
	o->ev.f[SSP_F_MMIO_BAR] = (uint64_t)(int64_t)-1;
	o->ev.f[SSP_F_MMIO_OFFS] = addr;
}

/* The oldest outstanding read: of that address and size (match), or any. */
static uint64_t
rd_take(struct ssp_qemu *q, int match, uint64_t addr, uint64_t size)
{
	unsigned i;
	uint64_t id;

	for (i = 0; i < q->nrd; i++)
		if (!match || (q->rd[i].addr == addr && q->rd[i].size == size))
			break;
	if (i == q->nrd)
		return 0;
	id = q->rd[i].id;
	memmove(&q->rd[i], &q->rd[i + 1], (q->nrd - i - 1) * sizeof(q->rd[0]));
	q->nrd--;
	return id;
}

/* "simbricks_mmio_rw: ..." */
static void
mmio_line(struct ssp_qemu *q, const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t ns, addr, size, val;

	if (SSP_LIT(&p, end, "starting wait for read (") == 0) {
		if (ssp_scan_dec(&p, end, &ns) != 0 || SSP_LIT(&p, end, ") addr=") != 0 ||
		    ssp_scan_hex(&p, end, &addr) != 0 || SSP_LIT(&p, end, " size=") != 0 ||
		    ssp_scan_hex(&p, end, &size) != 0 || !at_end(p, end))
			return ssp_pline_bad(o, "qemu mmio read: expected 'starting wait "
			    "for read (<ns>) addr=<hex> size=<hex>'");
		if (timed(q, o, SSP_EV_MMIO_RD, ns) != 0)
			return;
		mmio_fields(q, o, addr, size, ++q->nmmio);
		o->ev.f[SSP_F_MMIO_RD_CPU] = 0;
		if (q->nrd == QRD_MAX)	/* a read that never got its done line */
			rd_take(q, 0, 0, 0);
		q->rd[q->nrd++] = (struct qrd){ addr, size, q->nmmio };
		return;
	}
	if (SSP_LIT(&p, end, "finished write (") == 0) {
		if (ssp_scan_dec(&p, end, &ns) != 0 || SSP_LIT(&p, end, ") addr=") != 0 ||
		    ssp_scan_hex(&p, end, &addr) != 0 || SSP_LIT(&p, end, " size=") != 0 ||
		    ssp_scan_hex(&p, end, &size) != 0 || SSP_LIT(&p, end, " val=") != 0 ||
		    ssp_scan_hex(&p, end, &val) != 0 || !at_end(p, end))
			return ssp_pline_bad(o, "qemu mmio write: expected 'finished write "
			    "(<ns>) addr=<hex> size=<hex> val=<hex>'");
		if (timed(q, o, SSP_EV_MMIO_WR, ns) != 0)
			return;
		mmio_fields(q, o, addr, size, ++q->nmmio);
		/* sent as a non-posted write: the device completes it */
		o->ev.f[SSP_F_MMIO_POSTED] = 0;
		o->ev.f[SSP_F_MMIO_WR_CPU] = 0;
		if (q->nwr == QWR_MAX) {	/* never completed: forget it */
			q->whead = (q->whead + 1) % QWR_MAX;
			q->nwr--;
		}
		q->wr[(q->whead + q->nwr++) % QWR_MAX] = q->nmmio;
		return;
	}
	if (SSP_LIT(&p, end, "done (") == 0) {
		if (ssp_scan_dec(&p, end, &ns) != 0 || SSP_LIT(&p, end, ") a=") != 0 ||
		    ssp_scan_hex(&p, end, &addr) != 0 || SSP_LIT(&p, end, " s=") != 0 ||
		    ssp_scan_hex(&p, end, &size) != 0 || SSP_LIT(&p, end, " val=") != 0 ||
		    ssp_scan_hex(&p, end, &val) != 0 || !at_end(p, end))
			return ssp_pline_bad(o, "qemu mmio read done: expected 'done "
			    "(<ns>) a=<hex> s=<hex> val=<hex>'");
		if (timed(q, o, SSP_EV_MMIO_RD_DONE, ns) != 0)
			return;
		o->ev.f[SSP_F_DONE_COMP] = q->comp;
		o->ev.f[SSP_F_DONE_ID] = rd_take(q, 1, addr, size);
		return;
	}
	ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
}

/* "simbricks_comm_d2h_process: ts=<ns> type=<dec>": a message from the
 * device.  ts is 0 when QEMU runs unsynchronized (the poll thread). */
static void
d2h_line(struct ssp_qemu *q, const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t ns, type, id;
	int untimed;
	unsigned ev;

	if (SSP_LIT(&p, end, "ts=") != 0 || ssp_scan_dec(&p, end, &ns) != 0 ||
	    SSP_LIT(&p, end, " type=") != 0 || ssp_scan_dec(&p, end, &type) != 0 ||
	    !at_end(p, end))
		return ssp_pline_bad(o, "qemu d2h message: expected "
		    "'ts=<ns> type=<dec>'");
	untimed = ns == 0;
	switch (type) {
	case D2H_READ:	ev = SSP_EV_DMA_RD; break;
	case D2H_WRITE:	ev = SSP_EV_DMA_WR; break;
	case D2H_INTERRUPT: ev = SSP_EV_INTR; break;
	case D2H_READCOMP:
		/* synchronized, the CPU's done line ends the read */
		if (!untimed)
			return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
		ev = SSP_EV_MMIO_RD_DONE;
		break;
	case D2H_WRITECOMP: ev = SSP_EV_MMIO_WR_DONE; break;
	case D2H_SYNC:
	case D2H_TERMINATE:
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	default:
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	}
	if (untimed) {
		ssp_pline_event(o, ev, (uint64_t)q->last_ts);
		o->untimed = 1;
	} else if (timed(q, o, ev, ns) != 0) {
		return;
	}
	switch (ev) {
	case SSP_EV_DMA_RD:
	case SSP_EV_DMA_WR:
		o->ev.f[SSP_F_DMA_COMP] = q->comp;
		o->ev.f[SSP_F_DMA_ID] = ++q->ndma;
		o->ev.f[SSP_F_DMA_ADDR] = 0;
		o->ev.f[SSP_F_DMA_SIZE] = 0;
		break;
	case SSP_EV_INTR:
		o->ev.f[SSP_F_IRQ_COMP] = q->comp;
		o->ev.f[SSP_F_IRQ_VEC] = 0;
		break;
	case SSP_EV_MMIO_RD_DONE:
		o->ev.f[SSP_F_DONE_COMP] = q->comp;
		o->ev.f[SSP_F_DONE_ID] = rd_take(q, 0, 0, 0);
		break;
	default:	/* write completion */
		id = 0;
		if (q->nwr > 0) {
			id = q->wr[q->whead];
			q->whead = (q->whead + 1) % QWR_MAX;
			q->nwr--;
		}
		o->ev.f[SSP_F_DONE_COMP] = q->comp;
		o->ev.f[SSP_F_DONE_ID] = id;
	}
}

/* "simbricks_timer_sync: ts=<ns> pts=<ps> npts=<ps>": pts is the SimBricks
 * time of QEMU time ts, so ts * 1000 - pts is the offset. */
static void
sync_line(struct ssp_qemu *q, const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t ns, pts, npts;

	if (SSP_LIT(&p, end, "ts=") != 0)
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);	/* next/expected */
	if (ssp_scan_dec(&p, end, &ns) != 0)
		return ssp_pline_bad(o, "qemu timer sync: expected "
		    "'ts=<ns> pts=<ps> npts=<ps>'");
	/* QEMU before 2022-04 (and the cosim-pci device) prints "ts=%ld"
	 * alone: no SimBricks time, so no offset from it */
	if (at_end(p, end))
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	if (SSP_LIT(&p, end, " pts=") != 0 ||
	    ssp_scan_dec(&p, end, &pts) != 0 || SSP_LIT(&p, end, " npts=") != 0 ||
	    ssp_scan_dec(&p, end, &npts) != 0 || !at_end(p, end) ||
	    pts > (uint64_t)INT64_MAX)
		return ssp_pline_bad(o, "qemu timer sync: expected "
		    "'ts=<ns> pts=<ps> npts=<ps>'");
	if (timed(q, o, SSP_EV_SYNC, ns) != 0)
		return;
	o->ev.f[SSP_F_SYNC_TS] = pts;
}

static unsigned
spaces(const char *p, const char *end)
{
	unsigned n = 0;

	for (; p < end; p++)
		n += *p == ' ';
	return n;
}

/* A line that names no adapter function: one of QEMU's own (its
 * "<prog>: warning: " envelope, or "qemu-system-..."), or console text. */
static void
other_line(const char *s, const char *end, struct ssp_pline *o)
{
	const char *c = ssp_find_colsp(s, end);

	if (SSP_HAS(s, end, "qemu-system-") || SSP_HAS(s, end, "warning: ") ||
	    (c != NULL && (SSP_HAS(c + 2, end, "warning: ") ||
	    SSP_HAS(c + 2, end, "info: "))))
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	ssp_pline_skip(o, SSP_SKIP_TEXT);
}

void
ssp_qemu_line(struct ssp_qemu *q, const char *s, size_t len,
    struct ssp_pline *o)
{
	const char *end = s + len, *m, *p;
	size_t plen = 10;	/* "simbricks_" */

	/* "<prog>: warning: simbricks_" at the first colon, else search;
	 * QEMU before 2021-02 named the device and its lines "cosim_" */
	m = memchr(s, ':', len);
	if (m != NULL && SSP_HAS(m, end, ": warning: simbricks_"))
		m += 11;
	else if (m != NULL && SSP_HAS(m, end, ": warning: cosim_")) {
		m += 11;
		plen = 6;
	} else if ((m = memmem(s, len, "simbricks_", 10)) == NULL &&
	    (m = memmem(s, len, "cosim_", 6)) != NULL) {
		plen = 6;
	}
	if (m == NULL || m - s < 9 || memcmp(m - 9, "warning: ", 9) != 0) {
		/* panic() reports through error_report: no "warning: " */
		if (m != NULL && (SSP_HAS(m, end, "simbricks_comm_poll_d2h: ") ||
		    SSP_HAS(m, end, "cosim_comm_poll_d2h: ")))
			return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
		return other_line(s, end, o);
	}
	/* "[<time> ][<guest> ]<prog>: warning: ", or "warning: " alone in a
	 * monitor: more than that before it (another ": ", more spaces) is
	 * console text without its newline, spliced in front of the line */
	p = m - 9;
	if (p > s && (p - s < 2 || p[-2] != ':' || p[-1] != ' ' ||
	    ssp_find_colsp(s, p - 2) != NULL || spaces(s, p - 2) > 2))
		o->recovered = 1;
	p = m + plen;
	if (SSP_LIT(&p, end, "mmio_rw: ") == 0)
		mmio_line(q, p, end, o);
	else if (SSP_LIT(&p, end, "comm_d2h_process: ") == 0)
		d2h_line(q, p, end, o);
	else if (SSP_LIT(&p, end, "timer_sync: ") == 0)
		sync_line(q, p, end, o);
	else if (SSP_HAS(p, end, "timer_poll: ") ||
	    SSP_HAS(p, end, "comm_d2h_rcomp: ") ||
	    SSP_HAS(p, end, "comm_d2h_interrupt: "))
		ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	else
		ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	if (o->skip != SSP_SKIP_NONE)
		o->recovered = 0;
}
