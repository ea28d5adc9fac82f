/*
 * Span streams counted (spancat --count): spans per kind, traces (root
 * spans), orphans, open and background spans, links, member events and
 * records of types this program does not know, added up over any number
 * of streams, and the table of them as text.
 */
#ifndef SSP_SPANCOUNT_H
#define SSP_SPANCOUNT_H

#include <stdint.h>
#include <stdio.h>

#include "stream/rec.h"
#include "stream/span.h"

struct ssp_spancount {
	uint64_t kind[SSP_SK_NKINDS];
	uint64_t links, events, other, roots, orphans, open, background;
};

/* Count a record of a span stream (zero c first). */
void ssp_spancount_add(struct ssp_spancount *c, const struct ssp_rec *r);
/*
 * "%12 count name" lines: each kind that occurs, then spans, traces,
 * orphans, open, background, links, member events, and "(unknown record
 * types)" when there were any.
 */
void ssp_spancount_print(FILE *out, const struct ssp_spancount *c);

#endif
