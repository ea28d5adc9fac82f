/*
 * The filtered copy (evfilter's loop) over any input: what the reader
 * accepts must be copied, and the copy must read back as the same events.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config/filter.h"
#include "fuzz_mem.h"
#include "stream/event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXREC 4096

static struct ssp_rec got[MAXREC];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO), *in2;
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_filter_stats st = { 0 };
	struct ssp_rec_rd *rr;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	int fd = memfd_create("out", MFD_CLOEXEC), res;
	uint64_t i, n = 0;
	char name[32];

	if (f == NULL || fd < 0)
		abort();
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	if (ssp_event_reader_open(&rr, in, &e) != SSP_OK)
		goto out;
	if (ssp_out_open(&o, name, 0, &e) != SSP_OK)
		abort();
	if (ssp_filter_writer_open(f, &w, o, rr, "fuzz", &e) != SSP_OK) {
		ssp_out_abort(o);
		ssp_rec_rd_close(rr);
		goto out;
	}
	res = ssp_filter_run(f, rr, w, &st, UINT64_MAX, &e);
	if (res == SSP_FILTER_EWRITE || (res == 0 && st.in != st.kept))
		abort();
	/* a memfd takes every write */
	if (ssp_rec_wr_flush(w, &e) != SSP_OK)
		abort();
	if (res != 0)
		ssp_rec_wr_abort(w);
	else if (ssp_rec_wr_close(w, &e) != SSP_OK)
		abort();
	if (ssp_out_close(o, &e) != SSP_OK)
		abort();
	ssp_rec_rd_close(rr);
	/* read both again and compare event by event */
	ssp_in_close(in);
	in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	if (ssp_event_reader_open(&rr, in, &e) != SSP_OK)
		abort();
	while (n < MAXREC && n < st.kept && ssp_rec_rd_next(rr, &got[n], &e) == 1)
		n++;
	ssp_rec_rd_close(rr);
	lseek(fd, 0, SEEK_SET);
	if (ssp_in_fdopen(&in2, dup(fd), "copy", 0, &e) != SSP_OK ||
	    ssp_event_reader_open(&rr, in2, &e) != SSP_OK)
		abort();
	for (i = 0; i < n; i++) {
		unsigned k;

		if (ssp_rec_rd_next(rr, &r, &e) != 1 || r.ts != got[i].ts ||
		    r.type != got[i].type || r.nf != got[i].nf)
			abort();
		for (k = 0; k < r.nf; k++)
			if (ssp_rec_rd_file_schema(rr)->types[r.ftag - 1].f[k].enc != 's' &&
			    r.f[k] != got[i].f[k])
				abort();
	}
	ssp_rec_rd_close(rr);
	ssp_in_close(in2);
out:
	close(fd);
	ssp_in_close(in);
	ssp_filter_free(f);
	return 0;
}
