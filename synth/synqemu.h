/*
 * A QEMU host's log as simbricks/qemu's simbricks-pci device prints it
 * with DEBUG_PRINTS (hw/misc/simbricks_pci.c, synchronized mode): QEMU's
 * warn_report lines for MMIO reads and writes, the poll-timer and
 * message lines of every message from the NIC, the sync-timer lines.
 * Times are QEMU's virtual clock in ns, base_ns + SimBricks time / 1000
 * (the device's ts_base is QEMU's clock when it connected).  simsynth
 * --host qemu writes these instead of gem5 lines: no instruction trace.
 * Internal to synth/.
 */
#ifndef SSP_SYNQEMU_H
#define SSP_SYNQEMU_H

#include <stdint.h>

#include "stream/event.h"
#include "synth/synlog.h"

/* QEMU's clock when the simulated device connected (an arbitrary boot
 * time; what the timer-sync lines let sim2ev subtract). */
#define SSP_SYNQEMU_BASE_NS 2500000LL

struct ssp_synqemu {
	struct ssp_synlog *log;
	int64_t base_ns;
	int64_t sync_interval;		/* ps */
	uint64_t nmmio, ndma;		/* ids sim2ev -f qemu gives them */
	int64_t last;			/* ps of the last line */
	uint64_t nev[SSP_EV_NTYPES];	/* lines per event type */
	uint64_t nskip[SSP_SYNSKIP_N];	/* lines per reason they give none */
};

void ssp_synqemu_init(struct ssp_synqemu *q, struct ssp_synlog *log,
    int64_t base_ns, int64_t sync_interval);
/* The time QEMU prints for SimBricks time t, back in SimBricks ps (what
 * sim2ev makes of it): t rounded down to the ns. */
int64_t ssp_synqemu_time(int64_t t);
/* A register access at t: "starting wait for read" / "finished write";
 * returns the id sim2ev gives it. */
uint64_t ssp_synqemu_mmio(struct ssp_synqemu *q, int64_t t, int write,
    uint64_t offs, unsigned size, uint64_t val);
/* Its completion message arrives: poll, process (type 67 / 68), for a
 * read "kicking cpu" and the CPU's "done" line. */
void ssp_synqemu_mmio_done(struct ssp_synqemu *q, int64_t t, int write,
    uint64_t offs, unsigned size, uint64_t val);
/* A DMA read or write message; returns the id sim2ev gives it. */
uint64_t ssp_synqemu_dma(struct ssp_synqemu *q, int64_t t, int write);
/* An interrupt message. */
void ssp_synqemu_intr(struct ssp_synqemu *q, int64_t t);
/* The sync timer fires, and the NIC's sync message arrives. */
void ssp_synqemu_sync(struct ssp_synqemu *q, int64_t t);

#endif
