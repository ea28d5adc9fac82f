/* spancat --tree's times for people (ssp_spantree_time). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sink/spantree.h"

static void
check(int64_t ps, const char *want)
{
	char b[40];

	assert_int_equal(ssp_spantree_time(b, sizeof(b), ps), strlen(want));
	assert_string_equal(b, want);
}

static void
test_time(void **state)
{
	(void)state;
	check(0, "0 ps");
	check(999, "999 ps");
	check(1000, "1.000 ns");
	check(60000, "60.000 ns");
	check(12345, "12.345 ns");
	check(4601000, "4.601 us");
	check(4601999, "4.601 us");		/* cut, not rounded */
	check(2000004000, "2.000 ms");
	check(999999999999, "999.999 ms");
	check(1250000000000, "1.250 s");
	check(-1500, "-1.500 ns");
	check(INT64_MAX, "9223372.036 s");
	check(INT64_MIN, "-9223372.036 s");
}

static void
test_small_buffer(void **state)
{
	char b[6];

	(void)state;
	ssp_spantree_time(b, sizeof(b), 4601000);
	assert_string_equal(b, "4.601");
}

/* --trace: the whole id, its low half, 0x, and what is no id. */
static void
test_parse_trace(void **state)
{
	struct ssp_spantree_opts o = { 0 };

	(void)state;
	assert_int_equal(ssp_spantree_parse_trace(
	    "0123456789abcdef0123456789ABCDEF", &o), 0);
	assert_true(o.trace && !o.lo_only);
	assert_true(o.trace_hi == 0x0123456789abcdefull);
	assert_true(o.trace_lo == 0x0123456789abcdefull);
	assert_int_equal(ssp_spantree_parse_trace("0x1f", &o), 0);
	assert_true(o.lo_only && o.trace_hi == 0 && o.trace_lo == 0x1f);
	/* 17 digits: the first is the high half's */
	assert_int_equal(ssp_spantree_parse_trace("10000000000000002", &o), 0);
	assert_true(!o.lo_only && o.trace_hi == 1 && o.trace_lo == 2);
	assert_int_equal(ssp_spantree_parse_trace("", &o), -1);
	assert_int_equal(ssp_spantree_parse_trace("0x", &o), -1);
	assert_int_equal(ssp_spantree_parse_trace("xyz", &o), -1);
	assert_int_equal(ssp_spantree_parse_trace(
	    "0123456789abcdef0123456789abcdef0", &o), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_parse_trace),
		cmocka_unit_test(test_small_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
