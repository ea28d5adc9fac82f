/*
 * Merged read-ahead of record streams: the records of several readers in
 * global timestamp order (ties by stream index, file order within a
 * stream: the order of ssp_merge), decoded, merged and packed into a
 * bounded queue by a background thread, or on demand in the caller's
 * thread.  Decompression, decoding and merging then overlap with the
 * caller's work, and what the caller reads is one compact, sequential
 * run of memory (cheap to hand from one CPU to another).  Memory is
 * bounded (SSP_MQ_BUFS buffers of SSP_MQ_BUFSZ bytes) whatever the input
 * size.  The readers' string tables belong to the producer; the strings
 * the records use are mirrored for the caller (ssp_mergeq_str).  The caller
 * sees the records, ends and errors of ssp_merge over ssp_rec_rd_next, in the
 * same order.
 */
#ifndef SSP_MERGEQ_H
#define SSP_MERGEQ_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "io/in.h"
#include "stream/rec.h"

#define SSP_MQ_BUFS  16			/* queue buffers */
#define SSP_MQ_BUFSZ (128 * 1024)	/* bytes each: ~1500 events */

/* ssp_mergeq_run results, as SSP_MERGE_* of stream/merge.h; < 0: stream
 * *idx failed, -status (e set), it is left out */
#define SSP_MQ_REC   1		/* records of stream *idx at *r */
#define SSP_MQ_END   2		/* stream *idx ended cleanly */
#define SSP_MQ_DONE  0		/* every stream has ended or failed */
#define SSP_MQ_RESET 3		/* the string ids of stream *idx start over
				 * (a concatenated segment) before its next
				 * record: drop what is cached by id */

struct ssp_mergeq;

/*
 * Read n readers (in[i] is the input under rr[i], for ssp_mergeq_rawpos).
 * threaded: in a background thread.  The readers must not be used by the
 * caller until ssp_mergeq_free (or, for what they counted, until
 * ssp_mergeq_run returned SSP_MQ_DONE).  A reader may have a filter
 * (ssp_rec_rd_filter): what it returns comes in the order, and its end
 * where, they would without the filter.
 */
SSP_MUST_USE enum ssp_status ssp_mergeq_new(struct ssp_mergeq **qp,
    struct ssp_rec_rd *const *rr, struct ssp_in *const *in, size_t n,
    int threaded, struct ssp_err *e);
/*
 * The next item.  SSP_MQ_REC: a run of *n >= 1 records of stream *idx
 * that come next in merged order, packed from *r on: each takes
 * SSP_MQ_RECSIZE(nf) bytes (its fields past nf are not there), the next
 * follows (ssp_mergeq_rec_next).  Valid until the next call.  Waits for the
 * thread when it is behind.  After SSP_MQ_DONE, returns SSP_MQ_DONE.
 */
SSP_MUST_USE int ssp_mergeq_run(struct ssp_mergeq *q, unsigned *idx,
    const struct ssp_rec **r, size_t *n, struct ssp_err *e);
#define SSP_MQ_RECSIZE(nf) SSP_REC_PACKED(nf)
static inline const struct ssp_rec *
ssp_mergeq_rec_next(const struct ssp_rec *r)
{
	return ssp_rec_packed_next(r);
}
/* A string of stream i (< n) by id, as ssp_rec_rd_str, for the records
 * returned so far; valid until the next ssp_mergeq_run. */
const char *ssp_mergeq_str(const struct ssp_mergeq *q, size_t i, uint64_t id,
    size_t *len);
/* Input bytes read by the time the items returned so far were queued. */
uint64_t ssp_mergeq_rawpos(const struct ssp_mergeq *q);
/* Records of stream i (< n) whose timestamp is below the previous one's
 * (ssp_merge_backwards); final once ssp_mergeq_run returned SSP_MQ_DONE. */
uint64_t ssp_mergeq_backwards(const struct ssp_mergeq *q, size_t i);
/* Stops the thread (also when it is blocked reading a pipe). */
void ssp_mergeq_free(struct ssp_mergeq *q);

#endif
