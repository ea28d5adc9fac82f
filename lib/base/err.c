#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/err.h"

int
ssp_err_set(struct ssp_err *e, int code, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return code;
	e->code = code;
	e->offset = offset;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return code;
}

const char *
ssp_err_str(int code)
{
	switch (code) {
	case SSP_OK:		return "success";
	case SSP_ERR_IO:	return "i/o error";
	case SSP_ERR_NOMEM:	return "out of memory";
	case SSP_ERR_FORMAT:	return "bad format";
	case SSP_ERR_TRUNCATED:	return "truncated input";
	case SSP_ERR_CHECKSUM:	return "checksum mismatch";
	case SSP_ERR_VERSION:	return "unsupported version";
	case SSP_ERR_LIMIT:	return "limit exceeded";
	case SSP_ERR_INVAL:	return "invalid value";
	case SSP_ERR_SCHEMA:	return "schema mismatch";
	}
	return "unknown error";
}

/* The one place the library writes to stderr: a caller broke a
 * precondition, and the process cannot go on. */
void
ssp_err_assert_fail(const char *cond, const char *file, unsigned line,
    const char *func)
{
	fprintf(stderr, "simspan: precondition failed: %s (%s:%u, %s)\n",
	    cond, file, line, func);
	abort();
}
