/*
 * Span streams as a Perfetto trace (protos/perfetto/trace/trace.proto):
 * a Trace of TracePackets on one packet sequence, written as ssp_tracks
 * hands out its items.  The first packet clears the incremental state
 * and interns the categories and event names (the span kinds, then
 * "cause" and "link") and the argument names; the second is the root
 * track, asking for thread tracks in the order of their ranks; then a
 * TrackDescriptor per process (source stream) and per thread track
 * before its first slice, and one TrackEvent per BEGIN and END, BEGIN
 * with the span's arguments as debug annotations, either with the flow
 * ids the layout put there (flow_ids out, terminating_flow_ids in), and
 * v1 flow events (legacy phases 's' and 'f') for flows found late.
 * formats/perfetto.md has the mapping and the field numbers used.
 */
#ifndef SSP_PERFETTO_H
#define SSP_PERFETTO_H

#include "base/buf.h"
#include "base/err.h"
#include "io/out.h"
#include "sink/tracks.h"
#include "stream/rec.h"

/* Field numbers of the upstream protos that the encoder writes. */
enum {
	SSP_PF_TRACE_PACKET = 1,		/* Trace.packet */
	SSP_PF_PKT_TIMESTAMP = 8,		/* TracePacket */
	SSP_PF_PKT_SEQ_ID = 10,		/* trusted_packet_sequence_id */
	SSP_PF_PKT_TRACK_EVENT = 11,
	SSP_PF_PKT_INTERNED = 12,
	SSP_PF_PKT_SEQ_FLAGS = 13,
	SSP_PF_PKT_TRACK_DESC = 60,
	SSP_PF_TE_CATEGORY_IIDS = 3,		/* TrackEvent */
	SSP_PF_TE_ANNOTATION = 4,
	SSP_PF_TE_LEGACY = 6,
	SSP_PF_TE_TYPE = 9,
	SSP_PF_TE_NAME_IID = 10,
	SSP_PF_TE_TRACK_UUID = 11,
	SSP_PF_TE_FLOW_IDS = 47,
	SSP_PF_TE_TERM_FLOW_IDS = 48,
	SSP_PF_TD_UUID = 1,			/* TrackDescriptor */
	SSP_PF_TD_NAME = 2,
	SSP_PF_TD_PROCESS = 3,
	SSP_PF_TD_THREAD = 4,
	SSP_PF_TD_PARENT = 5,
	SSP_PF_TD_SIBLING_RANK = 12,
	SSP_PF_TD_THREAD_ORDERING = 20,
	SSP_PF_LE_PHASE = 2,			/* TrackEvent.LegacyEvent */
	SSP_PF_LE_UNSCOPED_ID = 6,
	SSP_PF_LE_BIND_ENCLOSING = 12,
	SSP_PF_PD_PID = 1,			/* ProcessDescriptor */
	SSP_PF_PD_NAME = 6,
	SSP_PF_THD_PID = 1,			/* ThreadDescriptor */
	SSP_PF_THD_TID = 2,
	SSP_PF_THD_NAME = 5,
	SSP_PF_ID_CATEGORIES = 1,		/* InternedData */
	SSP_PF_ID_EVENT_NAMES = 2,
	SSP_PF_ID_ANNOT_NAMES = 3,
	SSP_PF_IN_IID = 1,	/* EventCategory, EventName, DebugAnnotationName */
	SSP_PF_IN_NAME = 2,
	SSP_PF_DA_NAME_IID = 1,		/* DebugAnnotation */
	SSP_PF_DA_BOOL = 2,
	SSP_PF_DA_UINT = 3,
	SSP_PF_DA_INT = 4,
	SSP_PF_DA_STRING = 6,
	SSP_PF_DA_POINTER = 7,
};

#define SSP_PF_TYPE_SLICE_BEGIN 1
#define SSP_PF_TYPE_SLICE_END   2
#define SSP_PF_SEQ_CLEARED      1	/* SEQ_INCREMENTAL_STATE_CLEARED */
#define SSP_PF_SEQ_NEEDS        2	/* SEQ_NEEDS_INCREMENTAL_STATE */
#define SSP_PF_SEQUENCE         1	/* our trusted_packet_sequence_id */
#define SSP_PF_THREAD_ORDERING_EXPLICIT 1

struct ssp_perfetto;

/* rr: the span reader the spans come from (its file schema names the
 * arguments).  NULL when out of memory. */
struct ssp_perfetto *ssp_perfetto_new(const struct ssp_rec_rd *rr);
/* The ssp_tracks_args_fn: a span's debug annotations (ctx: the encoder). */
void ssp_perfetto_args(void *ctx, struct ssp_buf *b,
    const struct ssp_rec_rd *rr, const struct ssp_rec_type *rt,
    const struct ssp_rec *r);
/* Begin the trace on o: the interned data and the root track. */
SSP_MUST_USE enum ssp_status ssp_perfetto_start(struct ssp_perfetto *p,
    struct ssp_out *o, struct ssp_err *e);
/* The ssp_tracks_emit_fn (ctx: the encoder). */
SSP_MUST_USE enum ssp_status ssp_perfetto_emit(void *ctx,
    const struct ssp_tracks_item *it, struct ssp_err *e);
/* After ssp_tracks_finish: write what is buffered. */
SSP_MUST_USE enum ssp_status ssp_perfetto_finish(struct ssp_perfetto *p,
    struct ssp_err *e);
void ssp_perfetto_free(struct ssp_perfetto *p);

#endif
