/*
 * The reference the merge queue (span/mergeq) is checked against, by
 * test_mergeq and fuzz_mergeq: a k-way merge of record sources in global
 * timestamp order, written to be obviously right rather than fast (each
 * record scans every source, no heap).  Ties go to the lower source
 * index; records of one source keep their order even when a timestamp
 * goes backwards (counted); a source that ends or fails is reported once,
 * at the point it does (first records in source order, then each source
 * when its next record is read), and then left out.  test_refmerge pins
 * these rules down.  Header-only; include after cmocka.h where asserted.
 */
#ifndef SSP_TEST_REFMERGE_H
#define SSP_TEST_REFMERGE_H

#include <stdint.h>
#include <stdlib.h>

#include "base/err.h"
#include "stream/rec.h"

/* Read one record: 1 = record in *r, 0 = end, -status on an error (e
 * set), as ssp_rec_rd_next. */
typedef int (*ref_next_fn)(void *src, struct ssp_rec *r, struct ssp_err *e);

struct ref_src {
	ref_next_fn fn;		/* NULL: an empty source */
	void *arg;
	struct ssp_rec rec;
	int has;		/* rec holds its next record */
	int seen;		/* a record was read (for backwards) */
	int64_t last;
	uint64_t backwards;
};

struct ref_merge {
	struct ref_src *s;
	size_t n;
	size_t primed;		/* sources [0, primed) have been started */
	long refill;		/* source whose record was handed out, or -1 */
};

/* What ref_merge_next returns besides -status (source *idx failed). */
#define REF_MERGE_DONE 0	/* every source has ended or failed */
#define REF_MERGE_REC  1	/* *idx = source, *r = its record */
#define REF_MERGE_END  2	/* source *idx ended cleanly */

/* NULL when out of memory; every source must be set before the first
 * ref_merge_next. */
static inline struct ref_merge *
ref_merge_new(size_t n)
{
	struct ref_merge *m = calloc(1, sizeof(*m));

	if (m != NULL && (m->s = calloc(n ? n : 1, sizeof(*m->s))) == NULL) {
		free(m);
		return NULL;
	}
	if (m != NULL) {
		m->n = n;
		m->refill = -1;
	}
	return m;
}

static inline void
ref_merge_set(struct ref_merge *m, size_t i, ref_next_fn fn, void *arg)
{
	m->s[i].fn = fn;
	m->s[i].arg = arg;
}

/* The next record of source i: 1, 0 or -status. */
static inline int
ref_pull(struct ref_src *s, struct ssp_err *e)
{
	int r = s->fn != NULL ? s->fn(s->arg, &s->rec, e) : 0;

	s->has = r == 1;
	if (r == 1) {
		if (s->seen && s->rec.ts < s->last)
			s->backwards++;
		s->last = s->rec.ts;
		s->seen = 1;
	}
	return r;
}

static inline int
ref_merge_next(struct ref_merge *m, unsigned *idx, const struct ssp_rec **r,
    struct ssp_err *e)
{
	size_t i, best;
	int got;

	if (m->refill >= 0) {
		i = (size_t)m->refill;
		m->refill = -1;
		if ((got = ref_pull(&m->s[i], e)) != 1) {
			*idx = (unsigned)i;
			return got == 0 ? REF_MERGE_END : got;
		}
	}
	while (m->primed < m->n) {
		i = m->primed++;
		if ((got = ref_pull(&m->s[i], e)) != 1) {
			*idx = (unsigned)i;
			return got == 0 ? REF_MERGE_END : got;
		}
	}
	for (best = m->n, i = 0; i < m->n; i++)
		if (m->s[i].has && (best == m->n ||
		    m->s[i].rec.ts < m->s[best].rec.ts))
			best = i;
	if (best == m->n)
		return REF_MERGE_DONE;
	m->s[best].has = 0;
	m->refill = (long)best;
	*idx = (unsigned)best;
	*r = &m->s[best].rec;
	return REF_MERGE_REC;
}

/* Records of source i whose timestamp is below the one before. */
static inline uint64_t
ref_merge_backwards(const struct ref_merge *m, size_t i)
{
	return m->s[i].backwards;
}

static inline void
ref_merge_free(struct ref_merge *m)
{
	if (m != NULL)
		free(m->s);
	free(m);
}

#endif
