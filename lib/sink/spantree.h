/*
 * Span streams as trees, for reading by people (spancat --tree): every
 * trace printed as an indented tree of its spans, each with its kind,
 * stream name, start, offset from the root, duration, key attributes,
 * flags and links.  Holds every span of the input in memory.
 */
#ifndef SSP_SPANTREE_H
#define SSP_SPANTREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "stream/rec.h"

struct ssp_spantree;

/* rr: an open span stream reader (ssp_span_reader_open); its file schema
 * must stay valid until ssp_spantree_free. */
struct ssp_spantree *ssp_spantree_new(const struct ssp_rec_rd *rr,
    const char *const *streams, size_t nstreams);
/* A record read from rr: spans and links are kept, member events counted. */
SSP_MUST_USE enum ssp_status ssp_spantree_add(struct ssp_spantree *t,
    const struct ssp_rec *r, struct ssp_err *e);
/* All traces, times in raw picoseconds (spancat --tree --ps). */
void ssp_spantree_print(struct ssp_spantree *t, FILE *out);

/*
 * What ssp_spantree_print_opts shows.  A trace's duration is its end (the
 * latest end of any of its spans) minus its root's start, the figure its
 * header line gives.
 */
struct ssp_spantree_opts {
	int ps;			/* raw ps; else human units (ssp_spantree_time) */
	int trace;		/* only the trace with this id: */
	uint64_t trace_hi, trace_lo;	/* trace_hi ignored when lo_only */
	int lo_only;
	size_t slowest;		/* > 0: only the N longest traces, longest
				 * first (equal ones in write order) */
};
void ssp_spantree_print_opts(struct ssp_spantree *t, FILE *out,
    const struct ssp_spantree_opts *o);
/*
 * --trace ID into o: 32 hex digits, or up to 16 for the low half alone
 * (the root's span id); "0x" allowed.  0, or -1 when s is no trace id.
 */
int ssp_spantree_parse_trace(const char *s, struct ssp_spantree_opts *o);
/* Number of traces the last print showed. */
size_t ssp_spantree_printed(const struct ssp_spantree *t);

/*
 * A time in ps for people: "750 ps", "12.345 ns", "4.601 us", "2.000 ms",
 * "1.250 s": the largest unit the value reaches, three decimals (cut, not
 * rounded: the digits shown are exact), a '-' for negative values.
 * Returns the length (at most 32).
 */
size_t ssp_spantree_time(char *buf, size_t n, int64_t ps);
void ssp_spantree_free(struct ssp_spantree *t);

#endif
