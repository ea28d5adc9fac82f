/*
 * Read-ahead for record streams: the records of several readers are
 * decoded in batches, in a background thread (or on demand in the caller's
 * thread), so that decompression and decoding overlap with the caller's
 * work.  At most SSP_PF_DEPTH batches per stream are decoded ahead, so
 * memory stays bounded whatever the input size.  The readers' string
 * tables belong to the thread; the strings each batch uses are mirrored
 * for the caller (ssp_pf_str).  The caller sees exactly the record
 * sequence ssp_rr_next would give, with the same end and errors.
 */
#ifndef SSP_PREFETCH_H
#define SSP_PREFETCH_H

#include <stddef.h>
#include <stdint.h>

#include "ssp_err.h"
#include "ssp_io.h"
#include "ssp_rec.h"

#define SSP_PF_DEPTH 8		/* batches decoded ahead, per stream */
#define SSP_PF_BATCH 256	/* records per batch */

struct ssp_pf_batch {
	const struct ssp_rec *rec;	/* n records, valid until the next
					 * ssp_pf_next for this stream */
	size_t n;
	int reset;		/* string ids start over before rec[0]: a new
				 * concatenated segment (ssp_rr_strgen) */
	int end;		/* 0 more batches follow; 1 the stream ended
				 * cleanly; -1 it failed (err) */
	struct ssp_err err;
};

struct ssp_pf;

/*
 * Read ahead on n readers (in[i] is the input under rr[i], for
 * ssp_pf_rawpos).  threaded: decode in a background thread; else each
 * batch is decoded when ssp_pf_next asks for it.  The readers must not be
 * used by the caller until ssp_pf_free.
 */
int ssp_pf_new(struct ssp_pf **pp, struct ssp_rr *const *rr,
    struct ssp_in *const *in, size_t n, int threaded, struct ssp_err *e);
/*
 * The next batch of stream i; the previous batch of stream i is given
 * back.  After a batch with end != 0, further calls return an empty
 * batch with the same end.  Waits for the thread when it is behind.
 */
const struct ssp_pf_batch *ssp_pf_next(struct ssp_pf *p, size_t i);
/* A string of stream i by id, as ssp_rr_str, for the records of the
 * batches taken so far; valid until the next ssp_pf_next for stream i. */
const char *ssp_pf_str(const struct ssp_pf *p, size_t i, uint64_t id,
    size_t *len);
/* Input bytes read by the time the batches taken so far were decoded. */
uint64_t ssp_pf_rawpos(const struct ssp_pf *p);
/* Stops the thread (also when it is blocked reading a pipe). */
void ssp_pf_free(struct ssp_pf *p);

#endif
