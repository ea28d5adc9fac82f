/* ssp_crc32 must equal zlib's crc32 for every length, alignment and start
 * value, on the PCLMULQDQ path and the portable one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>
#include <cmocka.h>

#include "ssp_crc32.h"

static uint64_t rng = 88172645463325252ull;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static void
check_all(void)
{
	static uint8_t buf[70000];
	size_t i, n, off;
	uint32_t c0;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rnd();
	/* every length up to 300 at every alignment mod 16 */
	for (n = 0; n <= 300; n++)
		for (off = 0; off < 16; off++) {
			c0 = rnd();
			assert_int_equal(ssp_crc32(c0, buf + off, n),
			    (uint32_t)crc32(c0, buf + off, (uInt)n));
		}
	/* block-sized and random lengths */
	for (i = 0; i < 200; i++) {
		n = i < 10 ? 65536 + i : rnd() % (sizeof(buf) - 64);
		off = rnd() % 64;
		c0 = i % 3 == 0 ? 0 : rnd();
		assert_int_equal(ssp_crc32(c0, buf + off, n),
		    (uint32_t)crc32(c0, buf + off, (uInt)n));
	}
	/* nothing to add, even from NULL, leaves the value alone */
	assert_int_equal(ssp_crc32(0x12345678u, NULL, 0), 0x12345678u);
	assert_int_equal(ssp_crc32(0x12345678u, buf, 0), 0x12345678u);
	/* known value: the CRC-32 check string */
	assert_int_equal(ssp_crc32(0, "123456789", 9), 0xcbf43926u);
	/* chaining equals one pass */
	c0 = ssp_crc32(0, buf, 1000);
	assert_int_equal(ssp_crc32(c0, buf + 1000, 5000),
	    ssp_crc32(0, buf, 6000));
}

static void
test_fast(void **state)
{
	(void)state;
	ssp_crc32_portable(0);
	check_all();
}

static void
test_portable(void **state)
{
	(void)state;
	ssp_crc32_portable(1);
	check_all();
	ssp_crc32_portable(0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast),
		cmocka_unit_test(test_portable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
