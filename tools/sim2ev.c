/*
 * sim2ev: one simulator's log to a binary event stream.  A source:
 * log --> sim2ev --> events.  Runs next to a live simulation (named pipe,
 * --follow), in constant memory.
 */
#include <err.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/atoms.h"
#include "base/num.h"
#include "io/out.h"
#include "source/conv.h"
#include "source/convrun.h"
#include "tools/common/cli.h"
#include "tools/common/convreport.h"
#include "tools/common/outfile.h"
#include "tools/common/progress.h"
#include "tools/common/siminput.h"
#include "tools/common/warn.h"

#define MAX_SYMTABS   256
#define NAMES_MAX     262144		/* distinct names taken from a log */
#define NAMES_BYTES   (8u << 20)
static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f, "usage: sim2ev -f gem5|nicbm|ns3|switch|qemu|corundum|e1000|pcap "
	    "[-IVhqvz] [-n name]\n              [-o file] [-s symtab[,name[,offset]]]...\n"
	    "              [--follow] [--follow-timeout time] [--force] [--stats] "
	    "[--strict]\n              [--time-offset ps|sync] [log | -]\n"
	    "       sim2ev -f FORMAT [options] --simbricks-json run.json --sim NAME "
	    "[--sim-stderr]\n"
	    "       sim2ev -f pcap [--node N] [--device D] [options] [capture | -]\n");
	if (code == 0)
		fprintf(f, "\n"
		    "Parse a simulator log into a simspan event stream.\n"
		    "  -f, --format SIM        gem5, nicbm (and Enso), ns3 (ns-3 trace sinks,\n"
		    "                          ASCII traces and NS_LOG), switch (SimBricks\n"
		    "                          net_switch, NETSWITCH_DEBUG), qemu (simbricks-pci\n"
		    "                          DEBUG_PRINTS), corundum (Corundum Verilator,\n"
		    "                          CORUNDUM_VERILATOR_DEBUG), e1000 (E1000_DEBUG)\n"
		    "                          or pcap (ns-3 PcapHelper files, net_switch -p)\n"
		    "      --node N, --device D  -f pcap: where the capture was taken (default:\n"
		    "                          from an ns-3 name prefix-N-D.pcap, else node 0\n"
		    "                          and no device: a net_switch's capture)\n"
		    "  -n, --name NAME         stream name (default: log name without extension)\n"
		    "  -s, --symtab FILE[,NAME[,OFFSET]]\n"
		    "                          objdump -t or nm symbol table for gem5 function\n"
		    "                          entries; NAME defaults to FILE's base name,\n"
		    "                          OFFSET (added to addresses) to 0; repeatable;\n"
		    "                          a user program: app.syms,app,0x555555554000\n"
		    "  -I, --insn              gem5: every Exec line becomes an insn event\n"
		    "  -o, --output FILE       write to FILE (.zst: compressed)\n"
		    "  -z, --zstd              compress the output with zstd\n"
		    "      --force             write binary output to a terminal\n"
		    "      --time-offset PS|sync\n"
		    "                          subtract PS (units ps, ns, us, ms, s) from every\n"
		    "                          timestamp, or take it from the first sync line\n"
		    "                          (gem5; qemu takes it by default when present)\n"
		    "      --follow            keep reading a named pipe across writer restarts\n"
		    "                          until SIGTERM, SIGINT or SIGHUP\n"
		    "      --follow-timeout T  with --follow, also stop when no writer has had the\n"
		    "                          pipe open for T (s, ms, min; 0 = never)\n"
		    "      --simbricks-json RUN  read the captured stdout of the simulator\n"
		    "                          --sim NAME from a SimBricks run's JSON\n"
		    "      --sim-stderr        with --simbricks-json, its stderr instead\n"
		    "      --stats             print counts to stderr (lines, events, skipped)\n"
		    "      --strict            fail on the first malformed line, and exit 1\n"
		    "                          after any warning\n"
		    "  -v, --verbose           --stats plus what was loaded and derived\n"
		    "  -q, --quiet             no warnings and no progress line (--strict\n"
		    "                          still counts the warnings)\n"
		    "  -h, --help              this help\n"
		    "  -V, --version           version and library versions\n"
		    "With no LOG, or when LOG is -, read standard input.  See sim2ev(1).\n");
	exit(ssp_cli_done("sim2ev", code));
}

int
main(int argc, char **argv)
{
	enum { O_FOLLOW = 256, O_FTIMEOUT, O_FORCE, O_STATS, O_STRICT, O_TOFF,
	    O_SBJSON, O_SIM, O_SIMERR, O_NODE, O_DEVICE, O_COMPRESS };
	static const struct option longopts[] = {
		{ "compress", no_argument, NULL, O_COMPRESS },	/* until 0.3 */
		{ "device", required_argument, NULL, O_DEVICE },
		{ "follow", no_argument, NULL, O_FOLLOW },
		{ "follow-timeout", required_argument, NULL, O_FTIMEOUT },
		{ "force", no_argument, NULL, O_FORCE },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "insn", no_argument, NULL, 'I' },
		{ "name", required_argument, NULL, 'n' },
		{ "node", required_argument, NULL, O_NODE },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "sim", required_argument, NULL, O_SIM },
		{ "sim-stderr", no_argument, NULL, O_SIMERR },
		{ "simbricks-json", required_argument, NULL, O_SBJSON },
		{ "stats", no_argument, NULL, O_STATS },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "symtab", required_argument, NULL, 's' },
		{ "time-offset", required_argument, NULL, O_TOFF },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "zstd", no_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 },
	};
	static const int stop_signals[] = { SIGTERM, SIGINT, SIGHUP };
	struct ssp_conv_cfg cfg = { 0 };
	struct ssp_siminput si = { .sim = SSP_SIM_NONE, .fol = { &stop, 200, 0 },
	    .at = { 0, SSP_PCAPIN_ANY } };
	char *symspec[MAX_SYMTABS], *outpath = NULL, producer[64];
	const char *errstr;
	struct ssp_atoms *atoms;
	struct ssp_out *out;
	struct ssp_conv *c;
	struct ssp_convrun_opts ro;
	struct ssp_progress pg;
	struct ssp_err e = { 0 };
	struct ssp_warn w = { "sim2ev", 0, 0 };
	size_t nsym = 0;
	int ch, z = 0, force = 0, stats = 0, verbose = 0, quiet = 0, rc = 0;
	int written = 0;
	int64_t v;

	while ((ch = getopt_long(argc, argv, "f:hIn:o:qs:Vvz", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if ((si.sim = ssp_event_sim_parse(optarg)) == SSP_SIM_NONE) {
				warnx("unknown format '%s' (gem5, nicbm, ns3, switch, "
				    "qemu, corundum, e1000 or pcap)", optarg);
				usage(SSP_EXIT_USAGE);
			}
			break;
		case 'h': usage(0); break;
		case 'I': cfg.insn = 1; break;
		case 'n': si.name = optarg; break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = 1; ssp_warn_quiet(); break;
		case 's':
			if (nsym == MAX_SYMTABS)
				errx(SSP_EXIT_USAGE, "more than %d symbol tables", MAX_SYMTABS);
			symspec[nsym++] = optarg;
			break;
		case 'V': ssp_cli_version("sim2ev", (char *)NULL); return ssp_cli_done("sim2ev", 0);
		case 'v': verbose = stats = 1; break;
		case 'z': z = 1; break;
		case O_COMPRESS:
			ssp_cli_deprecated("sim2ev", "--compress", "-z/--zstd");
			z = 1;
			break;
		case O_FOLLOW: si.follow = 1; break;
		case O_FTIMEOUT:
			si.ftimeout = 1;
			if (ssp_num_parse_ms(optarg, &si.fol.timeout_ms, &errstr) != 0) {
				warnx("--follow-timeout %s: expected a duration "
				    "(30, 30s, 500ms, 2min)", optarg);
				usage(SSP_EXIT_USAGE);
			}
			break;
		case O_FORCE: force = 1; break;
		case O_SBJSON: si.sbjson = optarg; break;
		case O_SIM: si.sbsim = optarg; break;
		case O_SIMERR: si.sberr = 1; break;
		case O_NODE:
		case O_DEVICE:
			if (ssp_num_strtonum(optarg, 0, UINT32_MAX - 1, &v,
			    &errstr) != 0) {
				warnx("--%s %s: %s (a number below 2^32 - 1)", ch ==
				    O_NODE ? "node" : "device", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			*(ch == O_NODE ? &si.at.node : &si.at.dev) = (uint32_t)v;
			si.at_set = 1;
			break;
		case O_STATS: stats = 1; break;
		case O_STRICT: cfg.strict = w.strict = 1; break;
		case O_TOFF:
			if (strcmp(optarg, "sync") == 0) {
				cfg.offset_mode = SSP_OFFSET_SYNC;
			} else if (ssp_num_parse_time(optarg, &cfg.offset, &errstr) == 0) {
				cfg.offset_mode = SSP_OFFSET_FIXED;
			} else {
				warnx("--time-offset %s: %s", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			break;
		default: usage(SSP_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if ((cfg.sim = si.sim) == SSP_SIM_NONE) {
		warnx("-f gem5|nicbm|ns3|switch|qemu|corundum|e1000|pcap is required");
		usage(SSP_EXIT_USAGE);
	}
	if (argc > 1)
		usage(SSP_EXIT_USAGE);
	si.path = argc == 1 ? argv[0] : NULL;
	if (cfg.offset_mode == SSP_OFFSET_SYNC && cfg.sim != SSP_SIM_GEM5 &&
	    cfg.sim != SSP_SIM_QEMU)
		errx(SSP_EXIT_USAGE, "--time-offset sync needs -f gem5 or -f qemu "
		    "(sync lines are theirs)");
	/* QEMU prints its own clock: unless --time-offset says otherwise, its
	 * timer-sync lines, when there are any, convert it to SimBricks time */
	if (cfg.sim == SSP_SIM_QEMU && cfg.offset_mode == SSP_OFFSET_NONE)
		cfg.offset_mode = SSP_OFFSET_SYNC_AUTO;
	if ((nsym > 0 || cfg.insn) && cfg.sim != SSP_SIM_GEM5)
		errx(SSP_EXIT_USAGE, "-s and -I apply to -f gem5 only");
	if ((errstr = ssp_siminput_check(&si)) != NULL)
		errx(SSP_EXIT_USAGE, "%s", errstr);

	/* Before any file is opened: once the output exists, a stop signal
	 * ends the stream cleanly (simspan-online waits for that). */
	if (si.follow)
		ssp_cli_catch_signals(stop_signals, 3, on_signal);
	if (ssp_atoms_new(&atoms, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	if (nsym > 0 && ssp_siminput_symtabs(&si, atoms, symspec, nsym, verbose,
	    &w) != 0)
		usage(SSP_EXIT_USAGE);
	/* names from the log itself are bounded: constant memory */
	ssp_atoms_limit(atoms, NAMES_MAX, NAMES_BYTES);
	ssp_siminput_open(&si);
	/* A file is written whole (tools/common/outfile.h), except with
	 * --follow: readers follow it as it grows, and a stop signal ends the
	 * stream cleanly. */
	out = ssp_outfile_stream(outpath, si.follow, z, force, "sim2ev");
	if (si.follow && verbose && ssp_in_pipe_size(si.in) > 0)
		fprintf(stderr, "sim2ev: %s: pipe buffer %d KiB\n",
		    ssp_in_name(si.in), ssp_in_pipe_size(si.in) >> 10);
	snprintf(producer, sizeof(producer), "sim2ev %s", SSP_VERSION);
	cfg.stream = si.stream;
	cfg.source = ssp_in_name(si.in);
	cfg.producer = producer;
	cfg.meta = si.meta;
	cfg.nmeta = si.nmeta;
	cfg.out = out;
	cfg.atoms = atoms;
	cfg.syms = si.syms;
	if (ssp_conv_open(&c, &cfg, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	ssp_progress_init_as(&pg, ssp_in_size(si.in), "lines", "events", quiet);
	ro = (struct ssp_convrun_opts){ cfg.sim, atoms, &si.at, pg.on ?
	    ssp_progress_cb : NULL, &pg };
	/* after bad input: the events before it, without an end block */
	rc = ssp_convrun(c, si.in, out, &ro, &written, &e) == SSP_OK ? 0 :
	    SSP_EXIT_FAIL;
	ssp_progress_done(&pg);
	if (rc != 0)
		warnx("%s", e.msg);
	/* the old file stays unless the new one was written */
	if (!written)
		ssp_outfile_abort();
	else if (ssp_outfile_commit() != 0) {
		warn("%s", outpath);
		rc = SSP_EXIT_FAIL;
	}
	if (stats)
		ssp_convreport_stats(stderr, c, "sim2ev", cfg.source);
	ssp_convreport_warn(&w, c, &cfg, cfg.source, rc == 0, si.sb, si.sberr);
	ssp_conv_free(c);
	ssp_siminput_close(&si);
	ssp_atoms_free(atoms);
	if (outpath == NULL && ssp_cli_close_stdout("sim2ev") != 0)
		rc = SSP_EXIT_FAIL;
	return ssp_warn_status(&w, rc);
}
