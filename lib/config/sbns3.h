/*
 * The ns-3 configuration symphony's NS3Net writes (its params file, or
 * the same words on the command line with use_file=False), read for the
 * topology: which socket each SimBricks device of the network uses and
 * which ns-3 node and device it is.
 *
 * The words are ns-3 CommandLine options of SimBricks' E2E helper
 * (simbricks-ns3-net, src/e2e-cc in SimBricks' ns-3):
 * --Global="K:V;...", --Logging="Component:level|...;...",
 * --TopologyNode="Id:<id>;Type:Switch", --TopologyChannel="Id:..;Type:
 * Simple;LeftNode:<id>;RightNode:<id>", --Host="Id:<node>/<id>;Type:..",
 * --Network="UnixSocket:<path>;...;Sync:<0|1>;Id:<node>/<id>;Type:
 * Simbricks" (Trunk and TrunkDevice: an ns-3 process on another machine).
 * Node and device numbers follow the order in which that program creates
 * them: nodes in --TopologyNode order; on each node, device 0 is the
 * bridge, then one device per channel end (--TopologyChannel order, left
 * before right), one per --Host, one per --Network, in that order.
 */
#ifndef SSP_SBNS3_H
#define SSP_SBNS3_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct ssp_sbns3_port {
	const char *sock;	/* UnixSocket */
	const char *id;		/* Id, "-16/-4" */
	uint32_t node, dev;
	int sync;		/* Sync: 0 or 1; -1 when not given */
};

struct ssp_sbns3 {
	struct ssp_sbns3_port *ports;	/* the SimBricks devices, in order */
	size_t nports;
	size_t nnodes;		/* topology nodes */
	size_t nsimple;		/* devices of channels and hosts (ns-3
				 * SimpleNetDevices in SimBricks' E2E program) */
	const char *logging;	/* --Logging value ("" or absent: NULL) */
	char *text;		/* owns the strings */
};

/*
 * Read words[0..n) (quotes already removed).  name names the source in
 * messages.  SSP_ERR_FORMAT naming the word: a component value that is
 * not "Key:Value;..." pairs, a --Network or --Host whose node is not a
 * --TopologyNode, a topology node type other than Switch, a channel
 * whose ends are not nodes; SSP_ERR_INVAL: a Trunk (not supported yet).
 */
int ssp_sbns3_parse(struct ssp_sbns3 **np, const char *const *words, size_t n,
    const char *name, struct ssp_err *e);
void ssp_sbns3_free(struct ssp_sbns3 *n);

#endif
