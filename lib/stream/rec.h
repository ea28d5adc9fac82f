/*
 * Self-describing record streams (formats/framing.md): the layer shared by
 * event and span streams.  A header block carries metadata (key/value
 * strings) and a schema (record type names, their field names and
 * encodings); data blocks carry string definitions and records: a type
 * tag, a zigzag timestamp delta (reset to 0 at each block) and one varint
 * per field.  Readers map the file's record types onto the types the
 * program knows by name, so fields can be appended and types added in a
 * minor version without breaking old readers.
 */
#ifndef SSP_REC_H
#define SSP_REC_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "io/in.h"
#include "io/out.h"
#include "stream/frame.h"

#define SSP_MAXF        24	/* fields per record type */
#define SSP_REC_STR_MAX 65535	/* longest string (formats/framing.md §7) */
#define SSP_REC_MAJOR   1
#define SSP_REC_MINOR   0
#define SSP_TYPE_UNKNOWN 0xffffu	/* file type the program does not know */

/* Field encodings: all are varints; 'i' and 't' are zigzag-signed. */
enum ssp_enc {
	SSP_ENC_U = 'u',	/* unsigned integer */
	SSP_ENC_X = 'x',	/* unsigned, shown in hex (addresses, ids) */
	SSP_ENC_I = 'i',	/* signed integer; -1 often means "absent" */
	SSP_ENC_T = 't',	/* signed time in ps */
	SSP_ENC_S = 's',	/* string id, 0 = no string */
	SSP_ENC_B = 'b',	/* boolean 0/1 */
	SSP_ENC_M = 'm',	/* 48-bit MAC address */
	SSP_ENC_A = 'a',	/* IPv4 address, host byte order */
};

struct ssp_field {
	const char *name;
	char enc;
};

struct ssp_rec_type {
	const char *name;
	unsigned nf;
	struct ssp_field f[SSP_MAXF];
};

struct ssp_schema {
	unsigned ntypes;
	const struct ssp_rec_type *types;	/* tag in the file = index + 1 */
};

struct ssp_meta {
	const char *key;
	const char *value;
};

/*
 * One record in memory.  f[] holds the fields in schema order; signed
 * fields are stored as (uint64_t)(int64_t) and string fields as ids valid
 * for the reader (ssp_rec_rd_str) or writer (ssp_rec_wr_str) they came from.
 */
struct ssp_rec {
	int64_t ts;		/* ps */
	uint32_t type;		/* index into the program's schema */
	uint32_t ftag;		/* tag in the file (readers only) */
	uint32_t nf;		/* fields present (readers: as in the file, or
				 * the reader's count when the file's type
				 * lacks trailing fields: those are filled
				 * as absent, -1 for 'i' and 0 otherwise) */
	uint64_t f[SSP_MAXF];
};

/* --- writer ------------------------------------------------------------ */

struct ssp_rec_wr;
struct ssp_rec_rd;

SSP_MUST_USE enum ssp_status ssp_rec_wr_open(struct ssp_rec_wr **wp,
    struct ssp_out *o, const uint8_t *magic, const struct ssp_schema *s,
    const struct ssp_meta *meta, size_t nmeta, struct ssp_err *e);
/* The same, writing format version 1.minor (ssp_rec_wr_open: 1.SSP_REC_MINOR);
 * a format may raise its minor version for guarantees readers can test. */
SSP_MUST_USE enum ssp_status ssp_rec_wr_open_minor(struct ssp_rec_wr **wp,
    struct ssp_out *o, const uint8_t *magic, unsigned minor,
    const struct ssp_schema *s, const struct ssp_meta *meta, size_t nmeta,
    struct ssp_err *e);
/* Intern a string: its id (> 0) in *id, writing its definition when it is
 * new. */
SSP_MUST_USE enum ssp_status ssp_rec_wr_str_id(struct ssp_rec_wr *w,
    const char *s, size_t len, uint64_t *id, struct ssp_err *e);
/* The same, returning the id (> 0), or 0 on an error (e set). */
uint64_t ssp_rec_wr_str(struct ssp_rec_wr *w, const char *s, size_t len,
    struct ssp_err *e);
/*
 * ssp_rec_wr_str in two steps, for a writer whose records are encoded in
 * another thread than the one that interns: ssp_rec_wr_str_intern gives
 * the id ssp_rec_wr_str would and sets *fresh when the string is new
 * (0 on error, e set); its definition is then written by
 * ssp_rec_wr_str_define(w, id, s, len), in id order, between the records
 * as ssp_rec_wr_str would have written it.  Intern touches only the string
 * table, define and the other writer calls never look at it: the two may
 * run in different threads.
 */
uint64_t ssp_rec_wr_str_intern(struct ssp_rec_wr *w, const char *s, size_t len,
    int *fresh, struct ssp_err *e);
SSP_MUST_USE enum ssp_status ssp_rec_wr_str_define(struct ssp_rec_wr *w,
    uint64_t id, const char *s, size_t len, struct ssp_err *e);
/* Append a record; r->type indexes the writer's schema, r->nf is ignored. */
SSP_MUST_USE enum ssp_status ssp_rec_wr_put(struct ssp_rec_wr *w,
    const struct ssp_rec *r, struct ssp_err *e);
/* Copy a record read by rr, translating its string ids.  r->type indexes
 * w's schema; that type's fields must be a prefix of the fields of the
 * record's type in rr's stream (SSP_ERR_SCHEMA otherwise). */
SSP_MUST_USE enum ssp_status ssp_rec_wr_copy(struct ssp_rec_wr *w,
    const struct ssp_rec *r, const struct ssp_rec_rd *rr, struct ssp_err *e);
/*
 * Copy record i of rr's last ssp_rec_rd_next (i = 0) or ssp_rec_rd_next_batch
 * call, r, as it is in the file: its field bytes are copied and only its
 * type tag (r->type, a type of w's schema with exactly the file type's
 * fields) and timestamp (r->ts) are encoded again; r->f is not looked at,
 * so use ssp_rec_wr_copy for records whose fields you changed.  String ids
 * stay the reader's: its string definitions are copied ahead of their
 * first use, in its order, so the copy also defines strings that only
 * records not copied used.  Where that cannot hold (w has strings of its
 * own, another reader or concatenated segment, a type whose fields
 * differ), it does what ssp_rec_wr_copy does.  Several times cheaper than
 * ssp_rec_wr_copy; the output is a valid stream either way.
 */
SSP_MUST_USE enum ssp_status ssp_rec_wr_copy_raw(struct ssp_rec_wr *w,
    const struct ssp_rec_rd *rr, unsigned i, const struct ssp_rec *r,
    struct ssp_err *e);
/* The same for records r[idx[0]], ..., r[idx[n - 1]] of rr's last
 * ssp_rec_rd_next_batch into r, in that order; cheaper per record. */
SSP_MUST_USE enum ssp_status ssp_rec_wr_copy_raw_batch(struct ssp_rec_wr *w,
    const struct ssp_rec_rd *rr, const struct ssp_rec *r, const unsigned *idx,
    unsigned n, struct ssp_err *e);
/* Write the current block and flush the output (online use). */
SSP_MUST_USE enum ssp_status ssp_rec_wr_flush(struct ssp_rec_wr *w,
    struct ssp_err *e);
/* Write the end block; the ssp_out stays open.  Frees w. */
SSP_MUST_USE enum ssp_status ssp_rec_wr_close(struct ssp_rec_wr *w,
    struct ssp_err *e);
void ssp_rec_wr_abort(struct ssp_rec_wr *w);
uint64_t ssp_rec_wr_records(const struct ssp_rec_wr *w);

/* --- reader ------------------------------------------------------------ */

struct ssp_rec_rd;

/*
 * Open a reader.  expect may be NULL: records then keep the file's own
 * type tags (type = ftag - 1), for generic dumpers.  With expect, file
 * types are matched by name; a known type whose leading fields differ from
 * expect is a schema error; unknown types come back as SSP_TYPE_UNKNOWN.
 * A known type with fewer fields than expect's (an older minor version)
 * is read with the missing trailing fields filled as absent (struct
 * ssp_rec's nf).
 * concat: accept further streams after an end block if their "stream"
 * metadata matches (cat a.ev b.ev).
 */
#define SSP_RR_CONCAT 0x1
SSP_MUST_USE enum ssp_status ssp_rec_rd_open(struct ssp_rec_rd **rp,
    struct ssp_in *in, const uint8_t *magic, const struct ssp_schema *expect,
    int flags, struct ssp_err *e);
/* 1: record in *r, 0: end of stream, or -status on an error (e set, with
 * offset). */
SSP_MUST_USE int ssp_rec_rd_next(struct ssp_rec_rd *rr, struct ssp_rec *r,
    struct ssp_err *e);
/*
 * Up to n records into r[0..n), as many calls of ssp_rec_rd_next would, but
 * several times cheaper per record.  Returns how many (string ids of all
 * valid until the next call; a batch never spans two concatenated
 * segments), 0 at the end of the stream, -status on an error (e set),
 * which is returned only once the records before it have been.
 */
SSP_MUST_USE int ssp_rec_rd_next_batch(struct ssp_rec_rd *rr, struct ssp_rec *r,
    unsigned n, struct ssp_err *e);
/*
 * A record packed: struct ssp_rec without the fields past its nf.  Runs
 * of packed records lie one after the other (ssp_rec_packed_next).
 */
#define SSP_REC_PACKED(nf) (offsetof(struct ssp_rec, f) + (size_t)(nf) * 8)
static inline const struct ssp_rec *
ssp_rec_packed_next(const struct ssp_rec *r)
{
	return (const struct ssp_rec *)((const char *)r + SSP_REC_PACKED(r->nf));
}
/*
 * For merging streams: the next records of rr packed into buf (8-byte
 * aligned) as long as their key is at most limit and a whole struct
 * ssp_rec fits in the room left.  A record's key is ssp_rec_rd_tsmax once
 * it is read: its timestamp, in a stream whose time never goes back (a
 * heap merge by timestamp gives the order of a merge by this key, also
 * when time goes back, and a filter leaves that order as it is).  The
 * first record above limit is decoded too, at buf + *used, and *over is
 * set: it is the stream's next record, the caller keeps it.  Stops early,
 * before anything but a plain record well inside its block (a string
 * definition, the end of a block, an error): ssp_rec_rd_next then deals
 * with it.  Returns how many records are at most limit (their bytes:
 * *used).  Several times cheaper than ssp_rec_rd_next per record.
 */
unsigned ssp_rec_rd_next_packed(struct ssp_rec_rd *rr, void *buf, size_t room,
    int64_t limit, size_t *used, int *over);
/*
 * Filters: records a reader reads (their bytes are checked, their
 * timestamps count) but does not return, by type, for a consumer that
 * would only count them.  Each program type gets an action:
 *   KEEP  returned;
 *   ARM   returned, and it may leave the consumer waiting for a "later
 *         record" of this stream: a TICK record whose timestamp is
 *         greater than the ARM record's ends the wait;
 *   TICK  left out, except where it may end such a wait: it is returned
 *         when an ARM record was returned since the last returned record
 *         whose timestamp exceeded every such ARM record's, and its
 *         timestamp is greater than that of the last returned record
 *         (ssp_rec_tick_wants below: everything still waiting started
 *         at or after that record);
 *   SKIP  left out.
 * A consumer that handles a TICK record only by counting it and by
 * ending what waits with an earlier start, and a SKIP record only by
 * counting it, sees the same as with every record returned.
 */
enum ssp_rec_act { SSP_RA_KEEP, SSP_RA_ARM, SSP_RA_TICK, SSP_RA_SKIP };

struct ssp_rec_tick {		/* where TICK records are wanted */
	int64_t t;		/* timestamp of the last record returned */
	int64_t u;		/* the largest ARM timestamp waiting, when on */
	int on;
};

/* Is a record of action act at ts returned? */
static inline int
ssp_rec_tick_wants(const struct ssp_rec_tick *k, unsigned act, int64_t ts)
{
	return act < SSP_RA_TICK || (act == SSP_RA_TICK && k->on && ts > k->t);
}

/* The record of action act at ts was returned. */
static inline void
ssp_rec_tick_took(struct ssp_rec_tick *k, unsigned act, int64_t ts)
{
	if (__builtin_expect(!k->on && act != SSP_RA_ARM, 1))
		return;		/* t matters only while on */
	if (k->on && ts > k->u)
		k->on = 0;	/* it ends every wait */
	if (act == SSP_RA_ARM) {
		if (!k->on || ts > k->u)
			k->u = ts;
		k->on = 1;
	}
	k->t = ts;
}

/*
 * Set the filter of a reader opened with an expected schema: act[t] for
 * each of its types t, act[ntypes] for types it does not know (NULL: none,
 * every record returned).  For ssp_rec_rd_next and ssp_rec_rd_next_packed
 * (ssp_rec_rd_next_batch does not filter).  SSP_ERR_NOMEM.
 */
SSP_MUST_USE enum ssp_status ssp_rec_rd_filter(struct ssp_rec_rd *rr,
    const uint8_t *act, struct ssp_err *e);
/* Records of program type t (SSP_TYPE_UNKNOWN: of types it does not know)
 * the filter left out. */
uint64_t ssp_rec_rd_skipped(const struct ssp_rec_rd *rr, uint32_t t);
/* Of all records read so far (returned or left out): the largest
 * timestamp (INT64_MIN before the first), and how many had a timestamp
 * below the one before (ssp_merge_backwards). */
int64_t ssp_rec_rd_tsmax(const struct ssp_rec_rd *rr);
uint64_t ssp_rec_rd_backwards(const struct ssp_rec_rd *rr);
/* String by id (NUL-terminated); NULL if the id is not defined.  Valid
 * until the next ssp_rec_rd_next: copy what you keep. */
const char *ssp_rec_rd_str(const struct ssp_rec_rd *rr, uint64_t id, size_t *len);
const char *ssp_rec_rd_meta(const struct ssp_rec_rd *rr, const char *key);
size_t ssp_rec_rd_nmeta(const struct ssp_rec_rd *rr);
const struct ssp_meta *ssp_rec_rd_meta_at(const struct ssp_rec_rd *rr, size_t i);
/* The file's own schema (types indexed by ftag - 1). */
const struct ssp_schema *ssp_rec_rd_file_schema(const struct ssp_rec_rd *rr);
unsigned ssp_rec_rd_version_minor(const struct ssp_rec_rd *rr);
const char *ssp_rec_rd_name(const struct ssp_rec_rd *rr);
uint64_t ssp_rec_rd_offset(const struct ssp_rec_rd *rr);	/* of the current block */
uint64_t ssp_rec_rd_records(const struct ssp_rec_rd *rr);
/* Changes whenever string ids start over (a concatenated segment began):
 * callers caching data per string id must drop it. */
uint64_t ssp_rec_rd_strgen(const struct ssp_rec_rd *rr);
void ssp_rec_rd_close(struct ssp_rec_rd *rr);

/* Index of a type by name in a schema, or -1. */
int ssp_rec_schema_find(const struct ssp_schema *s, const char *name);
/* Index of a field by name in a type, or -1. */
int ssp_rec_type_field(const struct ssp_rec_type *t, const char *name);

#endif
