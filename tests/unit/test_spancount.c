/* Spans counted (sink/spancount, spancat -n): each kind, the roots, the
 * flags, links, member events and unknown records, and the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sink/spancount.h"

static struct ssp_rec
span(unsigned kind, uint64_t parent, uint64_t flags)
{
	struct ssp_rec r;

	memset(&r, 0, sizeof(r));
	r.type = kind;
	r.f[SSP_SF_PARENT] = parent;
	r.f[SSP_SF_FLAGS] = flags;
	return r;
}

static void
test_count(void **state)
{
	struct ssp_spancount c;
	struct ssp_rec r;
	char *buf = NULL, want[512];
	size_t len = 0;
	FILE *mf;

	(void)state;
	memset(&c, 0, sizeof(c));
	r = span(SSP_SK_HOST_MMIO, 0, 0);
	ssp_spancount_add(&c, &r);
	r = span(SSP_SK_NIC_TX, 1, SSP_SPAN_ORPHAN | SSP_SPAN_OPEN);
	ssp_spancount_add(&c, &r);
	r = span(SSP_SK_NIC_TX, 0, SSP_SPAN_BACKGROUND);
	ssp_spancount_add(&c, &r);
	r = span(SSP_SPAN_T_LINK, 0, 0);
	ssp_spancount_add(&c, &r);
	r = span(SSP_SPAN_T_EV0, 0, 0);	/* a member event */
	ssp_spancount_add(&c, &r);
	assert_int_equal(c.kind[SSP_SK_NIC_TX], 2);
	assert_int_equal(c.roots, 2);
	assert_int_equal(c.orphans + c.open + c.background, 3);
	assert_int_equal(c.links, 1);
	assert_int_equal(c.events, 1);
	assert_int_equal(c.other, 0);
	assert_non_null(mf = open_memstream(&buf, &len));
	ssp_spancount_print(mf, &c);
	fclose(mf);
	snprintf(want, sizeof(want), "%12d %s\n%12d %s\n%12d spans\n%12d traces\n"
	    "%12d orphans\n%12d open\n%12d background\n%12d links\n"
	    "%12d member events\n", 1, ssp_span_kind_name(SSP_SK_HOST_MMIO), 2,
	    ssp_span_kind_name(SSP_SK_NIC_TX), 3, 2, 1, 1, 1, 1, 1);
	assert_string_equal(buf, want);
	free(buf);
	/* records of a type the program does not know get a line */
	r = span(SSP_TYPE_UNKNOWN, 0, 0);
	ssp_spancount_add(&c, &r);
	assert_non_null(mf = open_memstream(&buf, &len));
	ssp_spancount_print(mf, &c);
	fclose(mf);
	assert_non_null(strstr(buf, "           1 (unknown record types)\n"));
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
