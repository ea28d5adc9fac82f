/*
 * Warnings about a degraded result (issue 12): a run that succeeded but
 * whose output is not what the user most likely wanted (0 events, spans
 * without parents, a filter that matched nothing).  One line on stderr,
 * "prog: warning: what: likely cause; fix", printed whether or not
 * --stats was given.  With --strict each warning makes the exit status 1
 * (the output is still written in full, so it can be inspected).  The
 * library only counts (stats structs); the tools decide and print here.
 */
#ifndef SSP_TOOLS_WARN_H
#define SSP_TOOLS_WARN_H

struct ssp_warn {
	const char *prog;
	int strict;		/* --strict: a warning makes the exit status 1 */
	unsigned n;		/* warnings printed (or, after -q, counted) */
};

/* Print "prog: warning: <fmt>\n" on stderr and count it. */
void ssp_warn(struct ssp_warn *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The exit status: rc, or SSP_EXIT_FAIL when rc is 0 and a warning was
 * printed under --strict. */
int ssp_warn_status(const struct ssp_warn *w, int rc);
/* -q: from now on warnings are counted (--strict) but not printed. */
void ssp_warn_quiet(void);

#endif
