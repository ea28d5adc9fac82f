/*
 * What a simulator log parser yields for one line: one event (SPEC §2,
 * stream/event.h) or the reason the line yields none, with the helpers the
 * parser modules (gem5, nicbm, ns3, switch, qemu, corundum, e1000) fill it
 * with.  Below parser.h, which
 * dispatches to those modules, so that they need not include it.
 */
#ifndef SSP_PLINE_H
#define SSP_PLINE_H

#include <stddef.h>
#include <stdint.h>

#include "base/atoms.h"
#include "base/err.h"
#include "source/symtab.h"
#include "stream/event.h"
#include "stream/rec.h"

/* Why a line produced no event.  Names are shown by sim2ev --stats. */
enum ssp_skip {
	SSP_SKIP_NONE = -1,	/* the line is an event */
	SSP_SKIP_EMPTY = 0,	/* blank line */
	SSP_SKIP_TEXT,		/* not a log line of this simulator (console text, banners) */
	SSP_SKIP_UNKNOWN,	/* a log line whose message kind is not an event */
	SSP_SKIP_MALFORMED,	/* a known kind with bad or missing fields */
	SSP_SKIP_LONG,		/* longer than SSP_LINES_MAX: cut */
	SSP_SKIP_NAMES,		/* a new name past the limit on distinct names */
	SSP_SKIP_EXEC,		/* gem5 Exec line, not a function entry */
	SSP_SKIP_MICROOP,	/* gem5 Exec micro-op line */
	SSP_SKIP_NOPFENCE,	/* gem5 Exec NOP/MFENCE/LFENCE line */
	SSP_SKIP_FAULT,		/* gem5 fault line (Page-Fault, External Interrupt) */
	SSP_SKIP_SBOTHER,	/* SimBricks adapter lines that are not events */
	SSP_SKIP_NICINFO,	/* nicbm non-debug lines: mac, sync, exit, statistics */
	SSP_SKIP_DMADATA,	/* nicbm dma write data header and payload bytes */
	SSP_SKIP_NOTS,		/* debug line without a time: nicbm before 2022-06,
				 * ns-3 NS_LOG without prefix_time */
	SSP_SKIP_PARTIAL,	/* no newline: cut by a writer going away (not parsed) */
	/* since simspan 0.2: ns-3 NS_LOG and net_switch */
	SSP_SKIP_DEFERRED,	/* its event is written with a later line */
	SSP_SKIP_STATUS,	/* a status dump on request (SIGUSR1) */
	SSP_SKIP_N
};

const char *ssp_pline_skip_name(unsigned reason);
const char *ssp_pline_skip_desc(unsigned reason);

/* What one line gave. */
struct ssp_pline {
	int skip;		/* enum ssp_skip; SSP_SKIP_NONE: ev holds an event */
	int recovered;		/* event taken from inside a spliced/glued line */
	int untimed;		/* the line prints no usable time: ev.ts is the
				 * time of the log's previous timed line (qemu) */
	const char *why;	/* SSP_SKIP_MALFORMED: what was expected (static) */
	int pre;		/* 1: pre_ev is an event too, before ev (switch;
				 * gem5: a user event before the line's own) */
	struct ssp_rec ev;	/* ts, type and the type's fields (nf unused) */
	struct ssp_rec pre_ev;	/* only with pre: one line, two observations */
};

struct ssp_parser_cfg {
	struct ssp_atoms *atoms;
	const struct ssp_symtab *syms;	/* gem5 function entries; may be NULL */
	int insn;			/* gem5: every Exec line becomes an event */
};


/* Helpers for the parser modules. */
static inline void
ssp_pline_skip(struct ssp_pline *o, int reason)
{
	o->skip = reason;
}

static inline void
ssp_pline_bad(struct ssp_pline *o, const char *why)
{
	o->skip = SSP_SKIP_MALFORMED;
	o->why = why;
}

static inline void
ssp_pline_event(struct ssp_pline *o, unsigned type, uint64_t ts)
{
	o->skip = SSP_SKIP_NONE;
	o->ev.type = type;
	o->ev.ts = (int64_t)ts;
}

#endif
