/*
 * Progress line on stderr, only when stderr is a terminal: bytes read, the
 * rates of bytes, lines and items since the start, and with a known total
 * size the percentage and ETA.  Call ssp_progress_tick() often; it looks at
 * the clock every 64k calls and redraws at most 4 times a second.  The
 * library reports progress through callbacks (ssp_conv_run,
 * ssp_evspan_run); ssp_progress_cb fits them.
 */
#ifndef SSP_TOOLS_PROGRESS_H
#define SSP_TOOLS_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct ssp_progress {
	int on;
	uint64_t calls;
	uint64_t t0_ns, last_ns;
	int64_t total_bytes;	/* -1 when unknown */
	const char *what;	/* name of the counted items, e.g. "events" */
	const char *unit;	/* of the second count: "lines" (a log), or
				 * "records" or "events" (a binary stream) */
};
void ssp_progress_init(struct ssp_progress *p, int64_t total_bytes,
    const char *what);
/* The same for a tool that reads records, not lines: the second count is
 * unit ("records", "events"); quiet (-q) turns the line off. */
void ssp_progress_init_as(struct ssp_progress *p, int64_t total_bytes,
    const char *unit, const char *what, int quiet);
void ssp_progress_draw(struct ssp_progress *p, uint64_t bytes, uint64_t lines,
    uint64_t items);
/* ssp_progress_draw for a library callback: ctx is the struct ssp_progress. */
void ssp_progress_cb(void *ctx, uint64_t bytes, uint64_t lines,
    uint64_t items);
/* The text of the line after secs seconds, e.g. "120 MB 40.1MB/s 1.2M
 * lines/s 85.0k events/s  25% ETA 9s" (no \r or erase sequence; "lines"
 * is p->unit). */
void ssp_progress_format(char *buf, size_t n, const struct ssp_progress *p,
    double secs, uint64_t bytes, uint64_t lines, uint64_t items);
static inline void
ssp_progress_tick(struct ssp_progress *p, uint64_t bytes, uint64_t lines,
    uint64_t items)
{
	if (p->on && (++p->calls & 0xffff) == 0)
		ssp_progress_draw(p, bytes, lines, items);
}
void ssp_progress_done(struct ssp_progress *p);

#endif
