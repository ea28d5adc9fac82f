#include <stdlib.h>

#include "base/buf.h"
#include "base/hugemem.h"

int
ssp_buf_grow(struct ssp_buf *b, size_t more)
{
	size_t cap;
	uint8_t *np;

	if (b->failed)
		return -1;
	if (b->cap - b->len >= more)
		return 0;
	if (more > SIZE_MAX / 4 - b->len) {
		b->failed = 1;
		return -1;
	}
	/* small at first: a process holds many short buffers (names,
	 * encoded keys), and each 4 KiB one cost a page fault */
	cap = b->cap ? b->cap : 256;
	while (cap - b->len < more)
		cap *= 2;
	if ((np = realloc(b->p, cap)) == NULL) {
		b->failed = 1;
		return -1;
	}
	b->p = np;
	b->cap = cap;
	return 0;
}

void
ssp_buf_free(struct ssp_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}

int
ssp_buf_reserve_huge(struct ssp_buf *b, size_t n)
{
	void *np;

	if (b->failed)
		return -1;
	if (b->cap >= n)
		return 0;
	if ((np = ssp_hugemem_malloc(n)) == NULL) {
		b->failed = 1;
		return -1;
	}
	if (b->len > 0)
		memcpy(np, b->p, b->len);
	free(b->p);
	b->p = np;
	b->cap = n;
	return 0;
}

void
ssp_buf_reset(struct ssp_buf *b)
{
	b->len = 0;
	b->failed = 0;
}

void
ssp_buf_swap(struct ssp_buf *a, struct ssp_buf *b)
{
	struct ssp_buf t = *a;

	*a = *b;
	*b = t;
}

int
ssp_buf_array_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *np;

	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (size != 0 && c > SIZE_MAX / size)
		return -1;
	if ((np = realloc(*p, c * size)) == NULL)
		return -1;
	*p = np;
	*cap = c;
	return 0;
}
