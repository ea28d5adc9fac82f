#include <stdlib.h>

#include "base/fifo.h"

int __attribute__((noinline))
ssp_fifo_grow(struct ssp_fifo *q)
{
	uint32_t cap = q->cap ? q->cap * 2 : 16, i;
	void **v;

	if (cap < q->cap || (v = malloc(cap * sizeof(*v))) == NULL)
		return -1;
	for (i = 0; i < q->n; i++)
		v[i] = q->v[(q->head + i) & (q->cap - 1)];
	free(q->v);
	q->v = v;
	q->head = 0;
	q->cap = cap;
	return 0;
}

void
ssp_fifo_free(struct ssp_fifo *q)
{
	free(q->v);
	*q = (struct ssp_fifo){ NULL, 0, 0, 0 };
}
