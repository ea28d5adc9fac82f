/*
 * A SimBricks run as its orchestrator recorded it (out/<exp>-<run>.json:
 * every simulator's class, command line, stdout and stderr), and what
 * simspan makes of it: the topology (formats/topology.md) derived from
 * the command lines' sockets, and the sim2ev command of each stream
 * (simspan-simbricks(1) describes both).
 *
 * Memory: the whole JSON is held as a tree (about 3-5 times the file,
 * most of it the captured stdout and stderr lines).
 */
#ifndef SSP_SIMBRICKS_H
#define SSP_SIMBRICKS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/err.h"
#include "io/in.h"
#include "stream/event.h"

/* Which captured output of a simulator. */
enum ssp_simbricks_out {
	SSP_SIMBRICKS_STDOUT = 0,
	SSP_SIMBRICKS_STDERR = 1,
};

struct ssp_simbricks;		/* a parsed run */

struct ssp_simbricks_sim {
	const char *name;	/* "host.client.0", "nic.client.0.", "net." */
	const char *cls;	/* "Gem5Host", "I40eNIC", "SwitchNet", ... */
	const char **argv;	/* the command line, argc strings */
	size_t argc;
	size_t nlines[2];	/* captured stdout, stderr lines */
};

/*
 * Parse the JSON text of a run; name is used in messages.  Anything that
 * is not SimBricks experiment output (no "sims" object, a simulator
 * without "class" or "cmd", ...) is SSP_ERR_FORMAT naming what is missing;
 * bad JSON is SSP_ERR_FORMAT with e->line and the column in the message.
 */
int ssp_simbricks_parse(struct ssp_simbricks **rp, const char *name,
    const char *buf, size_t len, struct ssp_err *e);
/* Read and parse from in (plain or zstd, as ssp_in delivers it). */
int ssp_simbricks_read(struct ssp_simbricks **rp, struct ssp_in *in,
    struct ssp_err *e);
void ssp_simbricks_free(struct ssp_simbricks *r);

const char *ssp_simbricks_exp_name(const struct ssp_simbricks *r);
/* 1 if the run succeeded / was interrupted (newer orchestrators write
 * "interrupted"; 0 when absent). */
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
 * SimBricks output; SSP_ERR_INVAL: no simulator named sim.
 */
struct ssp_simbricks_input;
int ssp_simbricks_input_open(struct ssp_simbricks_input **sp,
    struct ssp_in **inp, const char *path, const char *sim,
    enum ssp_simbricks_out which, struct ssp_err *e);
/* The default stream name: the simulator's name without trailing dots. */
const char *ssp_simbricks_input_stem(const struct ssp_simbricks_input *s);
void ssp_simbricks_input_close(struct ssp_simbricks_input *s);

/*
 * The plan: topology and commands.  Refused with SSP_ERR_INVAL and a
 * message naming the simulator: a class simspan cannot trace yet,
 * several NICs in one process, switch-to-switch links, sockets that do
 * not pair up (a NIC no host or network uses, a host or network port no
 * NIC serves, a socket two NICs claim), an ns-3 example of unknown
 * layout.
 */
struct ssp_simbricks_opts {
	const char *json;	/* the run's path as the commands name it */
	const char *topology;	/* the topology's file name in the commands */
};

struct ssp_simbricks_stream {
	char *name;		/* stream name, from the simulator's name */
	enum ssp_sim kind;	/* host (gem5), nic (nicbm), net */
	size_t sim;		/* the simulator */
};
struct ssp_simbricks_pcie { size_t host, nic; unsigned adapter; };	/* stream indices, system.pc.simbricks_<adapter> */
struct ssp_simbricks_eth { size_t nic, net; uint32_t node, dev; };

struct ssp_simbricks_plan {
	struct ssp_simbricks_stream *streams;
	size_t nstreams;
	struct ssp_simbricks_pcie *pcie;
	size_t npcie;
	struct ssp_simbricks_eth *eth;
	size_t neth;
	char **warn;		/* what the user should know, one line each */
	size_t nwarn;
	struct ssp_buf cmd;	/* the commands script */
};

int ssp_simbricks_plan(struct ssp_simbricks_plan **pp,
    const struct ssp_simbricks *r, const struct ssp_simbricks_opts *o,
    struct ssp_err *e);
/* The topology CSV text (formats/topology.md): 0, or -1 out of memory. */
int ssp_simbricks_topology(const struct ssp_simbricks_plan *p,
    const struct ssp_simbricks *r, struct ssp_buf *b);
void ssp_simbricks_plan_free(struct ssp_simbricks_plan *p);

#endif
