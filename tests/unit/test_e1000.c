/* e1000 parser: the E1000_DEBUG lines of e1000_gem5 (debug_printf's
 * "%lu: " and DPRINTF's "<flag>: " before gem5's i8254xGBe.cc messages),
 * the parser's DMA numbering, nicbm lines in the same input, status
 * lines, malformed lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"

static void
test_regs_irq(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_E1000, NULL, NULL, 0, 0);
	/* DPRINTF(Ethernet, "Read device register %#lx\n", daddr) */
	EV(&h, "1000000: Ethernet: Read device register 0xc0", SSP_EV_NIC_RD);
	assert_int_equal(h.pl.ev.ts, 1000000);
	assert_int_equal(ph_f(&h, "off"), 0xc0);
	assert_int_equal(ph_f(&h, "len"), 4);
	assert_int_equal(ph_f(&h, "val"), 0);
	/* %#lx of 0 is "0" */
	EV(&h, "1000001: Ethernet: Read device register 0", SSP_EV_NIC_RD);
	assert_int_equal(ph_f(&h, "off"), 0);
	/* "Wrote device register %#lx value %#x\n" */
	EV(&h, "1001000: Ethernet: Wrote device register 0x3818 value 0x5", SSP_EV_NIC_WR);
	assert_int_equal(ph_f(&h, "off"), 0x3818);
	assert_int_equal(ph_f(&h, "val"), 5);
	assert_int_equal(ph_i(&h, "posted"), -1);
	EV(&h, "1001001: Ethernet: Wrote device register 0xd8 value 0", SSP_EV_NIC_WR);
	assert_int_equal(ph_f(&h, "val"), 0);
	/* cpuPostInt / cpuClearInt: INTx (intrPost/intrClear) */
	EV(&h, "1130000: EthernetIntr: EINT: Posting interrupt to CPU now. Vector "
	    "0x80000083", SSP_EV_NIC_INTX);
	assert_int_equal(ph_f(&h, "level"), 1);
	EV(&h, "1160000: EthernetIntr: EINT: Clearing interrupt to CPU now. Vector 0",
	    SSP_EV_NIC_INTX);
	assert_int_equal(ph_f(&h, "level"), 0);
	SKIP(&h, "1129000: EthernetIntr: EINT: postInterrupt() curTick(): 1129000 itr: 0 "
	    "interval: 0", SSP_SKIP_SBOTHER);
	SKIP(&h, "1129000: Ethernet: Posting Interrupt", SSP_SKIP_SBOTHER);
	SKIP(&h, "1129000: Ethernet: Reading ICR. ICR=0x83 IMR=0x9d IAM=0 IAME=0",
	    SSP_SKIP_SBOTHER);
	SKIP(&h, "1129000: EthernetEEPROM: EEPROM: read addr: 0X1 data 0x1234",
	    SSP_SKIP_SBOTHER);
	ph_close(&h);
}

static void
test_dma_eth(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_E1000, NULL, NULL, 0, 0);
	/* "[%s] Fetching descriptors at %#lx (%#lx), size: %#lx\n" */
	EV(&h, "1003000: EthernetDesc: [TxDesc] Fetching descriptors at 0x1234000 "
	    "(0x1234000), size: 0x50", SSP_EV_NIC_DMA_ISSUE);
	assert_int_equal(ph_f(&h, "op"), 1);
	assert_int_equal(ph_f(&h, "addr"), 0x1234000);
	assert_int_equal(ph_f(&h, "len"), 0x50);
	EV(&h, "1004000: EthernetDesc: [RxDesc] Fetching descriptors at 0x2000000 "
	    "(0x2000000), size: 0x400", SSP_EV_NIC_DMA_ISSUE);
	assert_int_equal(ph_f(&h, "op"), 2);
	/* completions by cache: the Tx one first */
	EV(&h, "1050000: EthernetDesc: [TxDesc] Fetching complete cachePnt 0 -> 5",
	    SSP_EV_NIC_DMA_DONE_RD);
	assert_int_equal(ph_f(&h, "op"), 1);
	assert_int_equal(ph_f(&h, "addr"), 0x1234000);
	assert_int_equal(ph_f(&h, "len"), 0x50);
	EV(&h, "1051000: EthernetDesc: [RxDesc] Fetching complete cachePnt 0 -> 64",
	    SSP_EV_NIC_DMA_DONE_RD);
	assert_int_equal(ph_f(&h, "op"), 2);
	/* the transmit path: packet DMA, ready, sent (its length) */
	EV(&h, "1060000: EthernetDesc: Starting DMA of packet at offset 0",
	    SSP_EV_NIC_DMA_ISSUE);
	assert_int_equal(ph_f(&h, "op"), 3);
	SKIP(&h, "1060000: EthernetDesc: Starting DMA of packet at offset 54 length: 1448",
	    SSP_SKIP_SBOTHER);	/* TSO: the same DMA */
	EV(&h, "1100000: EthernetDesc: DMA of packet complete", SSP_EV_NIC_DMA_DONE_RD);
	assert_int_equal(ph_f(&h, "op"), 3);
	SKIP(&h, "1100000: EthernetDesc: ------Packet of 98 bytes ready for "
	    "transmission-------", SSP_SKIP_SBOTHER);
	SKIP(&h, "1100000: EthernetDesc: ------Packet of 60 bytes ready for "
	    "transmission-------", SSP_SKIP_SBOTHER);
	EV(&h, "1101000: EthernetSM: TxFIFO: Successful transmit, bytes available in "
	    "fifo: 393118", SSP_EV_NIC_TX);
	assert_int_equal(ph_f(&h, "len"), 98);
	EV(&h, "1101001: EthernetSM: TxFIFO: Successful transmit, bytes available in "
	    "fifo: 393216", SSP_EV_NIC_TX);
	assert_int_equal(ph_f(&h, "len"), 60);
	EV(&h, "1101002: EthernetSM: TxFIFO: Successful transmit, bytes available in "
	    "fifo: 393216", SSP_EV_NIC_TX);
	assert_int_equal(ph_f(&h, "len"), 0);	/* no ready line for it */
	/* "[%s] Begining DMA of %d descriptors\n" (sic): 16 bytes each */
	EV(&h, "1110000: EthernetDesc: [TxDesc] Begining DMA of 2 descriptors",
	    SSP_EV_NIC_DMA_ISSUE);
	assert_int_equal(ph_f(&h, "len"), 32);
	assert_int_equal(ph_f(&h, "addr"), 0);	/* not printed */
	EV(&h, "1120000: EthernetDesc: [TxDesc] Writeback complete curHead 0 -> 2",
	    SSP_EV_NIC_DMA_DONE_WR);
	assert_int_equal(ph_f(&h, "op"), 4);
	/* the receive path */
	EV(&h, "1140000: Ethernet: RxFIFO: Receiving pcakte from wire", SSP_EV_NIC_RX);
	assert_int_equal(ph_f(&h, "len"), 0);
	EV(&h, "1150000: EthernetDesc: Packet Length: 98 Desc Size: 2048",
	    SSP_EV_NIC_DMA_ISSUE);
	assert_int_equal(ph_f(&h, "len"), 98);
	assert_int_equal(ph_f(&h, "op"), 5);
	EV(&h, "1150000: EthernetDesc: Packet written to memory updating Descriptor",
	    SSP_EV_NIC_DMA_DONE_WR);
	assert_int_equal(ph_f(&h, "op"), 5);
	EV(&h, "1160000: EthernetDesc: Packet Length: 3000 srrctl: 0x402 Desc Size: 2048",
	    SSP_EV_NIC_DMA_ISSUE);
	assert_int_equal(ph_f(&h, "len"), 2048);
	/* a completion without its issue line: op 0 */
	EV(&h, "1170000: EthernetDesc: [RxDesc] Writeback complete curHead 0 -> 1",
	    SSP_EV_NIC_DMA_DONE_WR);
	assert_int_equal(ph_f(&h, "op"), 0);
	SKIP(&h, "1170000: EthernetDesc: [RxDesc] Writing back already in process, "
	    "returning", SSP_SKIP_SBOTHER);
	SKIP(&h, "1170000: EthernetSM: RXS: RDT Fetching Descriptors!", SSP_SKIP_SBOTHER);
	ph_close(&h);
}

static void
test_nicbm_lines(void **state)
{
	struct ph h;

	(void)state;
	ph_open(&h, SSP_SIM_E1000, NULL, NULL, 0, 0);
	SKIP(&h, "warn: enabling debug messages because E1000_DEBUG envar set",
	    SSP_SKIP_NICINFO);
	SKIP(&h, "panic: RX not enabled", SSP_SKIP_NICINFO);
	SKIP(&h, "schedule: already scheduled", SSP_SKIP_NICINFO);
	SKIP(&h, "info: mac_addr=c9266116806c", SSP_SKIP_NICINFO);
	SKIP(&h, "1000: system.pc.simbricks_0: simbricks-pci: sending read", SSP_SKIP_TEXT);
	SKIP(&h, "some console text", SSP_SKIP_TEXT);
	/* before nicbm's first debug line e1000's lines are events ... */
	EV(&h, "1000000: Ethernet: Read device register 0xc0", SSP_EV_NIC_RD);
	/* ... then nicbm's are, and e1000's give none */
	EV(&h, "info: main_time = 1000001: nicbm: read(off=0xc0, len=4, val=0x83)",
	    SSP_EV_NIC_RD);
	assert_int_equal(ph_f(&h, "val"), 0x83);
	SKIP(&h, "1000002: Ethernet: Read device register 0xc0", SSP_SKIP_SBOTHER);
	SKIP(&h, "1000002: EthernetIntr: EINT: Posting interrupt to CPU now. Vector 0x83",
	    SSP_SKIP_SBOTHER);
	EV(&h, "info: main_time = 1000003: nicbm: set intx interrupt 1", SSP_EV_NIC_INTX);
	ph_close(&h);
}

static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		"1: Ethernet: Read device register c0",
		"1: Ethernet: Read device register 0xc0 size 4",
		"1: Ethernet: Wrote device register 0x8 value",
		"1: Ethernet: Wrote device register 0x8 value 00",
		"1: EthernetIntr: EINT: Posting interrupt to CPU now. Vector x",
		"1: EthernetDesc: [TxDesc] Fetching descriptors at 0x1 (0x1), size:",
		"1: EthernetDesc: [TxDesc] Fetching descriptors at 0x1, size: 0x10",
		"1: EthernetDesc: [RxDesc] Begining DMA of x descriptors",
		"1: EthernetDesc: Starting DMA of packet at offset x",
		"1: EthernetDesc: Packet Length: 98",
		"1: EthernetDesc: ------Packet of x bytes ready for transmission-------",
		"1: EthernetSM: TxFIFO: Successful transmit, bytes available in fifo: ",
		"18446744073709551615: Ethernet: Read device register 0xc0",
	};
	struct ph h;
	size_t i;

	(void)state;
	ph_open(&h, SSP_SIM_E1000, NULL, NULL, 0, 0);
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
		cmocka_unit_test(test_regs_irq),
		cmocka_unit_test(test_dma_eth),
		cmocka_unit_test(test_nicbm_lines),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
