/* The text of the progress line the tools draw (tools/common/progress). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tools/common/progress.h"

/* Rates of bytes, lines and events; percentage and ETA only with a size. */
static void
test_progress_format(void **state)
{
	struct ssp_progress p;
	char buf[160];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.total_bytes = 400 << 20;
	p.what = "events";
	/* 100 MiB, 2M lines, 50k events in 2 s: a quarter, 6 s to go */
	ssp_progress_format(buf, sizeof(buf), &p, 2.0, 100 << 20, 2000000, 50000);
	assert_string_equal(buf, "100 MB 52.4MB/s 1.0M lines/s 25.0k events/s  25% ETA 6s");
	/* minutes and hours */
	ssp_progress_format(buf, sizeof(buf), &p, 125.0, 200 << 20, 1000, 10);
	assert_string_equal(buf, "200 MB 1.7MB/s 8.0 lines/s 0.1 events/s  50% ETA 2m05s");
	ssp_progress_format(buf, sizeof(buf), &p, 3600.0, 100 << 20, 0, 0);
	assert_string_equal(buf, "100 MB 29.1kB/s 0.0 lines/s 0.0 events/s  25% ETA 3h00m");
	/* size unknown, or passed (a growing file): no ETA */
	p.total_bytes = -1;
	ssp_progress_format(buf, sizeof(buf), &p, 1.0, 3 << 20, 10, 5);
	assert_string_equal(buf, "3 MB 3.1MB/s 10.0 lines/s 5.0 events/s");
	p.total_bytes = 1 << 20;
	ssp_progress_format(buf, sizeof(buf), &p, 1.0, 3 << 20, 10, 5);
	assert_string_equal(buf, "3 MB 3.1MB/s 10.0 lines/s 5.0 events/s");
	/* no time yet: no division by zero */
	ssp_progress_format(buf, sizeof(buf), &p, 0.0, 0, 0, 0);
	assert_string_equal(buf, "0 MB 0.0B/s 0.0 lines/s 0.0 events/s");
}

/* A tool that reads a binary stream counts records or events, not lines
 * (evspan and span2sqlite said "lines/s"); -q turns the line off. */
static void
test_progress_unit(void **state)
{
	struct ssp_progress p;
	char buf[160];

	(void)state;
	ssp_progress_init_as(&p, -1, "records", "spans", 0);
	ssp_progress_format(buf, sizeof(buf), &p, 1.0, 3 << 20, 10, 5);
	assert_string_equal(buf, "3 MB 3.1MB/s 10.0 records/s 5.0 spans/s");
	ssp_progress_init_as(&p, -1, "events", "spans", 1);
	assert_int_equal(p.on, 0);
	ssp_progress_format(buf, sizeof(buf), &p, 1.0, 3 << 20, 10, 5);
	assert_string_equal(buf, "3 MB 3.1MB/s 10.0 events/s 5.0 spans/s");
	ssp_progress_init(&p, -1, "events");
	ssp_progress_format(buf, sizeof(buf), &p, 1.0, 3 << 20, 10, 5);
	assert_string_equal(buf, "3 MB 3.1MB/s 10.0 lines/s 5.0 events/s");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress_format),
		cmocka_unit_test(test_progress_unit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
