/*
 * What every tool's main needs besides getopt: version line, strict number
 * parsing, the terminal check for binary output, a progress line, and the
 * final check that stdout was really written.
 */
#ifndef SSP_CLI_H
#define SSP_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of every tool (see the EXIT STATUS of each man page). */
#define SSP_EXIT_OK    0
#define SSP_EXIT_FAIL  1	/* runtime failure: i/o, corrupt input, ... */
#define SSP_EXIT_USAGE 2	/* bad usage or bad configuration file */

/* "prog 0.1.0 (zstd 1.5.4, sqlite 3.40.1, libcurl 7.88.1)" on stdout. */
void ssp_cli_version(const char *prog);

/* Parse a whole decimal (or 0x hex with base 0) number in [min, max].
 * Returns 0, or -1 with *errstr set to "invalid", "too small", "too large". */
int ssp_strtonum(const char *s, int64_t min, int64_t max, int64_t *out,
    const char **errstr);
int ssp_strtou64(const char *s, uint64_t *out, const char **errstr);
/* A time with optional unit: ps (default), ns, us, ms, s. */
int ssp_parse_time(const char *s, int64_t *ps, const char **errstr);
/* A wall-clock duration for timeouts: seconds, or a whole number with the
 * unit ms, s or min ("30", "500ms", "2min"), into milliseconds (at most a
 * week).  Returns 0, or -1 with *errstr set. */
int ssp_parse_ms(const char *s, uint64_t *ms, const char **errstr);
/* A size in bytes: a whole number, or with the unit k/K/KiB, M/MiB or
 * G/GiB (powers of 1024): "4194304", "4M", "512KiB".  0 or -1. */
int ssp_parse_bytes(const char *s, uint64_t *n, const char **errstr);

/* Binary output to a terminal is refused unless forced (exit 1 message). */
int ssp_cli_refuse_tty(int fd, int force, const char *prog);

/*
 * Progress line on stderr, only when stderr is a terminal: bytes read, the
 * rates of bytes, lines and items since the start, and with a known total
 * size the percentage and ETA.  Call ssp_progress_tick() often; it looks at
 * the clock every 64k calls and redraws at most 4 times a second.
 */
struct ssp_progress {
	int on;
	uint64_t calls;
	uint64_t t0_ns, last_ns;
	int64_t total_bytes;	/* -1 when unknown */
	const char *what;	/* name of the counted items, e.g. "events" */
};
void ssp_progress_init(struct ssp_progress *p, int64_t total_bytes,
    const char *what);
void ssp_progress_draw(struct ssp_progress *p, uint64_t bytes, uint64_t lines,
    uint64_t items);
/* The text of the line after secs seconds, e.g. "120 MB 40.1MB/s 1.2M
 * lines/s 85.0k events/s  25% ETA 9s" (no \r or erase sequence). */
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

/*
 * Call handler on each of the n signals, without SA_RESTART (a blocking
 * read returns EINTR).  A signal other than SIGTERM that was ignored on
 * entry stays ignored: a script's background job or nohup decides itself
 * when to stop.  SIGTERM is always caught.
 */
void ssp_cli_catch_signals(const int *sigs, size_t n, void (*handler)(int));

/* Close stdout and report a failed write (jq's check): 0 or -1 (warned). */
int ssp_cli_close_stdout(const char *prog);

uint64_t ssp_now_ns(void);

#endif
