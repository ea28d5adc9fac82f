/* simsynth's writers: number formatting, counting, flushing, pacing, and
 * reopening a named pipe whose reader stays. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/clock.h"
#include "synth/synlog.h"

static void
expect(char *end, char *buf, const char *want)
{
	*end = '\0';
	assert_string_equal(buf, want);
}

static void
test_formatting(void **state)
{
	char b[128];

	(void)state;
	expect(ssp_synlog_put_u64(b, 0), b, "0");
	expect(ssp_synlog_put_u64(b, 7), b, "7");
	expect(ssp_synlog_put_u64(b, 42), b, "42");
	expect(ssp_synlog_put_u64(b, 1473000000000ull), b, "1473000000000");
	expect(ssp_synlog_put_u64(b, UINT64_MAX), b, "18446744073709551615");
	expect(ssp_synlog_put_i64(b, -125), b, "-125");
	expect(ssp_synlog_put_i64(b, INT64_MIN), b, "-9223372036854775808");
	/* gem5's "%7d: " */
	expect(ssp_synlog_put_u64_w(b, 0, 7), b, "      0");
	expect(ssp_synlog_put_u64_w(b, 500000, 7), b, " 500000");
	expect(ssp_synlog_put_u64_w(b, 1869691991749ull, 7), b, "1869691991749");
	expect(ssp_synlog_put_hex(b, 0), b, "0");
	expect(ssp_synlog_put_hex(b, 0xc0080300), b, "c0080300");
	expect(ssp_synlog_put_hex(b, UINT64_MAX), b, "ffffffffffffffff");
	expect(ssp_synlog_put_hex_w(b, 0xab, 16), b, "00000000000000ab");
	expect(ssp_synlog_put_hex_up(b, 0x0a, 2), b, "0A");
	/* gem5's "%#x": 0 without the prefix */
	expect(ssp_synlog_put_hashx(b, 0), b, "0");
	expect(ssp_synlog_put_hashx(b, 0x3d), b, "0x3d");
	expect(ssp_synlog_put_mac(b, 0xb09aac673c98ull), b, "b0:9a:ac:67:3c:98");
	expect(ssp_synlog_put_mac(b, 0xffffffffffffull), b, "ff:ff:ff:ff:ff:ff");
	expect(ssp_synlog_put_ip(b, 0xc0a84001u), b, "192.168.64.1");
	expect(ssp_synlog_put_str(b, "abc"), b, "abc");
}

static char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b = malloc(1 << 22);

	assert_non_null(f);
	*n = fread(b, 1, 1 << 22, f);
	fclose(f);
	b[*n] = '\0';
	return b;
}

static void
test_write_and_count(void **state)
{
	struct ssp_synlog *l;
	struct ssp_err e = { 0 };
	char path[64], *p, *got;
	size_t n, i;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssp-test-synlog-%d", (int)getpid());
	assert_int_equal(ssp_synlog_open(&l, path, 0, NULL, 100, &e), SSP_OK);
	for (i = 0; i < 1000; i++) {
		p = ssp_synlog_room(l);
		p = ssp_synlog_put_u64_w(p, i, 7);
		p = ssp_synlog_put_str(p, ": x\n");
		ssp_synlog_commit(l, p);
	}
	p = ssp_synlog_room(l);
	p = ssp_synlog_put_str(p, "no newline ");	/* nicbm's dma data bytes */
	ssp_synlog_commit(l, p);
	assert_int_equal(ssp_synlog_stats(l)->lines, 1000);
	assert_int_equal(ssp_synlog_stats(l)->bytes, 1000 * 11 + 11);
	assert_true(ssp_synlog_stats(l)->writes > 1);	/* flushed every 100 bytes */
	assert_int_equal(ssp_synlog_close(l, &e), SSP_OK);
	got = slurp(path, &n);
	assert_int_equal(n, 1000 * 11 + 11);
	assert_memory_equal(got, "      0: x\n      1: x\n", 22);
	assert_memory_equal(got + n - 22, "    999: x\nno newline ", 22);
	free(got);
	unlink(path);

	/* without a path: counts only */
	assert_int_equal(ssp_synlog_open(&l, NULL, 0, NULL, 0, &e), SSP_OK);
	for (i = 0; i < 100000; i++) {
		p = ssp_synlog_room(l);
		p = ssp_synlog_put_str(p, "0123456789012345678901234567890123456789\n");
		ssp_synlog_commit(l, p);
	}
	assert_int_equal(ssp_synlog_stats(l)->bytes, 4100000);
	assert_int_equal(ssp_synlog_stats(l)->lines, 100000);
	assert_null(ssp_synlog_path(l));
	assert_int_equal(ssp_synlog_close(l, &e), SSP_OK);

	/* an unwritable path */
	assert_int_equal(ssp_synlog_open(&l, "/proc/version/x", 0, NULL, 0, &e),
	    SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "/proc/version/x"));
}

static void
test_pacing(void **state)
{
	struct ssp_pacer pc = { 200000, 0, 0 };	/* 200 kB/s */
	struct ssp_synlog *l;
	struct ssp_err e = { 0 };
	uint64_t t0;
	char *p;
	int i;

	(void)state;
	assert_int_equal(ssp_synlog_open(&l, "/dev/null", 0, &pc, 4096, &e), SSP_OK);
	t0 = ssp_clock_ns();
	for (i = 0; i < 1000; i++) {	/* 50 kB: about 0.25 s */
		p = ssp_synlog_room(l);
		memset(p, 'x', 49);
		p[49] = '\n';
		ssp_synlog_commit(l, p + 50);
	}
	assert_int_equal(ssp_synlog_close(l, &e), SSP_OK);
	assert_true(ssp_clock_ns() - t0 >= 200000000u);
	assert_true(pc.bytes >= 49000);
}

static void
test_reopen_fifo(void **state)
{
	struct ssp_synlog *l;
	struct ssp_err e = { 0 };
	char path[64], buf[256];
	char *p;
	int rfd;
	ssize_t n, got = 0;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssp-test-synfifo-%d", (int)getpid());
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* a reader that stays: open it first, non-blocking */
	rfd = open(path, O_RDONLY | O_NONBLOCK);
	assert_true(rfd >= 0);
	assert_int_equal(ssp_synlog_open(&l, path, 0, NULL, 0, &e), SSP_OK);
	p = ssp_synlog_room(l);
	p = ssp_synlog_put_str(p, "before\n");
	ssp_synlog_commit(l, p);
	assert_int_equal(ssp_synlog_reopen(l, &e), SSP_OK);
	p = ssp_synlog_room(l);
	p = ssp_synlog_put_str(p, "after\n");
	ssp_synlog_commit(l, p);
	assert_int_equal(ssp_synlog_stats(l)->reopens, 1);
	assert_int_equal(ssp_synlog_close(l, &e), SSP_OK);
	while ((n = read(rfd, buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	buf[got] = '\0';
	assert_string_equal(buf, "before\nafter\n");
	close(rfd);
	unlink(path);

	/* a regular file is not reopened (that would truncate it) */
	snprintf(path, sizeof(path), "/tmp/ssp-test-synfile-%d", (int)getpid());
	assert_int_equal(ssp_synlog_open(&l, path, 0, NULL, 0, &e), SSP_OK);
	assert_int_equal(ssp_synlog_reopen(l, &e), SSP_OK);
	assert_int_equal(ssp_synlog_stats(l)->reopens, 0);
	assert_int_equal(ssp_synlog_close(l, &e), SSP_OK);
	unlink(path);
}

static void
test_full_device(void **state)
{
	struct ssp_synlog *l;
	struct ssp_err e = { 0 };
	char *p;
	int i;

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	assert_int_equal(ssp_synlog_open(&l, "/dev/full", 0, NULL, 0, &e), SSP_OK);
	for (i = 0; i < 100000; i++) {
		p = ssp_synlog_room(l);
		p = ssp_synlog_put_str(p, "0123456789012345678901234567890123456789\n");
		ssp_synlog_commit(l, p);
	}
	assert_true(ssp_synlog_failed(l));
	assert_non_null(strstr(ssp_synlog_error(l), "/dev/full"));
	assert_int_equal(ssp_synlog_close(l, &e), SSP_ERR_IO);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formatting),
		cmocka_unit_test(test_write_and_count),
		cmocka_unit_test(test_pacing),
		cmocka_unit_test(test_reopen_fifo),
		cmocka_unit_test(test_full_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
