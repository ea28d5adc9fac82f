/*
 * Large arrays backed by transparent huge pages where the kernel offers
 * them (THP in "madvise" mode, Debian's default).  A sink that fills
 * tens of MiB of hash tables or sort keys at random pays a page fault per
 * 4 KiB and a TLB miss per access otherwise: span2sqlite spent about a
 * quarter of its CPU time there.
 *
 * Blocks of HUGEMEM_MIN bytes or more are their own 2 MiB-aligned
 * anonymous mappings with MADV_HUGEPAGE; smaller ones come from malloc.
 * Either way the caller frees with ssp_hugemem_free, never free(3).
 */
#ifndef SSP_HUGEMEM_H
#define SSP_HUGEMEM_H

#include <stddef.h>

#define SSP_HUGEMEM_MIN	((size_t)1 << 20)

/* n zeroed bytes, 64-byte aligned; NULL when out of memory. */
void *ssp_hugemem_alloc(size_t n);
/* Resize to n bytes, keeping the contents; a mapping is moved by its page
 * tables, not copied.  Bytes past the old size are unspecified.  NULL
 * (and p left as it was) when out of memory; p NULL allocates. */
void *ssp_hugemem_realloc(void *p, size_t n);
void ssp_hugemem_free(void *p);
/* Zero bytes [off, off + n) of block p.  A mapping's whole huge pages
 * in the range are given back to the kernel instead (they read as zeros,
 * and cost nothing until touched again), so emptying a large table that
 * was only touched in part does not write all of it. */
void ssp_hugemem_zero(void *p, size_t off, size_t n);

/* n bytes of malloc(3)'s memory (free and realloc work on it) that start
 * on a huge page, with MADV_HUGEPAGE: for a buffer that grows as usual
 * (base/buf) but is first given room for MiBs.  NULL when out of memory. */
void *ssp_hugemem_malloc(size_t n);

#endif
