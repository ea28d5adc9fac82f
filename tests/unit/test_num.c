/* Number, duration and size parsing (base/num): options, filter specs and
 * rule tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/num.h"

static void
test_strtonum(void **state)
{
	const char *err = NULL;
	int64_t v;

	(void)state;
	assert_int_equal(ssp_num_strtonum("42", 0, 100, &v, &err), 0);
	assert_int_equal(v, 42);
	assert_int_equal(ssp_num_strtonum("101", 0, 100, &v, &err), -1);
	assert_string_equal(err, "too large");
	assert_int_equal(ssp_num_strtonum("-1", 0, 100, &v, &err), -1);
	assert_string_equal(err, "too small");
	assert_int_equal(ssp_num_strtonum("4x", 0, 100, &v, &err), -1);
	assert_string_equal(err, "invalid");
	assert_int_equal(ssp_num_strtonum("", 0, 100, &v, &err), -1);
}

static void
test_parse_time(void **state)
{
	const char *err = NULL;
	int64_t ps;

	(void)state;
	assert_int_equal(ssp_num_parse_time("7", &ps, &err), 0);
	assert_int_equal(ps, 7);
	assert_int_equal(ssp_num_parse_time("3ns", &ps, &err), 0);
	assert_int_equal(ps, 3000);
	assert_int_equal(ssp_num_parse_time("2us", &ps, &err), 0);
	assert_int_equal(ps, 2000000);
	assert_int_equal(ssp_num_parse_time("5ms", &ps, &err), 0);
	assert_int_equal(ps, 5000000000);
	assert_int_equal(ssp_num_parse_time("1s", &ps, &err), 0);
	assert_int_equal(ps, 1000000000000);
	assert_int_equal(ssp_num_parse_time("-4ns", &ps, &err), 0);
	assert_int_equal(ps, -4000);
	assert_int_equal(ssp_num_parse_time("ms", &ps, &err), -1);
	assert_int_equal(ssp_num_parse_time("99999999s", &ps, &err), -1);
	assert_int_equal(ssp_num_parse_time("1h", &ps, &err), -1);
}

static void
test_parse_ms(void **state)
{
	const char *err = NULL;
	uint64_t ms;

	(void)state;
	assert_int_equal(ssp_num_parse_ms("30", &ms, &err), 0);
	assert_int_equal(ms, 30000);
	assert_int_equal(ssp_num_parse_ms("30s", &ms, &err), 0);
	assert_int_equal(ms, 30000);
	assert_int_equal(ssp_num_parse_ms("500ms", &ms, &err), 0);
	assert_int_equal(ms, 500);
	assert_int_equal(ssp_num_parse_ms("2min", &ms, &err), 0);
	assert_int_equal(ms, 120000);
	assert_int_equal(ssp_num_parse_ms("0ms", &ms, &err), 0);
	assert_int_equal(ms, 0);
	assert_int_equal(ssp_num_parse_ms("10080min", &ms, &err), 0);	/* a week */
	assert_int_equal(ssp_num_parse_ms("10081min", &ms, &err), -1);
	assert_string_equal(err, "too large");
	assert_int_equal(ssp_num_parse_ms("-1s", &ms, &err), -1);
	assert_int_equal(ssp_num_parse_ms("1h", &ms, &err), -1);
	assert_int_equal(ssp_num_parse_ms("", &ms, &err), -1);
	assert_int_equal(ssp_num_parse_ms("s", &ms, &err), -1);
	assert_int_equal(ssp_num_parse_ms("5ns", &ms, &err), -1);
	/* fractions (issue 26: --backoff 0.2 was invalid, 200ms fine) */
	assert_int_equal(ssp_num_parse_ms("0.2", &ms, &err), 0);
	assert_int_equal(ms, 200);
	assert_int_equal(ssp_num_parse_ms("1.5s", &ms, &err), 0);
	assert_int_equal(ms, 1500);
	assert_int_equal(ssp_num_parse_ms("0.001", &ms, &err), 0);
	assert_int_equal(ms, 1);
	assert_int_equal(ssp_num_parse_ms("0.25min", &ms, &err), 0);
	assert_int_equal(ms, 15000);
	assert_int_equal(ssp_num_parse_ms("0.0001", &ms, &err), -1);
	assert_string_equal(err, "finer than a millisecond");
	assert_int_equal(ssp_num_parse_ms("2.5ms", &ms, &err), -1);
	assert_int_equal(ssp_num_parse_ms("604800.001", &ms, &err), -1);
	assert_string_equal(err, "too large");
	assert_int_equal(ssp_num_parse_ms("604799.999", &ms, &err), 0);
	assert_int_equal(ssp_num_parse_ms(".5", &ms, &err), -1);
	assert_int_equal(ssp_num_parse_ms("1.", &ms, &err), -1);
	assert_int_equal(ssp_num_parse_ms("1.2.3", &ms, &err), -1);
	assert_int_equal(ssp_num_parse_ms("1.-5", &ms, &err), -1);
	assert_int_equal(ssp_num_parse_ms("1.1234567", &ms, &err), -1);
}

static void
test_parse_bytes(void **state)
{
	const char *err = NULL;
	uint64_t n;

	(void)state;
	assert_int_equal(ssp_num_parse_bytes("4194304", &n, &err), 0);
	assert_true(n == 4194304);
	assert_int_equal(ssp_num_parse_bytes("4M", &n, &err), 0);
	assert_true(n == 4194304);
	assert_int_equal(ssp_num_parse_bytes("4MiB", &n, &err), 0);
	assert_true(n == 4194304);
	assert_int_equal(ssp_num_parse_bytes("512k", &n, &err), 0);
	assert_true(n == 524288);
	assert_int_equal(ssp_num_parse_bytes("2KiB", &n, &err), 0);
	assert_true(n == 2048);
	assert_int_equal(ssp_num_parse_bytes("1G", &n, &err), 0);
	assert_true(n == 1073741824);
	assert_int_equal(ssp_num_parse_bytes("0", &n, &err), 0);
	assert_true(n == 0);
	assert_int_equal(ssp_num_parse_bytes("99999999999G", &n, &err), -1);
	assert_string_equal(err, "too large");
	assert_int_equal(ssp_num_parse_bytes("-1", &n, &err), -1);
	assert_int_equal(ssp_num_parse_bytes("4MB", &n, &err), -1);
	assert_int_equal(ssp_num_parse_bytes("M", &n, &err), -1);
	assert_int_equal(ssp_num_parse_bytes("", &n, &err), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strtonum),
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_parse_ms),
		cmocka_unit_test(test_parse_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
