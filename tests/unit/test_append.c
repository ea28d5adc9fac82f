/*
 * Appending a run through SQLite (lib/sqlite/append): the run's ids go
 * above the database's own, also when rows were deleted from the top; the
 * default names are made unique in the database; the planner's statistics
 * are merged, not made again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sqlite/append.h"
#include "sqlite_helpers.h"

static void
stat_is(const char *old, const char *add, const char *want)
{
	char out[256];

	ssp_append_stat(old, add, out, sizeof(out));
	if (strcmp(out, want) != 0)
		fail_msg("merge of '%s' and '%s': '%s', want '%s'", old, add, out,
		    want);
}

/*
 * Row counts add up.  A prefix of few values in the run (kinds, streams,
 * the run itself: at most the square root of its rows) is taken as
 * values the old rows share; one of many (ids, times) as new values; a
 * unique one stays unique; flags after the numbers are kept.
 */
static void
test_stat_merge(void **state)
{
	(void)state;
	stat_is("1000", "500", "1500");				/* a table */
	/* spans_kind (kind, run, dur_ps): 10 kinds in both */
	stat_is("1000 100 100 1", "500 50 50 1", "1500 150 150 1");
	/* spans_trace: 50 traces of 20 spans, then 25 more */
	stat_is("1000 20", "500 20", "1500 20");
	/* a unique index stays unique */
	stat_is("1000 1", "1 1", "1001 1");
	stat_is("7 1 1", "3 1 1", "10 1 1");
	/* the run column of traces_latency: one value in the run */
	stat_is("1000 500 10", "500 500 10", "1500 750 10");
	stat_is("1000 20 unordered", "500 20", "1500 20 unordered");
	/* nothing old, or nothing to merge with */
	stat_is("0", "500 20", "500 20");
	stat_is("", "500 20", "500 20");
	stat_is("1000 20", "", "1000 20");
}

/* Delete run r, every row of it. */
static void
delete_run(sqlite3 *db, int r)
{
	sqlite3_stmt *s;
	char sql[256];
	char *t;

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema "
	    "WHERE type = 'table' AND name LIKE 'attr\\_%' ESCAPE '\\'", -1, &s,
	    NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		t = sqlite3_mprintf("DELETE FROM \"%w\" WHERE span IN (SELECT id "
		    "FROM spans WHERE run = %d)", sqlite3_column_text(s, 0), r);
		assert_int_equal(sqlite3_exec(db, t, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_free(t);
	}
	sqlite3_finalize(s);
	snprintf(sql, sizeof(sql), "DELETE FROM spans WHERE run = %d; DELETE FROM "
	    "traces WHERE run = %d; DELETE FROM links WHERE run = %d; DELETE FROM "
	    "events WHERE run = %d; DELETE FROM streams WHERE run = %d; DELETE "
	    "FROM run_meta WHERE run = %d; DELETE FROM runs WHERE id = %d", r, r,
	    r, r, r, r, r);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
}

/* A database whose last runs were deleted (max(id) below the ids once
 * used) and whose default run name is taken twice. */
static void
test_ids_and_names(void **state)
{
	char sp[96], dbp[96];
	struct ssp_load_opts o = { .now = 1700000000, .events = 1 };
	struct ssp_load_stats st;
	sqlite3 *db;

	(void)state;
	snprintf(sp, sizeof(sp), "%s", tmpname("ids.sp"));
	snprintf(dbp, sizeof(dbp), "%s", tmpname("ids.db"));
	write_mixed(sp, 200);
	o.source = sp;
	unlink(dbp);
	file_load(dbp, sp, &o, &st);
	file_append(dbp, sp, &o, &st);
	file_append(dbp, sp, &o, &st);
	assert_true(st.run == 3);
	assert_string_equal(st.run_name, "ids.sp@2023-11-14T22:13:20Z#3");
	assert_int_equal(sqlite3_open(dbp, &db), SQLITE_OK);
	delete_run(db, 3);
	sqlite3_close(db);
	file_append(dbp, sp, &o, &st);
	assert_true(st.run == 3);
	assert_int_equal(sqlite3_open(dbp, &db), SQLITE_OK);
	assert_string_equal(qs(db, "PRAGMA integrity_check"), "ok\n");
	/* each run's rows: the same as the first run's, ids moved */
	assert_int_equal(qi(db, "SELECT count(*) FROM spans AS a JOIN spans AS "
	    "b ON b.span_id = a.span_id AND b.run = 3 WHERE a.run = 1 AND "
	    "b.id - a.id = (SELECT max(id) FROM spans WHERE run = 2) AND "
	    "b.trace - a.trace = (SELECT max(id) FROM traces WHERE run = 2) AND "
	    "b.parent IS a.parent + (b.id - a.id)"), 200);
	assert_int_equal(qi(db, "SELECT count(*) FROM traces AS t JOIN spans AS "
	    "s ON s.id = t.root WHERE s.run != t.run"), 0);
	assert_int_equal(qi(db, "SELECT count(*) FROM links AS l JOIN spans AS "
	    "s ON s.id = l.span WHERE s.run != l.run"), 0);
	assert_int_equal(qi(db, "SELECT count(*) FROM events AS v JOIN spans "
	    "AS s ON s.id = v.span WHERE s.run != v.run"), 0);
	assert_int_equal(qi(db, "SELECT count(*) FROM streams WHERE run = 3"), 3);
	assert_int_equal(qi(db, "SELECT count(*) FROM run_meta WHERE run = 3"),
	    qi(db, "SELECT count(*) FROM run_meta WHERE run = 1"));
	/* the statistics count every run loaded (the rows deleted by hand
	 * too: they are merged, not counted again; ANALYZE renews them) */
	assert_int_equal(qi(db, "SELECT stat + 0 FROM sqlite_stat1 WHERE tbl = "
	    "'spans' AND idx = 'spans_trace'"), 800);
	assert_int_equal(qi(db, "SELECT stat + 0 FROM sqlite_stat1 WHERE tbl = "
	    "'runs'"), 4);
	sqlite3_close(db);
	unlink(sp);
	unlink(dbp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_merge),
		cmocka_unit_test(test_ids_and_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
