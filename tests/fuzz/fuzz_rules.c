/* Rules reader: any bytes parse or fail cleanly; lookups on a parsed file
 * are consistent. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char topo[] = "stream,h,host\nstream,n0,nic\nstream,n1,nic\n"
	    "pcie,h,n0,a\npcie,h,n1,b\n";
	struct ssp_rules *r;
	struct ssp_topo *t;
	struct ssp_err e;
	unsigned k, n = 0;

	if (ssp_rules_parse(&r, "fuzz.csv", (const char *)data, size, &e) != SSP_OK) {
		if (memchr(e.msg, '\0', sizeof(e.msg)) == NULL)
			abort();
		return 0;
	}
	if (ssp_topo_parse(&t, "t.csv", NULL, topo, sizeof(topo) - 1, &e) != SSP_OK)
		abort();
	ssp_rules_check(r, t, &e);
	if (ssp_rules_device_bars(r, "n0") == 0 || ssp_rules_device_bars(r, "n0") > 63)
		abort();
	if (ssp_rules_packet_idle(r) <= 0 || ssp_rules_context_limit(r) == 0)
		abort();
	for (k = 0; k < SSP_FC_NCLASSES; k++)
		n += (unsigned)ssp_rules_count(r, 1u << k);
	if (n > 0 && ssp_rules_fclass(r, "", 0) == 0 && size == 0)
		abort();
	ssp_rules_fclass(r, (const char *)data, size > 64 ? 64 : size);
	ssp_topo_free(t);
	ssp_rules_free(r);
	return 0;
}
