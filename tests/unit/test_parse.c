/* The parser interface: dispatch by simulator, reason names, the common
 * handling of empty lines and CR line ends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "parse_helpers.h"

static void
test_reasons(void **state)
{
	unsigned i, j;

	(void)state;
	for (i = 0; i < SSP_SKIP_N; i++) {
		assert_true(strlen(ssp_pline_skip_name(i)) > 0);
		assert_true(strlen(ssp_pline_skip_desc(i)) > 0);
		assert_null(strchr(ssp_pline_skip_name(i), ' '));
		for (j = 0; j < i; j++)
			assert_true(strcmp(ssp_pline_skip_name(i), ssp_pline_skip_name(j)) != 0);
	}
	assert_string_equal(ssp_pline_skip_name(SSP_SKIP_N), "?");
}

static void
test_dispatch(void **state)
{
	struct ssp_parser *p;
	struct ssp_parser_cfg cfg = { NULL, NULL, 0 };
	struct ssp_atoms *a;
	struct ssp_err e;
	struct ph h;
	enum ssp_sim sims[] = { SSP_SIM_GEM5, SSP_SIM_NICBM, SSP_SIM_NS3,
	    SSP_SIM_SWITCH, SSP_SIM_QEMU, SSP_SIM_CORUNDUM, SSP_SIM_E1000 };
	size_t i;

	(void)state;
	assert_int_equal(ssp_atoms_new(&a, NULL), SSP_OK);
	cfg.atoms = a;
	assert_int_equal(ssp_parser_new(&p, SSP_SIM_NONE, &cfg, &e), SSP_ERR_INVAL);
	assert_null(p);
	ssp_atoms_free(a);
	for (i = 0; i < sizeof(sims) / sizeof(sims[0]); i++) {
		ph_open(&h, sims[i], NULL, NULL, 0, 0);
		SKIP(&h, "", SSP_SKIP_EMPTY);
		SKIP(&h, "\r", SSP_SKIP_EMPTY);
		SKIP(&h, "\x7f" "ELF\x02\x01\x01", SSP_SKIP_TEXT);
		ph_close(&h);
	}
	ph_open(&h, SSP_SIM_NICBM, NULL, NULL, 0, 0);
	EV(&h, "info: main_time = 8: nicbm: eth tx: len 98\r", SSP_EV_NIC_TX);
	ph_close(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_dispatch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
