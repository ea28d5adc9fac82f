/*
 * evfilter's closing report (filtreport.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "tools/common/filtreport.h"

void
ssp_filtreport_stats(const char *prog, const char *name,
    const struct ssp_filter *f, const struct ssp_filter_stats *st,
    int verbose)
{
	unsigned k;

	if (verbose)
		fprintf(stderr, "%s: filter: %s\n", prog,
		    ssp_filter_describe(f)[0] ? ssp_filter_describe(f) :
		    "none (pass-through)");
	fprintf(stderr, "%s: %s: %" PRIu64 " events in, %" PRIu64 " kept, %"
	    PRIu64 " dropped\n", prog, name, st->in, st->kept, st->in - st->kept);
	for (k = 1; k < SSP_FR_NREASONS; k++)
		if (st->dropped[k] != 0 || ssp_filter_uses(f, k))
			fprintf(stderr, "%s: %12" PRIu64 " dropped by %s\n", prog,
			    st->dropped[k], ssp_filter_reason_name(k));
}

/* A --comp, --cpu or --table pattern list that matched nothing: warn,
 * naming the values the stream has. */
void
ssp_filtreport_unmatched(struct ssp_warn *w, const char *name,
    const struct ssp_filter *f)
{
	static const char *const opt[3] = { "--comp", "--cpu", "--table" };
	static const char *const what[3] = { "component", "CPU", "symbol table" };
	const char *v[SSP_FILTER_SEEN];
	char list[512];
	size_t len;
	int n, i, k;

	for (k = 0; k < 3; k++) {
		if ((n = ssp_filter_unmatched(f, (enum ssp_filter_field)k, v)) < 0)
			continue;
		if (n == 0) {
			ssp_warn(w, "%s: %s matched nothing: no event has a %s",
			    name, opt[k], what[k]);
			continue;
		}
		for (list[0] = '\0', len = 0, i = 0; i < n && len < sizeof(list);
		    i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len,
			    "%s%s", i ? ", " : "", v[i]);
		ssp_warn(w, "%s: %s matched nothing, all its events are dropped; "
		    "the stream's %ss are %s%s", name, opt[k], what[k], list,
		    n == SSP_FILTER_SEEN ? ", ..." : "");
	}
}
