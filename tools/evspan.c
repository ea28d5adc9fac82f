/*
 * evspan: build causally linked spans from the event streams of all
 * simulators of one simulation.  A filter: events --> evspan --> spans.
 */
#include <err.h>
#include <stdarg.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/num.h"
#include "config/rules.h"
#include "config/topo.h"
#include "io/out.h"
#include "span/evspan.h"
#include "stream/event.h"
#include "stream/span.h"
#include "tools/common/cli.h"
#include "tools/common/progress.h"
#include "tools/common/warn.h"

enum { OPT_SEED = 256, OPT_STRICT, OPT_THREADS };

/* Warning thresholds (the demo and the samples have no orphans, no
 * backwards events). */
#define WARN_ORPHAN_PCT    10	/* orphans in % of all spans ... */
#define WARN_ORPHAN_MIN    10	/* ... and at least this many */
#define WARN_BACKWARDS_MAX 10	/* per stream */

/* The --stats report (counts add up: in = used + dropped). */
static void
print_stats(const struct ssp_evspan *ev, const struct ssp_topo *t,
    uint64_t t0, FILE *f)
{
	const struct ssp_spanb_stats *st = ssp_evspan_stats(ev);
	uint64_t in = 0, used = 0, dropped = 0, spans = 0, orph = 0;
	double secs = (double)(ssp_clock_ns() - t0) / 1e9;
	size_t i, w = 6;
	unsigned k;

	for (i = 0; i < t->nstreams; i++) {
		in += st->in[i];
		used += st->used[i];
		dropped += st->dropped[i];
		if (strlen(t->streams[i].name) > w)
			w = strlen(t->streams[i].name);
	}
	for (k = 0; k < SSP_SK_NKINDS; k++)
		spans += st->spans[k];
	for (k = 0; k < SSP_CAUSE_N; k++)
		orph += st->orphans[k];
	fprintf(f, "events per stream:\n");
	fprintf(f, "  %-*s %-4s %12s %12s %12s %9s\n", (int)w, "stream", "kind",
	    "in", "used", "dropped", "backwards");
	for (i = 0; i < t->nstreams; i++)
		fprintf(f, "  %-*s %-4s %12" PRIu64 " %12" PRIu64 " %12" PRIu64
		    " %9" PRIu64 "%s\n", (int)w, t->streams[i].name,
		    ssp_event_sim_kind(t->streams[i].kind), st->in[i], st->used[i],
		    st->dropped[i], ssp_evspan_backwards(ev, i),
		    st->in[i] == st->used[i] + st->dropped[i] ? "" : "  (mismatch!)");
	fprintf(f, "  %-*s %-4s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
	    (int)w, "total", "", in, used, dropped);
	fprintf(f, "dropped events by reason:\n");
	for (k = 0; k < SSP_DROP_N; k++)
		if (st->drop[k] != 0)
			fprintf(f, "  %12" PRIu64 "  %s\n", st->drop[k],
			    ssp_spanb_drop_name(k));
	if (dropped == 0)
		fprintf(f, "  %12d  none\n", 0);
	fprintf(f, "spans by kind:\n");
	for (k = 0; k < SSP_SK_NKINDS; k++)
		if (st->spans[k] != 0)
			fprintf(f, "  %12" PRIu64 "  %s\n", st->spans[k],
			    ssp_span_kind_name(k));
	fprintf(f, "  %12" PRIu64 "  total\n", spans);
	fprintf(f, "traces: %" PRIu64 " roots, %" PRIu64 " links, %" PRIu64
	    " open, %" PRIu64 " background, %" PRIu64 " incomplete, %" PRIu64
	    " left out (root rule)\n", st->roots, st->links, st->open,
	    st->background, st->incomplete, st->suppressed);
	/* "orphans by missing context: 503 (syscall 500, mmio 3)" */
	fprintf(f, "orphans by missing context: %" PRIu64, orph);
	for (i = 0, k = 0; k < SSP_CAUSE_N; k++)
		if (st->orphans[k] != 0)
			fprintf(f, "%s%s %" PRIu64, i++ == 0 ? " (" : ", ",
			    ssp_spanb_cause_name(k), st->orphans[k]);
	fprintf(f, "%s\ncontexts (unused / over limit / no link):", i ? ")" : "");
	for (k = 0; k < SSP_CTX_N; k++)
		fprintf(f, " %s %" PRIu64 "/%" PRIu64 "/%" PRIu64, ssp_spanb_ctx_name(k),
		    st->ctx_unused[k], st->ctx_overflow[k], st->ctx_nowhere[k]);
	fprintf(f, "\nchecks: %" PRIu64 " mmio offset mismatches (%" PRIu64
	    " contexts skipped), %" PRIu64 " msix vector mismatches, %" PRIu64
	    " dma address changes, %" PRIu64 " duplicate ids, %" PRIu64
	    " packets expired\n", st->mmio_mismatch, st->mmio_skipped,
	    st->msix_mismatch, st->dma_mismatch, st->dup_ids, st->packets_expired);
	fprintf(f, "memory: at most %" PRIu64 " spans held at once\n",
	    ssp_evspan_peak(ev));
	fprintf(f, "time: %.3f s, %.2f M events/s\n", secs,
	    secs > 0 ? (double)in / secs / 1e6 : 0.0);
}

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: evspan -t TOPOLOGY [-efhsVvz] [-o SPANS] [-r RULES] "
	    "[--seed N] [--strict] [--threads N]\n              [NAME=FILE ...]\n");
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
		    "  -f, --force          write binary spans to a terminal; go on when "
		    "a stream header\n"
		    "                       does not fit the topology (name, run)\n"
		    "      --seed N         trace id salt (default: derived from the "
		    "inputs)\n"
		    "      --threads N      1: one thread; 2: read and merge the "
		    "inputs in a second thread\n"
		    "                       (and compress the output in a third)\n"
		    "                       (default: 2 when there is more than one "
		    "CPU)\n"
		    "  -s, --stats          print counts (events in/used/dropped, "
		    "spans, orphans)\n"
		    "      --strict         exit 1 after any warning (orphans and their "
		    "likely cause)\n"
		    "  -v, --verbose        print a one-line summary\n"
		    "  -h, --help           this help\n"
		    "  -V, --version        version and library versions\n"
		    "NAME=FILE reads stream NAME from FILE (- is stdin) instead of "
		    "the topology's file.\n"
		    "See evspan(1), simspan-spans(5).\n");
	exit(ssp_cli_done("evspan", code));
}

/* A stream header that does not fit the topology: an error, or with
 * --force a warning. */
static void __attribute__((format(printf, 4, 5)))
mismatch(struct ssp_warn *w, int force, int *bad, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (force) {
		ssp_warn(w, "%s (--force: going on)", msg);
	} else {
		warnx("%s; --force to go on", msg);
		(*bad)++;
	}
}

static size_t
dirlen(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? (size_t)(s - path) : 0;
}

/* Do the directories of two log paths differ? */
static int
otherdir(const char *a, const char *b)
{
	return dirlen(a) != dirlen(b) || memcmp(a, b, dirlen(a)) != 0;
}

/*
 * Each stream's header against the topology: the stream name it was
 * written as (a mismatch is an error), and whether one stream alone was
 * made from a log in another directory than all the others (a warning:
 * the headers record no run id, and a real SimBricks run keeps its logs
 * in several directories, so the directory is only a hint).  The kinds
 * are checked by ssp_evspan_open.  Returns the number of mismatches
 * reported as errors.
 */
static int
check_headers(const struct ssp_evspan *ev, const struct ssp_topo *t,
    int force, struct ssp_warn *w)
{
	const char *src[SSP_TOPO_MAXSTREAMS], *name;
	size_t i, j, nsrc = 0, idx[SSP_TOPO_MAXSTREAMS], odd, nodd;
	int bad = 0;

	for (i = 0; i < t->nstreams; i++) {
		const struct ssp_rec_rd *rr = ssp_evspan_reader(ev, i);
		const struct ssp_topo_stream *ts = &t->streams[i];
		const char *s;

		if (rr == NULL)
			continue;
		name = ssp_rec_rd_meta(rr, "stream");
		if (name != NULL && strcmp(name, ts->name) != 0)
			mismatch(w, force, &bad, "%s: the header names stream '%s', "
			    "but %s:%u reads the file as stream '%s'%s", ts->file,
			    name, t->name, ts->line, ts->name,
			    ssp_topo_find(t, name) >= 0 ? " (swapped files?)" : "");
		s = ssp_rec_rd_meta(rr, "source");
		if (s == NULL || strcmp(s, "stdin") == 0 || strcmp(s, "-") == 0)
			continue;
		src[nsrc] = s;
		idx[nsrc++] = i;
	}
	/* One stream in another directory than all the others (at least two
	 * of them, so that "the others" say where the run is). */
	if (nsrc < 3)
		return bad;
	for (j = 0; j < 2; j++) {
		for (i = 0, nodd = 0, odd = 0; i < nsrc; i++)
			if (otherdir(src[i], src[j])) {
				odd = i;
				nodd++;
			}
		if (nodd == 1 && (src[odd][0] == '/') == (src[j][0] == '/')) {
			ssp_warn(w, "streams from different runs? %s was made from "
			    "%s, the other %zu streams from logs in the directory "
			    "of %s", t->streams[idx[odd]].name, src[odd], nsrc - 1,
			    src[j]);
			break;
		}
		if (nodd == 0)
			break;
	}
	return bad;
}

/* The total of "blacklist=FILE[...]:N" items in an evfilter description. */
static uint64_t
filtered_blacklist(const char *filter, char *file, size_t fsize)
{
	const char *p = filter, *q, *c;
	uint64_t n = 0;

	file[0] = '\0';
	while ((p = strstr(p, "blacklist=")) != NULL) {
		p += 10;
		q = p + strcspn(p, " |");
		for (c = q; c > p && c[-1] >= '0' && c[-1] <= '9'; c--)
			;
		if (c < q && c > p && c[-1] == ':') {
			n += strtoull(c, NULL, 10);
			if (file[0] == '\0')
				snprintf(file, fsize, "%.*s", (int)strcspn(p, "[:"), p);
		}
		p = q;
	}
	return n;
}

/*
 * After the run: what makes the spans worse than the user would expect.
 * Each finding is one warning; the orphan share (if high) is put in front
 * of the first finding, or stands alone.
 */
static void
check_result(const struct ssp_evspan *ev, const struct ssp_topo *t,
    const struct ssp_rules *r, const char *rules_path, struct ssp_warn *w)
{
	const struct ssp_spanb_stats *st = ssp_evspan_stats(ev);
	char why[8][512], file[256], orph_line[256];
	uint64_t spans = 0, orph = 0, n, nowhere = 0, was;
	size_t i, nwhy = 0, nhost = 0;
	unsigned k;
	int len;

	for (k = 0; k < SSP_SK_NKINDS; k++)
		spans += st->spans[k];
	for (k = 0; k < SSP_CAUSE_N; k++)
		orph += st->orphans[k];
	for (i = 0; i < t->nstreams; i++)
		nhost += t->streams[i].kind == SSP_SIM_GEM5;
	for (i = 0; i < t->nstreams && nwhy < 4; i++) {
		const struct ssp_rec_rd *rr = ssp_evspan_reader(ev, i);
		const char *prod = rr ? ssp_rec_rd_meta(rr, "producer") : NULL;

		if (t->streams[i].kind == SSP_SIM_GEM5 && prod != NULL &&
		    strncmp(prod, "sim2ev ", 7) == 0 &&
		    ssp_rec_rd_meta(rr, "symtabs") == NULL)
			snprintf(why[nwhy++], sizeof(why[0]), "%s has no function "
			    "events — was sim2ev given -s? (its header records no "
			    "symbol table)", t->streams[i].name);
	}
	if (nhost > 0 && ssp_rules_count(r, SSP_FC_SYSCALL_ENTRY) == 0)
		snprintf(why[nwhy++], sizeof(why[0]), rules_path == NULL ?
		    "no rules (-r): no function is a syscall entry, so there are "
		    "no host.syscall spans; give -r rules.csv" : "%s names no "
		    "syscall-entry function: no host.syscall spans",
		    rules_path);
	for (k = SSP_CTX_MMIO; k <= SSP_CTX_MSIX; k++)
		nowhere += st->ctx_nowhere[k];
	if (nowhere > 0 && st->nolink_comp[0] != '\0' &&
	    st->nolink_stream < t->nstreams) {
		size_t h = st->nolink_stream;

		len = snprintf(why[nwhy], sizeof(why[0]), "%" PRIu64 " PCIe "
		    "events of %s found no link: the stream names adapter '%s', "
		    "%s names", nowhere, t->streams[h].name, st->nolink_comp,
		    t->name);
		for (i = 0, n = 0; i < t->npcie && len < (int)sizeof(why[0]); i++)
			if (t->pcie[i].host == h)
				len += snprintf(why[nwhy] + len, sizeof(why[0]) -
				    (size_t)len, "%s'%s' (line %u)", n++ ? ", " : " ",
				    t->pcie[i].adapter ? t->pcie[i].adapter : "",
				    t->pcie[i].line);
		nwhy++;
	}
	for (i = 0; i < t->nstreams && nwhy < 8; i++)
		if ((n = ssp_evspan_backwards(ev, i)) > WARN_BACKWARDS_MAX)
			snprintf(why[nwhy++], sizeof(why[0]), "%s: time goes backwards "
			    "%" PRIu64 " times (evspan needs each stream in time "
			    "order: concatenated or interleaved logs?)",
			    t->streams[i].name, n);
	for (i = 0; i < t->nstreams && nwhy < 8; i++) {
		const struct ssp_rec_rd *rr = ssp_evspan_reader(ev, i);
		const char *f = rr ? ssp_rec_rd_meta(rr, "filter") : NULL;

		if (f != NULL && rules_path != NULL &&
		    (was = filtered_blacklist(f, file, sizeof(file))) >
		    (n = ssp_rules_count(r, SSP_FC_BLACKLIST))) {
			snprintf(why[nwhy++], sizeof(why[0]), "%s was filtered by "
			    "evfilter -b %s (%" PRIu64 " functions), the rules "
			    "now blacklist %" PRIu64 ": the events of functions no "
			    "longer blacklisted are gone; rerun evfilter",
			    t->streams[i].name, file, was, n);
			break;	/* the same for every stream, usually */
		}
	}
	orph_line[0] = '\0';
	if (orph >= WARN_ORPHAN_MIN && orph * 100 >= spans * WARN_ORPHAN_PCT) {
		len = snprintf(orph_line, sizeof(orph_line), "%" PRIu64 " of %"
		    PRIu64 " spans are orphans", orph, spans);
		for (k = 0, n = 0; k < SSP_CAUSE_N && len < (int)sizeof(orph_line);
		    k++)
			if (st->orphans[k] != 0)
				len += snprintf(orph_line + len, sizeof(orph_line) -
				    (size_t)len, "%s%s %" PRIu64, n++ ? ", " : " (",
				    ssp_spanb_cause_name(k), st->orphans[k]);
		if (n && len < (int)sizeof(orph_line))
			snprintf(orph_line + len, sizeof(orph_line) - (size_t)len, ")");
	}
	if (orph_line[0] != '\0')
		ssp_warn(w, "%s: %s", orph_line, nwhy > 0 ? why[0] :
		    "see --stats for the missing contexts");
	for (i = orph_line[0] != '\0'; i < nwhy; i++)
		ssp_warn(w, "%s", why[i]);
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
		{ "strict", no_argument, NULL, OPT_STRICT },
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
	struct ssp_warn w = { "evspan", 0, 0 };
	int ch, force = 0, stats = 0, verbose = 0, zstd = 0, rc, i;
	uint64_t spans, n, t0;
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
		case 'V': ssp_cli_version("evspan", (char *)NULL); return ssp_cli_done("evspan", 0);
		case 'v': verbose = 1; break;
		case 'z': zstd = 1; break;
		case OPT_SEED:
			if (ssp_num_strtou64(optarg, &o.seed, &errstr) != 0) {
				warnx("--seed %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			o.have_seed = 1;
			break;
		case OPT_STRICT: w.strict = 1; break;
		case OPT_THREADS:
			if (ssp_num_strtou64(optarg, &n, &errstr) != 0 ||
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
		if (ssp_topo_override(t, argv[i], &e) != SSP_OK) {
			ssp_topo_free(t);
			errx(SSP_EXIT_USAGE, "%s", e.msg);
		}
	rc = rules_path != NULL ? ssp_rules_load(&r, rules_path, &e) :
	    ssp_rules_new(&r, &e);
	if (rc == SSP_OK)
		rc = ssp_rules_check(r, t, &e);
	if (rc != SSP_OK) {
		ssp_rules_free(r);
		ssp_topo_free(t);
		errx(e.code == SSP_ERR_INVAL ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
		    "%s", e.msg);
	}
	t0 = ssp_clock_ns();
	if (ssp_evspan_open(&ev, t, r, &o, &e) != SSP_OK) {
		ssp_rules_free(r);
		ssp_topo_free(t);
		errx(e.code == SSP_ERR_INVAL || e.code == SSP_ERR_SCHEMA ?
		    SSP_EXIT_USAGE : SSP_EXIT_FAIL, "%s", e.msg);
	}
	if (check_headers(ev, t, force, &w) > 0) {
		ssp_evspan_free(ev);
		/* opened (and truncated) already; nothing was written */
		if (o.out != NULL && strcmp(o.out, "-") != 0)
			unlink(o.out);
		ssp_rules_free(r);
		ssp_topo_free(t);
		return SSP_EXIT_USAGE;
	}

	ssp_progress_init(&prog, -1, "spans");
	rc = ssp_evspan_run(ev, prog.on ? ssp_progress_cb : NULL, &prog,
	    warn_stream, NULL, &e);
	ssp_progress_done(&prog);
	if (rc == SSP_OK)
		rc = ssp_evspan_close(ev, &e);
	if (rc != SSP_OK) {
		warnx("%s", e.msg);
		ssp_evspan_free(ev);
		ssp_rules_free(r);
		ssp_topo_free(t);
		return SSP_EXIT_FAIL;
	}
	if (stats)
		print_stats(ev, t, t0, stderr);
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
	check_result(ev, t, r, rules_path, &w);
	rc = ssp_evspan_failed(ev) > 0 ? SSP_EXIT_FAIL : SSP_EXIT_OK;
	ssp_evspan_free(ev);
	ssp_rules_free(r);
	ssp_topo_free(t);
	if ((o.out == NULL || strcmp(o.out, "-") == 0) &&
	    ssp_cli_close_stdout("evspan") != 0)
		rc = SSP_EXIT_FAIL;
	return ssp_warn_status(&w, rc);
}
