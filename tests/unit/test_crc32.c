/* ssp_crc32 equals zlib's crc32 for every length, alignment and start. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <cmocka.h>

#include "base/crc32.h"

static void
test_matches_zlib(void **state)
{
	static unsigned char buf[70000 + 64];
	size_t len, off, i;
	uint32_t seed = 12345;

	(void)state;
	for (i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (unsigned char)(seed >> 16);
	}
	for (off = 0; off < 17; off += 3)
		for (len = 0; len < 600; len++)
			assert_int_equal(ssp_crc32(0, buf + off, len),
			    (uint32_t)crc32(0, buf + off, (uInt)len));
	for (len = 60000; len < 60100; len++)
		assert_int_equal(ssp_crc32(0, buf + 1, len),
		    (uint32_t)crc32(0, buf + 1, (uInt)len));
	/* chained, as the framing does: header bytes, then the payload */
	assert_int_equal(ssp_crc32(ssp_crc32(0, buf, 8), buf + 8, 65536),
	    (uint32_t)crc32(0, buf, 8 + 65536));
	assert_int_equal(ssp_crc32(0xdeadbeef, buf, 1000),
	    (uint32_t)crc32(0xdeadbeef, buf, 1000));
	memset(buf, 0, 4096);
	assert_int_equal(ssp_crc32(0, buf, 4096), (uint32_t)crc32(0, buf, 4096));
	assert_int_equal(ssp_crc32(0, "123456789", 9), 0xcbf43926u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_zlib),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
