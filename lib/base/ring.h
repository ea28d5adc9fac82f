/*
 * A ring of byte buffers handed from one producer to one consumer, one of
 * them a worker thread the ring starts: the producer fills a buffer
 * outside any lock and hands it over, the consumer reads it outside any
 * lock and gives it back.  The ring holds the mutex, the condition
 * variables, the end of the stream, the stop and the first error, so that
 * the queues of the library (merged input read ahead, spans encoded in a
 * thread, output compressed and written in a thread) differ only in what
 * they put in a buffer.  Memory: nbufs buffers of cap bytes, allocated
 * once.
 *
 * Waking the other side costs a system call or two: a side that has to
 * wait sleeps until the other one has made wake buffers ready (filled
 * ones for the consumer, free ones for the producer), or the stream
 * ended, was stopped or failed.
 */
#ifndef SSP_RING_H
#define SSP_RING_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct ssp_ring_buf {
	uint8_t *p;		/* cap bytes, 64-byte aligned */
	size_t len;		/* bytes filled, set by the producer */
	uint64_t pos;		/* what else the producer tells the consumer */
	int mode;		/* about the buffer (a position, a flush) */
};

/* The side the worker thread plays; its ring calls switch its
 * cancellation off while they hold the lock. */
enum { SSP_RING_PRODUCER = 1, SSP_RING_CONSUMER = 2 };

struct ssp_ring;

/* nbufs >= 2 buffers of cap bytes; the consumer is woken by wake_filled
 * filled buffers, the producer by wake_free free ones (1..nbufs - 1). */
SSP_MUST_USE enum ssp_status ssp_ring_new(struct ssp_ring **rp, unsigned nbufs,
    size_t cap, unsigned wake_filled, unsigned wake_free, struct ssp_err *e);
/*
 * Run worker(arg) in a thread that plays side (SSP_RING_*).  cancel: the
 * worker may block outside the ring (reading or writing a pipe), and
 * ssp_ring_free cancels it there; it is cancellable only between taking a
 * buffer from the ring and its next ring call.
 */
SSP_MUST_USE enum ssp_status ssp_ring_start(struct ssp_ring *r, int side,
    void *(*worker)(void *), void *arg, int cancel, struct ssp_err *e);

/* Producer: the buffer to fill (len 0 when it is new), once one is free;
 * NULL when the ring was stopped or failed. */
struct ssp_ring_buf *ssp_ring_fill(struct ssp_ring *r);
/* Producer: hand the buffer of ssp_ring_fill over. */
void ssp_ring_push(struct ssp_ring *r);
/* Producer: nothing more comes; the consumer gets NULL once it has taken
 * everything pushed. */
void ssp_ring_close(struct ssp_ring *r);
/* Producer: wait until the consumer gave back every buffer pushed;
 * SSP_OK, or the ring's error (SSP_ERR_IO once stopped). */
SSP_MUST_USE enum ssp_status ssp_ring_drain(struct ssp_ring *r);

/* Consumer: the next filled buffer, once there is one; NULL at the end
 * (closed and all taken), or when the ring was stopped or failed. */
const struct ssp_ring_buf *ssp_ring_get(struct ssp_ring *r);
/* Consumer: give the buffer of ssp_ring_get back. */
void ssp_ring_release(struct ssp_ring *r);

/* Either side: it cannot go on; the first error is kept (code SSP_ERR_IO
 * when e has none) and every wait of the other side ends. */
void ssp_ring_fail(struct ssp_ring *r, const struct ssp_err *e);
/* The first error (copied to e when not NULL), or SSP_OK. */
enum ssp_status ssp_ring_error(struct ssp_ring *r, struct ssp_err *e);
/* Wait for the worker to return (after ssp_ring_close, or when it ends on
 * its own); its error as ssp_ring_error. */
SSP_MUST_USE enum ssp_status ssp_ring_join(struct ssp_ring *r,
    struct ssp_err *e);
/* Stop: every wait ends, the worker is cancelled if it may block outside
 * the ring, joined, and the buffers freed. */
void ssp_ring_free(struct ssp_ring *r);

#endif
