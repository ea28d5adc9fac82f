#include <stdlib.h>
#include <string.h>

#include "base/map.h"

int
ssp_map_rehash(struct ssp_map *m, size_t cap)
{
	struct ssp_map nm;
	size_t i, j;

	nm.cap = cap;
	nm.shift = 64;
	for (j = cap; j > 1; j >>= 1)
		nm.shift--;
	nm.n = m->n;
	if ((nm.t = calloc(cap, sizeof(*nm.t))) == NULL)
		return -1;
	for (i = 0; i < m->cap; i++) {
		if (!m->t[i].used)
			continue;
		for (j = ssp_map_home(&nm, m->t[i].key); nm.t[j].used;
		    j = (j + 1) & (cap - 1))
			;
		nm.t[j] = m->t[i];
	}
	free(m->t);
	*m = nm;
	return 0;
}

int
ssp_map_init(struct ssp_map *m, size_t want)
{
	size_t cap = 64;

	*m = (struct ssp_map)SSP_MAP_INIT;
	while (cap / 2 < want)
		cap *= 2;
	return ssp_map_rehash(m, cap);
}

void
ssp_map_free(struct ssp_map *m)
{
	free(m->t);
	*m = (struct ssp_map)SSP_MAP_INIT;
}

void
ssp_map_clear(struct ssp_map *m)
{
	if (m->n != 0)
		memset(m->t, 0, m->cap * sizeof(*m->t));
	m->n = 0;
}
