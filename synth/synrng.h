/*
 * Deterministic pseudo-random numbers for simsynth: xoshiro256** seeded
 * through splitmix64, so one 64-bit seed gives the same scenario on every
 * machine.  Independent streams (scenario, noise) come from distinct
 * seeds, so padding a log never changes the timeline.
 */
#ifndef SSP_SYNRNG_H
#define SSP_SYNRNG_H

#include <stdint.h>

struct ssp_synrng {
	uint64_t s[4];
};

void ssp_synrng_seed(struct ssp_synrng *r, uint64_t seed, uint64_t stream);
uint64_t ssp_synrng_next(struct ssp_synrng *r);
/* Uniform in [0, n); n > 0. */
uint64_t ssp_synrng_below(struct ssp_synrng *r, uint64_t n);
/* Uniform in [lo, hi]. */
int64_t ssp_synrng_range(struct ssp_synrng *r, int64_t lo, int64_t hi);
/* Uniform in [0, 1). */
double ssp_synrng_unit(struct ssp_synrng *r);
/* True with probability p. */
int ssp_synrng_chance(struct ssp_synrng *r, double p);
/* Exponentially distributed with the given mean (>= 1), rounded. */
int64_t ssp_synrng_exp(struct ssp_synrng *r, double mean);

#endif
