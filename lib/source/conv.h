/*
 * Log lines to an event stream: runs a simulator's parser over each line,
 * applies the time offset, maps atoms to the writer's strings, writes the
 * events and keeps the accounting (every line is an event or a counted
 * skip, with the first examples of each skip reason).  With the offset
 * taken from gem5's first "sending sync message for ts=" line, events
 * before that line are held in a bounded buffer and the stream header
 * (which records the offset) is written once it is known.
 */
#ifndef SSP_CONV_H
#define SSP_CONV_H

#include <stddef.h>
#include <stdint.h>

#include "base/atoms.h"
#include "base/err.h"
#include "io/in.h"
#include "io/out.h"
#include "source/cpuhold.h"
#include "source/parser.h"
#include "source/symtab.h"
#include "stream/event.h"
#include "stream/rec.h"

enum ssp_offset_mode {
	SSP_OFFSET_NONE,	/* timestamps as printed */
	SSP_OFFSET_FIXED,	/* subtract cfg.offset */
	SSP_OFFSET_SYNC,	/* subtract tick - ts of the first gem5 sync line */
	SSP_OFFSET_SYNC_AUTO,	/* the same when a sync line comes (qemu's
				 * timer-sync lines) before the hold buffer
				 * fills or the log ends, else none */
};

#define SSP_CONV_HOLD_MAX (8u * 1024 * 1024)	/* default hold buffer, bytes */
#define SSP_CONV_EXAMPLES 3			/* default examples per reason */
#define SSP_CONV_EXAMPLE_LEN 120		/* bytes of each example kept */
#define SSP_CONV_SNIFF_LINES 1000		/* lines every parser looks at */

struct ssp_conv_cfg {
	enum ssp_sim sim;
	const char *stream;		/* stream name (metadata) */
	const char *source;		/* input name, for messages */
	const char *producer;		/* e.g. "sim2ev 0.1.0" */
	const struct ssp_meta *meta;	/* extra header metadata */
	size_t nmeta;
	struct ssp_out *out;
	struct ssp_atoms *atoms;
	const struct ssp_symtab *syms;	/* may be NULL */
	int insn;			/* gem5: every Exec line is an event */
	int strict;			/* a malformed line is an error */
	enum ssp_offset_mode offset_mode;
	int64_t offset;			/* SSP_OFFSET_FIXED */
	size_t hold_max;		/* 0: SSP_CONV_HOLD_MAX */
	unsigned examples;		/* 0: SSP_CONV_EXAMPLES */
	int no_hold;			/* gem5: adapter accesses keep the last
					 * Exec line's CPU (source/cpuhold.h) */
};

struct ssp_conv_stats {
	uint64_t lines;
	uint64_t nevents;		/* sum of events[] */
	/* events by type; a line may give two: lines with events = lines -
	 * the sum of skipped[] */
	uint64_t events[SSP_EV_NTYPES];
	uint64_t skipped[SSP_SKIP_N];	/* lines that gave none, by reason */
	uint64_t recovered;		/* events found inside spliced/glued lines */
	uint64_t untimed, untimed_line;	/* events of lines without a usable
					 * time (qemu ts=0), the first's line */
	uint64_t held;			/* events waiting for the sync line */
	int offset_known;
	int64_t offset;			/* subtracted from every timestamp */
	uint64_t offset_line;		/* SSP_OFFSET_SYNC: the sync line */
	/* Events whose timestamp is below the previous event's, and the
	 * line of the first. */
	uint64_t backwards, backwards_line;
	/* Of the first SSP_CONV_SNIFF_LINES lines (sniffed of them), how
	 * many each simulator's parser takes for a line of its log (an event
	 * or a known line kind, not console text); index enum ssp_sim.  Names
	 * the likely format when the one given recognises nothing. */
	uint64_t sniffed;
	uint64_t looked[SSP_SIM_N];
	uint64_t sniff_events[SSP_SIM_N];	/* of those, lines with events */
	int sync_missing;		/* SSP_OFFSET_SYNC_AUTO found no sync line */
	/* strings of the log longer than a stream's (SSP_REC_STR_MAX),
	 * written cut to it, and the line of the first */
	uint64_t cut, cut_line;
};

struct ssp_conv_example {
	uint64_t line;
	const char *why;		/* malformed: what was expected */
	char text[SSP_CONV_EXAMPLE_LEN + 4];	/* printable copy, "..." if cut */
};

struct ssp_conv;

int ssp_conv_open(struct ssp_conv **cp, const struct ssp_conv_cfg *cfg,
    struct ssp_err *e);
/*
 * One input line (without newline; s[n] readable) and its number.  cut:
 * the line was longer than SSP_LINES_MAX; partial: it has no newline.
 * Fails on a write error, on a malformed line with strict, and when the
 * hold buffer overflows.  e names the file and line.
 */
int ssp_conv_line(struct ssp_conv *c, const char *s, size_t n, uint64_t lineno,
    int cut, int partial, struct ssp_err *e);
/*
 * What a reader of another input (pcap records, no lines: cfg.sim has no
 * line parser) decoded from its record number lineno: the event(s) or the
 * skip reason in pl, counted as ssp_conv_line counts a line; s and n
 * describe the record for the examples of a skip.
 */
int ssp_conv_record(struct ssp_conv *c, struct ssp_pline *pl, const char *s,
    size_t n, uint64_t lineno, struct ssp_err *e);
/* Hand every finished event to the output now (online use). */
int ssp_conv_flush(struct ssp_conv *c, struct ssp_err *e);
/* Events written since the last flush? */
int ssp_conv_pending(const struct ssp_conv *c);
/* End the stream (end block).  Fails if the sync line never came. */
int ssp_conv_finish(struct ssp_conv *c, struct ssp_err *e);
/* After a failure: write the events so far, but no end block, so readers
 * see the stream as truncated. */
void ssp_conv_abort(struct ssp_conv *c);
void ssp_conv_free(struct ssp_conv *c);
/*
 * Convert every line of in, then end the stream (ssp_conv_finish).  With
 * follow (in opened with SSP_IN_FOLLOW), the events are flushed whenever
 * the input goes quiet and at least once a second of a steady trickle, so
 * the stream of a live simulation lags by at most a second.  progress
 * (may be NULL) is called with ctx every 64k lines: bytes read so far
 * (compressed), lines and events.  After a failure, call ssp_conv_abort.
 */
typedef void (*ssp_conv_progress_fn)(void *ctx, uint64_t bytes,
    uint64_t lines, uint64_t events);
int ssp_conv_run(struct ssp_conv *c, struct ssp_in *in, int follow,
    ssp_conv_progress_fn progress, void *ctx, struct ssp_err *e);

const struct ssp_conv_stats *ssp_conv_stats(const struct ssp_conv *c);
/* gem5: how the adapter accesses got their CPU (NULL: not held). */
const struct ssp_cpuhold_stats *ssp_conv_hold_stats(const struct ssp_conv *c);
/* The first examples of a skip reason. */
size_t ssp_conv_examples(const struct ssp_conv *c, unsigned reason,
    const struct ssp_conv_example **ex);

#endif
