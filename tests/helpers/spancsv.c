/*
 * spancsv: print a span stream as CSV (ssp_dump's columns), preceded by
 * one "# stream: <name> <simulator>" comment per source stream in index
 * order, the form tests/score-truth.sh reads.  Stands in for spancat in
 * the tests until that tool exists.
 *
 * usage: spancsv [FILE]
 */
#include <err.h>
#include <stdio.h>

#include "sink/dump.h"
#include "stream/span.h"

int
main(int argc, char **argv)
{
	struct ssp_span_source src[256];
	struct ssp_err e = { 0 };
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_dump *d;
	struct ssp_rec r;
	int n, i, got;

	if (argc > 2) {
		fprintf(stderr, "usage: spancsv [file]\n");
		return 2;
	}
	if (ssp_in_open(&in, argc == 2 ? argv[1] : NULL, SSP_IN_ZSTD_AUTO, NULL,
	    &e) != SSP_OK || ssp_span_reader_open(&rr, in, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	n = ssp_span_reader_sources(rr, src, 256);
	if (n < 0)
		errx(1, "bad stream metadata in the header");
	for (i = 0; i < n && i < 256; i++)
		printf("# stream: %.*s %s\n", (int)src[i].namelen, src[i].name,
		    ssp_event_sim_name(src[i].sim));
	if ((d = ssp_dump_new(stdout, SSP_DUMP_CSV, rr)) == NULL)
		errx(1, "out of memory");
	while ((got = ssp_rec_rd_next(rr, &r, &e)) == 1)
		if (ssp_dump_rec(d, &r) != SSP_OK)
			errx(1, "%s", ssp_dump_error(d));
	if (got < 0)
		errx(1, "%s", e.msg);
	ssp_dump_free(d);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	return fclose(stdout) == 0 ? 0 : 1;
}
