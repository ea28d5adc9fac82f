/* Span write queue: the bytes written through the thread are those of the
 * same calls on the writer (records, strings long and short, across
 * buffer and block boundaries), string ids come back at once and are
 * those of ssp_rec_wr_str, and a write error of the thread comes back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/out.h"
#include "span/spanwq.h"
#include "stream/rec.h"
#include "stream/span.h"

static char *
tmpname(int k)
{
	static char path[2][64];

	snprintf(path[k], sizeof(path[k]), "/tmp/ssp-test-wq-%d-%d",
	    (int)getpid(), k);
	return path[k];
}

static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	p = malloc((size_t)len);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return p;
}

/* n spans of all types with strings every few (some of ~20 KB: buffers
 * fill with strings), through the queue or not. */
static void
write_spans(const char *path, unsigned n, int queued)
{
	const struct ssp_schema *s = ssp_span_schema(0);
	struct ssp_span_source src[1] = { { "client", 6, SSP_SIM_GEM5 } };
	struct ssp_spanwq *q = NULL;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	static char str[20000];
	unsigned i, k;

	assert_int_equal(ssp_out_open(&o, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_span_writer_open(&w, o, "test", src, 1, 0, &e),
	    SSP_OK);
	if (queued)
		assert_int_equal(ssp_spanwq_new(&q, w, s, &e), SSP_OK);
	for (i = 0; i < n; i++) {
		uint64_t id;
		size_t len;

		memset(&r, 0, sizeof(r));
		r.type = i % s->ntypes;
		r.ts = (int64_t)i * 977 - 5000;
		for (k = 0; k < s->types[r.type].nf; k++)
			r.f[k] = (uint64_t)i * 0x9e3779b97f4a7c15ULL >> (k * 3 % 64);
		len = (size_t)snprintf(str, sizeof(str), "s%u", i / 5);
		if (i % 997 == 3) {	/* a long one */
			memset(str + len, 'x', sizeof(str) - len - 1);
			len = sizeof(str) - 1;
		}
		id = queued ? ssp_spanwq_str(q, str, len, &e) :
		    ssp_rec_wr_str(w, str, len, &e);
		assert_true(id != 0);
		/* the id is the one the writer gives: asked again, the same */
		assert_true(id == (queued ? ssp_spanwq_str(q, str, len, &e) :
		    ssp_rec_wr_str(w, str, len, &e)));
		r.f[SSP_SF_CAUSE] = id;
		r.f[SSP_SF_DUR] = (uint64_t)-(int64_t)i;
		if (queued)
			assert_int_equal(ssp_spanwq_put(q, &r, &e), SSP_OK);
		else
			assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	}
	if (queued) {
		assert_true(ssp_spanwq_records(q) == n);
		assert_int_equal(ssp_spanwq_finish(q, &e), SSP_OK);
		ssp_spanwq_free(q);
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
}

static void
test_same_bytes(void **state)
{
	static const unsigned sizes[] = { 0, 1, 7, 1000, 60000 };
	uint8_t *a, *b;
	size_t na, nb;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		write_spans(tmpname(0), sizes[i], 0);
		write_spans(tmpname(1), sizes[i], 1);
		a = slurp(tmpname(0), &na);
		b = slurp(tmpname(1), &nb);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na);
		free(a);
		free(b);
	}
	unlink(tmpname(0));
	unlink(tmpname(1));
}

/* A queue on a span writer into path; SSP_OK, or the writer's error
 * (the header may already fail to write, buffered or not). */
static int
open_queue(const char *path, struct ssp_out **o, struct ssp_rec_wr **w,
    struct ssp_spanwq **q)
{
	static const struct ssp_span_source src[1] = {
		{ "client", 6, SSP_SIM_GEM5 } };
	struct ssp_err e;

	assert_int_equal(ssp_out_open(o, path, 0, &e), SSP_OK);
	if (ssp_span_writer_open(w, *o, "test", src, 1, 0, &e) != SSP_OK) {
		ssp_out_abort(*o);
		return e.code;
	}
	assert_int_equal(ssp_spanwq_new(q, *w, ssp_span_schema(0), &e), SSP_OK);
	return SSP_OK;
}

static void
abort_queue(struct ssp_out *o, struct ssp_rec_wr *w, struct ssp_spanwq *q)
{
	ssp_spanwq_free(q);
	ssp_rec_wr_abort(w);
	ssp_out_abort(o);
}

/* A write that fails in the thread: a later put or the finish says so. */
static void
test_write_error(void **state)
{
	struct ssp_spanwq *q;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	unsigned i;
	int rc = SSP_OK;

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	if (open_queue("/dev/full", &o, &w, &q) != SSP_OK)
		return;
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 200000 && rc == SSP_OK; i++) {
		r.ts = i;
		rc = ssp_spanwq_put(q, &r, &e);
	}
	if (rc == SSP_OK)
		rc = ssp_spanwq_finish(q, &e);
	assert_int_equal(rc, SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "No space left"));
	abort_queue(o, w, q);
}

/* Freed without finishing (an error elsewhere): the thread stops. */
static void
test_free_early(void **state)
{
	struct ssp_spanwq *q;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	unsigned i;

	(void)state;
	assert_int_equal(open_queue(tmpname(0), &o, &w, &q), SSP_OK);
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 5000; i++)
		assert_int_equal(ssp_spanwq_put(q, &r, &e), SSP_OK);
	r.type = ssp_span_schema(0)->ntypes;	/* not in the schema */
	assert_int_equal(ssp_spanwq_put(q, &r, &e), SSP_ERR_INVAL);
	abort_queue(o, w, q);
	unlink(tmpname(0));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bytes),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_free_early),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
