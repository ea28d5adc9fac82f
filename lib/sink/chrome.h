/*
 * Span streams in the Chrome Trace Event Format (JSON object form), which
 * chrome://tracing and Perfetto read, written as ssp_tracks hands out its
 * items: "M" metadata events naming each process (source stream) and
 * thread (track of ssp_tracks), one complete event ("X") per span with
 * its arguments, and flow events ("s" at the source slice, "f" with
 * binding point "e" at the target) for every flow of the layout, right
 * after the slice's "X" or, for a flow found later, where it was found.
 * "otherData" (producer, span count) comes after "traceEvents".  Times
 * are microseconds printed with exactly three decimals (whole ns,
 * formats/perfetto.md §2).
 */
#ifndef SSP_CHROME_H
#define SSP_CHROME_H

#include "base/buf.h"
#include "base/err.h"
#include "io/out.h"
#include "sink/tracks.h"
#include "stream/rec.h"

/* The ssp_tracks_args_fn: a span's "args" object (ctx unused). */
void ssp_chrome_args(void *ctx, struct ssp_buf *b, const struct ssp_rec_rd *rr,
    const struct ssp_rec_type *rt, const struct ssp_rec *r);
struct ssp_chrome;

/* A writer to o; producer (kept, not copied) goes into "otherData".  NULL
 * when out of memory. */
struct ssp_chrome *ssp_chrome_new(const char *producer, struct ssp_out *o);
/* The ssp_tracks_emit_fn (ctx: the writer). */
SSP_MUST_USE enum ssp_status ssp_chrome_emit(void *ctx,
    const struct ssp_tracks_item *it, struct ssp_err *e);
/* After ssp_tracks_finish: close the event array, write "otherData". */
SSP_MUST_USE enum ssp_status ssp_chrome_finish(struct ssp_chrome *c,
    struct ssp_err *e);
void ssp_chrome_free(struct ssp_chrome *c);
/* ns as microseconds with three decimals ("12.345"), no NUL; returns the
 * length (at most 24). */
size_t ssp_chrome_us(char *out, uint64_t ns);

#endif
