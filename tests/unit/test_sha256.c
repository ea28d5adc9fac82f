/* ssp_sha256: the FIPS 180-4 examples, the padding boundaries (55, 56, 63,
 * 64 bytes), and a million 'a's (NIST's long message). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/sha256.h"

static void
hex_of(const void *p, size_t n, char out[65])
{
	uint8_t d[SSP_SHA256_LEN];
	int i;

	ssp_sha256(p, n, d);
	for (i = 0; i < SSP_SHA256_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void
test_vectors(void **state)
{
	static const struct { const char *in, *want; } v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	};
	char got[65];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		hex_of(v[i].in, strlen(v[i].in), got);
		assert_string_equal(got, v[i].want);
	}
}

/* Lengths around the 56-byte padding limit and the block size, of 'a's;
 * the digests were computed with coreutils sha256sum. */
static void
test_boundaries(void **state)
{
	static const struct { size_t n; const char *want; } v[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	};
	char *a = malloc(1000000), got[65];
	size_t i;

	(void)state;
	assert_non_null(a);
	memset(a, 'a', 1000000);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		hex_of(a, v[i].n, got);
		assert_string_equal(got, v[i].want);
	}
	free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_boundaries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
