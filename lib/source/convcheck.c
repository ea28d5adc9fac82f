#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "source/convcheck.h"
#include "source/pline.h"

static void add(struct ssp_convcheck *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "a gem5", "an ns-3", ...: a log of that simulator. */
static const char *
article(enum ssp_sim s)
{
	switch (s) {
	case SSP_SIM_GEM5: return "a gem5";
	case SSP_SIM_NICBM: return "a nicbm";
	case SSP_SIM_NS3: return "an ns-3";
	case SSP_SIM_SWITCH: return "a net_switch";
	case SSP_SIM_QEMU: return "a QEMU";
	case SSP_SIM_CORUNDUM: return "a Corundum Verilator";
	case SSP_SIM_E1000: return "an e1000";
	default: return "a";
	}
}

static void
add(struct ssp_convcheck *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n == SSP_CONVCHECK_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(r->msg[r->n++], SSP_CONVCHECK_LEN, fmt, ap);
	va_end(ap);
}

/* A QEMU log without one simbricks-pci debug line. */
static void
no_debug_prints(struct ssp_convcheck *r, const char *src, uint64_t lines)
{
	add(r, "%s: no simbricks-pci debug line in %" PRIu64 " lines: was QEMU's "
	    "hw/misc/simbricks_pci.c built with DEBUG_PRINTS (it prints nothing "
	    "without)? the host stream is empty and its traces start at the NIC",
	    src, lines);
}

size_t
ssp_convcheck_run(struct ssp_convcheck *r, const struct ssp_conv *c,
    const struct ssp_conv_cfg *cfg, const char *src, int ok)
{
	const struct ssp_conv_stats *st = ssp_conv_stats(c);
	const struct ssp_conv_example *ex;
	uint64_t own, text;
	unsigned i, best;

	r->n = 0;
	for (i = SSP_SKIP_MALFORMED; i < SSP_SKIP_N; i++) {
		if ((i != SSP_SKIP_MALFORMED && i != SSP_SKIP_PARTIAL &&
		    i != SSP_SKIP_NAMES) || st->skipped[i] == 0 ||
		    ssp_conv_examples(c, i, &ex) == 0)
			continue;
		add(r, "%s: %" PRIu64 " %s line%s skipped, first at line %"
		    PRIu64 "%s%s", src, st->skipped[i], ssp_pline_skip_name(i),
		    st->skipped[i] == 1 ? "" : "s", ex[0].line,
		    ex[0].why ? ": " : "", ex[0].why ? ex[0].why : "");
	}
	if (!ok)	/* the error said what went wrong */
		return r->n;
	text = st->skipped[SSP_SKIP_EMPTY] + st->skipped[SSP_SKIP_TEXT];
	own = st->lines - text - st->skipped[SSP_SKIP_PARTIAL] -
	    st->skipped[SSP_SKIP_LONG];
	if (st->nevents == 0 && own == 0 && st->lines > st->skipped[SSP_SKIP_EMPTY]) {
		for (best = 0, i = SSP_SIM_GEM5; i < SSP_SIM_N; i++)
			if (i != (unsigned)cfg->sim && st->looked[i] > 0 &&
			    (best == 0 || st->looked[i] > st->looked[best]))
				best = i;
		/* "<ticks>: [P ..." looks like gem5's "<tick>: <object>:" too */
		if (best == SSP_SIM_GEM5 && cfg->sim != SSP_SIM_SWITCH &&
		    st->looked[SSP_SIM_SWITCH] >= st->looked[SSP_SIM_GEM5])
			best = SSP_SIM_SWITCH;
		if (best != 0)
			add(r, "no line of %s looked like %s output (%" PRIu64
			    " lines): is it %s log? try -f %s", src,
			    ssp_event_sim_name(cfg->sim), st->lines, article((enum ssp_sim)best),
			    ssp_event_sim_name((enum ssp_sim)best));
		else if (cfg->sim == SSP_SIM_QEMU)
			no_debug_prints(r, src, st->lines);
		else
			add(r, "no line of %s looked like %s output (%" PRIu64
			    " lines), nor like gem5, nicbm, ns-3 or net_switch output: is it "
			    "a simulator log?", src, ssp_event_sim_name(cfg->sim),
			    st->lines);
	} else if (st->nevents == 0 && st->lines > st->skipped[SSP_SKIP_EMPTY]) {
		/* lines of its envelope, but none an event: another
		 * simulator's parser may find events in them */
		for (best = 0, i = SSP_SIM_GEM5; i < SSP_SIM_N; i++)
			if (i != (unsigned)cfg->sim && st->sniff_events[i] > 0 &&
			    (best == 0 || st->sniff_events[i] > st->sniff_events[best]))
				best = i;
		if (best != 0)
			add(r, "no event in %s for -f %s (%" PRIu64 " lines), but -f %s "
			    "finds %" PRIu64 " in its first %" PRIu64 ": is it %s log? "
			    "try -f %s", src, ssp_event_sim_name(cfg->sim), st->lines,
			    ssp_event_sim_name((enum ssp_sim)best), st->sniff_events[best],
			    st->sniffed, article((enum ssp_sim)best),
			    ssp_event_sim_name((enum ssp_sim)best));
		else if (cfg->sim == SSP_SIM_QEMU)
			no_debug_prints(r, src, st->lines);
	}
	if (st->untimed > 0)
		add(r, "%s: QEMU ran unsynchronized: %" PRIu64 " device message line%s "
		    "print ts=0 (first at line %" PRIu64 "); they take the time of the "
		    "line before, and QEMU's clock is not SimBricks time, so its spans "
		    "do not line up with the NIC's; run the simulation synchronized "
		    "(simbricks-pci sync=on)", src, st->untimed, st->untimed == 1 ?
		    "" : "s", st->untimed_line);
	else if (st->sync_missing && st->nevents > 0)
		add(r, "%s: no 'simbricks_timer_sync: ts=' line: times are QEMU's "
		    "virtual clock (ns x 1000), not SimBricks time; give --time-offset "
		    "to align them", src);
	if (cfg->sim == SSP_SIM_GEM5 && !cfg->insn &&
	    st->skipped[SSP_SKIP_EXEC] >= SSP_CONVCHECK_EXEC_MIN &&
	    st->events[SSP_EV_FUNC] == 0) {
		if (cfg->syms == NULL)
			add(r, "%s: no function events: %" PRIu64 " Exec lines "
			    "but no symbol table (evspan makes no syscall spans "
			    "without them); give -s vmlinux.syms", src,
			    st->skipped[SSP_SKIP_EXEC]);
		else
			add(r, "%s: no function events: none of %" PRIu64
			    " Exec addresses is a function entry of the symbol "
			    "tables; wrong kernel or module offset?", src,
			    st->skipped[SSP_SKIP_EXEC]);
	}
	/* NS_LOG prints the time only with prefix_time (and SimBricks' NS3Net
	 * asks for level_all alone) */
	if (cfg->sim == SSP_SIM_NS3 && st->nevents == 0 &&
	    st->skipped[SSP_SKIP_NOTS] > 0)
		add(r, "%s: %" PRIu64 " ns-3 NS_LOG lines without a time prefix, no "
		    "event: log with prefix_time and prefix_node (NS_LOG='C=level_all|"
		    "prefix_all'; NS3Net: logging.add_logging(C, PREFIX_ALL))", src,
		    st->skipped[SSP_SKIP_NOTS]);
	if (st->cut > 0)
		add(r, "%s:%" PRIu64 ": a name longer than a stream's strings may "
		    "be (%d bytes) was cut to that length (%" PRIu64 " such name%s)",
		    src, st->cut_line, SSP_REC_STR_MAX, st->cut,
		    st->cut == 1 ? "" : "s");
	if (st->backwards > SSP_CONVCHECK_BACKWARDS_MAX)
		add(r, "%s: time goes backwards %" PRIu64 " time%s, first at "
		    "line %" PRIu64 ": interleaved or concatenated logs? "
		    "(evspan takes events in time order)", src, st->backwards,
		    st->backwards == 1 ? "" : "s", st->backwards_line);
	return r->n;
}

size_t
ssp_convcheck_empty(struct ssp_convcheck *r, const struct ssp_conv *c,
    const struct ssp_conv_cfg *cfg, const char *src, size_t other,
    int other_stdout, int warned)
{
	const struct ssp_conv_stats *st = ssp_conv_stats(c);
	uint64_t own = st->lines - st->skipped[SSP_SKIP_EMPTY] -
	    st->skipped[SSP_SKIP_TEXT] - st->skipped[SSP_SKIP_PARTIAL] -
	    st->skipped[SSP_SKIP_LONG];
	size_t n = r->n;

	if (st->nevents > 0)
		return 0;
	if (other == 0 && own == 0)
		return 0;	/* nothing, or convcheck named the format */
	/* only status lines: of nicbm its mac/sync/exit/statistics, of
	 * net_switch and gem5 log lines of kinds that are no event */
	if (other == 0 && own != st->skipped[cfg->sim == SSP_SIM_NICBM ?
	    SSP_SKIP_NICINFO : SSP_SKIP_UNKNOWN] + (cfg->sim == SSP_SIM_GEM5 ?
	    st->skipped[SSP_SKIP_SBOTHER] : 0))
		return 0;
	if (other > 0)
		add(r, "%s: no nicbm event lines, but its %s has %zu: add %s",
		    src, other_stdout ? "stdout" : "stderr", other, other_stdout ?
		    "nothing (drop --sim-stderr)" : "--sim-stderr");
	else if (cfg->sim == SSP_SIM_NICBM)
		add(r, "%s: a nicbm log without debug output (%" PRIu64 " of "
		    "its status lines, no event): nicbm prints its per-event lines "
		    "(read(off=, issuing dma, eth tx, ...) only when built with "
		    "DEBUG_NICBM; uncomment #define DEBUG_NICBM in "
		    "lib/simbricks/nicbm/nicbm.cc and rebuild the NIC models", src,
		    own);
	else if (cfg->sim == SSP_SIM_SWITCH)
		add(r, "%s: a net_switch log without NETSWITCH_DEBUG lines (%"
		    PRIu64 " status lines, no packet): net_switch prints a line per "
		    "forwarded packet only when built with NETSWITCH_DEBUG", src, own);
	else if (cfg->sim == SSP_SIM_GEM5)
		add(r, "%s: a gem5 log without event lines (%" PRIu64 " lines): "
		    "was it run with --debug-flags (" "ExecEnable,SimBricksPci, ...) "
		    "and a gem5.opt or gem5.debug build (gem5.fast has no debug "
		    "output)?", src, own);
	else if (!warned)	/* unless the format check named another -f */
		add(r, "%s: %" PRIu64 " %s lines, no event", src, own,
		    ssp_event_sim_name(cfg->sim));
	return r->n - n;
}
