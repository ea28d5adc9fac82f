/*
 * sim2ev's closing report (convreport.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "config/simbricks.h"
#include "source/convcheck.h"
#include "source/pline.h"
#include "tools/common/convreport.h"

void
ssp_convreport_stats(FILE *f, const struct ssp_conv *c, const char *prog,
    const char *src)
{
	const struct ssp_conv_stats *st = ssp_conv_stats(c);
	const struct ssp_cpuhold_stats *hs;
	const struct ssp_conv_example *ex;
	size_t i, k, n;
	uint64_t skipped = 0;

	for (i = 0; i < SSP_SKIP_N; i++)
		skipped += st->skipped[i];
	if (st->lines - skipped == st->nevents)
		fprintf(f, "%s: %s: %" PRIu64 " lines = %" PRIu64 " events + %"
		    PRIu64 " skipped\n", prog, src, st->lines, st->nevents, skipped);
	else	/* a switch line gives two events */
		fprintf(f, "%s: %s: %" PRIu64 " lines = %" PRIu64 " with events (%"
		    PRIu64 " events) + %" PRIu64 " skipped\n", prog, src, st->lines,
		    st->lines - skipped, st->nevents, skipped);
	for (i = 0; i < SSP_EV_NTYPES; i++)
		if (st->events[i] != 0)
			fprintf(f, "  %12" PRIu64 " %s\n", st->events[i],
			    ssp_event_schema.types[i].name);
	for (i = 0; i < SSP_SKIP_N; i++) {
		if (st->skipped[i] == 0)
			continue;
		fprintf(f, "  %12" PRIu64 " skipped: %s (%s)\n", st->skipped[i],
		    ssp_pline_skip_name((unsigned)i), ssp_pline_skip_desc((unsigned)i));
		n = ssp_conv_examples(c, (unsigned)i, &ex);
		for (k = 0; k < n; k++)
			fprintf(f, "  %12s %s:%" PRIu64 ": %s%s%s\n", "", src,
			    ex[k].line, ex[k].text, ex[k].why ? "\n                 "
			    "-> " : "", ex[k].why ? ex[k].why : "");
	}
	if (st->recovered)
		fprintf(f, "  %12" PRIu64 " events recovered from spliced or "
		    "glued lines\n", st->recovered);
	if ((hs = ssp_conv_hold_stats(c)) != NULL && hs->held > 0) {
		fprintf(f, "  %12" PRIu64 " adapter accesses held for their "
		    "CPU's Exec line:\n", hs->held);
		fprintf(f, "  %12" PRIu64 "   its address (A=)\n", hs->by_addr);
		if (hs->by_stall > 0)
			fprintf(f, "  %12" PRIu64 "   the CPU that stalled\n",
			    hs->by_stall);
		if (hs->window + hs->full + hs->end + hs->off > 0)
			fprintf(f, "  %12" PRIu64 "   none: the last Exec line's "
			    "CPU kept (%" PRIu64 " not within %lld us, %" PRIu64
			    " buffer full, %" PRIu64 " log ended, %" PRIu64
			    " holding stopped)\n", hs->window + hs->full +
			    hs->end + hs->off, hs->window,
			    (long long)(SSP_CPUHOLD_WINDOW_PS / 1000000), hs->full,
			    hs->end, hs->off);
	}
	if (st->offset_known && (st->offset != 0 || st->offset_line != 0))
		fprintf(f, "  time offset %" PRId64 " ps subtracted%s\n",
		    st->offset, st->offset_line ? " (from the sync line)" : "");
}

void
ssp_convreport_warn(struct ssp_warn *w, const struct ssp_conv *c,
    const struct ssp_conv_cfg *cfg, const char *src, int ok,
    const struct ssp_simbricks_input *sb, int sberr)
{
	static struct ssp_convcheck r;	/* 32 KB of messages */
	size_t i, n = ssp_convcheck_run(&r, c, cfg, src, ok), other = 0;

	for (i = 0; i < n; i++)
		ssp_warn(w, "%s", r.msg[i]);
	if (!ok || ssp_conv_stats(c)->nevents > 0)
		return;
	/* with --simbricks-json of a nicbm, the other captured stream may
	 * hold the event lines a log without any lacks */
	if (sb != NULL && cfg->sim == SSP_SIM_NICBM)
		other = ssp_simbricks_count(ssp_simbricks_input_run(sb),
		    ssp_simbricks_input_sim(sb), sberr ? SSP_SIMBRICKS_STDOUT :
		    SSP_SIMBRICKS_STDERR, "nicbm: ");
	r.n = 0;
	if (ssp_convcheck_empty(&r, c, cfg, src, other, sberr, w->n != 0) > 0)
		ssp_warn(w, "%s", r.msg[0]);
}
