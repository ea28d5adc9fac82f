/*
 * SHA-256 (FIPS 180-4), for span2html's Content-Security-Policy: the
 * page allows its inline script and style by their hashes, which are
 * computed when the page is written.  One shot over a buffer; not for
 * secrets (no constant-time care is needed for public text).
 */
#ifndef SSP_SHA256_H
#define SSP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SSP_SHA256_LEN	32

/* The digest of the n bytes at p into out. */
void ssp_sha256(const void *p, size_t n, uint8_t out[SSP_SHA256_LEN]);

#endif
