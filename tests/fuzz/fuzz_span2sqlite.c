/*
 * Span streams into SQLite: any bytes through the span reader and the
 * loader into an in-memory database with tiny id caches, so the paths for
 * late references, evicted traces, newer kinds and events all run.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "fuzz_mem.h"
#include "ssp_span.h"
#include "ssp_sqlite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_sqlite_opts o = { .events = 1, .span_cache = 2,
	    .trace_cache = 1, .source = "fuzz", .now = 1 };
	struct ssp_sqlite_stats st;
	struct ssp_rr *rr;
	struct ssp_err e;
	sqlite3 *db;

	if (ssp_span_reader_open(&rr, in, &e) == SSP_OK) {
		if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
		    ssp_sqlite_create(db, &e) != SSP_OK)
			abort();
		if (ssp_sqlite_load_db(db, rr, &o, &st, &e) == SSP_OK) {
			/* counts add up; the views run */
			if (st.records != st.spans + st.links + st.events +
			    st.events_skipped + st.unknown)
				abort();
			if (ssp_sqlite_index(db, &e) != SSP_OK ||
			    sqlite3_exec(db, "SELECT * FROM latency; SELECT * FROM "
			    "split_streams; SELECT * FROM split_kinds; SELECT * "
			    "FROM span_kinds", NULL, NULL, NULL) != SQLITE_OK)
				abort();
		}
		sqlite3_close(db);
		ssp_rr_close(rr);
	}
	ssp_in_close(in);
	return 0;
}
