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

#include "base/clock.h"
#include "base/num.h"
#include "config/rules.h"
#include "config/topo.h"
#include "io/out.h"
#include "span/evcheck.h"
#include "span/evspan.h"
#include "stream/event.h"
#include "stream/span.h"
#include "tools/common/cli.h"
#include "tools/common/datafile.h"
#include "tools/common/outfile.h"
#include "tools/common/progress.h"
#include "tools/common/warn.h"

enum { OPT_SEED = 256, OPT_STRICT, OPT_THREADS, OPT_FORCE, OPT_STATS,
    OPT_DECODE_ALL };

/* The --stats report (counts add up: in = used + dropped). */
/* The kernel context model's counters (SPEC §3b, evspan(1) --stats). */
static void
print_kctx(const struct ssp_spanb_stats *st, FILE *f)
{
	const struct ssp_kctx_stats *k = &st->kst;
	unsigned c, i;

	fprintf(f, "\nkernel contexts: %" PRIu64 " syscalls, %" PRIu64 " irqs, %"
	    PRIu64 " softirqs, %" PRIu64 " resumes, %" PRIu64 " app spans opened",
	    k->opened[SSP_KCTX_SYSCALL], k->opened[SSP_KCTX_IRQ],
	    k->opened[SSP_KCTX_SOFTIRQ], k->opened[SSP_KCTX_RESUME],
	    k->opened[SSP_KCTX_APP]);
	fprintf(f, "\n  unbalanced: %" PRIu64 " irq-exit without entry, %" PRIu64
	    " softirq without irq, %" PRIu64 " sched-in with nothing to resume, %"
	    PRIu64 " wakeup with nothing asleep, %" PRIu64 " syscall-exit "
	    "without syscall, %" PRIu64 " closed for a missing exit, %" PRIu64
	    " open at the end, %" PRIu64 " wakeups dropped (more than "
	    "sleepers)", k->irq_exit_unmatched, k->softirq_no_irq,
	    k->sched_in_empty, k->wakeup_none, k->exit_unmatched,
	    k->closed_unbalanced, k->open_at_end, k->wakeup_dropped);
	fprintf(f, "\n  kept in place: %" PRIu64 " syscall entries inside a "
	    "context, %" PRIu64 " softirqs inside a syscall, %" PRIu64
	    " preempted syscalls resumed", k->entry_in_syscall,
	    k->softirq_in_task, k->resumed_unwoken);
	if (k->resume_retracted != 0)
		fprintf(f, "\n  taken back: %" PRIu64 " sched-ins of ksoftirqd "
		    "first taken for a syscall's", k->resume_retracted);
	fprintf(f, "\n  limits: %" PRIu64 " irq nesting, %" PRIu64 " suspended, %"
	    PRIu64 " pending irqs, %" PRIu64 " cpus", k->stack_overflow,
	    k->suspend_overflow, k->raised_overflow, k->cpu_limit);
	fprintf(f, "\n  rx: %" PRIu64 " delivered by a wakeup, %" PRIu64
	    " batched as msix links; %" PRIu64 " resume links left out (cycle)",
	    st->rx_woken, st->rx_batched, st->links_cyclic);
	if (st->rx_wb_none != 0)
		fprintf(f, "\n  rx: %" PRIu64 " descriptor write-backs with no "
		    "frame waiting (parent: the completed one's)", st->rx_wb_none);
	if (st->ipi_dropped != 0)
		fprintf(f, "\n  ipi: %" PRIu64 " sent and never taken (dropped)",
		    st->ipi_dropped);
	fprintf(f, "\n  causes:");
	for (i = 0, c = SSP_CAUSE_COLUMBO; c < SSP_CAUSE_N; c++)
		if (st->causes[c] != 0)
			fprintf(f, "%s %s %" PRIu64, i++ ? "," : "",
			    ssp_spanb_cause_name(c), st->causes[c]);
	if (i == 0)
		fprintf(f, " none");
}

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
	for (k = 0; k < (st->kctx ? SSP_CTX_N : SSP_CTX_IRQ); k++)
		fprintf(f, " %s %" PRIu64 "/%" PRIu64 "/%" PRIu64, ssp_spanb_ctx_name(k),
		    st->ctx_unused[k], st->ctx_overflow[k], st->ctx_nowhere[k]);
	if (st->kctx)
		print_kctx(st, f);
	fprintf(f, "\nchecks: %" PRIu64 " mmio offset mismatches (%" PRIu64
	    " contexts skipped), %" PRIu64 " msix vector mismatches, %" PRIu64
	    " dma address changes, %" PRIu64 " duplicate ids, %" PRIu64
	    " packets expired\n", st->mmio_mismatch, st->mmio_skipped,
	    st->msix_mismatch, st->dma_mismatch, st->dup_ids, st->packets_expired);
	fprintf(f, "memory: at most %" PRIu64 " spans held at once\n",
	    ssp_evspan_peak(ev));
	fprintf(f, "reading: %" PRIu64 " of the dropped events skipped by type, "
	    "not decoded\n", st->skipped);
	fprintf(f, "time: %.3f s, %.2f M events/s\n", secs,
	    secs > 0 ? (double)in / secs / 1e6 : 0.0);
}

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

/*
 * Print the findings of ssp_evcheck_*: a stream header that does not fit
 * the topology is an error, or with --force a warning.  Returns the errors.
 */
static size_t
print_checks(const struct ssp_evcheck *c, int force, struct ssp_warn *w)
{
	size_t i, bad = 0;

	for (i = 0; i < c->n; i++)
		if (!c->m[i].error)
			ssp_warn(w, "%s", c->m[i].msg);
		else if (force)
			ssp_warn(w, "%s (--force: going on)", c->m[i].msg);
		else {
			warnx("%s; --force to go on", c->m[i].msg);
			bad++;
		}
	return bad;
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
	char *rules_found = NULL, tried[2048];
	struct ssp_topo *t = NULL;
	struct ssp_rules *r = NULL;
	struct ssp_evspan *ev = NULL;
	struct ssp_progress prog;
	struct ssp_err e = { 0 };
	struct ssp_warn w = { "evspan", 0, 0 };
	struct ssp_evcheck chk = { 0, 0, NULL };
	int ch, quiet = 0, force = 0, stats = 0, verbose = 0, zstd = 0, rc, i;
	uint64_t spans, n, t0;
	unsigned k;

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
	if ((rc = ssp_topo_load(&t, topo_path, &e)) != SSP_OK)
		errx(rc == SSP_ERR_INVAL ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
		    "%s", e.msg);
	for (i = 0; i < argc; i++)
		if (ssp_topo_override(t, argv[i], &e) != SSP_OK) {
			ssp_topo_free(t);
			errx(SSP_EXIT_USAGE, "%s", e.msg);
		}
	/* a bare name the current directory lacks: the installed rules or
	 * the source tree's (-r linux-i40e.csv) */
	if (rules_path != NULL && access(rules_path, F_OK) != 0 &&
	    strchr(rules_path, '/') == NULL) {
		if ((rules_found = ssp_datafile_find("rules", rules_path, tried,
		    sizeof(tried))) == NULL) {
			ssp_topo_free(t);
			errx(SSP_EXIT_FAIL, "%s: no such rules file (looked at %s)",
			    rules_path, tried);
		}
		rules_path = rules_found;
	}
	rc = rules_path != NULL ? ssp_rules_load(&r, rules_path, &e) :
	    ssp_rules_new(&r, &e);
	if (rc == SSP_OK)
		rc = ssp_rules_check(r, t, &e);
	if (rc != SSP_OK) {
		ssp_rules_free(r);
		ssp_topo_free(t);
		errx(rc == SSP_ERR_INVAL ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
		    "%s", e.msg);
	}
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
	rc = print_checks(&chk, force, &w) > 0;
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
	if (ssp_evcheck_result(&chk, ev, t, r, rules_path, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	print_checks(&chk, force, &w);
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
