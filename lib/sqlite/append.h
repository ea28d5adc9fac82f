/*
 * Appending a run to an existing simspan database through SQLite itself
 * (formats/sqlite.md §2): the run, loaded into a new database file of its
 * own, is merged into the user's database in one SQLite transaction.
 * SQLite does the locking (a writer waits for another, up to a timeout),
 * keeps every index up to date (a user's UNIQUE index included), finds
 * damage on the pages it reads (a clear error, never a crash) and makes
 * the commit crash-safe; nothing is renamed over the database.
 *
 * The cost is that of the run: its rows are copied with their ids moved
 * above the database's own (INSERT ... SELECT), an older schema version
 * is upgraded by adding what it lacks, and the statistics of the planner
 * (sqlite_stat1) are merged with the run's, not made again by reading
 * the database.
 */
#ifndef SSP_APPEND_H
#define SSP_APPEND_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define SSP_APPEND_BUSY_MS	60000	/* wait for another writer, at most */

struct ssp_append_opts {
	const char *run;	/* the name asked for (refused when taken);
				 * NULL: the run file's default name, made
				 * unique with "#2", "#3", ... */
	int busy_ms;		/* 0: SSP_APPEND_BUSY_MS */
};

/*
 * Merge the one run of the database file run (a new database this library
 * loaded) into the simspan database file db.  name: db as the user named
 * it, for messages.  *run_id and run_name (256 bytes) get the run's id
 * and name in db.  On an error db is left as it was (SQLite rolls the
 * transaction back).
 */
SSP_MUST_USE enum ssp_status ssp_append_run(const char *db, const char *name,
    const char *run, const struct ssp_append_opts *o, int64_t *run_id,
    char run_name[256], struct ssp_err *e);

/* Whether a run named run exists in db (to refuse early). */
SSP_MUST_USE enum ssp_status ssp_append_name_taken(const char *db,
    const char *name, const char *run, int *taken, struct ssp_err *e);

/*
 * One sqlite_stat1 statistic from that of the old rows and of the new
 * ones ("N A1 A2 ...", formats/sqlite.md §9): out (cap bytes) gets the
 * merged one.  A column prefix whose values are mostly distinct among
 * the new rows counts them as new; one with few values (at most the
 * square root of the rows: kinds, streams, runs) counts them as values
 * the old rows have too.  Exposed for the tests.
 */
void ssp_append_stat(const char *old, const char *add, char *out,
    size_t cap);

#endif
