/*
 * Sorting fixed-size keys, for building indexes in bulk: each key is nw
 * 64-bit words compared as unsigned integers, the first word most
 * significant, followed by one payload word (a rowid) that ties are broken
 * by.  Keys must be added with ascending payloads; then a stable sort on
 * the nw words gives the order of (words, payload).
 *
 * A least-significant-digit radix sort on the bytes that differ between
 * keys, in chunks of a bounded size; chunks beyond the memory limit are
 * sorted and written to an unlinked temporary file, then merged.  Memory:
 * about mem bytes (twice that while sorting a chunk), plus 64 KiB per
 * spilled chunk while merging.
 */
#ifndef SSP_KSORT_H
#define SSP_KSORT_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct ssp_ksort;

/*
 * nw in 1..7; mem: bytes of keys held in memory at most (small values are
 * raised to a minimum); the sort itself takes as much again for a moment.
 * pool, when not NULL, is a budget of bytes shared by several sorters:
 * holding keys takes from it, spilling and freeing give back.  NULL when
 * out of memory.
 */
struct ssp_ksort *ssp_ksort_new(unsigned nw, size_t mem, size_t *pool);
/* Add a key: nw words then the payload.  SSP_OK, SSP_ERR_NOMEM or
 * SSP_ERR_IO (spilling; errno is kept). */
SSP_MUST_USE enum ssp_status ssp_ksort_add(struct ssp_ksort *s,
    const uint64_t *key);
/* No more keys: sort.  Then ssp_ksort_next() gives them in order. */
SSP_MUST_USE enum ssp_status ssp_ksort_done(struct ssp_ksort *s);
/* The next key (nw + 1 words), NULL at the end or on an error. */
const uint64_t *ssp_ksort_next(struct ssp_ksort *s);
/* SSP_OK, or the error that stopped add, done or next. */
enum ssp_status ssp_ksort_status(const struct ssp_ksort *s);
uint64_t ssp_ksort_count(const struct ssp_ksort *s);
/* Chunks written to the temporary file (0: everything fit in memory). */
unsigned ssp_ksort_spills(const struct ssp_ksort *s);
void ssp_ksort_free(struct ssp_ksort *s);
/* Free the radix scratch the calling thread keeps between its sorts (it
 * is freed with the thread's last sorter otherwise): for a thread that
 * sorts other threads' sorters, before it ends. */
void ssp_ksort_drop_scratch(void);

#endif
