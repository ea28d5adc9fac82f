/*
 * Attribute values as SQL text and JSON (lib/sqlite/attrjson): every
 * field encoding, absent values, strings escaped as ssp_strfmt does,
 * addresses and trace ids as text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sqlite/attrjson.h"
#include "sqlite_helpers.h"

static void
test_json_encoding(void **state)
{
	static const struct ssp_rec_type t = { "x", 11, { { "skip", 'u' },
	    { "u", 'u' }, { "x", 'x' }, { "absent", 'i' }, { "i", 'i' },
	    { "t", 't' }, { "yes", 'b' }, { "no", 'b' }, { "mac", 'm' },
	    { "ip", 'a' }, { "s", 's' } } };
	static const char want[] = "{\"u\":5,\"x\":-1,\"i\":-7,\"t\":-3,"
	    "\"yes\":true,\"no\":false,\"mac\":\"aa:bb:cc:dd:ee:0f\","
	    "\"ip\":\"10.0.0.255\"}";
	struct ssp_rec r;
	char buf[256];
	size_t n;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.nf = 11;
	r.f[0] = 99;
	r.f[1] = 5;
	r.f[2] = UINT64_MAX;
	r.f[3] = (uint64_t)-1;
	r.f[4] = (uint64_t)-7;
	r.f[5] = (uint64_t)-3;
	r.f[6] = 2;
	r.f[7] = 0;
	r.f[8] = 0xaabbccddee0full;
	r.f[9] = 0x0a0000ff;
	r.f[10] = 3;	/* no reader to resolve it: left out */
	n = ssp_attrjson_object(buf, sizeof(buf), &t, 1, &r, NULL);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
	/* like snprintf: the length it needs, a NUL-terminated prefix */
	n = ssp_attrjson_object(buf, 10, &t, 1, &r, NULL);
	assert_int_equal(n, strlen(want));
	assert_int_equal(strlen(buf), 9);
	assert_int_equal(strncmp(buf, want, 9), 0);
	assert_int_equal(ssp_attrjson_object(NULL, 0, &t, 1, &r, NULL), strlen(want));
	assert_int_equal(ssp_attrjson_object(buf, sizeof(buf), &t, 11, &r, NULL), 2);
	assert_string_equal(buf, "{}");
	/* SQLite reads it back as the same values */
	{
		sqlite3 *db;
		char sql[1200];

		assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
		ssp_attrjson_object(buf, sizeof(buf), &t, 1, &r, NULL);
		snprintf(sql, sizeof(sql), "SELECT json_valid('%s'), '%s' ->> 'x', "
		    "'%s' ->> 'yes', ('%s' ->> 'absent') IS NULL", buf, buf, buf, buf);
		assert_string_equal(qs(db, sql), "1|-1|1|1\n");
		sqlite3_close(db);
	}
}

/* Names and strings are JSON-escaped as ssp_strfmt_json_str does it:
 * invalid UTF-8 becomes U+FFFD, also where the escaper cuts long strings. */
static void
test_json_strings(void **state)
{
	static char lng[600];
	static struct ssp_rec_type t = { "x", 3, {
	    { "q\"\\\n\x01\b\f\x7f", 'u' }, { "bad\xff\xc3", 'u' },
	    { lng, 'u' } } };
	char buf[2048], want[2048];
	struct ssp_rec r;
	size_t i;

	(void)state;
	/* 'a's with a two-byte and a four-byte character across the cut */
	memset(lng, 'a', 590);
	memcpy(lng + 255, "\xc3\xa9", 2);
	memcpy(lng + 510, "\xf0\x9f\x98\x80", 4);
	lng[590] = '\0';
	memset(&r, 0, sizeof(r));
	r.nf = 3;
	for (i = 0; i < 3; i++)
		r.f[i] = i;
	snprintf(want, sizeof(want), "{\"q\\\"\\\\\\n\\u0001\\u0008\\u000c"
	    "\\u007f\":0,"
	    "\"bad\xef\xbf\xbd\xef\xbf\xbd\":1,\"%s\":2}", lng);
	assert_int_equal(ssp_attrjson_object(buf, sizeof(buf), &t, 0, &r, NULL),
	    strlen(want));
	assert_string_equal(buf, want);
}

/* Addresses as attribute columns hold them; trace ids as OTLP shows. */
static void
test_text_forms(void **state)
{
	char buf[64], hex[33];
	struct ssp_attrjson w = { buf, sizeof(buf), 0 };

	(void)state;
	ssp_attrjson_ip(&w, 0xc0a84001);
	ssp_attrjson_ch(&w, ' ');
	ssp_attrjson_ip(&w, 0);
	ssp_attrjson_ch(&w, ' ');
	ssp_attrjson_mac(&w, 0x0102030405ffull);
	ssp_attrjson_ch(&w, ' ');
	ssp_attrjson_i64(&w, INT64_MIN);
	buf[w.len] = '\0';
	assert_string_equal(buf, "192.168.64.1 0.0.0.0 01:02:03:04:05:ff "
	    "-9223372036854775808");
	ssp_attrjson_hex128(hex, 0xabc, 0xffffffffffffffffull);
	assert_string_equal(hex, "0000000000000abcffffffffffffffff");
	/* cut short: len still counts what it needs */
	w.p = buf;
	w.n = 4;
	w.len = 0;
	ssp_attrjson_ip(&w, 0x0a0000ff);
	assert_int_equal(w.len, 10);
	assert_int_equal(memcmp(buf, "10.0", 4), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_encoding),
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_text_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
