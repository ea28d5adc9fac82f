/* Number scanners: the SWAR fast paths against plain loops on random
 * strings, and the edges (overflow, lengths, bytes >= 0x80). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "base/scan.h"

static int
ref_hex(const char *p, const char *end, uint64_t *v, size_t *n)
{
	const char *q = p;
	uint64_t r = 0;
	int d;

	if (q >= end || (d = ssp_hexval(*q)) < 0)
		return -1;
	do {
		if (r >> 60)
			return -1;
		r = r << 4 | (uint64_t)d;
		q++;
	} while (q < end && (d = ssp_hexval(*q)) >= 0);
	*v = r;
	*n = (size_t)(q - p);
	return 0;
}

static int
ref_dec(const char *p, const char *end, uint64_t *v, size_t *n)
{
	const char *q = p;
	uint64_t r = 0;
	unsigned d;

	if (q >= end || !ssp_isdigit(*q))
		return -1;
	while (q < end && (d = (unsigned)*q - '0') < 10) {
		if (r > (UINT64_MAX - d) / 10)
			return -1;
		r = r * 10 + d;
		q++;
	}
	*v = r;
	*n = (size_t)(q - p);
	return 0;
}

static uint64_t rng = 88172645463325252ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Strings mostly of digits of one kind, sometimes other bytes. */
static void
compare(const char *alpha, unsigned pct)
{
	static const char other[] = "0123456789abcdefABCDEFxg :.\x80\xff-";
	char buf[48];
	long it;

	for (it = 0; it < 300000; it++) {
		size_t len = rnd(40), i, na = 0, nb = 0;
		const char *p, *q;
		uint64_t a = 0, b = 0;
		int ra, rb;

		for (i = 0; i < len; i++)
			buf[i] = rnd(100) < pct ? alpha[rnd((unsigned)strlen(alpha))] :
			    other[rnd(sizeof(other) - 1)];
		buf[len] = '\0';
		p = q = buf;
		ra = ssp_scan_hex(&q, p + len, &a);
		na = (size_t)(q - p);
		rb = ref_hex(p, p + len, &b, &nb);
		if (ra != rb || (ra == 0 && (a != b || na != nb)))
			fail_msg("hex '%s': %d %llx %zu, want %d %llx %zu", buf, ra,
			    (unsigned long long)a, na, rb, (unsigned long long)b, nb);
		q = p;
		ra = ssp_scan_dec(&q, p + len, &a);
		na = (size_t)(q - p);
		rb = ref_dec(p, p + len, &b, &nb);
		if (ra != rb || (ra == 0 && (a != b || na != nb)))
			fail_msg("dec '%s': %d %llu %zu, want %d %llu %zu", buf, ra,
			    (unsigned long long)a, na, rb, (unsigned long long)b, nb);
	}
}

static void
test_random(void **state)
{
	(void)state;
	compare("0123456789abcdef", 70);
	compare("0123456789", 93);
	compare("0123456789abcdefABCDEF", 97);
}

static void
test_edges(void **state)
{
	const char *s, *p;
	uint64_t v;
	int64_t i;

	(void)state;
	s = "18446744073709551615 ";	/* UINT64_MAX, SWAR then loop */
	p = s;
	assert_int_equal(ssp_scan_dec(&p, s + strlen(s), &v), 0);
	assert_true(v == UINT64_MAX);
	s = "18446744073709551616 ";
	p = s;
	assert_int_equal(ssp_scan_dec(&p, s + strlen(s), &v), -1);
	assert_ptr_equal(p, s);
	s = "ffffffffffffffff: more text";
	p = s;
	assert_int_equal(ssp_scan_hex(&p, s + strlen(s), &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(*p, ':');
	s = "1ffffffffffffffff: more text";
	p = s;
	assert_int_equal(ssp_scan_hex(&p, s + strlen(s), &v), -1);
	s = "00000000000000000000ff: more";	/* leading zeros are fine */
	p = s;
	assert_int_equal(ssp_scan_hex(&p, s + strlen(s), &v), 0);
	assert_int_equal(v, 0xff);
	s = "-9223372036854775808";
	p = s;
	assert_int_equal(ssp_scan_sdec(&p, s + strlen(s), &i), 0);
	assert_true(i == INT64_MIN);
	s = "9223372036854775808";
	p = s;
	assert_int_equal(ssp_scan_sdec(&p, s + strlen(s), &i), -1);
	s = "12 ";
	p = s;
	assert_int_equal(ssp_scan_small(&p, s + 3, &v), 0);
	assert_int_equal(v, 12);
	s = "1234567890";	/* more than 9 digits is not small */
	p = s;
	assert_int_equal(ssp_scan_small(&p, s + 10, &v), -1);
	s = "a: b: c";
	assert_ptr_equal(ssp_find_colsp(s, s + 7), s + 1);
	assert_null(ssp_find_colsp(s, s + 1));
	s = "a:b:";
	assert_null(ssp_find_colsp(s, s + 4));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
