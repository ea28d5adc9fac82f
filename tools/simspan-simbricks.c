/*
 * simspan-simbricks: from a SimBricks run's JSON (out/<exp>-<run>.json) to
 * the topology evspan reads and the sim2ev command of every simulator.
 * A source: run.json --> topology.csv + commands.sh.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "config/simbricks.h"
#include "io/in.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"

#define PROG "simspan-simbricks"

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: simspan-simbricks [-chqV] [-d dir] [-o file] "
	    "[--json-name path] [run.json | -]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Derive the simspan topology and the sim2ev commands from a SimBricks\n"
		    "experiment's output JSON (out/<exp>-<run>.json).\n"
		    "  -c, --commands        print the commands script instead of the topology\n"
		    "  -d, --dir DIR         write DIR/topology.csv and DIR/commands.sh\n"
		    "  -o, --output FILE     write to FILE instead of standard output\n"
		    "      --json-name PATH  the run's path as the commands name it\n"
		    "                        (default: its absolute path)\n"
		    "  -q, --quiet           no warnings about what the logs lack\n"
		    "  -h, --help            this help\n"
		    "  -V, --version         version and library versions\n"
		    "With no RUN.json, or when it is -, read standard input.  "
		    "See simspan-simbricks(1).\n");
	exit(code);
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

int
main(int argc, char **argv)
{
	enum { O_JSON = 256 };
	static const struct option longopts[] = {
		{ "commands", no_argument, NULL, 'c' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "json-name", required_argument, NULL, O_JSON },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_simbricks_opts o = { NULL, "topology.csv" };
	struct ssp_buf topo = SSP_BUF_INIT;
	struct ssp_simbricks_plan *p = NULL;
	struct ssp_simbricks *r = NULL;
	struct ssp_err e = { 0 };
	struct ssp_in *in;
	const char *inpath, *outpath = NULL, *dir = NULL, *jname = NULL;
	char *abspath = NULL, *tpath = NULL, *cpath = NULL;
	int ch, cmds = 0, quiet = 0, rc = SSP_EXIT_OK;
	size_t i;

	while ((ch = getopt_long(argc, argv, "cd:ho:qV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': cmds = 1; break;
		case 'd': dir = optarg; break;
		case 'h': usage(0); break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = 1; break;
		case 'V':
			ssp_cli_version(PROG, "jansson", jansson_version_str(),
			    (char *)NULL);
			return 0;
		case O_JSON: jname = optarg; break;
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

	if (ssp_in_open(&in, inpath, SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	if (ssp_simbricks_read(&r, in, &e) != SSP_OK) {
		ssp_in_close(in);
		errx(e.code == SSP_ERR_IO || e.code == SSP_ERR_NOMEM ?
		    SSP_EXIT_FAIL : SSP_EXIT_USAGE, "%s", e.msg);
	}
	ssp_in_close(in);
	if (jname != NULL)
		o.json = jname;
	else if (strcmp(inpath, "-") == 0)
		o.json = "run.json";
	else if ((abspath = realpath(inpath, NULL)) != NULL)
		o.json = abspath;
	else
		o.json = inpath;
	if (ssp_simbricks_plan(&p, r, &o, &e) != SSP_OK) {
		ssp_simbricks_free(r);
		errx(e.code == SSP_ERR_NOMEM ? SSP_EXIT_FAIL : SSP_EXIT_USAGE,
		    "%s", e.msg);
	}
	if (!quiet)
		for (i = 0; i < p->nwarn; i++)
			warnx("%s", p->warn[i]);
	if (ssp_simbricks_topology(p, r, &topo) != 0)
		errx(SSP_EXIT_FAIL, "out of memory");
	if (dir != NULL) {
		if (mkdir(dir, 0777) != 0 && errno != EEXIST)
			err(SSP_EXIT_FAIL, "%s", dir);
		if (asprintf(&tpath, "%s/topology.csv", dir) < 0 ||
		    asprintf(&cpath, "%s/commands.sh", dir) < 0)
			err(SSP_EXIT_FAIL, NULL);
		if (write_file(tpath, &topo) != 0 || write_file(cpath, &p->cmd) != 0)
			rc = SSP_EXIT_FAIL;
	} else if (write_file(outpath, cmds ? &p->cmd : &topo) != 0) {
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
	ssp_simbricks_plan_free(p);
	ssp_simbricks_free(r);
	free(abspath);
	free(tpath);
	free(cpath);
	if (ssp_cli_close_stdout(PROG) != 0)
		rc = SSP_EXIT_FAIL;
	return rc;
}
