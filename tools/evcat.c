/*
 * evcat: print event streams as aligned text, CSV or JSON lines, or count
 * events per type.  A sink: events --> evcat --> text.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssp_cli.h"
#include "ssp_dump.h"
#include "ssp_event.h"
#include "ssp_io.h"

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: evcat [-chjn] [--csv] [--json] [--count] [--header] "
	    "[FILE ...]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Print simspan event streams (plain or zstd-compressed) as text.\n"
		    "  -c, --csv      RFC 4180 CSV with a header row\n"
		    "  -j, --json     one JSON object per line\n"
		    "  -n, --count    count events per type instead of printing them\n"
		    "  -H, --header   print the stream header (metadata, schema) first\n"
		    "  -h, --help     this help\n"
		    "  -V, --version  version and library versions\n"
		    "With no FILE, or when FILE is -, read standard input.\n"
		    "See evcat(1).\n");
	exit(code);
}

static void
print_header(const struct ssp_rr *rr)
{
	const struct ssp_schema *s = ssp_rr_file_schema(rr);
	size_t i;
	unsigned t, k;

	printf("# stream %s (format 1.%u)\n", ssp_rr_name(rr),
	    ssp_rr_version_minor(rr));
	for (i = 0; i < ssp_rr_nmeta(rr); i++)
		printf("# %s: %s\n", ssp_rr_meta_at(rr, i)->key,
		    ssp_rr_meta_at(rr, i)->value);
	for (t = 0; t < s->ntypes; t++) {
		printf("# type %u %s:", t + 1, s->types[t].name);
		for (k = 0; k < s->types[t].nf; k++)
			printf(" %s/%c", s->types[t].f[k].name, s->types[t].f[k].enc);
		printf("\n");
	}
}

/* Returns 0, or 1 after warning about a bad input. */
static int
cat_one(const char *path, enum ssp_dump_fmt fmt, int count, int header,
    uint64_t *counts)
{
	struct ssp_in *in;
	struct ssp_rr *rr;
	struct ssp_dump *d = NULL;
	struct ssp_rec r;
	struct ssp_err e = { 0 };
	int got, rc = 0;

	if (ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK) {
		warnx("%s", e.msg);
		return 1;
	}
	if (ssp_rr_open(&rr, in, ssp_magic_events, NULL, SSP_RR_CONCAT, &e) != SSP_OK) {
		warnx("%s", e.msg);
		ssp_in_close(in);
		return 1;
	}
	if (header)
		print_header(rr);
	if (!count && (d = ssp_dump_new(stdout, fmt, rr)) == NULL)
		errx(SSP_EXIT_FAIL, "out of memory");
	while ((got = ssp_rr_next(rr, &r, &e)) == 1) {
		if (count) {
			/* Count by name: files may order their types differently. */
			const char *name = ssp_rr_file_schema(rr)->types[r.ftag - 1].name;
			int t = ssp_schema_find(&ssp_event_schema, name);

			counts[t >= 0 ? (unsigned)t : SSP_EV_NTYPES]++;
		} else {
			ssp_dump_rec(d, &r);
		}
	}
	if (got < 0) {
		fflush(stdout);
		warnx("%s", e.msg);
		rc = 1;
	}
	ssp_dump_free(d);
	ssp_rr_close(rr);
	ssp_in_close(in);
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "header", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "count", no_argument, NULL, 'n' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	enum ssp_dump_fmt fmt = SSP_DUMP_TEXT;
	uint64_t counts[SSP_EV_NTYPES + 1] = { 0 }, total = 0;
	int ch, count = 0, header = 0, rc = 0, i;

	while ((ch = getopt_long(argc, argv, "cHhjnV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': fmt = SSP_DUMP_CSV; break;
		case 'H': header = 1; break;
		case 'h': usage(0); break;
		case 'j': fmt = SSP_DUMP_JSON; break;
		case 'n': count = 1; break;
		case 'V': ssp_cli_version("evcat"); return 0;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		rc |= cat_one(NULL, fmt, count, header, counts);
	for (i = 0; i < argc; i++)
		rc |= cat_one(argv[i], fmt, count, header, counts);
	if (count) {
		for (i = 0; i <= SSP_EV_NTYPES; i++) {
			if (counts[i] == 0)
				continue;
			printf("%12" PRIu64 " %s\n", counts[i], i < SSP_EV_NTYPES ?
			    ssp_event_schema.types[i].name : "(unknown types)");
			total += counts[i];
		}
		printf("%12" PRIu64 " total\n", total);
	}
	if (ssp_cli_close_stdout("evcat") != 0)
		rc = 1;
	return rc;
}
