/*
 * Spans to OpenTelemetry: collects the records of a span stream into
 * batches and encodes each batch as one OTLP ExportTraceServiceRequest
 * (opentelemetry-proto collector/trace/v1), in the OTLP/JSON encoding or
 * in protobuf.  The mapping (man/span2otlp.1 has the table):
 *   stream            -> Resource (service.name, simspan.simulator, ...)
 *   span kind         -> Span.name; SpanKind from the kind (see kind_of())
 *   trace_hi,trace_lo -> traceId (16 bytes, big-endian hi then lo)
 *   span, parent      -> spanId, parentSpanId (8 bytes big-endian)
 *   ts, ts + dur (ps) -> start/endTimeUnixNano (floor(ps/1000) + epoch)
 *                        and the exact ps as simspan.start_ps/end_ps
 *   attribute fields  -> simspan.<field> attributes, typed
 *   flags, cause      -> status ERROR for orphans, simspan.* attributes
 *   member events     -> Span.events; link records -> Span.links
 * Member events and links name their span by id.  evspan writes them right
 * after their span record, and a batch only ends before a span record, so
 * they always travel with their span.  (Records elsewhere in the stream, as
 * older evspan wrote them, are attached when their span is in the same
 * batch, before or after it; the others are counted as unmatched.)
 */
#ifndef SSP_OTLP_H
#define SSP_OTLP_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "stream/rec.h"

enum ssp_otlp_proto {
	SSP_OTLP_JSON,		/* OTLP/JSON (application/json) */
	SSP_OTLP_PROTOBUF,	/* binary protobuf (application/x-protobuf) */
};

/* Span.SpanKind values (trace.proto) */
enum ssp_otlp_kind {
	SSP_OTLP_KIND_INTERNAL = 1,
	SSP_OTLP_KIND_SERVER = 2,
	SSP_OTLP_KIND_CLIENT = 3,
	SSP_OTLP_KIND_PRODUCER = 4,
	SSP_OTLP_KIND_CONSUMER = 5,
};

struct ssp_otlp_opts {
	enum ssp_otlp_proto proto;
	int events;		/* 1 on, 0 off, -1 on when the stream has them */
	int64_t epoch_ns;	/* added to every converted time */
	size_t batch;		/* spans per request, >= 1 */
	size_t max_bytes;	/* bytes per request (uncompressed), 0: any;
				 * with ssp_otlp_encode_each */
	const char *scope_version;	/* InstrumentationScope.version */
};

/* Every record read ends in exactly one of these counters. */
struct ssp_otlp_stats {
	uint64_t spans, events, links, other;	/* records read, by class */
	uint64_t spans_out, events_out, links_out;	/* encoded */
	uint64_t spans_bad_id;		/* zero trace or span id: dropped */
	uint64_t spans_bad_stream;	/* stream index not in the header */
	uint64_t events_off;		/* events switched off */
	uint64_t events_unmatched, links_unmatched;	/* span not met */
	uint64_t unmatched_span;	/* the span of the first of those */
	uint64_t unmatched_span_events, unmatched_span_links;	/* its */
	uint64_t spans_discarded, events_discarded, links_discarded;
	uint64_t batches;		/* requests encoded */
};

struct ssp_otlp;

/* rr must stay open while o is used: names and strings come from it. */
SSP_MUST_USE enum ssp_status ssp_otlp_open(struct ssp_otlp **op,
    const struct ssp_otlp_opts *opts, const struct ssp_rec_rd *rr,
    struct ssp_err *e);
/* Does r have to go into a new batch?  Encode (or discard) the current
 * batch first when it does. */
int ssp_otlp_full(const struct ssp_otlp *o, const struct ssp_rec *r);
SSP_MUST_USE enum ssp_status ssp_otlp_add(struct ssp_otlp *o,
    const struct ssp_rec *r, struct ssp_err *e);
/* Room for the next record inside the batch, or NULL when out of memory:
 * a record read into it and then given to ssp_otlp_add (after
 * ssp_otlp_full and any encoding) is not copied again.  Good until the
 * next call of ssp_otlp_add. */
struct ssp_rec *ssp_otlp_slot(struct ssp_otlp *o);
size_t ssp_otlp_nspans(const struct ssp_otlp *o);	/* in the current batch */
/* Append the current batch as one request to out (JSON: no newline) and
 * start a new batch.  *nspans gets the number of spans encoded. */
SSP_MUST_USE enum ssp_status ssp_otlp_encode(struct ssp_otlp *o,
    struct ssp_buf *out, size_t *nspans, struct ssp_err *e);
/*
 * Encode the current batch as requests of at most opts.max_bytes each:
 * usually one; a batch that is larger (the estimate that ends batches
 * early was off) is split by spans, in arrival order.  A single span
 * larger than that is a request of its own.  emit gets each request in b
 * (it may swap b for another buffer) and its span count; a status other
 * than SSP_OK (e filled) stops, and is returned.
 */
typedef enum ssp_status (*ssp_otlp_emit_fn)(void *ctx, struct ssp_buf *b,
    size_t nspans, struct ssp_err *e);
SSP_MUST_USE enum ssp_status ssp_otlp_encode_each(struct ssp_otlp *o,
    struct ssp_buf *b, ssp_otlp_emit_fn emit, void *ctx, struct ssp_err *e);
/* Drop the current batch, counting it as discarded. */
void ssp_otlp_discard(struct ssp_otlp *o, size_t *nspans);
/* At the end of input: events and links still waiting for their span are
 * counted as unmatched.  The current batch must have been encoded. */
void ssp_otlp_finish(struct ssp_otlp *o);
const struct ssp_otlp_stats *ssp_otlp_stats(const struct ssp_otlp *o);
int ssp_otlp_events_on(const struct ssp_otlp *o);
void ssp_otlp_close(struct ssp_otlp *o);

/* --- the mapping as pure functions (unit tested) ----------------------- */

/* floor(ps / 1000) + epoch_ns, clamped to [0, INT64_MAX]. */
uint64_t ssp_otlp_ps_to_ns(int64_t ps, int64_t epoch_ns);
/* Lowercase hex, no NUL: 32 digits for a trace id, 16 for a span id. */
void ssp_otlp_trace_hex(char out[32], uint64_t hi, uint64_t lo);
void ssp_otlp_span_hex(char out[16], uint64_t id);
/* SpanKind of a span kind (enum ssp_span_kind; others are INTERNAL);
 * posted is the span's posted field (-1 when it has none). */
enum ssp_otlp_kind ssp_otlp_kind_of(unsigned kind, int64_t posted);

#endif
