/* Record stream codec: round trips, block boundaries, strings, corruption,
 * truncation, concatenation and schema evolution. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/varint.h"
#include "io/in.h"
#include "io/out.h"
#include "sink/dump.h"
#include "stream/event.h"
#include "stream/rec.h"
#include "stream/span.h"

/* Write records to a temp file through the real I/O layer, return bytes. */
static char *
tmpname(void)
{
	static char path[64];

	snprintf(path, sizeof(path), "/tmp/ssp-test-rec-%d", (int)getpid());
	return path;
}

static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long len;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)len + 1);
	assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return b;
}

static void
spit(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

static void
test_varint(void **state)
{
	static const uint64_t vals[] = { 0, 1, 127, 128, 255, 300, 16383, 16384,
	    (1ull << 32) - 1, 1ull << 56, UINT64_MAX };
	uint8_t buf[SSP_VARINT_MAX];
	size_t i, n;
	const uint8_t *p;
	uint64_t v;

	(void)state;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		n = ssp_varint_put(buf, vals[i]);
		p = buf;
		assert_int_equal(ssp_varint_get(&p, buf + n, &v), 0);
		assert_true(v == vals[i]);
		assert_ptr_equal(p, buf + n);
		p = buf;	/* one byte short */
		if (n > 1)
			assert_int_equal(ssp_varint_get(&p, buf + n - 1, &v), -1);
	}
	/* 11 continuation bytes: too long */
	memset(buf, 0xff, sizeof(buf));
	p = buf;
	assert_int_equal(ssp_varint_get(&p, buf + sizeof(buf), &v), -1);
	assert_true(ssp_unzigzag(ssp_zigzag(-1)) == -1);
	assert_true(ssp_unzigzag(ssp_zigzag(INT64_MIN)) == INT64_MIN);
	assert_true(ssp_unzigzag(ssp_zigzag(INT64_MAX)) == INT64_MAX);
	assert_int_equal(ssp_zigzag(-1), 1);
}

/* One record per event type with distinct field values. */
static void
fill(struct ssp_rec *r, unsigned type, unsigned i, struct ssp_rec_wr *w)
{
	const struct ssp_rec_type *t = &ssp_event_schema.types[type];
	unsigned k;
	char s[32];

	memset(r, 0, sizeof(*r));
	r->type = type;
	r->ts = (int64_t)i * 1000003 - 5000;	/* starts negative */
	for (k = 0; k < t->nf; k++) {
		switch (t->f[k].enc) {
		case 's':
			snprintf(s, sizeof(s), "str-%u-%u", type, k + i % 7);
			r->f[k] = ssp_rec_wr_str(w, s, strlen(s), NULL);
			assert_true(r->f[k] != 0);
			break;
		case 'i': case 't':
			r->f[k] = (uint64_t)(-(int64_t)(i * 31 + k));
			break;
		case 'b':
			r->f[k] = (i + k) & 1;
			break;
		default:
			r->f[k] = (uint64_t)i * 0x9e3779b97f4a7c15ull + k;
		}
	}
}

static void
write_stream(const char *path, unsigned n, int zlevel)
{
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	unsigned i;

	assert_int_equal(ssp_out_open(&o, path, zlevel, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, "host0", SSP_SIM_GEM5,
	    "test", NULL, 0, &e), SSP_OK);
	for (i = 0; i < n; i++) {
		fill(&r, i % SSP_EV_NTYPES, i, w);
		assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
}

/* Read back and compare with what fill() produced, by string value. */
static void
check_stream(const char *path, unsigned n)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec r;
	struct ssp_err e;
	unsigned i = 0, k;
	int got;

	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_string_equal(ssp_rec_rd_meta(rr, "stream"), "host0");
	assert_string_equal(ssp_rec_rd_meta(rr, "time-unit"), "ps");
	assert_int_equal(ssp_event_reader_sim(rr), SSP_SIM_GEM5);
	while ((got = ssp_rec_rd_next(rr, &r, &e)) == 1) {
		const struct ssp_rec_type *t;
		unsigned type = i % SSP_EV_NTYPES;

		assert_int_equal(r.type, type);
		assert_true(r.ts == (int64_t)i * 1000003 - 5000);
		t = &ssp_event_schema.types[type];
		assert_int_equal(r.nf, t->nf);
		for (k = 0; k < t->nf; k++) {
			char s[32];

			switch (t->f[k].enc) {
			case 's':
				snprintf(s, sizeof(s), "str-%u-%u", type, k + i % 7);
				assert_string_equal(ssp_rec_rd_str(rr, r.f[k], NULL), s);
				break;
			case 'i': case 't':
				assert_true((int64_t)r.f[k] == -(int64_t)(i * 31 + k));
				break;
			case 'b':
				assert_true(r.f[k] == ((i + k) & 1));
				break;
			default:
				assert_true(r.f[k] ==
				    (uint64_t)i * 0x9e3779b97f4a7c15ull + k);
			}
		}
		i++;
	}
	assert_int_equal(got, 0);
	assert_int_equal(i, n);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
}

static void
test_roundtrip_every_type(void **state)
{
	(void)state;
	write_stream(tmpname(), SSP_EV_NTYPES, 0);
	check_stream(tmpname(), SSP_EV_NTYPES);
	write_stream(tmpname(), 0, 0);	/* empty stream is valid */
	check_stream(tmpname(), 0);
	unlink(tmpname());
}

static void
test_roundtrip_many_blocks_zstd(void **state)
{
	(void)state;
	write_stream(tmpname(), 200000, 0);	/* several 64k blocks */
	check_stream(tmpname(), 200000);
	write_stream(tmpname(), 200000, 3);
	check_stream(tmpname(), 200000);
	unlink(tmpname());
}

/* Read path to its error: the status ssp_event_reader_open returns, or
 * -(the -status of the failing ssp_rec_rd_next).  e may be NULL. */
static int
read_error(const char *path, struct ssp_err *e)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec r;
	int got, rc;

	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, NULL),
	    SSP_OK);
	if ((rc = ssp_event_reader_open(&rr, in, e)) == SSP_OK) {
		while ((got = ssp_rec_rd_next(rr, &r, e)) == 1)
			;
		ssp_rec_rd_close(rr);
		assert_true(got < 0);
		rc = -got;
	}
	ssp_in_close(in);
	return rc;
}

/* Expect an error with the given code when reading path, returned as a
 * status whether or not an error record is given. */
static void
expect_error(const char *path, int code, const char *needle)
{
	struct ssp_err e = { 0 };

	assert_int_equal(read_error(path, &e), code);
	if (e.code != code || strstr(e.msg, needle) == NULL)
		fail_msg("code %d msg '%s', wanted %d '%s'", e.code, e.msg, code,
		    needle);
	assert_int_equal(read_error(path, NULL), code);
}

static void
test_truncation_everywhere(void **state)
{
	uint8_t *b;
	size_t n, cut;
	char path2[80];

	(void)state;
	write_stream(tmpname(), 5000, 0);
	b = slurp(tmpname(), &n);
	snprintf(path2, sizeof(path2), "%s.cut", tmpname());
	for (cut = 0; cut < n; cut += (cut < 64 ? 1 : 997)) {
		spit(path2, b, cut);
		if (cut == 0)
			expect_error(path2, SSP_ERR_TRUNCATED, "empty input");
		else
			expect_error(path2, SSP_ERR_TRUNCATED, "truncated");
	}
	free(b);
	unlink(path2);
	unlink(tmpname());
}

static void
test_bitflips_detected(void **state)
{
	uint8_t *b;
	size_t n, pos;
	char path2[80];

	(void)state;
	write_stream(tmpname(), 3000, 0);
	b = slurp(tmpname(), &n);
	snprintf(path2, sizeof(path2), "%s.flip", tmpname());
	for (pos = 8; pos < n; pos += 131) {
		b[pos] ^= 0x10;
		spit(path2, b, n);
		{
			struct ssp_in *in;
			struct ssp_rec_rd *rr;
			struct ssp_rec r;
			struct ssp_err e = { 0 };
			int got = 1;

			assert_int_equal(ssp_in_open(&in, path2, 0, NULL, &e), SSP_OK);
			if (ssp_event_reader_open(&rr, in, &e) == SSP_OK) {
				while ((got = ssp_rec_rd_next(rr, &r, &e)) == 1)
					;
				ssp_rec_rd_close(rr);
			} else {
				got = -1;
			}
			ssp_in_close(in);
			assert_true(got < 0);
			assert_true(e.offset > 0 || pos < 20);
		}
		b[pos] ^= 0x10;
	}
	free(b);
	unlink(path2);
	unlink(tmpname());
}

static void
test_bad_magic_and_wrong_format(void **state)
{
	static const uint8_t text[] = "1869691991749: system.pc.simbricks_0: x\n";
	uint8_t spans[16];

	(void)state;
	spit(tmpname(), text, sizeof(text) - 1);
	expect_error(tmpname(), SSP_ERR_FORMAT, "bad magic");
	memcpy(spans, ssp_frame_magic_spans, 8);
	memset(spans + 8, 0, 8);
	spit(tmpname(), spans, sizeof(spans));
	expect_error(tmpname(), SSP_ERR_FORMAT, "span stream");
	unlink(tmpname());
}

static void
test_concatenation(void **state)
{
	uint8_t *a, *c;
	size_t na, nc;
	char path2[80];
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_err e;

	(void)state;
	write_stream(tmpname(), 100, 0);
	a = slurp(tmpname(), &na);
	c = malloc(2 * na);
	memcpy(c, a, na);
	memcpy(c + na, a, na);
	snprintf(path2, sizeof(path2), "%s.cat", tmpname());
	spit(path2, c, 2 * na);
	{	/* same stream twice: 200 records */
		struct ssp_in *in;
		struct ssp_rec_rd *rr;
		struct ssp_rec r;
		int got, k = 0;
		uint64_t gen0;

		assert_int_equal(ssp_in_open(&in, path2, 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
		gen0 = ssp_rec_rd_strgen(rr);
		while ((got = ssp_rec_rd_next(rr, &r, &e)) == 1) {
			if (r.type == SSP_EV_FUNC && k >= 100)
				assert_non_null(ssp_rec_rd_str(rr, r.f[1], NULL));
			/* string ids start over with the second segment */
			assert_true((ssp_rec_rd_strgen(rr) != gen0) == (k >= 100));
			k++;
		}
		assert_int_equal(got, 0);
		assert_int_equal(k, 200);
		ssp_rec_rd_close(rr);
		ssp_in_close(in);
	}
	/* a different stream after the first: rejected, naming both */
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, "nic0", SSP_SIM_NICBM,
	    "test", NULL, 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	free(c);
	c = slurp(tmpname(), &nc);
	a = realloc(a, na + nc);
	memcpy(a + na, c, nc);
	spit(path2, a, na + nc);
	expect_error(path2, SSP_ERR_FORMAT, "'nic0' differs from the first stream 'host0'");
	free(a);
	free(c);
	unlink(path2);
	unlink(tmpname());
}

/* A newer writer appends a field and adds a type: old readers still work. */
static void
test_schema_evolution(void **state)
{
	static const struct ssp_rec_type newer[] = {
		{ "func", 4, { { "cpu", 's' }, { "sym", 's' }, { "table", 's' },
		    { "pc", 'x' } } },
		{ "future_thing", 1, { { "x", 'u' } } },
	};
	static const struct ssp_schema ns = { 2, newer };
	static const struct ssp_rec_type wrong[] = {
		{ "func", 3, { { "cpu", 's' }, { "table", 's' }, { "sym", 's' } } },
	};
	static const struct ssp_schema ws = { 1, wrong };
	static const struct ssp_meta m[] = { { "stream", "h" } };
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_err e;
	struct ssp_rec r = { 0 };
	struct ssp_in *in;
	struct ssp_rec_rd *rr;

	(void)state;
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open(&w, o, ssp_frame_magic_events, &ns, m, 1, &e), SSP_OK);
	r.type = 0;
	r.ts = 42;
	r.f[0] = ssp_rec_wr_str(w, "cpu0", 4, &e);
	r.f[1] = ssp_rec_wr_str(w, "tcp_sendmsg", 11, &e);
	r.f[2] = ssp_rec_wr_str(w, "linux", 5, &e);
	r.f[3] = 0xffffffff81000000ull;
	assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	r.type = 1;
	r.f[0] = 7;
	assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);

	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
	assert_int_equal(r.type, SSP_EV_FUNC);
	assert_string_equal(ssp_rec_rd_str(rr, r.f[SSP_F_FUNC_SYM], NULL), "tcp_sendmsg");
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
	assert_int_equal(r.type, SSP_TYPE_UNKNOWN);
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 0);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);

	/* swapped fields: a schema error naming the field */
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open(&w, o, ssp_frame_magic_events, &ws, m, 1, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_ERR_SCHEMA);
	assert_non_null(strstr(e.msg, "field 2 is 'table'"));
	ssp_in_close(in);
	unlink(tmpname());
}

/*
 * Event streams of version 1.0, written before host device events had
 * their trailing `cpu` field and before the `user` type: still read, the
 * missing field filled as absent (0 for a string: ssp_event_dev_cpu
 * gives -1), by every read path; an appended signed field reads as -1.
 */
static void
test_event_old_layout(void **state)
{
	static struct ssp_rec_type old[SSP_EV_USER];
	static const struct ssp_meta m[] = { { "stream", "h" }, { "simulator", "gem5" } };
	const struct ssp_schema os = { SSP_EV_USER, old };
	static const struct ssp_rec_type fewer[] = { { "t", 1, { { "a", 'u' } } } };
	static const struct ssp_rec_type more[] = { { "t", 3, { { "a", 'u' },
	    { "b", 'i' }, { "c", 'x' } } } };
	const struct ssp_schema fs = { 1, fewer }, ms = { 1, more };
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_err e;
	struct ssp_rec r = { 0 }, batch[64];
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	uint64_t buf[4096];
	unsigned t, i, n, pass, total;
	size_t used;
	int over;

	(void)state;
	for (t = 0; t < SSP_EV_USER; t++) {
		old[t] = ssp_event_schema.types[t];
		if (ssp_event_cpu_field(t) >= 0) {
			assert_int_equal(ssp_event_cpu_field(t), (int)old[t].nf - 1);
			assert_string_equal(old[t].f[old[t].nf - 1].name, "cpu");
			old[t].nf--;
		}
	}
	assert_int_equal(ssp_event_cpu_field(SSP_EV_MSIX), -1);
	assert_int_equal(ssp_event_cpu_field(SSP_EV_FUNC), -1);
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open_minor(&w, o, ssp_frame_magic_events, 0, &os,
	    m, 2, &e), SSP_OK);
	for (i = 0; i < 500; i++) {	/* enough for the fast paths */
		memset(&r, 0x5a, sizeof(r));	/* what the file lacks must not show */
		r.ts = 10 * i;
		r.type = i % 2 ? SSP_EV_MMIO_WR : SSP_EV_POST_INT;
		r.f[0] = ssp_rec_wr_str(w, "system.pc.simbricks_0", 21, &e);
		for (t = 1; t < old[r.type].nf; t++)
			r.f[t] = t;
		if (r.type == SSP_EV_MMIO_WR)
			r.f[SSP_F_MMIO_POSTED] = (uint64_t)-1;
		assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);

	for (pass = 0; pass < 3; pass++) {
		assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
		assert_int_equal(ssp_rec_rd_version_minor(rr), 0);
		total = 0;
		for (;;) {
			const struct ssp_rec *p;
			int k;

			if (pass == 0) {
				k = ssp_rec_rd_next(rr, &batch[0], &e);
				n = k > 0 ? 1 : 0;
				p = batch;
			} else if (pass == 1) {
				k = ssp_rec_rd_next_batch(rr, batch, 64, &e);
				n = k > 0 ? (unsigned)k : 0;
				p = batch;
			} else {
				n = ssp_rec_rd_next_packed(rr, buf, sizeof(buf), INT64_MAX,
				    &used, &over);
				k = 1;
				if (n == 0) {	/* what packed leaves: plain next */
					k = ssp_rec_rd_next(rr, &batch[0], &e);
					n = k > 0 ? 1 : 0;
					p = batch;
				} else {
					p = (const struct ssp_rec *)(void *)buf;
				}
			}
			assert_true(k >= 0);
			if (n == 0)
				break;
			for (i = 0; i < n; i++, p = pass == 2 && p != batch ?
			    ssp_rec_packed_next(p) : p + 1) {
				unsigned want = total % 2 ? SSP_EV_MMIO_WR : SSP_EV_POST_INT;
				int cf = ssp_event_cpu_field(want);

				assert_int_equal(p->type, want);
				assert_int_equal(p->ts, 10 * (int64_t)total);
				assert_int_equal(p->nf, ssp_event_schema.types[want].nf);
				assert_int_equal(p->f[cf], 0);
				assert_int_equal(ssp_event_dev_cpu(p), -1);
				assert_int_equal(p->f[1], 1);
				if (want == SSP_EV_MMIO_WR)
					assert_int_equal((int64_t)p->f[SSP_F_MMIO_POSTED], -1);
				total++;
			}
		}
		assert_int_equal(total, 500);
		ssp_rec_rd_close(rr);
		ssp_in_close(in);
	}

	/* a current stream: the field holds the CPU's string id */
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, "h", SSP_SIM_GEM5, "t", NULL, 0,
	    &e), SSP_OK);
	memset(&r, 0, sizeof(r));
	r.type = SSP_EV_CFG_WR;
	r.f[SSP_F_CFG_CPU] = ssp_rec_wr_str(w, "system.cpu1", 11, &e);
	assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	r.type = SSP_EV_USER;
	r.f[SSP_F_USER_PC] = 0x401000;
	assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_rec_rd_version_minor(rr), SSP_EVENT_MINOR);
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
	assert_true(ssp_event_dev_cpu(&r) > 0);
	assert_string_equal(ssp_rec_rd_str(rr, (uint64_t)ssp_event_dev_cpu(&r), NULL),
	    "system.cpu1");
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
	assert_int_equal(r.type, SSP_EV_USER);
	assert_int_equal(ssp_event_sim(r.type), SSP_SIM_GEM5);
	assert_int_equal(ssp_event_dev_cpu(&r), -1);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);

	/* the rule in general: a missing 'i' field reads as -1, others 0 */
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open(&w, o, ssp_frame_magic_events, &fs, m, 1, &e),
	    SSP_OK);
	memset(&r, 0, sizeof(r));
	r.f[0] = 9;
	assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_rec_rd_open(&rr, in, ssp_frame_magic_events, &ms, 0, &e),
	    SSP_OK);
	memset(&r, 0x5a, sizeof(r));
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
	assert_int_equal(r.nf, 3);
	assert_int_equal(r.f[0], 9);
	assert_int_equal((int64_t)r.f[1], -1);
	assert_int_equal(r.f[2], 0);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	unlink(tmpname());
}

/* Minor versions: span writers say 1.SSP_SPAN_MINOR, event writers
 * 1.SSP_EVENT_MINOR;
 * readers take any minor (a 1.0 span stream too) and report it. */
static void
test_minor_versions(void **state)
{
	static const struct ssp_span_source src[] = { { "h", 1, SSP_SIM_GEM5 } };
	static const struct ssp_meta m[] = { { "stream", "h gem5" } };
	static const unsigned minors[] = { 0, SSP_SPAN_MINOR, 7 };
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_err e;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec r = { 0 };
	unsigned i;

	(void)state;
	assert_int_equal(SSP_SPAN_MINOR, 2);
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_span_writer_open(&w, o, "t", src, 1, 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_rec_rd_version_minor(rr), SSP_SPAN_MINOR);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	for (i = 0; i < sizeof(minors) / sizeof(minors[0]); i++) {
		assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
		assert_int_equal(ssp_rec_wr_open_minor(&w, o, ssp_frame_magic_spans,
		    minors[i], ssp_span_schema(0), m, 1, &e), SSP_OK);
		r.type = SSP_SK_HOST_SYSCALL;
		r.ts = 5;
		r.f[SSP_SF_SPAN] = 1;
		assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
		assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
		assert_int_equal(ssp_out_close(o, &e), SSP_OK);
		assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_span_reader_open(&rr, in, &e), SSP_OK);
		assert_int_equal(ssp_rec_rd_version_minor(rr), minors[i]);
		assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
		assert_int_equal(r.type, SSP_SK_HOST_SYSCALL);
		assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 0);
		ssp_rec_rd_close(rr);
		ssp_in_close(in);
	}
	/* event streams are 1.SSP_EVENT_MINOR (1.1: cpu fields, user events;
	 * 1.2: the Corundum register completions, net_seen) */
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, "h", SSP_SIM_GEM5, "t",
	    NULL, 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_rec_rd_version_minor(rr), SSP_EVENT_MINOR);
	assert_int_equal(SSP_EVENT_MINOR, 2);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	unlink(tmpname());
}

static void
test_copy_remaps_strings(void **state)
{
	char path2[80];
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	unsigned i = 0;

	(void)state;
	write_stream(tmpname(), 3000, 0);
	snprintf(path2, sizeof(path2), "%s.copy", tmpname());
	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_out_open(&o, path2, 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, "host0", SSP_SIM_GEM5,
	    "test", NULL, 0, &e), SSP_OK);
	/* keep every other record: ids in the copy differ from the input */
	while (ssp_rec_rd_next(rr, &r, &e) == 1)
		if (i++ % 2 == 1)
			assert_int_equal(ssp_rec_wr_copy(w, &r, rr, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	/* every string in the copy resolves to the same text as the original */
	assert_int_equal(ssp_in_open(&in, path2, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	i = 1;
	while (ssp_rec_rd_next(rr, &r, &e) == 1) {
		const struct ssp_rec_type *t = &ssp_event_schema.types[r.type];
		unsigned k;

		for (k = 0; k < t->nf; k++)
			if (t->f[k].enc == 's') {
				char s[32];

				snprintf(s, sizeof(s), "str-%u-%u", r.type, k + i % 7);
				assert_string_equal(ssp_rec_rd_str(rr, r.f[k], NULL), s);
			}
		i += 2;
	}
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	unlink(path2);
	unlink(tmpname());
}


/* Read a whole file with ssp_rec_rd_next or in batches of n. */
static unsigned
read_all(const char *path, unsigned n, struct ssp_rec *out, unsigned max,
    struct ssp_err *e, int *last)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec *b = calloc(n ? n : 1, sizeof(*b));
	unsigned k = 0;
	int got, i;

	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, e), SSP_OK);
	for (;;) {
		got = n == 0 ? ssp_rec_rd_next(rr, b, e) : ssp_rec_rd_next_batch(rr, b, n, e);
		if (got <= 0)
			break;
		/* string ids of the whole batch must resolve after the call
		 * (a batch never spans two segments): keep their text's hash */
		for (i = 0; i < got && k < max; i++) {
			const struct ssp_rec_type *t =
			    &ssp_rec_rd_file_schema(rr)->types[b[i].ftag - 1];
			unsigned f;

			out[k] = b[i];
			for (f = 0; f < b[i].nf; f++)
				if (t->f[f].enc == 's' && b[i].f[f] != 0) {
					const char *str = ssp_rec_rd_str(rr, b[i].f[f], NULL);
					uint64_t h = 1469598103934665603ull;

					assert_non_null(str);
					while (*str)
						h = (h ^ (uint8_t)*str++) * 1099511628211ull;
					out[k].f[f] = h;
				}
			k++;
		}
	}
	*last = got;
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	free(b);
	return k;
}

static void
same_recs(const struct ssp_rec *a, const struct ssp_rec *b, unsigned n)
{
	unsigned i, k;

	for (i = 0; i < n; i++) {
		assert_true(a[i].ts == b[i].ts);
		assert_int_equal(a[i].type, b[i].type);
		assert_int_equal(a[i].ftag, b[i].ftag);
		assert_int_equal(a[i].nf, b[i].nf);
		for (k = 0; k < a[i].nf; k++)
			assert_true(a[i].f[k] == b[i].f[k]);
	}
}

static void
test_batch_reader(void **state)
{
	static struct ssp_rec a[20000], b[20000];
	unsigned sizes[] = { 1, 7, 256, 5000 }, i, na, nb;
	struct ssp_err e = { 0 }, e2 = { 0 };
	int last, last2;
	uint8_t *buf;
	size_t n;

	(void)state;
	write_stream(tmpname(), 12000, 0);
	na = read_all(tmpname(), 0, a, 20000, &e, &last);
	assert_int_equal(na, 12000);
	assert_int_equal(last, 0);
	for (i = 0; i < 4; i++) {
		nb = read_all(tmpname(), sizes[i], b, 20000, &e, &last);
		assert_int_equal(nb, na);
		assert_int_equal(last, 0);
		same_recs(a, b, na);
	}
	/* concatenated segments: ids restart, batches stop at the seam */
	buf = slurp(tmpname(), &n);
	{
		uint8_t *two = malloc(2 * n);

		memcpy(two, buf, n);
		memcpy(two + n, buf, n);
		spit(tmpname(), two, 2 * n);
		free(two);
	}
	na = read_all(tmpname(), 0, a, 20000, &e, &last);
	assert_int_equal(na, 20000);	/* the first 20000 of 24000 */
	for (i = 0; i < 4; i++) {
		nb = read_all(tmpname(), sizes[i], b, 20000, &e, &last);
		assert_int_equal(nb, na);
		same_recs(a, b, na);
	}
	spit(tmpname(), buf, n);
	free(buf);
	/* truncated: every record before the damage, then the same error */
	buf = slurp(tmpname(), &n);
	spit(tmpname(), buf, n - n / 3);
	na = read_all(tmpname(), 0, a, 20000, &e, &last);
	nb = read_all(tmpname(), 256, b, 20000, &e2, &last2);
	assert_true(last < 0 && last2 < 0);
	assert_int_equal(nb, na);
	assert_true(na > 1000);
	same_recs(a, b, na);
	assert_string_equal(e.msg, e2.msg);
	free(buf);
	unlink(tmpname());
}

/* Copy some records of a stream with ssp_rec_wr_copy_raw into w; return the
 * events of the copy as text, one per line. */
static void
raw_copy(const char *in_path, const char *out_path, unsigned keep_every,
    int own_string, unsigned batch)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec *r = calloc(batch, sizeof(*r));
	struct ssp_err e;
	unsigned k = 0;
	int got, i;

	assert_int_equal(ssp_in_open(&in, in_path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_out_open(&o, out_path, 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, "host0", SSP_SIM_GEM5,
	    "test", NULL, 0, &e), SSP_OK);
	if (own_string)
		assert_true(ssp_rec_wr_str(w, "mine", 4, &e) != 0);
	while ((got = ssp_rec_rd_next_batch(rr, r, batch, &e)) > 0) {
		unsigned idx[256], nk = 0;

		for (i = 0; i < got; i++)
			if (k++ % keep_every == 0) {
				if (batch == 1)	/* one at a time */
					assert_int_equal(ssp_rec_wr_copy_raw(w, rr,
					    (unsigned)i, &r[i], &e), SSP_OK);
				else
					idx[nk++] = (unsigned)i;
			}
		assert_int_equal(ssp_rec_wr_copy_raw_batch(w, rr, r, idx, nk, &e),
		    SSP_OK);
	}
	assert_int_equal(got, 0);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	free(r);
}

/* The events of a file as comparable text (strings resolved). */
static char *
events_text(const char *path, unsigned keep_every, size_t *len)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec r;
	struct ssp_err e;
	char *out = NULL, v[300];
	size_t cap = 0, n = 0;
	unsigned k = 0, f;

	assert_int_equal(ssp_in_open(&in, path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	while (ssp_rec_rd_next(rr, &r, &e) == 1) {
		const struct ssp_rec_type *t = &ssp_rec_rd_file_schema(rr)->types[r.ftag - 1];

		if (k++ % keep_every != 0)
			continue;
		for (f = 0; f <= r.nf; f++) {
			if (f == 0)
				snprintf(v, sizeof(v), "\n%lld %s", (long long)r.ts, t->name);
			else
				ssp_dump_value(v, sizeof(v), t->f[f - 1].enc,
				    r.f[f - 1], rr);
			if (n + strlen(v) + 2 > cap) {
				cap = cap ? cap * 2 : 65536;
				out = realloc(out, cap);
			}
			n += (size_t)sprintf(out + n, " %s", v);
		}
	}
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	*len = n;
	return out;
}

static void
test_copy_raw(void **state)
{
	char path2[80];
	static const unsigned every[] = { 1, 2, 7 };
	unsigned i, own;
	size_t na, nb;
	char *a, *b;

	(void)state;
	snprintf(path2, sizeof(path2), "%s.raw", tmpname());
	write_stream(tmpname(), 9000, 0);
	for (own = 0; own < 2; own++)
		for (i = 0; i < 3; i++) {
			raw_copy(tmpname(), path2, every[i], (int)own, i == 2 ? 1 : 256);
			a = events_text(tmpname(), every[i], &na);
			b = events_text(path2, 1, &nb);
			assert_int_equal(na, nb);
			assert_memory_equal(a, b, na);
			free(a);
			free(b);
		}
	/* concatenated segments: the second maps its ids */
	{
		uint8_t *buf, *two;
		size_t n;
		char path3[96];

		buf = slurp(tmpname(), &n);
		two = malloc(2 * n);
		memcpy(two, buf, n);
		memcpy(two + n, buf, n);
		snprintf(path3, sizeof(path3), "%s.two", tmpname());
		spit(path3, two, 2 * n);
		raw_copy(path3, path2, 3, 0, 256);
		a = events_text(path3, 3, &na);
		b = events_text(path2, 1, &nb);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na);
		free(a);
		free(b);
		free(buf);
		free(two);
		unlink(path3);
	}
	unlink(path2);
	unlink(tmpname());
}

/* The record codec's fast varint paths give the reference LEB128 bytes
 * and read back, for every length class and the 9/10-byte cases. */
static void
test_varint_fast_paths(void **state)
{
	static const struct ssp_rec_type t1[1] = { { "r", 2, { { "v", 'u' },
	    { "s", 'i' } } } };
	static const struct ssp_schema sch = { 1, t1 };
	uint64_t vals[64];
	size_t nv = 0, i, k, n;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec r;
	struct ssp_err e;
	uint8_t *b, ref[SSP_VARINT_MAX + 2];
	unsigned sh;

	(void)state;
	for (sh = 7; sh < 64; sh += 7) {
		vals[nv++] = (1ULL << sh) - 1;
		vals[nv++] = 1ULL << sh;
	}
	vals[nv++] = 0;
	vals[nv++] = 1ULL << 63;
	vals[nv++] = UINT64_MAX;
	vals[nv++] = (1ULL << 56) + 12345;
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open(&w, o, ssp_frame_magic_events, &sch, NULL, 0, &e),
	    SSP_OK);
	for (k = 0; k < 2; k++)
		for (i = 0; i < nv; i++) {
			memset(&r, 0, sizeof(r));
			r.ts = 0;
			r.f[0] = vals[i];
			r.f[1] = 0 - vals[i];	/* its negation, as a signed field */
			assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
		}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	/* the first record's bytes: tag 1, dts 0, then the reference varint */
	b = slurp(tmpname(), &n);
	{
		size_t hlen = (size_t)b[8 + 4] | (size_t)b[8 + 5] << 8 |
		    (size_t)b[8 + 6] << 16 | (size_t)b[8 + 7] << 24;
		const uint8_t *d = b + 8 + SSP_BLOCK_HDR + hlen + SSP_BLOCK_HDR;
		size_t m = ssp_varint_put(ref, vals[0]);

		assert_int_equal(d[0], 1);
		assert_int_equal(d[1], 0);
		assert_memory_equal(d + 2, ref, m);
		/* walk all records with the reference decoder */
		for (k = 0; k < 2; k++)
			for (i = 0; i < nv; i++) {
				const uint8_t *q = d;
				uint64_t v = 0;

				assert_int_equal(ssp_varint_get(&q, b + n, &v), 0);
				assert_true(v == 1);
				assert_int_equal(ssp_varint_get(&q, b + n, &v), 0);
				assert_true(v == 0);
				assert_int_equal(ssp_varint_get(&q, b + n, &v), 0);
				assert_true(v == vals[i]);
				assert_int_equal(ssp_varint_get(&q, b + n, &v), 0);
				assert_true((uint64_t)ssp_unzigzag(v) == 0 - vals[i]);
				d = q;
			}
	}
	free(b);
	/* and the reader (fast path while room, slow path near the end) */
	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_rec_rd_open(&rr, in, ssp_frame_magic_events, &sch, 0, &e),
	    SSP_OK);
	for (k = 0; k < 2; k++)
		for (i = 0; i < nv; i++) {
			assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
			assert_true(r.f[0] == vals[i]);
			assert_true(r.f[1] == 0 - vals[i]);
		}
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 0);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	unlink(tmpname());
}

/* ssp_rec_rd_next_packed: the records of ssp_rec_rd_next, packed, cut at limits. */
static void
test_packed_reader(void **state)
{
	static struct ssp_rec a[13000];
	static uint64_t buf[4096];
	static const size_t rooms[] = { sizeof(struct ssp_rec), 1000, 32768 };
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_err e = { 0 };
	unsigned na, k, round;
	int got, over;

	(void)state;
	write_stream(tmpname(), 12000, 0);
	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	for (na = 0; na < 13000 && ssp_rec_rd_next(rr, &a[na], &e) == 1; na++)
		;
	assert_int_equal(na, 12000);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	for (round = 0; round < 6; round++) {
		/* limits: none, every 7th record's time, just below it */
		assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
		k = 0;
		for (;;) {
			int64_t limit = round < 2 ? INT64_MAX :
			    a[(k + 7 < na ? k + 7 : na - 1)].ts - (round & 1);
			const struct ssp_rec *r = (const struct ssp_rec *)buf;
			size_t used;
			unsigned n, i;

			n = ssp_rec_rd_next_packed(rr, buf, rooms[round % 3], limit,
			    &used, &over);
			for (i = 0; i < n; i++, r = ssp_rec_packed_next(r)) {
				assert_true(k < na);
				assert_true(r->ts <= limit);
				same_recs(&a[k++], r, 1);
			}
			assert_int_equal((const uint8_t *)r - (const uint8_t *)buf,
			    used);
			if (over) {
				assert_true(r->ts > limit);
				same_recs(&a[k++], r, 1);
				continue;
			}
			if (n > 0)
				continue;
			if ((got = ssp_rec_rd_next(rr, (struct ssp_rec *)buf, &e)) != 1)
				break;
			same_recs(&a[k++], (struct ssp_rec *)buf, 1);
		}
		assert_int_equal(got, 0);
		assert_int_equal(k, na);
		ssp_rec_rd_close(rr);
		ssp_in_close(in);
	}
	unlink(tmpname());
}

/* The reader counts the timestamps that go back, across calls, limits and
 * the records ssp_rec_rd_next_packed leaves to ssp_rec_rd_next: the count
 * over the whole stream is the one of its timestamps. */
static void
test_packed_backwards(void **state)
{
	static uint64_t buf[4096];
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec r;
	struct ssp_err e = { 0 };
	uint64_t want = 0;
	int64_t prev = INT64_MIN, limit;
	unsigned i, n, round;
	size_t used;
	int got, over;

	(void)state;
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, "host0", SSP_SIM_GEM5,
	    "test", NULL, 0, &e), SSP_OK);
	for (i = 0; i < 20000; i++) {
		memset(&r, 0, sizeof(r));
		r.type = SSP_EV_NIC_TX;
		r.ts = (int64_t)i * 100 - (i % 7 == 3 ? 250 : 0) - (i % 11 == 5);
		want += r.ts < prev;
		prev = r.ts;
		assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	assert_true(want > 2000);
	for (round = 0; round < 3; round++) {
		assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
		for (i = 0;; i++) {
			limit = round == 0 ? INT64_MAX : (int64_t)i * (round == 1 ?
			    37 : 1000);
			n = ssp_rec_rd_next_packed(rr, buf, round == 2 ? 300 :
			    sizeof(buf), limit, &used, &over);
			if (n > 0 || over)
				continue;
			if ((got = ssp_rec_rd_next(rr, &r, &e)) != 1)
				break;
		}
		assert_int_equal(got, 0);
		assert_int_equal(ssp_rec_rd_backwards(rr), want);
		assert_true(ssp_rec_rd_tsmax(rr) == 19999 * 100);
		ssp_rec_rd_close(rr);
		ssp_in_close(in);
	}
	unlink(tmpname());
}

/* Wide records: runs of one-byte fields of every length and position,
 * between longer ones, through every reader. */
static uint64_t
wide_value(unsigned i, unsigned k)
{
	return (i >> (k % 12) & 1) ? (uint64_t)i << (k % 9 * 7) | 0x80 :
	    (i + k) & 0x7f;
}

static void
check_wide(const struct ssp_rec *x, unsigned i)
{
	unsigned k;

	assert_true(x->ts == (int64_t)i);
	assert_int_equal(x->nf, 20);
	for (k = 0; k < 20; k++)
		assert_true(x->f[k] == wide_value(i, k));
}

static void
test_wide_records(void **state)
{
	static struct ssp_rec_type t1[1] = { { "w", 20, { { "f0", 'u' } } } };
	static const struct ssp_schema sch = { 1, t1 };
	static char names[20][4];
	static uint64_t buf[4096];
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec r, b[8];
	struct ssp_err e;
	unsigned i, k, pass;
	size_t used;
	int n, over;

	(void)state;
	for (k = 0; k < 20; k++) {
		snprintf(names[k], sizeof(names[k]), "f%u", k);
		t1[0].f[k].name = names[k];
		t1[0].f[k].enc = 'u';
	}
	assert_int_equal(ssp_out_open(&o, tmpname(), 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open(&w, o, ssp_frame_magic_events, &sch, NULL, 0, &e),
	    SSP_OK);
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 3000; i++) {
		r.ts = i;
		for (k = 0; k < 20; k++)
			r.f[k] = wide_value(i, k);
		assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	for (pass = 0; pass < 3; pass++) {	/* next, batch, packed */
		assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_rec_rd_open(&rr, in, ssp_frame_magic_events, &sch, 0, &e),
		    SSP_OK);
		for (i = 0; i < 3000; ) {
			const struct ssp_rec *x = (const struct ssp_rec *)buf;

			if (pass == 1) {
				n = ssp_rec_rd_next_batch(rr, b, 8, &e);
				assert_true(n > 0);
				for (k = 0; k < (unsigned)n; k++)
					check_wide(&b[k], i++);
				continue;
			}
			n = pass == 0 ? 0 : (int)ssp_rec_rd_next_packed(rr, buf,
			    sizeof(buf), INT64_MAX, &used, &over);
			if (n == 0) {
				assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
				check_wide(&r, i++);
			}
			for (; n > 0; n--, x = ssp_rec_packed_next(x))
				check_wide(x, i++);
		}
		assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 0);
		ssp_rec_rd_close(rr);
		ssp_in_close(in);
	}
	unlink(tmpname());
}

/* --- filters ------------------------------------------------------------- */

#define FLT_N 24000	/* records per segment, two segments */

/* A gem5-like stream: noise, functions, posted writes, NIC and network
 * types, time mostly forward with ties and steps back. */
static void
write_filter_stream(const char *path)
{
	static const unsigned types[] = { SSP_EV_SYNC, SSP_EV_PROC_IN,
	    SSP_EV_FUNC, SSP_EV_SYNC, SSP_EV_MMIO_WR, SSP_EV_INSN,
	    SSP_EV_NIC_INTX, SSP_EV_NET_ENQ, SSP_EV_PROC_IN, SSP_EV_FUNC };
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	uint64_t x = 12345;
	int64_t ts = 0;
	unsigned seg, i;

	assert_int_equal(ssp_out_open(&o, path, 0, &e), SSP_OK);
	for (seg = 0; seg < 2; seg++) {
		assert_int_equal(ssp_event_writer_open(&w, o, "host0",
		    SSP_SIM_GEM5, "test", NULL, 0, &e), SSP_OK);
		for (i = 0; i < FLT_N; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			fill(&r, types[(x >> 33) % 10], i, w);
			/* 1/8 ties, 1/16 steps back, else forward */
			ts += (x >> 40) % 8 == 0 ? 0 : (x >> 44) % 16 == 1 ?
			    -(int64_t)((x >> 50) % 3000) : (int64_t)((x >> 50) % 500);
			r.ts = ts;
			assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
		}
		assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	}
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
}

static void
filter_acts(unsigned v, uint8_t *act)
{
	unsigned t;

	for (t = 0; t <= SSP_EV_NTYPES; t++)
		act[t] = v == 2 ? (uint8_t)((t * 7 + 3) % 4) : SSP_RA_KEEP;
	if (v == 0) {		/* as the span builder's host streams */
		act[SSP_EV_SYNC] = act[SSP_EV_PROC_IN] = SSP_RA_TICK;
		act[SSP_EV_INSN] = SSP_RA_TICK;
		act[SSP_EV_MMIO_WR] = SSP_RA_ARM;
		act[SSP_EV_NIC_INTX] = act[SSP_EV_NET_ENQ] = SSP_RA_SKIP;
	} else if (v == 1) {	/* everything but functions */
		for (t = 0; t <= SSP_EV_NTYPES; t++)
			if (t != SSP_EV_FUNC)
				act[t] = SSP_RA_SKIP;
	}
}

/* Filters: through next, batch and packed (at limits), the records that
 * come are those the tick rule picks from an unfiltered read, in order,
 * each within the limit by its key (the largest timestamp so far), and the
 * counts of what was left out, of steps back and the largest time are
 * those of the whole stream, across two segments. */
static void
test_filter(void **state)
{
	static struct ssp_rec a[2 * FLT_N + 1], want[2 * FLT_N], got1[50];
	static int64_t key[2 * FLT_N];
	static uint64_t buf[4096];
	uint64_t skipped[SSP_EV_NTYPES + 1], back = 0;
	uint8_t act[SSP_EV_NTYPES + 1];
	struct ssp_rec_tick tk;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_err e = { 0 };
	int64_t max = INT64_MIN, prev = INT64_MIN;
	unsigned na, nw, k, t, v, how;
	int got, over;

	(void)state;
	write_filter_stream(tmpname());
	assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	for (na = 0; na < 2 * FLT_N + 1 && ssp_rec_rd_next(rr, &a[na], &e) == 1; na++)
		;
	assert_int_equal(na, 2 * FLT_N);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	for (k = 0; k < na; k++) {
		back += a[k].ts < prev;
		prev = a[k].ts;
	}
	assert_true(back > 500);
	for (v = 0; v < 3; v++) {
		filter_acts(v, act);
		memset(&tk, 0, sizeof(tk));
		memset(skipped, 0, sizeof(skipped));
		max = INT64_MIN;
		for (k = nw = 0; k < na; k++) {
			max = a[k].ts > max ? a[k].ts : max;
			if (ssp_rec_tick_wants(&tk, act[a[k].type], a[k].ts)) {
				ssp_rec_tick_took(&tk, act[a[k].type], a[k].ts);
				key[nw] = max;
				want[nw++] = a[k];
			} else {
				skipped[a[k].type]++;
			}
		}
		assert_true(nw > 0 && nw < na);
		for (how = 0; how < 5; how++) {	/* next, batch, packed x 3 */
			static const size_t rooms[] = { sizeof(struct ssp_rec),
			    1000, sizeof(buf) };
			unsigned j = 0;

			assert_int_equal(ssp_in_open(&in, tmpname(), 0, NULL, &e),
			    SSP_OK);
			assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
			assert_int_equal(ssp_rec_rd_filter(rr, act, &e), SSP_OK);
			for (;;) {
				const struct ssp_rec *r = (const void *)buf;
				int64_t limit;
				size_t used;
				unsigned n, i;

				if (how == 1) {
					got = ssp_rec_rd_next_batch(rr, got1, 50, &e);
					if (got <= 0)
						break;
					assert_true(j + (unsigned)got <= nw);
					same_recs(&want[j], got1, (unsigned)got);
					j += (unsigned)got;
					continue;
				}
				if (how >= 2) {
					limit = j + 5 < nw ? key[j + 5] - (how & 1) :
					    INT64_MAX;
					n = ssp_rec_rd_next_packed(rr, buf,
					    rooms[how - 2], limit, &used, &over);
					for (i = 0; i < n; i++, r = ssp_rec_packed_next(r)) {
						assert_true(j < nw && key[j] <= limit);
						same_recs(&want[j++], r, 1);
					}
					if (over) {
						assert_true(j < nw && key[j] > limit);
						assert_true(ssp_rec_rd_tsmax(rr) == key[j]);
						same_recs(&want[j++], r, 1);
					}
					if (n > 0 || over)
						continue;
				}
				if ((got = ssp_rec_rd_next(rr, got1, &e)) != 1)
					break;
				assert_true(j < nw);
				assert_true(ssp_rec_rd_tsmax(rr) == key[j]);
				same_recs(&want[j++], got1, 1);
			}
			assert_int_equal(got, 0);
			assert_int_equal(j, nw);
			for (t = 0; t < SSP_EV_NTYPES; t++)
				assert_true(ssp_rec_rd_skipped(rr, t) == skipped[t]);
			assert_true(ssp_rec_rd_skipped(rr, SSP_TYPE_UNKNOWN) == 0);
			assert_true(ssp_rec_rd_backwards(rr) == back);
			assert_true(ssp_rec_rd_tsmax(rr) == max);
			assert_true(ssp_rec_rd_records(rr) == na);
			ssp_rec_rd_close(rr);
			ssp_in_close(in);
		}
	}
	unlink(tmpname());
}

/* The tick rule: a TICK record comes after an ARM one when its time is
 * greater than the last returned record's, until a record returned is
 * later than every ARM record waiting. */
static void
test_tick_rule(void **state)
{
	static const struct { unsigned act; int64_t ts; int want; } seq[] = {
		{ SSP_RA_TICK, 5, 0 },	/* nothing armed */
		{ SSP_RA_KEEP, 10, 1 },
		{ SSP_RA_TICK, 11, 0 },
		{ SSP_RA_ARM, 20, 1 },	/* waits from 20 */
		{ SSP_RA_TICK, 20, 0 },	/* not later */
		{ SSP_RA_KEEP, 15, 1 },	/* back: the wait goes on */
		{ SSP_RA_TICK, 18, 1 },	/* later than 15: may end it */
		{ SSP_RA_TICK, 19, 1 },	/* and again, still at most 20 */
		{ SSP_RA_TICK, 19, 0 },
		{ SSP_RA_TICK, 25, 1 },	/* ends every wait */
		{ SSP_RA_TICK, 30, 0 },
		{ SSP_RA_SKIP, 40, 0 },
		{ SSP_RA_ARM, 50, 1 },
		{ SSP_RA_KEEP, 51, 1 },	/* ends it */
		{ SSP_RA_TICK, 52, 0 },
	};
	struct ssp_rec_tick k;
	unsigned i;

	(void)state;
	memset(&k, 0, sizeof(k));
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		int w = ssp_rec_tick_wants(&k, seq[i].act, seq[i].ts);

		assert_int_equal(w, seq[i].want);
		if (w)
			ssp_rec_tick_took(&k, seq[i].act, seq[i].ts);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varint),
		cmocka_unit_test(test_roundtrip_every_type),
		cmocka_unit_test(test_roundtrip_many_blocks_zstd),
		cmocka_unit_test(test_truncation_everywhere),
		cmocka_unit_test(test_bitflips_detected),
		cmocka_unit_test(test_bad_magic_and_wrong_format),
		cmocka_unit_test(test_concatenation),
		cmocka_unit_test(test_schema_evolution),
		cmocka_unit_test(test_event_old_layout),
		cmocka_unit_test(test_copy_remaps_strings),
		cmocka_unit_test(test_batch_reader),
		cmocka_unit_test(test_copy_raw),
		cmocka_unit_test(test_varint_fast_paths),
		cmocka_unit_test(test_minor_versions),
		cmocka_unit_test(test_packed_reader),
		cmocka_unit_test(test_packed_backwards),
		cmocka_unit_test(test_wide_records),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_tick_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
