/*
 * The addresses glibc's malloc hands out for small objects, as the logs
 * show them: nicbm prints its DMA objects' addresses (`dma op %p`), gem5
 * prints its PciPioCompl addresses (`id %lu`).  Each object is `new`ed
 * per operation and deleted when it completes, so a freed address comes
 * back at the next allocation of its size class: glibc 2.26+ keeps up to
 * 7 freed chunks per size in the thread's tcache, further ones in the
 * fastbin of that size, both LIFO, and when the tcache is empty an
 * allocation takes the fastbin's head and moves the rest of the fastbin
 * (up to 7) into the tcache, which reverses their order (malloc.c:
 * tcache_put, tcache_get, _int_malloc's "While bin not empty and tcache
 * not full, copy chunks over").  A chunk that was never freed comes from
 * the top of the heap, at increasing addresses.  Internal to synth/.
 */
#ifndef SSP_SYNHEAP_H
#define SSP_SYNHEAP_H

#include <stdint.h>

#define SSP_SYNHEAP_NBIN  4	/* size classes tracked */
#define SSP_SYNHEAP_TC    7	/* tcache_count */
#define SSP_SYNHEAP_FB    256	/* fastbin entries kept (beyond: leaked) */

struct ssp_synheap_bin {
	uint64_t tc[SSP_SYNHEAP_TC];	/* tcache, [ntc - 1] the head */
	unsigned ntc;
	uint64_t fb[SSP_SYNHEAP_FB];	/* fastbin, [nfb - 1] the head */
	unsigned nfb;
};

struct ssp_synheap {
	uint64_t top;		/* next fresh chunk */
	struct ssp_synheap_bin bin[SSP_SYNHEAP_NBIN];
};

void ssp_synheap_init(struct ssp_synheap *hp, uint64_t base);
/* An object of size class bin whose chunk is chunk bytes; a fresh one
 * leaves gap more bytes (other allocations) before the next. */
uint64_t ssp_synheap_alloc(struct ssp_synheap *hp, unsigned bin,
    unsigned chunk, unsigned gap);
void ssp_synheap_free(struct ssp_synheap *hp, unsigned bin, uint64_t p);

#endif
