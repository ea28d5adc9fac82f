/*
 * A record writer fed through a thread: records and strings are queued by
 * the caller and encoded into the stream (struct ssp_rec_wr) by a thread
 * of their own, so that the encoding, checksums and writes overlap with
 * the caller's work.  The bytes written are those the same calls on the
 * writer itself would write.  Strings are interned in the caller's thread
 * (ids at once, as ssp_rec_wr_str gives them); their definitions go through
 * the queue in order with the records.  Memory is bounded (SSP_WQ_BUFS
 * buffers).  Errors of the thread (a write that failed) come back from a
 * later ssp_spanwq_put or from ssp_spanwq_finish.
 */
#ifndef SSP_SPANWQ_H
#define SSP_SPANWQ_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "stream/rec.h"

#define SSP_WQ_BUFS  8			/* queue buffers */
#define SSP_WQ_BUFSZ (64 * 1024)	/* a buffer is handed over at this fill */

struct ssp_spanwq;

/* Start the thread on w, whose schema is s; w belongs to the queue until
 * ssp_spanwq_finish or ssp_spanwq_free. */
SSP_MUST_USE enum ssp_status ssp_spanwq_new(struct ssp_spanwq **qp,
    struct ssp_rec_wr *w, const struct ssp_schema *s, struct ssp_err *e);
/* As ssp_rec_wr_str: the id (> 0), or 0 on an error (e set). */
SSP_MUST_USE uint64_t ssp_spanwq_str(struct ssp_spanwq *q, const char *s,
    size_t len, struct ssp_err *e);
/* As ssp_rec_wr_put: r->type indexes the schema, its fields are copied. */
SSP_MUST_USE enum ssp_status ssp_spanwq_put(struct ssp_spanwq *q,
    const struct ssp_rec *r, struct ssp_err *e);
/* Records queued so far. */
uint64_t ssp_spanwq_records(const struct ssp_spanwq *q);
/* Hand over what is queued, wait for the thread to encode it and stop it;
 * the writer is then the caller's again (to close).  The thread's error,
 * if it had one. */
SSP_MUST_USE enum ssp_status ssp_spanwq_finish(struct ssp_spanwq *q,
    struct ssp_err *e);
/* Stop the thread (without finishing) and free q; not the writer. */
void ssp_spanwq_free(struct ssp_spanwq *q);

#endif
