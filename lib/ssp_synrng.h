/*
 * Deterministic pseudo-random numbers for simsynth: xoshiro256** seeded
 * through splitmix64, so one 64-bit seed gives the same scenario on every
 * machine.  Independent streams (scenario, noise) come from distinct
 * seeds, so padding a log never changes the timeline.
 */
#ifndef SSP_SYNRNG_H
#define SSP_SYNRNG_H

#include <stdint.h>

struct ssp_rng {
	uint64_t s[4];
};

void ssp_rng_seed(struct ssp_rng *r, uint64_t seed, uint64_t stream);
uint64_t ssp_rng_next(struct ssp_rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t ssp_rng_below(struct ssp_rng *r, uint64_t n);
/* Uniform in [lo, hi]. */
int64_t ssp_rng_range(struct ssp_rng *r, int64_t lo, int64_t hi);
/* Uniform in [0, 1). */
double ssp_rng_unit(struct ssp_rng *r);
/* True with probability p. */
int ssp_rng_chance(struct ssp_rng *r, double p);
/* Exponentially distributed with the given mean (>= 1), rounded. */
int64_t ssp_rng_exp(struct ssp_rng *r, double mean);

#endif
