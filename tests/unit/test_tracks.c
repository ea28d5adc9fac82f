/* The track layout of span2perfetto (tracks), and its two encoders on a
 * small stream: lanes for overlapping spans, nesting only inside the
 * parent, flows for the rest and for links, events in time order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/in.h"
#include "io/out.h"
#include "sink/chrome.h"
#include "sink/perfetto.h"
#include "sink/tracks.h"
#include "stream/span.h"
#include "tests/unit/rec_helpers.h"


/* common fields: trace 7:root, span, parent, stream, dur, flags, cause */
#define SPAN(kind, ts, id, root, parent, stream, dur) \
	put(kind, ts, 8, U(7), U(root), U(id), U(parent), U(stream), U(dur), \
	    U(0), U(0))

static void
write_stream(const char *path)
{
	static const struct ssp_span_source src[] = {
		{ "client", 0, SSP_SIM_GEM5 }, { "client-nic", 0, SSP_SIM_NICBM },
	};
	struct ssp_out *out;
	uint64_t cpu;

	assert_int_equal(ssp_out_open(&out, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_span_writer_open(&w, out, "test", src, 2, 0, &e),
	    SSP_OK);
	cpu = ssp_rec_wr_str(w, "cpu0", 4, &e);
	/* 1: syscall 1..10 ns; 3: syscall on the same CPU 5..20 ns (lane 2) */
	put(SSP_SK_HOST_SYSCALL, 1000, 9, U(7), U(1), U(1), U(0), U(0),
	    U(9000), U(0), U(0), cpu);
	/* 2: mmio of 1 (another track: a flow) */
	SPAN(SSP_SK_HOST_MMIO, 2000, 2, 1, 1, 0, 1000);
	put(SSP_SK_HOST_SYSCALL, 5000, 11, U(7), U(3), U(3), U(0), U(0),
	    U(15000), U(0), U(0), cpu, U(0), ssp_rec_wr_str(w, "__sys_sendto", 12,
	    &e));
	put(SSP_SPAN_T_LINK, 2000, 5, U(3), U(7), U(1), U(2), U(0));
	/* 4: dma 3..9 ns; 5: its child inside it (nested); 6: its child
	 * that outlives it (a lane of its own and a flow) */
	SPAN(SSP_SK_HOST_DMA, 3000, 4, 4, 0, 0, 6000);
	SPAN(SSP_SK_HOST_DMA, 4000, 5, 4, 4, 0, 2000);
	SPAN(SSP_SK_HOST_DMA, 8000, 6, 4, 4, 0, 4000);
	/* 7: a NIC span whose parent is not in the stream */
	SPAN(SSP_SK_NIC_TX, 1500, 7, 99, 99, 1, 0);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(out, &e), SSP_OK);
}

struct fx {
	char path[64];
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_tracks *t;
	struct ssp_perfetto *pf;
};

static const struct ssp_tracks_view *
fx_load(struct fx *f, int proto)
{
	struct ssp_rec r;
	int got;

	snprintf(f->path, sizeof(f->path), "/tmp/ssp-test-tracks-%d",
	    (int)getpid());
	write_stream(f->path);
	assert_int_equal(ssp_in_open(&f->in, f->path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&f->rr, f->in, &e), SSP_OK);
	f->pf = proto ? ssp_perfetto_new(f->rr) : NULL;
	assert_int_equal(ssp_tracks_open(&f->t, f->rr, proto ?
	    ssp_perfetto_args : ssp_chrome_args, f->pf, &e), SSP_OK);
	while ((got = ssp_rec_rd_next(f->rr, &r, &e)) == 1)
		assert_int_equal(ssp_tracks_add(f->t, &r, &e), SSP_OK);
	assert_int_equal(got, 0);
	assert_int_equal(ssp_tracks_layout(f->t, &e), SSP_OK);
	return ssp_tracks_view(f->t);
}

static void
fx_close(struct fx *f)
{
	ssp_tracks_free(f->t);
	ssp_perfetto_free(f->pf);
	ssp_rec_rd_close(f->rr);
	ssp_in_close(f->in);
	unlink(f->path);
}

static uint32_t
span_ix(const struct ssp_tracks_view *v, uint64_t id)
{
	size_t i;

	for (i = 0; i < v->nspans; i++)
		if (v->span[i].id == id)
			return (uint32_t)i;
	fail();
	return 0;
}

static const char *
track_of(const struct ssp_tracks_view *v, uint64_t id)
{
	return v->track[v->span[span_ix(v, id)].track].name;
}

static void
test_layout(void **state)
{
	struct fx f;
	const struct ssp_tracks_view *v = fx_load(&f, 0);
	const struct ssp_tracks_stats *st = ssp_tracks_stats(f.t);
	size_t i;

	(void)state;
	assert_int_equal(v->nspans, 7);
	assert_int_equal(v->nprocs, 2);
	assert_string_equal(v->proc[0].name, "client");
	assert_string_equal(v->proc[1].sim, "nicbm");
	assert_string_equal(track_of(v, 1), "syscall cpu0");
	assert_string_equal(track_of(v, 3), "syscall cpu0 #2");
	assert_string_equal(track_of(v, 2), "mmio/pci");
	assert_string_equal(track_of(v, 4), "dma");
	assert_string_equal(track_of(v, 5), "dma");
	assert_string_equal(track_of(v, 6), "dma #2");
	assert_string_equal(track_of(v, 7), "tx");
	assert_int_equal(v->span[span_ix(v, 5)].nested, 1);
	assert_int_equal(v->span[span_ix(v, 6)].nested, 0);
	{	/* names: the kind; a syscall with a call adds it */
		char nm[32];

		assert_int_equal(ssp_tracks_span_name(v, &v->span[span_ix(v,
		    3)], nm, sizeof(nm)), 25);
		assert_string_equal(nm, "host.syscall __sys_sendto");
		assert_int_equal(ssp_tracks_span_name(v, &v->span[span_ix(v,
		    1)], nm, sizeof(nm)), 12);
		assert_string_equal(nm, "host.syscall");
		assert_int_equal(ssp_tracks_span_name(v, &v->span[span_ix(v,
		    3)], nm, 8), 7);	/* cut */
		assert_string_equal(nm, "host.sy");
	}
	assert_int_equal(st->lanes, 2);
	assert_int_equal(st->nested, 1);
	assert_int_equal(st->flows, 2);		/* 1 -> 2, 4 -> 6 */
	assert_int_equal(st->link_flows, 1);	/* 2 -> 3 */
	assert_int_equal(st->parents_missing, 1);
	/* flows out of 1: one, to 2, with id 2 */
	assert_int_equal(v->span[span_ix(v, 1)].nout, 1);
	assert_int_equal(v->flow[v->span[span_ix(v, 1)].out0].id, 2);
	assert_int_equal(v->span[span_ix(v, 3)].nin, 1);
	assert_int_equal(v->flow[v->in[v->span[span_ix(v, 3)].in0]].id,
	    SSP_TRACKS_LINK_FLOW | 1);
	/* thread ids in (process, group, lane) order */
	assert_true(v->track[v->span[span_ix(v, 1)].track].tid <
	    v->track[v->span[span_ix(v, 3)].track].tid);
	assert_true(v->track[v->span[span_ix(v, 3)].track].tid <
	    v->track[v->span[span_ix(v, 2)].track].tid);
	/* events: 14, in time order; 5 begins after 4 and ends before it */
	for (i = 1; i < 2 * v->nspans; i++)
		assert_true(v->ev[i - 1].ts <= v->ev[i].ts);
	{
		size_t b4 = 0, b5 = 0, e5 = 0, e4 = 0;

		for (i = 0; i < 2 * v->nspans; i++) {
			uint64_t id = v->span[v->ev[i].span].id;

			if (id == 4)
				*(v->ev[i].end ? &e4 : &b4) = i;
			if (id == 5)
				*(v->ev[i].end ? &e5 : &b5) = i;
		}
		assert_true(b4 < b5 && b5 < e5 && e5 < e4);
	}
	fx_close(&f);
}

static char *
slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	char *p = malloc(1 << 20);

	assert_non_null(fp);
	assert_non_null(p);
	*n = fread(p, 1, (1 << 20) - 1, fp);
	p[*n] = '\0';
	fclose(fp);
	return p;
}

static void
test_encoders(void **state)
{
	struct fx f;
	const struct ssp_tracks_view *v;
	struct ssp_out *o;
	char path[80], *p, *q;
	size_t n, x = 0;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssp-test-tracks-out-%d", (int)getpid());
	v = fx_load(&f, 0);
	assert_int_equal(ssp_out_open(&o, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_chrome_write(v, "test", o, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	p = slurp(path, &n);
	for (q = p; (q = strstr(q, "\"ph\":\"X\"")) != NULL; q++)
		x++;
	assert_int_equal(x, 7);
	assert_non_null(strstr(p, "\"ph\":\"X\",\"name\":\"host.syscall\","
	    "\"cat\":\"host.syscall\",\"pid\":1,\"tid\":100001,\"ts\":0.001,\"dur\":0.009,"
	    "\"args\":{\"trace_id\":\"00000000000000070000000000000001\","
	    "\"span_id\":1,\"start_ps\":1000,\"dur_ps\":9000,\"cpu\":\"cpu0\""));
	assert_non_null(strstr(p, "{\"ph\":\"s\",\"id\":4503599627370497,"
	    "\"name\":\"link\",\"cat\":\"link\""));
	assert_non_null(strstr(p, "\"ph\":\"f\",\"bp\":\"e\",\"id\":6,"));
	assert_memory_equal(p + n - 4, "\n]}\n", 4);
	free(p);
	fx_close(&f);

	v = fx_load(&f, 1);
	assert_int_equal(ssp_out_open(&o, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_perfetto_write(f.pf, v, o, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	p = slurp(path, &n);
	/* Trace.packet (1, LEN), then the first packet: sequence id 1 and
	 * SEQ_INCREMENTAL_STATE_CLEARED */
	assert_int_equal((uint8_t)p[0], 0x0a);
	assert_non_null(memmem(p, 16, "\x50\x01\x68\x01", 4));
	assert_non_null(memmem(p, n, "host.syscall", 12));
	assert_non_null(memmem(p, n, "syscall cpu0 #2", 15));
	free(p);
	fx_close(&f);
	unlink(path);
}

/* Spans that all overlap: a lane each, found in O(log lanes), not by a
 * scan of all lanes (which made this quadratic). */
static void
test_many_lanes(void **state)
{
	static const struct ssp_span_source src[] = {
		{ "client", 0, SSP_SIM_GEM5 },
	};
	enum { N = 40000 };
	struct ssp_out *out;
	struct fx f;
	const struct ssp_tracks_view *v;
	struct ssp_rec r;
	int got;
	uint64_t i;

	(void)state;
	snprintf(f.path, sizeof(f.path), "/tmp/ssp-test-tracks-%d", (int)getpid());
	assert_int_equal(ssp_out_open(&out, f.path, 0, &e), SSP_OK);
	assert_int_equal(ssp_span_writer_open(&w, out, "test", src, 1, 0, &e),
	    SSP_OK);
	for (i = 1; i <= N; i++)	/* open DMAs: each still running */
		SPAN(SSP_SK_HOST_DMA, (int64_t)i * 1000, i, i, 0, 0,
		    INT64_C(1000000000000));
	/* and one that starts when the first ones have ended */
	SPAN(SSP_SK_HOST_DMA, INT64_C(2000000000000), N + 1, N + 1, 0, 0, 5);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(out, &e), SSP_OK);
	assert_int_equal(ssp_in_open(&f.in, f.path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&f.rr, f.in, &e), SSP_OK);
	f.pf = NULL;
	assert_int_equal(ssp_tracks_open(&f.t, f.rr, ssp_chrome_args, NULL, &e),
	    SSP_OK);
	while ((got = ssp_rec_rd_next(f.rr, &r, &e)) == 1)
		assert_int_equal(ssp_tracks_add(f.t, &r, &e), SSP_OK);
	assert_int_equal(ssp_tracks_layout(f.t, &e), SSP_OK);
	v = ssp_tracks_view(f.t);
	assert_int_equal(v->ntracks, N);
	assert_int_equal(ssp_tracks_stats(f.t)->lanes, N - 1);
	/* the last one reuses the lane free the longest: the first */
	assert_string_equal(track_of(v, N + 1), "dma");
	assert_string_equal(track_of(v, N), "dma #40000");
	fx_close(&f);
}

/* Random but valid streams: odd parents (missing, later, itself), times
 * below zero and near the end of int64, overlaps, links anywhere.  The
 * layout must keep its promises: events in time order, on every track a
 * stack (each END closes the innermost open span, nested ones in their
 * parent), every flow out of and into a span of the stream. */
static void
test_random(void **state)
{
	static const struct ssp_span_source src[] = {
		{ "client", 0, SSP_SIM_GEM5 }, { "client-nic", 0, SSP_SIM_NICBM },
	};
	enum { N = 3000 };
	uint64_t seed = 12345;
	int round;
	/* span ids 1..N (what evspan writes), or with gaps in odd rounds */
#define ID(k) (round % 2 ? 2 * (uint64_t)(k) + 5 : (uint64_t)(k))

	(void)state;
	for (round = 0; round < 20; round++) {
		struct ssp_out *out;
		struct fx f;
		const struct ssp_tracks_view *v;
		struct ssp_rec r;
		uint32_t *stack, *depth;
		size_t i, k;
		int got;

		snprintf(f.path, sizeof(f.path), "/tmp/ssp-test-tracks-%d",
		    (int)getpid());
		assert_int_equal(ssp_out_open(&out, f.path, 0, &e), SSP_OK);
		assert_int_equal(ssp_span_writer_open(&w, out, "test", src, 2, 0,
		    &e), SSP_OK);
		for (i = 1; i <= N; i++) {
			uint64_t x, kind, parent, stream;
			int64_t ts, dur;

			seed = seed * 6364136223846793005u + 1442695040888963407u;
			x = seed >> 11;
			kind = x % SSP_SK_NKINDS;
			stream = kind == SSP_SK_HOST_SYSCALL ? (x >> 8) % 3 : x % 2;
			ts = (int64_t)((x >> 4) % 100000) - 1000;
			dur = (x >> 20) % 7 == 0 ? 0 : (int64_t)((x >> 24) % 50000);
			if ((x >> 40) % 97 == 0) {
				ts = INT64_MAX - 10;
				dur = 100;	/* end clamped */
			}
			switch ((x >> 30) % 5) {
			case 0: parent = 0; break;
			case 1: parent = ID(i); break;	/* itself */
			case 2: parent = ID(i + 5); break;	/* later or missing */
			default: parent = ID(1 + (x >> 33) % i); break;
			}
			put((unsigned)kind, ts, 8, U(7), U(1), U(ID(i)), U(parent),
			    U(stream), U(dur), U(0), U(0));
			if ((x >> 50) % 9 == 0)
				put(SSP_SPAN_T_LINK, 0, 5, U(ID(i)), U(7), U(1),
				    U(ID(1 + (x >> 52) % (N + 10))), U(0));
		}
		assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
		assert_int_equal(ssp_out_close(out, &e), SSP_OK);
		assert_int_equal(ssp_in_open(&f.in, f.path, 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_span_reader_open(&f.rr, f.in, &e), SSP_OK);
		f.pf = ssp_perfetto_new(f.rr);
		assert_int_equal(ssp_tracks_open(&f.t, f.rr, ssp_perfetto_args,
		    f.pf, &e), SSP_OK);
		while ((got = ssp_rec_rd_next(f.rr, &r, &e)) == 1)
			assert_int_equal(ssp_tracks_add(f.t, &r, &e), SSP_OK);
		assert_int_equal(got, 0);
		assert_int_equal(ssp_tracks_layout(f.t, &e), SSP_OK);
		v = ssp_tracks_view(f.t);
		assert_int_equal(v->nspans, N);
		stack = calloc(v->ntracks * (N + 1), sizeof(*stack));
		depth = calloc(v->ntracks, sizeof(*depth));
		assert_non_null(stack);
		assert_non_null(depth);
		for (i = 0; i < 2 * v->nspans; i++) {
			const struct ssp_tracks_ev *ev = &v->ev[i];
			const struct ssp_tracks_span *sp = &v->span[ev->span];
			uint32_t tr = sp->track, *st = stack + (size_t)tr * (N + 1);

			if (i > 0)
				assert_true(v->ev[i - 1].ts <= ev->ts);
			if (!ev->end) {
				if (depth[tr] > 0)	/* only inside its parent */
					assert_int_equal(st[depth[tr] - 1], sp->parent);
				assert_int_equal(sp->nested, depth[tr] > 0);
				st[depth[tr]++] = ev->span;
			} else {
				assert_true(depth[tr] > 0);
				assert_int_equal(st[--depth[tr]], ev->span);
			}
		}
		for (k = 0; k < v->ntracks; k++)
			assert_int_equal(depth[k], 0);
		for (k = 0; k < v->nflows; k++) {
			const struct ssp_tracks_flow *fl = &v->flow[k];

			assert_true(fl->from < v->nspans);
			assert_true(fl->to < v->nspans);
			if (!fl->link) {
				assert_int_equal(fl->id, v->span[fl->to].id);
				assert_int_equal(v->span[fl->to].parent, fl->from);
			}
		}
		for (i = 0; i < v->nspans; i++) {	/* in lists point back */
			const struct ssp_tracks_span *sp = &v->span[i];

			for (k = 0; k < sp->nin; k++)
				assert_int_equal(v->flow[v->in[sp->in0 + k]].to, i);
			for (k = 0; k < sp->nout; k++)
				assert_int_equal(v->flow[sp->out0 + k].from, i);
			assert_int_equal(sp->parent != SSP_TRACKS_NONE &&
			    !sp->nested, sp->nin > 0 && !v->flow[v->in[sp->in0]].link);
		}
		free(stack);
		free(depth);
		/* and the encoders take it */
		assert_int_equal(ssp_out_open(&out, "/dev/null", 0, &e), SSP_OK);
		assert_int_equal(ssp_perfetto_write(f.pf, v, out, &e), SSP_OK);
		assert_int_equal(ssp_chrome_write(v, "t", out, &e), SSP_OK);
		assert_int_equal(ssp_out_close(out, &e), SSP_OK);
		fx_close(&f);
	}
#undef ID
}

static void
test_text(void **state)
{
	char b[64];

	(void)state;
	assert_int_equal(ssp_tracks_ns(-5), 0);
	assert_int_equal(ssp_tracks_ns(999), 0);
	assert_int_equal(ssp_tracks_ns(1999), 1);
	b[ssp_chrome_us(b, 0)] = '\0';
	assert_string_equal(b, "0.000");
	b[ssp_chrome_us(b, 1234567)] = '\0';
	assert_string_equal(b, "1234.567");
	b[ssp_chrome_us(b, 5)] = '\0';
	assert_string_equal(b, "0.005");
	b[ssp_tracks_ipv4(b, 0x0a000102)] = '\0';
	assert_string_equal(b, "10.0.1.2");
	b[ssp_tracks_ipv4(b, 0xffffffff)] = '\0';
	assert_string_equal(b, "255.255.255.255");
	ssp_tracks_trace_hex(b, 0x0123456789abcdefu, 42);
	b[32] = '\0';
	assert_string_equal(b, "0123456789abcdef000000000000002a");
	assert_int_equal(ssp_tracks_flags(b, sizeof(b), 0), 0);
	assert_string_equal(b, "");
	ssp_tracks_flags(b, sizeof(b), SSP_SPAN_ORPHAN | SSP_SPAN_INCOMPLETE);
	assert_string_equal(b, "ORPHAN|INCOMPLETE");
	ssp_tracks_flags(b, sizeof(b), 0x12);
	assert_string_equal(b, "OPEN|0x10");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_encoders),
		cmocka_unit_test(test_many_lanes),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
