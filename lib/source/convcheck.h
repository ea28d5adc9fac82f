/*
 * After a conversion: what a user would not expect, as message lines for
 * the tool to print (one warning each): lost lines (malformed, partial,
 * over the name limit), a log none of whose lines the format given
 * recognises (and the format whose parser does), gem5 Exec lines without
 * a symbol table to turn them into function events, time going backwards.
 */
#ifndef SSP_CONVCHECK_H
#define SSP_CONVCHECK_H

#include <stddef.h>

#include "source/conv.h"

#define SSP_CONVCHECK_MAX 8		/* findings at most */
#define SSP_CONVCHECK_LEN 4096		/* bytes of each message */

/* Warning thresholds: a few Exec lines without a symbol table or a few
 * out-of-order lines (hand-edited samples) are not worth a warning. */
#define SSP_CONVCHECK_EXEC_MIN      100
#define SSP_CONVCHECK_BACKWARDS_MAX 10

struct ssp_convcheck {
	size_t n;
	char msg[SSP_CONVCHECK_MAX][SSP_CONVCHECK_LEN];
};

/*
 * Fill r with the findings about c (converted with cfg from src); ok is 0
 * when the conversion failed (then only the lost lines are reported: the
 * error said what went wrong).  Returns the number of findings.
 */
size_t ssp_convcheck_run(struct ssp_convcheck *r, const struct ssp_conv *c,
    const struct ssp_conv_cfg *cfg, const char *src, int ok);

/*
 * A log of the right simulator with no event at all: the simulator was
 * built or run without its debug output, which nothing else reports.
 * other is the count of the simulator's lines in the other captured
 * stream of a SimBricks run (0 without one), other_stdout 1 when that
 * stream is stdout; warned is nonzero when a warning was already given
 * (the format check may have named another -f).  Adds at most one
 * finding to r; returns how many it added.
 */
size_t ssp_convcheck_empty(struct ssp_convcheck *r, const struct ssp_conv *c,
    const struct ssp_conv_cfg *cfg, const char *src, size_t other,
    int other_stdout, int warned);

#endif
