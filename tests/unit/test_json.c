/* JSON escaping with UTF-8 repair, decimal numbers, and the small reader
 * used for collector responses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/strfmt.h"

static void
check_str(const char *in, size_t n, unsigned flags, const char *want)
{
	struct ssp_buf b = SSP_BUF_INIT;

	if (flags == 0)
		ssp_strfmt_json_str(&b, in, n);
	else
		ssp_strfmt_json_str_flags(&b, in, n, flags);
	assert_false(b.failed);
	if (b.len != strlen(want) || memcmp(b.p, want, b.len) != 0)
		fail_msg("json_str: got '%.*s', want '%s'", (int)b.len,
		    (const char *)b.p, want);
	ssp_buf_free(&b);
}
#define STR(lit, want) check_str(lit, sizeof(lit) - 1, 0, want)
#define STRF(lit, f, want) check_str(lit, sizeof(lit) - 1, f, want)

static void
test_escaping(void **state)
{
	(void)state;
	STR("", "\"\"");
	STR("plain_text.sym+0x10", "\"plain_text.sym+0x10\"");
	STR("a\"b\\c/d", "\"a\\\"b\\\\c/d\"");
	STR("\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\"");
	STR("\x01\x1f", "\"\\u0001\\u001f\"");
	STR("nul\0byte", "\"nul\\u0000byte\"");
	STR("del\x7f", "\"del\x7f\"");	/* DEL needs no escape */
	/* valid UTF-8 is kept: 2, 3 and 4 byte sequences */
	STR("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* invalid bytes become U+FFFD, one per bad byte */
	STR("a\xff" "b", "\"a\xef\xbf\xbd" "b\"");
	STR("\xe2\x82", "\"\xef\xbf\xbd\xef\xbf\xbd\"");	/* cut */
	STR("\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"");	/* overlong */
	STR("\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");	/* surrogate */
	STR("\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
}

/* The forms evcat and spancat -j write (flags). */
static void
test_escaping_flags(void **state)
{
	(void)state;
	STRF("\n\r\t\b\f\x7f", SSP_STRFMT_CTL_U,
	    "\"\\n\\r\\t\\u0008\\u000c\\u007f\"");
	STRF("a\"\\\x01", SSP_STRFMT_CTL_U, "\"a\\\"\\\\\\u0001\"");
	STRF("a\xff" "b", SSP_STRFMT_BAD_ESC, "\"a\\ufffdb\"");
	STRF("\xe2\x82\xac\xe2\x82", SSP_STRFMT_CTL_U | SSP_STRFMT_BAD_ESC,
	    "\"\xe2\x82\xac\\ufffd\\ufffd\"");
	STRF("\b\x7f", SSP_STRFMT_BAD_ESC, "\"\\b\x7f\"");
}

static void
test_utf8(void **state)
{
	struct ssp_buf b = SSP_BUF_INIT;

	(void)state;
	assert_int_equal(ssp_strfmt_utf8_valid("abc", 3), 3);
	assert_int_equal(ssp_strfmt_utf8_valid("\xc3\xa9x", 3), 3);
	assert_int_equal(ssp_strfmt_utf8_valid("ab\xff", 3), 2);
	assert_int_equal(ssp_strfmt_utf8_valid("\xe2\x82", 2), 0);
	ssp_strfmt_utf8_repair(&b, "x\xffy\xe2\x82\xac", 6);
	assert_int_equal(b.len, 8);
	assert_memory_equal(b.p, "x\xef\xbf\xbdy\xe2\x82\xac", 8);
	ssp_buf_free(&b);
}

static void
test_numbers(void **state)
{
	static const struct { uint64_t v; const char *s; } u[] = {
		{ 0, "0" }, { 9, "9" }, { 10, "10" }, { 99, "99" },
		{ 100, "100" }, { 12345, "12345" }, { 99999999, "99999999" },
		{ 100000000, "100000000" }, { 2000000000000ull, "2000000000000" },
		{ 9999999999999999ull, "9999999999999999" },
		{ 10000000000000000ull, "10000000000000000" },
		{ 1234567890123456789ull, "1234567890123456789" },
		{ UINT64_MAX, "18446744073709551615" },
	};
	char buf[24];
	unsigned i;
	size_t n;

	(void)state;
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		n = ssp_strfmt_u64(buf, u[i].v);
		buf[n] = '\0';
		assert_string_equal(buf, u[i].s);
	}
	/* every power of ten and its neighbours */
	for (i = 0; i < 20; i++) {
		uint64_t p = 1, d;
		char want[24];

		for (n = 0; n < i; n++)
			p *= 10;
		for (d = p - 1; d <= p + 1; d++) {
			n = ssp_strfmt_u64(buf, d);
			buf[n] = '\0';
			snprintf(want, sizeof(want), "%llu", (unsigned long long)d);
			assert_string_equal(buf, want);
		}
	}
	n = ssp_strfmt_i64(buf, -1);
	buf[n] = '\0';
	assert_string_equal(buf, "-1");
	n = ssp_strfmt_i64(buf, INT64_MIN);
	buf[n] = '\0';
	assert_string_equal(buf, "-9223372036854775808");
	n = ssp_strfmt_i64(buf, INT64_MAX);
	buf[n] = '\0';
	assert_string_equal(buf, "9223372036854775807");
}

static void
test_find(void **state)
{
	static const char doc[] = " { \"a\": [1, {\"x\": \"}\"}], \"s\\\"k\": 2,"
	    " \"partialSuccess\" : {\"rejectedSpans\":\"3\", \"errorMessage\":"
	    "\"too \\\"old\\\"\\n\"}, \"t\": true, \"n\": null }";
	static const char *const p1[] = { "partialSuccess", "rejectedSpans" };
	static const char *const p2[] = { "partialSuccess", "errorMessage" };
	static const char *const p3[] = { "partialSuccess", "nope" };
	static const char *const p4[] = { "s\"k" };
	static const char *const p5[] = { "t" };
	static const char *const p6[] = { "a", "x" };
	const char *v;
	size_t vl;
	char s[64];
	int64_t i;

	(void)state;
	assert_int_equal(ssp_strfmt_json_find(doc, strlen(doc), p1, 2, &v, &vl), 1);
	assert_int_equal(ssp_strfmt_json_int(v, vl, &i), 0);
	assert_int_equal(i, 3);
	assert_int_equal(ssp_strfmt_json_find(doc, strlen(doc), p2, 2, &v, &vl), 1);
	assert_int_equal(ssp_strfmt_json_unquote(v, vl, s, sizeof(s)), 0);
	assert_string_equal(s, "too \"old\"\n");
	assert_int_equal(ssp_strfmt_json_find(doc, strlen(doc), p3, 2, &v, &vl), 0);
	assert_int_equal(ssp_strfmt_json_find(doc, strlen(doc), p4, 1, &v, &vl), 1);
	assert_int_equal(ssp_strfmt_json_int(v, vl, &i), 0);
	assert_int_equal(i, 2);
	assert_int_equal(ssp_strfmt_json_find(doc, strlen(doc), p5, 1, &v, &vl), 1);
	assert_int_equal(vl, 4);
	assert_int_equal(ssp_strfmt_json_find(doc, strlen(doc), p6, 2, &v, &vl), 0);
	/* malformed documents */
	assert_int_equal(ssp_strfmt_json_find("{\"a\":", 5, p5, 1, &v, &vl), -1);
	assert_int_equal(ssp_strfmt_json_find("[1]", 3, p5, 1, &v, &vl), -1);
	assert_int_equal(ssp_strfmt_json_find("{\"a\" 1}", 7, p5, 1, &v, &vl), -1);
	assert_int_equal(ssp_strfmt_json_find("{\"a\":tru}", 9, p5, 1, &v, &vl), -1);
	assert_int_equal(ssp_strfmt_json_find("{}", 2, p5, 1, &v, &vl), 0);
	/* integers: numbers or strings, nothing else */
	assert_int_equal(ssp_strfmt_json_int("-42", 3, &i), 0);
	assert_int_equal(i, -42);
	assert_int_equal(ssp_strfmt_json_int("\"9223372036854775807\"", 21, &i), 0);
	assert_int_equal(i, INT64_MAX);
	assert_int_equal(ssp_strfmt_json_int("\"9223372036854775808\"", 21, &i), -1);
	assert_int_equal(ssp_strfmt_json_int("1.5", 3, &i), -1);
	assert_int_equal(ssp_strfmt_json_int("\"\"", 2, &i), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_escaping_flags),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
