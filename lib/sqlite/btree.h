/*
 * Filling the tables and indexes of an SQLite database directly, in the
 * SQLite file format (https://www.sqlite.org/fileformat2.html), without
 * SQLite's virtual machine.  A bulk loader's shortcut: rows are appended in
 * key order, pages are filled completely and written once, sequentially,
 * at the end of the file; the root page of each tree (which SQLite
 * allocated when it created the table or index) gets the top of the tree
 * when it is finished.
 *
 * A tree that holds rows already is appended to: a table's new rows (their
 * rowids above the old ones) go at its right edge, whose pages are taken
 * up (the rest of the tree stays as it is); an index's new entries are
 * merged with its old ones in SQLite's order, an old leaf page reused as
 * it is when the next new entry sorts after all of it.  The old pages
 * taken up (a table's right edge, an index's interior pages and the leaves
 * whose entries were copied) are free once read; new pages go into free
 * pages (these and the freelist the file had) before the file grows, and
 * the free pages left go to the freelist.
 * A tree that gets no new rows is not touched.
 *
 * Use: SQLite creates the schema and commits; the connection is closed;
 * ssp_btree_open() takes the file, the trees are filled, ssp_btree_close()
 * updates the header (page count, change counter); SQLite then opens the
 * file again as an ordinary database.  What is written is exactly what
 * SQLite itself would store for the same values (records, b-tree pages),
 * so `PRAGMA integrity_check` holds.  The caller is responsible for the
 * meaning: values must have the types the columns' affinities would give
 * them, indexes must hold one entry per row (in SQLite's order, BINARY
 * collation, all columns ascending: the old entries are compared so), and
 * new rowids must be above the old ones.
 */
#ifndef SSP_BTREE_H
#define SSP_BTREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sqlite3.h>

#include "base/err.h"

/* A value of a record: SQLITE_NULL, SQLITE_INTEGER or SQLITE_TEXT (or
 * SQLITE_BLOB) from sqlite3.h; text is UTF-8 and not NUL-terminated. */
struct ssp_btree_val {
	int type;
	int64_t i;
	const void *p;
	size_t n;
};

/* Values of the SQLite storage classes. */
static inline struct ssp_btree_val
ssp_btree_int(int64_t i)
{
	return (struct ssp_btree_val){ SQLITE_INTEGER, i, NULL, 0 };
}

static inline struct ssp_btree_val
ssp_btree_null(void)
{
	return (struct ssp_btree_val){ SQLITE_NULL, 0, NULL, 0 };
}

static inline struct ssp_btree_val
ssp_btree_text(const char *p, size_t n)
{
	return (struct ssp_btree_val){ SQLITE_TEXT, 0, p, n };
}

static inline struct ssp_btree_val
ssp_btree_str(const char *p)
{
	return ssp_btree_text(p, strlen(p));
}

struct ssp_btree;
struct ssp_btree_tree;

/*
 * Take a database file that SQLite has closed.  Refused (SSP_ERR_FORMAT)
 * unless it is a plain rollback-journal database without auto-vacuum, in
 * UTF-8, of schema format 4, with a freelist that holds together (its
 * pages are reused).  pending_byte is SQLite's lock byte offset (0: the
 * default, 0x40000000); its page is never used.
 */
int ssp_btree_open(struct ssp_btree **bp, const char *path, uint32_t pending_byte,
    struct ssp_err *e);
/* A rowid table, or an index, whose root page is root.  NULL when out of
 * memory. */
struct ssp_btree_tree *ssp_btree_table(struct ssp_btree *b, uint32_t root);
struct ssp_btree_tree *ssp_btree_index(struct ssp_btree *b, uint32_t root);
/* Append a row to a table; rowids must ascend.  v[0..n) are the stored
 * columns, with NULL for an INTEGER PRIMARY KEY column. */
int ssp_btree_row(struct ssp_btree_tree *t, int64_t rowid,
    const struct ssp_btree_val *v, unsigned n);
/* Append an entry to an index: the indexed values then the rowid, in the
 * order of SQLite's comparison (ascending, NULL first, BINARY collation). */
int ssp_btree_entry(struct ssp_btree_tree *t, const struct ssp_btree_val *v,
    unsigned n);
/* The same from its record, n bytes as SQLite stores it (header, body). */
int ssp_btree_entry_rec(struct ssp_btree_tree *t, const unsigned char *rec,
    size_t n);
/* Finish every tree, write the header and close the file (not synced).
 * Frees b, also on error. */
int ssp_btree_close(struct ssp_btree *b, struct ssp_err *e);
/* Give up (the file is then not a valid database). */
void ssp_btree_abort(struct ssp_btree *b);
/* The first error of b. */
const struct ssp_err *ssp_btree_err(const struct ssp_btree *b);

#endif
