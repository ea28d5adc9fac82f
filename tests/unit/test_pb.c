/* Protobuf primitives against known bytes (protobuf encoding guide and
 * hand-computed OTLP fields), backpatched lengths, and the field reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sink/pb.h"

#define BYTES(...) ((const uint8_t[]){ __VA_ARGS__ }), \
	sizeof((const uint8_t[]){ __VA_ARGS__ })

static void
expect(struct ssp_buf *b, const uint8_t *want, size_t n)
{
	assert_false(b->failed);
	assert_int_equal(b->len, n);
	assert_memory_equal(b->p, want, n);
	ssp_buf_reset(b);
}

static void
test_varints(void **state)
{
	struct ssp_buf b = SSP_BUF_INIT;

	(void)state;
	ssp_pb_varint(&b, 0);
	expect(&b, BYTES(0x00));
	ssp_pb_varint(&b, 1);
	expect(&b, BYTES(0x01));
	ssp_pb_varint(&b, 127);
	expect(&b, BYTES(0x7f));
	ssp_pb_varint(&b, 128);
	expect(&b, BYTES(0x80, 0x01));
	ssp_pb_varint(&b, 150);	/* the encoding guide's example */
	expect(&b, BYTES(0x96, 0x01));
	ssp_pb_varint(&b, 300);
	expect(&b, BYTES(0xac, 0x02));
	ssp_pb_varint(&b, UINT64_MAX);
	expect(&b, BYTES(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0x01));
	assert_int_equal(ssp_pb_varint_size(0), 1);
	assert_int_equal(ssp_pb_varint_size(127), 1);
	assert_int_equal(ssp_pb_varint_size(128), 2);
	assert_int_equal(ssp_pb_varint_size(16383), 2);
	assert_int_equal(ssp_pb_varint_size(16384), 3);
	assert_int_equal(ssp_pb_varint_size(UINT64_MAX), 10);
	ssp_buf_free(&b);
}

static void
test_fields(void **state)
{
	struct ssp_buf b = SSP_BUF_INIT;

	(void)state;
	/* message Test1 { int32 a = 1; } a = 150 -> 08 96 01 */
	ssp_pb_uint(&b, 1, 150);
	expect(&b, BYTES(0x08, 0x96, 0x01));
	/* Span.kind = 6, SPAN_KIND_CLIENT = 3 */
	ssp_pb_uint(&b, 6, 3);
	expect(&b, BYTES(0x30, 0x03));
	/* AnyValue.int_value = 3, int64 -1: ten bytes */
	ssp_pb_uint(&b, 3, (uint64_t)-1);
	expect(&b, BYTES(0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0x01));
	/* Span.start_time_unix_nano = 7, fixed64, little-endian */
	ssp_pb_fixed64(&b, 7, 0x0102030405060708ull);
	expect(&b, BYTES(0x39, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01));
	/* Span.flags = 16, fixed32: the tag needs two bytes */
	ssp_pb_fixed32(&b, 16, 0x100);
	expect(&b, BYTES(0x85, 0x01, 0x00, 0x01, 0x00, 0x00));
	/* Span.name = 5 */
	ssp_pb_bytes(&b, 5, "abc", 3);
	expect(&b, BYTES(0x2a, 0x03, 'a', 'b', 'c'));
	/* an empty string field still has its tag and length */
	ssp_pb_bytes(&b, 2, "", 0);
	expect(&b, BYTES(0x12, 0x00));
	/* Span.status = 15, length-delimited */
	ssp_pb_tag(&b, 15, SSP_PB_LEN);
	expect(&b, BYTES(0x7a));
	assert_int_equal(ssp_pb_len_field_size(5, 3), 5);
	assert_int_equal(ssp_pb_len_field_size(16, 200), 2 + 2 + 200);
	ssp_buf_free(&b);
}

/* A nested message must come out the same whatever the length hint. */
static void
test_backpatch(void **state)
{
	static const unsigned sizes[] = { 0, 1, 127, 128, 300, 16383, 16384,
	    70000 };
	static const unsigned hints[] = { 0, 1, 2, 3, 4, 5, 10, 11 };
	struct ssp_buf b = SSP_BUF_INIT, want = SSP_BUF_INIT;
	unsigned i, h, k;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ssp_buf_reset(&want);
		ssp_pb_tag(&want, 11, SSP_PB_LEN);
		ssp_pb_varint(&want, sizes[i]);
		for (k = 0; k < sizes[i]; k++)
			ssp_buf_putc(&want, (int)(k * 7));
		ssp_buf_lit(&want, "tail");
		for (h = 0; h < sizeof(hints) / sizeof(hints[0]); h++) {
			struct ssp_pb_mark m;

			ssp_buf_reset(&b);
			m = ssp_pb_begin(&b, 11, hints[h]);
			for (k = 0; k < sizes[i]; k++)
				ssp_buf_putc(&b, (int)(k * 7));
			ssp_pb_end(&b, m);
			ssp_buf_lit(&b, "tail");
			assert_int_equal(b.len, want.len);
			assert_memory_equal(b.p, want.p, want.len);
		}
	}
	/* nested: ScopeSpans { scope = 1 { name = 1 "simspan" } } */
	{
		struct ssp_pb_mark o, in;

		ssp_buf_reset(&b);
		o = ssp_pb_begin(&b, 2, 4);
		in = ssp_pb_begin(&b, 1, 1);
		ssp_pb_bytes(&b, 1, "simspan", 7);
		ssp_pb_end(&b, in);
		ssp_pb_end(&b, o);
		expect(&b, BYTES(0x12, 0x0b, 0x0a, 0x09, 0x0a, 0x07, 's', 'i',
		    'm', 's', 'p', 'a', 'n'));
	}
	ssp_buf_free(&b);
	ssp_buf_free(&want);
}

static void
test_reader(void **state)
{
	/* 1: varint 150, 2: "hi", 3: fixed64 1, 4: fixed32 2, 5: nested */
	static const uint8_t msg[] = { 0x08, 0x96, 0x01, 0x12, 0x02, 'h', 'i',
	    0x19, 1, 0, 0, 0, 0, 0, 0, 0, 0x25, 2, 0, 0, 0, 0x2a, 0x02, 0x08,
	    0x05 };
	struct ssp_pb_rd r = { msg, msg + sizeof(msg) };
	struct ssp_pb_field f;

	(void)state;
	assert_int_equal(ssp_pb_next(&r, &f), 1);
	assert_int_equal(f.num, 1);
	assert_int_equal(f.wt, SSP_PB_VARINT);
	assert_int_equal(f.v, 150);
	assert_int_equal(ssp_pb_next(&r, &f), 1);
	assert_int_equal(f.num, 2);
	assert_int_equal(f.wt, SSP_PB_LEN);
	assert_int_equal(f.n, 2);
	assert_memory_equal(f.p, "hi", 2);
	assert_int_equal(ssp_pb_next(&r, &f), 1);
	assert_int_equal(f.wt, SSP_PB_I64);
	assert_int_equal(f.v, 1);
	assert_int_equal(ssp_pb_next(&r, &f), 1);
	assert_int_equal(f.wt, SSP_PB_I32);
	assert_int_equal(f.v, 2);
	assert_int_equal(ssp_pb_next(&r, &f), 1);
	assert_int_equal(f.num, 5);
	assert_int_equal(f.n, 2);
	assert_int_equal(ssp_pb_next(&r, &f), 0);
}

static void
test_reader_malformed(void **state)
{
	static const struct { uint8_t b[8]; size_t n; } bad[] = {
		{ { 0x08 }, 1 },		/* varint missing */
		{ { 0x08, 0x80 }, 2 },		/* varint cut */
		{ { 0x12, 0x05, 'a' }, 3 },	/* length past the end */
		{ { 0x19, 1, 2 }, 3 },		/* fixed64 cut */
		{ { 0x1b }, 1 },		/* wire type 3 (group) */
		{ { 0x1e, 0 }, 2 },		/* wire type 6 */
		{ { 0x00, 0 }, 2 },		/* field number 0 */
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ssp_pb_rd r = { bad[i].b, bad[i].b + bad[i].n };
		struct ssp_pb_field f;

		assert_int_equal(ssp_pb_next(&r, &f), -1);
	}
}

static void
test_buf_failure_sticky(void **state)
{
	struct ssp_buf b = SSP_BUF_INIT;

	(void)state;
	ssp_buf_lit(&b, "ab");
	assert_int_equal(ssp_buf_grow(&b, SIZE_MAX / 2), -1);
	assert_true(b.failed);
	ssp_pb_uint(&b, 1, 1);
	ssp_buf_lit(&b, "cd");
	assert_int_equal(b.len, 2);	/* nothing appended after the failure */
	ssp_buf_reset(&b);
	assert_false(b.failed);
	ssp_buf_lit(&b, "ok");
	assert_int_equal(b.len, 2);
	ssp_buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varints),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_backpatch),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_reader_malformed),
		cmocka_unit_test(test_buf_failure_sticky),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
