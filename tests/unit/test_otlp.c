/* Spans to OTLP: time and id conversion, SpanKind mapping, and whole
 * requests (JSON compared byte for byte, protobuf walked field by field)
 * built from a span stream written through the real writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/strfmt.h"
#include "io/in.h"
#include "io/out.h"
#include "sink/otlp.h"
#include "sink/pb.h"
#include "stream/span.h"
#include "tests/unit/rec_helpers.h"

static void
test_ps_to_ns(void **state)
{
	(void)state;
	assert_int_equal(ssp_otlp_ps_to_ns(0, 0), 0);
	assert_int_equal(ssp_otlp_ps_to_ns(999, 0), 0);
	assert_int_equal(ssp_otlp_ps_to_ns(1000, 0), 1);
	assert_int_equal(ssp_otlp_ps_to_ns(2000000000001, 0), 2000000000);
	/* --epoch adds nanoseconds */
	assert_int_equal(ssp_otlp_ps_to_ns(1500, 1700000000000000000),
	    1700000000000000001);
	/* floor, also for negative simulated times */
	assert_int_equal(ssp_otlp_ps_to_ns(-1, 10), 9);
	assert_int_equal(ssp_otlp_ps_to_ns(-1000, 10), 9);
	assert_int_equal(ssp_otlp_ps_to_ns(-1001, 10), 8);
	/* clamped to [0, INT64_MAX] */
	assert_int_equal(ssp_otlp_ps_to_ns(-5000, 0), 0);
	assert_int_equal(ssp_otlp_ps_to_ns(0, -1), 0);
	assert_int_equal(ssp_otlp_ps_to_ns(INT64_MAX, INT64_MAX), INT64_MAX);
	assert_int_equal(ssp_otlp_ps_to_ns(INT64_MIN, INT64_MIN), 0);
	assert_int_equal(ssp_otlp_ps_to_ns(INT64_MAX, 0), INT64_MAX / 1000);
}

static void
test_hex_ids(void **state)
{
	char t[33] = { 0 }, s[17] = { 0 };

	(void)state;
	ssp_otlp_trace_hex(t, 0x0102030405060708ull, 0x090a0b0c0d0e0f10ull);
	assert_string_equal(t, "0102030405060708090a0b0c0d0e0f10");
	ssp_otlp_trace_hex(t, 0, 1);
	assert_string_equal(t, "00000000000000000000000000000001");
	ssp_otlp_span_hex(s, 0xdeadbeefull);
	assert_string_equal(s, "00000000deadbeef");
	ssp_otlp_span_hex(s, UINT64_MAX);
	assert_string_equal(s, "ffffffffffffffff");
	ssp_otlp_span_hex(s, 0xa5ull << 56);
	assert_string_equal(s, "a500000000000000");
}

static void
test_span_kinds(void **state)
{
	(void)state;
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_HOST_SYSCALL, -1), SSP_OTLP_KIND_INTERNAL);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_HOST_MMIO, 0), SSP_OTLP_KIND_CLIENT);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_HOST_MMIO, -1), SSP_OTLP_KIND_CLIENT);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_HOST_MMIO, 1), SSP_OTLP_KIND_PRODUCER);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_NIC_MMIO, 0), SSP_OTLP_KIND_SERVER);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_NIC_MMIO, 1), SSP_OTLP_KIND_CONSUMER);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_NIC_DMA, -1), SSP_OTLP_KIND_CLIENT);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_HOST_DMA, -1), SSP_OTLP_KIND_SERVER);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_NIC_TX, -1), SSP_OTLP_KIND_PRODUCER);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_NIC_RX, -1), SSP_OTLP_KIND_CONSUMER);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_NIC_MSIX, -1), SSP_OTLP_KIND_PRODUCER);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_HOST_MSIX, -1), SSP_OTLP_KIND_CONSUMER);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_HOST_PCI, -1), SSP_OTLP_KIND_INTERNAL);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_HOST_INTR, -1), SSP_OTLP_KIND_INTERNAL);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_NET_DEVICE, -1), SSP_OTLP_KIND_INTERNAL);
	assert_int_equal(ssp_otlp_kind_of(SSP_SK_NKINDS, -1), SSP_OTLP_KIND_INTERNAL);
}

/* --- whole requests -------------------------------------------------------- */

struct fx {
	char path[64];
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_otlp *o;
};



/* Two streams; a posted MMIO write with its event, an interrupt span whose
 * event comes before it, an orphan NIC rx with a link, a span with a zero
 * id, and an event whose span never comes. */
static void
write_stream(const char *path)
{
	static const struct ssp_span_source src[] = {
		{ "client", 0, SSP_SIM_GEM5 }, { "client-nic", 0, SSP_SIM_NICBM },
	};
	struct ssp_out *out;

	assert_int_equal(ssp_out_open(&out, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_span_writer_open(&w, out, "test", src, 2, 1, &e),
	    SSP_OK);
	/* host.mmio: trace 1/2, span 0x10, 1.5 ns .. 4 ns, bar absent */
	put(SSP_SK_HOST_MMIO, 1500, 16, U(1), U(2), U(0x10), U(0), U(0), U(2500),
	    U(0), U(0), str("pci\"0"), U(1), U(0xfe), U(4), U(7), U(-1),
	    U(0x10), U(1));
	put(SSP_SPAN_T_EV0 + SSP_EV_MMIO_WR, 1500, 9, U(0x10), U(0),
	    str("pci\"0"), U(0xfe), U(4), U(7), U(-1), U(0x10), U(1));
	/* an event of span 0x30 before the span itself */
	put(SSP_SPAN_T_EV0 + SSP_EV_POST_INT, 9000, 6, U(0x30), U(0),
	    str("pci\"0"), U(0), U(4), U(0));
	/* orphan nic.rx at a negative time, then its link */
	put(SSP_SK_NIC_RX, -500, 10, U(0), U(0x20), U(0x20), U(0), U(1), U(0),
	    U(SSP_SPAN_ORPHAN), str("net.device"), U(0), U(98));
	put(SSP_SPAN_T_LINK, -500, 5, U(0x20), U(1), U(2), U(0x10),
	    str("nic.rx"));
	put(SSP_SK_HOST_INTR, 8000, 9, U(1), U(2), U(0x30), U(0x10), U(0),
	    U(2000), U(0), U(0), str("pci\"0"));
	/* dropped: zero span id; unmatched: event of span 0x99 */
	put(SSP_SK_HOST_INTR, 8000, 9, U(1), U(2), U(0), U(0x10), U(0), U(0),
	    U(0), U(0), U(0));
	put(SSP_SPAN_T_EV0 + SSP_EV_CLEAR_INT, 9500, 6, U(0x99), U(0), U(0),
	    U(0), U(4), U(0));
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(out, &e), SSP_OK);
}

/* Open the stream f->path for reading and an exporter on it. */
static void
fx_read(struct fx *f, const struct ssp_otlp_opts *oo)
{
	assert_int_equal(ssp_in_open(&f->in, f->path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&f->rr, f->in, &e), SSP_OK);
	assert_int_equal(ssp_otlp_open(&f->o, oo, f->rr, &e), SSP_OK);
}

static void
fx_open(struct fx *f, enum ssp_otlp_proto proto, int events, size_t batch)
{
	struct ssp_otlp_opts oo = { .proto = proto, .events = events,
	    .epoch_ns = 1000000, .batch = batch, .scope_version = "9.9" };

	snprintf(f->path, sizeof(f->path), "/tmp/ssp-test-otlp-%d", (int)getpid());
	write_stream(f->path);
	fx_read(f, &oo);
}

static void
fx_close(struct fx *f)
{
	ssp_otlp_close(f->o);
	ssp_rec_rd_close(f->rr);
	ssp_in_close(f->in);
	unlink(f->path);
}

/* Feed everything; returns the encoded request(s) of all batches. */
static size_t
run(struct fx *f, struct ssp_buf *b, size_t *batches)
{
	struct ssp_rec r;
	size_t n, total = 0;
	int got;

	*batches = 0;
	while ((got = ssp_rec_rd_next(f->rr, &r, &e)) == 1) {
		if (ssp_otlp_full(f->o, &r)) {
			assert_int_equal(ssp_otlp_encode(f->o, b, &n, &e), SSP_OK);
			ssp_buf_putc(b, '\n');
			total += n;
			(*batches)++;
		}
		assert_int_equal(ssp_otlp_add(f->o, &r, &e), SSP_OK);
	}
	assert_int_equal(got, 0);
	n = 0;
	if (ssp_otlp_nspans(f->o) > 0) {	/* as span2otlp does */
		assert_int_equal(ssp_otlp_encode(f->o, b, &n, &e), SSP_OK);
		ssp_buf_putc(b, '\n');
		(*batches)++;
	}
	ssp_otlp_finish(f->o);
	return total + n;
}

#define RES(name, sim, kind) "{\"resource\":{\"attributes\":[" \
	"{\"key\":\"service.name\",\"value\":{\"stringValue\":\"" name "\"}}," \
	"{\"key\":\"simspan.simulator\",\"value\":{\"stringValue\":\"" sim "\"}}," \
	"{\"key\":\"simspan.stream_kind\",\"value\":{\"stringValue\":\"" kind "\"}}" \
	"]},\"scopeSpans\":[{\"scope\":{\"name\":\"simspan\",\"version\":\"9.9\"}," \
	"\"spans\":["
#define KV(k, t, v) "{\"key\":\"simspan." k "\",\"value\":{\"" t "\":" v "}}"

static const char golden[] = "{\"resourceSpans\":["
    RES("client", "gem5", "host")
    "{\"traceId\":\"00000000000000010000000000000002\",\"spanId\":"
    "\"0000000000000010\",\"name\":\"host.mmio\",\"kind\":4,"
    "\"startTimeUnixNano\":\"1000001\",\"endTimeUnixNano\":\"1000004\","
    "\"attributes\":["
    KV("start_ps", "intValue", "\"1500\"") ","
    KV("end_ps", "intValue", "\"4000\"") ","
    KV("comp", "stringValue", "\"pci\\\"0\"") ","
    KV("write", "boolValue", "true") ","
    KV("addr", "stringValue", "\"0xfe\"") ","
    KV("size", "intValue", "\"4\"") ","
    KV("id", "intValue", "\"7\"") ","
    KV("offs", "stringValue", "\"0x10\"") ","
    KV("posted", "intValue", "\"1\"") "],"
    "\"events\":[{\"timeUnixNano\":\"1000001\",\"name\":\"mmio_wr\","
    "\"attributes\":["
    KV("ts_ps", "intValue", "\"1500\"") ","
    KV("comp", "stringValue", "\"pci\\\"0\"") ","
    KV("addr", "stringValue", "\"0xfe\"") ","
    KV("size", "intValue", "\"4\"") ","
    KV("id", "intValue", "\"7\"") ","
    KV("offs", "stringValue", "\"0x10\"") ","
    KV("posted", "intValue", "\"1\"") "]}]},"
    "{\"traceId\":\"00000000000000010000000000000002\",\"spanId\":"
    "\"0000000000000030\",\"parentSpanId\":\"0000000000000010\","
    "\"name\":\"host.intr\",\"kind\":1,"
    "\"startTimeUnixNano\":\"1000008\",\"endTimeUnixNano\":\"1000010\","
    "\"attributes\":["
    KV("start_ps", "intValue", "\"8000\"") ","
    KV("end_ps", "intValue", "\"10000\"") ","
    KV("comp", "stringValue", "\"pci\\\"0\"") "],"
    "\"events\":[{\"timeUnixNano\":\"1000009\",\"name\":\"post_int\","
    "\"attributes\":["
    KV("ts_ps", "intValue", "\"9000\"") ","
    KV("comp", "stringValue", "\"pci\\\"0\"") ","
    KV("bus", "intValue", "\"0\"") ","
    KV("dev", "intValue", "\"4\"") ","
    KV("func", "intValue", "\"0\"") "]}]}"
    "]}]},"
    RES("client-nic", "nicbm", "nic")
    "{\"traceId\":\"00000000000000000000000000000020\",\"spanId\":"
    "\"0000000000000020\",\"name\":\"nic.rx\",\"kind\":5,"
    "\"startTimeUnixNano\":\"999999\",\"endTimeUnixNano\":\"999999\","
    "\"attributes\":["
    KV("start_ps", "intValue", "\"-500\"") ","
    KV("end_ps", "intValue", "\"-500\"") ","
    KV("port", "intValue", "\"0\"") ","
    KV("len", "intValue", "\"98\"") ","
    KV("orphan", "boolValue", "true") ","
    KV("cause", "stringValue", "\"net.device\"") "],"
    "\"links\":[{\"traceId\":\"00000000000000010000000000000002\","
    "\"spanId\":\"0000000000000010\",\"attributes\":["
    KV("link_kind", "stringValue", "\"nic.rx\"") "]}],"
    "\"status\":{\"message\":\"orphan: expected parent is missing "
    "(net.device)\",\"code\":2}}"
    "]}]}"
    "]}\n";

static void
test_json_request(void **state)
{
	struct ssp_buf b = SSP_BUF_INIT;
	const struct ssp_otlp_stats *st;
	struct fx f;
	size_t batches;

	(void)state;
	fx_open(&f, SSP_OTLP_JSON, -1, 100);
	assert_int_equal(ssp_otlp_events_on(f.o), 1);	/* the stream has them */
	assert_int_equal(run(&f, &b, &batches), 3);
	assert_int_equal(batches, 1);
	if (b.len != strlen(golden) || memcmp(b.p, golden, b.len) != 0) {
		size_t i = 0;

		while (i < b.len && golden[i] == (char)b.p[i])
			i++;
		fail_msg("JSON differs at byte %zu:\n got: %.80s\nwant: %.80s", i,
		    (const char *)b.p + i, golden + i);
	}
	/* every record is accounted for */
	st = ssp_otlp_stats(f.o);
	assert_int_equal(st->spans, 4);
	assert_int_equal(st->spans_out, 3);
	assert_int_equal(st->spans_bad_id, 1);
	assert_int_equal(st->events, 3);
	assert_int_equal(st->events_out, 2);
	assert_int_equal(st->events_unmatched, 1);
	assert_true(st->unmatched_span == 0x99);	/* named, with its count */
	assert_int_equal(st->unmatched_span_events, 1);
	assert_int_equal(st->unmatched_span_links, 0);
	assert_int_equal(st->links, 1);
	assert_int_equal(st->links_out, 1);
	assert_int_equal(st->batches, 1);
	fx_close(&f);
	ssp_buf_free(&b);
}

static void
test_no_events_and_small_batches(void **state)
{
	struct ssp_buf b = SSP_BUF_INIT;
	const struct ssp_otlp_stats *st;
	struct fx f;
	size_t batches;

	(void)state;
	fx_open(&f, SSP_OTLP_JSON, 0, 1);
	assert_int_equal(run(&f, &b, &batches), 3);
	/* one span per request; the link follows its span into the same one */
	assert_int_equal(batches, 3);
	ssp_buf_putc(&b, '\0');
	assert_null(strstr((const char *)b.p, "\"events\""));
	assert_non_null(strstr((const char *)b.p, "\"links\""));
	st = ssp_otlp_stats(f.o);
	assert_int_equal(st->events_off, 3);
	assert_int_equal(st->events_out, 0);
	assert_int_equal(st->links_out, 1);
	assert_int_equal(st->batches, 3);
	fx_close(&f);
	ssp_buf_free(&b);
}

/* Walk one message: count fields by number, remember LEN payloads. */
struct walk {
	unsigned count[20];
	struct ssp_pb_field last[20];
	struct ssp_pb_field first[20];
};

static void
walk(const uint8_t *p, size_t n, struct walk *wk)
{
	struct ssp_pb_rd r = { p, p + n };
	struct ssp_pb_field f;
	int k;

	memset(wk, 0, sizeof(*wk));
	while ((k = ssp_pb_next(&r, &f)) == 1) {
		assert_true(f.num < 20);
		if (wk->count[f.num]++ == 0)
			wk->first[f.num] = f;
		wk->last[f.num] = f;
	}
	assert_int_equal(k, 0);
}

/* The one request in b (run()'s output, its newline dropped): a reader over
 * its first ScopeSpans message, which must hold nspans spans. */
static struct ssp_pb_rd
scope_spans(struct ssp_buf *b, unsigned nspans)
{
	struct walk req, rs, ss;

	b->len--;	/* run() appended a newline */
	walk(b->p, b->len, &req);
	walk(req.first[1].p, req.first[1].n, &rs);
	walk(rs.first[2].p, rs.first[2].n, &ss);
	assert_int_equal(ss.count[2], nspans);
	return (struct ssp_pb_rd){ rs.first[2].p, rs.first[2].p +
	    rs.first[2].n };
}

static void
test_protobuf_request(void **state)
{
	static const uint8_t trace[16] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
	    0, 0, 0, 2 };
	static const uint8_t sid[8] = { 0, 0, 0, 0, 0, 0, 0, 0x10 };
	struct ssp_buf b = SSP_BUF_INIT;
	struct walk req, rs, ss, sp, kv, av, st;
	struct fx f;
	size_t batches;

	(void)state;
	fx_open(&f, SSP_OTLP_PROTOBUF, -1, 100);
	assert_int_equal(run(&f, &b, &batches), 3);
	b.len--;	/* run() appended a newline */
	walk(b.p, b.len, &req);
	assert_int_equal(req.count[1], 2);	/* two ResourceSpans */
	walk(req.first[1].p, req.first[1].n, &rs);
	assert_int_equal(rs.count[1], 1);	/* resource */
	assert_int_equal(rs.count[2], 1);	/* one ScopeSpans */
	walk(rs.first[2].p, rs.first[2].n, &ss);
	assert_int_equal(ss.count[1], 1);	/* scope */
	assert_int_equal(ss.count[2], 2);	/* two spans */
	walk(ss.first[2].p, ss.first[2].n, &sp);
	assert_int_equal(sp.first[1].n, 16);
	assert_memory_equal(sp.first[1].p, trace, 16);
	assert_int_equal(sp.first[2].n, 8);
	assert_memory_equal(sp.first[2].p, sid, 8);
	assert_int_equal(sp.count[4], 0);	/* root: no parent */
	assert_int_equal(sp.first[5].n, 9);
	assert_memory_equal(sp.first[5].p, "host.mmio", 9);
	assert_int_equal(sp.first[6].wt, SSP_PB_VARINT);
	assert_int_equal(sp.first[6].v, SSP_OTLP_KIND_PRODUCER);
	assert_int_equal(sp.first[7].wt, SSP_PB_I64);
	assert_int_equal(sp.first[7].v, 1000001);
	assert_int_equal(sp.first[8].v, 1000004);
	assert_int_equal(sp.count[9], 9);	/* attributes, as in JSON */
	assert_int_equal(sp.count[11], 1);	/* one event */
	assert_int_equal(sp.count[13], 0);
	assert_int_equal(sp.count[15], 0);	/* no status */
	/* first attribute: simspan.start_ps = int 1500 */
	walk(sp.first[9].p, sp.first[9].n, &kv);
	assert_int_equal(kv.first[1].n, 16);
	assert_memory_equal(kv.first[1].p, "simspan.start_ps", 16);
	walk(kv.first[2].p, kv.first[2].n, &av);
	assert_int_equal(av.count[3], 1);
	assert_int_equal(av.first[3].v, 1500);
	/* the orphan in the second resource: status ERROR with a message */
	walk(req.last[1].p, req.last[1].n, &rs);
	walk(rs.first[2].p, rs.first[2].n, &ss);
	walk(ss.first[2].p, ss.first[2].n, &sp);
	assert_int_equal(sp.first[6].v, SSP_OTLP_KIND_CONSUMER);
	assert_int_equal(sp.first[7].v, 999999);
	assert_int_equal(sp.count[13], 1);	/* the link */
	walk(sp.first[15].p, sp.first[15].n, &st);
	assert_int_equal(st.first[3].v, 2);	/* STATUS_CODE_ERROR */
	assert_int_equal(st.first[2].n, strlen("orphan: expected parent is "
	    "missing (net.device)"));
	/* the negative int64 start_ps takes ten bytes */
	walk(sp.first[9].p, sp.first[9].n, &kv);
	walk(kv.first[2].p, kv.first[2].n, &av);
	assert_int_equal((int64_t)av.first[3].v, -500);
	fx_close(&f);
	ssp_buf_free(&b);
}

/*
 * Strings of the stream are checked and escaped once per string id and
 * reused: a string that is not UTF-8, used by two spans, comes out
 * repaired the same way both times, in JSON and in protobuf.  Without an
 * epoch the times in ns are cut from those in ps: checked against
 * ssp_otlp_ps_to_ns() at and around the edges (below 1 ns, negative).
 */
static const int64_t ts_edge[] = { 1500, 2000000, 999, 1000, -500 };
#define NEDGE (sizeof(ts_edge) / sizeof(ts_edge[0]))
#define BADSTR "dev\xff\x80\"x"

static void
fx_open_strings(struct fx *f, enum ssp_otlp_proto proto)
{
	static const struct ssp_span_source src[] = {
		{ "client", 0, SSP_SIM_GEM5 },
	};
	struct ssp_otlp_opts oo = { .proto = proto, .events = 0,
	    .batch = 100, .scope_version = "9.9" };
	struct ssp_out *out;
	size_t i;

	snprintf(f->path, sizeof(f->path), "/tmp/ssp-test-otlp-s%d", (int)getpid());
	assert_int_equal(ssp_out_open(&out, f->path, 0, &e), SSP_OK);
	assert_int_equal(ssp_span_writer_open(&w, out, "test", src, 1, 1, &e),
	    SSP_OK);
	for (i = 0; i < NEDGE; i++)
		put(SSP_SK_HOST_INTR, ts_edge[i], 9, U(1), U(2), U(0x40 + i),
		    U(0), U(0), U(1000 * i + 1), U(0), U(0), str(BADSTR));
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(out, &e), SSP_OK);
	fx_read(f, &oo);
}

static void
test_strings_and_times(void **state)
{
	struct ssp_buf b = SSP_BUF_INIT, want = SSP_BUF_INIT, fixed = SSP_BUF_INIT;
	struct walk sp, kv, av;
	char pat[320];
	const char *p;
	struct fx f;
	size_t batches, i, n;

	(void)state;
	/* JSON: the escaped, repaired string after each comp key */
	fx_open_strings(&f, SSP_OTLP_JSON);
	assert_int_equal(run(&f, &b, &batches), NEDGE);
	ssp_buf_putc(&b, '\0');
	ssp_buf_lit(&want, KV("comp", "stringValue", ""));
	want.len -= 2;		/* up to the value */
	ssp_strfmt_json_str(&want, BADSTR, strlen(BADSTR));
	ssp_buf_putc(&want, '\0');
	for (p = (const char *)b.p, n = 0; (p = strstr(p, (const char *)want.p)) != NULL;
	    p++)
		n++;
	assert_int_equal(n, NEDGE);
	for (i = 0; i < NEDGE; i++) {
		int64_t end = ts_edge[i] + (int64_t)(1000 * i + 1);

		snprintf(pat, sizeof(pat), "\"startTimeUnixNano\":\"%llu\","
		    "\"endTimeUnixNano\":\"%llu\",\"attributes\":[" KV("start_ps",
		    "intValue", "\"%lld\"") "," KV("end_ps", "intValue", "\"%lld\""),
		    (unsigned long long)ssp_otlp_ps_to_ns(ts_edge[i], 0),
		    (unsigned long long)ssp_otlp_ps_to_ns(end, 0),
		    (long long)ts_edge[i], (long long)end);
		if (strstr((const char *)b.p, pat) == NULL)
			fail_msg("no %s", pat);
	}
	fx_close(&f);

	/* protobuf: the repaired bytes in each span's comp attribute */
	ssp_strfmt_utf8_repair(&fixed, BADSTR, strlen(BADSTR));
	ssp_buf_reset(&b);
	fx_open_strings(&f, SSP_OTLP_PROTOBUF);
	assert_int_equal(run(&f, &b, &batches), NEDGE);
	{
		struct ssp_pb_rd sr = scope_spans(&b, NEDGE);
		struct ssp_pb_field fl;

		n = 0;
		while (ssp_pb_next(&sr, &fl) == 1) {
			if (fl.num != 2)
				continue;
			walk(fl.p, fl.n, &sp);
			assert_int_equal(sp.first[7].v,
			    ssp_otlp_ps_to_ns(ts_edge[n], 0));
			assert_int_equal(sp.count[9], 3);
			walk(sp.last[9].p, sp.last[9].n, &kv);	/* comp */
			assert_memory_equal(kv.first[1].p, "simspan.comp", 12);
			walk(kv.first[2].p, kv.first[2].n, &av);
			assert_int_equal(av.first[1].n, fixed.len);
			assert_memory_equal(av.first[1].p, fixed.p, fixed.len);
			n++;
		}
		assert_int_equal(n, NEDGE);
	}
	fx_close(&f);
	ssp_buf_free(&b);
	ssp_buf_free(&want);
	ssp_buf_free(&fixed);
}

/* Syscalls: "host.syscall" and the call (the syscall); none without a
 * call; a bad call repaired (protobuf) or escaped (JSON); a long one cut
 * at 200 bytes. */
static void
fx_open_calls(struct fx *f, enum ssp_otlp_proto proto, const char *longcall)
{
	static const struct ssp_span_source src[] = {
		{ "client", 0, SSP_SIM_GEM5 },
	};
	struct ssp_otlp_opts oo = { .proto = proto, .events = 0,
	    .batch = 100, .scope_version = "9.9" };
	struct ssp_out *out;

	snprintf(f->path, sizeof(f->path), "/tmp/ssp-test-otlp-c%d", (int)getpid());
	assert_int_equal(ssp_out_open(&out, f->path, 0, &e), SSP_OK);
	assert_int_equal(ssp_span_writer_open(&w, out, "test", src, 1, 1, &e),
	    SSP_OK);
	put(SSP_SK_HOST_SYSCALL, 1000, 11, U(1), U(2), U(0x51), U(0), U(0),
	    U(10), U(0), U(0), str("cpu0"), str("entry_SYSCALL_64"),
	    str("sendto"));
	put(SSP_SK_HOST_SYSCALL, 2000, 11, U(1), U(2), U(0x52), U(0), U(0),
	    U(10), U(0), U(0), str("cpu0"), str("entry_SYSCALL_64"), U(0));
	put(SSP_SK_HOST_SYSCALL, 3000, 11, U(1), U(2), U(0x53), U(0), U(0),
	    U(10), U(0), U(0), str("cpu0"), str("entry_SYSCALL_64"),
	    str(BADSTR));
	put(SSP_SK_HOST_SYSCALL, 4000, 11, U(1), U(2), U(0x54), U(0), U(0),
	    U(10), U(0), U(0), str("cpu0"), str("entry_SYSCALL_64"),
	    str(longcall));
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(out, &e), SSP_OK);
	fx_read(f, &oo);
}

static void
test_syscall_names(void **state)
{
	struct ssp_buf b = SSP_BUF_INIT, want = SSP_BUF_INIT;
	char longcall[301], name[240];
	struct fx f;
	size_t batches, n;

	(void)state;
	memset(longcall, 'c', 300);
	longcall[300] = '\0';
	fx_open_calls(&f, SSP_OTLP_JSON, longcall);
	assert_int_equal(run(&f, &b, &batches), 4);
	ssp_buf_putc(&b, '\0');
	assert_non_null(strstr((const char *)b.p, "\"name\":\"host.syscall sendto\","));
	assert_non_null(strstr((const char *)b.p, "\"name\":\"host.syscall\","));
	ssp_buf_lit(&want, "\"name\":");
	ssp_strfmt_json_str(&want, "host.syscall " BADSTR,
	    strlen("host.syscall " BADSTR));
	ssp_buf_putc(&want, '\0');
	assert_non_null(strstr((const char *)b.p, (const char *)want.p));
	snprintf(name, sizeof(name), "\"name\":\"host.syscall %.200s\",",
	    longcall);
	assert_non_null(strstr((const char *)b.p, name));
	fx_close(&f);

	ssp_buf_reset(&b);
	ssp_buf_reset(&want);
	ssp_strfmt_utf8_repair(&want, "host.syscall " BADSTR,
	    strlen("host.syscall " BADSTR));
	fx_open_calls(&f, SSP_OTLP_PROTOBUF, longcall);
	assert_int_equal(run(&f, &b, &batches), 4);
	{
		struct ssp_pb_rd sr = scope_spans(&b, 4);
		struct ssp_pb_field fl;
		struct walk sp;

		n = 0;
		while (ssp_pb_next(&sr, &fl) == 1) {
			const struct ssp_pb_field *nm;

			if (fl.num != 2)
				continue;
			walk(fl.p, fl.n, &sp);
			assert_int_equal(sp.count[5], 1);	/* Span.name */
			nm = &sp.first[5];
			switch (n++) {
			case 0:
				assert_int_equal(nm->n, 19);
				assert_memory_equal(nm->p, "host.syscall sendto", 19);
				break;
			case 1:
				assert_int_equal(nm->n, 12);
				assert_memory_equal(nm->p, "host.syscall", 12);
				break;
			case 2:
				assert_int_equal(nm->n, want.len);
				assert_memory_equal(nm->p, want.p, want.len);
				break;
			default:
				assert_int_equal(nm->n, 213);
				assert_memory_equal(nm->p + 13, longcall, 200);
			}
		}
		assert_int_equal(n, 4);
	}
	fx_close(&f);
	ssp_buf_free(&b);
	ssp_buf_free(&want);
}

/*
 * KeyValues are written with one-byte lengths when key and value are
 * short (one fixed copy of the key) and in the general form otherwise:
 * string values of every length around those edges, under keys of 31,
 * 32 and 50 bytes (the copy is 32 bytes), and hex, int and bool values
 * under short and long keys, read back field by field.  Also the same
 * records read into the batch in place (ssp_otlp_slot) give the same
 * requests as records added as copies.
 */
#define EDGE_NF (SSP_SF_NCOMMON + 8)
static const struct ssp_rec_type edge_type = { "edge.kind", EDGE_NF, {
	{ "trace_hi", 'x' }, { "trace_lo", 'x' }, { "span", 'x' },
	{ "parent", 'x' }, { "stream", 'u' }, { "dur", 't' }, { "flags", 'u' },
	{ "cause", 's' },
	{ "s21_kkkkkkkkkkkkkkkkk", 's' }, { "s22_kkkkkkkkkkkkkkkkkk", 's' },
	{ "s40_kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", 's' },
	{ "x21_kkkkkkkkkkkkkkkkk", 'x' },
	{ "x40_kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", 'x' },
	{ "i22_kkkkkkkkkkkkkkkkkk", 'i' },
	{ "b40_kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", 'b' }, { "u", 'u' } } };
static const size_t edge_len[] = { 0, 1, 60, 70, 80, 85, 86, 87, 88, 89, 90,
    95, 100, 120, 125, 126, 127, 128, 129, 200, 300 };
#define NEDGELEN (sizeof(edge_len) / sizeof(edge_len[0]))
static const uint64_t edge_x[] = { 0, 1, 0xabc, UINT64_MAX };
static const int64_t edge_i[] = { -1, -2, 0, 127, 128, INT64_MIN };
static const uint64_t edge_u[] = { 0, 300, (uint64_t)INT64_MAX,
    (uint64_t)INT64_MAX + 1, UINT64_MAX };

static void
fx_open_edges(struct fx *f, enum ssp_otlp_proto proto, size_t batch)
{
	static const struct ssp_schema sch = { 1, &edge_type };
	static const struct ssp_meta meta[] = { { "producer", "test" },
	    { "time-unit", "ps" }, { "stream", "client gem5" } };
	struct ssp_otlp_opts oo = { .proto = proto, .events = 0,
	    .batch = batch, .scope_version = "9.9" };
	struct ssp_out *out;
	char v[301];
	size_t i;

	memset(v, 'a', sizeof(v) - 1);
	snprintf(f->path, sizeof(f->path), "/tmp/ssp-test-otlp-e%d", (int)getpid());
	assert_int_equal(ssp_out_open(&out, f->path, 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open_minor(&w, out, ssp_frame_magic_spans,
	    SSP_SPAN_MINOR, &sch, meta, 3, &e), SSP_OK);
	for (i = 0; i < NEDGELEN; i++) {
		uint64_t s;

		v[edge_len[i]] = '\0';
		s = edge_len[i] > 0 ? str(v) : 0;	/* 0: no string */
		v[edge_len[i]] = 'a';
		put(0, 1000 * (int64_t)i, EDGE_NF, U(1), U(2), U(0x50 + i), U(0),
		    U(0), U(10), U(0), U(0), s, s, s, U(edge_x[i % 4]),
		    U(edge_x[(i + 1) % 4]), U(edge_i[i % 6]), U(i % 2),
		    U(edge_u[i % 5]));
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(out, &e), SSP_OK);
	fx_read(f, &oo);
}

/* One attribute of span i, named simspan.<key>: its AnyValue checked. */
static void
check_edge_kv(const struct ssp_pb_field *attr, size_t i)
{
	struct walk kv, av;
	char want[64];
	const char *key;
	size_t k, n;

	walk(attr->p, attr->n, &kv);
	key = (const char *)kv.first[1].p + 8;
	n = kv.first[1].n - 8;
	walk(kv.first[2].p, kv.first[2].n, &av);
	for (k = SSP_SF_NCOMMON; k < EDGE_NF; k++)
		if (strlen(edge_type.f[k].name) == n &&
		    memcmp(edge_type.f[k].name, key, n) == 0)
			break;
	if (k == EDGE_NF) {	/* simspan.start_ps, end_ps */
		assert_true(n >= 3 && memcmp(key + n - 3, "_ps", 3) == 0);
		return;
	}
	switch (edge_type.f[k].enc) {
	case 's':
		assert_int_equal(av.first[1].n, edge_len[i]);
		for (n = 0; n < edge_len[i]; n++)
			assert_int_equal(av.first[1].p[n], 'a');
		break;
	case 'x':
		snprintf(want, sizeof(want), "0x%llx", (unsigned long long)
		    edge_x[(i + (k == SSP_SF_NCOMMON + 4)) % 4]);
		assert_int_equal(av.first[1].n, strlen(want));
		assert_memory_equal(av.first[1].p, want, strlen(want));
		break;
	case 'i':
		assert_int_equal(av.count[3], 1);
		assert_true((int64_t)av.first[3].v == edge_i[i % 6]);
		break;
	case 'b':
		assert_int_equal(av.count[2], 1);
		assert_int_equal(av.first[2].v, i % 2);
		break;
	default:
		if (edge_u[i % 5] > (uint64_t)INT64_MAX) {
			snprintf(want, sizeof(want), "%llu",
			    (unsigned long long)edge_u[i % 5]);
			assert_int_equal(av.first[1].n, strlen(want));
			assert_memory_equal(av.first[1].p, want, strlen(want));
		} else
			assert_true(av.first[3].v == edge_u[i % 5]);
	}
}

/* The records of f read into the batch in place, as span2otlp does. */
static size_t
run_slots(struct fx *f, struct ssp_buf *b, size_t *batches)
{
	struct ssp_rec *r;
	size_t n, total = 0;
	int got;

	*batches = 0;
	while ((r = ssp_otlp_slot(f->o)) != NULL &&
	    (got = ssp_rec_rd_next(f->rr, r, &e)) == 1) {
		if (ssp_otlp_full(f->o, r)) {
			assert_int_equal(ssp_otlp_encode(f->o, b, &n, &e), SSP_OK);
			ssp_buf_putc(b, '\n');
			total += n;
			(*batches)++;
		}
		assert_int_equal(ssp_otlp_add(f->o, r, &e), SSP_OK);
	}
	assert_non_null(r);
	assert_int_equal(got, 0);
	n = 0;
	if (ssp_otlp_nspans(f->o) > 0) {
		assert_int_equal(ssp_otlp_encode(f->o, b, &n, &e), SSP_OK);
		ssp_buf_putc(b, '\n');
		(*batches)++;
	}
	ssp_otlp_finish(f->o);
	return total + n;
}

static void
test_kv_edges_and_slots(void **state)
{
	static const size_t bsz[] = { 1, 2, 3, 100 };
	struct ssp_buf b = SSP_BUF_INIT, b2 = SSP_BUF_INIT;
	struct walk sp;
	struct fx f;
	size_t batches, batches2, i, k, nattr;

	(void)state;
	fx_open_edges(&f, SSP_OTLP_PROTOBUF, 100);
	assert_int_equal(run(&f, &b, &batches), NEDGELEN);
	{
		struct ssp_pb_rd sr = scope_spans(&b, NEDGELEN);
		struct ssp_pb_field fl;

		i = 0;
		while (ssp_pb_next(&sr, &fl) == 1) {
			struct ssp_pb_rd ar;
			struct ssp_pb_field at;

			if (fl.num != 2)
				continue;
			walk(fl.p, fl.n, &sp);
			ar = (struct ssp_pb_rd){ fl.p, fl.p + fl.n };
			nattr = 0;
			while (ssp_pb_next(&ar, &at) == 1)
				if (at.num == 9) {
					check_edge_kv(&at, i);
					nattr++;
				}
			/* start, end, 3 strings (or none), 2 hex, int unless
			 * absent, bool, u */
			assert_int_equal(nattr, 2 + (edge_len[i] > 0 ? 3 : 0) +
			    2 + (edge_i[i % 6] != -1) + 1 + 1);
			i++;
		}
		assert_int_equal(i, NEDGELEN);
	}
	fx_close(&f);
	/* the same requests from records decoded in place, in both
	 * encodings and batch sizes that end batches between them */
	for (k = 0; k < 2 * (sizeof(bsz) / sizeof(bsz[0])); k++) {
		enum ssp_otlp_proto pr = k % 2 ? SSP_OTLP_JSON : SSP_OTLP_PROTOBUF;

		ssp_buf_reset(&b);
		ssp_buf_reset(&b2);
		fx_open_edges(&f, pr, bsz[k / 2]);
		assert_int_equal(run(&f, &b, &batches), NEDGELEN);
		fx_close(&f);
		fx_open_edges(&f, pr, bsz[k / 2]);
		assert_int_equal(run_slots(&f, &b2, &batches2), NEDGELEN);
		fx_close(&f);
		assert_int_equal(batches, batches2);
		assert_int_equal(b.len, b2.len);
		assert_memory_equal(b.p, b2.p, b.len);
		/* and the stream with events, links and pending records */
		ssp_buf_reset(&b);
		ssp_buf_reset(&b2);
		fx_open(&f, pr, 1, bsz[k / 2]);
		run(&f, &b, &batches);
		fx_close(&f);
		fx_open(&f, pr, 1, bsz[k / 2]);
		run_slots(&f, &b2, &batches2);
		fx_close(&f);
		assert_int_equal(batches, batches2);
		assert_int_equal(b.len, b2.len);
		assert_memory_equal(b.p, b2.p, b.len);
	}
	ssp_buf_free(&b);
	ssp_buf_free(&b2);
}

/*
 * JSON numbers at every digit count: 'u' and 'i' fields and the span's
 * times (ps, and ns cut from them) at 10^k - 1, 10^k and 10^k + 1 for
 * k = 0..19, negative 'i' values and times, against printf.
 */
#define NUM_NF (SSP_SF_NCOMMON + 2)
static const struct ssp_rec_type num_type = { "num.kind", NUM_NF, {
	{ "trace_hi", 'x' }, { "trace_lo", 'x' }, { "span", 'x' },
	{ "parent", 'x' }, { "stream", 'u' }, { "dur", 't' }, { "flags", 'u' },
	{ "cause", 's' }, { "u", 'u' }, { "i", 'i' } } };

/* 10^k + d - 1 for k = i / 3 (0..19), d = i % 3, wrapping at 2^64 */
static uint64_t
num_edge(size_t i)
{
	uint64_t p = 1;
	size_t k;

	for (k = 0; k < i / 3; k++)
		p *= 10;
	return p + i % 3 - 1;
}

#define NNUM 60

static void
has(const struct ssp_buf *b, const char *want)
{
	if (memmem(b->p, b->len, want, strlen(want)) == NULL)
		fail_msg("not in the request: %s", want);
}

static void
test_json_numbers(void **state)
{
	static const struct ssp_schema sch = { 1, &num_type };
	static const struct ssp_meta meta[] = { { "producer", "test" },
	    { "time-unit", "ps" }, { "stream", "client gem5" } };
	struct ssp_otlp_opts oo = { .proto = SSP_OTLP_JSON, .batch = 1000 };
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_out *out;
	struct fx f;
	char want[512];
	size_t batches, i;

	(void)state;
	snprintf(f.path, sizeof(f.path), "/tmp/ssp-test-otlp-n%d", (int)getpid());
	assert_int_equal(ssp_out_open(&out, f.path, 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open_minor(&w, out, ssp_frame_magic_spans,
	    SSP_SPAN_MINOR, &sch, meta, 3, &e), SSP_OK);
	for (i = 0; i < NNUM; i++) {
		uint64_t v = num_edge(i);
		/* times: positive below 2^63, then their negatives */
		int64_t ts = (int64_t)(v > (uint64_t)INT64_MAX / 2 ?
		    v / 4 : v) * (i % 2 ? -1 : 1);

		put(0, ts, NUM_NF, U(1), U(2), U(0x10 + i), U(0), U(0), U(0),
		    U(0), U(0), U(v), U(i % 2 ? (int64_t)v : -(int64_t)v));
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(out, &e), SSP_OK);
	fx_read(&f, &oo);
	assert_int_equal(run(&f, &b, &batches), NNUM);
	for (i = 0; i < NNUM; i++) {
		uint64_t v = num_edge(i);
		int64_t ts = (int64_t)(v > (uint64_t)INT64_MAX / 2 ?
		    v / 4 : v) * (i % 2 ? -1 : 1);
		int64_t iv = i % 2 ? (int64_t)v : -(int64_t)v;

		if (v > (uint64_t)INT64_MAX)
			snprintf(want, sizeof(want), KV("u", "stringValue",
			    "\"%llu\""), (unsigned long long)v);
		else
			snprintf(want, sizeof(want), KV("u", "intValue",
			    "\"%llu\""), (unsigned long long)v);
		has(&b, want);
		if (iv != -1) {	/* -1: absent */
			snprintf(want, sizeof(want), KV("i", "intValue",
			    "\"%lld\""), (long long)iv);
			has(&b, want);
		}
		snprintf(want, sizeof(want), "\"spanId\":\"%016llx\",\"name\":"
		    "\"num.kind\",\"kind\":1,\"startTimeUnixNano\":\"%llu\","
		    "\"endTimeUnixNano\":\"%llu\",\"attributes\":[" KV("start_ps",
		    "intValue", "\"%lld\"") "," KV("end_ps", "intValue",
		    "\"%lld\""), (unsigned long long)(0x10 + i),
		    (unsigned long long)(ts < 0 ? 0 : ts / 1000),
		    (unsigned long long)(ts < 0 ? 0 : ts / 1000), (long long)ts,
		    (long long)ts);
		has(&b, want);
	}
	fx_close(&f);
	ssp_buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ps_to_ns),
		cmocka_unit_test(test_hex_ids),
		cmocka_unit_test(test_span_kinds),
		cmocka_unit_test(test_json_request),
		cmocka_unit_test(test_no_events_and_small_batches),
		cmocka_unit_test(test_protobuf_request),
		cmocka_unit_test(test_strings_and_times),
		cmocka_unit_test(test_syscall_names),
		cmocka_unit_test(test_kv_edges_and_slots),
		cmocka_unit_test(test_json_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
