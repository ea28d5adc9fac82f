/*
 * Spans counted per kind and flag (spancount.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "sink/spancount.h"

void
ssp_spancount_add(struct ssp_spancount *c, const struct ssp_rec *r)
{
	if (r->type < SSP_SK_NKINDS) {
		c->kind[r->type]++;
		if (r->f[SSP_SF_PARENT] == 0)
			c->roots++;
		if (r->f[SSP_SF_FLAGS] & SSP_SPAN_ORPHAN)
			c->orphans++;
		if (r->f[SSP_SF_FLAGS] & SSP_SPAN_OPEN)
			c->open++;
		if (r->f[SSP_SF_FLAGS] & SSP_SPAN_BACKGROUND)
			c->background++;
	} else if (r->type == SSP_SPAN_T_LINK) {
		c->links++;
	} else if (r->type != SSP_TYPE_UNKNOWN) {
		c->events++;
	} else {
		c->other++;
	}
}

void
ssp_spancount_print(FILE *out, const struct ssp_spancount *c)
{
	uint64_t spans = 0;
	unsigned k;

	for (k = 0; k < SSP_SK_NKINDS; k++) {
		if (c->kind[k] != 0)
			fprintf(out, "%12" PRIu64 " %s\n", c->kind[k],
			    ssp_span_kind_name(k));
		spans += c->kind[k];
	}
	fprintf(out, "%12" PRIu64 " spans\n", spans);
	fprintf(out, "%12" PRIu64 " traces\n", c->roots);
	fprintf(out, "%12" PRIu64 " orphans\n", c->orphans);
	fprintf(out, "%12" PRIu64 " open\n", c->open);
	fprintf(out, "%12" PRIu64 " background\n", c->background);
	fprintf(out, "%12" PRIu64 " links\n", c->links);
	fprintf(out, "%12" PRIu64 " member events\n", c->events);
	if (c->other != 0)
		fprintf(out, "%12" PRIu64 " (unknown record types)\n", c->other);
}
