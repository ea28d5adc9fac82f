/*
 * The one table of SimBricks simulator classes (2022 orchestrator and
 * symphony): for each class, how its command line names its sockets,
 * which sim2ev format reads its log and where that log is, or why it
 * has none yet.  The planner (sbplan) and simspan-simbricks(1) read only
 * this table; a new parser is one row changed (see the row recipe in
 * simspan-simbricks(1), CLASSES).
 */
#ifndef SSP_SBCLASS_H
#define SSP_SBCLASS_H

#include "stream/event.h"

/* How a command line names its sockets (sbplan scans it). */
enum ssp_sbclass_cmd {
	SSP_SBCLASS_CMD_NONE = 0,
	SSP_SBCLASS_CMD_GEM5,	/* --simbricks-pci=[connect:]P, --outdir, --debug-* */
	SSP_SBCLASS_CMD_QEMU,	/* -device simbricks-pci,socket=P / -chardev */
	SSP_SBCLASS_CMD_NICBM,	/* argv 1 PCI, 2 Ethernet; nicbm MAC and log file */
	SSP_SBCLASS_CMD_NICRTL,	/* argv 1 PCI, 2 Ethernet; no log file argument */
	SSP_SBCLASS_CMD_SWITCH,	/* net_switch -s P / -h P, -p pcap, -u */
	SSP_SBCLASS_CMD_NS3_2022,	/* cosim examples: --CosimPort=P */
	SSP_SBCLASS_CMD_NS3,	/* symphony NS3Net: --ConfigFile (sbns3) */
	SSP_SBCLASS_CMD_PROXY,	/* net_sockets -L/-C P (distributed runs) */
};

/* What the simulator is in the topology. */
enum ssp_sbclass_role {
	SSP_SBCLASS_HOST = 1,
	SSP_SBCLASS_NIC,
	SSP_SBCLASS_NET,
	SSP_SBCLASS_PROXY,
};

/* Where the log sim2ev reads is. */
enum ssp_sbclass_log {
	SSP_SBCLASS_LOG_NONE = 0,	/* no parser: no stream */
	SSP_SBCLASS_LOG_GEM5,	/* --debug-file under --outdir, else stdout */
	SSP_SBCLASS_LOG_NICBM,	/* the log-file argument (symphony log_file),
				 * else stdout or stderr, whichever has more */
	SSP_SBCLASS_LOG_STDOUT,	/* captured stdout */
	SSP_SBCLASS_LOG_STDERR,	/* captured stderr */
	SSP_SBCLASS_LOG_NS3TRACE,	/* --EnableTracing=F, or --log only */
	SSP_SBCLASS_LOG_SWITCH,	/* -p pcap (sim2ev -f pcap), else the
				 * NETSWITCH_DEBUG lines in stderr */
	SSP_SBCLASS_LOG_NSLOG,	/* NS3Net: NS_LOG lines in stderr when its
				 * params' --Logging turns them on */
};

struct ssp_sbclass {
	const char *name;	/* the orchestrator's class: "I40eNicSim" */
	enum ssp_sbclass_role role;
	enum ssp_sbclass_cmd cmd;
	enum ssp_sim sim;	/* sim2ev -f of its log; SSP_SIM_NONE: none yet */
	enum ssp_sbclass_log log;
	const char *needle;	/* a substring every event line of the format
				 * has, to count captured lines (NULL: don't) */
	const char *driver;	/* NIC: the guest driver (symbols, rules) */
	const char *rules;	/* NIC: the rules file by name */
	/* No parser: what is missing (one sentence, no trailing period). */
	const char *lacks;
	/* What the user can do, one sentence: without a parser, instead;
	 * with one, how its debug lines get into the log when the log has
	 * none (in the attribute names of the orchestrator's script). */
	const char *enable;
	int refuse;		/* the plan stops: a topology cannot be made */
};

/* The row of class name, or NULL. */
const struct ssp_sbclass *ssp_sbclass_find(const char *name);
/* Row i, or NULL past the end (for listings). */
const struct ssp_sbclass *ssp_sbclass_at(unsigned i);

#endif
