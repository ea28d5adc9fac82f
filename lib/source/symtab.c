#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/map.h"
#include "base/num.h"
#include "base/path.h"
#include "base/scan.h"
#include "io/lines.h"
#include "source/symtab.h"
#include "stream/rec.h"

#define TABLES_MAX   65535
#define SYMS_MAX     (64u * 1024 * 1024)
#define BITMAP_MIN   12		/* log2 bits */
#define BITMAP_MAX   20		/* 2^20 bits = 128 KB: stays in L2 */

/* While loading: a symbol and its place in the file. */
struct lsym {
	struct ssp_sym s;
	uint32_t order;
};

struct ssp_symtab {
	struct ssp_atoms *atoms;
	struct lsym *sym;	/* all symbols, sorted by address after finish */
	size_t n, cap;
	uint32_t *tables;	/* table name atoms */
	struct ssp_symtab_info *info;	/* where each table came from */
	unsigned ntables;
	/* lookup */
	uint64_t *bitmap;
	unsigned bbits;
	struct ssp_map map;	/* address -> index of its preferred symbol */
	int finished;
};

static inline uint64_t
mix(uint64_t pc)
{
	return pc * 0x9e3779b97f4a7c15ULL;
}

int
ssp_symtab_new(struct ssp_symtab **sp, struct ssp_atoms *atoms,
    struct ssp_err *e)
{
	struct ssp_symtab *st = calloc(1, sizeof(*st));

	*sp = NULL;
	if (st == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	st->atoms = atoms;
	*sp = st;
	return SSP_OK;
}

void
ssp_symtab_free(struct ssp_symtab *st)
{
	if (st == NULL)
		return;
	free(st->sym);
	while (st->ntables > 0) {
		st->ntables--;
		free((char *)st->info[st->ntables].name);
		free((char *)st->info[st->ntables].file);
	}
	free(st->info);
	free(st->tables);
	free(st->bitmap);
	ssp_map_free(&st->map);
	free(st);
}

static int
add(struct ssp_symtab *st, uint64_t addr, const char *name, size_t n,
    unsigned rank, uint32_t order)
{
	struct lsym *s;
	uint32_t id;

	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 1024;
		struct lsym *ns;

		if (cap > SYMS_MAX || (ns = realloc(st->sym, cap * sizeof(*ns))) == NULL)
			return -1;
		st->sym = ns;
		st->cap = cap;
	}
	if ((id = ssp_atoms_intern(st->atoms, name, n)) == 0)
		return -1;
	s = &st->sym[st->n++];
	memset(s, 0, sizeof(*s));
	s->s.addr = addr;
	s->s.name = id;
	s->s.table = (uint16_t)st->ntables;
	s->s.rank = (uint8_t)rank;
	s->order = order;
	return 0;
}

/* Lines around the symbols that both tools print. */
static int
is_header(const char *p, size_t n)
{
	static const char *const hdr[] = { "SYMBOL TABLE:", "DYNAMIC SYMBOL TABLE:",
	    "no symbols" };
	size_t i;

	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\r'))
		n--;
	if (n == 0 || p[n - 1] == ':')	/* nm: "file.o:" before each file */
		return 1;
	for (i = 0; i < sizeof(hdr) / sizeof(hdr[0]); i++)
		if (n == strlen(hdr[i]) && memcmp(p, hdr[i], n) == 0)
			return 1;
	return memmem(p, n, "file format ", 12) != NULL;
}

/* Hex address of 8 or 16 digits followed by a space. */
static int
scan_addr(const char **pp, const char *end, uint64_t *addr)
{
	const char *p = *pp;

	if (ssp_scan_hex(&p, end, addr) != 0 || (p - *pp != 8 && p - *pp != 16) ||
	    p >= end || *p != ' ')
		return -1;
	*pp = p + 1;
	return 0;
}

/*
 * objdump -t: "<addr> <7 flag chars> <section>\t<size> <name>", flags
 * [lgu! ][w ][C ][W ][Ii ][dD ][FfO ].  Returns 1 code symbol, 0 other
 * symbol, -1 not such a line.
 */
static int
objdump_line(const char *p, const char *end, uint64_t *addr, const char **name,
    size_t *nlen, unsigned *rank)
{
	const char *f, *sec, *tab;
	uint64_t size;

	if (scan_addr(&p, end, addr) != 0 || end - p < 9)
		return -1;
	f = p;
	if (!strchr("lgu! ", f[0]) || !strchr("w ", f[1]) || !strchr("C ", f[2]) ||
	    !strchr("W ", f[3]) || !strchr("Ii ", f[4]) || !strchr("dD ", f[5]) ||
	    !strchr("FfO ", f[6]) || f[7] != ' ')
		return -1;
	sec = p + 8;
	if ((tab = memchr(sec, '\t', (size_t)(end - sec))) == NULL || tab == sec)
		return -1;
	p = tab + 1;
	if (ssp_scan_hex(&p, end, &size) != 0 || p >= end || *p != ' ')
		return -1;
	ssp_skip_sp(&p, end);
	/* visibility other than default is printed before the name */
	if (SSP_HAS(p, end, ".hidden ") || SSP_HAS(p, end, ".internal ")) {
		p = memchr(p, ' ', (size_t)(end - p));
		ssp_skip_sp(&p, end);
	} else if (SSP_HAS(p, end, ".protected ")) {
		p += 11;
		ssp_skip_sp(&p, end);
	}
	if (tab - sec == 5 && memcmp(sec, "*UND*", 5) == 0)
		return 0;
	/* Untyped code symbols count too: the kernel's assembly entry points
	 * (SYM_CODE_START: entry_SYSCALL_64) and inner labels
	 * (entry_SYSCALL_64_safe_stack) carry no F, yet gem5 names them. */
	if (f[6] != 'F' && !(f[6] == ' ' && f[5] == ' ' &&
	    memmem(sec, (size_t)(tab - sec), "text", 4) != NULL))
		return 0;
	while (end > p && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	if (p >= end)
		return 0;
	/* objdump -T puts a version ("GLIBC_2.2.5", "Base") before the name */
	{
		const char *sp = memrchr(p, ' ', (size_t)(end - p));

		if (sp != NULL)
			p = sp + 1;
	}
	*name = p;
	*nlen = (size_t)(end - p);
	*rank = (f[6] == 'F' ? 0 : 8) +
	    (tab - sec == 5 && memcmp(sec, ".text", 5) == 0 ? 0 : 4) +
	    (f[0] == 'g' || f[0] == 'u' ? 0 : f[1] == 'w' ? 1 : 2);
	return 1;
}

/*
 * nm: "<addr> [<size>] <type> <name>" ("-S" adds the size, "-l" a tab and
 * file:line); undefined symbols have no address.  Types T, t, W, w, i are
 * taken as functions (nm cannot tell weak objects from weak functions).
 */
static int
nm_line(const char *p, const char *end, uint64_t *addr, const char **name,
    size_t *nlen, unsigned *rank)
{
	const char *q, *t;
	uint64_t size;
	char type;

	if (p < end && *p == ' ') {	/* "                 U name" */
		ssp_skip_sp(&p, end);
		return end - p >= 3 && p[1] == ' ' && strchr("Uvw", p[0]) ? 0 : -1;
	}
	if (ssp_scan_hex(&p, end, addr) != 0 || p >= end || *p != ' ')
		return -1;
	p++;
	q = p;
	if (ssp_scan_hex(&q, end, &size) == 0 && q < end && *q == ' ' &&
	    q - p > 1)
		p = q + 1;	/* a size column */
	if (end - p < 3 || p[1] != ' ' || p[0] == ' ' || p[0] == '\t')
		return -1;
	type = p[0];
	p += 2;
	if ((t = memchr(p, '\t', (size_t)(end - p))) != NULL)
		end = t;
	while (end > p && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	if (p >= end || memchr(p, ' ', (size_t)(end - p)) != NULL)
		return -1;
	if (!strchr("TtWwi", type))
		return 0;
	*name = p;
	*nlen = (size_t)(end - p);
	*rank = type == 'T' ? 0 : type == 'W' || type == 'w' ? 1 : 2;
	return 1;
}

/* A symbol the table's offset moves past 2^64: drop what this table
 * added, and say which (before the line buffer holding name goes). */
static void
wrap_error(struct ssp_symtab *st, struct ssp_lines *l, struct ssp_in *in,
    uint64_t addr, uint64_t offset, const char *name, size_t n,
    struct ssp_err *e)
{
	uint64_t ln = ssp_lines_lineno(l);

	while (st->n > 0 && st->sym[st->n - 1].s.table == st->ntables)
		st->n--;
	ssp_err_set(e, SSP_ERR_FORMAT, ssp_lines_offset(l), "%s:%llu: symbol "
	    "%.*s at 0x%llx plus the table offset 0x%llx passes 2^64; is the "
	    "offset for another table?", ssp_in_name(in), (unsigned long long)ln,
	    (int)(n > 200 ? 200 : n), name, (unsigned long long)addr,
	    (unsigned long long)offset);
	if (e != NULL)
		e->line = ln;
}

int
ssp_symtab_load(struct ssp_symtab *st, struct ssp_in *in, const char *name,
    uint64_t offset, size_t *nfunc, enum ssp_symfmt *fmtp, struct ssp_err *e)
{
	struct ssp_lines *l;
	enum ssp_symfmt fmt = SSP_SYMFMT_NONE;
	size_t len, kept = 0, ncut = 0, cut_len = 0;
	uint64_t cut_line = 0;
	char cut_name[40] = "";
	uint32_t order = 0, tname;
	char *line;
	int r, k;

	if (st->ntables >= TABLES_MAX)
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "more than %d symbol tables",
		    TABLES_MAX);
	if ((tname = ssp_atoms_intern(st->atoms, name, strlen(name))) == 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((r = ssp_lines_open(&l, in, e)) != SSP_OK)
		return r;
	while ((r = ssp_lines_next(l, &line, &len, e)) == SSP_LINE) {
		const char *end = line + len, *sname = NULL;
		size_t slen = 0;
		uint64_t addr = 0;
		unsigned rank = 0;

		if (ssp_lines_cut(l))
			goto bad;
		if (is_header(line, len))
			continue;
		k = -1;
		if (fmt != SSP_SYMFMT_NM)
			k = objdump_line(line, end, &addr, &sname, &slen, &rank);
		if (k >= 0 && fmt == SSP_SYMFMT_NONE)
			fmt = SSP_SYMFMT_OBJDUMP;
		if (k < 0 && fmt != SSP_SYMFMT_OBJDUMP) {
			k = nm_line(line, end, &addr, &sname, &slen, &rank);
			if (k >= 0 && fmt == SSP_SYMFMT_NONE)
				fmt = SSP_SYMFMT_NM;
		}
		if (k < 0)
			goto bad;
		if (k == 0)
			continue;
		if (slen > SSP_REC_STR_MAX) {	/* a stream could not hold it */
			if (ncut++ == 0) {
				cut_line = ssp_lines_lineno(l);
				cut_len = slen;
				snprintf(cut_name, sizeof(cut_name), "%.*s",
				    (int)sizeof(cut_name) - 1, sname);
			}
			slen = SSP_REC_STR_MAX;
		}
		if (addr + offset < addr) {	/* would wrap past 2^64 */
			wrap_error(st, l, in, addr, offset, sname, slen, e);
			ssp_lines_close(l);
			return SSP_ERR_FORMAT;
		}
		if (add(st, addr + offset, sname, slen, rank, order++) != 0) {
			ssp_lines_close(l);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "%s: out of memory "
			    "at line %llu", ssp_in_name(in),
			    (unsigned long long)ssp_lines_lineno(l));
		}
		kept++;
	}
	if (r != SSP_LINE_EOF) {	/* -status (no idle: not followed) */
		ssp_lines_close(l);
		return r < 0 ? -r : SSP_ERR_IO;
	}
	ssp_lines_close(l);
	if (fmt == SSP_SYMFMT_NONE)
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: no symbols: not "
		    "objdump -t or nm output", ssp_in_name(in));
	{
		uint32_t *nt = realloc(st->tables, (st->ntables + 1) *
		    sizeof(*nt));
		struct ssp_symtab_info *ni, *i;

		if (nt != NULL)
			st->tables = nt;
		ni = realloc(st->info, (st->ntables + 1) * sizeof(*ni));
		if (ni != NULL)
			st->info = ni;
		if (nt == NULL || ni == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		i = &st->info[st->ntables];
		*i = (struct ssp_symtab_info){ strdup(name),
		    strdup(ssp_in_name(in)), offset, kept, fmt, ncut, cut_line,
		    cut_len, "" };
		memcpy(i->cut_name, cut_name, sizeof(i->cut_name));
		if (i->name == NULL || i->file == NULL) {
			free((char *)i->name);
			free((char *)i->file);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		}
	}
	st->tables[st->ntables++] = tname;
	st->finished = 0;
	if (nfunc != NULL)
		*nfunc = kept;
	if (fmtp != NULL)
		*fmtp = fmt;
	return SSP_OK;
bad:
	{
		uint64_t ln = ssp_lines_lineno(l), off = ssp_lines_offset(l);

		/* drop what this table added */
		while (st->n > 0 && st->sym[st->n - 1].s.table == st->ntables)
			st->n--;
		ssp_lines_close(l);
		ssp_err_set(e, SSP_ERR_FORMAT, off, "%s:%llu: expected %s", ssp_in_name(in),
		    (unsigned long long)ln, fmt == SSP_SYMFMT_OBJDUMP ?
		    "an objdump -t symbol line (ADDR FLAGS SECTION<tab>SIZE NAME)" :
		    fmt == SSP_SYMFMT_NM ? "an nm symbol line (ADDR TYPE NAME)" :
		    "objdump -t or nm output");
		if (e != NULL)
			e->line = ln;
		return SSP_ERR_FORMAT;
	}
}

static int
cmp_sym(const void *a, const void *b)
{
	const struct lsym *x = a, *y = b;

	if (x->s.addr != y->s.addr)
		return x->s.addr < y->s.addr ? -1 : 1;
	if (x->s.table != y->s.table)
		return x->s.table < y->s.table ? -1 : 1;
	if (x->s.rank != y->s.rank)
		return x->s.rank < y->s.rank ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int
ssp_symtab_finish(struct ssp_symtab *st, struct ssp_err *e)
{
	size_t i;
	unsigned bits = BITMAP_MIN;

	free(st->bitmap);
	ssp_map_free(&st->map);
	st->bitmap = NULL;
	if (st->n > 1)	/* sym is NULL while empty */
		qsort(st->sym, st->n, sizeof(*st->sym), cmp_sym);
	while (bits < BITMAP_MAX && ((uint64_t)1 << bits) < (uint64_t)st->n * 32)
		bits++;
	st->bbits = bits;
	st->bitmap = calloc(((size_t)1 << bits) / 64, sizeof(uint64_t));
	if (st->bitmap == NULL ||
	    ssp_map_init(&st->map, st->n < 512 ? 512 : st->n) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < st->n; i++) {
		uint64_t h, k;

		if (i > 0 && st->sym[i - 1].s.addr == st->sym[i].s.addr)
			continue;	/* the first at an address is preferred */
		h = mix(st->sym[i].s.addr);
		k = h >> (64 - bits);
		st->bitmap[k >> 6] |= (uint64_t)1 << (k & 63);
		if (ssp_map_add(&st->map, st->sym[i].s.addr, (uint32_t)i) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	st->finished = 1;
	return SSP_OK;
}

const struct ssp_sym *
ssp_symtab_at(const struct ssp_symtab *st, uint64_t pc)
{
	uint64_t k;
	const struct ssp_map_slot *s;

	if (st == NULL || !st->finished)
		return NULL;
	k = mix(pc) >> (64 - st->bbits);
	if (!(st->bitmap[k >> 6] & (uint64_t)1 << (k & 63)))
		return NULL;
	s = ssp_map_find(&st->map, pc);
	return s != NULL ? &st->sym[s->val].s : NULL;
}

void
ssp_symtab_prefetch(const struct ssp_symtab *st, uint64_t pc)
{
	uint64_t k;

	if (st == NULL || !st->finished)
		return;
	k = mix(pc) >> (64 - st->bbits);
	__builtin_prefetch(&st->bitmap[k >> 6]);
}

const struct ssp_sym *
ssp_symtab_named(const struct ssp_symtab *st, uint64_t pc, uint32_t name)
{
	size_t lo = 0, hi;

	if (st == NULL || !st->finished)
		return NULL;
	hi = st->n;
	while (lo < hi) {	/* first symbol at pc */
		size_t mid = lo + (hi - lo) / 2;

		if (st->sym[mid].s.addr < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < st->n && st->sym[lo].s.addr == pc; lo++)
		if (st->sym[lo].s.name == name)
			return &st->sym[lo].s;
	return NULL;
}

size_t ssp_symtab_count(const struct ssp_symtab *st) { return st->n; }
unsigned ssp_symtab_ntables(const struct ssp_symtab *st) { return st->ntables; }

uint32_t
ssp_symtab_table_name(const struct ssp_symtab *st, unsigned table)
{
	return table < st->ntables ? st->tables[table] : 0;
}

size_t
ssp_symtab_bytes(const struct ssp_symtab *st)
{
	return st->n * sizeof(*st->sym) + (st->finished ?
	    ((size_t)1 << st->bbits) / 8 + st->map.cap * sizeof(*st->map.t) : 0);
}

int
ssp_symtab_load_spec(struct ssp_symtab *st, const char *spec,
    struct ssp_err *e)
{
	char *file = strdup(spec), *name = NULL, *off = NULL, *c;
	const char *errstr;
	uint64_t offset = 0;
	struct ssp_in *in = NULL;
	int r;

	if (file == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
#define SPEC_FORM "FILE[,NAME[,OFFSET]], OFFSET decimal or 0x hex"
	if ((c = strchr(file, ',')) != NULL) {
		*c = '\0';
		name = c + 1;
		if ((c = strchr(name, ',')) != NULL) {
			*c = '\0';
			off = c + 1;
		}
	}
	if (*file == '\0') {
		r = ssp_err_set(e, SSP_ERR_INVAL, 0, "symbol table '%s': no file "
		    "name (want " SPEC_FORM ")", spec);
		goto out;
	}
	if (off != NULL && strchr(off, ',') != NULL) {
		r = ssp_err_set(e, SSP_ERR_INVAL, 0, "symbol table '%s': more "
		    "than three comma-separated parts (want " SPEC_FORM ")", spec);
		goto out;
	}
	if (off != NULL && ssp_num_strtou64(off, &offset, &errstr) != 0) {
		r = ssp_err_set(e, SSP_ERR_INVAL, 0, "symbol table '%s': "
		    "offset '%s': %s (want " SPEC_FORM ")", spec, off, errstr);
		goto out;
	}
#undef SPEC_FORM
	name = name != NULL && *name != '\0' ? strdup(name) : ssp_path_stem(file);
	if (name == NULL) {
		r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	if ((r = ssp_in_open(&in, file, SSP_IN_ZSTD_AUTO, NULL, e)) == SSP_OK)
		r = ssp_symtab_load(st, in, name, offset, NULL, NULL, e);
	ssp_in_close(in);
	free(name);
out:
	free(file);
	return r;
}

int
ssp_symtab_load_specs(struct ssp_symtab **sp, struct ssp_atoms *atoms,
    char *const *spec, size_t n, ssp_symtab_loaded_fn loaded, void *ctx,
    struct ssp_err *e)
{
	struct ssp_symtab *st;
	size_t i;
	int r;

	*sp = NULL;
	if ((r = ssp_symtab_new(&st, atoms, e)) != SSP_OK)
		return r;
	for (i = 0; i < n; i++) {
		if ((r = ssp_symtab_load_spec(st, spec[i], e)) != SSP_OK)
			goto fail;
		if (loaded != NULL)
			loaded(ctx, ssp_symtab_info(st, (unsigned)i));
	}
	if ((r = ssp_symtab_finish(st, e)) != SSP_OK)
		goto fail;
	*sp = st;
	return SSP_OK;
fail:
	ssp_symtab_free(st);
	return r;
}

const struct ssp_symtab_info *
ssp_symtab_info(const struct ssp_symtab *st, unsigned table)
{
	return table < st->ntables ? &st->info[table] : NULL;
}

char *
ssp_symtab_describe(const struct ssp_symtab *st)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	unsigned i;

	if (f == NULL)
		return NULL;
	for (i = 0; i < st->ntables; i++)
		fprintf(f, "%s%s=%s@0x%" PRIx64, i > 0 ? ";" : "",
		    st->info[i].name, st->info[i].file, st->info[i].offset);
	if (fclose(f) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

int
ssp_symtab_cut_msg(char *buf, size_t len, const struct ssp_symtab_info *ti)
{
	return snprintf(buf, len, "%s:%" PRIu64 ": symbol '%s...' of %zu bytes "
	    "cut to its first %d, a stream's longest string (%zu symbol%s of "
	    "this table cut)", ti->file, ti->cut_line, ti->cut_name, ti->cut_len,
	    SSP_REC_STR_MAX, ti->ncut, ti->ncut == 1 ? "" : "s");
}
