/*
 * What sim2ev reads, opened as the tool must (messages, exit 2 for a bad
 * option or configuration, 1 for the rest): the log, a file or standard
 * input, a named pipe with --follow, one simulator's captured stream of
 * a SimBricks run (--simbricks-json, --sim), or a pcap capture, whose
 * node and device an ns-3 file name gives; the name of the stream made
 * from it; and gem5's symbol tables (-s).
 */
#ifndef SSP_TOOLS_SIMINPUT_H
#define SSP_TOOLS_SIMINPUT_H

#include <stddef.h>

#include "base/atoms.h"
#include "config/simbricks.h"
#include "io/in.h"
#include "source/pcapin.h"
#include "source/symtab.h"
#include "stream/event.h"
#include "tools/common/warn.h"

struct ssp_siminput {
	/* the options, set by the tool */
	enum ssp_sim sim;		/* -f */
	const char *path;		/* the log operand, NULL for none */
	const char *name;		/* -n, NULL for the default */
	const char *sbjson, *sbsim;	/* --simbricks-json RUN --sim NAME */
	int sberr;			/* --sim-stderr */
	int follow, ftimeout;		/* --follow, --follow-timeout given */
	struct ssp_follow fol;
	struct ssp_pcapin_at at;	/* --node, --device; else from the name */
	int at_set;
	/* what ssp_siminput_symtabs and ssp_siminput_open make */
	struct ssp_symtab *syms;	/* NULL without -s */
	char *symdesc;			/* the header's "symtabs" value */
	struct ssp_in *in;
	struct ssp_simbricks_input *sb;	/* --simbricks-json, else NULL */
	char *stream;			/* -n, the simulator's name in the run,
					 * the log's base name, or for standard
					 * input the format's name */
	struct ssp_meta meta[2];	/* for the stream header: symtabs (with
					 * -s) and source, the log's name */
	size_t nmeta;
};

/* The usage error of the input options (which go with which), or NULL. */
const char *ssp_siminput_check(const struct ssp_siminput *s);
/*
 * Load the n -s specs into s->syms with atoms: -v (verbose) prints what
 * each table holds, a table with names cut is a warning.  0, or -1 after
 * the message when a spec is malformed (the tool shows its usage, exit
 * 2); exits 2 for a file that is no symbol table, 1 for one not read.
 */
int ssp_siminput_symtabs(struct ssp_siminput *s, struct ssp_atoms *atoms,
    char *const *spec, size_t n, int verbose, struct ssp_warn *w);
/* Open the log as s->in and name its stream.  -f pcap loads libpcap first,
 * so that without it nothing is written. */
void ssp_siminput_open(struct ssp_siminput *s);
void ssp_siminput_close(struct ssp_siminput *s);

#endif
