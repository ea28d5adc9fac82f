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

#include "base/num.h"
#include "stream/span.h"
#include "synth/synsim.h"
#include "synth/syntruth.h"
#include "tools/common/cli.h"
#include "tools/common/outfile.h"

enum {
	O_BANDWIDTH = 256, O_BG_ARP, O_BG_FLOWS, O_BG_LOAD, O_BG_TO_HOST, O_CKPT,
	O_ETH_LAT, O_EXEC_RATE, O_GEM5_DIALECT, O_GEM5_SIZE, O_HOUSE, O_INTERVAL,
	O_ITR, O_NET_LAT, O_NIC, O_NICBM_DIALECT, O_NONPOSTED, O_PACE, O_PCIE_LAT, O_QLIMIT, O_REQ_SIZE,
	O_RESP_SIZE, O_RESTART, O_SERVERS, O_SYNC, O_ZLEVEL, O_NET, O_KERNEL, O_CPUS,
	O_HOST,
	O_FLOW, O_NAPI_BUDGET, O_PRINT, O_SEED, O_STATS,
};

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
		    "                            or e1000 (e1000_gem5, Linux's e1000) (i40e)\n"
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

/* 123, 4k, 2M, 1G (binary multiples when binary, else decimal). */
static int
parse_scaled(const char *s, int binary, uint64_t *out)
{
	char buf[64];
	size_t n = strlen(s);
	uint64_t mul = 1, v;
	const char *errstr;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);
	if (n > 3 && strcmp(buf + n - 3, "bps") == 0)
		buf[n -= 3] = '\0';
	switch (n > 0 ? buf[n - 1] : 0) {
	case 'k': case 'K': mul = binary ? 1024ull : 1000ull; break;
	case 'M': mul = binary ? 1024ull * 1024 : 1000000ull; break;
	case 'G': mul = binary ? 1024ull * 1024 * 1024 : 1000000000ull; break;
	case 'T': mul = binary ? 1024ull * 1024 * 1024 * 1024 : 1000000000000ull; break;
	}
	if (mul > 1)
		buf[n - 1] = '\0';
	if (ssp_num_strtou64(buf, &v, &errstr) != 0 || v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
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

static void
bad(const char *opt, const char *arg, const char *why)
{
	warnx("%s %s: %s", opt, arg, why);
	usage(SSP_EXIT_USAGE);
}

static unsigned
num(const char *opt, const char *arg, int64_t min, int64_t max)
{
	const char *errstr;
	int64_t v;

	if (ssp_num_strtonum(arg, min, max, &v, &errstr) != 0)
		bad(opt, arg, errstr);
	return (unsigned)v;
}

static double
frac(const char *opt, const char *arg, double max)
{
	char *end;
	double v = strtod(arg, &end);

	if (*arg == '\0' || *end != '\0' || !(v >= 0 && v <= max))
		bad(opt, arg, "invalid");
	return v;
}

static int64_t
tm(const char *opt, const char *arg)
{
	const char *errstr;
	int64_t v;

	if (ssp_num_parse_time(arg, &v, &errstr) != 0)
		bad(opt, arg, errstr);
	if (v < 0)
		bad(opt, arg, "negative");
	return v;
}

static void
print_stats(const struct ssp_synsim_result *r, int zlevel)
{
	uint64_t total = 0;
	unsigned i, k, o, n;

	fprintf(stderr, "%-26s %12s %10s %10s  %s\n", "log", "bytes", "lines",
	    "events", "lines without an event");
	for (i = 0; i < r->nlogs; i++) {
		const struct ssp_synsim_logstat *l = &r->logs[i];
		uint64_t ev = 0;

		for (k = 0; k < SSP_EV_NTYPES; k++)
			ev += l->nev[k];
		fprintf(stderr, "%-26s %12" PRIu64 " %10" PRIu64 " %10" PRIu64 " ",
		    l->file, l->io.bytes, l->io.lines, ev);
		for (k = 0; k < SSP_SYNSKIP_N; k++)
			if (l->nskip[k] > 0)
				fprintf(stderr, " %s=%" PRIu64, ssp_synlog_skip_name(k),
				    l->nskip[k]);
		if (l->glued > 0)
			fprintf(stderr, " (glued=%" PRIu64 ")", l->glued);
		fprintf(stderr, "\n");
		total += l->io.bytes;
	}
	fprintf(stderr, "spans %" PRIu64 ":", r->spans);
	for (k = 0; k < SSP_SK_NKINDS; k++)
		fprintf(stderr, " %s=%" PRIu64, ssp_span_kind_name(k),
		    r->spans_kind[k]);
	for (k = SSP_SYNTRUTH_K_IRQ; k < SSP_SYNTRUTH_NKINDS; k++)
		if (r->spans_kind[k] > 0)
			fprintf(stderr, " %s=%" PRIu64, ssp_syntruth_kind_name(k),
			    r->spans_kind[k]);
	if (r->ambiguous > 0)
		fprintf(stderr, " (ambiguous %" PRIu64 ")", r->ambiguous);
	fprintf(stderr, "\nspans whose SPEC heuristic parent differs from the "
	    "real one: %" PRIu64 "\n", r->rule_differs);
	fprintf(stderr, "requests %u, round trip mean %.2f us max %.2f us; "
	    "simulated %.3f ms\n", r->requests_done, r->rtt_mean_ps / 1e6,
	    r->rtt_max_ps / 1e6, (double)r->end_ps / 1e9);
	fprintf(stderr, "background packets %" PRIu64 ", dropped %" PRIu64
	    ", reaching a NIC %" PRIu64 "\n", r->bg_packets, r->bg_drops,
	    r->bg_to_nic);
	for (i = 0, k = 0, o = 0, n = 0; i < r->nlogs; i++) {
		if (r->logs[i].io.blocked_max_ns > r->logs[k].io.blocked_max_ns)
			k = i;
		if (r->logs[i].io.open_max_ns > r->logs[o].io.open_max_ns)
			o = i;
		n += r->logs[i].io.reopens;
	}
	if (n > 0)
		fprintf(stderr, "reopened %u named pipes (restart)\n", n);
	fprintf(stderr, "wrote %.1f MB%s in %.2f s (%.0f MB/s); longest write "
	    "%.1f ms (%s); longest open %.1f ms (%s)\n", (double)total / 1e6,
	    zlevel ? " before zstd" : "", r->gen_seconds, r->gen_seconds > 0 ?
	    (double)total / 1e6 / r->gen_seconds : 0, r->nlogs ?
	    (double)r->logs[k].io.blocked_max_ns / 1e6 : 0,
	    r->nlogs ? r->logs[k].file : "-", r->nlogs ?
	    (double)r->logs[o].io.open_max_ns / 1e6 : 0,
	    r->nlogs ? r->logs[o].file : "-");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bandwidth", required_argument, NULL, O_BANDWIDTH },
		{ "bg-arp", required_argument, NULL, O_BG_ARP },
		{ "bg-flows", required_argument, NULL, O_BG_FLOWS },
		{ "bg-load", required_argument, NULL, O_BG_LOAD },
		{ "bg-to-host", required_argument, NULL, O_BG_TO_HOST },
		{ "checkpoint-offset", required_argument, NULL, O_CKPT },
		{ "concurrency", required_argument, NULL, 'c' },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "flow", required_argument, NULL, O_FLOW },
		{ "kernel", required_argument, NULL, O_KERNEL },
		{ "host", required_argument, NULL, O_HOST },
		{ "napi-budget", required_argument, NULL, O_NAPI_BUDGET },
		{ "print", required_argument, NULL, O_PRINT },
		{ "eth-latency", required_argument, NULL, O_ETH_LAT },
		{ "exec-rate", required_argument, NULL, O_EXEC_RATE },
		{ "gem5-dialect", required_argument, NULL, O_GEM5_DIALECT },
		{ "gem5-size", required_argument, NULL, O_GEM5_SIZE },
		{ "help", no_argument, NULL, 'h' },
		{ "hosts", required_argument, NULL, 'H' },
		{ "housekeeping", required_argument, NULL, O_HOUSE },
		{ "interval", required_argument, NULL, O_INTERVAL },
		{ "itr", required_argument, NULL, O_ITR },
		{ "net", required_argument, NULL, O_NET },
		{ "net-latency", required_argument, NULL, O_NET_LAT },
		{ "nic", required_argument, NULL, O_NIC },
		{ "nicbm-dialect", required_argument, NULL, O_NICBM_DIALECT },
		{ "nonposted", required_argument, NULL, O_NONPOSTED },
		{ "pace", required_argument, NULL, O_PACE },
		{ "pcie-latency", required_argument, NULL, O_PCIE_LAT },
		{ "queue-limit", required_argument, NULL, O_QLIMIT },
		{ "request-size", required_argument, NULL, O_REQ_SIZE },
		{ "requests", required_argument, NULL, 'n' },
		{ "response-size", required_argument, NULL, O_RESP_SIZE },
		{ "restart-at", required_argument, NULL, O_RESTART },
		{ "seed", required_argument, NULL, O_SEED },
		{ "servers", required_argument, NULL, O_SERVERS },
		{ "stats", no_argument, NULL, O_STATS },
		{ "sync-interval", required_argument, NULL, O_SYNC },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "zstd", no_argument, NULL, 'z' },
		{ "zstd-level", required_argument, NULL, O_ZLEVEL },
		{ NULL, 0, NULL, 0 },
	};
	struct ssp_synparams p;
	struct ssp_synsim_result res;
	struct ssp_err e = { 0 };
	char cmdline[2048], o[40];
	const char *errstr;
	size_t n = 0;
	int ch, stats = 0, verbose = 0, i, li = -1, nonposted_set = 0, created;

	ssp_synparams_defaults(&p);
	while ((ch = getopt_long(argc, argv, "c:H:hn:s:Vvz", longopts,
	    &li)) != -1) {
		/* the option's name, for messages */
		if (li >= 0)
			snprintf(o, sizeof(o), "--%s", longopts[li].name);
		else
			snprintf(o, sizeof(o), "-%c", ch);
		li = -1;
		switch (ch) {
		case 'c': p.concurrency = num(o, optarg, 1, 1000); break;
		case 'H': p.hosts = num(o, optarg, 2, 200); break;
		case 'h': usage(0); break;
		case 'n': p.requests = num(o, optarg, 0, 10000000); break;
		case 's':	/* until 0.3 */
			ssp_cli_deprecated("simsynth", "-s", "--seed");
			/* FALLTHROUGH */
		case O_SEED:
			if (ssp_num_strtou64(optarg, &p.seed, &errstr) != 0)
				bad(o, optarg, errstr);
			break;
		case O_STATS: stats = 1; break;
		case 'V': ssp_cli_version("simsynth", (char *)NULL); return ssp_cli_done("simsynth", 0);
		case 'v': verbose = stats = 1; break;
		case 'z': if (p.zlevel == 0) p.zlevel = 3; break;
		case O_BANDWIDTH:
			if (parse_scaled(optarg, 0, &p.bandwidth) != 0)
				bad(o, optarg, "invalid rate");
			break;
		case O_BG_ARP: p.bg_arp = frac(o, optarg, 1); break;
		case O_BG_FLOWS: p.bg_flows = num(o, optarg, 0, 64); break;
		case O_BG_LOAD: p.bg_load = frac(o, optarg, 0.95); break;
		case O_BG_TO_HOST: p.bg_to_host = frac(o, optarg, 1); break;
		case O_CKPT: p.ckpt_offset = tm(o, optarg); break;
		case O_ETH_LAT: p.eth_lat = tm(o, optarg); break;
		case O_EXEC_RATE: p.exec_rate = frac(o, optarg, 1e6); break;
		case O_GEM5_DIALECT:
			if (ssp_synparams_gem5_dialect(optarg, &p.gem5_dialect) !=
			    SSP_OK)
				bad(o, optarg, "want a comma-separated list of "
				    "current, fmtflag, noposted, nobar");
			break;
		case O_GEM5_SIZE:
			if (parse_scaled(optarg, 1, &p.gem5_size) != 0)
				bad(o, optarg, "invalid size");
			break;
		case O_HOUSE: p.housekeeping = frac(o, optarg, 100); break;
		case O_INTERVAL: p.interval = tm(o, optarg); break;
		case O_ITR: p.itr = tm(o, optarg); p.itr_set = 1; break;
		case O_KERNEL:
			if (ssp_synparams_kernel(optarg, &p.kernel) != SSP_OK)
				bad(o, optarg, "want columbo or linux");
			break;
		case O_CPUS: p.cpus = num(o, optarg, 1, 4); break;
		case O_HOST:
			if (strcmp(optarg, "gem5") == 0)
				p.host = SSP_SYN_HOST_GEM5;
			else if (strcmp(optarg, "qemu") == 0)
				p.host = SSP_SYN_HOST_QEMU;
			else
				bad(o, optarg, "want gem5 or qemu");
			break;
		case O_FLOW:
			if (ssp_synparams_flow(optarg, &p.flow) != SSP_OK)
				bad(o, optarg, "want udp-rr, tcp-rr or tcp-stream");
			break;
		case O_NAPI_BUDGET: p.napi_budget = num(o, optarg, 1, 64); break;
		case O_PRINT:
			if (ssp_synparams_print(optarg, &p.print) != SSP_OK)
				bad(o, optarg, "want ideal or real");
			break;
		case O_NET:
			p.ns3_e2e = strcmp(optarg, "ns3net-nslog") == 0;
			p.ns3_nslog = strcmp(optarg, "ns3-nslog") == 0 || p.ns3_e2e;
			p.switch_pcap = strcmp(optarg, "switch-pcap") == 0;
			if (strcmp(optarg, "ns3") == 0 || p.ns3_nslog)
				p.net = SSP_SYN_NET_NS3;
			else if (strcmp(optarg, "switch") == 0 || p.switch_pcap)
				p.net = SSP_SYN_NET_SWITCH;
			else
				bad(o, optarg, "want ns3, ns3-nslog, ns3net-nslog, switch "
				    "or switch-pcap");
			break;
		case O_NET_LAT: p.net_lat = tm(o, optarg); break;
		case O_NIC:
			p.corundum_rtl = strcmp(optarg, "corundum-verilator") == 0;
			if (p.corundum_rtl)
				p.nic = SSP_SYN_NIC_CORUNDUM;
			else if (ssp_synparams_nic(optarg, &p.nic) != SSP_OK)
				bad(o, optarg, "want i40e, corundum, "
				    "corundum-verilator or e1000");
			break;
		case O_NICBM_DIALECT:
			if (ssp_synparams_nicbm_dialect(optarg, &p.nicbm_dialect) !=
			    SSP_OK)
				bad(o, optarg, "want upstream, columbo or sigcomm22");
			break;
		case O_NONPOSTED:
			p.nonposted = frac(o, optarg, 1);
			nonposted_set = 1;
			break;
		case O_PACE:
			if (parse_scaled(optarg, 1, &p.pace) != 0)
				bad(o, optarg, "invalid rate");
			break;
		case O_PCIE_LAT: p.pcie_lat = tm(o, optarg); break;
		case O_QLIMIT: p.queue_limit = num(o, optarg, 1, 1000000); break;
		case O_REQ_SIZE: p.req_size = num(o, optarg, 1, 65000); break;
		case O_RESP_SIZE: p.resp_size = num(o, optarg, 1, 65000); break;
		case O_RESTART: p.restart_at = tm(o, optarg); break;
		case O_SERVERS: p.servers = num(o, optarg, 1, 199); break;
		case O_SYNC: p.sync_interval = tm(o, optarg); break;
		case O_ZLEVEL: p.zlevel = (int)num(o, optarg, 1, 19); break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	if (argc - optind != 1) {
		if (argc - optind == 0)
			warnx("missing output directory");
		else
			warnx("too many arguments");
		usage(SSP_EXIT_USAGE);
	}
	/* the RTL adapter answers non-posted writes twice: gem5 hosts send
	 * posted ones unless told otherwise (ssp_synparams_check) */
	if (p.corundum_rtl && p.host == SSP_SYN_HOST_GEM5 && !nonposted_set)
		p.nonposted = 0;
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
		print_stats(&res, p.zlevel);
	if (verbose)
		fprintf(stderr, "simsynth: %s: seed %" PRIu64 ", %s\n", argv[optind],
		    p.seed, cmdline);
	ssp_synsim_result_free(&res);
	if (ssp_cli_close_stdout("simsynth") != 0)
		return SSP_EXIT_FAIL;
	return 0;
}
