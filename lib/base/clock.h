/*
 * The monotonic clock, for rates, timeouts and pacing (never for
 * timestamps in the data).
 */
#ifndef SSP_CLOCK_H
#define SSP_CLOCK_H

#include <stdint.h>

/* Nanoseconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
uint64_t ssp_clock_ns(void);

#endif
