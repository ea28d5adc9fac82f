#include <stdlib.h>
#include <string.h>

#include "base/hugemem.h"
#include "base/idmap.h"

enum { FREE, LIVE, MOVED };	/* MOVED: promoted out of the old generation */

struct gen {
	unsigned char *slots;	/* cap slots of slot_size bytes */
	size_t n;		/* LIVE entries */
	/* slots [lo, hi) hold every slot written since the last clear: a
	 * clear zeroes only those (ids in order fill a small part of a
	 * table that is often left almost empty) */
	size_t lo, hi;
};

struct slot_head {
	uint64_t hi, lo;
	uint64_t state;		/* 8 bytes keeps the value aligned */
};

/*
 * Where an id lives.  Span and trace ids are mostly counters, so an id's
 * home slot starts as the id itself (plus a mix of hi): consecutive ids
 * fill consecutive slots, and a table larger than the cache is read and
 * written in order instead of at random (span2sqlite: 40 % less CPU time
 * on 1.8 M spans).  Ids that crowd one another under that (equal low bits,
 * strides of the table size) would make long runs of probes, so while ids
 * are placed that way no entry may lie more than PROBE_MAX slots past its
 * home: a lookup looks no further, and an insert that would have to turns
 * the map to a mixing hash for good, placing every entry again.
 */
#define PROBE_MAX	32

struct ssp_idmap {
	struct gen cur, old;
	int mixed;		/* ids placed by the mixing hash */
	size_t vsize, slot_size, cap, mask, limit;
	uint64_t evicted;
	ssp_idmap_evict_fn evict;
	void *ctx;
};

#define HEAD(m, g, i) ((struct slot_head *)((g)->slots + (i) * (m)->slot_size))
#define VALUE(h) ((void *)((h) + 1))

static uint64_t
mix(uint64_t x)
{
	/* splitmix64 finalizer */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

static size_t
home(const struct ssp_idmap *m, uint64_t hi, uint64_t lo)
{
	if (m->mixed)
		return (size_t)mix(lo ^ (hi * 0x9e3779b97f4a7c15ull)) & m->mask;
	return (size_t)(lo + mix(hi)) & m->mask;
}

struct ssp_idmap *
ssp_idmap_new(size_t vsize, size_t limit, ssp_idmap_evict_fn evict, void *ctx)
{
	struct ssp_idmap *m = calloc(1, sizeof(*m));

	if (m == NULL || limit == 0)
		goto fail;
	m->vsize = vsize;
	m->slot_size = sizeof(struct slot_head) + ((vsize + 7) & ~(size_t)7);
	m->limit = limit;
	for (m->cap = 4; m->cap < 2 * limit; m->cap *= 2)	/* load <= 1/2 */
		;
	m->mask = m->cap - 1;
	m->evict = evict;
	m->ctx = ctx;
	/* looked up at random: huge pages save a fault per 4 KiB and most
	 * TLB misses */
	m->cur.slots = ssp_hugemem_alloc(m->cap * m->slot_size);
	m->old.slots = ssp_hugemem_alloc(m->cap * m->slot_size);
	m->cur.lo = m->old.lo = SIZE_MAX;
	if (m->cur.slots == NULL || m->old.slots == NULL)
		goto fail;
	return m;
fail:
	ssp_idmap_free(m);
	return NULL;
}

void
ssp_idmap_free(struct ssp_idmap *m)
{
	if (m == NULL)
		return;
	ssp_hugemem_free(m->cur.slots);
	ssp_hugemem_free(m->old.slots);
	free(m);
}

static struct slot_head *
find(const struct ssp_idmap *m, const struct gen *g, uint64_t hi, uint64_t lo)
{
	size_t i = home(m, hi, lo), n;
	struct slot_head *h;

	for (n = 0; m->mixed || n <= PROBE_MAX; n++) {
		h = HEAD(m, g, i);
		if (h->state == FREE)
			return NULL;
		if (h->state == LIVE && h->hi == hi && h->lo == lo)
			return h;
		i = (i + 1) & m->mask;
	}
	return NULL;
}

/* The free slot for an id in generation g, now counted as written: NULL
 * when it would lie more than PROBE_MAX past its home while ids are
 * placed in order. */
static struct slot_head *
free_slot(const struct ssp_idmap *m, struct gen *g, uint64_t hi, uint64_t lo)
{
	size_t i = home(m, hi, lo), n;

	for (n = 0; m->mixed || n <= PROBE_MAX; n++) {
		if (HEAD(m, g, i)->state != LIVE) {
			g->lo = i < g->lo ? i : g->lo;
			g->hi = i >= g->hi ? i + 1 : g->hi;
			return HEAD(m, g, i);
		}
		i = (i + 1) & m->mask;
	}
	return NULL;
}

/* Place every live entry of g again, into slots (the mixing hash). */
static void
remix_gen(struct ssp_idmap *m, struct gen *g, unsigned char *slots)
{
	struct gen ng = { slots, g->n, SIZE_MAX, 0 };
	size_t i;

	for (i = 0; i < m->cap; i++) {
		struct slot_head *h = HEAD(m, g, i);

		if (h->state == LIVE)
			memcpy(free_slot(m, &ng, h->hi, h->lo), h, m->slot_size);
	}
	ssp_hugemem_free(g->slots);
	*g = ng;
}

/* Turn to the mixing hash for good; -1 (the map unchanged) when out of
 * memory. */
static int
remix(struct ssp_idmap *m)
{
	unsigned char *a = ssp_hugemem_alloc(m->cap * m->slot_size);
	unsigned char *b = ssp_hugemem_alloc(m->cap * m->slot_size);

	if (a == NULL || b == NULL) {
		ssp_hugemem_free(a);
		ssp_hugemem_free(b);
		return -1;
	}
	m->mixed = 1;
	remix_gen(m, &m->cur, a);
	remix_gen(m, &m->old, b);
	return 0;
}

/* Pass a generation's live entries to fn (if any) and clear it. */
static int
drop_gen(struct ssp_idmap *m, struct gen *g, ssp_idmap_evict_fn fn, void *ctx)
{
	size_t i;

	if (fn != NULL)
		for (i = g->lo; i < g->hi && g->n > 0; i++) {
			struct slot_head *h = HEAD(m, g, i);

			if (h->state != LIVE)
				continue;
			if (fn(ctx, h->hi, h->lo, VALUE(h)) != 0)
				return -1;
			h->state = MOVED;	/* not passed twice after a retry */
			g->n--;
		}
	if (g->hi > g->lo)
		ssp_hugemem_zero(g->slots, g->lo * m->slot_size,
		    (g->hi - g->lo) * m->slot_size);
	g->n = 0;
	g->lo = SIZE_MAX;
	g->hi = 0;
	return 0;
}

/* Insert into the current generation, turning generations first if full. */
static struct slot_head *
insert(struct ssp_idmap *m, uint64_t hi, uint64_t lo)
{
	struct slot_head *h;
	struct gen t;

	if (m->cur.n >= m->limit) {
		uint64_t n = m->old.n;

		if (drop_gen(m, &m->old, m->evict, m->ctx) != 0)
			return NULL;
		m->evicted += n;
		t = m->old;
		m->old = m->cur;
		m->cur = t;
	}
	while ((h = free_slot(m, &m->cur, hi, lo)) == NULL)
		if (remix(m) != 0)
			return NULL;
	h->hi = hi;
	h->lo = lo;
	h->state = LIVE;
	memset(VALUE(h), 0, m->vsize);
	m->cur.n++;
	return h;
}

void *
ssp_idmap_get(struct ssp_idmap *m, uint64_t hi, uint64_t lo)
{
	struct slot_head *h, *n;
	unsigned char tmp[256];
	void *v = tmp;

	if ((h = find(m, &m->cur, hi, lo)) != NULL)
		return VALUE(h);
	if ((h = find(m, &m->old, hi, lo)) == NULL)
		return NULL;
	/* Promote: copy out first, the insert may drop the old generation. */
	if (m->vsize > sizeof(tmp) && (v = malloc(m->vsize)) == NULL)
		return NULL;
	memcpy(v, VALUE(h), m->vsize);
	h->state = MOVED;
	m->old.n--;
	n = insert(m, hi, lo);
	if (n != NULL)
		memcpy(VALUE(n), v, m->vsize);
	if (v != tmp)
		free(v);
	return n != NULL ? VALUE(n) : NULL;
}

void *
ssp_idmap_put(struct ssp_idmap *m, uint64_t hi, uint64_t lo)
{
	struct slot_head *h = insert(m, hi, lo);

	return h != NULL ? VALUE(h) : NULL;
}

int
ssp_idmap_drain(struct ssp_idmap *m, ssp_idmap_evict_fn fn, void *ctx)
{
	if (drop_gen(m, &m->old, fn, ctx) != 0 ||
	    drop_gen(m, &m->cur, fn, ctx) != 0)
		return -1;
	return 0;
}

void
ssp_idmap_prefetch(const struct ssp_idmap *m, uint64_t hi, uint64_t lo)
{
	__builtin_prefetch(HEAD(m, &m->cur, home(m, hi, lo)), 1);
}

size_t
ssp_idmap_count(const struct ssp_idmap *m)
{
	return m->cur.n + m->old.n;
}

uint64_t ssp_idmap_evicted(const struct ssp_idmap *m) { return m->evicted; }
int ssp_idmap_mixed(const struct ssp_idmap *m) { return m->mixed; }
