/*
 * evspan: build causally linked spans from the event streams of all
 * simulators of one simulation.  A filter: events --> evspan --> spans.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/num.h"
#include "config/rules.h"
#include "config/topo.h"
#include "io/out.h"
#include "span/evcheck.h"
#include "span/evspan.h"
#include "tools/common/cli.h"
#include "tools/common/evconf.h"
#include "tools/common/evstats.h"
#include "tools/common/outfile.h"
#include "tools/common/progress.h"
#include "tools/common/warn.h"

enum { OPT_SEED = 256, OPT_STRICT, OPT_THREADS, OPT_FORCE, OPT_STATS,
    OPT_DECODE_ALL };

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: evspan -t TOPOLOGY [-ehqVvz] [-o SPANS] [-r RULES] "
	    "[--decode-all] [--force]\n              [--seed N] [--stats] "
	    "[--strict] [--threads N] [NAME=FILE ...]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Build causally linked spans from the event streams of one "
		    "simulation.\n"
		    "  -t, --topology FILE  streams and links (formats/topology.md)\n"
		    "  -r, --rules FILE     function classes, device BARs, root and "
		    "background rules\n"
		    "                       (default: no function classes, device "
		    "BAR 0)\n"
		    "  -o, --output FILE    span stream (default stdout; .zst "
		    "compresses)\n"
		    "  -z, --zstd           compress the output with zstd\n"
		    "  -e, --events         write each span's member events after it\n"
		    "      --force          write binary spans to a terminal; go on when "
		    "a stream header\n"
		    "                       does not fit the topology (name, run)\n"
		    "      --decode-all     hand every event to the span builder "
		    "(by default events it\n"
		    "                       only counts are skipped by type; the "
		    "same spans)\n"
		    "      --seed N         trace id salt (default: derived from the "
		    "inputs)\n"
		    "      --threads N      1: one thread; 2: read and merge the "
		    "inputs in a second thread\n"
		    "                       (and compress the output in a third); "
		    "3: also encode\n"
		    "                       the spans in a thread of their own\n"
		    "                       (default: 1, 2 or 3 by the number of "
		    "CPUs)\n"
		    "      --stats          print counts to stderr (events in/used/"
		    "dropped, spans, orphans)\n"
		    "      --strict         exit 1 after any warning (orphans and their "
		    "likely cause)\n"
		    "  -v, --verbose        --stats plus a one-line summary\n"
		    "  -q, --quiet          no warnings and no progress line\n"
		    "  -h, --help           this help\n"
		    "  -V, --version        version and library versions\n"
		    "NAME=FILE reads stream NAME from FILE (- is stdin) instead of "
		    "the topology's file.\n"
		    "See evspan(1), simspan-spans(5).\n");
	exit(ssp_cli_done("evspan", code));
}

static void
warn_stream(void *ctx, const char *stream, const struct ssp_err *e)
{
	(void)ctx;
	warnx("stream %s: %s; spans from the data before it are written", stream,
	    e->msg);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "decode-all", no_argument, NULL, OPT_DECODE_ALL },
		{ "events", no_argument, NULL, 'e' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rules", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ "topology", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "zstd", no_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_evspan_opts o = { NULL, SSP_OUT_ZAUTO, 0, 0, 0, 0, NULL, 0 };
	const char *topo_path = NULL, *rules_path = NULL, *errstr;
	char *rules_found = NULL;
	struct ssp_topo *t = NULL;
	struct ssp_rules *r = NULL;
	struct ssp_evspan *ev = NULL;
	struct ssp_progress prog;
	struct ssp_err e = { 0 };
	struct ssp_warn w = { "evspan", 0, 0 };
	struct ssp_evcheck chk = { 0, 0, NULL };
	int ch, quiet = 0, force = 0, stats = 0, verbose = 0, zstd = 0, rc, i;
	uint64_t n, t0;

	while ((ch = getopt_long(argc, argv, "efho:qr:st:Vvz", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e': o.events = 1; break;
		case 'f':	/* -f and -s until 0.3 */
			ssp_cli_deprecated("evspan", "-f", "--force");
			/* FALLTHROUGH */
		case OPT_FORCE: force = 1; break;
		case 'h': usage(0); break;
		case 'o': o.out = optarg; break;
		case 'q': quiet = 1; ssp_warn_quiet(); break;
		case 'r': rules_path = optarg; break;
		case 's':
			ssp_cli_deprecated("evspan", "-s", "--stats");
			/* FALLTHROUGH */
		case OPT_STATS: stats = 1; break;
		case 't': topo_path = optarg; break;
		case 'V': ssp_cli_version("evspan", (char *)NULL); return ssp_cli_done("evspan", 0);
		case 'v': verbose = stats = 1; break;
		case 'z': zstd = 1; break;
		case OPT_SEED:
			if (ssp_num_strtou64(optarg, &o.seed, &errstr) != 0) {
				warnx("--seed %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			o.have_seed = 1;
			break;
		case OPT_DECODE_ALL: o.decode_all = 1; break;
		case OPT_STRICT: w.strict = 1; break;
		case OPT_THREADS:
			if (ssp_num_strtou64(optarg, &n, &errstr) != 0 ||
			    (errstr = "must be 1, 2 or 3", n < 1 || n > 3)) {
				warnx("--threads %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			o.threads = (int)n;
			break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (topo_path == NULL) {
		warnx("a topology is needed (-t FILE)");
		usage(SSP_EXIT_USAGE);
	}
	for (i = 0; i < argc; i++)
		if (strchr(argv[i], '=') == NULL) {
			warnx("'%s': expected NAME=FILE", argv[i]);
			usage(SSP_EXIT_USAGE);
		}
	if (zstd)
		o.zlevel = SSP_OUT_ZDEFAULT;
	if ((o.out == NULL || strcmp(o.out, "-") == 0) &&
	    ssp_cli_refuse_tty(STDOUT_FILENO, force, "evspan") != 0)
		return SSP_EXIT_FAIL;

	/* Configuration errors: exit 2. */
	ssp_evconf_load(&t, &r, topo_path, argv, argc, &rules_path, &rules_found);
	/* a file is written whole (tools/common/outfile.h) */
	if (o.out != NULL && strcmp(o.out, "-") != 0) {
		o.out_name = o.out;
		if ((o.out = ssp_outfile_begin(o.out_name)) == NULL)
			err(SSP_EXIT_FAIL, "%s", o.out_name);
	}
	t0 = ssp_clock_ns();
	if ((rc = ssp_evspan_open(&ev, t, r, &o, &e)) != SSP_OK) {
		ssp_rules_free(r);
		ssp_topo_free(t);
		errx(rc == SSP_ERR_INVAL || rc == SSP_ERR_SCHEMA ?
		    SSP_EXIT_USAGE : SSP_EXIT_FAIL, "%s", e.msg);
	}
	if (ssp_evcheck_headers(&chk, ev, t, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	rc = ssp_evconf_checks(&chk, force, &w) > 0;
	ssp_evcheck_free(&chk);
	if (rc) {
		ssp_evspan_free(ev);
		ssp_outfile_abort();	/* nothing was written */
		ssp_rules_free(r);
		ssp_topo_free(t);
		return SSP_EXIT_USAGE;
	}

	ssp_progress_init_as(&prog, -1, "events", "spans", quiet);
	rc = ssp_evspan_run(ev, prog.on ? ssp_progress_cb : NULL, &prog,
	    warn_stream, NULL, &e);
	ssp_progress_done(&prog);
	if (rc == SSP_OK)
		rc = ssp_evspan_close(ev, &e);
	if (rc != SSP_OK) {
		warnx("%s", e.msg);
		ssp_evspan_free(ev);
		ssp_outfile_abort();	/* the old file stays */
		ssp_rules_free(r);
		ssp_topo_free(t);
		return SSP_EXIT_FAIL;
	}
	/* also after a damaged input stream: the spans before the damage */
	if (ssp_outfile_commit() != 0) {
		warn("%s", o.out_name);
		ssp_evspan_free(ev);
		ssp_rules_free(r);
		ssp_topo_free(t);
		return SSP_EXIT_FAIL;
	}
	if (stats)
		ssp_evstats_print(stderr, ev, t,
		    (double)(ssp_clock_ns() - t0) / 1e9);
	if (verbose)
		ssp_evstats_summary(stderr, ev, "evspan");
	if (ssp_evcheck_result(&chk, ev, t, r, rules_path, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	ssp_evconf_checks(&chk, force, &w);
	ssp_evcheck_free(&chk);
	rc = ssp_evspan_failed(ev) > 0 ? SSP_EXIT_FAIL : SSP_EXIT_OK;
	ssp_evspan_free(ev);
	ssp_rules_free(r);
	ssp_topo_free(t);
	free(rules_found);
	if ((o.out == NULL || strcmp(o.out, "-") == 0) &&
	    ssp_cli_close_stdout("evspan") != 0)
		rc = SSP_EXIT_FAIL;
	return ssp_warn_status(&w, rc);
}
