/*
 * evfilter's closing report, on stderr: the --stats counts of a run
 * (lib/config/filter's counters: events in, kept, dropped by each filter
 * in use; with -v the filter itself) and, after a run that succeeded, a
 * warning for each --comp, --cpu or --table pattern list that matched
 * nothing, naming the values the stream has.  Compiled into the tools
 * only: the library counts, the tool prints.
 */
#ifndef SSP_TOOLS_FILTREPORT_H
#define SSP_TOOLS_FILTREPORT_H

#include "config/filter.h"
#include "tools/common/warn.h"

/* --stats (and -v, verbose) of f over the stream name, counted in st. */
void ssp_filtreport_stats(const char *prog, const char *name,
    const struct ssp_filter *f, const struct ssp_filter_stats *st,
    int verbose);
/* The pattern lists of f that matched nothing in the stream name. */
void ssp_filtreport_unmatched(struct ssp_warn *w, const char *name,
    const struct ssp_filter *f);

#endif
