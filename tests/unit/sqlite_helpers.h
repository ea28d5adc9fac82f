/*
 * What the unit tests of lib/sqlite share: a private temporary
 * directory, hand-made span streams (tw_*), loads into memory and into
 * database files through the library's own file API (as span2sqlite does,
 * with the work file made here), and comparisons of databases row by row.
 * Header-only; include after cmocka.h.  Functions are static inline so a
 * test that uses some of them does not warn about the others.
 */
#ifndef SSP_TEST_SQLITE_HELPERS_H
#define SSP_TEST_SQLITE_HELPERS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/in.h"
#include "io/out.h"
#include "sqlite/load.h"
#include "sqlite/schema.h"
#include "sqlite/sqlite.h"
#include "stream/span.h"

#define NC SSP_SF_NCOMMON

static char dir[200];	/* this process's own, so that loads running at
			 * once (make check in two trees) do not wait for
			 * each other's lock on a shared directory */

static inline void
remove_dir(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_sqlite: cannot remove %s\n", dir);
}

static inline char *
tmpname(const char *what)
{
	static char path[4][256];
	static int i;

	if (dir[0] == 0) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/ssp-test-sqlite.XXXXXX",
		    t != NULL && t[0] == '/' && strlen(t) < 150 ? t : "/tmp");
		if (mkdtemp(dir) == NULL) {
			perror(dir);
			exit(1);
		}
		atexit(remove_dir);
	}
	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, what);
	return path[i];
}

struct tw {
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_err e;
};

static inline void
tw_open(struct tw *t, const char *path, const struct ssp_schema *s)
{
	static const struct ssp_meta std_meta[] = {
		{ "producer", "test" }, { "time-unit", "ps" },
		{ "stream", "host gem5" }, { "stream", "nic nicbm" },
		{ "stream", "net ns3" },
	};

	assert_int_equal(ssp_out_open(&t->o, path, 0, &t->e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open(&t->w, t->o, ssp_frame_magic_spans, s, std_meta,
	    sizeof(std_meta) / sizeof(std_meta[0]), &t->e), SSP_OK);
}

static inline void
tw_close(struct tw *t)
{
	assert_int_equal(ssp_rec_wr_close(t->w, &t->e), SSP_OK);
	assert_int_equal(ssp_out_close(t->o, &t->e), SSP_OK);
}

static inline uint64_t
tw_str(struct tw *t, const char *s)
{
	uint64_t id = ssp_rec_wr_str(t->w, s, strlen(s), &t->e);

	assert_true(id != 0);
	return id;
}

/* A span of a kind (type index); attributes follow as varargs. */
static inline void
tw_span(struct tw *t, unsigned type, uint64_t id, uint64_t parent,
    uint64_t trace, unsigned stream, int64_t start, int64_t dur, int nattr, ...)
{
	struct ssp_rec r;
	va_list ap;
	int i;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.ts = start;
	r.f[SSP_SF_TRACE_HI] = 0xabc;
	r.f[SSP_SF_TRACE_LO] = trace;
	r.f[SSP_SF_SPAN] = id;
	r.f[SSP_SF_PARENT] = parent;
	r.f[SSP_SF_STREAM] = stream;
	r.f[SSP_SF_DUR] = (uint64_t)dur;
	va_start(ap, nattr);
	for (i = 0; i < nattr; i++)
		r.f[NC + i] = va_arg(ap, uint64_t);
	va_end(ap);
	assert_int_equal(ssp_rec_wr_put(t->w, &r, &t->e), SSP_OK);
}

static inline void
tw_link(struct tw *t, uint64_t span, uint64_t trace, uint64_t target)
{
	struct ssp_rec r;

	memset(&r, 0, sizeof(r));
	r.type = SSP_SPAN_T_LINK;
	r.f[SSP_LF_SPAN] = span;
	r.f[SSP_LF_TRACE_HI] = 0xabc;
	r.f[SSP_LF_TRACE_LO] = trace;
	r.f[SSP_LF_TARGET] = target;
	r.f[SSP_LF_KIND] = tw_str(t, "nic.rx");
	assert_int_equal(ssp_rec_wr_put(t->w, &r, &t->e), SSP_OK);
}

static inline void
tw_event(struct tw *t, unsigned evtype, uint64_t span, unsigned stream,
    int64_t ts, int n, ...)
{
	struct ssp_rec r;
	va_list ap;
	int i;

	memset(&r, 0, sizeof(r));
	r.type = SSP_SPAN_T_EV0 + evtype;
	r.ts = ts;
	r.f[SSP_EF_SPAN] = span;
	r.f[SSP_EF_STREAM] = stream;
	va_start(ap, n);
	for (i = 0; i < n; i++)
		r.f[SSP_EF_NCOMMON + i] = va_arg(ap, uint64_t);
	va_end(ap);
	assert_int_equal(ssp_rec_wr_put(t->w, &r, &t->e), SSP_OK);
}

static inline sqlite3 *
mem_db(void)
{
	sqlite3 *db;
	struct ssp_err e = { 0 };

	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(ssp_schema_create(db, NULL, &e), SSP_OK);
	return db;
}

static inline int
load(sqlite3 *db, const char *path, const struct ssp_load_opts *o,
    struct ssp_load_stats *st, struct ssp_err *e)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	int r;

	memset(e, 0, sizeof(*e));
	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&rr, in, e), SSP_OK);
	r = ssp_load_db(db, rr, o, st, e);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	return r;
}

static inline int64_t
qi(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	int64_t v;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* All rows of a query as one string, "|" between columns, "\n" after rows. */
static inline char *
qs(sqlite3 *db, const char *sql)
{
	static char out[65536];
	sqlite3_stmt *s;
	size_t n = 0;
	int c;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	out[0] = '\0';
	while (sqlite3_step(s) == SQLITE_ROW) {
		for (c = 0; c < sqlite3_column_count(s); c++) {
			const char *v = (const char *)sqlite3_column_text(s, c);

			n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s",
			    c ? "|" : "", v != NULL ? v : "NULL");
		}
		n += (size_t)snprintf(out + n, sizeof(out) - n, "\n");
		assert_true(n < sizeof(out));
	}
	sqlite3_finalize(s);
	return out;
}

static inline int
same_file(const char *a, const char *b)
{
	FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
	int ca = 0, cb = 0, same = f != NULL && g != NULL;

	while (same && (ca != EOF || cb != EOF)) {
		ca = getc(f);
		cb = getc(g);
		same = ca == cb;
	}
	if (f != NULL)
		fclose(f);
	if (g != NULL)
		fclose(g);
	return same;
}

static inline uint64_t
xrnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * n spans of every kind in many interleaved traces, every attribute field
 * filled by its encoding (absent values too), orphans with causes that
 * come in no particular order, open and background flags, links (also to
 * spans that never come), member events before and after their span,
 * parents that come late or never.
 */
static inline void
write_mixed_seed(const char *path, unsigned n, uint64_t seed, int longcause)
{
	static char big[3001];
	const char *causes[] = { "net.device", "host.mmio", "nic.rx", "a",
	    "host.dma.x" };
	const struct ssp_schema *sch = ssp_span_schema(1);
	uint64_t x = seed, id;
	struct ssp_rec r;
	struct tw t;
	unsigned i, k;

	if (longcause) {	/* index entries with overflow pages */
		memset(big, 'z', sizeof(big) - 1);
		causes[3] = big;
	}
	tw_open(&t, path, sch);
	for (i = 0; i < n; i++) {
		unsigned kind = (unsigned)(xrnd(&x) % SSP_SK_NKINDS);
		const struct ssp_rec_type *ty = &sch->types[kind];
		uint64_t tr = xrnd(&x) % 300;

		id = i + 1;
		memset(&r, 0, sizeof(r));
		r.type = kind;
		r.ts = (int64_t)(i * 1000 + xrnd(&x) % 5000) - (i % 50 == 0 ?
		    1000000 : 0);
		r.f[SSP_SF_TRACE_HI] = tr % 7 == 0 ? 0xffffffffffffffffull : tr;
		r.f[SSP_SF_TRACE_LO] = tr * 0x100000001ull;
		r.f[SSP_SF_SPAN] = i % 97 == 0 ? 0x8000000000000000ull + id : id;
		r.f[SSP_SF_PARENT] = i % 5 == 0 || i < 10 ? 0 : i % 41 == 0 ?
		    id + 3 : i % 43 == 0 ? 999999999 : id - 1 - xrnd(&x) % 9;
		r.f[SSP_SF_STREAM] = xrnd(&x) % 3;
		r.f[SSP_SF_DUR] = i % 61 == 0 ? 0 : xrnd(&x) % 100000;
		r.f[SSP_SF_FLAGS] = i % 7 == 0 ? 1 : i % 11 == 0 ? 2 :
		    i % 13 == 0 ? 5 : 0;
		if (r.f[SSP_SF_FLAGS] & 1 && i % 3 != 0)
			r.f[SSP_SF_CAUSE] = tw_str(&t, causes[(i / 7) % 5]);
		for (k = NC; k < ty->nf; k++) {
			uint64_t v = xrnd(&x);

			switch (ty->f[k].enc) {
			case SSP_ENC_S:
				r.f[k] = v % 4 == 0 ? 0 : tw_str(&t,
				    causes[v % 5]);
				break;
			case SSP_ENC_B: r.f[k] = v & 1; break;
			case SSP_ENC_I: r.f[k] = v % 3 == 0 ? (uint64_t)-1 : v % 1000; break;
			case SSP_ENC_A: r.f[k] = v & 0xffffffff; break;
			case SSP_ENC_M: r.f[k] = v & 0xffffffffffffull; break;
			default: r.f[k] = v % 5 == 0 ? v : v % 70000;
			}
		}
		assert_int_equal(ssp_rec_wr_put(t.w, &r, &t.e), SSP_OK);
		if (i % 9 == 0)
			tw_link(&t, id, tr, i % 27 == 0 ? 77777777 : id / 2 + 1);
		if (i % 4 == 0)
			tw_event(&t, SSP_EV_NIC_TX, i % 8 == 0 ? id : id + 2,
			    (unsigned)(i % 3), (int64_t)i * 10, 1, (uint64_t)i);
	}
	tw_close(&t);
}

static inline void
write_mixed(const char *path, unsigned n)
{
	write_mixed_seed(path, n, 0x9e3779b97f4a7c15ull, 0);
}

/* All rows of a query, each value with its type, in a malloc'd string. */
static inline char *
qdump(sqlite3 *db, const char *sql)
{
	size_t cap = 1 << 16, n = 0;
	char *out = malloc(cap);
	sqlite3_stmt *s;
	int c;

	assert_non_null(out);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	out[0] = '\0';
	while (sqlite3_step(s) == SQLITE_ROW) {
		for (c = 0; c < sqlite3_column_count(s); c++) {
			int type = sqlite3_column_type(s, c);
			const char *v = (const char *)sqlite3_column_text(s, c);
			size_t k = v != NULL ? strlen(v) : 0;

			while (n + k + 8 > cap) {
				cap *= 2;
				assert_non_null(out = realloc(out, cap));
			}
			n += (size_t)snprintf(out + n, cap - n, "%s%d:%s",
			    c ? "|" : "", type, v != NULL ? v : "");
		}
		out[n++] = '\n';
		out[n] = '\0';
	}
	sqlite3_finalize(s);
	return out;
}

static inline void
same_rows(sqlite3 *da, sqlite3 *db, const char *sql)
{
	char *a = qdump(da, sql), *b = qdump(db, sql);

	if (strcmp(a, b) != 0)
		fail_msg("%s: differs", sql);
	free(a);
	free(b);
}

/* Every table row by row, typed, and the views: the same in both. */
static inline void
compare_dbs(const char *a, const char *b)
{
	static const char *const extra[] = { "SELECT * FROM latency",
	    "SELECT * FROM split_streams", "SELECT * FROM split_kinds",
	    "SELECT * FROM orphans", "SELECT * FROM span_kinds",
	    "SELECT * FROM net_device ORDER BY id",
	    ("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name "
	    "NOT LIKE 'sqlite_stat%' ORDER BY name") };
	sqlite3 *da, *db;
	sqlite3_stmt *s;
	char sql[200];
	size_t i;

	assert_int_equal(sqlite3_open(a, &da), SQLITE_OK);
	assert_int_equal(sqlite3_open(b, &db), SQLITE_OK);
	assert_string_equal(qs(da, "PRAGMA integrity_check"), "ok\n");
	assert_string_equal(qs(db, "PRAGMA integrity_check"), "ok\n");
	assert_int_equal(sqlite3_prepare_v2(da, "SELECT name FROM sqlite_schema "
	    "WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", -1, &s, NULL),
	    SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		snprintf(sql, sizeof(sql), "SELECT rowid, * FROM \"%s\" ORDER BY "
		    "rowid", (const char *)sqlite3_column_text(s, 0));
		same_rows(da, db, sql);
	}
	sqlite3_finalize(s);
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		same_rows(da, db, extra[i]);
	sqlite3_close(da);
	sqlite3_close(db);
}

/*
 * Load sp into the database file dbp (appended to when it holds a simspan
 * database) as span2sqlite does: the work file next to it, renamed over
 * it when new, removed when appended.  SSP_OK or the error, in *e.
 */
static inline int
file_try(const char *dbp, const char *sp, struct ssp_load_opts *o,
    struct ssp_load_stats *st, struct ssp_err *e)
{
	struct ssp_sqlite *d;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	char work[300];
	int r, fd;

	memset(e, 0, sizeof(*e));
	/* the input first, as span2sqlite reads it before the database */
	assert_int_equal(ssp_in_open(&in, sp, 0, NULL, e), SSP_OK);
	if ((r = ssp_span_reader_open(&rr, in, e)) != SSP_OK) {
		ssp_in_close(in);
		return r;
	}
	if ((r = ssp_sqlite_open(&d, dbp, 0, e)) != SSP_OK) {
		ssp_rec_rd_close(rr);
		ssp_in_close(in);
		return r;
	}
	snprintf(work, sizeof(work), "%s.tmpXXXXXX", ssp_sqlite_target(d));
	assert_true((fd = mkstemp(work)) >= 0);
	close(fd);
	r = ssp_sqlite_load(d, work, rr, o, st, e);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	if (r == SSP_OK)
		r = ssp_sqlite_commit(d, e);
	if (r == SSP_OK && ssp_sqlite_is_new(d))
		assert_int_equal(rename(work, ssp_sqlite_target(d)), 0);
	else
		unlink(work);
	ssp_sqlite_close(d);
	return r;
}

/* The same, which must succeed. */
static inline void
file_append(const char *dbp, const char *sp, struct ssp_load_opts *o,
    struct ssp_load_stats *st)
{
	struct ssp_err e;

	if (file_try(dbp, sp, o, st, &e) != SSP_OK)
		fail_msg("load into %s: %s", dbp, e.msg);
}

/* Load sp into a new database dbp. */
static inline void
file_load(const char *dbp, const char *sp, struct ssp_load_opts *o,
    struct ssp_load_stats *st)
{
	unlink(dbp);
	file_append(dbp, sp, o, st);
}

#endif
