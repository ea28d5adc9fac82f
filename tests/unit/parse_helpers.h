/* Shared by the parser unit tests: run one line through a parser and
 * look at the result by field name. */
#ifndef PARSE_HELPERS_H
#define PARSE_HELPERS_H

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/atoms.h"
#include "io/in.h"
#include "source/parser.h"
#include "source/symtab.h"
#include "stream/event.h"

struct ph {
	struct ssp_atoms *atoms;
	struct ssp_symtab *syms;
	struct ssp_parser *p;
	struct ssp_pline pl;
};

/* An ssp_in over a string (memfd: the real I/O path). */
static inline struct ssp_in *
ph_in(const char *s)
{
	struct ssp_in *in;
	int fd = memfd_create("test", MFD_CLOEXEC);
	size_t n = strlen(s);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, s, n), (ssize_t)n);
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(ssp_in_fdopen(&in, fd, "mem", SSP_IN_ZSTD_AUTO, NULL), SSP_OK);
	return in;
}

static inline void
ph_open(struct ph *h, enum ssp_sim sim, const char *symtab, const char *tname,
    uint64_t offset, int insn)
{
	struct ssp_parser_cfg cfg;
	struct ssp_err e;

	memset(h, 0, sizeof(*h));
	assert_int_equal(ssp_atoms_new(&h->atoms, &e), SSP_OK);
	if (symtab != NULL) {
		struct ssp_in *in = ph_in(symtab);

		assert_int_equal(ssp_symtab_new(&h->syms, h->atoms, &e), SSP_OK);
		assert_int_equal(ssp_symtab_load(h->syms, in, tname, offset, NULL,
		    NULL, &e), SSP_OK);
		ssp_in_close(in);
		assert_int_equal(ssp_symtab_finish(h->syms, &e), SSP_OK);
	}
	cfg.atoms = h->atoms;
	cfg.syms = h->syms;
	cfg.insn = insn;
	assert_int_equal(ssp_parser_new(&h->p, sim, &cfg, &e), SSP_OK);
}

static inline void
ph_close(struct ph *h)
{
	ssp_parser_free(h->p);
	ssp_symtab_free(h->syms);
	ssp_atoms_free(h->atoms);
}

/* Parse a line copied into a buffer of exactly its length plus NUL, so
 * ASan catches reads past the end. */
static inline struct ssp_pline *
ph_line(struct ph *h, const char *line)
{
	size_t n = strlen(line);
	char *b = malloc(n + 1);

	memcpy(b, line, n + 1);
	memset(&h->pl, 0xa5, sizeof(h->pl));
	ssp_parser_line(h->p, b, n, &h->pl);
	free(b);
	return &h->pl;
}

/* Field value by name. */
static inline uint64_t
ph_f(const struct ph *h, const char *name)
{
	const struct ssp_rec_type *t = &ssp_event_schema.types[h->pl.ev.type];
	int k = ssp_rec_type_field(t, name);

	if (k < 0)
		fail_msg("type %s has no field %s", t->name, name);
	return h->pl.ev.f[k];
}

static inline int64_t
ph_i(const struct ph *h, const char *name)
{
	return (int64_t)ph_f(h, name);
}

static inline const char *
ph_s(const struct ph *h, const char *name)
{
	const char *s = ssp_atoms_str(h->atoms, (uint32_t)ph_f(h, name), NULL);

	return s != NULL ? s : "(none)";
}

/* The line must be an event of type. */
#define EV(h, line, type_) do { \
	struct ssp_pline *pl_ = ph_line((h), (line)); \
	if (pl_->skip != SSP_SKIP_NONE) \
		fail_msg("'%s': skipped as %s%s%s", (line), ssp_pline_skip_name((unsigned)pl_->skip), \
		    pl_->why ? ": " : "", pl_->why ? pl_->why : ""); \
	assert_int_equal(pl_->ev.type, (type_)); \
} while (0)

/* The line must be skipped for reason. */
#define SKIP(h, line, reason) do { \
	struct ssp_pline *pl_ = ph_line((h), (line)); \
	if (pl_->skip != (reason)) \
		fail_msg("'%s': got %s, want %s", (line), pl_->skip == SSP_SKIP_NONE ? \
		    ssp_event_schema.types[pl_->ev.type].name : \
		    ssp_pline_skip_name((unsigned)pl_->skip), ssp_pline_skip_name(reason)); \
} while (0)

#endif
