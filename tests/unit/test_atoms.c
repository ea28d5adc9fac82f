/* Interned strings: ids, lookups, the growth limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "base/atoms.h"

static void
test_atoms(void **state)
{
	struct ssp_atoms *a;
	uint32_t x, y;
	size_t n;

	(void)state;
	assert_int_equal(ssp_atoms_new(&a, NULL), SSP_OK);
	x = ssp_atoms_intern(a, "system.cpu", 10);
	y = ssp_atoms_intern(a, "system.cpu0", 11);
	assert_true(x != 0 && y != 0 && x != y);
	assert_int_equal(ssp_atoms_intern(a, "system.cpu", 10), x);
	assert_int_equal(ssp_atoms_find(a, "system.cpu0", 11), y);
	assert_int_equal(ssp_atoms_find(a, "nope", 4), 0);
	assert_string_equal(ssp_atoms_str(a, y, &n), "system.cpu0");
	assert_int_equal(n, 11);
	assert_null(ssp_atoms_str(a, 0, NULL));
	assert_null(ssp_atoms_str(a, 99, NULL));
	ssp_atoms_limit(a, 2, 1000);
	assert_true(ssp_atoms_intern(a, "a", 1) != 0);
	assert_true(ssp_atoms_intern(a, "b", 1) != 0);
	assert_int_equal(ssp_atoms_intern(a, "c", 1), 0);	/* past the limit */
	assert_int_equal(ssp_atoms_intern(a, "a", 1), ssp_atoms_find(a, "a", 1));
	assert_int_equal(ssp_atoms_count(a), 4);
	ssp_atoms_limit(a, 100, 5);
	assert_true(ssp_atoms_intern(a, "dd", 2) != 0);
	assert_int_equal(ssp_atoms_intern(a, "eee", 3), 0);	/* byte limit */
	ssp_atoms_free(a);
}

static void
test_many(void **state)
{
	struct ssp_atoms *a;
	char buf[32];
	uint32_t i, id;

	(void)state;
	assert_int_equal(ssp_atoms_new(&a, NULL), SSP_OK);
	for (i = 0; i < 100000; i++) {
		int n = snprintf(buf, sizeof(buf), "sym_%u", i);

		assert_int_equal(ssp_atoms_intern(a, buf, (size_t)n), i + 1);
	}
	for (i = 0; i < 100000; i += 7) {
		int n = snprintf(buf, sizeof(buf), "sym_%u", i);

		id = ssp_atoms_find(a, buf, (size_t)n);
		assert_int_equal(id, i + 1);
		assert_string_equal(ssp_atoms_str(a, id, NULL), buf);
	}
	ssp_atoms_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atoms),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
