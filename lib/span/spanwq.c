#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "span/spanwq.h"

/*
 * A ring of SSP_WQ_BUFS buffers: the caller fills buffer tail with
 * entries and hands it over when it holds SSP_WQ_BUFSZ bytes; the thread
 * encodes buffers [head, head + count) in order.  One mutex guards head,
 * count and the flags; filling and encoding happen outside it.  A buffer
 * has room for SSP_WQ_BUFSZ bytes and one more entry of any size (a
 * record, or a string of up to the format's 65 535 bytes).
 */

#define STR_LIMIT 65535		/* longest string (formats/framing.md §7) */
#define CAP (SSP_WQ_BUFSZ + sizeof(struct ent) + STR_LIMIT + 8 + \
	SSP_REC_PACKED(SSP_MAXF))
#define ROUND8(n) (((n) + 7) & ~(size_t)7)
#define LINE 64
#define WAKE (SSP_WQ_BUFS / 2)	/* filled buffers that wake the thread */

enum { E_REC = 1, E_STR };

struct ent {			/* entry header; the payload follows */
	uint32_t kind;
	uint32_t len;		/* E_STR: the string's bytes */
	uint64_t id;		/* E_STR: its id */
};

struct wbuf {
	uint8_t *p;		/* CAP bytes */
	size_t len;
};

struct ssp_spanwq {
	struct ssp_rec_wr *w;
	const struct ssp_schema *s;
	pthread_t th;
	int sync, started;	/* mutex and conditions made, thread running */
	struct wbuf buf[SSP_WQ_BUFS];
	/* caller */
	_Alignas(LINE) unsigned tail;	/* the buffer it fills */
	uint64_t nrec;
	/* under mu */
	_Alignas(LINE) pthread_mutex_t mu;
	pthread_cond_t room;	/* the caller waits for a free buffer */
	pthread_cond_t data;	/* the thread waits for a filled one */
	unsigned head, count;
	int done, stop, failed;
	struct ssp_err err;	/* the thread's, once failed */
};

/* Encode the entries of buffer b. */
static int
encode(struct ssp_spanwq *q, const struct wbuf *b, struct ssp_err *e)
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
	struct ssp_err err;
	int failed = 0;
	unsigned i;

	memset(&err, 0, sizeof(err));
	pthread_mutex_lock(&q->mu);
	for (;;) {
		/* asleep until half the ring is filled, then awake until it
		 * is empty: few sleeps and wakeups (each costs a system call
		 * or two) */
		while (q->count == 0 && !q->done && !q->stop) {
			do
				pthread_cond_wait(&q->data, &q->mu);
			while (q->count < WAKE && !q->done && !q->stop);
		}
		if (q->stop || q->count == 0)
			break;
		i = q->head;
		pthread_mutex_unlock(&q->mu);
		/* after an error the buffers are only taken back: the caller
		 * learns of it when it hands over the next */
		if (!failed && encode(q, &q->buf[i], &err) != SSP_OK)
			failed = 1;
		pthread_mutex_lock(&q->mu);
		if (failed && !q->failed) {
			q->failed = 1;
			q->err = err;
			if (q->err.code == SSP_OK)
				q->err.code = SSP_ERR_IO;
		}
		q->head = (q->head + 1) % SSP_WQ_BUFS;
		q->count--;
		pthread_cond_signal(&q->room);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

static int
thread_error(struct ssp_spanwq *q, struct ssp_err *e)
{
	if (e != NULL)
		*e = q->err;
	return q->err.code;
}

/* Hand buffer tail over and wait for a free one to fill next. */
static int
publish(struct ssp_spanwq *q, struct ssp_err *e)
{
	int failed;

	pthread_mutex_lock(&q->mu);
	if (++q->count == WAKE)
		pthread_cond_signal(&q->data);
	while (q->count == SSP_WQ_BUFS)
		pthread_cond_wait(&q->room, &q->mu);
	failed = q->failed;
	pthread_mutex_unlock(&q->mu);
	q->tail = (q->tail + 1) % SSP_WQ_BUFS;
	q->buf[q->tail].len = 0;
	return failed ? thread_error(q, e) : SSP_OK;
}

int
ssp_spanwq_new(struct ssp_spanwq **qp, struct ssp_rec_wr *w,
    const struct ssp_schema *s, struct ssp_err *e)
{
	struct ssp_spanwq *q;
	unsigned i;

	*qp = NULL;
	if ((q = calloc(1, sizeof(*q))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	q->w = w;
	q->s = s;
	for (i = 0; i < SSP_WQ_BUFS; i++) {
		if ((q->buf[i].p = malloc(CAP)) == NULL) {
			ssp_spanwq_free(q);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		}
	}
	if (pthread_mutex_init(&q->mu, NULL) != 0) {
		ssp_spanwq_free(q);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "cannot create a mutex");
	}
	if (pthread_cond_init(&q->room, NULL) != 0) {
		pthread_mutex_destroy(&q->mu);
		ssp_spanwq_free(q);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "cannot create a "
		    "condition variable");
	}
	if (pthread_cond_init(&q->data, NULL) != 0) {
		pthread_cond_destroy(&q->room);
		pthread_mutex_destroy(&q->mu);
		ssp_spanwq_free(q);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "cannot create a "
		    "condition variable");
	}
	q->sync = 1;
	if (pthread_create(&q->th, NULL, thread_main, q) != 0) {
		ssp_spanwq_free(q);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "cannot start the "
		    "writer thread");
	}
	q->started = 1;
	*qp = q;
	return SSP_OK;
}

uint64_t
ssp_spanwq_str(struct ssp_spanwq *q, const char *s, size_t len, struct ssp_err *e)
{
	struct wbuf *b = &q->buf[q->tail];
	struct ent *x;
	uint64_t id;
	int fresh;

	if ((id = ssp_rec_wr_str_intern(q->w, s, len, &fresh, e)) == 0 || !fresh)
		return id;
	if (b->len > SSP_WQ_BUFSZ && publish(q, e) != SSP_OK)
		return 0;
	b = &q->buf[q->tail];
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

int
ssp_spanwq_put(struct ssp_spanwq *q, const struct ssp_rec *r, struct ssp_err *e)
{
	struct wbuf *b = &q->buf[q->tail];
	struct ent *x;
	struct ssp_rec *o;
	uint32_t nf;

	if (r->type >= q->s->ntypes)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "record type %u not in "
		    "schema", r->type);
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

int
ssp_spanwq_finish(struct ssp_spanwq *q, struct ssp_err *e)
{
	int failed;

	if (!q->started)
		return SSP_OK;
	pthread_mutex_lock(&q->mu);
	if (q->buf[q->tail].len > 0)	/* the last, partly filled buffer */
		q->count++;
	q->done = 1;
	pthread_cond_signal(&q->data);
	pthread_mutex_unlock(&q->mu);
	pthread_join(q->th, NULL);
	q->started = 0;
	q->buf[q->tail].len = 0;
	pthread_mutex_lock(&q->mu);
	failed = q->failed;
	pthread_mutex_unlock(&q->mu);
	return failed ? thread_error(q, e) : SSP_OK;
}

void
ssp_spanwq_free(struct ssp_spanwq *q)
{
	unsigned i;

	if (q == NULL)
		return;
	if (q->started) {
		pthread_mutex_lock(&q->mu);
		q->stop = 1;
		pthread_cond_signal(&q->data);
		pthread_mutex_unlock(&q->mu);
		pthread_join(q->th, NULL);
		q->started = 0;
	}
	if (q->sync) {
		pthread_cond_destroy(&q->data);
		pthread_cond_destroy(&q->room);
		pthread_mutex_destroy(&q->mu);
	}
	for (i = 0; i < SSP_WQ_BUFS; i++)
		free(q->buf[i].p);
	free(q);
}
