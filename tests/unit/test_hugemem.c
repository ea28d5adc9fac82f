/* Huge-page arrays: zeroed, aligned, contents kept across every kind of
 * resize, and the kernel told that a large block may use huge pages; and
 * byte buffers given room on huge pages (ssp_buf_reserve_huge). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/buf.h"
#include "base/hugemem.h"

#define MiB ((size_t)1 << 20)

static int
all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

static void
fill(unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + i / 4093);
}

static int
filled(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 7 + i / 4093))
			return 0;
	return 1;
}

static void
test_zeroed_and_aligned(void **state)
{
	size_t sizes[] = { 1, 100, SSP_HUGEMEM_MIN - 64, SSP_HUGEMEM_MIN,
	    5 * MiB + 3 }, i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *p = ssp_hugemem_alloc(sizes[i]);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 64, 0);
		assert_true(all_zero(p, sizes[i]));
		memset(p, 0xff, sizes[i]);	/* all of it is writable */
		ssp_hugemem_free(p);
	}
	ssp_hugemem_free(NULL);
}

/* From the heap into a mapping, a mapping grown (in place or moved) and
 * shrunk, and back down: the contents stay. */
static void
test_realloc_keeps_contents(void **state)
{
	unsigned char *p = ssp_hugemem_realloc(NULL, 1000), *q, *block;

	(void)state;
	assert_non_null(p);
	fill(p, 1000);
	p = ssp_hugemem_realloc(p, 300 * 1024);		/* heap to heap */
	assert_non_null(p);
	assert_true(filled(p, 1000));
	fill(p, 300 * 1024);
	p = ssp_hugemem_realloc(p, 3 * MiB);		/* heap to mapping */
	assert_non_null(p);
	assert_true(filled(p, 300 * 1024));
	fill(p, 3 * MiB);
	/* a block right after it makes growing in place less likely */
	block = ssp_hugemem_alloc(3 * MiB);
	assert_non_null(block);
	q = ssp_hugemem_realloc(p, 17 * MiB);		/* mapping grows */
	assert_non_null(q);
	assert_true(filled(q, 3 * MiB));
	fill(q, 17 * MiB);
	p = ssp_hugemem_realloc(q, 2 * MiB);		/* shrinks */
	assert_non_null(p);
	assert_true(filled(p, 2 * MiB));
	ssp_hugemem_free(p);
	ssp_hugemem_free(block);
}

/* A number of /proc/self/smaps for the mapping holding p, e.g.
 * "THPeligible" (1 when the kernel may back it with huge pages) or "Rss"
 * (KiB); -1 when not found. */
static long
smaps(const void *p, const char *key)
{
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	unsigned long a = (unsigned long)(uintptr_t)p, lo, hi;
	long r = -1;
	int in = 0;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)	/* a mapping */
			in = a >= lo && a < hi;
		else if (in && strncmp(line, key, klen) == 0 &&
		    line[klen] == ':') {
			r = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return r;
}

static void
test_large_blocks_ask_for_huge_pages(void **state)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char mode[128] = "";
	unsigned char *p;

	(void)state;
	if (f != NULL) {
		if (fgets(mode, sizeof(mode), f) == NULL)
			mode[0] = 0;
		fclose(f);
	}
	if (strstr(mode, "[never]") != NULL || mode[0] == 0)
		skip();		/* no THP in this kernel: nothing to ask */
	p = ssp_hugemem_alloc(8 * MiB);
	assert_non_null(p);
	assert_int_equal((uintptr_t)(p - 64) % (2 * MiB), 0);
	assert_int_equal(smaps(p, "THPeligible"), 1);
	p = ssp_hugemem_realloc(p, 40 * MiB);		/* still, after a move */
	assert_non_null(p);
	assert_int_equal(smaps(p + 39 * MiB, "THPeligible"), 1);
	ssp_hugemem_free(p);
}

/* Zeroing a block: all of it reads as zeros after, heap or mapping, and
 * the mapping's pages past the first huge page leave the process. */
static void
test_zero(void **state)
{
	size_t sizes[] = { 1000, 2 * MiB + 5, 9 * MiB }, i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *p = ssp_hugemem_alloc(sizes[i]);

		assert_non_null(p);
		memset(p, 0x5a, sizes[i]);
		if (sizes[i] > 8 * MiB)
			assert_true(smaps(p, "Rss") >= 8 * 1024);
		ssp_hugemem_zero(p, 0, sizes[i]);
		if (sizes[i] > 8 * MiB)	/* all but the first huge page */
			assert_true(smaps(p, "Rss") <= 2 * 1024);
		assert_true(all_zero(p, sizes[i]));
		memset(p, 0x33, sizes[i]);	/* usable again */
		assert_int_equal(p[sizes[i] - 1], 0x33);
		ssp_hugemem_free(p);
	}
}

/* Zeroing a part: only that part, and the whole huge pages inside it
 * leave the process while the bytes around them stay. */
static void
test_zero_range(void **state)
{
	struct { size_t size, off, n; } c[] = {
		{ 1000, 100, 300 },		/* heap */
		{ 9 * MiB, 5, 1000 },		/* less than a huge page */
		{ 9 * MiB, 1 * MiB, 7 * MiB },	/* three whole huge pages inside */
		{ 9 * MiB, 0, 9 * MiB },	/* all */
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned char *p = ssp_hugemem_alloc(c[i].size);
		long before, after;

		assert_non_null(p);
		memset(p, 0x5a, c[i].size);
		before = smaps(p, "Rss");
		ssp_hugemem_zero(p, c[i].off, c[i].n);
		after = smaps(p, "Rss");	/* before reading faults pages in */
		for (j = 0; j < c[i].size; j += 4093)
			assert_int_equal(p[j], j >= c[i].off &&
			    j < c[i].off + c[i].n ? 0 : 0x5a);
		assert_int_equal(p[c[i].off + c[i].n - 1], 0);
		if (c[i].off > 0)
			assert_int_equal(p[c[i].off - 1], 0x5a);
		if (c[i].off + c[i].n < c[i].size)
			assert_int_equal(p[c[i].off + c[i].n], 0x5a);
		if (c[i].n >= 7 * MiB)	/* 6 MiB given back */
			assert_true(after <= before - 4 * 1024);
		ssp_hugemem_free(p);
	}
}

/* A byte buffer given room on huge pages: aligned, its contents kept,
 * asked for huge pages, and an ordinary buffer after (growth, free). */
static void
test_buf_reserve_huge(void **state)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	struct ssp_buf b = SSP_BUF_INIT;
	unsigned char *big = malloc(9 * MiB);
	char mode[128] = "";

	(void)state;
	if (f != NULL) {
		if (fgets(mode, sizeof(mode), f) == NULL)
			mode[0] = 0;
		fclose(f);
	}
	assert_non_null(big);
	fill(big, 9 * MiB);
	ssp_buf_put(&b, big, 5000);
	assert_int_equal(ssp_buf_reserve_huge(&b, 3 * MiB), 0);
	assert_int_equal((uintptr_t)b.p % (2 * MiB), 0);
	assert_true(b.cap >= 3 * MiB);
	assert_int_equal(b.len, 5000);
	assert_true(filled(b.p, 5000));
	if (strstr(mode, "[never]") == NULL && mode[0] != 0)
		assert_int_equal(smaps(b.p + 3 * MiB - 1, "THPeligible"), 1);
	{
		uint8_t *p = b.p;

		/* enough room already: nothing moves */
		assert_int_equal(ssp_buf_reserve_huge(&b, MiB), 0);
		assert_ptr_equal(b.p, p);
	}
	ssp_buf_put(&b, big + 5000, 9 * MiB - 5000);	/* grows past it */
	assert_false(b.failed);
	assert_int_equal(b.len, 9 * MiB);
	assert_true(filled(b.p, 9 * MiB));
	ssp_buf_reset(&b);
	assert_int_equal(ssp_buf_reserve_huge(&b, (size_t)-1), -1);
	assert_true(b.failed);
	ssp_buf_free(&b);
	free(big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zeroed_and_aligned),
		cmocka_unit_test(test_realloc_keeps_contents),
		cmocka_unit_test(test_large_blocks_ask_for_huge_pages),
		cmocka_unit_test(test_zero),
		cmocka_unit_test(test_zero_range),
		cmocka_unit_test(test_buf_reserve_huge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
