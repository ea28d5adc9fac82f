/*
 * Protocol buffers wire format, the small part OTLP needs: varint, fixed64
 * and length-delimited fields written into an ssp_buf, nested messages with
 * a backpatched length, and a reader that walks the fields of a message
 * (for collector responses).  Hand-written instead of protobuf-c: that
 * would need the .proto files and protoc-c at build time for the handful
 * of messages span2otlp writes, and its generic encoder would first copy
 * every span into generated structs.
 */
#ifndef SSP_PB_H
#define SSP_PB_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/varint.h"

enum ssp_pb_wire {
	SSP_PB_VARINT = 0,
	SSP_PB_I64 = 1,
	SSP_PB_LEN = 2,
	SSP_PB_I32 = 5,
};

static inline size_t
ssp_pb_varint_size(uint64_t v)
{
	return ssp_varint_len(v);
}

/* Size of a whole length-delimited field with an n-byte payload. */
static inline size_t
ssp_pb_len_field_size(uint32_t field, size_t n)
{
	return ssp_pb_varint_size((uint64_t)field << 3) + ssp_pb_varint_size(n) + n;
}

static inline void
ssp_pb_varint(struct ssp_buf *b, uint64_t v)
{
	if (ssp_buf_reserve(b, SSP_VARINT_MAX) == 0)
		b->len += ssp_varint_put(b->p + b->len, v);
}

static inline void
ssp_pb_tag(struct ssp_buf *b, uint32_t field, enum ssp_pb_wire wt)
{
	ssp_pb_varint(b, (uint64_t)field << 3 | (uint64_t)wt);
}

/* uint32/uint64/int64/enum/bool fields: a varint (negative int64 takes
 * ten bytes, as the encoding of int64 demands). */
static inline void
ssp_pb_uint(struct ssp_buf *b, uint32_t field, uint64_t v)
{
	ssp_pb_tag(b, field, SSP_PB_VARINT);
	ssp_pb_varint(b, v);
}

void ssp_pb_fixed64(struct ssp_buf *b, uint32_t field, uint64_t v);
void ssp_pb_fixed32(struct ssp_buf *b, uint32_t field, uint32_t v);
/* bytes and string fields */
void ssp_pb_bytes(struct ssp_buf *b, uint32_t field, const void *p, size_t n);

/*
 * A nested message: ssp_pb_begin writes the tag and leaves `hint` bytes for
 * the length; ssp_pb_end writes the length and moves the body when the
 * length needs a different number of bytes than guessed.  A good hint
 * (1 for small messages, 2 for spans, 4 for a request's resources) makes
 * the move rare.  The result is the canonical minimal encoding.
 */
struct ssp_pb_mark {
	size_t body;		/* offset where the body starts */
	unsigned hint;
};
struct ssp_pb_mark ssp_pb_begin(struct ssp_buf *b, uint32_t field,
    unsigned hint);
void ssp_pb_end(struct ssp_buf *b, struct ssp_pb_mark m);

/* --- reader -------------------------------------------------------------- */

struct ssp_pb_field {
	uint32_t num;
	enum ssp_pb_wire wt;
	uint64_t v;		/* VARINT, I64, I32 */
	const uint8_t *p;	/* LEN: the payload */
	size_t n;
};

struct ssp_pb_rd {
	const uint8_t *p, *end;
};

/* 1: next field in *f, 0: end of message, -1: malformed (bad wire type,
 * field number 0, truncated). */
SSP_MUST_USE int ssp_pb_next(struct ssp_pb_rd *r, struct ssp_pb_field *f);

#endif
