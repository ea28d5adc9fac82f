/* The filter options' parsers: type lists, ns-3 node:device pairs, fnmatch
 * pattern lists and times with units.  Input: NUL-separated strings. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "config/filter.h"
#include "stream/event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *p, *end;
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_err e;
	struct ssp_rec r;
	const char *errstr;
	int64_t t0 = 0, t1 = 0;
	int k = 0, have0 = 0, have1 = 0;
	unsigned type;

	if (buf == NULL || f == NULL)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	end = buf + size;
	for (p = buf; p <= end; p += strlen(p) + 1, k++) {
		switch (k % 7) {
		case 0: ssp_filter_types(f, p, 0, &e); break;
		case 1: ssp_filter_types(f, p, 1, &e); break;
		case 2: ssp_filter_netdev(f, p, &e); break;
		case 3: ssp_filter_patterns(f, SSP_FFIELD_COMP, p, &e); break;
		case 4: ssp_filter_patterns(f, SSP_FFIELD_CPU, p, &e); break;
		case 5: have0 = ssp_num_parse_time(p, &t0, &errstr) == 0; break;
		case 6: have1 = ssp_num_parse_time(p, &t1, &errstr) == 0; break;
		}
	}
	if (have0 || have1)
		ssp_filter_time(f, have0, t0, have1, t1, &e);
	(void)ssp_filter_describe(f);
	/* every non-string check on a synthetic event of each type */
	memset(&r, 0, sizeof(r));
	for (type = 0; type <= SSP_EV_NTYPES; type++) {
		r.type = type < SSP_EV_NTYPES ? type : SSP_TYPE_UNKNOWN;
		r.ts = (int64_t)type * 1000;
		r.f[0] = type & 3;
		r.f[1] = type & 1;
		if (r.type == SSP_TYPE_UNKNOWN || (!ssp_filter_uses(f, SSP_FR_COMP) &&
		    !ssp_filter_uses(f, SSP_FR_CPU)))
			if (ssp_filter_check(f, NULL, &r) >= SSP_FR_NREASONS)
				abort();
	}
	ssp_filter_free(f);
	free(buf);
	return 0;
}
