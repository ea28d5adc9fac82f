/* simspan-simbricks' steps around the library: see sbsetup.h. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "config/sbcmds.h"
#include "config/sbsim.h"
#include "io/in.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"
#include "tools/common/sbconf.h"
#include "tools/common/sbrun.h"
#include "tools/common/sbsetup.h"

struct ssp_simbricks *
ssp_sbsetup_load(const char *inpath)
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

struct ssp_sbplan *
ssp_sbsetup_plan(const struct ssp_simbricks *r, const struct ssp_sbplan_opts *o,
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

void
ssp_sbsetup_freelist(char **w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

void
ssp_sbsetup_stats(const char *prog, const struct ssp_sbplan *p)
{
	size_t i, both = 0, parser = 0;

	for (i = 0; i < p->nstreams; i++)
		parser += p->streams[i].sim != SSP_SIM_NONE;
	for (i = 0; i < p->nlinks; i++)
		both += p->links[i].sa >= 0 && p->links[i].sb >= 0;
	fprintf(stderr, "%s: %zu streams (%zu with a parser, %zu with a log to "
	    "read), %zu links (%zu between two streams), %zu unsynchronized "
	    "channels\n", prog, p->nstreams, parser, ssp_sbplan_present(p),
	    p->nlinks, both, p->unsync);
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
ssp_sbsetup_write(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    const struct ssp_sbplan_opts *o, const char *dir, const char *outpath,
    int cmds)
{
	struct ssp_buf topo = SSP_BUF_INIT, cmd = SSP_BUF_INIT;
	char *tpath = NULL, *cpath = NULL;
	int rc = SSP_EXIT_OK;

	if (ssp_sbplan_topology(p, r, 0, &topo) != 0 ||
	    ssp_sbcmds_script(p, r, o, &cmd) != 0)
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
	free(tpath);
	free(cpath);
	return rc;
}

const char *
ssp_sbsetup_jsonname(const struct ssp_simbricks *r, const char *inpath,
    const char *jname, char **abs)
{
	if (jname != NULL)
		return jname;
	if (strcmp(inpath, "-") == 0)
		return "run.json";
	if ((*abs = realpath(ssp_simbricks_path(r), NULL)) != NULL)
		return *abs;
	return ssp_simbricks_path(r);
}

int
ssp_sbsetup_run(const char *path, const struct ssp_sbconf *l,
    struct ssp_sbplan_opts *o, struct ssp_sbrun_opts *ro,
    const char *simulation, const char *system, int stats)
{
	struct ssp_simbricks *r;
	struct ssp_sbplan *p;
	char **extra = NULL;
	size_t nextra = 0;
	int rc;

	r = ssp_sbsetup_load(path);
	o->json = ssp_simbricks_path(r);
	o->topology = "topology.csv";
	o->logs = l->logs;
	o->logmap = l->log;
	o->nlogmap = l->nlog;
	p = ssp_sbsetup_plan(r, o, simulation, system, &extra, &nextra);
	if (stats)
		ssp_sbsetup_stats(ro->prog, p);
	ro->extra = (const char *const *)extra;
	ro->nextra = nextra;
	ro->rules = l->rules;
	ro->symtabs = l->sym;
	ro->nsymtabs = l->nsym;
	rc = ssp_sbrun_run(p, r, ro);
	ssp_sbsetup_freelist(extra, nextra);
	ssp_sbplan_free(p);
	ssp_simbricks_free(r);
	return rc;
}
