#include "source/pline.h"

static const struct {
	const char *name, *desc;
} reasons[SSP_SKIP_N] = {
	[SSP_SKIP_EMPTY]     = { "empty", "blank line" },
	[SSP_SKIP_TEXT]      = { "not-a-log-line", "no log envelope (console text, banners)" },
	[SSP_SKIP_UNKNOWN]   = { "unknown-message", "log line of a kind that is not an event" },
	[SSP_SKIP_MALFORMED] = { "malformed", "known line kind with bad or missing fields" },
	[SSP_SKIP_LONG]      = { "line-too-long", "line longer than 1 MiB (cut)" },
	[SSP_SKIP_NAMES]     = { "too-many-names", "new name past the distinct-name limit" },
	[SSP_SKIP_EXEC]      = { "exec", "Exec line, not a function entry" },
	[SSP_SKIP_MICROOP]   = { "exec-microop", "Exec micro-op line" },
	[SSP_SKIP_NOPFENCE]  = { "exec-nop-fence", "Exec NOP/MFENCE/LFENCE line" },
	[SSP_SKIP_FAULT]     = { "fault", "gem5 fault line" },
	[SSP_SKIP_SBOTHER]   = { "simbricks-other", "SimBricks line that is not an event" },
	[SSP_SKIP_NICINFO]   = { "nic-info", "nicbm status line (mac, sync, exit, statistics)" },
	[SSP_SKIP_DMADATA]   = { "dma-data", "nicbm dma write payload" },
	[SSP_SKIP_NOTS]      = { "no-timestamp", "debug line without a time (nicbm "
	    "before 2022-06, ns-3 NS_LOG without prefix_time)" },
	[SSP_SKIP_PARTIAL]   = { "partial-line", "no newline: its writer went away mid-line (follow mode)" },
	[SSP_SKIP_DEFERRED]  = { "deferred", "its event comes with a later line (ns-3 "
	    "NS_LOG device receive: the bridge's UID line)" },
	[SSP_SKIP_STATUS]    = { "status", "status dump on request (SIGUSR1)" },
};

const char *
ssp_pline_skip_name(unsigned r)
{
	return r < SSP_SKIP_N ? reasons[r].name : "?";
}

const char *
ssp_pline_skip_desc(unsigned r)
{
	return r < SSP_SKIP_N ? reasons[r].desc : "?";
}
