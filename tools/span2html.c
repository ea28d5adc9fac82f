/*
 * span2html: a span stream as one self-contained HTML page, a trace viewer
 * that needs no server and no network.  A sink: spans --> span2html -->
 * HTML.  The stream is read twice (sink/html.h, io/reread.h): a file by
 * its name, standard input by seeking back when it is a file, else
 * through a copy spooled to an unlinked temporary file during the first
 * read.  The page
 * is built in memory and written to a temporary file that is renamed into
 * place, so a failure leaves nothing half-written.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/buf.h"
#include "base/clock.h"
#include "base/num.h"
#include "io/in.h"
#include "io/reread.h"
#include "sink/html.h"
#include "stream/span.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"
#include "tools/common/progress.h"

#define PROG "span2html"

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: span2html [-hqVv] [--traces all|slowest:N,sample:M] "
	    "[--max-spans N]\n"
	    "                 [--force] [--no-events] [--stats] [-o FILE] "
	    "[SPANS|-]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Write a simspan span stream (plain or zstd) as one self-contained "
		    "HTML page:\n"
		    "trace list, waterfall, whole-run timeline, latency distribution "
		    "and split.\n"
		    "  -o, --output FILE  write to FILE (default: standard output, "
		    "not a terminal)\n"
		    "      --force        write to standard output even if it is a "
		    "terminal\n"
		    "      --traces SPEC  traces with full span detail: all, or "
		    "slowest:N,sample:M\n"
		    "                     (default: all up to %d spans, else "
		    "slowest:%d,sample:%d)\n"
		    "      --max-spans N  at most N spans of detail (default %d; 0: "
		    "no limit)\n"
		    "      --no-events    leave out the spans' member events\n"
		    "      --stats        print counts to stderr (spans, traces, "
		    "sizes)\n"
		    "  -v, --verbose      --stats plus the time taken\n"
		    "  -q, --quiet        no progress line\n"
		    "  -h, --help         this help\n"
		    "  -V, --version      version and library versions\n"
		    "With no SPANS, or when SPANS is -, read standard input.\n"
		    "See span2html(1) and formats/html.md.\n", SSP_HTML_AUTO_ALL,
		    SSP_HTML_SLOWEST, SSP_HTML_SAMPLE, SSP_HTML_MAX_SPANS);
	if (code == 0 && ssp_cli_close_stdout(PROG) != 0)
		code = SSP_EXIT_FAIL;
	exit(code);
}

static void
tick(void *ctx, uint64_t records, uint64_t spans)
{
	struct ssp_progress *p = ctx;
	(void)records;

	ssp_progress_tick(p, 0, records, spans);
}

int
main(int argc, char **argv)
{
	enum { O_MAX_SPANS = 256, O_NO_EVENTS, O_TRACES, O_FORCE, O_STATS };
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, O_FORCE },
		{ "help", no_argument, NULL, 'h' },
		{ "max-spans", required_argument, NULL, O_MAX_SPANS },
		{ "no-events", no_argument, NULL, O_NO_EVENTS },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", no_argument, NULL, O_STATS },
		{ "traces", required_argument, NULL, O_TRACES },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_html_opts o = { .all = -1, .slowest = SSP_HTML_SLOWEST,
	    .sample = SSP_HTML_SAMPLE, .max_spans = SSP_HTML_MAX_SPANS,
	    .events = 1 };
	struct ssp_buf page = SSP_BUF_INIT;
	struct ssp_progress pg;
	struct ssp_err e = { 0 };
	struct ssp_html *h;
	struct ssp_in *in;
	struct ssp_reread *twice;
	struct ssp_rec_rd *rr;
	const struct ssp_html_stats *st;
	const char *outpath = NULL, *input, *errstr, *env;
	char tool[64];
	uint64_t t0, t1, t2;
	int64_t v;
	int ch, verbose = 0, stats = 0, quiet = 0, force = 0;

	while ((ch = getopt_long(argc, argv, "fho:qVv", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':	/* until 0.3 */
			ssp_cli_deprecated(PROG, "-f", "--force");
			/* FALLTHROUGH */
		case O_FORCE: force = 1; break;
		case 'h': usage(0); break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = 1; break;
		case O_STATS: stats = 1; break;
		case 'V':
			ssp_cli_version(PROG, "zlib", zlibVersion(), (char *)NULL);
			return ssp_cli_close_stdout(PROG) != 0 ? SSP_EXIT_FAIL : 0;
		case 'v': verbose = stats = 1; break;
		case O_MAX_SPANS:
			if (ssp_num_strtonum(optarg, 0, INT64_MAX, &v, &errstr) != 0) {
				warnx("--max-spans %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			o.max_spans = (uint64_t)v;
			break;
		case O_NO_EVENTS: o.events = 0; break;
		case O_TRACES:
			if (ssp_html_traces_parse(optarg, &o) != 0) {
				warnx("--traces %s: not 'all' or 'slowest:N,sample:M'",
				    optarg);
				usage(SSP_EXIT_USAGE);
			}
			break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(SSP_EXIT_USAGE);
	if (outpath != NULL && (*outpath == '\0' || strcmp(outpath, "-") == 0))
		outpath = NULL;
	/* 260 KB of HTML on a terminal helps nobody */
	if (outpath == NULL && !force && isatty(STDOUT_FILENO))
		errx(SSP_EXIT_FAIL, "refusing to write an HTML page to a terminal "
		    "(redirect, use -o FILE, or --force)");
	/* SSP_HTML_LIVE_TRACES: traces aggregated in memory (span2html(1)) */
	if ((env = getenv("SSP_HTML_LIVE_TRACES")) != NULL && *env != '\0') {
		if (ssp_num_strtonum(env, 1, UINT32_MAX, &v, &errstr) != 0)
			errx(SSP_EXIT_USAGE, "SSP_HTML_LIVE_TRACES=%s: %s", env,
			    errstr);
		o.live_traces = (uint32_t)v;
	}
	input = argc == 1 ? argv[0] : "-";
	snprintf(tool, sizeof(tool), "%s %s", PROG, SSP_VERSION);
	o.tool = tool;
	o.source = input;

	t0 = ssp_clock_ns();
	/* the first pass (copied when the input cannot be read again) */
	if (ssp_reread_open(&twice, &in, input, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	if (ssp_span_reader_open(&rr, in, &e) != SSP_OK) {
		ssp_reread_failed(twice, &e);
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	ssp_progress_init_as(&pg, -1, "records", "spans", quiet);
	o.tick = tick;
	o.tick_ctx = &pg;
	if (ssp_html_load(&h, rr, &o, &e) != SSP_OK) {
		ssp_progress_done(&pg);
		ssp_reread_failed(twice, &e);
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	/* the second pass */
	if (ssp_reread_again(twice, &in, &e) != SSP_OK ||
	    ssp_span_reader_open(&rr, in, &e) != SSP_OK ||
	    ssp_html_detail(h, rr, &e) != SSP_OK) {
		ssp_progress_done(&pg);
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	ssp_progress_done(&pg);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);	/* closes the spool */
	ssp_reread_close(twice);
	t1 = ssp_clock_ns();
	if (ssp_html_page(h, &page, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	st = ssp_html_stats(h);

	if (outpath != NULL) {
		if (ssp_outfile_write(outpath, page.p, page.len) != 0)
			err(SSP_EXIT_FAIL, "%s", outpath);
	} else if (fwrite(page.p, 1, page.len, stdout) != page.len) {
		err(SSP_EXIT_FAIL, "stdout");
	}
	t2 = ssp_clock_ns();
	if (stats) {
		fprintf(stderr, "%s: %" PRIu64 " spans, %" PRIu64 " traces, %" PRIu64
		    " links, %" PRIu64 " events read (%" PRIu64 " records, %" PRIu64
		    " of unknown types, %" PRIu64 " links/events not after their "
		    "span)\n", PROG, st->spans, st->traces, st->links, st->events,
		    st->records, st->unknown, st->unattached);
		fprintf(stderr, "%s: %" PRIu64 " traces listed, detail for %"
		    PRIu64 " (%" PRIu64 " spans, %" PRIu64 " events)\n", PROG,
		    st->listed_traces, st->detail_traces, st->detail_spans,
		    st->detail_events);
		if (st->spilled > 0)
			fprintf(stderr, "%s: %" PRIu64 " trace aggregates sorted "
			    "through a temporary file (more than %" PRIu32 " traces "
			    "at once)\n", PROG, st->spilled, o.live_traces ?
			    o.live_traces : SSP_HTML_LIVE);
		fprintf(stderr, "%s: %s: %" PRIu64 " bytes (data: %" PRIu64
		    " bytes JSON, %" PRIu64 " gzip)\n", PROG, outpath ? outpath :
		    "stdout", st->page_bytes, st->json_bytes, st->gz_bytes);
		if (verbose)
			fprintf(stderr, "%s: %.2f s read twice (%.0f spans/s), %.2f s "
		    "total (%.0f spans/s)\n", PROG, (t1 - t0) / 1e9, t1 > t0 ?
		    st->spans / ((t1 - t0) / 1e9) : 0.0, (t2 - t0) / 1e9,
		    t2 > t0 ? st->spans / ((t2 - t0) / 1e9) : 0.0);
	}
	ssp_html_free(h);
	ssp_buf_free(&page);
	if (ssp_cli_close_stdout(PROG) != 0)
		return SSP_EXIT_FAIL;
	return 0;
}
