#include <stdlib.h>
#include <string.h>

#include "base/map.h"

static int
rehash(struct ssp_map *m, size_t cap)
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
	return rehash(m, cap);
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

struct ssp_map_slot *
ssp_map_add(struct ssp_map *m, uint64_t key, uint32_t val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap &&
	    rehash(m, m->cap ? m->cap * 2 : 64) != 0)
		return NULL;
	for (i = ssp_map_home(m, key); m->t[i].used; i = (i + 1) & (m->cap - 1))
		;
	m->t[i] = (struct ssp_map_slot){ key, val, 1 };
	m->n++;
	return &m->t[i];
}

struct ssp_map_slot *
ssp_map_put(struct ssp_map *m, uint64_t key, int *isnew)
{
	struct ssp_map_slot *s = ssp_map_find(m, key);

	*isnew = s == NULL;
	return s != NULL ? s : ssp_map_add(m, key, 0);
}

void
ssp_map_del(struct ssp_map *m, struct ssp_map_slot *s)
{
	size_t i = (size_t)(s - m->t), j = i, mask = m->cap - 1;

	for (;;) {		/* backward shift keeps probe chains intact */
		size_t k;

		j = (j + 1) & mask;
		if (!m->t[j].used)
			break;
		k = ssp_map_home(m, m->t[j].key);
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			m->t[i] = m->t[j];
			i = j;
		}
	}
	m->t[i].used = 0;
	m->n--;
}
