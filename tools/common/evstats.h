/*
 * evspan's --stats report and its -v summary line (evspan(1)): the span
 * builder's counters (lib/span: ssp_evspan_stats and the rest) per
 * stream, per drop reason, per span kind and cause, in the layout the
 * tests and users read.  The counts add up (in = used + dropped per
 * stream).  What a person reads is the tool's to print, not the
 * library's: compiled into the tools only.
 */
#ifndef SSP_TOOLS_EVSTATS_H
#define SSP_TOOLS_EVSTATS_H

#include <stdio.h>

#include "config/topo.h"
#include "span/evspan.h"

/* The --stats report of a closed pipeline ev over topology t, to f;
 * secs: the run's wall time. */
void ssp_evstats_print(FILE *f, const struct ssp_evspan *ev,
    const struct ssp_topo *t, double secs);
/* "PROG: N events from S streams -> N spans in N traces (salt X)\n" */
void ssp_evstats_summary(FILE *f, const struct ssp_evspan *ev,
    const char *prog);

#endif
