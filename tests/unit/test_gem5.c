/* gem5 parser: every line kind of FORMATS.md §1-§4 with the real sample
 * lines, their version variants, and malformed variants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"

static const char syms[] =
    "vmlinux:     file format elf64-x86-64\n\nSYMBOL TABLE:\n"
    "ffffffff81600000 g     F .text\t0000000000000080 entry_SYSCALL_64\n"
    "ffffffff814e6819 g     F .text\t0000000000000010 mutex_unlock\n"
    "ffffffff814e6819 g     F .text\t0000000000000010 mutex_unlock_alias\n"
    "ffffffff81107470 g     F .text\t0000000000000010 nop_first\n"
    "ffffffff81000000 l     O .data\t0000000000000010 not_a_function\n";

static void
test_adapter_mmio(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	/* real lines, gem5/columbo-gem5-events-test.txt */
	EV(&h, "1869699347625: system.pc.simbricks_0: simbricks-pci: sending read addr "
	    "c040000c size 4 id 94469181901728 bar 3 offs c", SSP_EV_MMIO_RD);
	assert_int_equal(h.pl.ev.ts, 1869699347625);
	assert_string_equal(ph_s(&h, "comp"), "system.pc.simbricks_0");
	assert_int_equal(ph_f(&h, "addr"), 0xc040000c);
	assert_int_equal(ph_f(&h, "size"), 4);
	assert_int_equal(ph_f(&h, "id"), 94469181901728ULL);
	assert_int_equal(ph_i(&h, "bar"), 3);
	assert_int_equal(ph_f(&h, "offs"), 0xc);
	EV(&h, "1967474526999: system.pc.simbricks_0: simbricks-pci: sending write addr "
	    "c0400014 size 4 id 94469376954304 bar 0 offs 0 posted 0", SSP_EV_MMIO_WR);
	assert_int_equal(ph_i(&h, "posted"), 0);
	EV(&h, "1967474400999: system.pc.simbricks_0: simbricks-pci: sending write addr "
	    "c0400010 size 4 id 94469376954304 bar 0 offs 0 posted 1", SSP_EV_MMIO_WR);
	assert_int_equal(ph_i(&h, "posted"), 1);
	/* size is hex: "size 10" is 16 bytes */
	EV(&h, "1: system.pc.simbricks_0: simbricks-pci: sending read addr c0 size 10 "
	    "id 1 bar 0 offs 0", SSP_EV_MMIO_RD);
	assert_int_equal(ph_f(&h, "size"), 16);
	/* 2023-03..2023-09: no posted */
	EV(&h, "5: system.pc.simbricks_0: simbricks-pci: sending write addr c0400010 "
	    "size 4 id 7 bar 0 offs 10", SSP_EV_MMIO_WR);
	assert_int_equal(ph_i(&h, "posted"), -1);
	assert_int_equal(ph_f(&h, "offs"), 0x10);
	/* 2021-02..2023-03: no bar/offs */
	EV(&h, "5: system.pc.simbricks_0: simbricks-pci: sending read addr c012a500 "
	    "size 4 id 94583743418112", SSP_EV_MMIO_RD);
	assert_int_equal(ph_i(&h, "bar"), -1);
	assert_int_equal(ph_f(&h, "offs"), 0);
	/* before 2021-02: cosim: prefix, system.pc.ethernet */
	EV(&h, "6: system.pc.ethernet: cosim: sending read addr c012a500 size 4 "
	    "id 94583743418112", SSP_EV_MMIO_RD);
	assert_string_equal(ph_s(&h, "comp"), "system.pc.ethernet");
	EV(&h, "7: system.pc.ethernet: cosim: received read completion id 94583743418112",
	    SSP_EV_MMIO_RD_DONE);
	assert_int_equal(ph_f(&h, "id"), 94583743418112ULL);
	/* posted-write response comes from the .pio port: store the adapter */
	EV(&h, "1693978886124: system.pc.simbricks_0.pio: simbricks-pci: sending "
	    "immediate response for posted write", SSP_EV_MMIO_POSTED);
	assert_string_equal(ph_s(&h, "comp"), "system.pc.simbricks_0");
	EV(&h, "8: system.pc.simbricks_1: simbricks-pci: received write completion id 42",
	    SSP_EV_MMIO_WR_DONE);
	assert_string_equal(ph_s(&h, "comp"), "system.pc.simbricks_1");
	assert_int_equal(ph_f(&h, "id"), 42);
	ph_close(&h);
}

static void
test_adapter_dma_irq(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	EV(&h, "9: system.pc.simbricks_0: simbricks-pci: received DMA read id "
	    "94113551511792 addr 23697ad60 size 20", SSP_EV_DMA_RD);
	assert_int_equal(ph_f(&h, "id"), 94113551511792ULL);
	assert_int_equal(ph_f(&h, "addr"), 0x23697ad60ULL);
	assert_int_equal(ph_f(&h, "size"), 0x20);
	EV(&h, "10: system.pc.ethernet: cosim: received DMA write id 5 addr ff size 62",
	    SSP_EV_DMA_WR);
	assert_int_equal(ph_f(&h, "size"), 98);
	EV(&h, "11: system.pc.simbricks_0: simbricks-pci: completed DMA id 0",
	    SSP_EV_DMA_DONE);
	assert_int_equal(ph_f(&h, "id"), 0);
	EV(&h, "1693980306000: system.pc.simbricks_0: simbricks-pci: received MSI-X "
	    "intr vec 1", SSP_EV_MSIX);
	assert_int_equal(ph_f(&h, "vec"), 1);
	EV(&h, "12: system.pc.simbricks_0: simbricks-pci: received MSI intr vec 3",
	    SSP_EV_MSI);
	assert_int_equal(ph_f(&h, "vec"), 3);
	EV(&h, "13: system.pc.simbricks_0: simbricks-pci: received intr vec 2", SSP_EV_INTR);
	assert_int_equal(ph_f(&h, "vec"), 2);
	SKIP(&h, "14: system.pc.simbricks_0: simbricks-pci: MSI addr=fee00000 val=22 "
	    "mask=0", SSP_SKIP_SBOTHER);
	SKIP(&h, "14: system.pc.simbricks_0: simbricks-pci: MSI masked", SSP_SKIP_SBOTHER);
	SKIP(&h, "0: system.pc.simbricks_0: simbricks-pci: device constructed",
	    SSP_SKIP_SBOTHER);
	SKIP(&h, "0: system.pc.simbricks_0: simbricks-pci: frobnicated", SSP_SKIP_UNKNOWN);
	ph_close(&h);
}

static void
test_config_host_int(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	EV(&h, "1369143037374: system.pc.simbricks_0: readConfig:  dev 0 func 0 reg "
	    "0x3d 1 bytes: data = 0x1", SSP_EV_CFG_RD);
	assert_int_equal(ph_f(&h, "reg"), 0x3d);
	assert_int_equal(ph_f(&h, "bytes"), 1);
	assert_int_equal(ph_f(&h, "data"), 1);
	EV(&h, "980510899250: system.pc.south_bridge.ide: readConfig:  dev 0x4 func 0 "
	    "reg 0x30 4 bytes: data = 0xfffff800", SSP_EV_CFG_RD);
	assert_int_equal(ph_f(&h, "dev"), 4);
	assert_int_equal(ph_f(&h, "data"), 0xfffff800);
	assert_string_equal(ph_s(&h, "comp"), "system.pc.south_bridge.ide");
	EV(&h, "980528061250: system.pc.south_bridge.ide: writeConfig: dev 0x4 func 0 "
	    "reg 0x30 4 bytes: data = 0", SSP_EV_CFG_WR);
	assert_int_equal(ph_f(&h, "data"), 0);
	EV(&h, "1369146219499: system.pc.simbricks_0: writeConfig: dev 0 func 0 reg 0x4 "
	    "2 bytes: data = 0x6", SSP_EV_CFG_WR);
	assert_int_equal(ph_f(&h, "bytes"), 2);
	EV(&h, "1369143199499: system.pc.pci_host: 00:00.0: read: offset=0x4, size=0x2",
	    SSP_EV_PCIHOST_RD);
	assert_int_equal(ph_f(&h, "offset"), 4);
	assert_int_equal(ph_f(&h, "size"), 2);
	EV(&h, "1369143199500: system.pc.pci_host: 00:1f.3: write: offset=0x10, size=0x4",
	    SSP_EV_PCIHOST_WR);
	assert_int_equal(ph_f(&h, "dev"), 0x1f);
	assert_int_equal(ph_f(&h, "func"), 3);
	EV(&h, "1473659826000: system.pc.pci_host.interface[00:04.0]: postInt",
	    SSP_EV_POST_INT);
	assert_int_equal(ph_f(&h, "dev"), 4);
	assert_string_equal(ph_s(&h, "comp"), "system.pc.pci_host.interface[00:04.0]");
	EV(&h, "1473338125374: system.pc.pci_host.interface[00:04.0]: clearInt",
	    SSP_EV_CLEAR_INT);
	SKIP(&h, "1: system.pc.pci_host.interface[zz]: postInt", SSP_SKIP_MALFORMED);
	ph_close(&h);
}

static void
test_sync(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	EV(&h, "1473190510000: global: simbricks: processInEvent", SSP_EV_PROC_IN);
	EV(&h, "2000500000000: global: simbricks: sending sync message for ts=500000000",
	    SSP_EV_SYNC);
	assert_int_equal(h.pl.ev.ts, 2000500000000);
	assert_int_equal(ph_i(&h, "sync_ts"), 500000000);
	/* before 2024 the line had no ts: same clock */
	EV(&h, "123: global: simbricks: sending sync message", SSP_EV_SYNC);
	assert_int_equal(ph_i(&h, "sync_ts"), 123);
	/* an adapter that is Named */
	EV(&h, "124: system.pc.simbricks_0: simbricks: processInEvent", SSP_EV_PROC_IN);
	SKIP(&h, "125: global: simbricks: sending sync message for ts=x", SSP_SKIP_MALFORMED);
	SKIP(&h, "125: global: simbricks: initiating outgoing connection", SSP_SKIP_SBOTHER);
	ph_close(&h);
}

static void
test_exec(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, syms, "linux", 0, 0);
	/* real lines, gem5/columbo-line-reader-simple.txt */
	SKIP(&h, "1710532120875: system.switch_cpus: T0 : 0xffffffff814cf3c2    : mov "
	    "       rax, GS:[0x1ac00]", SSP_SKIP_EXEC);
	SKIP(&h, "1710532121125: system.switch_cpus: T0 : 0xffffffff814cf3cb. 0 :   "
	    "CMPXCHG_M_R : ldst   t1, DS:[rdi] : MemRead :  D=0xfff", SSP_SKIP_MICROOP);
	SKIP(&h, "1473191502750: system.switch_cpus: A0 T0 : 0xffffffff81001bc0    : "
	    "verw_Mw_or_Rv (unimplemented) : No_OpClass :", SSP_SKIP_EXEC);
	SKIP(&h, "1472990805875: system.switch_cpus: A0 T0 : 0xffffffff81107471    :   "
	    "NOP : IntAlu :", SSP_SKIP_NOPFENCE);
	SKIP(&h, "1: system.cpu: A0 T0 : 0xffffffff81107471    :   MFENCE : IntAlu :",
	    SSP_SKIP_NOPFENCE);
	SKIP(&h, "1: system.cpu: A0 T0 : 0xffffffff81107471    :   lfence", SSP_SKIP_NOPFENCE);
	/* NOPL is not a NOP line */
	SKIP(&h, "1: system.cpu: A0 T0 : 0xffffffff81107471    :   NOPL : IntAlu :",
	    SSP_SKIP_EXEC);
	/* function entry by pc, any CPU name, with and without A/T */
	EV(&h, "2000: system.switch_cpus: A0 T0 : 0xffffffff81600000    : push rbp : "
	    "IntAlu :  D=0x0", SSP_EV_FUNC);
	assert_int_equal(h.pl.ev.ts, 2000);
	assert_string_equal(ph_s(&h, "cpu"), "system.switch_cpus");
	assert_string_equal(ph_s(&h, "sym"), "entry_SYSCALL_64");
	assert_string_equal(ph_s(&h, "table"), "linux");
	EV(&h, "2001: system.cpu0: 0xffffffff81600000    : push rbp", SSP_EV_FUNC);
	assert_string_equal(ph_s(&h, "cpu"), "system.cpu0");
	EV(&h, "2002: system.cpu1: T1 : 0xffffffff81600000    : push rbp", SSP_EV_FUNC);
	assert_string_equal(ph_s(&h, "cpu"), "system.cpu1");
	/* width-7 tick with leading spaces */
	EV(&h, "   4242: system.cpu: A0 T0 : 0xffffffff81600000    : push rbp", SSP_EV_FUNC);
	assert_int_equal(h.pl.ev.ts, 4242);
	/* a micro-op at a symbol start is not an entry */
	SKIP(&h, "2003: system.cpu: A0 T0 : 0xffffffff81600000. 0 : PUSH_R : st",
	    SSP_SKIP_MICROOP);
	/* Linux pads traced functions with a NOP: still the entry */
	EV(&h, "2004: system.cpu: A0 T0 : 0xffffffff81107470    :   NOP : IntAlu :",
	    SSP_EV_FUNC);
	assert_string_equal(ph_s(&h, "sym"), "nop_first");
	/* object symbols do not count */
	SKIP(&h, "2005: system.cpu: A0 T0 : 0xffffffff81000000    : mov", SSP_SKIP_EXEC);
	ph_close(&h);
}

static void
test_exec_symbol(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, syms, "linux", 0, 0);
	/* real lines, gem5/vaastav-columbo-go-test-lines.txt */
	SKIP(&h, "857006012457: system.cpu: A0 T0 : 0xffffffff81600136 "
	    "@syscall_return_via_sysret+71 : sysret", SSP_SKIP_EXEC);
	SKIP(&h, "857006011458: system.cpu: A0 T0 : 0xffffffff81600132 "
	    "@syscall_return_via_sysret+67. 2 : POP_R : mov rsp, rsp, t1 : IntAlu : "
	    "D=0x00007fff49f994c8 flags=(IsInteger|IsMicroop|IsLastMicroop)",
	    SSP_SKIP_MICROOP);
	SKIP(&h, "857006012790: system.cpu: A0 T0 : 0xffffffff814e6819 @mutex_unlock. 0 "
	    ":   XOR_R_R : xor   edx, edx, edx : IntAlu :  D=0x0000000000000000",
	    SSP_SKIP_MICROOP);
	/* @sym without +off: an entry; the table that has it at that pc */
	EV(&h, "857006012790: system.cpu: A0 T0 : 0xffffffff814e6819 @mutex_unlock    "
	    ": xor  edx", SSP_EV_FUNC);
	assert_string_equal(ph_s(&h, "sym"), "mutex_unlock");
	assert_string_equal(ph_s(&h, "table"), "linux");
	EV(&h, "1: system.cpu: A0 T0 : 0xffffffff814e6819 @mutex_unlock_alias    : xor",
	    SSP_EV_FUNC);
	assert_string_equal(ph_s(&h, "sym"), "mutex_unlock_alias");
	/* unknown to the tables: table "gem5" */
	EV(&h, "857006012790: system.cpu: A0 T0 : 0xffffffff811414bf "
	    "@slab_pre_alloc_hook.constprop.0    : push      r12", SSP_EV_FUNC);
	assert_string_equal(ph_s(&h, "sym"), "slab_pre_alloc_hook.constprop.0");
	assert_string_equal(ph_s(&h, "table"), "gem5");
	/* micro-op numbers 10..99 print as ".12" */
	SKIP(&h, "1: system.cpu: A0 T0 : 0xffffffff811414bf @foo.12 : ADD : add",
	    SSP_SKIP_MICROOP);
	SKIP(&h, "1: system.cpu: A0 T0 : 0xffffffff811414bf @foo+4.12 : ADD : add",
	    SSP_SKIP_MICROOP);
	/* a symbol ending in digits, macro-op (four spaces) */
	EV(&h, "1: system.cpu: A0 T0 : 0xffffffff811414bf @foo.12    : add", SSP_EV_FUNC);
	assert_string_equal(ph_s(&h, "sym"), "foo.12");
	SKIP(&h, "1: system.cpu: A0 T0 : 0xffffffff811414bf @    : add", SSP_SKIP_MALFORMED);
	ph_close(&h);
}

static void
test_insn_mode(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, syms, "linux", 0, 1);
	EV(&h, "10: system.switch_cpus: T0 : 0xffffffff814cf3c2    : mov", SSP_EV_INSN);
	assert_int_equal(ph_f(&h, "pc"), 0xffffffff814cf3c2ULL);
	assert_int_equal(ph_i(&h, "upc"), -1);
	EV(&h, "11: system.switch_cpus: T0 : 0xffffffff814cf3cb. 1 :   CMPXCHG_M_R : sub",
	    SSP_EV_INSN);
	assert_int_equal(ph_i(&h, "upc"), 1);
	/* a user pc, the first of system.cpu: the user event, then the insn */
	EV(&h, "11: system.cpu: A0 T0 : 0x7fc14f71f8b0.12 : CMP_R_I : limm", SSP_EV_INSN);
	assert_int_equal(ph_i(&h, "upc"), 12);
	assert_int_equal(ph_f(&h, "pc"), 0x7fc14f71f8b0ULL);
	assert_int_equal(h.pl.pre, 1);
	assert_int_equal(h.pl.pre_ev.type, SSP_EV_USER);
	assert_int_equal(h.pl.pre_ev.ts, 11);
	assert_int_equal(h.pl.pre_ev.f[SSP_F_USER_PC], 0x7fc14f71f8b0ULL);
	assert_string_equal(ssp_atoms_str(h.atoms, (uint32_t)h.pl.pre_ev.f[SSP_F_USER_CPU],
	    NULL), "system.cpu");
	EV(&h, "11: system.cpu: A0 T0 : 0x7fc14f71f8b4    : CMP_R_I : limm", SSP_EV_INSN);
	assert_int_equal(h.pl.pre, 0);
	/* entries stay function entries; NOPs stay out */
	EV(&h, "12: system.cpu: A0 T0 : 0xffffffff81600000    : push", SSP_EV_FUNC);
	SKIP(&h, "13: system.cpu: A0 T0 : 0xffffffff81107471    :   NOP", SSP_SKIP_NOPFENCE);
	ph_close(&h);
}

static void
test_envelope_variants(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, syms, "linux", 0, 0);
	/* FmtFlag: the debug flag before the name */
	EV(&h, "1869691991749: SimBricksPci: system.pc.simbricks_0: simbricks-pci: "
	    "sending read addr c0080300 size 4 id 94469181196688 bar 0 offs 80300",
	    SSP_EV_MMIO_RD);
	assert_string_equal(ph_s(&h, "comp"), "system.pc.simbricks_0");
	EV(&h, "1473190510000: SimBricks: global: simbricks: processInEvent", SSP_EV_PROC_IN);
	EV(&h, "2000: ExecEnable: system.switch_cpus: A0 T0 : 0xffffffff81600000    : "
	    "push rbp", SSP_EV_FUNC);
	assert_string_equal(ph_s(&h, "cpu"), "system.switch_cpus");
	EV(&h, "1369143199499: PciHost: system.pc.pci_host: 00:00.0: read: offset=0x4, "
	    "size=0x2", SSP_EV_PCIHOST_RD);
	/* CRLF line ends */
	EV(&h, "2000: system.cpu: A0 T0 : 0xffffffff81600000    : push rbp\r", SSP_EV_FUNC);
	/* faults, other SimBricks objects, console text */
	SKIP(&h, "850527080541: External Interrupt: RIP 0xffffffff812b781c: vector 236: "
	    "#INTR", SSP_SKIP_FAULT);
	SKIP(&h, "851993906913: Page-Fault: RIP 0x7fec71f4df04: vector 14: #PF(0x14) at "
	    "0x7fec71f4df00", SSP_SKIP_FAULT);
	SKIP(&h, "851993906913: Faults: Page-Fault: RIP 0x7fec71f4df04: vector 14",
	    SSP_SKIP_FAULT);
	SKIP(&h, "5: system.pc.ethernet: real->sim len=98", SSP_SKIP_SBOTHER);
	SKIP(&h, "5: system.pc.ethernet: sending out a packet", SSP_SKIP_SBOTHER);
	SKIP(&h, "5: system.mem: simbricks-mem: sending read addr 10 size 4 id 3",
	    SSP_SKIP_SBOTHER);
	SKIP(&h, "5: system.pc.south_bridge.ide: something else", SSP_SKIP_UNKNOWN);
	SKIP(&h, "10 Hallo 327846378", SSP_SKIP_TEXT);
	SKIP(&h, "Global frequency set at 1000000000000 ticks per second", SSP_SKIP_TEXT);
	SKIP(&h, "warn: msix_signal(3): TODO: masked", SSP_SKIP_TEXT);
	SKIP(&h, "", SSP_SKIP_EMPTY);
	SKIP(&h, "12345", SSP_SKIP_TEXT);
	SKIP(&h, "12345: ", SSP_SKIP_UNKNOWN);
	ph_close(&h);
}

/* Ticks that do not fit: malformed (counted, warned), never dropped as
 * text or taken as positive by the spliced-line recovery (issue 12). */
static void
test_tick_range(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	EV(&h, "1000: system.pc.simbricks_0: simbricks-pci: sending read addr c0 "
	    "size 4 id 1 bar 0 offs 0", SSP_EV_MMIO_RD);
	SKIP(&h, "-740155000: system.pc.simbricks_0: simbricks-pci: sending read "
	    "addr c0 size 4 id 1 bar 0 offs 0", SSP_SKIP_MALFORMED);
	assert_string_equal(h.pl.why, "negative tick");
	SKIP(&h, "9223372036854775808: system.pc.simbricks_0: simbricks-pci: "
	    "sending read addr c0 size 4 id 1 bar 0 offs 0", SSP_SKIP_MALFORMED);
	assert_string_equal(h.pl.why, "tick out of range");
	SKIP(&h, "18446744073709551616: system.pc.simbricks_0: simbricks-pci: "
	    "sending read addr c0 size 4 id 1 bar 0 offs 0", SSP_SKIP_MALFORMED);
	assert_string_equal(h.pl.why, "tick out of range");
	SKIP(&h, "-5 degrees", SSP_SKIP_TEXT);
	ph_close(&h);
}

static void
test_spliced(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	EV(&h, "978719381000: system.pc.simbricks_0: simbricks-pci: completed DMA id 1",
	    SSP_EV_DMA_DONE);
	/* console text without a newline, then a debug line */
	EV(&h, "978719381360 resuming from drain978719383000: system.pc.simbricks_0: "
	    "simbricks-pci: received MSI-X intr vec 3", SSP_EV_MSIX);
	assert_int_equal(h.pl.ev.ts, 978719383000);
	assert_true(h.pl.recovered);
	/* digits at the end of the text: the tick is the shortest suffix
	 * not below the last tick */
	EV(&h, "count 12978719384000: global: simbricks: processInEvent", SSP_EV_PROC_IN);
	assert_int_equal(h.pl.ev.ts, 978719384000);
	SKIP(&h, "resuming from drain: system.pc.simbricks_0: received", SSP_SKIP_TEXT);
	ph_close(&h);
}

/* A spliced line before any tick was seen: the bound is the tick the line
 * starts with, else the whole digit run is the tick (not "0", the shortest
 * suffix not below a last tick of 0). */
static void
test_spliced_first(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	EV(&h, "978719381360 resuming from drain978719383000: system.pc.simbricks_0: "
	    "simbricks-pci: completed DMA id 5", SSP_EV_DMA_DONE);
	assert_int_equal(h.pl.ev.ts, 978719383000);
	assert_true(h.pl.recovered);
	ph_close(&h);

	/* the real line (FORMATS.md, sigcomm22 pci_validation): not an event,
	 * but its tick bounds the next spliced line */
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	SKIP(&h, "978719381360 resuming from drain978719383000: system.pc.simbricks_0: "
	    "igbe: ...", SSP_SKIP_UNKNOWN);
	assert_true(h.pl.recovered);
	EV(&h, "count 12978719384000: global: simbricks: processInEvent", SSP_EV_PROC_IN);
	assert_int_equal(h.pl.ev.ts, 978719384000);
	ph_close(&h);

	/* no leading tick: the whole digit run */
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	EV(&h, "resuming from drain978719383000: system.pc.simbricks_0: "
	    "simbricks-pci: completed DMA id 5", SSP_EV_DMA_DONE);
	assert_int_equal(h.pl.ev.ts, 978719383000);
	assert_true(h.pl.recovered);
	ph_close(&h);
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	EV(&h, "count 12978719384000: global: simbricks: processInEvent", SSP_EV_PROC_IN);
	assert_int_equal(h.pl.ev.ts, 12978719384000);
	ph_close(&h);

	/* a leading number above every suffix: the whole run as well */
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	EV(&h, "99999999999999 x 0978719383000: global: simbricks: processInEvent",
	    SSP_EV_PROC_IN);
	assert_int_equal(h.pl.ev.ts, 978719383000);
	ph_close(&h);
}

/* Several CPUs: each line's CPU, and host device events carry the CPU of
 * the Exec line before them (KCTX-CONTRACT §1-2). */
static void
test_multi_cpu(void **state)
{
	char line[256];
	struct ph h;
	unsigned i;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, syms, "linux", 0, 0);
	/* no Exec line yet: no CPU */
	EV(&h, "5: system.pc.simbricks_0: simbricks-pci: sending read addr c0000000 "
	    "size 4 id 1 bar 0 offs 0", SSP_EV_MMIO_RD);
	assert_int_equal(ph_f(&h, "cpu"), 0);
	assert_int_equal(ssp_event_cpu_field(SSP_EV_MMIO_RD), SSP_F_MMIO_RD_CPU);
	EV(&h, "6: system.pc.pci_host.interface[00:04.0]: postInt", SSP_EV_POST_INT);
	assert_int_equal(ph_f(&h, "cpu"), 0);
	/* 8 CPUs of both namings, an adapter line after each: more CPUs than
	 * the parser's old 4-entry cache held */
	for (i = 0; i < 16; i++) {
		char cpu[32];

		snprintf(cpu, sizeof(cpu), i < 8 ? "system.cpu%u" : "system.switch_cpus%u",
		    i % 8);
		snprintf(line, sizeof(line), "%u: %s: A0 T0 : 0xffffffff81600000    : "
		    "push rbp", 100 + i, cpu);
		EV(&h, line, SSP_EV_FUNC);
		assert_string_equal(ph_s(&h, "cpu"), cpu);
		snprintf(line, sizeof(line), "%u: system.pc.simbricks_0: simbricks-pci: "
		    "sending write addr c0000008 size 4 id %u bar 0 offs 8 posted 1",
		    100 + i, i + 2);
		EV(&h, line, SSP_EV_MMIO_WR);
		assert_string_equal(ph_s(&h, "cpu"), cpu);
		assert_int_equal(ph_i(&h, "posted"), 1);
	}
	/* interleaved again, out of order: still the right CPU each time */
	SKIP(&h, "200: system.cpu5: A0 T0 : 0xffffffff81000010    : mov", SSP_SKIP_EXEC);
	SKIP(&h, "200: system.cpu2: A0 T0 : 0xffffffff81000010    : mov", SSP_SKIP_EXEC);
	EV(&h, "200: system.pc.simbricks_0: readConfig:  dev 0 func 0 reg 0x3d 1 bytes: "
	    "data = 0x1", SSP_EV_CFG_RD);
	assert_string_equal(ph_s(&h, "cpu"), "system.cpu2");
	/* the micro-op and NOP lines of a CPU count as its Exec lines too */
	SKIP(&h, "201: system.cpu7: A0 T0 : 0xffffffff81000010. 1 : st", SSP_SKIP_MICROOP);
	EV(&h, "201: system.pc.pci_host: 00:00.0: read: offset=0x4, size=0x2",
	    SSP_EV_PCIHOST_RD);
	assert_string_equal(ph_s(&h, "cpu"), "system.cpu7");
	SKIP(&h, "202: system.cpu3: A0 T0 : 0xffffffff81107471    :   NOP", SSP_SKIP_NOPFENCE);
	EV(&h, "202: system.pc.pci_host.interface[00:04.0]: clearInt", SSP_EV_CLEAR_INT);
	assert_string_equal(ph_s(&h, "cpu"), "system.cpu3");
	/* a malformed Exec line still names the CPU that printed it */
	SKIP(&h, "203: system.cpu4: A0 T0 : 0xzz", SSP_SKIP_MALFORMED);
	EV(&h, "203: system.pc.pci_host: 00:00.0: write: offset=0x4, size=0x2",
	    SSP_EV_PCIHOST_WR);
	assert_string_equal(ph_s(&h, "cpu"), "system.cpu4");
	/* far more CPUs than are tracked: the names stay right */
	for (i = 0; i < 300; i++) {
		snprintf(line, sizeof(line), "%u: system.cpu%u: 0xffffffff81600000    : "
		    "push rbp", 300 + i, i);
		EV(&h, line, SSP_EV_FUNC);
		snprintf(line, sizeof(line), "system.cpu%u", i);
		assert_string_equal(ph_s(&h, "cpu"), line);
	}
	EV(&h, "700: system.pc.simbricks_0: simbricks-pci: sending read addr c0000000 "
	    "size 4 id 9", SSP_EV_MMIO_RD);
	assert_string_equal(ph_s(&h, "cpu"), "system.cpu299");
	assert_int_equal(ph_i(&h, "bar"), -1);
	ph_close(&h);
}

static const char appsyms[] =
    "0000000000001100 g     F .text\t0000000000000040 main\n"
    "0000000000001200 g     F .text\t0000000000000040 do_request\n";

/* The user event: a CPU's first user-mode pc after kernel ones. */
static void
test_user_events(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, appsyms, "netperf", 0x555555554000ULL, 0);
	/* the first pc of a CPU, user: a transition from "none" */
	EV(&h, "10: system.switch_cpus1: T0 : 0x555555555000    : mov", SSP_EV_USER);
	assert_int_equal(h.pl.ev.ts, 10);
	assert_string_equal(ph_s(&h, "cpu"), "system.switch_cpus1");
	assert_int_equal(ph_f(&h, "pc"), 0x555555555000ULL);
	assert_int_equal(h.pl.pre, 0);
	/* more user pcs on that CPU: nothing */
	SKIP(&h, "11: system.switch_cpus1: T0 : 0x555555555004    : mov", SSP_SKIP_EXEC);
	/* another CPU's first pc, kernel: nothing; its user pc: the event */
	SKIP(&h, "11: system.switch_cpus0: T0 : 0xffffffff81000000    : mov", SSP_SKIP_EXEC);
	EV(&h, "12: system.switch_cpus0: T0 : 0x7fffffffffff    : mov", SSP_EV_USER);
	assert_string_equal(ph_s(&h, "cpu"), "system.switch_cpus0");
	SKIP(&h, "13: system.switch_cpus1: T0 : 0x555555555008    : mov", SSP_SKIP_EXEC);
	/* back to the kernel and out again; a micro-op line counts */
	SKIP(&h, "14: system.switch_cpus1: T0 : 0xffffffff81600000    : syscall",
	    SSP_SKIP_EXEC);
	EV(&h, "15: system.switch_cpus1: T0 : 0x55555555500c. 0 : MOV_R_R : mov",
	    SSP_EV_USER);
	assert_int_equal(ph_f(&h, "pc"), 0x55555555500cULL);
	/* 0x0000800000000000 is not a user address */
	SKIP(&h, "16: system.switch_cpus0: T0 : 0x800000000000    : mov", SSP_SKIP_EXEC);
	/* a malformed line changes nothing */
	SKIP(&h, "17: system.switch_cpus0: T0 : 0x1000. x : mov", SSP_SKIP_MALFORMED);
	/* a user function entry (table offset applied) right at the
	 * transition: the user event first, then the func event */
	EV(&h, "18: system.switch_cpus0: T0 : 0x555555555100    : push rbp", SSP_EV_FUNC);
	assert_int_equal(h.pl.ev.ts, 18);
	assert_string_equal(ph_s(&h, "sym"), "main");
	assert_string_equal(ph_s(&h, "table"), "netperf");
	assert_string_equal(ph_s(&h, "cpu"), "system.switch_cpus0");
	assert_int_equal(h.pl.pre, 1);
	assert_int_equal(h.pl.pre_ev.type, SSP_EV_USER);
	assert_int_equal(h.pl.pre_ev.ts, 18);
	assert_int_equal(h.pl.pre_ev.f[SSP_F_USER_PC], 0x555555555100ULL);
	assert_string_equal(ssp_atoms_str(h.atoms, (uint32_t)h.pl.pre_ev.f[SSP_F_USER_CPU],
	    NULL), "system.switch_cpus0");
	/* later user function entries: func events alone */
	EV(&h, "19: system.switch_cpus0: T0 : 0x555555555200    : push rbp", SSP_EV_FUNC);
	assert_int_equal(h.pl.pre, 0);
	assert_string_equal(ph_s(&h, "sym"), "do_request");
	assert_string_equal(ph_s(&h, "table"), "netperf");
	/* an adapter line names the CPU whose Exec line came last */
	EV(&h, "19: system.pc.simbricks_0: simbricks-pci: sending read addr c0000000 "
	    "size 4 id 1 bar 0 offs 0", SSP_EV_MMIO_RD);
	assert_string_equal(ph_s(&h, "cpu"), "system.switch_cpus0");
	/* the spliced-line recovery path tracks modes as well */
	SKIP(&h, "20: system.switch_cpus1: T0 : 0xffffffff81600000    : syscall",
	    SSP_SKIP_EXEC);
	EV(&h, "console text21: system.switch_cpus1: T0 : 0x555555555010    : mov",
	    SSP_EV_USER);
	assert_int_equal(h.pl.recovered, 1);
	assert_int_equal(h.pl.ev.ts, 21);
	ph_close(&h);
}

static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		"1: system.pc.simbricks_0: simbricks-pci: sending read addr zz size 4 id 1",
		"1: system.pc.simbricks_0: simbricks-pci: sending read addr c0 size 4",
		"1: system.pc.simbricks_0: simbricks-pci: sending read addr c0 size 4 id 1 bar",
		"1: system.pc.simbricks_0: simbricks-pci: sending read addr c0 size 4 id 1 extra",
		"1: system.pc.simbricks_0: simbricks-pci: sending write addr c0 size 4 id 1 "
		    "bar 0 offs 0 posted x",
		"1: system.pc.simbricks_0: simbricks-pci: sending read addr "
		    "11112222333344445 size 4 id 1",
		"1: system.pc.simbricks_0: simbricks-pci: received DMA read id 1 addr 2",
		"1: system.pc.simbricks_0: simbricks-pci: received MSI-X intr vec",
		"1: system.pc.simbricks_0: simbricks-pci: completed DMA id -1",
		"1: system.pc.simbricks_0: simbricks-pci: received read completion id 99999999999999999999",
		"1: system.pc.simbricks_0: simbricks-pci: sending immediate response for posted write!",
		"1: system.pc.simbricks_0: readConfig:  dev x func 0 reg 0x3d 1 bytes: data = 0x1",
		"1: system.pc.simbricks_0: writeConfig: dev 0 func 0 reg 0x4 2 bytes: data =",
		"1: system.pc.pci_host: 00:00.0: read: offset=4, size=0x2",
		"1: system.cpu: A0 T0 : 0xzz    : mov",
		"1: system.cpu: A0 Tx : 0x10    : mov",
		"1: system.cpu: A0 T0 : 0x10. x : mov",
		"99999999999999999999: global: simbricks: processInEvent",
		"18446744073709551615: global: simbricks: processInEvent",
	};
	struct ph h;
	size_t i;

	(void)state;
	ph_open(&h, SSP_SIM_GEM5, NULL, NULL, 0, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ssp_pline *pl = ph_line(&h, bad[i]);

		if (pl->skip != SSP_SKIP_MALFORMED && pl->skip != SSP_SKIP_TEXT)
			fail_msg("'%s': %s", bad[i], pl->skip == SSP_SKIP_NONE ? "event" :
			    ssp_pline_skip_name((unsigned)pl->skip));
		if (pl->skip == SSP_SKIP_MALFORMED)
			assert_non_null(pl->why);
	}
	/* these are malformed known kinds, not text */
	SKIP(&h, bad[0], SSP_SKIP_MALFORMED);
	SKIP(&h, bad[5], SSP_SKIP_MALFORMED);
	SKIP(&h, bad[18], SSP_SKIP_MALFORMED);
	ph_close(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adapter_mmio),
		cmocka_unit_test(test_adapter_dma_irq),
		cmocka_unit_test(test_config_host_int),
		cmocka_unit_test(test_sync),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_exec_symbol),
		cmocka_unit_test(test_insn_mode),
		cmocka_unit_test(test_envelope_variants),
		cmocka_unit_test(test_tick_range),
		cmocka_unit_test(test_spliced),
		cmocka_unit_test(test_spliced_first),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_multi_cpu),
		cmocka_unit_test(test_user_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
