/*
 * gem5 adapter accesses held until the Exec line of the store or load that
 * made them (formats/events.md §5).  The simbricks-pci adapter line names
 * no CPU; with TimingSimpleCPU (and MinorCPU) the access's own Exec line is
 * printed when the access completes, after the adapter line, while other
 * CPUs print in between.  sim2ev holds the mmio_rd/mmio_wr event (and every
 * event after it, so that the stream keeps the log's order and times) until
 * an Exec line shows that access: a store micro-op for a write, a load for
 * a read, at the adapter's virtual address (A=: the BAR offset plus the
 * mapping's base, learnt from the first access matched by its page
 * offset), or, in a log without A= fields, an Exec line dated at least
 * SSP_CPUHOLD_STALL_PS before the adapter line (the CPU that stalled
 * across it).  That CPU becomes the event's cpu field.
 *
 * Bounded: at most SSP_CPUHOLD_MAX events are held, for at most
 * SSP_CPUHOLD_WINDOW_PS of log time after the adapter line; an access
 * whose Exec line has not come by then (a truncated log, Exec tracing
 * off, an O3 CPU that printed it before) keeps the CPU of the last Exec
 * line before it, counted.  After SSP_CPUHOLD_GIVEUP held accesses of
 * which none matched, holding stops for the rest of the log.  One fixed
 * buffer, allocated at open; nothing is allocated per line.
 */
#ifndef SSP_CPUHOLD_H
#define SSP_CPUHOLD_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "source/pline.h"
#include "stream/rec.h"

#define SSP_CPUHOLD_MAX       1024		/* events held at most */
#define SSP_CPUHOLD_WINDOW_PS 10000000LL	/* 10 us of log time */
#define SSP_CPUHOLD_STALL_PS  40000LL		/* 40 ns: the IO bridge alone is 50 */
#define SSP_CPUHOLD_GIVEUP    16
#define SSP_CPUHOLD_NDELTA    8			/* BAR mappings learnt */
#define SSP_CPUHOLD_NCPU      256		/* CPUs whose last line is kept */

struct ssp_cpuhold_stats {
	uint64_t held;		/* accesses held for their Exec line */
	uint64_t by_addr;	/* given the CPU whose Exec line shows the address */
	uint64_t by_stall;	/* given the CPU that stalled across them */
	uint64_t window;	/* kept the last Exec line's CPU: none came in time */
	uint64_t full;		/* ... the buffer was full */
	uint64_t end;		/* ... the log ended first */
	uint64_t off;		/* ... holding had stopped (none ever matched) */
};

struct ssp_cpuhold;

int ssp_cpuhold_new(struct ssp_cpuhold **hp, struct ssp_err *e);
void ssp_cpuhold_free(struct ssp_cpuhold *h);
/* Events held (waiting ones and those behind them). */
size_t ssp_cpuhold_len(const struct ssp_cpuhold *h);
/* Should this event be held?  guess: an access whose cpu is a guess
 * (ssp_pline.guess).  With nothing held, only such an access is. */
int ssp_cpuhold_wants(const struct ssp_cpuhold *h, int guess);
/* Hold r (the copy is kept).  guess: it waits for its Exec line; pair: it
 * is the second event of its line.  The buffer must not be full: free
 * room with ssp_cpuhold_release first. */
void ssp_cpuhold_put(struct ssp_cpuhold *h, const struct ssp_rec *r,
    uint64_t lineno, int guess, int pair);
/* An Exec line's access (on line lineno): gives the oldest waiting access
 * it shows its CPU. */
void ssp_cpuhold_access(struct ssp_cpuhold *h, const struct ssp_pline_access *a,
    uint64_t lineno);
/* The log reached tick: waiting accesses older than the window stop
 * waiting. */
void ssp_cpuhold_tick(struct ssp_cpuhold *h, int64_t tick);
/* Make the oldest held event writable: its wait ends (all: the end of the
 * log; else the buffer is full). */
void ssp_cpuhold_release(struct ssp_cpuhold *h, int all);
/* The oldest held event if it can be written (NULL: none, or it waits);
 * *lineno, *pair as put.  Then ssp_cpuhold_pop. */
struct ssp_rec *ssp_cpuhold_head(struct ssp_cpuhold *h, uint64_t *lineno,
    int *pair);
void ssp_cpuhold_pop(struct ssp_cpuhold *h);
const struct ssp_cpuhold_stats *ssp_cpuhold_stats(const struct ssp_cpuhold *h);

#endif
