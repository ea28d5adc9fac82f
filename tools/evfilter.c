/*
 * evfilter: keep the events of one event stream that pass every filter
 * given, and write them as a new event stream.  A filter:
 * events --> evfilter --> events.  The work is in lib/ssp_filter.c.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "config/filter.h"
#include "io/in.h"
#include "io/out.h"
#include "stream/event.h"
#include "tools/common/cli.h"
#include "tools/common/filtreport.h"
#include "tools/common/outfile.h"
#include "tools/common/progress.h"
#include "tools/common/warn.h"

#define PROG "evfilter"

enum { OPT_CLASS = 256, OPT_COMP, OPT_CPU, OPT_NETDEV, OPT_STATS, OPT_STRICT,
    OPT_TABLE, OPT_FORCE, OPT_FROM, OPT_TO };

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: evfilter [-hiNqVvz] [-b FILE] [-o FILE] "
	    "[-T TYPES] [-t TYPES] [-w FILE] [--class CLASSES] "
	    "[--comp PATTERNS] [--cpu PATTERNS] [--force] [--from TIME] "
	    "[--net-dev NODE:DEV,...] [--stats] [--strict] [--table PATTERNS] "
	    "[--to TIME] [FILE]\n"
	    "       evfilter -l\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Copy the events of a simspan event stream that pass every filter.\n"
		    "  -t, --types LIST        keep only these event types and groups\n"
		    "  -T, --exclude-types LIST  drop these event types and groups\n"
		    "  -N, --no-noise          drop sync and proc_in events\n"
		    "      --from TIME         drop events before TIME (ps, ns, us, ms, s)\n"
		    "      --to TIME           drop events at or after TIME\n"
		    "  -b, --blacklist FILE    drop function entries named in a CSV file\n"
		    "  -w, --whitelist FILE    keep only function entries named in it\n"
		    "      --class LIST        rules classes to read (default: blacklist;\n"
		    "                          for -w every class but blacklist)\n"
		    "      --comp PATTERNS     keep only these components (fnmatch)\n"
		    "      --cpu PATTERNS      keep only these CPUs\n"
		    "      --table PATTERNS    keep only these symbol tables\n"
		    "      --net-dev LIST      keep only these ns-3 NODE:DEV pairs\n"
		    "  -i, --interesting       drop ns-3 packets not marked interesting\n"
		    "  -o, --output FILE       write to FILE (.zst compresses)\n"
		    "  -z, --zstd              compress the output with zstd\n"
		    "      --force             write binary output to a terminal\n"
		    "      --stats             print counts to stderr (events in, kept,\n"
		    "                          dropped per filter)\n"
		    "      --strict            exit 1 after any warning (a pattern that\n"
		    "                          matched nothing)\n"
		    "  -v, --verbose           --stats plus the filter description\n"
		    "  -q, --quiet             no warnings and no progress line\n"
		    "  -l, --list              list event types and groups\n"
		    "  -h, --help              this help\n"
		    "  -V, --version           version and library versions\n"
		    "With no FILE, or when FILE is -, read standard input.\n"
		    "See evfilter(1).\n");
	exit(ssp_cli_done(PROG, code));
}

static void
list_types(void)
{
	char members[1024];
	size_t i;
	unsigned t;

	printf("types:");
	for (t = 0; t < ssp_event_schema.ntypes; t++)
		printf(" %s", ssp_event_schema.types[t].name);
	printf("\ngroups:\n");
	for (i = 0; i < ssp_filter_ngroups(); i++) {
		const char *g = ssp_filter_group(i, members, sizeof(members));

		printf("  %-6s %s\n", g, members);
	}
}

static void
config_fail(const char *opt, const struct ssp_err *e)
{
	if (opt != NULL)
		warnx("%s: %s", opt, e->msg);
	else
		warnx("%s", e->msg);
	usage(SSP_EXIT_USAGE);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "blacklist", required_argument, NULL, 'b' },
		{ "class", required_argument, NULL, OPT_CLASS },
		{ "comp", required_argument, NULL, OPT_COMP },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "exclude-types", required_argument, NULL, 'T' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "help", no_argument, NULL, 'h' },
		{ "interesting", no_argument, NULL, 'i' },
		{ "list", no_argument, NULL, 'l' },
		{ "net-dev", required_argument, NULL, OPT_NETDEV },
		{ "no-noise", no_argument, NULL, 'N' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "table", required_argument, NULL, OPT_TABLE },
		{ "to", required_argument, NULL, OPT_TO },
		{ "types", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "whitelist", required_argument, NULL, 'w' },
		{ "zstd", no_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out_path = NULL, *in_path = NULL, *classes = NULL, *errstr;
	const char *lists[2][16];
	struct ssp_filter *f;
	struct ssp_err e = { 0 };
	struct ssp_in *in;
	struct ssp_out *o;
	struct ssp_rec_rd *rr;
	struct ssp_rec_wr *w;
	struct ssp_filter_stats st = { 0 };
	struct ssp_progress pg;
	struct ssp_warn wn = { PROG, 0, 0 };
	int64_t from = 0, to = 0;
	int ch, quiet = 0, force = 0, zstd = 0, verbose = 0, want_stats = 0, got, rc = 0;
	int from_set = 0, to_set = 0, i, r;
	size_t nlists[2] = { 0, 0 }, k;

	if ((f = ssp_filter_new()) == NULL)
		errx(SSP_EXIT_FAIL, "out of memory");
	while ((ch = getopt_long(argc, argv, "b:e:fhilNo:qs:T:t:Vvw:z", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'b':
		case 'w':
			if (nlists[ch == 'w'] == 16)
				errx(SSP_EXIT_USAGE, "-%c: at most 16 files", ch);
			lists[ch == 'w'][nlists[ch == 'w']++] = optarg;
			break;
		case 'e':	/* -s and -e until 0.3 */
		case 's':
			ssp_cli_deprecated(PROG, ch == 's' ? "-s" : "-e",
			    ch == 's' ? "--from" : "--to");
			/* FALLTHROUGH */
		case OPT_FROM:
		case OPT_TO:
			if (ssp_num_parse_time(optarg, ch == 's' || ch == OPT_FROM ?
			    &from : &to, &errstr) != 0) {
				warnx("%s %s: time %s (units: ps, ns, us, ms, s)",
				    ch == 's' || ch == OPT_FROM ? "--from" : "--to",
				    optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			*(ch == 's' || ch == OPT_FROM ? &from_set : &to_set) = 1;
			break;
		case 'f':	/* until 0.3 */
			ssp_cli_deprecated(PROG, "-f", "--force");
			/* FALLTHROUGH */
		case OPT_FORCE: force = 1; break;
		case 'h': usage(0); break;
		case 'i': ssp_filter_interesting(f); break;
		case 'l':
			list_types();
			ssp_filter_free(f);
			return ssp_cli_close_stdout(PROG) ? 1 : 0;
		case 'N': ssp_filter_noise(f); break;
		case 'o': out_path = optarg; break;
		case 'q': quiet = 1; ssp_warn_quiet(); break;
		case 'T':
		case 't':
			if (ssp_filter_types(f, optarg, ch == 'T', &e) != SSP_OK)
				config_fail(ch == 'T' ? "-T" : "-t", &e);
			break;
		case 'V':
			ssp_cli_version(PROG, (char *)NULL);
			ssp_filter_free(f);
			return ssp_cli_done(PROG, 0);
		case 'v': verbose = want_stats = 1; break;
		case 'z': zstd = 1; break;
		case OPT_CLASS: classes = optarg; break;
		case OPT_COMP:
		case OPT_CPU:
		case OPT_TABLE:
			if (ssp_filter_patterns(f, ch == OPT_COMP ? SSP_FFIELD_COMP :
			    ch == OPT_CPU ? SSP_FFIELD_CPU : SSP_FFIELD_TABLE,
			    optarg, &e) != SSP_OK)
				config_fail(ch == OPT_COMP ? "--comp" : ch == OPT_CPU ?
				    "--cpu" : "--table", &e);
			break;
		case OPT_NETDEV:
			if (ssp_filter_netdev(f, optarg, &e) != SSP_OK)
				config_fail("--net-dev", &e);
			break;
		case OPT_STATS: want_stats = 1; break;
		case OPT_STRICT: wn.strict = 1; break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1) {
		warnx("one input stream at a time (concatenate segments of one "
		    "stream with cat)");
		usage(SSP_EXIT_USAGE);
	}
	if (argc == 1)
		in_path = argv[0];
	if ((from_set || to_set) &&
	    ssp_filter_time(f, from_set, from, to_set, to, &e) != SSP_OK)
		config_fail(NULL, &e);
	if (classes != NULL && (classes[0] == '\0' || classes[0] == ',' ||
	    classes[strlen(classes) - 1] == ',' || strstr(classes, ",,"))) {
		warnx("--class %s: empty item in list", classes);
		usage(SSP_EXIT_USAGE);
	}
	/* a file not read: exit 1; its content: exit 2 */
	for (i = 0; i < 2; i++)
		for (k = 0; k < nlists[i]; k++)
			if ((r = ssp_filter_funcs_load(f, lists[i][k], i, classes,
			    &e)) != SSP_OK)
				errx(r == SSP_ERR_INVAL ? SSP_EXIT_USAGE :
				    SSP_EXIT_FAIL, "%s", e.msg);
	if (classes != NULL && nlists[0] + nlists[1] == 0) {
		warnx("--class needs -b or -w");
		usage(SSP_EXIT_USAGE);
	}

	if (ssp_in_open(&in, in_path, SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK ||
	    ssp_event_reader_open(&rr, in, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	/* a file is written whole (tools/common/outfile.h) */
	ssp_outfile_not_input(out_path, ssp_in_fd(in));
	o = ssp_outfile_stream(out_path, 0, zstd, force, PROG);
	if (ssp_filter_writer_open(f, &w, o, rr, PROG, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);

	ssp_progress_init_as(&pg, ssp_in_size(in), "events", "events kept",
	    quiet);
	while ((got = ssp_filter_run(f, rr, w, &st, 1u << 16, &e)) == 1)
		ssp_progress_draw(&pg, ssp_in_rawpos(in), st.in, st.kept);
	ssp_progress_done(&pg);
	if (got < 0) {
		warnx("%s", e.msg);
		rc = SSP_EXIT_FAIL;
	}
	/* after damaged input: what came before it, without an end block */
	if (ssp_filter_end(w, got, &e) != SSP_OK) {
		warnx("%s", e.msg);
		rc = SSP_EXIT_FAIL;
	}
	/* The old file stays unless the new one was written (after damaged
	 * input: what came before it). */
	if (ssp_out_close(o, &e) != SSP_OK || got == SSP_FILTER_EWRITE) {
		if (rc == 0)
			warnx("%s", e.msg);
		rc = SSP_EXIT_FAIL;
		ssp_outfile_abort();
	} else if (ssp_outfile_commit() != 0) {
		warn("%s", out_path);
		rc = SSP_EXIT_FAIL;
	}
	if (want_stats)
		ssp_filtreport_stats(PROG, ssp_in_name(in), f, &st, verbose);
	if (rc == 0)
		ssp_filtreport_unmatched(&wn, ssp_in_name(in), f);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	ssp_filter_free(f);
	if (ssp_cli_close_stdout(PROG) != 0)
		rc = SSP_EXIT_FAIL;
	return ssp_warn_status(&wn, rc);
}
