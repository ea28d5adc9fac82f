/*
 * simspan-simbricks: a SimBricks run (the 2022 orchestrator's
 * out/<exp>-<run>.json, or a symphony run directory and its
 * output/out.json) to what simspan needs.  A source:
 *   run --> simspan-simbricks --> topology.csv + commands.sh
 *   run --> simspan-simbricks run --> event streams, spans, spans.db,
 *           spans.html and a summary (the other tools, run as processes)
 */
#include <err.h>
#include <getopt.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "config/sbplan.h"
#include "config/simbricks.h"
#include "tools/common/cli.h"
#include "tools/common/sbconf.h"
#include "tools/common/sbrun.h"
#include "tools/common/sbsetup.h"

#define PROG "simspan-simbricks"

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

static int
version(void)
{
	ssp_cli_version(PROG, "jansson", jansson_version_str(), "sqlite",
	    sqlite3_libversion(), (char *)NULL);
	return ssp_cli_done(PROG, 0);
}

enum { O_JSON = 256, O_FORCE, O_LOG, O_LOGS, O_STRICT, O_SIMULATION, O_SYSTEM,
    O_STATS };

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
	struct ssp_sbconf *l;
	const char *config = NULL, *errstr, *simulation = NULL, *system = NULL;
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
		case 's': ssp_sbconf_push(l->sym, &l->nsym, optarg, "symbol tables"); break;
		case 'V': return version();
		case 'v': ro.verbose = stats = 1; break;
		case O_STATS: stats = 1; break;
		case O_FORCE: o.force = 1; break;
		case O_LOG: ssp_sbconf_push(l->log, &l->nlog, optarg, "logs"); break;
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
		ssp_sbconf_read(config, l);
	rc = ssp_sbsetup_run(argv[0], l, &o, &ro, simulation, system, stats);
	ssp_sbconf_free(l);
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
	const char *logmap[SSP_SBCONF_MAX];
	struct ssp_sbplan *p;
	struct ssp_simbricks *r;
	const char *inpath, *outpath = NULL, *dir = NULL, *jname = NULL;
	char *abspath = NULL;
	int ch, cmds = 0, quiet = 0, stats = 0, rc;
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
		case 'V': return version();
		case O_FORCE: o.force = 1; break;
		case O_JSON: jname = optarg; break;
		case O_LOG: ssp_sbconf_push(logmap, &nlog, optarg, "logs"); break;
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
	r = ssp_sbsetup_load(inpath);
	o.json = ssp_sbsetup_jsonname(r, inpath, jname, &abspath);
	o.logmap = logmap;
	o.nlogmap = nlog;
	p = ssp_sbsetup_plan(r, &o, simulation, system, &extra, &nextra);
	if (stats)
		ssp_sbsetup_stats(PROG, p);
	if (!quiet) {
		for (i = 0; i < p->nwarn; i++)
			warnx("%s", p->warn[i]);
		for (i = 0; i < nextra; i++)
			warnx("%s", extra[i]);
	}
	ssp_sbsetup_freelist(extra, nextra);
	rc = ssp_sbsetup_write(p, r, &o, dir, outpath, cmds);
	ssp_sbplan_free(p);
	ssp_simbricks_free(r);
	free(abspath);
	if (ssp_cli_close_stdout(PROG) != 0)
		rc = SSP_EXIT_FAIL;
	return rc;
}
