/*
 * A span stream into a database as one run (formats/sqlite.md): the
 * records turned into rows by named column (rows.h), written by one of
 * the two row writers, the references resolved, the traces and their
 * latency split, the run's counts.  Memory is bounded (§7): span ids and
 * traces go through two bounded caches that start small and grow, the
 * rest waits in a private database.
 *
 * Only into a new database (ssp_load_new), or through INSERTs into a
 * connection the caller holds (ssp_load_db).  Existing databases are
 * appended to by loading the run into a new one and merging that
 * (append.h); sqlite.h puts it together for a database file.
 */
#ifndef SSP_LOAD_H
#define SSP_LOAD_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "base/err.h"
#include "stream/rec.h"
#include "stream/span.h"

struct ssp_load_stats;

struct ssp_load_opts {
	const char *run;	/* run name; NULL: "<source base name>@<time>" */
	const char *source;	/* input name for runs.source; NULL: "-" */
	const char *tool;	/* runs.tool, e.g. "span2sqlite 0.1.0" */
	int events;		/* load member events into the events table */
	time_t now;		/* load time; 0: time(NULL) */
	size_t span_cache;	/* span ids kept per generation; 0: from 4 Ki
				 * growing to 256 Ki as the load needs */
	size_t trace_cache;	/* traces kept per generation; 0: from 1 Ki
				 * growing to 32 Ki */
	int sql_only;		/* a new database with INSERTs, not written
				 * directly (tests compare the two) */
	size_t sort_mem;	/* index keys in memory (direct); 0: default */
	size_t split_mem;	/* spans of the cached traces kept for their
				 * latency split, over all of them; 0: default
				 * (4 Mi, 96 MiB); a trace that would pass it
				 * is split from the database at the end */
	/* Called every few thousand records (progress display); may be NULL. */
	void (*tick)(void *ctx, const struct ssp_load_stats *st);
	void *tick_ctx;
};

struct ssp_load_stats {
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
	int complete;			/* ... and so was all the rest, the
					 * statistics too: SQLite never
					 * opened the new database */
};

/* Rows written into an attribute table (its statistics without reading
 * it, sqlite.c). */
struct ssp_load_count {
	char table[80];
	int64_t rows;
};

/*
 * Load one span stream as a new run into db, a database with the schema
 * (ssp_schema_create), inside the caller's transaction, with INSERTs.
 * Errors name the input and its byte offset; the database is then in an
 * undefined state (roll back or drop).
 */
SSP_MUST_USE enum ssp_status ssp_load_db(sqlite3 *db, struct ssp_rec_rd *rr,
    const struct ssp_load_opts *o, struct ssp_load_stats *st,
    struct ssp_err *e);

/*
 * The same into a new database in the file path (empty): written
 * directly from the schema image (image.h) when it can be, else with
 * INSERTs into the schema SQLite makes (st->direct 0).  On return *db is
 * NULL when the database is complete (written directly, statistics
 * included, nothing left for SQLite), else a connection to it in a
 * transaction, for the rest: the indexes (INSERTs), the statistics
 * (ssp_schema_analyze, or for direct writing those ANALYZE would find
 * without reading the attribute tables; *counts, ncounts of them, the
 * caller frees it: the rows written into each).  name: the database as
 * the user knows it, for messages.  On an error *db may be NULL.
 */
SSP_MUST_USE enum ssp_status ssp_load_new(sqlite3 **db, const char *path,
    const char *name, struct ssp_rec_rd *rr, const struct ssp_load_opts *o,
    struct ssp_load_stats *st, struct ssp_load_count **counts,
    size_t *ncounts, struct ssp_err *e);

#endif
