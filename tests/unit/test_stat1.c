/*
 * sqlite_stat1 as ANALYZE writes it (lib/sqlite/stat1): the counts of an
 * index's entries and their text, against SQLite's own ANALYZE of the
 * same rows, and the order of the rows of a schema.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sqlite/stat1.h"
#include "sqlite_helpers.h"

/* The text of the counts, by hand: averages rounded up, a 2 within 10 %
 * of unique taken as 1. */
static void
test_stat1_text(void **state)
{
	static const struct {
		uint64_t n, d0, d1;
		const char *want;
	} c[] = {
		{ 3, 2, 3, "3 2 1" },
		{ 11, 10, 11, "11 1 1" },	/* 2, but 11 <= 1.1 * 10 */
		{ 12, 10, 12, "12 2 1" },
		{ 18, 5, 18, "18 4 1" },
		{ 1000, 1, 7, "1000 1000 143" },
	};
	struct ssp_stat1 st;
	char text[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		memset(&st, 0, sizeof(st));
		st.ncols = 2;
		st.n = c[i].n;
		st.dist[0] = c[i].d0;
		st.dist[1] = c[i].d1;
		assert_int_equal(ssp_stat1_text(&st, text, sizeof(text)),
		    strlen(c[i].want));
		assert_string_equal(text, c[i].want);
	}
	/* counted entry by entry: a a b b b c (first column), the second
	 * column changing on every entry but the last */
	memset(&st, 0, sizeof(st));
	st.ncols = 2;
	ssp_stat1_add(&st, 0);
	ssp_stat1_add(&st, 1);
	ssp_stat1_add(&st, 0);
	ssp_stat1_add(&st, 1);
	ssp_stat1_add(&st, 1);
	ssp_stat1_add(&st, 0);
	ssp_stat1_add(&st, 2);	/* the same key again */
	assert_int_equal(st.n, 7);
	assert_int_equal(st.dist[0], 3);
	assert_int_equal(st.dist[1], 6);
	ssp_stat1_text(&st, text, sizeof(text));
	assert_string_equal(text, "7 3 2");
}

struct fake {
	struct ssp_stat1 st[4];
	const char *name[4];
	uint64_t rows;
};

static uint64_t
fake_rows(void *ctx, const char *table)
{
	(void)table;
	return ((struct fake *)ctx)->rows;
}

static const struct ssp_stat1 *
fake_index(void *ctx, const char *name)
{
	struct fake *f = ctx;
	unsigned i;

	for (i = 0; i < 4 && f->name[i] != NULL; i++)
		if (strcmp(f->name[i], name) == 0)
			return &f->st[i];
	return NULL;
}

/*
 * The rows of a schema: indexes of a table the last made first, none for
 * an empty one, the table's rows when its indexes are all partial or it
 * has none, nothing of SQLite's own tables; and the values those of
 * ANALYZE on the same rows (written into the file with the b-tree writer,
 * then read by SQLite).
 */
static void
test_stat1_rows(void **state)
{
	const char *path = tmpname("stat1.db");
	struct fake f = { .rows = 5 };
	const struct ssp_stat1_src src = { fake_rows, fake_index, &f };
	struct ssp_catalog *cat;
	struct ssp_btree *b;
	struct ssp_btree_tree *t;
	struct ssp_err e = { 0 };
	sqlite3 *db;
	unsigned i;

	(void)state;
	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE a(x, y); CREATE INDEX "
	    "a1 ON a(x); CREATE INDEX a2 ON a(y, x); CREATE TABLE p(x); CREATE "
	    "INDEX p1 ON p(x) WHERE x > 1; CREATE TABLE q(x); CREATE INDEX e1 "
	    "ON q(x); ANALYZE sqlite_schema", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(ssp_catalog_read(db, "stat1.db", &cat, &e), SSP_OK);
	sqlite3_close(db);
	f.name[0] = "a1";
	f.name[1] = "a2";
	f.name[2] = "p1";
	f.name[3] = "e1";	/* q is empty: e1 has no entries */
	for (i = 0; i < 4; i++)
		f.st[i].ncols = i == 1 ? 2 : 1;
	f.st[0] = (struct ssp_stat1){ 1, 5, { 2 } };
	f.st[1] = (struct ssp_stat1){ 2, 5, { 5, 5 } };
	f.st[2] = (struct ssp_stat1){ 1, 3, { 3 } };
	assert_int_equal(ssp_btree_open(&b, path, NULL, 0, &e), SSP_OK);
	assert_non_null(t = ssp_btree_table(b, ssp_catalog_table(cat,
	    "sqlite_stat1")->root));
	assert_int_equal(ssp_stat1_write(cat, &src, t), SSP_OK);
	assert_int_equal(ssp_btree_close(b, &e), SSP_OK);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_string_equal(qs(db, "PRAGMA integrity_check"), "ok\n");
	assert_string_equal(qs(db, "SELECT rowid, tbl, idx, stat FROM "
	    "sqlite_stat1 ORDER BY rowid"),
	    "1|a|a2|5 1 1\n2|a|a1|5 3\n3|p|p1|3 1\n4|p|NULL|5\n");
	/* ANALYZE of rows with those counts agrees */
	assert_int_equal(sqlite3_exec(db, "INSERT INTO a VALUES (1, 1), (1, 2), "
	    "(1, 3), (2, 4), (2, 5); INSERT INTO p VALUES (0), (1), (2), (3), "
	    "(4); DELETE FROM sqlite_stat1; ANALYZE a; ANALYZE p; ANALYZE q",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_string_equal(qs(db, "SELECT rowid, tbl, idx, stat FROM "
	    "sqlite_stat1 ORDER BY rowid"),
	    "1|a|a2|5 1 1\n2|a|a1|5 3\n3|p|p1|3 1\n4|p|NULL|5\n");
	sqlite3_close(db);
	ssp_catalog_free(cat);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat1_text),
		cmocka_unit_test(test_stat1_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
