/*
 * The INSERT row writer (rows.h): the rows through SQLite, as prepared
 * multi-row INSERTs of 64 rows with their ids given, values bound without
 * copies from the writer's own batch.  Any database with the schema:
 * span2sqlite --insert, the tests' reference for the direct writer, and
 * the loads into a connection the caller holds (ssp_load_db).
 */
#ifndef SSP_INSERT_H
#define SSP_INSERT_H

#include <sqlite3.h>

#include "base/err.h"
#include "sqlite/rows.h"

/*
 * A writer into db, in the caller's transaction.  attr[ft]: the attribute
 * table of record type ft (NULL: none); attr and name stay valid until
 * the writer is freed.  NULL when out of memory (e says so).
 */
struct ssp_rows *ssp_insert_new(sqlite3 *db, const char *name,
    const struct ssp_rows_attr *const *attr, unsigned nft,
    struct ssp_err *e);

#endif
