#include <math.h>

#include "synth/synrng.h"

static uint64_t
splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void
ssp_synrng_seed(struct ssp_synrng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ull);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix(&x);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
ssp_synrng_next(struct ssp_synrng *r)
{
	uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

uint64_t
ssp_synrng_below(struct ssp_synrng *r, uint64_t n)
{
	/* Lemire's multiply-shift with rejection: unbiased, no division. */
	unsigned __int128 m = (unsigned __int128)ssp_synrng_next(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t t = -n % n;

		while (lo < t) {
			m = (unsigned __int128)ssp_synrng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

int64_t
ssp_synrng_range(struct ssp_synrng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)ssp_synrng_below(r, (uint64_t)(hi - lo) + 1);
}

double
ssp_synrng_unit(struct ssp_synrng *r)
{
	return (double)(ssp_synrng_next(r) >> 11) * 0x1.0p-53;
}

int
ssp_synrng_chance(struct ssp_synrng *r, double p)
{
	return ssp_synrng_unit(r) < p;
}

int64_t
ssp_synrng_exp(struct ssp_synrng *r, double mean)
{
	double v = -mean * log1p(-ssp_synrng_unit(r));

	return v < 1 ? 1 : (int64_t)v;
}
