/*
 * A growable byte buffer for encoders.  Allocation failure is sticky: the
 * first failed growth sets `failed`, later appends do nothing, and the
 * encoder checks once at the end instead of after every byte.
 */
#ifndef SSP_BUF_H
#define SSP_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"

struct ssp_buf {
	uint8_t *p;
	size_t len, cap;
	int failed;
};

#define SSP_BUF_INIT { NULL, 0, 0, 0 }

/* Make room for more bytes: 0, or -1 (and failed set). */
int ssp_buf_grow(struct ssp_buf *b, size_t more);
void ssp_buf_free(struct ssp_buf *b);
/* Empty the buffer, keeping its memory; clears failed. */
void ssp_buf_reset(struct ssp_buf *b);
void ssp_buf_swap(struct ssp_buf *a, struct ssp_buf *b);
/* Room for n bytes in all, in memory aligned to and advised for
 * transparent huge pages (a request buffer of MiBs, filled anew for each
 * request, then costs a page fault per 2 MiB instead of one per 4 KiB
 * when first filled).  Keeps the contents; the memory stays malloc(3)'s,
 * so later growth and ssp_buf_free are as before.  0, or -1 (and failed
 * set). */
int ssp_buf_reserve_huge(struct ssp_buf *b, size_t n);

static inline int
ssp_buf_reserve(struct ssp_buf *b, size_t more)
{
	if (b->cap - b->len >= more && !b->failed)
		return 0;
	return ssp_buf_grow(b, more);
}

static inline void
ssp_buf_put(struct ssp_buf *b, const void *p, size_t n)
{
	if (ssp_buf_reserve(b, n) == 0) {
		memcpy(b->p + b->len, p, n);
		b->len += n;
	}
}

static inline void
ssp_buf_putc(struct ssp_buf *b, int c)
{
	if (ssp_buf_reserve(b, 1) == 0)
		b->p[b->len++] = (uint8_t)c;
}

/*
 * Arrays: make *p, an array of *cap elements of size bytes, hold at least
 * need elements, doubling its capacity.  0, or -1 when out of memory (the
 * array is kept as it was).
 */
SSP_MUST_USE int ssp_buf_array_grow(void **p, size_t *cap, size_t need,
    size_t size);

static inline int
ssp_buf_array(void **p, size_t *cap, size_t need, size_t size)
{
	return need <= *cap ? 0 : ssp_buf_array_grow(p, cap, need, size);
}

/* Append a string literal (no NUL). */
#define ssp_buf_lit(b, s) ssp_buf_put((b), (s), sizeof(s) - 1)

#endif
