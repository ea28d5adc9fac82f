/*
 * What sim2ev reads (siminput.h).
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/path.h"
#include "tools/common/cli.h"
#include "tools/common/siminput.h"

const char *
ssp_siminput_check(const struct ssp_siminput *s)
{
	if (s->at_set && s->sim != SSP_SIM_PCAP)
		return "--node and --device apply to -f pcap only";
	if (s->sim == SSP_SIM_PCAP && (s->follow || s->sbjson != NULL))
		return "-f pcap reads a capture file or standard input (no "
		    "--follow, no --simbricks-json)";
	if (s->ftimeout && !s->follow)
		return "--follow-timeout needs --follow";
	if ((s->sbjson == NULL) != (s->sbsim == NULL) ||
	    (s->sberr && s->sbjson == NULL))
		return "--simbricks-json and --sim go together (--sim-stderr "
		    "with them)";
	if (s->sbjson != NULL && (s->path != NULL || s->follow))
		return "--simbricks-json takes no log operand and no --follow";
	return NULL;
}

static void
loaded(void *ctx, const struct ssp_symtab_info *ti)
{
	const struct ssp_warn *w = ctx;

	fprintf(stderr, "%s: symbol table %s: %zu functions from %s (%s), "
	    "offset 0x%" PRIx64 "\n", w->prog, ti->name, ti->nfunc, ti->file,
	    ti->fmt == SSP_SYMFMT_NM ? "nm" : "objdump", ti->offset);
}

int
ssp_siminput_symtabs(struct ssp_siminput *s, struct ssp_atoms *atoms,
    char *const *spec, size_t n, int verbose, struct ssp_warn *w)
{
	const struct ssp_symtab_info *ti;
	struct ssp_err e = { 0 };
	char msg[8192];
	unsigned t;
	int rc;

	if ((rc = ssp_symtab_load_specs(&s->syms, atoms, spec, n, verbose ?
	    loaded : NULL, w, &e)) != SSP_OK) {
		if (rc == SSP_ERR_INVAL) {
			warnx("%s", e.msg);
			return -1;
		}
		errx(rc == SSP_ERR_FORMAT ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
		    "%s", e.msg);
	}
	if (verbose)
		fprintf(stderr, "%s: %zu function symbols, lookup tables %zu "
		    "KB\n", w->prog, ssp_symtab_count(s->syms),
		    ssp_symtab_bytes(s->syms) >> 10);
	for (t = 0; (ti = ssp_symtab_info(s->syms, t)) != NULL; t++)
		if (ti->ncut > 0 && ssp_symtab_cut_msg(msg, sizeof(msg), ti) >= 0)
			ssp_warn(w, "%s", msg);
	if ((s->symdesc = ssp_symtab_describe(s->syms)) == NULL)
		err(SSP_EXIT_FAIL, NULL);
	s->meta[s->nmeta++] = (struct ssp_meta){ "symtabs", s->symdesc };
	return 0;
}

void
ssp_siminput_open(struct ssp_siminput *s)
{
	const char *path = s->path != NULL ? s->path : "-";
	struct ssp_err e = { 0 };
	int rc;

	if (s->sim == SSP_SIM_PCAP) {
		if (!s->at_set)		/* ns-3: prefix-N-D.pcap */
			(void)ssp_pcapin_name(path, &s->at);
		/* loaded, not linked: fail before any output */
		if (ssp_pcapin_load(&e) != SSP_OK)
			errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	if (s->sbjson != NULL) {
		if ((rc = ssp_simbricks_input_open(&s->sb, &s->in, s->sbjson,
		    s->sbsim, s->sberr ? SSP_SIMBRICKS_STDERR :
		    SSP_SIMBRICKS_STDOUT, &e)) != SSP_OK)
			errx(rc == SSP_ERR_FORMAT || rc == SSP_ERR_INVAL ?
			    SSP_EXIT_USAGE : SSP_EXIT_FAIL, "%s", e.msg);
	} else if (ssp_in_open(&s->in, path, SSP_IN_ZSTD_AUTO | (s->follow ?
	    SSP_IN_FOLLOW : 0), &s->fol, &e) != SSP_OK) {
		errx(SSP_EXIT_FAIL, "%s", e.msg);
	}
	s->stream = s->name != NULL ? strdup(s->name) : s->sb != NULL ?
	    strdup(ssp_simbricks_input_stem(s->sb)) : strcmp(path, "-") == 0 ?
	    strdup(ssp_event_sim_name(s->sim)) : ssp_path_stem(path);
	if (s->stream == NULL)
		err(SSP_EXIT_FAIL, NULL);
	s->meta[s->nmeta++] = (struct ssp_meta){ "source", ssp_in_name(s->in) };
}

void
ssp_siminput_close(struct ssp_siminput *s)
{
	ssp_in_close(s->in);
	ssp_simbricks_input_close(s->sb);
	ssp_symtab_free(s->syms);
	free(s->symdesc);
	free(s->stream);
	s->in = NULL;
	s->sb = NULL;
	s->syms = NULL;
	s->symdesc = s->stream = NULL;
	s->nmeta = 0;
}
