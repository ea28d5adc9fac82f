/* The truth writer: the CSV of formats/truth.md, tie counters, heuristic
 * parents, counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stream/span.h"
#include "synth/syntruth.h"

static void
test_rows(void **state)
{
	struct ssp_syntruth *t;
	struct ssp_err e = { 0 };
	char path[64], buf[4096];
	uint64_t links[2];
	FILE *f;
	size_t n;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssp-test-syntruth-%d", (int)getpid());
	assert_int_equal(ssp_syntruth_open(&t, path, 3, &e), SSP_OK);
	assert_int_equal(ssp_syntruth_span(t, 0, "client0", SSP_SK_HOST_SYSCALL, 100,
	    "", 0, NULL, 0, 0), 1);
	assert_int_equal(ssp_syntruth_span(t, 1, "client0-nic", SSP_SK_NIC_DMA, 700,
	    "0x55aa", 1, NULL, 0, 0), 2);
	/* the same op at the same time again: a tie */
	assert_int_equal(ssp_syntruth_span(t, 1, "client0-nic", SSP_SK_NIC_DMA, 700,
	    "0x55aa", 1, NULL, 0, 0), 3);
	assert_int_equal(ssp_syntruth_span(t, 1, "client0-nic", SSP_SK_NIC_DMA, 700,
	    "0x55aa", 1, NULL, 0, 2), 4);
	/* same key, other stream: no tie */
	assert_int_equal(ssp_syntruth_span(t, 2, "net", SSP_SK_NIC_DMA, 700,
	    "0x55aa", 0, NULL, 0, SSP_TRUTH_RULE_ROOT), 5);
	links[0] = 2;
	links[1] = 3;
	assert_int_equal(ssp_syntruth_span(t, 0, "client0", SSP_SK_HOST_SYSCALL, 900,
	    "", 1, links, 2, 0), 6);
	assert_int_equal(ssp_syntruth_count(t), 6);
	assert_int_equal(ssp_syntruth_count_kind(t, SSP_SK_NIC_DMA), 4);
	assert_int_equal(ssp_syntruth_ties(t), 2);
	assert_int_equal(ssp_syntruth_rule_differs(t), 2);
	assert_int_equal(ssp_syntruth_close(t, &e), SSP_OK);
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_string_equal(buf,
	    "id,stream,kind,start_ps,key,parent_id,links,rule_parent_id\r\n"
	    "1,\"client0\",\"host.syscall\",100,\"\",,\"\",\r\n"
	    "2,\"client0-nic\",\"nic.dma\",700,\"0x55aa\",1,\"\",\r\n"
	    "3,\"client0-nic\",\"nic.dma\",700,\"0x55aa#1\",1,\"\",\r\n"
	    "4,\"client0-nic\",\"nic.dma\",700,\"0x55aa#2\",1,\"\",2\r\n"
	    "5,\"net\",\"nic.dma\",700,\"0x55aa\",,\"\",root\r\n"
	    "6,\"client0\",\"host.syscall\",900,\"\",1,\"2 3\",\r\n");
	unlink(path);

	/* dry run: ids without a file */
	assert_int_equal(ssp_syntruth_open(&t, NULL, 1, &e), SSP_OK);
	assert_int_equal(ssp_syntruth_span(t, 0, "x", SSP_SK_NIC_TX, 1, "", 0, NULL,
	    0, 0), 1);
	assert_int_equal(ssp_syntruth_close(t, &e), SSP_OK);
	assert_int_equal(ssp_syntruth_open(&t, "/proc/version/x", 1, &e), SSP_ERR_IO);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
