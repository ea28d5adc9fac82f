#include <stdlib.h>

#include "base/pool.h"

void
ssp_pool_init(struct ssp_pool *p, size_t size)
{
	SSP_ASSERT(size > 0);
	if (size < sizeof(void *))
		size = sizeof(void *);
	size = (size + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
	*p = (struct ssp_pool){ .size = size };
}

void * __attribute__((noinline))
ssp_pool_refill(struct ssp_pool *p)
{
	char *c;
	size_t i;

	SSP_ASSERT(p->size >= sizeof(void *));
	if (p->nchunk == p->cchunk) {
		size_t n = p->cchunk ? p->cchunk * 2 : 16;
		void **nc = realloc(p->chunk, n * sizeof(*nc));

		if (nc == NULL)
			return NULL;
		p->chunk = nc;
		p->cchunk = n;
	}
	if ((c = malloc(p->size * SSP_POOL_PER)) == NULL)
		return NULL;
	p->chunk[p->nchunk++] = c;
	for (i = 0; i < SSP_POOL_PER; i++) {
		*(void **)(c + i * p->size) = p->free;
		p->free = c + i * p->size;
	}
	return p->free;
}

void
ssp_pool_fini(struct ssp_pool *p)
{
	size_t i;

	for (i = 0; i < p->nchunk; i++)
		free(p->chunk[i]);
	free(p->chunk);
	*p = (struct ssp_pool){ .size = p->size };
}
