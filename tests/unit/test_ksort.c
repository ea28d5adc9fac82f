/* Key sorting: against qsort, in memory and spilled to a file, 1 to 3
 * words, equal words (ties broken by the payload), empty input. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/err.h"
#include "base/ksort.h"

static unsigned gw;	/* words per key, with the payload, for cmp_ref */

static int
cmp_ref(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;
	unsigned i;

	for (i = 0; i < gw; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static uint64_t
rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void
check(unsigned nw, size_t n, size_t mem, int spills, int kind)
{
	struct ssp_ksort *s = ssp_ksort_new(nw, mem, NULL);
	uint64_t *ref = calloc(n + 1, (nw + 1) * sizeof(uint64_t)), x = 88172645463325252ull;
	const uint64_t *k;
	size_t i;
	unsigned j;

	assert_non_null(s);
	assert_non_null(ref);
	for (i = 0; i < n; i++) {
		uint64_t *r = ref + i * (nw + 1);

		for (j = 0; j < nw; j++) {
			uint64_t v = rnd(&x);

			switch (kind) {
			case 0: break;				/* all bytes vary */
			case 1: v %= 5; break;			/* many ties */
			case 2: v = (v % 1000) << 40 | 7; break;	/* few bytes vary */
			default: v = j == 0 ? UINT64_MAX - v % 3 : v % 100000;
			}
			r[j] = v;
		}
		r[nw] = i * 3 + 1;	/* ascending payload */
		assert_int_equal(ssp_ksort_add(s, r), SSP_OK);
	}
	assert_int_equal(ssp_ksort_done(s), SSP_OK);
	assert_true(spills ? ssp_ksort_spills(s) > 1 : ssp_ksort_spills(s) == 0);
	gw = nw + 1;
	qsort(ref, n, (nw + 1) * sizeof(uint64_t), cmp_ref);
	for (i = 0; i < n; i++) {
		assert_non_null(k = ssp_ksort_next(s));
		assert_memory_equal(k, ref + i * (nw + 1), (nw + 1) * sizeof(uint64_t));
	}
	assert_null(ssp_ksort_next(s));
	assert_int_equal(ssp_ksort_status(s), SSP_OK);
	assert_true(ssp_ksort_count(s) == n);
	ssp_ksort_free(s);
	free(ref);
}

static void
test_in_memory(void **state)
{
	unsigned nw, kind;

	(void)state;
	for (nw = 1; nw <= 3; nw++)
		for (kind = 0; kind < 4; kind++)
			check(nw, 50000, 64u << 20, 0, (int)kind);
	check(2, 1, 0, 0, 0);
	check(2, 0, 0, 0, 0);
}

static void
test_spilled(void **state)
{
	unsigned nw, kind;

	(void)state;
	for (nw = 1; nw <= 3; nw++)
		for (kind = 0; kind < 4; kind++)
			check(nw, 70000, 1u << 16, 1, (int)kind);
}

static void *
sort_and_drop(void *arg)
{
	assert_int_equal(ssp_ksort_done(arg), SSP_OK);
	ssp_ksort_drop_scratch();
	return NULL;
}

/* A sorter made here, sorted in another thread (as span2sqlite's helper
 * does), read here: the keys in order; the other thread's radix scratch
 * freed by ssp_ksort_drop_scratch (the sanitizer build sees a leak
 * otherwise), and a second drop frees nothing twice. */
static void
test_sorted_in_another_thread(void **state)
{
	struct ssp_ksort *s = ssp_ksort_new(2, 64u << 20, NULL);
	uint64_t k[3], prev[3] = { 0, 0, 0 }, x = 7;
	const uint64_t *got;
	pthread_t th;
	size_t i;

	(void)state;
	assert_non_null(s);
	for (i = 0; i < 30000; i++) {
		k[0] = rnd(&x) % 17;
		k[1] = rnd(&x);
		k[2] = i;
		assert_int_equal(ssp_ksort_add(s, k), SSP_OK);
	}
	assert_int_equal(pthread_create(&th, NULL, sort_and_drop, s), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	for (i = 0; (got = ssp_ksort_next(s)) != NULL; i++) {
		assert_true(i == 0 || memcmp(prev, got, sizeof(prev)) != 0);
		assert_true(i == 0 || prev[0] < got[0] ||
		    (prev[0] == got[0] && prev[1] <= got[1]));
		memcpy(prev, got, sizeof(prev));
	}
	assert_int_equal(i, 30000);
	ssp_ksort_drop_scratch();	/* this thread has none: nothing */
	ssp_ksort_free(s);
}

/* Two sorters share a budget: both sort correctly; it is given back. */
static void
test_shared_pool(void **state)
{
	size_t pool = 1u << 20;
	struct ssp_ksort *a = ssp_ksort_new(2, 64u << 20, &pool);
	struct ssp_ksort *b = ssp_ksort_new(1, 64u << 20, &pool);
	const uint64_t *k;
	uint64_t i, prev = 0;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	for (i = 0; i < 200000; i++) {
		uint64_t ka[3] = { (i * 7919) % 1000, i % 3, i };
		uint64_t kb[2] = { (i * 104729) % 100003, i };

		assert_int_equal(ssp_ksort_add(a, ka), SSP_OK);
		assert_int_equal(ssp_ksort_add(b, kb), SSP_OK);
	}
	assert_true(pool < (1u << 20));
	assert_int_equal(ssp_ksort_done(a), SSP_OK);
	assert_int_equal(ssp_ksort_done(b), SSP_OK);
	assert_true(ssp_ksort_spills(a) + ssp_ksort_spills(b) > 2);
	for (i = 0; (k = ssp_ksort_next(b)) != NULL; i++) {
		assert_true(i == 0 || k[0] >= prev);
		prev = k[0];
	}
	assert_true(i == 200000);
	ssp_ksort_free(a);
	ssp_ksort_free(b);
	assert_true(pool == (1u << 20));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_memory),
		cmocka_unit_test(test_spilled),
		cmocka_unit_test(test_shared_pool),
		cmocka_unit_test(test_sorted_in_another_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
