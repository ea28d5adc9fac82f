/*
 * JSON text for encoders: string escaping (with invalid UTF-8 replaced by
 * U+FFFD, since JSON and protobuf strings must be UTF-8), fast decimal
 * numbers, and a small reader that finds one member of a JSON document by
 * its key path (enough to read collector responses; no DOM).
 */
#ifndef SSP_JSON_H
#define SSP_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

/* Length of the longest valid UTF-8 prefix of s[0..n). */
size_t ssp_strfmt_utf8_valid(const char *s, size_t n);
/* Append s with every invalid UTF-8 sequence replaced by U+FFFD. */
void ssp_strfmt_utf8_repair(struct ssp_buf *b, const char *s, size_t n);

/* Append s as a quoted JSON string. */
void ssp_strfmt_json_str(struct ssp_buf *b, const char *s, size_t n);
/* The same with flags, for text a person reads (evcat and spancat -j):
 * CTL_U writes every control character but \n \r \t, DEL too, as \u00XX;
 * BAD_ESC writes an invalid UTF-8 byte as the escape \ufffd, not as the
 * character U+FFFD. */
#define SSP_STRFMT_CTL_U	1u
#define SSP_STRFMT_BAD_ESC	2u
void ssp_strfmt_json_str_flags(struct ssp_buf *b, const char *s, size_t n,
    unsigned flags);
/* Decimal digits of v into out (at least 20 bytes); returns the count. */
size_t ssp_strfmt_u64(char *out, uint64_t v);
size_t ssp_strfmt_i64(char *out, int64_t v);

static inline void
ssp_strfmt_json_u64(struct ssp_buf *b, uint64_t v)
{
	if (ssp_buf_reserve(b, 20) == 0)
		b->len += ssp_strfmt_u64((char *)b->p + b->len, v);
}

static inline void
ssp_strfmt_json_i64(struct ssp_buf *b, int64_t v)
{
	if (ssp_buf_reserve(b, 20) == 0)
		b->len += ssp_strfmt_i64((char *)b->p + b->len, v);
}

/*
 * Find the value at a key path (path[0] a member of the top-level object,
 * path[1] a member of that, ...).  Returns 1 with val and vlen spanning the
 * raw value text (strings include their quotes), 0 if absent, -1 if the
 * text is not well-formed JSON up to that point.
 */
SSP_MUST_USE int ssp_strfmt_json_find(const char *s, size_t n,
    const char *const *path, size_t depth, const char **val, size_t *vlen);
/* Decode a raw JSON string value (with quotes) into out, NUL-terminated and
 * cut to outsz; returns -1 if it is not a string. */
SSP_MUST_USE int ssp_strfmt_json_unquote(const char *val, size_t vlen,
    char *out, size_t outsz);
/* A raw value that is an integer or a string holding one (int64 in OTLP
 * JSON may be either); -1 if neither. */
SSP_MUST_USE int ssp_strfmt_json_int(const char *val, size_t vlen,
    int64_t *out);

#endif
