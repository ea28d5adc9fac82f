#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sqlite/append.h"
#include "sqlite/dberr.h"
#include "sqlite/rows.h"
#include "sqlite/schema.h"

/*
 * The ids the merge moves: every table's own row id and the references to
 * rows of the run (formats/sqlite.md §3), each by the offset of the table
 * it refers to.  The run file numbers its rows from 1; the database's
 * rows keep theirs, the run's go above them.
 */
enum { O_RUN, O_STREAM, O_TRACE, O_SPAN, O_LINK, O_EVENT, O_N };
static const char *const oname[O_N] = { "runs", "streams", "traces", "spans",
    "links", "events" };

#define C(t, c) ssp_rows_tables[SSP_ROWS_##t].col[SSP_##t##_##c]

static int
offset_of(const char *table, const char *col)
{
	static const struct {
		const char *table, *col;
		int off;
	} lit[] = {
		{ "runs", "id", O_RUN }, { "run_meta", "run", O_RUN },
		{ "streams", "id", O_STREAM }, { "streams", "run", O_RUN },
	};
	size_t i;

	for (i = 0; i < sizeof(lit) / sizeof(lit[0]); i++)
		if (strcmp(table, lit[i].table) == 0 && strcmp(col, lit[i].col) == 0)
			return lit[i].off;
	if (strcmp(table, "spans") == 0) {
		if (strcmp(col, C(SPANS, ID)) == 0 || strcmp(col, C(SPANS, PARENT)) == 0)
			return O_SPAN;
		if (strcmp(col, C(SPANS, TRACE)) == 0)
			return O_TRACE;
		if (strcmp(col, C(SPANS, RUN)) == 0)
			return O_RUN;
	} else if (strcmp(table, "traces") == 0) {
		if (strcmp(col, C(TRACES, ID)) == 0)
			return O_TRACE;
		if (strcmp(col, C(TRACES, ROOT)) == 0)
			return O_SPAN;
		if (strcmp(col, C(TRACES, RUN)) == 0)
			return O_RUN;
	} else if (strcmp(table, "links") == 0) {
		if (strcmp(col, C(LINKS, ID)) == 0)
			return O_LINK;
		if (strcmp(col, C(LINKS, SPAN)) == 0 ||
		    strcmp(col, C(LINKS, TARGET)) == 0)
			return O_SPAN;
		if (strcmp(col, C(LINKS, RUN)) == 0)
			return O_RUN;
	} else if (strcmp(table, "events") == 0) {
		if (strcmp(col, C(EVENTS, ID)) == 0)
			return O_EVENT;
		if (strcmp(col, C(EVENTS, SPAN)) == 0)
			return O_SPAN;
		if (strcmp(col, C(EVENTS, RUN)) == 0)
			return O_RUN;
	} else if (strncmp(table, "attr_", 5) == 0 && strcmp(col, "span") == 0) {
		return O_SPAN;
	}
	return -1;
}

struct merge {
	sqlite3 *db;
	const char *name;
	struct ssp_err *e;
	int64_t off[O_N];
	char run_name[256];
};

static enum ssp_status
fail(struct merge *m)
{
	return ssp_dberr_set(m->e, m->db, m->name);
}

static enum ssp_status
nomem(struct merge *m)
{
	return ssp_err_set(m->e, SSP_ERR_NOMEM, 0, "out of memory");
}

/* The offset of each table: the largest id the database has; refused
 * when the run's would pass the 64-bit range. */
static enum ssp_status
offsets(struct merge *m)
{
	char sql[96];
	int64_t top, run;
	enum ssp_status r;
	int i;

	for (i = 0; i < O_N; i++) {
		snprintf(sql, sizeof(sql), "SELECT max(id) FROM main.%s", oname[i]);
		if ((r = ssp_dberr_int(m->db, sql, 0, &top, m->name, m->e)) !=
		    SSP_OK)
			return r;
		snprintf(sql, sizeof(sql), "SELECT max(id) FROM run.%s", oname[i]);
		if ((r = ssp_dberr_int(m->db, sql, 0, &run, m->name, m->e)) !=
		    SSP_OK)
			return r;
		if (top < 0 || run < 0 || top > INT64_MAX - run ||
		    (i == O_RUN && top + run > INT32_MAX))
			return ssp_err_set(m->e, SSP_ERR_LIMIT, 0, "%s: %s: row "
			    "ids used up (the largest is %" PRId64 ")", m->name,
			    oname[i], top);
		m->off[i] = top;
	}
	return SSP_OK;
}

static enum ssp_status
taken(struct merge *m, const char *run, int *is)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(m->db, "SELECT 1 FROM main.runs WHERE name = ?",
	    -1, &s, NULL) != SQLITE_OK)
		return fail(m);
	sqlite3_bind_text(s, 1, run, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		enum ssp_status r = fail(m);

		sqlite3_finalize(s);
		return r;
	}
	sqlite3_finalize(s);
	*is = rc == SQLITE_ROW;
	return SSP_OK;
}

/* The run's name in the database: the one asked for, or the run file's
 * default name made unique (as a load into the database would). */
static enum ssp_status
name_run(struct merge *m, const char *asked)
{
	sqlite3_stmt *s;
	char base[256];
	const unsigned char *t;
	enum ssp_status r;
	int i, is;

	if (sqlite3_prepare_v2(m->db, "SELECT name FROM run.runs", -1, &s,
	    NULL) != SQLITE_OK)
		return fail(m);
	if (sqlite3_step(s) != SQLITE_ROW || (t = sqlite3_column_text(s, 0)) ==
	    NULL) {
		sqlite3_finalize(s);
		return ssp_err_set(m->e, SSP_ERR_INVAL, 0, "%s: the run to "
		    "append has no name", m->name);
	}
	snprintf(base, sizeof(base), "%s", (const char *)t);
	sqlite3_finalize(s);
	if (asked != NULL) {
		snprintf(m->run_name, sizeof(m->run_name), "%s", asked);
		if ((r = taken(m, m->run_name, &is)) != SSP_OK)
			return r;
		if (is)
			return ssp_err_set(m->e, SSP_ERR_INVAL, 0, "%s: a run "
			    "named '%s' already exists", m->name, m->run_name);
		return SSP_OK;
	}
	for (i = 1; i < 1000; i++) {
		if (i == 1)
			snprintf(m->run_name, sizeof(m->run_name), "%s", base);
		else
			snprintf(m->run_name, sizeof(m->run_name), "%.240s#%d",
			    base, i);
		if ((r = taken(m, m->run_name, &is)) != SSP_OK)
			return r;
		if (!is)
			return SSP_OK;
	}
	return ssp_err_set(m->e, SSP_ERR_LIMIT, 0, "%s: too many runs named "
	    "'%s'", m->name, base);
}

/* Append text to a growing string; -1 when out of memory. */
static int
cat(char **s, size_t *len, size_t *cap, const char *t)
{
	size_t n = strlen(t);

	if (*len + n + 1 > *cap) {
		size_t nc = *cap ? *cap : 256;
		char *p;

		while (nc < *len + n + 1)
			nc *= 2;
		if ((p = realloc(*s, nc)) == NULL)
			return -1;
		*s = p;
		*cap = nc;
	}
	memcpy(*s + *len, t, n + 1);
	*len += n;
	return 0;
}

/*
 * INSERT INTO main.t(stored columns) SELECT them FROM run.t in row order,
 * the ids moved by their offsets, runs.name the merged name.
 */
static enum ssp_status
copy_table(struct merge *m, const char *table)
{
	sqlite3_stmt *q = NULL, *s = NULL;
	char *cols = NULL, *vals = NULL, *sql = NULL, piece[160];
	size_t cl = 0, cc = 0, vl = 0, vc = 0;
	enum ssp_status r = SSP_OK;
	int rc, n = 0, i;

	if (sqlite3_prepare_v2(m->db, "SELECT name FROM pragma_table_xinfo(?, "
	    "'run') WHERE hidden = 0 ORDER BY cid", -1, &q, NULL) != SQLITE_OK)
		return fail(m);
	sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(q, 0);
		int off;
		char *qc;

		if (col == NULL || (qc = sqlite3_mprintf("\"%w\"", col)) == NULL)
			goto nomem;
		off = offset_of(table, col);
		if (strcmp(table, "runs") == 0 && strcmp(col, "name") == 0)
			snprintf(piece, sizeof(piece), "%s:name", n ? ", " : "");
		else if (off >= 0)
			snprintf(piece, sizeof(piece), "%s%.120s + :%s", n ? ", " :
			    "", qc, oname[off]);
		else
			snprintf(piece, sizeof(piece), "%s%.120s", n ? ", " : "", qc);
		if ((n ? cat(&cols, &cl, &cc, ", ") : 0) != 0 ||
		    cat(&cols, &cl, &cc, qc) != 0 || cat(&vals, &vl, &vc, piece) != 0) {
			sqlite3_free(qc);
			goto nomem;
		}
		sqlite3_free(qc);
		n++;
	}
	if (rc != SQLITE_DONE) {
		r = fail(m);
		goto out;
	}
	if (n == 0)
		goto out;
	if ((sql = sqlite3_mprintf("INSERT INTO main.\"%w\"(%s) SELECT %s FROM "
	    "run.\"%w\" ORDER BY rowid", table, cols, vals, table)) == NULL)
		goto nomem;
	if (sqlite3_prepare_v2(m->db, sql, -1, &s, NULL) != SQLITE_OK) {
		r = fail(m);
		goto out;
	}
	for (i = 0; i < O_N; i++) {
		char p[16];
		int k;

		snprintf(p, sizeof(p), ":%s", oname[i]);
		if ((k = sqlite3_bind_parameter_index(s, p)) > 0)
			sqlite3_bind_int64(s, k, m->off[i]);
	}
	if ((i = sqlite3_bind_parameter_index(s, ":name")) > 0)
		sqlite3_bind_text(s, i, m->run_name, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		r = fail(m);
	goto out;
nomem:
	r = nomem(m);
out:
	sqlite3_finalize(q);
	sqlite3_finalize(s);
	sqlite3_free(sql);
	free(cols);
	free(vals);
	return r;
}

/* Every table of the run, in the order the run file made them. */
static enum ssp_status
copy_tables(struct merge *m)
{
	sqlite3_stmt *s;
	char **names = NULL, **nn;
	size_t n = 0, cap = 0, i;
	enum ssp_status r = SSP_OK;
	int rc;

	if (sqlite3_prepare_v2(m->db, "SELECT name FROM run.sqlite_schema WHERE "
	    "type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY "
	    "rowid", -1, &s, NULL) != SQLITE_OK)
		return fail(m);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);

		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			if ((nn = realloc(names, cap * sizeof(*nn))) == NULL)
				break;
			names = nn;
		}
		if (t == NULL || (names[n] = strdup(t)) == NULL)
			break;
		n++;
	}
	if (rc == SQLITE_ROW)
		r = nomem(m);
	else if (rc != SQLITE_DONE)
		r = fail(m);
	sqlite3_finalize(s);
	for (i = 0; r == SSP_OK && i < n; i++)
		r = copy_table(m, names[i]);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return r;
}

/* The integers at the start of a sqlite_stat1 text, and where the rest
 * (flags such as "unordered") begins. */
#define STAT_MAX	64

static unsigned
stat_parse(const char *s, uint64_t *v, const char **rest)
{
	unsigned n = 0;
	char *end;

	while (*s == ' ')
		s++;
	while (n < STAT_MAX && *s >= '0' && *s <= '9') {
		v[n++] = strtoull(s, &end, 10);
		s = end;
		while (*s == ' ')
			s++;
	}
	*rest = s;
	return n;
}

void
ssp_append_stat(const char *old, const char *add, char *out, size_t cap)
{
	uint64_t a[STAT_MAX], b[STAT_MAX], n, d, da, db;
	const char *ra, *rb;
	unsigned na = stat_parse(old, a, &ra), nb = stat_parse(add, b, &rb), k;
	size_t len;

	(void)rb;
	if (na == 0 || nb == 0 || a[0] == 0) {	/* nothing to merge with */
		snprintf(out, cap, "%s", na == 0 || a[0] == 0 ? add : old);
		return;
	}
	n = a[0] + b[0];
	len = (size_t)snprintf(out, cap, "%" PRIu64, n);
	for (k = 1; k < na && k < nb && len < cap; k++) {
		/* distinct values of the prefix in each: rows / rows a value */
		da = a[0] / (a[k] ? a[k] : 1);
		db = b[0] / (b[k] ? b[k] : 1);
		if (da == 0)
			da = 1;
		if (db == 0)
			db = 1;
		if (b[k] > 1 && db <= b[0] / db)
			d = da > db ? da : db;	/* categories the old rows share */
		else
			d = da + db;		/* values new with the run */
		len += (size_t)snprintf(out + len, cap - len, " %" PRIu64,
		    (n + d - 1) / d);
	}
	if (*ra != '\0' && len < cap)
		snprintf(out + len, cap - len, " %s", ra);
}

/*
 * The planner's statistics of the database with the run: each of the
 * run's sqlite_stat1 rows merged into the database's (no ANALYZE, which
 * would read the database).  A database without statistics keeps none.
 */
static enum ssp_status
merge_stats(struct merge *m)
{
	sqlite3_stmt *q = NULL, *g = NULL, *u = NULL, *ins = NULL;
	int64_t have;
	enum ssp_status r;
	char stat[1024];
	int rc;

	if ((r = ssp_dberr_int(m->db, "SELECT count(*) FROM main.sqlite_schema "
	    "WHERE name = 'sqlite_stat1'", 0, &have, m->name, m->e)) != SSP_OK)
		return r;
	if (have == 0 || (r = ssp_dberr_int(m->db, "SELECT count(*) FROM "
	    "run.sqlite_schema WHERE name = 'sqlite_stat1'", 0, &have, m->name,
	    m->e)) != SSP_OK || have == 0)
		return r;
	if (sqlite3_prepare_v2(m->db, "SELECT tbl, idx, stat FROM "
	    "run.sqlite_stat1", -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(m->db, "SELECT rowid, stat FROM main.sqlite_stat1 "
	    "WHERE tbl = ?1 AND idx IS ?2", -1, &g, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(m->db, "UPDATE main.sqlite_stat1 SET stat = ?2 "
	    "WHERE rowid = ?1", -1, &u, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(m->db, "INSERT INTO main.sqlite_stat1(tbl, idx, "
	    "stat) VALUES (?1, ?2, ?3)", -1, &ins, NULL) != SQLITE_OK) {
		r = fail(m);
		goto out;
	}
	while (r == SSP_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *add = (const char *)sqlite3_column_text(q, 2);
		sqlite3_stmt *w;

		if (add == NULL || sqlite3_column_type(q, 0) != SQLITE_TEXT)
			continue;
		sqlite3_bind_value(g, 1, sqlite3_column_value(q, 0));
		sqlite3_bind_value(g, 2, sqlite3_column_value(q, 1));
		if ((rc = sqlite3_step(g)) == SQLITE_ROW) {
			const char *old = (const char *)sqlite3_column_text(g, 1);

			ssp_append_stat(old != NULL ? old : "", add, stat,
			    sizeof(stat));
			w = u;
			sqlite3_bind_int64(u, 1, sqlite3_column_int64(g, 0));
			sqlite3_bind_text(u, 2, stat, -1, SQLITE_TRANSIENT);
		} else if (rc == SQLITE_DONE) {
			/* the table or index was empty when last analyzed */
			w = ins;
			sqlite3_bind_value(ins, 1, sqlite3_column_value(q, 0));
			sqlite3_bind_value(ins, 2, sqlite3_column_value(q, 1));
			sqlite3_bind_text(ins, 3, add, -1, SQLITE_TRANSIENT);
		} else {
			r = fail(m);
			break;
		}
		sqlite3_reset(g);
		if (sqlite3_step(w) != SQLITE_DONE)
			r = fail(m);
		sqlite3_reset(w);
	}
	if (r == SSP_OK && rc != SQLITE_DONE)
		r = fail(m);
out:
	sqlite3_finalize(q);
	sqlite3_finalize(g);
	sqlite3_finalize(u);
	sqlite3_finalize(ins);
	return r;
}

/* The database, for writing, waiting up to busy_ms for another writer;
 * SQLite checks every page it reads more closely (cell_size_check). */
static enum ssp_status
open_db(struct merge *m, const char *db, int busy_ms)
{
	if (sqlite3_open_v2(db, &m->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return fail(m);
	sqlite3_busy_timeout(m->db, busy_ms > 0 ? busy_ms : SSP_APPEND_BUSY_MS);
	return ssp_dberr_exec(m->db, "PRAGMA cell_size_check = ON; "
	    "PRAGMA cache_size = -65536", m->name, m->e);
}

enum ssp_status
ssp_append_run(const char *db, const char *name, const char *run,
    const struct ssp_append_opts *o, int64_t *run_id, char run_name[256],
    struct ssp_err *e)
{
	struct merge m;
	sqlite3_stmt *s = NULL;
	enum ssp_status r;
	int version;

	SSP_ASSERT(db != NULL && name != NULL && run != NULL && o != NULL);
	SSP_ASSERT(run_id != NULL && run_name != NULL);
	memset(&m, 0, sizeof(m));
	m.name = name;
	m.e = e;
	if ((r = open_db(&m, db, o->busy_ms)) != SSP_OK)
		goto out;
	/* ATTACH cannot be inside a transaction */
	if (sqlite3_prepare_v2(m.db, "ATTACH ? AS run", -1, &s, NULL) !=
	    SQLITE_OK) {
		r = fail(&m);
		goto out;
	}
	sqlite3_bind_text(s, 1, run, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE) {
		r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: the run loaded for it: %s",
		    name, sqlite3_errmsg(m.db));
		goto out;
	}
	sqlite3_finalize(s);
	s = NULL;
	/* the write lock from here on: what the database is now counts */
	if ((r = ssp_dberr_exec(m.db, "BEGIN IMMEDIATE", name, e)) != SSP_OK ||
	    (r = ssp_schema_check(m.db, name, &version, e)) != SSP_OK)
		goto out;
	if (version == 0) {
		r = ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: the database was "
		    "emptied during the load", name);
		goto out;
	}
	if ((r = ssp_schema_migrate(m.db, "run", version, name, e)) != SSP_OK ||
	    (r = offsets(&m)) != SSP_OK || (r = name_run(&m, o->run)) != SSP_OK ||
	    (r = copy_tables(&m)) != SSP_OK || (r = merge_stats(&m)) != SSP_OK ||
	    (r = ssp_dberr_exec(m.db, "COMMIT", name, e)) != SSP_OK)
		goto out;
	*run_id = 1 + m.off[O_RUN];
	memcpy(run_name, m.run_name, sizeof(m.run_name));
out:
	sqlite3_finalize(s);
	if (m.db != NULL && sqlite3_close(m.db) != SQLITE_OK && r == SSP_OK)
		r = fail(&m);	/* not reached: every statement finalized */
	return r;
}

enum ssp_status
ssp_append_name_taken(const char *db, const char *name, const char *run,
    int *is, struct ssp_err *e)
{
	struct merge m;
	enum ssp_status r;

	SSP_ASSERT(db != NULL && name != NULL && run != NULL && is != NULL);
	memset(&m, 0, sizeof(m));
	m.name = name;
	m.e = e;
	*is = 0;
	if ((r = open_db(&m, db, 0)) == SSP_OK)
		r = taken(&m, run, is);
	sqlite3_close(m.db);
	return r;
}
