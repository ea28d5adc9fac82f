/* The hash map: exact keys, shared (hashed) keys, deletion against a model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/map.h"

static void
test_exact(void **state)
{
	struct ssp_map m = SSP_MAP_INIT;
	struct ssp_map_slot *s;
	uint64_t k;
	int isnew;

	(void)state;
	assert_null(ssp_map_find(&m, 1));
	for (k = 0; k < 10000; k++)
		assert_non_null(ssp_map_add(&m, k * 4096, (uint32_t)k));
	assert_int_equal(m.n, 10000);
	assert_true(m.cap >= 20000);
	for (k = 0; k < 10000; k++) {
		s = ssp_map_find(&m, k * 4096);
		assert_non_null(s);
		assert_int_equal(s->val, k);
		assert_null(ssp_map_next(&m, s));
	}
	assert_null(ssp_map_find(&m, 1));
	s = ssp_map_put(&m, 4096, &isnew);
	assert_false(isnew);
	assert_int_equal(s->val, 1);
	s = ssp_map_put(&m, 7, &isnew);
	assert_true(isnew);
	s->val = 70;
	assert_int_equal(ssp_map_find(&m, 7)->val, 70);
	ssp_map_clear(&m);
	assert_int_equal(m.n, 0);
	assert_null(ssp_map_find(&m, 4096));
	ssp_map_free(&m);
}

static void
test_shared(void **state)
{
	struct ssp_map m;
	struct ssp_map_slot *s;
	unsigned seen = 0;

	(void)state;
	assert_int_equal(ssp_map_init(&m, 1000), 0);
	assert_true(m.cap >= 2000);
	assert_non_null(ssp_map_add(&m, 42, 1));
	assert_non_null(ssp_map_add(&m, 43, 9));
	assert_non_null(ssp_map_add(&m, 42, 2));
	assert_non_null(ssp_map_add(&m, 42, 3));
	for (s = ssp_map_find(&m, 42); s != NULL; s = ssp_map_next(&m, s))
		seen |= 1u << s->val;
	assert_int_equal(seen, 0xe);
	s = ssp_map_find(&m, 42);
	ssp_map_del(&m, s);
	seen = 0;
	for (s = ssp_map_find(&m, 42); s != NULL; s = ssp_map_next(&m, s))
		seen |= 1u << s->val;
	assert_int_equal(__builtin_popcount(seen), 2);
	assert_int_equal(ssp_map_find(&m, 43)->val, 9);
	assert_int_equal(ssp_map_hash("abc", 3), ssp_map_hash("abc", 3));
	assert_true(ssp_map_hash("abc", 3) != ssp_map_hash("abd", 3));
	ssp_map_free(&m);
}

/* Random adds and deletes on a small key space (many probe chains that
 * wrap and collide) against a plain array. */
static void
test_model(void **state)
{
	enum { K = 512 };
	struct ssp_map m = SSP_MAP_INIT;
	int32_t model[K];
	uint64_t x = 88172645463325252ULL;
	unsigned i, k;

	(void)state;
	for (k = 0; k < K; k++)
		model[k] = -1;
	for (i = 0; i < 200000; i++) {
		struct ssp_map_slot *s;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		k = (unsigned)(x >> 20) % K;
		s = ssp_map_find(&m, k);
		assert_int_equal(s != NULL, model[k] >= 0);
		if (s != NULL)
			assert_int_equal(s->val, model[k]);
		if (x & 1) {
			if (s != NULL) {
				ssp_map_del(&m, s);
				model[k] = -1;
			}
		} else if (s == NULL) {
			assert_non_null(ssp_map_add(&m, k, i));
			model[k] = (int32_t)i;
		}
	}
	for (k = 0, i = 0; k < K; k++)
		i += model[k] >= 0;
	assert_int_equal(m.n, i);
	ssp_map_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
