/*
 * Span streams laid out on timeline tracks, for trace viewers (Perfetto,
 * chrome://tracing), in bounded memory: the model span2perfetto's two
 * encoders (chrome.c for the Trace Event JSON, perfetto.c for the
 * TrackEvent protobuf) write, handed to them one item at a time.
 *
 *   process   one per source stream of the header (a simulator instance)
 *   track     one per stream and kind group (formats/perfetto.md §1):
 *             syscalls per CPU, device accesses, DMA, interrupts, NIC tx
 *             and rx, network devices per node and device; a span that
 *             would overlap another on its track without lying inside its
 *             own parent there goes to an overflow lane ("dma #2"; the
 *             lane free the longest, found in O(log lanes)), so slices
 *             on every track nest properly, as viewers demand
 *   flow      parent -> child, unless the child is nested in its parent
 *             on the same track; link target -> span with the link
 *
 * Spans arrive nearly in time order (a span is written when it ends and
 * after its parent).  A reorder window of `window` spans puts them in
 * start order; lanes are assigned as they leave it.  A span that comes
 * after the window has passed its start is laid out all the same, on a
 * lane free since its start, never nested, and its events go out of time
 * order (trace_processor sorts every trace it loads).  Items wait in a
 * short queue before they are handed out, so that a flow found a little
 * later can still be named on its source slice's BEGIN (or END); a flow
 * found after both are out is written as a pair of flow events.  Memory:
 * the window, the spans open on a lane, the queue and the tracks, and a
 * fixed table of recent spans' places: never the whole input.
 */
#ifndef SSP_TRACKS_H
#define SSP_TRACKS_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "stream/rec.h"

#define SSP_TRACKS_NONE UINT32_MAX
/* Flow ids: a parent flow has the child's span id; a link flow this bit
 * and the link's number in the stream (from 1).  Below 2^53, so JSON
 * readers keep them exact. */
#define SSP_TRACKS_LINK_FLOW (UINT64_C(1) << 52)
/* Thread ids of the tracks: TID0, TID0 + 1, ... in order of creation
 * (pids are 1, 2, ...). */
#define SSP_TRACKS_TID0 100001u
/* Spans in the reorder window by default. */
#define SSP_TRACKS_WINDOW 32768u

struct ssp_tracks_track {
	uint32_t proc;		/* index of its process */
	uint32_t lane;		/* 0, or the overflow lane's number */
	uint32_t tid;		/* SSP_TRACKS_TID0 + creation order */
	int32_t rank;		/* display order in the process: kind group
				 * << 24 | CPU or device (in order of first
				 * use, at most 255) << 16 | lane (at most
				 * 65535) */
	uint32_t group;		/* kind group (display order) */
	uint64_t sub;		/* CPU string id, node << 32 | dev, or 0 */
	char name[64];		/* "syscall cpu0", "dma #2", ... */
};

struct ssp_tracks_proc {
	char name[96];		/* "client-host" */
	char sim[16];		/* "gem5", or "" when the header has no entry */
	uint32_t pid;		/* stream index + 1 */
};

/* A flow id on a slice's BEGIN or END, and its part in the flow. */
enum {
	SSP_TRACKS_FL_OUT,	/* source: protobuf flow_ids, JSON "s" */
	SSP_TRACKS_FL_IN,	/* target: protobuf terminating_flow_ids,
				 * JSON "f" */
	SSP_TRACKS_FL_BOTH,	/* target whose source is on an END:
				 * protobuf flow_ids (protobuf only) */
};

struct ssp_tracks_fl {
	uint64_t id;
	uint32_t part;		/* SSP_TRACKS_FL_* */
};

enum ssp_tracks_what {
	SSP_TRACKS_PROC,	/* a process: all of the header first */
	SSP_TRACKS_TRACK,	/* a track, before its first slice */
	SSP_TRACKS_BEGIN,	/* a slice: ts its start, end its end, kind,
				 * arguments, flows */
	SSP_TRACKS_END,		/* a slice's end: ts, flows (protobuf) */
	SSP_TRACKS_FLOW_OUT,	/* flow `flow` leaves the slice starting at
				 * ts on track (a flow event of its own) */
	SSP_TRACKS_FLOW_IN,	/* ... enters the slice starting at ts */
};

struct ssp_tracks_item {
	enum ssp_tracks_what what;
	const struct ssp_tracks_proc *proc;	/* PROC, and every track's */
	const struct ssp_tracks_track *track;	/* all but PROC */
	uint64_t ts, end;			/* ns; end: BEGIN only */
	uint32_t kind;				/* BEGIN: enum ssp_span_kind */
	const uint8_t *args;			/* BEGIN: encoded arguments */
	size_t nargs;
	const struct ssp_tracks_fl *fl;		/* BEGIN, END */
	size_t nfl;
	uint64_t flow;				/* FLOW_OUT, FLOW_IN */
};

/* Every record read ends in one of the first four counters. */
struct ssp_tracks_stats {
	uint64_t spans, links, events, other;	/* records read */
	uint64_t parents_missing;	/* parent not in the input (or gone) */
	uint64_t links_unmatched;	/* span or target not in the input */
	uint64_t forgotten;		/* of those two: ids the table of
					 * recent spans no longer held */
	uint64_t nested, flows, link_flows;
	uint64_t flow_events;		/* flows written as flow events of
					 * their own (protobuf: v1 flows) */
	uint64_t lanes;			/* overflow lanes added */
	uint64_t late;			/* spans after the window passed
					 * their start */
	uint64_t held;			/* most spans in the window at once */
	size_t procs, tracks;
};

/* How the encoder takes flows: JSON's flow events each bind by their
 * own time and track, independently; protobuf's ids ride on slice
 * events, and a flow of separate events needs both of its ends so. */
enum ssp_tracks_flows { SSP_TRACKS_FLOWS_JSON, SSP_TRACKS_FLOWS_PROTO };

/* Encode the arguments of span record r (of file type rt) into b. */
typedef void (*ssp_tracks_args_fn)(void *ctx, struct ssp_buf *b,
    const struct ssp_rec_rd *rr, const struct ssp_rec_type *rt,
    const struct ssp_rec *r);
/* Write an item; pointers in it are valid during the call only. */
typedef enum ssp_status (*ssp_tracks_emit_fn)(void *ctx,
    const struct ssp_tracks_item *it, struct ssp_err *e);

struct ssp_tracks_opts {
	ssp_tracks_args_fn args;
	ssp_tracks_emit_fn emit;
	void *ctx;			/* of both */
	enum ssp_tracks_flows flows;
	size_t window;			/* spans; 0: SSP_TRACKS_WINDOW */
};

struct ssp_tracks;

/* rr: an open span reader; it must stay open while spans are added.  The
 * processes of the header are emitted by the first add or finish. */
SSP_MUST_USE enum ssp_status ssp_tracks_open(struct ssp_tracks **tp,
    const struct ssp_rec_rd *rr, const struct ssp_tracks_opts *o,
    struct ssp_err *e);
/* A record read from rr (spans, links; others are counted).  Errors of
 * emit come back from here. */
SSP_MUST_USE enum ssp_status ssp_tracks_add(struct ssp_tracks *t,
    const struct ssp_rec *r, struct ssp_err *e);
/* After the last add: lay out and emit everything still held. */
SSP_MUST_USE enum ssp_status ssp_tracks_finish(struct ssp_tracks *t,
    struct ssp_err *e);
const struct ssp_tracks_stats *ssp_tracks_stats(const struct ssp_tracks *t);
void ssp_tracks_free(struct ssp_tracks *t);

/* Span flags as "ORPHAN|OPEN" ("" for none); returns the length. */
size_t ssp_tracks_flags(char *buf, size_t size, uint64_t flags);

/* A trace id as 32 lowercase hex digits (no NUL). */
void ssp_tracks_trace_hex(char out[32], uint64_t hi, uint64_t lo);

/* An IPv4 address (host order) as dotted quad, no NUL; returns the length
 * (at most 15). */
size_t ssp_tracks_ipv4(char *out, uint64_t a);

/* floor(ps / 1000), 0 for negative times. */
static inline uint64_t
ssp_tracks_ns(int64_t ps)
{
	return ps <= 0 ? 0 : (uint64_t)ps / 1000;
}

#endif
