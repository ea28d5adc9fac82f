/* Block framing (formats/framing.md §2): good blocks, empty payloads,
 * skippable and unknown blocks, truncated headers and payloads, checksum
 * mismatches, and the offsets the errors name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "io/in.h"
#include "io/out.h"
#include "stream/frame.h"

/* A stream built by hand, with zlib's crc32 as the reference. */
struct sbuf {
	uint8_t b[4096];
	size_t n;
};

static void
put(struct sbuf *s, const void *p, size_t n)
{
	assert_true(s->n + n <= sizeof(s->b));
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Append a block; returns its offset. */
static size_t
block(struct sbuf *s, unsigned type, const void *payload, size_t len)
{
	uint8_t h[SSP_BLOCK_HDR] = { (uint8_t)type, 0, 0, 0 };
	size_t at = s->n;
	uLong c;

	put_le32(h + 4, (uint32_t)len);
	c = crc32(0L, h, 8);
	c = crc32(c, payload != NULL ? payload : (const void *)"", (uInt)len);
	put_le32(h + 8, (uint32_t)c);
	put(s, h, sizeof(h));
	if (len > 0)
		put(s, payload, len);
	return at;
}

static struct ssp_in *
mem_in(const uint8_t *p, size_t n)
{
	struct ssp_in *in;
	int fd = memfd_create("frame", MFD_CLOEXEC);

	assert_true(fd >= 0);
	if (n > 0)
		assert_int_equal(write(fd, p, n), (ssize_t)n);
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(ssp_in_fdopen(&in, fd, "mem", 0, NULL), SSP_OK);
	return in;
}

struct rd {
	struct ssp_in *in;
	struct ssp_frame_rd *f;
	struct ssp_err e;
};

static void
rd_open(struct rd *r, const struct sbuf *s)
{
	memset(r, 0, sizeof(*r));
	r->in = mem_in(s->b, s->n);
	assert_int_equal(ssp_frame_rd_open(&r->f, r->in, ssp_frame_magic_events, &r->e), SSP_OK);
}

static void
rd_close(struct rd *r)
{
	ssp_frame_rd_close(r->f);
	ssp_in_close(r->in);
}

/* The next block must be of type with this payload, at offset. */
static void
expect_block(struct rd *r, unsigned type, const char *payload, size_t len,
    size_t offset, int new_segment)
{
	struct ssp_block b;

	assert_int_equal(ssp_frame_rd_next(r->f, &b, &r->e), 1);
	assert_int_equal(b.type, type);
	assert_int_equal(b.len, len);
	assert_non_null(b.payload);
	if (len > 0)
		assert_memory_equal(b.payload, payload, len);
	assert_int_equal(b.offset, offset);
	assert_int_equal(b.new_segment, new_segment);
}

/* The next call must fail with code, naming offset in e and in the text. */
static void
expect_error(struct rd *r, int code, uint64_t offset, const char *text)
{
	struct ssp_block b;
	char at[48];

	assert_int_equal(ssp_frame_rd_next(r->f, &b, &r->e), -code);	/* -status */
	assert_int_equal(r->e.code, code);
	assert_int_equal(r->e.offset, offset);
	snprintf(at, sizeof(at), "offset %llu", (unsigned long long)offset);
	if (strstr(r->e.msg, at) == NULL || strstr(r->e.msg, text) == NULL)
		fail_msg("message '%s' lacks '%s' or '%s'", r->e.msg, at, text);
}

static const uint8_t end_payload[3] = { 1, 0, 1 };

static void
test_good(void **state)
{
	struct sbuf s = { .n = 0 };
	struct rd r;
	struct ssp_block b;
	size_t h, d, e;

	(void)state;
	put(&s, ssp_frame_magic_events, SSP_MAGIC_LEN);
	h = block(&s, SSP_BLOCK_HEADER, "hdr", 3);
	d = block(&s, SSP_BLOCK_DATA, "data bytes", 10);
	e = block(&s, SSP_BLOCK_END, end_payload, 3);
	assert_int_equal(h, 8);
	assert_int_equal(d, 8 + 12 + 3);
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, h, 1);
	expect_block(&r, SSP_BLOCK_DATA, "data bytes", 10, d, 0);
	expect_block(&r, SSP_BLOCK_END, (const char *)end_payload, 3, e, 0);
	assert_int_equal(ssp_frame_rd_next(r.f, &b, &r.e), 0);	/* clean end */
	assert_string_equal(ssp_frame_rd_name(r.f), "mem");
	rd_close(&r);
}

/* Zero-length payloads: valid blocks with a non-NULL payload, even as the
 * first block (before the reader has a buffer). */
static void
test_empty_payload(void **state)
{
	struct sbuf s = { .n = 0 };
	struct rd r;
	struct ssp_block b;
	size_t h, d, e;

	(void)state;
	put(&s, ssp_frame_magic_events, SSP_MAGIC_LEN);
	h = block(&s, SSP_BLOCK_HEADER, NULL, 0);
	d = block(&s, SSP_BLOCK_DATA, NULL, 0);
	e = block(&s, SSP_BLOCK_END, NULL, 0);
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, NULL, 0, h, 1);
	expect_block(&r, SSP_BLOCK_DATA, NULL, 0, d, 0);
	expect_block(&r, SSP_BLOCK_END, NULL, 0, e, 0);
	assert_int_equal(ssp_frame_rd_next(r.f, &b, &r.e), 0);
	rd_close(&r);
}

/* The writer emits exactly what the spec (and the hand-built stream) says. */
static void
test_writer(void **state)
{
	struct sbuf s = { .n = 0 };
	struct ssp_out *o;
	struct ssp_err e = { 0 };
	char path[64];
	uint8_t got[4096];
	FILE *f;
	size_t n;

	(void)state;
	put(&s, ssp_frame_magic_spans, SSP_MAGIC_LEN);
	block(&s, SSP_BLOCK_HEADER, "h", 1);
	block(&s, SSP_BLOCK_DATA, NULL, 0);
	block(&s, SSP_BLOCK_END, end_payload, 3);
	snprintf(path, sizeof(path), "/tmp/ssp-test-frame-%d", (int)getpid());
	assert_int_equal(ssp_out_open(&o, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_frame_magic(o, ssp_frame_magic_spans, &e), SSP_OK);
	assert_int_equal(ssp_frame_block(o, SSP_BLOCK_HEADER, (const uint8_t *)"h", 1,
	    &e), SSP_OK);
	assert_int_equal(ssp_frame_block(o, SSP_BLOCK_DATA, NULL, 0, &e), SSP_OK);
	assert_int_equal(ssp_frame_block(o, SSP_BLOCK_END, end_payload, 3, &e), SSP_OK);
	assert_int_equal(ssp_frame_block(o, SSP_BLOCK_DATA, NULL, SSP_BLOCK_MAX + 1,
	    &e), SSP_ERR_LIMIT);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(got, 1, sizeof(got), f);
	fclose(f);
	unlink(path);
	assert_int_equal(n, s.n);
	assert_memory_equal(got, s.b, n);
}

static void
test_truncated_header(void **state)
{
	struct sbuf s = { .n = 0 };
	struct rd r;
	size_t d;

	(void)state;
	put(&s, ssp_frame_magic_events, SSP_MAGIC_LEN);
	block(&s, SSP_BLOCK_HEADER, "hdr", 3);
	d = block(&s, SSP_BLOCK_DATA, "xy", 2);
	s.n = d + 5;	/* 5 of 12 header bytes */
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, 8, 1);
	expect_error(&r, SSP_ERR_TRUNCATED, d, "partial block header");
	rd_close(&r);

	/* ends after a data block: no end block */
	s.n = d + SSP_BLOCK_HDR + 2;
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, 8, 1);
	expect_block(&r, SSP_BLOCK_DATA, "xy", 2, d, 0);
	expect_error(&r, SSP_ERR_TRUNCATED, s.n, "no end block");
	rd_close(&r);
}

static void
test_truncated_payload(void **state)
{
	struct sbuf s = { .n = 0 };
	struct rd r;
	uint8_t pay[100];
	size_t d;

	(void)state;
	memset(pay, 'p', sizeof(pay));
	put(&s, ssp_frame_magic_events, SSP_MAGIC_LEN);
	block(&s, SSP_BLOCK_HEADER, "hdr", 3);
	d = block(&s, SSP_BLOCK_DATA, pay, sizeof(pay));
	s.n = d + SSP_BLOCK_HDR + 40;
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, 8, 1);
	expect_error(&r, SSP_ERR_TRUNCATED, d, "block needs 100 bytes, 40 left");
	rd_close(&r);
}

static void
test_checksum(void **state)
{
	struct sbuf s = { .n = 0 };
	struct rd r;
	size_t d;

	(void)state;
	put(&s, ssp_frame_magic_events, SSP_MAGIC_LEN);
	block(&s, SSP_BLOCK_HEADER, "hdr", 3);
	d = block(&s, SSP_BLOCK_DATA, "payload", 7);
	block(&s, SSP_BLOCK_END, end_payload, 3);

	s.b[d + SSP_BLOCK_HDR + 3] ^= 0x20;	/* a payload byte */
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, 8, 1);
	expect_error(&r, SSP_ERR_CHECKSUM, d, "block checksum mismatch");
	rd_close(&r);
	s.b[d + SSP_BLOCK_HDR + 3] ^= 0x20;

	s.b[d + 1] = 0x80;	/* the flags byte is covered too */
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, 8, 1);
	expect_error(&r, SSP_ERR_CHECKSUM, d, "block checksum mismatch");
	rd_close(&r);
	s.b[d + 1] = 0;

	s.b[d + 8] ^= 1;	/* the stored checksum itself */
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, 8, 1);
	expect_error(&r, SSP_ERR_CHECKSUM, d, "stored");
	rd_close(&r);
}

/* Skippable blocks are passed over; unknown types and lengths past the
 * limit are errors at the block's offset. */
static void
test_block_types(void **state)
{
	struct sbuf s = { .n = 0 };
	struct rd r;
	uint8_t h[SSP_BLOCK_HDR] = { SSP_BLOCK_DATA, 0, 0, 0 };
	size_t d, e;

	(void)state;
	put(&s, ssp_frame_magic_events, SSP_MAGIC_LEN);
	block(&s, 0x40, "skip me", 7);
	block(&s, SSP_BLOCK_HEADER, "hdr", 3);
	block(&s, 0x7f, NULL, 0);
	d = block(&s, SSP_BLOCK_DATA, "d", 1);
	e = block(&s, SSP_BLOCK_END, end_payload, 3);
	block(&s, 0x04, "?", 1);
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, 8 + 12 + 7, 1);
	expect_block(&r, SSP_BLOCK_DATA, "d", 1, d, 0);
	expect_block(&r, SSP_BLOCK_END, (const char *)end_payload, 3, e, 0);
	/* after an end block, anything but another magic is bad */
	{
		struct ssp_block b;

		assert_int_equal(ssp_frame_rd_next(r.f, &b, &r.e), -SSP_ERR_FORMAT);
		assert_int_equal(r.e.code, SSP_ERR_FORMAT);
		assert_non_null(strstr(r.e.msg, "bad magic"));
	}
	rd_close(&r);

	s.n = e;	/* replace the end block by an unknown type */
	block(&s, 0x04, "?", 1);
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, 8 + 12 + 7, 1);
	expect_block(&r, SSP_BLOCK_DATA, "d", 1, d, 0);
	expect_error(&r, SSP_ERR_FORMAT, e, "unknown block type 0x04");
	rd_close(&r);

	s.n = e;	/* a length past the limit */
	put_le32(h + 4, SSP_BLOCK_MAX + 1);
	put(&s, h, sizeof(h));
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "hdr", 3, 8 + 12 + 7, 1);
	expect_block(&r, SSP_BLOCK_DATA, "d", 1, d, 0);
	expect_error(&r, SSP_ERR_FORMAT, e, "exceeds the 16777216-byte limit");
	rd_close(&r);
}

/* A second magic after an end block starts a new segment (§6). */
static void
test_segments(void **state)
{
	struct sbuf s = { .n = 0 };
	struct rd r;
	struct ssp_block b;
	size_t h2;

	(void)state;
	put(&s, ssp_frame_magic_events, SSP_MAGIC_LEN);
	block(&s, SSP_BLOCK_HEADER, "a", 1);
	block(&s, SSP_BLOCK_END, end_payload, 3);
	put(&s, ssp_frame_magic_events, SSP_MAGIC_LEN);
	h2 = block(&s, SSP_BLOCK_HEADER, "b", 1);
	block(&s, SSP_BLOCK_END, end_payload, 3);
	rd_open(&r, &s);
	expect_block(&r, SSP_BLOCK_HEADER, "a", 1, 8, 1);
	expect_block(&r, SSP_BLOCK_END, (const char *)end_payload, 3, 8 + 13, 0);
	expect_block(&r, SSP_BLOCK_HEADER, "b", 1, h2, 1);
	expect_block(&r, SSP_BLOCK_END, (const char *)end_payload, 3, h2 + 13, 0);
	assert_int_equal(ssp_frame_rd_next(r.f, &b, &r.e), 0);
	rd_close(&r);
}

/* The magic: empty input, the other format, text, a cut magic. */
static void
test_magic(void **state)
{
	static const struct {
		const char *in;
		size_t n;
		int code;
		const char *text;
	} cases[] = {
		{ "", 0, SSP_ERR_TRUNCATED, "empty input" },
		{ "\x89SSSP\r\n\x1a", 8, SSP_ERR_FORMAT, "this is a span stream" },
		{ "1: global: x\n", 13, SSP_ERR_FORMAT, "it is text" },
		{ "\x89SSE", 4, SSP_ERR_TRUNCATED, "truncated magic" },
	};
	struct ssp_frame_rd *f;
	struct ssp_in *in;
	struct ssp_err e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&e, 0, sizeof(e));
		in = mem_in((const uint8_t *)cases[i].in, cases[i].n);
		assert_int_equal(ssp_frame_rd_open(&f, in, ssp_frame_magic_events, &e), cases[i].code);
		assert_null(f);
		if (strstr(e.msg, cases[i].text) == NULL)
			fail_msg("'%s' lacks '%s'", e.msg, cases[i].text);
		ssp_in_close(in);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_empty_payload),
		cmocka_unit_test(test_writer),
		cmocka_unit_test(test_truncated_header),
		cmocka_unit_test(test_truncated_payload),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_block_types),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_magic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
