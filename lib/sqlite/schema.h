/*
 * The schema of simspan databases: formats/simspan.sql, embedded when the
 * library is built and the only definition (formats/sqlite.md).  Creating
 * it, its indexes and statistics, telling what a database file is to a
 * load (new, ours to append to, or not ours), and migrating an older
 * version, with the DDL of formats/simspan.sql itself.
 */
#ifndef SSP_SCHEMA_H
#define SSP_SCHEMA_H

#include <sqlite3.h>

#include "base/err.h"

/* The schema version it sets (PRAGMA user_version), -1 if it sets none. */
int ssp_schema_version(void);

/* Create the tables and views (not the indexes) in an empty database.
 * name: the database for messages (NULL: its file's name). */
SSP_MUST_USE enum ssp_status ssp_schema_create(sqlite3 *db, const char *name,
    struct ssp_err *e);
/* The schema image (image.h) in the empty database db: the whole of
 * formats/simspan.sql, indexes included, and sqlite_stat1 (empty), in one
 * transaction without a journal, as a load once made it. */
SSP_MUST_USE enum ssp_status ssp_schema_image(sqlite3 *db, const char *name,
    struct ssp_err *e);
/* Create the indexes (after a bulk load: inserts are faster without). */
SSP_MUST_USE enum ssp_status ssp_schema_indexes(sqlite3 *db,
    const char *name, struct ssp_err *e);
/* ANALYZE reads this many entries of an index at most (then samples);
 * the direct writer counts the statistics of smaller ones itself. */
#define SSP_SCHEMA_ANALYSIS_LIMIT	1000
#define SSP_SCHEMA_STR_(n)		#n
#define SSP_SCHEMA_STR(n)		SSP_SCHEMA_STR_(n)
#define SSP_SCHEMA_ANALYSIS_PRAGMA	\
	"PRAGMA analysis_limit = " SSP_SCHEMA_STR(SSP_SCHEMA_ANALYSIS_LIMIT)

/* Statistics for the planner (ANALYZE with analysis_limit). */
SSP_MUST_USE enum ssp_status ssp_schema_analyze(sqlite3 *db,
    const char *name, struct ssp_err *e);

/*
 * What the database "main" of db is to a load, read in the caller's
 * transaction (if any): *version 0 when it is empty (no objects, no
 * application id: a new database), else the schema version of a simspan
 * database this library can append to (SSP_OK).  SSP_ERR_FORMAT: another
 * kind of database; SSP_ERR_VERSION: a version newer than ours, or one
 * without an upgrade path; SSP_ERR_IO: SQLite's error (SQLITE_CORRUPT,
 * SQLITE_NOTADB, SQLITE_BUSY ...).  name: the file, for messages.
 */
SSP_MUST_USE enum ssp_status ssp_schema_check(sqlite3 *db, const char *name,
    int *version, struct ssp_err *e);

/*
 * Upgrade "main" of db, of schema version from (ssp_schema_check), to
 * ours, inside the caller's transaction: every table, view and index of
 * the database attached as src (made from formats/simspan.sql) that main
 * does not have is created in main with src's own DDL, in the order src
 * has them, and user_version set.  Versions only ever add objects
 * (formats/sqlite.md, changelog).
 */
SSP_MUST_USE enum ssp_status ssp_schema_migrate(sqlite3 *db, const char *src,
    int from, const char *name, struct ssp_err *e);

#endif
