/*
 * Span streams laid out on timeline tracks, for trace viewers (Perfetto,
 * chrome://tracing): the model span2perfetto's two encoders (chrome.c for
 * the Trace Event JSON, perfetto.c for the TrackEvent protobuf) write.
 *
 *   process   one per source stream of the header (a simulator instance)
 *   track     one per stream and kind group (formats/perfetto.md §2):
 *             syscalls per CPU, device accesses, DMA, interrupts, NIC tx
 *             and rx, network devices per node and device; a span that
 *             would overlap another on its track without lying inside its
 *             own parent there goes to an overflow lane ("dma #2"; the
 *             lane free the longest, found in O(log lanes)), so slices
 *             on every track nest properly, as viewers demand
 *   flow      parent -> child, unless the child is nested in its parent
 *             on the same track; link target -> span with the link
 *   events    a BEGIN and an END per span, in time order (ns), where the
 *             events of each track are in the order its nesting needs
 *
 * Holds every span of the input in memory (about 80 bytes per span plus
 * its encoded arguments): a viewer loads the whole trace anyway.  Each
 * span's arguments are encoded when it is read, by the encoder's callback,
 * and kept as bytes.
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
/* Thread ids of the tracks: TID0, TID0 + 1, ... (pids are 1, 2, ...). */
#define SSP_TRACKS_TID0 100001u

struct ssp_tracks_span {
	int64_t start, end;	/* ps */
	uint64_t id;
	uint64_t args;		/* offset of the encoded arguments in arena */
	uint32_t nargs;		/* their length in bytes */
	uint32_t ncall;		/* host.syscall: its call (the system call's
				 * name, formats/spans.md), in arena at
				 * call, for the span's name; 0: none */
	uint64_t call;
	uint32_t track;		/* index into track[] (lane included) */
	uint32_t kind;		/* enum ssp_span_kind */
	uint32_t parent;	/* index of the parent span, or NONE */
	uint32_t out0, nout;	/* flows starting here: flow[out0 ...] */
	uint32_t in0, nin;	/* flows ending here: flow[in[in0 ...]] */
	uint32_t below;		/* layout: the span under it on its lane */
	uint32_t nested;	/* 1: drawn inside its parent, no flow */
};

struct ssp_tracks_track {
	uint32_t proc;		/* index into proc[] */
	uint32_t lane;		/* 0, or the overflow lane's number */
	uint32_t base;		/* index of lane 0 of this group */
	uint32_t tid;		/* SSP_TRACKS_TID0 + rank in (process,
				 * group, CPU or node/dev, lane) order */
	uint32_t group;		/* kind group (display order) */
	uint64_t sub;		/* CPU string id, node << 32 | dev, or 0 */
	char name[64];		/* "syscall cpu0", "dma #2", ... */
};

struct ssp_tracks_proc {
	char name[96];		/* "client-host" */
	char sim[16];		/* "gem5", or "" when the header has no entry */
	uint32_t pid;		/* stream index + 1 */
};

struct ssp_tracks_flow {
	uint64_t id;
	uint32_t from, to;	/* span indices */
	int link;		/* a link (1) or parent -> child (0) */
};

struct ssp_tracks_ev {
	uint64_t ts;		/* ns */
	uint32_t span;
	uint32_t end;		/* 0 BEGIN, 1 END */
};

/* What ssp_tracks_layout made; valid until ssp_tracks_free. */
struct ssp_tracks_view {
	const struct ssp_tracks_span *span;
	size_t nspans;
	const struct ssp_tracks_track *track;
	size_t ntracks;
	const struct ssp_tracks_proc *proc;
	size_t nprocs;
	const struct ssp_tracks_flow *flow;	/* by from: out lists */
	const uint32_t *in;			/* flow indices by to */
	size_t nflows;
	const struct ssp_tracks_ev *ev;		/* 2 * nspans, time order */
	const uint8_t *arena;			/* encoded arguments */
};

/* A span's name: its kind, and for a syscall its call ("host.syscall
 * sendto"), at most n - 1 bytes and a NUL into buf; returns the length. */
size_t ssp_tracks_span_name(const struct ssp_tracks_view *v,
    const struct ssp_tracks_span *s, char *buf, size_t n);

/* Every record read ends in one of these counters. */
struct ssp_tracks_stats {
	uint64_t spans, links, events, other;	/* records read */
	uint64_t parents_missing;	/* parent id not in the input */
	uint64_t links_unmatched;	/* span or target not in the input */
	uint64_t nested, flows, link_flows;
	uint64_t lanes;			/* overflow lanes added */
};

/* Encode the arguments of span record r (of file type rt) into b. */
typedef void (*ssp_tracks_args_fn)(void *ctx, struct ssp_buf *b,
    const struct ssp_rec_rd *rr, const struct ssp_rec_type *rt,
    const struct ssp_rec *r);

struct ssp_tracks;

/* rr: an open span reader; it must stay open while spans are added. */
int ssp_tracks_open(struct ssp_tracks **tp, const struct ssp_rec_rd *rr,
    ssp_tracks_args_fn args, void *ctx, struct ssp_err *e);
int ssp_tracks_add(struct ssp_tracks *t, const struct ssp_rec *r,
    struct ssp_err *e);
/* After the last add: lanes, flows, events. */
int ssp_tracks_layout(struct ssp_tracks *t, struct ssp_err *e);
const struct ssp_tracks_view *ssp_tracks_view(const struct ssp_tracks *t);
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
