/*
 * sim2ev's closing report, on stderr: the --stats counts of a conversion
 * (lib/source/conv's counters) and its after-run findings
 * (lib/source/convcheck) as one warning each.  Compiled into the tools
 * only: the library counts, the tool prints.
 */
#ifndef SSP_TOOLS_CONVREPORT_H
#define SSP_TOOLS_CONVREPORT_H

#include <stdio.h>

#include "config/simbricks.h"
#include "source/conv.h"
#include "tools/common/warn.h"

/* --stats: lines, events per type, skips per reason with their first
 * examples, recovered lines, held adapter accesses, the time offset; to
 * f, each line starting "PROG: SRC:" or indented. */
void ssp_convreport_stats(FILE *f, const struct ssp_conv *c, const char *prog,
    const char *src);
/*
 * The findings about c (converted with cfg from src) as warnings: lost
 * lines, a log of another format, Exec lines without a symbol table, time
 * going backwards; after a conversion that succeeded (ok) also a log
 * without any event, where sb (may be NULL), the SimBricks run the log
 * was read from (its stderr with sberr), tells whether the simulator's
 * other captured stream has the lines this one lacks.
 */
void ssp_convreport_warn(struct ssp_warn *w, const struct ssp_conv *c,
    const struct ssp_conv_cfg *cfg, const char *src, int ok,
    const struct ssp_simbricks_input *sb, int sberr);

#endif
