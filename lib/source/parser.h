/*
 * The interface every simulator log parser implements: one call per line,
 * which yields either one event (SPEC §2, ssp_event.h; rarely two: a gem5
 * user event before the line's own, ssp_pline.pre) or the reason the
 * line yields none.  Parsers never fail, allocate nothing per line and
 * keep no more state than a few caches, so any input size runs in
 * constant memory.  Timestamps are the simulator's own (no offset);
 * string fields hold atom ids (ssp_atoms) that the caller maps to the
 * event writer's string ids.  "FORMATS.md §n" in the parsers' comments is
 * tests/data/samples/FORMATS.md, the catalogue of every log line kind.
 */
#ifndef SSP_PARSE_H
#define SSP_PARSE_H

#include <stddef.h>

#include "base/err.h"
#include "source/pline.h"

struct ssp_parser;

int ssp_parser_new(struct ssp_parser **pp, enum ssp_sim sim,
    const struct ssp_parser_cfg *cfg, struct ssp_err *e);
void ssp_parser_free(struct ssp_parser *p);
/*
 * Parse one line without its newline; s[n] must be readable (ssp_lines
 * puts a NUL there).  A trailing CR is ignored.
 */
void ssp_parser_line(struct ssp_parser *p, const char *s, size_t n,
    struct ssp_pline *out);
/* gem5: report every Exec line's access (ssp_pline.acc) while on; other
 * parsers ignore it.  Off by default: it costs a scan of each line. */
void ssp_parser_want_access(struct ssp_parser *p, int on);

#endif
