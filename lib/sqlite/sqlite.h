/*
 * Span streams into a database file (formats/sqlite.md §2): a new
 * database, written whole into a file the caller puts in place, or a run
 * appended to an existing one through SQLite's own engine.
 *
 * A load is open, load, commit, close:
 *   - ssp_sqlite_open looks at the database: absent, empty or an SQLite
 *     database without objects (new), or a simspan database to append
 *     to; anything else (another kind of file, a FIFO, a device, a newer
 *     schema) is refused without blocking on it;
 *   - ssp_sqlite_load loads the stream into work, an empty regular file
 *     the caller made in the database's directory (tools: outfile.h):
 *     the new database, or the run alone when appending;
 *   - ssp_sqlite_commit completes it: a new database is then complete in
 *     work, for the caller to sync and rename over the target; a run is
 *     merged into the database in one SQLite transaction (append.h), and
 *     the caller removes work;
 *   - ssp_sqlite_close.
 * The library never renames over the user's file and never writes it but
 * through SQLite.
 */
#ifndef SSP_SQLITE_H
#define SSP_SQLITE_H

#include "base/err.h"
#include "sqlite/load.h"
#include "stream/rec.h"

struct ssp_sqlite;

/*
 * Look at the database db.  A write-protected database (no write
 * permission for the caller, or no w bit at all, as rm(1) asks about) is
 * refused unless SSP_SQLITE_FORCE.  A new database holds an exclusive
 * flock(2) on its directory until ssp_sqlite_close, so that concurrent
 * loads into it take turns (the second appends to what the first made).
 */
#define SSP_SQLITE_FORCE 1u
SSP_MUST_USE enum ssp_status ssp_sqlite_open(struct ssp_sqlite **dp,
    const char *db, unsigned flags, struct ssp_err *e);
/* 1: a new database (the caller renames work over the target once
 * committed); 0: an append (the caller removes work). */
int ssp_sqlite_is_new(const struct ssp_sqlite *d);
/* The file the database is (symbolic links resolved): the target of the
 * rename, and where work must be. */
const char *ssp_sqlite_target(const struct ssp_sqlite *d);
/* Load the stream into work (see above).  o and st stay in use until
 * ssp_sqlite_commit. */
SSP_MUST_USE enum ssp_status ssp_sqlite_load(struct ssp_sqlite *d,
    const char *work, struct ssp_rec_rd *rr, const struct ssp_load_opts *o,
    struct ssp_load_stats *st, struct ssp_err *e);
/* Complete the load (see above); st gets the run's id and name in the
 * database. */
SSP_MUST_USE enum ssp_status ssp_sqlite_commit(struct ssp_sqlite *d,
    struct ssp_err *e);
/* Release d (and the lock of a new database's directory: after the
 * rename).  NULL: nothing. */
void ssp_sqlite_close(struct ssp_sqlite *d);

#endif
