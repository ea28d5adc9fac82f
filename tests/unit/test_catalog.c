/*
 * The schema catalog (lib/sqlite/catalog): what SQLite's pragmas say of a
 * database, kept as text and read back the same, and text that is not a
 * catalog refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sqlite/catalog.h"
#include "sqlite_helpers.h"

static const struct ssp_catalog_index *
find_index(const struct ssp_catalog *c, const char *name)
{
	unsigned i;

	for (i = 0; i < c->nindexes; i++)
		if (strcmp(c->index[i].name, name) == 0)
			return &c->index[i];
	return NULL;
}

/* The schema's tables and indexes as the pragmas give them, in
 * sqlite_schema's order; the text reads back as the same catalog. */
static void
test_catalog_of_schema(void **state)
{
	sqlite3 *db = mem_db();
	struct ssp_buf a = SSP_BUF_INIT, b = SSP_BUF_INIT;
	struct ssp_catalog *c, *d;
	const struct ssp_catalog_table *t;
	const struct ssp_catalog_col *k;
	const struct ssp_catalog_index *x;
	struct ssp_err e = { 0 };

	(void)state;
	assert_int_equal(ssp_schema_indexes(db, NULL, &e), SSP_OK);
	/* a table whose DDL holds every character the text escapes */
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE \"odd\\name\"(a\tINT,\n"
	    "b TEXT DEFAULT 'x\\y', c INT GENERATED ALWAYS AS (a + 1) STORED)",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(ssp_catalog_read(db, "mem", &c, &e), SSP_OK);
	assert_int_equal(c->user_version, ssp_schema_version());
	assert_int_equal(c->application_id, 0x53535053);
	assert_int_equal(c->schema_version, qi(db, "PRAGMA schema_version"));
	assert_int_equal(c->ntriggers, 0);
	assert_int_equal(c->ntables, qi(db, "SELECT count(*) FROM sqlite_schema "
	    "WHERE type = 'table'"));
	assert_int_equal(c->nindexes, qi(db, "SELECT count(*) FROM "
	    "sqlite_schema WHERE type = 'index'"));
	assert_string_equal(c->table[0].name, "runs");
	assert_non_null(t = ssp_catalog_table(c, "traces"));
	assert_true(t->rowid && t->root > 1 && strstr(t->sql, "CREATE TABLE") == t->sql);
	assert_non_null(k = ssp_catalog_col(t, "id"));
	assert_int_equal(k->pk, 1);
	assert_string_equal(k->type, "INTEGER");
	assert_non_null(k = ssp_catalog_col(t, "trace_id"));
	assert_true(k->notnull && !k->dflt && k->pk == 0 && k->hidden == 0);
	/* SQLite computes dur_ps as the writers do; idle_ps is not theirs */
	assert_non_null(k = ssp_catalog_col(t, "dur_ps"));
	assert_true(k->hidden == 2 && k->gen_ok);
	assert_non_null(k = ssp_catalog_col(t, "idle_ps"));
	assert_true(k->hidden == 2 && !k->gen_ok);
	assert_null(ssp_catalog_col(t, "nosuch"));
	assert_null(ssp_catalog_table(c, "nosuch"));
	assert_non_null(t = ssp_catalog_table(c, "run_meta"));
	assert_true(t->rowid);
	assert_non_null(x = find_index(c, "sqlite_autoindex_traces_1"));
	assert_true(x->unique && !x->partial && x->sql == NULL);
	assert_int_equal(x->nkeys, 3);	/* run, trace_id, the rowid */
	assert_string_equal(x->key[1].name, "trace_id");
	assert_string_equal(x->key[1].coll, "BINARY");
	assert_true(x->key[1].key && !x->key[2].key && x->key[2].name == NULL);
	assert_non_null(x = find_index(c, "spans_orphans"));
	assert_true(x->partial && !x->unique && strstr(x->sql, "flags & 1"));
	assert_non_null(t = ssp_catalog_table(c, "odd\\name"));
	assert_non_null(k = ssp_catalog_col(t, "b"));
	assert_true(k->dflt);
	assert_non_null(k = ssp_catalog_col(t, "c"));
	assert_true(k->hidden == 3 && !k->gen_ok);
	ssp_catalog_text(c, &a);
	assert_false(a.failed);
	assert_int_equal(ssp_catalog_parse((const char *)a.p, a.len, &d, &e),
	    SSP_OK);
	ssp_catalog_text(d, &b);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.p, b.p, a.len);
	assert_non_null(t = ssp_catalog_table(d, "odd\\name"));
	assert_string_equal(t->sql, ssp_catalog_table(c, "odd\\name")->sql);
	ssp_catalog_free(c);
	ssp_catalog_free(d);
	ssp_buf_free(&a);
	ssp_buf_free(&b);
	sqlite3_close(db);
}

/* Text that is not a catalog is refused, whole or cut anywhere, or with
 * a field changed to one that does not parse. */
static void
test_catalog_refused(void **state)
{
	static const char *const bad[] = {
		"",
		"simspan-catalog 2\t2\t0\t1\t0\nend\n",
		"simspan-catalog 1\t2\t0\t1\nend\n",
		"simspan-catalog 1\t2\t0\t1\t0\nend\nmore\n",
		"simspan-catalog 1\t2\t0\t1\t0\ncol\ta\tINT\t0\t0\t0\t0\t0\nend\n",
		"simspan-catalog 1\t2\t0\t1\t0\ntable\tt\t2\t1\tx\\q\nend\n",
		"simspan-catalog 1\t2\t0\t1\t0\ntable\tt\t-2\t1\tx\nend\n",
		"simspan-catalog 1\t2\t0\t1\t0\ntable\t\\N\t2\t1\tx\nend\n",
		"simspan-catalog 1\t2\t0\t1\t0\nkey\ta\tBINARY\t0\t1\nend\n",
		/* a table after the indexes */
		("simspan-catalog 1\t2\t0\t1\t0\nindex\ti\tt\t3\t0\t0\t\\N\n"
		    "table\tt\t2\t1\tx\nend\n"),
		"simspan-catalog 1\t2\t0\t1\t0\ntable\tt\t2\t1\tx\n",
	};
	sqlite3 *db = mem_db();
	struct ssp_buf a = SSP_BUF_INIT;
	struct ssp_catalog *c;
	struct ssp_err e = { 0 };
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = (struct ssp_catalog *)&e;
		if (ssp_catalog_parse(bad[i], strlen(bad[i]), &c, &e) !=
		    SSP_ERR_FORMAT)
			fail_msg("bad catalog %zu read", i);
		assert_null(c);
	}
	assert_int_equal(ssp_catalog_read(db, "mem", &c, &e), SSP_OK);
	ssp_catalog_text(c, &a);
	ssp_catalog_free(c);
	for (n = 0; n < a.len; n += 1 + n / 16)	/* cut short */
		assert_int_equal(ssp_catalog_parse((const char *)a.p, n, &c, &e),
		    SSP_ERR_FORMAT);
	ssp_buf_free(&a);
	sqlite3_close(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalog_of_schema),
		cmocka_unit_test(test_catalog_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
