/*
 * Attribute values as SQL text and JSON (formats/sqlite.md §4): the JSON
 * objects of events.attrs and spans.extra, IPv4 and MAC addresses as
 * text, and the small JSON writer the latency split's columns use too.
 */
#ifndef SSP_ATTRJSON_H
#define SSP_ATTRJSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stream/rec.h"

/* A writer into p[0..n): len counts every byte asked for, also those
 * that did not fit (then the text is cut; len says how much it needs). */
struct ssp_attrjson {
	char *p;
	size_t n, len;
};

static inline void
ssp_attrjson_put(struct ssp_attrjson *w, const char *s, size_t k)
{
	if (w->len < w->n)
		memcpy(w->p + w->len, s, k < w->n - w->len ? k : w->n - w->len);
	w->len += k;
}

static inline void
ssp_attrjson_ch(struct ssp_attrjson *w, char c)
{
	if (w->len < w->n)
		w->p[w->len] = c;
	w->len++;
}

/* A 64-bit integer, two's complement (as SQLite stores it). */
void ssp_attrjson_i64(struct ssp_attrjson *w, int64_t v);
/* A JSON string: invalid UTF-8 replaced, controls but \n \r \t as \u00XX. */
void ssp_attrjson_str(struct ssp_attrjson *w, const char *s, size_t k);
/* An IPv4 address "a.b.c.d" and a MAC address "aa:bb:cc:dd:ee:ff"
 * (unquoted: the text of an attribute column). */
void ssp_attrjson_ip(struct ssp_attrjson *w, uint64_t v);
void ssp_attrjson_mac(struct ssp_attrjson *w, uint64_t v);

/* A 128-bit trace id as OTLP writes it: 32 lowercase hex digits, NUL. */
void ssp_attrjson_hex128(char out[33], uint64_t hi, uint64_t lo);

/* Is field value v absent (NULL in SQL, left out of JSON)? */
static inline int
ssp_attrjson_absent(char enc, uint64_t v)
{
	return (enc == SSP_ENC_I && (int64_t)v == -1) ||
	    (enc == SSP_ENC_S && v == 0);
}

/* The mask of fields [first, nf) (of the first 32). */
static inline uint32_t
ssp_attrjson_from(unsigned first, unsigned nf)
{
	uint32_t m = 0;

	for (; first < nf && first < 32; first++)
		m |= 1u << first;
	return m;
}

/*
 * The fields in mask of r (of type t) as a JSON object, into buf
 * (NUL-terminated when n > 0).  Returns the length it needs, like
 * snprintf.  rr resolves string ids (NULL: strings are left out).
 */
size_t ssp_attrjson_fields(char *buf, size_t n, const struct ssp_rec_type *t,
    uint32_t mask, const struct ssp_rec *r, const struct ssp_rec_rd *rr);
/* The same for the fields [first, t->nf). */
size_t ssp_attrjson_object(char *buf, size_t n, const struct ssp_rec_type *t,
    unsigned first, const struct ssp_rec *r, const struct ssp_rec_rd *rr);

#endif
