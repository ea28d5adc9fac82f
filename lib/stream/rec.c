#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/map.h"
#include "base/varint.h"
#include "stream/rec.h"


#define BLOCK_TARGET   (64 * 1024)	/* data block size the writer aims at */
#define REC_MAXBYTES   (1 + 2 * SSP_VARINT_MAX + SSP_MAXF * SSP_VARINT_MAX + 8)
#define STR_MAX        SSP_REC_STR_MAX	/* longest string */
#define NAME_MAX_      255		/* longest type/field name */
#define META_MAX       4096		/* longest metadata key or value */
#define TYPES_MAX      1024
#define NMETA_MAX      4096
#define STRS_MAX       (16u * 1024 * 1024)	/* strings per stream */
/* A writer's data block never grows past this: records are added below
 * BLOCK_TARGET, and a string that would take it past BLOCK_TARGET goes to
 * the next block, so a string and a record follow at most BLOCK_TARGET
 * bytes (or a long string alone). */
#define BLK_ROOM       (BLOCK_TARGET + STR_MAX + 3 * SSP_VARINT_MAX + REC_MAXBYTES)

static int
is_signed_enc(char enc)
{
	return enc == SSP_ENC_I || enc == SSP_ENC_T;
}

static int
valid_enc(int enc)
{
	return enc == SSP_ENC_U || enc == SSP_ENC_X || enc == SSP_ENC_I ||
	    enc == SSP_ENC_T || enc == SSP_ENC_S || enc == SSP_ENC_B ||
	    enc == SSP_ENC_M || enc == SSP_ENC_A;
}

int
ssp_rec_schema_find(const struct ssp_schema *s, const char *name)
{
	unsigned i;

	for (i = 0; i < s->ntypes; i++)
		if (strcmp(s->types[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
ssp_rec_type_field(const struct ssp_rec_type *t, const char *name)
{
	unsigned i;

	for (i = 0; i < t->nf; i++)
		if (strcmp(t->f[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void
put_varint(struct ssp_buf *b, uint64_t v)	/* caller reserved room */
{
	b->len += ssp_varint_put(b->p + b->len, v);
}

static int
put_str(struct ssp_buf *b, const char *s, size_t n)
{
	if (ssp_buf_reserve(b, SSP_VARINT_MAX + n) != 0)
		return -1;
	put_varint(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

/* --- string interning (writer side) ------------------------------------ */

struct strtab {
	struct ssp_buf arena;	/* the strings, back to back */
	size_t *off;		/* by id - 1 */
	uint32_t *len;
	uint64_t n, cap;
	struct ssp_map map;	/* string hash -> id, when indexed */
};

static void
strtab_free(struct strtab *t)
{
	free(t->arena.p);
	free(t->off);
	free(t->len);
	ssp_map_free(&t->map);
	memset(t, 0, sizeof(*t));
}

/* Add a string; with index, also to the hash for lookups. */
static uint64_t
strtab_add(struct strtab *t, const char *s, size_t n, int index)
{
	if (t->n == t->cap) {
		uint64_t cap = t->cap ? t->cap * 2 : 256;
		size_t *no = realloc(t->off, cap * sizeof(*no));
		uint32_t *nl;

		if (no == NULL)
			return 0;
		t->off = no;
		if ((nl = realloc(t->len, cap * sizeof(*nl))) == NULL)
			return 0;
		t->len = nl;
		t->cap = cap;
	}
	if (ssp_buf_reserve(&t->arena, n + 1) != 0)
		return 0;
	if (index && ssp_map_add(&t->map, ssp_map_hash(s, n),
	    (uint32_t)t->n + 1) == NULL)
		return 0;
	t->off[t->n] = t->arena.len;
	t->len[t->n] = (uint32_t)n;
	memcpy(t->arena.p + t->arena.len, s, n);
	t->arena.p[t->arena.len + n] = '\0';
	t->arena.len += n + 1;
	t->n++;
	return t->n;
}

static uint64_t
strtab_find(const struct strtab *t, const char *s, size_t n)
{
	const struct ssp_map_slot *sl;

	for (sl = ssp_map_find(&t->map, ssp_map_hash(s, n)); sl != NULL;
	    sl = ssp_map_next(&t->map, sl)) {
		uint32_t id = sl->val;

		if (t->len[id - 1] == n &&
		    memcmp(t->arena.p + t->off[id - 1], s, n) == 0)
			return id;
	}
	return 0;
}

/* --- header encoding --------------------------------------------------- */

static int
encode_header(struct ssp_buf *b, unsigned minor, const struct ssp_schema *s,
    const struct ssp_meta *meta, size_t nmeta)
{
	size_t i;
	unsigned t, k;

	if (ssp_buf_reserve(b, 2 + SSP_VARINT_MAX) != 0)
		return -1;
	b->p[b->len++] = SSP_REC_MAJOR;
	b->p[b->len++] = (uint8_t)minor;
	put_varint(b, nmeta);
	for (i = 0; i < nmeta; i++)
		if (put_str(b, meta[i].key, strlen(meta[i].key)) != 0 ||
		    put_str(b, meta[i].value, strlen(meta[i].value)) != 0)
			return -1;
	if (ssp_buf_reserve(b, SSP_VARINT_MAX) != 0)
		return -1;
	put_varint(b, s->ntypes);
	for (t = 0; t < s->ntypes; t++) {
		const struct ssp_rec_type *rt = &s->types[t];

		if (put_str(b, rt->name, strlen(rt->name)) != 0 ||
		    ssp_buf_reserve(b, 1) != 0)
			return -1;
		b->p[b->len++] = (uint8_t)rt->nf;
		for (k = 0; k < rt->nf; k++) {
			if (put_str(b, rt->f[k].name, strlen(rt->f[k].name)) != 0 ||
			    ssp_buf_reserve(b, 1) != 0)
				return -1;
			b->p[b->len++] = (uint8_t)rt->f[k].enc;
		}
	}
	return 0;
}

/* --- writer ------------------------------------------------------------ */

struct wtype {			/* per schema type, for the encoder */
	uint32_t nf;
	uint32_t signed_mask;	/* fields to zigzag */
	uint32_t str_mask;	/* fields holding string ids */
};

struct ssp_rec_wr {
	struct ssp_out *out;
	const struct ssp_schema *schema;
	struct wtype *wt;
	uint32_t ntypes;
	struct ssp_buf blk;		/* the data block: BLK_ROOM bytes, after */
	uint8_t *blkmem;	/* room for its header (one write per block) */
	int64_t last_ts;	/* delta base within the block */
	struct ssp_varint_big big;	/* a span's trace_hi, mostly */
	struct strtab strs;
	uint64_t ndef;		/* strings whose definition is written */
	uint64_t nrec, nblocks;
	/* ssp_rec_wr_copy: reader string id -> our id, for one reader at a time */
	const struct ssp_rec_rd *map_rr;
	uint64_t map_gen;
	uint64_t *map;
	uint64_t map_cap;
	/* file type (ftag - 1) -> our type its fields were checked against */
	uint32_t *compat;
	uint32_t ncompat;
	/* ssp_rec_wr_copy_raw: our string ids are the reader's */
	const struct ssp_rec_rd *raw_on;	/* raw_rr while raw_state is 1 */
	const struct ssp_rec_rd *raw_rr;
	uint64_t raw_gen;
	int raw_state;		/* 0 not started, 1 on, -1 off for good */
	uint64_t ident;		/* reader strings 1..ident are ours, same ids */
	uint32_t *rawt;		/* file type -> our type with exactly its fields */
	uint32_t nrawt;
};

static enum ssp_status
rw_block(struct ssp_rec_wr *w, struct ssp_err *e)
{
	enum ssp_status rc;

	if (w->blk.len == 0)
		return SSP_OK;
	if ((rc = ssp_frame_block_inplace(w->out, SSP_BLOCK_DATA, w->blk.p,
	    w->blk.len, e)) != SSP_OK)
		return rc;
	w->blk.len = 0;
	w->last_ts = 0;
	w->nblocks++;
	return SSP_OK;
}

enum ssp_status
ssp_rec_wr_open(struct ssp_rec_wr **wp, struct ssp_out *o, const uint8_t *magic,
    const struct ssp_schema *s, const struct ssp_meta *meta, size_t nmeta,
    struct ssp_err *e)
{
	return ssp_rec_wr_open_minor(wp, o, magic, SSP_REC_MINOR, s, meta, nmeta, e);
}

enum ssp_status
ssp_rec_wr_open_minor(struct ssp_rec_wr **wp, struct ssp_out *o, const uint8_t *magic,
    unsigned minor, const struct ssp_schema *s, const struct ssp_meta *meta,
    size_t nmeta, struct ssp_err *e)
{
	struct ssp_rec_wr *w;
	struct ssp_buf h = SSP_BUF_INIT;
	int r;

	unsigned t, k;

	*wp = NULL;
	w = calloc(1, sizeof(*w));
	if (w == NULL || encode_header(&h, minor, s, meta, nmeta) != 0 ||
	    (w->blkmem = malloc(SSP_BLOCK_HDR + BLK_ROOM)) == NULL ||
	    (w->wt = calloc(s->ntypes ? s->ntypes : 1, sizeof(*w->wt))) == NULL) {
		free(h.p);
		ssp_rec_wr_abort(w);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	w->blk.p = w->blkmem + SSP_BLOCK_HDR;
	w->blk.cap = BLK_ROOM;
	w->ntypes = s->ntypes;
	for (t = 0; t < s->ntypes; t++) {
		w->wt[t].nf = s->types[t].nf;
		for (k = 0; k < s->types[t].nf; k++) {
			if (is_signed_enc(s->types[t].f[k].enc))
				w->wt[t].signed_mask |= 1u << k;
			if (s->types[t].f[k].enc == SSP_ENC_S)
				w->wt[t].str_mask |= 1u << k;
		}
	}
	w->out = o;
	w->schema = s;
	r = ssp_frame_magic(o, magic, e);
	if (r == SSP_OK)
		r = ssp_frame_block(o, SSP_BLOCK_HEADER, h.p, h.len, e);
	free(h.p);
	if (r != SSP_OK) {
		ssp_rec_wr_abort(w);
		return r;
	}
	*wp = w;
	return SSP_OK;
}

/* The id s has or gets in *id; *fresh: it is new, its definition not
 * written. */
static inline enum ssp_status
str_intern(struct ssp_rec_wr *w, const char *s, size_t len, uint64_t *id,
    int *fresh, struct ssp_err *e)
{
	*fresh = 0;
	if ((*id = strtab_find(&w->strs, s, len)) != 0)
		return SSP_OK;
	if (len > STR_MAX)
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "string of %zu bytes "
		    "exceeds the %d-byte limit", len, STR_MAX);
	if (w->strs.n >= STRS_MAX)
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "more than %u distinct "
		    "strings in one stream", STRS_MAX);
	if ((*id = strtab_add(&w->strs, s, len, 1)) == 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	*fresh = 1;
	return SSP_OK;
}

uint64_t
ssp_rec_wr_str_intern(struct ssp_rec_wr *w, const char *s, size_t len, int *fresh,
    struct ssp_err *e)
{
	uint64_t id;

	return str_intern(w, s, len, &id, fresh, e) == SSP_OK ? id : 0;
}

enum ssp_status
ssp_rec_wr_str_define(struct ssp_rec_wr *w, uint64_t id, const char *s, size_t len,
    struct ssp_err *e)
{
	enum ssp_status rc;

	if (id != w->ndef + 1 || len > STR_MAX)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "string %llu defined out "
		    "of order (%llu defined)", (unsigned long long)id,
		    (unsigned long long)w->ndef);
	if (w->blk.len + len + 3 * SSP_VARINT_MAX > BLOCK_TARGET &&
	    (rc = rw_block(w, e)) != SSP_OK)
		return rc;
	put_varint(&w->blk, 0);
	put_varint(&w->blk, id);
	put_varint(&w->blk, len);
	memcpy(w->blk.p + w->blk.len, s, len);
	w->blk.len += len;
	w->ndef++;
	return SSP_OK;
}

enum ssp_status
ssp_rec_wr_str_id(struct ssp_rec_wr *w, const char *s, size_t len, uint64_t *id,
    struct ssp_err *e)
{
	enum ssp_status rc;
	int fresh;

	if ((rc = str_intern(w, s, len, id, &fresh, e)) != SSP_OK || !fresh)
		return rc;
	return ssp_rec_wr_str_define(w, *id, s, len, e);
}

uint64_t
ssp_rec_wr_str(struct ssp_rec_wr *w, const char *s, size_t len, struct ssp_err *e)
{
	uint64_t id;

	return ssp_rec_wr_str_id(w, s, len, &id, e) == SSP_OK ? id : 0;
}

/*
 * Append one record to the block, which has room for REC_MAXBYTES.  map
 * translates string ids (ssp_rec_wr_copy) or is NULL.
 */
static inline __attribute__((always_inline)) void
rw_encode(struct ssp_rec_wr *w, uint32_t type, int64_t ts, const uint64_t *f,
    const uint64_t *map)
{
	/* locals: stores through p (bytes) could alias any of these */
	const struct wtype *t = &w->wt[type];
	uint32_t nf = t->nf, sm = t->signed_mask, st = map != NULL ? t->str_mask : 0;
	uint8_t *p = w->blk.p + w->blk.len;
	unsigned i;

	p = ssp_varint_put_fast(p, (uint64_t)type + 1);
	p = ssp_varint_put_fast(p,
	    ssp_zigzag((int64_t)((uint64_t)ts - (uint64_t)w->last_ts)));
	for (i = 0; i < nf; i++, sm >>= 1, st >>= 1) {
		uint64_t v = f[i];

		if (sm & 1)
			v = ssp_zigzag((int64_t)v);
		else if (st & 1)
			v = map[v];
		p = ssp_varint_put_cached(p, v, &w->big);
	}
	w->blk.len = (size_t)(p - w->blk.p);
	w->last_ts = ts;
	w->nrec++;
}

enum ssp_status
ssp_rec_wr_put(struct ssp_rec_wr *w, const struct ssp_rec *r, struct ssp_err *e)
{
	enum ssp_status rc;

	if (r->type >= w->schema->ntypes)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "record type %u not in "
		    "schema", r->type);
	if (w->blk.len >= BLOCK_TARGET && (rc = rw_block(w, e)) != SSP_OK)
		return rc;
	rw_encode(w, r->type, r->ts, r->f, NULL);
	return SSP_OK;
}

enum ssp_status
ssp_rec_wr_copy(struct ssp_rec_wr *w, const struct ssp_rec *r, const struct ssp_rec_rd *rr,
    struct ssp_err *e);	/* defined after the reader */

enum ssp_status
ssp_rec_wr_flush(struct ssp_rec_wr *w, struct ssp_err *e)
{
	enum ssp_status rc;

	if ((rc = rw_block(w, e)) != SSP_OK)
		return rc;
	return ssp_out_flush(w->out, e);
}

enum ssp_status
ssp_rec_wr_close(struct ssp_rec_wr *w, struct ssp_err *e)
{
	uint8_t end[3 * SSP_VARINT_MAX];
	size_t n = 0;
	int r;

	r = rw_block(w, e);
	if (r == SSP_OK) {
		n += ssp_varint_put(end + n, w->nrec);
		n += ssp_varint_put(end + n, w->ndef);
		n += ssp_varint_put(end + n, w->nblocks);
		r = ssp_frame_block(w->out, SSP_BLOCK_END, end, n, e);
	}
	ssp_rec_wr_abort(w);
	return r;
}

void
ssp_rec_wr_abort(struct ssp_rec_wr *w)
{
	if (w == NULL)
		return;
	free(w->blkmem);
	free(w->wt);
	strtab_free(&w->strs);
	free(w->map);
	free(w->compat);
	free(w->rawt);
	free(w);
}

uint64_t ssp_rec_wr_records(const struct ssp_rec_wr *w) { return w->nrec; }

/* --- reader ------------------------------------------------------------ */

struct ftype {			/* a record type as the file declares it */
	uint32_t prog;		/* program type, or SSP_TYPE_UNKNOWN */
	uint32_t nf;
	uint32_t pnf;		/* fields a record gets: nf, or more when the
				 * program's type has fields the file's lacks */
	uint32_t fill_neg;	/* of those filled fields, the ones set to -1 */
	uint32_t signed_mask;	/* fields to unzigzag */
	uint32_t str_mask;	/* fields holding string ids */
	uint32_t slot;		/* its count of records filtered out */
	uint8_t act;		/* enum ssp_rec_act of the filter */
	uint8_t nstr;		/* how many, and which: */
	uint8_t sidx[SSP_MAXF];
};

/* What the reader keeps of every record it reads, returned or filtered
 * out: the merge key, backward steps, where TICK records are wanted. */
struct rdstate {
	int64_t last;		/* timestamp of the record before */
	int64_t tsmax;		/* the largest timestamp */
	uint64_t back;		/* records whose timestamp is below last */
	uint64_t skips;		/* records the filter left out */
	struct ssp_rec_tick tick;
};

static inline void
rd_read(struct rdstate *st, int64_t ts)
{
	if (__builtin_expect(ts < st->last, 0))
		st->back++;
	st->last = ts;
	st->tsmax = ts > st->tsmax ? ts : st->tsmax;
}

/* A record read and returned. */
static inline void
rd_took(struct rdstate *st, unsigned act, int64_t ts)
{
	rd_read(st, ts);
	ssp_rec_tick_took(&st->tick, act, ts);
}

/* A record of an older minor whose type lacks fields the program's has:
 * append them as absent (formats/framing.md §3). */
static void
fill_absent(struct ssp_rec *r, const struct ftype *ft)
{
	unsigned k;

	for (k = ft->nf; k < ft->pnf; k++)
		r->f[k] = (ft->fill_neg >> k) & 1 ? UINT64_MAX : 0;
	r->nf = ft->pnf;
}

struct span {			/* a record's field bytes in its block */
	uint32_t beg, end;
	uint64_t smax;		/* its largest string id */
};

struct ssp_rec_rd {
	struct ssp_frame_rd *frd;
	const uint8_t *magic;
	const struct ssp_schema *expect;
	int flags;
	unsigned minor;
	/* file schema and metadata, owned */
	struct ssp_schema fschema;
	struct ssp_rec_type *ftypes_desc;
	struct ftype *ftypes;
	struct ssp_meta *meta;
	size_t nmeta;
	struct ssp_buf names;	/* arena for schema/meta strings */
	char *stream_name;	/* "stream" meta of the first segment */
	/* current block */
	const uint8_t *blk, *p, *end;
	uint64_t blk_off;
	int64_t ts;
	int in_data;
	struct strtab strs;
	uint64_t gen;		/* bumps when the string table resets */
	uint64_t nrec, seg_rec, seg_blocks;
	int done;
	struct ssp_err pend;	/* ssp_rec_rd_next_batch: error after its records */
	/* The records of the last call, in the current block: where their
	 * field bytes begin and end, and their largest string id (for
	 * ssp_rec_wr_copy_raw).  slow_*: the same from rr_next_slow. */
	struct span *span;
	unsigned nspan, capspan;
	struct span slow_span;
	/* the filter (ssp_rec_rd_filter): an action per program type and one
	 * for unknown types, the records each left out; what every record
	 * read leaves behind */
	uint8_t *act;
	uint64_t *skipped;
	struct rdstate st;
};

/* Record a data error; returns -code like every failing reader step. */
static int
rr_fail(struct ssp_rec_rd *rr, struct ssp_err *e, int code, uint64_t off,
    const char *what)
{
	return -ssp_err_set(e, code, off, "%s: offset %llu: %s",
	    ssp_frame_rd_name(rr->frd), (unsigned long long)off, what);
}

static int
get_str(const uint8_t **p, const uint8_t *end, size_t max, const uint8_t **s,
    size_t *n)
{
	uint64_t len;

	if (ssp_varint_get(p, end, &len) != 0 || len > max ||
	    len > (uint64_t)(end - *p))
		return -1;
	*s = *p;
	*n = (size_t)len;
	*p += len;
	return 0;
}

static void
rr_free_header(struct ssp_rec_rd *rr)
{
	free(rr->ftypes_desc);
	free(rr->ftypes);
	free(rr->meta);
	ssp_buf_free(&rr->names);
	rr->ftypes_desc = NULL;
	rr->ftypes = NULL;
	rr->meta = NULL;
	rr->nmeta = 0;
	rr->fschema.ntypes = 0;
}

/*
 * Parse a header block: SSP_OK or -status.  Strings are copied into one
 * arena; pointers into it are fixed up at the end because the arena may
 * move while growing.
 */
static int
rr_header(struct ssp_rec_rd *rr, const struct ssp_block *b, struct ssp_err *e)
{
	const uint8_t *p = b->payload, *end = p + b->len, *s;
	uint64_t nmeta, ntypes, i;
	size_t n, *fix = NULL, nfix = 0;
	unsigned k;
	char msg[160];

#define HFAIL(...) do { snprintf(msg, sizeof(msg), __VA_ARGS__); \
	free(fix); return rr_fail(rr, e, SSP_ERR_FORMAT, b->offset, msg); } while (0)
#define ADDSTR(dst) do { \
	if (ssp_buf_reserve(&rr->names, n + 1) != 0) HFAIL("out of memory"); \
	memcpy(rr->names.p + rr->names.len, s, n); \
	rr->names.p[rr->names.len + n] = '\0'; \
	fix[nfix++] = rr->names.len; (dst) = NULL; \
	rr->names.len += n + 1; } while (0)

	rr_free_header(rr);
	if (b->len < 2)
		HFAIL("header block too short");
	if (p[0] != SSP_REC_MAJOR) {
		snprintf(msg, sizeof(msg), "unsupported format version %u.%u "
		    "(this reader knows %u.x)", p[0], p[1], SSP_REC_MAJOR);
		free(fix);
		return rr_fail(rr, e, SSP_ERR_VERSION, b->offset, msg);
	}
	rr->minor = p[1];
	p += 2;
	if (ssp_varint_get(&p, end, &nmeta) != 0 || nmeta > NMETA_MAX)
		HFAIL("bad metadata count");
	fix = malloc((2 * nmeta + TYPES_MAX * (1 + SSP_MAXF)) * sizeof(*fix));
	rr->meta = calloc(nmeta ? nmeta : 1, sizeof(*rr->meta));
	if (fix == NULL || rr->meta == NULL)
		HFAIL("out of memory");
	rr->nmeta = (size_t)nmeta;
	for (i = 0; i < nmeta; i++) {
		if (get_str(&p, end, META_MAX, &s, &n) != 0)
			HFAIL("bad metadata key %llu", (unsigned long long)i);
		ADDSTR(rr->meta[i].key);
		if (get_str(&p, end, META_MAX, &s, &n) != 0)
			HFAIL("bad metadata value %llu", (unsigned long long)i);
		ADDSTR(rr->meta[i].value);
	}
	if (ssp_varint_get(&p, end, &ntypes) != 0 || ntypes == 0 ||
	    ntypes > TYPES_MAX)
		HFAIL("bad record type count");
	rr->ftypes_desc = calloc(ntypes, sizeof(*rr->ftypes_desc));
	rr->ftypes = calloc(ntypes, sizeof(*rr->ftypes));
	if (rr->ftypes_desc == NULL || rr->ftypes == NULL)
		HFAIL("out of memory");
	for (i = 0; i < ntypes; i++) {
		struct ssp_rec_type *t = &rr->ftypes_desc[i];

		if (get_str(&p, end, NAME_MAX_, &s, &n) != 0 || n == 0)
			HFAIL("bad name of record type %llu", (unsigned long long)i + 1);
		ADDSTR(t->name);
		if (p >= end || *p > SSP_MAXF)
			HFAIL("record type %llu: bad field count", (unsigned long long)i + 1);
		t->nf = *p++;
		for (k = 0; k < t->nf; k++) {
			if (get_str(&p, end, NAME_MAX_, &s, &n) != 0 || n == 0)
				HFAIL("record type %llu: bad field name",
				    (unsigned long long)i + 1);
			ADDSTR(t->f[k].name);
			if (p >= end || !valid_enc(*p))
				HFAIL("record type %llu: bad field encoding",
				    (unsigned long long)i + 1);
			t->f[k].enc = (char)*p++;
		}
	}
	if (p != end)
		HFAIL("trailing bytes in header block");
	/* Fix up string pointers now that the arena no longer moves. */
	nfix = 0;
	for (i = 0; i < nmeta; i++) {
		rr->meta[i].key = (char *)rr->names.p + fix[nfix++];
		rr->meta[i].value = (char *)rr->names.p + fix[nfix++];
	}
	for (i = 0; i < ntypes; i++) {
		struct ssp_rec_type *t = &rr->ftypes_desc[i];

		t->name = (char *)rr->names.p + fix[nfix++];
		for (k = 0; k < t->nf; k++)
			t->f[k].name = (char *)rr->names.p + fix[nfix++];
	}
	free(fix);
	rr->fschema.ntypes = (unsigned)ntypes;
	rr->fschema.types = rr->ftypes_desc;
#undef ADDSTR
#undef HFAIL

	/* Map file types onto the program's. */
	for (i = 0; i < ntypes; i++) {
		const struct ssp_rec_type *ft = &rr->ftypes_desc[i];
		struct ftype *m = &rr->ftypes[i];
		int pt;

		m->nf = m->pnf = ft->nf;
		for (k = 0; k < ft->nf; k++) {
			if (is_signed_enc(ft->f[k].enc))
				m->signed_mask |= 1u << k;
			if (ft->f[k].enc == SSP_ENC_S)
				m->str_mask |= 1u << k, m->sidx[m->nstr++] = (uint8_t)k;
		}
		if (rr->expect == NULL) {
			m->prog = (uint32_t)i;
			continue;
		}
		pt = ssp_rec_schema_find(rr->expect, ft->name);
		m->slot = pt < 0 ? rr->expect->ntypes : (uint32_t)pt;
		m->act = rr->act != NULL ? rr->act[m->slot] : SSP_RA_KEEP;
		if (pt < 0) {
			m->prog = SSP_TYPE_UNKNOWN;
			continue;
		}
		{
			const struct ssp_rec_type *et = &rr->expect->types[pt];

			unsigned common = ft->nf < et->nf ? ft->nf : et->nf;

			/* An older minor lacks fields appended since: records
			 * get them as "absent" (-1 for 'i', else 0). */
			if (ft->nf < et->nf) {
				m->pnf = et->nf;
				for (k = ft->nf; k < et->nf; k++)
					if (et->f[k].enc == SSP_ENC_I)
						m->fill_neg |= 1u << k;
			}
			for (k = 0; k < common; k++)
				if (strcmp(ft->f[k].name, et->f[k].name) != 0 ||
				    ft->f[k].enc != et->f[k].enc) {
					snprintf(msg, sizeof(msg), "record type '%s' "
					    "field %u is '%s' (%c), expected '%s' (%c)",
					    ft->name, k + 1, ft->f[k].name,
					    ft->f[k].enc, et->f[k].name, et->f[k].enc);
					return rr_fail(rr, e, SSP_ERR_SCHEMA,
					    b->offset, msg);
				}
		}
		m->prog = (uint32_t)pt;
	}
	return SSP_OK;
}

/* Read blocks until a data block with bytes left, or the end. */
static int
rr_fill(struct ssp_rec_rd *rr, struct ssp_err *e)
{
	struct ssp_block b;
	int r;

	for (;;) {
		r = ssp_frame_rd_next(rr->frd, &b, e);
		if (r < 0)
			return r;
		if (r == 0) {
			rr->done = 1;
			return 0;
		}
		if (b.new_segment) {
			const char *prev = rr->stream_name, *cur;

			if (b.type != SSP_BLOCK_HEADER)
				return rr_fail(rr, e, SSP_ERR_FORMAT, b.offset,
				    "expected a header block after the magic");
			if (prev != NULL && !(rr->flags & SSP_RR_CONCAT))
				return rr_fail(rr, e, SSP_ERR_FORMAT, b.offset,
				    "a second stream follows the end block; this "
				    "format cannot be concatenated");
			if ((r = rr_header(rr, &b, e)) != SSP_OK)
				return r;
			cur = ssp_rec_rd_meta(rr, "stream");
			if (cur == NULL)
				cur = "";
			if (prev != NULL && strcmp(prev, cur) != 0) {
				char msg[200];

				snprintf(msg, sizeof(msg), "concatenated stream "
				    "'%.60s' differs from the first stream '%.60s'; "
				    "give each stream separately", cur, prev);
				return rr_fail(rr, e, SSP_ERR_FORMAT, b.offset, msg);
			}
			if (prev == NULL && (rr->stream_name = strdup(cur)) == NULL)
				return rr_fail(rr, e, SSP_ERR_NOMEM, b.offset,
				    "out of memory");
			strtab_free(&rr->strs);
			rr->gen++;
			rr->seg_rec = rr->seg_blocks = 0;
			continue;
		}
		if (b.type == SSP_BLOCK_HEADER)
			return rr_fail(rr, e, SSP_ERR_FORMAT, b.offset,
			    "unexpected second header block");
		if (b.type == SSP_BLOCK_END) {
			const uint8_t *p = b.payload, *end = p + b.len;
			uint64_t nrec, nstr, nblk;

			if (ssp_varint_get(&p, end, &nrec) != 0 ||
			    ssp_varint_get(&p, end, &nstr) != 0 ||
			    ssp_varint_get(&p, end, &nblk) != 0)
				return rr_fail(rr, e, SSP_ERR_FORMAT, b.offset,
				    "bad end block");
			if (nrec != rr->seg_rec || nstr != rr->strs.n ||
			    nblk != rr->seg_blocks) {
				char msg[200];

				snprintf(msg, sizeof(msg), "end block counts %llu "
				    "records, %llu strings, %llu blocks; read %llu, "
				    "%llu, %llu", (unsigned long long)nrec,
				    (unsigned long long)nstr, (unsigned long long)nblk,
				    (unsigned long long)rr->seg_rec,
				    (unsigned long long)rr->strs.n,
				    (unsigned long long)rr->seg_blocks);
				return rr_fail(rr, e, SSP_ERR_FORMAT, b.offset, msg);
			}
			continue;
		}
		rr->seg_blocks++;
		rr->blk = rr->p = b.payload;
		rr->end = b.payload + b.len;
		rr->blk_off = b.offset;
		rr->ts = 0;
		if (rr->p < rr->end)
			return 1;
	}
}

enum ssp_status
ssp_rec_rd_open(struct ssp_rec_rd **rp, struct ssp_in *in, const uint8_t *magic,
    const struct ssp_schema *expect, int flags, struct ssp_err *e)
{
	struct ssp_rec_rd *rr;
	struct ssp_block b;
	int r;

	*rp = NULL;
	rr = calloc(1, sizeof(*rr));
	if (rr == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	rr->magic = magic;
	rr->expect = expect;
	rr->st.last = rr->st.tsmax = INT64_MIN;
	rr->flags = flags;
	if ((r = ssp_frame_rd_open(&rr->frd, in, magic, e)) != SSP_OK) {
		free(rr);
		return r;
	}
	r = ssp_frame_rd_next(rr->frd, &b, e);
	if (r == 0 || (r > 0 && b.type != SSP_BLOCK_HEADER))
		r = rr_fail(rr, e, SSP_ERR_FORMAT, SSP_MAGIC_LEN,
		    "stream does not start with a header block");
	else if (r > 0)
		r = rr_header(rr, &b, e);
	if (r == SSP_OK && (rr->stream_name =
	    strdup(ssp_rec_rd_meta(rr, "stream") ? ssp_rec_rd_meta(rr, "stream") : "")) == NULL)
		r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if (r != SSP_OK) {	/* -status from the reader, or a status */
		ssp_rec_rd_close(rr);
		return r < 0 ? -r : r;
	}
	*rp = rr;
	return SSP_OK;
}

static int
rr_strdef(struct ssp_rec_rd *rr, const uint8_t *p, struct ssp_err *e)
{
	const uint8_t *s;
	size_t n;
	uint64_t id;
	char msg[120];

	if (ssp_varint_get(&p, rr->end, &id) != 0 ||
	    get_str(&p, rr->end, STR_MAX, &s, &n) != 0)
		return 1;
	if (id != rr->strs.n + 1) {
		snprintf(msg, sizeof(msg), "string id %llu defined out of order "
		    "(expected %llu)", (unsigned long long)id,
		    (unsigned long long)rr->strs.n + 1);
		return rr_fail(rr, e, SSP_ERR_FORMAT, rr->blk_off, msg);
	}
	if (rr->strs.n >= STRS_MAX)
		return rr_fail(rr, e, SSP_ERR_LIMIT, rr->blk_off,
		    "too many strings");
	if (strtab_add(&rr->strs, (const char *)s, n, 0) == 0)
		return rr_fail(rr, e, SSP_ERR_NOMEM, rr->blk_off, "out of memory");
	rr->p = p;
	return 0;
}

/*
 * The general reader: string definitions, block ends, records near the
 * end of a block, and every error, with bounds checks on each byte.
 */
#define RR_STOP 2	/* rr_next_slow: the block is used up, may_fill was 0 */

__attribute__((noinline)) static int
rr_next_slow(struct ssp_rec_rd *rr, struct ssp_rec *r, int may_fill,
    struct ssp_err *e)
{
	const uint8_t *p, *fbeg;
	uint64_t tag, v;
	const struct ftype *ft;
	unsigned i;
	uint32_t m;
	char msg[120];

	for (;;) {
		if (rr->p >= rr->end) {
			int f;

			if (rr->done)
				return 0;
			if (!may_fill)
				return RR_STOP;
			if ((f = rr_fill(rr, e)) <= 0)
				return f;
		}
		p = rr->p;
		if (ssp_varint_get(&p, rr->end, &tag) != 0)
			goto bad;
		if (tag == 0)
			goto strdef;
		if (tag > rr->fschema.ntypes)
			goto badtag;
		ft = &rr->ftypes[tag - 1];
		if (ssp_varint_get(&p, rr->end, &v) != 0)
			goto bad;
		fbeg = p;
		for (i = 0; i < ft->nf; i++)
			if (ssp_varint_get(&p, rr->end, &r->f[i]) != 0)
				goto bad;
		rr->ts = (int64_t)((uint64_t)rr->ts + (uint64_t)ssp_unzigzag(v));
		r->ts = rr->ts;
		r->ftag = (uint32_t)tag;
		r->type = ft->prog;
		r->nf = ft->nf;
		for (m = ft->signed_mask; m != 0; m &= m - 1) {
			i = (unsigned)__builtin_ctz(m);
			r->f[i] = (uint64_t)ssp_unzigzag(r->f[i]);
		}
		if (__builtin_expect(ft->pnf != ft->nf, 0))
			fill_absent(r, ft);
		rr->slow_span.smax = 0;
		for (m = ft->str_mask; m != 0; m &= m - 1) {
			i = (unsigned)__builtin_ctz(m);
			if (r->f[i] > rr->strs.n) {
				snprintf(msg, sizeof(msg), "record uses undefined "
				    "string id %llu", (unsigned long long)r->f[i]);
				return rr_fail(rr, e, SSP_ERR_FORMAT, rr->blk_off,
				    msg);
			}
			if (r->f[i] > rr->slow_span.smax)
				rr->slow_span.smax = r->f[i];
		}
		if (__builtin_expect(ft->act >= SSP_RA_TICK, 0) &&
		    !ssp_rec_tick_wants(&rr->st.tick, ft->act, rr->ts)) {
			rd_read(&rr->st, rr->ts);	/* filtered out */
			rr->skipped[ft->slot]++;
			rr->st.skips++;
			rr->p = p;
			rr->nrec++;
			rr->seg_rec++;
			continue;
		}
		rd_took(&rr->st, ft->act, rr->ts);
		rr->slow_span.beg = (uint32_t)(fbeg - rr->blk);
		rr->slow_span.end = (uint32_t)(p - rr->blk);
		rr->p = p;
		rr->nrec++;
		rr->seg_rec++;
		return 1;
strdef:
		{
			int d = rr_strdef(rr, p, e);

			if (d > 0)
				goto bad;
			if (d < 0)
				return d;
		}
	}
badtag:
	snprintf(msg, sizeof(msg), "record tag %llu not in the schema",
	    (unsigned long long)tag);
	return rr_fail(rr, e, SSP_ERR_FORMAT, rr->blk_off, msg);
bad:
	return rr_fail(rr, e, SSP_ERR_FORMAT, rr->blk_off + SSP_BLOCK_HDR +
	    (uint64_t)(rr->p - rr->blk), "malformed record (varint runs past "
	    "the end of its block)");
}

/* Records with this many fields or more (network events have 18) take
 * their fields with ssp_varint_get_run; narrower ones have fewer runs of
 * one-byte fields, and the plain loop is faster for them. */
#define WIDE 8

/*
 * A record the filter leaves out, its fields from p on: checked as
 * rec_fast would (varints, string ids), not kept.  2, or 0 for anything
 * unusual (then rr_next_slow reads the record again).
 */
__attribute__((always_inline)) static inline int
rec_skip(const uint8_t **pp, const uint8_t *p, const struct ftype *ft,
    uint64_t nstr, int64_t *ts, int64_t t, unsigned bad, struct rdstate *st,
    uint64_t *skipped)
{
	uint64_t x, smax = 0;
	uint32_t sm = ft->str_mask;
	unsigned i;

	if (sm == 0)	/* no string ids to check: no values (sync, proc_in) */
		p = ssp_varint_skip_run(p, ft->nf, &bad);
	else
		for (i = 0; i < ft->nf; i++, sm >>= 1) {
			p = ssp_varint_get_fast(p, &x, &bad);
			smax = (sm & 1) && x > smax ? x : smax;
		}
	if (__builtin_expect((smax > nstr) | bad, 0))
		return 0;
	*pp = p;
	*ts = t;
	rd_read(st, t);
	skipped[ft->slot]++;
	st->skips++;
	return 2;
}

/*
 * The hot path of every reader: one record well inside its block (at
 * least REC_MAXBYTES + 8 bytes before its end), decoded without per-byte
 * bounds checks.  Returns 1, 2 when the filter left the record out, or 0
 * for anything unusual (a string definition, a bad tag, varint or string
 * id): the general path then decodes the same bytes again and reports
 * errors.  The reader's state comes in locals so that a loop keeps it in
 * registers.
 */
__attribute__((always_inline)) static inline int
rec_fast(const uint8_t **pp, const uint8_t *blk, const struct ftype *ftypes,
    uint64_t ntypes, uint64_t nstr, int64_t *ts, struct ssp_rec *r,
    struct span *sp, struct rdstate *st, uint64_t *skipped)
{
	const uint8_t *p = *pp;
	const struct ftype *ft;
	uint64_t tag, v, smax = 0;
	uint32_t m;
	unsigned i, nf, bad = 0;
	int64_t t;

	if (__builtin_expect(*p < 0x80, 1))	/* tags fit one byte */
		tag = *p++;
	else
		p = ssp_varint_get_fast(p, &tag, &bad);
	if (__builtin_expect(tag - 1 >= ntypes, 0))
		return 0;
	ft = &ftypes[tag - 1];
	p = ssp_varint_get_fast(p, &v, &bad);
	t = (int64_t)((uint64_t)*ts + (uint64_t)ssp_unzigzag(v));
	if (__builtin_expect(ft->act >= SSP_RA_TICK, 0) &&
	    !ssp_rec_tick_wants(&st->tick, ft->act, t))
		return rec_skip(pp, p, ft, nstr, ts, t, bad, st, skipped);
	sp->beg = (uint32_t)(p - blk);
	nf = ft->nf;
	if (nf < WIDE) {
		for (i = 0; i < nf; i++)
			p = ssp_varint_get_fast(p, &r->f[i], &bad);
	} else {
		p = ssp_varint_get_run(p, r->f, nf, &bad);
	}
	for (m = ft->signed_mask; m != 0; m &= m - 1) {
		i = (unsigned)__builtin_ctz(m);
		r->f[i] = (uint64_t)ssp_unzigzag(r->f[i]);
	}
	switch (ft->nstr) {	/* the largest string id, unrolled */
	default:
		for (i = 3; i < ft->nstr; i++)
			smax = r->f[ft->sidx[i]] > smax ? r->f[ft->sidx[i]] : smax;
		/* FALLTHROUGH */
	case 3:
		smax = r->f[ft->sidx[2]] > smax ? r->f[ft->sidx[2]] : smax;
		/* FALLTHROUGH */
	case 2:
		smax = r->f[ft->sidx[1]] > smax ? r->f[ft->sidx[1]] : smax;
		/* FALLTHROUGH */
	case 1:
		smax = r->f[ft->sidx[0]] > smax ? r->f[ft->sidx[0]] : smax;
		/* FALLTHROUGH */
	case 0:
		break;
	}
	if (__builtin_expect((smax > nstr) | bad, 0))
		return 0;
	*ts = t;
	r->ts = t;
	rd_took(st, ft->act, t);
	r->ftag = (uint32_t)tag;
	r->type = ft->prog;
	r->nf = nf;
	if (__builtin_expect(ft->pnf != nf, 0))
		fill_absent(r, ft);
	*pp = p;
	sp->end = (uint32_t)(p - blk);
	sp->smax = smax;
	return 1;
}

/* Room for the spans of n records. */
static int
rr_spans(struct ssp_rec_rd *rr, unsigned n)
{
	struct span *sp;

	if (n <= rr->capspan)
		return 0;
	if ((sp = realloc(rr->span, n * sizeof(*sp))) == NULL)
		return -1;
	rr->span = sp;
	rr->capspan = n;
	return 0;
}

int
ssp_rec_rd_next(struct ssp_rec_rd *rr, struct ssp_rec *r, struct ssp_err *e)
{
	const uint8_t *p = rr->p;
	int64_t ts = rr->ts;
	int got;

	rr->nspan = 0;
	if (__builtin_expect(rr->capspan == 0, 0) && rr_spans(rr, 64) != 0)
		return rr_fail(rr, e, SSP_ERR_NOMEM, rr->blk_off, "out of memory");
	while (__builtin_expect(rr->end - p >= REC_MAXBYTES + 8, 1) &&
	    (got = rec_fast(&p, rr->blk, rr->ftypes, rr->fschema.ntypes,
	    rr->strs.n, &ts, r, &rr->span[0], &rr->st, rr->skipped)) != 0) {
		rr->p = p;
		rr->ts = ts;
		rr->nrec++;
		rr->seg_rec++;
		if (got == 1) {
			rr->nspan = 1;
			return 1;
		}
	}
	if ((got = rr_next_slow(rr, r, 1, e)) == 1) {
		rr->span[0] = rr->slow_span;
		rr->nspan = 1;
	}
	return got;
}

int
ssp_rec_rd_next_batch(struct ssp_rec_rd *rr, struct ssp_rec *r, unsigned n,
    struct ssp_err *e)
{
	unsigned k = 0, nread;
	int got;

	SSP_ASSERT(n >= 1);	/* 0 would read as the end */
	rr->nspan = 0;
	if (rr->pend.code != SSP_OK) {	/* an error found by the last call */
		if (e != NULL)
			*e = rr->pend;
		return -rr->pend.code;
	}
	if (rr_spans(rr, n) != 0)
		return rr_fail(rr, e, SSP_ERR_NOMEM, rr->blk_off, "out of memory");
	while (k < n) {
		const uint8_t *p = rr->p, *blk = rr->blk, *limit;
		const struct ftype *ftypes = rr->ftypes;
		uint64_t ntypes = rr->fschema.ntypes, nstr = rr->strs.n;
		struct span *span = rr->span;
		int64_t ts = rr->ts;

		nread = 0;
		if (rr->end - p >= REC_MAXBYTES + 8) {
			limit = rr->end - (REC_MAXBYTES + 8);
			while (k < n && p <= limit && (got = rec_fast(&p, blk,
			    ftypes, ntypes, nstr, &ts, &r[k], &span[k], &rr->st,
			    rr->skipped)) != 0) {
				k += got == 1;
				nread++;
			}
		}
		rr->p = p;
		rr->ts = ts;
		rr->nrec += nread;
		rr->seg_rec += nread;
		if (k == n)
			break;
		/* Not across blocks: the next may begin another segment, whose
		 * string ids would not be those of the records already here. */
		got = rr_next_slow(rr, &r[k], k == 0, e);
		if (got == 1) {
			rr->span[k++] = rr->slow_span;
			continue;
		}
		if (got == RR_STOP || got == 0)
			break;
		if (k == 0)
			return got;
		if (e != NULL)	/* give the records first, the error next */
			rr->pend = *e;
		else
			rr->pend.code = -got;
		break;
	}
	rr->nspan = k;
	return (int)k;
}

unsigned
ssp_rec_rd_next_packed(struct ssp_rec_rd *rr, void *buf, size_t room, int64_t limit,
    size_t *used, int *over)
{
	/* the reader's state in locals while the loop runs */
	const uint8_t *p = rr->p, *blk = rr->blk, *fence;
	const struct ftype *ftypes = rr->ftypes;
	uint64_t ntypes = rr->fschema.ntypes, nstr = rr->strs.n;
	uint64_t *skipped = rr->skipped;
	struct rdstate *st = &rr->st;	/* a copy here costs more than it saves */
	int64_t ts = rr->ts;
	uint8_t *o = buf, *full;
	struct ssp_rec *r;
	struct span sp;		/* not kept: ssp_rec_wr_copy_raw is not for these */
	uint64_t nread;
	unsigned n = 0;
	int got;

	rr->nspan = 0;
	*used = 0;
	*over = 0;
	if (room < sizeof(struct ssp_rec) || rr->end - p < REC_MAXBYTES + 8)
		return 0;
	full = o + (room - sizeof(struct ssp_rec));
	fence = rr->end - (REC_MAXBYTES + 8);
	nread = st->skips;
	while (o <= full && p <= fence) {
		r = (struct ssp_rec *)(void *)o;
		if ((got = rec_fast(&p, blk, ftypes, ntypes, nstr, &ts, r, &sp,
		    st, skipped)) == 0)
			break;
		if (__builtin_expect(got == 2, 0))
			continue;
		if (st->tsmax > limit) {
			*over = 1;
			break;
		}
		o += SSP_REC_PACKED(r->nf);
		n++;
	}
	nread = st->skips - nread + n + (unsigned)*over;
	rr->p = p;
	rr->ts = ts;
	rr->nrec += nread;
	rr->seg_rec += nread;
	*used = (size_t)(o - (uint8_t *)buf);
	return n;
}

enum ssp_status
ssp_rec_rd_filter(struct ssp_rec_rd *rr, const uint8_t *act, struct ssp_err *e)
{
	unsigned n, i;

	SSP_ASSERT(rr != NULL && rr->expect != NULL);
	n = rr->expect->ntypes + 1;
	free(rr->act);
	free(rr->skipped);
	rr->act = NULL;
	rr->skipped = NULL;
	if (act != NULL) {
		rr->act = malloc(n);
		rr->skipped = calloc(n, sizeof(*rr->skipped));
		if (rr->act == NULL || rr->skipped == NULL) {
			free(rr->act);
			rr->act = NULL;
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		}
		for (i = 0; i < n; i++) {
			SSP_ASSERT(act[i] <= SSP_RA_SKIP);
			rr->act[i] = act[i];
		}
	}
	for (i = 0; i < rr->fschema.ntypes; i++)	/* the current segment */
		rr->ftypes[i].act = act != NULL ? act[rr->ftypes[i].slot] :
		    SSP_RA_KEEP;
	return SSP_OK;
}

uint64_t
ssp_rec_rd_skipped(const struct ssp_rec_rd *rr, uint32_t t)
{
	SSP_ASSERT(rr != NULL && rr->expect != NULL);
	if (rr->skipped == NULL)
		return 0;
	return rr->skipped[t < rr->expect->ntypes ? t : rr->expect->ntypes];
}

int64_t ssp_rec_rd_tsmax(const struct ssp_rec_rd *rr) { return rr->st.tsmax; }
uint64_t ssp_rec_rd_backwards(const struct ssp_rec_rd *rr) { return rr->st.back; }

const char *
ssp_rec_rd_str(const struct ssp_rec_rd *rr, uint64_t id, size_t *len)
{
	if (id == 0 || id > rr->strs.n)
		return NULL;
	if (len != NULL)
		*len = rr->strs.len[id - 1];
	return (const char *)rr->strs.arena.p + rr->strs.off[id - 1];
}

const char *
ssp_rec_rd_meta(const struct ssp_rec_rd *rr, const char *key)
{
	size_t i;

	for (i = 0; i < rr->nmeta; i++)
		if (strcmp(rr->meta[i].key, key) == 0)
			return rr->meta[i].value;
	return NULL;
}

size_t ssp_rec_rd_nmeta(const struct ssp_rec_rd *rr) { return rr->nmeta; }
const struct ssp_meta *ssp_rec_rd_meta_at(const struct ssp_rec_rd *rr, size_t i)
{ return i < rr->nmeta ? &rr->meta[i] : NULL; }
const struct ssp_schema *ssp_rec_rd_file_schema(const struct ssp_rec_rd *rr)
{ return &rr->fschema; }
unsigned ssp_rec_rd_version_minor(const struct ssp_rec_rd *rr) { return rr->minor; }
const char *ssp_rec_rd_name(const struct ssp_rec_rd *rr) { return ssp_frame_rd_name(rr->frd); }
uint64_t ssp_rec_rd_offset(const struct ssp_rec_rd *rr) { return rr->blk_off; }
uint64_t ssp_rec_rd_records(const struct ssp_rec_rd *rr) { return rr->nrec; }
uint64_t ssp_rec_rd_strgen(const struct ssp_rec_rd *rr) { return rr->gen; }

void
ssp_rec_rd_close(struct ssp_rec_rd *rr)
{
	if (rr == NULL)
		return;
	ssp_frame_rd_close(rr->frd);
	rr_free_header(rr);
	strtab_free(&rr->strs);
	free(rr->stream_name);
	free(rr->span);
	free(rr->act);
	free(rr->skipped);
	free(rr);
}

/* --- copying between streams ------------------------------------------ */

/* Intern reader string id in the writer and remember its id here. */
static enum ssp_status
rw_map_str(struct ssp_rec_wr *w, const struct ssp_rec_rd *rr, uint64_t id,
    struct ssp_err *e)
{
	enum ssp_status rc;
	const char *s;
	uint64_t wid;
	size_t n;

	if (id >= w->map_cap) {
		uint64_t cap = w->map_cap ? w->map_cap : 256, *nm;

		while (cap <= id)
			cap *= 2;
		if ((nm = realloc(w->map, cap * sizeof(*nm))) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		memset(nm + w->map_cap, 0, (cap - w->map_cap) * sizeof(*nm));
		w->map = nm;
		w->map_cap = cap;
	}
	if (id == 0 || w->map[id] != 0)
		return SSP_OK;
	if ((s = ssp_rec_rd_str(rr, id, &n)) == NULL)
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "undefined string id %llu",
		    (unsigned long long)id);
	if ((rc = ssp_rec_wr_str_id(w, s, n, &wid, e)) == SSP_OK)
		w->map[id] = wid;
	return rc;
}

/* The general copy: strings first, in field order (interning may end
 * the block), then the block check, then the record. */
__attribute__((noinline)) static enum ssp_status
rw_copy_slow(struct ssp_rec_wr *w, const struct ssp_rec *r, const struct ssp_rec_rd *rr,
    struct ssp_err *e)
{
	uint32_t m;
	int s;

	if (r->type >= w->schema->ntypes)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "record type %u not in "
		    "schema", r->type);
	if (w->map_rr != rr || w->map_gen != rr->gen) {
		uint32_t *nc;

		w->map_rr = NULL;	/* until the tables below are ready */
		if (w->map != NULL)
			memset(w->map, 0, w->map_cap * sizeof(*w->map));
		else if ((s = rw_map_str(w, rr, 0, e)) != SSP_OK)
			return s;	/* allocates the map */
		nc = realloc(w->compat, (rr->fschema.ntypes + 1) * sizeof(*nc));
		if (nc == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		memset(nc, 0xff, (rr->fschema.ntypes + 1) * sizeof(*nc));
		w->compat = nc;
		w->ncompat = rr->fschema.ntypes;
		w->map_rr = rr;
		w->map_gen = rr->gen;
	}
	if (r->ftag == 0 || r->ftag > w->ncompat)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "record tag %u was not "
		    "read by this reader", r->ftag);
	if (w->compat[r->ftag - 1] != r->type) {
		/* Our fields must be a prefix of the file's (the reader's
		 * rule for schema evolution), or values would change meaning. */
		const struct ssp_rec_type *ft = &rr->fschema.types[r->ftag - 1];
		const struct ssp_rec_type *wt = &w->schema->types[r->type];
		unsigned k;

		if (ft->nf < wt->nf)
			return ssp_err_set(e, SSP_ERR_SCHEMA, rr->blk_off, "%s: "
			    "record type '%s' has %u fields, the output's '%s' "
			    "needs %u", ssp_frame_rd_name(rr->frd), ft->name, ft->nf,
			    wt->name, wt->nf);
		for (k = 0; k < wt->nf; k++)
			if (strcmp(ft->f[k].name, wt->f[k].name) != 0 ||
			    ft->f[k].enc != wt->f[k].enc)
				return ssp_err_set(e, SSP_ERR_SCHEMA, rr->blk_off,
				    "%s: record type '%s' field %u is '%s' (%c), "
				    "the output's '%s' has '%s' (%c)",
				    ssp_frame_rd_name(rr->frd), ft->name, k + 1,
				    ft->f[k].name, ft->f[k].enc, wt->name,
				    wt->f[k].name, wt->f[k].enc);
		w->compat[r->ftag - 1] = r->type;
	}
	for (m = w->wt[r->type].str_mask; m != 0; m &= m - 1) {
		uint64_t id = r->f[__builtin_ctz(m)];

		if ((id >= w->map_cap || w->map[id] == 0) &&
		    (s = rw_map_str(w, rr, id, e)) != SSP_OK)
			return s;
	}
	if (w->blk.len >= BLOCK_TARGET && (s = rw_block(w, e)) != SSP_OK)
		return s;
	rw_encode(w, r->type, r->ts, r->f, w->map);
	return SSP_OK;
}

/*
 * The hot path: when every string id of the record is already known and
 * the block has room, encode straight into the block.  Otherwise the
 * bytes written past the block's length are left uncommitted and the
 * general copy starts over.
 */
enum ssp_status
ssp_rec_wr_copy(struct ssp_rec_wr *w, const struct ssp_rec *r, const struct ssp_rec_rd *rr,
    struct ssp_err *e)
{
	const struct wtype *t;
	const uint64_t *map = w->map;
	uint8_t *p;
	uint64_t v, id;
	uint32_t sm, st;
	unsigned i, nf;

	if (__builtin_expect(r->type >= w->ntypes || w->map_rr != rr ||
	    w->map_gen != rr->gen ||
	    r->ftag - 1 >= w->ncompat || w->compat[r->ftag - 1] != r->type ||
	    w->blk.len >= BLOCK_TARGET, 0))
		return rw_copy_slow(w, r, rr, e);
	t = &w->wt[r->type];
	nf = t->nf;
	sm = t->signed_mask;
	st = t->str_mask;
	p = w->blk.p + w->blk.len;
	p = ssp_varint_put_fast(p, (uint64_t)r->type + 1);
	p = ssp_varint_put_fast(p,
	    ssp_zigzag((int64_t)((uint64_t)r->ts - (uint64_t)w->last_ts)));
	for (i = 0; i < nf; i++) {
		v = r->f[i];
		if (st & (1u << i)) {
			id = v;
			if (__builtin_expect(id >= w->map_cap ||
			    ((v = map[id]) == 0 && id != 0), 0))
				return rw_copy_slow(w, r, rr, e);
		} else if (sm & (1u << i)) {
			v = ssp_zigzag((int64_t)v);
		}
		p = ssp_varint_put_fast(p, v);
	}
	w->blk.len = (size_t)(p - w->blk.p);
	w->last_ts = r->ts;
	w->nrec++;
	return SSP_OK;
}

/* --- copying records as they are in the file ------------------------------ */

#define RAW_NONE 0xffffffffu

static inline void
rw_raw_encode(struct ssp_rec_wr *w, const struct ssp_rec_rd *rr, unsigned i,
    const struct ssp_rec *r)
{
	uint8_t *p = w->blk.p + w->blk.len;
	uint32_t beg = rr->span[i].beg, len = rr->span[i].end - beg;
	const uint8_t *src = rr->blk + beg;

	p = ssp_varint_put_fast(p, (uint64_t)r->type + 1);
	p = ssp_varint_put_fast(p,
	    ssp_zigzag((int64_t)((uint64_t)r->ts - (uint64_t)w->last_ts)));
	/* the block keeps room for a record; read past the fields only
	 * inside the input block */
	if (len <= 16 && src + 16 <= rr->end)
		memcpy(p, src, 16);
	else
		memcpy(p, src, len);
	w->blk.len = (size_t)(p + len - w->blk.p);
	w->last_ts = r->ts;
	w->nrec++;
}

__attribute__((noinline)) static enum ssp_status
rw_raw_slow(struct ssp_rec_wr *w, const struct ssp_rec_rd *rr, unsigned i,
    const struct ssp_rec *r, struct ssp_err *e)
{
	uint32_t ft = r->ftag - 1;
	enum ssp_status rc;

	if (w->raw_state == 0) {
		/* Same ids as the reader only if we have none of our own. */
		w->raw_state = w->strs.n == 0 ? 1 : -1;
		w->raw_rr = rr;
		w->raw_on = w->raw_state > 0 ? rr : NULL;
		w->raw_gen = rr->gen;
		w->ident = 0;
		free(w->rawt);
		w->nrawt = rr->fschema.ntypes;
		if ((w->rawt = malloc((w->nrawt + 1) * sizeof(*w->rawt))) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		memset(w->rawt, 0xff, (w->nrawt + 1) * sizeof(*w->rawt));
	}
	if (w->raw_state < 0 || w->raw_rr != rr || w->raw_gen != rr->gen ||
	    i >= rr->nspan || r->type >= w->ntypes || ft >= w->nrawt) {
		w->raw_state = -1;	/* another reader or segment: map ids */
		w->raw_on = NULL;
		return ssp_rec_wr_copy(w, r, rr, e);
	}
	if (w->rawt[ft] != r->type) {
		const struct ssp_rec_type *fty = &rr->fschema.types[ft];
		const struct ssp_rec_type *wty = &w->schema->types[r->type];
		unsigned k;

		if (fty->nf != wty->nf)
			return ssp_rec_wr_copy(w, r, rr, e);
		for (k = 0; k < wty->nf; k++)
			if (strcmp(fty->f[k].name, wty->f[k].name) != 0 ||
			    fty->f[k].enc != wty->f[k].enc)
				return ssp_rec_wr_copy(w, r, rr, e);
		w->rawt[ft] = r->type;
	}
	/* Define the reader's strings up to the largest id used, in order. */
	while (w->ident < rr->span[i].smax) {
		const char *s;
		size_t n;
		uint64_t id;

		if ((s = ssp_rec_rd_str(rr, w->ident + 1, &n)) == NULL)
			return ssp_err_set(e, SSP_ERR_FORMAT, 0, "undefined "
			    "string id %llu", (unsigned long long)w->ident + 1);
		if ((rc = ssp_rec_wr_str_id(w, s, n, &id, e)) != SSP_OK)
			return rc;
		if (id != w->ident + 1) {	/* the reader repeats a string */
			w->raw_state = -1;
			w->raw_on = NULL;
			return ssp_rec_wr_copy(w, r, rr, e);
		}
		w->ident++;
	}
	if (w->blk.len >= BLOCK_TARGET && (rc = rw_block(w, e)) != SSP_OK)
		return rc;
	rw_raw_encode(w, rr, i, r);
	return SSP_OK;
}

enum ssp_status
ssp_rec_wr_copy_raw(struct ssp_rec_wr *w, const struct ssp_rec_rd *rr, unsigned i,
    const struct ssp_rec *r, struct ssp_err *e)
{
	if (__builtin_expect(w->raw_on != rr || w->raw_gen != rr->gen ||
	    i >= rr->nspan ||
	    r->ftag - 1 >= w->nrawt || w->rawt[r->ftag - 1] != r->type ||
	    rr->span[i].smax > w->ident || w->blk.len >= BLOCK_TARGET, 0))
		return rw_raw_slow(w, rr, i, r, e);
	rw_raw_encode(w, rr, i, r);
	return SSP_OK;
}

enum ssp_status
ssp_rec_wr_copy_raw_batch(struct ssp_rec_wr *w, const struct ssp_rec_rd *rr,
    const struct ssp_rec *r, const unsigned *idx, unsigned n,
    struct ssp_err *e)
{
	unsigned k = 0;
	int rc;

	while (k < n) {
		/* the writer's state in locals while nothing unusual happens */
		/* locals: stores through p (bytes) could alias any field */
		uint8_t *base = w->blk.p, *p = base + w->blk.len;
		uint8_t *full = base + BLOCK_TARGET;
		int64_t last = w->last_ts;
		uint64_t ident = w->ident, k0 = k;
		const uint32_t *rawt = w->rawt;
		uint32_t nrawt = w->nrawt;
		const uint8_t *blk = rr->blk, *bend = rr->end;
		const struct span *span = rr->span;
		unsigned nspan = rr->nspan;

		if (w->raw_on == rr && w->raw_gen == rr->gen)
			for (; k < n && idx[k] < nspan; k++) {
				const struct ssp_rec *x = &r[idx[k]];
				const struct span *sp = &span[idx[k]];
				const uint8_t *src = blk + sp->beg;
				uint32_t len = sp->end - sp->beg;

				if (__builtin_expect(x->ftag - 1 >= nrawt ||
				    rawt[x->ftag - 1] != x->type ||
				    sp->smax > ident || p >= full, 0))
					break;
				p = ssp_varint_put_fast(p,
				    (uint64_t)x->type + 1);
				p = ssp_varint_put_fast(p, ssp_zigzag(
				    (int64_t)((uint64_t)x->ts - (uint64_t)last)));
				if (len <= 16 && src + 16 <= bend)
					memcpy(p, src, 16);
				else
					memcpy(p, src, len);
				p += len;
				last = x->ts;
			}
		w->blk.len = (size_t)(p - base);
		w->last_ts = last;
		w->nrec += k - k0;
		if (k == n)
			break;
		if ((rc = rw_raw_slow(w, rr, idx[k], &r[idx[k]], e)) != SSP_OK)
			return rc;
		k++;
	}
	return SSP_OK;
}
