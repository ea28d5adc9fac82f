/*
 * evspan's pipeline: open the event streams a topology names, check their
 * kinds, merge them in timestamp order, feed the span builder, write the
 * span stream.  A damaged input stream is reported (stream, byte offset)
 * and left out from that point; the others are read to the end, so the
 * spans built from the data before the damage are still written.
 */
#ifndef SSP_EVSPAN_H
#define SSP_EVSPAN_H

#include <stdint.h>

#include "base/err.h"
#include "config/rules.h"
#include "config/topo.h"
#include "span/spanb.h"

struct ssp_evspan_opts {
	const char *out;	/* NULL or "-": stdout */
	int zlevel;		/* as ssp_out_open */
	int events;		/* member events after each span */
	int have_seed;
	uint64_t seed;		/* trace_hi salt, when have_seed */
	int threads;		/* 1: all in one thread; 2: decompress,
				 * decode and merge the inputs in a second
				 * thread (ssp_mergeq), compress the output
				 * in a third (ssp_out_async); 3: as 2, and
				 * encode the spans in a thread of their own
				 * (ssp_spanwq); 0: 1, 2 or 3 by the CPUs
				 * there are (1, 2, more) */
	const char *out_name;	/* out in messages, and its .zst (NULL:
				 * out): a temporary file that becomes it */
	int decode_all;		/* hand every event to the builder, no reader
				 * filters (ssp_spanb_skips): the same spans,
				 * for checking */
};

struct ssp_evspan;

/*
 * Open inputs and output.  SSP_ERR_INVAL: a stream has no file, or stdin
 * is named twice; SSP_ERR_SCHEMA: a stream's header names no simulator or
 * an unknown one, a kind that is not its simulator's, or another kind than
 * the topology (all configuration errors); others: i/o or format.
 * t and r must outlive the pipeline.
 */
SSP_MUST_USE enum ssp_status ssp_evspan_open(struct ssp_evspan **ep,
    const struct ssp_topo *t, const struct ssp_rules *r,
    const struct ssp_evspan_opts *o, struct ssp_err *e);
/* Called for each input stream that fails while reading. */
typedef void (*ssp_evspan_warn_fn)(void *ctx, const char *stream,
    const struct ssp_err *e);
/* Called every 64k events: bytes read (compressed, all inputs), events
 * and spans so far. */
typedef void (*ssp_evspan_progress_fn)(void *ctx, uint64_t bytes,
    uint64_t events, uint64_t spans);
/* Run to the end of all input.  progress (may be NULL) gets pctx, warn
 * ctx.  Returns a fatal error only (output). */
SSP_MUST_USE enum ssp_status ssp_evspan_run(struct ssp_evspan *ev,
    ssp_evspan_progress_fn progress, void *pctx, ssp_evspan_warn_fn warn,
    void *ctx, struct ssp_err *e);
/* Finish the span stream and close the output. */
SSP_MUST_USE enum ssp_status ssp_evspan_close(struct ssp_evspan *ev,
    struct ssp_err *e);
/* Input streams that failed while reading. */
unsigned ssp_evspan_failed(const struct ssp_evspan *ev);
uint64_t ssp_evspan_salt(const struct ssp_evspan *ev);
const struct ssp_spanb_stats *ssp_evspan_stats(const struct ssp_evspan *ev);
/* Records of input stream i (< the topology's streams) whose timestamp is
 * below the previous one's (ssp_mergeq_backwards). */
uint64_t ssp_evspan_backwards(const struct ssp_evspan *ev, size_t i);
/* The reader of input stream i (its header metadata: ssp_rec_rd_meta),
 * for checks before ssp_evspan_run; NULL if i is out of range. */
const struct ssp_rec_rd *ssp_evspan_reader(const struct ssp_evspan *ev,
    size_t i);
/* The most spans held open at once. */
uint64_t ssp_evspan_peak(const struct ssp_evspan *ev);
void ssp_evspan_free(struct ssp_evspan *ev);

#endif
