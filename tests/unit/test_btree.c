/*
 * Direct b-tree writing: tables and indexes of a new database filled by
 * ssp_btree_* must pass SQLite's integrity check and read back the same
 * as the same rows inserted with SQL; deep trees (small pages), overflow
 * pages, all value kinds, empty trees, the lock-byte page, refused files
 * (anything but a new database as SQLite makes it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "sqlite/btree.h"

static char *
tmpname(const char *what)
{
	static char path[4][96];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "/tmp/ssp-test-btree-%d-%s",
	    (int)getpid(), what);
	return path[i];
}

static void
exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
}

static char *
query(sqlite3 *db, const char *sql)
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
			const char *v = (const char *)sqlite3_column_text(s, c);
			size_t k = v != NULL ? strlen(v) : 4;

			while (n + k + 3 > cap) {
				cap *= 2;
				assert_non_null(out = realloc(out, cap));
			}
			n += (size_t)snprintf(out + n, cap - n, "%s%s",
			    c ? "|" : "", v != NULL ? v : "NULL");
		}
		out[n++] = '\n';
		out[n] = '\0';
	}
	sqlite3_finalize(s);
	return out;
}

static const char schema[] =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c BLOB);"
    "CREATE INDEX ta ON t(a);"
    "CREATE INDEX tb ON t(b);"
    "CREATE TABLE empty(id INTEGER PRIMARY KEY, x);"
    "CREATE INDEX ex ON empty(x);";

/* Row i: a mix of integer sizes, NULL, 0 and 1, short and long text
 * (overflow pages), blobs. */
static void
row(unsigned i, struct ssp_value v[4], char *text, unsigned char *blob)
{
	static const int64_t ints[] = { 0, 1, -1, 127, 128, -129, 32767, 32768,
	    8388607, -8388609, 2147483647, 2147483648ll, 0x7fffffffffffll,
	    0x800000000000ll, INT64_MAX, INT64_MIN, 5, 1000000007 };
	size_t tl = i % 97 == 0 ? 3000 + i % 5000 : i % 40, k;

	v[0] = (struct ssp_value){ SQLITE_NULL, 0, NULL, 0 };
	if (i % 13 == 0)
		v[1] = (struct ssp_value){ SQLITE_NULL, 0, NULL, 0 };
	else {
		/* negated every third time, plus a little (wrapping) */
		uint64_t x = (uint64_t)ints[i % (sizeof(ints) / sizeof(ints[0]))];

		v[1] = (struct ssp_value){ SQLITE_INTEGER,
		    (int64_t)((i % 3 ? x : 0 - x) + i % 7), NULL, 0 };
	}
	for (k = 0; k < tl; k++)
		text[k] = (char)('a' + (i * 7 + k * 3) % 26);
	if (i % 11 == 0 && tl > 0)
		text[0] = '\xc3';	/* any bytes: SQLite does not check */
	v[2] = (struct ssp_value){ SQLITE_TEXT, 0, text, tl };
	for (k = 0; k < i % 9; k++)
		blob[k] = (unsigned char)(i + k);
	v[3] = i % 5 == 0 ? (struct ssp_value){ SQLITE_NULL, 0, NULL, 0 } :
	    (struct ssp_value){ SQLITE_BLOB, 0, blob, i % 9 };
}

struct key {
	unsigned i;
	int64_t rowid;
	struct ssp_value v;
	char *text;
};

/* SQLite's order: NULL, integers, text (memcmp, shorter first), then rowid */
static int
cmp_key(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;
	int ta = a->v.type == SQLITE_NULL ? 0 : a->v.type == SQLITE_INTEGER ? 1 : 2;
	int tb = b->v.type == SQLITE_NULL ? 0 : b->v.type == SQLITE_INTEGER ? 1 : 2;
	int c;

	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (ta == 1 && a->v.i != b->v.i)
		return a->v.i < b->v.i ? -1 : 1;
	if (ta == 2) {
		size_t n = a->v.n < b->v.n ? a->v.n : b->v.n;

		if ((c = memcmp(a->v.p, b->v.p, n)) != 0)
			return c;
		if (a->v.n != b->v.n)
			return a->v.n < b->v.n ? -1 : 1;
	}
	return a->rowid < b->rowid ? -1 : a->rowid > b->rowid;
}

/* The record (text, rowid) as SQLite stores it (fileformat2.html, 2.1):
 * what ssp_btree_entry_rec() is given.  Its length. */
static size_t
text_rowid_rec(unsigned char *out, const struct ssp_value *t, int64_t rowid)
{
	static const unsigned char len[7] = { 0, 1, 2, 3, 4, 6, 8 };
	uint64_t st = 13 + 2 * (uint64_t)t->n;
	unsigned it = 6, hl, i;
	size_t pos;

	assert_true(t->type == SQLITE_TEXT && st < 0x4000);
	if (rowid == 0 || rowid == 1)
		it = 8 + (unsigned)rowid;
	else
		for (i = 1; i < 6; i++)
			if (rowid >= -(1ll << (8 * len[i] - 1)) &&
			    rowid < (1ll << (8 * len[i] - 1))) {
				it = i;
				break;
			}
	hl = 1 + (st < 0x80 ? 1 : 2) + 1;
	out[0] = (unsigned char)hl;
	pos = 1;
	if (st >= 0x80)
		out[pos++] = (unsigned char)(0x80 | st >> 7);
	out[pos++] = (unsigned char)(st & 0x7f);
	out[pos++] = (unsigned char)it;
	memcpy(out + pos, t->p, t->n);
	pos += t->n;
	for (i = it < 8 ? len[it] : 0; i-- > 0;)
		out[pos++] = (unsigned char)((uint64_t)rowid >> (8 * i));
	return pos;
}

/* Create the schema with SQLite, fill t and its indexes directly; with
 * mistake, end with a row that goes backwards (refused, file dropped). */
static void
fill(const char *path, unsigned nrows, int64_t first,
    int64_t step, uint32_t pending, const char *pragmas, int mistake)
{
	struct ssp_err e = { 0 };
	struct ssp_btree *b;
	struct ssp_btree_tree *t, *ta, *tb;
	struct ssp_value v[4];
	struct key *ka = calloc(nrows + 1, sizeof(*ka));
	struct key *kb = calloc(nrows + 1, sizeof(*kb));
	char text[8192];
	unsigned char blob[16], rec[8192 + 16];
	sqlite3 *db;
	int64_t roots[3];
	unsigned i;

	assert_non_null(ka);
	assert_non_null(kb);
	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	exec(db, pragmas);
	exec(db, schema);
	for (i = 0; i < 3; i++) {
		char sql[96];
		sqlite3_stmt *s;

		snprintf(sql, sizeof(sql), "SELECT rootpage FROM sqlite_schema "
		    "WHERE name = '%s'", i == 0 ? "t" : i == 1 ? "ta" : "tb");
		assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL),
		    SQLITE_OK);
		assert_int_equal(sqlite3_step(s), SQLITE_ROW);
		roots[i] = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	assert_int_equal(sqlite3_close(db), SQLITE_OK);

	assert_int_equal(ssp_btree_open(&b, path, NULL, pending, &e), SSP_OK);
	assert_non_null(t = ssp_btree_table(b, (uint32_t)roots[0]));
	assert_non_null(ta = ssp_btree_index(b, (uint32_t)roots[1]));
	assert_non_null(tb = ssp_btree_index(b, (uint32_t)roots[2]));
	for (i = 0; i < nrows; i++) {
		int64_t rowid = first + (int64_t)i * step;

		row(i, v, text, blob);
		assert_int_equal(ssp_btree_row(t, rowid, v, 4), SSP_OK);
		ka[i] = (struct key){ i, rowid, v[1], NULL };
		assert_non_null(kb[i].text = malloc(v[2].n + 1));
		memcpy(kb[i].text, text, v[2].n);
		kb[i].i = i;
		kb[i].rowid = rowid;
		kb[i].v = v[2];
		kb[i].v.p = kb[i].text;
	}
	qsort(ka, nrows, sizeof(*ka), cmp_key);
	qsort(kb, nrows, sizeof(*kb), cmp_key);
	for (i = 0; i < nrows; i++) {
		struct ssp_value k[2] = { ka[i].v,
		    { SQLITE_INTEGER, ka[i].rowid, NULL, 0 } };

		assert_int_equal(ssp_btree_entry(ta, k, 2), SSP_OK);
		k[0] = kb[i].v;
		k[1].i = kb[i].rowid;
		if (i % 2 == 0) {
			assert_int_equal(ssp_btree_entry(tb, k, 2), SSP_OK);
		} else {	/* the same from its record (long ones overflow) */
			size_t n = text_rowid_rec(rec, &k[0], k[1].i);

			assert_int_equal(ssp_btree_entry_rec(tb, rec, n), SSP_OK);
		}
		free(kb[i].text);
	}
	free(ka);
	free(kb);
	if (mistake) {
		row(0, v, text, blob);
		assert_int_equal(ssp_btree_row(t, first + (int64_t)nrows * step -
		    step, v, 4), SSP_ERR_INVAL);
		assert_int_equal(ssp_btree_close(b, &e), SSP_ERR_INVAL);
		assert_non_null(strstr(e.msg, "rowid"));
	} else {
		assert_int_equal(ssp_btree_close(b, &e), SSP_OK);
	}
}

/* The rows inserted with SQL into a new database. */
static void
reference(const char *path, unsigned nrows, int64_t first,
    int64_t step, const char *pragmas)
{
	struct ssp_value v[4];
	char text[8192];
	unsigned char blob[16];
	sqlite3_stmt *s;
	sqlite3 *db;
	unsigned i;

	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	exec(db, pragmas);
	exec(db, schema);
	exec(db, "BEGIN");
	assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t VALUES "
	    "(?,?,?,?)", -1, &s, NULL), SQLITE_OK);
	for (i = 0; i < nrows; i++) {
		row(i, v, text, blob);
		sqlite3_bind_int64(s, 1, first + (int64_t)i * step);
		if (v[1].type == SQLITE_NULL)
			sqlite3_bind_null(s, 2);
		else
			sqlite3_bind_int64(s, 2, v[1].i);
		sqlite3_bind_text(s, 3, v[2].p, (int)v[2].n, SQLITE_STATIC);
		if (v[3].type == SQLITE_NULL)
			sqlite3_bind_null(s, 4);
		else
			sqlite3_bind_blob(s, 4, v[3].p, (int)v[3].n, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(s), SQLITE_DONE);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	exec(db, "COMMIT");
	sqlite3_close(db);
}

static void
compare(const char *direct, const char *ref)
{
	static const char *const q[] = {
		"PRAGMA integrity_check",
		("SELECT id, a, b, hex(c), typeof(a), typeof(b), typeof(c) "
		    "FROM t ORDER BY id"),
		"SELECT a, id FROM t INDEXED BY ta ORDER BY a, id",
		"SELECT b, id FROM t INDEXED BY tb ORDER BY b, id",
		"SELECT id FROM t INDEXED BY ta WHERE a BETWEEN -200 AND 40000",
		"SELECT id FROM t INDEXED BY tb WHERE b >= 'm' AND b < 'p'",
		"SELECT count(*), sum(length(b)) FROM t",
		"SELECT count(*) FROM empty",
		/* records of the same size: integers in as few bytes as
		 * SQLite stores them (dbstat, when SQLite has it) */
		"SELECT sum(payload) FROM dbstat WHERE name = 't'",
	};
	sqlite3 *d, *r;
	size_t i;

	assert_int_equal(sqlite3_open(direct, &d), SQLITE_OK);
	assert_int_equal(sqlite3_open(ref, &r), SQLITE_OK);
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		char *a, *b;

		if (strstr(q[i], "dbstat") != NULL) {
			char *has = query(d, "SELECT count(*) FROM "
			    "pragma_module_list WHERE name = 'dbstat'");
			int no = strcmp(has, "1\n") != 0;

			free(has);
			if (no)
				continue;
		}
		a = query(d, q[i]);
		b = query(r, q[i]);

		if (i == 0)
			assert_string_equal(a, "ok\n");
		if (strcmp(a, b) != 0)
			fail_msg("%s: direct and SQL differ", q[i]);
		free(a);
		free(b);
	}
	/* SQLite can go on writing to it */
	exec(d, "INSERT INTO t(a, b) VALUES (42, 'after'); "
	    "UPDATE t SET a = a + 1 WHERE id % 10 = 3; "
	    "DELETE FROM t WHERE id % 10 = 4; "
	    "INSERT INTO empty(x) VALUES (1)");
	{
		char *a = query(d, "PRAGMA integrity_check");

		assert_string_equal(a, "ok\n");
		free(a);
	}
	sqlite3_close(d);
	sqlite3_close(r);
}

static void
check(unsigned nrows, int64_t first, int64_t step, uint32_t pending,
    const char *pragmas)
{
	const char *a = tmpname("direct.db"), *b = tmpname("sql.db");

	if (nrows > 0)
		fill(a, nrows, first, step, pending, pragmas, 1);
	fill(a, nrows, first, step, pending, pragmas, 0);
	reference(b, nrows, first, step, pragmas);
	compare(a, b);
	unlink(a);
	unlink(b);
}

static void
test_small_pages_deep_trees(void **state)
{
	(void)state;
	check(20000, 1, 1, 0, "PRAGMA page_size = 512");
}

static void
test_default_pages(void **state)
{
	(void)state;
	check(30000, 1, 1, 0, "");
	check(5000, -1000000, 977, 0, "PRAGMA page_size = 65536");
	check(1, 7, 1, 0, "");
}

static void
test_empty_trees(void **state)
{
	(void)state;
	check(0, 1, 1, 0, "");
}

/* The page holding SQLite's lock byte is never part of a tree. */
static void
test_lock_byte_page(void **state)
{
	(void)state;
	sqlite3_test_control(SQLITE_TESTCTRL_PENDING_BYTE, 0x8000);
	check(20000, 1, 1, 0x8000, "PRAGMA page_size = 512");
	sqlite3_test_control(SQLITE_TESTCTRL_PENDING_BYTE, 0x40000000);
}

static void
test_refused(void **state)
{
	const char *p = tmpname("wal.db");
	struct ssp_err e = { 0 };
	struct ssp_btree *b;
	sqlite3 *db;
	FILE *f;

	(void)state;
	unlink(p);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	exec(db, "PRAGMA auto_vacuum = FULL; CREATE TABLE t(x)");
	sqlite3_close(db);
	assert_int_equal(ssp_btree_open(&b, p, NULL, 0, &e), SSP_ERR_FORMAT);
	unlink(p);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (randomblob(9000)); "
	    "DELETE FROM t");	/* free pages: not a new database */
	sqlite3_close(db);
	assert_int_equal(ssp_btree_open(&b, p, NULL, 0, &e), SSP_ERR_FORMAT);
	assert_non_null(strstr(e.msg, "not a new database"));
	unlink(p);
	/* a tree that holds rows is not written to: only new ones are */
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	exec(db, "CREATE TABLE t(x); CREATE TABLE u(x); INSERT INTO t VALUES (1)");
	sqlite3_close(db);
	assert_int_equal(ssp_btree_open(&b, p, "mine.db", 0, &e), SSP_OK);
	assert_null(ssp_btree_table(b, 2));
	assert_non_null(strstr(ssp_btree_err(b)->msg, "mine.db: page 2 is not "
	    "the root of an empty table"));
	ssp_btree_abort(b);
	assert_int_equal(ssp_btree_open(&b, p, NULL, 0, &e), SSP_OK);
	assert_non_null(ssp_btree_table(b, 3));
	assert_null(ssp_btree_table(b, 3));	/* two trees at one root */
	ssp_btree_abort(b);
	unlink(p);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	exec(db, "PRAGMA encoding = 'UTF-16le'; CREATE TABLE t(x)");
	sqlite3_close(db);
	assert_int_equal(ssp_btree_open(&b, p, NULL, 0, &e), SSP_ERR_FORMAT);
	assert_non_null(f = fopen(p, "w"));
	fputs("not a database, not a database, not a database, not a "
	    "database, not a database, not a database\n", f);
	fclose(f);
	assert_int_equal(ssp_btree_open(&b, p, NULL, 0, &e), SSP_ERR_FORMAT);
	unlink(p);
	assert_int_equal(ssp_btree_open(&b, p, NULL, 0, &e), SSP_ERR_IO);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_pages_deep_trees),
		cmocka_unit_test(test_default_pages),
		cmocka_unit_test(test_empty_trees),
		cmocka_unit_test(test_lock_byte_page),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
