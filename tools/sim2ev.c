/*
 * sim2ev: one simulator's log to a binary event stream.  A source:
 * log --> sim2ev --> events.  Runs next to a live simulation (named pipe,
 * --follow), in constant memory.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/atoms.h"
#include "base/num.h"
#include "base/path.h"
#include "config/simbricks.h"
#include "config/topo.h"
#include "io/in.h"
#include "io/out.h"
#include "source/conv.h"
#include "source/convrun.h"
#include "source/pcapin.h"
#include "source/pline.h"
#include "source/symtab.h"
#include "tools/common/cli.h"
#include "tools/common/convreport.h"
#include "tools/common/outfile.h"
#include "tools/common/progress.h"
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

static void
symtab_loaded(void *ctx, const struct ssp_symtab_info *ti)
{
	(void)ctx;
	fprintf(stderr, "sim2ev: symbol table %s: %zu functions from %s (%s), "
	    "offset 0x%" PRIx64 "\n", ti->name, ti->nfunc, ti->file,
	    ti->fmt == SSP_SYMFMT_NM ? "nm" : "objdump", ti->offset);
}

/* -s FILE[,NAME[,OFFSET]]... into a new table set; exits on error. */
static struct ssp_symtab *
load_symtabs(struct ssp_atoms *atoms, char **spec, size_t n, int verbose)
{
	struct ssp_symtab *st;
	struct ssp_err e = { 0 };
	int rc;

	if ((rc = ssp_symtab_load_specs(&st, atoms, spec, n, verbose ?
	    symtab_loaded : NULL, NULL, &e)) != SSP_OK) {
		if (rc == SSP_ERR_INVAL)
			warnx("%s", e.msg), usage(SSP_EXIT_USAGE);
		errx(rc == SSP_ERR_FORMAT ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
		    "%s", e.msg);
	}
	if (verbose)
		fprintf(stderr, "sim2ev: %zu function symbols, lookup tables "
		    "%zu KB\n", ssp_symtab_count(st), ssp_symtab_bytes(st) >> 10);
	return st;
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
	struct ssp_follow fol = { &stop, 200, 0 };
	struct ssp_meta meta[2];
	char *symdesc = NULL, *symspec[MAX_SYMTABS], *name = NULL;
	char *stream, *outpath = NULL, producer[64];
	const char *errstr, *inpath;
	struct ssp_atoms *atoms;
	struct ssp_symtab *syms = NULL;
	struct ssp_in *in;
	struct ssp_out *out;
	struct ssp_conv *c;
	struct ssp_convrun_opts ro;
	struct ssp_progress pg;
	struct ssp_err e = { 0 };
	struct ssp_warn w = { "sim2ev", 0, 0 };
	size_t nsym = 0, nmeta = 0;
	int ch, z = 0, follow = 0, ftimeout = 0, force = 0, stats = 0, verbose = 0;
	int toff_given = 0, quiet = 0;
	int rc = 0, written = 0;
	const char *sbjson = NULL, *sbsim = NULL;
	struct ssp_simbricks_input *sbin = NULL;
	int sberr = 0, node_set = 0, dev_set = 0;
	struct ssp_pcapin_at at = { 0, SSP_PCAPIN_ANY };
	int64_t v;

	cfg.sim = SSP_SIM_NONE;
	while ((ch = getopt_long(argc, argv, "f:hIn:o:qs:Vvz", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if ((cfg.sim = ssp_event_sim_parse(optarg)) == SSP_SIM_NONE) {
				warnx("unknown format '%s' (gem5, nicbm, ns3, switch, "
				    "qemu, corundum, e1000 or pcap)", optarg);
				usage(SSP_EXIT_USAGE);
			}
			break;
		case 'h': usage(0); break;
		case 'I': cfg.insn = 1; break;
		case 'n': name = optarg; break;
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
		case O_FOLLOW: follow = 1; break;
		case O_FTIMEOUT:
			ftimeout = 1;
			if (ssp_num_parse_ms(optarg, &fol.timeout_ms, &errstr) != 0) {
				warnx("--follow-timeout %s: expected a duration "
				    "(30, 30s, 500ms, 2min)", optarg);
				usage(SSP_EXIT_USAGE);
			}
			break;
		case O_FORCE: force = 1; break;
		case O_SBJSON: sbjson = optarg; break;
		case O_SIM: sbsim = optarg; break;
		case O_SIMERR: sberr = 1; break;
		case O_NODE:
		case O_DEVICE:
			if (ssp_num_strtonum(optarg, 0, UINT32_MAX - 1, &v,
			    &errstr) != 0) {
				warnx("--%s %s: %s (a number below 2^32 - 1)", ch ==
				    O_NODE ? "node" : "device", optarg, errstr);
				usage(SSP_EXIT_USAGE);
			}
			if (ch == O_NODE)
				at.node = (uint32_t)v, node_set = 1;
			else
				at.dev = (uint32_t)v, dev_set = 1;
			break;
		case O_STATS: stats = 1; break;
		case O_STRICT: cfg.strict = w.strict = 1; break;
		case O_TOFF:
			toff_given = 1;
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
	if (cfg.sim == SSP_SIM_NONE) {
		warnx("-f gem5|nicbm|ns3|switch|qemu|corundum|e1000|pcap is required");
		usage(SSP_EXIT_USAGE);
	}
	if (argc > 1)
		usage(SSP_EXIT_USAGE);
	if (cfg.offset_mode == SSP_OFFSET_SYNC && cfg.sim != SSP_SIM_GEM5 &&
	    cfg.sim != SSP_SIM_QEMU)
		errx(SSP_EXIT_USAGE, "--time-offset sync needs -f gem5 or -f qemu "
		    "(sync lines are theirs)");
	/* QEMU prints its own clock: its timer-sync lines, when there are
	 * any, convert it to SimBricks time */
	if (cfg.sim == SSP_SIM_QEMU && cfg.offset_mode == SSP_OFFSET_NONE &&
	    !toff_given)
		cfg.offset_mode = SSP_OFFSET_SYNC_AUTO;
	if ((nsym > 0 || cfg.insn) && cfg.sim != SSP_SIM_GEM5)
		errx(SSP_EXIT_USAGE, "-s and -I apply to -f gem5 only");
	if ((node_set || dev_set) && cfg.sim != SSP_SIM_PCAP)
		errx(SSP_EXIT_USAGE, "--node and --device apply to -f pcap only");
	if (cfg.sim == SSP_SIM_PCAP && (follow || sbjson != NULL))
		errx(SSP_EXIT_USAGE, "-f pcap reads a capture file or standard input "
		    "(no --follow, no --simbricks-json)");
	if (ftimeout && !follow)
		errx(SSP_EXIT_USAGE, "--follow-timeout needs --follow");
	if ((sbjson == NULL) != (sbsim == NULL) || (sberr && sbjson == NULL))
		errx(SSP_EXIT_USAGE, "--simbricks-json and --sim go together "
		    "(--sim-stderr with them)");
	if (sbjson != NULL && (argc > 0 || follow))
		errx(SSP_EXIT_USAGE, "--simbricks-json takes no log operand and no "
		    "--follow");
	inpath = argc == 1 ? argv[0] : "-";
	if (cfg.sim == SSP_SIM_PCAP && !node_set && !dev_set)
		(void)ssp_pcapin_name(inpath, &at);	/* ns-3: prefix-N-D.pcap */
	/* libpcap is loaded, not linked: without it, fail before any output */
	if (cfg.sim == SSP_SIM_PCAP && ssp_pcapin_load(&e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);

	/* Before any file is opened: once the output exists, a stop signal
	 * ends the stream cleanly (simspan-online waits for that). */
	if (follow)
		ssp_cli_catch_signals(stop_signals, 3, on_signal);

	if (ssp_atoms_new(&atoms, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	if (nsym > 0) {
		const struct ssp_symtab_info *ti;
		char msg[8192];
		unsigned t;

		syms = load_symtabs(atoms, symspec, nsym, verbose);
		for (t = 0; (ti = ssp_symtab_info(syms, t)) != NULL; t++)
			if (ti->ncut > 0 && ssp_symtab_cut_msg(msg, sizeof(msg), ti) >= 0)
				ssp_warn(&w, "%s", msg);
		if ((symdesc = ssp_symtab_describe(syms)) == NULL)
			err(SSP_EXIT_FAIL, NULL);
		meta[nmeta++] = (struct ssp_meta){ "symtabs", symdesc };
	}
	/* names from the log itself are bounded: constant memory */
	ssp_atoms_limit(atoms, NAMES_MAX, NAMES_BYTES);

	if (sbjson != NULL) {
		if ((rc = ssp_simbricks_input_open(&sbin, &in, sbjson, sbsim, sberr ?
		    SSP_SIMBRICKS_STDERR : SSP_SIMBRICKS_STDOUT, &e)) != SSP_OK)
			errx(rc == SSP_ERR_FORMAT || rc == SSP_ERR_INVAL ?
			    SSP_EXIT_USAGE : SSP_EXIT_FAIL, "%s", e.msg);
		inpath = ssp_simbricks_input_stem(sbin);
	} else if (ssp_in_open(&in, inpath, SSP_IN_ZSTD_AUTO | (follow ? SSP_IN_FOLLOW : 0),
	    &fol, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	/* A file is written whole (tools/common/outfile.h), except with
	 * --follow: readers follow it as it grows, and a stop signal ends the
	 * stream cleanly. */
	out = ssp_outfile_stream(outpath, follow, z, force, "sim2ev");
	if (follow && verbose && ssp_in_pipe_size(in) > 0)
		fprintf(stderr, "sim2ev: %s: pipe buffer %d KiB\n", ssp_in_name(in),
		    ssp_in_pipe_size(in) >> 10);
	stream = name != NULL ? strdup(name) : sbjson != NULL ? strdup(inpath) :
	    strcmp(inpath, "-") == 0 ?
	    strdup(ssp_event_sim_name(cfg.sim)) : ssp_path_stem(inpath);
	if (stream == NULL)
		err(1, NULL);
	meta[nmeta++] = (struct ssp_meta){ "source", ssp_in_name(in) };
	snprintf(producer, sizeof(producer), "sim2ev %s", SSP_VERSION);
	cfg.stream = stream;
	cfg.source = ssp_in_name(in);
	cfg.producer = producer;
	cfg.meta = meta;
	cfg.nmeta = nmeta;
	cfg.out = out;
	cfg.atoms = atoms;
	cfg.syms = syms;
	if (ssp_conv_open(&c, &cfg, &e) != SSP_OK)
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	ssp_progress_init_as(&pg, ssp_in_size(in), "lines", "events", quiet);
	ro = (struct ssp_convrun_opts){ cfg.sim, atoms, &at, pg.on ?
	    ssp_progress_cb : NULL, &pg };
	/* after bad input: the events before it, without an end block */
	rc = ssp_convrun(c, in, out, &ro, &written, &e) == SSP_OK ? 0 :
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
		ssp_convreport_stats(stderr, c, "sim2ev", ssp_in_name(in));
	ssp_convreport_warn(&w, c, &cfg, ssp_in_name(in), rc == 0, sbin, sberr);
	ssp_conv_free(c);
	ssp_in_close(in);
	ssp_simbricks_input_close(sbin);
	ssp_symtab_free(syms);
	ssp_atoms_free(atoms);
	free(symdesc);
	free(stream);
	if (outpath == NULL && ssp_cli_close_stdout("sim2ev") != 0)
		rc = SSP_EXIT_FAIL;
	return ssp_warn_status(&w, rc);
}
