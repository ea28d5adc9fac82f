#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/crc32.h"
#include "stream/frame.h"

const uint8_t ssp_frame_magic_events[SSP_MAGIC_LEN] =
    { 0x89, 'S', 'S', 'E', 'V', '\r', '\n', 0x1a };
const uint8_t ssp_frame_magic_spans[SSP_MAGIC_LEN] =
    { 0x89, 'S', 'S', 'S', 'P', '\r', '\n', 0x1a };

struct ssp_frame_rd {
	struct ssp_in *in;
	const uint8_t *magic;
	uint8_t *buf;
	size_t cap;
	uint64_t off;		/* stream offset of the next byte */
	int after_end;		/* last block was an end block */
	int new_segment;
};

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static int
check_magic(struct ssp_frame_rd *f, const uint8_t *m, size_t got, struct ssp_err *e)
{
	const char *name = ssp_in_name(f->in);

	if (got == SSP_MAGIC_LEN && memcmp(m, f->magic, SSP_MAGIC_LEN) == 0)
		return SSP_OK;
	if (got == SSP_MAGIC_LEN) {
		if (memcmp(m, ssp_frame_magic_events, SSP_MAGIC_LEN) == 0)
			return ssp_err_set(e, SSP_ERR_FORMAT, f->off, "%s: offset "
			    "%llu: this is an event stream, not a span stream",
			    name, (unsigned long long)f->off);
		if (memcmp(m, ssp_frame_magic_spans, SSP_MAGIC_LEN) == 0)
			return ssp_err_set(e, SSP_ERR_FORMAT, f->off, "%s: offset "
			    "%llu: this is a span stream, not an event stream",
			    name, (unsigned long long)f->off);
		/* span2sqlite's output given back: "SQLite format 3\0" */
		if (memcmp(m, "SQLite f", SSP_MAGIC_LEN) == 0)
			return ssp_err_set(e, SSP_ERR_FORMAT, f->off, "%s: offset "
			    "%llu: this is an SQLite database, not a simspan %s "
			    "stream (try sqlite3 %s)", name,
			    (unsigned long long)f->off,
			    f->magic == ssp_frame_magic_spans ? "span" : "event",
			    name);
	}
	if (got == 0 && f->off == 0)
		return ssp_err_set(e, SSP_ERR_TRUNCATED, 0, "%s: empty input",
		    name);
	if (got < SSP_MAGIC_LEN && memcmp(m, f->magic, got) == 0)
		return ssp_err_set(e, SSP_ERR_TRUNCATED, f->off, "%s: offset %llu: "
		    "truncated magic", name, (unsigned long long)f->off);
	{
		size_t i;
		int text = got > 0;

		for (i = 0; i < got; i++)	/* say so when it is a text file */
			if ((m[i] < ' ' || m[i] > '~') && m[i] != '\n' &&
			    m[i] != '\t' && m[i] != '\r')
				text = 0;
		return ssp_err_set(e, SSP_ERR_FORMAT, f->off, "%s: offset %llu: "
		    "bad magic: not a simspan %s stream%s", name,
		    (unsigned long long)f->off,
		    f->magic == ssp_frame_magic_spans ? "span" : "event",
		    !text ? "" : f->magic == ssp_frame_magic_spans ? " (it is text)" :
		    " (it is text: convert logs with sim2ev)");
	}
}

enum ssp_status
ssp_frame_rd_open(struct ssp_frame_rd **fp, struct ssp_in *in, const uint8_t *magic,
    struct ssp_err *e)
{
	struct ssp_frame_rd *f;
	uint8_t m[SSP_MAGIC_LEN];
	ssize_t got;
	int r = SSP_OK;

	*fp = NULL;
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	f->in = in;
	f->magic = magic;
	got = ssp_in_read_full(in, m, sizeof(m), e);
	if (got < 0 || (r = check_magic(f, m, (size_t)got, e)) != SSP_OK) {
		free(f);
		return got < 0 ? (int)-got : r;
	}
	f->off = SSP_MAGIC_LEN;
	f->new_segment = 1;
	*fp = f;
	return SSP_OK;
}

int
ssp_frame_rd_next(struct ssp_frame_rd *f, struct ssp_block *b, struct ssp_err *e)
{
	const char *name = ssp_in_name(f->in);
	uint8_t h[SSP_BLOCK_HDR];
	uint32_t len, crc;
	ssize_t got;
	int r;

	for (;;) {
		got = ssp_in_read_full(f->in, h, sizeof(h), e);
		if (got < 0)
			return (int)got;
		if (got == 0 && f->after_end)
			return 0;
		if (f->after_end) {
			/* Anything after an end block must be another stream. */
			uint8_t m[SSP_MAGIC_LEN];
			size_t have = (size_t)got < sizeof(m) ? (size_t)got : sizeof(m);

			memcpy(m, h, have);
			if ((r = check_magic(f, m, have, e)) != SSP_OK)
				return -r;
			f->off += SSP_MAGIC_LEN;
			memmove(h, h + SSP_MAGIC_LEN, sizeof(h) - SSP_MAGIC_LEN);
			got = ssp_in_read_full(f->in, h + sizeof(h) - SSP_MAGIC_LEN,
			    SSP_MAGIC_LEN, e);
			if (got < 0)
				return (int)got;
			got += sizeof(h) - SSP_MAGIC_LEN;
			f->after_end = 0;
			f->new_segment = 1;
		}
		if ((size_t)got < sizeof(h))
			return -ssp_err_set(e, SSP_ERR_TRUNCATED, f->off, "%s: offset "
			    "%llu: truncated stream: %s", name,
			    (unsigned long long)f->off, got == 0 ?
			    "no end block" : "partial block header");
		len = le32(h + 4);
		crc = le32(h + 8);
		if (len > SSP_BLOCK_MAX)
			return -ssp_err_set(e, SSP_ERR_FORMAT, f->off, "%s: offset "
			    "%llu: block length %u exceeds the %u-byte limit "
			    "(corrupt stream?)", name, (unsigned long long)f->off,
			    len, SSP_BLOCK_MAX);
		if (len > f->cap) {
			size_t cap = f->cap ? f->cap : 65536;
			uint8_t *nb;

			while (cap < len)
				cap *= 2;
			if ((nb = realloc(f->buf, cap)) == NULL)
				return -ssp_err_set(e, SSP_ERR_NOMEM, f->off,
				    "out of memory");
			f->buf = nb;
			f->cap = cap;
		}
		got = ssp_in_read_full(f->in, f->buf, len, e);
		if (got < 0)
			return (int)got;
		if ((uint32_t)got < len)
			return -ssp_err_set(e, SSP_ERR_TRUNCATED, f->off, "%s: offset "
			    "%llu: truncated stream: block needs %u bytes, %zd left",
			    name, (unsigned long long)f->off, len, got);
		{
			uLong c = crc32(0L, h, 8);
			if (len > 0)	/* zlib: a NULL buffer returns the initial value */
				c = ssp_crc32((uint32_t)c, f->buf, len);
			if ((uint32_t)c != crc)
				return -ssp_err_set(e, SSP_ERR_CHECKSUM, f->off, "%s: "
				    "offset %llu: block checksum mismatch (stored "
				    "%08x, computed %08x): corrupt stream", name,
				    (unsigned long long)f->off, crc, (uint32_t)c);
		}
		b->type = h[0];
		/* Never NULL, even for an empty first block: callers do p + len. */
		b->payload = f->buf != NULL ? f->buf : (const uint8_t *)"";
		b->len = len;
		b->offset = f->off;
		b->new_segment = f->new_segment;
		f->off += sizeof(h) + len;
		if (b->type >= 0x40 && b->type <= 0x7f)
			continue;	/* skippable */
		if (b->type != SSP_BLOCK_HEADER && b->type != SSP_BLOCK_DATA &&
		    b->type != SSP_BLOCK_END)
			return -ssp_err_set(e, SSP_ERR_FORMAT, b->offset, "%s: offset "
			    "%llu: unknown block type 0x%02x", name,
			    (unsigned long long)b->offset, b->type);
		f->new_segment = 0;
		f->after_end = b->type == SSP_BLOCK_END;
		return 1;
	}
}

const char *ssp_frame_rd_name(const struct ssp_frame_rd *f) { return ssp_in_name(f->in); }

void
ssp_frame_rd_close(struct ssp_frame_rd *f)
{
	if (f == NULL)
		return;
	free(f->buf);
	free(f);
}

enum ssp_status
ssp_frame_magic(struct ssp_out *o, const uint8_t *magic, struct ssp_err *e)
{
	return ssp_out_write(o, magic, SSP_MAGIC_LEN, e);
}

/* The 12-byte header of a block, its CRC over the payload included. */
static void
block_header(uint8_t *h, unsigned type, const uint8_t *payload, size_t len)
{
	uint32_t c;

	h[0] = (uint8_t)type;
	h[1] = h[2] = h[3] = 0;
	put_le32(h + 4, (uint32_t)len);
	c = crc32(0L, h, 8);
	if (len > 0)
		c = ssp_crc32((uint32_t)c, payload, len);
	put_le32(h + 8, (uint32_t)c);
}

enum ssp_status
ssp_frame_block(struct ssp_out *o, unsigned type, const uint8_t *payload,
    size_t len, struct ssp_err *e)
{
	uint8_t h[SSP_BLOCK_HDR];
	enum ssp_status rc;

	SSP_ASSERT(type <= 0xff);
	if (len > SSP_BLOCK_MAX)
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "block of %zu bytes "
		    "exceeds the limit", len);
	block_header(h, type, payload, len);
	if ((rc = ssp_out_write(o, h, sizeof(h), e)) != SSP_OK)
		return rc;
	return ssp_out_write(o, payload, len, e);
}

enum ssp_status
ssp_frame_block_inplace(struct ssp_out *o, unsigned type, uint8_t *payload,
    size_t len, struct ssp_err *e)
{
	SSP_ASSERT(type <= 0xff);
	if (len > SSP_BLOCK_MAX)
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "block of %zu bytes "
		    "exceeds the limit", len);
	block_header(payload - SSP_BLOCK_HDR, type, payload, len);
	return ssp_out_write(o, payload - SSP_BLOCK_HDR, SSP_BLOCK_HDR + len, e);
}
