/*
 * Event filters (evfilter): which events of an event stream to keep, and
 * the copy of the kept ones into a new stream.
 *
 * A filter is configured from user strings (type and group lists, a time
 * window, shell patterns for components, CPUs and symbol tables, ns-3
 * node:device pairs, function lists read from CSV), then applied to
 * records from an event reader.  Every criterion that rejects an event is
 * a reason; an event is dropped for the first reason in enum order, so
 * per-reason counts add up to the events dropped.  The per-event check
 * allocates nothing and compares no strings: verdicts on string ids are
 * cached per reader segment.
 */
#ifndef SSP_FILTER_H
#define SSP_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "io/in.h"
#include "io/out.h"
#include "stream/rec.h"

/* Why an event was dropped, in the order the checks run. */
enum ssp_filter_reason {
	SSP_FR_KEEP = 0,
	SSP_FR_NOISE,		/* sync / proc_in (--no-noise) */
	SSP_FR_TYPE,		/* -t / -T */
	SSP_FR_TIME,		/* outside [from, to) */
	SSP_FR_NETDEV,		/* ns-3 node:device not selected */
	SSP_FR_INTERESTING,	/* ns-3 background packet */
	SSP_FR_COMP,		/* component pattern */
	SSP_FR_CPU,		/* CPU pattern */
	SSP_FR_TABLE,		/* symbol table pattern */
	SSP_FR_FUNC,		/* function black/whitelist */
	SSP_FR_NREASONS
};

/* Which string field a pattern list applies to. */
enum ssp_filter_field { SSP_FFIELD_COMP, SSP_FFIELD_CPU, SSP_FFIELD_TABLE };

struct ssp_filter;

/* Short name of a reason ("noise", "type", ...). */
const char *ssp_filter_reason_name(unsigned reason);

struct ssp_filter *ssp_filter_new(void);
void ssp_filter_free(struct ssp_filter *f);

/*
 * Keep (exclude == 0) or drop (exclude != 0) the event types and groups in
 * a comma-separated list.  Several include lists add up; so do exclude
 * lists.  Unknown names are SSP_ERR_INVAL.
 */
int ssp_filter_types(struct ssp_filter *f, const char *list, int exclude,
    struct ssp_err *e);
/* Drop the synchronisation noise (sync, proc_in). */
void ssp_filter_noise(struct ssp_filter *f);
/* Keep from <= ts (from_set) and ts < to (to_set).  SSP_ERR_INVAL if empty. */
int ssp_filter_time(struct ssp_filter *f, int from_set, int64_t from,
    int to_set, int64_t to, struct ssp_err *e);
/* Events carrying the field keep only values matching one of the
 * comma-separated fnmatch(3) patterns; events without it pass. */
int ssp_filter_patterns(struct ssp_filter *f, enum ssp_filter_field which,
    const char *list, struct ssp_err *e);
/*
 * After the run: -1 if no pattern list is set for the field or some value
 * passed it; otherwise (the patterns matched nothing) the first distinct
 * values they rejected, at most SSP_FILTER_SEEN, put in names (valid while
 * f lives), and their number: 0 if no event had the field.
 */
#define SSP_FILTER_SEEN 4
int ssp_filter_unmatched(const struct ssp_filter *f, enum ssp_filter_field which,
    const char **names);
/* ns-3 events keep only the listed "NODE:DEV" pairs (DEV may be '*'). */
int ssp_filter_netdev(struct ssp_filter *f, const char *list,
    struct ssp_err *e);
/* ns-3 events keep only packets marked interesting. */
void ssp_filter_interesting(struct ssp_filter *f);

/*
 * Read a function list for function-entry events from CSV: either the
 * rules format (a header row naming "class" and "function" columns; rows
 * of the selected classes count) or one function name per row (an
 * optional "function" header).  classes is a comma-separated list or NULL
 * for the default: "blacklist" for a blacklist, every class but
 * "blacklist" for a whitelist.  Several lists of one kind add up.  Errors
 * name the file, line and column (SSP_ERR_INVAL, e->line set) or the I/O
 * failure (SSP_ERR_IO).
 */
int ssp_filter_funcs(struct ssp_filter *f, struct ssp_in *in, int whitelist,
    const char *classes, struct ssp_err *e);
/* The same for the list in the file at path (zstd or gzip too): SSP_ERR_IO
 * and the others of ssp_in_open when it cannot be read. */
int ssp_filter_funcs_load(struct ssp_filter *f, const char *path,
    int whitelist, const char *classes, struct ssp_err *e);
/* Number of distinct names in the black- or whitelist. */
size_t ssp_filter_nfuncs(const struct ssp_filter *f, int whitelist);

/* Does any configured criterion drop events for this reason? */
int ssp_filter_uses(const struct ssp_filter *f, unsigned reason);
/* One-line description of the configured criteria ("" when none). */
const char *ssp_filter_describe(const struct ssp_filter *f);

/* SSP_FR_KEEP, or the reason r (read by rr) is dropped.  rr may be NULL
 * when no criterion looks at string fields. */
unsigned ssp_filter_check(struct ssp_filter *f, const struct ssp_rec_rd *rr,
    const struct ssp_rec *r);

/*
 * Open the output stream for rr's events: the input's metadata, a
 * "filter" key (appended to an existing one with " | "), and the input's
 * own schema, so types and fields this program does not know survive.
 */
int ssp_filter_writer_open(struct ssp_filter *f, struct ssp_rec_wr **wp,
    struct ssp_out *o, const struct ssp_rec_rd *rr, const char *producer,
    struct ssp_err *e);
/* Write a kept record, the one ssp_rec_rd_next just returned, to the writer
 * opened by ssp_filter_writer_open (ssp_rec_wr_copy_raw). */
int ssp_filter_copy(struct ssp_filter *f, struct ssp_rec_wr *w,
    const struct ssp_rec_rd *rr, struct ssp_rec *r, struct ssp_err *e);

/* What ssp_filter_run saw: in == kept + the sum of dropped[]. */
struct ssp_filter_stats {
	uint64_t in, kept;
	uint64_t dropped[SSP_FR_NREASONS];	/* [SSP_FR_KEEP] unused */
};

/* ssp_filter_run: writing failed, the output is unusable (below every
 * -status; e says why) */
#define SSP_FILTER_EWRITE (-0x100)

/*
 * Filter up to max events from rr into w (opened with
 * ssp_filter_writer_open), adding to st.  1: more may follow, 0: end of
 * the input; with e (not NULL) set, -status when the input is damaged or
 * does not fit (what was kept so far is good), or SSP_FILTER_EWRITE.
 * The loop tools run; ssp_filter_check and ssp_filter_copy do the same
 * per event.
 */
int ssp_filter_run(struct ssp_filter *f, struct ssp_rec_rd *rr, struct ssp_rec_wr *w,
    struct ssp_filter_stats *st, uint64_t max, struct ssp_err *e);
/*
 * End the output of a run whose last ssp_filter_run returned got, and
 * free w: after the whole input (got 0) the end block; after damaged
 * input what was kept before it, without the end block, so readers
 * downstream see the damage too; after SSP_FILTER_EWRITE nothing (the
 * output is unusable).  SSP_OK, or the failed close's or flush's status
 * (e set).
 */
int ssp_filter_end(struct ssp_rec_wr *w, int got, struct ssp_err *e);

/* The type names and groups, for --list. */
size_t ssp_filter_ngroups(void);
const char *ssp_filter_group(size_t i, char *members, size_t n);

#endif
