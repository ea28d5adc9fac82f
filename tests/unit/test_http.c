/* The OTLP/HTTP retry policy as pure functions: classification, Retry-After,
 * backoff schedule; gzip, response parsing and endpoint URLs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>
#include <zlib.h>
#include <cmocka.h>

#include "sink/http.h"

static void
test_classify(void **state)
{
	(void)state;
	assert_int_equal(ssp_http_classify(200, CURLE_OK), SSP_HTTP_OK);
	assert_int_equal(ssp_http_classify(202, CURLE_OK), SSP_HTTP_OK);
	assert_int_equal(ssp_http_classify(429, CURLE_OK), SSP_HTTP_RETRY);
	assert_int_equal(ssp_http_classify(502, CURLE_OK), SSP_HTTP_RETRY);
	assert_int_equal(ssp_http_classify(503, CURLE_OK), SSP_HTTP_RETRY);
	assert_int_equal(ssp_http_classify(504, CURLE_OK), SSP_HTTP_RETRY);
	/* other 4xx and 5xx are not retryable (OTLP/HTTP) */
	assert_int_equal(ssp_http_classify(400, CURLE_OK), SSP_HTTP_FAIL);
	assert_int_equal(ssp_http_classify(401, CURLE_OK), SSP_HTTP_FAIL);
	assert_int_equal(ssp_http_classify(404, CURLE_OK), SSP_HTTP_FAIL);
	assert_int_equal(ssp_http_classify(413, CURLE_OK), SSP_HTTP_FAIL);
	assert_int_equal(ssp_http_classify(500, CURLE_OK), SSP_HTTP_FAIL);
	assert_int_equal(ssp_http_classify(501, CURLE_OK), SSP_HTTP_FAIL);
	assert_int_equal(ssp_http_classify(301, CURLE_OK), SSP_HTTP_FAIL);
	/* connection-level failures are retried */
	assert_int_equal(ssp_http_classify(0, CURLE_COULDNT_CONNECT), SSP_HTTP_RETRY);
	assert_int_equal(ssp_http_classify(0, CURLE_OPERATION_TIMEDOUT), SSP_HTTP_RETRY);
	assert_int_equal(ssp_http_classify(0, CURLE_GOT_NOTHING), SSP_HTTP_RETRY);
	assert_int_equal(ssp_http_classify(0, CURLE_RECV_ERROR), SSP_HTTP_RETRY);
	assert_int_equal(ssp_http_classify(0, CURLE_SEND_ERROR), SSP_HTTP_RETRY);
	/* setup errors are fatal for every batch */
	assert_int_equal(ssp_http_classify(0, CURLE_UNSUPPORTED_PROTOCOL), SSP_HTTP_FATAL);
	assert_int_equal(ssp_http_classify(0, CURLE_URL_MALFORMAT), SSP_HTTP_FATAL);
}

static void
test_retry_after(void **state)
{
	/* Wed, 21 Oct 2015 07:28:00 GMT */
	const int64_t t = 1445412480;
	uint64_t ms;

	(void)state;
	assert_int_equal(ssp_http_retry_after("5", 0, &ms), 0);
	assert_int_equal(ms, 5000);
	assert_int_equal(ssp_http_retry_after(" 120 ", 0, &ms), 0);
	assert_int_equal(ms, 120000);
	assert_int_equal(ssp_http_retry_after("0", 0, &ms), 0);
	assert_int_equal(ms, 0);
	assert_int_equal(ssp_http_retry_after("99999999999999999999999", 0, &ms), 0);
	assert_true(ms > 1000000000000ull);	/* saturates, capped later */
	assert_int_equal(ssp_http_retry_after("Wed, 21 Oct 2015 07:28:00 GMT",
	    t - 10, &ms), 0);
	assert_int_equal(ms, 10000);
	/* RFC 850 and asctime forms (RFC 9110 5.6.7) */
	assert_int_equal(ssp_http_retry_after("Wednesday, 21-Oct-15 07:28:00 GMT",
	    t - 3, &ms), 0);
	assert_int_equal(ms, 3000);
	assert_int_equal(ssp_http_retry_after("Wed Oct 21 07:28:00 2015",
	    t - 1, &ms), 0);
	assert_int_equal(ms, 1000);
	/* a date in the past means now */
	assert_int_equal(ssp_http_retry_after("Wed, 21 Oct 2015 07:28:00 GMT",
	    t + 100, &ms), 0);
	assert_int_equal(ms, 0);
	assert_int_equal(ssp_http_retry_after("soon", 0, &ms), -1);
	assert_int_equal(ssp_http_retry_after("5s", 0, &ms), -1);
	assert_int_equal(ssp_http_retry_after("", 0, &ms), -1);
}

static void
test_backoff(void **state)
{
	unsigned a;

	(void)state;
	/* rnd 0: lower half bound; rnd = half: the full delay */
	assert_int_equal(ssp_http_backoff_ms(0, 1000, 60000, 0), 500);
	assert_int_equal(ssp_http_backoff_ms(0, 1000, 60000, 500), 1000);
	assert_int_equal(ssp_http_backoff_ms(1, 1000, 60000, 0), 1000);
	assert_int_equal(ssp_http_backoff_ms(1, 1000, 60000, 1000), 2000);
	assert_int_equal(ssp_http_backoff_ms(4, 1000, 60000, 8000), 16000);
	/* capped, and no overflow for absurd attempt numbers */
	assert_int_equal(ssp_http_backoff_ms(6, 1000, 60000, 30000), 60000);
	assert_int_equal(ssp_http_backoff_ms(100, 1000, 60000, 0), 30000);
	assert_int_equal(ssp_http_backoff_ms(100000, UINT64_MAX / 3, UINT64_MAX,
	    0) > 0, 1);
	/* jitter stays inside [d/2, d] for any random number */
	for (a = 0; a < 10; a++) {
		uint64_t d = 250u << a > 10000 ? 10000 : 250u << a;
		uint32_t rnd;

		for (rnd = 1; rnd < 4000000000u; rnd = rnd * 3 + 7) {
			uint64_t x = ssp_http_backoff_ms(a, 250, 10000, rnd);

			assert_true(x >= d - d / 2 && x <= d);
		}
	}
	assert_int_equal(ssp_http_backoff_ms(0, 0, 1000, 12345), 0);
	/* Retry-After wins over the backoff, up to the cap */
	assert_int_equal(ssp_http_delay_ms(3000, 0, 1000, 60000, 0), 3000);
	assert_int_equal(ssp_http_delay_ms(0, 5, 1000, 60000, 0), 0);
	/* Retry-After is honoured in full (the deadline is the sender's) */
	assert_int_equal(ssp_http_delay_ms(3600000, 0, 1000, 60000, 0), 3600000);
	assert_int_equal(ssp_http_delay_ms(-1, 2, 1000, 60000, 0), 2000);
}

static void
test_gzip(void **state)
{
	struct ssp_buf b = SSP_BUF_INIT;
	char in[5000], out[6000];
	z_stream z;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(in); i++)
		in[i] = "{\"key\":\"simspan.addr\"}"[i % 22];
	assert_int_equal(ssp_http_gzip(&b, in, sizeof(in)), 0);
	assert_true(b.len < sizeof(in) / 10);
	assert_int_equal(b.p[0], 0x1f);	/* gzip magic */
	assert_int_equal(b.p[1], 0x8b);
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, 16 + 15), Z_OK);
	z.next_in = b.p;
	z.avail_in = (uInt)b.len;
	z.next_out = (Bytef *)out;
	z.avail_out = sizeof(out);
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(z.total_out, sizeof(in));
	assert_memory_equal(out, in, sizeof(in));
	inflateEnd(&z);
	ssp_buf_reset(&b);
	assert_int_equal(ssp_http_gzip(&b, "", 0), 0);	/* empty body */
	assert_true(b.len >= 18);
	ssp_buf_free(&b);
}

static void
test_partial_success(void **state)
{
	/* ExportTraceServiceResponse{partial_success{rejected_spans=3,
	 * error_message="x"}} */
	static const uint8_t pb[] = { 0x0a, 0x05, 0x08, 0x03, 0x12, 0x01, 'x' };
	static const uint8_t pb_bad[] = { 0x0a, 0x09, 0x08 };
	const char *j;
	int64_t rej;
	char msg[64];

	(void)state;
	assert_int_equal(ssp_http_partial(pb, sizeof(pb), SSP_HTTP_BODY_PB, &rej,
	    msg, sizeof(msg)), 1);
	assert_int_equal(rej, 3);
	assert_string_equal(msg, "x");
	assert_int_equal(ssp_http_partial(pb, 0, SSP_HTTP_BODY_PB, &rej, msg,
	    sizeof(msg)), 0);
	assert_int_equal(ssp_http_partial(pb_bad, sizeof(pb_bad),
	    SSP_HTTP_BODY_PB, &rej, msg, sizeof(msg)), -1);
	j = "{\"partialSuccess\":{\"rejectedSpans\":\"3\",\"errorMessage\":"
	    "\"too\\nold\"}}";
	assert_int_equal(ssp_http_partial(j, strlen(j), SSP_HTTP_BODY_JSON, &rej,
	    msg, sizeof(msg)), 1);
	assert_int_equal(rej, 3);
	assert_string_equal(msg, "too old");
	j = "{\"partialSuccess\":{\"rejectedSpans\":7}}";
	assert_int_equal(ssp_http_partial(j, strlen(j), SSP_HTTP_BODY_JSON, &rej,
	    msg, sizeof(msg)), 1);
	assert_int_equal(rej, 7);
	j = "{}";
	assert_int_equal(ssp_http_partial(j, strlen(j), SSP_HTTP_BODY_JSON, &rej,
	    msg, sizeof(msg)), 0);
	assert_int_equal(rej, 0);
	j = "{\"partialSuccess\":{\"rejectedSpans\":\"x\"}}";
	assert_int_equal(ssp_http_partial(j, strlen(j), SSP_HTTP_BODY_JSON, &rej,
	    msg, sizeof(msg)), -1);
	j = "<html>";
	assert_int_equal(ssp_http_partial(j, strlen(j), SSP_HTTP_BODY_TEXT, &rej,
	    msg, sizeof(msg)), 0);
}

static void
test_error_text(void **state)
{
	/* google.rpc.Status { code = 3, message = "bad" } */
	static const uint8_t st[] = { 0x08, 0x03, 0x12, 0x03, 'b', 'a', 'd' };
	const char *j = "{\"code\":3,\"message\":\"bad span\"}";
	char msg[16];

	(void)state;
	ssp_http_error_text(st, sizeof(st), SSP_HTTP_BODY_PB, msg, sizeof(msg));
	assert_string_equal(msg, "bad");
	ssp_http_error_text(j, strlen(j), SSP_HTTP_BODY_JSON, msg, sizeof(msg));
	assert_string_equal(msg, "bad span");
	ssp_http_error_text("Bad\r\n\tRequest\x01\n", 15, SSP_HTTP_BODY_TEXT, msg,
	    sizeof(msg));
	assert_string_equal(msg, "Bad Request?");
	ssp_http_error_text("a very long body that is cut", 28, SSP_HTTP_BODY_TEXT,
	    msg, sizeof(msg));
	assert_int_equal(strlen(msg), sizeof(msg) - 1);
	ssp_http_error_text("", 0, SSP_HTTP_BODY_JSON, msg, sizeof(msg));
	assert_string_equal(msg, "");
}

static void
test_endpoint(void **state)
{
	struct ssp_err e;
	char *u;

	(void)state;
	u = ssp_http_endpoint("http://localhost:4318", &e);
	assert_string_equal(u, "http://localhost:4318/v1/traces");
	free(u);
	u = ssp_http_endpoint("http://localhost:4318/", &e);
	assert_string_equal(u, "http://localhost:4318/v1/traces");
	free(u);
	u = ssp_http_endpoint("https://collector.example:443/otlp/v1/traces", &e);
	assert_string_equal(u, "https://collector.example:443/otlp/v1/traces");
	free(u);
	assert_null(ssp_http_endpoint("ftp://localhost/v1/traces", &e));
	assert_int_equal(e.code, SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "not http or https"));
	assert_null(ssp_http_endpoint("http://", &e));
	assert_int_equal(e.code, SSP_ERR_INVAL);
	assert_null(ssp_http_endpoint("localhost 4318", &e));
	assert_int_equal(e.code, SSP_ERR_INVAL);
	assert_null(ssp_http_endpoint("http://[::1/v1/traces", &e));
	assert_int_equal(e.code, SSP_ERR_INVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_retry_after),
		cmocka_unit_test(test_backoff),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_partial_success),
		cmocka_unit_test(test_error_text),
		cmocka_unit_test(test_endpoint),
	};
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	curl_global_cleanup();
	return rc;
}
