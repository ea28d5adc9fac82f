/*
 * span2sqlite: load a span stream into an SQLite database, as a new run.
 * A sink: spans --> span2sqlite --> SQLite.  The database is written
 * copy-on-write (ssp_sqlite.h): it is either updated completely or not at
 * all, whatever happens to the input or to this process.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "io/in.h"
#include "sqlite/sqlite.h"
#include "stream/frame.h"
#include "stream/span.h"
#include "tools/common/cli.h"
#include "tools/common/progress.h"

#define PROG "span2sqlite"

static char tmp_path[4096];
static volatile sig_atomic_t have_tmp;
static const int cleanup_signals[] = { SIGHUP, SIGINT, SIGPIPE, SIGQUIT,
    SIGTERM, SIGXFSZ };

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: span2sqlite [-efhivV] [--events] [--force] [--insert] "
	    "[--run NAME] [--stats] DB [SPANS]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Load a simspan span stream (plain or zstd-compressed) into the\n"
		    "SQLite database DB as a new run; DB is created or appended to.\n"
		    "  -e, --events    also load the member events of the spans\n"
		    "  -f, --force     replace DB even when it is write-protected\n"
		    "  -i, --insert    load with SQL INSERTs, not written directly in the\n"
		    "                  file format (slower)\n"
		    "  -r, --run NAME  name of the run (default: input name@UTC time)\n"
		    "  -v, --stats     print what was loaded to standard error\n"
		    "  -h, --help      this help\n"
		    "  -V, --version   version and library versions\n"
		    "With no SPANS, or when SPANS is -, read standard input.\n"
		    "See span2sqlite(1) and formats/sqlite.md.\n");
	exit(ssp_cli_done(PROG, code));
}

/* Whether path starts like a span stream (plain or zstd-compressed). */
static int
db_is_spans(const char *path)
{
	static const uint8_t zstd[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	uint8_t m[SSP_MAGIC_LEN];
	FILE *f = fopen(path, "rb");
	size_t got;

	if (f == NULL)
		return 0;
	got = fread(m, 1, sizeof(m), f);
	fclose(f);
	return (got == sizeof(m) && memcmp(m, ssp_frame_magic_spans,
	    sizeof(m)) == 0) || (got >= 4 && memcmp(m, zstd, 4) == 0);
}

/* Remove the temporary database, then die of the signal as usual. */
static void
on_signal(int sig)
{
	if (have_tmp)
		unlink(tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
set_signals(int block)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++)
		sigaddset(&set, cleanup_signals[i]);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

struct tick_ctx {
	struct ssp_progress p;
	struct ssp_in *in;
};

static void
tick(void *ctx, const struct ssp_sqlite_stats *st)
{
	struct tick_ctx *t = ctx;

	ssp_progress_draw(&t->p, ssp_in_rawpos(t->in), st->records,
	    st->spans);
}

static void
print_stats(const struct ssp_sqlite_stats *st, const char *db,
    const char *input, int events, double load_s, double total_s)
{
	unsigned k;

	fprintf(stderr, "%s: %s: run %" PRId64 " '%s' from %s\n", PROG, db,
	    st->run, st->run_name, input);
	fprintf(stderr, "%s: %" PRIu64 " spans, %" PRIu64 " links, %" PRIu64
	    " events, %" PRIu64 " traces written\n", PROG, st->spans, st->links,
	    st->events, st->traces);
	for (k = 0; k < SSP_SK_NKINDS; k++)
		if (st->kinds[k] != 0)
			fprintf(stderr, "%s: %12" PRIu64 " %s\n", PROG, st->kinds[k],
			    ssp_span_kind_name(k));
	if (st->other_kinds != 0)
		fprintf(stderr, "%s: %12" PRIu64 " (kinds newer than this "
		    "program)\n", PROG, st->other_kinds);
	fprintf(stderr, "%s: %" PRIu64 " records read = %" PRIu64 " spans + %"
	    PRIu64 " links + %" PRIu64 " events + %" PRIu64 " events skipped%s + %"
	    PRIu64 " of unknown types skipped\n", PROG, st->records, st->spans,
	    st->links, st->events, st->events_skipped,
	    events ? "" : " (no --events)", st->unknown);
	if (st->late != 0 || st->unresolved != 0)
		fprintf(stderr, "%s: %" PRIu64 " span references resolved after "
		    "the load, %" PRIu64 " to spans not in the input (left NULL)\n",
		    PROG, st->late, st->unresolved);
	if (st->resplit != 0)
		fprintf(stderr, "%s: %" PRIu64 " traces too long or too many "
		    "to split in memory, split from the database at the end\n",
		    PROG, st->resplit);
	fprintf(stderr, "%s: %.2f s load (%.0f spans/s), %.2f s total (%.0f "
	    "spans/s), %s\n", PROG, load_s, load_s > 0 ? st->spans / load_s :
	    0.0, total_s, total_s > 0 ? st->spans / total_s : 0.0,
	    st->direct ? "rows written directly" : "rows inserted");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "events", no_argument, NULL, 'e' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "insert", no_argument, NULL, 'i' },
		{ "run", required_argument, NULL, 'r' },
		{ "stats", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_sqlite_opts o = { 0 };
	struct ssp_sqlite_stats st;
	struct ssp_err e = { 0 };
	struct ssp_sqlite *d;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct tick_ctx tc;
	const char *db, *input;
	char tool[64];
	uint64_t t0, t1;
	int ch, r, verbose = 0;
	unsigned flags = 0;

	while ((ch = getopt_long(argc, argv, "efhir:vV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e': o.events = 1; break;
		case 'f': flags |= SSP_SQLITE_FORCE; break;
		case 'h': usage(0); break;
		case 'i': o.sql_only = 1; break;
		case 'r': o.run = optarg; break;
		case 'v': verbose = 1; break;
		case 'V':
			ssp_cli_version(PROG, "sqlite", sqlite3_libversion(),
			    (char *)NULL);
			return ssp_cli_done(PROG, 0);
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2)
		usage(SSP_EXIT_USAGE);
	db = argv[0];
	input = argc == 2 ? argv[1] : "-";
	if (strcmp(db, "-") == 0 || *db == '\0') {
		warnx("the database must be a file, not '%s'", db);
		usage(SSP_EXIT_USAGE);
	}
	if (o.run != NULL && (*o.run == '\0' ||
	    strlen(o.run) >= sizeof(st.run_name))) {
		warnx("--run: the name must have 1 to %zu bytes",
		    sizeof(st.run_name) - 1);
		usage(SSP_EXIT_USAGE);
	}
	if (db_is_spans(db))	/* span2sqlite spans.sp: DB forgotten */
		errx(SSP_EXIT_USAGE, "%s looks like a span stream, not a database; "
		    "usage: span2sqlite DB [SPANS]", db);
	if (strcmp(input, "-") == 0 && isatty(STDIN_FILENO))
		errx(SSP_EXIT_USAGE, "no SPANS given and standard input is a "
		    "terminal; usage: span2sqlite DB [SPANS]");
	snprintf(tool, sizeof(tool), "%s %s", PROG, SSP_VERSION);
	o.tool = tool;
	o.source = input;
	o.now = time(NULL);

	t0 = ssp_clock_ns();
	/* The input is checked before the database is touched. */
	if (ssp_in_open(&in, input, SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	if (ssp_span_reader_open(&rr, in, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);

	set_signals(1);
	ssp_cli_catch_signals(cleanup_signals, sizeof(cleanup_signals) /
	    sizeof(cleanup_signals[0]), on_signal);
	if (ssp_sqlite_open_flags(&d, db, flags, &e) != SSP_OK) {
		set_signals(0);
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	snprintf(tmp_path, sizeof(tmp_path), "%s", ssp_sqlite_tmp_path(d));
	have_tmp = strlen(ssp_sqlite_tmp_path(d)) < sizeof(tmp_path);
	set_signals(0);

	ssp_progress_init(&tc.p, ssp_in_is_zstd(in) ? -1 : ssp_in_size(in),
	    "spans");
	tc.in = in;
	o.tick = tick;
	o.tick_ctx = &tc;
	if (ssp_sqlite_load(d, rr, &o, &st, &e) != SSP_OK) {
		ssp_progress_done(&tc.p);
		ssp_sqlite_abort(d);
		have_tmp = 0;
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	ssp_progress_done(&tc.p);
	t1 = ssp_clock_ns();
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	if (tc.p.on)	/* indexes of a large new database take a while */
		fprintf(stderr, "\rspan2sqlite: indexing and writing %s\033[K", db);
	r = ssp_sqlite_commit(d, &e);
	have_tmp = 0;
	if (tc.p.on)
		fputs("\r\033[K", stderr);
	if (r != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	if (verbose)
		print_stats(&st, db, input, o.events, (t1 - t0) / 1e9,
		    (ssp_clock_ns() - t0) / 1e9);
	return 0;
}
