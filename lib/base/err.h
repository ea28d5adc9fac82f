/*
 * Status codes and the error record the library fills instead of printing.
 *
 * Public functions return an enum ssp_status (SSP_OK or a positive
 * SSP_ERR_*), or, where they deliver the next item or some bytes, a count
 * (records, blocks, bytes; 0 = the end, or a documented kind of item) and
 * on an error the negated status (-SSP_ERR_*): "if (n < 0) return -n;".
 * The error record, when given, is filled either way.
 */
#ifndef SSP_ERR_H
#define SSP_ERR_H

#include <stdint.h>

enum ssp_status {
	SSP_OK = 0,
	SSP_ERR_IO,		/* read/write/open failed; errno in msg */
	SSP_ERR_NOMEM,
	SSP_ERR_FORMAT,		/* input is not what it claims to be */
	SSP_ERR_TRUNCATED,	/* input ends early */
	SSP_ERR_CHECKSUM,	/* block checksum mismatch */
	SSP_ERR_VERSION,	/* unsupported format version */
	SSP_ERR_LIMIT,		/* a documented size limit was exceeded */
	SSP_ERR_INVAL,		/* bad value in a user-supplied file or option */
	SSP_ERR_SCHEMA,		/* stream schema does not match what is expected */
};

/*
 * Where and why a data error happened.  offset/line are 0 when unknown;
 * offset counts bytes of the (decompressed) stream, line counts from 1.
 */
struct ssp_err {
	int code;
	uint64_t offset;
	uint64_t line;
	char msg[256];
};

/*
 * A function whose status must not be dropped: callers pass it on (or
 * handle it), never rebuild one from the error record.
 */
#define SSP_MUST_USE __attribute__((warn_unused_result))

/*
 * Preconditions of public entry points: a broken one is the caller's bug,
 * not bad data (babeltrace's "narrow contract").  Checked in debug,
 * sanitizer and fuzz builds (make ASSERTS=1, on with SANITIZE=1), compiled
 * out otherwise; a failure names the condition and aborts.
 */
#if defined(SSP_ASSERTS) && SSP_ASSERTS
#define SSP_ASSERT(c) ((c) ? (void)0 : \
	ssp_err_assert_fail(#c, __FILE__, __LINE__, __func__))
#else
#define SSP_ASSERT(c) ((void)0)
#endif
void ssp_err_assert_fail(const char *cond, const char *file, unsigned line,
    const char *func) __attribute__((noreturn, cold));

/* Fill e (may be NULL) and return code. */
int ssp_err_set(struct ssp_err *e, int code, uint64_t offset,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *ssp_err_str(int code);

#endif
