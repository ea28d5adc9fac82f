#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/map.h"
#include "sqlite/btree.h"
#include "sqlite/attrjson.h"
#include "sqlite/dberr.h"
#include "sqlite/direct.h"
#include "sqlite/schema.h"
#include "sqlite/stat1.h"
#include "base/ksort.h"

/*
 * What a load gives: the rows of spans, the attribute tables, links and
 * events as the stream is read, traces at the end; the index keys of each
 * row go to a sorter per index, and the indexes are written from the
 * sorted keys at the end.  Text keys sort as fixed-size integers: kind
 * and stream names by their rank in SQLite's BINARY order, orphan causes
 * numbered as they come and renumbered by rank at the end.
 */
#define T_SPANS		SSP_ROWS_SPANS
#define T_LINKS		SSP_ROWS_LINKS
#define T_EVENTS	SSP_ROWS_EVENTS
#define T_TRACES	SSP_ROWS_TRACES
#define T_N		SSP_ROWS_NTABLES
#define TVALS		SSP_ROWS_MAXCOLS
#define XMAX	16	/* indexes on them built from sorted keys */
#define XPARTS	6	/* key columns of such an index */

/* An index key column as sort words: a full word (K_INT, K_REF: NULL
 * first), half a word (K_RUN, and the ranks K_KIND, K_STREAM, K_CAUSE:
 * 0 is NULL, streams from 0), or two words (K_HEX: 32 hex digits). */
enum { K_NONE, K_INT, K_REF, K_RUN, K_KIND, K_STREAM, K_CAUSE, K_HEX };

/*
 * How each named column (rows.h) sorts as an index key.  Generated
 * values SQLite computes itself (the catalog's probe makes sure it
 * computes them as direct_row does): for index keys only.
 */
static const unsigned char keyenc[T_N][TVALS] = {
	[T_SPANS] = { [SSP_SPANS_RUN] = K_RUN, [SSP_SPANS_TRACE] = K_INT,
	    [SSP_SPANS_PARENT] = K_REF, [SSP_SPANS_SPAN_ID] = K_INT,
	    [SSP_SPANS_KIND] = K_KIND, [SSP_SPANS_STREAM] = K_STREAM,
	    [SSP_SPANS_START_PS] = K_INT, [SSP_SPANS_DUR_PS] = K_INT,
	    [SSP_SPANS_FLAGS] = K_INT, [SSP_SPANS_CAUSE] = K_CAUSE },
	[T_LINKS] = { [SSP_LINKS_RUN] = K_RUN, [SSP_LINKS_SPAN] = K_REF,
	    [SSP_LINKS_TARGET] = K_REF, [SSP_LINKS_SPAN_ID] = K_INT,
	    [SSP_LINKS_TARGET_SPAN_ID] = K_INT,
	    [SSP_LINKS_TARGET_TRACE_ID] = K_HEX },
	[T_EVENTS] = { [SSP_EVENTS_RUN] = K_RUN, [SSP_EVENTS_SPAN] = K_REF,
	    [SSP_EVENTS_TS_PS] = K_INT, [SSP_EVENTS_STREAM] = K_STREAM },
	[T_TRACES] = { [SSP_TRACES_RUN] = K_RUN, [SSP_TRACES_TRACE_ID] = K_HEX,
	    [SSP_TRACES_ROOT] = K_REF, [SSP_TRACES_ROOT_KIND] = K_KIND,
	    [SSP_TRACES_START_PS] = K_INT, [SSP_TRACES_END_PS] = K_INT,
	    [SSP_TRACES_SPANS] = K_INT, [SSP_TRACES_BUSY_PS] = K_INT,
	    [SSP_TRACES_DUR_PS] = K_INT },
};
struct dpart {			/* a key column of an index */
	unsigned char val;	/* its value (ssp_rows_tables[].col) */
	unsigned char enc;	/* K_* */
	unsigned char word;	/* where its bits go */
	unsigned char half;	/* 0: the whole word(s), 1: high, 2: low half */
};

struct dindex {			/* an index built from sorted keys */
	const char *name;	/* the catalog's */
	unsigned t;		/* its table */
	struct dpart part[XPARTS];
	unsigned np, nw;	/* key columns, sort words */
	int pval;		/* partial (WHERE col & mask): col, or -1 */
	int64_t pmask;
	int cause;		/* a K_CAUSE column: renumbered by rank */
	int bad;		/* a key that does not fit: REINDEX it */
	uint32_t root;
	struct ssp_btree_tree *tree;
	struct ssp_ksort *ks;
	int sorted;		/* ks sorted by the helper thread: its status */
	struct ssp_stat1 st;	/* its statistics ... */
	int st_on;		/* ... counted (few enough entries) */
};

struct sindex {			/* an index of a table of few rows (rows.h):
				 * its entries sorted in memory */
	const char *name;
	unsigned t;
	unsigned char val[XPARTS];	/* its key columns' values */
	unsigned np;
	uint32_t root;
	struct ssp_btree_tree *tree;
	struct ssp_stat1 st;
	int st_on;
};

struct frow {			/* a row of a table of few rows, kept */
	int64_t id;
	struct ssp_value v[TVALS];	/* text in copies of its own */
};

struct cdict {			/* distinct strings (orphan causes), ids 1.. */
	char **s;
	size_t *len;
	uint32_t n, cap;
	struct ssp_map map;	/* string hash -> id */
};

struct ssp_direct {
	struct ssp_rows rows;	/* the writer interface: first */
	struct ssp_err *e;
	const struct ssp_catalog *cat;	/* the new database's schema */
	char *name;		/* the database, for messages */
	char *path;		/* its file */
	struct ssp_btree *bt;
	uint32_t troot[T_N];
	struct ssp_btree_tree *tab[T_N];
	unsigned ncol[T_N];	/* stored columns of the table */
	unsigned char cmap[T_N][TVALS];	/* their values */
	int ident[T_N];		/* cmap is the identity */
	uint32_t gen[T_N];	/* generated values SQLite computes as we do */
	unsigned nft;
	const struct ssp_rows_attr *const *attr;	/* file type -> its
				 * attribute table, or NULL (the caller's) */
	uint32_t *aroot;
	struct ssp_btree_tree **atab;
	struct dindex ix[XMAX];
	unsigned nix;
	struct sindex sx[XMAX];
	unsigned nsx;
	struct frow *few[T_N];	/* the rows of the tables of few rows */
	size_t nfew[T_N];
	uint64_t nrows[T_N];	/* rows written of each table */
	uint64_t *arows;	/* ... of each file type's attribute table */
	size_t sort_mem;	/* bytes of keys one sorter may hold */
	size_t pool;		/* bytes the sorters may still hold */
	char **reindex;
	size_t nreindex;
	uint32_t *krank;	/* file type -> rank of its kind name, 1.. */
	const char **kname;	/* rank -> kind name */
	size_t *knlen;		/* rank -> its length */
	uint32_t nkinds;
	uint32_t *srank;	/* stream -> rank of its name, 0.. */
	const char **sname;
	size_t *snlen;		/* rank -> length of sname */
	size_t nstreams;
	/* the indexes of each table, so a row's keys skip the others */
	unsigned char tix[T_N][XMAX];
	unsigned ntix[T_N];
	struct cdict causes;
	pthread_t sorter;	/* ssp_direct_presort's thread */
	int sorting;		/* ... running (to be joined) */
};

static enum ssp_status
db_fail(struct ssp_direct *dw, sqlite3 *db)
{
	return ssp_dberr_set(dw->e, db, dw->name);
}

static enum ssp_status
bt_fail(struct ssp_direct *dw)
{
	const struct ssp_err *be = ssp_btree_err(dw->bt);

	if (dw->e != NULL && be->code != SSP_OK)
		*dw->e = *be;
	return be->code != SSP_OK ? (enum ssp_status)be->code : SSP_ERR_IO;
}

/* The affinity SQLite gives a declared column type (datatype3.html, 3.1). */
char
ssp_direct_affinity(const char *type)
{
	if (strcasestr(type, "INT") != NULL)
		return 'i';
	if (strcasestr(type, "CHAR") != NULL || strcasestr(type, "CLOB") != NULL ||
	    strcasestr(type, "TEXT") != NULL)
		return 't';
	if (strcasestr(type, "BLOB") != NULL || *type == '\0')
		return 'b';
	if (strcasestr(type, "REAL") != NULL || strcasestr(type, "FLOA") != NULL ||
	    strcasestr(type, "DOUB") != NULL)
		return 'r';
	return 'n';
}

/* Signed integers as unsigned words in the same order. */
static uint64_t
flip(int64_t v)
{
	return (uint64_t)v ^ (1ull << 63);
}

static int64_t
unflip(uint64_t w)
{
	return (int64_t)(w ^ (1ull << 63));
}

/* The id of a string in d (added if new), 0 when out of memory. */
static uint32_t
cdict_id(struct cdict *d, const char *p, size_t n)
{
	uint64_t h = ssp_map_hash(p, n);
	const struct ssp_map_slot *sl;
	uint32_t id;

	for (sl = ssp_map_find(&d->map, h); sl != NULL;
	    sl = ssp_map_next(&d->map, sl))
		if (d->len[sl->val] == n && memcmp(d->s[sl->val], p, n) == 0)
			return sl->val;
	if (d->n + 2 > d->cap) {
		uint32_t cap = d->cap ? 2 * d->cap : 16;
		char **ns = realloc(d->s, cap * sizeof(*ns));
		size_t *nl = ns != NULL ? realloc(d->len, cap * sizeof(*nl)) : NULL;

		if (ns != NULL)
			d->s = ns;
		if (nl == NULL)
			return 0;
		d->len = nl;
		d->cap = cap;
	}
	id = d->n + 1;
	if ((d->s[id] = malloc(n + 1)) == NULL)
		return 0;
	memcpy(d->s[id], p, n);
	d->s[id][n] = '\0';
	d->len[id] = n;
	if (ssp_map_add(&d->map, h, id) == NULL) {
		free(d->s[id]);
		return 0;
	}
	d->n = id;
	return id;
}

static void
cdict_free(struct cdict *d)
{
	uint32_t i;

	for (i = 1; i <= d->n; i++)
		free(d->s[i]);
	free(d->s);
	free(d->len);
	ssp_map_free(&d->map);
}

static int
parse_hex64(const unsigned char *p, uint64_t *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 16; i++) {
		int c = p[i];

		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else
			return -1;
		*v = *v << 4 | (uint64_t)c;
	}
	return 0;
}

/*
 * The layout of table t: which of the writer's values each stored column
 * holds.  1: it can be written directly (each value once, as SQLite
 * would store it, the id the rowid: an INTEGER PRIMARY KEY, or the rowid
 * itself when the table names its id "rowid"); 0: it cannot.
 */
static int
table_layout(struct ssp_direct *dw, unsigned t)
{
	const struct ssp_rows_table *rt = &ssp_rows_tables[t];
	const struct ssp_catalog_table *ct = ssp_catalog_table(dw->cat, rt->name);
	uint32_t seen = 0, want = ((1u << rt->ncols) - 1) & ~rt->gen;
	unsigned n = 0, i, c;

	if (ct == NULL || !ct->rowid || ct->root < 2)
		return 0;
	if (strcmp(rt->col[0], "rowid") == 0)
		want &= ~1u;	/* no column: the rowid */
	for (c = 0; c < ct->ncols; c++) {
		const struct ssp_catalog_col *k = &ct->col[c];
		char aff = ssp_direct_affinity(k->type);

		for (i = 0; i < rt->ncols; i++)
			if (strcmp(k->name, rt->col[i]) == 0)
				break;
		if (k->hidden == 2) {	/* generated, virtual: not stored */
			if (i < rt->ncols && (rt->gen >> i & 1) && k->gen_ok)
				dw->gen[t] |= 1u << i;
			continue;
		}
		if (k->hidden != 0 || i == rt->ncols || !(want >> i & 1) ||
		    (seen >> i & 1) || n == TVALS)
			return 0;	/* stored generated, unknown, twice */
		if ((k->pk != 0) != (i == 0) || (i == 0 &&
		    strcasecmp(k->type, "INTEGER") != 0))
			return 0;	/* id INTEGER PRIMARY KEY, the rowid */
		if ((rt->text >> i & 1) ? aff != 't' && aff != 'b' :
		    aff != 'i' && aff != 'n' && aff != 'b')
			return 0;	/* SQLite would convert the value */
		seen |= 1u << i;
		dw->cmap[t][n++] = (unsigned char)i;
	}
	dw->ncol[t] = n;
	dw->ident[t] = n == rt->ncols;
	for (i = 0; i < n; i++)
		dw->ident[t] &= dw->cmap[t][i] == i;
	dw->troot[t] = ct->root;
	return seen == want;
}

/* 1: the schema is one the direct writer can fill; 0: it is not. */
static int
check(struct ssp_direct *dw)
{
	const struct ssp_catalog_table *ct;
	unsigned t;

	if (dw->cat->ntriggers != 0)
		return 0;
	for (t = 0; t < T_N; t++)
		if (!table_layout(dw, t))
			return 0;
	for (t = 0; t < dw->nft; t++) {
		if (dw->attr[t] == NULL)
			continue;
		if (!dw->attr[t]->direct || (ct = ssp_catalog_table(dw->cat,
		    dw->attr[t]->table)) == NULL || !ct->rowid || ct->root < 2)
			return 0;
		dw->aroot[t] = ct->root;
	}
	return 1;
}

/* "WHERE col & mask" at the end of a partial index's definition, col a
 * value of table t: sets x->pval and x->pmask.  0: not of that form. */
static int
partial_mask(struct dindex *x, const char *sql)
{
	const char *p = NULL, *q;
	char col[64];
	size_t n;
	unsigned i;
	char *end;

	for (q = sql; q != NULL && (q = strcasestr(q, "WHERE")) != NULL; q += 5)
		p = q + 5;
	if (p == NULL)
		return 0;
	p += strspn(p, " \t\n");
	if ((n = strspn(p, "abcdefghijklmnopqrstuvwxyz_0123456789")) == 0 ||
	    n >= sizeof(col))
		return 0;
	memcpy(col, p, n);
	col[n] = '\0';
	p += n + strspn(p + n, " \t\n");
	if (*p++ != '&')
		return 0;
	p += strspn(p, " \t\n");
	if (*p < '1' || *p > '9')
		return 0;
	errno = 0;
	x->pmask = strtoll(p, &end, 10);
	if (errno != 0 || end[strspn(end, " \t\n")] != '\0')
		return 0;
	for (i = 0; i < ssp_rows_tables[x->t].ncols; i++)
		if (strcmp(col, ssp_rows_tables[x->t].col[i]) == 0 &&
		    keyenc[x->t][i] == K_INT)
			break;
	if (i == ssp_rows_tables[x->t].ncols)
		return 0;
	x->pval = (int)i;
	return 1;
}

/* The named column (rows.h) of table t that key column k is, or -1. */
static int
key_value(unsigned t, const struct ssp_catalog_key *k)
{
	unsigned i;

	for (i = 0; k->name != NULL && i < ssp_rows_tables[t].ncols; i++)
		if (strcmp(k->name, ssp_rows_tables[t].col[i]) == 0)
			return (int)i;
	return -1;
}

/*
 * How to build index ci (on table t) from sorted keys, from its key
 * columns.  1: a new dw->ix entry; 0: it cannot be (REINDEX it).
 */
static int
index_layout(struct ssp_direct *dw, const struct ssp_catalog_index *ci,
    unsigned t)
{
	struct dindex *x = &dw->ix[dw->nix];
	unsigned j, w, half, nhex = 0, c;
	int i;

	if (dw->nix == XMAX || ci->root < 2)
		return 0;
	memset(x, 0, sizeof(*x));
	x->t = t;
	x->pval = -1;
	x->cause = -1;
	if (ci->partial && !partial_mask(x, ci->sql))
		return 0;
	for (c = 0; c < ci->nkeys; c++) {
		const struct ssp_catalog_key *k = &ci->key[c];

		if (k->key == 0)
			continue;	/* the rowid at the end */
		i = key_value(t, k);
		/* an expression, a generated column, DESC, a collation */
		if (i < 0 || keyenc[t][i] == K_NONE ||
		    ((ssp_rows_tables[t].gen >> i & 1) && !(dw->gen[t] >> i & 1)) ||
		    k->desc || k->coll == NULL || strcmp(k->coll, "BINARY") != 0 ||
		    x->np == XPARTS)
			return 0;
		if ((keyenc[t][i] == K_HEX && nhex++ > 0) ||
		    (keyenc[t][i] == K_CAUSE && x->cause >= 0))
			return 0;	/* one of each at most */
		if (keyenc[t][i] == K_CAUSE)
			x->cause = (int)x->np;
		x->part[x->np].val = (unsigned char)i;
		x->part[x->np++].enc = keyenc[t][i];
	}
	/* the words: two half-word columns share one */
	for (j = w = half = 0; j < x->np; j++) {
		unsigned char e = x->part[j].enc;

		if (e == K_RUN || e == K_KIND || e == K_STREAM || e == K_CAUSE) {
			x->part[j].word = (unsigned char)(half ? w - 1 : w++);
			x->part[j].half = half ? 2 : 1;
			half = !half;
		} else {
			x->part[j].word = (unsigned char)w;
			w += e == K_HEX ? 2 : 1;
			half = 0;
		}
	}
	x->nw = w;
	/* the sorter takes 7 words; a cause ranked later takes the row too */
	if (x->np == 0 || w + (x->cause >= 0) > 6)
		return 0;
	x->name = ci->name;
	x->root = ci->root;
	dw->nix++;
	return 1;
}

/*
 * An index of a table of few rows (rows.h), built from its entries
 * sorted in memory: plain columns, ascending, BINARY, not partial.  1: a
 * new dw->sx entry; 0: it cannot be (REINDEX it).
 */
static int
small_index_layout(struct ssp_direct *dw, const struct ssp_catalog_index *ci,
    unsigned t)
{
	struct sindex *x = &dw->sx[dw->nsx];
	unsigned c;
	int i;

	if (dw->nsx == XMAX || ci->root < 2 || ci->partial)
		return 0;
	memset(x, 0, sizeof(*x));
	x->t = t;
	for (c = 0; c < ci->nkeys; c++) {
		const struct ssp_catalog_key *k = &ci->key[c];

		if (k->key == 0)
			continue;
		if ((i = key_value(t, k)) < 0 || (ssp_rows_tables[t].gen >> i & 1) ||
		    k->desc || k->coll == NULL || strcmp(k->coll, "BINARY") != 0 ||
		    x->np == XPARTS)
			return 0;
		x->val[x->np++] = (unsigned char)i;
	}
	if (x->np == 0)
		return 0;
	x->name = ci->name;
	x->root = ci->root;
	dw->nsx++;
	return 1;
}

/* The table of rows.h named name, or T_N. */
static unsigned
row_table(const char *name)
{
	unsigned t;

	for (t = 0; t < T_N; t++)
		if (strcmp(name, ssp_rows_tables[t].name) == 0)
			break;
	return t;
}

/* A table the writer fills. */
static int
written(const struct ssp_direct *dw, const char *name)
{
	unsigned t;

	if (row_table(name) < T_N)
		return 1;
	for (t = 0; t < dw->nft; t++)
		if (dw->attr[t] != NULL && strcmp(dw->attr[t]->table, name) == 0)
			return 1;
	return 0;
}

static enum ssp_status
add_reindex(struct ssp_direct *dw, const char *name)
{
	char **nr = realloc(dw->reindex, (dw->nreindex + 1) * sizeof(*nr));

	if (nr == NULL)
		return ssp_err_set(dw->e, SSP_ERR_NOMEM, 0, "out of memory");
	dw->reindex = nr;
	if ((nr[dw->nreindex] = strdup(name)) == NULL)
		return ssp_err_set(dw->e, SSP_ERR_NOMEM, 0, "out of memory");
	dw->nreindex++;
	return SSP_OK;
}

/* How each index of a table the writer fills is built: from sorted keys,
 * sorted in memory, or by REINDEX. */
static enum ssp_status
indexes(struct ssp_direct *dw)
{
	unsigned i, t;
	int ok;

	for (i = 0; i < dw->cat->nindexes; i++) {
		const struct ssp_catalog_index *ci = &dw->cat->index[i];

		if (!written(dw, ci->table))
			continue;
		t = row_table(ci->table);
		ok = t < T_N && (ssp_rows_tables[t].few ?
		    small_index_layout(dw, ci, t) : index_layout(dw, ci, t));
		if (!ok && add_reindex(dw, ci->name) != SSP_OK)
			return SSP_ERR_NOMEM;
	}
	return SSP_OK;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static enum ssp_status
ranks(struct ssp_direct *dw, const char *const *kinds,
    const char *const *streams, size_t nstreams)
{
		const char **names;
	uint32_t t, n = 0, i;

	dw->krank = calloc(dw->nft + 1, sizeof(*dw->krank));
	dw->kname = calloc(dw->nft + 1, sizeof(*dw->kname));
	dw->srank = calloc(nstreams + 1, sizeof(*dw->srank));
	dw->sname = calloc(nstreams + 1, sizeof(*dw->sname));
	dw->knlen = calloc(dw->nft + 1, sizeof(*dw->knlen));
	dw->snlen = calloc(nstreams + 1, sizeof(*dw->snlen));
	names = calloc(dw->nft + 1, sizeof(*names));
	if (dw->krank == NULL || dw->kname == NULL || dw->srank == NULL ||
	    dw->sname == NULL || dw->knlen == NULL || dw->snlen == NULL ||
	    names == NULL) {
		free(names);
		return ssp_err_set(dw->e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	for (t = 0; t < dw->nft; t++)
		if (kinds[t] != NULL)
			names[n++] = kinds[t];
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++)	/* unique, from rank 1 (0: NULL) */
		if (dw->nkinds == 0 || strcmp(names[i],
		    dw->kname[dw->nkinds]) != 0)
			dw->kname[++dw->nkinds] = names[i];
	free(names);
	for (t = 0; t < dw->nft; t++)
		for (i = 1; kinds[t] != NULL && i <= dw->nkinds; i++)
			if (strcmp(kinds[t], dw->kname[i]) == 0)
				dw->krank[t] = i;
	for (i = 0; i < nstreams; i++)
		dw->sname[i] = streams[i];
	qsort(dw->sname, nstreams, sizeof(*dw->sname), cmp_str);
	for (i = 0; i < nstreams; i++)
		for (t = 0; t < nstreams; t++)
			if (strcmp(streams[i], dw->sname[t]) == 0)
				dw->srank[i] = t;
	/* index entries name them: measured once, not at every entry */
	for (i = 1; i <= dw->nkinds; i++)
		dw->knlen[i] = strlen(dw->kname[i]);
	for (i = 0; i < nstreams; i++)
		dw->snlen[i] = strlen(dw->sname[i]);
	return SSP_OK;
}

/* Rank of a kind name (from the traces table), 0 for NULL or unknown. */
static uint32_t
kind_rank(const struct ssp_direct *dw, const char *name, size_t n)
{
	uint32_t lo = 1, hi = dw->nkinds;

	while (lo <= hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strncmp(name, dw->kname[mid], n);

		if (c == 0 && dw->kname[mid][n] != '\0')
			c = -1;
		if (c == 0)
			return mid;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return 0;
}
/* A row of table t from its values (by named column), in the file. */
static enum ssp_status
d_row(struct ssp_direct *dw, unsigned t, int64_t row,
    const struct ssp_value *v)
{
	struct ssp_value rec[TVALS];
	unsigned j;

	if (!dw->ident[t])
		for (j = 0; j < dw->ncol[t]; j++)
			rec[j] = v[dw->cmap[t][j]];
	if (ssp_btree_row(dw->tab[t], row, dw->ident[t] ? v : rec,
	    dw->ncol[t]) != SSP_OK)
		return bt_fail(dw);
	return SSP_OK;
}

/*
 * The keys of a row of table t for its indexes.  kind and stream: the
 * ranks of its K_KIND and K_STREAM values (their names are ranked once).
 */
static enum ssp_status
d_keys(struct ssp_direct *dw, unsigned t, const struct ssp_value *v,
    uint32_t kind, uint32_t stream, int64_t row)
{
	unsigned i, j;
	int r;

	for (i = 0; i < dw->ntix[t]; i++) {
		struct dindex *x = &dw->ix[dw->tix[t][i]];
		uint64_t k[8] = { 0 }, w = 0, lo;

		if (x->ks == NULL || x->bad)
			continue;
		if (x->pval >= 0 && (v[x->pval].type != SQLITE_INTEGER ||
		    (v[x->pval].i & x->pmask) == 0))
			continue;
		for (j = 0; j < x->np; j++) {
			const struct ssp_value *c = &v[x->part[j].val];

			switch (x->part[j].enc) {
			case K_INT:
			case K_REF:
				if (c->type == SQLITE_NULL &&
				    x->part[j].enc == K_REF) {
					w = 0;
					break;
				}
				if (c->type != SQLITE_INTEGER || c->i == INT64_MIN)
					goto bad;
				w = flip(c->i);
				break;
			case K_RUN:
				if (c->type != SQLITE_INTEGER || c->i < 0 ||
				    c->i > UINT32_MAX)
					goto bad;
				w = (uint64_t)c->i;
				break;
			case K_KIND:
				w = kind;
				break;
			case K_STREAM:
				w = stream;
				break;
			case K_CAUSE:
				w = 0;
				if (c->type == SQLITE_TEXT && (w = cdict_id(&dw->causes,
				    c->p, c->n)) == 0)
					return ssp_err_set(dw->e, SSP_ERR_NOMEM, 0,
					    "out of memory");
				break;
			case K_HEX:
				if (c->type != SQLITE_TEXT || c->n != 32 ||
				    parse_hex64((const unsigned char *)c->p, &w) != 0 ||
				    parse_hex64((const unsigned char *)c->p + 16,
				    &lo) != 0)
					goto bad;
				k[x->part[j].word + 1] = lo;
				break;
			}
			k[x->part[j].word] |= x->part[j].half == 1 ? w << 32 : w;
		}
		k[x->nw] = (uint64_t)row;
		if ((r = ssp_ksort_add(x->ks, k)) != SSP_OK)
			return ssp_err_set(dw->e, r, 0, "sorting index keys: %s",
			    r == SSP_ERR_NOMEM ? "out of memory" : strerror(errno));
		continue;
bad:
		x->bad = 1;
	}
	return SSP_OK;
}

/*
 * An integer of a record: its serial type into *hp, its body (big-endian,
 * the low bytes; one 8-byte store, the buffer has room) at q.  Returns
 * the end of the body.  fileformat2.html, 2.1.
 */
static inline unsigned char *
rec_int(unsigned char **hp, unsigned char *q, int64_t i)
{
	static const unsigned char len[7] = { 0, 1, 2, 3, 4, 6, 8 };
	uint64_t u = i < 0 ? ~(uint64_t)i : (uint64_t)i, be;
	unsigned bits, t;

	if ((uint64_t)i <= 1) {
		*(*hp)++ = (unsigned char)(8 + i);
		return q;
	}
	bits = u == 0 ? 0 : 64 - (unsigned)__builtin_clzll(u);
	t = bits < 8 ? 1 : bits < 16 ? 2 : bits < 24 ? 3 : bits < 32 ? 4 :
	    bits < 48 ? 5 : 6;
	*(*hp)++ = (unsigned char)t;
	be = __builtin_bswap64((uint64_t)i << (64 - 8 * len[t]) % 64);
	memcpy(q, &be, 8);
	return q + len[t];
}

#define REC_TEXT	50	/* longer text: the general record writer */

/* The record of an index entry from its sorted key (the key columns, then
 * the row) into rec; its length, 0 when a text is too long for it. */
static size_t
entry_rec(const struct ssp_direct *dw, const struct dindex *x,
    const uint64_t *k, unsigned nw, const uint32_t *byrank,
    unsigned char *rec)
{
	unsigned char *hp = rec + 1, *q = rec + 2 + x->np;
	const char *p;
	size_t n;
	uint32_t h, id;
	unsigned j;

	rec[0] = (unsigned char)(2 + x->np);	/* header size: < 128 */
	for (j = 0; j < x->np; j++) {
		uint64_t w = k[x->part[j].word];

		h = (uint32_t)(x->part[j].half == 1 ? w >> 32 : w);
		p = NULL;
		n = 0;
		switch (x->part[j].enc) {
		case K_INT:
			q = rec_int(&hp, q, unflip(w));
			continue;
		case K_REF:
			if (w == 0)
				*hp++ = 0;
			else
				q = rec_int(&hp, q, unflip(w));
			continue;
		case K_RUN:
			q = rec_int(&hp, q, h);
			continue;
		case K_KIND:
			if (h != 0) {
				p = dw->kname[h];
				n = dw->knlen[h];
			}
			break;
		case K_STREAM:
			p = dw->sname[h];
			n = dw->snlen[h];
			break;
		case K_CAUSE:
			if ((id = byrank[h]) != 0) {
				p = dw->causes.s[id];
				n = dw->causes.len[id];
			}
			break;
		case K_HEX:
			*hp++ = 13 + 2 * 32;
			ssp_attrjson_hex128((char *)q, w, k[x->part[j].word + 1]);
			q += 32;	/* the NUL is overwritten next */
			continue;
		}
		if (p == NULL) {
			*hp++ = 0;	/* NULL */
			continue;
		}
		if (n > REC_TEXT)
			return 0;
		*hp++ = (unsigned char)(13 + 2 * n);
		memcpy(q, p, n);
		q += n;
	}
	q = rec_int(&hp, q, (int64_t)k[nw]);
	return (size_t)(q - rec);
}

/* An index entry from its sorted key: the key columns, then the row. */
static enum ssp_status
d_entry(struct ssp_direct *dw, const struct dindex *x,
    const uint64_t *k, unsigned nw, const uint32_t *byrank)
{
	/* header (< 10 bytes), XPARTS texts or 8-byte integers, the row,
	 * and room for a last 8-byte store or trace_hex's NUL */
	unsigned char rec[16 + XPARTS * (REC_TEXT + 32) + 16];
	struct ssp_value v[XPARTS + 1];
	uint32_t h, id;
	char hex[33];
	unsigned j;
	size_t n;

	if ((n = entry_rec(dw, x, k, nw, byrank, rec)) > 0) {
		if (ssp_btree_entry_rec(x->tree, rec, n) != SSP_OK)
			return bt_fail(dw);
		return SSP_OK;
	}
	for (j = 0; j < x->np; j++) {
		uint64_t w = k[x->part[j].word];

		h = (uint32_t)(x->part[j].half == 1 ? w >> 32 : w);
		switch (x->part[j].enc) {
		case K_INT:
			v[j] = ssp_value_int(unflip(w));
			break;
		case K_REF:
			v[j] = w != 0 ? ssp_value_int(unflip(w)) : ssp_value_null();
			break;
		case K_RUN:
			v[j] = ssp_value_int(h);
			break;
		case K_KIND:
			v[j] = h != 0 ? ssp_value_text(dw->kname[h], dw->knlen[h]) :
			    ssp_value_null();
			break;
		case K_STREAM:
			v[j] = ssp_value_text(dw->sname[h], dw->snlen[h]);
			break;
		case K_CAUSE:
			id = byrank[h];
			v[j] = id != 0 ? ssp_value_text(dw->causes.s[id],
			    dw->causes.len[id]) : ssp_value_null();
			break;
		case K_HEX:
			ssp_attrjson_hex128(hex, w, k[x->part[j].word + 1]);
			v[j] = ssp_value_text(hex, 32);	/* one K_HEX column at most */
			break;
		}
	}
	v[j++] = ssp_value_int((int64_t)k[nw]);
	if (ssp_btree_entry(x->tree, v, j) != SSP_OK)
		return bt_fail(dw);
	return SSP_OK;
}

static const struct cdict *cmp_dict;

static int
cmp_cause(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	size_t n = cmp_dict->len[x] < cmp_dict->len[y] ? cmp_dict->len[x] :
	    cmp_dict->len[y];
	int c = memcmp(cmp_dict->s[x], cmp_dict->s[y], n);

	if (c != 0)
		return c;
	return cmp_dict->len[x] < cmp_dict->len[y] ? -1 :
	    cmp_dict->len[x] > cmp_dict->len[y];
}

/*
 * The orphans' causes were numbered as they came; the index wants them in
 * text order.  Renumber by rank and sort again when the orders differ.
 * Sets *byrank (rank -> string id) and may replace the sorter.
 */
static enum ssp_status
rank_causes(struct ssp_direct *dw, struct dindex *x, uint32_t **byrank,
    unsigned *nw)
{
		struct cdict *d = &dw->causes;
	struct ssp_ksort *ks = x->ks, *ns;
	const struct dpart *c = &x->part[x->cause];
	uint32_t *order, *rank, i;
	const uint64_t *k;
	int same = 1;

	order = calloc(d->n + 1, sizeof(*order));
	rank = calloc(d->n + 1, sizeof(*rank));
	if (order == NULL || rank == NULL)
		goto nomem;
	for (i = 0; i <= d->n; i++)
		order[i] = i;
	cmp_dict = d;
	qsort(order + 1, d->n, sizeof(*order), cmp_cause);
	for (i = 0; i <= d->n; i++) {
		rank[order[i]] = i;
		same &= order[i] == i;
	}
	*byrank = order;
	if (same) {
		free(rank);
		return ssp_ksort_done(ks);
	}
	/* the cause's rank in its place, the row a key word too: the input
	 * is no longer in row order */
	if ((ns = ssp_ksort_new(x->nw + 1, dw->sort_mem, &dw->pool)) == NULL)
		goto nomem;
	if (ssp_ksort_done(ks) != SSP_OK) {
		ssp_ksort_free(ns);
		free(rank);
		return ssp_ksort_status(ks);
	}
	while ((k = ssp_ksort_next(ks)) != NULL) {
		uint64_t nk[8], w = k[c->word];

		memcpy(nk, k, x->nw * sizeof(*nk));
		nk[c->word] = c->half == 1 ?
		    (uint64_t)rank[w >> 32] << 32 | (w & 0xffffffff) :
		    (w & ~0xffffffffull) | rank[w & 0xffffffff];
		nk[x->nw] = nk[x->nw + 1] = k[x->nw];
		if (ssp_ksort_add(ns, nk) != SSP_OK)
			break;
	}
	free(rank);
	if (ssp_ksort_status(ks) != SSP_OK || ssp_ksort_status(ns) != SSP_OK) {
		int st = ssp_ksort_status(ks) != SSP_OK ? ssp_ksort_status(ks) :
		    ssp_ksort_status(ns);

		ssp_ksort_free(ns);
		return st;
	}
	ssp_ksort_free(ks);
	x->ks = ns;
	*nw = x->nw + 1;
	return ssp_ksort_done(ns);
nomem:
	free(order);
	free(rank);
	return SSP_ERR_NOMEM;
}

/* --- the indexes from sorted keys ----------------------------------------- */

/* The first key column of sorted key a that differs from b (x->np:
 * none). */
static unsigned
key_change(const struct dindex *x, const uint64_t *a, const uint64_t *b)
{
	unsigned j;

	for (j = 0; j < x->np; j++) {
		const struct dpart *p = &x->part[j];
		uint64_t m = p->half == 0 ? ~0ull : p->half == 1 ?
		    ~0ull << 32 : 0xffffffffull;

		if (((a[p->word] ^ b[p->word]) & m) != 0 ||
		    (p->enc == K_HEX && a[p->word + 1] != b[p->word + 1]))
			break;
	}
	return j;
}

/* An index from its sorted keys. */
static enum ssp_status
d_index(struct ssp_direct *dw, struct dindex *x)
{
	const uint64_t *k;
	uint64_t prev[8];
	uint32_t *byrank = NULL;
	unsigned nw = x->nw;
	int r;

	if (x->bad)
		return add_reindex(dw, x->name);
	/* the statistics ANALYZE reads whole (stat1.h) */
	x->st.ncols = x->np;
	x->st_on = ssp_ksort_count(x->ks) <= SSP_SCHEMA_ANALYSIS_LIMIT;
	r = x->sorted ? ssp_ksort_status(x->ks) : x->cause >= 0 ?
	    rank_causes(dw, x, &byrank, &nw) : ssp_ksort_done(x->ks);
	while (r == SSP_OK && (k = ssp_ksort_next(x->ks)) != NULL) {
		if (x->st_on) {
			ssp_stat1_add(&x->st, key_change(x, k, prev));
			memcpy(prev, k, x->nw * sizeof(*k));
		}
		r = d_entry(dw, x, k, nw, byrank);
	}
	if (r == SSP_OK)
		r = ssp_ksort_status(x->ks);
	free(byrank);
	ssp_ksort_free(x->ks);
	x->ks = NULL;
	if (r != SSP_OK && dw->e != NULL && dw->e->code == SSP_OK)
		ssp_err_set(dw->e, r, 0, "%s: index %s: %s", dw->name,
		    x->name, r == SSP_ERR_NOMEM ? "out of memory" :
		    strerror(errno));
	return r;
}

/* --- the tables of few rows -------------------------------------------------- */

/* SQLite's order of two values (BINARY collation; no REALs here). */
static int
value_cmp(const struct ssp_value *a, const struct ssp_value *b)
{
	int ca = a->type == SQLITE_NULL ? 0 : a->type == SQLITE_INTEGER ? 1 :
	    a->type == SQLITE_TEXT ? 2 : 3;
	int cb = b->type == SQLITE_NULL ? 0 : b->type == SQLITE_INTEGER ? 1 :
	    b->type == SQLITE_TEXT ? 2 : 3;
	size_t n = a->n < b->n ? a->n : b->n;
	int c;

	if (ca != cb)
		return ca < cb ? -1 : 1;
	if (ca == 0)
		return 0;
	if (ca == 1)
		return a->i < b->i ? -1 : a->i > b->i;
	if (n > 0 && (c = memcmp(a->p, b->p, n)) != 0)
		return c;
	return a->n < b->n ? -1 : a->n > b->n;
}

struct sentry {			/* an index entry of a table of few rows */
	unsigned n;		/* values: the key columns, the row */
	struct ssp_value v[XPARTS + 1];
};

static int
cmp_sentry(const void *pa, const void *pb)
{
	const struct sentry *a = pa, *b = pb;
	unsigned j;
	int c;

	for (j = 0; j < a->n; j++)
		if ((c = value_cmp(&a->v[j], &b->v[j])) != 0)
			return c;
	return 0;
}

/* A row of a table of few rows, kept with copies of its text. */
static enum ssp_status
keep_row(struct ssp_direct *dw, unsigned t, int64_t row,
    const struct ssp_value *v)
{
	struct frow *f;
	unsigned j;

	if ((dw->nfew[t] & (dw->nfew[t] + 1)) == 0 &&
	    (f = realloc(dw->few[t], 2 * (dw->nfew[t] + 1) * sizeof(*f))) != NULL)
		dw->few[t] = f;
	else if ((dw->nfew[t] & (dw->nfew[t] + 1)) == 0)
		return ssp_err_set(dw->e, SSP_ERR_NOMEM, 0, "out of memory");
	f = &dw->few[t][dw->nfew[t]++];
	f->id = row;
	for (j = 0; j < ssp_rows_tables[t].ncols; j++) {
		char *p = NULL;

		f->v[j] = v[j];
		if (v[j].type != SQLITE_TEXT && v[j].type != SQLITE_BLOB)
			continue;
		if ((p = malloc(v[j].n + 1)) != NULL && v[j].n > 0)
			memcpy(p, v[j].p, v[j].n);
		f->v[j].p = p;
		if (p == NULL) {
			f->v[j] = ssp_value_null();
			return ssp_err_set(dw->e, SSP_ERR_NOMEM, 0,
			    "out of memory");
		}
	}
	return SSP_OK;
}

/* The rows of table t of few rows, and its indexes from their entries
 * sorted in memory. */
static enum ssp_status
write_few(struct ssp_direct *dw, unsigned t)
{
	struct sentry *ent;
	enum ssp_status r = SSP_OK;
	size_t i, n = dw->nfew[t];
	unsigned x, j;

	for (i = 0; i < n; i++)
		if ((r = d_row(dw, t, dw->few[t][i].id, dw->few[t][i].v)) != SSP_OK)
			return r;
	dw->nrows[t] += n;
	if (n == 0)
		return SSP_OK;
	if ((ent = calloc(n, sizeof(*ent))) == NULL)
		return ssp_err_set(dw->e, SSP_ERR_NOMEM, 0, "out of memory");
	for (x = 0; x < dw->nsx && r == SSP_OK; x++) {
		struct sindex *sx = &dw->sx[x];

		if (sx->t != t)
			continue;
		for (i = 0; i < n; i++) {
			for (j = 0; j < sx->np; j++)
				ent[i].v[j] = dw->few[t][i].v[sx->val[j]];
			ent[i].v[j] = ssp_value_int(dw->few[t][i].id);
			ent[i].n = sx->np + 1;
		}
		qsort(ent, n, sizeof(*ent), cmp_sentry);
		sx->st.ncols = sx->np;
		sx->st_on = n <= SSP_SCHEMA_ANALYSIS_LIMIT;
		for (i = 0; i < n && r == SSP_OK; i++) {
			for (j = 0; i > 0 && j < sx->np; j++)
				if (value_cmp(&ent[i].v[j], &ent[i - 1].v[j]) != 0)
					break;
			ssp_stat1_add(&sx->st, j);
			if (ssp_btree_entry(sx->tree, ent[i].v, ent[i].n) != SSP_OK)
				r = bt_fail(dw);
		}
	}
	free(ent);
	return r;
}

/* --- the statistics written -------------------------------------------------- */

/* The rows written into table name (stat1.h). */
static uint64_t
table_rows(void *ctx, const char *name)
{
	const struct ssp_direct *dw = ctx;
	unsigned t = row_table(name);

	if (t < T_N)
		return dw->nrows[t];
	for (t = 0; t < dw->nft; t++)
		if (dw->attr[t] != NULL && strcmp(dw->attr[t]->table, name) == 0)
			return dw->arows[t];
	return 0;
}

/* The statistics of the index name, if the writer built it. */
static const struct ssp_stat1 *
index_stat(void *ctx, const char *name)
{
	const struct ssp_direct *dw = ctx;
	unsigned x;

	for (x = 0; x < dw->nix; x++)
		if (strcmp(dw->ix[x].name, name) == 0)
			return &dw->ix[x].st;
	for (x = 0; x < dw->nsx; x++)
		if (strcmp(dw->sx[x].name, name) == 0)
			return &dw->sx[x].st;
	return NULL;
}

/*
 * The sqlite_stat1 table of the image, if every statistic ANALYZE would
 * give is known: nothing REINDEXed, every index counted (few enough
 * entries).  Else NULL: SQLite analyzes the file.
 */
static const struct ssp_catalog_table *
stat_table(const struct ssp_direct *dw)
{
	const struct ssp_catalog_table *st = ssp_catalog_table(dw->cat,
	    "sqlite_stat1");
	unsigned x;

	if (st == NULL || !st->rowid || st->root < 2 || st->ncols != 3 ||
	    dw->nreindex != 0)
		return NULL;
	for (x = 0; x < dw->nix; x++)
		if (!dw->ix[x].st_on)
			return NULL;
	for (x = 0; x < dw->nsx; x++)
		if (!dw->sx[x].st_on)
			return NULL;
	return st;
}

static enum ssp_status
write_stats(struct ssp_direct *dw, const struct ssp_catalog_table *stat)
{
	const struct ssp_stat1_src src = { table_rows, index_stat, dw };
	struct ssp_btree_tree *tree;

	if ((tree = ssp_btree_table(dw->bt, stat->root)) == NULL ||
	    ssp_stat1_write(dw->cat, &src, tree) != SSP_OK)
		return bt_fail(dw);
	return SSP_OK;
}

/* --- the writer ---------------------------------------------------------------- */

static const struct ssp_rows_ops direct_ops;

enum ssp_status
ssp_direct_plan(struct ssp_direct **dp, const struct ssp_catalog *cat,
    const char *name, const struct ssp_rows_attr *const *attr, unsigned nft,
    int *ok, struct ssp_err *e)
{
	struct ssp_direct *dw;
	enum ssp_status r;
	unsigned t, u;

	SSP_ASSERT(dp != NULL && cat != NULL && name != NULL && ok != NULL);
	SSP_ASSERT(attr != NULL || nft == 0);
	*dp = NULL;
	*ok = 0;
	if ((dw = calloc(1, sizeof(*dw))) == NULL ||
	    (dw->name = strdup(name)) == NULL ||
	    (dw->aroot = calloc(nft + 1, sizeof(*dw->aroot))) == NULL ||
	    (dw->atab = calloc(nft + 1, sizeof(*dw->atab))) == NULL ||
	    (dw->arows = calloc(nft + 1, sizeof(*dw->arows))) == NULL) {
		ssp_direct_free(dw);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	dw->rows.ops = &direct_ops;
	dw->rows.direct = 1;
	dw->e = e;
	dw->cat = cat;
	dw->nft = nft;
	dw->attr = attr;
	/* two record types in one table (kinds newer than this build whose
	 * names differ only in '.' and '_') would be two trees at one root */
	for (t = 0; t < nft; t++)
		for (u = 0; attr[t] != NULL && u < t; u++)
			if (attr[u] != NULL && strcmp(attr[u]->table,
			    attr[t]->table) == 0) {
				ssp_direct_free(dw);
				return SSP_OK;
			}
	if (!check(dw)) {
		ssp_direct_free(dw);
		return SSP_OK;
	}
	if ((r = indexes(dw)) != SSP_OK) {
		ssp_direct_free(dw);
		return r;
	}
	*ok = 1;
	*dp = dw;
	return SSP_OK;
}

/* The image into the empty file path. */
static enum ssp_status
put_image(struct ssp_direct *dw, const char *path, const unsigned char *p,
    size_t n)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), saved;
	ssize_t w;

	if (fd < 0)
		return ssp_err_set(dw->e, SSP_ERR_IO, 0, "%s: %s", dw->name,
		    strerror(errno));
	while (n > 0) {
		if ((w = write(fd, p, n)) < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			saved = w == 0 ? EIO : errno;
			close(fd);
			return ssp_err_set(dw->e, SSP_ERR_IO, 0, "%s: %s",
			    dw->name, strerror(saved));
		}
		p += w;
		n -= (size_t)w;
	}
	if (close(fd) != 0)
		return ssp_err_set(dw->e, SSP_ERR_IO, 0, "%s: %s", dw->name,
		    strerror(errno));
	return SSP_OK;
}

enum ssp_status
ssp_direct_open(struct ssp_direct *dw, const char *path, const void *image,
    size_t n, const char *const *kinds, const char *const *streams,
    size_t nstreams, size_t sort_mem)
{
	enum ssp_status r;
	unsigned t, x;

	SSP_ASSERT(dw != NULL && path != NULL && dw->bt == NULL);
	SSP_ASSERT(kinds != NULL || dw->nft == 0);
	SSP_ASSERT(streams != NULL || nstreams == 0);
	if ((dw->path = strdup(path)) == NULL)
		return ssp_err_set(dw->e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((image != NULL && (r = put_image(dw, path, image, n)) != SSP_OK) ||
	    (r = ssp_btree_open(&dw->bt, path, dw->name, 0, dw->e)) != SSP_OK ||
	    (r = ranks(dw, kinds, streams, nstreams)) != SSP_OK)
		return r;
	for (t = 0; t < T_N; t++)
		if ((dw->tab[t] = ssp_btree_table(dw->bt, dw->troot[t])) == NULL)
			return bt_fail(dw);
	for (t = 0; t < dw->nft; t++)
		if (dw->attr[t] != NULL &&
		    (dw->atab[t] = ssp_btree_table(dw->bt, dw->aroot[t])) == NULL)
			return bt_fail(dw);
	dw->nstreams = nstreams;
	/* sort_mem bounds it all: keys held (4/5, shared by the sorters) and
	 * the radix scratch of the one chunk being sorted (1/5, a sorter's
	 * chunk at most); a sorter whose chunk is full spills it */
	dw->sort_mem = sort_mem / 5;
	dw->pool = sort_mem - dw->sort_mem;
	for (x = 0; x < dw->nix; x++) {
		t = dw->ix[x].t;
		dw->tix[t][dw->ntix[t]++] = (unsigned char)x;
		if ((dw->ix[x].tree = ssp_btree_index(dw->bt, dw->ix[x].root)) ==
		    NULL)
			return bt_fail(dw);
		if ((dw->ix[x].ks = ssp_ksort_new(dw->ix[x].nw, dw->sort_mem,
		    &dw->pool)) == NULL)
			return ssp_err_set(dw->e, SSP_ERR_NOMEM, 0,
			    "out of memory");
	}
	for (x = 0; x < dw->nsx; x++)
		if ((dw->sx[x].tree = ssp_btree_index(dw->bt, dw->sx[x].root)) ==
		    NULL)
			return bt_fail(dw);
	return SSP_OK;
}

struct ssp_rows *
ssp_direct_rows(struct ssp_direct *dw)
{
	SSP_ASSERT(dw != NULL && dw->bt != NULL);
	return &dw->rows;
}

/* A row of table t (rows.h): into its table, its keys to the sorters;
 * kept until the end for a table of few rows. */
static enum ssp_status
direct_row(struct ssp_rows *w, unsigned t, int64_t row, struct ssp_value *v,
    int ft, uint32_t stream)
{
	struct ssp_direct *dw = (struct ssp_direct *)w;
	enum ssp_status r;
	uint32_t kind = 0;
	int64_t dur;
	unsigned i;

	SSP_ASSERT(t < T_N && v != NULL);
	if (ssp_rows_tables[t].few)
		return keep_row(dw, t, row, v);
	if (ft >= 0 && (unsigned)ft < dw->nft)
		kind = dw->krank[ft];
	else	/* by the name of its K_KIND value */
		for (i = 0; i < ssp_rows_tables[t].ncols; i++)
			if (keyenc[t][i] == K_KIND && v[i].type == SQLITE_TEXT)
				kind = kind_rank(dw, v[i].p, v[i].n);
	/* traces.dur_ps as SQLite computes it (a difference that overflows
	 * would be a REAL: NULL here, the index REINDEXed) */
	if (t == T_TRACES) {
		v[SSP_TRACES_DUR_PS] = ssp_value_null();
		if (v[SSP_TRACES_START_PS].type == SQLITE_INTEGER &&
		    v[SSP_TRACES_END_PS].type == SQLITE_INTEGER &&
		    !__builtin_sub_overflow(v[SSP_TRACES_END_PS].i,
		    v[SSP_TRACES_START_PS].i, &dur))
			v[SSP_TRACES_DUR_PS] = ssp_value_int(dur);
	}
	if ((r = d_row(dw, t, row, v)) != SSP_OK)
		return r;
	dw->nrows[t]++;
	return d_keys(dw, t, v, kind, stream < dw->nstreams ?
	    dw->srank[stream] : 0, row);
}

static enum ssp_status
direct_attr(struct ssp_rows *w, unsigned ft, int64_t row,
    const struct ssp_value *v)
{
	struct ssp_direct *dw = (struct ssp_direct *)w;

	SSP_ASSERT(ft < dw->nft && dw->atab[ft] != NULL);
	if (ssp_btree_row(dw->atab[ft], row, v, dw->attr[ft]->ncols) != SSP_OK)
		return bt_fail(dw);
	dw->arows[ft]++;
	return SSP_OK;
}

/* An index the helper thread may sort: complete (not of traces), all
 * its keys in memory (a sort that merges spilled chunks takes from the
 * memory pool, which the caller's sorters share), causes not to rank. */
static int
presortable(const struct ssp_direct *dw, const struct dindex *x)
{
	return x->t != T_TRACES && x->ks != NULL && !x->bad && x->cause < 0 &&
	    ssp_ksort_spills(x->ks) == 0 && dw->sort_mem > 0;
}

static void *
presort(void *arg)
{
	struct ssp_direct *dw = arg;
	unsigned x;

	for (x = 0; x < dw->nix; x++)
		if (presortable(dw, &dw->ix[x])) {
			/* its status is kept, d_index() looks */
			if (ssp_ksort_done(dw->ix[x].ks) != SSP_OK)
				continue;
			dw->ix[x].sorted = 1;
		}
	ssp_ksort_drop_scratch();
	return NULL;
}

/* More than one CPU to run on. */
static int
cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	return CPU_COUNT(&set);
}

/*
 * The rows of every table but traces are in: their index keys are sorted
 * by a helper thread (when this process may run on more than one CPU and
 * there are enough keys to pay for a thread) while the caller writes the
 * traces.
 */
#define PRESORT_MIN	(1u << 16)	/* keys, over the indexes */

static enum ssp_status
direct_traces(struct ssp_rows *w)
{
	struct ssp_direct *dw = (struct ssp_direct *)w;
	uint64_t keys = 0;
	unsigned x, n = 0;

	for (x = 0; x < dw->nix; x++)
		if (presortable(dw, &dw->ix[x])) {
			n++;
			keys += ssp_ksort_count(dw->ix[x].ks);
		}
	if (n == 0 || keys < PRESORT_MIN || dw->sorting || cpus() < 2)
		return SSP_OK;	/* sorted one by one in d_index */
	/* no thread (ulimit -v, RLIMIT_NPROC): the keys are sorted one by
	 * one in d_index, as on one CPU */
	if (pthread_create(&dw->sorter, NULL, presort, dw) == 0)
		dw->sorting = 1;
	return SSP_OK;
}

/* The helper thread's sorts are over. */
static void
presorted(struct ssp_direct *dw)
{
	if (dw->sorting) {
		pthread_join(dw->sorter, NULL);
		dw->sorting = 0;
	}
}

/*
 * The tables of few rows and the indexes, the file closed.  When the load
 * has nothing left to do through SQLite (rest 0), no index had to be
 * rebuilt and the statistics are known, the writer writes those too: the
 * file is complete, and SQLite never opens it (*db NULL).  Else SQLite
 * opens it again, in a transaction, for the rest of the load (a pass over
 * rows: a page cache of 16 MiB) and ANALYZE, after it has rebuilt the
 * indexes the writer could not.
 */
static enum ssp_status
direct_finish(struct ssp_rows *w, int rest, sqlite3 **db)
{
	struct ssp_direct *dw = (struct ssp_direct *)w;
	const struct ssp_catalog_table *stat;
	enum ssp_status r;
	sqlite3 *d = NULL;
	unsigned x, t;
	size_t i;

	SSP_ASSERT(db != NULL && dw->bt != NULL);
	*db = NULL;
	presorted(dw);
	for (t = 0; t < T_N; t++)
		if (ssp_rows_tables[t].few && (r = write_few(dw, t)) != SSP_OK)
			return r;
	for (x = 0; x < dw->nix; x++)
		if ((r = d_index(dw, &dw->ix[x])) != SSP_OK)
			return r;
	stat = rest ? NULL : stat_table(dw);
	if (stat != NULL && (r = write_stats(dw, stat)) != SSP_OK)
		return r;
	r = ssp_btree_close(dw->bt, dw->e);
	dw->bt = NULL;
	if (r != SSP_OK || stat != NULL)
		return r;
	if (sqlite3_open_v2(dw->path, &d, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		r = db_fail(dw, d);
		sqlite3_close(d);
		return r;
	}
	if ((r = ssp_dberr_exec(d, "PRAGMA journal_mode = OFF; "
	    "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; "
	    "PRAGMA cache_size = -16384; BEGIN", dw->name, dw->e)) != SSP_OK) {
		sqlite3_close(d);
		return r;
	}
	for (i = 0; i < dw->nreindex; i++) {
		char *sql = sqlite3_mprintf("REINDEX \"%w\"", dw->reindex[i]);

		if (sql == NULL)
			r = ssp_err_set(dw->e, SSP_ERR_NOMEM, 0, "out of memory");
		else
			r = ssp_dberr_exec(d, sql, dw->name, dw->e);
		sqlite3_free(sql);
		if (r != SSP_OK) {
			sqlite3_close(d);
			return r;
		}
	}
	*db = d;
	return SSP_OK;
}

size_t
ssp_direct_reindexed(const struct ssp_direct *dw)
{
	SSP_ASSERT(dw != NULL);
	return dw->nreindex;
}

void
ssp_direct_free(struct ssp_direct *dw)
{
	size_t i, t, j;

	if (dw == NULL)
		return;
	presorted(dw);
	ssp_btree_abort(dw->bt);
	for (i = 0; i < dw->nix; i++)
		ssp_ksort_free(dw->ix[i].ks);
	for (t = 0; t < T_N; t++) {
		for (i = 0; i < dw->nfew[t]; i++)
			for (j = 0; j < ssp_rows_tables[t].ncols; j++)
				if (dw->few[t][i].v[j].type == SQLITE_TEXT ||
				    dw->few[t][i].v[j].type == SQLITE_BLOB)
					free((void *)dw->few[t][i].v[j].p);
		free(dw->few[t]);
	}
	for (i = 0; i < dw->nreindex; i++)
		free(dw->reindex[i]);
	free(dw->reindex);
	free(dw->aroot);
	free(dw->atab);
	free(dw->arows);
	free(dw->krank);
	free(dw->kname);
	free(dw->srank);
	free(dw->sname);
	free(dw->knlen);
	free(dw->snlen);
	cdict_free(&dw->causes);
	free(dw->name);
	free(dw->path);
	free(dw);
}

static void
direct_free(struct ssp_rows *w)
{
	ssp_direct_free((struct ssp_direct *)w);
}

static const struct ssp_rows_ops direct_ops = {
	.row = direct_row,
	.attr = direct_attr,
	.traces = direct_traces,
	.finish = direct_finish,
	.free = direct_free,
};
