/*
 * A SimBricks run as its orchestrator recorded it, in either shape:
 *   2022 (out/<exp>-<run>.json): {"exp_name", "sims": {NAME: {"class",
 *     "cmd": [argv], "stdout": [...], "stderr": [...]}}, "success"};
 *   symphony, v0.3 to v0.5.2 (<run>/output/out.json, simbricks-run):
 *     {"_sim_name", "_success", "_interrupted", ..., NAME: {"class",
 *     "output": [{"cmd": "one string", "stdout", "stderr",
 *     "merged_output"}, ...]}}, prepare commands first, the run command
 *     last; "proxy_<id>" entries (class TCPProxy) in distributed runs.
 * Both become the same model: every simulator's display name, class,
 * command line as argv (symphony's string split as its runtime does,
 * shlex), and captured stdout and stderr of its run command.  What
 * simspan makes of a run is sbplan's.
 *
 * Memory: the whole JSON is held as a tree (about 3-5 times the file,
 * most of it the captured stdout and stderr lines).
 */
#ifndef SSP_SIMBRICKS_H
#define SSP_SIMBRICKS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"
#include "io/in.h"

/* Which captured output of a simulator. */
enum ssp_simbricks_out {
	SSP_SIMBRICKS_STDOUT = 0,
	SSP_SIMBRICKS_STDERR = 1,
};

enum ssp_simbricks_fmt {
	SSP_SIMBRICKS_2022 = 1,		/* out/<exp>-<run>.json */
	SSP_SIMBRICKS_SYMPHONY,		/* output/out.json */
};

struct ssp_simbricks;		/* a parsed run */

struct ssp_simbricks_sim {
	const char *name;	/* "host.client.0", "nic.NICSim-26", "proxy_40" */
	const char *cls;	/* "Gem5Host", "I40eNicSim", "TCPProxy", ... */
	const char **argv;	/* the command line, argc strings */
	size_t argc;
	const char *cmd;	/* symphony: the command as recorded; else NULL */
	size_t nlines[2];	/* captured stdout, stderr lines */
};

/*
 * Parse the JSON text of a run; name is used in messages.  Anything that
 * is not a run of either shape is SSP_ERR_FORMAT naming the key that is
 * missing or wrong ("host.Gem5Sim-24".output[1].cmd); bad JSON is
 * SSP_ERR_FORMAT with e->line and the column in the message.  Refused
 * too: control characters or NUL bytes in names, classes and commands (a
 * name reaches shell scripts and file names), a symphony command with
 * an unclosed quote, a fragment runner's out.json (no simulators: its
 * output went to the SimBricks backend).
 */
int ssp_simbricks_parse(struct ssp_simbricks **rp, const char *name,
    const char *buf, size_t len, struct ssp_err *e);
/* Read and parse from in (plain or zstd, as ssp_in delivers it). */
int ssp_simbricks_read(struct ssp_simbricks **rp, struct ssp_in *in,
    struct ssp_err *e);
/*
 * Open path and parse it: a JSON file, or a symphony run directory
 * (path/output/out.json) or its output directory (path/out.json).  The
 * run records where it was read from (ssp_simbricks_path).
 */
int ssp_simbricks_load(struct ssp_simbricks **rp, const char *path,
    struct ssp_err *e);
void ssp_simbricks_free(struct ssp_simbricks *r);

enum ssp_simbricks_fmt ssp_simbricks_format(const struct ssp_simbricks *r);
/* The experiment (2022 "exp_name") or simulation (symphony "_sim_name"). */
const char *ssp_simbricks_exp_name(const struct ssp_simbricks *r);
/* The JSON file as named in messages: the path it was read from. */
const char *ssp_simbricks_path(const struct ssp_simbricks *r);
/* 1 if the run succeeded / was interrupted (2022 "interrupted", written
 * by newer orchestrators, 0 when absent; symphony "_interrupted"). */
int ssp_simbricks_success(const struct ssp_simbricks *r);
int ssp_simbricks_interrupted(const struct ssp_simbricks *r);
size_t ssp_simbricks_nsims(const struct ssp_simbricks *r);
const struct ssp_simbricks_sim *ssp_simbricks_sim(const struct ssp_simbricks *r,
    size_t i);
/* Index of the simulator named name, or -1. */
int ssp_simbricks_find(const struct ssp_simbricks *r, const char *name);
/* Number of captured lines of simulator i's output that contain needle. */
size_t ssp_simbricks_count(const struct ssp_simbricks *r, size_t i,
    enum ssp_simbricks_out which, const char *needle);

/*
 * One simulator's captured output as a byte stream: its lines, each ended
 * by '\n'.  ssp_simbricks_text_read is an ssp_in_readfn (ssp_in_fnopen);
 * the run must outlive the cursor.
 */
struct ssp_simbricks_text;
int ssp_simbricks_text_open(struct ssp_simbricks_text **tp,
    const struct ssp_simbricks *r, size_t sim, enum ssp_simbricks_out which,
    struct ssp_err *e);
ssize_t ssp_simbricks_text_read(void *ctx, void *buf, size_t n);
void ssp_simbricks_text_close(struct ssp_simbricks_text *t);

/*
 * sim2ev --simbricks-json: the run JSON at path read, and simulator sim's
 * captured output opened as *inp, named "PATH:SIM:stdout" (or stderr).
 * *sp keeps the run alive; close it after the input.  SSP_ERR_FORMAT: not
 * SimBricks output; SSP_ERR_INVAL: no simulator named sim (the message
 * names the one meant when sim differs only by trailing dots, as 2022
 * names end in one: "nic.server.0.").
 */
struct ssp_simbricks_input;
int ssp_simbricks_input_open(struct ssp_simbricks_input **sp,
    struct ssp_in **inp, const char *path, const char *sim,
    enum ssp_simbricks_out which, struct ssp_err *e);
/* The default stream name: the simulator's name without trailing dots. */
const char *ssp_simbricks_input_stem(const struct ssp_simbricks_input *s);
/* The run and the simulator's index in it. */
const struct ssp_simbricks *ssp_simbricks_input_run(
    const struct ssp_simbricks_input *s);
size_t ssp_simbricks_input_sim(const struct ssp_simbricks_input *s);
void ssp_simbricks_input_close(struct ssp_simbricks_input *s);

#endif
