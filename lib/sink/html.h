/*
 * Span streams into one self-contained HTML page (formats/html.md): the
 * viewer (lib/sink/html/viewer.{html,css,js}, embedded at build time) and
 * the run's data as gzip-compressed, base64-encoded JSON.
 *
 * Two passes over the stream, with memory bounded by what the page
 * shows, not by the input.  ssp_html_load reads it once and keeps per
 * trace only a small aggregate (latency, spans, root), a bounded table of
 * them in memory: when the table is full its traces go to an external
 * sort (sink/ksort, a temporary file) that merges the parts of a trace
 * seen at different times, so every trace's numbers are exact however
 * its spans interleave with others.  From the finished traces come the
 * latency histograms (log-bucketed, 2^SSP_HTML_HIST_BITS buckets per
 * octave: within 0.4 % of the true value), the timeline's density bins
 * (a fixed number of bins whose width doubles as the run grows) and the
 * traces the page lists: all, or the slowest and an even sample.
 * ssp_html_detail reads the stream again and keeps the spans, attributes,
 * member events and links of those traces only, and their busy/idle split
 * (formats/sqlite.md §5, as SQLite's trace_streams view).  The page says
 * what it left out.
 *
 * Memory: about 100 bytes per trace of the in-memory table (at most
 * SSP_HTML_LIVE traces), 2 MiB for the sort, 64 KiB per timeline lane,
 * the listed traces and the detailed spans (at most --max-spans).
 */
#ifndef SSP_HTML_H
#define SSP_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "stream/rec.h"

/* Which traces get full detail: all of them, or the slowest and a sample. */
#define SSP_HTML_AUTO_ALL	100000	/* auto: all when spans <= this */
#define SSP_HTML_SLOWEST	100
#define SSP_HTML_SAMPLE		1000
#define SSP_HTML_MAX_SPANS	200000	/* detail cap, spans */
#define SSP_HTML_BINS		2000	/* timeline density bins per lane */
#define SSP_HTML_LIVE		8192	/* traces aggregated in memory at once */
#define SSP_HTML_HIST_BITS	7	/* latency buckets: 2^7 per octave */

struct ssp_html_opts {
	const char *source;	/* input name shown in the page; NULL: "-" */
	const char *tool;	/* "span2html <version>" */
	int all;		/* 1 all traces, 0 slowest + sample, -1 auto */
	uint32_t slowest;	/* traces by latency, slowest first */
	uint32_t sample;	/* further traces spread evenly over the run */
	uint64_t max_spans;	/* detail stops adding traces past this; 0: none */
	int events;		/* member events of detailed spans: 1 yes, 0 no */
	/* traces held in memory before they go to the sort's temporary
	 * file; 0: SSP_HTML_LIVE (tests make it small: the page is the same) */
	uint32_t live_traces;
	/* Called every few thousand records (progress display); may be NULL. */
	void (*tick)(void *ctx, uint64_t records, uint64_t spans);
	void *tick_ctx;
};

struct ssp_html_stats {
	uint64_t records, spans, links, events, traces, unknown;
	uint64_t orphans, open, background, incomplete;
	uint64_t unattached;	/* links/events not right after their span */
	uint64_t listed_traces;	/* traces in the page's list */
	uint64_t detail_traces, detail_spans, detail_events;
	uint64_t spilled;	/* trace aggregates sent to the sort's file */
	uint64_t json_bytes, gz_bytes, page_bytes;
};

/*
 * --traces: "all", or "slowest:N,sample:M" (either part may be left out,
 * N and M at most 2^32 - 1) into o->all, o->slowest and o->sample.  0, or
 * -1 for anything else.
 */
int ssp_html_traces_parse(const char *s, struct ssp_html_opts *o);

struct ssp_html;

/* The first pass: read all of rr (a span stream reader).  Errors name
 * the input and the byte offset. */
int ssp_html_load(struct ssp_html **hp, struct ssp_rec_rd *rr,
    const struct ssp_html_opts *o, struct ssp_err *e);
/* The second pass, required before ssp_html_json or ssp_html_page: read
 * the same stream again (a new reader) and keep what the page shows of
 * the listed traces.  An error if it is not the stream ssp_html_load
 * read. */
int ssp_html_detail(struct ssp_html *h, struct ssp_rec_rd *rr,
    struct ssp_err *e);
/* The data as JSON (formats/html.md), appended to out. */
int ssp_html_json(struct ssp_html *h, struct ssp_buf *out, struct ssp_err *e);
/* The whole page, appended to out. */
int ssp_html_page(struct ssp_html *h, struct ssp_buf *out, struct ssp_err *e);
const struct ssp_html_stats *ssp_html_stats(const struct ssp_html *h);
void ssp_html_free(struct ssp_html *h);

#endif
