/*
 * Objects of one fixed size (the span builder's spans, links and member
 * events), carved from chunks of SSP_POOL_PER objects that are malloc'd as
 * the pool grows: a freed object waits on the free list (linked through
 * its first word) for the next get, and every chunk is freed at once by
 * ssp_pool_fini.  A get or put is a few instructions, inline; adding a
 * chunk is the only call.  Memory: the most objects held at once, rounded
 * up to a chunk, plus one pointer per chunk.  For arrays of a few sizes
 * that grow by doubling, carved from one huge-page mapping, see blkpool.
 */
#ifndef SSP_POOL_H
#define SSP_POOL_H

#include <stddef.h>

#include "base/err.h"

#define SSP_POOL_PER 256	/* objects per chunk */

struct ssp_pool {
	size_t size;		/* bytes of an object */
	void *free;		/* free objects, linked through their first word */
	void **chunk;		/* every chunk, for ssp_pool_fini */
	size_t nchunk, cchunk;
};

/* An empty pool of objects of size bytes (>= a pointer; rounded up to a
 * multiple of one). */
void ssp_pool_init(struct ssp_pool *p, size_t size);
/* Add a chunk to the free list: its first free object, or NULL when out of
 * memory (ssp_pool_get's slow path). */
void *ssp_pool_refill(struct ssp_pool *p);
/* Free every chunk: every object given out is gone, given back or not. */
void ssp_pool_fini(struct ssp_pool *p);

/* An object, its contents undefined; NULL when out of memory. */
static inline void *
ssp_pool_get(struct ssp_pool *p)
{
	void *x = p->free;

	if (__builtin_expect(x == NULL, 0) && (x = ssp_pool_refill(p)) == NULL)
		return NULL;
	p->free = *(void **)x;
	return x;
}

/* Give back an object of this pool. */
static inline void
ssp_pool_put(struct ssp_pool *p, void *x)
{
	*(void **)x = p->free;
	p->free = x;
}

#endif
