/*
 * Hand-made record streams for the unit tests of the sinks: the test opens
 * a writer into `w` (ssp_span_writer_open ...), then put() writes records
 * field by field and str() interns a string.  Header-only, one writer per
 * test program; include after cmocka.h.
 */
#ifndef SSP_TEST_REC_HELPERS_H
#define SSP_TEST_REC_HELPERS_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "stream/rec.h"

static struct ssp_rec_wr *w;
static struct ssp_err e;

#define U(x) ((uint64_t)(x))

static inline uint64_t
str(const char *s)
{
	uint64_t id = ssp_rec_wr_str(w, s, strlen(s), &e);

	assert_true(id != 0);
	return id;
}

/* A record of type at ts with its first n fields (uint64_t each). */
static inline void
put(unsigned type, int64_t ts, int n, ...)
{
	struct ssp_rec r;
	va_list ap;
	int i;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.ts = ts;
	va_start(ap, n);
	for (i = 0; i < n; i++)
		r.f[i] = va_arg(ap, uint64_t);
	va_end(ap);
	assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
}

#endif
