#include <stdlib.h>
#include <string.h>

#include "base/scan.h"
#include "source/gem5.h"

#define NCPU     256	/* CPUs tracked (names and user/kernel mode) */
#define NAME_MAX_ 96

struct name_cache {
	char s[NAME_MAX_];
	size_t len;
	uint32_t atom;
};

enum { MODE_NONE, MODE_KERNEL, MODE_USER };	/* a CPU's last Exec pc */

struct cpu_ent {
	struct name_cache n;
	int mode;
};

struct ssp_gem5 {
	struct ssp_atoms *atoms;
	const struct ssp_symtab *syms;
	int insn;
	uint32_t gem5_atom;		/* table of ExecSymbol entries in no table */
	uint32_t last_cpu;		/* the last Exec line's CPU (atom), 0 */
	unsigned ncpu;			/* CPUs known */
	struct cpu_ent *mru;		/* the last one seen (at first cpu[0]) */
	struct name_cache comp;		/* last adapter/device component */
	uint64_t last_tick;		/* for spliced-line recovery */
	int have_tick;			/* last_tick is one seen */
	int want_acc;			/* report Exec lines' accesses */
	int micro;			/* the last Exec line was a micro-op's */
	int seen_micro;			/* a micro-op line came */
	struct cpu_ent cpu[NCPU];
};

int
ssp_gem5_new(struct ssp_gem5 **gp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e)
{
	struct ssp_gem5 *g = calloc(1, sizeof(*g));

	*gp = NULL;
	if (g == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	g->atoms = cfg->atoms;
	g->syms = cfg->syms;
	g->mru = &g->cpu[0];
	g->cpu[0].n.len = SIZE_MAX / 2;	/* longer than any line */
	g->insn = cfg->insn;
	if ((g->gem5_atom = ssp_atoms_intern(g->atoms, "gem5", 4)) == 0) {
		free(g);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	*gp = g;
	return SSP_OK;
}

void
ssp_gem5_free(struct ssp_gem5 *g)
{
	free(g);
}

void
ssp_gem5_want_access(struct ssp_gem5 *g, int on)
{
	g->want_acc = on;
}

/*
 * The access an Exec line shows (ExeTracerRecord::traceInst): the op
 * class (ExecOpClass: " : MemWrite :") or the flags (ExecFlags:
 * "IsStore|") of a micro-op say store or load, " A=0x<ea>" (ExecEffAddr,
 * after the op class) its virtual address.  In a log with micro-op lines
 * a macro-op line is only a header (printed without them).
 */
static void
access_of(const struct ssp_gem5 *g, struct ssp_pline *o, uint32_t cpu,
    uint64_t tick, const char *p, const char *end)
{
	const char *q;

	o->acc = 1;
	o->a.cpu = cpu;
	o->a.tick = (int64_t)tick;
	o->a.mem = '?';
	o->a.has_ea = 0;
	o->a.micro = g->micro;
	o->a.micro_log = g->seen_micro;
	if (!g->micro && g->seen_micro)
		return;
	if ((q = memmem(p, (size_t)(end - p), " : Mem", 6)) != NULL) {
		q += 6;
		o->a.mem = SSP_HAS(q, end, "Write :") ? 'w' :
		    SSP_HAS(q, end, "Read :") ? 'r' : '?';
		p = q;
	} else if ((q = memmem(p, (size_t)(end - p), "IsStore|", 8)) != NULL) {
		o->a.mem = 'w';
	} else if (memmem(p, (size_t)(end - p), "IsLoad|", 7) != NULL) {
		o->a.mem = 'r';
	}
	if ((q = memmem(p, (size_t)(end - p), " A=0x", 5)) != NULL) {
		q += 3;
		if (ssp_scan_0xhex(&q, end, &o->a.ea) == 0)
			o->a.has_ea = 1;
	}
}

/* Atom for a name, through a one-entry cache. */
static uint32_t
cached_atom(struct ssp_gem5 *g, struct name_cache *c, const char *s, size_t n)
{
	uint32_t a;

	if (c->atom != 0 && c->len == n && memcmp(c->s, s, n) == 0)
		return c->atom;
	if ((a = ssp_atoms_intern(g->atoms, s, n)) != 0 && n < NAME_MAX_) {
		memcpy(c->s, s, n);
		c->len = n;
		c->atom = a;
	}
	return a;
}

static int
at_end(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p == end;
}

static int
is_mnemonic(const char *p, const char *end, const char *m, size_t n)
{
	size_t i;

	if ((size_t)(end - p) < n || (p + n < end && p[n] != ' '))
		return 0;
	for (i = 0; i < n; i++)
		if ((p[i] | 0x20) != m[i])
			return 0;
	return 1;
}

/*
 * Exec line body after "<cpu>: ":
 *   [A<asid> ][T<tid> : ]0x<pc>[ @<sym>[+<off>]](.<upc>|   ) : <disasm> ...
 */
static void
exec_body(struct ssp_gem5 *g, uint64_t tick, uint32_t cpu, const char *p,
    const char *end, struct ssp_pline *o, uint64_t *pcp)
{
	const char *sym = NULL, *symend = NULL;
	uint64_t pc, v;
	int64_t upc = -1;
	int has_off = 0, nop;

	if (*p == 'A') {
		p++;
		if (ssp_scan_small(&p, end, &v) != 0 || SSP_LIT(&p, end, " ") != 0)
			return ssp_pline_bad(o, "Exec: expected A<asid> before the pc");
	}
	if (p < end && *p == 'T') {
		p++;
		if (ssp_scan_small(&p, end, &v) != 0 || SSP_LIT(&p, end, " : ") != 0)
			return ssp_pline_bad(o, "Exec: expected 'T<tid> : ' before the pc");
	}
	if (ssp_scan_0xhex(&p, end, &pc) != 0)
		return ssp_pline_bad(o, "Exec: expected 0x<pc>");
	*pcp = pc;
	/* the symbol lookup's first load misses L1: start it now */
	ssp_symtab_prefetch(g->syms, pc);
	if (SSP_HAS(p, end, " @")) {
		const char *t, *plus;

		sym = p + 2;
		for (t = sym; t < end && *t != ' '; t++)
			;
		symend = t;
		if (t > sym && t[-1] == '.' && t + 1 < end && ssp_isdigit(t[1])) {
			/* "@sym. 3 :" micro-op */
			symend = t - 1;
			p = t + 1;
			if (ssp_scan_small(&p, end, &v) != 0 || v > 9999)
				return ssp_pline_bad(o, "Exec: bad micro-op number");
			upc = (int64_t)v;
		} else if (t - sym > 3 && t[-3] == '.' && t[-2] >= '1' && t[-2] <= '9' &&
		    ssp_isdigit(t[-1]) && SSP_HAS(t, end, " :") && !SSP_HAS(t, end, "  ")) {
			/* "@sym.12 :" micro-op 10..99: one space before the colon,
			 * where a macro-op has four */
			symend = t - 3;
			upc = (t[-2] - '0') * 10 + (t[-1] - '0');
			p = t;
		} else {
			p = t;
		}
		/* "+<decimal offset>" at the end of the symbol */
		for (plus = symend; plus > sym && ssp_isdigit(plus[-1]); plus--)
			;
		if (plus > sym + 1 && plus < symend && plus[-1] == '+') {
			has_off = 1;
			symend = plus - 1;
		}
		if (symend == sym)
			return ssp_pline_bad(o, "Exec: empty symbol after '@'");
	} else if (p < end && *p == '.') {
		p++;
		ssp_skip_sp(&p, end);
		if (ssp_scan_small(&p, end, &v) != 0 || v > 9999)
			return ssp_pline_bad(o, "Exec: bad micro-op number after '.'");
		upc = (int64_t)v;
	}
	/* disassembly: NOP and fences are not instructions worth an event */
	ssp_skip_sp(&p, end);
	nop = 0;
	if (p < end && *p == ':') {
		p++;
		ssp_skip_sp(&p, end);
		if (p < end && ((*p | 0x20) == 'n' || (*p | 0x20) == 'm' ||
		    (*p | 0x20) == 'l'))
			nop = is_mnemonic(p, end, "nop", 3) ||
			    is_mnemonic(p, end, "mfence", 6) ||
			    is_mnemonic(p, end, "lfence", 6);
	}
	g->micro = upc >= 0;
	if (upc >= 0) {
		g->seen_micro = 1;
		if (g->insn && !nop)
			goto insn;
		return ssp_pline_skip(o, nop ? SSP_SKIP_NOPFENCE : SSP_SKIP_MICROOP);
	}
	/* Function entry: pc at a symbol start, or ExecSymbol without +off.
	 * Checked before the NOP rule: Linux pads traced functions with a
	 * 5-byte NOP at their first address. */
	{
		const struct ssp_sym *s = ssp_symtab_at(g->syms, pc);

		if (sym != NULL && !has_off) {
			uint32_t a = ssp_atoms_find(g->atoms, sym, (size_t)(symend - sym));
			const struct ssp_sym *named = a != 0 && s != NULL ?
			    ssp_symtab_named(g->syms, pc, a) : NULL;

			if (named != NULL)
				s = named;
			else if (s == NULL) {
				if (a == 0 && (a = ssp_atoms_intern(g->atoms, sym,
				    (size_t)(symend - sym))) == 0)
					return ssp_pline_skip(o, SSP_SKIP_NAMES);
				ssp_pline_event(o, SSP_EV_FUNC, tick);
				o->ev.f[SSP_F_FUNC_CPU] = cpu;
				o->ev.f[SSP_F_FUNC_SYM] = a;
				o->ev.f[SSP_F_FUNC_TABLE] = g->gem5_atom;
				return;
			}
		}
		if (s != NULL) {
			ssp_pline_event(o, SSP_EV_FUNC, tick);
			o->ev.f[SSP_F_FUNC_CPU] = cpu;
			o->ev.f[SSP_F_FUNC_SYM] = s->name;
			o->ev.f[SSP_F_FUNC_TABLE] = ssp_symtab_table_name(g->syms,
			    s->table);
			return;
		}
	}
	if (g->insn && !nop)
		goto insn;
	return ssp_pline_skip(o, nop ? SSP_SKIP_NOPFENCE : SSP_SKIP_EXEC);
insn:
	ssp_pline_event(o, SSP_EV_INSN, tick);
	o->ev.f[SSP_F_INSN_CPU] = cpu;
	o->ev.f[SSP_F_INSN_PC] = pc;
	o->ev.f[SSP_F_INSN_UPC] = (uint64_t)upc;
}

/*
 * An Exec line of CPU c (NULL: a CPU past the NCPU tracked).  A user-mode
 * pc after kernel ones (or first) on that CPU also gives a user event,
 * before the line's own event if it has one (pre_ev).  A malformed line
 * changes nothing.
 */
static inline __attribute__((always_inline)) void
exec_line(struct ssp_gem5 *g, uint64_t tick, uint32_t cpu, struct cpu_ent *c,
    const char *p, const char *end, struct ssp_pline *o)
{
	struct ssp_rec *u;
	uint64_t pc = 0;

	g->last_cpu = cpu;
	exec_body(g, tick, cpu, p, end, o, &pc);
	if (__builtin_expect(g->want_acc, 0) && o->skip != SSP_SKIP_MALFORMED)
		access_of(g, o, cpu, tick, p, end);
	if (__builtin_expect(c == NULL || o->skip == SSP_SKIP_MALFORMED, 0))
		return;
	if (pc >= SSP_USER_PC_END) {
		c->mode = MODE_KERNEL;
		return;
	}
	if (c->mode == MODE_USER)
		return;
	c->mode = MODE_USER;
	if (o->skip == SSP_SKIP_NONE) {	/* before the line's own event */
		u = &o->pre_ev;
		o->pre = 1;
		u->type = SSP_EV_USER;
		u->ts = (int64_t)tick;
	} else {
		u = &o->ev;
		ssp_pline_event(o, SSP_EV_USER, tick);
	}
	u->f[SSP_F_USER_CPU] = cpu;
	u->f[SSP_F_USER_PC] = pc;
}

/* %#x: "0x<hex>", or digits (gem5 prints 0 as "0"). */
static int
scan_pfx_hex(const char **pp, const char *end, uint64_t *v)
{
	if (SSP_HAS(*pp, end, "0x"))
		return ssp_scan_0xhex(pp, end, v);
	return ssp_scan_dec(pp, end, v);
}

static void
set_comp(struct ssp_pline *o, unsigned type, uint64_t tick, uint32_t comp)
{
	ssp_pline_event(o, type, tick);
	o->ev.f[0] = comp;
}

/* A host device event: also the CPU of the last Exec line (0: none). */
static void
set_dev(struct ssp_gem5 *g, struct ssp_pline *o, unsigned type, uint64_t tick,
    uint32_t comp)
{
	set_comp(o, type, tick, comp);
	o->ev.f[ssp_event_cpu_field(type)] = g->last_cpu;
}

/* "simbricks-pci: ..." / "cosim: ..." adapter messages. */
static void
adapter_line(struct ssp_gem5 *g, uint64_t tick, const char *name, size_t nlen,
    const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t addr, size, id, offs, v;
	int64_t bar = -1, posted = -1;
	uint32_t comp;
	unsigned type;
	const char *why;

	if (SSP_LIT(&p, end, "sending ") == 0) {
		if (SSP_LIT(&p, end, "read addr ") == 0) {
			type = SSP_EV_MMIO_RD;
			why = "simbricks-pci sending read: expected 'addr <hex> size <hex> "
			    "id <dec>[ bar <dec> offs <hex>]'";
		} else if (SSP_LIT(&p, end, "write addr ") == 0) {
			type = SSP_EV_MMIO_WR;
			why = "simbricks-pci sending write: expected 'addr <hex> size <hex> "
			    "id <dec>[ bar <dec> offs <hex>[ posted <0|1>]]'";
		} else if (SSP_LIT(&p, end, "immediate response for posted write") == 0) {
			if (!at_end(p, end))
				return ssp_pline_bad(o, "simbricks-pci: text after "
				    "'immediate response for posted write'");
			if (nlen > 4 && memcmp(name + nlen - 4, ".pio", 4) == 0)
				nlen -= 4;
			if ((comp = cached_atom(g, &g->comp, name, nlen)) == 0)
				return ssp_pline_skip(o, SSP_SKIP_NAMES);
			return set_comp(o, SSP_EV_MMIO_POSTED, tick, comp);
		} else {
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		}
		if (ssp_scan_hex(&p, end, &addr) != 0 || SSP_LIT(&p, end, " size ") != 0 ||
		    ssp_scan_hex(&p, end, &size) != 0 || SSP_LIT(&p, end, " id ") != 0 ||
		    ssp_scan_dec(&p, end, &id) != 0)
			return ssp_pline_bad(o, why);
		offs = 0;
		if (SSP_LIT(&p, end, " bar ") == 0) {
			if (ssp_scan_sdec(&p, end, &bar) != 0 ||
			    SSP_LIT(&p, end, " offs ") != 0 ||
			    ssp_scan_hex(&p, end, &offs) != 0)
				return ssp_pline_bad(o, why);
			if (type == SSP_EV_MMIO_WR && SSP_LIT(&p, end, " posted ") == 0 &&
			    ssp_scan_sdec(&p, end, &posted) != 0)
				return ssp_pline_bad(o, why);
		}
		if (!at_end(p, end))
			return ssp_pline_bad(o, why);
		if ((comp = cached_atom(g, &g->comp, name, nlen)) == 0)
			return ssp_pline_skip(o, SSP_SKIP_NAMES);
		set_dev(g, o, type, tick, comp);
		o->guess = g->ncpu > 1;
		o->ev.f[SSP_F_MMIO_ADDR] = addr;
		o->ev.f[SSP_F_MMIO_SIZE] = size;
		o->ev.f[SSP_F_MMIO_ID] = id;
		o->ev.f[SSP_F_MMIO_BAR] = (uint64_t)bar;
		o->ev.f[SSP_F_MMIO_OFFS] = offs;
		if (type == SSP_EV_MMIO_WR)
			o->ev.f[SSP_F_MMIO_POSTED] = (uint64_t)posted;
		return;
	}
	if (SSP_LIT(&p, end, "received ") == 0) {
		type = SSP_LIT(&p, end, "read completion id") == 0 ? SSP_EV_MMIO_RD_DONE :
		    SSP_LIT(&p, end, "write completion id") == 0 ? SSP_EV_MMIO_WR_DONE :
		    SSP_EV_NTYPES;
		if (type != SSP_EV_NTYPES) {
			if (SSP_LIT(&p, end, " ") != 0 || ssp_scan_dec(&p, end, &id) != 0 ||
			    !at_end(p, end))
				return ssp_pline_bad(o, "simbricks-pci received completion: "
				    "expected 'id <dec>'");
			if ((comp = cached_atom(g, &g->comp, name, nlen)) == 0)
				return ssp_pline_skip(o, SSP_SKIP_NAMES);
			set_comp(o, type, tick, comp);
			o->ev.f[SSP_F_DONE_ID] = id;
			return;
		}
		type = SSP_LIT(&p, end, "DMA read id") == 0 ? SSP_EV_DMA_RD :
		    SSP_LIT(&p, end, "DMA write id") == 0 ? SSP_EV_DMA_WR : SSP_EV_NTYPES;
		if (type != SSP_EV_NTYPES) {
			if (SSP_LIT(&p, end, " ") != 0 || ssp_scan_dec(&p, end, &id) != 0 ||
			    SSP_LIT(&p, end, " addr ") != 0 ||
			    ssp_scan_hex(&p, end, &addr) != 0 || SSP_LIT(&p, end, " size ") != 0 ||
			    ssp_scan_hex(&p, end, &size) != 0 || !at_end(p, end))
				return ssp_pline_bad(o, "simbricks-pci received DMA: expected "
				    "'id <dec> addr <hex> size <hex>'");
			if ((comp = cached_atom(g, &g->comp, name, nlen)) == 0)
				return ssp_pline_skip(o, SSP_SKIP_NAMES);
			set_comp(o, type, tick, comp);
			o->ev.f[SSP_F_DMA_ID] = id;
			o->ev.f[SSP_F_DMA_ADDR] = addr;
			o->ev.f[SSP_F_DMA_SIZE] = size;
			return;
		}
		if (SSP_LIT(&p, end, "MSI-X intr vec") == 0)
			type = SSP_EV_MSIX;
		else if (SSP_LIT(&p, end, "MSI intr vec") == 0)
			type = SSP_EV_MSI;
		else if (SSP_LIT(&p, end, "intr vec") == 0)
			type = SSP_EV_INTR;
		else
			return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		if (SSP_LIT(&p, end, " ") != 0 || ssp_scan_dec(&p, end, &v) != 0 ||
		    !at_end(p, end))
			return ssp_pline_bad(o, "simbricks-pci received interrupt: "
			    "expected 'vec <dec>'");
		if ((comp = cached_atom(g, &g->comp, name, nlen)) == 0)
			return ssp_pline_skip(o, SSP_SKIP_NAMES);
		set_comp(o, type, tick, comp);
		o->ev.f[SSP_F_IRQ_VEC] = v;
		return;
	}
	if (SSP_LIT(&p, end, "completed DMA id") == 0) {
		if (SSP_LIT(&p, end, " ") != 0 || ssp_scan_dec(&p, end, &id) != 0 ||
		    !at_end(p, end))
			return ssp_pline_bad(o, "simbricks-pci completed DMA: expected "
			    "'id <dec>'");
		if ((comp = cached_atom(g, &g->comp, name, nlen)) == 0)
			return ssp_pline_skip(o, SSP_SKIP_NAMES);
		set_comp(o, SSP_EV_DMA_DONE, tick, comp);
		o->ev.f[SSP_F_DONE_ID] = id;
		return;
	}
	if (SSP_HAS(p, end, "MSI addr=") || SSP_HAS(p, end, "MSI masked") ||
	    SSP_HAS(p, end, "device constructed"))
		return ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
}

/* "readConfig:  dev %#x func %#x reg %#x %d bytes: data = %#x" */
static void
config_line(struct ssp_gem5 *g, uint64_t tick, unsigned type, const char *name,
    size_t nlen, const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t dev, func, reg, bytes, data;
	uint32_t comp;

	ssp_skip_sp(&p, end);
	if (SSP_LIT(&p, end, "dev ") != 0 || scan_pfx_hex(&p, end, &dev) != 0 ||
	    SSP_LIT(&p, end, " func ") != 0 || scan_pfx_hex(&p, end, &func) != 0 ||
	    SSP_LIT(&p, end, " reg ") != 0 || scan_pfx_hex(&p, end, &reg) != 0 ||
	    SSP_LIT(&p, end, " ") != 0 || ssp_scan_dec(&p, end, &bytes) != 0 ||
	    SSP_LIT(&p, end, " bytes: data = ") != 0 ||
	    scan_pfx_hex(&p, end, &data) != 0 || !at_end(p, end))
		return ssp_pline_bad(o, "readConfig/writeConfig: expected 'dev <x> "
		    "func <x> reg <x> <n> bytes: data = <x>'");
	if ((comp = cached_atom(g, &g->comp, name, nlen)) == 0)
		return ssp_pline_skip(o, SSP_SKIP_NAMES);
	set_dev(g, o, type, tick, comp);
	o->ev.f[SSP_F_CFG_DEV] = dev;
	o->ev.f[SSP_F_CFG_FUNC] = func;
	o->ev.f[SSP_F_CFG_REG] = reg;
	o->ev.f[SSP_F_CFG_BYTES] = bytes;
	o->ev.f[SSP_F_CFG_DATA] = data;
}

/* "BB:DD.F" as gem5 prints a PCI address (%02x:%02x.%i). */
static int
scan_bdf(const char **pp, const char *end, uint64_t *bus, uint64_t *dev,
    uint64_t *func)
{
	const char *p = *pp;

	if (ssp_scan_hex(&p, end, bus) != 0 || SSP_LIT(&p, end, ":") != 0 ||
	    ssp_scan_hex(&p, end, dev) != 0 || SSP_LIT(&p, end, ".") != 0 ||
	    ssp_scan_dec(&p, end, func) != 0)
		return -1;
	*pp = p;
	return 0;
}

/* pci_host: "BB:DD.F: read: offset=0x%x, size=0x%x" (p at BB). */
static void
pcihost_line(struct ssp_gem5 *g, uint64_t tick, const char *name, size_t nlen,
    const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t bus, dev, func, off, size;
	unsigned type;
	uint32_t comp;

	if (scan_bdf(&p, end, &bus, &dev, &func) != 0 || SSP_LIT(&p, end, ": ") != 0)
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	if (SSP_LIT(&p, end, "read: ") == 0)
		type = SSP_EV_PCIHOST_RD;
	else if (SSP_LIT(&p, end, "write: ") == 0)
		type = SSP_EV_PCIHOST_WR;
	else
		return ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
	if (SSP_LIT(&p, end, "offset=") != 0 || ssp_scan_0xhex(&p, end, &off) != 0 ||
	    SSP_LIT(&p, end, ", size=") != 0 || ssp_scan_0xhex(&p, end, &size) != 0 ||
	    !at_end(p, end))
		return ssp_pline_bad(o, "pci_host access: expected 'offset=0x<hex>, "
		    "size=0x<hex>'");
	if ((comp = cached_atom(g, &g->comp, name, nlen)) == 0)
		return ssp_pline_skip(o, SSP_SKIP_NAMES);
	set_dev(g, o, type, tick, comp);
	o->ev.f[SSP_F_PH_BUS] = bus;
	o->ev.f[SSP_F_PH_DEV] = dev;
	o->ev.f[SSP_F_PH_FUNC] = func;
	o->ev.f[SSP_F_PH_OFFSET] = off;
	o->ev.f[SSP_F_PH_SIZE] = size;
}

/* postInt/clearInt from "system.pc.pci_host.interface[BB:DD.F]". */
static void
int_line(struct ssp_gem5 *g, uint64_t tick, unsigned type, const char *name,
    size_t nlen, struct ssp_pline *o)
{
	const char *end = name + nlen, *b = memchr(name, '[', nlen);
	uint64_t bus = 0, dev = 0, func = 0;
	uint32_t comp;

	if (b != NULL) {
		b++;
		if (scan_bdf(&b, end, &bus, &dev, &func) != 0 || b >= end || *b != ']')
			return ssp_pline_bad(o, "postInt/clearInt: expected "
			    "'[BB:DD.F]' in the component name");
	}
	if ((comp = cached_atom(g, &g->comp, name, nlen)) == 0)
		return ssp_pline_skip(o, SSP_SKIP_NAMES);
	set_dev(g, o, type, tick, comp);
	o->ev.f[SSP_F_INT_BUS] = bus;
	o->ev.f[SSP_F_INT_DEV] = dev;
	o->ev.f[SSP_F_INT_FUNC] = func;
}

/* "simbricks: ..." from the adapter base class (name "global"). */
static void
base_line(uint64_t tick, const char *p, const char *end, struct ssp_pline *o)
{
	uint64_t ts;

	if (SSP_LIT(&p, end, "processInEvent") == 0 && at_end(p, end))
		return ssp_pline_event(o, SSP_EV_PROC_IN, tick);
	if (SSP_LIT(&p, end, "sending sync message") == 0) {
		if (at_end(p, end)) {	/* before 2024: same clock, ts = tick */
			ssp_pline_event(o, SSP_EV_SYNC, tick);
			o->ev.f[SSP_F_SYNC_TS] = tick;
			return;
		}
		if (SSP_LIT(&p, end, " for ts=") != 0 || ssp_scan_dec(&p, end, &ts) != 0 ||
		    !at_end(p, end) || ts > INT64_MAX)
			return ssp_pline_bad(o, "sending sync message: expected "
			    "'for ts=<dec>'");
		ssp_pline_event(o, SSP_EV_SYNC, tick);
		o->ev.f[SSP_F_SYNC_TS] = ts;
		return;
	}
	ssp_pline_skip(o, SSP_SKIP_SBOTHER);
}

static int
is_exec_msg(const char *p, const char *end)
{
	if (end - p < 3)
		return 0;
	if ((p[0] == 'A' || p[0] == 'T') && ssp_isdigit(p[1]))
		return 1;
	return p[0] == '0' && p[1] == 'x';
}

static int
is_global(const char *s, size_t n)
{
	return n == 6 && memcmp(s, "global", 6) == 0;
}

/* The entry of a CPU name (added on first sight), or NULL when NCPU are
 * known already or the name is too long; *atom gets its atom (0: none). */
static struct cpu_ent *
cpu_ent(struct ssp_gem5 *g, const char *name, size_t nlen, uint32_t *atom)
{
	struct cpu_ent *c;
	unsigned i;

	for (i = 0; i < g->ncpu; i++)
		if (g->cpu[i].n.len == nlen &&
		    memcmp(g->cpu[i].n.s, name, nlen) == 0) {
			g->mru = &g->cpu[i];
			*atom = g->cpu[i].n.atom;
			return &g->cpu[i];
		}
	if ((*atom = ssp_atoms_intern(g->atoms, name, nlen)) == 0 ||
	    nlen >= NAME_MAX_ || g->ncpu == NCPU)
		return NULL;
	c = g->mru = &g->cpu[g->ncpu++];
	memcpy(c->n.s, name, nlen);
	c->n.len = nlen;
	c->n.atom = *atom;
	c->mode = MODE_NONE;
	return c;
}

static inline int
cpu_is(const struct cpu_ent *c, const char *p, const char *end)
{
	size_t n = c->n.len;

	return (size_t)(end - p) > n + 2 && p[n] == ':' && p[n + 1] == ' ' &&
	    memcmp(p, c->n.s, n) == 0;
}

/* Is p "<cpu>: " of a known CPU?  The last one seen is tried first, then
 * the next (CPUs print in index order within a tick), then all. */
static inline struct cpu_ent *
cpu_cached(struct ssp_gem5 *g, const char *p, const char *end)
{
	struct cpu_ent *c = g->mru;
	unsigned i;

	if (cpu_is(c, p, end))	/* cpu[0] matches nothing until set */
		return c;
	if (++c >= g->cpu + g->ncpu)	/* also with none known yet */
		c = g->cpu;
	if (cpu_is(c, p, end))
		return g->mru = c;
	for (i = 0; i < g->ncpu; i++)
		if (cpu_is(&g->cpu[i], p, end))
			return g->mru = &g->cpu[i];
	return NULL;
}

/*
 * The envelope "<tick>: " whose tick did not scan: "-<digits>: " (a
 * negative tick) or a run of digits too long for 64 bits.  Then the line
 * is a malformed gem5 line, not text to search for spliced lines (which
 * would take the digits after the '-' for a tick).
 */
static const char *
bad_tick(const char *p, const char *end)
{
	const char *q = p + (p < end && *p == '-'), *d = q;

	while (q < end && ssp_isdigit(*q))
		q++;
	if (q == d || end - q < 2 || q[0] != ':' || q[1] != ' ')
		return NULL;
	return *p == '-' ? "negative tick" : "tick out of range";
}

/* Parse an enveloped line at p; -1 if p does not start with "<tick>: ". */
static int
parse(struct ssp_gem5 *g, const char *p, const char *end, struct ssp_pline *o)
{
	const char *name, *msg, *c;
	size_t nlen;
	uint64_t tick;
	struct cpu_ent *ce;

	while (p < end && *p == ' ')
		p++;
	if (ssp_scan_dec(&p, end, &tick) != 0 || SSP_LIT(&p, end, ": ") != 0) {
		const char *why = bad_tick(p, end);

		if (why == NULL)
			return -1;
		ssp_pline_bad(o, why);
		return 0;
	}
	if (tick > INT64_MAX) {
		ssp_pline_bad(o, "tick out of range");
		return 0;
	}
	g->last_tick = tick;
	g->have_tick = 1;
	/* fast path: Exec line of a CPU seen before */
	if ((ce = cpu_cached(g, p, end)) != NULL) {
		msg = p + ce->n.len + 2;
		if (is_exec_msg(msg, end)) {
			exec_line(g, tick, ce->n.atom, ce, msg, end, o);
			return 0;
		}
	}
	if ((c = ssp_find_colsp(p, end)) == NULL) {
		ssp_pline_skip(o, SSP_SKIP_UNKNOWN);
		return 0;
	}
	name = p;
	nlen = (size_t)(c - p);
	msg = c + 2;
	/* FmtFlag: "<flag>: <name>: msg"; a flag has no dot, a name has one
	 * (or is "global") */
	if (memchr(name, '.', nlen) == NULL && !is_global(name, nlen)) {
		const char *c2 = ssp_find_colsp(msg, end);
		size_t n2 = c2 != NULL ? (size_t)(c2 - msg) : 0;

		if (c2 != NULL && (is_global(msg, n2) || (memchr(msg, '.', n2) != NULL &&
		    memchr(msg, ' ', n2) == NULL))) {
			name = msg;
			nlen = n2;
			msg = c2 + 2;
		}
	}
	if (is_exec_msg(msg, end)) {
		uint32_t a;

		ce = cpu_ent(g, name, nlen, &a);
		if (a == 0)
			ssp_pline_skip(o, SSP_SKIP_NAMES);
		else
			exec_line(g, tick, a, ce, msg, end, o);
		return 0;
	}
	if (SSP_HAS(msg, end, "simbricks-pci: "))
		adapter_line(g, tick, name, nlen, msg + 15, end, o);
	else if (SSP_HAS(msg, end, "cosim: "))
		adapter_line(g, tick, name, nlen, msg + 7, end, o);
	else if (SSP_HAS(msg, end, "readConfig:"))
		config_line(g, tick, SSP_EV_CFG_RD, name, nlen, msg + 11, end, o);
	else if (SSP_HAS(msg, end, "writeConfig:"))
		config_line(g, tick, SSP_EV_CFG_WR, name, nlen, msg + 12, end, o);
	else if (SSP_HAS(msg, end, "simbricks: "))
		base_line(tick, msg + 11, end, o);
	else if ((end - msg == 7 && memcmp(msg, "postInt", 7) == 0))
		int_line(g, tick, SSP_EV_POST_INT, name, nlen, o);
	else if ((end - msg == 8 && memcmp(msg, "clearInt", 8) == 0))
		int_line(g, tick, SSP_EV_CLEAR_INT, name, nlen, o);
	else if (end - msg > 8 && msg[2] == ':' && msg[5] == '.' &&
	    ssp_hexval(msg[0]) >= 0)
		pcihost_line(g, tick, name, nlen, msg, end, o);
	else if (SSP_HAS(msg, end, "RIP 0x"))
		ssp_pline_skip(o, SSP_SKIP_FAULT);
	else if (SSP_HAS(msg, end, "simbricks-mem: ") ||
	    SSP_HAS(msg, end, "device constructed") ||
	    SSP_HAS(msg, end, "real->sim len=") ||
	    SSP_HAS(msg, end, "sending out a packet"))
		ssp_pline_skip(o, SSP_SKIP_SBOTHER);
	else {
		/* "<flag>: <fault>: RIP 0x...": fault lines with FmtFlag */
		const char *c2 = ssp_find_colsp(msg, end);

		ssp_pline_skip(o, c2 != NULL && SSP_HAS(c2 + 2, end, "RIP 0x") ?
		    SSP_SKIP_FAULT : SSP_SKIP_UNKNOWN);
	}
	return 0;
}

/*
 * Console text printed without a newline puts the next debug line behind
 * it: "... resuming from drain978719383000: system.pc...".  Find
 * "<digits>: system." or "<digits>: global: " inside the line; of the
 * digit run, take the shortest suffix not below the last tick seen (gem5
 * ticks never go back), so digits at the end of the text are not taken as
 * part of the tick.  Before any tick was seen, a tick the line starts with
 * ("978719381360 resuming ...") is the bound; without one, the whole digit
 * run is taken (at most 20 digits): the ticks of one log have similar
 * magnitudes, and any shorter suffix would be a guess.
 */
static int
recover(struct ssp_gem5 *g, const char *s, const char *end, struct ssp_pline *o)
{
	const char *p = s, *c;
	uint64_t low = g->last_tick;

	if (!g->have_tick) {
		const char *t = s;

		while (t < end && *t == ' ')
			t++;
		if (ssp_scan_dec(&t, end, &low) != 0)
			low = UINT64_MAX;
	}
	while ((c = memmem(p, (size_t)(end - p), ": ", 2)) != NULL) {
		const char *d = c, *q;

		p = c + 2;
		if (!SSP_HAS(p, end, "system.") && !SSP_HAS(p, end, "global: "))
			continue;
		while (d > s && ssp_isdigit(d[-1]))
			d--;
		if (d == c || d == s)
			continue;	/* no digits, or the line's own start */
		if (c - d > 20)
			d = c - 20;	/* a tick has at most 20 digits */
		for (q = c - 1; q > d; q--) {
			const char *t = q;
			uint64_t v;

			if (*q == '0' && q + 1 < c)
				continue;
			if (ssp_scan_dec(&t, c, &v) == 0 && v >= low)
				break;
		}
		if (parse(g, q, end, o) == 0) {
			o->recovered = 1;
			return 0;
		}
	}
	return -1;
}

void
ssp_gem5_line(struct ssp_gem5 *g, const char *s, size_t n, struct ssp_pline *o)
{
	const char *end = s + n;

	if (parse(g, s, end, o) == 0)
		return;
	if (recover(g, s, end, o) == 0)
		return;
	ssp_pline_skip(o, SSP_SKIP_TEXT);
}
