#include <stdlib.h>
#include <string.h>

#include "stream/merge.h"

struct src {
	ssp_merge_next_fn fn;
	void *arg;
	struct ssp_rec rec;	/* its current record while in the heap */
	uint64_t backwards;
	int64_t last;
	int have;		/* a record was read before (for backwards) */
};

struct hnode {			/* heap entry: the key inline */
	int64_t ts;
	unsigned i;
};

struct ssp_merge {
	struct src *s;
	size_t n;
	struct hnode *heap;	/* min (ts, index) on top */
	size_t nheap;
	size_t primed;		/* sources [0, primed) have been started */
	int refill;		/* source whose record was handed out, or -1 */
};

int
ssp_merge_new(struct ssp_merge **mp, size_t nsrc, struct ssp_err *e)
{
	struct ssp_merge *m = calloc(1, sizeof(*m));

	*mp = NULL;
	if (m == NULL || (m->s = calloc(nsrc ? nsrc : 1, sizeof(*m->s))) == NULL ||
	    (m->heap = calloc(nsrc ? nsrc : 1, sizeof(*m->heap))) == NULL) {
		ssp_merge_free(m);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	m->n = nsrc;
	m->refill = -1;
	*mp = m;
	return SSP_OK;
}

void
ssp_merge_set(struct ssp_merge *m, size_t i, ssp_merge_next_fn fn, void *src)
{
	m->s[i].fn = fn;
	m->s[i].arg = src;
}

static inline int
less(const struct hnode *a, const struct hnode *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->i < b->i);
}

static void
sift_down(struct ssp_merge *m, size_t i)
{
	struct hnode x = m->heap[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= m->nheap)
			break;
		if (c + 1 < m->nheap && less(&m->heap[c + 1], &m->heap[c]))
			c++;
		if (!less(&m->heap[c], &x))
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	m->heap[i] = x;
}

static void
sift_up(struct ssp_merge *m, size_t i)
{
	struct hnode x = m->heap[i];

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!less(&x, &m->heap[p]))
			break;
		m->heap[i] = m->heap[p];
		i = p;
	}
	m->heap[i] = x;
}

/* Read the next record of source i into its slot: 1, 0 or -status. */
static int
pull(struct ssp_merge *m, unsigned i, struct ssp_err *e)
{
	struct src *s = &m->s[i];
	int r;

	if (s->fn == NULL)
		return 0;
	r = s->fn(s->arg, &s->rec, e);
	if (r == 1) {
		if (s->have && s->rec.ts < s->last)
			s->backwards++;
		s->last = s->rec.ts;
		s->have = 1;
	}
	return r;
}

int
ssp_merge_next(struct ssp_merge *m, unsigned *idx, const struct ssp_rec **r,
    struct ssp_err *e)
{
	int got;

	if (m->refill >= 0) {		/* top of the heap was handed out */
		unsigned i = (unsigned)m->refill;

		m->refill = -1;
		got = pull(m, i, e);
		if (got == 1) {
			m->heap[0].ts = m->s[i].rec.ts;
			/* still the smallest: the common case, no sifting */
			if ((m->nheap > 1 && less(&m->heap[1], &m->heap[0])) ||
			    (m->nheap > 2 && less(&m->heap[2], &m->heap[0])))
				sift_down(m, 0);
		} else {
			m->heap[0] = m->heap[--m->nheap];
			if (m->nheap > 0)
				sift_down(m, 0);
			*idx = i;
			return got == 0 ? SSP_MERGE_END : got;
		}
	}
	while (m->primed < m->n) {	/* first record of each source */
		unsigned i = (unsigned)m->primed++;

		got = pull(m, i, e);
		if (got != 1) {
			*idx = i;
			return got == 0 ? SSP_MERGE_END : got;
		}
		m->heap[m->nheap].ts = m->s[i].rec.ts;
		m->heap[m->nheap++].i = i;
		sift_up(m, m->nheap - 1);
	}
	if (m->nheap == 0)
		return SSP_MERGE_DONE;
	*idx = m->heap[0].i;
	*r = &m->s[m->heap[0].i].rec;
	m->refill = (int)m->heap[0].i;
	return SSP_MERGE_REC;
}

uint64_t
ssp_merge_backwards(const struct ssp_merge *m, size_t i)
{
	return m->s[i].backwards;
}

void
ssp_merge_free(struct ssp_merge *m)
{
	if (m == NULL)
		return;
	free(m->s);
	free(m->heap);
	free(m);
}
