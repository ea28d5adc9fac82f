#include <stdint.h>
#include <stdlib.h>

#include "base/blkpool.h"
#include "base/err.h"
#include "base/hugemem.h"

#define NCLASS	32
#define NMAP	16	/* mappings at most: they double up to the bound */
#define FIRST	((size_t)2 << 20)	/* the first mapping's bytes */

struct ssp_blkpool {
	size_t unit;
	unsigned nclass;
	char *map[NMAP];	/* the mappings, in the order made */
	size_t mapsize[NMAP];
	unsigned nmap;
	size_t size, total;	/* bytes the mappings may have, and have */
	size_t used;		/* of the last mapping, handed out */
	size_t mapped;		/* blocks of the mappings held */
	void *free[NCLASS];	/* freed blocks, linked through their first word */
};

struct ssp_blkpool *
ssp_blkpool_new(size_t unit, unsigned nclass, size_t bytes)
{
	struct ssp_blkpool *p;

	if (unit == 0 || unit % 16 != 0 || nclass == 0 || nclass > NCLASS ||
	    (p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->unit = unit;
	p->nclass = nclass;
	p->size = bytes / unit * unit;
	return p;
}

static int
in_map(const struct ssp_blkpool *p, const void *b)
{
	uintptr_t a = (uintptr_t)b;
	unsigned i;

	for (i = p->nmap; i-- > 0;)
		if (a >= (uintptr_t)p->map[i] &&
		    a - (uintptr_t)p->map[i] < p->mapsize[i])
			return 1;
	return 0;
}

/*
 * A new mapping with room for n bytes at least: twice the last one (the
 * first FIRST), within the bound.  Untouched pages of a mapping cost
 * nothing but address space, which is what doubling keeps small for a
 * small load.  0 when the bound is reached (or out of memory).
 */
static int
grow(struct ssp_blkpool *p, size_t n)
{
	size_t sz = p->nmap > 0 ? 2 * p->mapsize[p->nmap - 1] : FIRST;
	char *m;

	if (p->nmap == NMAP || p->total >= p->size)
		return 0;
	if (sz < n)
		sz = n;
	if (sz > p->size - p->total || p->nmap == NMAP - 1)
		sz = p->size - p->total;
	sz = sz / p->unit * p->unit;
	if (sz < n || (m = ssp_hugemem_alloc(sz)) == NULL)
		return 0;
	p->map[p->nmap] = m;
	p->mapsize[p->nmap++] = sz;
	p->total += sz;
	p->used = 0;
	return 1;
}

void *
ssp_blkpool_get(struct ssp_blkpool *p, unsigned cls)
{
	size_t n = p->unit << cls;
	void *b;

	if (cls >= p->nclass)
		return NULL;
	if ((b = p->free[cls]) != NULL) {
		p->free[cls] = *(void **)b;
		if (in_map(p, b))
			p->mapped++;
		return b;
	}
	if ((p->nmap > 0 && p->mapsize[p->nmap - 1] - p->used >= n) ||
	    grow(p, n)) {
		b = p->map[p->nmap - 1] + p->used;
		p->used += n;
		p->mapped++;
		return b;
	}
	return malloc(n);
}

void
ssp_blkpool_put(struct ssp_blkpool *p, void *b, unsigned cls)
{
	SSP_ASSERT(cls < p->nclass);
	if (b == NULL)
		return;
	if (in_map(p, b))
		p->mapped--;
	*(void **)b = p->free[cls];
	p->free[cls] = b;
}

size_t
ssp_blkpool_mapped(const struct ssp_blkpool *p)
{
	return p->mapped;
}

void
ssp_blkpool_free(struct ssp_blkpool *p)
{
	unsigned c;
	void *b, *next;

	if (p == NULL)
		return;
	for (c = 0; c < p->nclass; c++)
		for (b = p->free[c]; b != NULL; b = next) {
			next = *(void **)b;
			if (!in_map(p, b))
				free(b);
		}
	for (c = 0; c < p->nmap; c++)
		ssp_hugemem_free(p->map[c]);
	free(p);
}
