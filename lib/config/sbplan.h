/*
 * What simspan makes of a SimBricks run (config/simbricks.h): the
 * streams (one per simulator whose class has a parser, sbclass), the
 * links between simulators (PCIe host-NIC, Ethernet NIC-network) paired
 * from the sockets their command lines name, where each stream's log is,
 * and what the user should know (one line each: a class without a
 * parser, a log without debug output, a run without synchronization).
 * Network-to-network channels (net_switch -h on one switch, -s on
 * another; a switch and an ns-3 --Network on one socket) are links too.
 *
 * Sockets, in every syntax of both orchestrators: a bare path, generic
 * listen:P[:...] / connect:P[:...], gem5 --simbricks-pci=, QEMU -device
 * simbricks-pci,socket=P (and -chardev socket,path=P), net_switch -s P /
 * -h P, ns-3 --CosimPort= / --SimbricksPort[Left|Right]= and NS3Net's
 * --Network="UnixSocket:P;..." in its params file (sbns3), TCPProxy
 * net_sockets -L P / -C P.  A socket names one channel; its two ends are
 * the link.
 *
 * Refused (SSP_ERR_INVAL, the message names the simulator and what to
 * do): a class the table refuses or does not know, several NICs in one
 * process, a socket that pairs nothing or that
 * goes to a proxy (the peer is in another fragment), an ns-3 layout that
 * is not known, a missing NS3Net params file; with opts.strict a run
 * without synchronization; without opts.force a symphony run that was
 * interrupted.  SSP_ERR_FORMAT: a params file that is not ns-3 E2E
 * configuration.
 */
#ifndef SSP_SBPLAN_H
#define SSP_SBPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "config/sbclass.h"
#include "config/simbricks.h"
#include "stream/event.h"

struct ssp_sbplan_opts {
	const char *json;	/* the run's path as commands.sh names it */
	const char *topology;	/* the topology's file name in commands.sh */
	const char *logs;	/* --logs DIR: looked in first, or NULL */
	const char *const *logmap;	/* "SIM=FILE", nlogmap of them */
	size_t nlogmap;
	int strict;		/* refuse a run without synchronization */
	int force;		/* trace an interrupted symphony run */
};

#define SSP_SBPLAN_MAXDRV 8

struct ssp_sbplan_stream {
	char *name;		/* stream name: the simulator's, [A-Za-z0-9._-] */
	enum ssp_sim sim;	/* the sim2ev format (a net_switch's or ns-3's
				 * stream: SSP_SIM_PCAP when it reads a pcap) */
	size_t idx;		/* the simulator */
	const struct ssp_sbclass *cls;
	char *log;		/* the file to read, NULL: captured lines */
	char *want;		/* the file its command line names (NULL: none) */
	int missing;		/* want was not found: no log to read */
	enum ssp_simbricks_out which;	/* captured lines: stdout or stderr */
	size_t ncaptured;	/* captured lines with the class's needle */
	int time_sync;		/* gem5: --time-offset sync (SimBricksSync) */
	const char *kernel;	/* gem5: --kernel, or NULL */
	const char *driver[SSP_SBPLAN_MAXDRV];	/* gem5: its NICs' drivers */
	size_t ndriver;
};

enum ssp_sbplan_ltype { SSP_SBPLAN_PCIE = 1, SSP_SBPLAN_ETH, SSP_SBPLAN_N2N };

/* A link between two simulators, whether or not both have a stream. */
struct ssp_sbplan_link {
	enum ssp_sbplan_ltype type;
	size_t a, b;		/* simulators: host and NIC, NIC and network, or
				 * two networks (the listening end first) */
	int sa, sb;		/* their streams, or -1 */
	unsigned adapter;	/* PCIe: system.pc.simbricks_<adapter> */
	const char *comp;	/* PCIe: the adapter as the host's events name
				 * it when not that (QEMU: "simbricks-pci") */
	uint32_t node, dev;	/* Ethernet: the network's node and device;
				 * n2n: a's */
	uint32_t node_b, dev_b;	/* n2n: b's */
	const char *sock;	/* the socket as the NIC (n2n: a) names it */
};

struct ssp_sbplan {
	struct ssp_sbplan_stream *streams;
	size_t nstreams;
	struct ssp_sbplan_link *links;	/* NIC by NIC: PCIe, then Ethernet;
					 * then network to network */
	size_t nlinks;
	char **warn;		/* what the user should know, one line each */
	size_t nwarn;
	size_t unsync;		/* channels without synchronization */
	const char *rules;	/* the rules' file name (rules/, share/) */
	char *rundir;		/* symphony: where the run is now, else NULL */
};

/* The plan borrows strings of r (kernel, socket paths): free it first. */
int ssp_sbplan_make(struct ssp_sbplan **pp, const struct ssp_simbricks *r,
    const struct ssp_sbplan_opts *o, struct ssp_err *e) SSP_MUST_USE;
/* Streams with something to read (a log found, or captured lines). */
size_t ssp_sbplan_present(const struct ssp_sbplan *p);

/*
 * The topology CSV (formats/topology.md): the streams, and a pcie, eth or
 * n2n row per link between two of them; a link with one end without a
 * stream is a comment row naming why.  present_only: leave out streams
 * without a log to read (and their links, as comments).  0, or -1 out of
 * memory.
 */
int ssp_sbplan_topology(const struct ssp_sbplan *p, const struct ssp_simbricks *r,
    int present_only, struct ssp_buf *b);
void ssp_sbplan_free(struct ssp_sbplan *p);

#endif
