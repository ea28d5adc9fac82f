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
			const struct ssp_rec_type *ft = &fs->types[r.ftag - 1];

			/* every string field must resolve */
			for (k = 0; k < ft->nf && k < r.nf; k++)
				if (ft->f[k].enc == 's' && r.f[k] != 0 &&
				    ssp_rec_rd_str(rr, r.f[k], NULL) == NULL)
					abort();
			/* fields an older stream lacks: the program's count,
			 * filled as absent */
			if (r.nf < ft->nf || (r.nf > ft->nf &&
			    (r.type >= SSP_EV_NTYPES ||
			    r.nf != ssp_event_schema.types[r.type].nf)))
				abort();
			for (k = ft->nf; k < r.nf; k++)
				if (r.f[k] != 0 && r.f[k] != UINT64_MAX)
					abort();
		}
		ssp_rec_rd_close(rr);
	}
	ssp_in_close(in);
	return 0;
}
