/*
 * simsynth scenarios: a discrete-event model of a SimBricks dumbbell (gem5
 * hosts, i40e NICs on PCIe, one ns-3 network of two switches joined by a
 * bottleneck link) running UDP request/response traffic plus background
 * traffic, written out as the logs the real simulators would print, with
 * the topology, symbol tables, rules and the truth file.
 */
#ifndef SSP_SYNSIM_H
#define SSP_SYNSIM_H

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "stream/event.h"
#include "synth/synlog.h"
#include "synth/synparams.h"

/* One log written, with what is in it. */
struct ssp_synsim_logstat {
	char name[64];		/* stream name */
	char file[80];		/* file name in the output directory */
	enum ssp_sim sim;
	struct ssp_synlog_stats io;
	uint64_t nev[SSP_EV_NTYPES];	/* lines per event type */
	uint64_t nskip[8];	/* lines that give no event, by SSP_SYNSKIP_* */
	uint64_t glued;		/* nicbm messages glued onto dma data bytes */
};

struct ssp_synsim_result {
	unsigned nlogs;
	struct ssp_synsim_logstat *logs;
	uint64_t spans, ties, rule_differs, ambiguous;
	uint64_t spans_kind[32];	/* by SSP_SK_* and SSP_SYNTRUTH_K_* */
	unsigned requests_done;
	int64_t end_ps;		/* simulated time at the end */
	double rtt_mean_ps, rtt_max_ps;
	uint64_t bg_packets, bg_drops, bg_to_nic;
	double gen_seconds;	/* wall time of the writing run */
};

/* Write a scenario into outdir (created if missing).  res may be NULL. */
int ssp_synsim_run(const struct ssp_synparams *p, const char *outdir,
    struct ssp_synsim_result *res, struct ssp_err *e);
void ssp_synsim_result_free(struct ssp_synsim_result *res);
/* simsynth --stats: what r says was written, as a table and summary lines
 * on f (zlevel: the logs were compressed at that level, 0 = not). */
void ssp_synsim_report(FILE *f, const struct ssp_synsim_result *r, int zlevel);

#endif
