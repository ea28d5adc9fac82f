/*
 * SQLite's errors as the library reports errors (struct ssp_err), and the
 * few calls every module of the layer makes through them.
 */
#ifndef SSP_DBERR_H
#define SSP_DBERR_H

#include <stdint.h>

#include <sqlite3.h>

#include "base/err.h"

/*
 * The last error of db as "name: SQLite's message": SSP_ERR_NOMEM for
 * SQLITE_NOMEM, SSP_ERR_FORMAT for a damaged file (the message says so
 * and how to look) or one that is not a database, else SSP_ERR_IO.
 * db NULL: SQLite could not even allocate a connection.
 */
enum ssp_status ssp_dberr_set(struct ssp_err *e, sqlite3 *db,
    const char *name);
/* Run sql (any number of statements) on db; the error names name. */
SSP_MUST_USE enum ssp_status ssp_dberr_exec(sqlite3 *db, const char *sql,
    const char *name, struct ssp_err *e);
/* The first column of the first row of sql as an integer, def without a
 * row (or for NULL). */
SSP_MUST_USE enum ssp_status ssp_dberr_int(sqlite3 *db, const char *sql,
    int64_t def, int64_t *out, const char *name, struct ssp_err *e);

#endif
