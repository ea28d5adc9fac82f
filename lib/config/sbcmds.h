/*
 * The commands script of a plan (simspan-simbricks -c, commands.sh): the
 * sim2ev command of every stream and the evspan command, as sh.  What
 * the run cannot know is a shell variable with a default at the top: the
 * symbol tables (VMLINUX_SYMS, <DRIVER>_SYMS, <DRIVER>_TEXT), an ns-3
 * trace file (<STREAM>_TRACE), the rules (RULES, a file name evspan finds
 * in share/simspan/rules or the source tree) and the run's JSON (RUN).
 * Every variable name is valid sh whatever the simulator is called, and
 * every word from the run is quoted: the script passes sh -n for any
 * run the reader accepts.
 */
#ifndef SSP_SBCMDS_H
#define SSP_SBCMDS_H

#include "base/buf.h"
#include "config/sbplan.h"
#include "config/simbricks.h"

/* Append the script to b: 0, or -1 out of memory. */
int ssp_sbcmds_script(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    const struct ssp_sbplan_opts *o, struct ssp_buf *b);

#endif
