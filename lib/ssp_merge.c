#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ssp_merge.h"

struct src {
	ssp_merge_next_fn fn;
	ssp_merge_batch_fn bfn;
	void *arg;
	struct ssp_rec rec;	/* the record of a one-record source */
	const struct ssp_rec *cur, *end;	/* records not yet handed out */
	uint64_t backwards;
	int64_t last;
	int have;		/* a record was handed out before (for backwards) */
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
	int refill;		/* source whose run was handed out, or -1 */
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
	m->s[i].bfn = NULL;
	m->s[i].arg = src;
}

void
ssp_merge_set_batch(struct ssp_merge *m, size_t i, ssp_merge_batch_fn fn,
    void *src)
{
	m->s[i].fn = NULL;
	m->s[i].bfn = fn;
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

/* Read more records of source i: 1, 0 or <0. */
static int
pull(struct ssp_merge *m, unsigned i, struct ssp_err *e)
{
	struct src *s = &m->s[i];
	const struct ssp_rec *r;
	int got;

	if (s->bfn != NULL) {
		got = s->bfn(s->arg, &r, e);
		if (got > 0) {
			s->cur = r;
			s->end = r + got;
			return 1;
		}
		return got;
	}
	if (s->fn == NULL)
		return 0;
	got = s->fn(s->arg, &s->rec, e);
	if (got == 1) {
		s->cur = &s->rec;
		s->end = &s->rec + 1;
	}
	return got;
}

/* Up to max records of the source on top of the heap: the first, and
 * those after it that still precede every other source's next record. */
static size_t
take(struct ssp_merge *m, size_t max)
{
	struct src *s = &m->s[m->heap[0].i];
	const struct ssp_rec *r = s->cur, *end = s->end;
	struct hnode lim = { INT64_MAX, UINT_MAX };
	unsigned i = m->heap[0].i;
	size_t n = 0;

	if (m->nheap > 1)
		lim = m->heap[1];
	if (m->nheap > 2 && less(&m->heap[2], &lim))
		lim = m->heap[2];
	if ((size_t)(end - r) > max)
		end = r + max;
	do {
		if (s->have && r->ts < s->last)
			s->backwards++;
		s->last = r->ts;
		s->have = 1;
		r++;
		n++;
	} while (r < end && (r->ts < lim.ts || (r->ts == lim.ts && i < lim.i)));
	s->cur = r;
	return n;
}

static int
next_run(struct ssp_merge *m, unsigned *idx, const struct ssp_rec **r,
    size_t *n, size_t max, struct ssp_err *e)
{
	int got;

	if (m->refill >= 0) {		/* top of the heap was handed out */
		unsigned i = (unsigned)m->refill;
		struct src *s = &m->s[i];

		m->refill = -1;
		got = s->cur < s->end ? 1 : pull(m, i, e);
		if (got == 1) {
			m->heap[0].ts = s->cur->ts;
			/* still the smallest: the common case, no sifting */
			if ((m->nheap > 1 && less(&m->heap[1], &m->heap[0])) ||
			    (m->nheap > 2 && less(&m->heap[2], &m->heap[0])))
				sift_down(m, 0);
		} else {
			m->heap[0] = m->heap[--m->nheap];
			if (m->nheap > 0)
				sift_down(m, 0);
			*idx = i;
			return got == 0 ? SSP_MERGE_END : SSP_MERGE_ERR;
		}
	}
	while (m->primed < m->n) {	/* first record of each source */
		unsigned i = (unsigned)m->primed++;

		got = pull(m, i, e);
		if (got != 1) {
			*idx = i;
			return got == 0 ? SSP_MERGE_END : SSP_MERGE_ERR;
		}
		m->heap[m->nheap].ts = m->s[i].cur->ts;
		m->heap[m->nheap++].i = i;
		sift_up(m, m->nheap - 1);
	}
	if (m->nheap == 0)
		return SSP_MERGE_DONE;
	*idx = m->heap[0].i;
	*r = m->s[m->heap[0].i].cur;
	*n = take(m, max);
	m->refill = (int)m->heap[0].i;
	return SSP_MERGE_REC;
}

int
ssp_merge_next(struct ssp_merge *m, unsigned *idx, const struct ssp_rec **r,
    struct ssp_err *e)
{
	size_t n;

	return next_run(m, idx, r, &n, 1, e);
}

int
ssp_merge_run(struct ssp_merge *m, unsigned *idx, const struct ssp_rec **r,
    size_t *n, struct ssp_err *e)
{
	return next_run(m, idx, r, n, SIZE_MAX, e);
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
