/*
 * simsynth scenarios: a discrete-event model of a SimBricks dumbbell (gem5
 * hosts, i40e NICs on PCIe, one ns-3 network of two switches joined by a
 * bottleneck link) running UDP request/response traffic plus background
 * traffic, written out as the logs the real simulators would print, with
 * the topology, symbol tables, rules and the truth file.
 */
#ifndef SSP_SYNSIM_H
#define SSP_SYNSIM_H

#include <stdint.h>

#include "base/err.h"
#include "stream/event.h"
#include "synth/syngem5.h"
#include "synth/synlog.h"

/* Versions of nicbm's DEBUG_NICBM output (FORMATS.md §5). */
enum ssp_synsim_nicbm {
	SSP_SYN_NICBM_UPSTREAM,	/* since 2024-08: "info: ", "addr 0x", posted= */
	SSP_SYN_NICBM_COLUMBO,	/* q713/simbricks log-analysis: "info: ", "addr %lx" */
	SSP_SYN_NICBM_SIGCOMM22,/* 2022 printf: no prefix, "addr %lx", no posted= */
};
/* gem5 variants: SSP_SYN_G5_* in ssp_syngem5.h. */

/* Parse "upstream" etc.; -1 if unknown. */
int ssp_synsim_nicbm_dialect(const char *name);
const char *ssp_synsim_nicbm_dialect_name(enum ssp_synsim_nicbm d);
/* Parse a comma-separated list of "current", "fmtflag", "noposted",
 * "nobar" into SSP_SYN_G5_* bits; -1 on an unknown word. */
int ssp_synsim_gem5_dialect(const char *list, unsigned *bits);

struct ssp_synsim_params {
	unsigned hosts;		/* simulated hosts, >= 2 */
	unsigned servers;	/* of which servers (left switch), >= 1 */
	unsigned requests;	/* request/response pairs */
	unsigned concurrency;	/* clients sending at the same instant */
	unsigned req_size, resp_size;	/* UDP payload bytes */
	int64_t interval;	/* between rounds of requests, ps */
	int64_t pcie_lat, eth_lat, net_lat;	/* ps */
	uint64_t bandwidth;	/* bottleneck, bit/s */
	unsigned queue_limit;	/* bottleneck queue, packets (background only) */
	double bg_load;		/* background share of the bottleneck, 0..1 */
	unsigned bg_flows;	/* ns-3 host pairs */
	double bg_to_host;	/* share of background bursts that also reach a NIC */
	double bg_arp;		/* of those, ARP broadcasts (the rest: UDP to one NIC) */
	double nonposted;	/* share of device-BAR writes sent non-posted */
	double housekeeping;	/* scale of unrelated syscalls, ioctls, ... (0 = none) */
	int64_t itr;		/* NIC interrupt throttling interval, ps */
	int64_t sync_interval;	/* SimBricks sync messages, ps */
	int64_t ckpt_offset;	/* gem5 prints SimBricks time + this */
	int64_t restart_at;	/* reopen FIFO outputs at this time (0 = never) */
	uint64_t seed;
	uint64_t gem5_size;	/* pad each gem5 log to about this many bytes */
	double exec_rate;	/* else: padding Exec lines per simulated us */
	int zlevel;		/* compress logs with zstd at this level (0 = no) */
	uint64_t pace;		/* output limit in bytes/s (0 = none) */
	const char *cmdline;	/* how the scenario was made, for the notes */
	enum ssp_synsim_nicbm nicbm_dialect;	/* which nicbm prints the NIC logs */
	unsigned gem5_dialect;	/* SSP_SYN_G5_* bits */
};

void ssp_synsim_defaults(struct ssp_synsim_params *p);
/* Check ranges; SSP_ERR_INVAL with a message naming the option. */
int ssp_synsim_check(const struct ssp_synsim_params *p, struct ssp_err *e);

/* One log written, with what is in it. */
struct ssp_synsim_logstat {
	char name[64];		/* stream name */
	char file[80];		/* file name in the output directory */
	enum ssp_sim sim;
	struct ssp_synlog_stats io;
	uint64_t nev[SSP_EV_NTYPES];	/* lines per event type */
	uint64_t nskip[8];	/* lines that give no event, by reason */
	uint64_t glued;		/* nicbm messages glued onto dma data bytes */
};
/* Reasons in nskip[], named as sim2ev names them. */
enum { SSP_SYNSKIP_EXEC, SSP_SYNSKIP_MICROOP, SSP_SYNSKIP_NOPFENCE,
	SSP_SYNSKIP_FAULT, SSP_SYNSKIP_SBOTHER, SSP_SYNSKIP_NICINFO,
	SSP_SYNSKIP_DMADATA, SSP_SYNSKIP_N };
const char *ssp_synsim_skip_name(unsigned reason);

struct ssp_synsim_result {
	unsigned nlogs;
	struct ssp_synsim_logstat *logs;
	uint64_t spans, ties, rule_differs;
	uint64_t spans_kind[16];
	unsigned requests_done;
	int64_t end_ps;		/* simulated time at the end */
	double rtt_mean_ps, rtt_max_ps;
	uint64_t bg_packets, bg_drops, bg_to_nic;
	double gen_seconds;	/* wall time of the writing run */
};

/* Write a scenario into outdir (created if missing).  res may be NULL. */
int ssp_synsim_run(const struct ssp_synsim_params *p, const char *outdir,
    struct ssp_synsim_result *res, struct ssp_err *e);
void ssp_synsim_result_free(struct ssp_synsim_result *res);

#endif
