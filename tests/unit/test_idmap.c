/* Bounded id map: lookups, generations, promotion, eviction and draining. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/idmap.h"

struct seen {
	uint64_t n, sum;	/* entries passed, sum of their values */
	uint64_t fail_at;	/* fail on the n-th call (0: never) */
	uint64_t last_lo;
};

static int
count(void *ctx, uint64_t hi, uint64_t lo, void *value)
{
	struct seen *s = ctx;

	(void)hi;
	if (s->fail_at != 0 && s->n + 1 == s->fail_at)
		return -1;
	s->n++;
	s->sum += *(uint64_t *)value;
	s->last_lo = lo;
	return 0;
}

static void
test_put_get(void **state)
{
	struct ssp_idmap *m = ssp_idmap_new(sizeof(uint64_t), 1000, NULL, NULL);
	uint64_t i, *v;

	(void)state;
	assert_non_null(m);
	assert_null(ssp_idmap_get(m, 0, 1));
	for (i = 1; i <= 500; i++) {
		v = ssp_idmap_put(m, 0, i * 0x10000);	/* low bits all equal */
		assert_non_null(v);
		assert_true(*v == 0);	/* zeroed */
		*v = i;
	}
	for (i = 1; i <= 500; i++) {
		v = ssp_idmap_get(m, 0, i * 0x10000);
		assert_non_null(v);
		assert_true(*v == i);
	}
	/* the high half of the key counts */
	assert_null(ssp_idmap_get(m, 1, 0x10000));
	v = ssp_idmap_put(m, 1, 0x10000);
	*v = 77;
	assert_true(*(uint64_t *)ssp_idmap_get(m, 1, 0x10000) == 77);
	assert_true(*(uint64_t *)ssp_idmap_get(m, 0, 0x10000) == 1);
	assert_int_equal(ssp_idmap_count(m), 501);
	assert_int_equal(ssp_idmap_evicted(m), 0);
	/* 500 ids with equal low bits cannot be placed in order */
	assert_int_equal(ssp_idmap_mixed(m), 1);
	ssp_idmap_free(m);
}

/* Counters are placed in order, through many generations; lookups of ids
 * a table size away (the same home slot) and of dropped ids find nothing. */
static void
test_counters_in_order(void **state)
{
	struct seen s = { 0 };
	struct ssp_idmap *m = ssp_idmap_new(sizeof(uint64_t), 1000, count, &s);
	uint64_t i, j, *v;

	(void)state;
	assert_non_null(m);
	for (i = 1; i <= 10000; i++) {
		v = ssp_idmap_put(m, 7, 1000000 + i);
		assert_non_null(v);
		*v = i;
		for (j = i > 50 ? i - 50 : 1; j <= i; j += 7) {	/* recent */
			v = ssp_idmap_get(m, 7, 1000000 + j);
			assert_non_null(v);
			assert_true(*v == j);
		}
		assert_null(ssp_idmap_get(m, 7, 1000000 + i + 2048));
		assert_null(ssp_idmap_get(m, 7, 1000000 + i - 2048));
		assert_null(ssp_idmap_get(m, 8, 1000000 + i));
	}
	assert_int_equal(ssp_idmap_mixed(m), 0);
	assert_true(ssp_idmap_evicted(m) > 0);
	assert_true(s.n == ssp_idmap_evicted(m));
	ssp_idmap_free(m);
}

/* Turning to the mixing hash keeps both generations' entries. */
static void
test_turn_to_mixing(void **state)
{
	struct ssp_idmap *m = ssp_idmap_new(sizeof(uint64_t), 100, NULL, NULL);
	uint64_t i, *v;

	(void)state;
	for (i = 1; i <= 150; i++) {	/* 100 in the old generation */
		v = ssp_idmap_put(m, 0, i);
		*v = i;
	}
	assert_int_equal(ssp_idmap_mixed(m), 0);
	for (i = 1; i <= 40; i++) {	/* crowd one home slot */
		v = ssp_idmap_put(m, 0, i << 20);
		assert_non_null(v);
		*v = i << 20;
	}
	assert_int_equal(ssp_idmap_mixed(m), 1);
	for (i = 1; i <= 40; i++)
		assert_true(*(uint64_t *)ssp_idmap_get(m, 0, i << 20) == i << 20);
	for (i = 150; i >= 1; i--) {	/* promotions drop the oldest */
		v = ssp_idmap_get(m, 0, i);
		if (i > 150 - 60) {
			assert_non_null(v);
			assert_true(*v == i);
		}
	}
	ssp_idmap_free(m);
}

static void
test_generations(void **state)
{
	struct seen s = { 0 };
	struct ssp_idmap *m = ssp_idmap_new(sizeof(uint64_t), 4, count, &s);
	uint64_t i, *v;

	(void)state;
	/* 4 per generation: after 12 puts, the first 4 have been dropped. */
	for (i = 1; i <= 12; i++) {
		v = ssp_idmap_put(m, 0, i);
		assert_non_null(v);
		*v = i;
	}
	assert_true(s.n == 4);
	assert_true(s.sum == 1 + 2 + 3 + 4);
	assert_int_equal(ssp_idmap_evicted(m), 4);
	assert_int_equal(ssp_idmap_count(m), 8);
	for (i = 1; i <= 4; i++)
		assert_null(ssp_idmap_get(m, 0, i));
	for (i = 9; i <= 12; i++)	/* current generation */
		assert_true(*(uint64_t *)ssp_idmap_get(m, 0, i) == i);
	/* 5 is in the old generation: moving it to the full current one
	 * turns the generations, which drops 6, 7 and 8. */
	assert_true(*(uint64_t *)ssp_idmap_get(m, 0, 5) == 5);
	assert_true(s.n == 7);
	assert_true(s.sum == 1 + 2 + 3 + 4 + 6 + 7 + 8);
	assert_null(ssp_idmap_get(m, 0, 6));
	assert_true(*(uint64_t *)ssp_idmap_get(m, 0, 12) == 12);
	ssp_idmap_free(m);
}

static void
test_promotion_keeps_used_entries(void **state)
{
	struct seen s = { 0 };
	struct ssp_idmap *m = ssp_idmap_new(sizeof(uint64_t), 4, count, &s);
	uint64_t i, *v;

	(void)state;
	v = ssp_idmap_put(m, 0, 1000);
	*v = 1000;
	/* Touch id 1000 once per generation: it is never dropped. */
	for (i = 1; i <= 100; i++) {
		v = ssp_idmap_put(m, 0, i);
		*v = i;
		if (i % 3 == 0) {
			v = ssp_idmap_get(m, 0, 1000);
			assert_non_null(v);
			assert_true(*v == 1000);
		}
	}
	assert_true(*(uint64_t *)ssp_idmap_get(m, 0, 1000) == 1000);
	/* everything else that was dropped went through the callback once */
	assert_true(s.n == ssp_idmap_evicted(m));
	assert_true(s.n + ssp_idmap_count(m) == 101);
	ssp_idmap_free(m);
}

static void
test_drain(void **state)
{
	struct seen s = { 0 }, d = { 0 };
	struct ssp_idmap *m = ssp_idmap_new(sizeof(uint64_t), 8, count, &s);
	uint64_t i, total = 0, *v;

	(void)state;
	for (i = 1; i <= 30; i++) {
		v = ssp_idmap_put(m, i, ~i);
		*v = i;
		total += i;
	}
	assert_int_equal(ssp_idmap_drain(m, count, &d), 0);
	/* every entry reached exactly one callback */
	assert_true(s.n + d.n == 30);
	assert_true(s.sum + d.sum == total);
	assert_int_equal(ssp_idmap_count(m), 0);
	assert_null(ssp_idmap_get(m, 30, ~30ull));
	/* usable again after draining */
	v = ssp_idmap_put(m, 5, 5);
	assert_non_null(v);
	ssp_idmap_free(m);
}

static void
test_evict_failure(void **state)
{
	struct seen s = { 0 };
	struct ssp_idmap *m = ssp_idmap_new(sizeof(uint64_t), 2, count, &s);
	uint64_t i, *v;

	(void)state;

	s.fail_at = 2;
	for (i = 1; i <= 4; i++) {	/* the third turns, drops nothing */
		v = ssp_idmap_put(m, 0, i);
		assert_non_null(v);
		*v = i;
	}
	/* the next turn drops 1 and 2; the second callback fails */
	assert_null(ssp_idmap_put(m, 0, 5));
	assert_true(s.n == 1);
	/* draining later passes the rest, none twice */
	s.fail_at = 0;
	assert_int_equal(ssp_idmap_drain(m, count, &s), 0);
	assert_true(s.n == 4);
	assert_true(s.sum == 1 + 2 + 3 + 4);
	v = ssp_idmap_put(m, 0, 6);
	assert_non_null(v);
	ssp_idmap_free(m);
}

static void
test_large_values(void **state)
{
	struct ssp_idmap *m = ssp_idmap_new(300, 2, NULL, NULL);
	unsigned char *v;
	int i;

	(void)state;
	/* promotion copies values bigger than its stack buffer */
	v = ssp_idmap_put(m, 0, 1);
	memset(v, 0xab, 300);
	for (i = 2; i < 5; i++)
		assert_non_null(ssp_idmap_put(m, 0, (uint64_t)i));
	v = ssp_idmap_get(m, 0, 1);
	if (v != NULL)	/* still in the old generation: promoted intact */
		for (i = 0; i < 300; i++)
			assert_int_equal(v[i], 0xab);
	ssp_idmap_free(m);
	assert_null(ssp_idmap_new(8, 0, NULL, NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_counters_in_order),
		cmocka_unit_test(test_turn_to_mixing),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_promotion_keeps_used_entries),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_evict_failure),
		cmocka_unit_test(test_large_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
