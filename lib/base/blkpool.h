/*
 * Blocks of a few power-of-two sizes (unit << class bytes) for many small
 * arrays that grow by doubling and are freed in any order: span2sqlite's
 * spans of each cached trace.  They are carved from mappings that may use
 * huge pages, the first of 2 MiB and each next one twice the last, up to
 * a bound, and a freed block waits on the free list of its size for the
 * next one.  With malloc and realloc instead, a 900k-span load spent
 * about 12 % of its time in realloc (its bins, and a page fault for each
 * fresh 4 KiB of heap); with one mapping of the bound, a small load
 * reserved 100 MB of address space.  When the bound is reached (sizes
 * freed and not asked for again), blocks come from malloc.
 */
#ifndef SSP_BLKPOOL_H
#define SSP_BLKPOOL_H

#include <stddef.h>

struct ssp_blkpool;

/* Blocks of unit << 0 .. unit << (nclass - 1) bytes (unit: a multiple of
 * 16), from mappings of about bytes in all; NULL when out of memory. */
struct ssp_blkpool *ssp_blkpool_new(size_t unit, unsigned nclass, size_t bytes);
/* A block of class cls (< nclass), its contents undefined; NULL when out
 * of memory. */
void *ssp_blkpool_get(struct ssp_blkpool *p, unsigned cls);
/* Give back block b of class cls (NULL: nothing). */
void ssp_blkpool_put(struct ssp_blkpool *p, void *b, unsigned cls);
/* Blocks of the mappings held from them (for the tests). */
size_t ssp_blkpool_mapped(const struct ssp_blkpool *p);
/* Free p (NULL: nothing); every block must have been given back. */
void ssp_blkpool_free(struct ssp_blkpool *p);

#endif
