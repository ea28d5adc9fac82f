/*
 * The latency split of a trace (formats/sqlite.md §5): the busy time of
 * its spans, by stream and by kind, as the traces table stores it
 * (busy_ps, and the JSON objects of streams and kinds).
 *
 * A trace's spans are kept as intervals while the trace is in the load's
 * cache, in blocks of a few power-of-two sizes from one pool (base/blkpool)
 * with a bound over all traces; a trace that would pass it (or that has
 * more than SSP_SPLIT_MAX spans) is split from its rows at the end
 * instead (ssp_split_run on what the caller reads back).
 */
#ifndef SSP_SPLIT_H
#define SSP_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define SSP_SPLIT_MAX	(1u << 16)	/* spans of one trace kept */

struct ssp_split_ivl {		/* a span of a trace */
	int64_t b, e;		/* start and end */
	uint32_t stream, kind;	/* stream index, kind (the caller's number) */
};

struct ssp_split_list {		/* the spans of one trace, owned */
	struct ssp_split_ivl *v;
	uint32_t n, cap;
};

struct ssp_split;

/*
 * Splits over streams[0..nstreams) and kinds[0..nkinds) (names; a NULL
 * kind is never used); budget: spans kept over all lists at most (0: 4 Mi,
 * 96 MiB).  Both arrays stay valid until ssp_split_free.  NULL when out
 * of memory.
 */
struct ssp_split *ssp_split_new(const char *const *streams, size_t nstreams,
    const char *const *kinds, size_t nkinds, uint64_t budget);
void ssp_split_free(struct ssp_split *sp);

/*
 * Add a span to list l: SSP_OK, or SSP_ERR_LIMIT when the list may not
 * grow (too long, or the lists together hold the budget): l is then
 * emptied, its trace is to be split from its rows at the end.
 * SSP_ERR_NOMEM when out of memory.
 */
SSP_MUST_USE enum ssp_status ssp_split_add(struct ssp_split *sp,
    struct ssp_split_list *l, int64_t b, int64_t e, uint32_t stream,
    uint32_t kind);
/* Give back the blocks of l (it is then empty). */
void ssp_split_drop(struct ssp_split *sp, struct ssp_split_list *l);

/*
 * The split of v[0..n) (reordered): the busy time of all of them, or -1
 * when out of memory; the JSON of the split by stream and by kind until
 * the next call (ssp_split_json).
 */
int64_t ssp_split_run(struct ssp_split *sp, struct ssp_split_ivl *v,
    uint32_t n);
/* The JSON of the last ssp_split_run: by stream (which 0) or kind (1). */
const char *ssp_split_json(const struct ssp_split *sp, int which,
    size_t *len);

#endif
