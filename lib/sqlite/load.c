#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/idmap.h"
#include "sqlite/attrjson.h"
#include "sqlite/catalog.h"
#include "sqlite/dberr.h"
#include "sqlite/direct.h"
#include "sqlite/image.h"
#include "sqlite/insert.h"
#include "sqlite/load.h"
#include "sqlite/rows.h"
#include "sqlite/schema.h"
#include "sqlite/split.h"

#define SPAN_CACHE	(1u << 18)	/* span ids per generation, at most */
#define TRACE_CACHE	(1u << 15)	/* traces per generation, at most */
#define SPAN_CACHE0	(1u << 12)	/* ... to start with */
#define TRACE_CACHE0	(1u << 10)
#define TICK		4096	/* records between progress calls */
#define SORT_MEM	(128u << 20)	/* index keys in memory, direct writing */

enum { C_SKIP, C_SPAN, C_LINK, C_EVENT };
enum { P_PARENT, P_LINK_SPAN, P_LINK_TARGET, P_EVENT_SPAN };	/* pending refs */

struct ftinfo {			/* what a record type of the file is to us */
	int cls;
	const char *name;	/* span kind or event type */
	unsigned kind;		/* known span kind, or SSP_SK_NKINDS */
	struct ssp_rows_attr *attr;	/* spans: its attribute table, if any */
	uint32_t extra;		/* spans: fields without a column (JSON) */
	int64_t attr_rows;	/* rows written into attr */
};

struct tracev {			/* a trace while it is in the cache */
	int64_t id, root, start, end;
	uint64_t n;
	int32_t root_ft;	/* file type of the root span, -1: none yet */
	int32_t root_stream;
	int32_t in_db;		/* in the private database (evicted before) */
	int32_t resplit;	/* split left to the end (evicted, or huge) */
	struct ssp_split_list ivl;	/* its spans so far */
};

struct trow {			/* a trace row kept in memory at the end */
	struct tracev t;
	uint64_t hi, lo;
	int64_t busy;
	size_t json, slen, klen;	/* its split: streams, kinds in tjson */
};

struct loader {
	sqlite3 *db;		/* the database (NULL while written directly) */
	const struct ssp_catalog *cat;	/* its schema */
	const unsigned char *image;	/* a new one's first pages */
	size_t image_len;
	const char *path;	/* its file, when it is new: written directly */
	const char *dbname;
	struct ssp_rec_rd *rr;
	const struct ssp_load_opts *o;
	struct ssp_load_stats *st;
	struct ssp_err *e;
	int64_t run;
	const char *source;	/* runs.source */
	char when[32];		/* runs.loaded */
	struct ftinfo *ft;
	unsigned nft;
	const struct ssp_rows_attr **attr;	/* by file type */
	const char **kinds;	/* by file type: span kind names, NULL */
	char **streams;
	uint64_t *stream_spans;
	enum ssp_sim *stream_sim;
	size_t nstreams;
	struct ssp_rows *w;	/* the row writer */
	struct ssp_direct *plan;	/* the direct writer until it is w */
	struct ssp_idmap *spans, *traces;
	size_t span_lim, trace_lim, span_max, trace_max;
	int64_t first_span, next_span, next_event, next_trace, next_link;
	int64_t next_meta, next_stream;
	uint64_t npending, nresplit;
	int failed;		/* an error inside an idmap callback: */
	enum ssp_status cbst;	/* ... its status, passed on after it */
	struct ssp_split *split;
	const char *traces_ddl;	/* CREATE TABLE traces, for the private db */
	/*
	 * Traces evicted from the cache, references to spans not (yet) in
	 * the cache, traces to split at the end: a private database, made
	 * when first needed (most loads never do).
	 */
	sqlite3 *aux;
	sqlite3_stmt *ins_trace, *upd_trace, *get_trace, *ins_pending,
	    *ins_resplit;
	struct trow *trows;	/* the traces cached at the end */
	size_t ntrows, captrows;
	struct ssp_buf tjson;
	struct ssp_buf text;	/* cause and extra of the span being written */
	struct ssp_buf etext;	/* attrs of the event being written */
	char addr[SSP_ROWS_ATTR_MAXCOLS][24];	/* addresses as text */
	struct ssp_value av[SSP_ROWS_ATTR_MAXCOLS];	/* an attribute row */
};

/* --- errors ----------------------------------------------------------------- */

static enum ssp_status
nomem(struct loader *L)
{
	return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
}

/* An error in an idmap callback (which returns -1): its status kept for
 * the caller of the idmap to pass on. */
static int
cb_fail(struct loader *L, enum ssp_status st)
{
	L->failed = 1;
	L->cbst = st;
	return -1;
}

static enum ssp_status
lfail_on(struct loader *L, sqlite3 *db)
{
	return ssp_dberr_set(L->e, db, L->dbname);
}

/* A data error of the input, at the current block. */
static enum ssp_status infail(struct loader *L, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static enum ssp_status
infail(struct loader *L, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ssp_err_set(L->e, SSP_ERR_FORMAT, ssp_rec_rd_offset(L->rr),
	    "%s: offset %llu: %s", ssp_rec_rd_name(L->rr),
	    (unsigned long long)ssp_rec_rd_offset(L->rr), msg);
}

static enum ssp_status
prep(struct loader *L, sqlite3 *db, sqlite3_stmt **s, const char *sql)
{
	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, s,
	    NULL) != SQLITE_OK)
		return lfail_on(L, db);
	return SSP_OK;
}

static enum ssp_status
step(struct loader *L, sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		enum ssp_status r = lfail_on(L, sqlite3_db_handle(s));

		sqlite3_reset(s);
		return r;
	}
	sqlite3_reset(s);
	return SSP_OK;
}

/* A new row id from *next; refused at the end of the 64-bit range. */
static enum ssp_status
take_id(struct loader *L, int64_t *next, int64_t *id)
{
	if (*next == INT64_MAX)
		return ssp_err_set(L->e, SSP_ERR_LIMIT, 0, "%s: row ids used up "
		    "(the largest is %" PRId64 ")", L->dbname, INT64_MAX);
	*id = (*next)++;
	return SSP_OK;
}

/* --- the private database ----------------------------------------------- */

static enum ssp_status
aux_open(struct loader *L)
{
	enum ssp_status r;
	sqlite3 *db;

	if (L->aux != NULL)
		return SSP_OK;
	if (sqlite3_open_v2("", &L->aux, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return lfail_on(L, L->aux);
	db = L->aux;
	/* a temporary file on disk once its 16 MiB of cache are full */
	if ((r = ssp_dberr_exec(db, "PRAGMA journal_mode = OFF; PRAGMA "
	    "synchronous = OFF; PRAGMA cache_size = -16384; BEGIN", L->dbname,
	    L->e)) != SSP_OK ||
	    (r = ssp_dberr_exec(db, L->traces_ddl, L->dbname, L->e)) != SSP_OK ||
	    (r = ssp_dberr_exec(db, "CREATE TABLE pending(what INTEGER, row "
	    "INTEGER, ref INTEGER); CREATE TABLE resplit(trace INTEGER PRIMARY "
	    "KEY)", L->dbname, L->e)) != SSP_OK ||
	    (r = prep(L, db, &L->ins_trace, "INSERT INTO traces(id, run, "
	    "trace_id, root, root_kind, root_stream, start_ps, end_ps, spans, "
	    "busy_ps, streams, kinds) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")) != SSP_OK ||
	    (r = prep(L, db, &L->upd_trace, "UPDATE traces SET root = ?4, "
	    "root_kind = ?5, root_stream = ?6, start_ps = ?7, end_ps = ?8, "
	    "spans = ?9, busy_ps = ?10, streams = ?11, kinds = ?12 WHERE id = "
	    "?1")) != SSP_OK ||
	    (r = prep(L, db, &L->ins_resplit, "INSERT OR IGNORE INTO "
	    "resplit(trace) VALUES (?)")) != SSP_OK ||
	    (r = prep(L, db, &L->get_trace, "SELECT id, root, root_kind, "
	    "root_stream, start_ps, end_ps, spans FROM traces WHERE run = ? AND "
	    "trace_id = ?")) != SSP_OK)
		return r;
	return prep(L, db, &L->ins_pending, "INSERT INTO pending(what, row, ref) "
	    "VALUES (?,?,?)");
}

static void
aux_close(struct loader *L)
{
	sqlite3_stmt **s[] = { &L->ins_trace, &L->upd_trace, &L->get_trace,
	    &L->ins_pending, &L->ins_resplit };
	size_t i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		sqlite3_finalize(*s[i]);
		*s[i] = NULL;
	}
	if (L->aux != NULL)
		sqlite3_close(L->aux);
	L->aux = NULL;
}

static enum ssp_status
pending(struct loader *L, int what, int64_t row, uint64_t ref)
{
	enum ssp_status r;

	if ((r = aux_open(L)) != SSP_OK)
		return r;
	sqlite3_bind_int(L->ins_pending, 1, what);
	sqlite3_bind_int64(L->ins_pending, 2, row);
	sqlite3_bind_int64(L->ins_pending, 3, (int64_t)ref);
	L->npending++;
	return step(L, L->ins_pending);
}

/* --- record types ------------------------------------------------------- */

/* Does SQLite store a value of this field encoding unchanged in a column
 * of this affinity?  (Then writing it directly gives the same row.) */
static int
stored_as_is(char enc, char aff)
{
	if (enc == SSP_ENC_S || enc == SSP_ENC_A || enc == SSP_ENC_M)
		return aff == 't' || aff == 'b';
	return aff == 'i' || aff == 'n' || aff == 'b';
}

static void
attr_free(struct ssp_rows_attr *a)
{
	unsigned i;

	if (a == NULL)
		return;
	for (i = 0; i < a->ncols; i++)
		free(a->col[i]);
	free(a);
}

/*
 * The attribute table of a span kind: its stored columns are matched by
 * name to the record's fields; fields without a column go to spans.extra.
 * No such table: everything in spans.extra.
 */
static enum ssp_status
setup_kind(struct loader *L, struct ftinfo *fi, const struct ssp_rec_type *ty)
{
	const struct ssp_catalog_table *ct;
	struct ssp_rows_attr *a;
	unsigned k, npk = 0, i;
	char *p;

	fi->extra = ssp_attrjson_from(SSP_SF_NCOMMON, ty->nf);
	if ((a = calloc(1, sizeof(*a))) == NULL)
		return nomem(L);
	snprintf(a->table, sizeof(a->table), "attr_%s", fi->name);
	for (p = a->table; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
	if ((ct = ssp_catalog_table(L->cat, a->table)) == NULL) {
		attr_free(a);
		return SSP_OK;
	}
	a->direct = 1;
	for (i = 0; i < ct->ncols; i++) {
		const struct ssp_catalog_col *col = &ct->col[i];
		unsigned c = a->ncols;

		if (col->hidden != 0) {
			a->direct = 0;	/* generated: never inserted */
			continue;
		}
		if (c == SSP_ROWS_ATTR_MAXCOLS) {
			attr_free(a);
			return ssp_err_set(L->e, SSP_ERR_LIMIT, 0, "%s: %s: more "
			    "than %d columns", L->dbname, ct->name,
			    SSP_ROWS_ATTR_MAXCOLS);
		}
		if ((a->col[c] = strdup(col->name)) == NULL) {
			attr_free(a);
			return nomem(L);
		}
		a->ncols++;
		if (col->dflt)
			a->direct = 0;	/* a default value */
		if (col->pk != 0 || strcmp(col->name, "span") == 0) {
			/* the span's row id: "span INTEGER PRIMARY KEY" */
			if (col->pk == 0 || npk++ > 0 ||
			    strcmp(col->type, "INTEGER") != 0)
				a->direct = 0;
			a->field[c] = SSP_ROWS_ATTR_SPAN;
			continue;
		}
		a->field[c] = SSP_ROWS_ATTR_NONE;
		for (k = SSP_SF_NCOMMON; k < ty->nf; k++)
			if ((fi->extra & (1u << k)) &&
			    strcmp(ty->f[k].name, col->name) == 0)
				break;
		if (k == ty->nf)
			continue;	/* absent from this stream: NULL */
		fi->extra &= ~(1u << k);
		a->field[c] = (int)k;
		if (!stored_as_is(ty->f[k].enc, ssp_direct_affinity(col->type)))
			a->direct = 0;
	}
	if (npk != 1)
		a->direct = 0;
	if (a->ncols > 0) {
		fi->attr = a;
		a = NULL;
	}
	attr_free(a);
	return SSP_OK;
}

/* Classify the file's record types once. */
static enum ssp_status
classify(struct loader *L)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(L->rr);
	const struct ssp_rec_type *sk = &ssp_span_schema(0)->types[0];
	unsigned t, k;

	L->nft = fs->ntypes;
	if ((L->ft = calloc(L->nft + 1, sizeof(*L->ft))) == NULL ||
	    (L->attr = calloc(L->nft + 1, sizeof(*L->attr))) == NULL ||
	    (L->kinds = calloc(L->nft + 1, sizeof(*L->kinds))) == NULL)
		return nomem(L);
	for (t = 0; t < fs->ntypes; t++) {
		const struct ssp_rec_type *ty = &fs->types[t];
		struct ftinfo *fi = &L->ft[t];
		int known = ssp_rec_schema_find(ssp_span_schema(1), ty->name);

		fi->kind = SSP_SK_NKINDS;
		if (known >= 0 && known < SSP_SK_NKINDS) {
			fi->cls = C_SPAN;
			fi->kind = (unsigned)known;
			fi->name = ty->name;
		} else if (known == SSP_SPAN_T_LINK) {
			fi->cls = C_LINK;
		} else if (strncmp(ty->name, "ev.", 3) == 0 &&
		    ty->nf >= SSP_EF_NCOMMON &&
		    strcmp(ty->f[SSP_EF_SPAN].name, "span") == 0 &&
		    ty->f[SSP_EF_SPAN].enc == SSP_ENC_X &&
		    strcmp(ty->f[SSP_EF_STREAM].name, "stream") == 0 &&
		    ty->f[SSP_EF_STREAM].enc == SSP_ENC_U) {
			fi->cls = C_EVENT;	/* also event types newer than us */
			fi->name = ty->name + 3;
		} else if (known < 0 && ty->nf >= SSP_SF_NCOMMON) {
			/* A span kind newer than this build: common fields first. */
			for (k = 0; k < SSP_SF_NCOMMON; k++)
				if (strcmp(ty->f[k].name, sk->f[k].name) != 0 ||
				    ty->f[k].enc != sk->f[k].enc)
					break;
			if (k == SSP_SF_NCOMMON) {
				fi->cls = C_SPAN;
				fi->name = ty->name;
			}
		}
		if (fi->cls == C_SPAN) {
			enum ssp_status r;

			if ((r = setup_kind(L, fi, ty)) != SSP_OK)
				return r;
			L->attr[t] = fi->attr;
			L->kinds[t] = fi->name;
		}
	}
	return SSP_OK;
}

static int32_t
find_ft(const struct loader *L, const unsigned char *name)
{
	unsigned t;

	for (t = 0; name != NULL && t < L->nft; t++)
		if (L->ft[t].cls == C_SPAN &&
		    strcmp(L->ft[t].name, (const char *)name) == 0)
			return (int32_t)t;
	return -1;
}

static int32_t
find_stream(const struct loader *L, const unsigned char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < L->nstreams; i++)
		if (strcmp(L->streams[i], (const char *)name) == 0)
			return (int32_t)i;
	return -1;
}

/* --- the caches ------------------------------------------------------------ */

struct move {
	struct ssp_idmap *to;
	size_t vsize;
};

static int
move_one(void *ctx, uint64_t hi, uint64_t lo, void *value)
{
	struct move *m = ctx;
	void *v = ssp_idmap_put(m->to, hi, lo);

	if (v == NULL)
		return -1;
	memcpy(v, value, m->vsize);
	return 0;
}

/*
 * A cache is made small and grows fourfold, up to its bound, when it is
 * full and has evicted nothing yet: a small load takes a few hundred KiB
 * (and as little address space: ulimit -v) instead of the 60 MB of full
 * caches.  Every id stays; the entries are placed again in the larger
 * table.  SSP_OK (also when it stays as it is) or SSP_ERR_NOMEM.
 */
static enum ssp_status
grow(struct loader *L, struct ssp_idmap **m, size_t *lim, size_t max,
    size_t vsize, ssp_idmap_evict_fn evict)
{
	struct move mv = { NULL, vsize };
	size_t nl;

	if (*lim >= max || ssp_idmap_count(*m) < *lim ||
	    ssp_idmap_evicted(*m) > 0)
		return SSP_OK;
	nl = *lim > max / 4 ? max : *lim * 4;
	if ((mv.to = ssp_idmap_new(vsize, nl, evict, L)) == NULL)
		return nomem(L);
	if (ssp_idmap_drain(*m, move_one, &mv) != 0) {
		ssp_idmap_free(mv.to);	/* not reached: the new one is larger */
		return nomem(L);
	}
	ssp_idmap_free(*m);
	*m = mv.to;
	*lim = nl;
	return SSP_OK;
}

/* Row of a span id of this run, 0 if not seen (recently). */
static int64_t
span_row(struct loader *L, uint64_t id)
{
	int64_t *v = ssp_idmap_get(L->spans, 0, id);

	return v != NULL ? *v : 0;
}

/* --- traces ------------------------------------------------------------------ */

/* A trace's split into the private database's row (a trace evicted from
 * the cache: written, or its row updated if it was there before). */
static int
write_trace(void *ctx, uint64_t hi, uint64_t lo, void *value)
{
	struct loader *L = ctx;
	struct tracev *t = value;
	sqlite3_stmt *s;
	const char *js, *jk;
	size_t ls, lk;
	char hex[33];
	int64_t busy = 0;

	enum ssp_status r;

	if ((r = aux_open(L)) != SSP_OK)
		return cb_fail(L, r);
	s = t->in_db ? L->upd_trace : L->ins_trace;
	if (!t->resplit && (busy = ssp_split_run(L->split, t->ivl.v,
	    t->ivl.n)) < 0)
		return cb_fail(L, nomem(L));
	ssp_split_drop(L->split, &t->ivl);
	ssp_attrjson_hex128(hex, hi, lo);
	sqlite3_bind_int64(s, 1, t->id);
	if (!t->in_db) {
		sqlite3_bind_int64(s, 2, L->run);
		sqlite3_bind_text(s, 3, hex, 32, SQLITE_STATIC);
	}
	if (t->root_ft >= 0) {
		sqlite3_bind_int64(s, 4, t->root);
		sqlite3_bind_text(s, 5, L->ft[t->root_ft].name, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 6, L->streams[t->root_stream], -1,
		    SQLITE_STATIC);
	} else {
		sqlite3_bind_null(s, 4);
		sqlite3_bind_null(s, 5);
		sqlite3_bind_null(s, 6);
	}
	sqlite3_bind_int64(s, 7, t->start);
	sqlite3_bind_int64(s, 8, t->end);
	sqlite3_bind_int64(s, 9, (int64_t)t->n);
	if (t->resplit) {
		sqlite3_bind_null(s, 10);
		sqlite3_bind_null(s, 11);
		sqlite3_bind_null(s, 12);
	} else {
		js = ssp_split_json(L->split, 0, &ls);
		jk = ssp_split_json(L->split, 1, &lk);
		sqlite3_bind_int64(s, 10, busy);
		sqlite3_bind_text(s, 11, js, (int)ls, SQLITE_STATIC);
		sqlite3_bind_text(s, 12, jk, (int)lk, SQLITE_STATIC);
	}
	return (r = step(L, s)) == SSP_OK ? 0 : cb_fail(L, r);
}

/* Leave the split of a trace to resplit_all(). */
static enum ssp_status
mark_resplit(struct loader *L, struct tracev *t)
{
	enum ssp_status r;

	ssp_split_drop(L->split, &t->ivl);
	t->resplit = 1;
	L->nresplit++;
	if ((r = aux_open(L)) != SSP_OK)
		return r;
	sqlite3_bind_int64(L->ins_resplit, 1, t->id);
	return step(L, L->ins_resplit);
}

static void
free_trace(struct loader *L, struct tracev *t)
{
	ssp_split_drop(L->split, &t->ivl);
}

static int
free_trace_cb(void *ctx, uint64_t hi, uint64_t lo, void *value)
{
	(void)hi;
	(void)lo;
	free_trace(ctx, value);
	return 0;
}

/* The status of an idmap call that gave NULL: its callback's, else it
 * ran out of memory. */
static enum ssp_status
map_fail(struct loader *L)
{
	return L->failed ? L->cbst : nomem(L);
}

/* The trace of a span into *tp: from the cache, from the private database
 * (written when it was evicted), or new. */
static enum ssp_status
trace_of(struct loader *L, uint64_t hi, uint64_t lo, struct tracev **tp)
{
	struct tracev *t = ssp_idmap_get(L->traces, hi, lo), v;
	sqlite3_stmt *s = L->get_trace;
	enum ssp_status r;
	char hex[33];
	int rc;

	if ((*tp = t) != NULL)
		return SSP_OK;
	if (L->failed)	/* moving it out of the old generation failed */
		return L->cbst;
	if (ssp_idmap_evicted(L->traces) > 0 && L->aux != NULL) {
		ssp_attrjson_hex128(hex, hi, lo);
		sqlite3_bind_int64(s, 1, L->run);
		sqlite3_bind_text(s, 2, hex, 32, SQLITE_STATIC);
		if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			memset(&v, 0, sizeof(v));
			v.id = sqlite3_column_int64(s, 0);
			v.root = sqlite3_column_int64(s, 1);
			v.root_ft = find_ft(L, sqlite3_column_text(s, 2));
			v.root_stream = find_stream(L, sqlite3_column_text(s, 3));
			if (v.root_ft < 0 || v.root_stream < 0)
				v.root_ft = -1;
			v.start = sqlite3_column_int64(s, 4);
			v.end = sqlite3_column_int64(s, 5);
			v.n = (uint64_t)sqlite3_column_int64(s, 6);
			v.in_db = 1;
			sqlite3_reset(s);
			/* Its earlier spans are gone from memory: split it at
			 * the end, from the table. */
			if ((t = ssp_idmap_put(L->traces, hi, lo)) == NULL)
				return map_fail(L);
			*t = v;
			*tp = t;
			return mark_resplit(L, t);
		}
		if (rc != SQLITE_DONE) {
			r = lfail_on(L, L->aux);
			sqlite3_reset(s);
			return r;
		}
		sqlite3_reset(s);
	}
	if ((r = grow(L, &L->traces, &L->trace_lim, L->trace_max,
	    sizeof(struct tracev), write_trace)) != SSP_OK)
		return r;
	if ((t = ssp_idmap_put(L->traces, hi, lo)) == NULL)
		return map_fail(L);
	if ((r = take_id(L, &L->next_trace, &t->id)) != SSP_OK)
		return r;
	t->start = INT64_MAX;
	t->end = INT64_MIN;
	t->root_ft = -1;
	L->st->traces++;
	*tp = t;
	return SSP_OK;
}

/*
 * The traces still in the cache at the end (most of them) are kept in
 * memory rather than written to the private database (the cache bounds
 * how many); the ones evicted before are there.
 */
static int
collect_trace(void *ctx, uint64_t hi, uint64_t lo, void *value)
{
	struct loader *L = ctx;
	struct tracev *t = value;
	struct trow *tr;
	const char *js = NULL, *jk = NULL;
	int64_t busy = 0;

	if (!t->resplit && (busy = ssp_split_run(L->split, t->ivl.v,
	    t->ivl.n)) < 0)
		goto nomem;
	ssp_split_drop(L->split, &t->ivl);
	if (L->ntrows == L->captrows) {
		size_t cap = L->captrows ? 2 * L->captrows : 1024;

		if ((tr = realloc(L->trows, cap * sizeof(*tr))) == NULL)
			goto nomem;
		L->trows = tr;
		L->captrows = cap;
	}
	tr = &L->trows[L->ntrows++];
	tr->t = *t;
	tr->hi = hi;
	tr->lo = lo;
	tr->busy = busy;
	tr->json = L->tjson.len;
	tr->slen = tr->klen = 0;
	if (!t->resplit) {
		js = ssp_split_json(L->split, 0, &tr->slen);
		jk = ssp_split_json(L->split, 1, &tr->klen);
	}
	if (ssp_buf_reserve(&L->tjson, tr->slen + tr->klen + 1) != 0)
		goto nomem;
	if (tr->slen > 0)
		memcpy(L->tjson.p + L->tjson.len, js, tr->slen);
	if (tr->klen > 0)
		memcpy(L->tjson.p + L->tjson.len + tr->slen, jk, tr->klen);
	L->tjson.len += tr->slen + tr->klen;
	return 0;
nomem:
	return cb_fail(L, nomem(L));
}

static int
cmp_trow(const void *a, const void *b)
{
	const struct trow *x = a, *y = b;

	return x->t.id < y->t.id ? -1 : x->t.id > y->t.id;
}

/* A trace row from memory as values (hex: 33 bytes for its id); returns
 * the file type of its root, -1 if none. */
static int
trow_values(struct loader *L, const struct trow *tr, struct ssp_value *v,
    char *hex)
{
	const struct tracev *t = &tr->t;
	const char *j = (const char *)L->tjson.p + tr->json;

	ssp_attrjson_hex128(hex, tr->hi, tr->lo);
	v[SSP_TRACES_ID] = ssp_value_null();
	v[SSP_TRACES_RUN] = ssp_value_int(L->run);
	v[SSP_TRACES_TRACE_ID] = ssp_value_text(hex, 32);
	if (t->root_ft >= 0) {
		v[SSP_TRACES_ROOT] = ssp_value_int(t->root);
		v[SSP_TRACES_ROOT_KIND] = ssp_value_str(L->ft[t->root_ft].name);
		v[SSP_TRACES_ROOT_STREAM] = ssp_value_str(L->streams[t->root_stream]);
	} else {
		v[SSP_TRACES_ROOT] = v[SSP_TRACES_ROOT_KIND] =
		    v[SSP_TRACES_ROOT_STREAM] = ssp_value_null();
	}
	v[SSP_TRACES_START_PS] = ssp_value_int(t->start);
	v[SSP_TRACES_END_PS] = ssp_value_int(t->end);
	v[SSP_TRACES_SPANS] = ssp_value_int((int64_t)t->n);
	if (t->resplit) {
		v[SSP_TRACES_BUSY_PS] = v[SSP_TRACES_STREAMS] =
		    v[SSP_TRACES_KINDS] = ssp_value_null();
	} else {
		v[SSP_TRACES_BUSY_PS] = ssp_value_int(tr->busy);
		v[SSP_TRACES_STREAMS] = ssp_value_text(j, tr->slen);
		v[SSP_TRACES_KINDS] = ssp_value_text(j + tr->slen, tr->klen);
	}
	v[SSP_TRACES_DUR_PS] = ssp_value_null();
	return t->root_ft;
}

/* The traces to the writer in id order: those in memory merged with those
 * in the private database (a trace in both: the one in memory is newer). */
static enum ssp_status
write_traces(struct loader *L)
{
	struct ssp_value v[SSP_ROWS_MAXCOLS];
	sqlite3_stmt *s = NULL;
	size_t i = 0;
	int rc = SQLITE_DONE, c;
	enum ssp_status r = SSP_OK;
	char hex[33];

	if (L->ntrows > 0)
		qsort(L->trows, L->ntrows, sizeof(*L->trows), cmp_trow);
	if (L->aux != NULL) {
		if ((r = prep(L, L->aux, &s, "SELECT id, run, trace_id, root, "
		    "root_kind, root_stream, start_ps, end_ps, spans, busy_ps, "
		    "streams, kinds FROM traces ORDER BY id")) != SSP_OK)
			return r;
		rc = sqlite3_step(s);
	}
	for (;;) {
		int64_t aid = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) :
		    INT64_MAX;

		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			r = lfail_on(L, L->aux);
			break;
		}
		if (i < L->ntrows && L->trows[i].t.id <= aid) {
			int ft = trow_values(L, &L->trows[i], v, hex);

			if ((r = ssp_rows_row(L->w, SSP_ROWS_TRACES,
			    L->trows[i].t.id, v, ft, 0)) != SSP_OK)
				break;
			if (L->trows[i++].t.id == aid)
				rc = sqlite3_step(s);	/* the older row */
			continue;
		}
		if (rc != SQLITE_ROW)
			break;
		/* the columns of the SELECT are those of the enum, in order */
		v[SSP_TRACES_ID] = ssp_value_null();
		for (c = 1; c < SSP_TRACES_DUR_PS; c++) {
			switch (sqlite3_column_type(s, c)) {
			case SQLITE_INTEGER:
				v[c] = ssp_value_int(sqlite3_column_int64(s, c));
				break;
			case SQLITE_TEXT:
				v[c] = ssp_value_text((const char *)
				    sqlite3_column_text(s, c),
				    (size_t)sqlite3_column_bytes(s, c));
				break;
			default:	/* what this loader writes: NULL */
				v[c] = ssp_value_null();
			}
		}
		v[SSP_TRACES_DUR_PS] = ssp_value_null();
		if ((r = ssp_rows_row(L->w, SSP_ROWS_TRACES, aid, v, -1, 0)) !=
		    SSP_OK)
			break;
		rc = sqlite3_step(s);
	}
	sqlite3_finalize(s);
	return r;
}

/* --- rows ------------------------------------------------------------------- */

/* The attribute row of a span: every stored column of its table. */
static enum ssp_status
attr_row(struct loader *L, const struct ftinfo *fi, unsigned ft,
    const struct ssp_rec *r, int64_t row)
{
	const struct ssp_rec_type *t = &ssp_rec_rd_file_schema(L->rr)->types[r->ftag - 1];
	const struct ssp_rows_attr *a = fi->attr;
	struct ssp_value *v = L->av;
	unsigned j;

	for (j = 0; j < a->ncols; j++) {
		int k = a->field[j];
		uint64_t x;
		char enc;
		const char *s;
		size_t n;

		v[j] = ssp_value_null();
		if (k < 0 || (unsigned)k >= r->nf)
			continue;
		x = r->f[k];
		enc = t->f[k].enc;
		if (ssp_attrjson_absent(enc, x))
			continue;
		if (enc == SSP_ENC_S) {
			if ((s = ssp_rec_rd_str(L->rr, x, &n)) != NULL)
				v[j] = ssp_value_text(s, n);
		} else if (enc == SSP_ENC_A || enc == SSP_ENC_M) {
			struct ssp_attrjson w = { L->addr[j], sizeof(L->addr[j]), 0 };

			if (enc == SSP_ENC_A)
				ssp_attrjson_ip(&w, x);
			else
				ssp_attrjson_mac(&w, x);
			v[j] = ssp_value_text(L->addr[j], w.len);
		} else {
			v[j] = ssp_value_int(enc == SSP_ENC_B ? x != 0 : (int64_t)x);
		}
	}
	return ssp_rows_attr(L->w, ft, row, v);
}

/* The fields in mask of r as a JSON object into b (emptied first). */
static enum ssp_status
json_into(struct loader *L, struct ssp_buf *b, const struct ssp_rec *r,
    uint32_t mask, size_t *off, size_t *len)
{
	const struct ssp_rec_type *t = &ssp_rec_rd_file_schema(L->rr)->types[r->ftag - 1];
	size_t n;

	if (ssp_buf_reserve(b, 64) != 0)	/* b->p is not NULL below */
		return nomem(L);
	for (;;) {
		n = ssp_attrjson_fields((char *)b->p + b->len, b->cap - b->len, t,
		    mask, r, L->rr);
		if (n < b->cap - b->len)
			break;
		if (ssp_buf_reserve(b, n + 1) != 0)
			return nomem(L);
	}
	*off = b->len;
	*len = n;
	b->len += n;
	return SSP_OK;
}

static enum ssp_status
add_span(struct loader *L, const struct ssp_rec *r, const struct ftinfo *fi)
{
	struct ssp_value v[SSP_ROWS_MAXCOLS];
	uint64_t sid = r->f[SSP_SF_SPAN], pid = r->f[SSP_SF_PARENT];
	uint64_t stream = r->f[SSP_SF_STREAM];
	int64_t dur = (int64_t)r->f[SSP_SF_DUR];
	int64_t end = (int64_t)((uint64_t)r->ts + (uint64_t)dur);
	unsigned ft = (unsigned)(fi - L->ft);
	int64_t row = 0, parent = 0, *slot;
	struct tracev *t;
	const char *cs;
	size_t cl, off, len;
	enum ssp_status x;

	ssp_idmap_prefetch(L->spans, 0, sid);	/* put below */
	if (stream >= L->nstreams)
		return infail(L, "span record refers to stream %llu; the header "
		    "lists %llu", (unsigned long long)stream,
		    (unsigned long long)L->nstreams);
	if ((x = take_id(L, &L->next_span, &row)) != SSP_OK)
		return x;
	if ((x = trace_of(L, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO],
	    &t)) != SSP_OK)
		return x;
	if (r->ts < t->start)
		t->start = r->ts;
	if (end > t->end)
		t->end = end;
	t->n++;
	if (pid == 0 && t->root_ft < 0) {
		t->root = row;
		t->root_ft = (int32_t)ft;
		t->root_stream = (int32_t)stream;
	}
	if (!t->resplit && (x = ssp_split_add(L->split, &t->ivl, r->ts, end,
	    (uint32_t)stream, ft)) != SSP_OK) {
		/* too long, or the cached traces hold too many: the database
		 * has the spans, split it from there at the end */
		if (x != SSP_ERR_LIMIT)
			return nomem(L);
		if ((x = mark_resplit(L, t)) != SSP_OK)
			return x;
	}
	if (pid != 0 && (parent = span_row(L, pid)) == 0 &&
	    (x = pending(L, P_PARENT, row, pid)) != SSP_OK)
		return x;
	if ((x = grow(L, &L->spans, &L->span_lim, L->span_max, sizeof(int64_t),
	    NULL)) != SSP_OK)
		return x;
	if ((slot = ssp_idmap_put(L->spans, 0, sid)) == NULL)
		return map_fail(L);
	*slot = row;

	L->text.len = 0;
	v[SSP_SPANS_ID] = ssp_value_null();
	v[SSP_SPANS_RUN] = ssp_value_int(L->run);
	v[SSP_SPANS_TRACE] = ssp_value_int(t->id);
	v[SSP_SPANS_PARENT] = ssp_value_ref(parent);
	v[SSP_SPANS_SPAN_ID] = ssp_value_int((int64_t)sid);
	v[SSP_SPANS_KIND] = ssp_value_str(fi->name);
	v[SSP_SPANS_STREAM] = ssp_value_str(L->streams[stream]);
	v[SSP_SPANS_START_PS] = ssp_value_int(r->ts);
	v[SSP_SPANS_DUR_PS] = ssp_value_int(dur);
	v[SSP_SPANS_FLAGS] = ssp_value_int((int64_t)r->f[SSP_SF_FLAGS]);
	v[SSP_SPANS_CAUSE] = ssp_value_null();
	v[SSP_SPANS_EXTRA] = ssp_value_null();
	if (r->f[SSP_SF_CAUSE] != 0 &&
	    (cs = ssp_rec_rd_str(L->rr, r->f[SSP_SF_CAUSE], &cl)) != NULL)
		v[SSP_SPANS_CAUSE] = ssp_value_text(cs, cl);
	if (fi->extra != 0) {
		if ((x = json_into(L, &L->text, r, fi->extra, &off, &len)) != SSP_OK)
			return x;
		if (len > 2)	/* not "{}" */
			v[SSP_SPANS_EXTRA] = ssp_value_text((char *)L->text.p + off,
			    len);
	}
	if ((x = ssp_rows_row(L->w, SSP_ROWS_SPANS, row, v, (int)ft,
	    (uint32_t)stream)) != SSP_OK)
		return x;
	if (fi->attr != NULL) {
		if ((x = attr_row(L, fi, ft, r, row)) != SSP_OK)
			return x;
		L->ft[ft].attr_rows++;
	}
	L->st->spans++;
	if (fi->kind < SSP_SK_NKINDS)
		L->st->kinds[fi->kind]++;
	else
		L->st->other_kinds++;
	L->stream_spans[stream]++;
	return SSP_OK;
}

static enum ssp_status
add_link(struct loader *L, const struct ssp_rec *r)
{
	struct ssp_value v[SSP_ROWS_MAXCOLS];
	uint64_t sid = r->f[SSP_LF_SPAN], tid = r->f[SSP_LF_TARGET];
	int64_t span = span_row(L, sid), target = span_row(L, tid), row = 0;
	const char *k = NULL;
	size_t kl = 0;
	char hex[33];
	enum ssp_status x;

	if ((x = take_id(L, &L->next_link, &row)) != SSP_OK)
		return x;
	ssp_attrjson_hex128(hex, r->f[SSP_LF_TRACE_HI], r->f[SSP_LF_TRACE_LO]);
	if (r->f[SSP_LF_KIND] != 0)
		k = ssp_rec_rd_str(L->rr, r->f[SSP_LF_KIND], &kl);
	v[SSP_LINKS_ID] = ssp_value_null();
	v[SSP_LINKS_RUN] = ssp_value_int(L->run);
	v[SSP_LINKS_SPAN] = ssp_value_ref(span);
	v[SSP_LINKS_TARGET] = ssp_value_ref(target);
	v[SSP_LINKS_KIND] = k != NULL ? ssp_value_text(k, kl) : ssp_value_null();
	v[SSP_LINKS_SPAN_ID] = ssp_value_int((int64_t)sid);
	v[SSP_LINKS_TARGET_SPAN_ID] = ssp_value_int((int64_t)tid);
	v[SSP_LINKS_TARGET_TRACE_ID] = ssp_value_text(hex, 32);
	if ((x = ssp_rows_row(L->w, SSP_ROWS_LINKS, row, v, -1, 0)) != SSP_OK)
		return x;
	if ((span == 0 && (x = pending(L, P_LINK_SPAN, row, sid)) != SSP_OK) ||
	    (target == 0 && (x = pending(L, P_LINK_TARGET, row, tid)) != SSP_OK))
		return x;
	L->st->links++;
	return SSP_OK;
}

static enum ssp_status
add_event(struct loader *L, const struct ssp_rec *r, const struct ftinfo *fi)
{
	struct ssp_value v[SSP_ROWS_MAXCOLS];
	uint64_t sid = r->f[SSP_EF_SPAN], stream = r->f[SSP_EF_STREAM];
	int64_t row = 0, span;
	size_t off, len;
	enum ssp_status x;

	if (stream >= L->nstreams)
		return infail(L, "event record refers to stream %llu; the header "
		    "lists %llu", (unsigned long long)stream,
		    (unsigned long long)L->nstreams);
	if ((x = take_id(L, &L->next_event, &row)) != SSP_OK)
		return x;
	if ((span = span_row(L, sid)) == 0 &&
	    (x = pending(L, P_EVENT_SPAN, row, sid)) != SSP_OK)
		return x;
	L->etext.len = 0;
	if ((x = json_into(L, &L->etext, r, ssp_attrjson_from(SSP_EF_NCOMMON,
	    r->nf), &off, &len)) != SSP_OK)
		return x;
	v[SSP_EVENTS_ID] = ssp_value_null();
	v[SSP_EVENTS_RUN] = ssp_value_int(L->run);
	v[SSP_EVENTS_SPAN] = ssp_value_ref(span);
	v[SSP_EVENTS_TS_PS] = ssp_value_int(r->ts);
	v[SSP_EVENTS_TYPE] = ssp_value_str(fi->name);
	v[SSP_EVENTS_STREAM] = ssp_value_str(L->streams[stream]);
	v[SSP_EVENTS_ATTRS] = ssp_value_text((char *)L->etext.p + off, len);
	if ((x = ssp_rows_row(L->w, SSP_ROWS_EVENTS, row, v, -1,
	    (uint32_t)stream)) != SSP_OK)
		return x;
	L->st->events++;
	return SSP_OK;
}

/* --- after the stream ----------------------------------------------------- */

/* The pending references and traces to split from the private database
 * into temporary tables of the database. */
static enum ssp_status
copy_pending(struct loader *L)
{
	static const char *const copy[][2] = {
		{ "SELECT what, row, ref FROM pending ORDER BY rowid",
		  "INSERT INTO temp.pending(what, row, ref) VALUES (?,?,?)" },
		{ "SELECT trace, 0, 0 FROM resplit",
		  "INSERT OR IGNORE INTO temp.resplit(trace) VALUES (?)" },
	};
	sqlite3_stmt *q = NULL, *u = NULL;
	enum ssp_status r;
	int rc, c;
	size_t i;

	if ((r = ssp_dberr_exec(L->db, "CREATE TEMP TABLE IF NOT EXISTS "
	    "pending(what INTEGER, row INTEGER, ref INTEGER); "
	    "DELETE FROM temp.pending; DROP INDEX IF EXISTS temp.pending_ref; "
	    "CREATE TEMP TABLE IF NOT EXISTS resplit(trace INTEGER PRIMARY KEY); "
	    "DELETE FROM temp.resplit", L->dbname, L->e)) != SSP_OK ||
	    L->aux == NULL)
		return r;
	for (i = 0; i < 2 && r == SSP_OK; i++) {
		if ((r = prep(L, L->aux, &q, copy[i][0])) != SSP_OK ||
		    (r = prep(L, L->db, &u, copy[i][1])) != SSP_OK)
			break;
		while (r == SSP_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
			for (c = 0; c < (i == 0 ? 3 : 1); c++)
				sqlite3_bind_int64(u, c + 1, sqlite3_column_int64(q, c));
			r = step(L, u);
		}
		if (r == SSP_OK && rc != SQLITE_DONE)
			r = lfail_on(L, L->aux);
		sqlite3_finalize(q);
		sqlite3_finalize(u);
		q = u = NULL;
	}
	sqlite3_finalize(q);
	sqlite3_finalize(u);
	return r;
}

/*
 * References to spans that were not in the cache when needed (written
 * later than their user, or long before): one pass over the run's spans.
 */
static enum ssp_status
resolve_pending(struct loader *L)
{
	static const char *const upd[] = {
		[P_PARENT] = "UPDATE spans SET parent = ?1 WHERE id = ?2",
		[P_LINK_SPAN] = "UPDATE links SET span = ?1 WHERE id = ?2",
		[P_LINK_TARGET] = "UPDATE links SET target = ?1 WHERE id = ?2",
		[P_EVENT_SPAN] = "UPDATE events SET span = ?1 WHERE id = ?2",
	};
	sqlite3_stmt *q = NULL, *u[4] = { NULL, NULL, NULL, NULL };
	int64_t last = -1;
	enum ssp_status r;
	int rc, i;

	if (L->npending == 0)
		return SSP_OK;
	if ((r = ssp_dberr_exec(L->db, "CREATE INDEX temp.pending_ref ON "
	    "pending(ref)", L->dbname, L->e)) != SSP_OK)
		return r;
	for (i = 0; i < 4; i++)
		if ((r = prep(L, L->db, &u[i], upd[i])) != SSP_OK)
			goto out;
	/* CROSS JOIN keeps spans outside: one scan of the run's rows. */
	if ((r = prep(L, L->db, &q, "SELECT p.rowid, p.what, p.row, s.id FROM "
	    "spans AS s CROSS JOIN temp.pending AS p ON p.ref = s.span_id "
	    "WHERE s.id BETWEEN ?1 AND ?2 ORDER BY p.rowid, s.id")) != SSP_OK)
		goto out;
	sqlite3_bind_int64(q, 1, L->first_span);
	sqlite3_bind_int64(q, 2, L->next_span - 1);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int what = sqlite3_column_int(q, 1);

		if (what < 0 || what > 3)
			continue;
		if (sqlite3_column_int64(q, 0) != last) {
			last = sqlite3_column_int64(q, 0);
			L->st->late++;
		}
		sqlite3_bind_int64(u[what], 1, sqlite3_column_int64(q, 3));
		sqlite3_bind_int64(u[what], 2, sqlite3_column_int64(q, 2));
		if ((r = step(L, u[what])) != SSP_OK)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		r = lfail_on(L, L->db);
		goto out;
	}
	L->st->unresolved = L->npending - L->st->late;
out:
	sqlite3_finalize(q);
	for (i = 0; i < 4; i++)
		sqlite3_finalize(u[i]);
	return r;
}

/* Splits of the traces that could not be split in memory. */
static enum ssp_status
resplit_all(struct loader *L)
{
	sqlite3_stmt *q = NULL, *u = NULL;
	struct ssp_split_ivl *v = NULL, *nv;
	uint32_t n = 0, cap = 0;
	int64_t cur = 0, busy;
	const char *js, *jk;
	size_t ls, lk;
	enum ssp_status r;
	int rc, more;

	L->st->resplit = L->nresplit;
	if (L->nresplit == 0)
		return SSP_OK;
	if ((r = prep(L, L->db, &q, "SELECT trace, start_ps, end_ps, stream, "
	    "kind FROM spans WHERE id BETWEEN ?1 AND ?2 AND trace IN (SELECT "
	    "trace FROM temp.resplit) ORDER BY trace")) != SSP_OK ||
	    (r = prep(L, L->db, &u, "UPDATE traces SET busy_ps = ?, streams = "
	    "?, kinds = ? WHERE id = ?")) != SSP_OK)
		goto out;
	sqlite3_bind_int64(q, 1, L->first_span);
	sqlite3_bind_int64(q, 2, L->next_span - 1);
	do {
		rc = sqlite3_step(q);
		more = rc == SQLITE_ROW;
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			r = lfail_on(L, L->db);
			goto out;
		}
		if (n > 0 && (!more || sqlite3_column_int64(q, 0) != cur)) {
			if ((busy = ssp_split_run(L->split, v, n)) < 0)
				goto nomem;
			js = ssp_split_json(L->split, 0, &ls);
			jk = ssp_split_json(L->split, 1, &lk);
			sqlite3_bind_int64(u, 1, busy);
			sqlite3_bind_text(u, 2, js, (int)ls, SQLITE_STATIC);
			sqlite3_bind_text(u, 3, jk, (int)lk, SQLITE_STATIC);
			sqlite3_bind_int64(u, 4, cur);
			if ((r = step(L, u)) != SSP_OK)
				goto out;
			n = 0;
		}
		if (more) {
			int32_t st = find_stream(L, sqlite3_column_text(q, 3));
			int32_t ft = find_ft(L, sqlite3_column_text(q, 4));

			cur = sqlite3_column_int64(q, 0);
			if (st < 0 || ft < 0)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				if ((nv = realloc(v, cap * sizeof(*v))) == NULL)
					goto nomem;
				v = nv;
			}
			v[n++] = (struct ssp_split_ivl){ sqlite3_column_int64(q, 1),
			    sqlite3_column_int64(q, 2), (uint32_t)st, (uint32_t)ft };
		}
	} while (more);
	r = SSP_OK;
	goto out;
nomem:
	r = nomem(L);
out:
	sqlite3_finalize(q);
	sqlite3_finalize(u);
	free(v);
	return r;
}

/* Is name a run of the database?  (A new one has none.) */
static enum ssp_status
name_taken(struct loader *L, const char *name, int *taken)
{
	sqlite3_stmt *s;
	enum ssp_status r;
	int rc;

	*taken = 0;
	if (L->db == NULL)
		return SSP_OK;
	if ((r = prep(L, L->db, &s, "SELECT 1 FROM runs WHERE name = ?")) !=
	    SSP_OK)
		return r;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		r = lfail_on(L, L->db);
		sqlite3_finalize(s);
		return r;
	}
	sqlite3_finalize(s);
	*taken = rc == SQLITE_ROW;
	return SSP_OK;
}

/* The run name: given, or "<input base name>@<UTC time>" made unique. */
static enum ssp_status
run_name(struct loader *L, const char *source, const char *when)
{
	char *name = L->st->run_name, base[200];
	size_t cap = sizeof(L->st->run_name);
	const char *slash;
	enum ssp_status r;
	int taken, i;

	if (L->o->run != NULL) {
		if (*L->o->run == '\0' || strlen(L->o->run) >= cap)
			return ssp_err_set(L->e, SSP_ERR_INVAL, 0, "run name must "
			    "have 1 to %zu bytes", cap - 1);
		snprintf(name, cap, "%s", L->o->run);
		if ((r = name_taken(L, name, &taken)) != SSP_OK)
			return r;
		if (taken)
			return ssp_err_set(L->e, SSP_ERR_INVAL, 0, "%s: a run named "
			    "'%s' already exists", L->dbname, name);
		return SSP_OK;
	}
	slash = strrchr(source, '/');
	snprintf(base, sizeof(base), "%s", strcmp(source, "-") == 0 ? "stdin" :
	    slash != NULL && slash[1] != '\0' ? slash + 1 : source);
	for (i = 1; i < 1000; i++) {
		if (i == 1)
			snprintf(name, cap, "%s@%s", base, when);
		else
			snprintf(name, cap, "%s@%s#%d", base, when, i);
		if ((r = name_taken(L, name, &taken)) != SSP_OK)
			return r;
		if (!taken)
			return SSP_OK;
	}
	return ssp_err_set(L->e, SSP_ERR_LIMIT, 0, "%s: too many runs named "
	    "'%s@%s'", L->dbname, base, when);
}

/* The next row id of a table: one above the largest (1 in a new
 * database). */
static enum ssp_status
next_id(struct loader *L, const char *table, int64_t *out)
{
	char sql[64];
	enum ssp_status r;

	*out = 1;
	if (L->db == NULL)
		return SSP_OK;
	snprintf(sql, sizeof(sql), "SELECT max(rowid) FROM %s", table);
	if ((r = ssp_dberr_int(L->db, sql, 0, out, L->dbname, L->e)) != SSP_OK)
		return r;
	if (*out == INT64_MAX || *out < 0)
		return ssp_err_set(L->e, SSP_ERR_LIMIT, 0, "%s: %s: row ids used "
		    "up (the largest is %" PRId64 ")", L->dbname, table, *out);
	(*out)++;
	return SSP_OK;
}

/* The run: its name, its id and those its rows start from, its streams
 * (from the header). */
static enum ssp_status
begin_run(struct loader *L)
{
	time_t now = L->o->now != 0 ? L->o->now : time(NULL);
	struct ssp_span_source *src = NULL;
	enum ssp_status r;
	struct tm tm;
	int n, i, j;

	L->source = L->o->source != NULL ? L->o->source : "-";
	gmtime_r(&now, &tm);
	strftime(L->when, sizeof(L->when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if ((r = run_name(L, L->source, L->when)) != SSP_OK)
		return r;
	if ((n = ssp_span_reader_sources(L->rr, NULL, 0)) < 0)
		return infail(L, "bad stream list in the header");
	src = calloc((size_t)n + 1, sizeof(*src));
	L->streams = calloc((size_t)n + 1, sizeof(*L->streams));
	L->stream_spans = calloc((size_t)n + 1, sizeof(*L->stream_spans));
	L->stream_sim = calloc((size_t)n + 1, sizeof(*L->stream_sim));
	if (src == NULL || L->streams == NULL || L->stream_spans == NULL ||
	    L->stream_sim == NULL) {
		r = nomem(L);
		goto out;
	}
	ssp_span_reader_sources(L->rr, src, (size_t)n);
	for (i = 0; i < n; i++) {
		if ((L->streams[i] = strndup(src[i].name, src[i].namelen)) == NULL) {
			r = nomem(L);
			goto out;
		}
		L->stream_sim[i] = src[i].sim;
		L->nstreams++;
		for (j = 0; j < i; j++)
			if (strcmp(L->streams[i], L->streams[j]) == 0) {
				r = ssp_err_set(L->e, SSP_ERR_FORMAT, 0, "%s: the "
				    "header lists stream '%.100s' twice",
				    ssp_rec_rd_name(L->rr), L->streams[i]);
				goto out;
			}
	}
	if ((r = next_id(L, "runs", &L->run)) != SSP_OK ||
	    (r = next_id(L, "run_meta", &L->next_meta)) != SSP_OK ||
	    (r = next_id(L, "streams", &L->next_stream)) != SSP_OK ||
	    (r = next_id(L, "spans", &L->next_span)) != SSP_OK ||
	    (r = next_id(L, "events", &L->next_event)) != SSP_OK ||
	    (r = next_id(L, "links", &L->next_link)) != SSP_OK ||
	    (r = next_id(L, "traces", &L->next_trace)) != SSP_OK)
		goto out;
	L->st->run = L->run;
	L->first_span = L->next_span;
out:
	free(src);
	return r;
}

/* The run's own rows, with its counts: runs, run_meta (the header's
 * metadata, verbatim) and streams. */
static enum ssp_status
write_run(struct loader *L)
{
	struct ssp_value v[SSP_ROWS_MAXCOLS];
	enum ssp_status r;
	size_t i;

	v[SSP_RUNS_ID] = ssp_value_null();
	v[SSP_RUNS_NAME] = ssp_value_str(L->st->run_name);
	v[SSP_RUNS_SOURCE] = ssp_value_str(L->source);
	v[SSP_RUNS_LOADED] = ssp_value_str(L->when);
	v[SSP_RUNS_TOOL] = ssp_value_str(L->o->tool != NULL ? L->o->tool :
	    "simspan");
	v[SSP_RUNS_SPANS] = ssp_value_int((int64_t)L->st->spans);
	v[SSP_RUNS_LINKS] = ssp_value_int((int64_t)L->st->links);
	v[SSP_RUNS_EVENTS] = L->o->events ?
	    ssp_value_int((int64_t)L->st->events) : ssp_value_null();
	v[SSP_RUNS_TRACES] = ssp_value_int((int64_t)L->st->traces);
	if ((r = ssp_rows_row(L->w, SSP_ROWS_RUNS, L->run, v, -1, 0)) != SSP_OK)
		return r;
	for (i = 0; i < ssp_rec_rd_nmeta(L->rr); i++) {
		const struct ssp_meta *m = ssp_rec_rd_meta_at(L->rr, i);

		v[SSP_RUN_META_ROWID] = ssp_value_null();
		v[SSP_RUN_META_RUN] = ssp_value_int(L->run);
		v[SSP_RUN_META_KEY] = ssp_value_str(m->key);
		v[SSP_RUN_META_VALUE] = ssp_value_str(m->value);
		if ((r = ssp_rows_row(L->w, SSP_ROWS_RUN_META, L->next_meta +
		    (int64_t)i, v, -1, 0)) != SSP_OK)
			return r;
	}
	for (i = 0; i < L->nstreams; i++) {
		v[SSP_STREAMS_ID] = ssp_value_null();
		v[SSP_STREAMS_RUN] = ssp_value_int(L->run);
		v[SSP_STREAMS_IDX] = ssp_value_int((int64_t)i);
		v[SSP_STREAMS_NAME] = ssp_value_str(L->streams[i]);
		v[SSP_STREAMS_SIM] = ssp_value_str(ssp_event_sim_name(
		    L->stream_sim[i]));
		v[SSP_STREAMS_KIND] = ssp_value_str(ssp_event_sim_kind(
		    L->stream_sim[i]));
		v[SSP_STREAMS_SPANS] = ssp_value_int((int64_t)L->stream_spans[i]);
		if ((r = ssp_rows_row(L->w, SSP_ROWS_STREAMS, L->next_stream +
		    (int64_t)i, v, -1, (uint32_t)i)) != SSP_OK)
			return r;
	}
	return SSP_OK;
}

/* What the private database needs of the schema: the traces table. */
static enum ssp_status
copy_traces_ddl(struct loader *L)
{
	const struct ssp_catalog_table *t = ssp_catalog_table(L->cat, "traces");

	if (t == NULL || t->sql == NULL)
		return ssp_err_set(L->e, SSP_ERR_INVAL, 0, "%s: no table traces",
		    L->dbname);
	L->traces_ddl = t->sql;
	return SSP_OK;
}

/* --- the load -------------------------------------------------------------- */

/*
 * A new database in the file L->path for INSERTs: SQLite creates the
 * schema from formats/simspan.sql (its indexes after the load), in one
 * transaction without journal or syncs.
 */
static enum ssp_status
open_new(struct loader *L)
{
	enum ssp_status r;

	if (sqlite3_open_v2(L->path, &L->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return lfail_on(L, L->db);
	if ((r = ssp_dberr_exec(L->db, "PRAGMA journal_mode = OFF; "
	    "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; "
	    "PRAGMA cache_size = -65536; BEGIN", L->dbname, L->e)) != SSP_OK)
		return r;
	return ssp_schema_create(L->db, L->dbname, L->e);
}

/*
 * The writer: directly into the new file (from the schema image) when
 * its tables allow, else INSERTs (into the new file, SQLite making its
 * schema, or into the caller's database).
 */
static enum ssp_status
begin_rows(struct loader *L)
{
	enum ssp_status r;
	int ok = 0;

	if (L->path != NULL && !L->o->sql_only &&
	    (r = ssp_direct_plan(&L->plan, L->cat, L->dbname, L->attr, L->nft,
	    &ok, L->e)) != SSP_OK)
		return r;
	if (L->path != NULL && !ok && (r = open_new(L)) != SSP_OK)
		return r;
	if ((r = begin_run(L)) != SSP_OK)
		return r;
	if (!ok) {
		if ((L->w = ssp_insert_new(L->db, L->dbname, L->attr, L->nft,
		    L->e)) == NULL)
			return SSP_ERR_NOMEM;	/* its only failure */
		return SSP_OK;
	}
	if (L->run < 1 || L->run > INT32_MAX)	/* a half word in index keys */
		return ssp_err_set(L->e, SSP_ERR_LIMIT, 0, "%s: run %lld",
		    L->dbname, (long long)L->run);
	if ((r = ssp_direct_open(L->plan, L->path, L->image, L->image_len,
	    L->kinds, (const char *const *)L->streams, L->nstreams,
	    L->o->sort_mem ? L->o->sort_mem : SORT_MEM)) != SSP_OK)
		return r;
	L->w = ssp_direct_rows(L->plan);
	L->plan = NULL;
	L->st->direct = 1;
	return SSP_OK;
}

static enum ssp_status
read_stream(struct loader *L)
{
	const struct ssp_load_opts *o = L->o;
	struct ssp_load_stats *st = L->st;
	struct ssp_rec r;
	enum ssp_status x;
	int got;

	while ((got = ssp_rec_rd_next(L->rr, &r, L->e)) == 1) {
		const struct ftinfo *fi = &L->ft[r.ftag - 1];

		if (++st->records % TICK == 0 && o->tick != NULL)
			o->tick(o->tick_ctx, st);
		switch (fi->cls) {
		case C_SPAN:
			x = add_span(L, &r, fi);
			break;
		case C_LINK:
			x = add_link(L, &r);
			break;
		case C_EVENT:
			x = SSP_OK;
			if (o->events)
				x = add_event(L, &r, fi);
			else
				st->events_skipped++;
			break;
		default:
			x = SSP_OK;
			st->unknown++;
		}
		if (x != SSP_OK)
			return x;
	}
	/* a negated status (base/err.h) */
	return got < 0 ? (enum ssp_status)-got : SSP_OK;
}

static void
free_loader(struct loader *L)
{
	size_t i;

	ssp_rows_free(L->w);
	ssp_direct_free(L->plan);
	if (L->traces != NULL)
		ssp_idmap_drain(L->traces, free_trace_cb, L);
	aux_close(L);
	ssp_split_free(L->split);
	ssp_idmap_free(L->spans);
	ssp_idmap_free(L->traces);
	for (i = 0; L->ft != NULL && i < L->nft; i++)
		attr_free(L->ft[i].attr);
	free(L->ft);
	free(L->attr);
	free(L->kinds);
	for (i = 0; i < L->nstreams; i++)
		free(L->streams[i]);
	free(L->streams);
	free(L->stream_spans);
	free(L->stream_sim);
	free(L->trows);
	ssp_buf_free(&L->tjson);
	ssp_buf_free(&L->text);
	ssp_buf_free(&L->etext);
}

/* The rows of each attribute table (two record types may share one). */
static enum ssp_status
attr_counts(struct loader *L, struct ssp_load_count **out, size_t *nout)
{
	struct ssp_load_count *c;
	size_t n = 0, i;
	unsigned t;

	if ((c = calloc(L->nft + 1, sizeof(*c))) == NULL)
		return nomem(L);
	for (t = 0; t < L->nft; t++) {
		const struct ssp_rows_attr *a = L->ft[t].attr;

		if (a == NULL)
			continue;
		for (i = 0; i < n; i++)
			if (strcmp(c[i].table, a->table) == 0)
				break;
		if (i == n)
			memcpy(c[n++].table, a->table, sizeof(a->table));
		c[i].rows += L->ft[t].attr_rows;
	}
	*out = c;
	*nout = n;
	return SSP_OK;
}

/*
 * The stream into *dbp (INSERTs into the caller's database), or into the
 * new file path (*dbp NULL): written directly from image when it can be,
 * else with INSERTs (*dbp then the connection).  cat: the schema.
 */
static enum ssp_status
load(sqlite3 **dbp, const struct ssp_catalog *cat, const unsigned char *image,
    size_t image_len, const char *path, const char *name,
    struct ssp_rec_rd *rr, const struct ssp_load_opts *o,
    struct ssp_load_stats *st, struct ssp_load_count **counts,
    size_t *ncounts, struct ssp_err *e)
{
	struct loader L;
	enum ssp_status r;

	memset(st, 0, sizeof(*st));
	memset(&L, 0, sizeof(L));
	L.db = *dbp;
	L.cat = cat;
	L.image = image;
	L.image_len = image_len;
	L.path = path;
	L.dbname = name;
	L.rr = rr;
	L.o = o;
	L.st = st;
	L.e = e;
	L.span_max = o->span_cache ? o->span_cache : SPAN_CACHE;
	L.trace_max = o->trace_cache ? o->trace_cache : TRACE_CACHE;
	L.span_lim = o->span_cache ? o->span_cache : SPAN_CACHE0;
	L.trace_lim = o->trace_cache ? o->trace_cache : TRACE_CACHE0;
	L.spans = ssp_idmap_new(sizeof(int64_t), L.span_lim, NULL, NULL);
	L.traces = ssp_idmap_new(sizeof(struct tracev), L.trace_lim,
	    write_trace, &L);
	if (L.spans == NULL || L.traces == NULL) {
		r = nomem(&L);
		goto out;
	}
	if ((r = classify(&L)) != SSP_OK || (r = copy_traces_ddl(&L)) != SSP_OK ||
	    (r = begin_rows(&L)) != SSP_OK)
		goto out;
	if ((L.split = ssp_split_new((const char *const *)L.streams, L.nstreams,
	    L.kinds, L.nft, o->split_mem)) == NULL) {
		r = nomem(&L);
		goto out;
	}
	if ((r = read_stream(&L)) != SSP_OK)
		goto out;
	/* the other tables' index keys sort meanwhile (direct) */
	if ((r = ssp_rows_traces(L.w)) != SSP_OK)
		goto out;
	if (ssp_idmap_drain(L.traces, collect_trace, &L) != 0) {
		r = L.cbst;
		goto out;
	}
	/* the run's own rows last, with its counts; the rest through SQLite
	 * only if there is some (a new database is then complete) */
	if ((r = write_traces(&L)) != SSP_OK || (r = write_run(&L)) != SSP_OK ||
	    (r = ssp_rows_finish(L.w, L.npending > 0 || L.nresplit > 0,
	    &L.db)) != SSP_OK)
		goto out;
	st->complete = L.db == NULL;
	if (L.db != NULL && ((r = copy_pending(&L)) != SSP_OK ||
	    (r = resplit_all(&L)) != SSP_OK || (r = resolve_pending(&L)) != SSP_OK))
		goto out;
	if (counts != NULL)
		r = attr_counts(&L, counts, ncounts);
out:
	*dbp = L.db;
	free_loader(&L);
	if (r != SSP_OK && e != NULL && e->code == SSP_OK)
		ssp_err_set(e, r, 0, "%s: load failed", name);
	return r;
}

enum ssp_status
ssp_load_db(sqlite3 *db, struct ssp_rec_rd *rr, const struct ssp_load_opts *o,
    struct ssp_load_stats *st, struct ssp_err *e)
{
	struct ssp_catalog *cat;
	const char *f;
	enum ssp_status r;

	SSP_ASSERT(db != NULL && rr != NULL && o != NULL && st != NULL);
	f = sqlite3_db_filename(db, "main");
	if (f == NULL || *f == '\0')
		f = "database";
	if ((r = ssp_catalog_read(db, f, &cat, e)) != SSP_OK)
		return r;
	r = load(&db, cat, NULL, 0, NULL, f, rr, o, st, NULL, NULL, e);
	ssp_catalog_free(cat);
	return r;
}

enum ssp_status
ssp_load_new(sqlite3 **db, const char *path, const char *name,
    struct ssp_rec_rd *rr, const struct ssp_load_opts *o,
    struct ssp_load_stats *st, struct ssp_load_count **counts,
    size_t *ncounts, struct ssp_err *e)
{
	struct ssp_catalog *cat;
	const unsigned char *image;
	size_t n;
	enum ssp_status r;

	SSP_ASSERT(db != NULL && path != NULL && name != NULL);
	SSP_ASSERT(rr != NULL && o != NULL && st != NULL);
	SSP_ASSERT(counts != NULL && ncounts != NULL);
	*db = NULL;
	*counts = NULL;
	*ncounts = 0;
	if ((r = ssp_image_get(&image, &n, &cat, e)) != SSP_OK)
		return r;
	r = load(db, cat, image, n, path, name, rr, o, st, counts, ncounts, e);
	ssp_catalog_free(cat);
	return r;
}
