#include <stdlib.h>
#include <string.h>

#include "base/blkpool.h"
#include "base/buf.h"
#include "sqlite/attrjson.h"
#include "sqlite/split.h"

#define IVL_MIN		16u		/* a trace's first span slots */
#define IVL_CLASSES	13		/* IVL_MIN << 12 == SSP_SPLIT_MAX */
#define IVL_BUDGET	(1u << 22)	/* spans over all lists: 96 MiB */
/* The pool's mapping starts small and doubles (base/blkpool): a small
 * load reserves no more address space than it uses. */

struct ssp_split {
	struct ssp_blkpool *pool;
	uint64_t cap, budget;	/* slots held by the lists, and their bound */
	size_t nstreams, nkinds;
	char **jname;		/* streams, then kinds: as JSON strings */
	size_t *jnlen;
	size_t maxname;		/* longest name */
	uint32_t *cnt;		/* counts by stream or kind */
	struct ssp_split_ivl *tmp;	/* v grouped by stream or kind */
	uint32_t captmp;
	struct ssp_buf json[2];	/* by stream, by kind */
};

struct ssp_split *
ssp_split_new(const char *const *streams, size_t nstreams,
    const char *const *kinds, size_t nkinds, uint64_t budget)
{
	struct ssp_split *sp = calloc(1, sizeof(*sp));
	size_t i, n = nstreams + nkinds;

	if (sp == NULL)
		return NULL;
	sp->nstreams = nstreams;
	sp->nkinds = nkinds;
	sp->budget = budget ? budget : IVL_BUDGET;
	sp->pool = ssp_blkpool_new(IVL_MIN * sizeof(struct ssp_split_ivl),
	    IVL_CLASSES, (size_t)sp->budget * sizeof(struct ssp_split_ivl));
	sp->cnt = calloc((nstreams > nkinds ? nstreams : nkinds) + 1,
	    sizeof(*sp->cnt));
	sp->jname = calloc(n + 1, sizeof(*sp->jname));
	sp->jnlen = calloc(n + 1, sizeof(*sp->jnlen));
	if (sp->pool == NULL || sp->cnt == NULL || sp->jname == NULL ||
	    sp->jnlen == NULL)
		goto fail;
	/* the names as the split writes them, escaped once */
	for (i = 0; i < n; i++) {
		const char *name = i < nstreams ? streams[i] : kinds[i - nstreams];
		size_t k = name != NULL ? strlen(name) : 0;
		struct ssp_attrjson w = { NULL, 6 * k + 2, 0 };	/* at most */

		if (name == NULL)
			continue;
		if (k > sp->maxname)
			sp->maxname = k;
		if ((w.p = sp->jname[i] = malloc(w.n)) == NULL)
			goto fail;
		ssp_attrjson_str(&w, name, k);
		sp->jnlen[i] = w.len;	/* <= w.n: 6 bytes a byte at most */
	}
	return sp;
fail:
	ssp_split_free(sp);
	return NULL;
}

void
ssp_split_free(struct ssp_split *sp)
{
	size_t i;

	if (sp == NULL)
		return;
	ssp_blkpool_free(sp->pool);
	for (i = 0; sp->jname != NULL && i < sp->nstreams + sp->nkinds; i++)
		free(sp->jname[i]);
	free(sp->jname);
	free(sp->jnlen);
	free(sp->cnt);
	free(sp->tmp);
	ssp_buf_free(&sp->json[0]);
	ssp_buf_free(&sp->json[1]);
	free(sp);
}

/* The block class of a capacity of IVL_MIN << k slots: k. */
static unsigned
ivl_class(uint32_t cap)
{
	return (unsigned)__builtin_ctz(cap / IVL_MIN);
}

void
ssp_split_drop(struct ssp_split *sp, struct ssp_split_list *l)
{
	if (l->v != NULL)
		ssp_blkpool_put(sp->pool, l->v, ivl_class(l->cap));
	sp->cap -= l->cap;
	l->v = NULL;
	l->n = l->cap = 0;
}

enum ssp_status
ssp_split_add(struct ssp_split *sp, struct ssp_split_list *l, int64_t b,
    int64_t e, uint32_t stream, uint32_t kind)
{
	SSP_ASSERT(stream < sp->nstreams && kind < sp->nkinds);
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : IVL_MIN;
		struct ssp_split_ivl *nv;

		if (l->cap >= SSP_SPLIT_MAX || sp->cap + (cap - l->cap) >
		    sp->budget) {
			ssp_split_drop(sp, l);
			return SSP_ERR_LIMIT;
		}
		if ((nv = ssp_blkpool_get(sp->pool, ivl_class(cap))) == NULL)
			return SSP_ERR_NOMEM;
		if (l->v != NULL) {
			memcpy(nv, l->v, l->n * sizeof(*nv));
			ssp_blkpool_put(sp->pool, l->v, ivl_class(l->cap));
		}
		l->v = nv;
		sp->cap += cap - l->cap;
		l->cap = cap;
	}
	l->v[l->n++] = (struct ssp_split_ivl){ b, e, stream, kind };
	return SSP_OK;
}

static int
cmp_start(const void *a, const void *b)
{
	const struct ssp_split_ivl *x = a, *y = b;

	return x->b < y->b ? -1 : x->b > y->b;
}

static uint32_t
key(const struct ssp_split_ivl *v, int by)
{
	return by == 0 ? v->stream : by == 1 ? v->kind : 0;
}

/*
 * Sweep intervals sorted by start within groups: the length of the union
 * of each group's intervals (each span adds what lies beyond everything
 * that started before it).  by: 0 stream, 1 kind, 2 all in one group.
 * Writes {"name":[spans,busy_ps],...} to b (reserved large enough) unless
 * b is NULL; returns the busy time of the last group.
 */
static int64_t
sweep(const struct ssp_split *sp, const struct ssp_split_ivl *v, uint32_t n,
    int by, struct ssp_buf *b)
{
	struct ssp_attrjson w;
	int64_t busy = 0, reach = INT64_MIN, lo;
	uint32_t i, first = 0, k, spans = 0;
	size_t name;

	w.p = b != NULL ? (char *)b->p : NULL;
	w.n = b != NULL ? b->cap : 0;
	w.len = 0;
	ssp_attrjson_ch(&w, '{');
	for (i = 0; i < n; i++) {
		k = key(&v[i], by);
		if (i > first && k != key(&v[i - 1], by)) {
			first = i;
			busy = spans = 0;
			reach = INT64_MIN;
		}
		spans++;
		lo = v[i].b > reach ? v[i].b : reach;
		if (v[i].e > lo)	/* unsigned: no overflow on absurd input */
			busy = (int64_t)((uint64_t)busy + (uint64_t)v[i].e -
			    (uint64_t)lo);
		if (v[i].e > reach)
			reach = v[i].e;
		if (b != NULL && (i + 1 == n || k != key(&v[i + 1], by))) {
			name = by == 0 ? k : sp->nstreams + k;
			if (w.len > 1)
				ssp_attrjson_ch(&w, ',');
			ssp_attrjson_put(&w, sp->jname[name], sp->jnlen[name]);
			ssp_attrjson_ch(&w, ':');
			ssp_attrjson_ch(&w, '[');
			ssp_attrjson_i64(&w, spans);
			ssp_attrjson_ch(&w, ',');
			ssp_attrjson_i64(&w, busy);
			ssp_attrjson_ch(&w, ']');
		}
	}
	ssp_attrjson_ch(&w, '}');
	if (b != NULL)
		b->len = w.len;
	return busy;
}

int64_t
ssp_split_run(struct ssp_split *sp, struct ssp_split_ivl *v, uint32_t n)
{
	size_t need = 64 + (size_t)n * (40 + 6 * sp->maxname), nk;
	uint32_t i, j, sum;
	struct ssp_split_ivl *t;
	int by;

	/* names are escaped: up to 6 bytes a byte */
	sp->json[0].len = sp->json[1].len = 0;
	if (ssp_buf_reserve(&sp->json[0], need + 1) != 0 ||
	    ssp_buf_reserve(&sp->json[1], need + 1) != 0)
		return -1;
	if (n > sp->captmp) {
		if ((t = realloc(sp->tmp, n * sizeof(*t))) == NULL)
			return -1;
		sp->tmp = t;
		sp->captmp = n;
	}
	/* by start; then, keeping that order, grouped by stream and by kind
	 * (counting sorts: few streams and kinds) */
	if (n <= 24) {
		for (i = 1; i < n; i++) {
			struct ssp_split_ivl x = v[i];

			for (j = i; j > 0 && v[j - 1].b > x.b; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	} else {
		qsort(v, n, sizeof(*v), cmp_start);
	}
	for (by = 0; by < 2; by++) {
		nk = by == 0 ? sp->nstreams : sp->nkinds;
		memset(sp->cnt, 0, (nk + 1) * sizeof(*sp->cnt));
		for (i = 0; i < n; i++)
			sp->cnt[key(&v[i], by)]++;
		for (i = 0, sum = 0; i < nk; i++) {
			uint32_t c = sp->cnt[i];

			sp->cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			sp->tmp[sp->cnt[key(&v[i], by)]++] = v[i];
		sweep(sp, sp->tmp, n, by, &sp->json[by]);
	}
	return sweep(sp, v, n, 2, NULL);
}

const char *
ssp_split_json(const struct ssp_split *sp, int which, size_t *len)
{
	SSP_ASSERT(which == 0 || which == 1);
	*len = sp->json[which].len;
	return (const char *)sp->json[which].p;
}
