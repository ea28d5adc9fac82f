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
#include <unistd.h>

#include "io/in.h"
#include "sink/dump.h"
#include "stream/event.h"
#include "tools/common/cli.h"

#define PROG "evcat"

/* Events per type, by name: files may order or name their types differently. */
struct counts {
	uint64_t n[SSP_EV_NTYPES];
	char **unk;		/* types this program does not know */
	uint64_t *unk_n;
	size_t nunk;
	uint32_t *idx;		/* current segment: file type -> slot */
	size_t nidx;
};

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: evcat [-HhjnV] [-c COLUMNS] [--csv] [--count] "
	    "[--header] [--json] [--stats]\n             [FILE ...]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Print simspan event streams (plain or zstd-compressed) as text.\n"
		    "      --csv      RFC 4180 CSV with a header row\n"
		    "  -c, --columns LIST  CSV of only these columns, in this order\n"
		    "                 (ts,type,sym: names of --csv's header row)\n"
		    "  -j, --json     one JSON object per line\n"
		    "  -n, --count    count events per type instead of printing them\n"
		    "  -H, --header   print the stream header (metadata, schema) first\n"
		    "      --stats    print counts to stderr (events per input)\n"
		    "  -h, --help     this help\n"
		    "  -V, --version  version and library versions\n"
		    "With no FILE, or when FILE is -, read standard input.\n"
		    "See evcat(1).\n");
	exit(ssp_cli_done(PROG, code));
}

/* Slot of each file type of the current segment in the counts. */
static void
count_bind(struct counts *c, const struct ssp_rec_rd *rr)
{
	const struct ssp_schema *s = ssp_rec_rd_file_schema(rr);
	unsigned t;
	size_t u;
	int k;

	free(c->idx);
	if ((c->idx = calloc(s->ntypes, sizeof(*c->idx))) == NULL)
		errx(SSP_EXIT_FAIL, "out of memory");
	c->nidx = s->ntypes;
	for (t = 0; t < s->ntypes; t++) {
		if ((k = ssp_rec_schema_find(&ssp_event_schema, s->types[t].name)) >= 0) {
			c->idx[t] = (uint32_t)k;
			continue;
		}
		for (u = 0; u < c->nunk; u++)
			if (strcmp(c->unk[u], s->types[t].name) == 0)
				break;
		if (u == c->nunk) {
			c->unk = realloc(c->unk, (u + 1) * sizeof(*c->unk));
			c->unk_n = realloc(c->unk_n, (u + 1) * sizeof(*c->unk_n));
			if (c->unk == NULL || c->unk_n == NULL ||
			    (c->unk[u] = strdup(s->types[t].name)) == NULL)
				errx(SSP_EXIT_FAIL, "out of memory");
			c->unk_n[u] = 0;
			c->nunk++;
		}
		c->idx[t] = (uint32_t)(SSP_EV_NTYPES + u);
	}
}

static void
count_print(const struct counts *c, enum ssp_dump_fmt fmt)
{
	uint64_t total = 0;
	size_t i, n = SSP_EV_NTYPES + c->nunk;

	if (fmt == SSP_DUMP_CSV)
		printf("type,count\r\n");
	for (i = 0; i <= n; i++) {
		const char *name = i == n ? "total" : i < SSP_EV_NTYPES ?
		    ssp_event_schema.types[i].name : c->unk[i - SSP_EV_NTYPES];
		uint64_t k = i == n ? total : i < SSP_EV_NTYPES ? c->n[i] :
		    c->unk_n[i - SSP_EV_NTYPES];

		if (k == 0 && i < n)
			continue;
		total += k;
		if (fmt == SSP_DUMP_CSV)
			printf("%s,%" PRIu64 "\r\n", name, k);
		else if (fmt == SSP_DUMP_JSON)
			printf("{\"type\":\"%s\",\"count\":%" PRIu64 "}\n", name, k);
		else
			printf("%12" PRIu64 " %s\n", k, name);
	}
}

/* Returns 0, or 1 after warning about a bad input or output. */
static int
cat_one(const char *path, enum ssp_dump_fmt fmt, int header,
    struct counts *counts, struct ssp_dump **dp, const char *columns,
    int stats)
{
	struct ssp_dump_opts dopts = { NULL, 0, columns, 0 };
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	static struct ssp_rec batch[256];
	struct ssp_err e = { 0 };
	uint64_t gen;
	int got, rc = 0, i;

	if (ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK) {
		warnx("%s", e.msg);
		return 1;
	}
	if (ssp_rec_rd_open(&rr, in, ssp_frame_magic_events, NULL, SSP_RR_CONCAT, &e) != SSP_OK) {
		warnx("%s", e.msg);
		ssp_in_close(in);
		return 1;
	}
	gen = ssp_rec_rd_strgen(rr);
	if (header)
		ssp_dump_header(stdout, rr, fmt, "file");
	if (counts != NULL)
		count_bind(counts, rr);
	else if (*dp == NULL && (rc = ssp_dump_open(dp, stdout, fmt, rr, &dopts,
	    &e)) != SSP_OK)
		errx(rc == SSP_ERR_INVAL ? SSP_EXIT_USAGE : SSP_EXIT_FAIL, "%s",
		    e.msg);
	else
		ssp_dump_reader(*dp, rr);
	/* a batch never spans two concatenated segments */
	while ((got = ssp_rec_rd_next_batch(rr, batch, 256, &e)) > 0 && rc == 0) {
		if (ssp_rec_rd_strgen(rr) != gen) {	/* a concatenated segment */
			gen = ssp_rec_rd_strgen(rr);
			if (header)
				ssp_dump_header(stdout, rr, fmt, "file");
			if (counts != NULL)
				count_bind(counts, rr);
		}
		for (i = 0; i < got; i++) {
			if (counts != NULL) {
				uint32_t k = counts->idx[batch[i].ftag - 1];

				if (k < SSP_EV_NTYPES)
					counts->n[k]++;
				else
					counts->unk_n[k - SSP_EV_NTYPES]++;
				continue;
			}
			if (ssp_dump_rec(*dp, &batch[i]) != SSP_OK) {
				fflush(stdout);
				warnx("%s", ssp_dump_error(*dp));
				rc = 1;
				break;
			}
		}
		if (ferror(stdout))
			break;	/* reported when stdout is closed */
	}
	if (got < 0) {
		fflush(stdout);
		warnx("%s", e.msg);
		rc = 1;
	}
	if (stats) {
		fflush(stdout);
		fprintf(stderr, PROG ": %s: %" PRIu64 " events%s\n",
		    ssp_rec_rd_name(rr), ssp_rec_rd_records(rr), got < 0 ?
		    " before the damage" : "");
	}
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	return rc;
}

/* -c's argument is a column list, not (as before 0.2) the first input. */
static int
is_columns(const char *s)
{
	return s[strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_,")] == '\0' && s[0] != '\0' &&
	    access(s, F_OK) != 0;
}

int
main(int argc, char **argv)
{
	enum { O_CSV = 256, O_STATS };
	static const struct option longopts[] = {
		{ "columns", required_argument, NULL, 'c' },
		{ "count", no_argument, NULL, 'n' },
		{ "csv", no_argument, NULL, O_CSV },
		{ "header", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "stats", no_argument, NULL, O_STATS },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char csv[] = "--csv";
	enum ssp_dump_fmt fmt = SSP_DUMP_TEXT;
	struct counts counts = { 0 };
	struct ssp_dump *d = NULL;
	const char *columns = NULL;
	int ch, count = 0, header = 0, stats = 0, rc = 0, i;
	size_t u;

	/* -c without a column list was --csv until 0.2 */
	ssp_cli_respell(argc, argv, "-c", is_columns, csv, PROG);
	while ((ch = getopt_long(argc, argv, "c:HhjnV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': columns = optarg; break;
		case O_CSV: fmt = SSP_DUMP_CSV; break;
		case O_STATS: stats = 1; break;
		case 'H': header = 1; break;
		case 'h': usage(0); break;
		case 'j': fmt = SSP_DUMP_JSON; break;
		case 'n': count = 1; break;
		case 'V': ssp_cli_version(PROG, (char *)NULL); return ssp_cli_done(PROG, 0);
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (columns != NULL && (count || fmt == SSP_DUMP_JSON)) {
		warnx("-c selects CSV columns: not with -j or -n");
		usage(SSP_EXIT_USAGE);
	}
	if (columns != NULL)
		fmt = SSP_DUMP_CSV;
	if (header && fmt == SSP_DUMP_CSV) {
		warnx("-H cannot be combined with --csv or -c: CSV has one "
		    "header row");
		usage(SSP_EXIT_USAGE);
	}
	if (argc == 0)
		rc |= cat_one(NULL, fmt, header, count ? &counts : NULL, &d,
		    columns, stats);
	for (i = 0; i < argc && !ferror(stdout); i++)
		rc |= cat_one(argv[i], fmt, header, count ? &counts : NULL, &d,
		    columns, stats);
	if (count)
		count_print(&counts, fmt);
	ssp_dump_free(d);
	for (u = 0; u < counts.nunk; u++)
		free(counts.unk[u]);
	free(counts.unk);
	free(counts.unk_n);
	free(counts.idx);
	if (ssp_cli_close_stdout(PROG) != 0)
		rc = 1;
	return rc;
}
