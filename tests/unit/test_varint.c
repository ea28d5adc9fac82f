/* Varints: every fast form against the byte-by-byte definition, over edge
 * values (each length's bounds) and random values of every length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/varint.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Edge values, then random ones of random bit length. */
static uint64_t
value(unsigned i)
{
	static const uint64_t fixed[] = { 0, 1, 0x7f, 0x80, 0x3fff, 0x4000,
	    0x1fffff, 0x200000, UINT32_MAX, 1ULL << 32, (1ULL << 56) - 1,
	    1ULL << 56, (1ULL << 63) - 1, 1ULL << 63, UINT64_MAX };
	unsigned bits;

	if (i < sizeof(fixed) / sizeof(fixed[0]))
		return fixed[i];
	if (i < 2 * 64)		/* around every power of two */
		return (1ULL << (i % 64)) - (i / 64 == 0 ? 1 : 0);
	bits = (unsigned)(next() % 64) + 1;
	return next() >> (64 - bits);
}

#define N 200000

static void
test_put(void **state)
{
	uint8_t ref[SSP_VARINT_MAX], a[SSP_VARINT_MAX + 8], b[SSP_VARINT_MAX + 8];
	unsigned i;

	(void)state;
	for (i = 0; i < N; i++) {
		uint64_t v = value(i), w;
		size_t n = ssp_varint_ref_put(ref, v);

		assert_int_equal(ssp_varint_len(v), n);
		assert_int_equal(ssp_varint_put(a, v), n);
		assert_memory_equal(a, ref, n);
		assert_ptr_equal(ssp_varint_put_fast(b, v), b + n);
		assert_memory_equal(b, ref, n);
		assert_int_equal(ssp_varint_ref_get(ref, ref + n, &w), n);
		assert_true(w == v);
		assert_int_equal(ssp_unzigzag(ssp_zigzag((int64_t)v)), (int64_t)v);
	}
}

/* The cached form: the same bytes whether a long value is new, repeats
 * (copied) or alternates with another, of 9 and 10 bytes. */
static void
test_put_cached(void **state)
{
	uint8_t ref[SSP_VARINT_MAX], b[SSP_VARINT_MAX + 8];
	struct ssp_varint_big big = { 0 };
	unsigned i;

	(void)state;
	for (i = 0; i < N; i++) {
		uint64_t v = i % 4 == 3 ? 0xfedcba9876543210ULL :
		    i % 5 == 4 ? (1ULL << 56) + 5 : value(i / 2);
		size_t n = ssp_varint_ref_put(ref, v);

		memset(b, 0xaa, sizeof(b));
		assert_ptr_equal(ssp_varint_put_cached(b, v, &big), b + n);
		assert_memory_equal(b, ref, n);
		if (v >= 1ULL << 56) {	/* cached now: the copy is the same */
			memset(b, 0x55, sizeof(b));
			assert_true(big.v == v);
			assert_ptr_equal(ssp_varint_put_cached(b, v, &big), b + n);
			assert_memory_equal(b, ref, n);
		}
	}
}

static void
test_get(void **state)
{
	uint8_t buf[16];
	unsigned i;

	(void)state;
	for (i = 0; i < N; i++) {
		uint64_t v = value(i), w = 0, x = 0;
		size_t n = ssp_varint_ref_put(buf, v);
		const uint8_t *p = buf;
		unsigned bad = 0;

		memset(buf + n, (int)(next() & 0xff), sizeof(buf) - n);
		assert_int_equal(ssp_varint_get(&p, buf + n, &w), 0);
		assert_ptr_equal(p, buf + n);
		assert_true(w == v);
		assert_ptr_equal(ssp_varint_get_fast(buf, &x, &bad), buf + n);
		assert_true(x == v);
		assert_int_equal(bad, 0);
		p = buf;	/* one byte short */
		assert_int_equal(ssp_varint_get(&p, buf + n - 1, &w), -1);
		assert_int_equal(ssp_varint_ref_get(buf, buf + n - 1, &w), 0);
	}
}

/* Too long: an eleventh byte, or a tenth byte above 1. */
static void
test_bad(void **state)
{
	uint8_t buf[16];
	const uint8_t *p;
	uint64_t v;
	unsigned bad = 0;

	(void)state;
	memset(buf, 0xff, sizeof(buf));
	buf[9] = 0x02;
	p = buf;
	assert_int_equal(ssp_varint_get(&p, buf + 16, &v), -1);
	assert_int_equal(ssp_varint_ref_get(buf, buf + 16, &v), 0);
	(void)ssp_varint_get_fast(buf, &v, &bad);
	assert_int_not_equal(bad, 0);
	buf[9] = 0x81;
	p = buf;
	assert_int_equal(ssp_varint_get(&p, buf + 16, &v), -1);
	assert_int_equal(ssp_varint_ref_get(buf, buf + 16, &v), 0);
	bad = 0;
	(void)ssp_varint_get_fast(buf, &v, &bad);
	assert_int_not_equal(bad, 0);
	buf[9] = 0x01;		/* the largest value: fine */
	bad = 0;
	assert_ptr_equal(ssp_varint_get_fast(buf, &v, &bad), buf + 10);
	assert_int_equal(bad, 0);
	assert_true(v == UINT64_MAX);
}

/* Runs of varints of mixed lengths, mostly one byte, as records have. */
static void
test_run(void **state)
{
	enum { F = 18 };
	uint8_t buf[F * SSP_VARINT_MAX + 8];
	uint64_t want[F], got[F];
	unsigned r, i;

	(void)state;
	for (r = 0; r < 20000; r++) {
		size_t len = 0;
		unsigned bad = 0;

		for (i = 0; i < F; i++) {
			want[i] = next() % 4 != 0 ? next() % 128 : value(r * F + i);
			len += ssp_varint_ref_put(buf + len, want[i]);
		}
		memset(buf + len, 0xff, sizeof(buf) - len);
		assert_ptr_equal(ssp_varint_get_run(buf, got, F, &bad), buf + len);
		assert_int_equal(bad, 0);
		assert_memory_equal(got, want, sizeof(want));
	}
}

/* Skipping a run ends where decoding it does, and finds the same bad
 * varints: runs of 0 to 18 varints of every length, some too long. */
static void
test_skip(void **state)
{
	enum { F = 18 };
	uint8_t buf[F * SSP_VARINT_MAX + 24];
	unsigned r, i, n;

	(void)state;
	for (r = 0; r < 50000; r++) {
		size_t len = 0;
		const uint8_t *p;
		unsigned bad = 0, bad2 = 0;
		uint64_t v;

		n = r % (F + 1);
		for (i = 0; i < n; i++)
			len += ssp_varint_ref_put(buf + len, next() % 3 == 0 ?
			    next() % 128 : value(r * F + i));
		memset(buf + len, (int)(next() & 0xff), sizeof(buf) - len);
		if (r % 7 == 6 && n > 0) {	/* an overlong one in the middle */
			size_t at = next() % len;

			memset(buf + at, 0xff, 10);
			if (next() % 2)
				buf[at + 9] = 0x02;
		}
		for (p = buf, i = 0; i < n; i++)
			p = ssp_varint_get_fast(p, &v, &bad);
		assert_ptr_equal(ssp_varint_skip_run(buf, n, &bad2), p);
		assert_int_equal(bad2 != 0, bad != 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put),
		cmocka_unit_test(test_put_cached),
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_skip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
