/* Function lists from CSV (rules format and plain lists). */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "config/filter.h"
#include "fuzz_mem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const classes[] = { NULL, "blacklist", "kernel-tx,driver-tx" };
	struct ssp_filter *f;
	struct ssp_in *in;
	struct ssp_err e = { 0 };
	unsigned sel = size > 0 ? data[0] % 6 : 0;
	int r;

	/* first byte: black or white, and which classes */
	if (size > 0) {
		data++;
		size--;
	}
	if ((f = ssp_filter_new()) == NULL)
		abort();
	in = fuzz_in(data, size, 0);
	r = ssp_filter_funcs(f, in, sel & 1, classes[sel / 2], &e);
	/* errors name the file, line and column; success loads names */
	if (r == SSP_ERR_INVAL && e.line > 0 && strncmp(e.msg, "fuzz:", 5) != 0)
		abort();
	if (r == SSP_OK && ssp_filter_nfuncs(f, sel & 1) == 0)
		abort();
	ssp_in_close(in);
	ssp_filter_free(f);
	return 0;
}
