/*
 * The one hash map: open addressing with linear probing, 64-bit keys, 32-bit
 * values (usually an index into the caller's own array).  Keys are either
 * exact (ids, addresses) or a caller-computed hash of a longer key (a
 * string); in the second case several slots may share a key, and the caller
 * walks them with ssp_map_find/ssp_map_next and checks its own equality.
 * Load stays at most 1/2; deletion shifts back, so there are no tombstones.
 * Slot order depends on the hash: never let it decide an output order.
 */
#ifndef SSP_MAP_H
#define SSP_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct ssp_map_slot {
	uint64_t key;
	uint32_t val;
	uint32_t used;
};

struct ssp_map {
	struct ssp_map_slot *t;
	size_t cap, n;		/* cap: a power of two, or 0 */
	unsigned shift;		/* 64 - log2(cap) */
};

#define SSP_MAP_INIT { NULL, 0, 0, 64 }	/* a zeroed struct is empty too */

/* Room for want keys without growing: 0, or -1 when out of memory. */
SSP_MUST_USE int ssp_map_init(struct ssp_map *m, size_t want);
void ssp_map_free(struct ssp_map *m);
void ssp_map_clear(struct ssp_map *m);	/* keeps the memory */
/* Move to a table of cap slots (a power of two, > 2 * n): 0 or -1. */
SSP_MUST_USE int ssp_map_rehash(struct ssp_map *m, size_t cap);

/* Fibonacci hashing: the top bits of a multiplicative hash. */
static inline size_t
ssp_map_home(const struct ssp_map *m, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> m->shift);
}

/* The slot after s with the same key, or NULL. */
static inline struct ssp_map_slot *
ssp_map_next(const struct ssp_map *m, const struct ssp_map_slot *s)
{
	size_t i = (size_t)(s - m->t);

	for (;;) {
		i = (i + 1) & (m->cap - 1);
		if (!m->t[i].used)
			return NULL;
		if (m->t[i].key == s->key)
			return &m->t[i];
	}
}

/* The first slot with this key, or NULL. */
static inline struct ssp_map_slot *
ssp_map_find(const struct ssp_map *m, uint64_t key)
{
	size_t i;

	if (m->n == 0)
		return NULL;
	for (i = ssp_map_home(m, key); m->t[i].used; i = (i + 1) & (m->cap - 1))
		if (m->t[i].key == key)
			return &m->t[i];
	return NULL;
}

/* Add a key (another slot with the same key may exist): its slot, or NULL
 * when out of memory.  The slot is valid until the next add or del. */
static inline struct ssp_map_slot *
ssp_map_add(struct ssp_map *m, uint64_t key, uint32_t val)
{
	size_t i;

	if (__builtin_expect((m->n + 1) * 2 > m->cap, 0) &&
	    ssp_map_rehash(m, m->cap ? m->cap * 2 : 64) != 0)
		return NULL;
	for (i = ssp_map_home(m, key); m->t[i].used; i = (i + 1) & (m->cap - 1))
		;
	m->t[i] = (struct ssp_map_slot){ key, val, 1 };
	m->n++;
	return &m->t[i];
}

/* Add the key unless there; *isnew says which.  NULL when out of memory. */
static inline struct ssp_map_slot *
ssp_map_put(struct ssp_map *m, uint64_t key, int *isnew)
{
	struct ssp_map_slot *s = ssp_map_find(m, key);

	*isnew = s == NULL;
	return s != NULL ? s : ssp_map_add(m, key, 0);
}

/* Remove a slot that find/next returned. */
static inline void
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

/* Start loading the slot a lookup of key looks at first. */
static inline void
ssp_map_prefetch(const struct ssp_map *m, uint64_t key)
{
	if (m->cap != 0)
		__builtin_prefetch(&m->t[ssp_map_home(m, key)]);
}

/* FNV-1a, for string keys. */
static inline uint64_t
ssp_map_hash(const void *p, size_t n)
{
	const uint8_t *s = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--) {
		h ^= *s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

#endif
