#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "config/shword.h"
#include "tools/common/cli.h"
#include "tools/common/datafile.h"
#include "tools/common/outfile.h"
#include "tools/common/sbrun.h"
#include "tools/common/spawn.h"

#define MAXARGS 64

struct job {
	char *argv[MAXARGS];
	size_t argc;
	char *err;		/* its stderr file, in dir */
	char *errpath;		/* the same, as this process names it */
	char *what;		/* the stage line */
	size_t stream;		/* sim2ev: its stream */
	uint64_t events;	/* sim2ev: events written */
	int status;
};

struct run {
	const struct ssp_sbplan *p;
	const struct ssp_simbricks *r;
	const struct ssp_sbrun_opts *o;
	int tty;		/* stage lines */
	unsigned nwarn;
	struct ssp_buf notes;	/* what is missing, for the summary */
	struct ssp_buf script;	/* commands.sh: what ran */
};

static void
stage(struct run *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
stage(struct run *x, const char *fmt, ...)
{
	va_list ap;

	if (!x->tty)
		return;
	fprintf(stderr, "%s: ", x->o->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A warning of this run: on stderr (unless quiet) and in the summary. */
static void
note(struct run *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
note(struct run *x, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		m = NULL;
	va_end(ap);
	if (m == NULL)
		return;
	if (!x->o->quiet)
		fprintf(stderr, "%s: warning: %s\n", x->o->prog, m);
	ssp_buf_lit(&x->notes, "  - ");
	ssp_buf_put(&x->notes, m, strlen(m));
	ssp_buf_putc(&x->notes, '\n');
	x->nwarn++;
	free(m);
}

static char *
xstrdup(const char *s)
{
	char *d = strdup(s);

	if (d == NULL)
		err(SSP_EXIT_FAIL, NULL);
	return d;
}

static char *
xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
xprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		err(SSP_EXIT_FAIL, NULL);
	return s;
}

/* An input path as the children (run in dir) must name it: absolute. */
static char *
absolute(const char *p)
{
	char *a = realpath(p, NULL);

	return a != NULL ? a : xstrdup(p);
}

static void
arg(struct job *j, char *s)
{
	if (j->argc + 1 >= MAXARGS)
		errx(SSP_EXIT_FAIL, "too many arguments");
	j->argv[j->argc++] = s;
	j->argv[j->argc] = NULL;
}

static void
job_free(struct job *j)
{
	size_t i;

	for (i = 0; i < j->argc; i++)
		free(j->argv[i]);
	free(j->err);
	free(j->errpath);
	free(j->what);
}

/* "FILE[,NAME[,OFFSET]]" with FILE absolute; its NAME (default: the
 * file's base name to the first dot) in name. */
static char *
symspec(const char *spec, char *name, size_t n)
{
	const char *c = strchr(spec, ','), *b;
	char *file, *a, *out;

	file = c != NULL ? strndup(spec, (size_t)(c - spec)) : xstrdup(spec);
	if (file == NULL)
		err(SSP_EXIT_FAIL, NULL);
	if (access(file, R_OK) != 0)
		errx(SSP_EXIT_USAGE, "-s %s: %s: %s", spec, file, strerror(errno));
	a = absolute(file);
	if (c != NULL && c[1] != '\0' && c[1] != ',')
		snprintf(name, n, "%.*s", (int)strcspn(c + 1, ","), c + 1);
	else {
		b = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		snprintf(name, n, "%.*s", (int)strcspn(b, "."), b);
	}
	out = xprintf("%s%s", a, c != NULL ? c : "");
	free(a);
	free(file);
	return out;
}

/* Warnings of a child (its "prog: warning: ..." lines) relayed, counted
 * in *nwarn; the count its --stats report gives: sim2ev's events ("N
 * lines = M events + ...", "= L with events (M events)"), evspan's spans
 * (the "N  total" line after "spans by kind:"). */
static uint64_t
relay(struct run *x, const char *path, unsigned *nwarn)
{
	char line[4096], *w, *q;
	uint64_t events = 0;
	int spans = 0;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, "spans by kind:") == 0)
			spans = 1;
		else if (spans == 1 && (q = strstr(line, "  total")) != NULL &&
		    q[7] == '\0') {
			events = strtoull(line, NULL, 10);
			spans = 2;
		}
		if ((w = strstr(line, ": warning: ")) != NULL) {
			note(x, "%.*s: %s", (int)(w - line), line, w + 11);
			if (nwarn != NULL)
				++*nwarn;
		}
		if ((q = strstr(line, " lines = ")) != NULL) {
			q += 9;
			if (strstr(q, " with events (") != NULL)
				q = strstr(q, " with events (") + 14;
			events = strtoull(q, NULL, 10);
		}
	}
	fclose(f);
	return events;
}

/* The last lines of a failed child's stderr, for the error. */
static void
tail(const struct run *x, const char *path)
{
	char line[4096];
	FILE *f;
	int n = 0;

	if ((f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL && n++ < 20)
		fprintf(stderr, "%s:   %s", x->o->prog, line);
	fclose(f);
}

static void
script_job(struct run *x, const struct job *j)
{
	size_t i;

	for (i = 0; i < j->argc; i++) {
		if (i > 0)
			ssp_buf_putc(&x->script, ' ');
		ssp_shword_quote(&x->script, j->argv[i]);
	}
	ssp_buf_lit(&x->script, " 2>");
	ssp_shword_quote(&x->script, j->err);
	ssp_buf_putc(&x->script, '\n');
}

/* Run jobs[0..n), at most par at once, in the output directory.  The
 * number of jobs that failed (each reported). */
static size_t
run_jobs(struct run *x, struct job *jobs, size_t n, int par)
{
	pid_t pids[64], got;
	size_t which[64], next = 0, running = 0, i, bad = 0;
	int st;

	if (par < 1)
		par = 1;
	if (par > 64)
		par = 64;
	while (next < n || running > 0) {
		while (next < n && running < (size_t)par) {
			struct job *j = &jobs[next];

			stage(x, "%s", j->what);
			script_job(x, j);
			if ((pids[running] = ssp_spawn_start(j->argv, x->o->dir, NULL,
			    j->err)) < 0)
				err(SSP_EXIT_FAIL, "%s", j->argv[0]);
			which[running++] = next++;
		}
		if ((st = ssp_spawn_wait(-1, &got)) < 0)
			err(SSP_EXIT_FAIL, "wait");
		for (i = 0; i < running && pids[i] != got; i++)
			;
		if (i == running)
			continue;	/* not ours */
		jobs[which[i]].status = st;
		if (st != 0) {
			warnx("%s exited with status %d; its messages (%s/%s):",
			    jobs[which[i]].argv[0], st, x->o->dir, jobs[which[i]].err);
			tail(x, jobs[which[i]].errpath);
			bad++;
		}
		pids[i] = pids[running - 1];
		which[i] = which[running - 1];
		running--;
	}
	return bad;
}

/* ---- the summary, from spans.db ---- */

static double
us(sqlite3_int64 ps)
{
	return (double)ps / 1e6;
}

static sqlite3_stmt *
prep(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		warnx("spans.db: %s", sqlite3_errmsg(db));
		return NULL;
	}
	return st;
}

static sqlite3_int64
one(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = prep(db, sql);
	sqlite3_int64 v = 0;

	if (st != NULL && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Traces that cross simulators: their root kind's latency and where its
 * time goes.  SQL over formats/sqlite.md's tables and views. */
#define CROSS "(SELECT count(*) FROM json_each(t.streams)) >= 2"

static void
summary_db(FILE *f, const char *dbpath)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char kind[128] = "";
	sqlite3_int64 nspans, ntraces, ncross, n;

	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		fprintf(f, "  (%s: %s)\n", dbpath, sqlite3_errmsg(db));
		sqlite3_close(db);
		return;
	}
	nspans = one(db, "SELECT count(*) FROM spans");
	ntraces = one(db, "SELECT count(*) FROM traces");
	ncross = one(db, "SELECT count(*) FROM traces AS t WHERE " CROSS);
	fprintf(f, "spans: %lld in %lld traces, %lld of them across simulators\n",
	    (long long)nspans, (long long)ntraces, (long long)ncross);
	if ((st = prep(db, "SELECT root_kind, traces, min_ps, p50_ps, p90_ps, "
	    "p99_ps, max_ps FROM latency ORDER BY traces DESC, root_kind "
	    "LIMIT 8")) != NULL) {
		fprintf(f, "\nend-to-end latency by root kind (us):\n");
		fprintf(f, "  %-14s %7s %10s %10s %10s %10s %10s\n", "root", "traces",
		    "min", "p50", "p90", "p99", "max");
		while (sqlite3_step(st) == SQLITE_ROW)
			fprintf(f, "  %-14s %7lld %10.3f %10.3f %10.3f %10.3f %10.3f\n",
			    sqlite3_column_type(st, 0) == SQLITE_NULL ? "(none)" :
			    (const char *)sqlite3_column_text(st, 0),
			    (long long)sqlite3_column_int64(st, 1),
			    us(sqlite3_column_int64(st, 2)), us(sqlite3_column_int64(st, 3)),
			    us(sqlite3_column_int64(st, 4)), us(sqlite3_column_int64(st, 5)),
			    us(sqlite3_column_int64(st, 6)));
		sqlite3_finalize(st);
	}
	if (ncross == 0) {
		fprintf(f, "\nno trace crosses simulators: see what is missing below\n");
		sqlite3_close(db);
		return;
	}
	if ((st = prep(db, "SELECT root_kind, count(*) FROM traces AS t WHERE "
	    CROSS " GROUP BY root_kind ORDER BY 2 DESC, 1 LIMIT 1")) != NULL) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
			snprintf(kind, sizeof(kind), "%s", sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	if ((st = prep(db, "WITH x AS (SELECT dur_ps, row_number() OVER (ORDER BY "
	    "dur_ps) AS rn, count(*) OVER () AS n FROM traces AS t WHERE "
	    "root_kind = ?1 AND " CROSS ") SELECT n, min(dur_ps), "
	    "min(CASE WHEN rn * 100 >= n * 50 THEN dur_ps END), "
	    "min(CASE WHEN rn * 100 >= n * 90 THEN dur_ps END), "
	    "min(CASE WHEN rn * 100 >= n * 99 THEN dur_ps END), max(dur_ps) "
	    "FROM x")) != NULL) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			n = sqlite3_column_int64(st, 0);
			fprintf(f, "\n%lld %s traces across simulators (us): min %.3f, "
			    "p50 %.3f, p90 %.3f, p99 %.3f, max %.3f\n", (long long)n, kind,
			    us(sqlite3_column_int64(st, 1)), us(sqlite3_column_int64(st, 2)),
			    us(sqlite3_column_int64(st, 3)), us(sqlite3_column_int64(st, 4)),
			    us(sqlite3_column_int64(st, 5)));
		}
		sqlite3_finalize(st);
	}
	if ((st = prep(db, "WITH x AS (SELECT id, dur_ps, idle_ps FROM traces AS t "
	    "WHERE root_kind = ?1 AND " CROSS "), tot AS (SELECT count(*) AS n, "
	    "sum(dur_ps) AS lat, sum(idle_ps) AS idle FROM x) "
	    "SELECT s.stream, st.sim, count(*), 1.0 * sum(s.busy_ps) / tot.n, "
	    "100.0 * sum(s.busy_ps) / tot.lat FROM trace_streams AS s "
	    "JOIN x ON s.trace = x.id JOIN streams AS st ON st.run = s.run AND "
	    "st.name = s.stream, tot GROUP BY s.stream "
	    "UNION ALL SELECT '(idle)', '', n, 1.0 * idle / n, 100.0 * idle / lat "
	    "FROM tot ORDER BY 5 DESC")) != NULL) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		fprintf(f, "  where their time goes, per simulator (busy: a span of "
		    "it open; idle: in flight between simulators):\n");
		fprintf(f, "    %-24s %-6s %7s %12s %6s\n", "stream", "sim", "traces",
		    "avg_busy_us", "pct");
		while (sqlite3_step(st) == SQLITE_ROW)
			fprintf(f, "    %-24s %-6s %7lld %12.3f %6.1f\n",
			    (const char *)sqlite3_column_text(st, 0),
			    (const char *)sqlite3_column_text(st, 1),
			    (long long)sqlite3_column_int64(st, 2),
			    sqlite3_column_double(st, 3) / 1e6,
			    sqlite3_column_double(st, 4));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
}

/* ---- the pipeline ---- */

static char *
in_dir(const struct run *x, const char *name)
{
	return xprintf("%s/%s", x->o->dir, name);
}

static int
write_in_dir(const struct run *x, const char *name, const struct ssp_buf *b)
{
	char *path = in_dir(x, name);
	int rc = ssp_outfile_write(path, b->p, b->len);

	if (rc != 0)
		warn("%s", path);
	free(path);
	return rc;
}

/* What the symbol tables given cover: a warning per gem5 stream that
 * will have no function events or no driver functions. */
static void
check_symtabs(struct run *x, char names[][64], size_t nsym)
{
	const struct ssp_sbplan *p = x->p;
	size_t i, k, j;

	for (i = 0; i < p->nstreams; i++) {
		const struct ssp_sbplan_stream *st = &p->streams[i];

		if (st->sim != SSP_SIM_GEM5 || st->missing)
			continue;
		if (nsym == 0) {
			note(x, "%s: no symbol tables (-s, or symtab in the config "
			    "file): a gem5 stream without them has no function "
			    "events, so no syscall spans; -s vmlinux.syms -s "
			    "%s.syms,%s,<its .text address> (simspan(7), symbol "
			    "tables)", st->name, st->ndriver ? st->driver[0] : "i40e",
			    st->ndriver ? st->driver[0] : "i40e");
			continue;
		}
		for (k = 0; k < st->ndriver; k++) {
			for (j = 0; j < nsym && strcmp(names[j], st->driver[k]) != 0; j++)
				;
			if (j == nsym)
				note(x, "%s: no symbol table named %s for its NIC's "
				    "driver: the driver's functions are no function "
				    "events; -s %s.syms,%s,<cat /sys/module/%s/sections/"
				    ".text in the guest>", st->name, st->driver[k],
				    st->driver[k], st->driver[k], st->driver[k]);
		}
	}
}

static void
sim2ev_job(struct run *x, struct job *j, size_t si, char *const *specs,
    size_t nsym, const char *json)
{
	const struct ssp_sbplan_stream *st = &x->p->streams[si];
	size_t k;

	memset(j, 0, sizeof(*j));
	j->stream = si;
	arg(j, xstrdup("sim2ev"));
	arg(j, xstrdup("-f"));
	arg(j, xstrdup(ssp_event_sim_name(st->sim)));
	arg(j, xstrdup("-n"));
	arg(j, xstrdup(st->name));
	if (st->sim == SSP_SIM_GEM5) {
		for (k = 0; k < nsym; k++) {
			arg(j, xstrdup("-s"));
			arg(j, xstrdup(specs[k]));
		}
		if (st->time_sync) {
			arg(j, xstrdup("--time-offset"));
			arg(j, xstrdup("sync"));
		}
	}
	arg(j, xstrdup("--stats"));
	arg(j, xstrdup("-o"));
	arg(j, xprintf("%s.ev.zst", st->name));
	if (st->log != NULL) {
		arg(j, absolute(st->log));
		j->what = xprintf("sim2ev %s <- %s", st->name, st->log);
	} else {
		arg(j, xstrdup("--simbricks-json"));
		arg(j, xstrdup(json));
		arg(j, xstrdup("--sim"));
		arg(j, xstrdup(ssp_simbricks_sim(x->r, st->idx)->name));
		if (st->which == SSP_SIMBRICKS_STDERR)
			arg(j, xstrdup("--sim-stderr"));
		j->what = xprintf("sim2ev %s <- %s (its captured %s)", st->name,
		    ssp_simbricks_path(x->r), st->which == SSP_SIMBRICKS_STDERR ?
		    "stderr" : "stdout");
	}
	j->err = xprintf("%s.sim2ev.txt", st->name);
	j->errpath = in_dir(x, j->err);
}

static void
tool_job(struct run *x, struct job *j, const char *what, const char *errfile,
    ...)
{
	va_list ap;
	const char *a;

	memset(j, 0, sizeof(*j));
	va_start(ap, errfile);
	while ((a = va_arg(ap, const char *)) != NULL)
		arg(j, xstrdup(a));
	va_end(ap);
	j->what = xstrdup(what);
	j->err = xstrdup(errfile);
	j->errpath = in_dir(x, errfile);
}

int
ssp_sbrun_run(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    const struct ssp_sbrun_opts *o)
{
	struct run x = { p, r, o, isatty(STDERR_FILENO) || o->verbose, 0,
	    SSP_BUF_INIT, SSP_BUF_INIT };
	char names[64][64], *specs[64], *rules, *json, tried[2048], *dbpath;
	struct ssp_buf topo = SSP_BUF_INIT, sum = SSP_BUF_INIT;
	struct job *jobs, tj;
	size_t i, n = 0, nsym = o->nsymtabs, bad;
	uint64_t nspans;
	int rc = SSP_EXIT_OK;
	char *text;
	size_t len;
	FILE *mf;

	if (nsym > 64)
		errx(SSP_EXIT_USAGE, "more than 64 symbol tables");
	for (i = 0; i < nsym; i++)
		specs[i] = symspec(o->symtabs[i], names[i], sizeof(names[i]));
	if ((rules = ssp_datafile_find("rules", o->rules != NULL ? o->rules :
	    p->rules, tried, sizeof(tried))) == NULL)
		errx(SSP_EXIT_USAGE, "%s: no such rules file (looked at %s)",
		    o->rules != NULL ? o->rules : p->rules, tried);
	text = absolute(rules);
	free(rules);
	rules = text;
	json = absolute(ssp_simbricks_path(r));
	if (mkdir(o->dir, 0777) != 0 && errno != EEXIST)
		err(SSP_EXIT_FAIL, "%s", o->dir);
	for (i = 0; i < p->nwarn; i++)
		note(&x, "%s", p->warn[i]);
	for (i = 0; i < o->nextra; i++)
		note(&x, "%s", o->extra[i]);
	check_symtabs(&x, names, nsym);
	if (ssp_sbplan_present(p) == 0) {
		warnx("%s: nothing can be traced: no simulator of the run has a log "
		    "simspan can read (the warnings above say why and what to "
		    "change)", ssp_simbricks_path(r));
		rc = SSP_EXIT_FAIL;
		goto out;
	}
	if (ssp_sbplan_topology(p, r, 1, &topo) != 0 ||
	    write_in_dir(&x, "topology.csv", &topo) != 0)
		errx(SSP_EXIT_FAIL, "%s/topology.csv: cannot write it", o->dir);
	ssp_buf_lit(&x.script, "#!/bin/sh\n# What simspan-simbricks run ran for ");
	ssp_buf_put(&x.script, json, strlen(json));
	ssp_buf_lit(&x.script, ";\n# sh commands.sh in this directory runs it again.\nset -eu\n");

	/* phase 1 */
	if ((jobs = calloc(p->nstreams + 1, sizeof(*jobs))) == NULL)
		err(SSP_EXIT_FAIL, NULL);
	for (i = 0; i < p->nstreams; i++)
		if (!p->streams[i].missing)
			sim2ev_job(&x, &jobs[n++], i, specs, nsym, json);
	bad = run_jobs(&x, jobs, n, o->jobs);
	for (i = 0; i < n; i++) {
		unsigned said = 0;

		jobs[i].events = relay(&x, jobs[i].errpath, &said);
		if (jobs[i].status == 0 && jobs[i].events == 0 && said == 0)
			note(&x, "%s: no events (%s)", p->streams[jobs[i].stream].name,
			    jobs[i].errpath);
	}
	if (bad > 0) {
		rc = SSP_EXIT_FAIL;
		goto jobs_out;
	}

	/* phase 2 and the sinks */
	tool_job(&x, &tj, "evspan -> spans.sp", "evspan.txt", "evspan", "-t",
	    "topology.csv", "-r", rules, "-e", "--stats", "-o", "spans.sp",
	    (char *)NULL);
	bad = run_jobs(&x, &tj, 1, 1);
	nspans = relay(&x, tj.errpath, NULL);
	job_free(&tj);
	if (bad > 0) {
		rc = SSP_EXIT_FAIL;
		goto jobs_out;
	}
	if (nspans == 0) {	/* no database of nothing */
		write_in_dir(&x, "commands.sh", &x.script);
		warnx("%s: no spans: nothing could be traced (the warnings above "
		    "say what is missing)", ssp_simbricks_path(r));
		rc = SSP_EXIT_FAIL;
		goto jobs_out;
	}
	dbpath = in_dir(&x, "spans.db");
	if (unlink(dbpath) != 0 && errno != ENOENT)
		err(SSP_EXIT_FAIL, "%s", dbpath);
	ssp_buf_lit(&x.script, "rm -f spans.db\n");
	tool_job(&x, &tj, "span2sqlite -> spans.db", "span2sqlite.txt",
	    "span2sqlite", "--run", ssp_simbricks_exp_name(r), "spans.db",
	    "spans.sp", (char *)NULL);
	bad = run_jobs(&x, &tj, 1, 1);
	job_free(&tj);
	tool_job(&x, &tj, "span2html -> spans.html", "span2html.txt", "span2html",
	    "-o", "spans.html", "spans.sp", (char *)NULL);
	bad += run_jobs(&x, &tj, 1, 1);
	job_free(&tj);
	if (write_in_dir(&x, "commands.sh", &x.script) != 0)
		rc = SSP_EXIT_FAIL;
	if (bad > 0) {
		free(dbpath);
		rc = SSP_EXIT_FAIL;
		goto jobs_out;
	}

	/* the summary: on stdout and in summary.txt */
	if ((mf = open_memstream(&text, &len)) == NULL)
		err(SSP_EXIT_FAIL, NULL);
	fprintf(mf, "%s (%s, %s %s)\n", ssp_simbricks_path(r),
	    ssp_simbricks_format(r) == SSP_SIMBRICKS_SYMPHONY ? "symphony" : "2022",
	    ssp_simbricks_format(r) == SSP_SIMBRICKS_SYMPHONY ? "simulation" :
	    "experiment", ssp_simbricks_exp_name(r));
	fprintf(mf, "streams: %zu of %zu simulators\n", n, ssp_simbricks_nsims(r));
	fprintf(mf, "  %-24s %-6s %10s  %s\n", "stream", "sim", "events", "from");
	for (i = 0; i < n; i++) {
		const struct ssp_sbplan_stream *st = &p->streams[jobs[i].stream];

		fprintf(mf, "  %-24s %-6s %10" PRIu64 "  %s%s\n", st->name,
		    ssp_event_sim_name(st->sim), jobs[i].events, st->log != NULL ?
		    st->log : "captured ", st->log != NULL ? "" :
		    st->which == SSP_SIMBRICKS_STDERR ? "stderr" : "stdout");
	}
	summary_db(mf, dbpath);
	free(dbpath);
	fprintf(mf, "\nwhat is missing or degraded:\n%s",
	    x.notes.len > 0 ? "" : "  nothing\n");
	fwrite(x.notes.p, 1, x.notes.len, mf);
	fprintf(mf, "\nin %s: topology.csv, *.ev.zst, spans.sp, spans.db, "
	    "spans.html, commands.sh, summary.txt, *.txt (each tool's messages)\n",
	    o->dir);
	if (fclose(mf) != 0)
		err(SSP_EXIT_FAIL, NULL);
	fwrite(text, 1, len, stdout);
	ssp_buf_put(&sum, text, len);
	free(text);
	if (write_in_dir(&x, "summary.txt", &sum) != 0)
		rc = SSP_EXIT_FAIL;
	{
		char *db = in_dir(&x, "spans.db");
		sqlite3 *h;
		sqlite3_int64 ns = 0;

		if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
			ns = one(h, "SELECT count(*) FROM spans");
		sqlite3_close(h);
		free(db);
		if (ns == 0) {
			warnx("%s: no spans: nothing could be traced (see what is "
			    "missing above)", ssp_simbricks_path(r));
			rc = SSP_EXIT_FAIL;
		}
	}
jobs_out:
	for (i = 0; i < n; i++)
		job_free(&jobs[i]);
	free(jobs);
out:
	for (i = 0; i < nsym; i++)
		free(specs[i]);
	free(rules);
	free(json);
	ssp_buf_free(&topo);
	ssp_buf_free(&sum);
	ssp_buf_free(&x.notes);
	ssp_buf_free(&x.script);
	if (rc == SSP_EXIT_OK && o->strict && x.nwarn > 0)
		rc = SSP_EXIT_FAIL;
	return rc;
}
