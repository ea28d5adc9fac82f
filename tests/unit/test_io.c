/*
 * ssp_io follow mode on a named pipe and a file: when the idle timeout
 * runs (only while no writer has the pipe open, after a first writer), a
 * stop delivers what is already in the pipe, the pipe buffer is enlarged.
 * Single-threaded: the writer end is opened non-blocking next to the
 * reader.  And output through the writer thread (ssp_out_async).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "base/path.h"
#include "io/in.h"
#include "io/out.h"

#define TICK_MS    10
#define TIMEOUT_MS 60

struct fx {
	char dir[64];
	char path[96];
	volatile sig_atomic_t stop;
	struct ssp_follow fol;
	struct ssp_in *in;
};

static uint64_t
ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int
setup_fifo(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct ssp_err e = { 0 };

	if (f == NULL)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/ssp-io.XXXXXX");
	if (mkdtemp(f->dir) == NULL)
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/fifo", f->dir);
	if (mkfifo(f->path, 0600) != 0)
		return -1;
	f->fol.stop = &f->stop;
	f->fol.tick_ms = TICK_MS;
	f->fol.timeout_ms = TIMEOUT_MS;
	if (ssp_in_open(&f->in, f->path, SSP_IN_FOLLOW, &f->fol, &e) != SSP_OK)
		return -1;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	ssp_in_close(f->in);
	unlink(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* The writer end: never blocks, the follower holds the read end. */
static int
writer(const struct fx *f)
{
	int fd = open(f->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

/* Read for ms milliseconds: every result must be SSP_IN_IDLE. */
static void
idle_for(struct fx *f, unsigned ms)
{
	struct ssp_err e = { 0 };
	uint64_t t0 = ms_now();
	char b[16];

	while (ms_now() - t0 < ms)
		assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), SSP_IN_IDLE);
}

/* Read until SSP_IN_EOF within max_ms; returns the bytes that came. */
static size_t
read_to_eof(struct fx *f, char *buf, size_t cap, unsigned max_ms)
{
	struct ssp_err e = { 0 };
	uint64_t t0 = ms_now();
	size_t got = 0;
	ssize_t r;

	for (;;) {
		r = ssp_in_read(f->in, buf + got, cap - got, &e);
		if (r == SSP_IN_EOF)
			return got;
		assert_true(r > 0 || r == SSP_IN_IDLE || r == SSP_IN_BREAK);
		if (r > 0)
			got += (size_t)r;
		assert_true(got < cap);
		assert_true(ms_now() - t0 < max_ms);
	}
}

static void
test_first_writer_waits(void **state)
{
	struct fx *f = *state;
	struct ssp_err e = { 0 };
	char b[16];
	int w;

	idle_for(f, 5 * TIMEOUT_MS);	/* no writer yet: no timeout */
	w = writer(f);
	assert_int_equal(write(w, "abc", 3), 3);
	assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), 3);
	assert_memory_equal(b, "abc", 3);
	close(w);
	assert_int_equal(read_to_eof(f, b, sizeof(b), 20 * TIMEOUT_MS), 0);
}

static void
test_quiet_writer_stays(void **state)
{
	struct fx *f = *state;
	struct ssp_err e = { 0 };
	uint64_t t0;
	char b[16];
	int w = writer(f);

	idle_for(f, 5 * TIMEOUT_MS);	/* attached, nothing written */
	assert_int_equal(write(w, "x", 1), 1);
	assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), 1);
	idle_for(f, 5 * TIMEOUT_MS);	/* attached, quiet after data */
	assert_int_equal(write(w, "y", 1), 1);
	close(w);
	assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), 1);
	assert_int_equal(b[0], 'y');
	/* writer gone: the pipe is reopened, then the clock runs */
	t0 = ms_now();
	assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), SSP_IN_BREAK);
	assert_int_equal(read_to_eof(f, b, sizeof(b), 20 * TIMEOUT_MS), 0);
	assert_true(ms_now() - t0 >= TIMEOUT_MS - TICK_MS);
}

static void
test_restart_resets_clock(void **state)
{
	struct fx *f = *state;
	struct ssp_err e = { 0 };
	char b[16];
	int w = writer(f);

	assert_int_equal(write(w, "1\n", 2), 2);
	close(w);
	assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), 2);
	assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), SSP_IN_BREAK);
	/* the restarted writer comes back within the timeout and stays
	 * quiet for longer than it */
	w = writer(f);
	idle_for(f, 4 * TIMEOUT_MS);
	assert_int_equal(write(w, "2\n", 2), 2);
	assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), 2);
	close(w);
	assert_int_equal(read_to_eof(f, b, sizeof(b), 20 * TIMEOUT_MS), 0);
}

static void
test_writer_without_data(void **state)
{
	struct fx *f = *state;
	char b[16];

	close(writer(f));	/* came and went: the clock starts */
	assert_int_equal(read_to_eof(f, b, sizeof(b), 20 * TIMEOUT_MS), 0);
}

static void
test_stop_drains(void **state)
{
	struct fx *f = *state;
	static char big[60000], got[sizeof(big) + 16];
	size_t i;
	int w = writer(f);

	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 26);
	/* fits in any pipe buffer (64 KiB at least) */
	assert_int_equal(write(w, big, sizeof(big)), (ssize_t)sizeof(big));
	f->stop = 1;
	assert_int_equal(read_to_eof(f, got, sizeof(got), 1000), sizeof(big));
	assert_memory_equal(got, big, sizeof(big));
	/* what the writer adds after the stop is not waited for */
	assert_int_equal(write(w, "late", 4), 4);
	assert_int_equal(read_to_eof(f, got, sizeof(got), 1000), 0);
	close(w);
}

static void
test_stop_before_writer(void **state)
{
	struct fx *f = *state;
	char b[16];

	idle_for(f, 2 * TICK_MS);
	f->stop = 1;
	assert_int_equal(read_to_eof(f, b, sizeof(b), 1000), 0);
}

static void
test_pipe_size(void **state)
{
	struct fx *f = *state;
	int w = writer(f), sz = ssp_in_pipe_size(f->in);

#ifdef F_GETPIPE_SZ
	assert_true(sz >= 65536);
	assert_int_equal(fcntl(w, F_GETPIPE_SZ), sz);
	{
		FILE *p = fopen("/proc/sys/fs/pipe-max-size", "r");
		long max = 0;

		/* permitted unless the per-user pipe page limit is reached */
		if (p != NULL && fscanf(p, "%ld", &max) == 1 &&
		    max >= SSP_IN_PIPE_SIZE && sz != SSP_IN_PIPE_SIZE)
			fprintf(stderr, "# pipe buffer %d, not %d\n", sz,
			    SSP_IN_PIPE_SIZE);
		if (p != NULL)
			fclose(p);
	}
#else
	(void)sz;
#endif
	close(w);
}

static void
test_file_timeout(void **state)
{
	struct fx *f = *state;
	struct ssp_err e = { 0 };
	char path[128], b[16];
	FILE *fp;
	uint64_t t0;

	/* a regular file: the clock runs whenever it does not grow */
	snprintf(path, sizeof(path), "%s/file", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("abc", fp);
	fflush(fp);
	ssp_in_close(f->in);
	f->in = NULL;
	assert_int_equal(ssp_in_open(&f->in, path, SSP_IN_FOLLOW, &f->fol, &e),
	    SSP_OK);
	assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), 3);
	fputs("de", fp);
	fflush(fp);
	assert_int_equal(ssp_in_read(f->in, b, sizeof(b), &e), 2);
	t0 = ms_now();
	assert_int_equal(read_to_eof(f, b, sizeof(b), 20 * TIMEOUT_MS), 0);
	assert_true(ms_now() - t0 >= TIMEOUT_MS - TICK_MS);
	/* a stop delivers what the file holds */
	fputs("fgh", fp);
	fclose(fp);
	ssp_in_close(f->in);
	f->in = NULL;
	assert_int_equal(ssp_in_open(&f->in, path, SSP_IN_FOLLOW, &f->fol, &e),
	    SSP_OK);
	f->stop = 1;
	assert_int_equal(read_to_eof(f, b, sizeof(b), 1000), 8);
	assert_memory_equal(b, "abcdefgh", 8);
	unlink(path);
}

/* The byte at offset i of the test output. */
static uint8_t
pattern(uint64_t i)
{
	return (uint8_t)(i * 2654435761u >> 13);
}

/* Write about 3 MB in chunks of every size through out, flushing once. */
static uint64_t
write_pattern(struct ssp_out *o)
{
	static uint8_t chunk[300000];
	static const size_t sizes[] = { 1, 12, 4096, 65536, 65548, 262144,
	    300000, 7 };
	struct ssp_err e;
	uint64_t off = 0;
	size_t k, i, n;

	for (k = 0; k < 3; k++)
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			for (n = 0; n < sizes[i]; n++)
				chunk[n] = pattern(off + n);
			assert_int_equal(ssp_out_write(o, chunk, sizes[i], &e), SSP_OK);
			off += sizes[i];
			if (k == 1 && i == 3) {
				assert_int_equal(ssp_out_flush(o, &e), SSP_OK);
				assert_true(ssp_out_rawpos(o) > 0);
			}
		}
	assert_true(ssp_out_pos(o) == off);
	return off;
}

/* Output read back, with and without the writer thread, and with
 * writeback started every 4 KiB (the bytes must not change). */
static void
test_out_async(void **state)
{
	char path[64];
	static uint8_t b[1 << 16];
	struct ssp_out *o;
	struct ssp_in *in;
	struct ssp_err e;
	uint64_t n, got;
	ssize_t r;
	int z, i;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssp-io-out.%d", (int)getpid());
	for (z = 0; z < 8; z++) {	/* plain, zstd; with the thread;
					 * with writeback */
		assert_int_equal(ssp_out_open(&o, path, z & 1 ? 3 : 0, &e), SSP_OK);
		assert_int_equal(ssp_out_is_zstd(o), z & 1);
		if (z & 4)
			ssp_out_writeback(o, 4096);
		if (z & 2)
			assert_int_equal(ssp_out_async(o, &e), SSP_OK);
		n = write_pattern(o);
		assert_int_equal(ssp_out_close(o, &e), SSP_OK);
		assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e),
		    SSP_OK);
		for (got = 0; (r = ssp_in_read(in, b, sizeof(b), &e)) > 0; ) {
			for (i = 0; i < r; i++)
				assert_int_equal(b[i], pattern(got + (uint64_t)i));
			got += (uint64_t)r;
		}
		assert_true(r == SSP_IN_EOF);
		assert_true(got == n);
		assert_int_equal(ssp_in_is_zstd(in), z & 1);
		ssp_in_close(in);
	}
	unlink(path);
}

/* Writeback on what is not a regular file is left out: writes go on. */
static void
test_out_writeback_device(void **state)
{
	struct ssp_out *o;
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_out_open(&o, "/dev/null", 0, &e), SSP_OK);
	ssp_out_writeback(o, 1);
	assert_true(write_pattern(o) > 0);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
}

/* The zstd window of what we write stays at 1 MiB, whatever the level:
 * evspan holds one per input stream (formats/framing.md §1). */
static void
test_out_window(void **state)
{
	static uint8_t b[600000];
	char path[64];
	struct ssp_out *o;
	struct ssp_err e;
	uint64_t win;
	size_t i, n;
	FILE *f;
	int lv;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssp-io-win.%d", (int)getpid());
	for (i = 0; i < sizeof(b); i++)
		b[i] = pattern(i);
	for (lv = 3; lv <= 19; lv += 16) {
		assert_int_equal(ssp_out_open(&o, path, lv, &e), SSP_OK);
		assert_int_equal(ssp_out_write(o, b, sizeof(b), &e), SSP_OK);
		assert_int_equal(ssp_out_close(o, &e), SSP_OK);
		f = fopen(path, "rb");
		assert_non_null(f);
		n = fread(b, 1, 6, f);
		fclose(f);
		/* RFC 8878 3.1.1.1: magic, frame header descriptor (bit 5:
		 * single segment, no window descriptor), window descriptor
		 * (exponent in bits 7-3, mantissa in bits 2-0). */
		assert_int_equal(n, 6);
		assert_memory_equal(b, "\x28\xb5\x2f\xfd", 4);
		assert_int_equal(b[4] & 0x20, 0);
		win = (uint64_t)1 << (10 + (b[5] >> 3));
		win += win / 8 * (b[5] & 7);
		assert_true(win <= (1u << 20));
		for (i = 0; i < sizeof(b); i++)
			b[i] = pattern(i);
	}
	unlink(path);
}

/* n bytes of p as one gzip member appended to f. */
static void
gz_member(FILE *f, const uint8_t *p, size_t n)
{
	static uint8_t out[1 << 17];
	z_stream z;

	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (uint8_t *)p;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = sizeof(out);
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(fwrite(out, 1, sizeof(out) - z.avail_out, f),
	    sizeof(out) - z.avail_out);
	deflateEnd(&z);
}

/*
 * gzip input is read as zstd input is (issue 26: a .gz log was "is it a
 * simulator log?"): detected by its magic, several members one after the
 * other as gzip -d reads them, a cut member a truncation error, bytes
 * that are no deflate data a format error.
 */
static void
test_in_gzip(void **state)
{
	static uint8_t a[100000], b[1 << 16];
	char path[64];
	struct ssp_in *in;
	struct ssp_err e;
	uint64_t got;
	ssize_t r;
	size_t i;
	FILE *f;
	long len;

	(void)state;
	for (i = 0; i < sizeof(a); i++)
		a[i] = (uint8_t)pattern(i);
	snprintf(path, sizeof(path), "/tmp/ssp-io-gz.%d", (int)getpid());
	assert_non_null(f = fopen(path, "wb"));
	gz_member(f, a, sizeof(a));
	gz_member(f, a, 1000);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e), SSP_OK);
	for (got = 0; (r = ssp_in_read(in, b, sizeof(b), &e)) > 0; got += (uint64_t)r)
		for (i = 0; i < (size_t)r; i++)
			assert_int_equal(b[i], a[(got + i) % sizeof(a)]);
	assert_true(r == SSP_IN_EOF);
	assert_true(got == sizeof(a) + 1000);
	assert_int_equal(ssp_in_is_compressed(in), 1);
	assert_int_equal(ssp_in_is_zstd(in), 0);
	ssp_in_close(in);
	/* without SSP_IN_ZSTD_AUTO: the bytes as they are */
	assert_int_equal(ssp_in_open(&in, path, 0, NULL, &e), SSP_OK);
	assert_true(ssp_in_read(in, b, 2, &e) == 2);
	assert_true(b[0] == 0x1f && b[1] == 0x8b);
	ssp_in_close(in);
	/* cut in the middle of the first member */
	assert_non_null(f = fopen(path, "r+b"));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(truncate(path, len / 3), 0);
	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e), SSP_OK);
	while ((r = ssp_in_read(in, b, sizeof(b), &e)) > 0)
		;
	assert_true(r == -SSP_ERR_TRUNCATED);
	assert_non_null(strstr(e.msg, "truncated gzip data"));
	ssp_in_close(in);
	/* a gzip header followed by no deflate data */
	assert_non_null(f = fopen(path, "wb"));
	fwrite("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff\xff",
	    1, 14, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e), SSP_OK);
	r = ssp_in_read(in, b, sizeof(b), &e);
	assert_true(r == -SSP_ERR_FORMAT);
	assert_non_null(strstr(e.msg, "gzip: "));
	ssp_in_close(in);
	unlink(path);
}

/* A read error comes back as -status, with or without an error record. */
static void
test_in_error_status(void **state)
{
	char path[64];
	static uint8_t b[1 << 16];
	struct ssp_out *o;
	struct ssp_in *in;
	struct ssp_err e = { 0 };
	struct stat st;
	ssize_t r;
	int pass;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssp-io-trunc.%d", (int)getpid());
	assert_int_equal(ssp_out_open(&o, path, 3, &e), SSP_OK);
	write_pattern(o);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(truncate(path, st.st_size / 2), 0);
	for (pass = 0; pass < 2; pass++) {
		assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL,
		    &e), SSP_OK);
		while ((r = ssp_in_read(in, b, sizeof(b), pass ? NULL : &e)) > 0)
			;
		assert_int_equal(r, -SSP_ERR_TRUNCATED);
		if (pass == 0)
			assert_int_equal(e.code, SSP_ERR_TRUNCATED);
		ssp_in_close(in);
	}
	unlink(path);
}

/* A full disk shows in a later call, once; abort frees what is queued. */
static void
test_out_async_errors(void **state)
{
	static uint8_t chunk[1 << 20];
	struct ssp_out *o;
	struct ssp_err e;
	int i, rc = SSP_OK;

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	assert_int_equal(ssp_out_open(&o, "/dev/full", 0, &e), SSP_OK);
	assert_int_equal(ssp_out_async(o, &e), SSP_OK);
	for (i = 0; i < 8 && rc == SSP_OK; i++)
		rc = ssp_out_write(o, chunk, sizeof(chunk), &e);
	if (rc == SSP_OK)
		rc = ssp_out_flush(o, &e);
	assert_int_equal(rc, SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "write"));
	assert_int_equal(ssp_out_close(o, &e), SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "earlier write failed"));
	/* abort with buffers queued */
	assert_int_equal(ssp_out_open(&o, "/dev/null", 3, &e), SSP_OK);
	assert_int_equal(ssp_out_async(o, &e), SSP_OK);
	for (i = 0; i < 4; i++)
		assert_int_equal(ssp_out_write(o, chunk, sizeof(chunk), &e), SSP_OK);
	ssp_out_abort(o);
}

static void
test_path_stem(void **state)
{
	static const char *const cases[][2] = {
		{ "logs/client.gem5.log.zst", "client.gem5" },
		{ "client.gem5.log", "client.gem5" },
		{ "/a/b/net", "net" },
		{ ".hidden", ".hidden" },
		{ "x.zst", "x" },
		{ "dir.d/plain", "plain" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = ssp_path_stem(cases[i][0]);

		assert_string_equal(s, cases[i][1]);
		free(s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_stem),
		cmocka_unit_test_setup_teardown(test_first_writer_waits, setup_fifo, teardown),
		cmocka_unit_test_setup_teardown(test_quiet_writer_stays, setup_fifo, teardown),
		cmocka_unit_test_setup_teardown(test_restart_resets_clock, setup_fifo, teardown),
		cmocka_unit_test_setup_teardown(test_writer_without_data, setup_fifo, teardown),
		cmocka_unit_test_setup_teardown(test_stop_drains, setup_fifo, teardown),
		cmocka_unit_test_setup_teardown(test_stop_before_writer, setup_fifo, teardown),
		cmocka_unit_test_setup_teardown(test_pipe_size, setup_fifo, teardown),
		cmocka_unit_test_setup_teardown(test_file_timeout, setup_fifo, teardown),
		cmocka_unit_test(test_out_async),
		cmocka_unit_test(test_out_writeback_device),
		cmocka_unit_test(test_out_window),
		cmocka_unit_test(test_out_async_errors),
		cmocka_unit_test(test_in_error_status),
		cmocka_unit_test(test_in_gzip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
