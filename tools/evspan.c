/*
 * evspan: build causally linked spans from the event streams of all
 * simulators of one simulation.  A filter: events --> evspan --> spans.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "config/rules.h"
#include "config/topo.h"
#include "io/out.h"
#include "span/evspan.h"

enum { OPT_SEED = 256, OPT_THREADS };

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: evspan -t TOPOLOGY [-efhsVvz] [-o SPANS] [-r RULES] "
	    "[--seed N] [--threads N] [NAME=FILE ...]\n");
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
		    "  -f, --force          write binary spans to a terminal\n"
		    "      --seed N         trace id salt (default: derived from the "
		    "inputs)\n"
		    "      --threads N      1: one thread; 2: read and merge the "
		    "inputs in a second thread\n"
		    "                       (and compress the output in a third)\n"
		    "                       (default: 2 when there is more than one "
		    "CPU)\n"
		    "  -s, --stats          print counts (events in/used/dropped, "
		    "spans, orphans)\n"
		    "  -v, --verbose        print a one-line summary\n"
		    "  -h, --help           this help\n"
		    "  -V, --version        version and library versions\n"
		    "NAME=FILE reads stream NAME from FILE (- is stdin) instead of "
		    "the topology's file.\n"
		    "See evspan(1), simspan-spans(5).\n");
	exit(code);
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
		{ "events", no_argument, NULL, 'e' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ "rules", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "stats", no_argument, NULL, 's' },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ "topology", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "zstd", no_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_evspan_opts o = { NULL, SSP_OUT_ZAUTO, 0, 0, 0, 0 };
	const char *topo_path = NULL, *rules_path = NULL, *errstr;
	struct ssp_topo *t = NULL;
	struct ssp_rules *r = NULL;
	struct ssp_evspan *ev = NULL;
	struct ssp_progress prog;
	struct ssp_err e = { 0 };
	int ch, force = 0, stats = 0, verbose = 0, zstd = 0, rc, i;
	uint64_t spans, n;
	unsigned k;

	while ((ch = getopt_long(argc, argv, "efho:r:st:Vvz", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e': o.events = 1; break;
		case 'f': force = 1; break;
		case 'h': usage(0); break;
		case 'o': o.out = optarg; break;
		case 'r': rules_path = optarg; break;
		case 's': stats = 1; break;
		case 't': topo_path = optarg; break;
		case 'V': ssp_cli_version("evspan"); return 0;
		case 'v': verbose = 1; break;
		case 'z': zstd = 1; break;
		case OPT_SEED:
			if (ssp_strtou64(optarg, &o.seed, &errstr) != 0) {
				warnx("--seed %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			o.have_seed = 1;
			break;
		case OPT_THREADS:
			if (ssp_strtou64(optarg, &n, &errstr) != 0 ||
			    (errstr = "must be 1 or 2", n < 1 || n > 2)) {
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
	if (ssp_topo_load(&t, topo_path, &e) != SSP_OK)
		errx(e.code == SSP_ERR_INVAL ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
		    "%s", e.msg);
	for (i = 0; i < argc; i++)
		if (ssp_topo_override(t, argv[i], &e) != SSP_OK)
			errx(SSP_EXIT_USAGE, "%s", e.msg);
	rc = rules_path != NULL ? ssp_rules_load(&r, rules_path, &e) :
	    ssp_rules_new(&r, &e);
	if (rc == SSP_OK)
		rc = ssp_rules_check(r, t, &e);
	if (rc != SSP_OK)
		errx(e.code == SSP_ERR_INVAL ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
		    "%s", e.msg);
	if (ssp_evspan_open(&ev, t, r, &o, &e) != SSP_OK)
		errx(e.code == SSP_ERR_INVAL || e.code == SSP_ERR_SCHEMA ?
		    SSP_EXIT_USAGE : SSP_EXIT_FAIL, "%s", e.msg);

	ssp_progress_init(&prog, -1, "spans");
	rc = ssp_evspan_run(ev, &prog, warn_stream, NULL, &e);
	if (rc == SSP_OK)
		rc = ssp_evspan_close(ev, &e);
	if (rc != SSP_OK) {
		warnx("%s", e.msg);
		ssp_evspan_free(ev);
		return SSP_EXIT_FAIL;
	}
	if (stats)
		ssp_evspan_print_stats(ev, stderr);
	if (verbose) {
		const struct ssp_spanb_stats *st = ssp_evspan_stats(ev);
		uint64_t in = 0;

		for (spans = 0, k = 0; k < SSP_SK_NKINDS; k++)
			spans += st->spans[k];
		for (k = 0; k < st->nstreams; k++)
			in += st->in[k];
		fprintf(stderr, "evspan: %" PRIu64 " events from %zu streams -> %"
		    PRIu64 " spans in %" PRIu64 " traces (salt %016" PRIx64 ")\n",
		    in, st->nstreams, spans, st->roots, ssp_evspan_salt(ev));
	}
	rc = ssp_evspan_failed(ev) > 0 ? SSP_EXIT_FAIL : SSP_EXIT_OK;
	ssp_evspan_free(ev);
	ssp_rules_free(r);
	ssp_topo_free(t);
	if ((o.out == NULL || strcmp(o.out, "-") == 0) &&
	    ssp_cli_close_stdout("evspan") != 0)
		rc = SSP_EXIT_FAIL;
	return rc;
}
