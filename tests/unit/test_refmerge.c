/* The reference merge of test_mergeq and fuzz_mergeq (refmerge.h): global
 * time order, ties by source index, file order within a source, ends and
 * failures reported once each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/refmerge.h"

struct src {
	const int64_t *ts;	/* -1 ends the list; -2 fails there */
	size_t i;
	unsigned tag;
};

static int
next(void *arg, struct ssp_rec *r, struct ssp_err *e)
{
	struct src *s = arg;

	if (s->ts[s->i] == -1)
		return 0;
	if (s->ts[s->i] == -2)
		return -ssp_err_set(e, SSP_ERR_CHECKSUM, 77, "bad block");
	memset(r, 0, sizeof(*r));
	r->ts = s->ts[s->i];
	r->f[0] = s->tag * 100 + s->i;	/* which record */
	s->i++;
	return 1;
}

static void
test_order(void **state)
{
	static const int64_t a[] = { 10, 20, 20, 30, 5, 40, -1 };	/* 5: backwards */
	static const int64_t b[] = { 20, 25, -1 };
	static const int64_t c[] = { -1 };
	static const int64_t d[] = { 0, 20, -2 };
	struct src s[4] = { { a, 0, 0 }, { b, 0, 1 }, { c, 0, 2 }, { d, 0, 3 } };
	static const uint64_t want[] = { 300, 0, 1, 2, 100, 301, 101, 3, 4, 5 };
	struct ref_merge *m;
	const struct ssp_rec *r = NULL;
	struct ssp_err e;
	unsigned idx, k = 0, ended = 0, failed = 0;
	int got, i;

	(void)state;
	assert_non_null(m = ref_merge_new(4));
	for (i = 0; i < 4; i++)
		ref_merge_set(m, (size_t)i, next, &s[i]);
	while ((got = ref_merge_next(m, &idx, &r, &e)) != REF_MERGE_DONE) {
		if (got == REF_MERGE_END) {
			ended |= 1u << idx;
			continue;
		}
		if (got < 0) {		/* -status */
			assert_int_equal(got, -SSP_ERR_CHECKSUM);
			assert_int_equal(idx, 3);
			assert_int_equal(e.code, SSP_ERR_CHECKSUM);
			failed++;
			continue;
		}
		assert_true(k < sizeof(want) / sizeof(want[0]));
		if (r->f[0] != want[k])
			fail_msg("record %u: got %llu want %llu", k,
			    (unsigned long long)r->f[0], (unsigned long long)want[k]);
		assert_int_equal(idx, want[k] / 100);
		k++;
	}
	assert_int_equal(k, sizeof(want) / sizeof(want[0]));
	assert_int_equal(ended, 0x7);
	assert_int_equal(failed, 1);
	assert_int_equal(ref_merge_backwards(m, 0), 1);
	assert_int_equal(ref_merge_backwards(m, 1), 0);
	/* done stays done */
	assert_int_equal(ref_merge_next(m, &idx, &r, &e), REF_MERGE_DONE);
	ref_merge_free(m);
}

static void
test_many_sources(void **state)
{
	static int64_t ts[64][101];
	struct src s[64];
	struct ref_merge *m;
	const struct ssp_rec *r = NULL;
	struct ssp_err e;
	unsigned idx, n = 0;
	int64_t last = -1;
	unsigned lastidx = 0;
	int i, j, got;

	(void)state;
	for (i = 0; i < 64; i++) {
		for (j = 0; j < 100; j++)
			ts[i][j] = (j * 7 + i * 3) % 50 + j * 50;	/* increasing */
		ts[i][100] = -1;
		s[i] = (struct src){ ts[i], 0, (unsigned)i };
	}
	assert_non_null(m = ref_merge_new(64));
	for (i = 0; i < 64; i++)
		ref_merge_set(m, (size_t)i, next, &s[i]);
	while ((got = ref_merge_next(m, &idx, &r, &e)) != REF_MERGE_DONE) {
		if (got != REF_MERGE_REC)
			continue;
		assert_true(r->ts > last || (r->ts == last && idx >= lastidx));
		last = r->ts;
		lastidx = idx;
		n++;
	}
	assert_int_equal(n, 6400);
	ref_merge_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_many_sources),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
