/*
 * Filling the tables and indexes of a new SQLite database directly, in the
 * SQLite file format (https://www.sqlite.org/fileformat2.html), without
 * SQLite's virtual machine.  A bulk loader's shortcut: rows are appended in
 * key order, pages are filled completely and written once, sequentially,
 * at the end of the file; the root page of each tree (which SQLite
 * allocated, empty, when it created the table or index) gets the top of
 * the tree when it is finished.
 *
 * Only a new file is written: one SQLite made with the schema and closed
 * (the schema image, image.h, is such a file, made at build time);
 * ssp_btree_open() takes the file, the trees are filled, ssp_btree_close()
 * updates the header (page count, change counter); SQLite can then open
 * the file as an ordinary database.  What is written is exactly what
 * SQLite itself would store for the same values (records, b-tree pages),
 * so `PRAGMA integrity_check` holds.  The caller is responsible for the
 * meaning: values must have the types the columns' affinities would give
 * them, and indexes must hold one entry per row, given in SQLite's order
 * (BINARY collation, all columns ascending).  Existing databases are
 * appended to through SQLite itself (append.h).
 */
#ifndef SSP_BTREE_H
#define SSP_BTREE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "sqlite/value.h"

struct ssp_btree;
struct ssp_btree_tree;

/*
 * Take a new database file that SQLite has closed: path as SQLite makes
 * one (rollback journal, no auto-vacuum, UTF-8, schema format 4, no free
 * pages), else SSP_ERR_FORMAT.  name: the database for messages (NULL:
 * path).  pending_byte is SQLite's lock byte offset (0: the default,
 * 0x40000000); its page is never used.
 */
SSP_MUST_USE enum ssp_status ssp_btree_open(struct ssp_btree **bp,
    const char *path, const char *name, uint32_t pending_byte,
    struct ssp_err *e);
/* A rowid table, or an index, whose root page root SQLite made empty.
 * NULL on error (ssp_btree_err). */
struct ssp_btree_tree *ssp_btree_table(struct ssp_btree *b, uint32_t root);
struct ssp_btree_tree *ssp_btree_index(struct ssp_btree *b, uint32_t root);
/* Append a row to a table; rowids must ascend.  v[0..n) are the stored
 * columns, with NULL for an INTEGER PRIMARY KEY column. */
SSP_MUST_USE enum ssp_status ssp_btree_row(struct ssp_btree_tree *t,
    int64_t rowid, const struct ssp_value *v, unsigned n);
/* Append an entry to an index: the indexed values then the rowid, in the
 * order of SQLite's comparison (ascending, NULL first, BINARY collation). */
SSP_MUST_USE enum ssp_status ssp_btree_entry(struct ssp_btree_tree *t,
    const struct ssp_value *v, unsigned n);
/* The same from its record, n bytes as SQLite stores it (header, body). */
SSP_MUST_USE enum ssp_status ssp_btree_entry_rec(struct ssp_btree_tree *t,
    const unsigned char *rec, size_t n);
/* Finish every tree, write the header and close the file (not synced).
 * Frees b, also on error. */
SSP_MUST_USE enum ssp_status ssp_btree_close(struct ssp_btree *b,
    struct ssp_err *e);
/* Give up (the file is then not a valid database). */
void ssp_btree_abort(struct ssp_btree *b);
/* The first error of b. */
const struct ssp_err *ssp_btree_err(const struct ssp_btree *b);

#endif
