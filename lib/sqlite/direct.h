/*
 * The direct row writer (rows.h): the rows and indexes of a new simspan
 * database written in the SQLite file format (formats/sqlite.md, "How a
 * load is written"), rows with ssp_btree, each index from its keys
 * sorted with ssp_ksort.  It only ever writes a new file: one SQLite
 * made, with the schema and a few rows of other tables, and closed.
 *
 * The schema is formats/simspan.sql only.  The writer knows what the
 * columns of spans, links, events and traces mean by their names
 * (rows.h); their order, types and generated columns it takes from the
 * tables SQLite created (pragma_table_xinfo), the key columns of each
 * index from pragma_index_xinfo.  The attribute tables are written as the
 * caller maps their columns (struct ssp_rows_attr).
 *
 * Use: ssp_direct_plan() on the new database, its indexes created (while
 * the tables are empty), ssp_direct_indexes(); SQLite commits and closes
 * the file; ssp_direct_open() takes it; the rows go through
 * ssp_direct_rows(); its finish opens the file with SQLite again.
 */
#ifndef SSP_DIRECT_H
#define SSP_DIRECT_H

#include <sqlite3.h>
#include <stddef.h>

#include "base/err.h"
#include "sqlite/rows.h"

struct ssp_direct;

/* The affinity SQLite gives a declared column type: 'i'nteger, 't'ext,
 * 'b'lob (none), 'r'eal or 'n'umeric (datatype3.html, 3.1). */
char ssp_direct_affinity(const char *type);

/*
 * Plan writing the tables of db (a new database with the schema, no rows
 * in these tables) directly.  name: the database, for messages.
 * attr[ft]: the attribute table of record type ft, or NULL; attr must
 * stay valid until ssp_direct_free.  *ok 1: *dp is the plan; *ok 0: db
 * cannot be written directly (use INSERTs; nothing changed).  e is kept
 * for the later calls.
 */
SSP_MUST_USE enum ssp_status ssp_direct_plan(struct ssp_direct **dp,
    sqlite3 *db, const char *name, const struct ssp_rows_attr *const *attr,
    unsigned nft, int *ok, struct ssp_err *e);
/* Once db has its indexes: how each is built (REINDEXed if it cannot be)
 * and the root pages. */
SSP_MUST_USE enum ssp_status ssp_direct_indexes(struct ssp_direct *w,
    sqlite3 *db);
/*
 * Take the file at path over (SQLite has closed it).  kinds[ft]: the span
 * kind of record type ft < nft (NULL: not a span); streams: the stream
 * names.  Both stay valid until ssp_direct_free.  sort_mem: bytes for
 * sorting index keys at most: the keys held in memory (4/5 of it, shared
 * by the indexes) and the scratch of the one chunk being sorted (1/5);
 * beyond that keys are spilled to a temporary file.
 */
SSP_MUST_USE enum ssp_status ssp_direct_open(struct ssp_direct *w,
    const char *path, const char *const *kinds, const char *const *streams,
    size_t nstreams, size_t sort_mem);
/* The row writer of an open plan (its free frees w). */
struct ssp_rows *ssp_direct_rows(struct ssp_direct *w);
/* The indexes that had to be rebuilt with REINDEX (for the tests). */
size_t ssp_direct_reindexed(const struct ssp_direct *w);
void ssp_direct_free(struct ssp_direct *w);

#endif
