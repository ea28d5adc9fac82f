/*
 * Span streams into one self-contained HTML page (formats/html.md): the
 * viewer (lib/sink/html/viewer.{html,css,js}, embedded at build time) and
 * the run's data as gzip-compressed, base64-encoded JSON.
 *
 * ssp_html_load reads the whole stream into memory (about 120 bytes a
 * span, plus its attributes, member events and links as JSON text unless
 * a second pass, ssp_html_detail, reads them for the detailed traces), then
 * computes what the page shows for every trace: latency, and the busy and
 * idle time of formats/sqlite.md §5 per stream, so the page and SQLite's
 * trace_streams view give the same numbers.  Full span detail goes into
 * the page for all traces, or, for big runs, the slowest ones and an even
 * sample of the rest up to a cap on spans; the page says what it left out.
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

struct ssp_html_opts {
	const char *source;	/* input name shown in the page; NULL: "-" */
	const char *tool;	/* "span2html <version>" */
	int all;		/* 1 all traces, 0 slowest + sample, -1 auto */
	uint32_t slowest;	/* traces by latency, slowest first */
	uint32_t sample;	/* further traces spread evenly over the run */
	uint64_t max_spans;	/* detail stops adding traces past this; 0: none */
	int events;		/* member events of detailed spans: 1 yes, 0 no */
	/* 1: the caller reads the stream again with ssp_html_detail, so the
	 * first pass keeps no attributes, events or links (about half the
	 * memory, and faster); 0: one pass keeps them for every span */
	int two_pass;
	/* Called every few thousand records (progress display); may be NULL. */
	void (*tick)(void *ctx, uint64_t records, uint64_t spans);
	void *tick_ctx;
};

struct ssp_html_stats {
	uint64_t records, spans, links, events, traces, unknown;
	uint64_t orphans, open, background, incomplete;
	uint64_t unattached;	/* links/events not right after their span */
	uint64_t detail_traces, detail_spans, detail_events;
	uint64_t json_bytes, gz_bytes, page_bytes;
};

struct ssp_html;

/* Read all of rr (a span stream reader).  Errors name the input and the
 * byte offset. */
int ssp_html_load(struct ssp_html **hp, struct ssp_rec_rd *rr,
    const struct ssp_html_opts *o, struct ssp_err *e);
/* With opts.two_pass: read the same stream again (a new reader) and keep
 * the attributes, member events and links of the detailed traces.  An
 * error if it is not the stream ssp_html_load read. */
int ssp_html_detail(struct ssp_html *h, struct ssp_rec_rd *rr,
    struct ssp_err *e);
/* The data as JSON (formats/html.md), appended to out. */
int ssp_html_json(struct ssp_html *h, struct ssp_buf *out, struct ssp_err *e);
/* The whole page, appended to out. */
int ssp_html_page(struct ssp_html *h, struct ssp_buf *out, struct ssp_err *e);
const struct ssp_html_stats *ssp_html_stats(const struct ssp_html *h);
void ssp_html_free(struct ssp_html *h);

/* The embedded viewer sources (NUL-terminated). */
extern const char ssp_html_viewer_html[];
extern const char ssp_html_viewer_css[];
extern const char ssp_html_viewer_js[];

#endif
