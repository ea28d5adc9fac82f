/* Line reader: lines across read boundaries, CR LF, the last line with and
 * without a newline, over-long lines at and past the limit (also at the end
 * of the input), empty input, follow-mode breaks, idle and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/in.h"
#include "io/lines.h"

#define MAX SSP_LINES_MAX

/*
 * Scripted input through ssp_in_fnopen: the bytes of p, at most chunk per
 * read (0: as many as asked); after brk bytes (if brk != 0) one
 * SSP_IN_BREAK, and one SSP_IN_IDLE before every idle-th read (if idle).
 */
struct feed {
	const char *p;
	size_t n, off;
	size_t chunk;
	size_t brk;
	int broke;
	unsigned idle, reads;
	int fail;		/* -SSP_ERR_IO instead of the end */
	struct ssp_in *in;
	struct ssp_lines *l;
};

static ssize_t
feed_read(void *ctx, void *buf, size_t n)
{
	struct feed *f = ctx;
	size_t k = f->n - f->off;

	if (f->idle != 0 && f->reads++ % f->idle == 0)
		return SSP_IN_IDLE;
	if (f->brk != 0 && !f->broke && f->off == f->brk) {
		f->broke = 1;
		return SSP_IN_BREAK;
	}
	if (f->brk != 0 && !f->broke && f->off + k > f->brk)
		k = f->brk - f->off;
	if (f->chunk != 0 && k > f->chunk)
		k = f->chunk;
	if (k > n)
		k = n;
	if (k == 0)
		return f->fail ? -SSP_ERR_IO : SSP_IN_EOF;
	memcpy(buf, f->p + f->off, k);
	f->off += k;
	return (ssize_t)k;
}

static void
feed_open(struct feed *f, const char *p, size_t n, size_t chunk, int flags)
{
	memset(f, 0, sizeof(*f));
	f->p = p;
	f->n = n;
	f->chunk = chunk;
	assert_int_equal(ssp_in_fnopen(&f->in, feed_read, f, "feed", flags, NULL),
	    SSP_OK);
	assert_int_equal(ssp_lines_open(&f->l, f->in, NULL), SSP_OK);
}

static void
feed_close(struct feed *f)
{
	ssp_lines_close(f->l);
	ssp_in_close(f->in);
}

/* The next line must be want (n bytes), with these flags. */
static void
expect_line(struct ssp_lines *l, const char *want, size_t n, int cut,
    int unterminated)
{
	char *line;
	size_t len;

	assert_int_equal(ssp_lines_next(l, &line, &len, NULL), SSP_LINE);
	assert_int_equal(len, n);
	assert_memory_equal(line, want, n);
	assert_int_equal(line[len], '\0');
	assert_int_equal(ssp_lines_cut(l), cut);
	assert_int_equal(ssp_lines_unterminated(l), unterminated);
}

static void
expect_eof(struct ssp_lines *l)
{
	char *line;
	size_t len;

	assert_int_equal(ssp_lines_next(l, &line, &len, NULL), SSP_LINE_EOF);
	/* and it stays at the end: no phantom line */
	assert_int_equal(ssp_lines_next(l, &line, &len, NULL), SSP_LINE_EOF);
}

static char *
filled(size_t n, char c)
{
	char *b = malloc(n + 1);

	assert_non_null(b);
	memset(b, c, n);
	b[n] = '\0';
	return b;
}

static void
test_small_chunks(void **state)
{
	static const char in[] = "alpha\nbeta\n\ngamma delta\n";
	static const size_t chunks[] = { 1, 2, 3, 5, 7, 0 };
	struct feed f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		feed_open(&f, in, sizeof(in) - 1, chunks[i], 0);
		expect_line(f.l, "alpha", 5, 0, 0);
		assert_int_equal(ssp_lines_lineno(f.l), 1);
		assert_int_equal(ssp_lines_offset(f.l), 0);
		expect_line(f.l, "beta", 4, 0, 0);
		assert_int_equal(ssp_lines_offset(f.l), 6);
		expect_line(f.l, "", 0, 0, 0);
		assert_int_equal(ssp_lines_offset(f.l), 11);
		expect_line(f.l, "gamma delta", 11, 0, 0);
		assert_int_equal(ssp_lines_lineno(f.l), 4);
		assert_int_equal(ssp_lines_offset(f.l), 12);
		expect_eof(f.l);
		assert_int_equal(ssp_lines_lineno(f.l), 4);
		feed_close(&f);
	}
}

/* A file larger than several reads (128 KiB each) through a real
 * descriptor: every line whole, numbered and at its offset. */
static void
test_read_boundaries(void **state)
{
	size_t n = 0, cap = 600000, off, k, len, lineno;
	char *b = malloc(cap);
	struct ssp_lines *l;
	struct ssp_in *in;
	int fd, last_nl;

	(void)state;
	assert_non_null(b);
	for (k = 0; n + 4000 < cap; k++) {	/* lengths 0..3999, varied */
		len = (k * 7919) % 4000;
		memset(b + n, 'a' + (int)(k % 26), len);
		n += len;
		b[n++] = '\n';
	}
	for (last_nl = 1; last_nl >= 0; last_nl--) {
		size_t total = last_nl ? n : n - 1;

		fd = memfd_create("lines", MFD_CLOEXEC);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, b, total), (ssize_t)total);
		lseek(fd, 0, SEEK_SET);
		assert_int_equal(ssp_in_fdopen(&in, fd, "mem", SSP_IN_ZSTD_AUTO, NULL),
		    SSP_OK);
		assert_int_equal(ssp_lines_open(&l, in, NULL), SSP_OK);
		off = 0;
		lineno = 0;
		while (off < total) {
			const char *nl = memchr(b + off, '\n', total - off);

			len = nl != NULL ? (size_t)(nl - (b + off)) : total - off;
			expect_line(l, b + off, len, 0, 0);
			assert_int_equal(ssp_lines_lineno(l), ++lineno);
			assert_int_equal(ssp_lines_offset(l), off);
			off += len + 1;
		}
		expect_eof(l);
		assert_int_equal(ssp_lines_lineno(l), lineno);
		assert_true(lineno >= k - 1 && lineno > 100);
		assert_int_equal(ssp_in_pos(in), total);
		ssp_lines_close(l);
		ssp_in_close(in);
	}
	free(b);
}

/* CR LF is not special here: the CR stays (the parsers drop it). */
static void
test_crlf(void **state)
{
	static const char in[] = "a b\r\n\r\nc\r";
	struct feed f;

	(void)state;
	feed_open(&f, in, sizeof(in) - 1, 2, 0);
	expect_line(f.l, "a b\r", 4, 0, 0);
	expect_line(f.l, "\r", 1, 0, 0);
	expect_line(f.l, "c\r", 2, 0, 0);
	expect_eof(f.l);
	feed_close(&f);
}

static void
test_last_line(void **state)
{
	struct feed f;

	(void)state;
	feed_open(&f, "one\ntwo\n", 8, 0, 0);
	expect_line(f.l, "one", 3, 0, 0);
	expect_line(f.l, "two", 3, 0, 0);
	expect_eof(f.l);
	assert_int_equal(ssp_lines_lineno(f.l), 2);
	feed_close(&f);

	/* without the newline: a whole line, not flagged */
	feed_open(&f, "one\ntwo", 7, 0, 0);
	expect_line(f.l, "one", 3, 0, 0);
	expect_line(f.l, "two", 3, 0, 0);
	assert_int_equal(ssp_lines_offset(f.l), 4);
	expect_eof(f.l);
	assert_int_equal(ssp_lines_lineno(f.l), 2);
	feed_close(&f);

	/* a single line without a newline, byte by byte */
	feed_open(&f, "main_time = 3: nicbm: eth tx: len 44", 36, 1, 0);
	expect_line(f.l, "main_time = 3: nicbm: eth tx: len 44", 36, 0, 0);
	expect_eof(f.l);
	assert_int_equal(ssp_lines_lineno(f.l), 1);
	feed_close(&f);
}

/* One good line, then 300000 bytes without a newline: more than two reads,
 * less than the limit. */
static void
test_long_last_line(void **state)
{
	size_t n = 4 + 300000;
	char *b = filled(n, 'x');
	struct feed f;

	(void)state;
	memcpy(b, "ok\n", 3);
	feed_open(&f, b, n - 1, 0, 0);
	expect_line(f.l, "ok", 2, 0, 0);
	expect_line(f.l, b + 3, n - 4, 0, 0);
	expect_eof(f.l);
	assert_int_equal(ssp_lines_lineno(f.l), 2);
	feed_close(&f);
	free(b);
}

static void
test_empty(void **state)
{
	struct feed f;

	(void)state;
	feed_open(&f, "", 0, 0, 0);
	expect_eof(f.l);
	assert_int_equal(ssp_lines_lineno(f.l), 0);
	feed_close(&f);

	/* only a newline: one empty line */
	feed_open(&f, "\n", 1, 0, 0);
	expect_line(f.l, "", 0, 0, 0);
	expect_eof(f.l);
	assert_int_equal(ssp_lines_lineno(f.l), 1);
	feed_close(&f);

	/* a follower stopped on an empty input: nothing */
	feed_open(&f, "", 0, 0, SSP_IN_FOLLOW);
	expect_eof(f.l);
	feed_close(&f);
}

/* Exactly SSP_LINES_MAX bytes: whole, whatever the read sizes. */
static void
test_at_limit(void **state)
{
	static const size_t chunks[] = { 0, 4096, 1000 };
	char *b = filled(MAX + 3, 'L');
	struct feed f;
	size_t i;

	(void)state;
	b[MAX] = '\n';
	b[MAX + 1] = 'z';
	b[MAX + 2] = '\n';
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		feed_open(&f, b, MAX + 3, chunks[i], 0);
		expect_line(f.l, b, MAX, 0, 0);
		expect_line(f.l, "z", 1, 0, 0);
		assert_int_equal(ssp_lines_lineno(f.l), 2);
		assert_int_equal(ssp_lines_offset(f.l), MAX + 1);
		expect_eof(f.l);
		feed_close(&f);
	}
	/* and at the end without a newline */
	feed_open(&f, b, MAX, 0, 0);
	expect_line(f.l, b, MAX, 0, 0);
	expect_eof(f.l);
	feed_close(&f);
	free(b);
}

/* Longer: the first SSP_LINES_MAX bytes, flagged; the rest is dropped and
 * is not a line of its own. */
static void
test_over_limit(void **state)
{
	static const size_t extra[] = { 1, 2, 200000, 3 * MAX };
	char *b;
	struct feed f;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		n = MAX + extra[i] + 3;
		b = filled(n, 'O');
		b[MAX - 1] = 'E';	/* last byte kept */
		b[n - 3] = '\n';
		b[n - 2] = 'z';
		b[n - 1] = '\n';
		feed_open(&f, b, n, i == 1 ? 777 : 0, 0);
		expect_line(f.l, b, MAX, 1, 0);
		expect_line(f.l, "z", 1, 0, 0);
		assert_int_equal(ssp_lines_lineno(f.l), 2);
		assert_int_equal(ssp_lines_offset(f.l), n - 2);
		expect_eof(f.l);
		feed_close(&f);
		free(b);
	}
}

/* Over the limit at the end of the input without a newline (the old
 * out-of-bounds write): one cut line, then the end. */
static void
test_over_limit_at_eof(void **state)
{
	static const size_t tail[] = { MAX + 1, MAX + 300000, 2 * MAX + 12345 };
	char *b;
	struct feed f;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(tail) / sizeof(tail[0]); i++) {
		n = 3 + tail[i];
		b = filled(n, 'T');
		memcpy(b, "ok\n", 3);
		feed_open(&f, b, n, 0, 0);
		expect_line(f.l, "ok", 2, 0, 0);
		expect_line(f.l, b + 3, MAX, 1, 0);
		assert_int_equal(ssp_lines_offset(f.l), 3);
		expect_eof(f.l);
		assert_int_equal(ssp_lines_lineno(f.l), 2);
		feed_close(&f);
		free(b);
	}
}

/* Follow mode: a pipe's writer going away ends the line it left without a
 * newline; a follower stopped mid-line flags it too. */
static void
test_follow(void **state)
{
	static const char in[] = "a\nbc" "d\n" "ef";
	struct feed f;

	(void)state;
	feed_open(&f, in, sizeof(in) - 1, 0, SSP_IN_FOLLOW);
	f.brk = 4;
	expect_line(f.l, "a", 1, 0, 0);
	expect_line(f.l, "bc", 2, 0, 1);
	expect_line(f.l, "d", 1, 0, 0);
	assert_int_equal(ssp_lines_offset(f.l), 4);
	expect_line(f.l, "ef", 2, 0, 1);	/* stopped: may be half-written */
	expect_eof(f.l);
	assert_int_equal(ssp_lines_lineno(f.l), 4);
	feed_close(&f);

	/* a break right after a newline ends nothing */
	feed_open(&f, "a\nb\n", 4, 0, SSP_IN_FOLLOW);
	f.brk = 2;
	expect_line(f.l, "a", 1, 0, 0);
	expect_line(f.l, "b", 1, 0, 0);
	expect_eof(f.l);
	feed_close(&f);
}

/* A break in the middle of an over-long line: the next writer's first line
 * is a line again. */
static void
test_follow_over_limit(void **state)
{
	size_t n = MAX + 10 + 2;
	char *b = filled(n, 'B');
	struct feed f;

	(void)state;
	b[n - 2] = 'n';
	b[n - 1] = '\n';
	feed_open(&f, b, n, 0, SSP_IN_FOLLOW);
	f.brk = MAX + 10;
	expect_line(f.l, b, MAX, 1, 0);
	expect_line(f.l, "n", 1, 0, 0);
	expect_eof(f.l);
	feed_close(&f);
	free(b);
}

static void
test_idle_and_error(void **state)
{
	char *line;
	size_t len;
	struct feed f;
	struct ssp_err e = { 0 };
	int r, idle = 0;

	(void)state;
	feed_open(&f, "ab\ncd\n", 6, 1, SSP_IN_FOLLOW);
	f.idle = 2;
	while ((r = ssp_lines_next(f.l, &line, &len, NULL)) == SSP_LINE_IDLE)
		idle++;
	assert_int_equal(r, SSP_LINE);
	assert_string_equal(line, "ab");
	while ((r = ssp_lines_next(f.l, &line, &len, NULL)) == SSP_LINE_IDLE)
		idle++;
	assert_int_equal(r, SSP_LINE);
	assert_string_equal(line, "cd");
	assert_true(idle > 0);
	feed_close(&f);

	feed_open(&f, "ab\ncd", 5, 0, 0);
	f.fail = 1;
	expect_line(f.l, "ab", 2, 0, 0);
	assert_int_equal(ssp_lines_next(f.l, &line, &len, &e), -SSP_ERR_IO);
	assert_int_equal(e.code, SSP_ERR_IO);
	feed_close(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_chunks),
		cmocka_unit_test(test_read_boundaries),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_last_line),
		cmocka_unit_test(test_long_last_line),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_at_limit),
		cmocka_unit_test(test_over_limit),
		cmocka_unit_test(test_over_limit_at_eof),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_follow_over_limit),
		cmocka_unit_test(test_idle_and_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
