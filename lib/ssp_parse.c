#include <stdlib.h>

#include "ssp_gem5.h"
#include "ssp_nicbm.h"
#include "ssp_ns3.h"
#include "ssp_parse.h"

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
	[SSP_SKIP_NOTS]      = { "no-timestamp", "nicbm debug line without main_time" },
	[SSP_SKIP_PARTIAL]   = { "partial-line", "no newline: its writer went away mid-line (follow mode)" },
};

const char *
ssp_skip_name(unsigned r)
{
	return r < SSP_SKIP_N ? reasons[r].name : "?";
}

const char *
ssp_skip_desc(unsigned r)
{
	return r < SSP_SKIP_N ? reasons[r].desc : "?";
}

struct ssp_parser {
	enum ssp_sim sim;
	void *impl;
};

int
ssp_parser_new(struct ssp_parser **pp, enum ssp_sim sim,
    const struct ssp_parser_cfg *cfg, struct ssp_err *e)
{
	struct ssp_parser *p;
	int r;

	*pp = NULL;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	p->sim = sim;
	switch (sim) {
	case SSP_SIM_GEM5:
		r = ssp_gem5_new((struct ssp_gem5 **)&p->impl, cfg, e);
		break;
	case SSP_SIM_NICBM:
		r = ssp_nicbm_new((struct ssp_nicbm **)&p->impl, cfg, e);
		break;
	case SSP_SIM_NS3:
		r = ssp_ns3_new((struct ssp_ns3 **)&p->impl, cfg, e);
		break;
	default:
		r = ssp_err_set(e, SSP_ERR_INVAL, 0, "no parser for simulator %d",
		    (int)sim);
	}
	if (r != SSP_OK) {
		free(p);
		return r;
	}
	*pp = p;
	return SSP_OK;
}

void
ssp_parser_free(struct ssp_parser *p)
{
	if (p == NULL)
		return;
	switch (p->sim) {
	case SSP_SIM_GEM5: ssp_gem5_free(p->impl); break;
	case SSP_SIM_NICBM: ssp_nicbm_free(p->impl); break;
	case SSP_SIM_NS3: ssp_ns3_free(p->impl); break;
	default: break;
	}
	free(p);
}

void
ssp_parser_line(struct ssp_parser *p, const char *s, size_t n,
    struct ssp_pline *out)
{
	if (n > 0 && s[n - 1] == '\r')
		n--;
	out->recovered = 0;
	out->why = NULL;
	if (n == 0) {
		out->skip = SSP_SKIP_EMPTY;
		return;
	}
	switch (p->sim) {
	case SSP_SIM_GEM5: ssp_gem5_line(p->impl, s, n, out); break;
	case SSP_SIM_NICBM: ssp_nicbm_line(p->impl, s, n, out); break;
	case SSP_SIM_NS3: ssp_ns3_line(p->impl, s, n, out); break;
	default: out->skip = SSP_SKIP_TEXT; break;
	}
}
