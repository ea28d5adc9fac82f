#include <stdint.h>
#include <stdlib.h>

#include "base/blkpool.h"
#include "base/err.h"
#include "base/hugemem.h"

#define NCLASS	32

struct ssp_blkpool {
	size_t unit;
	unsigned nclass;
	char *base;		/* the mapping */
	size_t size, used;	/* its bytes, and those handed out */
	size_t mapped;		/* blocks of it held */
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
	/* untouched pages of the mapping cost nothing */
	if (p->size > 0 && (p->base = ssp_hugemem_alloc(p->size)) == NULL) {
		free(p);
		return NULL;
	}
	return p;
}

static int
in_map(const struct ssp_blkpool *p, const void *b)
{
	uintptr_t a = (uintptr_t)b, lo = (uintptr_t)p->base;

	return p->base != NULL && a >= lo && a - lo < p->size;
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
	if (p->size - p->used >= n) {
		b = p->base + p->used;
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
	ssp_hugemem_free(p->base);
	free(p);
}
