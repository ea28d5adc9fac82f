/*
 * Span streams into SQLite (formats/sqlite.md, schema formats/simspan.sql).
 *
 * A database file is never written in place: ssp_sqlite_open creates a
 * temporary file next to it (a copy of the existing database when there is
 * one), the load goes there in one transaction, and ssp_sqlite_commit
 * renames it into place.  ssp_sqlite_abort, or a crash, leaves the
 * database as it was.  A new database is written directly in the SQLite
 * file format (sqlite_direct.h), an existing one is appended to with INSERTs
 * (formats/sqlite.md, "How a load is written").
 */
#ifndef SSP_SQLITE_H
#define SSP_SQLITE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "base/err.h"
#include "stream/rec.h"
#include "stream/span.h"

/* The schema, embedded from formats/simspan.sql (NUL-terminated). */
extern const char ssp_sqlite_schema[];
/* The schema version it sets (PRAGMA user_version), -1 if it sets none. */
int ssp_sqlite_schema_version(void);

struct ssp_sqlite_stats;

struct ssp_sqlite_opts {
	const char *run;	/* run name; NULL: "<source base name>@<time>" */
	const char *source;	/* input name for runs.source; NULL: "-" */
	const char *tool;	/* runs.tool, e.g. "span2sqlite 0.1.0" */
	int events;		/* load member events into the events table */
	time_t now;		/* load time; 0: time(NULL) */
	size_t span_cache;	/* span ids kept per generation; 0: default */
	size_t trace_cache;	/* traces kept per generation; 0: default */
	int sql_only;		/* load with INSERTs, not written directly
				 * (tests compare the two) */
	size_t sort_mem;	/* index keys in memory (direct); 0: default */
	size_t split_mem;	/* spans of the cached traces kept for their
				 * latency split, over all of them; 0: default
				 * (4 Mi, 96 MiB); a trace that would pass it
				 * is split from the database at the end */
	/* Called every few thousand records (progress display); may be NULL. */
	void (*tick)(void *ctx, const struct ssp_sqlite_stats *st);
	void *tick_ctx;
};

struct ssp_sqlite_stats {
	int64_t run;			/* runs.id */
	char run_name[256];
	uint64_t records;		/* read from the stream */
	uint64_t spans, links, events, traces;
	uint64_t kinds[SSP_SK_NKINDS];	/* spans per known kind */
	uint64_t other_kinds;		/* spans of kinds newer than this build */
	uint64_t events_skipped;	/* member events not loaded (no --events) */
	uint64_t unknown;		/* records of unknown types, skipped */
	uint64_t late;			/* references resolved after the load */
	uint64_t resplit;		/* traces split from the database at
					 * the end (evicted, huge, or over
					 * split_mem) */
	uint64_t unresolved;		/* references to spans not in the run */
	int direct;			/* the rows were written directly */
};

/* --- on an open SQLite handle (tests, fuzzing, other tools) ------------ */

/* Create the tables and views (not the indexes) in an empty database. */
int ssp_sqlite_create(sqlite3 *db, struct ssp_err *e);
/* Create the indexes (after the load: bulk inserts are faster without). */
int ssp_sqlite_index(sqlite3 *db, struct ssp_err *e);
/*
 * Load one span stream as a new run into a database with the schema,
 * inside the caller's transaction.  Errors name the input and its byte
 * offset; the database is then in an undefined state (roll back or drop).
 */
int ssp_sqlite_load_db(sqlite3 *db, struct ssp_rec_rd *rr,
    const struct ssp_sqlite_opts *o, struct ssp_sqlite_stats *st,
    struct ssp_err *e);

/* Attribute encoding: fields [first, t->nf) of r as a JSON object, into
 * buf (NUL-terminated when n > 0).  Returns the length it needs, like
 * snprintf.  rr resolves string ids (NULL: strings are omitted). */
size_t ssp_sqlite_json(char *buf, size_t n, const struct ssp_rec_type *t,
    unsigned first, const struct ssp_rec *r, const struct ssp_rec_rd *rr);

/* --- on a database file, copy-on-write ------------------------------- */

struct ssp_sqlite;

/* Lock the directory, create the temporary file, copy the existing
 * database into it or create the schema.  path must not be "-". */
int ssp_sqlite_open(struct ssp_sqlite **dp, const char *path,
    struct ssp_err *e);
/*
 * The same with flags.  A write-protected database (no write permission
 * for the caller, or no w bit at all, as rm(1) asks about) is refused
 * unless SSP_SQLITE_FORCE.  Temporary files of earlier loads whose process
 * is gone (killed: nobody holds their flock) are removed; a load holds an
 * exclusive flock on its own until it is committed or aborted.
 */
#define SSP_SQLITE_FORCE 1u
int ssp_sqlite_open_flags(struct ssp_sqlite **dp, const char *path,
    unsigned flags, struct ssp_err *e);
/* The temporary file (for a signal handler to unlink). */
const char *ssp_sqlite_tmp_path(const struct ssp_sqlite *d);
int ssp_sqlite_load(struct ssp_sqlite *d, struct ssp_rec_rd *rr,
    const struct ssp_sqlite_opts *o, struct ssp_sqlite_stats *st,
    struct ssp_err *e);
/* Index, commit, sync and rename into place.  Frees d, also on error
 * (the temporary file is then removed and the database left alone). */
int ssp_sqlite_commit(struct ssp_sqlite *d, struct ssp_err *e);
/* Remove the temporary file and free d. */
void ssp_sqlite_abort(struct ssp_sqlite *d);

#endif
