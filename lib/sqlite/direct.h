/*
 * The direct row writer (rows.h): the rows and indexes of a new simspan
 * database written in the SQLite file format (formats/sqlite.md, "How a
 * load is written"), rows with ssp_btree, each index from its keys
 * sorted with ssp_ksort (from its entries sorted in memory for the
 * tables of few rows), and, when it knows them, the planner's statistics
 * as ANALYZE would write them.  It only ever writes a new file: the
 * schema image (image.h) it copies in first, or one SQLite made with the
 * schema and closed.
 *
 * The schema is formats/simspan.sql only.  The writer knows what the
 * columns of the tables of rows.h mean by their names; their order,
 * types and generated columns it takes from the schema's catalog
 * (catalog.h), the key columns of each index too.  The attribute tables
 * are written as the caller maps their columns (struct ssp_rows_attr).
 *
 * Use: ssp_direct_plan() from the catalog; ssp_direct_open() writes or
 * takes the file; the rows go through ssp_direct_rows(); its finish
 * closes the file, complete, or opens it with SQLite for the rest.
 */
#ifndef SSP_DIRECT_H
#define SSP_DIRECT_H

#include <sqlite3.h>
#include <stddef.h>

#include "base/err.h"
#include "sqlite/catalog.h"
#include "sqlite/rows.h"

struct ssp_direct;

/* The affinity SQLite gives a declared column type: 'i'nteger, 't'ext,
 * 'b'lob (none), 'r'eal or 'n'umeric (datatype3.html, 3.1). */
char ssp_direct_affinity(const char *type);

/*
 * Plan writing the tables of a new database whose schema is cat (no rows
 * in its tables) directly.  name: the database, for messages.  attr[ft]:
 * the attribute table of record type ft, or NULL.  cat and attr must stay
 * valid until ssp_direct_free.  *ok 1: *dp is the plan, each index built
 * from sorted keys or marked to be REINDEXed; *ok 0: the database cannot
 * be written directly (use INSERTs).  e is kept for the later calls.
 */
SSP_MUST_USE enum ssp_status ssp_direct_plan(struct ssp_direct **dp,
    const struct ssp_catalog *cat, const char *name,
    const struct ssp_rows_attr *const *attr, unsigned nft, int *ok,
    struct ssp_err *e);
/*
 * Take the new file at path over: image (n bytes, the database cat
 * describes) is written into it first, the file empty; with image NULL,
 * path is such a database that SQLite made and closed.  kinds[ft]: the
 * span kind of record type ft < nft (NULL: not a span); streams: the
 * stream names.  Both stay valid until ssp_direct_free.  sort_mem: bytes
 * for sorting index keys at most: the keys held in memory (4/5 of it,
 * shared by the indexes) and the scratch of the one chunk being sorted
 * (1/5); beyond that keys are spilled to a temporary file.
 */
SSP_MUST_USE enum ssp_status ssp_direct_open(struct ssp_direct *w,
    const char *path, const void *image, size_t n, const char *const *kinds,
    const char *const *streams, size_t nstreams, size_t sort_mem);
/* The row writer of an open plan (its free frees w). */
struct ssp_rows *ssp_direct_rows(struct ssp_direct *w);
/* The indexes that had to be rebuilt with REINDEX (for the tests). */
size_t ssp_direct_reindexed(const struct ssp_direct *w);
void ssp_direct_free(struct ssp_direct *w);

#endif
