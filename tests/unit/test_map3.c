/* The three-part key map: keys that differ in one part only, replace,
 * delete by key and by array index during a sweep, entries reused, growth
 * past many doublings against a plain array model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/map3.h"

static int vals[8];

static void
test_parts_of_the_key(void **state)
{
	struct ssp_map3 m = SSP_MAP3_INIT;
	void *old;

	(void)state;
	assert_null(ssp_map3_get(&m, 1, 2, 3));		/* empty */
	assert_int_equal(ssp_map3_put(&m, 1, 2, 3, &vals[0], &old), 0);
	assert_null(old);
	assert_int_equal(ssp_map3_put(&m, 1, 2, 4, &vals[1], &old), 0);
	assert_int_equal(ssp_map3_put(&m, 1, 5, 3, &vals[2], &old), 0);
	assert_int_equal(ssp_map3_put(&m, 6, 2, 3, &vals[3], &old), 0);
	/* the hash of these two is the same: k2 rotated by 21 is k1 */
	assert_int_equal(ssp_map3_put(&m, (uint64_t)1 << 21, 0, 0, &vals[4], &old), 0);
	assert_int_equal(ssp_map3_put(&m, 0, 1, 0, &vals[5], &old), 0);
	assert_int_equal(m.n, 6);
	assert_ptr_equal(ssp_map3_get(&m, 1, 2, 3), &vals[0]);
	assert_ptr_equal(ssp_map3_get(&m, 1, 2, 4), &vals[1]);
	assert_ptr_equal(ssp_map3_get(&m, 1, 5, 3), &vals[2]);
	assert_ptr_equal(ssp_map3_get(&m, 6, 2, 3), &vals[3]);
	assert_ptr_equal(ssp_map3_get(&m, (uint64_t)1 << 21, 0, 0), &vals[4]);
	assert_ptr_equal(ssp_map3_get(&m, 0, 1, 0), &vals[5]);
	assert_null(ssp_map3_get(&m, 1, 2, 5));
	/* replace */
	assert_int_equal(ssp_map3_put(&m, 1, 2, 3, &vals[6], &old), 0);
	assert_ptr_equal(old, &vals[0]);
	assert_int_equal(m.n, 6);
	/* delete */
	assert_ptr_equal(ssp_map3_del(&m, 0, 1, 0), &vals[5]);
	assert_null(ssp_map3_del(&m, 0, 1, 0));
	assert_ptr_equal(ssp_map3_get(&m, (uint64_t)1 << 21, 0, 0), &vals[4]);
	assert_int_equal(m.n, 5);
	ssp_map3_free(&m);
	assert_int_equal(m.n, 0);
	ssp_map3_free(&m);		/* twice: nothing */
}

/* A sweep deletes every entry with an odd k1 while walking the array; the
 * others stay where they are, and freed entries are reused first. */
static void
test_sweep(void **state)
{
	enum { N = 1000 };
	struct ssp_map3 m = SSP_MAP3_INIT;
	struct ssp_map3_ent *h;
	void *old;
	size_t i, seen = 0, cap;

	(void)state;
	for (i = 0; i < N; i++)
		assert_int_equal(ssp_map3_put(&m, i, i * 7, (uint32_t)i % 3,
		    &vals[i % 8], &old), 0);
	cap = m.cap;
	for (i = 0; i < m.cap; i++)
		if (m.t[i].used && (m.t[i].k1 & 1)) {
			h = &m.t[i];
			ssp_map3_del_at(&m, i);
			assert_int_equal(h->used, 0);
		}
	assert_int_equal(m.n, N / 2);
	for (i = 0; i < m.cap; i++)
		if (m.t[i].used) {
			assert_int_equal(m.t[i].k1 % 2, 0);
			seen++;
		}
	assert_int_equal(seen, N / 2);
	for (i = 0; i < N; i++)
		if (i % 2 == 0)
			assert_ptr_equal(ssp_map3_get(&m, i, i * 7,
			    (uint32_t)i % 3), &vals[i % 8]);
		else
			assert_null(ssp_map3_get(&m, i, i * 7, (uint32_t)i % 3));
	for (i = 0; i < N / 2; i++)	/* back in the freed entries */
		assert_int_equal(ssp_map3_put(&m, N + i, 0, 0, &vals[0], &old), 0);
	assert_int_equal(m.cap, cap);
	ssp_map3_free(&m);
}

/* Random puts and deletes against a direct-indexed model. */
static void
test_model(void **state)
{
	enum { K = 4096, OPS = 200000 };
	struct ssp_map3 m = SSP_MAP3_INIT;
	int *model = calloc(K, sizeof(*model));
	uint64_t x = 88172645463325252ULL;
	size_t i, n = 0;
	void *old;

	(void)state;
	assert_non_null(model);
	for (i = 0; i < OPS; i++) {
		unsigned k;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = (unsigned)(x % K);
		if ((x >> 32) & 1) {
			assert_int_equal(ssp_map3_put(&m, k >> 6, k & 7,
			    (k >> 3) & 7, &vals[k & 7], &old), 0);
			assert_true((old != NULL) == model[k]);
			n += !model[k];
			model[k] = 1;
		} else {
			old = ssp_map3_del(&m, k >> 6, k & 7, (k >> 3) & 7);
			assert_true((old != NULL) == model[k]);
			n -= model[k];
			model[k] = 0;
		}
		assert_int_equal(m.n, n);
	}
	for (i = 0; i < K; i++)
		assert_true((ssp_map3_get(&m, i >> 6, i & 7, (i >> 3) & 7) !=
		    NULL) == model[i]);
	ssp_map3_free(&m);
	free(model);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_of_the_key),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
