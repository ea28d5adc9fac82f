/*
 * The rows and indexes of a simspan database written directly in the
 * SQLite file format (formats/sqlite.md, "How a load is written"): rows
 * with ssp_btree, each index from its keys sorted with ssp_ksort (merged
 * with its old entries when the database is appended to).
 *
 * The schema is formats/simspan.sql only.  The writer knows what the
 * columns of spans, links, events and traces mean by their names (the
 * values below); their order, types and generated columns it takes from
 * the tables SQLite created (pragma_table_xinfo), the key columns of each
 * index from pragma_index_xinfo.  The attribute tables are written as the
 * caller maps their columns.
 */
#ifndef SSP_SQLITE_DIRECT_H
#define SSP_SQLITE_DIRECT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "sqlite/btree.h"

/*
 * The tables, and the values of their rows in the order a row is given:
 *   spans:  id run trace parent span_id kind stream start_ps dur_ps flags
 *           cause extra
 *   links:  id run span target kind span_id target_span_id target_trace_id
 *   events: id run span ts_ps type stream attrs
 *   traces: id run trace_id root root_kind root_stream start_ps end_ps
 *           spans busy_ps streams kinds, and one more value for dur_ps
 *           (the writer computes it)
 * id is the row id (NULL); a reference without its row is NULL.
 */
enum { SSP_SQLITE_DIRECT_SPANS, SSP_SQLITE_DIRECT_LINKS,
	SSP_SQLITE_DIRECT_EVENTS, SSP_SQLITE_DIRECT_TRACES };
#define SSP_SQLITE_DIRECT_NVALS	13	/* values of a row at most */

struct ssp_sqlite_direct;

/* The affinity SQLite gives a declared column type: 'i'nteger, 't'ext,
 * 'b'lob (none), 'r'eal or 'n'umeric (datatype3.html, 3.1). */
char ssp_sqlite_direct_affinity(const char *type);

/*
 * Plan writing the tables of db (the schema; a new database has no rows
 * and no indexes yet) directly.  attr[ft]: the attribute table of file type ft, or NULL.
 * 1: *dp is the plan; 0: db cannot be written directly (use INSERTs;
 * nothing changed); < 0: an error (e).  e is kept for the later calls.
 */
int ssp_sqlite_direct_plan(struct ssp_sqlite_direct **dp, sqlite3 *db,
    const char *const *attr, unsigned nft, struct ssp_err *e);
/* Once db has its indexes: how each is built (REINDEXed if it cannot be)
 * and the root pages.  SSP_OK or an error. */
int ssp_sqlite_direct_indexes(struct ssp_sqlite_direct *w, sqlite3 *db);
/*
 * Take the file over (SQLite has closed it).  kinds[ft]: the span kind
 * of file type ft < nft (NULL: not a span); streams: the stream names.  Both
 * stay valid until ssp_sqlite_direct_free.  sort_mem: bytes for sorting
 * index keys at most: the keys held in memory (4/5 of it, shared by the
 * indexes) and the scratch of the one chunk being sorted (1/5); beyond
 * that keys are spilled to a temporary file.
 */
int ssp_sqlite_direct_open(struct ssp_sqlite_direct *w, const char *path,
    const char *const *kinds, const char *const *streams, size_t nstreams,
    size_t sort_mem);
/*
 * A row of table t, in row order.  ft: the file type of its span kind
 * (the root's for traces), -1: look the kind up by name; stream: its
 * stream (spans, events).  v has room for SSP_SQLITE_DIRECT_NVALS values.
 */
int ssp_sqlite_direct_row(struct ssp_sqlite_direct *w, unsigned t,
    int64_t row, struct ssp_btree_val *v, int ft, uint32_t stream);
/* The attribute row of a span of file type ft: every stored column. */
int ssp_sqlite_direct_attr(struct ssp_sqlite_direct *w, unsigned ft,
    int64_t row, const struct ssp_btree_val *v, unsigned n);
/*
 * The rows of every table but traces are in: sort those tables' index keys
 * in a helper thread (when this process may use more than one CPU) while
 * the caller writes the traces.  SSP_OK, or an error starting it.
 */
int ssp_sqlite_direct_presort(struct ssp_sqlite_direct *w);
/* The indexes from their sorted keys; the file is complete and closed. */
int ssp_sqlite_direct_finish(struct ssp_sqlite_direct *w);
/* The indexes to rebuild with REINDEX after the load. */
size_t ssp_sqlite_direct_reindex(const struct ssp_sqlite_direct *w,
    const char *const **names);
void ssp_sqlite_direct_free(struct ssp_sqlite_direct *w);

#endif
