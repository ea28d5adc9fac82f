/* nicbm parser: every message of FORMATS.md §5 in each version's form,
 * glued messages behind dma write payloads, status lines, malformed lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"

static void
test_mmio(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NICBM, NULL, NULL, 0, 0);
	EV(&h, "info: main_time = 2000500000: nicbm: read(off=0x80300, len=4, val=0x3)",
	    SSP_EV_NIC_RD);
	assert_int_equal(h.pl.ev.ts, 2000500000);
	assert_int_equal(ph_f(&h, "off"), 0x80300);
	assert_int_equal(ph_f(&h, "len"), 4);
	assert_int_equal(ph_f(&h, "val"), 3);
	EV(&h, "info: main_time = 2000504000: nicbm: write(off=0x108000, len=4, val=0x1, "
	    "posted=1)", SSP_EV_NIC_WR);
	assert_int_equal(ph_i(&h, "posted"), 1);
	/* before 2023-05: no posted=; before 2024-05: no "info: " */
	EV(&h, "main_time = 6018967679249: nicbm: write(off=0x0, len=8, "
	    "val=0xffffffffffffffff)", SSP_EV_NIC_WR);
	assert_int_equal(ph_i(&h, "posted"), -1);
	assert_int_equal(ph_f(&h, "val"), UINT64_MAX);
	ph_close(&h);
}

static void
test_dma(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NICBM, NULL, NULL, 0, 0);
	/* the form SPEC.md quotes (Columbo's fork, addr without 0x) */
	EV(&h, "info: main_time = 6018967679249: nicbm: issuing dma op 0x55ea69870540 "
	    "addr 100240060 len 16 pending 0", SSP_EV_NIC_DMA_ISSUE);
	assert_int_equal(ph_f(&h, "op"), 0x55ea69870540ULL);
	assert_int_equal(ph_f(&h, "addr"), 0x100240060ULL);
	assert_int_equal(ph_f(&h, "len"), 16);
	assert_int_equal(ph_f(&h, "pending"), 0);
	/* since 2024-08: addr with 0x */
	EV(&h, "info: main_time = 1: nicbm: executing dma op 0x55ea69870540 addr "
	    "0x100240060 len 16 pending 1", SSP_EV_NIC_DMA_EXEC);
	assert_int_equal(ph_f(&h, "addr"), 0x100240060ULL);
	assert_int_equal(ph_f(&h, "pending"), 1);
	EV(&h, "main_time = 2: nicbm: enqueuing dma op 0x1 addr 0x2 len 3 pending 64",
	    SSP_EV_NIC_DMA_ENQ);
	assert_int_equal(ph_f(&h, "pending"), 64);
	EV(&h, "info: main_time = 3: nicbm: completed dma read op 0x55ea69870540 addr "
	    "100240060 len 16", SSP_EV_NIC_DMA_DONE_RD);
	EV(&h, "info: main_time = 4: nicbm: completed dma write op (nil) addr 0x0 len 0",
	    SSP_EV_NIC_DMA_DONE_WR);
	assert_int_equal(ph_f(&h, "op"), 0);
	/* the DMA op pointer is gem5's DMA id: 0x559884ce70f0 == 94113551511792 */
	EV(&h, "info: main_time = 5: nicbm: issuing dma op 0x559884ce70f0 addr 1 len 1 "
	    "pending 0", SSP_EV_NIC_DMA_ISSUE);
	assert_int_equal(ph_f(&h, "op"), 94113551511792ULL);
	ph_close(&h);
}

static void
test_irq_eth(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NICBM, NULL, NULL, 0, 0);
	EV(&h, "info: main_time = 7: nicbm: issue MSI-X interrupt vec 1", SSP_EV_NIC_MSIX);
	assert_int_equal(ph_f(&h, "vec"), 1);
	EV(&h, "main_time = 7: nicbm: issue MSI interrupt vec 2", SSP_EV_NIC_MSI);
	assert_int_equal(ph_f(&h, "vec"), 2);
	EV(&h, "main_time = 7: nicbm: set intx interrupt 1", SSP_EV_NIC_INTX);
	assert_int_equal(ph_f(&h, "level"), 1);
	EV(&h, "info: main_time = 8: nicbm: eth tx: len 98", SSP_EV_NIC_TX);
	assert_int_equal(ph_f(&h, "len"), 98);
	EV(&h, "info: main_time = 9: nicbm: eth rx: port 0 len 1514", SSP_EV_NIC_RX);
	assert_int_equal(ph_f(&h, "port"), 0);
	assert_int_equal(ph_f(&h, "len"), 1514);
	/* the 2021 trace parser's "<ps> nicbm:" form */
	EV(&h, "12345 nicbm: eth tx: len 60", SSP_EV_NIC_TX);
	assert_int_equal(h.pl.ev.ts, 12345);
	ph_close(&h);
}

static void
test_dma_payload(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NICBM, NULL, NULL, 0, 0);
	SKIP(&h, "main_time = 10: nicbm: dma write data: ", SSP_SKIP_DMADATA);
	/* printf era: bytes, then the next message glued on */
	EV(&h, "03 20 01 00 00 00 0A 00 main_time = 11: nicbm: completed dma write op "
	    "0x55ea69870540 addr 100240060 len 8", SSP_EV_NIC_DMA_DONE_WR);
	assert_int_equal(h.pl.ev.ts, 11);
	assert_true(h.pl.recovered);
	/* LogInfo era: "info: " before every byte and the message */
	EV(&h, "info: 03 info: 20 info: 01 info: 0A info: main_time = 12: nicbm: issue "
	    "MSI-X interrupt vec 3", SSP_EV_NIC_MSIX);
	assert_int_equal(ph_f(&h, "vec"), 3);
	/* payload as the last thing in the log */
	SKIP(&h, "info: 03 info: 20 info: 01 info: 0A ", SSP_SKIP_DMADATA);
	SKIP(&h, "03 20 01 00 00 00 00 00", SSP_SKIP_DMADATA);
	SKIP(&h, "FF", SSP_SKIP_DMADATA);
	/* the vaastav/columbo single-line variant, real line */
	SKIP(&h, "info: main_time = 728327065000: nicbm: dma write data: 03 20 01 00 00 "
	    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 06 00 00 00 01 00 "
	    "0A 00", SSP_SKIP_DMADATA);
	EV(&h, "info: main_time = 7: nicbm: dma write data: 03 20 info: main_time = 8: "
	    "nicbm: eth tx: len 60", SSP_EV_NIC_TX);
	assert_int_equal(h.pl.ev.ts, 8);
	/* glued header of another payload */
	SKIP(&h, "03 20 main_time = 12: nicbm: dma write data: ", SSP_SKIP_DMADATA);
	ph_close(&h);
}

static void
test_status(void **state)
{
	static const char *const lines[] = {
		/* real, nicbm/sigcomm22-*.txt (after the JSON extraction prefix) */
		"mac_addr=c9266116806c", "sync_pci=1 sync_eth=1", "poll_h2d: peer terminated",
		"exit main_time: 3971784906000",
		"      h2d_poll_total:            54241850474         h2d_poll_suc:"
		"              263850245  poll_suc_rate: 0.004864",
		"                                                    h2d_poll_sync:"
		"              262429776  sync_rate: 0.994616",
		"eth connection accepted", "eth intro sent", "pci connection accepted",
		"pci intro sent", "pci host info received", "eth net info received",
		"14a727138358", "9ba2bfd1c30",
		/* SIGUSR1 dumps */
		"main_time = 12458823247874", "[Runner 0x55d0c1a0] main_time = 12458823247874",
		"info: mac_addr=c9266116806c", "warn: SimbricksNicIfSync failed (t=5)",
	};
	struct ph h;
	size_t i;

	(void)state;
	ph_open(&h, SSP_SIM_NICBM, NULL, NULL, 0, 0);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		SKIP(&h, lines[i], SSP_SKIP_NICINFO);
	SKIP(&h, "nicbm: issuing dma op 0x1 addr 2 len 3 pending 0", SSP_SKIP_NOTS);
	SKIP(&h, "info: main_time = 5: nicbm: sending sync message", SSP_SKIP_UNKNOWN);
	SKIP(&h, "info: something new", SSP_SKIP_UNKNOWN);
	SKIP(&h, "main_time = 5: i40e: hello", SSP_SKIP_UNKNOWN);
	SKIP(&h, "Switch connecting to: /tmp/sock", SSP_SKIP_TEXT);
	SKIP(&h, "12 packets", SSP_SKIP_TEXT);
	SKIP(&h, "", SSP_SKIP_EMPTY);
	ph_close(&h);
}

static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		"info: main_time = 1: nicbm: read(off=80300, len=4, val=0x3)",
		"info: main_time = 1: nicbm: read(off=0x80300, len=4, val=0x3",
		"info: main_time = 1: nicbm: write(off=0x1, len=4, val=0x1, posted=)",
		"info: main_time = 1: nicbm: issuing dma op 0x1 addr zz len 16 pending 0",
		"info: main_time = 1: nicbm: issuing dma op 0x1 addr 1 len 16",
		/* vaastav's fork: an op kind instead of the pointer */
		"info: main_time = 1: nicbm: issuing dma op read addr 0x1 len 16 pending 0",
		"info: main_time = 1: nicbm: completed dma read op 0x1 addr 1 len 16 pending 0",
		"info: main_time = 1: nicbm: eth tx: len",
		"info: main_time = 1: nicbm: eth rx: port 0",
		"info: main_time = 1: nicbm: issue MSI-X interrupt vec x",
		"info: main_time = x: nicbm: eth tx: len 1",
		"info: main_time = 99999999999999999999: nicbm: eth tx: len 1",
		"info: main_time = 18446744073709551615: nicbm: eth tx: len 1",
	};
	struct ph h;
	size_t i;

	(void)state;
	ph_open(&h, SSP_SIM_NICBM, NULL, NULL, 0, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		SKIP(&h, bad[i], SSP_SKIP_MALFORMED);
		assert_non_null(h.pl.why);
	}
	ph_close(&h);
}

/* Enso's device logger (component-enso enso_bm/logger.cc): "<ps> enso: "
 * and every number in hex without 0x. */
static void
test_enso(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_NICBM, NULL, NULL, 0, 0);
	EV(&h, "2000000 enso: received packet len=5e", SSP_EV_NIC_RX);
	assert_int_equal(h.pl.ev.ts, 2000000);
	assert_int_equal(ph_f(&h, "len"), 0x5e);
	assert_int_equal(ph_f(&h, "port"), 0);
	EV(&h, "2100000 enso: TX: sending packet to ethernet len=40", SSP_EV_NIC_TX);
	assert_int_equal(ph_f(&h, "len"), 0x40);
	SKIP(&h, "2000000 enso: RX: Flow director: dst_port=1f90 src_port=0 dst_ip=a000001 "
	    "src_ip=0", SSP_SKIP_SBOTHER);
	SKIP(&h, "2000000 enso: RX: Sending packet to enso pipe 3", SSP_SKIP_SBOTHER);
	SKIP(&h, "2000000 enso: enso: DMA data to pipe 3 len=5e aligned_len=80 flits=2 "
	    "nb_free_slots=3fff", SSP_SKIP_SBOTHER);
	SKIP(&h, "2100000 enso: TX pipeline: enqueue data len=0x40", SSP_SKIP_SBOTHER);
	SKIP(&h, "0 enso: unhandled mem read addr=40", SSP_SKIP_SBOTHER);
	SKIP(&h, "Unknown RX pipe register offset: 24", SSP_SKIP_NICINFO);
	SKIP(&h, "1 enso: received packet len=", SSP_SKIP_MALFORMED);
	SKIP(&h, "1 enso: TX: sending packet to ethernet len=zz", SSP_SKIP_MALFORMED);
	/* with DEBUG_NICBM too, nicbm's eth lines are the events */
	EV(&h, "info: main_time = 2200000: nicbm: eth rx: port 0 len 94", SSP_EV_NIC_RX);
	SKIP(&h, "2200000 enso: received packet len=5e", SSP_SKIP_SBOTHER);
	ph_close(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmio),
		cmocka_unit_test(test_dma),
		cmocka_unit_test(test_irq_eth),
		cmocka_unit_test(test_dma_payload),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_enso),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
