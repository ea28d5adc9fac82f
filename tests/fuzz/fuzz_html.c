/* Span streams to span2html's page: any stream the reader accepts (unknown
 * types, odd schemas, dangling events and links, absurd times) must give
 * well-formed UTF-8 JSON with every member the viewer reads, and a page,
 * without crashing; with all traces in detail and with a tiny sample; and
 * the same JSON when every trace aggregate goes through the sort's
 * temporary file (one live trace at a time) as when all stay in memory. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/strfmt.h"
#include "fuzz_mem.h"
#include "sink/html.h"
#include "stream/span.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Both passes over the bytes, then the JSON into b: 1, or 0 when the
 * reader refuses the stream or the first pass finds it bad. */
static int
json(const uint8_t *data, size_t size, const struct ssp_html_opts *o,
    struct ssp_buf *b, int page)
{
	static const char *const last[] = { "density" };
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_rec_rd *rr;
	struct ssp_html *h;
	struct ssp_err e;
	const char *v;
	size_t vl;
	int got;

	if (ssp_span_reader_open(&rr, in, &e) != SSP_OK) {
		ssp_in_close(in);
		return 0;
	}
	got = ssp_html_load(&h, rr, o, &e);
	/* the page outlives the reader, as in span2html */
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	if (got != SSP_OK)
		return 0;
	/* the same bytes again: the second pass must succeed */
	in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	if (ssp_span_reader_open(&rr, in, &e) != SSP_OK ||
	    ssp_html_detail(h, rr, &e) != SSP_OK)
		abort();
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	if (ssp_html_json(h, b, &e) != SSP_OK)
		abort();
	if (ssp_strfmt_utf8_valid((const char *)b->p, b->len) != b->len ||
	    ssp_strfmt_json_find((const char *)b->p, b->len, last, 1, &v,
	    &vl) != 1)
		abort();
	if (page) {
		struct ssp_buf pb = SSP_BUF_INIT;

		if (ssp_html_page(h, &pb, &e) != SSP_OK ||
		    ssp_html_stats(h)->page_bytes != pb.len)
			abort();
		ssp_buf_free(&pb);
	}
	ssp_html_free(h);
	return 1;
}

static void
run(const uint8_t *data, size_t size, int all, uint64_t max_spans, int events)
{
	struct ssp_html_opts o = { .source = "fuzz", .tool = "fuzz", .all = all,
	    .slowest = 2, .sample = 1, .max_spans = max_spans,
	    .events = events };
	struct ssp_buf a = SSP_BUF_INIT, b = SSP_BUF_INIT;

	if (json(data, size, &o, &a, 1)) {
		o.live_traces = 1;
		if (!json(data, size, &o, &b, 0) || a.len != b.len ||
		    memcmp(a.p, b.p, a.len) != 0)
			abort();
	}
	ssp_buf_free(&a);
	ssp_buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 1, 0, 1);
	run(data, size, 0, 5, 0);
	run(data, size, 0, 5, 1);
	return 0;
}
