#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/ring.h"

/*
 * Buffers [head, head + count) are filled, the consumer's included (it
 * reads buffer head while it holds it); the producer fills buffer
 * (head + count) mod nbufs, which stays the same buffer while the
 * consumer gives buffers back.  One mutex guards the counters and flags;
 * the buffers themselves are filled and read outside it.  A side that
 * sleeps says up to (producer) or from (consumer) which count it wants to
 * be woken, so the other side signals only when that is reached.
 */

#define LINE 64

struct ssp_ring {
	unsigned nbufs, wake_filled, wake_free;
	struct ssp_ring_buf *buf;
	pthread_t th;
	int side, cancel;	/* the worker's */
	int started;		/* a worker was started and not joined */
	/* under mu */
	pthread_mutex_t mu;
	pthread_cond_t filled;	/* the consumer waits here */
	pthread_cond_t freed;	/* the producer waits here */
	unsigned head, count;
	int pheld, cheld;	/* the producer / consumer holds a buffer */
	int closed, stop, finished;
	int draining;		/* the producer waits for the ring to empty */
	int psleep, csleep;	/* asleep, waiting for ... */
	unsigned pwant, cwant;	/* ... count <= pwant / count >= cwant */
	struct ssp_err err;	/* the first failure */
};

enum ssp_status
ssp_ring_new(struct ssp_ring **rp, unsigned nbufs, size_t cap,
    unsigned wake_filled, unsigned wake_free, struct ssp_err *e)
{
	struct ssp_ring *r;
	unsigned k;

	*rp = NULL;
	if (nbufs < 2 || wake_filled < 1 || wake_filled >= nbufs ||
	    wake_free < 1 || wake_free >= nbufs)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "ring of %u buffers: "
		    "wake-ups at %u filled, %u free", nbufs, wake_filled, wake_free);
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->buf = calloc(nbufs, sizeof(*r->buf))) == NULL) {
		free(r);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	r->nbufs = nbufs;
	r->wake_filled = wake_filled;
	r->wake_free = wake_free;
	cap = (cap + LINE - 1) / LINE * LINE;
	for (k = 0; k < nbufs; k++)
		if ((r->buf[k].p = aligned_alloc(LINE, cap ? cap : LINE)) == NULL) {
			while (k-- > 0)
				free(r->buf[k].p);
			free(r->buf);
			free(r);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		}
	if (pthread_mutex_init(&r->mu, NULL) != 0)
		goto nosync;
	if (pthread_cond_init(&r->filled, NULL) != 0) {
		pthread_mutex_destroy(&r->mu);
		goto nosync;
	}
	if (pthread_cond_init(&r->freed, NULL) != 0) {
		pthread_cond_destroy(&r->filled);
		pthread_mutex_destroy(&r->mu);
		goto nosync;
	}
	*rp = r;
	return SSP_OK;
nosync:
	for (k = 0; k < nbufs; k++)
		free(r->buf[k].p);
	free(r->buf);
	free(r);
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "cannot create a mutex or "
	    "condition variable");
}

struct start {
	struct ssp_ring *r;
	void *(*worker)(void *);
	void *arg;
};

static void *
trampoline(void *p)
{
	struct start st = *(struct start *)p;
	int old;

	free(p);
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	st.worker(st.arg);
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	pthread_mutex_lock(&st.r->mu);
	st.r->finished = 1;
	pthread_mutex_unlock(&st.r->mu);
	return NULL;
}

enum ssp_status
ssp_ring_start(struct ssp_ring *r, int side, void *(*worker)(void *),
    void *arg, int cancel, struct ssp_err *e)
{
	struct start *st;

	SSP_ASSERT((side == SSP_RING_PRODUCER || side == SSP_RING_CONSUMER) &&
	    !r->started);
	if ((st = malloc(sizeof(*st))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	st->r = r;
	st->worker = worker;
	st->arg = arg;
	r->side = side;
	r->cancel = cancel;
	if (pthread_create(&r->th, NULL, trampoline, st) != 0) {
		free(st);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "cannot start a thread");
	}
	r->started = 1;
	return SSP_OK;
}

/* Cancellation of a worker that may block outside the ring: off while it
 * is in the ring, on once it has a buffer to work on. */
static inline void
cancel_off(const struct ssp_ring *r, int side)
{
	int old;

	if (r->cancel && r->side == side)
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
}

static inline void
cancel_on(const struct ssp_ring *r, int side)
{
	int old;

	if (r->cancel && r->side == side)
		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
}

static inline int
dead(const struct ssp_ring *r)
{
	return r->stop || r->err.code != SSP_OK;
}

struct ssp_ring_buf *
ssp_ring_fill(struct ssp_ring *r)
{
	struct ssp_ring_buf *b = NULL;

	cancel_off(r, SSP_RING_PRODUCER);
	pthread_mutex_lock(&r->mu);
	if (r->count == r->nbufs && !dead(r)) {
		r->psleep = 1;
		r->pwant = r->nbufs - r->wake_free;
		do
			pthread_cond_wait(&r->freed, &r->mu);
		while (r->count > r->pwant && !dead(r));
		r->psleep = 0;
	}
	if (!dead(r)) {
		b = &r->buf[(r->head + r->count) % r->nbufs];
		if (!r->pheld) {
			b->len = 0;
			r->pheld = 1;
		}
	}
	pthread_mutex_unlock(&r->mu);
	if (b != NULL)
		cancel_on(r, SSP_RING_PRODUCER);
	return b;
}

void
ssp_ring_push(struct ssp_ring *r)
{
	cancel_off(r, SSP_RING_PRODUCER);
	pthread_mutex_lock(&r->mu);
	if (r->pheld) {
		r->pheld = 0;
		r->count++;
		if (r->csleep && r->count >= r->cwant)
			pthread_cond_signal(&r->filled);
	}
	pthread_mutex_unlock(&r->mu);
}

void
ssp_ring_close(struct ssp_ring *r)
{
	cancel_off(r, SSP_RING_PRODUCER);
	pthread_mutex_lock(&r->mu);
	r->closed = 1;
	pthread_cond_signal(&r->filled);
	pthread_mutex_unlock(&r->mu);
}

enum ssp_status
ssp_ring_drain(struct ssp_ring *r)
{
	int rc;

	cancel_off(r, SSP_RING_PRODUCER);
	pthread_mutex_lock(&r->mu);
	if (r->count > 0 && r->csleep)	/* waiting for more than there is */
		pthread_cond_signal(&r->filled);
	r->draining = 1;
	while (r->count > 0 && !dead(r)) {
		r->psleep = 1;
		r->pwant = 0;
		pthread_cond_wait(&r->freed, &r->mu);
		r->psleep = 0;
	}
	r->draining = 0;
	rc = r->err.code != SSP_OK ? r->err.code : r->count > 0 ? SSP_ERR_IO :
	    SSP_OK;
	pthread_mutex_unlock(&r->mu);
	return rc;
}

const struct ssp_ring_buf *
ssp_ring_get(struct ssp_ring *r)
{
	const struct ssp_ring_buf *b = NULL;

	cancel_off(r, SSP_RING_CONSUMER);
	pthread_mutex_lock(&r->mu);
	if (r->count == 0 && !r->closed && !dead(r)) {
		r->csleep = 1;
		r->cwant = r->wake_filled;
		do
			pthread_cond_wait(&r->filled, &r->mu);
		while (r->count < r->cwant && !r->closed && !r->draining &&
		    !dead(r));
		r->csleep = 0;
	}
	if (r->count > 0 && !dead(r)) {
		b = &r->buf[r->head];
		r->cheld = 1;
	}
	pthread_mutex_unlock(&r->mu);
	if (b != NULL)
		cancel_on(r, SSP_RING_CONSUMER);
	return b;
}

void
ssp_ring_release(struct ssp_ring *r)
{
	cancel_off(r, SSP_RING_CONSUMER);
	pthread_mutex_lock(&r->mu);
	if (r->cheld) {
		r->cheld = 0;
		r->head = (r->head + 1) % r->nbufs;
		r->count--;
		if (r->psleep && r->count <= r->pwant)
			pthread_cond_signal(&r->freed);
	}
	pthread_mutex_unlock(&r->mu);
}

void
ssp_ring_fail(struct ssp_ring *r, const struct ssp_err *e)
{
	pthread_mutex_lock(&r->mu);
	if (r->err.code == SSP_OK) {
		if (e != NULL)
			r->err = *e;
		if (r->err.code == SSP_OK)
			r->err.code = SSP_ERR_IO;
	}
	pthread_cond_broadcast(&r->filled);
	pthread_cond_broadcast(&r->freed);
	pthread_mutex_unlock(&r->mu);
}

enum ssp_status
ssp_ring_error(struct ssp_ring *r, struct ssp_err *e)
{
	int rc;

	pthread_mutex_lock(&r->mu);
	rc = r->err.code;
	if (e != NULL && rc != SSP_OK)
		*e = r->err;
	pthread_mutex_unlock(&r->mu);
	return rc;
}

enum ssp_status
ssp_ring_join(struct ssp_ring *r, struct ssp_err *e)
{
	if (r->started) {
		pthread_join(r->th, NULL);
		r->started = 0;
	}
	return ssp_ring_error(r, e);
}

void
ssp_ring_free(struct ssp_ring *r)
{
	unsigned k;

	if (r == NULL)
		return;
	if (r->started) {
		pthread_mutex_lock(&r->mu);
		r->stop = 1;
		pthread_cond_broadcast(&r->filled);
		pthread_cond_broadcast(&r->freed);
		if (r->cancel && !r->finished)	/* may block on a pipe */
			pthread_cancel(r->th);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->th, NULL);
		r->started = 0;
	}
	pthread_cond_destroy(&r->freed);
	pthread_cond_destroy(&r->filled);
	pthread_mutex_destroy(&r->mu);
	for (k = 0; k < r->nbufs; k++)
		free(r->buf[k].p);
	free(r->buf);
	free(r);
}
