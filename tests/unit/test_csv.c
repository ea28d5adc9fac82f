/* Configuration CSV reader: rows, comments, quoting, field positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "io/csv.h"

struct got {
	char text[32][64];	/* "line:col=value" per field */
	unsigned n, rows;
	int stop_at;
};

static int
on_row(void *ctx, const struct ssp_csv_row *row, struct ssp_err *e)
{
	struct got *g = ctx;
	unsigned i;

	if (g->stop_at != 0 && (int)row->line == g->stop_at)
		return ssp_csv_ferr(e, row, 1, "stop here");
	for (i = 0; i < row->n && g->n < 32; i++)
		snprintf(g->text[g->n++], sizeof(g->text[0]), "%u:%u=%s",
		    row->f[i].line, row->f[i].col, row->f[i].s);
	g->rows++;
	return SSP_OK;
}

static void
test_rows_and_positions(void **state)
{
	static const char in[] =
	    "\xef\xbb\xbf# a comment line, with, commas\n"
	    "a,bb , ccc\r\n"
	    "\n"
	    "  x,\"q,uo\"\"te\",,\n"
	    "# another\n"
	    "\"multi\nline\",z\n"
	    "last,row";
	struct got g = { 0 };
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_csv_read_mem("t.csv", in, sizeof(in) - 1, on_row,
	    &g, &e), SSP_OK);
	assert_int_equal(g.rows, 4);
	assert_string_equal(g.text[0], "2:1=a");
	assert_string_equal(g.text[1], "2:3=bb");	/* trimmed */
	assert_string_equal(g.text[2], "2:8=ccc");
	assert_string_equal(g.text[3], "4:3=x");
	assert_string_equal(g.text[4], "4:5=q,uo\"te");
	assert_int_equal(g.n, 9);	/* trailing empty fields dropped */
	assert_string_equal(g.text[5], "6:1=multi\nline");
	assert_string_equal(g.text[6], "7:7=z");
	assert_string_equal(g.text[7], "8:1=last");
	assert_string_equal(g.text[8], "8:6=row");
}

static void
test_errors(void **state)
{
	struct got g = { 0 };
	struct ssp_err e;
	static const char bad_quote[] = "a,b\nc,\"d\"x\n";
	static const char open_quote[] = "a,\"b\n";
	static const char nul[] = "a,b\0c\n";
	char many[200];
	int i, n = 0;

	(void)state;
	assert_int_equal(ssp_csv_read_mem("q.csv", bad_quote, sizeof(bad_quote) - 1,
	    on_row, &g, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "q.csv:2:"));
	assert_int_equal(e.line, 2);
	assert_int_equal(ssp_csv_read_mem("o.csv", open_quote,
	    sizeof(open_quote) - 1, on_row, &g, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "unterminated"));
	assert_int_equal(ssp_csv_read_mem("n.csv", nul, sizeof(nul) - 1, on_row,
	    &g, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "n.csv:1:3: NUL byte"));
	for (i = 0; i < 20; i++)
		n += snprintf(many + n, sizeof(many) - (size_t)n, "f%d,", i);
	assert_int_equal(ssp_csv_read_mem("m.csv", many, strlen(many), on_row,
	    &g, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "more than 16 fields"));
	/* a callback error names the field */
	memset(&g, 0, sizeof(g));
	g.stop_at = 2;
	assert_int_equal(ssp_csv_read_mem("s.csv", "a,b\nc,  dd\n", 11, on_row, &g,
	    &e), SSP_ERR_INVAL);
	assert_string_equal(e.msg, "s.csv:2:5: stop here");
	assert_int_equal(ssp_csv_read_file("/nonexistent/x.csv", on_row, &g, &e),
	    SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "/nonexistent/x.csv"));
}

static void
test_empty(void **state)
{
	struct got g = { 0 };
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_csv_read_mem("e.csv", "", 0, on_row, &g, &e), SSP_OK);
	assert_int_equal(ssp_csv_read_mem("e.csv", "\n\n# x\n", 6, on_row, &g,
	    &e), SSP_OK);
	assert_int_equal(g.rows, 0);
}

static int
on_big(void *ctx, const struct ssp_csv_row *row, struct ssp_err *e)
{
	(void)e;
	*(size_t *)ctx = row->n == 2 ? row->f[1].len : 0;
	return SSP_OK;
}

/*
 * A 5 MB field: libcsv grows its field buffer by its block size (128
 * bytes by default), one realloc and copy each time, which took minutes
 * under ASan.  The reader grows it geometrically: well under a second.
 */
static void
test_big_field(void **state)
{
	size_t n = 5u << 20, got = 0;
	char *buf = malloc(n + 16);
	struct ssp_err e;
	struct timespec t0, t1;
	double s;

	(void)state;
	assert_non_null(buf);
	memcpy(buf, "a,\"", 3);
	memset(buf + 3, 'x', n);
	memcpy(buf + 3 + n, "\"\n", 2);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(ssp_csv_read_mem("big.csv", buf, n + 5, on_big, &got,
	    &e), SSP_OK);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_int_equal(got, n);
	if (s > 5.0)
		fail_msg("a 5 MB field took %.1f s", s);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_positions),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_big_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
