/* symphony's output/out.json and what it holds: the bytes as a run (the
 * reader and the planner, fuzz_sbplan.h), as a recorded command line
 * (shword: split as symphony's runtime splits it) and as the words of an
 * NS3Net params file (sbns3); each parses or fails cleanly, and nodes and
 * devices stay within what the words can make. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/sbns3.h"
#include "config/shword.h"
#include "fuzz_sbplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_sbns3 *n;
	struct ssp_err e;
	char *s, **w;
	size_t nw, i, len;

	fuzz_run(data, size, "out.json");
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (ssp_shword_split(s, &w, &nw, &e) != SSP_OK) {
		if (memchr(e.msg, '\0', sizeof(e.msg)) == NULL)
			abort();
		free(s);
		return 0;
	}
	for (i = 0, len = 0; i < nw; i++)
		len += strlen(w[i]);
	if (len > size || w[nw] != NULL)
		abort();
	if (ssp_sbns3_parse(&n, (const char *const *)w, nw, "fuzz", &e) == SSP_OK) {
		for (i = 0; i < n->nports; i++)
			if (n->ports[i].node >= n->nnodes || n->ports[i].dev > nw + 1 ||
			    n->ports[i].dev == 0 || n->ports[i].sock == NULL)
				abort();
		ssp_sbns3_free(n);
	} else if (memchr(e.msg, '\0', sizeof(e.msg)) == NULL) {
		abort();
	}
	free(w);
	free(s);
	return 0;
}
