/* Fuzz helper: run a simulator's parser over every line of the input and
 * check what it returns (a known type or reason; string fields that are
 * atoms). */
#ifndef FUZZ_LINES_H
#define FUZZ_LINES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/atoms.h"
#include "fuzz_mem.h"
#include "io/lines.h"
#include "source/parser.h"
#include "source/symtab.h"

/* A parsed event: a type of the simulator's kind, ts >= 0, string fields
 * that are atoms; a user event's pc is a user-mode one. */
static inline int
fuzz_ev_ok(const struct ssp_rec *ev, enum ssp_sim sim, const struct ssp_atoms *atoms)
{
	const struct ssp_rec_type *t;
	unsigned k;

	if (ev->type >= SSP_EV_NTYPES || ev->ts < 0 ||
	    strcmp(ssp_event_sim_kind(ssp_event_sim(ev->type)), ssp_event_sim_kind(sim)) != 0)
		return 0;
	if (ev->type == SSP_EV_USER && (ev->f[SSP_F_USER_PC] >= SSP_USER_PC_END ||
	    ev->f[SSP_F_USER_CPU] == 0))
		return 0;
	t = &ssp_event_schema.types[ev->type];
	for (k = 0; k < t->nf; k++)
		if (t->f[k].enc == SSP_ENC_S && ev->f[k] != 0 &&
		    ssp_atoms_str(atoms, (uint32_t)ev->f[k], NULL) == NULL)
			return 0;
	return 1;
}

static inline void
fuzz_parse(enum ssp_sim sim, const uint8_t *data, size_t size,
    const char *symtab, int insn)
{
	struct ssp_atoms *atoms;
	struct ssp_symtab *st = NULL;
	struct ssp_parser *p;
	struct ssp_parser_cfg cfg;
	struct ssp_pline pl;
	struct ssp_lines *l;
	struct ssp_in *in;
	char *line;
	size_t len;

	if (ssp_atoms_new(&atoms, NULL) != SSP_OK)
		abort();
	if (symtab != NULL) {
		struct ssp_in *sin = fuzz_in((const uint8_t *)symtab, strlen(symtab), 0);

		if (ssp_symtab_new(&st, atoms, NULL) != SSP_OK ||
		    ssp_symtab_load(st, sin, "t", 0, NULL, NULL, NULL) != SSP_OK ||
		    ssp_symtab_finish(st, NULL) != SSP_OK)
			abort();
		ssp_in_close(sin);
	}
	ssp_atoms_limit(atoms, 64, 4096);	/* exercise the limit too */
	cfg.atoms = atoms;
	cfg.syms = st;
	cfg.insn = insn;
	if (ssp_parser_new(&p, sim, &cfg, NULL) != SSP_OK)
		abort();
	in = fuzz_in(data, size, 0);
	if (ssp_lines_open(&l, in, NULL) != SSP_OK)
		abort();
	while (ssp_lines_next(l, &line, &len, NULL) == SSP_LINE) {
		ssp_parser_line(p, line, len, &pl);
		if (pl.skip == SSP_SKIP_NONE && pl.pre &&
		    (pl.pre_ev.type >= SSP_EV_NTYPES || pl.pre_ev.ts != pl.ev.ts))
			abort();	/* the two events of one line share its time */
		if (pl.skip == SSP_SKIP_NONE) {
			if (!fuzz_ev_ok(&pl.ev, sim, atoms))
				abort();
			/* gem5: a user event comes before the line's own only */
			if (pl.pre && (!fuzz_ev_ok(&pl.pre_ev, sim, atoms) ||
			    (sim == SSP_SIM_GEM5 && (pl.pre_ev.type != SSP_EV_USER ||
			    pl.ev.type == SSP_EV_USER))))
				abort();
		} else if (pl.skip < 0 || pl.skip >= SSP_SKIP_N ||
		    (pl.skip == SSP_SKIP_MALFORMED && pl.why == NULL)) {
			abort();
		}
	}
	ssp_lines_close(l);
	ssp_in_close(in);
	ssp_parser_free(p);
	ssp_symtab_free(st);
	ssp_atoms_free(atoms);
}

#endif
