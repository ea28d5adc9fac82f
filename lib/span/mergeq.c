#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/ring.h"
#include "span/mergeq.h"

/*
 * The producer (the thread, or the caller on demand) merges the streams
 * as ssp_merge does: a heap of each stream's next record ("head"), ties
 * by stream index, file order within a stream.  The records go into queue
 * buffers as entries: runs of consecutive records of one stream, packed
 * (only the fields they have), the strings they use before them, stream
 * ends and errors where the merge reaches them.  While the top stream's
 * records still come first, ssp_rec_rd_next_packed decodes them straight
 * into the buffer, many in one call: one copy of a record only when a run
 * ends.  What crosses between the CPUs is small and sequential, and no
 * cache line is written by both.
 *
 * The buffers go from the thread to the caller through a ring (base/ring.h;
 * a buffer's pos is the input bytes read when it was filled).  Without
 * the thread, the caller fills one buffer of its own on demand.
 */

#define SLACK sizeof(struct ssp_rec)	/* records are decoded in place and
					 * read as a whole struct ssp_rec */

enum { E_RUN = 1, E_STR, E_RESET, E_END, E_ERR, E_DONE };

struct ent {			/* entry header; the payload follows */
	uint32_t stream;
	uint16_t kind;
	uint16_t words;		/* entry size in 8-byte words, header included */
	uint32_t n;		/* E_RUN: records that follow, packed */
	uint32_t pad;
};

#define REC_BYTES(nf) SSP_REC_PACKED(nf)
#define ROUND8(n) (((n) + 7) & ~(size_t)7)
#define ERR_BYTES (sizeof(struct ent) + ROUND8(sizeof(struct ssp_err)))
/* room before decoding or ending a stream: a run header and a full record,
 * or an error entry */
#define STEP_BYTES (ERR_BYTES > sizeof(struct ent) + sizeof(struct ssp_rec) ? \
	ERR_BYTES : sizeof(struct ent) + sizeof(struct ssp_rec))

struct hnode {			/* heap entry: the key inline */
	int64_t ts;		/* ssp_rec_rd_tsmax once the head was read */
	unsigned i;
};

struct pstream {		/* a stream, on the producer's side */
	struct ssp_rec_rd *rr;
	struct ssp_in *in;
	struct ssp_rec head;	/* its next record, not queued yet */
	int reset;		/* head begins a new segment */
	uint64_t gen, known;	/* string generation, strings queued */
	int over;		/* in the heap for its end (1) or error (< 0) */
	struct ssp_err err;	/* then: the error */
};

struct mirror {			/* a stream's strings, on the caller's side */
	char *arena;
	size_t alen, acap;
	size_t *off;
	uint32_t *len;
	uint64_t nstr, cstr;
	int broken;		/* out of memory mirroring: stream left out */
};

/* The threads' data lie in separate cache lines: a line written by one
 * and read by the other moves between the CPUs each time. */
#define LINE 64

struct ssp_mergeq {
	size_t n;
	struct ssp_ring *ring;	/* from the thread, or NULL */
	struct ssp_ring_buf solo;	/* without it: SSP_MQ_BUFSZ + SLACK bytes */
	/* producer */
	_Alignas(LINE) struct pstream *s;
	struct hnode *heap;	/* the streams with a head; min (ts, index) on top */
	size_t nheap;
	size_t primed;		/* streams [0, primed) have their first head */
	int pend;		/* stream on top whose head was queued, or -1 */
	struct hnode lim;	/* then: the smallest other head */
	struct ent *open;	/* E_RUN being filled in the current buffer */
	unsigned ostream;	/* then: its stream, */
	size_t ostart;		/* where its records start, */
	uint32_t on;		/* and how many it has */
	int pdone;		/* E_DONE queued */
	/* caller */
	_Alignas(LINE) struct mirror *m;
	const uint8_t *rp, *rend;
	uint64_t rawpos;
	int cdone;
};

/* --- merging (producer) ----------------------------------------------------- */

/*
 * The heap is keyed by ssp_rec_rd_tsmax, not by the record's timestamp:
 * the order is the same (rec.h, ssp_rec_rd_next_packed), and records a
 * reader's filter leaves out (their timestamps count there) keep the
 * others in it.  A stream's end or error comes where its last record,
 * returned or not, would: its key, in the heap until then.
 */

static inline int
less(const struct hnode *a, const struct hnode *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->i < b->i);
}

static void
sift_down(struct ssp_mergeq *q, size_t i)
{
	struct hnode x = q->heap[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= q->nheap)
			break;
		if (c + 1 < q->nheap && less(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!less(&q->heap[c], &x))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	q->heap[i] = x;
}

static void
sift_up(struct ssp_mergeq *q, size_t i)
{
	struct hnode x = q->heap[i];

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!less(&x, &q->heap[p]))
			break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = x;
}

/* Has the reader defined strings not queued yet?  (A record can only use
 * strings defined before it.) */
static inline int
new_strings(const struct pstream *s)
{
	return ssp_rec_rd_str(s->rr, s->known + 1, NULL) != NULL;
}

/*
 * Decode the next record of s into r: 1, 0 at the end, <0 on an error.
 * *plain: it begins no segment and no string was defined before it that
 * is not queued, so it can be queued as it is (else it goes through the
 * head, where the reset and strings are queued first).
 */
static inline __attribute__((always_inline)) int
decode(struct pstream *s, struct ssp_rec *r, int *plain, struct ssp_err *e)
{
	int got = ssp_rec_rd_next(s->rr, r, e);

	if (got != 1)
		return got;
	*plain = 1;
	if (ssp_rec_rd_strgen(s->rr) != s->gen) {
		s->gen = ssp_rec_rd_strgen(s->rr);
		s->known = 0;
		s->reset = 1;
		*plain = 0;
	} else if (new_strings(s)) {
		*plain = 0;
	}
	return 1;
}

static inline struct ent *
put(struct ssp_ring_buf *b, size_t bytes, unsigned kind, unsigned stream)
{
	struct ent *x = (struct ent *)(b->p + b->len);

	x->stream = stream;
	x->kind = (uint16_t)kind;
	x->words = (uint16_t)(bytes / 8);
	x->n = 0;
	b->len += bytes;
	return x;
}

#define ROOM(b, bytes) ((b)->len + (bytes) <= SSP_MQ_BUFSZ)

/* Finish the open run (an empty one is taken back). */
static inline void
close_run(struct ssp_mergeq *q, struct ssp_ring_buf *b)
{
	if (q->open == NULL)
		return;
	if (q->on == 0) {
		b->len = q->ostart - sizeof(struct ent);
	} else {
		q->open->n = q->on;
		q->open->words = (uint16_t)((b->len - q->ostart) / 8 +
		    sizeof(struct ent) / 8);
	}
	q->open = NULL;
}

/* Make sure a run of stream i is open (the caller checked the room). */
static inline void
open_run(struct ssp_mergeq *q, struct ssp_ring_buf *b, unsigned i)
{
	if (q->open != NULL && q->ostream == i)
		return;
	close_run(q, b);
	q->open = put(b, sizeof(struct ent), E_RUN, i);
	q->ostream = i;
	q->ostart = b->len;
	q->on = 0;
}

static void
put_end(struct ssp_mergeq *q, struct ssp_ring_buf *b, unsigned i, int got,
    const struct ssp_err *err)
{
	close_run(q, b);
	if (got < 0) {		/* the status (in n) and the error record */
		struct ent *x = put(b, ERR_BYTES, E_ERR, i);

		x->n = (uint32_t)-got;
		memcpy(x + 1, err, sizeof(*err));
	}
	else
		put(b, sizeof(struct ent), E_END, i);
}

/* Queue the head of stream i, after the reset and strings it needs.
 * 0 when the buffer is full first. */
static int
queue_head(struct ssp_mergeq *q, struct ssp_ring_buf *b, unsigned i)
{
	struct pstream *s = &q->s[i];
	size_t bytes;

	if (s->reset) {
		if (!ROOM(b, sizeof(struct ent)))
			return 0;
		close_run(q, b);
		put(b, sizeof(struct ent), E_RESET, i);
		s->reset = 0;
	}
	if (new_strings(s)) {	/* all the reader has, in id order */
		const char *t;
		size_t len;
		uint32_t l;
		uint8_t *p;

		while ((t = ssp_rec_rd_str(s->rr, s->known + 1, &len)) != NULL) {
			bytes = sizeof(struct ent) + ROUND8(sizeof(l) + len + 1);
			if (!ROOM(b, bytes))
				return 0;
			close_run(q, b);
			l = (uint32_t)len;
			p = (uint8_t *)(put(b, bytes, E_STR, i) + 1);
			memcpy(p, &l, sizeof(l));
			memcpy(p + sizeof(l), t, len);
			s->known++;
		}
	}
	if (!ROOM(b, STEP_BYTES))
		return 0;
	open_run(q, b, i);
	memcpy(b->p + b->len, &s->head, REC_BYTES(s->head.nf));
	b->len += REC_BYTES(s->head.nf);
	q->on++;
	return 1;
}

/* The record at r comes after another stream's: it becomes the head of
 * stream i, back in the heap. */
static void
to_head(struct ssp_mergeq *q, unsigned i, const struct ssp_rec *r)
{
	struct pstream *s = &q->s[i];

	memcpy(&s->head, r, REC_BYTES(r->nf));
	q->heap[0].ts = ssp_rec_rd_tsmax(s->rr);
	sift_down(q, 0);
	q->pend = -1;
}

/* Stream i, on top, read its last record (got: 0 or -status, err): its
 * end at once, or back in the heap when records the filter left out take
 * it past another stream's head. */
static void
stream_over(struct ssp_mergeq *q, struct ssp_ring_buf *b, unsigned i, int got,
    const struct ssp_err *err)
{
	struct pstream *s = &q->s[i];
	struct hnode end = { ssp_rec_rd_tsmax(s->rr), i };

	q->pend = -1;
	if (q->nheap > 1 && less(&q->lim, &end)) {
		s->over = got == 0 ? 1 : got;
		if (got < 0)
			s->err = *err;
		q->heap[0] = end;
		sift_down(q, 0);
		return;
	}
	q->heap[0] = q->heap[--q->nheap];
	if (q->nheap > 0)
		sift_down(q, 0);
	put_end(q, b, i, got, err);
}

/*
 * The records of the top stream after its head, decoded straight into
 * the open run while they still come first: up to the smallest other
 * head, ties to the smaller stream index.  0 when the buffer is full.
 */
static int
extend_run(struct ssp_mergeq *q, struct ssp_ring_buf *b)
{
	unsigned i = (unsigned)q->pend, n;
	struct pstream *s = &q->s[i];
	struct ssp_err err;
	struct ssp_rec *r;
	int64_t limit = q->lim.ts;
	size_t used;
	int got, plain, over, packed = 1;

	if (i > q->lim.i) {	/* a tie goes to the other stream */
		if (limit == INT64_MIN)
			packed = 0;	/* nothing comes first */
		else
			limit--;
	}
	for (;;) {
		if (!ROOM(b, STEP_BYTES))
			return 0;
		open_run(q, b, i);
		r = (struct ssp_rec *)(b->p + b->len);
		if (packed) {	/* the usual case, many records at once */
			n = ssp_rec_rd_next_packed(s->rr, r, SSP_MQ_BUFSZ - b->len,
			    limit, &used, &over);
			b->len += used;
			q->on += n;
			if (over) {
				to_head(q, i, (struct ssp_rec *)(b->p + b->len));
				return 1;
			}
			if (n > 0)
				continue;
		}
		/* one record, whatever comes: a string, a block, the end */
		got = decode(s, r, &plain, &err);
		if (got != 1) {		/* the stream is over */
			stream_over(q, b, i, got, &err);
			return 1;
		}
		if (!plain || ssp_rec_rd_tsmax(s->rr) > limit || !packed) {
			/* another stream's record comes first, or this one
			 * needs a reset or strings queued before it */
			to_head(q, i, r);
			return 1;
		}
		b->len += REC_BYTES(r->nf);	/* still first */
		q->on++;
	}
}

/* Fill buffer qb with merged entries, up to its size or the end. */
static void
produce(struct ssp_mergeq *q, struct ssp_ring_buf *qb)
{
	struct ssp_ring_buf w = *qb, *b = &w;	/* on our stack while it fills */
	struct ssp_err err;
	struct pstream *s;
	int got, plain;
	size_t k;
	unsigned i;

	b->len = 0;
	q->open = NULL;
	while (q->primed < q->n) {	/* the first record of each stream */
		if (!ROOM(b, STEP_BYTES))
			goto full;
		i = (unsigned)q->primed;
		s = &q->s[i];
		got = decode(s, &s->head, &plain, &err);
		q->primed++;
		if (got != 1 && ssp_rec_rd_records(s->rr) == 0) {
			put_end(q, b, i, got, &err);
			continue;
		}
		if (got != 1) {		/* after records the filter left out */
			s->over = got == 0 ? 1 : got;
			if (got < 0)
				s->err = err;
		}
		q->heap[q->nheap].ts = ssp_rec_rd_tsmax(s->rr);
		q->heap[q->nheap++].i = i;
		sift_up(q, q->nheap - 1);
	}
	for (;;) {
		if (q->pend >= 0 && !extend_run(q, b))
			break;
		if (q->nheap == 0) {
			if (!ROOM(b, sizeof(struct ent)))
				break;
			close_run(q, b);
			put(b, sizeof(struct ent), E_DONE, 0);
			q->pdone = 1;
			break;
		}
		i = q->heap[0].i;
		if (q->s[i].over != 0) {	/* its end's turn */
			if (!ROOM(b, STEP_BYTES))
				break;
			q->heap[0] = q->heap[--q->nheap];
			if (q->nheap > 0)
				sift_down(q, 0);
			s = &q->s[i];
			put_end(q, b, i, s->over < 0 ? s->over : 0, &s->err);
			continue;
		}
		if (!queue_head(q, b, i))
			break;
		q->pend = (int)i;
		q->lim.ts = INT64_MAX;
		q->lim.i = UINT_MAX;
		if (q->nheap > 1)
			q->lim = q->heap[1];
		if (q->nheap > 2 && less(&q->heap[2], &q->lim))
			q->lim = q->heap[2];
	}
full:
	close_run(q, b);
	b->pos = 0;
	for (k = 0; k < q->n; k++)
		b->pos += ssp_in_rawpos(q->s[k].in);
	*qb = w;
}

static void *
thread_main(void *arg)
{
	struct ssp_mergeq *q = arg;
	struct ssp_ring_buf *b;

	while (!q->pdone && (b = ssp_ring_fill(q->ring)) != NULL) {
		produce(q, b);
		ssp_ring_push(q->ring);
	}
	ssp_ring_close(q->ring);
	return NULL;
}

/* Zeroed memory for n things in cache lines of its own. */
static void *
line_calloc(size_t n, size_t size)
{
	size_t bytes = (n * size + LINE - 1) / LINE * LINE;
	void *p = aligned_alloc(LINE, bytes ? bytes : LINE);

	if (p != NULL)
		memset(p, 0, bytes ? bytes : LINE);
	return p;
}

enum ssp_status
ssp_mergeq_new(struct ssp_mergeq **qp, struct ssp_rec_rd *const *rr,
    struct ssp_in *const *in, size_t n, int threaded, struct ssp_err *e)
{
	struct ssp_mergeq *q;
	size_t i;

	SSP_ASSERT(qp != NULL && (n == 0 || (rr != NULL && in != NULL)));
	for (i = 0; i < n; i++)
		SSP_ASSERT(rr[i] != NULL);
	*qp = NULL;
	if ((q = line_calloc(1, sizeof(*q))) == NULL ||
	    (q->s = line_calloc(n, sizeof(*q->s))) == NULL ||
	    (q->heap = line_calloc(n, sizeof(*q->heap))) == NULL ||
	    (q->m = line_calloc(n, sizeof(*q->m))) == NULL) {
		ssp_mergeq_free(q);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	q->n = n;
	q->pend = -1;
	for (i = 0; i < n; i++) {
		struct pstream *s = &q->s[i];

		s->rr = rr[i];
		s->in = in[i];
		s->gen = ssp_rec_rd_strgen(rr[i]);
	}
	if (!threaded) {
		if ((q->solo.p = malloc(SSP_MQ_BUFSZ + SLACK)) == NULL) {
			ssp_mergeq_free(q);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		}
	} else {
		int rc;

		/* The thread is woken for a good amount of work only: a
		 * wake-up per buffer costs more than it gains.  It may block
		 * reading a pipe: ssp_mergeq_free cancels it. */
		if ((rc = ssp_ring_new(&q->ring, SSP_MQ_BUFS, SSP_MQ_BUFSZ + SLACK,
		    1, SSP_MQ_BUFS / 2, e)) != SSP_OK ||
		    (rc = ssp_ring_start(q->ring, SSP_RING_PRODUCER, thread_main,
		    q, 1, e)) != SSP_OK) {
			ssp_mergeq_free(q);
			return rc;
		}
	}
	*qp = q;
	return SSP_OK;
}

/* --- reading (caller) ------------------------------------------------------- */

/* Make the next filled buffer current (giving the current one back). */
static void
next_buf(struct ssp_mergeq *q)
{
	const struct ssp_ring_buf *b;

	if (q->ring == NULL) {
		produce(q, &q->solo);
		b = &q->solo;
	} else {
		ssp_ring_release(q->ring);	/* none held the first time */
		/* the thread ends with E_DONE, and only ssp_mergeq_free
		 * stops it: the ring does not run dry before */
		if ((b = ssp_ring_get(q->ring)) == NULL)
			abort();
	}
	q->rp = b->p;
	q->rend = b->p + b->len;
	q->rawpos = b->pos;
}

static int
mirror_add(struct mirror *s, const uint8_t *p)
{
	uint32_t l;

	memcpy(&l, p, sizeof(l));
	p += sizeof(l);
	if (s->nstr == s->cstr) {
		uint64_t c = s->cstr ? s->cstr * 2 : 256;
		size_t *no = realloc(s->off, c * sizeof(*no));
		uint32_t *nl;

		if (no == NULL)
			return -1;
		s->off = no;
		if ((nl = realloc(s->len, c * sizeof(*nl))) == NULL)
			return -1;
		s->len = nl;
		s->cstr = c;
	}
	if (s->alen + l + 1 > s->acap) {
		size_t c = s->acap ? s->acap : 4096;
		char *na;

		while (c < s->alen + l + 1)
			c *= 2;
		if ((na = realloc(s->arena, c)) == NULL)
			return -1;
		s->arena = na;
		s->acap = c;
	}
	memcpy(s->arena + s->alen, p, l);
	s->arena[s->alen + l] = '\0';
	s->off[s->nstr] = s->alen;
	s->len[s->nstr++] = l;
	s->alen += l + 1;
	return 0;
}

/* ssp_mergeq_run past its usual case: a new buffer, strings, a reset, an
 * end or an error (out of line: the usual case then needs no frame). */
static __attribute__((noinline)) int
run_slow(struct ssp_mergeq *q, unsigned *idx, const struct ssp_rec **r,
    size_t *n, struct ssp_err *e)
{
	const struct ent *x;
	struct mirror *s;

	for (;;) {
		if (q->rp >= q->rend)
			next_buf(q);
		x = (const struct ent *)q->rp;
		q->rp += (size_t)x->words * 8;
		if (x->kind == E_DONE) {
			q->cdone = 1;
			return SSP_MQ_DONE;
		}
		s = &q->m[x->stream];
		*idx = x->stream;
		if (s->broken)
			continue;
		switch (x->kind) {
		case E_RUN:
			*r = (const struct ssp_rec *)(x + 1);
			*n = x->n;
			return SSP_MQ_REC;
		case E_STR:
			if (mirror_add(s, (const uint8_t *)(x + 1)) != 0) {
				s->broken = 1;	/* its records would lack names */
				return -ssp_err_set(e, SSP_ERR_NOMEM, 0,
				    "out of memory");
			}
			continue;
		case E_RESET:
			s->nstr = s->alen = 0;
			return SSP_MQ_RESET;
		case E_END:
			return SSP_MQ_END;
		default:	/* E_ERR: the reader's status, its error */
			SSP_ASSERT(x->kind == E_ERR && x->n != SSP_OK);
			if (e != NULL)
				memcpy(e, x + 1, sizeof(*e));
			return -(int)x->n;
		}
	}
}

int
ssp_mergeq_run(struct ssp_mergeq *q, unsigned *idx, const struct ssp_rec **r,
    size_t *n, struct ssp_err *e)
{
	const struct ent *x;

	SSP_ASSERT(q != NULL && idx != NULL && r != NULL && n != NULL);
	x = (const struct ent *)q->rp;
	if (q->cdone)
		return SSP_MQ_DONE;
	/* the usual case: the next entry of the buffer is a run of a stream
	 * that is not left out */
	if (q->rp < q->rend && x->kind == E_RUN && !q->m[x->stream].broken) {
		q->rp += (size_t)x->words * 8;
		*idx = x->stream;
		*r = (const struct ssp_rec *)(x + 1);
		*n = x->n;
		return SSP_MQ_REC;
	}
	return run_slow(q, idx, r, n, e);
}

const char *
ssp_mergeq_str(const struct ssp_mergeq *q, size_t i, uint64_t id, size_t *len)
{
	const struct mirror *s;

	SSP_ASSERT(q != NULL && i < q->n);
	s = &q->m[i];
	if (id == 0 || id > s->nstr)
		return NULL;
	if (len != NULL)
		*len = s->len[id - 1];
	return s->arena + s->off[id - 1];
}

uint64_t ssp_mergeq_rawpos(const struct ssp_mergeq *q) { return q->rawpos; }

uint64_t
ssp_mergeq_backwards(const struct ssp_mergeq *q, size_t i)
{
	SSP_ASSERT(q != NULL && i < q->n);
	return ssp_rec_rd_backwards(q->s[i].rr);
}

void
ssp_mergeq_free(struct ssp_mergeq *q)
{
	size_t i;

	if (q == NULL)
		return;
	ssp_ring_free(q->ring);		/* stops the thread */
	free(q->solo.p);
	for (i = 0; q->m != NULL && i < q->n; i++) {
		struct mirror *s = &q->m[i];

		free(s->arena);
		free(s->off);
		free(s->len);
	}
	free(q->m);
	free(q->heap);
	free(q->s);
	free(q);
}
