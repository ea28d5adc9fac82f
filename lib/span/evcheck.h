/*
 * evspan's checks, as findings the tool prints: before the run, each
 * input stream's header against the topology (the stream name it was
 * written as; one stream alone made from a log in another directory);
 * after the run, what makes the spans worse than the user would expect
 * (a high orphan share and its likely causes: a gem5 stream without
 * function events, no syscall-entry rule, PCIe events without a link,
 * time going backwards, an evfilter blacklist the rules have changed).
 * The library only fills the findings; it never prints.
 */
#ifndef SSP_EVCHECK_H
#define SSP_EVCHECK_H

#include <stddef.h>

#include "base/err.h"
#include "config/rules.h"
#include "config/topo.h"
#include "span/evspan.h"

/* Warning thresholds (the demo and the samples have no orphans, no
 * backwards events). */
#define SSP_EVCHECK_ORPHAN_PCT    10	/* orphans in % of all spans ... */
#define SSP_EVCHECK_ORPHAN_MIN    10	/* ... and at least this many */
#define SSP_EVCHECK_BACKWARDS_MAX 10	/* per stream */

struct ssp_evcheck_msg {
	int error;		/* a header that does not fit the topology
				 * (the tool's error, or with --force a
				 * warning); 0: a warning */
	char *msg;		/* one line, no newline */
};

/* Findings in the order they were found; zero-initialize, then
 * ssp_evcheck_free. */
struct ssp_evcheck {
	size_t n, cap;
	struct ssp_evcheck_msg *m;
};

/*
 * Each stream's header against the topology (the kinds are checked by
 * ssp_evspan_open): appends the findings to c.  Returns SSP_OK or
 * SSP_ERR_NOMEM.
 */
SSP_MUST_USE enum ssp_status ssp_evcheck_headers(struct ssp_evcheck *c,
    const struct ssp_evspan *ev, const struct ssp_topo *t, struct ssp_err *e);
/*
 * After ssp_evspan_close: one finding (a warning) per likely cause; the
 * orphan share, when high, is put in front of the first one or stands
 * alone.  rules_path: where r came from (NULL: no -r).  Returns SSP_OK or
 * SSP_ERR_NOMEM.
 */
SSP_MUST_USE enum ssp_status ssp_evcheck_result(struct ssp_evcheck *c,
    const struct ssp_evspan *ev, const struct ssp_topo *t,
    const struct ssp_rules *r, const char *rules_path, struct ssp_err *e);
/* The total of "blacklist=FILE[...]:N" items in an evfilter description;
 * file gets the first FILE ("" if none). */
uint64_t ssp_evcheck_blacklist(const char *filter, char *file, size_t fsize);
void ssp_evcheck_free(struct ssp_evcheck *c);

#endif
