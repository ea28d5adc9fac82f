/*
 * The schema (lib/sqlite/schema): formats/simspan.sql against the span
 * kinds, what a database is to a load, and the migration of an older
 * version with the DDL of formats/simspan.sql itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sqlite_helpers.h"

/* Every span kind has an attribute table with a column for every field and
 * a view; the schema's version is what the code reports. */
static void
test_schema_matches_span_kinds(void **state)
{
	const struct ssp_schema *s = ssp_span_schema(0);
	sqlite3 *db = mem_db();
	struct ssp_err e = { 0 };
	unsigned k, f;
	char sql[256], table[64], *p;

	(void)state;
	assert_int_equal(ssp_schema_version(), 2);
	assert_int_equal(qi(db, "PRAGMA user_version"), 2);
	for (k = 0; k < SSP_SK_NKINDS; k++) {
		const struct ssp_rec_type *t = &s->types[k];

		snprintf(table, sizeof(table), "%s", t->name);
		for (p = table; *p; p++)
			if (*p == '.')
				*p = '_';
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM pragma_table_info"
		    "('attr_%s')", table);
		assert_int_equal(qi(db, sql), t->nf - NC + 1);	/* + span */
		for (f = NC; f < t->nf; f++) {
			snprintf(sql, sizeof(sql), "SELECT count(*) FROM "
			    "pragma_table_info('attr_%s') WHERE name = '%s'",
			    table, t->f[f].name);
			if (qi(db, sql) != 1)
				fail_msg("attr_%s has no column %s", table,
				    t->f[f].name);
		}
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM sqlite_schema "
		    "WHERE type = 'view' AND name = '%s'", table);
		assert_int_equal(qi(db, sql), 1);
	}
	assert_int_equal(ssp_schema_indexes(db, NULL, &e), SSP_OK);
	assert_int_equal(ssp_schema_analyze(db, NULL, &e), SSP_OK);
	assert_true(qi(db, "SELECT count(*) FROM sqlite_schema WHERE type = "
	    "'index' AND name LIKE 'spans_%'") >= 4);
	sqlite3_close(db);
}

/* New, ours, another application's, a newer or unknown version. */
static void
test_check(void **state)
{
	static const struct {
		const char *sql;
		int rc, version;
		const char *msg;
	} c[] = {
		{ "", SSP_OK, 0, NULL },
		{ "PRAGMA user_version = 7", SSP_OK, 0, NULL },	/* no objects */
		{ "CREATE TABLE t(x)", SSP_ERR_FORMAT, 0, "not a simspan" },
		{ "PRAGMA application_id = 1397968979; PRAGMA user_version = 99; "
		  "CREATE TABLE t(x)", SSP_ERR_VERSION, 0, "schema version 99" },
		{ "PRAGMA application_id = 1397968979; CREATE TABLE t(x)",
		  SSP_ERR_VERSION, 0, "no upgrade path" },
		{ "PRAGMA application_id = 1397968979; PRAGMA user_version = 1; "
		  "CREATE TABLE t(x)", SSP_OK, 1, NULL },
	};
	struct ssp_err e;
	sqlite3 *db;
	size_t i;
	int v;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, c[i].sql, NULL, NULL, NULL),
		    SQLITE_OK);
		memset(&e, 0, sizeof(e));
		assert_int_equal(ssp_schema_check(db, "x.db", &v, &e), c[i].rc);
		if (c[i].rc == SSP_OK)
			assert_int_equal(v, c[i].version);
		else
			assert_non_null(strstr(e.msg, c[i].msg));
		if (c[i].rc != SSP_OK)
			assert_non_null(strstr(e.msg, "x.db"));
		sqlite3_close(db);
	}
	db = mem_db();
	assert_int_equal(ssp_schema_check(db, "x.db", &v, &e), SSP_OK);
	assert_int_equal(v, ssp_schema_version());
	sqlite3_close(db);
}

/* The objects of a database's schema, with their DDL, in name order. */
static char *
objects(sqlite3 *db)
{
	return qdump(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema "
	    "ORDER BY name");
}

/*
 * A version 1 database (version 2 without the kernel context tables and
 * views) gets what it lacks from an attached database made from
 * formats/simspan.sql: the same objects and DDL as a new one; its rows
 * stay.  Nothing to do for the current version.
 */
static void
test_migrate(void **state)
{
	const char *src = tmpname("src.db");
	struct ssp_err e = { 0 };
	sqlite3 *db = mem_db(), *s;
	char *want, *got, sql[300];

	(void)state;
	unlink(src);
	assert_int_equal(sqlite3_open(src, &s), SQLITE_OK);
	assert_int_equal(ssp_schema_create(s, NULL, &e), SSP_OK);
	assert_int_equal(ssp_schema_indexes(s, NULL, &e), SSP_OK);
	sqlite3_close(s);
	assert_int_equal(ssp_schema_indexes(db, NULL, &e), SSP_OK);
	want = objects(db);
	assert_int_equal(sqlite3_exec(db, "DROP VIEW host_irq; DROP VIEW "
	    "host_softirq; DROP VIEW host_resume; DROP VIEW host_app; DROP TABLE "
	    "attr_host_irq; DROP TABLE attr_host_softirq; DROP TABLE "
	    "attr_host_resume; DROP TABLE attr_host_app; PRAGMA user_version = 1; "
	    "INSERT INTO runs VALUES (1, 'r', '-', 'now', 't', 0, 0, NULL, 0)",
	    NULL, NULL, NULL), SQLITE_OK);
	snprintf(sql, sizeof(sql), "ATTACH '%s' AS src", src);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(ssp_schema_migrate(db, "src", 1, "x.db", &e), SSP_OK);
	assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	got = objects(db);
	assert_string_equal(got, want);
	assert_int_equal(qi(db, "PRAGMA user_version"), ssp_schema_version());
	assert_int_equal(qi(db, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(qi(db, "SELECT count(*) FROM host_irq"), 0);
	/* the current version: nothing changes */
	assert_int_equal(ssp_schema_migrate(db, "src", ssp_schema_version(),
	    "x.db", &e), SSP_OK);
	free(got);
	got = objects(db);
	assert_string_equal(got, want);
	free(want);
	free(got);
	sqlite3_close(db);
	unlink(src);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_matches_span_kinds),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_migrate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
