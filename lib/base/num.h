/*
 * Strict parsing of numbers, times and sizes from text (command lines,
 * filter specs, rule tables): the whole string must be the number, and a
 * failure says why.
 */
#ifndef SSP_NUM_H
#define SSP_NUM_H

#include <stdint.h>

#include "base/err.h"

/* Parse a whole decimal (or 0x hex with base 0) number in [min, max].
 * Returns 0, or -1 with *errstr set to "invalid", "too small", "too large". */
SSP_MUST_USE int ssp_num_strtonum(const char *s, int64_t min, int64_t max,
    int64_t *out, const char **errstr);
SSP_MUST_USE int ssp_num_strtou64(const char *s, uint64_t *out,
    const char **errstr);
/* A time with optional unit: ps (default), ns, us, ms, s. */
SSP_MUST_USE int ssp_num_parse_time(const char *s, int64_t *ps,
    const char **errstr);
/* A wall-clock duration for timeouts: seconds, or a number with the unit
 * ms, s or min ("30", "0.2", "500ms", "1.5s", "2min"), into milliseconds
 * (a whole number of them, at most a week).  Returns 0, or -1 with
 * *errstr set. */
SSP_MUST_USE int ssp_num_parse_ms(const char *s, uint64_t *ms,
    const char **errstr);
/* A size in bytes: a whole number, or with the unit k/K/KiB, M/MiB or
 * G/GiB (powers of 1024): "4194304", "4M", "512KiB".  0 or -1. */
SSP_MUST_USE int ssp_num_parse_bytes(const char *s, uint64_t *n,
    const char **errstr);

#endif
