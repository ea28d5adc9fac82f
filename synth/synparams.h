/*
 * simsynth's parameters: what ssp_synsim_run makes (the size and shape of
 * the scenario, its timing and traffic, the log dialects), their defaults
 * and range checks.
 */
#ifndef SSP_SYNPARAMS_H
#define SSP_SYNPARAMS_H

#include <stdint.h>

#include "base/err.h"

/* Versions of nicbm's DEBUG_NICBM output (FORMATS.md §5). */
enum ssp_synparams_nicbm {
	SSP_SYN_NICBM_UPSTREAM,	/* since 2024-08: "info: ", "addr 0x", posted= */
	SSP_SYN_NICBM_COLUMBO,	/* q713/simbricks log-analysis: "info: ", "addr %lx" */
	SSP_SYN_NICBM_SIGCOMM22,/* 2022 printf: no prefix, "addr %lx", no posted= */
};
/* gem5 variants: SSP_SYN_G5_* in synth/syngem5.h. */
/* The network model. */
enum ssp_synparams_net {
	SSP_SYN_NET_NS3,	/* ns-3 dumbbell (two switches, bottleneck) */
	SSP_SYN_NET_SWITCH,	/* one SimBricks net_switch, NETSWITCH_DEBUG */
};

/* The NIC model and its host driver. */
enum ssp_synparams_nic {
	SSP_SYN_NIC_I40E,	/* i40e_bm + the i40e driver (default) */
	SSP_SYN_NIC_CORUNDUM,	/* corundum_bm + SimBricks' mqnic driver */
	SSP_SYN_NIC_E1000,	/* e1000_gem5 + Linux's e1000 driver (syne1000.c) */
	SSP_SYN_NIC_ENSO,	/* enso_bm + Ensō's userspace library (synenso.c) */
};

/* Parse "i40e", "corundum", "e1000" or "enso" into *n; SSP_ERR_INVAL if
 * unknown. */
int ssp_synparams_nic(const char *name, enum ssp_synparams_nic *n);
const char *ssp_synparams_nic_name(enum ssp_synparams_nic n);

/* The host simulator: gem5 (Exec trace and adapter lines) or QEMU (the
 * simbricks-pci device's DEBUG_PRINTS lines, no instruction trace). */
enum ssp_synparams_host { SSP_SYN_HOST_GEM5, SSP_SYN_HOST_QEMU };

/* The host model: Columbo's one-CPU world, or Linux 5.15 contexts. */
enum ssp_synparams_kernel { SSP_SYN_KERNEL_COLUMBO, SSP_SYN_KERNEL_LINUX };
/* What the applications of --kernel linux send. */
enum ssp_synparams_flow { SSP_SYN_FLOW_UDP_RR, SSP_SYN_FLOW_TCP_RR,
	SSP_SYN_FLOW_TCP_STREAM };

/*
 * What the logs print (SPEC §3c).  ideal: what the span rules of SPEC §3
 * and §3b assume (an MMIO's Exec line right before its adapter line, a
 * NIC that fetches, writes back and interrupts per frame); the only
 * printing of --kernel columbo and of simsynth before SPEC §3c.  real
 * (--kernel linux): what gem5's TimingSimpleCPU and i40e_bm print
 * (synth/README.md, formats/events.md §5).  auto: real with --kernel
 * linux, ideal otherwise.
 */
enum ssp_synparams_print { SSP_SYN_PRINT_AUTO, SSP_SYN_PRINT_IDEAL,
	SSP_SYN_PRINT_REAL };

/* "columbo"/"linux", "udp-rr"/"tcp-rr"/"tcp-stream": SSP_ERR_INVAL if
 * unknown (*out unchanged). */
int ssp_synparams_kernel(const char *name, enum ssp_synparams_kernel *out);
int ssp_synparams_flow(const char *name, enum ssp_synparams_flow *out);
/* "ideal"/"real" (auto is the default, not a name). */
int ssp_synparams_print(const char *name, enum ssp_synparams_print *out);
const char *ssp_synparams_flow_name(enum ssp_synparams_flow f);

/* Parse "upstream" etc. into *d; SSP_ERR_INVAL if unknown (*d unchanged). */
int ssp_synparams_nicbm_dialect(const char *name, enum ssp_synparams_nicbm *d);
const char *ssp_synparams_nicbm_dialect_name(enum ssp_synparams_nicbm d);
/* Parse a comma-separated list of "current", "fmtflag", "noposted",
 * "nobar" into SSP_SYN_G5_* bits; SSP_ERR_INVAL on an unknown word. */
int ssp_synparams_gem5_dialect(const char *list, unsigned *bits);

struct ssp_synparams {
	unsigned hosts;		/* simulated hosts, >= 2 */
	unsigned servers;	/* of which servers (left switch), >= 1 */
	unsigned requests;	/* request/response pairs */
	unsigned concurrency;	/* clients sending at the same instant */
	unsigned req_size, resp_size;	/* UDP payload bytes */
	unsigned enso_pkts;		/* --nic enso: packets per EnsoGen transfer */
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
	/* The path to write for each output file (NULL: the file itself):
	 * simsynth's ssp_outfile_begin, a temporary file it renames into
	 * place once the run is complete.  NULL with errno on failure. */
	const char *(*out_path)(const char *path);
	enum ssp_synparams_nicbm nicbm_dialect;	/* which nicbm prints the NIC logs */
	unsigned gem5_dialect;	/* SSP_SYN_G5_* bits */
	enum ssp_synparams_nic nic;	/* which NIC and driver */
	enum ssp_synparams_net net;	/* which network simulator */
	int ns3_nslog;		/* ns3: NS_LOG lines instead of the trace helper's */
	int ns3_e2e;		/* ns3: symphony NS3Net's layout (SimBricks' E2E
				 * program): one switch node, NIC i on device
				 * i + 1, no bottleneck, no background */
	int switch_pcap;	/* switch: its -p capture instead of debug lines */
	/* --kernel linux only */
	enum ssp_synparams_kernel kernel;
	unsigned cpus;		/* CPUs per host, 1..4 */
	enum ssp_synparams_flow flow;
	unsigned napi_budget;	/* packets per NAPI poll and per net_rx_action */
	int64_t itr_linux;	/* interrupt throttling when --itr is not given */
	int itr_set;		/* --itr was given */
	enum ssp_synparams_print print;	/* SSP_SYN_PRINT_AUTO unless given */
	enum ssp_synparams_host host;	/* which host simulator prints the logs */
	int corundum_rtl;	/* --nic corundum-verilator: nic is corundum,
				 * as the Verilator RTL model logs it */
	int nonposted_set;	/* --nonposted was given */
};

void ssp_synparams_defaults(struct ssp_synparams *p);
/* The printing p resolves to: SSP_SYN_PRINT_IDEAL or SSP_SYN_PRINT_REAL. */
enum ssp_synparams_print ssp_synparams_printing(const struct ssp_synparams *p);
/* 123, 4k, 2M, 1G, 1T, an optional "bps" (binary multiples when binary,
 * else decimal); SSP_ERR_INVAL if invalid or too large. */
int ssp_synparams_scaled(const char *s, int binary, uint64_t *out);
/*
 * Set the parameter of simsynth's long option name (without "--") to the
 * text arg; SSP_ERR_INVAL with only why in e->msg ("too large", "want
 * gem5 or qemu": the caller names the option and the value).
 */
int ssp_synparams_set(struct ssp_synparams *p, const char *name,
    const char *arg, struct ssp_err *e);
/* The defaults that depend on other parameters, once all are set. */
void ssp_synparams_settle(struct ssp_synparams *p);
/* Check ranges; SSP_ERR_INVAL with a message naming the option. */
int ssp_synparams_check(const struct ssp_synparams *p, struct ssp_err *e);

#endif
