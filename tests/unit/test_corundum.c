/* corundum parser: the CORUNDUM_VERILATOR_DEBUG lines of component-corundum
 * adapter/corundum_simbricks_adapter.cpp as sim_log prints them (with the
 * payload bytes fprintf'd behind them), the AXI library's debug lines,
 * status lines, malformed lines. */
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
	ph_open(&h, SSP_SIM_CORUNDUM, NULL, NULL, 0, 0);
	/* "h2d_read ts=%lu bar=%d offset=0x%lx len=%lu\n" */
	EV(&h, "info: h2d_read ts=1000000 bar=0 offset=0x80 len=4", SSP_EV_NIC_RD);
	assert_int_equal(h.pl.ev.ts, 1000000);
	assert_int_equal(ph_f(&h, "off"), 0x80);
	assert_int_equal(ph_f(&h, "len"), 4);
	assert_int_equal(ph_f(&h, "val"), 0);	/* comes with read_done */
	/* "CorundumAXILManager::read_done() ts=%lu  id=%lu  addr=0x%lx data="
	 * then sizeof(uint64_t) "%02X " bytes: the host's request id */
	EV(&h, "info: CorundumAXILManager::read_done() ts=1012000  id=94469181196688  "
	    "addr=0x80 data=01 02 00 00 00 00 00 80 ", SSP_EV_NIC_RD_DONE);
	assert_int_equal(ph_f(&h, "id"), 94469181196688ULL);
	assert_int_equal(ph_f(&h, "off"), 0x80);
	assert_int_equal(ph_f(&h, "val"), 0x8000000000000201ULL);
	/* "h2d_write ts=%lu bar=%d offset=0x%lx len=%lu posted=%d data=" */
	EV(&h, "info: h2d_write ts=1020000 bar=0 offset=0x200010 len=4 posted=1 "
	    "data=05 00 00 00 ", SSP_EV_NIC_WR);
	assert_int_equal(ph_f(&h, "off"), 0x200010);
	assert_int_equal(ph_f(&h, "val"), 5);
	assert_int_equal(ph_i(&h, "posted"), 1);
	EV(&h, "info: CorundumAXILManager::write_done() ts=1032000  id=7  addr=0x200010 "
	    "posted=0 data=05 00 00 00 00 00 00 00 ", SSP_EV_NIC_WR_DONE);
	assert_int_equal(ph_f(&h, "id"), 7);
	assert_int_equal(ph_i(&h, "posted"), 0);
	assert_int_equal(ph_f(&h, "val"), 5);
	ph_close(&h);
}

static void
test_dma(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_CORUNDUM, NULL, NULL, 0, 0);
	/* read ids: AXI id << 32 | a rolling counter (axi_subordinate.hh) */
	EV(&h, "info: CorundumAXISubordinateRead::doRead() ts=1040000 id=4294967301 "
	    "addr=0x12340000 len=16", SSP_EV_NIC_DMA_EXEC);
	assert_int_equal(ph_f(&h, "op"), 4294967301ULL);
	assert_int_equal(ph_f(&h, "addr"), 0x12340000);
	assert_int_equal(ph_f(&h, "len"), 16);
	assert_int_equal(ph_f(&h, "pending"), 0);
	/* write ids: the AXI id itself */
	EV(&h, "info: CorundumAXISubordinateWrite::doWrite() ts=1060000 id=2 "
	    "addr=0x12350000 len=8 data=AA BB CC DD EE FF 00 11 ", SSP_EV_NIC_DMA_EXEC);
	assert_int_equal(ph_f(&h, "op"), 2);
	assert_int_equal(ph_f(&h, "len"), 8);
	/* AXI_R_DEBUG / AXI_W_DEBUG (std::cout, no sim_log prefix) */
	EV(&h, "1110000 AXI R: read_done id=0x100000005", SSP_EV_NIC_DMA_DONE_RD);
	assert_int_equal(ph_f(&h, "op"), 0x100000005ULL);
	EV(&h, "1120000 AXI W completed write for id=2", SSP_EV_NIC_DMA_DONE_WR);
	assert_int_equal(ph_f(&h, "op"), 2);
	SKIP(&h, "1110000 AXI R: new op addr=305397760 len=16 id=0x100000005",
	    SSP_SKIP_SBOTHER);
	SKIP(&h, "1110000 AXI R: completed id=0x100000005", SSP_SKIP_SBOTHER);
	SKIP(&h, "1110000 AXI W: new request id=2 addr=1 len=8 step_size=8",
	    SSP_SKIP_SBOTHER);
	SKIP(&h, "AXI W next segment: id=2 cur_off=0 step_size=8 align=0",
	    SSP_SKIP_SBOTHER);
	SKIP(&h, "AXI W Issuing request for id=2 addr=1 len=8", SSP_SKIP_SBOTHER);
	SKIP(&h, "1110000 AXIL R addr handshake done id=7", SSP_SKIP_SBOTHER);
	ph_close(&h);
}

static void
test_irq_eth(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_CORUNDUM, NULL, NULL, 0, 0);
	EV(&h, "info: MsiInterruptHandler::msi_issue: MSI interrupt ts=1100000, vec=3",
	    SSP_EV_NIC_MSI);
	assert_int_equal(ph_f(&h, "vec"), 3);
	SKIP(&h, "info: MsiInterruptHandler::step: MSI interrupt ts=1100000, msi_irq=8",
	    SSP_SKIP_SBOTHER);
	/* "%lu corundum verilator packet_d2n transmitted packet: packet len=%lu, "
	 * "packet data=" */
	EV(&h, "info: 1080000 corundum verilator packet_d2n transmitted packet: packet "
	    "len=4, packet data=01 02 03 04 ", SSP_EV_NIC_TX);
	assert_int_equal(ph_f(&h, "len"), 4);
	/* "%lu corundum verilator n2d_recv received packet: packet data=": the
	 * length is the number of bytes */
	EV(&h, "info: 1090000 corundum verilator n2d_recv received packet: packet "
	    "data=01 02 03 04 05 06 ", SSP_EV_NIC_RX);
	assert_int_equal(ph_f(&h, "len"), 6);
	assert_int_equal(ph_f(&h, "port"), 0);
	assert_int_equal(h.pl.ev.ts, 1090000);
	EV(&h, "info: 1090000 corundum verilator n2d_recv received packet: packet data=",
	    SSP_EV_NIC_RX);
	assert_int_equal(ph_f(&h, "len"), 0);
	SKIP(&h, "info: 1080000 corundum verilator packet_d2n try packet transmission",
	    SSP_SKIP_SBOTHER);
	SKIP(&h, "error: corundum verilator n2d_recv: dropping packet", SSP_SKIP_SBOTHER);
	ph_close(&h);
}

static void
test_status(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_CORUNDUM, NULL, NULL, 0, 0);
	SKIP(&h, "info: sync_pci=1 sync_eth=1", SSP_SKIP_NICINFO);
	SKIP(&h, "info: corundum start main simulation loop", SSP_SKIP_NICINFO);
	SKIP(&h, "info: corundum simbricks adapter finished", SSP_SKIP_NICINFO);
	SKIP(&h, "info: corundum-verilator-nic tx_status 0", SSP_SKIP_NICINFO);
	SKIP(&h, "error: main_time = 1200000", SSP_SKIP_NICINFO);	/* SIGUSR1 */
	SKIP(&h, "warn: SimbricksPcieIfD2HOutSync or SimbricksNetIfOutSync failed "
	    "(t=1000)", SSP_SKIP_NICINFO);
	SKIP(&h, "error: poll_h2d: peer terminated", SSP_SKIP_NICINFO);
	SKIP(&h, "error: CorundumAXISubordinateRead::doRead() dma read alloc failed",
	    SSP_SKIP_NICINFO);
	SKIP(&h, "info: something else", SSP_SKIP_UNKNOWN);
	SKIP(&h, "%Warning-WIDTH: mqnic_core.v:100: Operator ASSIGN", SSP_SKIP_TEXT);
	/* the symphony fixture's stub line */
	SKIP(&h, "corundum_simbricks_adapter: clock 250 MHz, start tick 0", SSP_SKIP_TEXT);
	/* nicbm lines are not Corundum's */
	SKIP(&h, "info: main_time = 1: nicbm: eth tx: len 60", SSP_SKIP_UNKNOWN);
	ph_close(&h);
}

static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		"info: h2d_read ts=1 bar=0 offset=80 len=4",
		"info: h2d_read ts=1 bar=0 offset=0x80",
		"info: h2d_write ts=1 bar=0 offset=0x80 len=4 posted=1",
		"info: h2d_write ts=1 bar=0 offset=0x80 len=4 posted=1 data=05 0",
		"info: h2d_write ts=1 bar=0 offset=0x80 len=4 posted=1 data=0500",
		"info: CorundumAXILManager::read_done() ts=1  id=x  addr=0x80 data=",
		"info: CorundumAXILManager::write_done() ts=1  id=1  addr=0x80 data=00 ",
		"info: CorundumAXISubordinateRead::doRead() ts=1 id=1 addr=0x1",
		"info: CorundumAXISubordinateWrite::doWrite() ts=1 id=1 addr=0x1 len=1",
		"info: MsiInterruptHandler::msi_issue: MSI interrupt ts=1 vec=1",
		"info: 1 corundum verilator packet_d2n transmitted packet: packet len=4",
		"info: 1 corundum verilator n2d_recv received packet: data=01 ",
		"1 AXI R: read_done id=5",
		"1 AXI W completed write for id=",
		"info: h2d_read ts=18446744073709551615 bar=0 offset=0x80 len=4",
	};
	struct ph h;
	size_t i;

	(void)state;
	ph_open(&h, SSP_SIM_CORUNDUM, NULL, NULL, 0, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		SKIP(&h, bad[i], SSP_SKIP_MALFORMED);
		assert_non_null(h.pl.why);
	}
	ph_close(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmio),
		cmocka_unit_test(test_dma),
		cmocka_unit_test(test_irq_eth),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
