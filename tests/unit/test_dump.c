/* The text forms of a record stream (sink/dump, formats/text.md): CSV of
 * the columns asked for (evcat/spancat -c LIST), the trace id as one key
 * of 32 hex digits in JSON (spancat -j, text output 1.1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/in.h"
#include "io/out.h"
#include "sink/dump.h"
#include "stream/span.h"
#include "tests/unit/rec_helpers.h"

static const char *const names[] = { "client", "client-nic" };

struct fx {
	char path[64];
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
};

/* Two spans of trace 0x7:0x1 and a link to it from span 3. */
static int
setup(void **state)
{
	static const struct ssp_span_source src[] = {
		{ "client", 0, SSP_SIM_GEM5 }, { "client-nic", 0, SSP_SIM_NICBM },
	};
	static struct fx f;
	struct ssp_out *out;

	snprintf(f.path, sizeof(f.path), "/tmp/ssp-test-dump-%d", (int)getpid());
	assert_int_equal(ssp_out_open(&out, f.path, 0, &e), SSP_OK);
	assert_int_equal(ssp_span_writer_open(&w, out, "test", src, 2, 0, &e),
	    SSP_OK);
	/* trace_hi, trace_lo, span, parent, stream, dur, flags, cause */
	put(SSP_SK_HOST_MMIO, 2000, 8, U(7), U(1), U(1), U(0), U(0), U(1000),
	    U(0), U(0));
	put(SSP_SK_NIC_TX, 2500, 8, U(0xabcdef0123456789), U(1), U(2), U(1),
	    U(1), U(0), U(0), U(0));
	/* span, trace_hi, trace_lo, target, kind */
	put(SSP_SPAN_T_LINK, 2500, 5, U(3), U(7), U(1), U(2), U(0));
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(out, &e), SSP_OK);
	assert_int_equal(ssp_in_open(&f.in, f.path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&f.rr, f.in, &e), SSP_OK);
	*state = &f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	ssp_rec_rd_close(f->rr);
	ssp_in_close(f->in);
	unlink(f->path);
	return 0;
}

/* Every record of the stream through a dumper with options o. */
static char *
dump(struct fx *f, enum ssp_dump_fmt fmt, const char *cols, int trace_id)
{
	struct ssp_dump_opts o = { names, 2, cols, trace_id };
	struct ssp_dump *d;
	struct ssp_rec r;
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);

	assert_non_null(mf);
	assert_int_equal(ssp_dump_open(&d, mf, fmt, f->rr, &o, &e), SSP_OK);
	while (ssp_rec_rd_next(f->rr, &r, &e) == 1)
		assert_int_equal(ssp_dump_rec(d, &r), SSP_OK);
	ssp_dump_free(d);
	fclose(mf);
	return buf;
}

static void
test_json_trace_id(void **state)
{
	char *s = dump(*state, SSP_DUMP_JSON, NULL, 1);

	assert_non_null(strstr(s, "{\"ts\":2000,\"type\":\"host.mmio\","
	    "\"trace\":\"00000000000000070000000000000001\",\"span\":\"0x1\","));
	assert_non_null(strstr(s, "\"trace\":\"abcdef01234567890000000000000001\""));
	assert_non_null(strstr(s, "{\"ts\":2500,\"type\":\"link\",\"span\":\"0x3\","
	    "\"trace\":\"00000000000000070000000000000001\",\"target\":\"0x2\""));
	assert_null(strstr(s, "trace_hi"));
	assert_null(strstr(s, "trace_lo"));
	free(s);
}

/* Without the option, the halves as before (evcat and old scripts). */
static void
test_json_halves(void **state)
{
	char *s = dump(*state, SSP_DUMP_JSON, NULL, 0);

	assert_non_null(strstr(s, "\"trace_hi\":\"0x7\",\"trace_lo\":\"0x1\""));
	assert_null(strstr(s, "\"trace\":"));
	free(s);
}

static void
test_csv_columns(void **state)
{
	char *s = dump(*state, SSP_DUMP_CSV, "trace,span,type,stream_name,dur", 1);

	assert_string_equal(s,
	    "trace,span,type,stream_name,dur\r\n"
	    "00000000000000070000000000000001,0x1,host.mmio,client,1000\r\n"
	    "abcdef01234567890000000000000001,0x2,nic.tx,client-nic,0\r\n"
	    "00000000000000070000000000000001,0x3,link,,\r\n");
	free(s);
}

/* ts anywhere, a field of one type only, the record types without it
 * get an empty cell */
static void
test_csv_columns_order(void **state)
{
	char *s = dump(*state, SSP_DUMP_CSV, "target,ts", 0);

	assert_string_equal(s, "target,ts\r\n,2000\r\n,2500\r\n0x2,2500\r\n");
	free(s);
}

/* The full CSV keeps its columns: ts, type, the union of the fields. */
static void
test_csv_all(void **state)
{
	char *s = dump(*state, SSP_DUMP_CSV, NULL, 1);

	assert_true(strncmp(s, "ts,type,trace_hi,trace_lo,span,parent,stream,"
	    "stream_name,", 45) == 0);
	free(s);
}

static void
test_csv_bad_columns(void **state)
{
	static const char *const bad[][2] = {
		{ "ts,nosuch", "has no column 'nosuch'" },
		{ "ts,,type", "an empty column name" },
		{ "ts,type,ts", "column 'ts' twice" },
		{ "trace", "has no column 'trace'" },	/* without trace_id */
	};
	struct fx *f = *state;
	struct ssp_dump *d;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ssp_dump_opts o = { names, 2, bad[i][0], 0 };

		assert_int_equal(ssp_dump_open(&d, stdout, SSP_DUMP_CSV, f->rr, &o,
		    &e), SSP_ERR_INVAL);
		assert_null(d);
		assert_non_null(strstr(e.msg, bad[i][1]));
	}
}

/* The stream header, as -H prints it: text lines, or one JSON object. */
static void
test_header(void **state)
{
	struct fx *f = *state;
	char *buf = NULL, want[128];
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);

	assert_non_null(mf);
	ssp_dump_header(mf, f->rr, SSP_DUMP_TEXT, "stream");
	fclose(mf);
	snprintf(want, sizeof(want), "# stream %s (format 1.", f->path);
	assert_int_equal(strncmp(buf, want, strlen(want)), 0);
	assert_non_null(strstr(buf, "\n# producer: test\n"));
	assert_non_null(strstr(buf, "\n# stream: client gem5\n"));
	assert_non_null(strstr(buf, "\n# type 1 host.syscall: "));
	assert_int_equal(buf[len - 1], '\n');
	free(buf);
	mf = open_memstream(&buf, &len);
	assert_non_null(mf);
	ssp_dump_header(mf, f->rr, SSP_DUMP_JSON, "file");
	fclose(mf);
	snprintf(want, sizeof(want), "{\"header\":{\"file\":\"%s\",\"format\":"
	    "\"1.", f->path);
	assert_int_equal(strncmp(buf, want, strlen(want)), 0);
	assert_non_null(strstr(buf, "\"producer\":\"test\""));
	assert_non_null(strstr(buf, "\"types\":[{\"name\":\"host.syscall\","
	    "\"fields\":[["));
	assert_int_equal(strcmp(buf + len - 4, "]}}\n"), 0);
	assert_null(strchr(buf, '#'));
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_trace_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_halves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv_columns_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv_bad_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
