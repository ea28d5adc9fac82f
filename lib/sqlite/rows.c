#include "sqlite/rows.h"

#define B(c) (1u << (c))

/* The columns as formats/simspan.sql names them (formats/sqlite.md §4). */
const struct ssp_rows_table ssp_rows_tables[SSP_ROWS_NTABLES] = {
	[SSP_ROWS_SPANS] = { "spans", SSP_SPANS_NCOLS, {
	    [SSP_SPANS_ID] = "id", [SSP_SPANS_RUN] = "run",
	    [SSP_SPANS_TRACE] = "trace", [SSP_SPANS_PARENT] = "parent",
	    [SSP_SPANS_SPAN_ID] = "span_id", [SSP_SPANS_KIND] = "kind",
	    [SSP_SPANS_STREAM] = "stream", [SSP_SPANS_START_PS] = "start_ps",
	    [SSP_SPANS_DUR_PS] = "dur_ps", [SSP_SPANS_FLAGS] = "flags",
	    [SSP_SPANS_CAUSE] = "cause", [SSP_SPANS_EXTRA] = "extra" },
	    B(SSP_SPANS_KIND) | B(SSP_SPANS_STREAM) | B(SSP_SPANS_CAUSE) |
	    B(SSP_SPANS_EXTRA), 0, 0 },
	[SSP_ROWS_LINKS] = { "links", SSP_LINKS_NCOLS, {
	    [SSP_LINKS_ID] = "id", [SSP_LINKS_RUN] = "run",
	    [SSP_LINKS_SPAN] = "span", [SSP_LINKS_TARGET] = "target",
	    [SSP_LINKS_KIND] = "kind", [SSP_LINKS_SPAN_ID] = "span_id",
	    [SSP_LINKS_TARGET_SPAN_ID] = "target_span_id",
	    [SSP_LINKS_TARGET_TRACE_ID] = "target_trace_id" },
	    B(SSP_LINKS_KIND) | B(SSP_LINKS_TARGET_TRACE_ID), 0, 0 },
	[SSP_ROWS_EVENTS] = { "events", SSP_EVENTS_NCOLS, {
	    [SSP_EVENTS_ID] = "id", [SSP_EVENTS_RUN] = "run",
	    [SSP_EVENTS_SPAN] = "span", [SSP_EVENTS_TS_PS] = "ts_ps",
	    [SSP_EVENTS_TYPE] = "type", [SSP_EVENTS_STREAM] = "stream",
	    [SSP_EVENTS_ATTRS] = "attrs" },
	    B(SSP_EVENTS_TYPE) | B(SSP_EVENTS_STREAM) | B(SSP_EVENTS_ATTRS), 0, 0 },
	[SSP_ROWS_TRACES] = { "traces", SSP_TRACES_NCOLS, {
	    [SSP_TRACES_ID] = "id", [SSP_TRACES_RUN] = "run",
	    [SSP_TRACES_TRACE_ID] = "trace_id", [SSP_TRACES_ROOT] = "root",
	    [SSP_TRACES_ROOT_KIND] = "root_kind",
	    [SSP_TRACES_ROOT_STREAM] = "root_stream",
	    [SSP_TRACES_START_PS] = "start_ps", [SSP_TRACES_END_PS] = "end_ps",
	    [SSP_TRACES_SPANS] = "spans", [SSP_TRACES_BUSY_PS] = "busy_ps",
	    [SSP_TRACES_STREAMS] = "streams", [SSP_TRACES_KINDS] = "kinds",
	    [SSP_TRACES_DUR_PS] = "dur_ps" },
	    B(SSP_TRACES_TRACE_ID) | B(SSP_TRACES_ROOT_KIND) |
	    B(SSP_TRACES_ROOT_STREAM) | B(SSP_TRACES_STREAMS) |
	    B(SSP_TRACES_KINDS), B(SSP_TRACES_DUR_PS), 0 },
	[SSP_ROWS_RUNS] = { "runs", SSP_RUNS_NCOLS, {
	    [SSP_RUNS_ID] = "id", [SSP_RUNS_NAME] = "name",
	    [SSP_RUNS_SOURCE] = "source", [SSP_RUNS_LOADED] = "loaded",
	    [SSP_RUNS_TOOL] = "tool", [SSP_RUNS_SPANS] = "spans",
	    [SSP_RUNS_LINKS] = "links", [SSP_RUNS_EVENTS] = "events",
	    [SSP_RUNS_TRACES] = "traces" },
	    B(SSP_RUNS_NAME) | B(SSP_RUNS_SOURCE) | B(SSP_RUNS_LOADED) |
	    B(SSP_RUNS_TOOL), 0, 1 },
	[SSP_ROWS_RUN_META] = { "run_meta", SSP_RUN_META_NCOLS, {
	    [SSP_RUN_META_ROWID] = "rowid", [SSP_RUN_META_RUN] = "run",
	    [SSP_RUN_META_KEY] = "key", [SSP_RUN_META_VALUE] = "value" },
	    B(SSP_RUN_META_KEY) | B(SSP_RUN_META_VALUE), 0, 1 },
	[SSP_ROWS_STREAMS] = { "streams", SSP_STREAMS_NCOLS, {
	    [SSP_STREAMS_ID] = "id", [SSP_STREAMS_RUN] = "run",
	    [SSP_STREAMS_IDX] = "idx", [SSP_STREAMS_NAME] = "name",
	    [SSP_STREAMS_SIM] = "sim", [SSP_STREAMS_KIND] = "kind",
	    [SSP_STREAMS_SPANS] = "spans" },
	    B(SSP_STREAMS_NAME) | B(SSP_STREAMS_SIM) | B(SSP_STREAMS_KIND),
	    0, 1 },
};
