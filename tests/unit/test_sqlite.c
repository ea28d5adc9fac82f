/*
 * Span streams into database files (lib/sqlite/sqlite): a new database
 * written whole, runs appended through SQLite, a load that fails or is
 * given up leaving the database as it was, files that are refused without
 * blocking; and the two row writers against each other, for new
 * databases and appends.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <cmocka.h>

#include "sqlite_helpers.h"

/* A tiny stream of one span. */
static void
write_one(const char *path)
{
	struct tw t;

	tw_open(&t, path, ssp_span_schema(0));
	tw_span(&t, SSP_SK_NIC_TX, 1, 0, 1, 1, 0, 5, 1, (uint64_t)60);
	tw_close(&t);
}

/* No work file of a load is left next to the database. */
static int
no_work_left(const char *db)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "ls '%s'.tmp* >/dev/null 2>&1", db);
	return system(cmd) != 0;
}

/*
 * New, then appended to; a load given up (not committed), a load of a bad
 * stream and an append whose name is taken leave the database byte for
 * byte as it was.
 */
static void
test_file_new_append_abort(void **state)
{
	char sp[96], dbp[96], copy[96], bad[96], work[400];
	struct ssp_load_opts o = { .now = 1700000000 };
	struct ssp_load_stats st;
	struct ssp_sqlite *d;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_err e;
	sqlite3 *db;
	int fd;

	(void)state;
	snprintf(sp, sizeof(sp), "%s", tmpname("cow.sp"));
	snprintf(dbp, sizeof(dbp), "%s", tmpname("cow.db"));
	snprintf(copy, sizeof(copy), "%s", tmpname("cow.copy"));
	snprintf(bad, sizeof(bad), "%s", tmpname("bad.sp"));
	write_one(sp);
	o.source = sp;
	unlink(dbp);
	file_append(dbp, sp, &o, &st);
	assert_true(st.run == 1);
	file_append(dbp, sp, &o, &st);
	assert_true(st.run == 2);
	assert_string_equal(st.run_name, "cow.sp@2023-11-14T22:13:20Z#2");
	snprintf(work, sizeof(work), "cp %s %s", dbp, copy);
	assert_int_equal(system(work), 0);

	/* loaded, not committed: the run's file goes, the database stays */
	assert_int_equal(ssp_sqlite_open(&d, dbp, 0, &e), SSP_OK);
	assert_false(ssp_sqlite_is_new(d));
	snprintf(work, sizeof(work), "%s.tmpXXXXXX", dbp);
	assert_true((fd = mkstemp(work)) >= 0);
	close(fd);
	assert_int_equal(ssp_in_open(&in, sp, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_sqlite_load(d, work, rr, &o, &st, &e), SSP_OK);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	unlink(work);
	ssp_sqlite_close(d);
	assert_true(same_file(dbp, copy));

	/* a stream cut short */
	snprintf(work, sizeof(work), "head -c 60 %s > %s", sp, bad);
	assert_int_equal(system(work), 0);
	assert_int_not_equal(file_try(dbp, bad, &o, &st, &e), SSP_OK);
	assert_non_null(strstr(e.msg, "bad.sp"));
	assert_true(same_file(dbp, copy));
	/* a name that is taken: refused before the stream is read */
	o.run = "cow.sp@2023-11-14T22:13:20Z";
	assert_int_equal(file_try(dbp, sp, &o, &st, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "already exists"));
	assert_non_null(strstr(e.msg, dbp));
	assert_true(same_file(dbp, copy));
	assert_true(no_work_left(dbp));

	assert_int_equal(sqlite3_open(dbp, &db), SQLITE_OK);
	assert_int_equal(qi(db, "SELECT count(*) FROM runs"), 2);
	assert_int_equal(qi(db, "SELECT count(*) FROM spans"), 2);
	sqlite3_close(db);
	assert_int_equal(ssp_sqlite_open(&d, "/nonexistent-dir/x.db", 0, &e),
	    SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "nonexistent-dir"));
	assert_int_equal(ssp_sqlite_open(&d, "", 0, &e), SSP_ERR_INVAL);
	unlink(dbp);
	unlink(copy);
	unlink(sp);
	unlink(bad);
}

/*
 * A FIFO, a directory or a device is no database: refused at once (a
 * FIFO is never opened, which would wait for a writer).  A write-protected
 * database is refused without SSP_SQLITE_FORCE.  An empty file and an
 * SQLite database without objects make a new database, which keeps the
 * file's mode.
 */
static void
test_refused_and_new_files(void **state)
{
	char fifo[96], ro[96], sp[96], empty[96];
	struct ssp_load_opts o = { 0 };
	struct ssp_load_stats st;
	struct ssp_sqlite *d;
	struct ssp_err e;
	struct stat sb;
	sqlite3 *db;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s", tmpname("fifo.db"));
	snprintf(ro, sizeof(ro), "%s", tmpname("ro.db"));
	snprintf(sp, sizeof(sp), "%s", tmpname("one.sp"));
	snprintf(empty, sizeof(empty), "%s", tmpname("empty.db"));
	write_one(sp);
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(ssp_sqlite_open(&d, fifo, 0, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "not a regular file"));
	assert_non_null(strstr(e.msg, fifo));
	assert_int_equal(ssp_sqlite_open(&d, "/dev/null", 0, &e), SSP_ERR_INVAL);
	assert_int_equal(ssp_sqlite_open(&d, "/tmp", 0, &e), SSP_ERR_INVAL);
	unlink(fifo);

	unlink(ro);
	file_load(ro, sp, &o, &st);
	assert_int_equal(chmod(ro, 0444), 0);
	assert_int_equal(ssp_sqlite_open(&d, ro, 0, &e), SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "write-protected"));
	assert_int_equal(ssp_sqlite_open(&d, ro, SSP_SQLITE_FORCE, &e), SSP_OK);
	ssp_sqlite_close(d);
	assert_int_equal(chmod(ro, 0644), 0);
	unlink(ro);

	/* an empty file, then an SQLite database without objects */
	unlink(empty);
	{
		FILE *f = fopen(empty, "w");

		assert_non_null(f);
		fclose(f);
	}
	assert_int_equal(chmod(empty, 0640), 0);
	file_append(empty, sp, &o, &st);
	assert_int_equal(stat(empty, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0640);
	unlink(empty);
	assert_int_equal(sqlite3_open(empty, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 3; CREATE TABLE "
	    "t(x); DROP TABLE t", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(ssp_sqlite_open(&d, empty, 0, &e), SSP_OK);
	assert_true(ssp_sqlite_is_new(d));
	ssp_sqlite_close(d);
	file_append(empty, sp, &o, &st);
	assert_int_equal(sqlite3_open(empty, &db), SQLITE_OK);
	assert_int_equal(qi(db, "SELECT count(*) FROM spans"), 1);
	sqlite3_close(db);
	unlink(empty);
	unlink(sp);
}

/*
 * A user's UNIQUE index that the run would violate: the append is refused
 * with SQLite's message, and the database stays as it was, whole.
 */
static void
test_append_keeps_unique_index(void **state)
{
	char sp[96], dbp[96], copy[96], cmd[300];
	struct ssp_load_opts o = { 0 };
	struct ssp_load_stats st;
	struct ssp_err e;
	sqlite3 *db;

	(void)state;
	snprintf(sp, sizeof(sp), "%s", tmpname("u.sp"));
	snprintf(dbp, sizeof(dbp), "%s", tmpname("u.db"));
	snprintf(copy, sizeof(copy), "%s", tmpname("u.copy"));
	write_mixed(sp, 300);
	unlink(dbp);
	file_load(dbp, sp, &o, &st);
	assert_int_equal(sqlite3_open(dbp, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE UNIQUE INDEX mine ON "
	    "spans(span_id)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	snprintf(cmd, sizeof(cmd), "cp %s %s", dbp, copy);
	assert_int_equal(system(cmd), 0);
	assert_int_not_equal(file_try(dbp, sp, &o, &st, &e), SSP_OK);
	assert_non_null(strstr(e.msg, "UNIQUE constraint failed"));
	assert_non_null(strstr(e.msg, dbp));
	assert_null(strstr(e.msg, ".tmp"));	/* the user's file, no other */
	assert_true(same_file(dbp, copy));
	assert_true(no_work_left(dbp));
	assert_int_equal(sqlite3_open(dbp, &db), SQLITE_OK);
	assert_string_equal(qs(db, "PRAGMA integrity_check"), "ok\n");
	sqlite3_close(db);
	unlink(sp);
	unlink(dbp);
	unlink(copy);
}

/* A new database written directly holds what INSERTs would have written:
 * default caches, tiny caches (evicted traces, late references), and
 * index keys spilled to a file. */
static void
test_direct_same_as_sql(void **state)
{
	const char *sp = tmpname("mixed.sp"), *da = tmpname("direct.db");
	const char *db = tmpname("sql.db");
	struct ssp_load_opts o[3] = {
		{ .events = 1, .now = 1700000000 },
		{ .events = 1, .now = 1700000000, .span_cache = 50,
		    .trace_cache = 20, .sort_mem = 1 },
		{ .events = 0, .now = 1700000000, .trace_cache = 3 },
	};
	struct ssp_load_stats st;
	unsigned i;

	(void)state;
	write_mixed(sp, 3000);
	for (i = 0; i < 3; i++) {
		o[i].source = sp;
		o[i].sql_only = 0;
		file_load(da, sp, &o[i], &st);
		assert_true(st.direct);
		assert_true(st.spans == 3000 && st.links > 300);
		assert_true(st.late > 0 && st.unresolved > 0);
		o[i].sql_only = 1;
		file_load(db, sp, &o[i], &st);
		assert_false(st.direct);
		compare_dbs(da, db);
	}
	unlink(sp);
	unlink(da);
	unlink(db);
}

/*
 * An append loads the run into a new database (written directly, or with
 * INSERTs) and merges it into the database through SQLite: the same rows
 * and index contents either way, onto a database written directly and
 * onto one written with INSERTs, over several runs: keys that interleave
 * with the old ones (the same spans again, other spans), small caches,
 * index keys spilled, index entries with overflow pages (long orphan
 * causes), a small run.
 */
static void
test_append_same_as_sql(void **state)
{
	char sa[96], sb[96], sc[96], da[96], db[96];	/* tmpname() has 4 */
	struct ssp_load_opts o[4] = {
		{ .events = 1, .now = 1700000000 },
		{ .events = 1, .now = 1700000000, .span_cache = 50,
		    .trace_cache = 20, .sort_mem = 1 },
		{ .events = 0, .now = 1700000000, .trace_cache = 3 },
		{ .events = 1, .now = 1700000000 },
	};
	const char *in[4];
	struct ssp_load_stats st;
	unsigned base, i;

	(void)state;
	snprintf(sa, sizeof(sa), "%s", tmpname("a.sp"));
	snprintf(sb, sizeof(sb), "%s", tmpname("b.sp"));
	snprintf(sc, sizeof(sc), "%s", tmpname("c.sp"));
	snprintf(da, sizeof(da), "%s", tmpname("dappend.db"));
	snprintf(db, sizeof(db), "%s", tmpname("sappend.db"));
	write_mixed(sa, 3000);
	write_mixed_seed(sb, 2500, 0x1234567890abcdefull, 1);
	write_mixed_seed(sc, 40, 77, 1);
	in[0] = sb;
	in[1] = sa;
	in[2] = sc;
	in[3] = sb;
	for (base = 0; base < 2; base++) {	/* written directly, by SQL */
		struct ssp_load_opts ob = { .events = 1, .now = 1700000000,
		    .source = sa, .sql_only = base };

		file_load(da, sa, &ob, &st);
		ob.sql_only = 1;
		file_load(db, sa, &ob, &st);
		for (i = 0; i < 4; i++) {
			o[i].source = in[i];
			o[i].sql_only = 0;
			file_append(da, in[i], &o[i], &st);
			assert_true(st.direct);
			o[i].sql_only = 1;
			file_append(db, in[i], &o[i], &st);
			assert_false(st.direct);
			compare_dbs(da, db);
		}
	}
	unlink(sa);
	unlink(sb);
	unlink(sc);
	unlink(da);
	unlink(db);
}

/*
 * n spans in traces of six, each after its parent, links and events after
 * the spans they name, orphans with causes: nothing for a load to resolve
 * late.
 */
static void
write_clean(const char *path, unsigned n)
{
	static const char *const causes[] = { "net.device", "host.mmio" };
	const struct ssp_schema *sch = ssp_span_schema(1);
	struct ssp_rec r;
	struct tw t;
	unsigned i;

	tw_open(&t, path, sch);
	for (i = 0; i < n; i++) {
		uint64_t id = i + 1, tr = i / 6 + 1;

		memset(&r, 0, sizeof(r));
		r.type = i % 6 == 0 ? SSP_SK_HOST_SYSCALL : i % 3 == 0 ?
		    SSP_SK_NIC_DMA : SSP_SK_NET_DEVICE;
		r.ts = (int64_t)i * 100;
		r.f[SSP_SF_TRACE_HI] = 0xabc;
		r.f[SSP_SF_TRACE_LO] = tr;
		r.f[SSP_SF_SPAN] = id;
		r.f[SSP_SF_PARENT] = i % 6 == 0 ? 0 : id - 1;
		r.f[SSP_SF_STREAM] = i % 3;
		r.f[SSP_SF_DUR] = 50 + i % 7;
		if (i % 13 == 7) {
			r.f[SSP_SF_PARENT] = 0;
			r.f[SSP_SF_FLAGS] = 1;
			r.f[SSP_SF_CAUSE] = tw_str(&t, causes[i % 2]);
		}
		assert_int_equal(ssp_rec_wr_put(t.w, &r, &t.e), SSP_OK);
		if (i % 6 == 5)
			tw_link(&t, id, tr, id - 1);
		if (i % 4 == 0)
			tw_event(&t, SSP_EV_NIC_TX, id, i % 3, (int64_t)i * 100 + 1,
			    1, (uint64_t)i);
	}
	tw_close(&t);
}

/* sqlite_stat1 of a copy of db, made again by ANALYZE table by table in
 * the schema's order, as a load that leaves it to SQLite makes it. */
static char *
stats_of_analyze(const char *db)
{
	const char *copy = tmpname("analyzed.db");
	char cmd[700], *out;
	sqlite3 *d;
	sqlite3_stmt *s;

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", db, copy);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(sqlite3_open(copy, &d), SQLITE_OK);
	assert_int_equal(sqlite3_exec(d, "DELETE FROM sqlite_stat1; "
	    "PRAGMA analysis_limit = 1000", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(d, "SELECT name FROM sqlite_schema "
	    "WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
	    "ORDER BY rowid", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		snprintf(cmd, sizeof(cmd), "ANALYZE \"%s\"",
		    (const char *)sqlite3_column_text(s, 0));
		assert_int_equal(sqlite3_exec(d, cmd, NULL, NULL, NULL), SQLITE_OK);
	}
	sqlite3_finalize(s);
	out = qdump(d, "SELECT rowid, tbl, idx, stat FROM sqlite_stat1 ORDER BY "
	    "rowid");
	sqlite3_close(d);
	unlink(copy);
	return out;
}

/*
 * A small load with nothing to resolve late is complete when the direct
 * writer is done: SQLite never opens the file, and its statistics are
 * those ANALYZE gives, row for row (rowids too), its tables and views
 * those INSERTs give.  A load with an index over ANALYZE's limit, or with
 * references resolved late, is finished by SQLite, to the same effect.
 */
static void
test_direct_complete(void **state)
{
	char sp[96], da[96], db[96];	/* tmpname() has 4 */
	struct ssp_load_opts o = { .events = 1, .now = 1700000000 };
	static const unsigned n[] = { 1, 200, 900, 1200 };
	struct ssp_load_stats st;
	char *a, *b;
	sqlite3 *d;
	unsigned i;

	(void)state;
	snprintf(sp, sizeof(sp), "%s", tmpname("clean.sp"));
	snprintf(da, sizeof(da), "%s", tmpname("direct.db"));
	snprintf(db, sizeof(db), "%s", tmpname("sql.db"));
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		write_clean(sp, n[i]);
		o.source = sp;
		o.sql_only = 0;
		file_load(da, sp, &o, &st);
		assert_true(st.direct && st.late == 0 && st.unresolved == 0);
		assert_int_equal(st.spans, n[i]);
		/* 1200 spans: more than 1000 entries in the spans indexes */
		assert_int_equal(st.complete, n[i] <= 1000);
		assert_int_equal(sqlite3_open(da, &d), SQLITE_OK);
		a = qdump(d, "SELECT rowid, tbl, idx, stat FROM sqlite_stat1 "
		    "ORDER BY rowid");
		sqlite3_close(d);
		assert_non_null(strstr(a, "spans_kind"));
		assert_true(n[i] < 13 || strstr(a, "spans_orphans") != NULL);
		b = stats_of_analyze(da);
		if (strcmp(a, b) != 0)
			fail_msg("%u spans: statistics\n%s\nnot ANALYZE's\n%s",
			    n[i], a, b);
		free(a);
		free(b);
		o.sql_only = 1;
		file_load(db, sp, &o, &st);
		assert_false(st.direct || st.complete);
		compare_dbs(da, db);
	}
	/* references resolved late: SQLite finishes the file */
	write_mixed(sp, 300);
	o.sql_only = 0;
	file_load(da, sp, &o, &st);
	assert_true(st.direct && st.late > 0 && !st.complete);
	unlink(sp);
	unlink(da);
	unlink(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_new_append_abort),
		cmocka_unit_test(test_refused_and_new_files),
		cmocka_unit_test(test_append_keeps_unique_index),
		cmocka_unit_test(test_direct_complete),
		cmocka_unit_test(test_direct_same_as_sql),
		cmocka_unit_test(test_append_same_as_sql),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
