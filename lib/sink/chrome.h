/*
 * Span streams in the Chrome Trace Event Format (JSON object form), which
 * chrome://tracing and Perfetto read: "M" metadata events naming each
 * process (source stream) and thread (track of ssp_tracks), one complete
 * event ("X") per span in start order with its arguments, and flow events
 * ("s" at the source slice, "f" with binding point "e" at the target)
 * for every flow of the layout.  Times are microseconds printed with
 * exactly three decimals (whole ns, formats/perfetto.md §3).
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
/* Write the whole trace to o; producer goes into "otherData". */
SSP_MUST_USE enum ssp_status ssp_chrome_write(const struct ssp_tracks_view *v,
    const char *producer, struct ssp_out *o, struct ssp_err *e);
/* ns as microseconds with three decimals ("12.345"), no NUL; returns the
 * length (at most 24). */
size_t ssp_chrome_us(char *out, uint64_t ns);

#endif
