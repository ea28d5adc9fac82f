/* Span streams to OTLP: any stream the reader accepts (unknown types,
 * odd schemas, dangling events and links, tiny batches) must encode to
 * well-formed JSON and protobuf without crashing. */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "base/strfmt.h"
#include "fuzz_mem.h"
#include "sink/otlp.h"
#include "sink/pb.h"
#include "stream/span.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The OTLP messages written, and what their length-delimited fields hold:
 * a message (its kind), a UTF-8 string (S), or bytes of a fixed size. */
enum { REQ, RS, RES, SS, SCOPE, SPAN, KV, AV, EVENT, LINK, STATUS, NKIND };
#define S   100
#define B8  108
#define B16 116
static const int holds[NKIND][16] = {
	[REQ] = { [1] = RS },
	[RS] = { [1] = RES, [2] = SS },
	[RES] = { [1] = KV },
	[SS] = { [1] = SCOPE, [2] = SPAN },
	[SCOPE] = { [1] = S, [2] = S },
	[SPAN] = { [1] = B16, [2] = B8, [4] = B8, [5] = S, [9] = KV,
	    [11] = EVENT, [13] = LINK, [15] = STATUS },
	[KV] = { [1] = S, [2] = AV },
	[AV] = { [1] = S },
	[EVENT] = { [2] = S, [3] = KV },
	[LINK] = { [1] = B16, [2] = B8, [4] = KV },
	[STATUS] = { [2] = S },
};

static void
check_pb(const uint8_t *p, size_t n, int kind)
{
	struct ssp_pb_rd r = { p, p + n };
	struct ssp_pb_field f;
	int k, h;

	while ((k = ssp_pb_next(&r, &f)) == 1) {
		if (f.num >= 16)
			abort();	/* OTLP fields we write are all < 16 */
		h = holds[kind][f.num];
		if (f.wt != SSP_PB_LEN) {
			if (h != 0)
				abort();
			continue;
		}
		if (h == 0)
			abort();
		if (h == S && ssp_strfmt_utf8_valid((const char *)f.p, f.n) != f.n)
			abort();
		if ((h == B8 && f.n != 8) || (h == B16 && f.n != 16))
			abort();
		if (h < NKIND)
			check_pb(f.p, f.n, h);
	}
	if (k < 0)
		abort();
}

/* Each request of ssp_otlp_encode_each: well formed, within the cap
 * unless it holds one span. */
struct fz {
	enum ssp_otlp_proto proto;
	size_t max;
};

static enum ssp_status
check_req(void *ctx, struct ssp_buf *b, size_t nspans, struct ssp_err *e)
{
	const struct fz *z = ctx;
	static const char *const path[] = { "resourceSpans" };
	const char *v;
	size_t vl;

	if (nspans == 0 || (nspans > 1 && z->max > 0 && b->len > z->max))
		abort();
	if (z->proto == SSP_OTLP_JSON) {
		if (ssp_strfmt_json_find((const char *)b->p, b->len, path, 1, &v,
		    &vl) != 1 || ssp_strfmt_utf8_valid((const char *)b->p, b->len) !=
		    b->len)
			abort();
	} else {
		check_pb(b->p, b->len, REQ);
	}
	(void)e;
	return SSP_OK;
}

static void
run(const uint8_t *data, size_t size, enum ssp_otlp_proto proto, size_t batch,
    int events, size_t max_bytes)
{
	struct ssp_otlp_opts oo = { .proto = proto, .events = events,
	    .epoch_ns = -1000, .batch = batch, .max_bytes = max_bytes,
	    .scope_version = "fuzz" };
	struct fz z = { proto, max_bytes };
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_otlp *o;
	struct ssp_rec_rd *rr;
	struct ssp_rec r;
	struct ssp_err e;
	size_t n;
	const char *v;
	size_t vl;
	static const char *const path[] = { "resourceSpans" };

	if (ssp_span_reader_open(&rr, in, &e) == SSP_OK) {
		if (ssp_otlp_open(&o, &oo, rr, &e) == SSP_OK) {
			for (;;) {
				int got = ssp_rec_rd_next(rr, &r, &e);

				if (got == 1 && !ssp_otlp_full(o, &r)) {
					if (ssp_otlp_add(o, &r, &e) != SSP_OK)
						abort();
					continue;
				}
				if (ssp_otlp_nspans(o) > 0 && max_bytes > 0) {
					if (ssp_otlp_encode_each(o, &b, check_req, &z,
					    &e) != SSP_OK)
						abort();
				} else if (ssp_otlp_nspans(o) > 0) {
					ssp_buf_reset(&b);
					if (ssp_otlp_encode(o, &b, &n, &e) != SSP_OK)
						abort();
					if (proto == SSP_OTLP_JSON) {
						if (ssp_strfmt_json_find((const char *)b.p,
						    b.len, path, 1, &v, &vl) != 1 ||
						    ssp_strfmt_utf8_valid((const char *)b.p,
						    b.len) != b.len)
							abort();
					} else
						check_pb(b.p, b.len, REQ);
				}
				if (got != 1)
					break;
				if (ssp_otlp_add(o, &r, &e) != SSP_OK)
					abort();
			}
			ssp_otlp_finish(o);
			ssp_otlp_close(o);
		}
		ssp_rec_rd_close(rr);
	}
	ssp_in_close(in);
	ssp_buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, SSP_OTLP_JSON, 3, -1, 0);
	run(data, size, SSP_OTLP_PROTOBUF, 2, 1, 0);
	run(data, size, SSP_OTLP_JSON, 50, 1, 1500);	/* requests split */
	run(data, size, SSP_OTLP_PROTOBUF, 50, 1, 700);
	return 0;
}
