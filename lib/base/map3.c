#include <stdlib.h>
#include <string.h>

#include "base/map3.h"

int __attribute__((noinline))
ssp_map3_grow(struct ssp_map3 *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	struct ssp_map3_ent *t;

	SSP_ASSERT(m->n == m->cap);	/* the free list is used up */
	if (cap > UINT32_MAX || (t = realloc(m->t, cap * sizeof(*t))) == NULL)
		return -1;
	memset(t + m->cap, 0, (cap - m->cap) * sizeof(*t));
	for (i = m->cap; i < cap; i++)
		t[i].k1 = i + 1;
	m->freel = (uint32_t)m->cap;
	m->t = t;
	m->cap = cap;
	return 0;
}

void
ssp_map3_free(struct ssp_map3 *m)
{
	ssp_map_free(&m->idx);
	free(m->t);
	*m = (struct ssp_map3)SSP_MAP3_INIT;
}
