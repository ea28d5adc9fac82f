#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/hugemem.h"

#define HUGE_PAGE	((size_t)2 << 20)
#define HDR		64	/* keeps the caller's block 64-byte aligned */

enum { HEAP = 0x68656170, MAP = 0x6d617070 };

/* In front of every block: where it comes from and how large it is. */
struct hdr {
	uint32_t kind;
	size_t len;		/* bytes from the header on */
	size_t n;		/* the caller's bytes */
	void *base;		/* HEAP: what calloc(3) gave */
};

static struct hdr *
hdr_of(void *p)
{
	return (struct hdr *)((char *)p - HDR);
}

static size_t
round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/*
 * A fresh mapping of len bytes (a multiple of HUGE_PAGE) that starts on a
 * huge page boundary: map len + one huge page more and unmap the unaligned
 * head and tail.
 */
static void *
map_aligned(size_t len)
{
	size_t extra = HUGE_PAGE, head;
	char *m;

	m = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	head = (HUGE_PAGE - (uintptr_t)m % HUGE_PAGE) % HUGE_PAGE;
	if (head > 0)
		munmap(m, head);
	if (extra - head > 0)
		munmap(m + head + len, extra - head);
	m += head;
	/* A hint: without THP the pages are just small ones. */
	(void)madvise(m, len, MADV_HUGEPAGE);
	return m;
}

void *
ssp_hugemem_alloc(size_t n)
{
	struct hdr *h;

	if (n > SIZE_MAX - HUGE_PAGE * 2)
		return NULL;
	if (n + HDR < SSP_HUGEMEM_MIN) {
		/* calloc, aligned here: the pages of a large block come fresh
		 * from the kernel (mmap), zero without being written, and only
		 * those touched cost a fault (a small load's id caches) */
		char *b = calloc(1, n + 2 * HDR);

		if (b == NULL)
			return NULL;
		h = (struct hdr *)(b + (HDR - (uintptr_t)b % HDR) % HDR);
		h->base = b;
		h->kind = HEAP;
		h->len = n + HDR;
		h->n = n;
	} else {
		size_t len = round_up(n + HDR, HUGE_PAGE);

		if ((h = map_aligned(len)) == NULL)
			return NULL;
		h->kind = MAP;
		h->len = len;
		h->n = n;
	}
	return (char *)h + HDR;
}

void *
ssp_hugemem_realloc(void *p, size_t n)
{
	struct hdr *h, *nh;
	size_t len;
	char *m;

	if (p == NULL)
		return ssp_hugemem_alloc(n);
	if (n > SIZE_MAX - HUGE_PAGE * 2)
		return NULL;
	h = hdr_of(p);
	if (h->kind == HEAP) {	/* realloc(3) would not keep the alignment */
		size_t old = h->len - HDR;

		if ((m = ssp_hugemem_alloc(n)) == NULL)
			return NULL;
		memcpy(m, p, old < n ? old : n);
		free(h->base);
		return m;
	}
	len = round_up(n + HDR, HUGE_PAGE);
	if (len <= h->len) {
		h->n = n;
		return p;	/* shrinking keeps the mapping */
	}
	/* In place when the addresses after it are free, else the pages
	 * move (page tables only) into a new aligned range. */
	m = mremap(h, h->len, len, 0);
	if (m == MAP_FAILED) {
		if ((m = map_aligned(len)) == NULL)
			return NULL;
		if (mremap(h, h->len, h->len, MREMAP_MAYMOVE | MREMAP_FIXED,
		    m) == MAP_FAILED) {
			munmap(m, len);
			return NULL;
		}
	}
	(void)madvise(m, len, MADV_HUGEPAGE);
	nh = (struct hdr *)m;
	nh->len = len;
	nh->n = n;
	return m + HDR;
}

void
ssp_hugemem_free(void *p)
{
	struct hdr *h;

	if (p == NULL)
		return;
	h = hdr_of(p);
	if (h->kind == HEAP)
		free(h->base);
	else
		munmap(h, h->len);
}

void
ssp_hugemem_zero(void *p, size_t off, size_t n)
{
	struct hdr *h = hdr_of(p);
	char *c = (char *)p + off, *end = c + n, *lo, *hi;

	if (h->kind == HEAP || n < HUGE_PAGE) {
		memset(c, 0, n);
		return;
	}
	/* The whole huge pages inside go back, up to the mapping's end when
	 * the range reaches the block's (nothing after is the caller's); the
	 * huge page holding the header stays (c lies past it). */
	lo = (char *)h + round_up((size_t)(c - (char *)h), HUGE_PAGE);
	hi = off + n == h->n ? (char *)h + h->len :
	    (char *)h + (size_t)(end - (char *)h) / HUGE_PAGE * HUGE_PAGE;
	if (hi <= lo || madvise(lo, (size_t)(hi - lo), MADV_DONTNEED) != 0) {
		memset(c, 0, n);
		return;
	}
	memset(c, 0, (size_t)(lo - c));
	if (hi < end)
		memset(hi, 0, (size_t)(end - hi));
}

void *
ssp_hugemem_malloc(size_t n)
{
	void *p;

	if (n > SIZE_MAX - HUGE_PAGE)
		return NULL;
	n = round_up(n, HUGE_PAGE);
	if (posix_memalign(&p, HUGE_PAGE, n) != 0)
		return NULL;
	(void)madvise(p, n, MADV_HUGEPAGE);	/* a hint, as in map_aligned */
	return p;
}
