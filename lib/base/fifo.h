/*
 * A first-in first-out queue of pointers in a ring that doubles when full
 * (the span builder's context queues).  Push, pop and peeks are inline;
 * growing is the only call.  Memory: a pointer per slot, the most ever
 * queued at once rounded up to a power of two.  (base/ring is another
 * thing: buffers handed between two threads.)
 */
#ifndef SSP_FIFO_H
#define SSP_FIFO_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct ssp_fifo {
	void **v;
	uint32_t head, n, cap;	/* cap: 0 or a power of two */
};

/* Double the ring: 0, or -1 when out of memory (push's slow path). */
int ssp_fifo_grow(struct ssp_fifo *q);
void ssp_fifo_free(struct ssp_fifo *q);

/* The i-th oldest entry (i < n). */
static inline void *
ssp_fifo_at(const struct ssp_fifo *q, uint32_t i)
{
	SSP_ASSERT(i < q->n);
	return q->v[(q->head + i) & (q->cap - 1)];
}

/* Take the oldest entry, or NULL when empty. */
static inline void *
ssp_fifo_pop(struct ssp_fifo *q)
{
	void *x;

	if (q->n == 0)
		return NULL;
	x = q->v[q->head];
	q->head = (q->head + 1) & (q->cap - 1);
	q->n--;
	return x;
}

/* Take the newest entry (pushed last), or NULL when empty. */
static inline void *
ssp_fifo_pop_last(struct ssp_fifo *q)
{
	if (q->n == 0)
		return NULL;
	q->n--;
	return q->v[(q->head + q->n) & (q->cap - 1)];
}

/* The newest entry, or NULL when empty. */
static inline void *
ssp_fifo_last(const struct ssp_fifo *q)
{
	return q->n != 0 ? q->v[(q->head + q->n - 1) & (q->cap - 1)] : NULL;
}

/* Append x: 0, or -1 when out of memory. */
static inline int
ssp_fifo_push(struct ssp_fifo *q, void *x)
{
	if (__builtin_expect(q->n == q->cap, 0) && ssp_fifo_grow(q) != 0)
		return -1;
	q->v[(q->head + q->n) & (q->cap - 1)] = x;
	q->n++;
	return 0;
}

#endif
