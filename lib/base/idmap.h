/*
 * A bounded map from 128-bit ids (span or trace ids) to small fixed-size
 * values, for sinks that must resolve references to recently seen records
 * without keeping every id of a long stream in memory.
 *
 * Two generations of open-addressing hash tables: inserts go to the current
 * one; when it holds `limit` entries it becomes the old one and the previous
 * old generation is dropped, each of its entries passed to the evict
 * callback (write it back, or forget it).  A lookup that hits the old
 * generation moves the entry to the current one, so entries in use stay.
 * Ids that are mostly counters are placed in order (idmap.c says how).
 * Memory is fixed at about 4 * limit * (24 + vsize) bytes.
 */
#ifndef SSP_IDMAP_H
#define SSP_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct ssp_idmap;

/* Called for every entry of a dropped generation; non-zero stops the drop
 * and makes the pending put fail (the callback keeps its own error). */
typedef int (*ssp_idmap_evict_fn)(void *ctx, uint64_t hi, uint64_t lo,
    void *value);

/* NULL when out of memory.  limit >= 1; evict may be NULL. */
struct ssp_idmap *ssp_idmap_new(size_t vsize, size_t limit,
    ssp_idmap_evict_fn evict, void *ctx);
void ssp_idmap_free(struct ssp_idmap *m);

/* The value of an id, or NULL.  Valid until the next get or put. */
void *ssp_idmap_get(struct ssp_idmap *m, uint64_t hi, uint64_t lo);
/* Add an id that is not in the map; returns its zeroed value, or NULL when
 * the evict callback failed.  Valid until the next get or put. */
void *ssp_idmap_put(struct ssp_idmap *m, uint64_t hi, uint64_t lo);
/* Pass every entry to fn (e.g. to write all back at the end), then empty
 * the map.  Stops at and returns the first non-zero result of fn. */
int ssp_idmap_drain(struct ssp_idmap *m, ssp_idmap_evict_fn fn, void *ctx);

/* Start loading the slot a put or get of this id looks at first (a hint:
 * the caller does other work before the put). */
void ssp_idmap_prefetch(const struct ssp_idmap *m, uint64_t hi, uint64_t lo);
size_t ssp_idmap_count(const struct ssp_idmap *m);
uint64_t ssp_idmap_evicted(const struct ssp_idmap *m);	/* entries dropped so far */
/* 1 once ids that crowd each other in order turned the map to a mixing
 * hash (for tests and statistics). */
int ssp_idmap_mixed(const struct ssp_idmap *m);

#endif
