/*
 * Function symbol tables for turning gem5 Exec pcs into function entries.
 * Tables are read from `objdump -t` / `objdump --syms` or `nm` output (the
 * format is detected per file); only code symbols are kept (functions,
 * and untyped symbols of text sections such as the kernel's assembly
 * entry points), each shifted by the table's address offset (kernel modules have
 * section-relative addresses).  Lookups answer "does a function start
 * exactly at pc?"; a bitmap keyed by a hash of pc that stays in L2 answers
 * "no" for almost every instruction before the exact hash table is
 * touched.  Symbol and table names are atoms (ssp_atoms).
 */
#ifndef SSP_SYMTAB_H
#define SSP_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "base/atoms.h"
#include "base/err.h"
#include "io/in.h"

struct ssp_symtab;

struct ssp_sym {		/* 16 bytes: one cache line holds four */
	uint64_t addr;		/* offset already applied */
	uint32_t name;		/* atom */
	uint16_t table;		/* index in load order */
	uint8_t rank;		/* preference among symbols at one address */
	uint8_t pad;
};

/* Formats ssp_symtab_load recognises. */
enum ssp_symfmt { SSP_SYMFMT_NONE, SSP_SYMFMT_OBJDUMP, SSP_SYMFMT_NM };

int ssp_symtab_new(struct ssp_symtab **sp, struct ssp_atoms *atoms,
    struct ssp_err *e);
void ssp_symtab_free(struct ssp_symtab *st);

/*
 * Add one table read from in, named name, with offset added to every
 * address; a name longer than SSP_REC_STR_MAX is cut to it (the table's
 * ssp_symtab_info counts them).  Errors name the file and line (SSP_ERR_FORMAT for a line that
 * is neither objdump nor nm output, or a symbol the offset would move past
 * 2^64).  *nfunc (may be NULL) gets the number
 * of function symbols kept, *fmt (may be NULL) the format detected.
 * Lookups need ssp_symtab_finish after the last load.
 */
int ssp_symtab_load(struct ssp_symtab *st, struct ssp_in *in, const char *name,
    uint64_t offset, size_t *nfunc, enum ssp_symfmt *fmt, struct ssp_err *e);
/*
 * sim2ev's -s FILE[,NAME[,OFFSET]]: load FILE (plain or zstd), named NAME
 * (default: its base name without extension), OFFSET added (decimal or
 * 0x hex, default 0).  SSP_ERR_INVAL for a bad spec, SSP_ERR_FORMAT for a
 * file that is no symbol table.
 */
int ssp_symtab_load_spec(struct ssp_symtab *st, const char *spec,
    struct ssp_err *e);
/* Where a table came from, in load order (NULL past the last). */
struct ssp_symtab_info {
	const char *name, *file;
	uint64_t offset;
	size_t nfunc;		/* code symbols kept */
	enum ssp_symfmt fmt;
	/* Names longer than a stream's strings may be (SSP_REC_STR_MAX) are
	 * kept cut to that length: how many, and the first (its line, its
	 * length, its first bytes). */
	size_t ncut;
	uint64_t cut_line;
	size_t cut_len;
	char cut_name[40];
};
const struct ssp_symtab_info *ssp_symtab_info(const struct ssp_symtab *st,
    unsigned table);
/* The warning about a table whose names were cut (ti->ncut > 0), into
 * buf of len bytes; returns snprintf's count. */
int ssp_symtab_cut_msg(char *buf, size_t len, const struct ssp_symtab_info *ti);
/* "name=file@0xoffset;..." of every table, for stream metadata; malloc'd,
 * NULL when out of memory. */
char *ssp_symtab_describe(const struct ssp_symtab *st);
/* Build the lookup structures. */
int ssp_symtab_finish(struct ssp_symtab *st, struct ssp_err *e);
/*
 * A new table set from n -s specs (ssp_symtab_load_spec each, then
 * ssp_symtab_finish).  loaded (may be NULL) is called with ctx after each
 * table is loaded.  On failure *sp is NULL and e says why (SSP_ERR_INVAL
 * for a bad spec, SSP_ERR_FORMAT for a file that is no symbol table).
 */
typedef void (*ssp_symtab_loaded_fn)(void *ctx,
    const struct ssp_symtab_info *ti);
int ssp_symtab_load_specs(struct ssp_symtab **sp, struct ssp_atoms *atoms,
    char *const *spec, size_t n, ssp_symtab_loaded_fn loaded, void *ctx,
    struct ssp_err *e);

/*
 * The preferred function symbol starting exactly at pc, or NULL (st may be
 * NULL).  When several start there, the table loaded first wins, then
 * .text over other sections, then global over weak over local, then file
 * order.
 */
const struct ssp_sym *ssp_symtab_at(const struct ssp_symtab *st, uint64_t pc);
/* Start loading what ssp_symtab_at(st, pc) will look at (st may be NULL). */
void ssp_symtab_prefetch(const struct ssp_symtab *st, uint64_t pc);
/* Among all symbols at pc, the one named by atom name (any table), or NULL. */
const struct ssp_sym *ssp_symtab_named(const struct ssp_symtab *st,
    uint64_t pc, uint32_t name);

size_t ssp_symtab_count(const struct ssp_symtab *st);
unsigned ssp_symtab_ntables(const struct ssp_symtab *st);
uint32_t ssp_symtab_table_name(const struct ssp_symtab *st, unsigned table);
/* Bytes used by the lookup structures (bitmap + hash + symbols). */
size_t ssp_symtab_bytes(const struct ssp_symtab *st);

#endif
