/*
 * parsebench: run one simulator's log parser over every line of a file,
 * with nothing after it (no event stream written), and print
 *
 *   <lines> <events> <bytes>
 *
 * so that a benchmark can time the parser alone next to sim2ev (which
 * also encodes and writes the events) and wc -l.
 *
 * usage: parsebench -f gem5|nicbm|ns3|switch FILE
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/atoms.h"
#include "io/in.h"
#include "io/lines.h"
#include "source/parser.h"

int
main(int argc, char **argv)
{
	struct ssp_atoms *atoms;
	struct ssp_parser *p;
	struct ssp_parser_cfg cfg;
	struct ssp_pline pl;
	struct ssp_lines *l;
	struct ssp_in *in;
	struct ssp_err e;
	enum ssp_sim sim;
	uint64_t lines = 0, events = 0, bytes = 0;
	size_t len;
	char *line;
	int r;

	if (argc != 4 || strcmp(argv[1], "-f") != 0 ||
	    (sim = ssp_event_sim_parse(argv[2])) == SSP_SIM_NONE)
		errx(2, "usage: parsebench -f gem5|nicbm|ns3|switch FILE");
	if (ssp_atoms_new(&atoms, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	memset(&cfg, 0, sizeof(cfg));
	cfg.atoms = atoms;
	if (ssp_parser_new(&p, sim, &cfg, &e) != SSP_OK ||
	    ssp_in_open(&in, argv[3], SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK ||
	    ssp_lines_open(&l, in, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	while ((r = ssp_lines_next(l, &line, &len, &e)) == SSP_LINE) {
		ssp_parser_line(p, line, len, &pl);
		lines++;
		bytes += len + 1;
		events += pl.skip == SSP_SKIP_NONE ? 1u + (unsigned)pl.pre : 0u;
	}
	if (r != SSP_LINE_EOF)
		errx(1, "%s: read error", argv[3]);
	printf("%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", lines, events, bytes);
	ssp_lines_close(l);
	ssp_in_close(in);
	ssp_parser_free(p);
	ssp_atoms_free(atoms);
	return 0;
}
