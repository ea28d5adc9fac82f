/* Power-of-two blocks from growing mappings: sizes, reuse of freed blocks,
 * and malloc once the mapping is used up. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/blkpool.h"

#define UNIT	384

static void
test_bad_arguments(void **state)
{
	(void)state;
	assert_null(ssp_blkpool_new(0, 4, 1 << 20));
	assert_null(ssp_blkpool_new(24, 4, 1 << 20));	/* not a multiple of 16 */
	assert_null(ssp_blkpool_new(UNIT, 0, 1 << 20));
	assert_null(ssp_blkpool_new(UNIT, 33, 1 << 20));
}

/* Blocks of every class are disjoint and writable in full; a class past
 * the last is refused. */
static void
test_blocks_are_disjoint(void **state)
{
	struct ssp_blkpool *p = ssp_blkpool_new(UNIT, 4, 1 << 20);
	unsigned char *b[4];
	unsigned c, d;

	(void)state;
	assert_non_null(p);
	for (c = 0; c < 4; c++) {
		assert_non_null(b[c] = ssp_blkpool_get(p, c));
		assert_int_equal((uintptr_t)b[c] % 16, 0);
		memset(b[c], (int)c + 1, (size_t)UNIT << c);
	}
	for (c = 0; c < 4; c++)
		for (d = 0; d < ((size_t)UNIT << c); d++)
			assert_int_equal(b[c][d], c + 1);
	assert_null(ssp_blkpool_get(p, 4));
	assert_int_equal(ssp_blkpool_mapped(p), 4);
	for (c = 0; c < 4; c++)
		ssp_blkpool_put(p, b[c], c);
	ssp_blkpool_put(p, NULL, 0);
	assert_int_equal(ssp_blkpool_mapped(p), 0);
	ssp_blkpool_free(p);
	ssp_blkpool_free(NULL);
}

/* A freed block is the next one of its class, not of another class. */
static void
test_freed_blocks_are_reused(void **state)
{
	struct ssp_blkpool *p = ssp_blkpool_new(UNIT, 3, 1 << 20);
	void *a, *b, *c;

	(void)state;
	assert_non_null(p);
	a = ssp_blkpool_get(p, 1);
	b = ssp_blkpool_get(p, 1);
	ssp_blkpool_put(p, a, 1);
	c = ssp_blkpool_get(p, 0);
	assert_ptr_not_equal(c, a);
	assert_ptr_equal(ssp_blkpool_get(p, 1), a);	/* last in, first out */
	ssp_blkpool_put(p, b, 1);
	ssp_blkpool_put(p, a, 1);
	ssp_blkpool_put(p, c, 0);
	ssp_blkpool_free(p);
}

/* A mapping of 4 units: then malloc, whose blocks are reused and freed
 * like the others (the sanitizer build sees a leak otherwise). */
static void
test_malloc_when_used_up(void **state)
{
	struct ssp_blkpool *p = ssp_blkpool_new(UNIT, 3, 4 * UNIT);
	unsigned char *a, *b, *c;

	(void)state;
	assert_non_null(p);
	a = ssp_blkpool_get(p, 2);			/* all of the mapping */
	b = ssp_blkpool_get(p, 0);			/* from malloc */
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(ssp_blkpool_mapped(p), 1);
	assert_true(b < a || b >= a + 4 * UNIT);
	memset(b, 7, UNIT);
	ssp_blkpool_put(p, b, 0);
	assert_ptr_equal(c = ssp_blkpool_get(p, 0), b);
	ssp_blkpool_put(p, c, 0);
	ssp_blkpool_put(p, a, 2);
	assert_int_equal(ssp_blkpool_mapped(p), 0);
	ssp_blkpool_free(p);
}

/* The mappings double (2 MiB, then 4 MiB) up to the bound: 6 blocks of
 * 1 MiB from them, the 7th from malloc. */
static void
test_mappings_grow(void **state)
{
	struct ssp_blkpool *p = ssp_blkpool_new(1 << 20, 1, 6 << 20);
	unsigned char *b[7];
	int i, j;

	(void)state;
	assert_non_null(p);
	for (i = 0; i < 7; i++) {
		assert_non_null(b[i] = ssp_blkpool_get(p, 0));
		memset(b[i], i, 1 << 20);
		assert_int_equal(ssp_blkpool_mapped(p), i < 6 ? i + 1 : 6);
	}
	for (i = 0; i < 7; i++)
		for (j = 0; j < i; j++)
			assert_true(b[i] + (1 << 20) <= b[j] || b[j] + (1 << 20) <= b[i]);
	for (i = 0; i < 7; i++)
		ssp_blkpool_put(p, b[i], 0);
	assert_int_equal(ssp_blkpool_mapped(p), 0);
	ssp_blkpool_free(p);
}

/* No mapping at all: every block from malloc. */
static void
test_no_mapping(void **state)
{
	struct ssp_blkpool *p = ssp_blkpool_new(UNIT, 2, 0);
	void *a;

	(void)state;
	assert_non_null(p);
	assert_non_null(a = ssp_blkpool_get(p, 1));
	assert_int_equal(ssp_blkpool_mapped(p), 0);
	ssp_blkpool_put(p, a, 1);
	ssp_blkpool_free(p);
}

#if SSP_ASSERTS
/* Giving a block back to a class the pool does not have is the caller's
 * bug: with ASSERTS=1 it aborts instead of writing past the free lists. */
static void
test_bad_class_aborts(void **state)
{
	struct ssp_blkpool *p = ssp_blkpool_new(UNIT, 4, 1 << 20);
	void *b;
	pid_t pid;
	int ws;

	(void)state;
	assert_non_null(p);
	assert_non_null(b = ssp_blkpool_get(p, 0));
	if ((pid = fork()) == 0) {
		/* the message on stderr is the test's own noise */
		if (freopen("/dev/null", "w", stderr) == NULL)
			_exit(3);
		ssp_blkpool_put(p, b, 4);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGABRT);
	ssp_blkpool_put(p, b, 0);
	ssp_blkpool_free(p);
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_blocks_are_disjoint),
		cmocka_unit_test(test_freed_blocks_are_reused),
		cmocka_unit_test(test_malloc_when_used_up),
		cmocka_unit_test(test_mappings_grow),
		cmocka_unit_test(test_no_mapping),
#if SSP_ASSERTS
		cmocka_unit_test(test_bad_class_aborts),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
