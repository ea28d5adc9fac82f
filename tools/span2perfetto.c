/*
 * span2perfetto: span streams as traces for Perfetto (ui.perfetto.dev,
 * trace_processor) and chrome://tracing: the Chrome Trace Event JSON or
 * the Perfetto TrackEvent protobuf.  A sink: spans --> span2perfetto.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/num.h"
#include "io/in.h"
#include "io/out.h"
#include "sink/chrome.h"
#include "sink/perfetto.h"
#include "sink/tracks.h"
#include "stream/span.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"
#include "tools/common/progress.h"

#define PROG "span2perfetto"
/* Bytes between starts of writeback of a temporary file (ssp_out_writeback). */
#define WRITEBACK_EVERY (8u << 20)

enum fmt { F_AUTO, F_JSON, F_PROTO };

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: span2perfetto [-hqVv] [-f json|proto] [-o FILE] "
	    "[-w N] [--force] [--stats]\n                     [SPANS|-]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Convert a simspan span stream (plain or zstd) into a trace for "
		    "Perfetto\n"
		    "(ui.perfetto.dev) and chrome://tracing.\n"
		    "  -f, --format F  json: Chrome Trace Event JSON; proto: "
		    "Perfetto protobuf\n"
		    "                  (default: proto when FILE ends in .pftrace "
		    "or\n"
		    "                  .perfetto-trace, else json)\n"
		    "  -o, --output FILE  write to FILE (.zst compresses) instead "
		    "of stdout;\n"
		    "                  written to a temporary file and renamed when "
		    "complete\n"
		    "  -w, --window N  spans held to put them in time order (%u)\n"
		    "      --force     write protobuf to a terminal\n"
		    "      --stats     print counts to stderr (spans, tracks, flows, "
		    "window)\n"
		    "  -v, --verbose   --stats plus the wall time\n"
		    "  -q, --quiet     no progress line, no notes on the window\n"
		    "  -h, --help      this help\n"
		    "  -V, --version   version and library versions\n"
		    "Memory is bounded by the window and the open spans.  See "
		    "span2perfetto(1),\nformats/perfetto.md.\n", SSP_TRACKS_WINDOW);
	if (code == 0 && ssp_cli_close_stdout(PROG) != 0)
		code = SSP_EXIT_FAIL;
	exit(code);
}

static int
ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* The format FILE's name asks for (a .zst suffix is looked through). */
static enum fmt
fmt_of(const char *path)
{
	size_t n;

	if (path == NULL || strcmp(path, "-") == 0)
		return F_JSON;
	n = strlen(path);
	if (ends_with(path, n, ".zst"))
		n -= 4;
	return ends_with(path, n, ".pftrace") ||
	    ends_with(path, n, ".perfetto-trace") ? F_PROTO : F_JSON;
}

static void
fail(const char *msg)
{
	ssp_outfile_abort();
	errx(SSP_EXIT_FAIL, "%s", msg);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(getenv("SSP_CPUTIME") ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
print_stats(const struct ssp_tracks_stats *s, const char *dest,
    uint64_t bytes, uint64_t ns, int verbose)
{
	fprintf(stderr, "%s: %" PRIu64 " spans, %" PRIu64 " links, %" PRIu64
	    " member events (not exported), %" PRIu64 " records of unknown "
	    "types\n", PROG, s->spans, s->links, s->events, s->other);
	fprintf(stderr, "%s: %zu processes, %zu tracks (%" PRIu64 " overflow "
	    "lanes)\n", PROG, s->procs, s->tracks, s->lanes);
	fprintf(stderr, "%s: %" PRIu64 " children nested in their parent, %"
	    PRIu64 " parent flows, %" PRIu64 " link flows (%" PRIu64 " as flow "
	    "events); %" PRIu64 " parents and %" PRIu64 " links not in the "
	    "input\n", PROG, s->nested, s->flows, s->link_flows,
	    s->flow_events, s->parents_missing, s->links_unmatched);
	fprintf(stderr, "%s: window: %" PRIu64 " spans held at most, %" PRIu64
	    " laid out after it had passed their start\n", PROG, s->held,
	    s->late);
	fprintf(stderr, "%s: %" PRIu64 " bytes written to %s\n", PROG, bytes,
	    dest);
	if (verbose)
		fprintf(stderr, "%s: wall time %.3f s\n", PROG, (double)ns / 1e9);
}

/* What the window could not keep exact, once, with the fix. */
static void
print_notes(const struct ssp_tracks_stats *s)
{
	if (s->late > 0)
		warnx("%" PRIu64 " spans came after the window had passed their "
		    "start: written out of time order and never nested; a "
		    "larger --window orders them", s->late);
	if (s->flow_events > 0)
		warnx("%" PRIu64 " flows were found after their source slice was "
		    "written: written as flow events, which bind to the slice "
		    "open at that time (a zero-length or nested one may take "
		    "it); a larger --window keeps them on the slices",
		    s->flow_events);
	if (s->forgotten > 0)
		warnx("%" PRIu64 " flows left out: their parent or link target "
		    "came too long before them to be remembered; a larger "
		    "--window keeps them", s->forgotten);
}

/* -f's argument is a format; before 0.2, -f was --force and what came
 * next another option or the input file. */
static int
is_format(const char *s)
{
	return s[0] != '-' && access(s, F_OK) != 0;
}

int
main(int argc, char **argv)
{
	enum { O_FORCE = 256, O_STATS };
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, O_FORCE },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", no_argument, NULL, O_STATS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "window", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	enum fmt fmt = F_AUTO;
	const char *outpath = NULL;
	static char force_opt[] = "--force";
	int ch, force = 0, verbose = 0, stats = 0, quiet = 0, got, to_file;
	struct ssp_err e = { 0 };
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_out *out;
	struct ssp_tracks *t;
	struct ssp_tracks_opts to = { 0 };
	struct ssp_perfetto *pf = NULL;
	struct ssp_chrome *cj = NULL;
	struct ssp_progress pg;
	struct ssp_rec r;
	uint64_t bytes, t0;
	const char *errstr;
	int64_t v;

	ssp_cli_respell(argc, argv, "-f", is_format, force_opt, PROG);
	while ((ch = getopt_long(argc, argv, "F:f:ho:qVvw:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'F':	/* until 0.3 */
			ssp_cli_deprecated(PROG, "-F", "-f/--format");
			/* FALLTHROUGH */
		case 'f':
			if (strcmp(optarg, "json") == 0)
				fmt = F_JSON;
			else if (strcmp(optarg, "proto") == 0 ||
			    strcmp(optarg, "protobuf") == 0)
				fmt = F_PROTO;
			else {
				warnx("--format %s: not json or proto", optarg);
				usage(SSP_EXIT_USAGE);
			}
			break;
		case O_FORCE: force = 1; break;
		case 'h': usage(0); break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = 1; break;
		case 'V': ssp_cli_version(PROG, (char *)NULL); return 0;
		case 'v': verbose = stats = 1; break;
		case O_STATS: stats = 1; break;
		case 'w':
			if (ssp_num_strtonum(optarg, 1, 1 << 26, &v, &errstr) != 0) {
				warnx("--window %s: %s (1 to %d spans)", optarg,
				    errstr, 1 << 26);
				usage(SSP_EXIT_USAGE);
			}
			to.window = (size_t)v;
			break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(SSP_EXIT_USAGE);
	if (fmt == F_AUTO)
		fmt = fmt_of(outpath);
	to_file = outpath != NULL && strcmp(outpath, "-") != 0;
	if (fmt == F_PROTO && !to_file &&
	    ssp_cli_refuse_tty(STDOUT_FILENO, force, PROG) != 0)
		return SSP_EXIT_FAIL;

	t0 = now_ns();
	if (ssp_in_open(&in, argc == 1 ? argv[0] : NULL, SSP_IN_ZSTD_AUTO, NULL,
	    &e) != SSP_OK || ssp_span_reader_open(&rr, in, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	/* the trace is written as it is laid out: to a temporary file, which
	 * bad input removes, or to stdout */
	if (to_file) {
		const char *tmp = ssp_outfile_begin(outpath);

		if (tmp == NULL)
			err(SSP_EXIT_FAIL, "%s: cannot create a temporary file",
			    outpath);
		if (ssp_out_open_as(&out, tmp, outpath, ends_with(outpath,
		    strlen(outpath), ".zst") ? SSP_OUT_ZDEFAULT : 0, &e) != SSP_OK)
			fail(e.msg);
		if (tmp != outpath)	/* fsynced by the commit */
			ssp_out_writeback(out, WRITEBACK_EVERY);
	} else if (ssp_out_open(&out, NULL, 0, &e) != SSP_OK) {
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	if (fmt == F_PROTO) {
		if ((pf = ssp_perfetto_new(rr)) == NULL)
			fail("out of memory");
		to.args = ssp_perfetto_args;
		to.emit = ssp_perfetto_emit;
		to.ctx = pf;
		to.flows = SSP_TRACKS_FLOWS_PROTO;
		if (ssp_perfetto_start(pf, out, &e) != SSP_OK)
			goto bad;
	} else {
		if ((cj = ssp_chrome_new(PROG " " SSP_VERSION, out)) == NULL)
			fail("out of memory");
		to.args = ssp_chrome_args;
		to.emit = ssp_chrome_emit;
		to.ctx = cj;
		to.flows = SSP_TRACKS_FLOWS_JSON;
	}
	if (ssp_tracks_open(&t, rr, &to, &e) != SSP_OK)
		goto bad;
	ssp_progress_init_as(&pg, ssp_in_size(in), "records", "spans", quiet);
	while ((got = ssp_rec_rd_next(rr, &r, &e)) == 1) {
		if (ssp_tracks_add(t, &r, &e) != SSP_OK)
			goto bad;
		ssp_progress_tick(&pg, ssp_in_rawpos(in), ssp_rec_rd_records(rr),
		    ssp_tracks_stats(t)->spans);
	}
	ssp_progress_done(&pg);
	if (got < 0 || ssp_tracks_finish(t, &e) != SSP_OK ||
	    (pf != NULL ? ssp_perfetto_finish(pf, &e) :
	    ssp_chrome_finish(cj, &e)) != SSP_OK)
		goto bad;
	bytes = ssp_out_pos(out);
	if (ssp_out_close(out, &e) != SSP_OK)
		fail(e.msg);
	if (to_file && ssp_outfile_commit() != 0)
		err(SSP_EXIT_FAIL, "%s: output not written", outpath);
	if (stats)
		print_stats(ssp_tracks_stats(t), outpath != NULL ? outpath :
		    "stdout", bytes, now_ns() - t0, verbose);
	if (!quiet)
		print_notes(ssp_tracks_stats(t));
	ssp_tracks_free(t);
	ssp_perfetto_free(pf);
	ssp_chrome_free(cj);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	return ssp_cli_close_stdout(PROG) != 0 ? SSP_EXIT_FAIL : SSP_EXIT_OK;
bad:
	ssp_out_abort(out);
	fail(e.msg);
	return SSP_EXIT_FAIL;
}
