/*
 * The direct row writer (lib/sqlite/direct): it takes the column order
 * of each table from the table SQLite created, builds every index from
 * sorted keys, and gives the rows INSERTs give (the differential tests of
 * test_sqlite load whole streams both ways).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sqlite/direct.h"
#include "sqlite/sqlite_schema.h"
#include "sqlite_helpers.h"

/*
 * The direct writer takes the column order from the table SQLite created
 * (its catalog), not from a copy of the schema: spans with its columns in
 * another order gets the same rows, and its indexes (a partial one too)
 * are built from sorted keys, none left to REINDEX.
 */
static void
test_direct_layout_from_schema(void **state)
{
	static const char *const kinds[] = { "k.b", "k.a" };
	static const char *const streams[] = { "s1", "s0" };
	static const struct ssp_rows_attr *const noattr[] = { NULL, NULL };
	const char *path = tmpname("layout.db");
	const char *ix = strstr(ssp_sqlite_schema, "-- span2sqlite: indexes");
	struct ssp_value v[SSP_ROWS_MAXCOLS];
	struct ssp_catalog *cat;
	struct ssp_direct *w;
	struct ssp_rows *rw;
	int ok;
	struct ssp_err e = { 0 };
	char cause[8];
	sqlite3 *db;
	int64_t row;

	(void)state;
	unlink(path);
	assert_non_null(ix);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = OFF; BEGIN",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(ssp_schema_create(db, NULL, &e), SSP_OK);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE spans; CREATE TABLE "
	    "spans (extra TEXT, cause TEXT, flags INTEGER, id INTEGER PRIMARY "
	    "KEY, dur_ps INTEGER, start_ps INTEGER, end_ps INTEGER GENERATED "
	    "ALWAYS AS (start_ps + dur_ps) VIRTUAL, stream TEXT, kind TEXT, "
	    "span_id INTEGER, parent INTEGER, trace INTEGER, run INTEGER)",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, ix, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(ssp_catalog_read(db, "layout.db", &cat, &e), SSP_OK);
	sqlite3_close(db);
	assert_int_equal(ssp_direct_plan(&w, cat, "layout.db", noattr, 2, &ok,
	    &e), SSP_OK);
	assert_int_equal(ok, 1);
	assert_int_equal(ssp_direct_open(w, path, NULL, 0, kinds, streams, 2,
	    1 << 20), SSP_OK);
	rw = ssp_direct_rows(w);
	for (row = 1; row <= 300; row++) {
		int ft = (int)(row % 2);

		snprintf(cause, sizeof(cause), "c%d", (int)(row % 5));
		v[0] = ssp_value_null();
		v[1] = ssp_value_int(1);
		v[2] = ssp_value_int(row % 7 + 1);
		v[3] = row > 1 ? ssp_value_int(row - 1) : v[0];
		v[4] = ssp_value_int(1000 + row);
		v[5] = ssp_value_str(kinds[ft]);
		v[6] = ssp_value_str(streams[ft]);
		v[7] = ssp_value_int(row * 10);
		v[8] = ssp_value_int(300 - row);
		v[9] = ssp_value_int(row % 3 == 0);
		v[10] = row % 3 == 0 ? ssp_value_str(cause) : v[0];
		v[11] = v[0];
		assert_int_equal(ssp_rows_row(rw, SSP_ROWS_SPANS, row, v, ft,
		    (uint32_t)ft), SSP_OK);
	}
	assert_int_equal(ssp_rows_traces(rw), SSP_OK);
	/* no sqlite_stat1 in this file: SQLite opens it for the statistics */
	assert_int_equal(ssp_rows_finish(rw, 0, &db), SSP_OK);
	assert_non_null(db);
	assert_int_equal(ssp_direct_reindexed(w), 0);
	assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	ssp_rows_free(rw);
	ssp_catalog_free(cat);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_string_equal(qs(db, "PRAGMA integrity_check"), "ok\n");
	assert_string_equal(qs(db, "SELECT id, run, trace, parent, span_id, "
	    "kind, stream, start_ps, dur_ps, end_ps, flags, cause, extra FROM "
	    "spans WHERE id <= 3"),
	    "1|1|2|NULL|1001|k.a|s0|10|299|309|0|NULL|NULL\n"
	    "2|1|3|1|1002|k.b|s1|20|298|318|0|NULL|NULL\n"
	    "3|1|4|2|1003|k.a|s0|30|297|327|1|c3|NULL\n");
	assert_int_equal(qi(db, "SELECT count(*) FROM spans INDEXED BY "
	    "spans_orphans WHERE flags & 1 AND run = 1 AND kind = 'k.b' AND "
	    "cause = 'c1'"), 10);
	sqlite3_close(db);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_layout_from_schema),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
