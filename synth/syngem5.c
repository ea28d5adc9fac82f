#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/syngem5.h"
#include "synth/synrng.h"

/*
 * x86 instructions as gem5 disassembles them: the macro-op line shows
 * "%-10s %s" (mnemonic, operands), each micro-op line "  MACRO : uop   ops"
 * (X86StaticInst::printMnemonic).  '#' in operands is replaced by a value.
 */
struct uop {
	const char *mnem, *ops, *opclass;
	char mem;		/* 'r' load, 'w' store, 0 none */
	char ctl;		/* 1: control transfer */
};

struct insn {
	const char *mnem, *ops, *macro;
	unsigned len;		/* bytes, for the next pc */
	unsigned nu;
	struct uop u[5];
};

static const struct insn insns[] = {
	{ "mov", "rax, DS:[rdi + 0x8]", "MOV_R_M", 4, 1,
	    { { "ld", "rax, DS:[rdi + 0x8]", "MemRead", 'r', 0 } } },
	{ "mov", "DS:[rbx + 0x10], rax", "MOV_M_R", 4, 1,
	    { { "st", "rax, DS:[rbx + 0x10]", "MemWrite", 'w', 0 } } },
	{ "add", "rax, rdx", "ADD_R_R", 3, 1,
	    { { "add", "rax, rax, rdx", "IntAlu", 0, 0 } } },
	{ "xor", "eax, eax", "XOR_R_R", 2, 1,
	    { { "xor", "eax, eax, eax", "IntAlu", 0, 0 } } },
	{ "cmp", "rax, 0x1", "CMP_R_I", 4, 2,
	    { { "limm", "t1, 0x1", "IntAlu", 0, 0 },
	      { "sub", "t0, rax, t1", "IntAlu", 0, 0 } } },
	{ "test", "eax, eax", "TEST_R_R", 2, 1,
	    { { "and", "t0, eax, eax", "IntAlu", 0, 0 } } },
	{ "lea", "rdi, DS:[rbp + 0xfffffffffffffff0]", "LEA_R_M", 4, 1,
	    { { "lea", "rdi, DS:[rbp + 0xfffffffffffffff0]", "IntAlu", 0, 0 } } },
	{ "pop", "rbx", "POP_R", 1, 2,
	    { { "ld", "rbx, SS:[rsp]", "MemRead", 'r', 0 },
	      { "addi", "rsp, rsp, 0x8", "IntAlu", 0, 0 } } },
	{ "mov", "rax, GS:[0x1ac00]", "MOV_R_M", 9, 1,
	    { { "ld", "rax, GS:[0x1ac00]", "MemRead", 'r', 0 } } },
	{ "jnz", "#", "JNZ_I", 2, 3,
	    { { "rdip", "t1", "IntAlu", 0, 0 },
	      { "limm", "t2, 0x1e", "IntAlu", 0, 0 },
	      { "wrip", "t1, t2", "IntAlu", 0, 1 } } },
	{ "cmpxchg", "DS:[rdi], rdx", "CMPXCHG_M_R", 4, 5,
	    { { "ldst", "t1, DS:[rdi]", "MemRead", 'r', 0 },
	      { "sub", "t0, rax, t1", "IntAlu", 0, 0 },
	      { "mov", "t1, t1, rdx", "IntAlu", 0, 0 },
	      { "stul", "t1, DS:[rdi]", "MemWrite", 'w', 0 },
	      { "mov", "rax, rax, t1", "IntAlu", 0, 0 } } },
	{ "movzx", "eax, DS:[rsi]", "MOVZX_B_R_M", 3, 1,
	    { { "ld", "eax, DS:[rsi]", "MemRead", 'r', 0 } } },
	{ "shl", "rax, 0x3", "SHL_R_I", 4, 1,
	    { { "slli", "rax, rax, 0x3", "IntAlu", 0, 0 } } },
	{ "ret", "", "RET_NEAR", 1, 3,
	    { { "ld", "t1, SS:[rsp]", "MemRead", 'r', 0 },
	      { "addi", "rsp, rsp, 0x8", "IntAlu", 0, 0 },
	      { "wripi", "t1, 0", "IntAlu", 0, 1 } } },
	{ "call", "#", "CALL_NEAR_I", 5, 5,
	    { { "limm", "t1, 0x1a2b", "IntAlu", 0, 0 },
	      { "rdip", "t7", "IntAlu", 0, 0 },
	      { "st", "t7, SS:[rsp + 0xfffffffffffffff8]", "MemWrite", 'w', 0 },
	      { "subi", "rsp, rsp, 0x8", "IntAlu", 0, 0 },
	      { "wrip", "t7, t1", "IntAlu", 0, 1 } } },
};
#define NINSNS (sizeof(insns) / sizeof(insns[0]))

/* pushq $__USER_DS, the first instruction after entry_SYSCALL_64's stack
 * switch */
static const struct insn push_imm = { "push", "0x2b", "PUSH_I", 2, 2,
	{ { "limm", "t1, 0x2b", "IntAlu", 0, 0 },
	  { "stupd", "t1, SS:[rsp + 0xfffffffffffffff8]", "MemWrite", 'w', 0 } } };

static const struct insn push_rbp = { "push", "rbp", "PUSH_R", 1, 1,
	{ { "stupd", "rbp, SS:[rsp + 0xfffffffffffffff8]", "MemWrite", 'w', 0 } } };

enum { LK_EXEC, LK_MICROOP, LK_NOPFENCE, LK_FAULT };

struct ssp_syngem5_execpool {
	char *arena;
	size_t *off;
	unsigned short *len;
	unsigned char *newtick, *kind;	/* tick weight (0: same tick, mean 128) */
	size_t n, cap, arenalen, arenacap;
	double line_bytes;
	double mean_weight;	/* mean tick weight per line / 128 */
};

#define POOL_LINES 6000

static char *
pad26(char *p, const char *start)
{
	while (p - start < 26)
		*p++ = ' ';
	return p;
}

static const char *
flags_for(const struct uop *u, unsigned k, unsigned n)
{
	if (n == 1)
		return u->mem == 'r' ? "IsInteger|IsLoad|IsMemRef|IsMicroop|IsLastMicroop|IsFirstMicroop" :
		    u->mem == 'w' ? "IsInteger|IsStore|IsMemRef|IsMicroop|IsLastMicroop|IsFirstMicroop" :
		    "IsInteger|IsMicroop|IsLastMicroop|IsFirstMicroop";
	if (u->ctl)
		return "IsInteger|IsControl|IsDirectControl|IsCondControl|IsMicroop|IsLastMicroop";
	if (k == 0)
		return u->mem == 'r' ? "IsInteger|IsLoad|IsMemRef|IsMicroop|IsDelayedCommit|IsFirstMicroop" :
		    "IsInteger|IsMicroop|IsDelayedCommit|IsFirstMicroop";
	if (k + 1 == n)
		return u->mem == 'w' ? "IsInteger|IsStore|IsMemRef|IsMicroop|IsLastMicroop" :
		    "IsInteger|IsMicroop|IsLastMicroop";
	return u->mem == 'r' ? "IsInteger|IsLoad|IsMemRef|IsMicroop|IsDelayedCommit" :
	    u->mem == 'w' ? "IsInteger|IsStore|IsMemRef|IsMicroop|IsDelayedCommit" :
	    "IsInteger|IsMicroop|IsDelayedCommit";
}

/* The macro-op line body after "0x<pc>": "    : <disasm, width 26>". */
static char *
put_macro(char *p, const struct insn *in, uint64_t pc)
{
	char *d;

	p = ssp_synlog_put_str(p, "    : ");
	d = p;
	p = ssp_synlog_put_str(p, in->mnem);
	if (in->ops[0] != '\0') {
		while (p - d < 10)
			*p++ = ' ';
		*p++ = ' ';
		if (strcmp(in->ops, "#") == 0) {
			p = ssp_synlog_put_str(p, "0x");
			p = ssp_synlog_put_hex(p, pc + 0x1e + in->len);
		} else {
			p = ssp_synlog_put_str(p, in->ops);
		}
	}
	return pad26(p, d);
}

/* The micro-op line body after "0x<pc>". */
static char *
put_uop(char *p, const struct insn *in, unsigned k, uint64_t data,
    uint64_t ea)
{
	const struct uop *u = &in->u[k];
	char *d;

	*p++ = '.';
	*p++ = k < 10 ? ' ' : (char)('0' + k / 10);
	*p++ = (char)('0' + k % 10);
	p = ssp_synlog_put_str(p, " : ");
	d = p;
	p = ssp_synlog_put_str(p, "  ");
	p = ssp_synlog_put_str(p, in->macro);
	p = ssp_synlog_put_str(p, " : ");
	p = ssp_synlog_put_str(p, u->mnem);
	p = ssp_synlog_put_str(p, "   ");
	p = ssp_synlog_put_str(p, u->ops);
	p = pad26(p, d);
	p = ssp_synlog_put_str(p, " : ");
	p = ssp_synlog_put_str(p, u->opclass);
	p = ssp_synlog_put_str(p, " :  D=0x");
	p = ssp_synlog_put_hex_w(p, data, 16);
	if (u->mem) {
		p = ssp_synlog_put_str(p, " A=0x");
		p = ssp_synlog_put_hex(p, ea);
	}
	p = ssp_synlog_put_str(p, "  flags=(");
	p = ssp_synlog_put_str(p, flags_for(u, k, in->nu));
	*p++ = ')';
	return p;
}

static char *
put_prefix(char *p, int fmtflag, const char *cpu, uint64_t pc)
{
	*p++ = ':';
	*p++ = ' ';
	if (fmtflag)
		p = ssp_synlog_put_str(p, "ExecEnable: ");
	p = ssp_synlog_put_str(p, cpu);
	p = ssp_synlog_put_str(p, ": A0 T0 : 0x");
	return ssp_synlog_put_hex(p, pc);
}

static int
pool_add(struct ssp_syngem5_execpool *pl, const char *s, size_t n, int newtick, int kind)
{
	if (pl->n == pl->cap || pl->arenalen + n > pl->arenacap)
		return -1;
	memcpy(pl->arena + pl->arenalen, s, n);
	pl->off[pl->n] = pl->arenalen;
	pl->len[pl->n] = (unsigned short)n;
	pl->newtick[pl->n] = (unsigned char)newtick;
	pl->kind[pl->n] = (unsigned char)kind;
	pl->arenalen += n;
	pl->n++;
	return 0;
}

/* How far the clock moves before a line, relative to the mean step: the
 * CPU does not retire one instruction per fixed interval. */
static int
weight(struct ssp_synrng *r)
{
	return 32 + (int)ssp_synrng_below(r, 193);
}

/* A kernel pc strictly inside a vmlinux function, never a symbol start. */
static uint64_t
kernel_pc(const struct ssp_synsym_set *syms, struct ssp_synrng *r)
{
	size_t n = ssp_synsym_nvmlinux(syms);

	for (;;) {
		const struct ssp_synsym *f = ssp_synsym_vmlinux(syms,
		    ssp_synrng_below(r, n));
		uint64_t pc;

		if (f->size < 16)
			continue;
		pc = f->addr + 1 + ssp_synrng_below(r, f->size - 12);
		if (!ssp_synsym_is_start(syms, pc))
			return pc;
	}
}

int
ssp_syngem5_execpool_new(struct ssp_syngem5_execpool **pp, const struct ssp_synsym_set *syms,
    const char *cpu, int user, int fmtflag, uint64_t seed, struct ssp_err *e)
{
	struct ssp_syngem5_execpool *pl = calloc(1, sizeof(*pl));
	struct ssp_synrng r;
	char line[1024], *p;
	uint64_t pc = 0, total = 0, wsum;
	unsigned run = 0, k;

	*pp = NULL;
	if (pl == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	pl->cap = POOL_LINES + 16;
	pl->arenacap = pl->cap * 400;
	pl->arena = malloc(pl->arenacap);
	pl->off = calloc(pl->cap, sizeof(*pl->off));
	pl->len = calloc(pl->cap, sizeof(*pl->len));
	pl->newtick = calloc(pl->cap, 1);
	pl->kind = calloc(pl->cap, 1);
	if (pl->arena == NULL || pl->off == NULL || pl->len == NULL ||
	    pl->newtick == NULL || pl->kind == NULL) {
		ssp_syngem5_execpool_free(pl);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	ssp_synrng_seed(&r, seed, user ? 0x75736572 : 0x6b65726e);
	while (pl->n < POOL_LINES) {
		unsigned roll = (unsigned)ssp_synrng_below(&r, 512);
		const struct insn *in = &insns[ssp_synrng_below(&r, NINSNS)];

		if (run == 0) {	/* a new run of straight-line code */
			pc = user ? (ssp_synrng_chance(&r, 0.5) ? 0x7fc14f700000ull :
			    0x401000ull) + ssp_synrng_below(&r, 0x40000) :
			    kernel_pc(syms, &r);
			run = 4 + (unsigned)ssp_synrng_below(&r, 12);
		}
		run--;
		if (!user && ssp_synsym_is_start(syms, pc)) {
			run = 0;
			continue;
		}
		if (user && roll == 0) {	/* a page fault now and then */
			p = line;
			p = ssp_synlog_put_str(p, fmtflag ? ": Faults: Page-Fault: RIP 0x" :
			    ": Page-Fault: RIP 0x");
			p = ssp_synlog_put_hex(p, pc);
			p = ssp_synlog_put_str(p, ": vector 14: #PF(0x14) at 0x");
			p = ssp_synlog_put_hex(p, (pc & ~0xfffull) + 0x1000);
			*p++ = '\n';
			pool_add(pl, line, (size_t)(p - line), weight(&r), LK_FAULT);
			continue;
		}
		if (roll < 12) {	/* NOP / MFENCE: not micro-coded */
			char *d;

			/* printMnemonic's "  %s   " in a setw(26) field, then
			 * the op class and, as every executed instruction here
			 * (ExecFlags), its flags; no D= or A= */
			p = put_prefix(line, fmtflag, cpu, pc);
			p = ssp_synlog_put_str(p, "    : ");
			d = p;
			p = ssp_synlog_put_str(p, roll < 10 ? "  NOP   " : "  MFENCE   ");
			p = pad26(p, d);
			p = ssp_synlog_put_str(p, roll < 10 ? " : IntAlu :   flags=(IsNop)\n" :
			    " : MemWrite :   flags=(IsReadBarrier|IsWriteBarrier)\n");
			pool_add(pl, line, (size_t)(p - line), weight(&r), LK_NOPFENCE);
			pc += roll < 10 ? 1 : 3;
			continue;
		}
		p = put_prefix(line, fmtflag, cpu, pc);
		p = put_macro(p, in, pc);
		*p++ = '\n';
		if (pool_add(pl, line, (size_t)(p - line), weight(&r), LK_EXEC) != 0)
			break;
		for (k = 0; k < in->nu; k++) {
			uint64_t data = ssp_synrng_next(&r) | 1;
			uint64_t ea = user ? 0x7ffd49f99000ull + ssp_synrng_below(&r, 0x1000) :
			    0xffff888100000000ull + (ssp_synrng_below(&r, 1u << 26) & ~7ull);

			if (ssp_synrng_chance(&r, 0.6))
				data &= 0xffffffffull;
			p = put_prefix(line, fmtflag, cpu, pc);
			p = put_uop(p, in, k, data, ea);
			*p++ = '\n';
			if (pool_add(pl, line, (size_t)(p - line), k > 0 ?
			    weight(&r) : 0, LK_MICROOP) != 0)
				break;
		}
		pc += in->len;
	}
	for (k = 0, wsum = 0; k < pl->n; k++) {
		total += pl->len[k];
		wsum += pl->newtick[k];
	}
	pl->line_bytes = (double)total / (double)pl->n;
	pl->mean_weight = (double)wsum / 128.0 / (double)pl->n;
	*pp = pl;
	return SSP_OK;
}

void
ssp_syngem5_execpool_free(struct ssp_syngem5_execpool *p)
{
	if (p == NULL)
		return;
	free(p->arena);
	free(p->off);
	free(p->len);
	free(p->newtick);
	free(p->kind);
	free(p);
}

double
ssp_syngem5_execpool_line_bytes(const struct ssp_syngem5_execpool *p)
{
	return p->line_bytes;
}

/* --- the writer ---------------------------------------------------------- */

void
ssp_syngem5_init(struct ssp_syngem5 *w, struct ssp_synlog *log, const char *cpu,
    int64_t tick_offset, const struct ssp_syngem5_execpool *kpool,
    const struct ssp_syngem5_execpool *upool, uint64_t pool_start)
{
	memset(w, 0, sizeof(*w));
	w->log = log;
	w->cpu = cpu;
	w->adapter = "system.pc.simbricks_0";
	w->off = tick_offset;
	w->pool[0] = kpool;
	w->pool[1] = upool;
	w->user = 1;
	w->lpos[0] = pool_start % kpool->n;
	w->lpos[1] = pool_start % upool->n;
	/* start both pools on a macro-op line */
	while (kpool->newtick[w->lpos[0]] == 0 || kpool->kind[w->lpos[0]] == LK_MICROOP)
		w->lpos[0] = (w->lpos[0] + 1) % kpool->n;
	while (upool->newtick[w->lpos[1]] == 0 || upool->kind[w->lpos[1]] == LK_MICROOP)
		w->lpos[1] = (w->lpos[1] + 1) % upool->n;
}

void
ssp_syngem5_density(struct ssp_syngem5 *w, double lines_per_us)
{
	/* lines that share their group's tick do not move the clock */
	double mw = (w->pool[0]->mean_weight + w->pool[1]->mean_weight) / 2;
	double step = lines_per_us > 0 ? 1e6 * 256.0 / lines_per_us / mw : 0;

	w->step_fp = lines_per_us <= 0 ? 0 : step < 1 ? 1 : (uint64_t)step;
	if (w->next_fp < (uint64_t)w->last << 8)
		w->next_fp = (uint64_t)w->last << 8;
}

static const int skip_of_kind[] = { SSP_G5_EXEC, SSP_G5_MICROOP,
	SSP_G5_NOPFENCE, SSP_G5_FAULT };

void
ssp_syngem5_fill(struct ssp_syngem5 *w, int64_t t)
{
	const struct ssp_syngem5_execpool *pl;
	size_t i;
	char *p, *lim;

	if (w->step_fp == 0 || t <= 0)
		return;
	pl = w->pool[w->user];
	i = w->lpos[w->user];
	while ((int64_t)(w->next_fp >> 8) < t) {
		uint64_t nl = 0;

		p = ssp_synlog_room(w->log);
		lim = p + SSP_SYNLOG_LINEMAX - 512;
		while (p < lim && (int64_t)(w->next_fp >> 8) < t) {
			int64_t tick = (int64_t)(w->next_fp >> 8);

			p = ssp_synlog_put_u64_w(p, (uint64_t)(tick + w->off), 7);
			p = ssp_synlog_put_mem(p, pl->arena + pl->off[i], pl->len[i]);
			w->nskip[skip_of_kind[pl->kind[i]]]++;
			nl++;
			w->last = tick;
			if (++i == pl->n)
				i = 0;
			w->next_fp += (w->step_fp * pl->newtick[i]) >> 7;
		}
		w->nfill += nl;
		ssp_synlog_commit_n(w->log, p, nl);
	}
	w->lpos[w->user] = i;
}

/* The adapter's debug flag: SimBricksPci, Ethernet before 2023-03. */
static const char *
pci_flag(const struct ssp_syngem5 *w)
{
	return w->dialect & SSP_SYN_G5_NOBAR ? "Ethernet" : "SimBricksPci";
}

/* "<tick>: [<flag>: ]<name>: " after padding up to t; the debug flag's
 * name only with FmtFlag. */
static char *
begin(struct ssp_syngem5 *w, int64_t t, const char *flag, const char *name)
{
	char *p;

	ssp_syngem5_fill(w, t);
	if (t > w->last)
		w->last = t;
	p = ssp_synlog_room(w->log);
	p = ssp_synlog_put_u64_w(p, (uint64_t)(t + w->off), 7);
	*p++ = ':';
	*p++ = ' ';
	if (w->dialect & SSP_SYN_G5_FMTFLAG) {
		p = ssp_synlog_put_str(p, flag);
		*p++ = ':';
		*p++ = ' ';
	}
	p = ssp_synlog_put_str(p, name);
	*p++ = ':';
	*p++ = ' ';
	return p;
}

static void
end(struct ssp_syngem5 *w, char *p, int evtype)
{
	*p++ = '\n';
	ssp_synlog_commit_n(w->log, p, 1);
	if (evtype >= 0)
		w->nev[evtype]++;
}

void
ssp_syngem5_func(struct ssp_syngem5 *w, int64_t t, uint64_t pc)
{
	char *p = begin(w, t, "ExecEnable", w->cpu);

	p = ssp_synlog_put_str(p, "A0 T0 : 0x");
	p = ssp_synlog_put_hex(p, pc);
	p = put_macro(p, &push_rbp, pc);
	end(w, p, SSP_EV_FUNC);
	p = begin(w, t, "ExecEnable", w->cpu);
	p = ssp_synlog_put_str(p, "A0 T0 : 0x");
	p = ssp_synlog_put_hex(p, pc);
	p = put_uop(p, &push_rbp, 0, 0xffffffff81000000ull | (pc & 0xffffff),
	    0xffffc90000a3be50ull - ((pc >> 4) & 0xff0));
	end(w, p, -1);
	w->nskip[SSP_G5_MICROOP]++;
}

int64_t
ssp_syngem5_next_fill(const struct ssp_syngem5 *w)
{
	return w->step_fp == 0 ? INT64_MAX : (int64_t)(w->next_fp >> 8);
}

void
ssp_syngem5_insn(struct ssp_syngem5 *w, int64_t t, uint64_t pc, int mem,
    uint64_t ea)
{
	const struct insn *in = &insns[mem == 'w' ? 1 : mem == 'r' ? 0 : 2];
	char *p = begin(w, t, "ExecEnable", w->cpu);
	unsigned k;

	p = ssp_synlog_put_str(p, "A0 T0 : 0x");
	p = ssp_synlog_put_hex(p, pc);
	p = put_macro(p, in, pc);
	end(w, p, -1);
	w->nskip[SSP_G5_EXEC]++;
	for (k = 0; k < in->nu; k++) {
		p = begin(w, t, "ExecEnable", w->cpu);
		p = ssp_synlog_put_str(p, "A0 T0 : 0x");
		p = ssp_synlog_put_hex(p, pc);
		p = put_uop(p, in, k, 0x1b + (pc & 0xff0), ea);
		end(w, p, -1);
		w->nskip[SSP_G5_MICROOP]++;
	}
}

void
ssp_syngem5_push_imm(struct ssp_syngem5 *w, int64_t t, uint64_t pc)
{
	ssp_syngem5_push_imm_at(w, t, pc, 125);
}

void
ssp_syngem5_push_imm_at(struct ssp_syngem5 *w, int64_t t, uint64_t pc,
    int64_t step)
{
	char *p = begin(w, t, "ExecEnable", w->cpu);
	unsigned k;

	p = ssp_synlog_put_str(p, "A0 T0 : 0x");
	p = ssp_synlog_put_hex(p, pc);
	p = put_macro(p, &push_imm, pc);
	end(w, p, SSP_EV_FUNC);
	for (k = 0; k < push_imm.nu; k++) {
		p = begin(w, t + step * k, "ExecEnable", w->cpu);
		p = ssp_synlog_put_str(p, "A0 T0 : 0x");
		p = ssp_synlog_put_hex(p, pc);
		p = put_uop(p, &push_imm, k, 0x2b, 0xfffffe0000002ff8ull);
		end(w, p, -1);
		w->nskip[SSP_G5_MICROOP]++;
	}
}

void
ssp_syngem5_mmio(struct ssp_syngem5 *w, int64_t t, int write, uint64_t addr,
    unsigned size, uint64_t id, int bar, uint64_t offs, int posted)
{
	char *p = begin(w, t, pci_flag(w), w->adapter);

	p = ssp_synlog_put_str(p, write ? "simbricks-pci: sending write addr " :
	    "simbricks-pci: sending read addr ");
	p = ssp_synlog_put_hex(p, addr);
	p = ssp_synlog_put_str(p, " size ");
	p = ssp_synlog_put_hex(p, size);
	p = ssp_synlog_put_str(p, " id ");
	p = ssp_synlog_put_u64(p, id);
	if (!(w->dialect & SSP_SYN_G5_NOBAR)) {
		p = ssp_synlog_put_str(p, " bar ");
		p = ssp_synlog_put_u64(p, (uint64_t)bar);
		p = ssp_synlog_put_str(p, " offs ");
		p = ssp_synlog_put_hex(p, offs);
		if (write && !(w->dialect & SSP_SYN_G5_NOPOSTED)) {
			p = ssp_synlog_put_str(p, " posted ");
			*p++ = posted ? '1' : '0';
		}
	}
	end(w, p, write ? SSP_EV_MMIO_WR : SSP_EV_MMIO_RD);
}

void
ssp_syngem5_posted(struct ssp_syngem5 *w, int64_t t)
{
	char name[64], *p;

	snprintf(name, sizeof(name), "%s.pio", w->adapter);
	p = begin(w, t, pci_flag(w), name);
	p = ssp_synlog_put_str(p, "simbricks-pci: sending immediate response for "
	    "posted write");
	end(w, p, SSP_EV_MMIO_POSTED);
}

void
ssp_syngem5_mmio_done(struct ssp_syngem5 *w, int64_t t, int write, uint64_t id)
{
	char *p = begin(w, t, pci_flag(w), w->adapter);

	p = ssp_synlog_put_str(p, write ? "simbricks-pci: received write completion id " :
	    "simbricks-pci: received read completion id ");
	p = ssp_synlog_put_u64(p, id);
	end(w, p, write ? SSP_EV_MMIO_WR_DONE : SSP_EV_MMIO_RD_DONE);
}

void
ssp_syngem5_dma(struct ssp_syngem5 *w, int64_t t, int write, uint64_t id,
    uint64_t addr, uint64_t size)
{
	char *p = begin(w, t, pci_flag(w), w->adapter);

	p = ssp_synlog_put_str(p, write ? "simbricks-pci: received DMA write id " :
	    "simbricks-pci: received DMA read id ");
	p = ssp_synlog_put_u64(p, id);
	p = ssp_synlog_put_str(p, " addr ");
	p = ssp_synlog_put_hex(p, addr);
	p = ssp_synlog_put_str(p, " size ");
	p = ssp_synlog_put_hex(p, size);
	end(w, p, write ? SSP_EV_DMA_WR : SSP_EV_DMA_RD);
}

void
ssp_syngem5_dma_done(struct ssp_syngem5 *w, int64_t t, uint64_t id)
{
	char *p = begin(w, t, pci_flag(w), w->adapter);

	p = ssp_synlog_put_str(p, "simbricks-pci: completed DMA id ");
	p = ssp_synlog_put_u64(p, id);
	end(w, p, SSP_EV_DMA_DONE);
}

void
ssp_syngem5_msix(struct ssp_syngem5 *w, int64_t t, unsigned vec)
{
	char *p = begin(w, t, pci_flag(w), w->adapter);

	p = ssp_synlog_put_str(p, w->dialect & SSP_SYN_G5_NOBAR ?
	    "simbricks-pci: received intr vec " :
	    "simbricks-pci: received MSI-X intr vec ");
	p = ssp_synlog_put_u64(p, vec);
	end(w, p, w->dialect & SSP_SYN_G5_NOBAR ? SSP_EV_INTR : SSP_EV_MSIX);
}

void
ssp_syngem5_msi(struct ssp_syngem5 *w, int64_t t, unsigned vec,
    unsigned cpu_vector)
{
	char *p = begin(w, t, pci_flag(w), w->adapter);

	p = ssp_synlog_put_str(p, w->dialect & SSP_SYN_G5_NOBAR ?
	    "simbricks-pci: received intr vec " :
	    "simbricks-pci: received MSI intr vec ");
	p = ssp_synlog_put_u64(p, vec);
	end(w, p, w->dialect & SSP_SYN_G5_NOBAR ? SSP_EV_INTR : SSP_EV_MSI);
	if (w->dialect & SSP_SYN_G5_NOBAR)
		return;		/* the old adapter printed no message */
	p = begin(w, t, pci_flag(w), w->adapter);
	p = ssp_synlog_put_str(p, "simbricks-pci: MSI addr=fee00000 val=");
	p = ssp_synlog_put_hex(p, cpu_vector);
	p = ssp_synlog_put_str(p, " mask=0");
	end(w, p, -1);
	w->nskip[SSP_G5_SBOTHER]++;
}

void
ssp_syngem5_config(struct ssp_syngem5 *w, int64_t t, int write, unsigned reg,
    unsigned bytes, uint64_t data)
{
	char *p = begin(w, t, "PciHost", "system.pc.pci_host");

	p = ssp_synlog_put_str(p, write ? "00:00.0: write: offset=0x" :
	    "00:00.0: read: offset=0x");
	p = ssp_synlog_put_hex(p, reg);
	p = ssp_synlog_put_str(p, ", size=0x");
	p = ssp_synlog_put_hex(p, bytes);
	end(w, p, write ? SSP_EV_PCIHOST_WR : SSP_EV_PCIHOST_RD);
	p = begin(w, t, "PciDevice", w->adapter);
	p = ssp_synlog_put_str(p, write ? "writeConfig: dev 0 func 0 reg " :
	    "readConfig:  dev 0 func 0 reg ");
	p = ssp_synlog_put_hashx(p, reg);
	*p++ = ' ';
	p = ssp_synlog_put_u64(p, bytes);
	p = ssp_synlog_put_str(p, " bytes: data = ");
	p = ssp_synlog_put_hashx(p, data);
	end(w, p, write ? SSP_EV_CFG_WR : SSP_EV_CFG_RD);
}

void
ssp_syngem5_intx(struct ssp_syngem5 *w, int64_t t, int post)
{
	ssp_syngem5_intx_dev(w, t, post, "system.pc.pci_host.interface[00:04.0]");
}

void
ssp_syngem5_intx_dev(struct ssp_syngem5 *w, int64_t t, int post,
    const char *iface)
{
	char *p = begin(w, t, "PciHost", iface);

	p = ssp_synlog_put_str(p, post ? "postInt" : "clearInt");
	end(w, p, post ? SSP_EV_POST_INT : SSP_EV_CLEAR_INT);
}

void
ssp_syngem5_sync(struct ssp_syngem5 *w, int64_t t, int64_t ts)
{
	char *p = begin(w, t, "SimBricksSync", "global");

	p = ssp_synlog_put_str(p, "simbricks: sending sync message for ts=");
	p = ssp_synlog_put_u64(p, (uint64_t)ts);
	end(w, p, SSP_EV_SYNC);
}

void
ssp_syngem5_procin(struct ssp_syngem5 *w, int64_t t)
{
	char *p = begin(w, t, "SimBricks", "global");

	p = ssp_synlog_put_str(p, "simbricks: processInEvent");
	end(w, p, SSP_EV_PROC_IN);
}

void
ssp_syngem5_fault_intr(struct ssp_syngem5 *w, int64_t t, uint64_t rip,
    unsigned vector)
{
	char *p = begin(w, t, "Faults", "External Interrupt");

	p = ssp_synlog_put_str(p, "RIP 0x");
	p = ssp_synlog_put_hex(p, rip);
	p = ssp_synlog_put_str(p, ": vector ");
	p = ssp_synlog_put_u64(p, vector);
	p = ssp_synlog_put_str(p, ": #INTR");
	end(w, p, -1);
	w->nskip[SSP_G5_FAULT]++;
}

void
ssp_syngem5_constructed(struct ssp_syngem5 *w, int64_t t)
{
	char *p = begin(w, t, pci_flag(w), w->adapter);

	p = ssp_synlog_put_str(p, "simbricks-pci: device constructed");
	end(w, p, -1);
	w->nskip[SSP_G5_SBOTHER]++;
}
