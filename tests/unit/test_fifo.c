/* The pointer FIFO: order across growth while wrapped round, peeks,
 * taking the newest back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/fifo.h"

static char items[100];

static void
test_empty(void **state)
{
	struct ssp_fifo q = { 0 };

	(void)state;
	assert_null(ssp_fifo_pop(&q));
	assert_null(ssp_fifo_pop_last(&q));
	assert_null(ssp_fifo_last(&q));
	ssp_fifo_free(&q);
}

/* Pushes and pops interleaved so that the ring wraps before it grows:
 * the order stays first in, first out. */
static void
test_order_across_growth(void **state)
{
	struct ssp_fifo q = { 0 };
	unsigned in = 0, out = 0, i;

	(void)state;
	for (i = 0; i < 12; i++)
		assert_int_equal(ssp_fifo_push(&q, &items[in++]), 0);
	for (i = 0; i < 10; i++)
		assert_ptr_equal(ssp_fifo_pop(&q), &items[out++]);
	while (in < 100) {	/* wraps at 16, grows at 16 queued */
		assert_int_equal(ssp_fifo_push(&q, &items[in++]), 0);
		assert_ptr_equal(ssp_fifo_last(&q), &items[in - 1]);
		assert_ptr_equal(ssp_fifo_at(&q, 0), &items[out]);
	}
	assert_int_equal(q.n, 90);
	assert_true(q.cap >= 90 && (q.cap & (q.cap - 1)) == 0);
	for (i = 0; i < q.n; i++)
		assert_ptr_equal(ssp_fifo_at(&q, i), &items[out + i]);
	while (out < 100)
		assert_ptr_equal(ssp_fifo_pop(&q), &items[out++]);
	assert_null(ssp_fifo_pop(&q));
	ssp_fifo_free(&q);
}

static void
test_pop_last(void **state)
{
	struct ssp_fifo q = { 0 };

	(void)state;
	assert_int_equal(ssp_fifo_push(&q, &items[0]), 0);
	assert_int_equal(ssp_fifo_push(&q, &items[1]), 0);
	assert_int_equal(ssp_fifo_push(&q, &items[2]), 0);
	assert_ptr_equal(ssp_fifo_pop(&q), &items[0]);
	assert_ptr_equal(ssp_fifo_pop_last(&q), &items[2]);
	assert_ptr_equal(ssp_fifo_last(&q), &items[1]);
	assert_int_equal(ssp_fifo_push(&q, &items[3]), 0);
	assert_ptr_equal(ssp_fifo_pop(&q), &items[1]);
	assert_ptr_equal(ssp_fifo_pop(&q), &items[3]);
	assert_null(ssp_fifo_pop(&q));
	ssp_fifo_free(&q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_order_across_growth),
		cmocka_unit_test(test_pop_last),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
