#include <string.h>

#include "synth/synheap.h"

void
ssp_synheap_init(struct ssp_synheap *hp, uint64_t base)
{
	memset(hp, 0, sizeof(*hp));
	hp->top = base & ~0xfull;
}

uint64_t
ssp_synheap_alloc(struct ssp_synheap *hp, unsigned bin, unsigned chunk,
    unsigned gap)
{
	struct ssp_synheap_bin *b = &hp->bin[bin % SSP_SYNHEAP_NBIN];
	uint64_t p;

	if (b->ntc > 0)
		return b->tc[--b->ntc];
	if (b->nfb > 0) {
		p = b->fb[--b->nfb];
		while (b->ntc < SSP_SYNHEAP_TC && b->nfb > 0)
			b->tc[b->ntc++] = b->fb[--b->nfb];
		return p;
	}
	p = hp->top + 0x10;	/* the user pointer is past the chunk header */
	hp->top += (chunk + gap + 0xf) & ~0xfu;
	return p;
}

void
ssp_synheap_free(struct ssp_synheap *hp, unsigned bin, uint64_t p)
{
	struct ssp_synheap_bin *b = &hp->bin[bin % SSP_SYNHEAP_NBIN];

	if (b->ntc < SSP_SYNHEAP_TC)
		b->tc[b->ntc++] = p;
	else if (b->nfb < SSP_SYNHEAP_FB)
		b->fb[b->nfb++] = p;
}
