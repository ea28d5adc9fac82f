/* What fuzz_simbricks and fuzz_symphony check of a plan: links point at
 * simulators and streams of the right kind, the topology and commands
 * are written, and the script has no control character but newlines
 * and tabs (a name that broke out of a comment or a word). */
#ifndef FUZZ_SBPLAN_H
#define FUZZ_SBPLAN_H

#include <stdlib.h>

#include "config/sbcmds.h"
#include "config/sbplan.h"
#include "config/simbricks.h"

static inline void
check_plan(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    const struct ssp_sbplan_opts *o)
{
	struct ssp_buf b = SSP_BUF_INIT;
	size_t i, n = ssp_simbricks_nsims(r);

	for (i = 0; i < p->nstreams; i++)
		if (p->streams[i].idx >= n || p->streams[i].cls == NULL)
			abort();
	for (i = 0; i < p->nlinks; i++) {
		const struct ssp_sbplan_link *l = &p->links[i];

		if (l->a >= n || l->b >= n || l->sa >= (int)p->nstreams ||
		    l->sb >= (int)p->nstreams)
			abort();
		if (l->type == SSP_SBPLAN_PCIE && l->sa >= 0 &&
		    p->streams[l->sa].cls->role != SSP_SBCLASS_HOST)
			abort();
		if (l->sb >= 0 && l->type == SSP_SBPLAN_PCIE &&
		    p->streams[l->sb].cls->role != SSP_SBCLASS_NIC)
			abort();
		if (l->type == SSP_SBPLAN_ETH && l->sa >= 0 &&
		    p->streams[l->sa].cls->role != SSP_SBCLASS_NIC)
			abort();
		if (l->type == SSP_SBPLAN_ETH && l->sb >= 0 &&
		    p->streams[l->sb].cls->role != SSP_SBCLASS_NET)
			abort();
		if (l->type == SSP_SBPLAN_N2N && ((l->sa >= 0 &&
		    p->streams[l->sa].cls->role != SSP_SBCLASS_NET) || (l->sb >= 0 &&
		    p->streams[l->sb].cls->role != SSP_SBCLASS_NET)))
			abort();
		if (l->type == SSP_SBPLAN_PCIE && l->sa >= 0 &&
		    p->streams[l->sa].sim != SSP_SIM_GEM5 &&
		    p->streams[l->sa].ndriver != 0)
			abort();	/* symbol tables only for gem5 */
	}
	if (ssp_sbplan_topology(p, r, 0, &b) != 0 ||
	    ssp_sbplan_topology(p, r, 1, &b) != 0)
		abort();
	ssp_buf_reset(&b);
	if (ssp_sbcmds_script(p, r, o, &b) != 0)
		abort();
	for (i = 0; i < b.len; i++)
		if ((b.p[i] < 0x20 && b.p[i] != '\n' && b.p[i] != '\t') || b.p[i] == 0x7f)
			abort();
	ssp_buf_free(&b);
}


/* Parse data as a run and plan it (force and strict from the size). */
static inline void
fuzz_run(const uint8_t *data, size_t size, const char *name)
{
	struct ssp_sbplan_opts o = { "run.json", "topology.csv", NULL, NULL, 0, 0, 0 };
	struct ssp_simbricks_text *t;
	struct ssp_sbplan *p;
	struct ssp_simbricks *r;
	struct ssp_err e;
	char buf[97];
	size_t i;

	if (ssp_simbricks_parse(&r, name, (const char *)data, size, &e) != SSP_OK) {
		if (memchr(e.msg, '\0', sizeof(e.msg)) == NULL)
			abort();
		return;
	}
	for (i = 0; i < ssp_simbricks_nsims(r); i++) {
		if (ssp_simbricks_text_open(&t, r, i, i & 1 ? SSP_SIMBRICKS_STDERR :
		    SSP_SIMBRICKS_STDOUT, &e) != SSP_OK)
			abort();
		while (ssp_simbricks_text_read(t, buf, sizeof(buf)) > 0)
			;
		ssp_simbricks_text_close(t);
	}
	o.force = size & 1;
	o.strict = (size >> 1) & 1;
	if (ssp_sbplan_make(&p, r, &o, &e) != SSP_OK) {
		if (memchr(e.msg, '\0', sizeof(e.msg)) == NULL)
			abort();
		ssp_simbricks_free(r);
		return;
	}
	check_plan(p, r, &o);
	ssp_sbplan_free(p);
	ssp_simbricks_free(r);
}

#endif
