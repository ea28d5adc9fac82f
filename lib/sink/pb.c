#include <string.h>

#include "sink/pb.h"

void
ssp_pb_fixed64(struct ssp_buf *b, uint32_t field, uint64_t v)
{
	unsigned i;

	ssp_pb_tag(b, field, SSP_PB_I64);
	if (ssp_buf_reserve(b, 8) != 0)
		return;
	for (i = 0; i < 8; i++)		/* little-endian on the wire */
		b->p[b->len++] = (uint8_t)(v >> (8 * i));
}

void
ssp_pb_fixed32(struct ssp_buf *b, uint32_t field, uint32_t v)
{
	unsigned i;

	ssp_pb_tag(b, field, SSP_PB_I32);
	if (ssp_buf_reserve(b, 4) != 0)
		return;
	for (i = 0; i < 4; i++)
		b->p[b->len++] = (uint8_t)(v >> (8 * i));
}

void
ssp_pb_bytes(struct ssp_buf *b, uint32_t field, const void *p, size_t n)
{
	ssp_pb_tag(b, field, SSP_PB_LEN);
	ssp_pb_varint(b, n);
	ssp_buf_put(b, p, n);
}

struct ssp_pb_mark
ssp_pb_begin(struct ssp_buf *b, uint32_t field, unsigned hint)
{
	struct ssp_pb_mark m;

	if (hint < 1)
		hint = 1;
	if (hint > SSP_VARINT_MAX)
		hint = SSP_VARINT_MAX;
	ssp_pb_tag(b, field, SSP_PB_LEN);
	if (ssp_buf_reserve(b, hint) == 0)
		b->len += hint;
	m.body = b->len;
	m.hint = hint;
	return m;
}

void
ssp_pb_end(struct ssp_buf *b, struct ssp_pb_mark m)
{
	size_t n, need;
	uint8_t *lenp;

	if (b->failed)
		return;
	SSP_ASSERT(m.body <= b->len);	/* a mark of this buffer */
	n = b->len - m.body;
	need = ssp_pb_varint_size(n);
	if (need > m.hint) {
		if (ssp_buf_reserve(b, need - m.hint) != 0)
			return;
		memmove(b->p + m.body + (need - m.hint), b->p + m.body, n);
	} else if (need < m.hint) {
		memmove(b->p + m.body - (m.hint - need), b->p + m.body, n);
	}
	lenp = b->p + m.body - m.hint;
	ssp_varint_put(lenp, n);
	b->len = (size_t)(lenp - b->p) + need + n;
}

int
ssp_pb_next(struct ssp_pb_rd *r, struct ssp_pb_field *f)
{
	uint64_t tag, v;

	if (r->p >= r->end)
		return 0;
	if (ssp_varint_get(&r->p, r->end, &tag) != 0 || (tag >> 3) == 0 ||
	    (tag >> 3) > 0x1fffffff)
		return -1;
	f->num = (uint32_t)(tag >> 3);
	f->wt = (enum ssp_pb_wire)(tag & 7);
	f->p = NULL;
	f->n = 0;
	f->v = 0;
	switch (f->wt) {
	case SSP_PB_VARINT:
		return ssp_varint_get(&r->p, r->end, &f->v) == 0 ? 1 : -1;
	case SSP_PB_I64:
	case SSP_PB_I32: {
		size_t k, w = f->wt == SSP_PB_I64 ? 8 : 4;

		if ((size_t)(r->end - r->p) < w)
			return -1;
		for (k = 0; k < w; k++)
			f->v |= (uint64_t)r->p[k] << (8 * k);
		r->p += w;
		return 1;
	}
	case SSP_PB_LEN:
		if (ssp_varint_get(&r->p, r->end, &v) != 0 ||
		    v > (uint64_t)(r->end - r->p))
			return -1;
		f->p = r->p;
		f->n = (size_t)v;
		r->p += v;
		return 1;
	default:		/* groups (3, 4) are not used by proto3 */
		return -1;
	}
}
