/*
 * span2otlp: export span streams to OpenTelemetry, as OTLP/JSON lines
 * (or length-delimited protobuf) to a file, or POSTed in batches to an
 * OTLP/HTTP collector.  A sink: spans --> span2otlp --> OTLP.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/num.h"
#include "io/in.h"
#include "io/out.h"
#include "sink/http.h"
#include "sink/otlp.h"
#include "sink/otlpout.h"
#include "sink/otlpreport.h"
#include "stream/span.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"
#include "tools/common/progress.h"

#define PROG "span2otlp"
#define DEFAULT_BATCH 8192
#define DEFAULT_MAX_BYTES (4u << 20)	/* 4 MiB: see span2otlp(1) */
#define MAX_BATCH 1000000
#define MAX_HEADERS 32

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: span2otlp [-hqVv] [--endpoint URL] [--protocol "
	    "http/json|http/protobuf] [--gzip]\n"
	    "                 [-H 'NAME: VALUE'] [-b N] [--max-bytes N] "
	    "[--events|--no-events]\n"
	    "                 [--epoch NS|now] [--timeout T] [--retries N] "
	    "[--backoff T]\n"
	    "                 [--max-elapsed T] [--force] [--stats] [-o FILE] "
	    "[SPANS|-]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Export a simspan span stream (plain or zstd) to OpenTelemetry.\n"
		    "      --endpoint URL  POST to an OTLP/HTTP collector, e.g.\n"
		    "                      http://localhost:4318/v1/traces (no path: "
		    "/v1/traces)\n"
		    "      --protocol P    http/json or http/protobuf (default: "
		    "protobuf when\n"
		    "                      sending, JSON lines when writing a file)\n"
		    "      --gzip          compress request bodies (Content-Encoding: "
		    "gzip)\n"
		    "  -H, --header H      add an HTTP header, e.g. 'Authorization: "
		    "Bearer T'\n"
		    "  -b, --batch N       spans per request (default %d)\n"
		    "      --max-bytes N   bytes per request before compression, "
		    "e.g. 4M\n"
		    "                      (default 4M; 0: no limit)\n"
		    "      --events        export member events as span events "
		    "(default: when\n"
		    "      --no-events     the stream has them)\n"
		    "      --epoch NS      add NS nanoseconds (or 'now') to every time "
		    "(default 0)\n"
		    "      --timeout T     per request attempt, seconds (0.5) or with "
		    "unit (default 10)\n"
		    "      --retries N     retries of a failed request (default 5)\n"
		    "      --backoff T     first retry delay, doubled each time, as "
		    "--timeout\n"
		    "                      (default 1)\n"
		    "      --max-elapsed T no retry of a request later than T after "
		    "its first\n"
		    "                      attempt (default 5min; 0: no limit)\n"
		    "  -o, --output FILE   write to FILE (.zst compresses) instead of "
		    "stdout\n"
		    "      --force         write protobuf to a terminal\n"
		    "      --stats         print counts to stderr (spans, events, "
		    "links, requests)\n"
		    "  -v, --verbose       --stats plus the retry settings and every "
		    "retry\n"
		    "  -q, --quiet         no progress line and no retry notice\n"
		    "  -h, --help          this help\n"
		    "  -V, --version       version and library versions\n"
		    "See span2otlp(1).\n", DEFAULT_BATCH);
	exit(ssp_cli_done(PROG, code));
}

/* A duration option of at least min_ms milliseconds. */
static uint64_t
parse_ms(const char *opt, const char *s, uint64_t min_ms)
{
	const char *errstr = "too small";
	uint64_t ms;

	if (ssp_num_parse_ms(s, &ms, &errstr) != 0 || ms < min_ms) {
		warnx("%s %s: %s", opt, s, errstr);
		usage(SSP_EXIT_USAGE);
	}
	return ms;
}

static void
report(void *arg, const char *msg)
{
	(void)arg;
	warnx("%s", msg);
}

static void
stat_line(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "%s: %s\n", PROG, line);
}

int
main(int argc, char **argv)
{
	enum { O_BACKOFF = 256, O_ENDPOINT, O_EPOCH, O_EVENTS, O_GZIP,
		O_MAX_BYTES, O_MAX_ELAPSED, O_NO_EVENTS, O_PROTOCOL, O_RETRIES,
		O_TIMEOUT, O_FORCE, O_STATS };
	static const struct option longopts[] = {
		{ "backoff", required_argument, NULL, O_BACKOFF },
		{ "batch", required_argument, NULL, 'b' },
		{ "endpoint", required_argument, NULL, O_ENDPOINT },
		{ "epoch", required_argument, NULL, O_EPOCH },
		{ "events", no_argument, NULL, O_EVENTS },
		{ "force", no_argument, NULL, O_FORCE },
		{ "gzip", no_argument, NULL, O_GZIP },
		{ "header", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ "max-bytes", required_argument, NULL, O_MAX_BYTES },
		{ "max-elapsed", required_argument, NULL, O_MAX_ELAPSED },
		{ "no-events", no_argument, NULL, O_NO_EVENTS },
		{ "output", required_argument, NULL, 'o' },
		{ "protocol", required_argument, NULL, O_PROTOCOL },
		{ "quiet", no_argument, NULL, 'q' },
		{ "retries", required_argument, NULL, O_RETRIES },
		{ "stats", no_argument, NULL, O_STATS },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_otlp_opts oo = { .proto = SSP_OTLP_JSON, .events = -1,
	    .batch = DEFAULT_BATCH, .max_bytes = DEFAULT_MAX_BYTES,
	    .scope_version = SSP_VERSION };
	struct ssp_http_opts ho = { .timeout_ms = 10000, .retries = 5,
	    .backoff_ms = 1000, .backoff_max_ms = 60000, .max_elapsed_ms = 300000,
	    .user_agent = PROG "/" SSP_VERSION " (simspan)", .report = report };
	struct ssp_progress pg;
	struct ssp_otlpout k = { 0 };
	struct ssp_err e = { 0 };
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	const char *outpath = NULL, *errstr, *proto = NULL, *hdrs[MAX_HEADERS];
	const char *to;
	size_t nhdr = 0;
	int ch, force = 0, verbose = 0, stats = 0, quiet = 0, damaged;
	int rc = SSP_EXIT_OK;
	int64_t v;

	while ((ch = getopt_long(argc, argv, "b:fH:ho:qVv", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			if (ssp_num_strtonum(optarg, 1, MAX_BATCH, &v, &errstr) != 0) {
				warnx("--batch %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			oo.batch = (size_t)v;
			break;
		case 'f':	/* until 0.3 */
			ssp_cli_deprecated(PROG, "-f", "--force");
			/* FALLTHROUGH */
		case O_FORCE: force = 1; break;
		case 'H':
			if (nhdr == MAX_HEADERS) {
				warnx("more than %d --header options", MAX_HEADERS);
				usage(SSP_EXIT_USAGE);
			}
			hdrs[nhdr++] = optarg;
			break;
		case 'h': usage(0); break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = 1; break;
		case 'V':
			ssp_cli_version(PROG, "libcurl", ssp_http_curl_version() ?
			    ssp_http_curl_version() : "not found", (char *)NULL);
			return ssp_cli_done(PROG, 0);
		case 'v': verbose = stats = 1; break;
		case O_STATS: stats = 1; break;
		case O_BACKOFF: ho.backoff_ms = parse_ms("--backoff", optarg, 0); break;
		case O_ENDPOINT: ho.url = optarg; break;
		case O_EPOCH:
			if (strcmp(optarg, "now") == 0) {
				struct timespec ts;

				clock_gettime(CLOCK_REALTIME, &ts);
				oo.epoch_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
			} else if (ssp_num_strtonum(optarg, INT64_MIN, INT64_MAX,
			    &oo.epoch_ns, &errstr) != 0) {
				warnx("--epoch %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			break;
		case O_EVENTS: oo.events = 1; break;
		case O_GZIP: ho.gzip = 1; break;
		case O_MAX_BYTES: {
			uint64_t n;

			if (ssp_num_parse_bytes(optarg, &n, &errstr) != 0 ||
			    n > SIZE_MAX / 2) {
				warnx("--max-bytes %s: %s", optarg, n > SIZE_MAX / 2 ?
				    "too large" : errstr);
				usage(SSP_EXIT_USAGE);
			}
			oo.max_bytes = (size_t)n;
			break;
		}
		case O_MAX_ELAPSED:
			ho.max_elapsed_ms = parse_ms("--max-elapsed", optarg, 0);
			break;
		case O_NO_EVENTS: oo.events = 0; break;
		case O_PROTOCOL: proto = optarg; break;
		case O_RETRIES:
			if (ssp_num_strtonum(optarg, 0, 100, &v, &errstr) != 0) {
				warnx("--retries %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			ho.retries = (unsigned)v;
			break;
		case O_TIMEOUT: ho.timeout_ms = parse_ms("--timeout", optarg, 1); break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(SSP_EXIT_USAGE);
	if (ssp_otlpout_proto(proto, ho.url != NULL, &oo.proto) != 0) {
		warnx("--protocol %s: not http/json or http/protobuf", proto);
		usage(SSP_EXIT_USAGE);
	}
	if (ho.url != NULL && outpath != NULL) {
		warnx("-o and --endpoint exclude each other");
		usage(SSP_EXIT_USAGE);
	}
	if (ho.gzip && ho.url == NULL) {
		warnx("--gzip compresses requests to --endpoint; for files use "
		    "-o FILE.zst");
		usage(SSP_EXIT_USAGE);
	}
	k.proto = (int)oo.proto;
	ho.json = oo.proto == SSP_OTLP_JSON;
	ho.headers = hdrs;
	ho.nheaders = nhdr;
	if (nhdr > 0 && ho.url == NULL) {
		warnx("--header applies to --endpoint only");
		usage(SSP_EXIT_USAGE);
	}
	ho.verbose = verbose;
	ho.quiet = quiet;
	if (ho.url != NULL) {
		enum ssp_status hs_rc;

		if ((hs_rc = ssp_http_open(&k.http, &ho, &e)) != SSP_OK) {
			if (hs_rc == SSP_ERR_INVAL) {
				warnx("%s", e.msg);
				usage(SSP_EXIT_USAGE);
			}
			errx(SSP_EXIT_FAIL, "%s", e.msg);
		}
	} else {
		if (oo.proto == SSP_OTLP_PROTOBUF && (outpath == NULL ||
		    strcmp(outpath, "-") == 0) &&
		    ssp_cli_refuse_tty(STDOUT_FILENO, force, PROG) != 0)
			return SSP_EXIT_FAIL;
		/* a file is written whole (tools/common/outfile.h) */
		to = outpath;
		if (outpath != NULL && strcmp(outpath, "-") != 0 &&
		    (to = ssp_outfile_begin(outpath)) == NULL)
			err(SSP_EXIT_FAIL, "%s", outpath);
		if (ssp_out_open_as(&k.out, to, outpath, SSP_OUT_ZAUTO, &e) !=
		    SSP_OK)
			errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	if (ssp_in_open(&in, argc == 1 ? argv[0] : NULL, SSP_IN_ZSTD_AUTO, NULL,
	    &e) != SSP_OK || ssp_span_reader_open(&rr, in, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	if (ssp_otlp_open(&k.o, &oo, rr, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);

	ssp_progress_init_as(&pg, ssp_in_size(in), "records", "spans", quiet);
	if (ssp_otlpout_pump(&k, rr, in, pg.on ? ssp_progress_cb : NULL, &pg,
	    &damaged, &e) != SSP_OK) {
		ssp_progress_done(&pg);
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	ssp_progress_done(&pg);
	if (damaged) {		/* export what came before the damage */
		warnx("%s", e.msg);
		rc = SSP_EXIT_FAIL;
	}
	if (ssp_otlpout_finish(&k, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	/* also after damaged input: the spans before it */
	if (k.url == NULL && ssp_outfile_commit() != 0)
		err(SSP_EXIT_FAIL, "%s", outpath);
	if (stats)
		ssp_otlpreport_stats(&k, outpath ? outpath : "stdout", &ho,
		    verbose, stat_line, NULL);
	if (ssp_otlpreport_problems(&k, report, NULL) > 0)
		rc = SSP_EXIT_FAIL;
	ssp_otlp_close(k.o);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	ssp_otlpout_free(&k);
	if (ssp_cli_close_stdout(PROG) != 0)
		rc = SSP_EXIT_FAIL;
	return rc;
}
