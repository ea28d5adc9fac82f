/*
 * spancat: print span streams as text, CSV or JSON lines, count spans per
 * kind, or show each trace as an indented tree.  A sink: spans --> text.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/num.h"
#include "io/in.h"
#include "sink/dump.h"
#include "sink/spancount.h"
#include "sink/spantree.h"
#include "stream/span.h"
#include "tools/common/cli.h"

enum mode { M_DUMP, M_COUNT, M_TREE };

static struct ssp_spantree_opts tree_opts;
static size_t trees_printed;
static const char *columns;	/* -c LIST */
static int stats;		/* --stats */

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: spancat [-HhjnTV] [-c COLUMNS] [--csv] [--json] "
	    "[--count] [--tree]\n"
	    "               [--header] [--ps] [--trace ID] [--slowest N] "
	    "[--stats] [FILE ...]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Print simspan span streams (plain or zstd-compressed) as text.\n"
		    "      --csv      RFC 4180 CSV with a header row\n"
		    "  -c, --columns LIST  CSV of only these columns, in this order\n"
		    "                 (trace,span,type,dur: names of --csv's header "
		    "row, or trace)\n"
		    "  -j, --json     one JSON object per line (trace: 32 hex "
		    "digits)\n"
		    "  -n, --count    count spans per kind, links, member events, "
		    "traces\n"
		    "  -T, --tree     each trace as an indented tree (holds all "
		    "spans in memory),\n"
		    "                 times in ps/ns/us/ms/s with three decimals\n"
		    "      --ps       tree times in raw picoseconds\n"
		    "      --trace ID the tree of that trace only (32 hex digits, "
		    "or up to 16:\n"
		    "                 the low half, the root's span id)\n"
		    "      --slowest N  the trees of the N longest traces, longest "
		    "first\n"
		    "                 (root start to the end of its last span)\n"
		    "  -H, --header   print the stream header first\n"
		    "      --stats    print counts to stderr (records per input)\n"
		    "  -h, --help     this help\n"
		    "  -V, --version  version and library versions\n"
		    "Stream indices are shown with the stream names of the header.\n"
		    "With no FILE, or when FILE is -, read standard input.\n"
		    "See spancat(1), simspan-spans(5).\n");
	exit(ssp_cli_done("spancat", code));
}

/* Returns 0, or 1 after warning about a bad input. */
static int
cat_one(const char *path, enum ssp_dump_fmt fmt, enum mode mode, int header,
    struct ssp_spancount *c)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_dump *d = NULL;
	struct ssp_spantree *tree = NULL;
	struct ssp_span_source *src = NULL;
	char **names = NULL;
	struct ssp_rec r;
	struct ssp_err e = { 0 };
	int got, rc = 0, n, i;

	if (ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK) {
		warnx("%s", e.msg);
		return 1;
	}
	if (ssp_span_reader_open(&rr, in, &e) != SSP_OK) {
		warnx("%s", e.msg);
		ssp_in_close(in);
		return 1;
	}
	if ((n = ssp_span_reader_sources(rr, NULL, 0)) < 0) {
		warnx("%s: bad stream list in the header", ssp_rec_rd_name(rr));
		n = 0;
	}
	if ((src = calloc((size_t)n + 1, sizeof(*src))) == NULL ||
	    (names = calloc((size_t)n + 1, sizeof(*names))) == NULL)
		errx(SSP_EXIT_FAIL, "out of memory");
	ssp_span_reader_sources(rr, src, (size_t)n);
	for (i = 0; i < n; i++)
		if ((names[i] = strndup(src[i].name, src[i].namelen)) == NULL)
			errx(SSP_EXIT_FAIL, "out of memory");
	if (header)
		ssp_dump_header(stdout, rr, SSP_DUMP_TEXT, "stream");
	if (mode == M_DUMP) {
		struct ssp_dump_opts o = { (const char *const *)names,
		    (size_t)n, columns, 1 };

		if ((rc = ssp_dump_open(&d, stdout, fmt, rr, &o, &e)) != SSP_OK)
			errx(rc == SSP_ERR_INVAL ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
			    "%s", e.msg);
	}
	if (mode == M_TREE && (tree = ssp_spantree_new(rr,
	    (const char *const *)names, (size_t)n)) == NULL)
		errx(SSP_EXIT_FAIL, "out of memory");
	while (rc == 0 && (got = ssp_rec_rd_next(rr, &r, &e)) == 1) {
		switch (mode) {
		case M_DUMP:
			if (ssp_dump_rec(d, &r) != SSP_OK) {
				fflush(stdout);
				warnx("%s", ssp_dump_error(d));
				rc = 1;
			}
			break;
		case M_COUNT:
			ssp_spancount_add(c, &r);
			break;
		case M_TREE:
			if (ssp_spantree_add(tree, &r, &e) != SSP_OK)
				errx(SSP_EXIT_FAIL, "%s", e.msg);
			break;
		}
	}
	if (tree != NULL) {
		ssp_spantree_print_opts(tree, stdout, &tree_opts);
		trees_printed += ssp_spantree_printed(tree);
	}
	if (got < 0) {
		fflush(stdout);
		warnx("%s", e.msg);
		rc = 1;
	}
	if (stats) {
		fflush(stdout);
		fprintf(stderr, "spancat: %s: %" PRIu64 " records (spans, links, "
		    "member events)%s\n", ssp_rec_rd_name(rr),
		    ssp_rec_rd_records(rr), got < 0 ? " before the damage" : "");
	}
	ssp_spantree_free(tree);
	ssp_dump_free(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(src);
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
	enum { O_PS = 256, O_SLOWEST, O_TRACE, O_CSV, O_STATS };
	static const struct option longopts[] = {
		{ "columns", required_argument, NULL, 'c' },
		{ "count", no_argument, NULL, 'n' },
		{ "csv", no_argument, NULL, O_CSV },
		{ "header", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "ps", no_argument, NULL, O_PS },
		{ "slowest", required_argument, NULL, O_SLOWEST },
		{ "stats", no_argument, NULL, O_STATS },
		{ "trace", required_argument, NULL, O_TRACE },
		{ "tree", no_argument, NULL, 'T' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	enum ssp_dump_fmt fmt = SSP_DUMP_TEXT;
	enum mode mode = M_DUMP;
	struct ssp_spancount c;
	int ch, header = 0, rc = 0, i;
	int64_t v;
	const char *errstr;

	static char csv[] = "--csv";

	memset(&c, 0, sizeof(c));
	/* -c without a column list was --csv until 0.2 */
	ssp_cli_respell(argc, argv, "-c", is_columns, csv, "spancat");
	while ((ch = getopt_long(argc, argv, "c:HhjnTV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': columns = optarg; break;
		case O_CSV: fmt = SSP_DUMP_CSV; break;
		case O_STATS: stats = 1; break;
		case 'H': header = 1; break;
		case 'h': usage(0); break;
		case 'j': fmt = SSP_DUMP_JSON; break;
		case 'n': mode = M_COUNT; break;
		case 'T': mode = M_TREE; break;
		case 'V': ssp_cli_version("spancat", (char *)NULL); return ssp_cli_done("spancat", 0);
		case O_PS: tree_opts.ps = 1; break;
		case O_SLOWEST:
			if (ssp_num_strtonum(optarg, 1, INT32_MAX, &v, &errstr) != 0) {
				warnx("--slowest %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			tree_opts.slowest = (size_t)v;
			mode = M_TREE;
			break;
		case O_TRACE:
			if (ssp_spantree_parse_trace(optarg, &tree_opts) != 0) {
				warnx("--trace %s: not a trace id (up to 32 hex "
				    "digits)", optarg);
				usage(SSP_EXIT_USAGE);
			}
			mode = M_TREE;
			break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (columns != NULL && (mode != M_DUMP || fmt == SSP_DUMP_JSON)) {
		warnx("-c selects CSV columns: not with -j, -n or a tree");
		usage(SSP_EXIT_USAGE);
	}
	if (columns != NULL)
		fmt = SSP_DUMP_CSV;
	if (argc == 0)
		rc |= cat_one(NULL, fmt, mode, header, &c);
	for (i = 0; i < argc; i++)
		rc |= cat_one(argv[i], fmt, mode, header, &c);
	if (mode == M_COUNT)
		ssp_spancount_print(stdout, &c);
	if (tree_opts.trace && trees_printed == 0 && rc == 0) {
		fflush(stdout);
		warnx("--trace: no trace %s in the input", tree_opts.lo_only ?
		    "with that low half" : "with that id");
		rc = 1;
	}
	if (ssp_cli_close_stdout("spancat") != 0)
		rc = 1;
	return rc;
}
