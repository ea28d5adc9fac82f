/*
 * Line reader over an ssp_in: one buffer, memchr for newlines, no
 * allocation per line.  Lines are handed out in place, NUL-terminated
 * (the newline is overwritten), valid until the next call.
 */
#ifndef SSP_LINES_H
#define SSP_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "io/in.h"

struct ssp_lines;

/* Longest line kept whole (bytes, without the newline); a longer line is
 * handed out as its first SSP_LINES_MAX bytes, flagged as cut, and the rest
 * of it up to its newline is dropped. */
#define SSP_LINES_MAX (1024 * 1024)

/* ssp_lines_next results; an error is a negated ssp_status (-SSP_ERR_*,
 * e set), SSP_LINE_IDLE lies below every -status. */
#define SSP_LINE      1
#define SSP_LINE_EOF  0
#define SSP_LINE_IDLE (-0x100)	/* follow mode: no data for a while */

SSP_MUST_USE enum ssp_status ssp_lines_open(struct ssp_lines **lp,
    struct ssp_in *in, struct ssp_err *e);
SSP_MUST_USE int ssp_lines_next(struct ssp_lines *l, char **line, size_t *len,
    struct ssp_err *e);
uint64_t ssp_lines_lineno(const struct ssp_lines *l);	/* of the last line, from 1 */
uint64_t ssp_lines_offset(const struct ssp_lines *l);	/* byte offset of its start */
/*
 * Was the last line cut at SSP_LINES_MAX?  Was it unterminated: ended
 * without a newline where more of it may have been on its way, that is, a
 * pipe's writer went away (SSP_IN_BREAK) or a follower was stopped
 * (SSP_IN_FOLLOW input at its end)?  A last line without a newline at the
 * true end of the input is a whole line, as for awk or wc, and not flagged.
 */
int ssp_lines_cut(const struct ssp_lines *l);
int ssp_lines_unterminated(const struct ssp_lines *l);
void ssp_lines_close(struct ssp_lines *l);

#endif
