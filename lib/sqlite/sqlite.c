#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/blkpool.h"
#include "base/buf.h"
#include "base/idmap.h"
#include "base/strfmt.h"
#include "sqlite/sqlite.h"
#include "sqlite/sqlite_direct.h"

/*
 * formats/simspan.sql is the one source of the schema; the assembler
 * embeds it (path relative to the top directory, where make runs).
 */
__asm__(
    "\t.pushsection .rodata\n"
    "\t.global ssp_sqlite_schema\n"
    "\t.type ssp_sqlite_schema, @object\n"
    "ssp_sqlite_schema:\n"
    "\t.incbin \"formats/simspan.sql\"\n"
    "\t.byte 0\n"
    "\t.size ssp_sqlite_schema, . - ssp_sqlite_schema\n"
    "\t.popsection\n");

#define INDEX_MARKER	"-- span2sqlite: indexes"
#define APP_ID		0x53535053
#define BATCH		64	/* rows per multi-row INSERT */
#define SPAN_COLS	11
#define EVENT_COLS	6
#define SPAN_CACHE	(1u << 18)
#define TRACE_CACHE	(1u << 15)
#define TICK		4096	/* records between progress calls */
#define IVL_MIN		16u		/* a trace's first span slots */
#define IVL_MAX		(1u << 16)	/* spans of a trace split in memory */
#define IVL_CLASSES	13		/* IVL_MIN << 12 == IVL_MAX */
#define IVL_BUDGET	(1u << 22)	/* ... of all cached traces: 96 MiB */
#define DCOLS		64	/* columns of an attribute table written directly */
#define SORT_MEM	(128u << 20)	/* index keys in memory, direct writing */

/* --- small helpers ---------------------------------------------------- */

static int
db_fail(struct ssp_err *e, sqlite3 *db, const char *name)
{
	int rc = sqlite3_extended_errcode(db);

	return ssp_err_set(e, rc == SQLITE_NOMEM ? SSP_ERR_NOMEM : SSP_ERR_IO,
	    0, "%s: %s", name, sqlite3_errmsg(db));
}

static int
exec(sqlite3 *db, const char *sql, const char *name, struct ssp_err *e)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(e, db, name);
	return SSP_OK;
}

/* First column of a one-row query as an integer (def if no row). */
static int
query_int(sqlite3 *db, const char *sql, int64_t def, int64_t *out)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(s);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : def;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static const char *
dbname(sqlite3 *db)
{
	const char *f = sqlite3_db_filename(db, "main");

	return f != NULL && *f != '\0' ? f : "database";
}

int
ssp_sqlite_schema_version(void)
{
	const char *p = strstr(ssp_sqlite_schema, "PRAGMA user_version = ");

	return p != NULL ? atoi(p + strlen("PRAGMA user_version = ")) : -1;
}

int
ssp_sqlite_create(sqlite3 *db, struct ssp_err *e)
{
	const char *m = strstr(ssp_sqlite_schema, INDEX_MARKER);
	size_t n = m != NULL ? (size_t)(m - ssp_sqlite_schema) :
	    strlen(ssp_sqlite_schema);
	char *sql = malloc(n + 1);
	int r;

	if (sql == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	memcpy(sql, ssp_sqlite_schema, n);
	sql[n] = '\0';
	r = exec(db, sql, dbname(db), e);
	free(sql);
	return r;
}

static int
create_indexes(sqlite3 *db, struct ssp_err *e)
{
	const char *m = strstr(ssp_sqlite_schema, INDEX_MARKER);

	return m != NULL ? exec(db, m, dbname(db), e) : SSP_OK;
}

/* Approximate statistics (analysis_limit) cost milliseconds and let the
 * planner choose between the indexes. */
static int
analyze(sqlite3 *db, struct ssp_err *e)
{
	return exec(db, "PRAGMA analysis_limit = 1000; ANALYZE;", dbname(db), e);
}

int
ssp_sqlite_index(sqlite3 *db, struct ssp_err *e)
{
	if (create_indexes(db, e) != SSP_OK || analyze(db, e) != SSP_OK)
		return e != NULL ? e->code : SSP_ERR_IO;
	return SSP_OK;
}

/* --- JSON attributes --------------------------------------------------- */

struct jw {
	char *p;
	size_t n, len;
};

static void
jw_put(struct jw *w, const char *s, size_t k)
{
	if (w->len < w->n)
		memcpy(w->p + w->len, s, k < w->n - w->len ? k : w->n - w->len);
	w->len += k;
}

static void
jw_ch(struct jw *w, char c)
{
	if (w->len < w->n)
		w->p[w->len] = c;
	w->len++;
}

static void
jw_i64(struct jw *w, int64_t v)
{
	char tmp[24], *q = tmp + sizeof(tmp);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do
		*--q = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--q = '-';
	jw_put(w, q, (size_t)(tmp + sizeof(tmp) - q));
}

#define JW_PIECE	256

/*
 * A JSON string with invalid UTF-8 replaced and every control character
 * but \n \r \t as \u00XX (as span2sqlite has always written them), in
 * pieces through a stack buffer: each cut before a byte that starts a
 * character, so the pieces escape as the whole string would.
 */
static void
jw_str(struct jw *w, const char *s, size_t k)
{
	uint8_t tmp[6 * (JW_PIECE + 3) + 2];	/* \u00xx per byte, quotes */
	size_t i = 0, m;

	jw_ch(w, '"');
	while (i < k) {
		struct ssp_buf b = { tmp, 0, sizeof(tmp), 0 };

		m = k - i < JW_PIECE ? k - i : JW_PIECE;
		while (i + m < k && m < JW_PIECE + 3 &&
		    ((unsigned char)s[i + m] & 0xc0) == 0x80)
			m++;
		ssp_strfmt_json_str_flags(&b, s + i, m, SSP_STRFMT_CTL_U);
		jw_put(w, (const char *)tmp + 1, b.len - 2);
		i += m;
	}
	jw_ch(w, '"');
}

static void
jw_ip(struct jw *w, uint64_t v)
{
	char tmp[16], *q = tmp;
	int i;

	for (i = 24; i >= 0; i -= 8) {
		unsigned b = (unsigned)(v >> i) & 0xff;

		if (b >= 100)
			*q++ = (char)('0' + b / 100);
		if (b >= 10)
			*q++ = (char)('0' + b / 10 % 10);
		*q++ = (char)('0' + b % 10);
		if (i > 0)
			*q++ = '.';
	}
	jw_put(w, tmp, (size_t)(q - tmp));
}

static void
jw_mac(struct jw *w, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[17];
	int i, k = 0;

	for (i = 40; i >= 0; i -= 8) {
		tmp[k++] = hex[(v >> (i + 4)) & 15];
		tmp[k++] = hex[(v >> i) & 15];
		if (i > 0)
			tmp[k++] = ':';
	}
	jw_put(w, tmp, sizeof(tmp));
}

/* Is field value v absent (NULL in SQL, left out of JSON)? */
static int
absent(char enc, uint64_t v)
{
	return (enc == SSP_ENC_I && (int64_t)v == -1) ||
	    (enc == SSP_ENC_S && v == 0);
}

/* The fields in mask as a JSON object. */
static size_t
json_fields(char *buf, size_t n, const struct ssp_rec_type *t, uint32_t mask,
    const struct ssp_rec *r, const struct ssp_rec_rd *rr)
{
	struct jw w = { buf, n, 0 };
	const char *s = NULL;
	size_t len = 0;
	unsigned k;
	int any = 0;

	jw_ch(&w, '{');
	for (k = 0; k < t->nf && k < r->nf; k++) {
		uint64_t v = r->f[k];
		char enc = t->f[k].enc;

		if (!(mask & (1u << k)) || absent(enc, v))
			continue;
		if (enc == SSP_ENC_S && (rr == NULL ||
		    (s = ssp_rec_rd_str(rr, v, &len)) == NULL))
			continue;
		if (any)
			jw_ch(&w, ',');
		any = 1;
		jw_str(&w, t->f[k].name, strlen(t->f[k].name));
		jw_ch(&w, ':');
		switch (enc) {
		case SSP_ENC_B:
			if (v)
				jw_put(&w, "true", 4);
			else
				jw_put(&w, "false", 5);
			break;
		case SSP_ENC_S:
			jw_str(&w, s, len);
			break;
		case SSP_ENC_M:
		case SSP_ENC_A:
			jw_ch(&w, '"');
			if (enc == SSP_ENC_M)
				jw_mac(&w, v);
			else
				jw_ip(&w, v);
			jw_ch(&w, '"');
			break;
		default:	/* u x i t: 64-bit two's complement, as SQLite */
			jw_i64(&w, (int64_t)v);
		}
	}
	jw_ch(&w, '}');
	if (n > 0)
		buf[w.len < n ? w.len : n - 1] = '\0';
	return w.len;
}

static uint32_t
fields_from(unsigned first, unsigned nf)
{
	uint32_t m = 0;

	for (; first < nf && first < 32; first++)
		m |= 1u << first;
	return m;
}

size_t
ssp_sqlite_json(char *buf, size_t n, const struct ssp_rec_type *t, unsigned first,
    const struct ssp_rec *r, const struct ssp_rec_rd *rr)
{
	return json_fields(buf, n, t, fields_from(first, t->nf), r, rr);
}

/* --- the loader --------------------------------------------------------- */

enum { C_SKIP, C_SPAN, C_LINK, C_EVENT };
enum { P_PARENT, P_LINK_SPAN, P_LINK_TARGET, P_EVENT_SPAN };	/* pending refs */

/* A value waiting in a batch. */
struct cell {
	int type;		/* SQLITE_NULL, SQLITE_INTEGER or SQLITE_TEXT */
	int64_t i;		/* integer, or offset of the text in the arena */
	size_t len;
};

/* Rows of one attr_<kind> table waiting for a multi-row INSERT. */
struct kbatch {
	unsigned ncols;		/* attribute columns filled from the stream */
	unsigned field[SSP_MAXF];	/* the stream field of each column */
	/* prepared when first used: a load written directly never does, and
	 * preparing them took a fifth of a small load's instructions */
	sqlite3_stmt *multi, *one;
	char *head;		/* "INSERT INTO ... VALUES" */
	int64_t span[BATCH];
	struct cell cells[BATCH * SSP_MAXF];
	unsigned n;
	struct ssp_buf text;
	/* Direct writing (a new database): every stored column in order. */
	int dok;		/* the table can be written directly */
	unsigned dn;
	int dmap[DCOLS];	/* the field of each column; -1 NULL, -2 rowid */
	int64_t drows;		/* rows written directly */
	char table[80];
};

struct ftinfo {			/* what a record type of the file is to us */
	int cls;
	const char *name;	/* span kind or event type */
	unsigned kind;		/* known span kind, or SSP_SK_NKINDS */
	struct kbatch *kb;	/* spans: its attribute table, if any */
	uint32_t extra;		/* spans: fields without a column (JSON) */
};

struct ivl {			/* a span of a trace, for its latency split */
	int64_t b, e;
	uint32_t stream, ft;
};

struct tracev {			/* a trace while it is in the cache */
	int64_t id, root, start, end;
	uint64_t n;
	int32_t root_ft;	/* file type of the root span, -1: none yet */
	int32_t root_stream;
	int32_t in_db;		/* row written (evicted before): UPDATE it */
	int32_t resplit;	/* split left to the end (evicted, or huge) */
	struct ivl *ivl;	/* its spans so far (owned) */
	uint32_t nivl, capivl;
};

struct srow {			/* a span row waiting for its batch */
	int64_t trace, parent, span_id, start, dur, flags;
	const char *kind;
	uint32_t stream;
	size_t cause, cause_len, extra, extra_len;	/* offsets in text */
	int has_cause, has_extra;
};

struct erow {
	int64_t span, ts;
	const char *type;
	uint32_t stream;
	size_t attrs, attrs_len;
};

struct direct;

struct loader {
	sqlite3 *db;
	sqlite3 *tdb;		/* traces and pending references: db, or a
				 * private database while writing directly */
	struct direct *dw;	/* writing directly (a new database), or NULL */
	const char *dbname;
	struct ssp_rec_rd *rr;
	const struct ssp_sqlite_opts *o;
	struct ssp_sqlite_stats *st;
	struct ssp_err *e;
	int64_t run;
	struct ftinfo *ft;
	unsigned nft;
	char **streams;
	uint64_t *stream_spans;
	size_t nstreams;
	struct ssp_idmap *spans, *traces;
	int64_t first_span, next_span, next_event, next_trace, next_link;
	uint64_t npending;
	int failed;		/* an SQLite error inside an idmap callback */
	sqlite3_stmt *ins_spans, *ins_span, *ins_events, *ins_event, *ins_link,
	    *ins_trace, *upd_trace, *get_trace, *ins_pending, *ins_resplit;
	struct ssp_buf sbuf, kbuf;	/* split JSON of the trace being written */
	struct ivl *ivtmp;	/* a trace's spans grouped for its split */
	uint32_t capivtmp;
	uint32_t *cnt;		/* counts by stream or file type */
	size_t maxname;		/* longest stream or kind name */
	char **jname;		/* streams, then kinds by file type: as JSON
				 * strings (quoted, escaped), for split() */
	size_t *jnlen;
	uint64_t nresplit;
	uint64_t ivl_cap, ivl_budget;	/* struct ivl slots allocated over
					 * the cached traces, and their bound */
	struct ssp_blkpool *ivpool;	/* where those slots come from */
	struct srow rows[BATCH];
	unsigned nrows;
	struct ssp_buf text;
	struct erow erows[BATCH];
	unsigned nerows;
	struct ssp_buf etext;
};

static int
lfail_on(struct loader *L, sqlite3 *db)
{
	L->failed = 1;
	return db_fail(L->e, db, L->dbname);
}

static int
lfail(struct loader *L)
{
	return lfail_on(L, L->db);
}

/* A data error of the input, at the current block. */
static int infail(struct loader *L, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
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

static int
prep_on(struct loader *L, sqlite3 *db, sqlite3_stmt **s, const char *sql)
{
	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, s,
	    NULL) != SQLITE_OK)
		return lfail_on(L, db);
	return SSP_OK;
}

static int
prep(struct loader *L, sqlite3_stmt **s, const char *sql)
{
	return prep_on(L, L->db, s, sql);
}

static int
step(struct loader *L, sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return lfail_on(L, sqlite3_db_handle(s));
	return SSP_OK;
}

/* "INSERT INTO t(cols) VALUES (?,..),(?,..)..." for n rows of k columns. */
static char *
multi_insert(const char *head, unsigned k, unsigned n)
{
	size_t len = strlen(head) + (size_t)n * (2 * k + 3) + 1;
	char *sql = malloc(len), *p;
	unsigned i, j;

	if (sql == NULL)
		return NULL;
	p = sql + sprintf(sql, "%s", head);
	for (i = 0; i < n; i++) {
		*p++ = i ? ',' : ' ';
		*p++ = '(';
		for (j = 0; j < k; j++) {
			*p++ = '?';
			*p++ = j + 1 < k ? ',' : ')';
		}
	}
	*p = '\0';
	return sql;
}

static int
prep_multi(struct loader *L, sqlite3_stmt **s, const char *head, unsigned k,
    unsigned n)
{
	char *sql = multi_insert(head, k, n);
	int r;

	if (sql == NULL)
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	r = prep(L, s, sql);
	free(sql);
	return r;
}

static const char span_head[] = "INSERT INTO spans(run, trace, parent, "
    "span_id, kind, stream, start_ps, dur_ps, flags, cause, extra) VALUES";
static const char event_head[] = "INSERT INTO events(run, span, ts_ps, type, "
    "stream, attrs) VALUES";

/* The INSERTs of rows (not when writing directly). */
static int
prepare_rows(struct loader *L)
{
	if (prep_multi(L, &L->ins_spans, span_head, SPAN_COLS, BATCH) ||
	    prep_multi(L, &L->ins_span, span_head, SPAN_COLS, 1) ||
	    prep_multi(L, &L->ins_events, event_head, EVENT_COLS, BATCH) ||
	    prep_multi(L, &L->ins_event, event_head, EVENT_COLS, 1) ||
	    prep(L, &L->ins_link, "INSERT INTO links(run, span, target, kind, "
	    "span_id, target_span_id, target_trace_id) VALUES (?,?,?,?,?,?,?)"))
		return L->e != NULL ? L->e->code : SSP_ERR_IO;
	return SSP_OK;
}

/* Traces and pending references, in L->tdb. */
static int
prepare_traces(struct loader *L)
{
	sqlite3 *db = L->tdb;

	if (exec(db, "CREATE TEMP TABLE IF NOT EXISTS pending(what INTEGER, "
	    "row INTEGER, ref INTEGER); DELETE FROM temp.pending; "
	    "DROP INDEX IF EXISTS temp.pending_ref; "
	    "CREATE TEMP TABLE IF NOT EXISTS resplit(trace INTEGER PRIMARY KEY); "
	    "DELETE FROM temp.resplit", L->dbname, L->e) != SSP_OK)
		return L->e != NULL ? L->e->code : SSP_ERR_IO;
	if (prep_on(L, db, &L->ins_trace, "INSERT INTO traces(id, run, trace_id, root, "
	    "root_kind, root_stream, start_ps, end_ps, spans, busy_ps, "
	    "streams, kinds) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)") ||
	    prep_on(L, db, &L->upd_trace, "UPDATE traces SET root = ?4, "
	    "root_kind = ?5, root_stream = ?6, start_ps = ?7, end_ps = ?8, "
	    "spans = ?9, busy_ps = ?10, streams = ?11, kinds = ?12 WHERE id = ?1") ||
	    prep_on(L, db, &L->ins_resplit, "INSERT OR IGNORE INTO "
	    "temp.resplit(trace) VALUES (?)") ||
	    prep_on(L, db, &L->get_trace, "SELECT id, root, root_kind, "
	    "root_stream, start_ps, end_ps, spans FROM traces WHERE run = ? AND "
	    "trace_id = ?") ||
	    prep_on(L, db, &L->ins_pending, "INSERT INTO temp.pending(what, row, "
	    "ref) VALUES (?,?,?)"))
		return L->e != NULL ? L->e->code : SSP_ERR_IO;
	return SSP_OK;
}

static void
finalize_all(struct loader *L)
{
	sqlite3_stmt **s[] = { &L->ins_spans, &L->ins_span, &L->ins_events,
	    &L->ins_event, &L->ins_link, &L->ins_trace, &L->upd_trace,
	    &L->get_trace, &L->ins_pending, &L->ins_resplit };
	size_t i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		sqlite3_finalize(*s[i]);
		*s[i] = NULL;
	}
}

/* Does SQLite store a value of this field encoding unchanged in a column
 * of this affinity?  (Then writing it directly gives the same row.) */
static int
stored_as_is(char enc, char aff)
{
	if (enc == SSP_ENC_S || enc == SSP_ENC_A || enc == SSP_ENC_M)
		return aff == 't' || aff == 'b';
	return aff == 'i' || aff == 'n' || aff == 'b';
}

/*
 * The attribute table of a span kind: its columns are matched by name to
 * the record's fields; fields without a column go to spans.extra.
 */
static int
setup_kind(struct loader *L, struct ftinfo *fi, const struct ssp_rec_type *ty)
{
	char table[80], head[2048];
	sqlite3_stmt *s = NULL;
	struct kbatch *kb;
	size_t len;
	unsigned k, seen = 0, npk = 0;
	char *p;
	int rc, r = -1;

	fi->extra = fields_from(SSP_SF_NCOMMON, ty->nf);
	snprintf(table, sizeof(table), "attr_%s", fi->name);
	for (p = table; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
	if ((kb = calloc(1, sizeof(*kb))) == NULL)
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory"), -1;
	if (prep(L, &s, "SELECT name, ifnull(type, ''), pk, dflt_value IS NULL, "
	    "hidden FROM pragma_table_xinfo(?)") != SSP_OK)
		goto out;
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	len = (size_t)snprintf(head, sizeof(head), "INSERT INTO \"%s\"(span", table);
	kb->dok = 1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(s, 0);
		const char *type = (const char *)sqlite3_column_text(s, 1);
		int *dslot = kb->dn < DCOLS ? &kb->dmap[kb->dn++] : NULL;

		seen++;
		if (dslot == NULL || type == NULL || sqlite3_column_int(s, 3) == 0 ||
		    sqlite3_column_int(s, 4) != 0) {
			kb->dok = 0;	/* generated, default value, too many */
			if (sqlite3_column_int(s, 4) != 0)
				continue;	/* generated: never inserted */
		}
		if (sqlite3_column_int(s, 2) != 0) {
			/* the row id: "span INTEGER PRIMARY KEY" */
			if (npk++ > 0 || type == NULL || strcmp(type, "INTEGER") != 0)
				kb->dok = 0;
			if (dslot != NULL)
				*dslot = -2;
			continue;
		}
		if (dslot != NULL)
			*dslot = -1;
		for (k = SSP_SF_NCOMMON; col != NULL && k < ty->nf; k++)
			if ((fi->extra & (1u << k)) && strcmp(ty->f[k].name, col) == 0)
				break;
		if (col == NULL || k == ty->nf || strlen(col) > 60)
			continue;	/* absent from this stream: NULL */
		fi->extra &= ~(1u << k);
		kb->field[kb->ncols++] = k;
		if (dslot != NULL)
			*dslot = (int)k;
		if (type == NULL || !stored_as_is(ty->f[k].enc,
		    ssp_sqlite_direct_affinity(type)))
			kb->dok = 0;
		len += (size_t)snprintf(head + len, sizeof(head) - len, ", \"%s\"",
		    col);
	}
	if (rc != SQLITE_DONE) {
		lfail(L);
		goto out;
	}
	sqlite3_finalize(s);
	s = NULL;
	if (npk != 1)
		kb->dok = 0;
	if (len + 10 >= sizeof(head)) {
		ssp_err_set(L->e, SSP_ERR_LIMIT, 0, "%s: too many columns",
		    table);
		goto out;
	}
	if (seen == 0) {
		r = 0;		/* no such table: everything in spans.extra */
		goto out;
	}
	snprintf(head + len, sizeof(head) - len, ") VALUES");
	if ((kb->head = strdup(head)) == NULL) {
		ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	snprintf(kb->table, sizeof(kb->table), "%s", table);
	fi->kb = kb;
	return 0;
out:
	sqlite3_finalize(s);
	free(kb);
	return r;
}

static void
free_kinds(struct loader *L)
{
	unsigned t;

	for (t = 0; L->ft != NULL && t < L->nft; t++) {
		struct kbatch *kb = L->ft[t].kb;

		if (kb == NULL)
			continue;
		sqlite3_finalize(kb->multi);
		sqlite3_finalize(kb->one);
		ssp_buf_free(&kb->text);
		free(kb->head);
		free(kb);
	}
}

/* Classify the file's record types once. */
static int
classify(struct loader *L)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(L->rr);
	const struct ssp_rec_type *sk = &ssp_span_schema(0)->types[0];
	unsigned t, k;

	L->nft = fs->ntypes;
	if ((L->ft = calloc(L->nft ? L->nft : 1, sizeof(*L->ft))) == NULL)
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	for (t = 0; t < fs->ntypes; t++) {
		const struct ssp_rec_type *ty = &fs->types[t];
		struct ftinfo *fi = &L->ft[t];
		int known = ssp_rec_schema_find(ssp_span_schema(1), ty->name);

		fi->kind = SSP_SK_NKINDS;
		if (known >= 0 && known < SSP_SK_NKINDS) {
			fi->cls = C_SPAN;
			fi->kind = (unsigned)known;
			fi->name = ty->name;
			if (setup_kind(L, fi, ty) != 0)
				return -1;
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
				if (setup_kind(L, fi, ty) != 0)
					return -1;
			}
		}
	}
	return SSP_OK;
}

static void
trace_hex(char out[33], uint64_t hi, uint64_t lo)
{
	static const char hexd[] = "0123456789abcdef";
	int i;

	for (i = 15; i >= 0; i--) {	/* as "%016" PRIx64 "%016" PRIx64 */
		out[i] = hexd[hi & 15];
		out[16 + i] = hexd[lo & 15];
		hi >>= 4;
		lo >>= 4;
	}
	out[32] = '\0';
}

static int
cmp_start(const void *a, const void *b)
{
	const struct ivl *x = a, *y = b;

	return x->b < y->b ? -1 : x->b > y->b;
}

/*
 * Sweep intervals sorted by start within groups: the length of the union
 * of each group's intervals (each span adds what lies beyond everything
 * that started before it).  by: 0 stream, 1 kind, 2 all in one group.
 * Writes {"name":[spans,busy_ps],...} to b (reserved large enough) unless
 * b is NULL; returns the busy time of the last group.
 */
static int64_t
sweep(struct loader *L, const struct ivl *v, uint32_t n, int by,
    struct ssp_buf *b)
{
	struct jw w;
	int64_t busy = 0, reach = INT64_MIN, lo;
	uint32_t i, first = 0, key, spans = 0;
	size_t name;

	w.p = b != NULL ? (char *)b->p : NULL;
	w.n = b != NULL ? b->cap : 0;
	w.len = 0;
	jw_ch(&w, '{');
	for (i = 0; i < n; i++) {
		key = by == 0 ? v[i].stream : by == 1 ? v[i].ft : 0;
		if (i > first && key != (by == 0 ? v[i - 1].stream :
		    by == 1 ? v[i - 1].ft : 0)) {
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
		if (b != NULL && (i + 1 == n || key != (by == 0 ?
		    v[i + 1].stream : v[i + 1].ft))) {
			name = by == 0 ? key : L->nstreams + key;
			if (w.len > 1)
				jw_ch(&w, ',');
			jw_put(&w, L->jname[name], L->jnlen[name]);
			jw_ch(&w, ':');
			jw_ch(&w, '[');
			jw_i64(&w, spans);
			jw_ch(&w, ',');
			jw_i64(&w, busy);
			jw_ch(&w, ']');
		}
	}
	jw_ch(&w, '}');
	if (b != NULL)
		b->len = w.len;
	return busy;
}

/* The split of a trace into L->sbuf, L->kbuf; returns the busy time of
 * all its spans together, -1 when out of memory. */
static int64_t
split(struct loader *L, struct ivl *v, uint32_t n)
{
	size_t need = 64 + (size_t)n * (40 + 6 * L->maxname), nk;
	uint32_t i, j, sum;
	struct ivl *t;
	int by;

	/* names are escaped: up to 6 bytes a byte */
	L->sbuf.len = L->kbuf.len = 0;
	if (ssp_buf_reserve(&L->sbuf, need + 1) != 0 ||
	    ssp_buf_reserve(&L->kbuf, need + 1) != 0)
		return -1;
	if (n > L->capivtmp) {
		if ((t = realloc(L->ivtmp, n * sizeof(*t))) == NULL)
			return -1;
		L->ivtmp = t;
		L->capivtmp = n;
	}
	/* by start; then, keeping that order, grouped by stream and by kind
	 * (counting sorts: few streams and kinds) */
	if (n <= 24) {
		for (i = 1; i < n; i++) {
			struct ivl x = v[i];

			for (j = i; j > 0 && v[j - 1].b > x.b; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	} else {
		qsort(v, n, sizeof(*v), cmp_start);
	}
	for (by = 0; by < 2; by++) {
		nk = by == 0 ? L->nstreams : L->nft;
		memset(L->cnt, 0, (nk + 1) * sizeof(*L->cnt));
		for (i = 0; i < n; i++)
			L->cnt[by == 0 ? v[i].stream : v[i].ft]++;
		for (i = 0, sum = 0; i < nk; i++) {
			uint32_t c = L->cnt[i];

			L->cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			L->ivtmp[L->cnt[by == 0 ? v[i].stream : v[i].ft]++] = v[i];
		sweep(L, L->ivtmp, n, by, by == 0 ? &L->sbuf : &L->kbuf);
	}
	return sweep(L, v, n, 2, NULL);
}

/* A trace's spans for its split are no longer needed. */
/* The block class of a capacity of IVL_MIN << k slots: k. */
static unsigned
ivl_class(uint32_t cap)
{
	return (unsigned)__builtin_ctz(cap / IVL_MIN);
}

static void
drop_ivl(struct loader *L, struct tracev *t)
{
	if (t->ivl != NULL)
		ssp_blkpool_put(L->ivpool, t->ivl, ivl_class(t->capivl));
	L->ivl_cap -= t->capivl;
	t->ivl = NULL;
	t->nivl = t->capivl = 0;
}

static int
write_trace(void *ctx, uint64_t hi, uint64_t lo, void *value)
{
	struct loader *L = ctx;
	struct tracev *t = value;
	sqlite3_stmt *s = t->in_db ? L->upd_trace : L->ins_trace;
	char hex[33];
	int64_t busy = 0;

	if (!t->resplit && (busy = split(L, t->ivl, t->nivl)) < 0) {
		ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
		L->failed = 1;
		return -1;
	}
	drop_ivl(L, t);
	trace_hex(hex, hi, lo);
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
		sqlite3_bind_int64(s, 10, busy);
		sqlite3_bind_text(s, 11, (char *)L->sbuf.p, (int)L->sbuf.len,
		    SQLITE_STATIC);
		sqlite3_bind_text(s, 12, (char *)L->kbuf.p, (int)L->kbuf.len,
		    SQLITE_STATIC);
	}
	return step(L, s) == SSP_OK ? 0 : -1;
}

/* Leave the split of a trace to resplit_all(). */
static int
mark_resplit(struct loader *L, struct tracev *t)
{
	drop_ivl(L, t);
	t->resplit = 1;
	L->nresplit++;
	sqlite3_bind_int64(L->ins_resplit, 1, t->id);
	return step(L, L->ins_resplit);
}

static int
add_ivl(struct loader *L, struct tracev *t, int64_t b, int64_t e,
    uint32_t stream, uint32_t ft)
{
	if (t->resplit)
		return SSP_OK;
	if (t->nivl == t->capivl) {
		uint32_t cap = t->capivl ? 2 * t->capivl : IVL_MIN;
		struct ivl *nv;

		/* too long, or the cached traces hold too many: the
		 * database has the spans, split it from there at the end */
		if (t->capivl >= IVL_MAX ||
		    L->ivl_cap + (cap - t->capivl) > L->ivl_budget)
			return mark_resplit(L, t);
		if ((nv = ssp_blkpool_get(L->ivpool, ivl_class(cap))) == NULL)
			return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
		if (t->ivl != NULL) {
			memcpy(nv, t->ivl, t->nivl * sizeof(*nv));
			ssp_blkpool_put(L->ivpool, t->ivl, ivl_class(t->capivl));
		}
		t->ivl = nv;
		L->ivl_cap += cap - t->capivl;
		t->capivl = cap;
	}
	t->ivl[t->nivl++] = (struct ivl){ b, e, stream, ft };
	return SSP_OK;
}

static int
free_trace(void *ctx, uint64_t hi, uint64_t lo, void *value)
{
	(void)hi;
	(void)lo;
	drop_ivl(ctx, value);
	return 0;
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

/* The trace of a span: from the cache, from the database (written when it
 * was evicted), or new.  NULL on error. */
static struct tracev *
trace_of(struct loader *L, uint64_t hi, uint64_t lo)
{
	struct tracev *t = ssp_idmap_get(L->traces, hi, lo);
	char hex[33];
	int rc;

	if (t != NULL || L->failed)
		return t;
	if (ssp_idmap_evicted(L->traces) > 0) {
		sqlite3_stmt *s = L->get_trace;

		trace_hex(hex, hi, lo);
		sqlite3_bind_int64(s, 1, L->run);
		sqlite3_bind_text(s, 2, hex, 32, SQLITE_STATIC);
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW) {
			struct tracev v = { 0 };

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
			if ((t = ssp_idmap_put(L->traces, hi, lo)) != NULL) {
				*t = v;
				if (mark_resplit(L, t) != SSP_OK)
					return NULL;
			}
			goto out;
		}
		sqlite3_reset(s);
		if (rc != SQLITE_DONE) {
			lfail_on(L, L->tdb);
			return NULL;
		}
	}
	if ((t = ssp_idmap_put(L->traces, hi, lo)) != NULL) {
		t->id = L->next_trace++;
		t->start = INT64_MAX;
		t->end = INT64_MIN;
		t->root_ft = -1;
		L->st->traces++;
	}
out:
	if (t == NULL && !L->failed)
		ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	return t;
}

static int
pending(struct loader *L, int what, int64_t row, uint64_t ref)
{
	sqlite3_bind_int(L->ins_pending, 1, what);
	sqlite3_bind_int64(L->ins_pending, 2, row);
	sqlite3_bind_int64(L->ins_pending, 3, (int64_t)ref);
	L->npending++;
	return step(L, L->ins_pending);
}

/* Row of a span id of this run, 0 if not seen (recently). */
static int64_t
span_row(struct loader *L, uint64_t id)
{
	int64_t *v = ssp_idmap_get(L->spans, 0, id);

	return v != NULL ? *v : 0;
}

static void
bind_text_or_null(sqlite3_stmt *s, int i, const char *p, size_t n, int has)
{
	if (has)
		sqlite3_bind_text(s, i, p, (int)n, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

static int
flush_spans(struct loader *L)
{
	sqlite3_stmt *s = L->nrows == BATCH ? L->ins_spans : L->ins_span;
	unsigned i;
	int b = 0;

	for (i = 0; i < L->nrows; i++) {
		const struct srow *r = &L->rows[i];

		sqlite3_bind_int64(s, b + 1, L->run);
		sqlite3_bind_int64(s, b + 2, r->trace);
		if (r->parent != 0)
			sqlite3_bind_int64(s, b + 3, r->parent);
		else
			sqlite3_bind_null(s, b + 3);
		sqlite3_bind_int64(s, b + 4, r->span_id);
		sqlite3_bind_text(s, b + 5, r->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, b + 6, L->streams[r->stream], -1,
		    SQLITE_STATIC);
		sqlite3_bind_int64(s, b + 7, r->start);
		sqlite3_bind_int64(s, b + 8, r->dur);
		sqlite3_bind_int64(s, b + 9, r->flags);
		bind_text_or_null(s, b + 10, r->has_cause ? (char *)L->text.p + r->cause :
		    NULL, r->cause_len, r->has_cause);
		bind_text_or_null(s, b + 11, r->has_extra ? (char *)L->text.p + r->extra :
		    NULL, r->extra_len, r->has_extra);
		if (s == L->ins_spans)
			b += SPAN_COLS;
		else if (step(L, s) != SSP_OK)
			return -1;
	}
	if (s == L->ins_spans && step(L, s) != SSP_OK)
		return -1;
	/* Rows were numbered ahead (children need their parent's id). */
	if (L->nrows > 0 && sqlite3_last_insert_rowid(L->db) != L->next_span - 1)
		return ssp_err_set(L->e, SSP_ERR_IO, 0, "%s: span rows were not "
		    "numbered as expected (concurrent writer?)", L->dbname), -1;
	L->nrows = 0;
	L->text.len = 0;
	return 0;
}

static int
flush_events(struct loader *L)
{
	sqlite3_stmt *s = L->nerows == BATCH ? L->ins_events : L->ins_event;
	unsigned i;
	int b = 0;

	for (i = 0; i < L->nerows; i++) {
		const struct erow *r = &L->erows[i];

		sqlite3_bind_int64(s, b + 1, L->run);
		if (r->span != 0)
			sqlite3_bind_int64(s, b + 2, r->span);
		else
			sqlite3_bind_null(s, b + 2);
		sqlite3_bind_int64(s, b + 3, r->ts);
		sqlite3_bind_text(s, b + 4, r->type, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, b + 5, L->streams[r->stream], -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(s, b + 6, (char *)L->etext.p + r->attrs,
		    (int)r->attrs_len, SQLITE_STATIC);
		if (s == L->ins_events)
			b += EVENT_COLS;
		else if (step(L, s) != SSP_OK)
			return -1;
	}
	if (s == L->ins_events && step(L, s) != SSP_OK)
		return -1;
	if (L->nerows > 0 && sqlite3_last_insert_rowid(L->db) != L->next_event - 1)
		return ssp_err_set(L->e, SSP_ERR_IO, 0, "%s: event rows were not "
		    "numbered as expected (concurrent writer?)", L->dbname), -1;
	L->nerows = 0;
	L->etext.len = 0;
	return 0;
}

/* Append the fields in mask of r as a JSON object to b. */
static int
add_json(struct loader *L, struct ssp_buf *b, const struct ssp_rec *r,
    uint32_t mask, size_t *off, size_t *len)
{
	const struct ssp_rec_type *t = &ssp_rec_rd_file_schema(L->rr)->types[r->ftag - 1];
	size_t n;

	if (ssp_buf_reserve(b, 64) != 0)	/* b->p is not NULL below */
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	for (;;) {
		n = json_fields((char *)b->p + b->len, b->cap - b->len, t, mask, r, L->rr);
		if (n < b->cap - b->len)
			break;
		if (ssp_buf_reserve(b, n + 1) != 0)
			return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	*off = b->len;
	*len = n;
	b->len += n;
	return SSP_OK;
}

static int
flush_kind(struct loader *L, struct kbatch *kb)
{
	sqlite3_stmt **sp = kb->n == BATCH ? &kb->multi : &kb->one, *s;
	unsigned i, j;
	int b = 0;

	if (kb->n == 0)
		return 0;
	if (*sp == NULL && prep_multi(L, sp, kb->head, kb->ncols + 1,
	    kb->n == BATCH ? BATCH : 1) != SSP_OK)
		return -1;
	s = *sp;

	for (i = 0; i < kb->n; i++) {
		const struct cell *c = &kb->cells[i * kb->ncols];

		sqlite3_bind_int64(s, b + 1, kb->span[i]);
		for (j = 0; j < kb->ncols; j++) {
			if (c[j].type == SQLITE_INTEGER)
				sqlite3_bind_int64(s, b + 2 + (int)j, c[j].i);
			else if (c[j].type == SQLITE_TEXT)
				sqlite3_bind_text(s, b + 2 + (int)j,
				    (char *)kb->text.p + c[j].i, (int)c[j].len,
				    SQLITE_STATIC);
			else
				sqlite3_bind_null(s, b + 2 + (int)j);
		}
		if (s == kb->multi)
			b += (int)kb->ncols + 1;
		else if (step(L, s) != SSP_OK)
			return -1;
	}
	if (s == kb->multi && step(L, s) != SSP_OK)
		return -1;
	kb->n = 0;
	kb->text.len = 0;
	return 0;
}

static int
flush_all_kinds(struct loader *L)
{
	unsigned t;

	for (t = 0; t < L->nft; t++)
		if (L->ft[t].kb != NULL && flush_kind(L, L->ft[t].kb) != 0)
			return -1;
	return 0;
}

static int
add_text(struct loader *L, struct ssp_buf *b, struct cell *c, const char *p,
    size_t n)
{
	if (ssp_buf_reserve(b, n + 1) != 0)	/* never NULL below */
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	memcpy(b->p + b->len, p, n);
	c->type = SQLITE_TEXT;
	c->i = (int64_t)b->len;
	c->len = n;
	b->len += n;
	return SSP_OK;
}

/* --- writing directly: the rows -------------------------------------------- */

/*
 * A database is not filled with INSERTs: SQLite creates the schema of a
 * new one, indexes included, and the run's own rows (runs, run_meta,
 * streams) and commits; then ssp_sqlite_direct fills the spans,
 * attribute, links and events tables as the stream is read, the traces
 * table at the end, and every index from its sorted keys.  Appending, the
 * rows go at the right edge of the existing tables and the sorted keys
 * are merged into the existing indexes (ssp_btree).  While
 * loading, traces and pending references live in a private SQLite
 * database (trace_of() looks evicted traces up there as usual).  SQLite
 * then opens the file again for what is left: references resolved late,
 * splits of evicted traces, the run's counts, ANALYZE; then the one file
 * is synced and renamed as always.
 *
 * The tables' layout is formats/simspan.sql's, as SQLite created it
 * (sqlite_direct.h); a table the writer cannot fill makes the load use
 * INSERTs.  The rows below are given as sqlite_direct.h lists the values.
 */
struct trow {			/* a trace row kept in memory */
	struct tracev t;
	uint64_t hi, lo;
	int64_t busy;
	size_t json, slen, klen;	/* its split: streams, kinds in tjson */
};

struct direct {
	struct ssp_sqlite_direct *w;
	sqlite3 *aux;		/* traces and pending references */
	char addr[DCOLS][24];	/* addresses of a row as text */
	struct trow *trows;	/* the traces cached at the end */
	size_t ntrows, captrows;
	struct ssp_buf tjson;
};

static struct ssp_btree_val
v_ref(int64_t row)
{
	return row > 0 ? ssp_btree_int(row) : ssp_btree_null();
}

/* A span row and its index keys. */
static int
d_span(struct loader *L, const struct srow *sr, unsigned ft, int64_t row)
{
	struct ssp_btree_val v[SSP_SQLITE_DIRECT_NVALS];

	v[0] = ssp_btree_null();
	v[1] = ssp_btree_int(L->run);
	v[2] = ssp_btree_int(sr->trace);
	v[3] = v_ref(sr->parent);
	v[4] = ssp_btree_int(sr->span_id);
	v[5] = ssp_btree_str(sr->kind);
	v[6] = ssp_btree_str(L->streams[sr->stream]);
	v[7] = ssp_btree_int(sr->start);
	v[8] = ssp_btree_int(sr->dur);
	v[9] = ssp_btree_int(sr->flags);
	v[10] = sr->has_cause ? ssp_btree_text((char *)L->text.p + sr->cause, sr->cause_len) :
	    ssp_btree_null();
	v[11] = sr->has_extra ? ssp_btree_text((char *)L->text.p + sr->extra, sr->extra_len) :
	    ssp_btree_null();
	if (ssp_sqlite_direct_row(L->dw->w, SSP_SQLITE_DIRECT_SPANS, row, v,
	    (int)ft, sr->stream) != SSP_OK)
		return -1;
	L->text.len = 0;
	return SSP_OK;
}

/* The attribute row of a span: every stored column of the table. */
static int
d_attrs(struct loader *L, struct kbatch *kb, unsigned ft,
    const struct ssp_rec *r, int64_t row)
{
	const struct ssp_rec_type *t = &ssp_rec_rd_file_schema(L->rr)->types[r->ftag - 1];
	struct ssp_btree_val v[DCOLS];
	unsigned j;

	for (j = 0; j < kb->dn; j++) {
		int k = kb->dmap[j];
		uint64_t x;
		char enc;
		const char *s;
		size_t n;

		v[j] = ssp_btree_null();
		if (k < 0 || (unsigned)k >= r->nf)
			continue;
		x = r->f[k];
		enc = t->f[k].enc;
		if (absent(enc, x))
			continue;
		if (enc == SSP_ENC_S) {
			if ((s = ssp_rec_rd_str(L->rr, x, &n)) != NULL)
				v[j] = ssp_btree_text(s, n);
		} else if (enc == SSP_ENC_A || enc == SSP_ENC_M) {
			struct jw w = { L->dw->addr[j], sizeof(L->dw->addr[j]), 0 };

			if (enc == SSP_ENC_A)
				jw_ip(&w, x);
			else
				jw_mac(&w, x);
			v[j] = ssp_btree_text(L->dw->addr[j], w.len);
		} else {
			v[j] = ssp_btree_int(enc == SSP_ENC_B ? x != 0 : (int64_t)x);
		}
	}
	if (ssp_sqlite_direct_attr(L->dw->w, ft, row, v, kb->dn) != SSP_OK)
		return -1;
	kb->drows++;
	return SSP_OK;
}

static int
d_link(struct loader *L, int64_t row, int64_t span, int64_t target,
    const char *kind, size_t kl, uint64_t sid, uint64_t tid, const char *hex)
{
	struct ssp_btree_val v[SSP_SQLITE_DIRECT_NVALS];

	v[0] = ssp_btree_null();
	v[1] = ssp_btree_int(L->run);
	v[2] = v_ref(span);
	v[3] = v_ref(target);
	v[4] = kind != NULL ? ssp_btree_text(kind, kl) : ssp_btree_null();
	v[5] = ssp_btree_int((int64_t)sid);
	v[6] = ssp_btree_int((int64_t)tid);
	v[7] = ssp_btree_text(hex, 32);
	if (ssp_sqlite_direct_row(L->dw->w, SSP_SQLITE_DIRECT_LINKS, row, v, -1,
	    0) != SSP_OK)
		return -1;
	return SSP_OK;
}

static int
d_event(struct loader *L, const struct erow *er, int64_t row)
{
	struct ssp_btree_val v[SSP_SQLITE_DIRECT_NVALS];

	v[0] = ssp_btree_null();
	v[1] = ssp_btree_int(L->run);
	v[2] = v_ref(er->span);
	v[3] = ssp_btree_int(er->ts);
	v[4] = ssp_btree_str(er->type);
	v[5] = ssp_btree_str(L->streams[er->stream]);
	v[6] = ssp_btree_text((char *)L->etext.p + er->attrs, er->attrs_len);
	if (ssp_sqlite_direct_row(L->dw->w, SSP_SQLITE_DIRECT_EVENTS, row, v, -1,
	    er->stream) != SSP_OK)
		return -1;
	L->etext.len = 0;
	return SSP_OK;
}

/* The attribute row of a span, typed as formats/sqlite.md says. */
static int
add_attrs(struct loader *L, struct kbatch *kb, const struct ssp_rec *r,
    int64_t row)
{
	const struct ssp_rec_type *t = &ssp_rec_rd_file_schema(L->rr)->types[r->ftag - 1];
	struct cell *c = &kb->cells[kb->n * kb->ncols];
	char tmp[24];
	unsigned j;

	kb->span[kb->n] = row;
	for (j = 0; j < kb->ncols; j++) {
		unsigned k = kb->field[j];
		uint64_t v = r->f[k];
		char enc = t->f[k].enc;
		const char *s;
		size_t n;

		c[j].type = SQLITE_NULL;
		if (absent(enc, v))
			continue;
		if (enc == SSP_ENC_S) {
			if ((s = ssp_rec_rd_str(L->rr, v, &n)) != NULL &&
			    add_text(L, &kb->text, &c[j], s, n) != SSP_OK)
				return -1;
		} else if (enc == SSP_ENC_A || enc == SSP_ENC_M) {
			struct jw w = { tmp, sizeof(tmp), 0 };

			if (enc == SSP_ENC_A)
				jw_ip(&w, v);
			else
				jw_mac(&w, v);
			if (add_text(L, &kb->text, &c[j], tmp, w.len) != SSP_OK)
				return -1;
		} else {
			c[j].type = SQLITE_INTEGER;
			c[j].i = enc == SSP_ENC_B ? v != 0 : (int64_t)v;
		}
	}
	if (++kb->n == BATCH)
		return flush_kind(L, kb);
	return SSP_OK;
}

static int
add_span(struct loader *L, const struct ssp_rec *r, const struct ftinfo *fi)
{
	uint64_t sid = r->f[SSP_SF_SPAN], pid = r->f[SSP_SF_PARENT];
	uint64_t stream = r->f[SSP_SF_STREAM];
	int64_t dur = (int64_t)r->f[SSP_SF_DUR];
	int64_t end = (int64_t)((uint64_t)r->ts + (uint64_t)dur);
	int64_t row = L->next_span;
	struct tracev *t;
	struct srow *sr;
	int64_t *v;
	const char *cs;
	size_t cl;

	ssp_idmap_prefetch(L->spans, 0, sid);	/* put below */
	if (stream >= L->nstreams)
		return infail(L, "span record refers to stream %llu; the header "
		    "lists %llu", (unsigned long long)stream,
		    (unsigned long long)L->nstreams);
	if ((t = trace_of(L, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO])) == NULL)
		return -1;
	if (r->ts < t->start)
		t->start = r->ts;
	if (end > t->end)
		t->end = end;
	t->n++;
	if (pid == 0 && t->root_ft < 0) {
		t->root = row;
		t->root_ft = (int32_t)(fi - L->ft);
		t->root_stream = (int32_t)stream;
	}
	if (add_ivl(L, t, r->ts, end, (uint32_t)stream,
	    (uint32_t)(fi - L->ft)) != SSP_OK)
		return -1;
	sr = &L->rows[L->nrows];
	sr->trace = t->id;
	sr->parent = 0;
	if (pid != 0 && (sr->parent = span_row(L, pid)) == 0 &&
	    pending(L, P_PARENT, row, pid) != SSP_OK)
		return -1;
	if ((v = ssp_idmap_put(L->spans, 0, sid)) == NULL)
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	*v = row;
	sr->span_id = (int64_t)sid;
	sr->kind = fi->name;
	sr->stream = (uint32_t)stream;
	sr->start = r->ts;
	sr->dur = dur;
	sr->flags = (int64_t)r->f[SSP_SF_FLAGS];
	sr->has_cause = 0;
	if (r->f[SSP_SF_CAUSE] != 0 &&
	    (cs = ssp_rec_rd_str(L->rr, r->f[SSP_SF_CAUSE], &cl)) != NULL) {
		if (ssp_buf_reserve(&L->text, cl + 1) != 0)
			return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
		sr->cause = L->text.len;
		sr->cause_len = cl;
		memcpy((char *)L->text.p + L->text.len, cs, cl);
		L->text.len += cl;
		sr->has_cause = 1;
	}
	sr->has_extra = 0;
	if (fi->extra != 0) {
		if (add_json(L, &L->text, r, fi->extra, &sr->extra,
		    &sr->extra_len) != SSP_OK)
			return -1;
		sr->has_extra = sr->extra_len > 2;	/* not "{}" */
	}
	if (L->dw != NULL) {
		if (d_span(L, sr, (unsigned)(fi - L->ft), row) != SSP_OK ||
		    (fi->kb != NULL && d_attrs(L, fi->kb,
		    (unsigned)(fi - L->ft), r, row) != SSP_OK))
			return -1;
	} else if (fi->kb != NULL && add_attrs(L, fi->kb, r, row) != SSP_OK) {
		return -1;
	}
	L->next_span++;
	L->st->spans++;
	if (fi->kind < SSP_SK_NKINDS)
		L->st->kinds[fi->kind]++;
	else
		L->st->other_kinds++;
	L->stream_spans[stream]++;
	if (L->dw == NULL && ++L->nrows == BATCH)
		return flush_spans(L);
	return SSP_OK;
}

static int
add_link(struct loader *L, const struct ssp_rec *r)
{
	sqlite3_stmt *s = L->ins_link;
	uint64_t sid = r->f[SSP_LF_SPAN], tid = r->f[SSP_LF_TARGET];
	int64_t span = span_row(L, sid), target = span_row(L, tid), row;
	const char *k = NULL;
	size_t kl = 0;
	char hex[33];

	trace_hex(hex, r->f[SSP_LF_TRACE_HI], r->f[SSP_LF_TRACE_LO]);
	if (r->f[SSP_LF_KIND] != 0)
		k = ssp_rec_rd_str(L->rr, r->f[SSP_LF_KIND], &kl);
	if (L->dw != NULL) {
		row = L->next_link++;
		if (d_link(L, row, span, target, k, kl, sid, tid, hex) != SSP_OK)
			return -1;
		goto refs;
	}
	sqlite3_bind_int64(s, 1, L->run);
	if (span != 0)
		sqlite3_bind_int64(s, 2, span);
	else
		sqlite3_bind_null(s, 2);
	if (target != 0)
		sqlite3_bind_int64(s, 3, target);
	else
		sqlite3_bind_null(s, 3);
	bind_text_or_null(s, 4, k, kl, k != NULL);
	sqlite3_bind_int64(s, 5, (int64_t)sid);
	sqlite3_bind_int64(s, 6, (int64_t)tid);
	sqlite3_bind_text(s, 7, hex, 32, SQLITE_STATIC);
	if (step(L, s) != SSP_OK)
		return -1;
	row = sqlite3_last_insert_rowid(L->db);
refs:
	if ((span == 0 && pending(L, P_LINK_SPAN, row, sid) != SSP_OK) ||
	    (target == 0 && pending(L, P_LINK_TARGET, row, tid) != SSP_OK))
		return -1;
	L->st->links++;
	return SSP_OK;
}

static int
add_event(struct loader *L, const struct ssp_rec *r, const struct ftinfo *fi)
{
	uint64_t sid = r->f[SSP_EF_SPAN], stream = r->f[SSP_EF_STREAM];
	struct erow *er = &L->erows[L->nerows];
	int64_t row = L->next_event;

	if (stream >= L->nstreams)
		return infail(L, "event record refers to stream %llu; the header "
		    "lists %llu", (unsigned long long)stream,
		    (unsigned long long)L->nstreams);
	if ((er->span = span_row(L, sid)) == 0 &&
	    pending(L, P_EVENT_SPAN, row, sid) != SSP_OK)
		return -1;
	er->ts = r->ts;
	er->type = fi->name;
	er->stream = (uint32_t)stream;
	if (add_json(L, &L->etext, r, fields_from(SSP_EF_NCOMMON, r->nf),
	    &er->attrs, &er->attrs_len) != SSP_OK)
		return -1;
	if (L->dw != NULL && d_event(L, er, row) != SSP_OK)
		return -1;
	L->next_event++;
	L->st->events++;
	if (L->dw == NULL && ++L->nerows == BATCH)
		return flush_events(L);
	return SSP_OK;
}

/*
 * References to spans that were not in the cache when needed (written
 * later than their user, or long before): one pass over the run's spans.
 */
static int
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
	int rc, i, r = -1;

	if (L->npending == 0)
		return 0;
	if (exec(L->db, "CREATE INDEX temp.pending_ref ON pending(ref)",
	    L->dbname, L->e) != SSP_OK)
		return -1;
	for (i = 0; i < 4; i++)
		if (prep(L, &u[i], upd[i]) != SSP_OK)
			goto out;
	/* CROSS JOIN keeps spans outside: one scan of the run's rows. */
	if (prep(L, &q, "SELECT p.rowid, p.what, p.row, s.id FROM spans AS s "
	    "CROSS JOIN temp.pending AS p ON p.ref = s.span_id "
	    "WHERE s.id BETWEEN ?1 AND ?2 ORDER BY p.rowid, s.id") != SSP_OK)
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
		if (step(L, u[what]) != SSP_OK)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		lfail(L);
		goto out;
	}
	L->st->unresolved = L->npending - L->st->late;
	r = 0;
out:
	sqlite3_finalize(q);
	for (i = 0; i < 4; i++)
		sqlite3_finalize(u[i]);
	return r;
}

/* Splits of the traces that could not be split in memory. */
static int
resplit_all(struct loader *L)
{
	sqlite3_stmt *q = NULL, *u = NULL;
	struct ivl *v = NULL, *nv;
	uint32_t n = 0, cap = 0;
	int64_t cur = 0, busy;
	int rc, r = -1, more;

	L->st->resplit = L->nresplit;
	if (L->nresplit == 0)
		return 0;
	if (prep(L, &q, "SELECT trace, start_ps, end_ps, stream, kind FROM spans "
	    "WHERE id BETWEEN ?1 AND ?2 AND trace IN (SELECT trace FROM "
	    "temp.resplit) ORDER BY trace") != SSP_OK ||
	    prep(L, &u, "UPDATE traces SET busy_ps = ?, streams = ?, kinds = ? "
	    "WHERE id = ?") != SSP_OK)
		goto out;
	sqlite3_bind_int64(q, 1, L->first_span);
	sqlite3_bind_int64(q, 2, L->next_span - 1);
	do {
		rc = sqlite3_step(q);
		more = rc == SQLITE_ROW;
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			lfail(L);
			goto out;
		}
		if (n > 0 && (!more || sqlite3_column_int64(q, 0) != cur)) {
			if ((busy = split(L, v, n)) < 0)
				goto nomem;
			sqlite3_bind_int64(u, 1, busy);
			sqlite3_bind_text(u, 2, (char *)L->sbuf.p, (int)L->sbuf.len,
			    SQLITE_STATIC);
			sqlite3_bind_text(u, 3, (char *)L->kbuf.p, (int)L->kbuf.len,
			    SQLITE_STATIC);
			sqlite3_bind_int64(u, 4, cur);
			if (step(L, u) != SSP_OK)
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
			v[n++] = (struct ivl){ sqlite3_column_int64(q, 1),
			    sqlite3_column_int64(q, 2), (uint32_t)st, (uint32_t)ft };
		}
	} while (more);
	r = 0;
	goto out;
nomem:
	ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
out:
	sqlite3_finalize(q);
	sqlite3_finalize(u);
	free(v);
	return r;
}

static int
name_taken(struct loader *L, const char *name, int *taken)
{
	sqlite3_stmt *s;
	int rc;

	if (prep(L, &s, "SELECT 1 FROM runs WHERE name = ?") != SSP_OK)
		return -1;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return lfail(L), -1;
	*taken = rc == SQLITE_ROW;
	return 0;
}

/* The run name: given, or "<input base name>@<UTC time>" made unique. */
static int
run_name(struct loader *L, const char *source, const char *when)
{
	char *name = L->st->run_name, base[200];
	size_t cap = sizeof(L->st->run_name);
	const char *slash;
	int taken, i;

	if (L->o->run != NULL) {
		if (*L->o->run == '\0' || strlen(L->o->run) >= cap)
			return ssp_err_set(L->e, SSP_ERR_INVAL, 0, "run name must "
			    "have 1 to %zu bytes", cap - 1), -1;
		snprintf(name, cap, "%s", L->o->run);
		if (name_taken(L, name, &taken) != 0)
			return -1;
		if (taken)
			return ssp_err_set(L->e, SSP_ERR_INVAL, 0, "%s: a run named "
			    "'%s' already exists", L->dbname, name), -1;
		return 0;
	}
	slash = strrchr(source, '/');
	snprintf(base, sizeof(base), "%s", strcmp(source, "-") == 0 ? "stdin" :
	    slash != NULL && slash[1] != '\0' ? slash + 1 : source);
	for (i = 1; i < 1000; i++) {
		if (i == 1)
			snprintf(name, cap, "%s@%s", base, when);
		else
			snprintf(name, cap, "%s@%s#%d", base, when, i);
		if (name_taken(L, name, &taken) != 0)
			return -1;
		if (!taken)
			return 0;
	}
	return ssp_err_set(L->e, SSP_ERR_LIMIT, 0, "%s: too many runs named "
	    "'%s@%s'", L->dbname, base, when), -1;
}

/* runs, run_meta and streams rows for the header. */
static int
add_run(struct loader *L)
{
	const char *source = L->o->source != NULL ? L->o->source : "-";
	time_t now = L->o->now != 0 ? L->o->now : time(NULL);
	struct ssp_span_source *src = NULL;
	sqlite3_stmt *s = NULL;
	char when[32];
	struct tm tm;
	int n, i, j, r = -1;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (run_name(L, source, when) != 0)
		return -1;
	if (prep(L, &s, "INSERT INTO runs(name, source, loaded, tool, spans, "
	    "links, events, traces) VALUES (?, ?, ?, ?, 0, 0, NULL, 0)") != SSP_OK)
		return -1;
	sqlite3_bind_text(s, 1, L->st->run_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, when, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, L->o->tool != NULL ? L->o->tool : "simspan", -1,
	    SQLITE_STATIC);
	if (step(L, s) != SSP_OK)
		goto out;
	L->run = L->st->run = sqlite3_last_insert_rowid(L->db);
	sqlite3_finalize(s);
	if (prep(L, &s, "INSERT INTO run_meta(run, key, value) VALUES (?,?,?)"))
		return -1;
	for (i = 0; i < (int)ssp_rec_rd_nmeta(L->rr); i++) {
		const struct ssp_meta *m = ssp_rec_rd_meta_at(L->rr, (size_t)i);

		sqlite3_bind_int64(s, 1, L->run);
		sqlite3_bind_text(s, 2, m->key, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, m->value, -1, SQLITE_STATIC);
		if (step(L, s) != SSP_OK)
			goto out;
	}
	sqlite3_finalize(s);
	s = NULL;

	n = ssp_span_reader_sources(L->rr, NULL, 0);
	if (n < 0) {
		infail(L, "bad stream list in the header");
		goto out;
	}
	src = calloc((size_t)n + 1, sizeof(*src));
	L->streams = calloc((size_t)n + 1, sizeof(*L->streams));
	L->stream_spans = calloc((size_t)n + 1, sizeof(*L->stream_spans));
	if (src == NULL || L->streams == NULL || L->stream_spans == NULL) {
		ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	ssp_span_reader_sources(L->rr, src, (size_t)n);
	for (i = 0; i < n; i++) {
		if ((L->streams[i] = strndup(src[i].name, src[i].namelen)) == NULL) {
			ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
			goto out;
		}
		L->nstreams++;
		for (j = 0; j < i; j++)
			if (strcmp(L->streams[i], L->streams[j]) == 0) {
				ssp_err_set(L->e, SSP_ERR_FORMAT, 0, "%s: the header "
				    "lists stream '%.100s' twice", ssp_rec_rd_name(L->rr),
				    L->streams[i]);
				goto out;
			}
	}
	if (prep(L, &s, "INSERT INTO streams(run, idx, name, sim, kind, spans) "
	    "VALUES (?,?,?,?,?,0)") != SSP_OK)
		goto out;
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(s, 1, L->run);
		sqlite3_bind_int(s, 2, i);
		sqlite3_bind_text(s, 3, L->streams[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, ssp_event_sim_name(src[i].sim), -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 5, ssp_event_sim_kind(src[i].sim), -1, SQLITE_STATIC);
		if (step(L, s) != SSP_OK)
			goto out;
	}
	r = 0;
out:
	sqlite3_finalize(s);
	free(src);
	return r;
}

/* Counts into runs and streams. */
static int
finish_run(struct loader *L)
{
	sqlite3_stmt *s = NULL;
	size_t i;
	int r = -1;

	if (prep(L, &s, "UPDATE runs SET spans = ?, links = ?, events = ?, "
	    "traces = ? WHERE id = ?") != SSP_OK)
		return -1;
	sqlite3_bind_int64(s, 1, (int64_t)L->st->spans);
	sqlite3_bind_int64(s, 2, (int64_t)L->st->links);
	if (L->o->events)
		sqlite3_bind_int64(s, 3, (int64_t)L->st->events);
	else
		sqlite3_bind_null(s, 3);
	sqlite3_bind_int64(s, 4, (int64_t)L->st->traces);
	sqlite3_bind_int64(s, 5, L->run);
	if (step(L, s) != SSP_OK)
		goto out;
	sqlite3_finalize(s);
	if (prep(L, &s, "UPDATE streams SET spans = ? WHERE run = ? AND idx = ?"))
		return -1;
	for (i = 0; i < L->nstreams; i++) {
		sqlite3_bind_int64(s, 1, (int64_t)L->stream_spans[i]);
		sqlite3_bind_int64(s, 2, L->run);
		sqlite3_bind_int64(s, 3, (int64_t)i);
		if (step(L, s) != SSP_OK)
			goto out;
	}
	r = 0;
out:
	sqlite3_finalize(s);
	return r;
}

static int
next_id(struct loader *L, const char *sql, int64_t *out)
{
	if (query_int(L->db, sql, 0, out) != 0)
		return lfail(L), -1;
	(*out)++;
	return 0;
}

/* --- writing directly: before and after the stream ----------------------- */

struct ssp_sqlite {
	char *name;		/* the database as the user named it */
	char *path;		/* the database (symbolic links resolved) */
	char *tmp;		/* where it is written */
	int dirfd;		/* its directory, locked */
	int tmpfd;		/* the temporary file, flocked while written */
	sqlite3 *db;
	int fresh;		/* no previous database: index after the load */
	int direct;		/* written directly: indexed already */
	int upgrade;		/* the copy is schema version 1: migrate it */
	mode_t mode;
	/* a new database written directly: the rows of its attribute
	 * tables, for their statistics (analyze_fresh) */
	struct tcount {
		char table[80];
		int64_t rows;
	} *counts;
	size_t ncounts;
};

/* Open the temporary file with SQLite (no transaction yet). */
static int
open_tmp(struct ssp_sqlite *d, struct ssp_err *e)
{
	if (sqlite3_open_v2(d->tmp, &d->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return db_fail(e, d->db, d->tmp);
	/* No journal, no syncs: the file is renamed into place only when it
	 * is complete, and synced once before that. */
	return exec(d->db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
	    "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536;",
	    d->tmp, e);
}

/*
 * Start writing the rows directly (a new database, or the copy of one
 * appended to): 1 when that is under way (the
 * SQLite connection d->db is closed), 0 when the load has to use INSERTs
 * (nothing was changed), -1 on error.
 */
static int
direct_begin(struct loader *L, struct ssp_sqlite *d)
{
	struct direct *dw;
	const char **names;
	unsigned t;
	int rc, r = -1;

	for (t = 0; t < L->nft; t++)
		if (L->ft[t].kb != NULL && !L->ft[t].kb->dok)
			return 0;
	if ((names = calloc(L->nft + 1, sizeof(*names))) == NULL)
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory"), -1;
	if ((dw = calloc(1, sizeof(*dw))) == NULL) {
		free(names);
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory"), -1;
	}
	for (t = 0; t < L->nft; t++)
		names[t] = L->ft[t].kb != NULL ? L->ft[t].kb->table : NULL;
	if ((rc = ssp_sqlite_direct_plan(&dw->w, L->db, names, L->nft,
	    L->e)) != 1) {
		free(names);
		free(dw);
		return rc < 0 ? -1 : 0;
	}
	L->dw = dw;
	/* The indexes (a new database: while the tables are empty); then how
	 * each is built. */
	if ((d->fresh && create_indexes(L->db, L->e) != SSP_OK) ||
	    ssp_sqlite_direct_indexes(dw->w, L->db) != SSP_OK)
		goto out;
	/* The run's own rows go in with SQL; then SQLite lets go of the file. */
	if (add_run(L) != 0 ||
	    next_id(L, "SELECT max(id) FROM spans", &L->next_span) != 0 ||
	    next_id(L, "SELECT max(id) FROM events", &L->next_event) != 0 ||
	    next_id(L, "SELECT max(id) FROM links", &L->next_link) != 0 ||
	    next_id(L, "SELECT max(id) FROM traces", &L->next_trace) != 0)
		goto out;
	if (L->run < 1 || L->run > INT32_MAX) {
		ssp_err_set(L->e, SSP_ERR_LIMIT, 0, "%s: run %lld", L->dbname,
		    (long long)L->run);
		goto out;
	}
	if (exec(L->db, "COMMIT", L->dbname, L->e) != SSP_OK)
		goto out;
	for (t = 0; t < L->nft; t++) {
		struct kbatch *kb = L->ft[t].kb;

		if (kb != NULL) {
			sqlite3_finalize(kb->multi);
			sqlite3_finalize(kb->one);
			kb->multi = kb->one = NULL;
		}
	}
	if (sqlite3_close(L->db) != SQLITE_OK) {
		lfail(L);
		goto out;
	}
	d->db = L->db = NULL;

	/* traces and pending references: a private temporary database */
	if (sqlite3_open_v2("", &dw->aux, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		lfail_on(L, dw->aux);
		goto out;
	}
	L->tdb = dw->aux;
	if (exec(dw->aux, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
	    "PRAGMA cache_size = -16384; BEGIN", L->dbname, L->e) != SSP_OK ||
	    ssp_sqlite_create(dw->aux, L->e) != SSP_OK)
		goto out;

	for (t = 0; t < L->nft; t++)
		names[t] = L->ft[t].cls == C_SPAN ? L->ft[t].name : NULL;
	if (ssp_sqlite_direct_open(dw->w, d->tmp, names,
	    (const char *const *)L->streams, L->nstreams, L->o->sort_mem ?
	    L->o->sort_mem : SORT_MEM) != SSP_OK)
		goto out;
	L->st->direct = 1;
	r = 1;
out:
	free(names);
	return r;
}

/* A trace row into the file (ft: the file type of its root, -1: by the
 * root_kind name). */
static int
d_trace_out(struct loader *L, int64_t id, struct ssp_btree_val *v, int ft)
{
	return ssp_sqlite_direct_row(L->dw->w, SSP_SQLITE_DIRECT_TRACES, id, v,
	    ft, 0) != SSP_OK ? -1 : SSP_OK;
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
	struct direct *dw = L->dw;
	struct tracev *t = value;
	struct trow *tr;
	int64_t busy = 0;

	if (!t->resplit && (busy = split(L, t->ivl, t->nivl)) < 0)
		goto nomem;
	drop_ivl(L, t);
	if (dw->ntrows == dw->captrows) {
		size_t cap = dw->captrows ? 2 * dw->captrows : 1024;

		if ((tr = realloc(dw->trows, cap * sizeof(*tr))) == NULL)
			goto nomem;
		dw->trows = tr;
		dw->captrows = cap;
	}
	tr = &dw->trows[dw->ntrows++];
	tr->t = *t;
	tr->hi = hi;
	tr->lo = lo;
	tr->busy = busy;
	tr->json = dw->tjson.len;
	tr->slen = t->resplit ? 0 : L->sbuf.len;
	tr->klen = t->resplit ? 0 : L->kbuf.len;
	if (ssp_buf_reserve(&dw->tjson, tr->slen + tr->klen + 1) != 0)
		goto nomem;
	memcpy(dw->tjson.p + dw->tjson.len, (char *)L->sbuf.p, tr->slen);
	memcpy(dw->tjson.p + dw->tjson.len + tr->slen, (char *)L->kbuf.p, tr->klen);
	dw->tjson.len += tr->slen + tr->klen;
	return 0;
nomem:
	ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	L->failed = 1;
	return -1;
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
trow_values(struct loader *L, const struct trow *tr, struct ssp_btree_val *v,
    char *hex)
{
	const struct tracev *t = &tr->t;

	trace_hex(hex, tr->hi, tr->lo);
	v[0] = ssp_btree_null();
	v[1] = ssp_btree_int(L->run);
	v[2] = ssp_btree_text(hex, 32);
	if (t->root_ft >= 0) {
		v[3] = ssp_btree_int(t->root);
		v[4] = ssp_btree_str(L->ft[t->root_ft].name);
		v[5] = ssp_btree_str(L->streams[t->root_stream]);
	} else {
		v[3] = v[4] = v[5] = ssp_btree_null();
	}
	v[6] = ssp_btree_int(t->start);
	v[7] = ssp_btree_int(t->end);
	v[8] = ssp_btree_int((int64_t)t->n);
	if (t->resplit) {
		v[9] = v[10] = v[11] = ssp_btree_null();
	} else {
		v[9] = ssp_btree_int(tr->busy);
		v[10] = ssp_btree_text((char *)L->dw->tjson.p + tr->json, tr->slen);
		v[11] = ssp_btree_text((char *)L->dw->tjson.p + tr->json + tr->slen, tr->klen);
	}
	return t->root_ft;
}

/* The traces into the file in id order: those in memory merged with those
 * in the private database (a trace in both: the one in memory is newer). */
static int
d_traces(struct loader *L)
{
	struct direct *dw = L->dw;
	struct ssp_btree_val v[SSP_SQLITE_DIRECT_NVALS];
	sqlite3_stmt *s = NULL;
	size_t i = 0;
	int rc, c, r = -1;
	char hex[33];

	qsort(dw->trows, dw->ntrows, sizeof(*dw->trows), cmp_trow);
	if (prep_on(L, dw->aux, &s, "SELECT id, run, trace_id, root, root_kind, "
	    "root_stream, start_ps, end_ps, spans, busy_ps, streams, kinds "
	    "FROM traces ORDER BY id") != SSP_OK)
		return -1;
	rc = sqlite3_step(s);
	for (;;) {
		int64_t aid = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) :
		    INT64_MAX;

		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			lfail_on(L, dw->aux);
			goto out;
		}
		if (i < dw->ntrows && dw->trows[i].t.id <= aid) {
			int kr = trow_values(L, &dw->trows[i], v, hex);

			if (d_trace_out(L, dw->trows[i].t.id, v, kr) != SSP_OK)
				goto out;
			if (dw->trows[i++].t.id == aid)
				rc = sqlite3_step(s);	/* the older row */
			continue;
		}
		if (rc != SQLITE_ROW)
			break;
		v[0] = ssp_btree_null();
		for (c = 1; c < 12; c++) {
			switch (sqlite3_column_type(s, c)) {
			case SQLITE_INTEGER:
				v[c] = ssp_btree_int(sqlite3_column_int64(s, c));
				break;
			case SQLITE_TEXT:
				v[c] = ssp_btree_text((const char *)sqlite3_column_text(s, c),
				    (size_t)sqlite3_column_bytes(s, c));
				break;
			default:	/* what this loader writes: NULL */
				v[c] = ssp_btree_null();
			}
		}
		if (d_trace_out(L, aid, v, -1) != SSP_OK)
			goto out;
		rc = sqlite3_step(s);
	}
	r = 0;
out:
	sqlite3_finalize(s);
	return r;
}

/* Move the pending references and traces to split into db's temp tables. */
static int
copy_pending(struct loader *L, sqlite3 *db)
{
	sqlite3_stmt *q = NULL, *u = NULL;
	int rc, r = -1, c;

	if (exec(db, "CREATE TEMP TABLE IF NOT EXISTS pending(what INTEGER, "
	    "row INTEGER, ref INTEGER); "
	    "CREATE TEMP TABLE IF NOT EXISTS resplit(trace INTEGER PRIMARY KEY)",
	    L->dbname, L->e) != SSP_OK)
		return -1;
	if (L->npending > 0) {
		if (prep_on(L, L->tdb, &q, "SELECT what, row, ref FROM "
		    "temp.pending ORDER BY rowid") != SSP_OK ||
		    prep_on(L, db, &u, "INSERT INTO temp.pending(what, row, ref) "
		    "VALUES (?,?,?)") != SSP_OK)
			goto out;
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			for (c = 0; c < 3; c++)
				sqlite3_bind_int64(u, c + 1, sqlite3_column_int64(q, c));
			if (step(L, u) != SSP_OK)
				goto out;
		}
		if (rc != SQLITE_DONE) {
			lfail_on(L, L->tdb);
			goto out;
		}
		sqlite3_finalize(q);
		sqlite3_finalize(u);
		q = u = NULL;
	}
	if (L->nresplit > 0) {
		if (prep_on(L, L->tdb, &q, "SELECT trace FROM temp.resplit") !=
		    SSP_OK || prep_on(L, db, &u, "INSERT OR IGNORE INTO "
		    "temp.resplit(trace) VALUES (?)") != SSP_OK)
			goto out;
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			sqlite3_bind_int64(u, 1, sqlite3_column_int64(q, 0));
			if (step(L, u) != SSP_OK)
				goto out;
		}
		if (rc != SQLITE_DONE) {
			lfail_on(L, L->tdb);
			goto out;
		}
	}
	r = 0;
out:
	sqlite3_finalize(q);
	sqlite3_finalize(u);
	return r;
}

/* The rows written into each attribute table, for analyze_fresh(). */
static int
count_rows(struct loader *L, struct ssp_sqlite *d)
{
	size_t i, t;

	free(d->counts);
	d->ncounts = 0;
	if ((d->counts = calloc(L->nft + 1, sizeof(*d->counts))) == NULL)
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory"), -1;
	for (t = 0; t < L->nft; t++) {
		const struct kbatch *kb = L->ft[t].kb;

		if (kb == NULL)
			continue;
		for (i = 0; i < d->ncounts; i++)	/* a table two types share */
			if (strcmp(d->counts[i].table, kb->table) == 0)
				break;
		if (i == d->ncounts)
			memcpy(d->counts[d->ncounts++].table, kb->table,
			    sizeof(kb->table));
		d->counts[i].rows += kb->drows;
	}
	return 0;
}

/*
 * The stream is read: traces and indexes into the file, the file closed;
 * SQLite opens it again (in a transaction) for the rest.
 */
static int
direct_finish(struct loader *L, struct ssp_sqlite *d)
{
	struct direct *dw = L->dw;
	const char *const *reindex;
	size_t i, n;

	/* the other tables' index keys sort meanwhile */
	if (ssp_sqlite_direct_presort(dw->w) != SSP_OK ||
	    ssp_idmap_drain(L->traces, collect_trace, L) != 0 ||
	    d_traces(L) != 0)
		return -1;
	if (ssp_sqlite_direct_finish(dw->w) != SSP_OK)
		return -1;
	n = ssp_sqlite_direct_reindex(dw->w, &reindex);
	/* what is left is a pass over rows (late references, splits, the
	 * counts): a page cache of 16 MiB, as the private database had,
	 * rather than 64 MiB, so the end of a large load takes no more
	 * memory than the rest */
	if (open_tmp(d, L->e) != SSP_OK ||
	    exec(d->db, "PRAGMA cache_size = -16384; BEGIN", L->dbname,
	    L->e) != SSP_OK)
		return -1;
	L->db = d->db;
	for (i = 0; i < n; i++) {
		char sql[200];

		snprintf(sql, sizeof(sql), "REINDEX \"%.150s\"", reindex[i]);
		if (exec(L->db, sql, L->dbname, L->e) != SSP_OK)
			return -1;
	}
	if (copy_pending(L, L->db) != 0)
		return -1;
	if (d->fresh && count_rows(L, d) != 0)
		return -1;
	d->direct = 1;
	return 0;
}

static void
direct_free(struct loader *L)
{
	struct direct *dw = L->dw;

	if (dw == NULL)
		return;
	ssp_sqlite_direct_free(dw->w);
	free(dw->trows);
	ssp_buf_free(&dw->tjson);
	if (dw->aux != NULL)
		sqlite3_close(dw->aux);
	free(dw);
	L->dw = NULL;
}

/* What split() needs: counters, the longest name. */
static int
prepare_split(struct loader *L)
{
	size_t i;

	L->cnt = calloc((L->nstreams > L->nft ? L->nstreams : L->nft) + 1,
	    sizeof(*L->cnt));
	if (L->cnt == NULL)
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < L->nstreams; i++)
		if (strlen(L->streams[i]) > L->maxname)
			L->maxname = strlen(L->streams[i]);
	for (i = 0; i < L->nft; i++)
		if (L->ft[i].name != NULL && strlen(L->ft[i].name) > L->maxname)
			L->maxname = strlen(L->ft[i].name);
	/* the names as split() writes them, escaped once */
	L->jname = calloc(L->nstreams + L->nft + 1, sizeof(*L->jname));
	L->jnlen = calloc(L->nstreams + L->nft + 1, sizeof(*L->jnlen));
	if (L->jname == NULL || L->jnlen == NULL)
		return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < L->nstreams + L->nft; i++) {
		const char *name = i < L->nstreams ? L->streams[i] :
		    L->ft[i - L->nstreams].name;
		size_t n = name != NULL ? strlen(name) : 0;
		struct jw w = { NULL, 6 * n + 2, 0 };	/* at most */

		if (name == NULL)
			continue;
		if ((w.p = L->jname[i] = malloc(w.n)) == NULL)
			return ssp_err_set(L->e, SSP_ERR_NOMEM, 0, "out of memory");
		jw_str(&w, name, n);
		if (w.len > w.n)	/* not reached: 6 bytes a byte at most */
			return ssp_err_set(L->e, SSP_ERR_INVAL, 0, "name %s",
			    name);
		L->jnlen[i] = w.len;
	}
	return SSP_OK;
}

/* Load into db, or into the new database d directly when it can be. */
static int
load(sqlite3 *db, const char *name, struct ssp_rec_rd *rr,
    const struct ssp_sqlite_opts *o, struct ssp_sqlite_stats *st,
    struct ssp_err *e, struct ssp_sqlite *d)
{
	struct loader L;
	struct ssp_rec r;
	int got, rc = -1;
	size_t i;

	memset(st, 0, sizeof(*st));
	memset(&L, 0, sizeof(L));
	L.db = L.tdb = db;
	L.dbname = name;
	L.rr = rr;
	L.o = o;
	L.st = st;
	L.e = e;
	L.spans = ssp_idmap_new(sizeof(int64_t), o->span_cache ? o->span_cache :
	    SPAN_CACHE, NULL, NULL);
	L.traces = ssp_idmap_new(sizeof(struct tracev), o->trace_cache ?
	    o->trace_cache : TRACE_CACHE, write_trace, &L);
	L.ivl_budget = o->split_mem ? o->split_mem : IVL_BUDGET;
	L.ivpool = ssp_blkpool_new(IVL_MIN * sizeof(struct ivl), IVL_CLASSES,
	    (size_t)L.ivl_budget * sizeof(struct ivl));
	if (L.spans == NULL || L.traces == NULL || L.ivpool == NULL) {
		ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	if (classify(&L) != SSP_OK)
		goto out;
	if (d != NULL && !o->sql_only && direct_begin(&L, d) < 0)
		goto out;
	if (L.dw == NULL && (prepare_rows(&L) != SSP_OK || add_run(&L) != 0 ||
	    next_id(&L, "SELECT max(id) FROM spans", &L.next_span) != 0 ||
	    next_id(&L, "SELECT max(id) FROM events", &L.next_event) != 0 ||
	    next_id(&L, "SELECT max(id) FROM traces", &L.next_trace) != 0))
		goto out;
	if (prepare_traces(&L) != SSP_OK || prepare_split(&L) != SSP_OK)
		goto out;
	L.first_span = L.next_span;
	while ((got = ssp_rec_rd_next(rr, &r, e)) == 1) {
		const struct ftinfo *fi = &L.ft[r.ftag - 1];
		int x = SSP_OK;

		if (++st->records % TICK == 0 && o->tick != NULL)
			o->tick(o->tick_ctx, st);
		switch (fi->cls) {
		case C_SPAN:
			x = add_span(&L, &r, fi);
			break;
		case C_LINK:
			x = add_link(&L, &r);
			break;
		case C_EVENT:
			if (o->events)
				x = add_event(&L, &r, fi);
			else
				st->events_skipped++;
			break;
		default:
			st->unknown++;
		}
		if (x != SSP_OK)
			goto out;
	}
	if (got < 0)
		goto out;
	if (L.dw != NULL) {
		if (direct_finish(&L, d) != 0)
			goto out;
	} else if (flush_spans(&L) != 0 || flush_all_kinds(&L) != 0 ||
	    flush_events(&L) != 0 ||
	    ssp_idmap_drain(L.traces, write_trace, &L) != 0) {
		goto out;
	}
	if (resplit_all(&L) != 0 || resolve_pending(&L) != 0 ||
	    finish_run(&L) != 0)
		goto out;
	rc = SSP_OK;
out:
	finalize_all(&L);
	free_kinds(&L);
	direct_free(&L);
	if (L.traces != NULL)
		ssp_idmap_drain(L.traces, free_trace, &L);
	ssp_blkpool_free(L.ivpool);
	ssp_idmap_free(L.spans);
	ssp_idmap_free(L.traces);
	ssp_buf_free(&L.sbuf);
	ssp_buf_free(&L.kbuf);
	free(L.ivtmp);
	free(L.cnt);
	for (i = 0; L.jname != NULL && i < L.nstreams + L.nft; i++)
		free(L.jname[i]);
	free(L.jname);
	free(L.jnlen);
	for (i = 0; i < L.nstreams; i++)
		free(L.streams[i]);
	free(L.streams);
	free(L.stream_spans);
	free(L.ft);
	ssp_buf_free(&L.text);
	ssp_buf_free(&L.etext);
	if (rc != SSP_OK && e != NULL && e->code == SSP_OK)
		ssp_err_set(e, SSP_ERR_IO, 0, "%s: load failed", L.dbname);
	return rc != SSP_OK ? (e != NULL ? e->code : SSP_ERR_IO) : SSP_OK;
}

int
ssp_sqlite_load_db(sqlite3 *db, struct ssp_rec_rd *rr,
    const struct ssp_sqlite_opts *o, struct ssp_sqlite_stats *st,
    struct ssp_err *e)
{
	return load(db, dbname(db), rr, o, st, e, NULL);
}

/* --- database files: copy-on-write ------------------------------------ */

static int
sys_fail(struct ssp_err *e, const char *what, const char *path)
{
	return ssp_err_set(e, SSP_ERR_IO, 0, "%s%s%s: %s", what, *what ? " " : "",
	    path, strerror(errno));
}

/* Schema version 1 -> 2 (formats/sqlite.md, changelog): the tables and
 * views of the kernel context span kinds, as formats/simspan.sql has them. */
static const char migrate_1_2[] =
    "CREATE TABLE attr_host_irq (span INTEGER PRIMARY KEY REFERENCES "
    "spans(id), cpu TEXT, entry TEXT, funcs INTEGER);\n"
    "CREATE TABLE attr_host_softirq (span INTEGER PRIMARY KEY REFERENCES "
    "spans(id), cpu TEXT, entry TEXT, funcs INTEGER);\n"
    "CREATE TABLE attr_host_resume (span INTEGER PRIMARY KEY REFERENCES "
    "spans(id), cpu TEXT, entry TEXT, funcs INTEGER);\n"
    "CREATE TABLE attr_host_app (span INTEGER PRIMARY KEY REFERENCES "
    "spans(id), cpu TEXT, entry TEXT, funcs INTEGER);\n"
#define MIGRATE_VIEW(k) \
    "CREATE VIEW host_" k " AS SELECT s.id, s.run, s.trace, s.parent, " \
    "s.stream, s.start_ps, s.dur_ps, s.end_ps, s.flags, s.cause, a.cpu, " \
    "a.entry, a.funcs FROM attr_host_" k " AS a JOIN spans AS s ON " \
    "s.id = a.span;\n"
    MIGRATE_VIEW("irq") MIGRATE_VIEW("softirq") MIGRATE_VIEW("resume")
    MIGRATE_VIEW("app")
#undef MIGRATE_VIEW
    "PRAGMA user_version = 2;\n";

/*
 * Copy the file fd (size bytes) into the temporary file: copy_file_range,
 * which leaves the copying to the kernel (or the file system), and read and
 * write where that is not supported.
 */
static int
copy_bytes(struct ssp_sqlite *d, int fd, off_t size, struct ssp_err *e)
{
	off_t in = 0, out = 0;
	int kernel = 1, r = SSP_OK;
	char *buf = NULL;
	ssize_t n, w, k;

	while (in < size && r == SSP_OK) {
		size_t want = (size_t)(size - in);

		if (kernel) {
			n = copy_file_range(fd, &in, d->tmpfd, &out, want, 0);
			if (n < 0 && (errno == EXDEV || errno == ENOSYS ||
			    errno == EINVAL || errno == EOPNOTSUPP ||
			    errno == EPERM))
				kernel = 0;	/* read and write instead */
			else if (n < 0 && errno != EINTR)
				r = sys_fail(e, "cannot copy to", d->tmp);
			else if (n == 0)	/* cannot happen under the lock */
				r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: the file "
				    "shrank while it was copied", d->name);
			continue;
		}
		if (buf == NULL && (buf = malloc(1u << 20)) == NULL) {
			r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
			break;
		}
		if (want > 1u << 20)
			want = 1u << 20;
		if ((n = pread(fd, buf, want, in)) < 0) {
			if (errno != EINTR)
				r = sys_fail(e, "cannot read", d->name);
			continue;
		}
		if (n == 0) {
			r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: the file shrank "
			    "while it was copied", d->name);
			break;
		}
		for (w = 0; w < n; w += k)
			if ((k = pwrite(d->tmpfd, buf + w, (size_t)(n - w),
			    out + w)) <= 0 && !(k < 0 && errno == EINTR)) {
				r = sys_fail(e, "cannot write", d->tmp);
				break;
			} else if (k < 0) {
				k = 0;
			}
		in += n;
		out += n;
	}
	free(buf);
	return r;
}

/*
 * Check an existing database and copy it into the temporary file, byte for
 * byte, inside a read transaction: SQLite holds its shared lock on the file
 * meanwhile, so no other writer can commit, and a hot journal (a writer that
 * died) makes the check fail rather than be copied.
 */
static int
copy_existing(struct ssp_sqlite *d, struct ssp_err *e)
{
	sqlite3 *src = NULL;
	int64_t app, ver, nobj;
	int want = ssp_sqlite_schema_version(), r = SSP_ERR_IO, fd = -1;
	unsigned char hdr[20];
	struct stat sb;

	/*
	 * A WAL database cannot be replaced by rename: its -wal file would be
	 * replayed onto the new file.  Look at the header before SQLite opens
	 * it (opening creates the -wal and -shm files).
	 */
	if ((fd = open(d->path, O_RDONLY | O_CLOEXEC)) >= 0) {
		ssize_t n = read(fd, hdr, sizeof(hdr));

		close(fd);
		fd = -1;
		if (n == (ssize_t)sizeof(hdr) &&
		    memcmp(hdr, "SQLite format 3", 16) == 0 && hdr[18] == 2)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: in WAL mode; "
			    "span2sqlite replaces the file when it appends: run "
			    "sqlite3 %s 'PRAGMA journal_mode = DELETE' first",
			    d->name, d->name);
	}
	if (sqlite3_open_v2(d->path, &src, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    sqlite3_exec(src, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		db_fail(e, src, d->name);
		goto out;
	}
	if (query_int(src, "PRAGMA application_id", 0, &app) != 0 ||
	    query_int(src, "PRAGMA user_version", 0, &ver) != 0 ||
	    query_int(src, "SELECT count(*) FROM sqlite_schema", 0, &nobj) != 0) {
		db_fail(e, src, d->name);
		goto out;
	}
	if (app == 0 && nobj == 0) {	/* an empty database: start afresh */
		d->fresh = 1;
		r = SSP_OK;
		goto out;
	}
	if (app != APP_ID) {
		r = ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not a simspan database "
		    "(application_id 0x%" PRIx64 ", expected 0x%x)", d->name,
		    (uint64_t)app, APP_ID);
		goto out;
	}
	if (ver != want && !(ver == 1 && want == 2)) {
		r = ssp_err_set(e, SSP_ERR_VERSION, 0, "%s: schema version %" PRId64
		    ", this program writes version %d%s", d->name, ver, want,
		    ver > want ? "; use a newer span2sqlite" :
		    "; no upgrade path, load into a new database");
		goto out;
	}
	/* Closing any descriptor of the file drops the process's POSIX locks,
	 * SQLite's shared lock among them: fd stays open until src is closed. */
	if ((fd = open(d->path, O_RDONLY | O_CLOEXEC)) < 0 ||
	    fstat(fd, &sb) != 0) {
		r = sys_fail(e, "", d->name);
		goto out;
	}
	if ((r = copy_bytes(d, fd, sb.st_size, e)) != SSP_OK)
		goto out;
	/* The copy is upgraded inside the load: if the load fails, the
	 * original file stays as it was. */
	d->upgrade = ver == 1;
	r = SSP_OK;
out:
	sqlite3_close(src);	/* ends the read transaction */
	if (fd >= 0)
		close(fd);
	return r;
}

/*
 * Remove the temporary files "NAME.tmp.XXXXXX" that earlier loads into
 * path left (kill -9, power loss): each load holds an exclusive flock on
 * its own, so one we can lock has no owner left.  Best effort; called with
 * the directory locked.
 */
static void
remove_stale_tmp(const struct ssp_sqlite *d)
{
	const char *slash = strrchr(d->path, '/');
	const char *base = slash != NULL ? slash + 1 : d->path;
	size_t blen = strlen(base);
	struct dirent *de;
	DIR *dir;
	int dfd, fd;

	if ((dfd = dup(d->dirfd)) < 0)
		return;
	if ((dir = fdopendir(dfd)) == NULL) {
		close(dfd);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, base, blen) != 0 ||
		    strncmp(de->d_name + blen, ".tmp.", 5) != 0 ||
		    strlen(de->d_name + blen + 5) != 6)
			continue;
		fd = openat(d->dirfd, de->d_name, O_RDONLY | O_NOFOLLOW |
		    O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlinkat(d->dirfd, de->d_name, 0);
		close(fd);
	}
	closedir(dir);
}

int
ssp_sqlite_open(struct ssp_sqlite **dp, const char *path, struct ssp_err *e)
{
	return ssp_sqlite_open_flags(dp, path, 0, e);
}

int
ssp_sqlite_open_flags(struct ssp_sqlite **dp, const char *path,
    unsigned flags, struct ssp_err *e)
{
	struct ssp_sqlite *d;
	struct stat st;
	char *slash;
	int fd, r = SSP_ERR_IO;
	mode_t um;

	*dp = NULL;
	if (path == NULL || *path == '\0')
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "empty database name");
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	d->dirfd = d->tmpfd = -1;
	if ((d->name = strdup(path)) == NULL) {
		r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto fail;
	}
	/* Replace the file a symbolic link points to, not the link. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if ((d->path = realpath(path, NULL)) == NULL) {
			r = sys_fail(e, "", path);
			goto fail;
		}
	} else if ((d->path = strdup(path)) == NULL) {
		r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto fail;
	}
	if (stat(d->path, &st) == 0 && !S_ISREG(st.st_mode)) {
		r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: not a regular file", path);
		goto fail;
	}
	/* Replacing it would defeat the protection, as cp(1) refuses to. */
	if (!(flags & SSP_SQLITE_FORCE) && stat(d->path, &st) == 0 &&
	    ((st.st_mode & 0222) == 0 || access(d->path, W_OK) != 0)) {
		r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: the database is "
		    "write-protected (mode %03o); not replacing it without "
		    "--force", path, (unsigned)(st.st_mode & 0777));
		goto fail;
	}
	/* Lock the directory: concurrent loads into it take turns. */
	if ((slash = strrchr(d->path, '/')) != NULL) {
		*slash = '\0';
		d->dirfd = open(slash == d->path ? "/" : d->path,
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		*slash = '/';
	} else {
		d->dirfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (d->dirfd < 0) {
		r = sys_fail(e, "directory of", path);
		goto fail;
	}
	while (flock(d->dirfd, LOCK_EX) != 0 && errno == EINTR)
		;
	remove_stale_tmp(d);
	if (asprintf(&d->tmp, "%s.tmp.XXXXXX", d->path) < 0) {
		d->tmp = NULL;
		r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto fail;
	}
	if ((fd = mkstemp(d->tmp)) < 0) {
		r = sys_fail(e, "cannot create", d->tmp);
		free(d->tmp);
		d->tmp = NULL;
		goto fail;
	}
	d->tmpfd = fd;		/* held until commit or abort: not stale */
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		r = sys_fail(e, "cannot lock", d->tmp);
		goto fail;
	}
	um = umask(0);
	umask(um);
	d->mode = 0666 & ~um;
	d->fresh = 1;
	if (stat(d->path, &st) == 0) {
		d->mode = st.st_mode & 07777;
		d->fresh = st.st_size == 0;
	}
	if (!d->fresh && (r = copy_existing(d, e)) != SSP_OK)
		goto fail;
	if ((r = open_tmp(d, e)) != SSP_OK)
		goto fail;
	if (d->upgrade && (r = exec(d->db, migrate_1_2, d->name, e)) != SSP_OK)
		goto fail;
	if ((r = exec(d->db, "PRAGMA journal_mode = OFF; BEGIN", d->tmp, e))
	    != SSP_OK || (d->fresh && (r = ssp_sqlite_create(d->db, e)) != SSP_OK))
		goto fail;
	*dp = d;
	return SSP_OK;
fail:
	ssp_sqlite_abort(d);
	return r;
}

const char *ssp_sqlite_tmp_path(const struct ssp_sqlite *d) { return d->tmp; }

int
ssp_sqlite_load(struct ssp_sqlite *d, struct ssp_rec_rd *rr,
    const struct ssp_sqlite_opts *o, struct ssp_sqlite_stats *st,
    struct ssp_err *e)
{
	return load(d->db, d->name, rr, o, st, e, d);
}

/* CREATE INDEX sorts with helper threads, one per further core (SQLite
 * caps them; its default is none). */
static int
sorter_threads(sqlite3 *db, struct ssp_err *e)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	char sql[40];

	snprintf(sql, sizeof(sql), "PRAGMA threads = %ld", n > 1 ? n - 1 : 0);
	return exec(db, sql, dbname(db), e);
}

/* The rows counted of table name, or -1. */
static int64_t
counted(const struct ssp_sqlite *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->ncounts; i++)
		if (strcmp(d->counts[i].table, name) == 0)
			return d->counts[i].rows;
	return -1;
}

/*
 * The statistics of a new database written directly: what analyze()
 * gives, without reading every page of the attribute tables.  A table
 * without an index gets from ANALYZE its count of rows (none when
 * empty), found by reading all its pages; the load counted those it
 * wrote, so their sqlite_stat1 rows are written from that.  Every other
 * table is analyzed as before (its indexes sampled), one by one.
 */
static int
analyze_fresh(struct ssp_sqlite *d, struct ssp_err *e)
{
	sqlite3_stmt *s = NULL, *ins = NULL;
	struct tname {
		char *name;
		int indexed;
	} *tn = NULL;
	size_t n = 0, cap = 0, i;
	int rc, r = SSP_ERR_IO;

	/* ANALYZE sqlite_schema creates sqlite_stat1, analyzes nothing */
	if ((r = exec(d->db, "PRAGMA analysis_limit = 1000; ANALYZE sqlite_schema",
	    d->name, e)) != SSP_OK)
		return r;
	r = SSP_ERR_IO;
	if (sqlite3_prepare_v2(d->db, "SELECT name, EXISTS (SELECT 1 FROM "
	    "sqlite_schema AS i WHERE i.type = 'index' AND i.tbl_name = t.name) "
	    "FROM sqlite_schema AS t WHERE type = 'table' AND name NOT LIKE "
	    "'sqlite\\_%' ESCAPE '\\'", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, "INSERT INTO sqlite_stat1(tbl, idx, stat) "
	    "VALUES (?, NULL, ?)", -1, &ins, NULL) != SQLITE_OK) {
		db_fail(e, d->db, d->name);
		goto out;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 0);

		if (n == cap) {
			struct tname *nt = realloc(tn, (cap = cap ? 2 * cap : 32) *
			    sizeof(*nt));

			if (nt == NULL)
				goto nomem;
			tn = nt;
		}
		if (name == NULL || (tn[n].name = strdup(name)) == NULL)
			goto nomem;
		tn[n++].indexed = sqlite3_column_int(s, 1);
	}
	if (rc != SQLITE_DONE) {
		db_fail(e, d->db, d->name);
		goto out;
	}
	for (i = 0; i < n; i++) {
		int64_t rows = tn[i].indexed ? -1 : counted(d, tn[i].name);
		char *sql;

		if (rows > 0) {
			char stat[24];

			snprintf(stat, sizeof(stat), "%" PRId64, rows);
			sqlite3_bind_text(ins, 1, tn[i].name, -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 2, stat, -1, SQLITE_STATIC);
			if (sqlite3_step(ins) != SQLITE_DONE ||
			    sqlite3_reset(ins) != SQLITE_OK) {
				db_fail(e, d->db, d->name);
				goto out;
			}
		} else if (rows < 0) {
			if ((sql = sqlite3_mprintf("ANALYZE \"%w\"", tn[i].name)) ==
			    NULL)
				goto nomem;
			r = exec(d->db, sql, d->name, e);
			sqlite3_free(sql);
			if (r != SSP_OK)
				goto out;
		}
	}
	r = SSP_OK;
	goto out;
nomem:
	r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
out:
	sqlite3_finalize(s);
	sqlite3_finalize(ins);
	for (i = 0; i < n; i++)
		free(tn[i].name);
	free(tn);
	return r;
}

int
ssp_sqlite_commit(struct ssp_sqlite *d, struct ssp_err *e)
{
	int fd, r;

	if (d->db == NULL) {	/* the load failed half way */
		r = ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: nothing loaded", d->name);
		goto fail;
	}
	if (d->fresh && !d->direct && ((r = sorter_threads(d->db, e)) != SSP_OK ||
	    (r = create_indexes(d->db, e)) != SSP_OK))
		goto fail;
	if ((r = d->fresh && d->direct ? analyze_fresh(d, e) :
	    analyze(d->db, e)) != SSP_OK)
		goto fail;
	if ((r = exec(d->db, "COMMIT", d->name, e)) != SSP_OK)
		goto fail;
	if (sqlite3_close(d->db) != SQLITE_OK) {
		r = db_fail(e, d->db, d->name);
		goto fail;
	}
	d->db = NULL;
	r = SSP_ERR_IO;
	if ((fd = open(d->tmp, O_RDWR | O_CLOEXEC)) < 0) {
		sys_fail(e, "", d->tmp);
		goto fail;
	}
	if (fchmod(fd, d->mode) != 0 || fsync(fd) != 0) {
		sys_fail(e, "", d->tmp);
		close(fd);
		goto fail;
	}
	close(fd);
	if (rename(d->tmp, d->path) != 0) {
		sys_fail(e, "cannot rename to", d->name);
		goto fail;
	}
	free(d->tmp);
	d->tmp = NULL;
	fsync(d->dirfd);	/* the rename itself; best effort */
	ssp_sqlite_abort(d);
	return SSP_OK;
fail:
	ssp_sqlite_abort(d);
	return e != NULL ? e->code : r;
}

void
ssp_sqlite_abort(struct ssp_sqlite *d)
{
	if (d == NULL)
		return;
	if (d->db != NULL)
		sqlite3_close(d->db);
	if (d->tmp != NULL) {
		unlink(d->tmp);
		free(d->tmp);
	}
	if (d->tmpfd >= 0)
		close(d->tmpfd);
	if (d->dirfd >= 0)
		close(d->dirfd);	/* releases the lock */
	free(d->counts);
	free(d->path);
	free(d->name);
	free(d);
}
