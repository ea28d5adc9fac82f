/*
 * simspan-simbricks' steps around the library: read a run, plan it (and
 * check it against symphony's simulation.json and system.json), the
 * --stats line, and writing topology.csv and commands.sh.  Errors exit
 * as err(3) does: 1 for I/O and memory, 2 for input that is not a run.
 */
#ifndef SSP_TOOLS_SBSETUP_H
#define SSP_TOOLS_SBSETUP_H

#include <stddef.h>

#include "config/sbplan.h"
#include "config/simbricks.h"

struct ssp_sbconf;
struct ssp_sbrun_opts;

/* Read the run at inpath ("-": standard input). */
struct ssp_simbricks *ssp_sbsetup_load(const char *inpath);

/* Plan r; with simulation (and system), check it against them: the
 * findings that do not stop it in *warn (free with ssp_sbsetup_freelist). */
struct ssp_sbplan *ssp_sbsetup_plan(const struct ssp_simbricks *r,
    const struct ssp_sbplan_opts *o, const char *simulation,
    const char *system, char ***warn, size_t *nwarn);

void ssp_sbsetup_freelist(char **w, size_t n);

/* --stats: what the run has, before anything is read, on stderr. */
void ssp_sbsetup_stats(const char *prog, const struct ssp_sbplan *p);

/* Write the topology and the commands script: with dir, both as
 * dir/topology.csv and dir/commands.sh (or neither); else the script
 * (cmds) or the topology to outpath (NULL or "-": standard output).
 * The exit status: 0 or 1. */
int ssp_sbsetup_write(const struct ssp_sbplan *p,
    const struct ssp_simbricks *r, const struct ssp_sbplan_opts *o,
    const char *dir, const char *outpath, int cmds);

/* The run's path as the commands name it: jname, else "run.json" for
 * standard input, else its absolute path (in *abs, to free), else as
 * given. */
const char *ssp_sbsetup_jsonname(const struct ssp_simbricks *r,
    const char *inpath, const char *jname, char **abs);

/* 'run': read the run at path, plan it with the lists of l and o (its
 * json, topology, logs and logmap set here), the stats line, then
 * ssp_sbrun_run with ro (its extra, rules and symtabs set here).  Its
 * exit status. */
int ssp_sbsetup_run(const char *path, const struct ssp_sbconf *l,
    struct ssp_sbplan_opts *o, struct ssp_sbrun_opts *ro,
    const char *simulation, const char *system, int stats);

#endif
