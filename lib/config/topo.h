/*
 * The topology of one simulation (formats/topology.md): which event
 * streams exist, of which kind, in which file, and how they are connected
 * (PCIe host <-> NIC, Ethernet NIC <-> ns-3 node/device, and network <->
 * network: a port of one switch or ns-3 device wired to another's).
 * Stream order in the file is the stream index everywhere else (merge
 * ties, span streams).
 */
#ifndef SSP_TOPO_H
#define SSP_TOPO_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "stream/event.h"

#define SSP_TOPO_NAMEMAX 128
#define SSP_TOPO_MAXSTREAMS 4096

struct ssp_topo_stream {
	char *name;
	enum ssp_sim kind;
	char *file;		/* path to open, NULL if none given; "-" = stdin */
	unsigned line;		/* where it was defined */
	int pcie;		/* nic: its pcie link, or -1 */
	int eth;		/* nic: its eth link, or -1 */
};

struct ssp_topo_pcie {
	unsigned host, nic;	/* stream indices */
	char *adapter;		/* gem5 component, NULL if not given */
	unsigned line;
};

struct ssp_topo_eth {
	unsigned nic, net;	/* stream indices */
	uint32_t node, dev;
	unsigned line;
};

/* A network-to-network link (a SimBricks Ethernet channel between two
 * network simulators: net_switch -h on one side, -s on the other). */
struct ssp_topo_n2n {
	unsigned net[2];	/* net stream indices (may be the same stream) */
	uint32_t node[2], dev[2];
	unsigned line;
};

struct ssp_topo {
	char *name;		/* file name, for messages */
	struct ssp_topo_stream *streams;
	size_t nstreams;
	struct ssp_topo_pcie *pcie;
	size_t npcie;
	struct ssp_topo_eth *eth;
	size_t neth;
	struct ssp_topo_n2n *n2n;
	size_t nn2n;
};

/* Parse a topology.  dir (may be NULL) is prepended to relative FILEs. */
int ssp_topo_parse(struct ssp_topo **tp, const char *name, const char *dir,
    const char *buf, size_t len, struct ssp_err *e);
/* Read a file; relative FILEs are relative to its directory. */
int ssp_topo_load(struct ssp_topo **tp, const char *path, struct ssp_err *e);
/* Index of a stream by name, or -1. */
int ssp_topo_find(const struct ssp_topo *t, const char *name);
/* A NAME=FILE argument: set the file of stream NAME (SSP_ERR_INVAL if
 * there is no such stream or arg has no '='). */
int ssp_topo_override(struct ssp_topo *t, const char *arg, struct ssp_err *e);
/* Is a stream name valid ([A-Za-z0-9._-]+, at most SSP_TOPO_NAMEMAX)? */
int ssp_topo_name_ok(const char *s, size_t len);
void ssp_topo_free(struct ssp_topo *t);

#endif
