/*
 * gem5 debug log lines as simbricks/gem5 prints them (FORMATS.md §1-4):
 * the "%7d: <name>: " envelope, Exec lines with ExecMacro/ExecMicro/
 * ExecAsid/ExecThread/ExecOpClass/ExecResult/ExecEffAddr/ExecFlags, the
 * SimBricks PCI adapter, PCI config space, the pci_host, interrupts and
 * synchronisation.  Between the lines that matter, the writer pads with
 * instruction lines from a precomputed pool at a set density, so a log
 * can be made as large as wanted at memcpy speed.
 */
#ifndef SSP_SYNGEM5_H
#define SSP_SYNGEM5_H

#include <stdint.h>

#include "stream/event.h"
#include "synth/synlog.h"
#include "synth/synsym.h"

/* Variants of gem5's output (FORMATS.md §1-2), combinable. */
#define SSP_SYN_G5_FMTFLAG  0x1u	/* debug flag name before the component */
#define SSP_SYN_G5_NOPOSTED 0x2u	/* adapter 2023-03..09: no " posted N" */
#define SSP_SYN_G5_NOBAR    0x4u	/* adapter 2021-02..2023-03: no bar/offs/
					 * posted, "received intr vec" for MSI-X */

/* Lines that give no event, named as sim2ev --stats names its reasons. */
enum ssp_g5skip { SSP_G5_EXEC, SSP_G5_MICROOP, SSP_G5_NOPFENCE, SSP_G5_FAULT,
	SSP_G5_SBOTHER, SSP_G5_NSKIP };

struct ssp_syngem5_execpool;

/* A pool of instruction groups (macro-op line + micro-op lines) at pcs
 * that start no symbol: kernel pcs inside vmlinux functions, or user pcs.
 * fmtflag: lines carry the debug flag's name (ExecEnable, Faults). */
int ssp_syngem5_execpool_new(struct ssp_syngem5_execpool **pp, const struct ssp_synsym_set *syms,
    const char *cpu, int user, int fmtflag, uint64_t seed, struct ssp_err *e);
void ssp_syngem5_execpool_free(struct ssp_syngem5_execpool *p);
/* Mean bytes per pool line, without the tick. */
double ssp_syngem5_execpool_line_bytes(const struct ssp_syngem5_execpool *p);

struct ssp_syngem5 {
	struct ssp_synlog *log;
	const char *cpu;
	const char *adapter;	/* "system.pc.simbricks_0" */
	int64_t off;		/* added to every tick (checkpoint offset) */
	unsigned dialect;	/* SSP_SYN_G5_* bits (0: current gem5) */
	const struct ssp_syngem5_execpool *pool[2];	/* kernel, user */
	int user;		/* pad with user-mode instructions */
	size_t gpos[2], lpos[2];	/* next group and line in each pool */
	uint64_t step_fp;	/* padding: ps per line, 1/256 units; 0 = none */
	uint64_t next_fp;	/* tick of the next padding line, same units */
	int64_t last;		/* last tick written */
	uint64_t nev[SSP_EV_NTYPES];	/* lines per event type */
	uint64_t nskip[SSP_G5_NSKIP];	/* lines per reason they give no event */
	uint64_t nfill;		/* padding lines */
};

void ssp_syngem5_init(struct ssp_syngem5 *w, struct ssp_synlog *log,
    const char *cpu, int64_t tick_offset, const struct ssp_syngem5_execpool *kpool,
    const struct ssp_syngem5_execpool *upool, uint64_t pool_start);
/* Padding density in instruction lines per simulated microsecond. */
void ssp_syngem5_density(struct ssp_syngem5 *w, double lines_per_us);
/* Pad up to (not including) tick t. */
void ssp_syngem5_fill(struct ssp_syngem5 *w, int64_t t);

/* Tick of the next padding line; INT64_MAX when the writer does not pad. */
int64_t ssp_syngem5_next_fill(const struct ssp_syngem5 *w);
/* One instruction at pc, every line at tick t: mem 'w' a store ("mov
 * DS:[rbx + 0x10], rax", micro-op "st" with A=ea), 'r' a load, 0 an ALU
 * instruction.  The store before an MMIO adapter line is the access. */
void ssp_syngem5_insn(struct ssp_syngem5 *w, int64_t t, uint64_t pc, int mem,
    uint64_t ea);

/* A function entry: macro-op line at the symbol address + its micro-ops. */
void ssp_syngem5_func(struct ssp_syngem5 *w, int64_t t, uint64_t pc);
/* "push 0x2b" at a code label pc: macro-op (a function-entry event, as
 * sim2ev reads untyped code symbols) and micro-ops, the second micro-op
 * one CPU tick later. */
void ssp_syngem5_push_imm(struct ssp_syngem5 *w, int64_t t, uint64_t pc);
/* The same with the micro-ops step ticks apart (0: all at t, as a log
 * of several CPUs needs to stay in tick order). */
void ssp_syngem5_push_imm_at(struct ssp_syngem5 *w, int64_t t, uint64_t pc,
    int64_t step);
void ssp_syngem5_mmio(struct ssp_syngem5 *w, int64_t t, int write, uint64_t addr,
    unsigned size, uint64_t id, int bar, uint64_t offs, int posted);
void ssp_syngem5_posted(struct ssp_syngem5 *w, int64_t t);
void ssp_syngem5_mmio_done(struct ssp_syngem5 *w, int64_t t, int write, uint64_t id);
void ssp_syngem5_dma(struct ssp_syngem5 *w, int64_t t, int write, uint64_t id,
    uint64_t addr, uint64_t size);
void ssp_syngem5_dma_done(struct ssp_syngem5 *w, int64_t t, uint64_t id);
void ssp_syngem5_msix(struct ssp_syngem5 *w, int64_t t, unsigned vec);
/* MSI: "received MSI intr vec", then the message gem5 writes (the MSI
 * capability's address and data; data = the CPU vector). */
void ssp_syngem5_msi(struct ssp_syngem5 *w, int64_t t, unsigned vec,
    unsigned cpu_vector);
/* pci_host access + readConfig/writeConfig, both at tick t. */
void ssp_syngem5_config(struct ssp_syngem5 *w, int64_t t, int write, unsigned reg,
    unsigned bytes, uint64_t data);
void ssp_syngem5_intx(struct ssp_syngem5 *w, int64_t t, int post);
/* The same for the device behind the PCI host interface iface (the IDE
 * disk is 00:04.0, SimBricks' PCI device 00:00.0). */
void ssp_syngem5_intx_dev(struct ssp_syngem5 *w, int64_t t, int post,
    const char *iface);
void ssp_syngem5_sync(struct ssp_syngem5 *w, int64_t t, int64_t ts);
void ssp_syngem5_procin(struct ssp_syngem5 *w, int64_t t);
void ssp_syngem5_fault_intr(struct ssp_syngem5 *w, int64_t t, uint64_t rip,
    unsigned vector);
void ssp_syngem5_constructed(struct ssp_syngem5 *w, int64_t t);

#endif
