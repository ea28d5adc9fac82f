#include <stdlib.h>
#include <string.h>

#include "base/ring.h"
#include "span/spanwq.h"

/*
 * A ring (base/ring.h) of SSP_WQ_BUFS buffers: the caller fills one with
 * entries and hands it over when it holds SSP_WQ_BUFSZ bytes; the thread
 * encodes them in order.  A buffer has room for SSP_WQ_BUFSZ bytes and
 * one more entry of any size (a record, or a string of up to the format's
 * 65 535 bytes).
 */

#define STR_LIMIT 65535		/* longest string (formats/framing.md §7) */
#define CAP (SSP_WQ_BUFSZ + sizeof(struct ent) + STR_LIMIT + 8 + \
	SSP_REC_PACKED(SSP_MAXF))
#define ROUND8(n) (((n) + 7) & ~(size_t)7)
/* filled buffers that wake the thread: asleep until half the ring is
 * filled, then awake until it is empty, few sleeps and wake-ups (each
 * costs a system call or two) */
#define WAKE (SSP_WQ_BUFS / 2)

enum { E_REC = 1, E_STR };

struct ent {			/* entry header; the payload follows */
	uint32_t kind;
	uint32_t len;		/* E_STR: the string's bytes */
	uint64_t id;		/* E_STR: its id */
};

struct ssp_spanwq {
	struct ssp_rec_wr *w;
	const struct ssp_schema *s;
	struct ssp_ring *ring;
	int started;		/* the thread runs, not finished */
	struct ssp_ring_buf *cur;	/* the buffer the caller fills; NULL
					 * once the thread failed */
	uint64_t nrec;
};

/* Encode the entries of buffer b. */
static int
encode(struct ssp_spanwq *q, const struct ssp_ring_buf *b, struct ssp_err *e)
{
	const uint8_t *p = b->p, *end = b->p + b->len;
	int rc;

	while (p < end) {
		const struct ent *x = (const struct ent *)(const void *)p;

		p += sizeof(*x);
		if (x->kind == E_STR) {
			rc = ssp_rec_wr_str_define(q->w, x->id, (const char *)p,
			    x->len, e);
			p += ROUND8(x->len);
		} else {
			const struct ssp_rec *r = (const struct ssp_rec *)(const void *)p;

			rc = ssp_rec_wr_put(q->w, r, e);
			p += SSP_REC_PACKED(r->nf);
		}
		if (rc != SSP_OK)
			return rc;
	}
	return SSP_OK;
}

static void *
thread_main(void *arg)
{
	struct ssp_spanwq *q = arg;
	const struct ssp_ring_buf *b;
	struct ssp_err err;

	memset(&err, 0, sizeof(err));
	while ((b = ssp_ring_get(q->ring)) != NULL) {
		if (encode(q, b, &err) != SSP_OK) {
			/* the caller learns of it when it hands over the next */
			ssp_ring_fail(q->ring, &err);
			break;
		}
		ssp_ring_release(q->ring);
	}
	return NULL;
}

/* Hand the buffer being filled over and take a free one to fill next. */
static enum ssp_status
publish(struct ssp_spanwq *q, struct ssp_err *e)
{
	ssp_ring_push(q->ring);
	if ((q->cur = ssp_ring_fill(q->ring)) == NULL)
		return ssp_ring_error(q->ring, e);
	return SSP_OK;
}

enum ssp_status
ssp_spanwq_new(struct ssp_spanwq **qp, struct ssp_rec_wr *w,
    const struct ssp_schema *s, struct ssp_err *e)
{
	struct ssp_spanwq *q;
	enum ssp_status rc;

	SSP_ASSERT(qp != NULL && w != NULL && s != NULL);
	*qp = NULL;
	if ((q = calloc(1, sizeof(*q))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	q->w = w;
	q->s = s;
	if ((rc = ssp_ring_new(&q->ring, SSP_WQ_BUFS, CAP, WAKE, 1, e)) != SSP_OK ||
	    (rc = ssp_ring_start(q->ring, SSP_RING_CONSUMER, thread_main, q, 0,
	    e)) != SSP_OK) {
		ssp_spanwq_free(q);
		return rc;
	}
	q->started = 1;
	q->cur = ssp_ring_fill(q->ring);	/* a fresh ring: never NULL */
	*qp = q;
	return SSP_OK;
}

uint64_t
ssp_spanwq_str(struct ssp_spanwq *q, const char *s, size_t len, struct ssp_err *e)
{
	struct ssp_ring_buf *b;
	struct ent *x;
	uint64_t id;
	int fresh;

	SSP_ASSERT(q != NULL && q->started && (s != NULL || len == 0));
	if ((id = ssp_rec_wr_str_intern(q->w, s, len, &fresh, e)) == 0 || !fresh)
		return id;
	if (q->cur == NULL) {
		ssp_ring_error(q->ring, e);
		return 0;
	}
	if (q->cur->len > SSP_WQ_BUFSZ && publish(q, e) != SSP_OK)
		return 0;
	b = q->cur;
	x = (struct ent *)(void *)(b->p + b->len);
	x->kind = E_STR;
	x->len = (uint32_t)len;
	x->id = id;
	memcpy(x + 1, s, len);
	b->len += sizeof(*x) + ROUND8(len);
	if (b->len >= SSP_WQ_BUFSZ && publish(q, e) != SSP_OK)
		return 0;
	return id;
}

enum ssp_status
ssp_spanwq_put(struct ssp_spanwq *q, const struct ssp_rec *r, struct ssp_err *e)
{
	struct ssp_ring_buf *b;
	struct ent *x;
	struct ssp_rec *o;
	uint32_t nf;

	SSP_ASSERT(q != NULL && q->started && r != NULL);
	b = q->cur;
	if (r->type >= q->s->ntypes)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "record type %u not in "
		    "schema", r->type);
	if (b == NULL)		/* the thread failed */
		return ssp_ring_error(q->ring, e);
	nf = q->s->types[r->type].nf;
	x = (struct ent *)(void *)(b->p + b->len);
	x->kind = E_REC;
	o = (struct ssp_rec *)(void *)(x + 1);
	o->ts = r->ts;
	o->type = r->type;
	o->ftag = 0;
	o->nf = nf;
	/* all SSP_MAXF fields, a copy of constant size (inline, no call);
	 * the next entry goes over those past nf */
	memcpy(o->f, r->f, sizeof(r->f));
	b->len += sizeof(*x) + SSP_REC_PACKED(nf);
	q->nrec++;
	if (b->len >= SSP_WQ_BUFSZ)
		return publish(q, e);
	return SSP_OK;
}

uint64_t ssp_spanwq_records(const struct ssp_spanwq *q) { return q->nrec; }

enum ssp_status
ssp_spanwq_finish(struct ssp_spanwq *q, struct ssp_err *e)
{
	SSP_ASSERT(q != NULL);
	if (!q->started)
		return SSP_OK;
	if (q->cur != NULL && q->cur->len > 0)	/* the last, partly filled one */
		ssp_ring_push(q->ring);
	q->cur = NULL;
	ssp_ring_close(q->ring);
	q->started = 0;
	return ssp_ring_join(q->ring, e);
}

void
ssp_spanwq_free(struct ssp_spanwq *q)
{
	if (q == NULL)
		return;
	ssp_ring_free(q->ring);		/* stops the thread */
	free(q);
}
