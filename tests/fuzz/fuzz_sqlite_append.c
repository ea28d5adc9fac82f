/*
 * Appends into existing databases, damaged ones: the input is the whole
 * database file (the corpus starts from real small databases span2sqlite
 * wrote, with 512-byte pages), a run of a few spans, loaded once into a
 * file of its own, is merged into it as span2sqlite appends: look at the
 * file (ssp_sqlite_open), then merge through SQLite (ssp_append_run).
 * Errors are fine; a crash, a hang or a sanitizer report is not, and a
 * database that passed SQLite's integrity check before still does after
 * an append that succeeded, with the run in it.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/out.h"
#include "sqlite/append.h"
#include "sqlite/sqlite.h"
#include "stream/rec.h"
#include "stream/span.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char run_db[64], db_path[64];

static void
cleanup(void)
{
	char p[96];

	unlink(run_db);
	unlink(db_path);
	snprintf(p, sizeof(p), "%s-journal", db_path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-wal", db_path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", db_path);
	unlink(p);
}

/* Three spans in two traces, a link: the run every input gets. */
static void
write_stream(const char *path)
{
	static const struct ssp_meta meta[] = { { "producer", "fuzz" },
	    { "time-unit", "ps" }, { "stream", "host gem5" },
	    { "stream", "nic nicbm" } };
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	unsigned i;

	if (ssp_out_open(&o, path, 0, &e) != SSP_OK ||
	    ssp_rec_wr_open(&w, o, ssp_frame_magic_spans, ssp_span_schema(0), meta,
	    sizeof(meta) / sizeof(meta[0]), &e) != SSP_OK)
		abort();
	for (i = 0; i < 3; i++) {
		memset(&r, 0, sizeof(r));
		r.type = i == 0 ? SSP_SK_HOST_SYSCALL : SSP_SK_NIC_TX;
		r.ts = 1000 * (int64_t)i;
		r.f[SSP_SF_TRACE_LO] = i < 2 ? 1 : 2;
		r.f[SSP_SF_SPAN] = i + 1;
		r.f[SSP_SF_PARENT] = i == 1 ? 1 : 0;
		r.f[SSP_SF_STREAM] = i > 0;
		r.f[SSP_SF_DUR] = 500;
		if (ssp_rec_wr_put(w, &r, &e) != SSP_OK)
			abort();
	}
	memset(&r, 0, sizeof(r));
	r.type = SSP_SPAN_T_LINK;
	r.f[SSP_LF_SPAN] = 3;
	r.f[SSP_LF_TRACE_LO] = 1;
	r.f[SSP_LF_TARGET] = 2;
	if (ssp_rec_wr_put(w, &r, &e) != SSP_OK ||
	    ssp_rec_wr_close(w, &e) != SSP_OK || ssp_out_close(o, &e) != SSP_OK)
		abort();
}

/* The run as a new database of its own, once. */
static void
make_run(void)
{
	struct ssp_load_opts o = { .source = "fuzz", .now = 1 };
	struct ssp_load_stats st;
	struct ssp_sqlite *d;
	struct ssp_rec_rd *rr;
	struct ssp_in *in;
	struct ssp_err e;
	char sp[64], work[96];
	int fd;

	snprintf(run_db, sizeof(run_db), "/tmp/ssp-fuzz-run-%d.db", (int)getpid());
	snprintf(db_path, sizeof(db_path), "/tmp/ssp-fuzz-append-%d.db",
	    (int)getpid());
	snprintf(sp, sizeof(sp), "/tmp/ssp-fuzz-run-%d.sp", (int)getpid());
	atexit(cleanup);
	write_stream(sp);
	unlink(run_db);
	snprintf(work, sizeof(work), "%s.tmpXXXXXX", run_db);
	if ((fd = mkstemp(work)) < 0)
		abort();
	close(fd);
	if (ssp_in_open(&in, sp, 0, NULL, &e) != SSP_OK ||
	    ssp_span_reader_open(&rr, in, &e) != SSP_OK ||
	    ssp_sqlite_open(&d, run_db, 0, &e) != SSP_OK ||
	    ssp_sqlite_load(d, work, rr, &o, &st, &e) != SSP_OK ||
	    ssp_sqlite_commit(d, &e) != SSP_OK || rename(work, run_db) != 0)
		abort();
	ssp_sqlite_close(d);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	unlink(sp);
}

static int
intact(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	int ok = 0;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL) ==
	    SQLITE_OK) {
		ok = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0) !=
		    NULL && strcmp((const char *)sqlite3_column_text(s, 0), "ok") == 0 &&
		    sqlite3_step(s) == SQLITE_DONE;
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return ok;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_append_opts ao = { .run = NULL, .busy_ms = 1 };
	struct ssp_sqlite *d;
	struct ssp_err e;
	char name[256];
	int64_t run;
	FILE *f;
	int was_ok;

	if (run_db[0] == '\0')
		make_run();
	cleanup();	/* but the run */
	if (run_db[0] == '\0' || (f = fopen(db_path, "wb")) == NULL)
		abort();
	if (size > 0 && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	if (ssp_sqlite_open(&d, db_path, 0, &e) != SSP_OK)
		return 0;	/* refused: not ours, a newer version, damaged */
	if (ssp_sqlite_is_new(d)) {
		ssp_sqlite_close(d);
		return 0;	/* empty: replaced, nothing to merge into */
	}
	ssp_sqlite_close(d);
	was_ok = intact(db_path);
	if (ssp_append_run(db_path, "fuzz.db", run_db, &ao, &run, name, &e) ==
	    SSP_OK) {
		sqlite3 *db;
		sqlite3_stmt *s;

		if (was_ok && !intact(db_path))
			abort();	/* the append broke a sound database */
		if (sqlite3_open(db_path, &db) != SQLITE_OK ||
		    sqlite3_prepare_v2(db, "SELECT count(*) FROM spans WHERE run = ?",
		    -1, &s, NULL) != SQLITE_OK)
			abort();
		sqlite3_bind_int64(s, 1, run);
		if (sqlite3_step(s) != SQLITE_ROW || (was_ok &&
		    sqlite3_column_int64(s, 0) != 3))
			abort();
		sqlite3_finalize(s);
		sqlite3_close(db);
	}
	return 0;
}
