/*
 * The planner's statistics (sqlite_stat1) as ANALYZE writes them, from
 * what a writer counts: for an index whose entries it writes in order,
 * their number and, for each prefix of its key columns, the number of
 * distinct values (NULLs equal to each other); for a table, its rows.
 * The rows come table by table in the schema's order, as the loads'
 * ANALYZE of one table at a time gives them (analyze.c of SQLite 3.40;
 * formats/sqlite.md §2).  Exact as ANALYZE is only for an index of at
 * most SSP_SCHEMA_ANALYSIS_LIMIT entries: it samples larger ones.
 */
#ifndef SSP_STAT1_H
#define SSP_STAT1_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "sqlite/btree.h"
#include "sqlite/catalog.h"

#define SSP_STAT1_MAXCOLS	8	/* key columns of an index counted */

struct ssp_stat1 {
	unsigned ncols;		/* key columns (not the rowid) */
	uint64_t n;		/* entries */
	uint64_t dist[SSP_STAT1_MAXCOLS];	/* distinct first 1, 2, ... */
};

/* One more entry, whose first key column that differs from the entry
 * before is chng (ncols: none; ignored for the first entry). */
void ssp_stat1_add(struct ssp_stat1 *st, unsigned chng);
/* "N D1 D2 ...": Dk the entries per distinct value of the first k key
 * columns, rounded up (and 1 for a 2 within 10 % of unique), into text
 * (cap bytes); its length. */
size_t ssp_stat1_text(const struct ssp_stat1 *st, char *text, size_t cap);

/* What the writer knows of the database it wrote. */
struct ssp_stat1_src {
	uint64_t (*rows)(void *ctx, const char *table);
	/* the counts of an index, NULL when it has no entries written */
	const struct ssp_stat1 *(*index)(void *ctx, const char *name);
	void *ctx;
};

/*
 * The rows of sqlite_stat1 for a database of schema cat into tree (the
 * empty table sqlite_stat1, rowids from 1): for each table but SQLite's
 * own, each index with entries, in the order SQLite keeps a table's
 * indexes (the last made first); then, if every index of the table is
 * partial, its rows (when it has some) with idx NULL.  The status of
 * ssp_btree_row on failure (ssp_btree_err says why).
 */
SSP_MUST_USE enum ssp_status ssp_stat1_write(const struct ssp_catalog *cat,
    const struct ssp_stat1_src *src, struct ssp_btree_tree *tree);

#endif
