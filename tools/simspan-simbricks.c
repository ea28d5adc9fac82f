/*
 * simspan-simbricks: a SimBricks run (the 2022 orchestrator's
 * out/<exp>-<run>.json, or a symphony run directory and its
 * output/out.json) to what simspan needs.  A source:
 *   run --> simspan-simbricks --> topology.csv + commands.sh
 *   run --> simspan-simbricks run --> event streams, spans, spans.db,
 *           spans.html and a summary (the other tools, run as processes)
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/num.h"
#include "config/sbcmds.h"
#include "config/sbplan.h"
#include "config/sbsim.h"
#include "config/simbricks.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"
#include "tools/common/sbrun.h"

#define PROG "simspan-simbricks"
#define MAXLIST 256

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: simspan-simbricks [-chqV] [-d dir] [-o file] [--force] "
	    "[--json-name path]\n"
	    "                         [--log sim=file]... [--logs dir] "
	    "[--simulation file]\n"
	    "                         [--stats] [--strict] [--system file] [run]\n"
	    "       simspan-simbricks run [-qv] [-C config] [-d dir] [-j n] "
	    "[-r rules]\n"
	    "                         [-s symtab]... [--force] [--log sim=file]... "
	    "[--logs dir]\n"
	    "                         [--simulation file] [--stats] [--strict] "
	    "[--system file] run\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Read a SimBricks run: a 2022 out/<exp>-<run>.json, or a symphony run\n"
		    "directory (<workdir>/<simulation>/<instantiation>/) or its output/out.json.\n"
		    "Without 'run': write the topology and the sim2ev commands.\n"
		    "  -c, --commands        print the commands script instead of the topology\n"
		    "  -d, --dir DIR         write DIR/topology.csv and DIR/commands.sh\n"
		    "  -o, --output FILE     write to FILE instead of standard output\n"
		    "      --json-name PATH  the run's path as the commands name it\n"
		    "                        (default: its absolute path)\n"
		    "With 'run': trace it, from the logs to spans.db, spans.html and a summary.\n"
		    "  -C, --config FILE     symtab, rules, logs and log lines (simspan-simbricks(1))\n"
		    "  -d, --dir DIR         where everything goes (default: simspan-out)\n"
		    "  -j, --jobs N          sim2ev processes at once (default: 2)\n"
		    "  -r, --rules RULES     a rules file, or a name in share/simspan/rules\n"
		    "                        (default: the NIC's, linux-i40e.csv)\n"
		    "  -s, --symtab FILE[,NAME[,OFFSET]]\n"
		    "                        symbol table for every gem5 host (sim2ev -s)\n"
		    "  -v, --verbose         --stats plus a line per stage also when stderr\n"
		    "                        is no terminal\n"
		    "Both:\n"
		    "      --force           trace a symphony run that was interrupted\n"
		    "      --log SIM=FILE    simulator SIM's log is FILE\n"
		    "      --logs DIR        look for the logs the run names in DIR first\n"
		    "      --simulation FILE symphony's simulation.json: check the run's\n"
		    "                        simulators against it (two with one name, ...)\n"
		    "      --system FILE     with --simulation, system.json: check the links\n"
		    "      --stats           print counts to stderr (streams, links, logs)\n"
		    "      --strict          refuse a run without synchronization; with\n"
		    "                        'run', any warning makes the exit status 1\n"
		    "  -q, --quiet           no warnings about what the logs lack\n"
		    "  -h, --help            this help\n"
		    "  -V, --version         version and library versions\n"
		    "Without RUN, or when it is -, the JSON comes from standard input.\n"
		    "See simspan-simbricks(1).\n");
	exit(ssp_cli_done(PROG, code));
}

/* Write b to path through a temporary file in its directory, renamed by
 * ssp_outfile_commit: nothing half-written.  NULL or "-": standard
 * output. */
static int
write_file(const char *path, const struct ssp_buf *b)
{
	if (path == NULL || strcmp(path, "-") == 0) {
		if (b->len > 0 && fwrite(b->p, 1, b->len, stdout) != b->len) {
			warn("stdout");
			return -1;
		}
		return 0;
	}
	if (ssp_outfile_put(path, b->p, b->len) != 0) {
		warn("%s", path);
		return -1;
	}
	return 0;
}

struct lists {
	const char *sym[MAXLIST], *log[MAXLIST];
	size_t nsym, nlog;
	char *own[3 * MAXLIST];	/* strings made from the config file */
	size_t nown;
	const char *rules, *logs;
};

static void
push(const char **a, size_t *n, const char *s, const char *what)
{
	if (*n == MAXLIST)
		errx(SSP_EXIT_USAGE, "more than %d %s", MAXLIST, what);
	a[(*n)++] = s;
}

static char *
own(struct lists *l, char *s)
{
	if (s == NULL)
		err(SSP_EXIT_FAIL, NULL);
	if (l->nown == 3 * MAXLIST)
		errx(SSP_EXIT_USAGE, "the configuration file is too long");
	return l->own[l->nown++] = s;
}

/* A path of the config file, relative to its directory. */
static char *
cfg_path(const char *cfg, const char *p)
{
	const char *s = strrchr(cfg, '/');
	char *r;

	if (p[0] == '/' || s == NULL)
		return strdup(p);
	if (asprintf(&r, "%.*s/%s", (int)(s - cfg), cfg, p) < 0)
		return NULL;
	return r;
}

/*
 * The configuration file of 'run': one setting a line, "# " comments:
 *   symtab FILE[,NAME[,OFFSET]]   (like -s; FILE relative to this file)
 *   rules  NAME-OR-FILE           (like -r)
 *   logs   DIR                    (like --logs)
 *   log    SIMULATOR FILE         (like --log SIMULATOR=FILE)
 * Options given on the command line come first; rules and logs there win.
 */
static void
read_config(const char *path, struct lists *l)
{
	char line[4096], *key, *val, *rest, *fp;
	unsigned lineno = 0;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		err(SSP_EXIT_FAIL, "%s", path);
	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		if (strchr(line, '\n') == NULL && !feof(f))
			errx(SSP_EXIT_USAGE, "%s:%u: line too long", path, lineno);
		line[strcspn(line, "\r\n")] = '\0';
		key = line + strspn(line, " \t");
		if (*key == '#' || *key == '\0')
			continue;
		val = key + strcspn(key, " \t");
		if (*val != '\0')
			*val++ = '\0';
		val += strspn(val, " \t");
		if (*val == '\0')
			errx(SSP_EXIT_USAGE, "%s:%u: '%s' without a value", path,
			    lineno, key);
		if (strcmp(key, "symtab") == 0) {
			rest = val + strcspn(val, ",");
			fp = own(l, strndup(val, (size_t)(rest - val)));
			fp = own(l, cfg_path(path, fp));
			if (asprintf(&val, "%s%s", fp, rest) < 0)
				err(SSP_EXIT_FAIL, NULL);
			push(l->sym, &l->nsym, own(l, val), "symbol tables");
		} else if (strcmp(key, "rules") == 0) {
			if (l->rules == NULL)
				l->rules = strchr(val, '/') != NULL ?
				    own(l, cfg_path(path, val)) : own(l, strdup(val));
		} else if (strcmp(key, "logs") == 0) {
			if (l->logs == NULL)
				l->logs = own(l, cfg_path(path, val));
		} else if (strcmp(key, "log") == 0) {
			rest = val + strcspn(val, " \t");
			if (*rest == '\0')
				errx(SSP_EXIT_USAGE, "%s:%u: log SIMULATOR FILE",
				    path, lineno);
			*rest++ = '\0';
			rest += strspn(rest, " \t");
			fp = own(l, cfg_path(path, rest));
			if (asprintf(&key, "%s=%s", val, fp) < 0)
				err(SSP_EXIT_FAIL, NULL);
			push(l->log, &l->nlog, own(l, key), "logs");
		} else {
			errx(SSP_EXIT_USAGE, "%s:%u: unknown setting '%s' (symtab, "
			    "rules, logs, log)", path, lineno, key);
		}
	}
	if (ferror(f))
		err(SSP_EXIT_FAIL, "%s", path);
	fclose(f);
}

/* Read the run: exit 1 for I/O, 2 for input that is not a run. */
static struct ssp_simbricks *
load(const char *inpath)
{
	struct ssp_simbricks *r = NULL;
	struct ssp_err e = { 0 };
	struct ssp_in *in;
	int rc;

	if (strcmp(inpath, "-") == 0) {
		if (ssp_in_open(&in, "-", SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK)
			errx(SSP_EXIT_FAIL, "%s", e.msg);
		rc = ssp_simbricks_read(&r, in, &e);
		ssp_in_close(in);
	} else {
		rc = ssp_simbricks_load(&r, inpath, &e);
	}
	if (rc != SSP_OK)
		errx(e.code == SSP_ERR_IO || e.code == SSP_ERR_NOMEM ?
		    SSP_EXIT_FAIL : SSP_EXIT_USAGE, "%s", e.msg);
	return r;
}

/* Plan r; with --simulation (and --system), check it against them: the
 * findings that do not stop it in *warn. */
static struct ssp_sbplan *
plan(const struct ssp_simbricks *r, const struct ssp_sbplan_opts *o,
    const char *simulation, const char *system, char ***warn, size_t *nwarn)
{
	struct ssp_sbplan *p;
	struct ssp_sbsim *s;
	struct ssp_err e = { 0 };

	if (ssp_sbplan_make(&p, r, o, &e) != SSP_OK)
		errx(e.code == SSP_ERR_NOMEM || e.code == SSP_ERR_IO ?
		    SSP_EXIT_FAIL : SSP_EXIT_USAGE, "%s", e.msg);
	if (simulation == NULL) {
		if (system != NULL)
			errx(SSP_EXIT_USAGE, "--system needs --simulation (which "
			    "simulator simulates which component)");
		return p;
	}
	if (ssp_sbsim_load(&s, simulation, system, &e) != SSP_OK ||
	    ssp_sbsim_check(s, r, p, warn, nwarn, &e) != SSP_OK)
		errx(e.code == SSP_ERR_NOMEM || e.code == SSP_ERR_IO ?
		    SSP_EXIT_FAIL : SSP_EXIT_USAGE, "%s", e.msg);
	ssp_sbsim_free(s);
	return p;
}

static void
free_list(char **w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

enum { O_JSON = 256, O_FORCE, O_LOG, O_LOGS, O_STRICT, O_SIMULATION, O_SYSTEM,
    O_STATS };

/* --stats: what the run has, before anything is read. */
static void
print_plan(const struct ssp_sbplan *p)
{
	size_t i, both = 0, parser = 0;

	for (i = 0; i < p->nstreams; i++)
		parser += p->streams[i].sim != SSP_SIM_NONE;
	for (i = 0; i < p->nlinks; i++)
		both += p->links[i].sa >= 0 && p->links[i].sb >= 0;
	fprintf(stderr, "%s: %zu streams (%zu with a parser, %zu with a log to "
	    "read), %zu links (%zu between two streams), %zu unsynchronized "
	    "channels\n", PROG, p->nstreams, parser, ssp_sbplan_present(p),
	    p->nlinks, both, p->unsync);
}

static int
run_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'C' },
		{ "dir", required_argument, NULL, 'd' },
		{ "force", no_argument, NULL, O_FORCE },
		{ "help", no_argument, NULL, 'h' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "log", required_argument, NULL, O_LOG },
		{ "logs", required_argument, NULL, O_LOGS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rules", required_argument, NULL, 'r' },
		{ "simulation", required_argument, NULL, O_SIMULATION },
		{ "stats", no_argument, NULL, O_STATS },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "symtab", required_argument, NULL, 's' },
		{ "system", required_argument, NULL, O_SYSTEM },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_sbrun_opts ro = { PROG, "simspan-out", NULL, NULL, 0, 2, 0, 0, 0,
	    NULL, 0 };
	struct ssp_sbplan_opts o = { 0 };
	struct lists *l;
	struct ssp_simbricks *r;
	struct ssp_sbplan *p;
	const char *config = NULL, *errstr, *simulation = NULL, *system = NULL;
	char **extra = NULL;
	size_t i, nextra = 0;
	uint64_t n;
	int ch, rc, stats = 0;

	if ((l = calloc(1, sizeof(*l))) == NULL)
		err(SSP_EXIT_FAIL, NULL);
	while ((ch = getopt_long(argc, argv, "C:d:hj:qr:s:Vv", longopts, NULL)) != -1) {
		switch (ch) {
		case 'C': config = optarg; break;
		case 'd': ro.dir = optarg; break;
		case 'h': usage(0); break;
		case 'j':
			if (ssp_num_strtou64(optarg, &n, &errstr) != 0 ||
			    (errstr = "must be 1 to 64", n < 1 || n > 64)) {
				warnx("-j %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			ro.jobs = (int)n;
			break;
		case 'q': ro.quiet = 1; break;
		case 'r': l->rules = optarg; break;
		case 's': push(l->sym, &l->nsym, optarg, "symbol tables"); break;
		case 'V':
			ssp_cli_version(PROG, "jansson", jansson_version_str(), "sqlite",
			    sqlite3_libversion(), (char *)NULL);
			return ssp_cli_done(PROG, 0);
		case 'v': ro.verbose = stats = 1; break;
		case O_STATS: stats = 1; break;
		case O_FORCE: o.force = 1; break;
		case O_LOG: push(l->log, &l->nlog, optarg, "logs"); break;
		case O_LOGS: l->logs = optarg; break;
		case O_STRICT: o.strict = ro.strict = 1; break;
		case O_SIMULATION: simulation = optarg; break;
		case O_SYSTEM: system = optarg; break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1) {
		warnx("run: one run directory or out.json, please");
		usage(SSP_EXIT_USAGE);
	}
	if (strcmp(argv[0], "-") == 0)
		errx(SSP_EXIT_USAGE, "run: a run directory or file, not standard "
		    "input (the logs are found from where it is)");
	if (config != NULL)
		read_config(config, l);
	r = load(argv[0]);
	o.json = ssp_simbricks_path(r);
	o.topology = "topology.csv";
	o.logs = l->logs;
	o.logmap = l->log;
	o.nlogmap = l->nlog;
	p = plan(r, &o, simulation, system, &extra, &nextra);
	if (stats)
		print_plan(p);
	ro.extra = (const char *const *)extra;
	ro.nextra = nextra;
	ro.rules = l->rules;
	ro.symtabs = l->sym;
	ro.nsymtabs = l->nsym;
	rc = ssp_sbrun_run(p, r, &ro);
	free_list(extra, nextra);
	ssp_sbplan_free(p);
	ssp_simbricks_free(r);
	for (i = 0; i < l->nown; i++)
		free(l->own[i]);
	free(l);
	if (ssp_cli_close_stdout(PROG) != 0 && rc == 0)
		rc = SSP_EXIT_FAIL;
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "commands", no_argument, NULL, 'c' },
		{ "dir", required_argument, NULL, 'd' },
		{ "force", no_argument, NULL, O_FORCE },
		{ "help", no_argument, NULL, 'h' },
		{ "json-name", required_argument, NULL, O_JSON },
		{ "log", required_argument, NULL, O_LOG },
		{ "logs", required_argument, NULL, O_LOGS },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "simulation", required_argument, NULL, O_SIMULATION },
		{ "stats", no_argument, NULL, O_STATS },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "system", required_argument, NULL, O_SYSTEM },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_sbplan_opts o = { NULL, "topology.csv", NULL, NULL, 0, 0, 0 };
	const char *simulation = NULL, *system = NULL;
	char **extra = NULL;
	size_t nextra = 0;
	struct ssp_buf topo = SSP_BUF_INIT, cmd = SSP_BUF_INIT;
	const char *logmap[MAXLIST];
	struct ssp_sbplan *p;
	struct ssp_simbricks *r;
	const char *inpath, *outpath = NULL, *dir = NULL, *jname = NULL;
	char *abspath = NULL, *tpath = NULL, *cpath = NULL;
	int ch, cmds = 0, quiet = 0, stats = 0, rc = SSP_EXIT_OK;
	size_t i, nlog = 0;

	/* a subcommand comes first, as in git: "simspan-simbricks run X";
	 * a JSON file named "run" is ./run */
	if (argc > 1 && strcmp(argv[1], "run") == 0)
		return run_main(argc - 1, argv + 1);
	while ((ch = getopt_long(argc, argv, "cd:ho:qV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': cmds = 1; break;
		case 'd': dir = optarg; break;
		case 'h': usage(0); break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = 1; break;
		case 'V':
			ssp_cli_version(PROG, "jansson", jansson_version_str(), "sqlite",
			    sqlite3_libversion(), (char *)NULL);
			return ssp_cli_done(PROG, 0);
		case O_FORCE: o.force = 1; break;
		case O_JSON: jname = optarg; break;
		case O_LOG: push(logmap, &nlog, optarg, "logs"); break;
		case O_LOGS: o.logs = optarg; break;
		case O_STRICT: o.strict = 1; break;
		case O_SIMULATION: simulation = optarg; break;
		case O_STATS: stats = 1; break;
		case O_SYSTEM: system = optarg; break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(SSP_EXIT_USAGE);
	if (dir != NULL && (outpath != NULL || cmds))
		errx(SSP_EXIT_USAGE, "-d writes both files: it excludes -c and -o");
	inpath = argc == 1 ? argv[0] : "-";
	r = load(inpath);
	if (jname != NULL)
		o.json = jname;
	else if (strcmp(inpath, "-") == 0)
		o.json = "run.json";
	else if ((abspath = realpath(ssp_simbricks_path(r), NULL)) != NULL)
		o.json = abspath;
	else
		o.json = ssp_simbricks_path(r);
	o.logmap = logmap;
	o.nlogmap = nlog;
	p = plan(r, &o, simulation, system, &extra, &nextra);
	if (stats)
		print_plan(p);
	if (!quiet) {
		for (i = 0; i < p->nwarn; i++)
			warnx("%s", p->warn[i]);
		for (i = 0; i < nextra; i++)
			warnx("%s", extra[i]);
	}
	free_list(extra, nextra);
	if (ssp_sbplan_topology(p, r, 0, &topo) != 0 ||
	    ssp_sbcmds_script(p, r, &o, &cmd) != 0)
		errx(SSP_EXIT_FAIL, "out of memory");
	if (dir != NULL) {
		if (mkdir(dir, 0777) != 0 && errno != EEXIST)
			err(SSP_EXIT_FAIL, "%s", dir);
		if (asprintf(&tpath, "%s/topology.csv", dir) < 0 ||
		    asprintf(&cpath, "%s/commands.sh", dir) < 0)
			err(SSP_EXIT_FAIL, NULL);
		if (write_file(tpath, &topo) != 0 || write_file(cpath, &cmd) != 0)
			rc = SSP_EXIT_FAIL;
	} else if (write_file(outpath, cmds ? &cmd : &topo) != 0) {
		rc = SSP_EXIT_FAIL;
	}
	/* -d: both files or neither */
	if (rc != 0)
		ssp_outfile_abort();
	else if (ssp_outfile_commit() != 0) {
		warn("%s", dir != NULL ? dir : outpath);
		rc = SSP_EXIT_FAIL;
	}
	ssp_buf_free(&topo);
	ssp_buf_free(&cmd);
	ssp_sbplan_free(p);
	ssp_simbricks_free(r);
	free(abspath);
	free(tpath);
	free(cpath);
	if (ssp_cli_close_stdout(PROG) != 0)
		rc = SSP_EXIT_FAIL;
	return rc;
}
