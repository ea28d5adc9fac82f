/*
 * simspan-simbricks run: from a planned SimBricks run (config/sbplan.h)
 * to traces, by running the other tools as processes (argv, no shell):
 * sim2ev for every stream that has something to read, evspan, then
 * span2sqlite and span2html, and a summary from the database (traces,
 * latency percentiles, the split across simulators, what is missing).
 * Everything lands in one directory, with a commands.sh that reruns
 * exactly what ran.  A line per stage on stderr when it is a terminal
 * (or with verbose).
 */
#ifndef SSP_TOOLS_SBRUN_H
#define SSP_TOOLS_SBRUN_H

#include <stddef.h>

#include "config/sbplan.h"
#include "config/simbricks.h"

struct ssp_sbrun_opts {
	const char *prog;	/* for messages */
	const char *dir;	/* the output directory (created) */
	const char *rules;	/* a file, or a name (share/simspan/rules);
				 * NULL: the plan's */
	const char *const *symtabs;	/* sim2ev -s specs for every gem5 stream */
	size_t nsymtabs;
	int jobs;		/* sim2ev processes at once */
	int quiet;		/* no warnings */
	int verbose;		/* stage lines even off a terminal */
	int strict;		/* a warning makes the exit status 1 */
	const char *const *extra;	/* more warnings, for the summary */
	size_t nextra;
};

/* The exit status: 0, 1 (a stage failed, nothing could be traced, or a
 * warning under strict) or 2 (a symbol table or rules file missing). */
int ssp_sbrun_run(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    const struct ssp_sbrun_opts *o);

#endif
