/* SimBricks run JSON: any bytes parse or fail cleanly with a message; a
 * parsed run plans or is refused cleanly, and a plan is consistent (links
 * point at streams of the right kind, every captured output reads to its
 * end). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/simbricks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_simbricks_opts o = { "run.json", "topology.csv" };
	struct ssp_buf b = SSP_BUF_INIT;
	struct ssp_simbricks_plan *p;
	struct ssp_simbricks_text *t;
	struct ssp_simbricks *r;
	struct ssp_err e;
	char buf[97];
	size_t i;

	if (ssp_simbricks_parse(&r, "fuzz.json", (const char *)data, size, &e) != SSP_OK) {
		if (memchr(e.msg, '\0', sizeof(e.msg)) == NULL)
			abort();
		return 0;
	}
	for (i = 0; i < ssp_simbricks_nsims(r); i++) {
		if (ssp_simbricks_text_open(&t, r, i, i & 1 ? SSP_SIMBRICKS_STDERR :
		    SSP_SIMBRICKS_STDOUT, &e) != SSP_OK)
			abort();
		while (ssp_simbricks_text_read(t, buf, sizeof(buf)) > 0)
			;
		ssp_simbricks_text_close(t);
	}
	if (ssp_simbricks_plan(&p, r, &o, &e) != SSP_OK) {
		if (memchr(e.msg, '\0', sizeof(e.msg)) == NULL)
			abort();
		ssp_simbricks_free(r);
		return 0;
	}
	for (i = 0; i < p->npcie; i++)
		if (p->streams[p->pcie[i].host].kind != SSP_SIM_GEM5 ||
		    p->streams[p->pcie[i].nic].kind != SSP_SIM_NICBM)
			abort();
	for (i = 0; i < p->neth; i++)
		if (p->streams[p->eth[i].nic].kind != SSP_SIM_NICBM ||
		    p->streams[p->eth[i].net].kind != SSP_SIM_NS3)
			abort();
	if (ssp_simbricks_topology(p, r, &b) != 0)
		abort();
	ssp_buf_free(&b);
	ssp_simbricks_plan_free(p);
	ssp_simbricks_free(r);
	return 0;
}
