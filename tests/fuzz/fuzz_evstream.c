/* Event stream decoder (framing, header, schema mapping, records, zstd). */
#include <stdint.h>
#include <stddef.h>

#include "fuzz_mem.h"
#include "stream/event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_rec_rd *rr;
	struct ssp_rec r;
	struct ssp_err e;
	const struct ssp_schema *fs;
	unsigned k;

	if (ssp_event_reader_open(&rr, in, &e) == SSP_OK) {
		fs = ssp_rec_rd_file_schema(rr);
		while (ssp_rec_rd_next(rr, &r, &e) == 1) {
			/* every string field must resolve */
			for (k = 0; k < r.nf; k++)
				if (fs->types[r.ftag - 1].f[k].enc == 's' && r.f[k] != 0 &&
				    ssp_rec_rd_str(rr, r.f[k], NULL) == NULL)
					abort();
		}
		ssp_rec_rd_close(rr);
	}
	ssp_in_close(in);
	return 0;
}
