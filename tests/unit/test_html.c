/* span2html's data: per-trace latency and the busy/idle split of
 * formats/sqlite.md §5 (union of intervals per stream, gaps idle), the
 * choice of traces listed and in detail, links and member events attached
 * to their span, the latency histograms and density bins, the same data
 * when the trace aggregates go through the sort's temporary file, and the
 * page around the data (gzip + base64, markers replaced, CSP hashes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sink/html_viewer.h"
#include "base/strfmt.h"
#include "io/in.h"
#include "io/out.h"
#include "sink/html.h"
#include "stream/span.h"
#include "tests/unit/rec_helpers.h"

static int kctx_stream;		/* write_stream: the kernel context one */
static int interleave;		/* write_stream: trace 1 goes on after 0x20 */
static char path[64];



/*
 * Trace 1 (root span 1): a client syscall [0, 10000] with an MMIO
 * [2000, 3000] inside, NIC spans [4000, 4000] and [5000, 7000], an
 * interrupt [12000, 13000] after a gap.  Trace 0x20: an orphan NIC rx at
 * 20000 linking to span 1.
 */
static void
write_stream(void)
{
	static const struct ssp_span_source src[] = {
		{ "client", 0, SSP_SIM_GEM5 }, { "client-nic", 0, SSP_SIM_NICBM },
	};
	struct ssp_out *out;

	snprintf(path, sizeof(path), "/tmp/ssp-test-html-%d", (int)getpid());
	assert_int_equal(ssp_out_open(&out, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_span_writer_open(&w, out, "test", src, 2, 1, &e),
	    SSP_OK);
	if (kctx_stream) {	/* a syscall; an irq, its softirq, a resume */
		put(SSP_SK_HOST_SYSCALL, 0, 10, U(7), U(1), U(1), U(0), U(0),
		    U(10000), U(0), U(0), str("cpu0"), str("entry_SYSCALL_64"));
		put(SSP_SK_HOST_IRQ, 1000, 11, U(7), U(2), U(2), U(0), U(0),
		    U(100), U(0), str("no-msix"), str("cpu0"),
		    str("asm_common_interrupt"), U(3));
		put(SSP_SK_HOST_SOFTIRQ, 1100, 11, U(7), U(2), U(3), U(2), U(0),
		    U(500), U(0), U(0), str("cpu0"), str("__do_softirq"), U(9));
		put(SSP_SK_HOST_RESUME, 5000, 11, U(7), U(2), U(4), U(3), U(0),
		    U(500), U(0), str("wakeup-fifo"), str("cpu0"),
		    str("finish_task_switch"), U(2));
		assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
		assert_int_equal(ssp_out_close(out, &e), SSP_OK);
		return;
	}
	put(SSP_SK_HOST_SYSCALL, 0, 10, U(7), U(1), U(1), U(0), U(0), U(10000),
	    U(SSP_SPAN_OPEN), U(0), str("cpu0"), str("entry_SYSCALL_64"));
	put(SSP_SPAN_T_EV0 + SSP_EV_FUNC, 0, 4, U(1), U(0), str("cpu0"),
	    str("entry_SYSCALL_64"));
	put(SSP_SK_HOST_MMIO, 2000, 8, U(7), U(1), U(2), U(1), U(0), U(1000),
	    U(0), U(0));
	put(SSP_SK_NIC_MMIO, 4000, 8, U(7), U(1), U(3), U(2), U(1), U(0),
	    U(0), U(0));
	put(SSP_SK_NIC_DMA, 5000, 8, U(7), U(1), U(4), U(3), U(1), U(2000),
	    U(0), U(0));
	put(SSP_SK_HOST_INTR, 12000, 9, U(7), U(1), U(5), U(1), U(0), U(1000),
	    U(0), U(0), str("pci<0>"));
	put(SSP_SK_NIC_RX, 20000, 10, U(7), U(0x20), U(0x20), U(0), U(1), U(0),
	    U(SSP_SPAN_ORPHAN), str("net.device"), U(0), U(98));
	put(SSP_SPAN_T_LINK, 0, 5, U(0x20), U(7), U(1), U(1), str("rx"));
	if (interleave) {	/* trace 1 again: a DMA [14000, 15000] */
		put(SSP_SK_HOST_DMA, 14000, 10, U(7), U(1), U(0x21), U(1), U(0),
		    U(1000), U(0), U(0), U(0), U(0));
		put(SSP_SK_NIC_MMIO, 30000, 8, U(7), U(0x22), U(0x22), U(0),
		    U(1), U(5), U(0), U(0));
		put(SSP_SK_HOST_MMIO, 14500, 8, U(7), U(1), U(0x23), U(1), U(0),
		    U(100), U(0), U(0));
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(out, &e), SSP_OK);
}

/* Load the stream: both passes. */
static struct ssp_html *
load(const struct ssp_html_opts *o)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_html *h;

	write_stream();
	assert_int_equal(ssp_in_open(&in, path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_html_load(&h, rr, o, &e), SSP_OK);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	assert_int_equal(ssp_in_open(&in, path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_html_detail(h, rr, &e), SSP_OK);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	unlink(path);
	return h;
}

/* Trace aggregates through the sort's temporary file (one live trace at a
 * time, so every span of an interleaved trace is a part of its own) give
 * the same data as all in memory, with every kind of selection. */
static void
test_spill(void **state)
{
	struct ssp_html_opts o = { .tool = "t" };
	struct ssp_buf a = SSP_BUF_INIT, b = SSP_BUF_INIT;
	struct ssp_html *h;
	static const struct { int all, events; uint32_t slowest, sample;
	    uint64_t max; } c[] = {
		{ 1, 1, 0, 0, 0 }, { 0, 1, 1, 0, 0 }, { 0, 0, 1, 1, 0 },
		{ 0, 1, 0, 1, 3 }, { -1, 1, 5, 5, 0 },
	};
	size_t i;

	(void)state;
	interleave = 1;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		o.all = c[i].all;
		o.events = c[i].events;
		o.slowest = c[i].slowest;
		o.sample = c[i].sample;
		o.max_spans = c[i].max;
		o.live_traces = 0;
		h = load(&o);
		assert_int_equal(ssp_html_stats(h)->spilled, 0);
		assert_int_equal(ssp_html_json(h, &a, &e), SSP_OK);
		ssp_html_free(h);
		o.live_traces = 1;
		h = load(&o);
		/* trace 1 in three parts, 0x20 and 0x22 in one each */
		assert_int_equal(ssp_html_stats(h)->spilled, 5);
		assert_int_equal(ssp_html_json(h, &b, &e), SSP_OK);
		ssp_html_free(h);
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.p, b.p, a.len);
		ssp_buf_reset(&a);
		ssp_buf_reset(&b);
	}
	interleave = 0;
	ssp_buf_free(&a);
	ssp_buf_free(&b);
}

/* The raw JSON text at a two-level path. */
static void
member(const struct ssp_buf *b, const char *a, const char *bkey,
    const char *want)
{
	const char *const p[] = { a, bkey };
	const char *v;
	size_t n;

	assert_int_equal(ssp_strfmt_json_find((const char *)b->p, b->len, p,
	    bkey ? 2 : 1, &v, &n), 1);
	if (n != strlen(want) || memcmp(v, want, n) != 0)
		fail_msg("%s.%s: got %.*s, want %s", a, bkey ? bkey : "", (int)n,
		    v, want);
}

static void
test_split(void **state)
{
	struct ssp_html_opts o = { .all = 1, .events = 1, .tool = "t" };
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_html *h;
	const struct ssp_html_stats *st;

	(void)state;
	h = load(&o);
	assert_int_equal(ssp_html_json(h, &b, &e), SSP_OK);
	st = ssp_html_stats(h);
	assert_int_equal(st->spans, 6);
	assert_int_equal(st->traces, 2);
	assert_int_equal(st->links, 1);
	assert_int_equal(st->events, 1);
	assert_int_equal(st->orphans, 1);
	assert_int_equal(st->open, 1);
	assert_int_equal(st->unattached, 0);
	member(&b, "traces", "start", "[0,20000]");
	member(&b, "traces", "dur", "[13000,0]");
	member(&b, "traces", "spans", "[5,1]");
	/* busy: [0,10000] and [12000,13000]; idle the 2000 ps between */
	member(&b, "traces", "busy", "[11000,0]");
	/* per stream: client 3 spans 11000 ps, client-nic 2 spans 2000 ps */
	member(&b, "traces", "streams", "[[0,3,11000,1,2,2000],[1,1,0]]");
	member(&b, "traces", "root_kind", "[0,9]");
	member(&b, "traces", "detail", "[0,1]");
	member(&b, "kinds", NULL, "[\"host.syscall\",\"host.mmio\","
	    "\"host.dma\",\"host.msix\",\"host.pci\",\"host.intr\",\"nic.mmio\","
	    "\"nic.dma\",\"nic.tx\",\"nic.rx\",\"nic.msix\",\"net.device\","
	    "\"host.irq\",\"host.softirq\",\"host.resume\",\"host.app\"]");
	/* lanes: the syscall's CPU has one of its own */
	member(&b, "lanes", NULL, "[[0,\"cpu0\"],[0,\"\"],[1,\"\"]]");
	member(&b, "counts", "detail_spans", "6");
	member(&b, "counts", "listed_traces", "2");
	/* latency: 13000 ps is bucket (13 - 7) * 128 + (13000 >> 6) = 971,
	 * [12992, 13056); 0 is exact */
	member(&b, "latency", "groups", "[{\"root_kind\":0,\"root_stream\":0,"
	    "\"net\":false,\"traces\":1,\"min\":13000,\"max\":13000,"
	    "\"buckets\":[971,1]},{\"root_kind\":9,\"root_stream\":1,"
	    "\"net\":false,\"traces\":1,\"min\":0,\"max\":0,"
	    "\"buckets\":[0,1]}]");
	/* density: 0 .. 20000 ps in at most 2000 bins of a power of two:
	 * 16 ps; the syscall's lane is busy for all of bin 0 */
	member(&b, "density", "bin_ps", "16");
	member(&b, "density", "origin", "0");
	member(&b, "density", "bins", "1251");
	/* the second trace: the orphan with its cause and link */
	assert_non_null(strstr((const char *)b.p, "[\"20\",-1,9,1,2,20000,0,1,"
	    "\"net.device\",{\"port\":0,\"len\":98},[[\"0000000000000007"
	    "0000000000000001\",\"1\",\"rx\"]],[]]"));
	/* the syscall's member event, its attributes escaped */
	assert_non_null(strstr((const char *)b.p, "[[0,\"func\",{\"cpu\":"
	    "\"cpu0\",\"sym\":\"entry_SYSCALL_64\"}]]"));
	assert_non_null(strstr((const char *)b.p, "\"comp\":\"pci<0>\""));
	ssp_buf_free(&b);
	ssp_html_free(h);
}

static void
test_selection(void **state)
{
	struct ssp_html_opts o = { .all = 0, .slowest = 1, .sample = 0,
	    .events = 0, .tool = "t" };
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_html *h;

	(void)state;
	h = load(&o);
	assert_int_equal(ssp_html_json(h, &b, &e), SSP_OK);
	/* only the slowest is listed */
	member(&b, "traces", "detail", "[0]");
	member(&b, "traces", "dur", "[13000]");
	member(&b, "counts", "listed_traces", "1");
	member(&b, "counts", "traces", "2");
	member(&b, "counts", "detail_traces", "1");
	member(&b, "counts", "omitted_events", "1");
	member(&b, "selection", NULL, "\"slowest:1,sample:0\"");
	/* the event left out: minus its count */
	assert_non_null(strstr((const char *)b.p,
	    "\"driver_rx\":false},[],-1]"));
	ssp_buf_free(&b);
	ssp_html_free(h);

	/* a cap of 3 spans: trace 1 (5 spans) does not fit, the sample does */
	o.sample = 1;
	o.max_spans = 3;
	h = load(&o);
	assert_int_equal(ssp_html_json(h, &b, &e), SSP_OK);
	member(&b, "traces", "detail", "[-1,0]");
	member(&b, "counts", "detail_spans", "1");
	ssp_buf_free(&b);
	ssp_html_free(h);
}

static void
test_page(void **state)
{
	struct ssp_html_opts o = { .all = -1, .events = 1, .tool = "t",
	    .source = "a<b>&c" };
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_html *h;
	const char *p;

	(void)state;
	h = load(&o);
	assert_int_equal(ssp_html_page(h, &b, &e), SSP_OK);
	ssp_buf_putc(&b, '\0');
	p = (const char *)b.p;
	assert_int_equal(ssp_html_stats(h)->page_bytes, b.len - 1);
	/* no marker left, the source escaped, the viewer inlined */
	assert_null(strstr(p, "@DATA@"));
	assert_null(strstr(p, "/*@JS@*/"));
	assert_null(strstr(p, "/*@CSS@*/"));
	assert_non_null(strstr(p, "<title>simspan: a&lt;b&gt;&amp;c</title>"));
	assert_non_null(strstr(p, "DecompressionStream('gzip')"));
	assert_non_null(strstr(p, "Content-Security-Policy"));
	/* the policy names the hashes of the inline script and style (the
	 * build made them from these texts and checked them against what it
	 * compiled in: scripts/csphash.sh), which the page inlines unchanged,
	 * and allows no inline code by other means, no form, no base */
	{
		char want[80];
		const char *q;

		snprintf(want, sizeof(want), "script-src %s;",
		    ssp_html_viewer_js_csp);
		assert_non_null(strstr(p, want));
		snprintf(want, sizeof(want), "style-src %s;",
		    ssp_html_viewer_css_csp);
		assert_non_null(strstr(p, want));
		assert_int_equal(strncmp(ssp_html_viewer_js_csp, "'sha256-", 8), 0);
		assert_int_equal(ssp_html_viewer_js_csp_len, 8 + 44 + 1);
		assert_int_equal(ssp_html_viewer_css_csp_len, 8 + 44 + 1);
		assert_non_null(q = strstr(p, "<script>"));
		assert_memory_equal(q + 8, ssp_html_viewer_js,
		    ssp_html_viewer_js_len);
		assert_int_equal(strncmp(q + 8 + ssp_html_viewer_js_len,
		    "</script>", 9), 0);
		assert_non_null(q = strstr(p, "<style>"));
		assert_memory_equal(q + 7, ssp_html_viewer_css,
		    ssp_html_viewer_css_len);
		assert_int_equal(strncmp(q + 7 + ssp_html_viewer_css_len,
		    "</style>", 8), 0);
	}
	assert_null(strstr(p, "unsafe-inline"));
	assert_non_null(strstr(p, "form-action 'none'"));
	assert_non_null(strstr(p, "base-uri 'none'"));
	/* gzip's magic 1f 8b 08, base64 "H4sI" */
	assert_non_null(strstr(p, "type=\"application/octet-stream\">H4sI"));
	ssp_buf_free(&b);
	ssp_html_free(h);
}

/* Kernel context spans: hardirqs and softirqs get a lane per CPU, a
 * resume runs on its syscall's CPU lane. */
static void
test_kctx_lanes(void **state)
{
	struct ssp_html_opts o = { .all = 1, .events = 1, .tool = "t" };
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_html *h;

	(void)state;
	kctx_stream = 1;
	h = load(&o);
	kctx_stream = 0;
	assert_int_equal(ssp_html_json(h, &b, &e), SSP_OK);
	member(&b, "lanes", NULL,
	    "[[0,\"cpu0\"],[0,\"cpu0 irq\"],[0,\"cpu0 softirq\"]]");
	assert_int_equal(ssp_html_stats(h)->spans, 4);
	ssp_buf_free(&b);
	ssp_html_free(h);
}

/* --traces: all, or slowest and sample (either left out: 0). */
static void
test_traces_parse(void **state)
{
	struct ssp_html_opts o = { .all = -1, .slowest = 7, .sample = 9 };

	(void)state;
	assert_int_equal(ssp_html_traces_parse("all", &o), 0);
	assert_int_equal(o.all, 1);
	assert_int_equal(ssp_html_traces_parse("slowest:5,sample:3", &o), 0);
	assert_int_equal(o.all, 0);
	assert_int_equal(o.slowest, 5);
	assert_int_equal(o.sample, 3);
	assert_int_equal(ssp_html_traces_parse("sample:4294967295", &o), 0);
	assert_int_equal(o.slowest, 0);
	assert_int_equal(o.sample, UINT32_MAX);
	assert_int_equal(ssp_html_traces_parse("sample:4294967296", &o), -1);
	assert_int_equal(ssp_html_traces_parse("slowest", &o), -1);
	assert_int_equal(ssp_html_traces_parse("fastest:3", &o), -1);
	assert_int_equal(ssp_html_traces_parse("slowest:-1", &o), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_spill),
		cmocka_unit_test(test_kctx_lanes),
		cmocka_unit_test(test_traces_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
