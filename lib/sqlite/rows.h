/*
 * The rows a load writes, by named column, and the one interface of the
 * two row writers that write them: through SQLite's INSERTs (insert.h)
 * or directly in the SQLite file format (direct.h).
 *
 * The load (load.h) turns each record into the values of one row, in the
 * order of the column enums below, and hands the row to a writer.  The
 * tables' real column order, types and generated columns are those SQLite
 * made from formats/simspan.sql; a writer maps the named values onto them
 * (the direct writer from the schema's catalog, catalog.h; the INSERT
 * writer by naming the columns in its statements).  Values are valid
 * during the call only.
 */
#ifndef SSP_ROWS_H
#define SSP_ROWS_H

#include <stdint.h>

#include <sqlite3.h>

#include "base/err.h"
#include "sqlite/value.h"

/* The tables written row by row; the last three (few rows, the run's
 * own) after the others, before the writer finishes. */
enum { SSP_ROWS_SPANS, SSP_ROWS_LINKS, SSP_ROWS_EVENTS, SSP_ROWS_TRACES,
	SSP_ROWS_RUNS, SSP_ROWS_RUN_META, SSP_ROWS_STREAMS, SSP_ROWS_NTABLES };

/* Their columns.  The id column is NULL in a row (the row id is given
 * apart); a reference without its row is NULL. */
enum { SSP_SPANS_ID, SSP_SPANS_RUN, SSP_SPANS_TRACE, SSP_SPANS_PARENT,
	SSP_SPANS_SPAN_ID, SSP_SPANS_KIND, SSP_SPANS_STREAM, SSP_SPANS_START_PS,
	SSP_SPANS_DUR_PS, SSP_SPANS_FLAGS, SSP_SPANS_CAUSE, SSP_SPANS_EXTRA,
	SSP_SPANS_NCOLS };
enum { SSP_LINKS_ID, SSP_LINKS_RUN, SSP_LINKS_SPAN, SSP_LINKS_TARGET,
	SSP_LINKS_KIND, SSP_LINKS_SPAN_ID, SSP_LINKS_TARGET_SPAN_ID,
	SSP_LINKS_TARGET_TRACE_ID, SSP_LINKS_NCOLS };
enum { SSP_EVENTS_ID, SSP_EVENTS_RUN, SSP_EVENTS_SPAN, SSP_EVENTS_TS_PS,
	SSP_EVENTS_TYPE, SSP_EVENTS_STREAM, SSP_EVENTS_ATTRS,
	SSP_EVENTS_NCOLS };
/* traces.dur_ps is generated (end_ps - start_ps): the load leaves it to
 * the writer, which computes it only where it needs it (index keys). */
enum { SSP_TRACES_ID, SSP_TRACES_RUN, SSP_TRACES_TRACE_ID, SSP_TRACES_ROOT,
	SSP_TRACES_ROOT_KIND, SSP_TRACES_ROOT_STREAM, SSP_TRACES_START_PS,
	SSP_TRACES_END_PS, SSP_TRACES_SPANS, SSP_TRACES_BUSY_PS,
	SSP_TRACES_STREAMS, SSP_TRACES_KINDS, SSP_TRACES_DUR_PS,
	SSP_TRACES_NCOLS };
enum { SSP_RUNS_ID, SSP_RUNS_NAME, SSP_RUNS_SOURCE, SSP_RUNS_LOADED,
	SSP_RUNS_TOOL, SSP_RUNS_SPANS, SSP_RUNS_LINKS, SSP_RUNS_EVENTS,
	SSP_RUNS_TRACES, SSP_RUNS_NCOLS };
/* run_meta has no id column: its rows' id is the rowid */
enum { SSP_RUN_META_ROWID, SSP_RUN_META_RUN, SSP_RUN_META_KEY,
	SSP_RUN_META_VALUE, SSP_RUN_META_NCOLS };
enum { SSP_STREAMS_ID, SSP_STREAMS_RUN, SSP_STREAMS_IDX, SSP_STREAMS_NAME,
	SSP_STREAMS_SIM, SSP_STREAMS_KIND, SSP_STREAMS_SPANS,
	SSP_STREAMS_NCOLS };
#define SSP_ROWS_MAXCOLS	13	/* values of a row at most */

/* A table: its name and its columns' names, in the enum's order (the
 * first is the row id: an INTEGER PRIMARY KEY, or "rowid" itself). */
struct ssp_rows_table {
	const char *name;
	unsigned ncols;
	const char *col[SSP_ROWS_MAXCOLS];
	uint32_t text;		/* the columns that hold text */
	uint32_t gen;		/* generated columns (never inserted) */
	int few;		/* a few rows (the run's own), given last */
};
extern const struct ssp_rows_table ssp_rows_tables[SSP_ROWS_NTABLES];

/*
 * The attribute table of a span kind as the load fills it: its stored
 * columns in the table's order, and what each holds: the span's row id
 * (the INTEGER PRIMARY KEY), a field of the record, or nothing (NULL).
 */
#define SSP_ROWS_ATTR_SPAN	(-2)
#define SSP_ROWS_ATTR_NONE	(-1)
#define SSP_ROWS_ATTR_MAXCOLS	64
struct ssp_rows_attr {
	char table[80];
	unsigned ncols;
	char *col[SSP_ROWS_ATTR_MAXCOLS];
	int field[SSP_ROWS_ATTR_MAXCOLS];	/* SSP_ROWS_ATTR_* or a field */
	int direct;		/* the direct writer can fill it: every column
				 * stores the value as given, no defaults */
};

/*
 * A row writer.  Rows of each table come in id order; spans' attribute
 * rows right after their span.  ft is the record type of the span kind
 * (of a trace's root; -1: none or look it up by name), stream the index
 * of the row's stream (spans, events).
 */
struct ssp_rows;
struct ssp_rows_ops {
	enum ssp_status (*row)(struct ssp_rows *w, unsigned table, int64_t id,
	    struct ssp_value *v, int ft, uint32_t stream);
	/* v: every stored column of the table of ssp_rows_attr[ft] */
	enum ssp_status (*attr)(struct ssp_rows *w, unsigned ft, int64_t id,
	    const struct ssp_value *v);
	/* the rows of every table but traces are in */
	enum ssp_status (*traces)(struct ssp_rows *w);
	/*
	 * Every row is in.  rest: the load has more to do through SQLite
	 * (references resolved late, splits from the database).  *db holds
	 * the rows, in a transaction, for the rest and the statistics (it
	 * may be another connection than the one given); or NULL, only
	 * without rest: the database is complete, statistics included.
	 */
	enum ssp_status (*finish)(struct ssp_rows *w, int rest, sqlite3 **db);
	void (*free)(struct ssp_rows *w);
};
struct ssp_rows {
	const struct ssp_rows_ops *ops;
	int direct;		/* rows written in the file format */
};

SSP_MUST_USE static inline enum ssp_status
ssp_rows_row(struct ssp_rows *w, unsigned table, int64_t id,
    struct ssp_value *v, int ft, uint32_t stream)
{
	return w->ops->row(w, table, id, v, ft, stream);
}

SSP_MUST_USE static inline enum ssp_status
ssp_rows_attr(struct ssp_rows *w, unsigned ft, int64_t id,
    const struct ssp_value *v)
{
	return w->ops->attr(w, ft, id, v);
}

SSP_MUST_USE static inline enum ssp_status
ssp_rows_traces(struct ssp_rows *w)
{
	return w->ops->traces(w);
}

SSP_MUST_USE static inline enum ssp_status
ssp_rows_finish(struct ssp_rows *w, int rest, sqlite3 **db)
{
	return w->ops->finish(w, rest, db);
}

static inline void
ssp_rows_free(struct ssp_rows *w)
{
	if (w != NULL)
		w->ops->free(w);
}

#endif
