/*
 * span2otlp's closing counts and warnings: see otlpreport.h.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "base/buf.h"
#include "sink/otlpreport.h"

#define PLURAL(n) ((n) == 1 ? "" : "s")

/* Format one line and hand it over; a line that does not fit the stack
 * (a long URL or error) is formatted again in a heap buffer. */
static void __attribute__((format(printf, 3, 4)))
say(ssp_otlpreport_fn *line, void *arg, const char *fmt, ...)
{
	char small[512];
	struct ssp_buf b = { 0 };
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		line(arg, small);
		return;
	}
	if (ssp_buf_reserve(&b, (size_t)n + 1) != 0) {
		line(arg, small);	/* truncated rather than nothing */
		return;
	}
	va_start(ap, fmt);
	vsnprintf((char *)b.p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	line(arg, (char *)b.p);
	ssp_buf_free(&b);
}

void
ssp_otlpreport_stats(const struct ssp_otlpout *k, const char *dest,
    const struct ssp_http_opts *ho, int verbose, ssp_otlpreport_fn *line,
    void *arg)
{
	const struct ssp_otlp_stats *s = ssp_otlp_stats(k->o);
	const struct ssp_http_stats *hs = &k->hs;

	say(line, arg, "%" PRIu64 " spans read: %" PRIu64 " encoded, %"
	    PRIu64 " not sent, %" PRIu64 " dropped (bad id %" PRIu64
	    ", bad stream %" PRIu64 ")", s->spans, s->spans_out,
	    s->spans_discarded, s->spans_bad_id + s->spans_bad_stream,
	    s->spans_bad_id, s->spans_bad_stream);
	say(line, arg, "%" PRIu64 " events read: %" PRIu64 " encoded, %"
	    PRIu64 " switched off, %" PRIu64 " unmatched, %" PRIu64
	    " not sent", s->events, s->events_out, s->events_off,
	    s->events_unmatched, s->events_discarded);
	say(line, arg, "%" PRIu64 " links read: %" PRIu64 " encoded, %"
	    PRIu64 " unmatched, %" PRIu64 " not sent", s->links,
	    s->links_out, s->links_unmatched, s->links_discarded);
	if (s->other)
		say(line, arg, "%" PRIu64 " records of unknown types skipped",
		    s->other);
	if (k->url == NULL) {
		say(line, arg, "%" PRIu64 " requests written to %s (%" PRIu64
		    " bytes)", s->batches, dest, k->bytes);
		return;
	}
	say(line, arg, "%" PRIu64 " requests sent to %s (%" PRIu64
	    " spans, %" PRIu64 " bytes), %" PRIu64 " retries, %" PRIu64
	    " failed (%" PRIu64 " spans), %" PRIu64 " spans rejected",
	    hs->batches_sent, k->url, hs->spans_sent, hs->bytes_sent,
	    hs->retries, hs->batches_failed, hs->spans_failed,
	    hs->spans_rejected);
	if (verbose)
		say(line, arg, "timeout %" PRIu64 " ms, up to %u retries, "
		    "backoff %" PRIu64 " ms, max elapsed %" PRIu64 " ms",
		    ho->timeout_ms, ho->retries, ho->backoff_ms,
		    ho->max_elapsed_ms);
}

int
ssp_otlpreport_problems(const struct ssp_otlpout *k,
    ssp_otlpreport_fn *line, void *arg)
{
	const struct ssp_otlp_stats *st = ssp_otlp_stats(k->o);
	const struct ssp_http_stats *hs = &k->hs;
	int n = 0;

	if (k->url != NULL && hs->spans_failed > 0) {
		say(line, arg, "%" PRIu64 " spans in %" PRIu64 " request%s not "
		    "delivered to %s%s%s", hs->spans_failed, hs->batches_failed,
		    PLURAL(hs->batches_failed), k->url, hs->last_error[0] ?
		    "; last error: " : "", hs->last_error);
		n++;
	}
	if (k->url != NULL && hs->spans_rejected > 0) {
		say(line, arg, "%" PRIu64 " spans rejected by the collector",
		    hs->spans_rejected);
		n++;
	}
	if (st->spans_bad_id + st->spans_bad_stream > 0) {
		say(line, arg, "%" PRIu64 " spans dropped: %" PRIu64 " with a "
		    "zero trace or span id, %" PRIu64 " with a stream index not "
		    "in the header", st->spans_bad_id + st->spans_bad_stream,
		    st->spans_bad_id, st->spans_bad_stream);
		n++;
	}
	if (st->events_unmatched + st->links_unmatched > 0) {
		/* evspan writes them right after their span, and a batch never
		 * ends between the two: the stream has them elsewhere. */
		say(line, arg, "%" PRIu64 " link%s and %" PRIu64 " event%s not "
		    "attached to their span; the first such span, %016" PRIx64
		    ", lost %" PRIu64 " link%s and %" PRIu64 " event%s: it was "
		    "in an earlier batch (evspan writes links and events right "
		    "after their span; this stream does not, a larger --batch "
		    "may help)", st->links_unmatched,
		    PLURAL(st->links_unmatched), st->events_unmatched,
		    PLURAL(st->events_unmatched), st->unmatched_span,
		    st->unmatched_span_links, PLURAL(st->unmatched_span_links),
		    st->unmatched_span_events, PLURAL(st->unmatched_span_events));
		n++;
	}
	return n;
}
