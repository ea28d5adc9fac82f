/*
 * A map from a key of three parts (k1, k2, k3) to a pointer: the span
 * builder's open spans by (id, component, stream) and its packet chains.
 * Entries sit in an array (a deleted one is reused first) and are found
 * through base/map by a hash of the key.  Sweeps walk the array t[0..cap)
 * (entries with used != 0), not the hash slots, so no order they take
 * depends on the hash; deleting entry i leaves the others where they are,
 * so a sweep goes on at i + 1.  Lookups, inserts and deletes are inline;
 * growing the array is the only call.  Memory: 32 bytes per entry of the
 * array (which doubles) and the base/map slots.
 */
#ifndef SSP_MAP3_H
#define SSP_MAP3_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/map.h"

struct ssp_map3_ent {
	uint64_t k1, k2;
	uint32_t k3, used;
	void *v;
};

struct ssp_map3 {
	struct ssp_map idx;	/* key hash -> index into t */
	struct ssp_map3_ent *t;	/* cap entries; unused ones have used == 0 */
	size_t cap, n;
	uint32_t freel;		/* first unused entry (chained by k1), or cap */
};

#define SSP_MAP3_INIT { SSP_MAP_INIT, NULL, 0, 0, 0 }	/* a zeroed one too */

/* Double the array: 0, or -1 when out of memory (ssp_map3_put's slow path). */
int ssp_map3_grow(struct ssp_map3 *m);
void ssp_map3_free(struct ssp_map3 *m);

static inline uint64_t
ssp_map3_hash(uint64_t k1, uint64_t k2, uint32_t k3)
{
	return k1 ^ (k2 << 21 | k2 >> 43) ^ ((uint64_t)k3 << 47);
}

/* The index slot of a key's entry, or NULL. */
static inline struct ssp_map_slot *
ssp_map3_slot(const struct ssp_map3 *m, uint64_t k1, uint64_t k2, uint32_t k3)
{
	struct ssp_map_slot *sl;

	for (sl = ssp_map_find(&m->idx, ssp_map3_hash(k1, k2, k3)); sl != NULL;
	    sl = ssp_map_next(&m->idx, sl)) {
		const struct ssp_map3_ent *h = &m->t[sl->val];

		if (h->k1 == k1 && h->k2 == k2 && h->k3 == k3)
			return sl;
	}
	return NULL;
}

/* A key's entry, or NULL; valid until the next put. */
static inline struct ssp_map3_ent *
ssp_map3_find(const struct ssp_map3 *m, uint64_t k1, uint64_t k2, uint32_t k3)
{
	const struct ssp_map_slot *sl = ssp_map3_slot(m, k1, k2, k3);

	return sl != NULL ? &m->t[sl->val] : NULL;
}

/* A key's value, or NULL. */
static inline void *
ssp_map3_get(const struct ssp_map3 *m, uint64_t k1, uint64_t k2, uint32_t k3)
{
	const struct ssp_map3_ent *h = ssp_map3_find(m, k1, k2, k3);

	return h != NULL ? h->v : NULL;
}

/* Insert or replace: *old gets the replaced value (or NULL).  0, or -1
 * when out of memory. */
static inline int
ssp_map3_put(struct ssp_map3 *m, uint64_t k1, uint64_t k2, uint32_t k3,
    void *v, void **old)
{
	struct ssp_map3_ent *h = ssp_map3_find(m, k1, k2, k3);
	uint32_t i;

	*old = NULL;
	if (h != NULL) {
		*old = h->v;
		h->v = v;
		return 0;
	}
	if (m->n == m->cap && ssp_map3_grow(m) != 0)
		return -1;
	i = m->freel;
	if (ssp_map_add(&m->idx, ssp_map3_hash(k1, k2, k3), i) == NULL)
		return -1;
	h = &m->t[i];
	m->freel = (uint32_t)h->k1;
	*h = (struct ssp_map3_ent){ k1, k2, k3, 1, v };
	m->n++;
	return 0;
}

/* Remove the entry of an index slot ssp_map3_slot returned. */
static inline void
ssp_map3_del_slot(struct ssp_map3 *m, struct ssp_map_slot *sl)
{
	uint32_t i = sl->val;

	ssp_map_del(&m->idx, sl);
	m->t[i] = (struct ssp_map3_ent){ .k1 = m->freel };
	m->freel = i;
	m->n--;
}

/* Remove entry i of the array (used). */
static inline void
ssp_map3_del_at(struct ssp_map3 *m, size_t i)
{
	const struct ssp_map3_ent *h = &m->t[i];
	struct ssp_map_slot *sl;

	SSP_ASSERT(i < m->cap && h->used);
	for (sl = ssp_map_find(&m->idx, ssp_map3_hash(h->k1, h->k2, h->k3));
	    sl->val != i; sl = ssp_map_next(&m->idx, sl))
		;
	ssp_map3_del_slot(m, sl);
}

/* Remove a key: its value, or NULL when it was not there. */
static inline void *
ssp_map3_del(struct ssp_map3 *m, uint64_t k1, uint64_t k2, uint32_t k3)
{
	struct ssp_map_slot *sl = ssp_map3_slot(m, k1, k2, k3);
	void *v;

	if (sl == NULL)
		return NULL;
	v = m->t[sl->val].v;
	ssp_map3_del_slot(m, sl);
	return v;
}

#endif
