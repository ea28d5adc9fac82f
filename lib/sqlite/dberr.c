#include <stddef.h>

#include "sqlite/dberr.h"

enum ssp_status
ssp_dberr_set(struct ssp_err *e, sqlite3 *db, const char *name)
{
	int rc = db != NULL ? sqlite3_extended_errcode(db) : SQLITE_NOMEM;
	const char *msg = db != NULL ? sqlite3_errmsg(db) : "out of memory";

	switch (rc & 0xff) {
	case SQLITE_NOMEM:
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "%s: %s", name, msg);
	case SQLITE_CORRUPT:
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: %s (the file is "
		    "damaged; sqlite3 %s 'PRAGMA integrity_check' shows where)",
		    name, msg, name);
	case SQLITE_NOTADB:
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: %s", name, msg);
	default:
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", name, msg);
	}
}

enum ssp_status
ssp_dberr_exec(sqlite3 *db, const char *sql, const char *name,
    struct ssp_err *e)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return ssp_dberr_set(e, db, name);
	return SSP_OK;
}

enum ssp_status
ssp_dberr_int(sqlite3 *db, const char *sql, int64_t def, int64_t *out,
    const char *name, struct ssp_err *e)
{
	sqlite3_stmt *s;
	int rc;

	*out = def;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return ssp_dberr_set(e, db, name);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
		*out = sqlite3_column_int64(s, 0);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		enum ssp_status r = ssp_dberr_set(e, db, name);

		sqlite3_finalize(s);
		return r;
	}
	sqlite3_finalize(s);
	return SSP_OK;
}
