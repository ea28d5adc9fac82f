/*
 * Span streams into SQLite: any bytes through the span reader and the
 * loader into an in-memory database with tiny id caches, so the paths for
 * late references, evicted traces, newer kinds and events all run; then
 * the same into a new database file, written directly (ssp_btree), and
 * appended to it once more (loaded into a file of its own and merged
 * through SQLite): the same outcome, a file that passes SQLite's
 * integrity check, the same rows.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_mem.h"
#include "sqlite/schema.h"
#include "sqlite/sqlite.h"
#include "stream/span.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int64_t
count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	int64_t n = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* A load into the file path as span2sqlite makes it: its result. */
static int
file_load(const char *path, const uint8_t *data, size_t size,
    const struct ssp_load_opts *o, struct ssp_load_stats *st)
{
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_sqlite *d;
	struct ssp_rec_rd *rr;
	struct ssp_err e;
	char work[96];
	int r, fd;

	if (ssp_span_reader_open(&rr, in, &e) != SSP_OK)
		abort();
	if (ssp_sqlite_open(&d, path, 0, &e) != SSP_OK)
		abort();
	snprintf(work, sizeof(work), "%s.tmpXXXXXX", path);
	if ((fd = mkstemp(work)) < 0)
		abort();
	close(fd);
	r = ssp_sqlite_load(d, work, rr, o, st, &e);
	if (r == SSP_OK && ssp_sqlite_commit(d, &e) != SSP_OK)
		abort();
	if (r == SSP_OK && ssp_sqlite_is_new(d) && rename(work, path) != 0)
		abort();
	unlink(work);
	ssp_sqlite_close(d);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	return r;
}

/* The direct writer on the same input: its result (SSP_OK or not) and,
 * when it loaded, a checked file with n spans; then the same appended to
 * it: 2n spans. */
static void
direct(const uint8_t *data, size_t size, int want, int64_t n)
{
	struct ssp_load_opts o = { .events = 1, .span_cache = 2,
	    .trace_cache = 1, .source = "fuzz", .now = 1, .sort_mem = 1 };
	struct ssp_load_stats st;
	char path[64];
	sqlite3 *db;
	int r, pass;

	snprintf(path, sizeof(path), "/tmp/ssp-fuzz-sqlite-%d.db", (int)getpid());
	unlink(path);
	for (pass = 1; pass <= 2; pass++) {
		r = file_load(path, data, size, &o, &st);
		if ((r == SSP_OK) != (want == SSP_OK))
			abort();
		if (r != SSP_OK)
			break;
		if (!st.direct)
			abort();
		if (sqlite3_open(path, &db) != SQLITE_OK)
			abort();
		if (count(db, "SELECT count(*) FROM pragma_integrity_check "
		    "WHERE integrity_check <> 'ok'") != 0 ||
		    count(db, "SELECT count(*) FROM spans") != pass * n ||
		    count(db, "SELECT count(*) FROM runs") != pass)
			abort();
		sqlite3_close(db);
	}
	unlink(path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_load_opts o = { .events = 1, .span_cache = 2,
	    .trace_cache = 1, .source = "fuzz", .now = 1 };
	struct ssp_load_stats st;
	struct ssp_rec_rd *rr;
	struct ssp_err e;
	sqlite3 *db;

	if (ssp_span_reader_open(&rr, in, &e) == SSP_OK) {
		int r;
		int64_t n = -1;

		if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
		    ssp_schema_create(db, NULL, &e) != SSP_OK)
			abort();
		if ((r = ssp_load_db(db, rr, &o, &st, &e)) == SSP_OK) {
			n = count(db, "SELECT count(*) FROM spans");
			/* counts add up; the views run */
			if (st.records != st.spans + st.links + st.events +
			    st.events_skipped + st.unknown)
				abort();
			if (ssp_schema_indexes(db, NULL, &e) != SSP_OK ||
			    ssp_schema_analyze(db, NULL, &e) != SSP_OK ||
			    sqlite3_exec(db, "SELECT * FROM latency; SELECT * FROM "
			    "split_streams; SELECT * FROM split_kinds; SELECT * "
			    "FROM span_kinds", NULL, NULL, NULL) != SQLITE_OK)
				abort();
		}
		sqlite3_close(db);
		ssp_rec_rd_close(rr);
		direct(data, size, r, n);
	}
	ssp_in_close(in);
	return 0;
}
