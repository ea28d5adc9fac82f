/* Span streams to span2html's page: any stream the reader accepts (unknown
 * types, odd schemas, dangling events and links, absurd times) must give
 * well-formed UTF-8 JSON with every member the viewer reads, and a page,
 * without crashing; with all traces in detail and with a tiny sample. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/strfmt.h"
#include "fuzz_mem.h"
#include "sink/html.h"
#include "stream/span.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
run(const uint8_t *data, size_t size, int all, uint64_t max_spans, int events,
    int two_pass)
{
	static const char *const last[] = { "density" };
	struct ssp_html_opts o = { .source = "fuzz", .tool = "fuzz", .all = all,
	    .slowest = 2, .sample = 1, .max_spans = max_spans,
	    .events = events, .two_pass = two_pass };
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_rec_rd *rr;
	struct ssp_html *h;
	struct ssp_err e;
	const char *v;
	size_t vl;

	if (ssp_span_reader_open(&rr, in, &e) == SSP_OK) {
		int got = ssp_html_load(&h, rr, &o, &e);

		/* the page outlives the reader, as in span2html */
		ssp_rec_rd_close(rr);
		ssp_in_close(in);
		in = NULL;
		if (got == SSP_OK && two_pass) {
			/* the same bytes again: the second pass must succeed */
			in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
			if (ssp_span_reader_open(&rr, in, &e) != SSP_OK ||
			    ssp_html_detail(h, rr, &e) != SSP_OK)
				abort();
			ssp_rec_rd_close(rr);
			ssp_in_close(in);
			in = NULL;
		}
		if (got == SSP_OK) {
			if (ssp_html_json(h, &b, &e) != SSP_OK)
				abort();
			if (ssp_strfmt_utf8_valid((const char *)b.p, b.len) != b.len ||
			    ssp_strfmt_json_find((const char *)b.p, b.len, last, 1,
			    &v, &vl) != 1)
				abort();
			ssp_buf_reset(&b);
			if (ssp_html_page(h, &b, &e) != SSP_OK ||
			    ssp_html_stats(h)->page_bytes != b.len)
				abort();
			ssp_html_free(h);
		}
	}
	if (in != NULL)
		ssp_in_close(in);
	ssp_buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 1, 0, 1, 0);
	run(data, size, 0, 5, 0, 0);
	run(data, size, 1, 0, 1, 1);
	run(data, size, 0, 5, 1, 1);
	return 0;
}
