/* Buffer ring: buffers come out in the order they went in with what the
 * producer put in them, the end of the stream reaches the consumer after
 * the last buffer, a stop ends the waits of either side (and cancels a
 * worker blocked reading a pipe), and an error of one side ends the other
 * side's waits with that error. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/ring.h"

#define NBUFS 4
#define CAP 100
#define ROUNDS 1000

static struct ssp_ring *
ring(unsigned wake_filled, unsigned wake_free)
{
	struct ssp_ring *r;
	struct ssp_err e;

	assert_int_equal(ssp_ring_new(&r, NBUFS, CAP, wake_filled, wake_free, &e),
	    SSP_OK);
	return r;
}

/* buffer k holds k's bytes, len k % CAP, pos k */
static void
fill_k(struct ssp_ring_buf *b, unsigned k)
{
	assert_int_equal(b->len, 0);
	assert_int_equal((uintptr_t)b->p % 64, 0);
	b->len = k % CAP;
	memset(b->p, (int)(k & 0xff), b->len);
	b->pos = k;
	b->mode = (int)(k % 3);
}

static void
check_k(const struct ssp_ring_buf *b, unsigned k)
{
	size_t i;

	assert_int_equal(b->pos, k);
	assert_int_equal(b->len, k % CAP);
	assert_int_equal(b->mode, (int)(k % 3));
	for (i = 0; i < b->len; i++)
		assert_int_equal(b->p[i], k & 0xff);
}

static void *
producer(void *arg)
{
	struct ssp_ring *r = arg;
	struct ssp_ring_buf *b;
	unsigned k;

	for (k = 0; k < ROUNDS; k++) {
		if ((b = ssp_ring_fill(r)) == NULL)
			return NULL;
		fill_k(b, k);
		ssp_ring_push(r);
	}
	ssp_ring_close(r);
	return NULL;
}

static unsigned consumed;

static void *
consumer(void *arg)
{
	struct ssp_ring *r = arg;
	const struct ssp_ring_buf *b;

	while ((b = ssp_ring_get(r)) != NULL) {
		check_k(b, consumed++);
		ssp_ring_release(r);
	}
	return NULL;
}

/* The worker produces, the caller consumes: every buffer, in order, then
 * the end (and again the end). */
static void
test_worker_produces(void **state)
{
	struct ssp_ring *r = ring(1, NBUFS / 2);
	const struct ssp_ring_buf *b;
	struct ssp_err e;
	unsigned k;

	(void)state;
	assert_int_equal(ssp_ring_start(r, SSP_RING_PRODUCER, producer, r, 1, &e),
	    SSP_OK);
	for (k = 0; k < ROUNDS; k++) {
		assert_non_null(b = ssp_ring_get(r));
		check_k(b, k);
		if (k % 7 == 0)
			usleep(100);	/* the producer fills the ring */
		ssp_ring_release(r);
	}
	assert_null(ssp_ring_get(r));
	assert_null(ssp_ring_get(r));
	assert_int_equal(ssp_ring_join(r, &e), SSP_OK);
	ssp_ring_free(r);
}

/* The caller produces, the worker consumes (woken at half the ring);
 * drain waits until it took everything; close ends it. */
static void
test_worker_consumes(void **state)
{
	struct ssp_ring *r = ring(NBUFS / 2, 1);
	struct ssp_ring_buf *b;
	struct ssp_err e;
	unsigned k;

	(void)state;
	consumed = 0;
	assert_int_equal(ssp_ring_start(r, SSP_RING_CONSUMER, consumer, r, 0, &e),
	    SSP_OK);
	for (k = 0; k < ROUNDS; k++) {
		assert_non_null(b = ssp_ring_fill(r));
		/* the same buffer until it is pushed */
		assert_ptr_equal(ssp_ring_fill(r), b);
		fill_k(b, k);
		ssp_ring_push(r);
		if (k == ROUNDS / 2) {	/* one buffer: below the wake-up */
			assert_int_equal(ssp_ring_drain(r), SSP_OK);
			assert_int_equal(consumed, k + 1);
		}
	}
	assert_int_equal(ssp_ring_drain(r), SSP_OK);
	assert_int_equal(consumed, ROUNDS);
	ssp_ring_close(r);
	assert_int_equal(ssp_ring_join(r, &e), SSP_OK);
	ssp_ring_free(r);
}

/* A stop while the producer waits for room (nobody reads). */
static void
test_stop_producer_waiting(void **state)
{
	struct ssp_ring *r = ring(1, 1);
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_ring_start(r, SSP_RING_PRODUCER, producer, r, 0, &e),
	    SSP_OK);
	usleep(20000);		/* it filled the ring and waits */
	ssp_ring_free(r);	/* returns: the wait ended */
}

/* A stop while the consumer waits for data (nobody writes). */
static void
test_stop_consumer_waiting(void **state)
{
	struct ssp_ring *r = ring(NBUFS / 2, 1);
	struct ssp_ring_buf *b;
	struct ssp_err e;

	(void)state;
	consumed = 0;
	assert_int_equal(ssp_ring_start(r, SSP_RING_CONSUMER, consumer, r, 0, &e),
	    SSP_OK);
	usleep(20000);		/* it found the ring empty and sleeps */
	b = ssp_ring_fill(r);
	fill_k(b, 0);
	ssp_ring_push(r);	/* one buffer: not enough to wake it */
	usleep(20000);
	ssp_ring_free(r);	/* returns: the wait ended */
}

static int pipefd[2];

static void *
blocked_reader(void *arg)
{
	struct ssp_ring *r = arg;
	struct ssp_ring_buf *b;
	ssize_t got;

	while ((b = ssp_ring_fill(r)) != NULL) {
		got = read(pipefd[0], b->p, CAP);	/* blocks: nobody writes */
		if (got <= 0)
			break;
		b->len = (size_t)got;
		ssp_ring_push(r);
	}
	ssp_ring_close(r);
	return NULL;
}

/* A stop while the worker blocks outside the ring (reading a pipe
 * nobody writes to): it is cancelled. */
static void
test_stop_cancels_blocked_worker(void **state)
{
	struct ssp_ring *r = ring(1, 1);
	struct ssp_err e;

	(void)state;
	assert_int_equal(pipe(pipefd), 0);
	assert_int_equal(ssp_ring_start(r, SSP_RING_PRODUCER, blocked_reader, r,
	    1, &e), SSP_OK);
	usleep(20000);
	ssp_ring_free(r);	/* would hang without the cancel */
	close(pipefd[0]);
	close(pipefd[1]);
}

static void *
failing_consumer(void *arg)
{
	struct ssp_ring *r = arg;
	const struct ssp_ring_buf *b;
	struct ssp_err e;

	while ((b = ssp_ring_get(r)) != NULL) {
		if (b->pos == 5) {
			ssp_err_set(&e, SSP_ERR_IO, 5, "disk full at %u", 5);
			ssp_ring_fail(r, &e);
			return NULL;
		}
		ssp_ring_release(r);
	}
	return NULL;
}

/* The consumer fails: the producer's next wait ends with its error, and
 * drain returns it; a second failure does not replace the first. */
static void
test_consumer_error(void **state)
{
	struct ssp_ring *r = ring(1, 1);
	struct ssp_ring_buf *b;
	struct ssp_err e;
	unsigned k;

	(void)state;
	assert_int_equal(ssp_ring_start(r, SSP_RING_CONSUMER, failing_consumer, r,
	    0, &e), SSP_OK);
	for (k = 0; (b = ssp_ring_fill(r)) != NULL; k++) {
		assert_true(k < ROUNDS);
		fill_k(b, k);
		ssp_ring_push(r);
	}
	assert_true(k > 5);
	memset(&e, 0, sizeof(e));
	assert_int_equal(ssp_ring_error(r, &e), SSP_ERR_IO);
	assert_string_equal(e.msg, "disk full at 5");
	assert_int_equal(ssp_ring_drain(r), SSP_ERR_IO);
	ssp_ring_fail(r, NULL);
	assert_int_equal(ssp_ring_join(r, &e), SSP_ERR_IO);
	assert_string_equal(e.msg, "disk full at 5");
	ssp_ring_free(r);
}

/* The producer fails (without an error of its own): the consumer
 * waiting for data wakes up and gets NULL, as does one that finds filled
 * buffers left; the error is SSP_ERR_IO. */
static void
test_producer_error(void **state)
{
	struct ssp_ring *r = ring(NBUFS - 1, 1);
	struct ssp_ring_buf *b;
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_ring_start(r, SSP_RING_CONSUMER, consumer, r, 0, &e),
	    SSP_OK);
	usleep(20000);		/* it found the ring empty and sleeps */
	ssp_ring_fail(r, NULL);
	assert_int_equal(ssp_ring_join(r, &e), SSP_ERR_IO);	/* it woke */
	assert_null(ssp_ring_fill(r));
	ssp_ring_free(r);

	consumed = 0;
	r = ring(1, 1);
	b = ssp_ring_fill(r);
	fill_k(b, 0);
	ssp_ring_push(r);
	ssp_ring_fail(r, NULL);
	assert_int_equal(ssp_ring_start(r, SSP_RING_CONSUMER, consumer, r, 0, &e),
	    SSP_OK);
	assert_int_equal(ssp_ring_join(r, &e), SSP_ERR_IO);
	assert_int_equal(consumed, 0);
	ssp_ring_free(r);
}

static void
test_bad_parameters(void **state)
{
	struct ssp_ring *r;
	struct ssp_err e;

	(void)state;
	assert_int_equal(ssp_ring_new(&r, 1, CAP, 1, 1, &e), SSP_ERR_INVAL);
	assert_null(r);
	assert_int_equal(ssp_ring_new(&r, 4, CAP, 4, 1, &e), SSP_ERR_INVAL);
	assert_int_equal(ssp_ring_new(&r, 4, CAP, 1, 0, &e), SSP_ERR_INVAL);
	ssp_ring_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worker_produces),
		cmocka_unit_test(test_worker_consumes),
		cmocka_unit_test(test_stop_producer_waiting),
		cmocka_unit_test(test_stop_consumer_waiting),
		cmocka_unit_test(test_stop_cancels_blocked_worker),
		cmocka_unit_test(test_consumer_error),
		cmocka_unit_test(test_producer_error),
		cmocka_unit_test(test_bad_parameters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
