/* Topology reader: any bytes parse or fail cleanly; a parsed topology is
 * consistent (links point at streams of the right kind). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_topo *t;
	struct ssp_err e;
	size_t i;

	if (ssp_topo_parse(&t, "fuzz.csv", "/d", (const char *)data, size, &e) != SSP_OK) {
		if (memchr(e.msg, '\0', sizeof(e.msg)) == NULL)
			abort();
		return 0;
	}
	for (i = 0; i < t->nstreams; i++) {
		const struct ssp_topo_stream *s = &t->streams[i];

		if (!ssp_topo_name_ok(s->name, strlen(s->name)) ||
		    ssp_topo_find(t, s->name) != (int)i)
			abort();
		if (s->pcie >= 0 && (size_t)s->pcie >= t->npcie)
			abort();
		if (s->eth >= 0 && (size_t)s->eth >= t->neth)
			abort();
	}
	for (i = 0; i < t->npcie; i++)
		if (t->streams[t->pcie[i].host].kind != SSP_SIM_GEM5 ||
		    t->streams[t->pcie[i].nic].kind != SSP_SIM_NICBM ||
		    t->streams[t->pcie[i].nic].pcie != (int)i)
			abort();
	for (i = 0; i < t->neth; i++)
		if (t->streams[t->eth[i].nic].kind != SSP_SIM_NICBM ||
		    t->streams[t->eth[i].net].kind != SSP_SIM_NS3)
			abort();
	for (i = 0; i < t->nn2n; i++)
		if (t->streams[t->n2n[i].net[0]].kind != SSP_SIM_NS3 ||
		    t->streams[t->n2n[i].net[1]].kind != SSP_SIM_NS3 ||
		    (t->n2n[i].net[0] == t->n2n[i].net[1] &&
		    t->n2n[i].node[0] == t->n2n[i].node[1] &&
		    t->n2n[i].dev[0] == t->n2n[i].dev[1]))
			abort();
	ssp_topo_override(t, "a=b", &e);
	ssp_topo_free(t);
	return 0;
}
