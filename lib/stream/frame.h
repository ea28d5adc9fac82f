/*
 * Block framing shared by the event and span streams (formats/framing.md):
 * an 8-byte magic, then blocks of
 *   type u8 | flags u8 | reserved u16 | length u32 LE | crc32 u32 LE | payload
 * where crc32 (zlib/ISO-HDLC) covers the first 8 header bytes and the
 * payload.  A stream ends with an end block; a reader seeing input end
 * anywhere else reports truncation with the offset.
 */
#ifndef SSP_FRAME_H
#define SSP_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "io/in.h"
#include "io/out.h"

#define SSP_MAGIC_LEN   8
#define SSP_BLOCK_HDR   12
#define SSP_BLOCK_MAX   (16u * 1024 * 1024)	/* largest payload accepted */

enum ssp_block_type {
	SSP_BLOCK_HEADER = 0x01,
	SSP_BLOCK_DATA   = 0x02,
	SSP_BLOCK_END    = 0x03,
	/* 0x40..0x7f: skippable, readers ignore them */
};

extern const uint8_t ssp_frame_magic_events[SSP_MAGIC_LEN];
extern const uint8_t ssp_frame_magic_spans[SSP_MAGIC_LEN];

struct ssp_block {
	unsigned type;
	const uint8_t *payload;
	size_t len;
	uint64_t offset;	/* stream offset of the block header */
	int new_segment;	/* first block after a (repeated) magic */
};

struct ssp_frame_rd;

/*
 * Open a block reader.  magic is the format expected; a stream with the
 * other simspan magic or no magic at all is reported as such.
 */
SSP_MUST_USE enum ssp_status ssp_frame_rd_open(struct ssp_frame_rd **fp,
    struct ssp_in *in, const uint8_t *magic, struct ssp_err *e);
/* 1: block in *b (payload valid until the next call), 0: clean end of
 * input after an end block, or -status on an error (e set). */
SSP_MUST_USE int ssp_frame_rd_next(struct ssp_frame_rd *f, struct ssp_block *b,
    struct ssp_err *e);
const char *ssp_frame_rd_name(const struct ssp_frame_rd *f);
void ssp_frame_rd_close(struct ssp_frame_rd *f);

/* Write the magic, and one block. */
SSP_MUST_USE enum ssp_status ssp_frame_magic(struct ssp_out *o,
    const uint8_t *magic, struct ssp_err *e);
SSP_MUST_USE enum ssp_status ssp_frame_block(struct ssp_out *o, unsigned type,
    const uint8_t *payload, size_t len, struct ssp_err *e);
/* The same for a payload with SSP_BLOCK_HDR bytes of room before it, where
 * the header goes: the block is one write, which a large one makes without
 * a copy through the output's buffer. */
SSP_MUST_USE enum ssp_status ssp_frame_block_inplace(struct ssp_out *o,
    unsigned type, uint8_t *payload, size_t len, struct ssp_err *e);

#endif
