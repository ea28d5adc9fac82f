/* qemu parser: the simbricks-pci DEBUG_PRINTS lines of simbricks/qemu
 * hw/misc/simbricks_pci.c as warn_report prints them, the ids the parser
 * numbers, the d2h message types, synchronized and unsynchronized runs,
 * QEMU's other lines, malformed lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"

#define W "qemu-system-x86_64: warning: "

static void
test_mmio(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_QEMU, NULL, NULL, 0, 0);
	/* "simbricks_mmio_rw: starting wait for read (%lu) addr=%lx size=%x" */
	EV(&h, W "simbricks_mmio_rw: starting wait for read (2100) addr=80300 size=4",
	    SSP_EV_MMIO_RD);
	assert_int_equal(h.pl.ev.ts, 2100000);	/* ns to ps */
	assert_string_equal(ph_s(&h, "comp"), "simbricks-pci");
	assert_int_equal(ph_f(&h, "addr"), 0x80300);	/* the BAR offset */
	assert_int_equal(ph_f(&h, "offs"), 0x80300);
	assert_int_equal(ph_i(&h, "bar"), -1);		/* not printed */
	assert_int_equal(ph_f(&h, "size"), 4);
	assert_int_equal(ph_f(&h, "id"), 1);
	assert_int_equal(ph_f(&h, "cpu"), 0);
	/* "simbricks_mmio_rw: finished write (%lu) addr=%lx size=%x val=%lx" */
	EV(&h, W "simbricks_mmio_rw: finished write (2200) addr=108000 size=4 val=1f",
	    SSP_EV_MMIO_WR);
	assert_int_equal(ph_f(&h, "id"), 2);
	assert_int_equal(ph_i(&h, "posted"), 0);	/* a non-posted message */
	assert_int_equal(ph_f(&h, "addr"), 0x108000);
	/* a second read of another address, then the done lines out of order */
	EV(&h, W "simbricks_mmio_rw: starting wait for read (2300) addr=0 size=8",
	    SSP_EV_MMIO_RD);
	assert_int_equal(ph_f(&h, "id"), 3);
	assert_int_equal(ph_f(&h, "size"), 8);
	/* "simbricks_mmio_rw: done (%lu) a=%lx s=%x val=%lx" */
	EV(&h, W "simbricks_mmio_rw: done (2400) a=0 s=8 val=ffffffffffffffff",
	    SSP_EV_MMIO_RD_DONE);
	assert_int_equal(ph_f(&h, "id"), 3);
	EV(&h, W "simbricks_mmio_rw: done (2500) a=80300 s=4 val=3", SSP_EV_MMIO_RD_DONE);
	assert_int_equal(ph_f(&h, "id"), 1);
	/* a done line without its start (cut log): id 0 */
	EV(&h, W "simbricks_mmio_rw: done (2600) a=80300 s=4 val=3", SSP_EV_MMIO_RD_DONE);
	assert_int_equal(ph_f(&h, "id"), 0);
	ph_close(&h);
}

static void
test_d2h(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_QEMU, NULL, NULL, 0, 0);
	EV(&h, W "simbricks_mmio_rw: finished write (1000) addr=108000 size=4 val=1",
	    SSP_EV_MMIO_WR);
	EV(&h, W "simbricks_mmio_rw: finished write (1001) addr=108004 size=4 val=2",
	    SSP_EV_MMIO_WR);
	/* "simbricks_comm_d2h_process: ts=%ld type=%u", types of pcie/proto.h */
	EV(&h, W "simbricks_comm_d2h_process: ts=1500 type=64", SSP_EV_DMA_RD);
	assert_int_equal(h.pl.ev.ts, 1500000);
	assert_int_equal(ph_f(&h, "id"), 1);
	assert_int_equal(ph_f(&h, "addr"), 0);	/* not printed */
	assert_int_equal(ph_f(&h, "size"), 0);
	assert_string_equal(ph_s(&h, "comp"), "simbricks-pci");
	EV(&h, W "simbricks_comm_d2h_process: ts=1600 type=65", SSP_EV_DMA_WR);
	assert_int_equal(ph_f(&h, "id"), 2);
	EV(&h, W "simbricks_comm_d2h_process: ts=1700 type=66", SSP_EV_INTR);
	assert_int_equal(ph_f(&h, "vec"), 0);
	/* write completions in the order of the writes */
	EV(&h, W "simbricks_comm_d2h_process: ts=1800 type=68", SSP_EV_MMIO_WR_DONE);
	assert_int_equal(ph_f(&h, "id"), 1);
	EV(&h, W "simbricks_comm_d2h_process: ts=1801 type=68", SSP_EV_MMIO_WR_DONE);
	assert_int_equal(ph_f(&h, "id"), 2);
	EV(&h, W "simbricks_comm_d2h_process: ts=1802 type=68", SSP_EV_MMIO_WR_DONE);
	assert_int_equal(ph_f(&h, "id"), 0);
	/* synchronized: the read completion message gives no event, the
	 * CPU's done line does */
	EV(&h, W "simbricks_mmio_rw: starting wait for read (1900) addr=8 size=4",
	    SSP_EV_MMIO_RD);
	SKIP(&h, W "simbricks_comm_d2h_process: ts=2000 type=67", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_comm_d2h_rcomp: kicking cpu 0 ts=2000", SSP_SKIP_SBOTHER);
	EV(&h, W "simbricks_mmio_rw: done (2000) a=8 s=4 val=0", SSP_EV_MMIO_RD_DONE);
	assert_int_equal(ph_f(&h, "id"), 3);
	SKIP(&h, W "simbricks_comm_d2h_process: ts=2100 type=0", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_comm_d2h_process: ts=2100 type=1", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_comm_d2h_process: ts=2100 type=99", SSP_SKIP_UNKNOWN);
	ph_close(&h);
}

static void
test_unsynchronized(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_QEMU, NULL, NULL, 0, 0);
	/* the poll thread passes ts 0: the previous line's time, untimed */
	EV(&h, W "simbricks_mmio_rw: starting wait for read (7000) addr=10 size=4",
	    SSP_EV_MMIO_RD);
	assert_int_equal(h.pl.untimed, 0);
	EV(&h, W "simbricks_comm_d2h_process: ts=0 type=67", SSP_EV_MMIO_RD_DONE);
	assert_int_equal(h.pl.ev.ts, 7000000);
	assert_int_equal(h.pl.untimed, 1);
	assert_int_equal(ph_f(&h, "id"), 1);
	EV(&h, W "simbricks_comm_d2h_process: ts=0 type=64", SSP_EV_DMA_RD);
	assert_int_equal(h.pl.untimed, 1);
	assert_int_equal(h.pl.ev.ts, 7000000);
	SKIP(&h, W "simbricks_comm_d2h_process: ts=0 type=0", SSP_SKIP_SBOTHER);
	ph_close(&h);
}

static void
test_timers(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_QEMU, NULL, NULL, 0, 0);
	/* "simbricks_timer_sync: ts=%lu pts=%lu npts=%lu": the offset */
	EV(&h, W "simbricks_timer_sync: ts=1500 pts=1000000 npts=1000000", SSP_EV_SYNC);
	assert_int_equal(h.pl.ev.ts, 1500000);
	assert_int_equal(ph_f(&h, "sync_ts"), 1000000);
	SKIP(&h, W "simbricks_timer_sync: next pts=1500000 ts=2000", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_timer_sync: expected_ts=1 cur_ts=3", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_timer_poll: ts=500 sync_ts=-1", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_timer_poll: expected_ts=1 cur_ts=3", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_timer_poll: time advanced from 3 to 4", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_timer_poll: done, next=1000000", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_comm_d2h_interrupt: invalid MSI-X vector (40)",
	    SSP_SKIP_SBOTHER);
	/* panic() through error_vreport: no "warning: " */
	SKIP(&h, "qemu-system-x86_64: simbricks_comm_poll_d2h: unhandled type",
	    SSP_SKIP_SBOTHER);
	ph_close(&h);
}

static void
test_envelope(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_QEMU, NULL, NULL, 0, 0);
	/* -msg timestamp=on, another program name, a monitor (no name) */
	EV(&h, "2025-05-15T10:00:00.000001Z qemu-system-x86_64: warning: "
	    "simbricks_comm_d2h_process: ts=5 type=66", SSP_EV_INTR);
	assert_int_equal(h.pl.recovered, 0);
	EV(&h, "qemu-kvm: warning: simbricks_comm_d2h_process: ts=6 type=66",
	    SSP_EV_INTR);
	EV(&h, "warning: simbricks_comm_d2h_process: ts=7 type=66", SSP_EV_INTR);
	/* the guest console's text without its newline in front */
	EV(&h, "[    1.000000] e1000e: probingqemu-system-x86_64: warning: "
	    "simbricks_comm_d2h_process: ts=8 type=66", SSP_EV_INTR);
	assert_int_equal(h.pl.recovered, 1);
	assert_int_equal(h.pl.ev.ts, 8000);
	/* QEMU's own warnings (the real line is from the symphony samples) */
	SKIP(&h, "qemu-system-x86_64: warning: host doesn't support requested feature: "
	    "CPUID.07H:EBX.hle [bit 4]", SSP_SKIP_UNKNOWN);
	SKIP(&h, "qemu-system-x86_64: -device simbricks-pci,socket=/tmp/x: "
	    "SimbricksBaseIfConnect failed", SSP_SKIP_UNKNOWN);
	SKIP(&h, W "simbricks_pci_frobnicate: new", SSP_SKIP_UNKNOWN);
	SKIP(&h, W "simbricks_mmio_rw: something new (1) a=1", SSP_SKIP_UNKNOWN);
	/* console text */
	SKIP(&h, "[    0.000000] Linux version 5.15.0 (stub)", SSP_SKIP_TEXT);
	SKIP(&h, "early console in extract_kernel", SSP_SKIP_TEXT);
	SKIP(&h, "modprobe simbricks_nic: not found", SSP_SKIP_TEXT);
	/* gem5 lines are not QEMU lines */
	SKIP(&h, "1869691991749: system.pc.simbricks_0: simbricks-pci: sending read "
	    "addr c0080300 size 4 id 94469181196688 bar 0 offs 80300", SSP_SKIP_TEXT);
	ph_close(&h);
}

static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		W "simbricks_mmio_rw: starting wait for read (x) addr=1 size=4",
		W "simbricks_mmio_rw: starting wait for read (1) addr=1",
		W "simbricks_mmio_rw: starting wait for read (1) addr=1 size=4 extra",
		W "simbricks_mmio_rw: finished write (1) addr=1 size=4",
		W "simbricks_mmio_rw: finished write (1) addr=zz size=4 val=1",
		W "simbricks_mmio_rw: done (1) a=1 s=4",
		W "simbricks_mmio_rw: done (1) addr=1 size=4 val=1",
		W "simbricks_comm_d2h_process: ts=1",
		W "simbricks_comm_d2h_process: ts=-5 type=64",
		W "simbricks_comm_d2h_process: type=64",
		W "simbricks_timer_sync: ts=1 pts=2",
		W "simbricks_timer_sync: ts=1 pts=x npts=3",
		/* past the int64 ps range */
		W "simbricks_mmio_rw: finished write (9223372036854776) addr=1 size=4 val=1",
		W "simbricks_timer_sync: ts=1 pts=18446744073709551615 npts=3",
	};
	struct ph h;
	size_t i;

	(void)state;
	ph_open(&h, SSP_SIM_QEMU, NULL, NULL, 0, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		SKIP(&h, bad[i], SSP_SKIP_MALFORMED);
		assert_non_null(h.pl.why);
	}
	/* a malformed read takes no id: the next one is still 1 */
	EV(&h, W "simbricks_mmio_rw: starting wait for read (1) addr=1 size=4",
	    SSP_EV_MMIO_RD);
	assert_int_equal(ph_f(&h, "id"), 1);
	ph_close(&h);
}

/* QEMU before 2021-02 (the cosim-pci device of the sigcomm22 runs) names
 * its lines cosim_, and before 2022-04 its timer sync line has no SimBricks
 * time: the same events, no offset. */
static void
test_old_qemu(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_QEMU, NULL, NULL, 0, 0);
	SKIP(&h, W "cosim_timer_sync: ts=1500", SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_timer_sync: ts=1500", SSP_SKIP_SBOTHER);
	SKIP(&h, W "cosim_timer_poll: triggering sync: ts=1 sync_ts=2", SSP_SKIP_SBOTHER);
	EV(&h, W "cosim_mmio_rw: starting wait for read (2100) addr=80300 size=4",
	    SSP_EV_MMIO_RD);
	assert_int_equal(h.pl.ev.ts, 2100000);
	assert_string_equal(ph_s(&h, "comp"), "simbricks-pci");
	assert_int_equal(ph_f(&h, "id"), 1);
	EV(&h, W "cosim_mmio_rw: done (2400) a=80300 s=4 val=3", SSP_EV_MMIO_RD_DONE);
	assert_int_equal(ph_f(&h, "id"), 1);
	EV(&h, W "cosim_comm_d2h_process: ts=2500 type=64", SSP_EV_DMA_RD);
	EV(&h, "[    1.0] x qemu-system-x86_64: warning: cosim_comm_d2h_process: "
	    "ts=2600 type=66", SSP_EV_INTR);
	SKIP(&h, "qemu-system-x86_64: cosim_comm_poll_d2h: unhandled type",
	    SSP_SKIP_SBOTHER);
	SKIP(&h, W "simbricks_timer_sync: ts=x", SSP_SKIP_MALFORMED);
	ph_close(&h);
}

/* Many reads whose done lines never come (re-issued after an interrupt):
 * the table keeps the newest, so a later done still finds its read. */
static void
test_lost_reads(void **state)
{
	char line[160];
	struct ph h;
	unsigned i;

	(void)state;
	ph_open(&h, SSP_SIM_QEMU, NULL, NULL, 0, 0);
	for (i = 0; i < 300; i++) {
		snprintf(line, sizeof(line), W "simbricks_mmio_rw: starting wait for "
		    "read (%u) addr=%x size=4", i + 1, i);
		EV(&h, line, SSP_EV_MMIO_RD);
		snprintf(line, sizeof(line), W "simbricks_mmio_rw: finished write "
		    "(%u) addr=%x size=4 val=0", i + 1, i);
		EV(&h, line, SSP_EV_MMIO_WR);
	}
	EV(&h, W "simbricks_mmio_rw: done (300) a=12b s=4 val=0", SSP_EV_MMIO_RD_DONE);
	assert_int_equal(ph_f(&h, "id"), 2 * 0x12b + 1);
	EV(&h, W "simbricks_mmio_rw: done (300) a=0 s=4 val=0", SSP_EV_MMIO_RD_DONE);
	assert_int_equal(ph_f(&h, "id"), 0);	/* forgotten */
	/* the write queue kept the newest 256 writes: 44 to 299 */
	EV(&h, W "simbricks_comm_d2h_process: ts=301 type=68", SSP_EV_MMIO_WR_DONE);
	assert_int_equal(ph_f(&h, "id"), 2 * 44 + 2);
	ph_close(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmio),
		cmocka_unit_test(test_d2h),
		cmocka_unit_test(test_unsynchronized),
		cmocka_unit_test(test_timers),
		cmocka_unit_test(test_envelope),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_old_qemu),
		cmocka_unit_test(test_lost_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
