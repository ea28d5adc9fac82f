#include "synth/synqemu.h"

/* warn_report's envelope: the program name, then "warning: ". */
#define PFX "qemu-system-x86_64: warning: simbricks_"

/* SimBricks PCIe device-to-host message types (pcie/proto.h), %u. */
enum { D2H_SYNC = 0, D2H_READ = 64, D2H_WRITE = 65, D2H_INTR = 66,
	D2H_READCOMP = 67, D2H_WRITECOMP = 68 };

void
ssp_synqemu_init(struct ssp_synqemu *q, struct ssp_synlog *log,
    int64_t base_ns, int64_t sync_interval)
{
	*q = (struct ssp_synqemu){ 0 };
	q->log = log;
	q->base_ns = base_ns;
	q->sync_interval = sync_interval > 0 ? sync_interval : 1000;
}

int64_t
ssp_synqemu_time(int64_t t)
{
	return t / 1000 * 1000;
}

/* QEMU's clock (ns) at SimBricks time t (ps): ts_from_proto. */
static uint64_t
ns(const struct ssp_synqemu *q, int64_t t)
{
	return (uint64_t)(t / 1000 + q->base_ns);
}

static char *
begin(struct ssp_synqemu *q, int64_t t, const char *what)
{
	char *p = ssp_synlog_room(q->log);

	if (t > q->last)
		q->last = t;
	p = ssp_synlog_put_str(p, PFX);
	return ssp_synlog_put_str(p, what);
}

/* End a line: an event of type evtype, or (-1) one sim2ev skips. */
static void
end(struct ssp_synqemu *q, char *p, int evtype)
{
	*p++ = '\n';
	ssp_synlog_commit(q->log, p);
	if (evtype >= 0)
		q->nev[evtype]++;
	else
		q->nskip[SSP_SYNSKIP_SBOTHER]++;
}

/* The sync timer's next expiry (ns), the NIC's next message (ps). */
static int64_t
next_sync(const struct ssp_synqemu *q, int64_t t)
{
	return (t / q->sync_interval + 1) * q->sync_interval;
}

/* simbricks_timer_poll: the message of type ty at t is processed. */
static void
poll(struct ssp_synqemu *q, int64_t t, unsigned ty, int evtype)
{
	char *p = begin(q, t, "timer_poll: ts=");

	p = ssp_synlog_put_u64(p, ns(q, t));
	p = ssp_synlog_put_str(p, " sync_ts=");
	p = ssp_synlog_put_u64(p, ns(q, next_sync(q, t)));
	end(q, p, -1);
	p = begin(q, t, "comm_d2h_process: ts=");
	p = ssp_synlog_put_u64(p, ns(q, t));
	p = ssp_synlog_put_str(p, " type=");
	p = ssp_synlog_put_u64(p, ty);
	end(q, p, evtype);
	if (ty == D2H_READCOMP) {	/* one vCPU: its index is request 0 */
		p = begin(q, t, "comm_d2h_rcomp: kicking cpu 0 ts=");
		p = ssp_synlog_put_u64(p, ns(q, t));
		end(q, p, -1);
	}
	p = begin(q, t, "timer_poll: done, next=");
	p = ssp_synlog_put_u64(p, (uint64_t)next_sync(q, t));
	end(q, p, -1);
}

uint64_t
ssp_synqemu_mmio(struct ssp_synqemu *q, int64_t t, int write, uint64_t offs,
    unsigned size, uint64_t val)
{
	char *p = begin(q, t, write ? "mmio_rw: finished write (" :
	    "mmio_rw: starting wait for read (");

	p = ssp_synlog_put_u64(p, ns(q, t));
	p = ssp_synlog_put_str(p, ") addr=");
	p = ssp_synlog_put_hex(p, offs);
	p = ssp_synlog_put_str(p, " size=");
	p = ssp_synlog_put_hex(p, size);
	if (write) {
		p = ssp_synlog_put_str(p, " val=");
		p = ssp_synlog_put_hex(p, val);
	}
	end(q, p, write ? SSP_EV_MMIO_WR : SSP_EV_MMIO_RD);
	return ++q->nmmio;
}

void
ssp_synqemu_mmio_done(struct ssp_synqemu *q, int64_t t, int write,
    uint64_t offs, unsigned size, uint64_t val)
{
	char *p;

	if (write) {	/* QEMU does not wait: only the message line */
		poll(q, t, D2H_WRITECOMP, SSP_EV_MMIO_WR_DONE);
		return;
	}
	poll(q, t, D2H_READCOMP, -1);
	/* the resumed CPU runs the access again and takes the value */
	p = begin(q, t, "mmio_rw: done (");
	p = ssp_synlog_put_u64(p, ns(q, t));
	p = ssp_synlog_put_str(p, ") a=");
	p = ssp_synlog_put_hex(p, offs);
	p = ssp_synlog_put_str(p, " s=");
	p = ssp_synlog_put_hex(p, size);
	p = ssp_synlog_put_str(p, " val=");
	p = ssp_synlog_put_hex(p, val);
	end(q, p, SSP_EV_MMIO_RD_DONE);
}

uint64_t
ssp_synqemu_dma(struct ssp_synqemu *q, int64_t t, int write)
{
	poll(q, t, write ? D2H_WRITE : D2H_READ, write ? SSP_EV_DMA_WR :
	    SSP_EV_DMA_RD);
	return ++q->ndma;
}

void
ssp_synqemu_intr(struct ssp_synqemu *q, int64_t t)
{
	poll(q, t, D2H_INTR, SSP_EV_INTR);
}

void
ssp_synqemu_sync(struct ssp_synqemu *q, int64_t t)
{
	uint64_t pts = (uint64_t)ssp_synqemu_time(t);
	char *p = begin(q, t, "timer_sync: ts=");

	p = ssp_synlog_put_u64(p, ns(q, t));
	p = ssp_synlog_put_str(p, " pts=");
	p = ssp_synlog_put_u64(p, pts);
	p = ssp_synlog_put_str(p, " npts=");
	p = ssp_synlog_put_u64(p, pts);
	end(q, p, SSP_EV_SYNC);
	p = begin(q, t, "timer_sync: next pts=");
	p = ssp_synlog_put_u64(p, pts + (uint64_t)q->sync_interval);
	p = ssp_synlog_put_str(p, " ts=");
	p = ssp_synlog_put_u64(p, ns(q, t + q->sync_interval));
	end(q, p, -1);
	poll(q, t, D2H_SYNC, -1);	/* the NIC's sync message */
}
