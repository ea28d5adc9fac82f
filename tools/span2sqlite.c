/*
 * span2sqlite: load a span stream into an SQLite database, as a new run.
 * A sink: spans --> span2sqlite --> SQLite.  The database is updated
 * completely or not at all, whatever happens to the input or to this
 * process: a new database is written whole into a temporary file and
 * renamed into place (tools/common/outfile.h), a run is appended in one
 * SQLite transaction (sqlite/sqlite.h).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "io/in.h"
#include "sqlite/sqlite.h"
#include "stream/frame.h"
#include "stream/span.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"
#include "tools/common/progress.h"

#define PROG "span2sqlite"

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: span2sqlite [-ehiqVv] [--events] [--force] [--insert] "
	    "[--run NAME] [--stats] DB\n                   [SPANS]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Load a simspan span stream (plain or zstd-compressed) into the\n"
		    "SQLite database DB as a new run; DB is created or appended to.\n"
		    "  -e, --events    also load the member events of the spans\n"
		    "      --force     replace DB even when it is write-protected\n"
		    "  -i, --insert    load with SQL INSERTs, not written directly in the\n"
		    "                  file format (slower)\n"
		    "  -r, --run NAME  name of the run (default: input name@UTC time)\n"
		    "      --stats     print counts to stderr (what was loaded)\n"
		    "  -v, --verbose   --stats plus the time taken\n"
		    "  -q, --quiet     no progress line\n"
		    "  -h, --help      this help\n"
		    "  -V, --version   version and library versions\n"
		    "With no SPANS, or when SPANS is -, read standard input.\n"
		    "See span2sqlite(1) and formats/sqlite.md.\n");
	exit(ssp_cli_done(PROG, code));
}

/* Whether path is a regular file that starts like a span stream (plain
 * or zstd-compressed).  Anything else is never opened: a FIFO would
 * block. */
static int
db_is_spans(const char *path)
{
	static const uint8_t zstd[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	uint8_t m[SSP_MAGIC_LEN];
	struct stat st;
	ssize_t got;
	int fd;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 0;
	got = read(fd, m, sizeof(m));
	close(fd);
	return (got == (ssize_t)sizeof(m) && memcmp(m, ssp_frame_magic_spans,
	    sizeof(m)) == 0) || (got >= 4 && memcmp(m, zstd, 4) == 0);
}

struct tick_ctx {
	struct ssp_progress p;
	struct ssp_in *in;
};

static void
tick(void *ctx, const struct ssp_load_stats *st)
{
	struct tick_ctx *t = ctx;

	ssp_progress_draw(&t->p, ssp_in_rawpos(t->in), st->records,
	    st->spans);
}

static void
print_stats(const struct ssp_load_stats *st, const char *db,
    const char *input, int events, double load_s, double total_s, int verbose)
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
	if (verbose)
		fprintf(stderr, "%s: %.2f s load (%.0f spans/s), %.2f s total (%.0f "
	    "spans/s), %s\n", PROG, load_s, load_s > 0 ? st->spans / load_s :
	    0.0, total_s, total_s > 0 ? st->spans / total_s : 0.0,
	    st->direct ? "rows written directly" : "rows inserted");
}

int
main(int argc, char **argv)
{
	enum { O_FORCE = 256, O_STATS };
	static const struct option longopts[] = {
		{ "events", no_argument, NULL, 'e' },
		{ "force", no_argument, NULL, O_FORCE },
		{ "help", no_argument, NULL, 'h' },
		{ "insert", no_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "run", required_argument, NULL, 'r' },
		{ "stats", no_argument, NULL, O_STATS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_load_opts o = { 0 };
	struct ssp_load_stats st;
	struct ssp_err e = { 0 };
	struct ssp_sqlite *d;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct tick_ctx tc;
	const char *db, *input, *work;
	char tool[64];
	uint64_t t0, t1;
	int ch, r, verbose = 0, stats = 0, quiet = 0;
	unsigned flags = 0;

	while ((ch = getopt_long(argc, argv, "efhiqr:vV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e': o.events = 1; break;
		case 'f':	/* until 0.3 */
			ssp_cli_deprecated(PROG, "-f", "--force");
			/* FALLTHROUGH */
		case O_FORCE: flags |= SSP_SQLITE_FORCE; break;
		case 'h': usage(0); break;
		case 'i': o.sql_only = 1; break;
		case 'q': quiet = 1; break;
		case 'r': o.run = optarg; break;
		case 'v': verbose = stats = 1; break;
		case O_STATS: stats = 1; break;
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

	if (ssp_sqlite_open(&d, db, flags, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	/* written whole next to the database: the new database, or the run
	 * to merge into it; removed on a signal or an error */
	if ((work = ssp_outfile_begin(ssp_sqlite_target(d))) == NULL) {
		int saved = errno;

		ssp_sqlite_close(d);
		errno = saved;
		err(SSP_EXIT_FAIL, "%s: cannot create a file next to it", db);
	}
	ssp_progress_init_as(&tc.p, ssp_in_is_compressed(in) ? -1 : ssp_in_size(in),
	    "records", "spans", quiet);
	tc.in = in;
	o.tick = tick;
	o.tick_ctx = &tc;
	r = ssp_sqlite_load(d, work, rr, &o, &st, &e);
	ssp_progress_done(&tc.p);
	if (r != SSP_OK) {
		ssp_outfile_abort();
		ssp_sqlite_close(d);
		/* the sort keys (128 MiB) and caches are reserved up front */
		if (r == SSP_ERR_NOMEM)
			errx(SSP_EXIT_FAIL, "%s (a large load reserves about "
			    "250 MB of address space for its sort keys and "
			    "caches: is ulimit -v lower?)", e.msg);
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	t1 = ssp_clock_ns();
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	if (tc.p.on)	/* a large append takes a while */
		fprintf(stderr, "\rspan2sqlite: writing %s\033[K", db);
	r = ssp_sqlite_commit(d, &e);
	if (tc.p.on)
		fputs("\r\033[K", stderr);
	if (r != SSP_OK) {
		ssp_outfile_abort();
		ssp_sqlite_close(d);
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	/* a new database is synced and renamed into place; a run's file is
	 * removed once merged */
	if (!ssp_sqlite_is_new(d)) {
		ssp_outfile_abort();
	} else if (ssp_outfile_commit() != 0) {
		int saved = errno;

		ssp_sqlite_close(d);
		errno = saved;
		err(SSP_EXIT_FAIL, "%s", db);
	}
	ssp_sqlite_close(d);
	if (stats)
		print_stats(&st, db, input, o.events, (t1 - t0) / 1e9,
		    (ssp_clock_ns() - t0) / 1e9, verbose);
	return 0;
}
