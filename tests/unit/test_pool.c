/* Fixed-size objects from chunks: sizes rounded to a pointer, objects
 * disjoint across chunks, last freed first reused, everything freed by
 * ssp_pool_fini (the sanitizer build sees a leak otherwise). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/pool.h"

static void
test_size_is_rounded(void **state)
{
	struct ssp_pool p;

	(void)state;
	ssp_pool_init(&p, 1);
	assert_int_equal(p.size, sizeof(void *));
	ssp_pool_init(&p, sizeof(void *) + 1);
	assert_int_equal(p.size, 2 * sizeof(void *));
	ssp_pool_init(&p, 56);
	assert_int_equal(p.size, 56);
	ssp_pool_fini(&p);		/* an empty pool */
}

/* More objects than a chunk holds: all distinct, aligned to a pointer,
 * writable in full. */
static void
test_objects_are_disjoint(void **state)
{
	enum { N = 3 * SSP_POOL_PER + 5, SZ = 40 };
	struct ssp_pool p;
	unsigned char **v = calloc(N, sizeof(*v));
	size_t i, j;

	(void)state;
	assert_non_null(v);
	ssp_pool_init(&p, SZ);
	for (i = 0; i < N; i++) {
		assert_non_null(v[i] = ssp_pool_get(&p));
		assert_int_equal((uintptr_t)v[i] % sizeof(void *), 0);
		memset(v[i], (int)(i & 0xff), SZ);
	}
	assert_int_equal(p.nchunk, 4);
	for (i = 0; i < N; i++)
		for (j = 0; j < SZ; j++)
			assert_int_equal(v[i][j], i & 0xff);
	for (i = 0; i < N; i++)
		ssp_pool_put(&p, v[i]);
	ssp_pool_fini(&p);
	free(v);
}

/* A freed object is the next one given out; no chunk is added while
 * freed objects are there. */
static void
test_freed_objects_are_reused(void **state)
{
	struct ssp_pool p;
	void *a, *b;
	size_t i;

	(void)state;
	ssp_pool_init(&p, 24);
	a = ssp_pool_get(&p);
	b = ssp_pool_get(&p);
	assert_ptr_not_equal(a, b);
	ssp_pool_put(&p, a);
	ssp_pool_put(&p, b);
	assert_ptr_equal(ssp_pool_get(&p), b);		/* last in, first out */
	assert_ptr_equal(ssp_pool_get(&p), a);
	for (i = 0; i < 10 * SSP_POOL_PER; i++) {
		a = ssp_pool_get(&p);
		ssp_pool_put(&p, a);
	}
	assert_int_equal(p.nchunk, 1);
	ssp_pool_fini(&p);			/* a and b were not given back */
	assert_int_equal(p.nchunk, 0);
	assert_null(p.free);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_is_rounded),
		cmocka_unit_test(test_objects_are_disjoint),
		cmocka_unit_test(test_freed_objects_are_reused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
