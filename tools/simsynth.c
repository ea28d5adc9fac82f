/*
 * simsynth: write the logs of a synthetic SimBricks dumbbell run (gem5
 * hosts, i40e NICs, one ns-3 network) in the simulators' exact formats,
 * with the topology, symbol tables and rules simspan needs, and the truth
 * file that says which spans the logs contain and how they connect.  A
 * source: parameters --> simsynth --> logs + truth.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "synth/synsim.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: simsynth [-hVvz] [-c clients] [-H hosts] "
	    "[-n requests] [--seed N] [--stats]\n                "
	    "[--option value ...] dir\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Write a synthetic SimBricks dumbbell run into dir: gem5, nicbm and\n"
		    "ns-3 logs, topology.csv, vmlinux.syms, i40e.syms, rules.csv,\n"
		    "commands.sh and truth.csv (the spans the logs contain).\n"
		    "  -H, --hosts N             simulated hosts (2)\n"
		    "      --servers N           of which servers, on switch 0 (1)\n"
		    "  -n, --requests N          request/response pairs (100)\n"
		    "  -c, --concurrency N       clients sending at the same instant (1);\n"
		    "                            --kernel linux: client threads per client host\n"
		    "      --request-size B      UDP payload of a request (64)\n"
		    "      --response-size B     UDP payload of a response (1024)\n"
		    "      --interval TIME       between rounds of requests (50us)\n"
		    "      --pcie-latency TIME   PCIe link latency (500ns)\n"
		    "      --eth-latency TIME    NIC to ns-3 link latency (500ns)\n"
		    "      --net-latency TIME    bottleneck propagation delay (1us)\n"
		    "      --net MODEL           ns3 (the dumbbell), ns3-nslog (the same, logged\n"
		    "                            with NS_LOG), ns3net-nslog (symphony NS3Net: every\n"
		    "                            NIC on one ns-3 switch node, NS_LOG, no background),\n"
		    "                            switch (every NIC on one SimBricks net_switch,\n"
		    "                            NETSWITCH_DEBUG log) or switch-pcap (the same,\n"
		    "                            its -p capture) (ns3)\n"
		    "      --bandwidth RATE      bottleneck rate in bit/s, k/M/G (10G)\n"
		    "      --queue-limit N       bottleneck queue for background packets (64)\n"
		    "      --bg-load F           background share of the bottleneck (0.3)\n"
		    "      --bg-flows N          ns-3 host pairs making it (2)\n"
		    "      --bg-to-host F        background bursts that also reach a NIC (0.05)\n"
		    "      --bg-arp F            of those, ARP broadcasts to every NIC (0.3)\n"
		    "      --nonposted F         device register writes sent non-posted (0.05)\n"
		    "      --housekeeping F      scale of unrelated syscalls and ioctls (1)\n"
		    "      --itr TIME            NIC interrupt throttling (0; linux: 8us)\n"
		    "      --kernel K            columbo (one CPU, no preemption) or linux (columbo)\n"
		    "      --host H              gem5, or qemu (simbricks-pci DEBUG_PRINTS) (gem5)\n"
		    "      --cpus N              CPUs per host, 1..4 (linux; 1)\n"
		    "      --flow F              udp-rr, tcp-rr or tcp-stream (linux; udp-rr)\n"
		    "      --napi-budget N       frames per NAPI poll and softirq pass (linux; 8)\n"
		    "      --print P             ideal or real: how gem5 and i40e_bm print\n"
		    "                            (real with --kernel linux, else ideal)\n"
		    "      --sync-interval TIME  SimBricks sync messages (500ns)\n"
		    "      --checkpoint-offset TIME  gem5 prints absolute ticks (0)\n"
		    "      --gem5-dialect LIST   fmtflag, noposted, nobar: older gem5 output (current)\n"
		    "      --nic NIC             i40e, corundum (corundum_bm, mqnic),\n"
		    "                            corundum-verilator (its RTL model's adapter)\n"
		    "                            e1000 (e1000_gem5, Linux's e1000) or enso\n"
		    "                            (enso_bm, Ensō's EnsoGen and echo; QEMU hosts on\n"
		    "                            one net_switch) (i40e)\n"
		    "      --enso-pkts N         packets per EnsoGen transfer, 1..32 (4)\n"
		    "      --nicbm-dialect D     upstream, columbo or sigcomm22 (upstream)\n"
		    "      --gem5-size SIZE      pad each gem5 log to about SIZE (k/M/G)\n"
		    "      --exec-rate N         else: padding Exec lines per us (10)\n"
		    "      --seed N              random seed (1)\n"
		    "  -z, --zstd                compress the logs and truth.csv (.zst)\n"
		    "      --zstd-level N        compression level 1..19 (implies -z)\n"
		    "      --pace RATE           write at most RATE bytes/s (k/M/G)\n"
		    "      --restart-at TIME     close and reopen named-pipe outputs\n"
		    "      --stats               print counts to stderr (what was written)\n"
		    "  -v, --verbose             --stats plus the seed and the directory\n"
		    "  -h, --help                this help\n"
		    "  -V, --version             version and library versions\n"
		    "TIME takes ps (default), ns, us, ms or s.  See simsynth(1).\n");
	exit(ssp_cli_done("simsynth", code));
}

/* The soft limit of open files up to the hard one (simsynth keeps one
 * log per simulator open). */
static void
nofile_max(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

enum { O_STATS = 255, O_PARAM = 256 };	/* O_PARAM + i: longopts[i] */

static void
bad(const char *opt, const char *arg, const char *why)
{
	warnx("%s %s: %s", opt, arg, why);
	usage(SSP_EXIT_USAGE);
}

int
main(int argc, char **argv)
{
	static struct option longopts[] = {
		{ "bandwidth", required_argument, NULL, O_PARAM },
		{ "bg-arp", required_argument, NULL, O_PARAM },
		{ "bg-flows", required_argument, NULL, O_PARAM },
		{ "bg-load", required_argument, NULL, O_PARAM },
		{ "bg-to-host", required_argument, NULL, O_PARAM },
		{ "checkpoint-offset", required_argument, NULL, O_PARAM },
		{ "concurrency", required_argument, NULL, 'c' },
		{ "cpus", required_argument, NULL, O_PARAM },
		{ "flow", required_argument, NULL, O_PARAM },
		{ "kernel", required_argument, NULL, O_PARAM },
		{ "host", required_argument, NULL, O_PARAM },
		{ "napi-budget", required_argument, NULL, O_PARAM },
		{ "print", required_argument, NULL, O_PARAM },
		{ "eth-latency", required_argument, NULL, O_PARAM },
		{ "enso-pkts", required_argument, NULL, O_PARAM },
		{ "exec-rate", required_argument, NULL, O_PARAM },
		{ "gem5-dialect", required_argument, NULL, O_PARAM },
		{ "gem5-size", required_argument, NULL, O_PARAM },
		{ "help", no_argument, NULL, 'h' },
		{ "hosts", required_argument, NULL, 'H' },
		{ "housekeeping", required_argument, NULL, O_PARAM },
		{ "interval", required_argument, NULL, O_PARAM },
		{ "itr", required_argument, NULL, O_PARAM },
		{ "net", required_argument, NULL, O_PARAM },
		{ "net-latency", required_argument, NULL, O_PARAM },
		{ "nic", required_argument, NULL, O_PARAM },
		{ "nicbm-dialect", required_argument, NULL, O_PARAM },
		{ "nonposted", required_argument, NULL, O_PARAM },
		{ "pace", required_argument, NULL, O_PARAM },
		{ "pcie-latency", required_argument, NULL, O_PARAM },
		{ "queue-limit", required_argument, NULL, O_PARAM },
		{ "request-size", required_argument, NULL, O_PARAM },
		{ "requests", required_argument, NULL, 'n' },
		{ "response-size", required_argument, NULL, O_PARAM },
		{ "restart-at", required_argument, NULL, O_PARAM },
		{ "seed", required_argument, NULL, O_PARAM },
		{ "servers", required_argument, NULL, O_PARAM },
		{ "stats", no_argument, NULL, O_STATS },
		{ "sync-interval", required_argument, NULL, O_PARAM },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "zstd", no_argument, NULL, 'z' },
		{ "zstd-level", required_argument, NULL, O_PARAM },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_synparams p;
	struct ssp_synsim_result res;
	struct ssp_err e = { 0 };
	char cmdline[2048], o[40];
	const char *name;
	size_t n = 0;
	int ch, stats = 0, verbose = 0, i, li = -1, created;

	ssp_synparams_defaults(&p);
	/* distinct values, so that getopt_long still finds abbreviations
	 * ambiguous; O_PARAM + i is longopts[i], set by ssp_synparams_set */
	for (i = 0; longopts[i].name != NULL; i++)
		if (longopts[i].val == O_PARAM)
			longopts[i].val = O_PARAM + i;
	while ((ch = getopt_long(argc, argv, "c:H:hn:s:Vvz", longopts,
	    &li)) != -1) {
		/* the option's name, for messages */
		if (li >= 0)
			snprintf(o, sizeof(o), "--%s", longopts[li].name);
		else
			snprintf(o, sizeof(o), "-%c", ch);
		li = -1;
		name = NULL;
		switch (ch) {
		case 'c': name = "concurrency"; break;
		case 'H': name = "hosts"; break;
		case 'h': usage(0); break;
		case 'n': name = "requests"; break;
		case 's':	/* until 0.3 */
			ssp_cli_deprecated("simsynth", "-s", "--seed");
			name = "seed";
			break;
		case O_STATS: stats = 1; break;
		case 'V': ssp_cli_version("simsynth", (char *)NULL); return ssp_cli_done("simsynth", 0);
		case 'v': verbose = stats = 1; break;
		case 'z': if (p.zlevel == 0) p.zlevel = 3; break;
		default:
			if (ch < O_PARAM)
				usage(SSP_EXIT_USAGE);
			name = longopts[ch - O_PARAM].name;
		}
		if (name != NULL && ssp_synparams_set(&p, name, optarg, &e) != SSP_OK)
			bad(o, optarg, e.msg);
	}
	if (argc - optind != 1) {
		if (argc - optind == 0)
			warnx("missing output directory");
		else
			warnx("too many arguments");
		usage(SSP_EXIT_USAGE);
	}
	ssp_synparams_settle(&p);
	if (ssp_synparams_check(&p, &e) != SSP_OK) {
		warnx("%s", e.msg);
		usage(SSP_EXIT_USAGE);
	}
	/* The command line goes into commands.sh; the directory is implied. */
	n = (size_t)snprintf(cmdline, sizeof(cmdline), "simsynth");
	for (i = 1; i < optind && n < sizeof(cmdline); i++)
		n += (size_t)snprintf(cmdline + n, sizeof(cmdline) - n, " %s",
		    argv[i]);
	if (n < sizeof(cmdline))
		snprintf(cmdline + n, sizeof(cmdline) - n, " DIR");
	p.cmdline = cmdline;
	/* Every file is written whole, and all of them are put in place at
	 * the end (named pipes are written as they are).  A log per
	 * simulator is open at once: as many descriptors as allowed. */
	p.out_path = ssp_outfile_begin;
	nofile_max();
	created = access(argv[optind], F_OK) != 0;
	if (ssp_synsim_run(&p, argv[optind], &res, &e) != SSP_OK) {
		ssp_outfile_abort();
		if (created)	/* nothing left behind (fails unless empty) */
			rmdir(argv[optind]);
		errx(SSP_EXIT_FAIL, "%s%s", e.msg, strstr(e.msg, strerror(EMFILE)) ?
		    " (every log is open at once, two per host and more: fewer "
		    "hosts, or raise ulimit -n)" : "");
	}
	if (ssp_outfile_commit() != 0)
		err(SSP_EXIT_FAIL, "%s", argv[optind]);
	if (stats)
		ssp_synsim_report(stderr, &res, p.zlevel);
	if (verbose)
		fprintf(stderr, "simsynth: %s: seed %" PRIu64 ", %s\n", argv[optind],
		    p.seed, cmdline);
	ssp_synsim_result_free(&res);
	if (ssp_cli_close_stdout("simsynth") != 0)
		return SSP_EXIT_FAIL;
	return 0;
}
