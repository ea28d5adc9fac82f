/*
 * k-way merge of record sources in global timestamp order.  Ties are
 * broken by source index (the stream order of the topology); records of
 * one source keep their file order even if a timestamp goes backwards
 * (counted, see ssp_merge_backwards).  A source that fails is reported
 * once and then left out, so the others can still be read to the end.
 */
#ifndef SSP_MERGE_H
#define SSP_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "stream/rec.h"

/* Read one record: 1 = record in *r, 0 = end, -status on an error (e set),
 * as ssp_rec_rd_next. */
typedef int (*ssp_merge_next_fn)(void *src, struct ssp_rec *r,
    struct ssp_err *e);

struct ssp_merge;

int ssp_merge_new(struct ssp_merge **mp, size_t nsrc, struct ssp_err *e);
/* Set source i (every index in [0, nsrc) must be set before the first
 * ssp_merge_next; src NULL makes an empty source). */
void ssp_merge_set(struct ssp_merge *m, size_t i, ssp_merge_next_fn fn,
    void *src);
/*
 * The next record in merged order:
 *   1  *idx = source, *r = its record (valid until the next call)
 *   2  source *idx has ended cleanly (reported once)
 *   0  every source has ended or failed
 *  <0  source *idx failed: -status (e set, reported once); it is left out
 */
#define SSP_MERGE_REC   1
#define SSP_MERGE_END   2
#define SSP_MERGE_DONE  0
int ssp_merge_next(struct ssp_merge *m, unsigned *idx, const struct ssp_rec **r,
    struct ssp_err *e);
/* Records of source i whose timestamp is below the previous one's. */
uint64_t ssp_merge_backwards(const struct ssp_merge *m, size_t i);
void ssp_merge_free(struct ssp_merge *m);

#endif
