#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ssp_prefetch.h"

/*
 * Per stream, a ring of SSP_PF_DEPTH batch slots: slots [head, head +
 * count) are decoded; the caller holds slot head while it reads it; the
 * thread decodes into slot head + count, which stays the same slot while
 * the caller gives slots back (head + 1, count - 1).  One mutex guards
 * head, count and the flags; decoding and reading happen outside it.
 */

struct slot {
	struct ssp_pf_batch b;
	struct ssp_rec *rec;	/* SSP_PF_BATCH records */
	uint8_t *sdef;		/* strings defined for this batch: u32 length,
				 * bytes, in id order */
	size_t sdlen, sdcap;
	uint64_t rawpos;
};

struct pstream {
	struct ssp_rr *rr;
	struct ssp_in *in;
	struct slot slot[SSP_PF_DEPTH];
	unsigned head, count;	/* under the mutex */
	int held;		/* caller side: holds slot head */
	int done;		/* thread side: the last batch is decoded */
	/* thread side */
	uint64_t gen, known;	/* string generation, strings mirrored */
	uint32_t *smask;	/* string fields of each file type, by tag */
	size_t nsmask;
	int carry;		/* rec of a new segment read into a full batch */
	struct ssp_rec carry_rec;
	/* caller side: the string mirror and the end state */
	char *arena;
	size_t alen, acap;
	size_t *off;
	uint32_t *len;
	uint64_t nstr, cstr;
	struct ssp_pf_batch endb;
	int ended;
	uint64_t rawpos;
};

struct ssp_pf {
	struct pstream *s;
	size_t n;
	int threaded, started;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t room;	/* the thread waits for a free slot */
	pthread_cond_t data;	/* the caller waits for a decoded batch */
	int stop;		/* under mu */
	int finished;		/* under mu: the thread has left its loop */
	int sleeping;		/* under mu: the thread waits for room */
	size_t want;		/* stream the caller waits for, or n */
};

static int
sdef_add(struct slot *sl, const char *t, size_t len)
{
	uint32_t l = (uint32_t)len;

	if (sl->sdlen + sizeof(l) + len > sl->sdcap) {
		size_t cap = sl->sdcap ? sl->sdcap : 4096;
		uint8_t *np;

		while (cap < sl->sdlen + sizeof(l) + len)
			cap *= 2;
		if ((np = realloc(sl->sdef, cap)) == NULL)
			return -1;
		sl->sdef = np;
		sl->sdcap = cap;
	}
	memcpy(sl->sdef + sl->sdlen, &l, sizeof(l));
	memcpy(sl->sdef + sl->sdlen + sizeof(l), t, len);
	sl->sdlen += sizeof(l) + len;
	return 0;
}

/* Copy the strings the reader defined since the last call. */
static int
copy_strings(struct pstream *s, struct slot *sl)
{
	const char *t;
	size_t len;

	while ((t = ssp_rr_str(s->rr, s->known + 1, &len)) != NULL) {
		if (sdef_add(sl, t, len) != 0)
			return -1;
		s->known++;
	}
	return 0;
}

/* Which fields of each record type of the current segment hold strings. */
static int
build_smask(struct pstream *s)
{
	const struct ssp_schema *fs = ssp_rr_file_schema(s->rr);
	unsigned t, k;

	if (fs->ntypes + 1 > s->nsmask) {
		uint32_t *nm = realloc(s->smask, (fs->ntypes + 1) * sizeof(*nm));

		if (nm == NULL)
			return -1;
		s->smask = nm;
		s->nsmask = fs->ntypes + 1;
	}
	memset(s->smask, 0, s->nsmask * sizeof(*s->smask));
	for (t = 0; t < fs->ntypes; t++)
		for (k = 0; k < fs->types[t].nf; k++)
			if (fs->types[t].f[k].enc == SSP_ENC_S)
				s->smask[t + 1] |= 1u << k;
	return 0;
}

/* Does the record use a string not mirrored yet? */
static inline int
new_string(const struct pstream *s, const struct ssp_rec *r)
{
	uint32_t m;

	for (m = s->smask[r->ftag]; m != 0; m &= m - 1)
		if (r->f[__builtin_ctz(m)] > s->known)
			return 1;
	return 0;
}

static void
fill_fail(struct slot *sl, int code, const char *what)
{
	sl->b.end = -1;
	ssp_err_set(&sl->b.err, code, 0, "%s", what);
}

/* Decode the next batch of s into sl (thread side, no lock held). */
static void
fill(struct pstream *s, struct slot *sl)
{
	size_t n = 0;
	int r;

	sl->b.reset = 0;
	sl->b.end = 0;
	sl->sdlen = 0;
	if (s->carry) {		/* the first record of a new segment */
		sl->rec[0] = s->carry_rec;
		s->carry = 0;
		sl->b.reset = 1;
		n = 1;
		if (copy_strings(s, sl) != 0) {
			fill_fail(sl, SSP_ERR_NOMEM, "out of memory");
			goto out;
		}
	}
	while (n < SSP_PF_BATCH) {
		r = ssp_rr_next(s->rr, &sl->rec[n], &sl->b.err);
		if (r <= 0) {
			sl->b.end = r == 0 ? 1 : -1;
			break;
		}
		if (ssp_rr_strgen(s->rr) != s->gen) {
			s->gen = ssp_rr_strgen(s->rr);
			s->known = 0;
			if (build_smask(s) != 0) {
				fill_fail(sl, SSP_ERR_NOMEM, "out of memory");
				break;
			}
			if (n > 0) {	/* string ids differ from here on */
				s->carry_rec = sl->rec[n];
				s->carry = 1;
				break;
			}
			sl->b.reset = 1;
		}
		if (new_string(s, &sl->rec[n]) && copy_strings(s, sl) != 0) {
			fill_fail(sl, SSP_ERR_NOMEM, "out of memory");
			break;
		}
		n++;
	}
out:
	sl->b.rec = sl->rec;
	sl->b.n = n;
	sl->rawpos = ssp_in_rawpos(s->in);
	if (sl->b.end != 0)
		s->done = 1;
}

/* The stream the thread should decode a batch for next, or p->n: the
 * one the caller waits for, else the one with the fewest batches ready. */
static size_t
pick(const struct ssp_pf *p)
{
	size_t i, best = p->n;

	if (p->want < p->n && !p->s[p->want].done &&
	    p->s[p->want].count < SSP_PF_DEPTH)
		return p->want;
	for (i = 0; i < p->n; i++)
		if (!p->s[i].done && p->s[i].count < SSP_PF_DEPTH &&
		    (best == p->n || p->s[i].count < p->s[best].count))
			best = i;
	return best;
}

static int
all_done(const struct ssp_pf *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!p->s[i].done)
			return 0;
	return 1;
}

static void *
thread_main(void *arg)
{
	struct ssp_pf *p = arg;
	struct pstream *s;
	struct slot *sl;
	size_t i;
	int old;

	/* Cancellable only while decoding, when no lock is held: ssp_pf_free
	 * cancels a thread blocked reading a pipe. */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		if ((i = pick(p)) == p->n) {
			if (all_done(p))
				break;
			p->sleeping = 1;
			pthread_cond_wait(&p->room, &p->mu);
			p->sleeping = 0;
			continue;
		}
		s = &p->s[i];
		sl = &s->slot[(s->head + s->count) % SSP_PF_DEPTH];
		pthread_mutex_unlock(&p->mu);
		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
		fill(s, sl);
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
		pthread_mutex_lock(&p->mu);
		s->count++;
		if (p->want == i)
			pthread_cond_signal(&p->data);
	}
	p->finished = 1;
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int
ssp_pf_new(struct ssp_pf **pp, struct ssp_rr *const *rr,
    struct ssp_in *const *in, size_t n, int threaded, struct ssp_err *e)
{
	struct ssp_pf *p;
	size_t i, k;

	*pp = NULL;
	if ((p = calloc(1, sizeof(*p))) == NULL ||
	    (p->s = calloc(n ? n : 1, sizeof(*p->s))) == NULL) {
		free(p);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	p->n = n;
	p->want = n;
	for (i = 0; i < n; i++) {
		p->s[i].rr = rr[i];
		p->s[i].in = in[i];
		p->s[i].gen = ssp_rr_strgen(rr[i]);
		if (build_smask(&p->s[i]) != 0) {
			ssp_pf_free(p);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		}
		for (k = 0; k < (threaded ? SSP_PF_DEPTH : 1); k++)
			if ((p->s[i].slot[k].rec = malloc(SSP_PF_BATCH *
			    sizeof(struct ssp_rec))) == NULL) {
				ssp_pf_free(p);
				return ssp_err_set(e, SSP_ERR_NOMEM, 0,
				    "out of memory");
			}
	}
	if (threaded) {
		pthread_mutex_init(&p->mu, NULL);
		pthread_cond_init(&p->room, NULL);
		pthread_cond_init(&p->data, NULL);
		p->threaded = 1;
		if (pthread_create(&p->th, NULL, thread_main, p) != 0) {
			ssp_pf_free(p);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "cannot start "
			    "the reader thread");
		}
		p->started = 1;
	}
	*pp = p;
	return SSP_OK;
}

/* Append a batch's strings to the mirror (caller side). */
static int
mirror(struct pstream *s, const struct slot *sl)
{
	const uint8_t *q = sl->sdef, *end = sl->sdef + sl->sdlen;
	uint32_t l;

	if (sl->b.reset)
		s->nstr = s->alen = 0;
	while (q < end) {
		memcpy(&l, q, sizeof(l));
		q += sizeof(l);
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
		memcpy(s->arena + s->alen, q, l);
		s->arena[s->alen + l] = '\0';
		s->off[s->nstr] = s->alen;
		s->len[s->nstr++] = l;
		s->alen += l + 1;
		q += l;
	}
	return 0;
}

const struct ssp_pf_batch *
ssp_pf_next(struct ssp_pf *p, size_t i)
{
	struct pstream *s = &p->s[i];
	struct slot *sl;

	if (s->ended)
		return &s->endb;
	if (!p->threaded) {
		sl = &s->slot[0];
		fill(s, sl);
	} else {
		pthread_mutex_lock(&p->mu);
		if (s->held) {
			s->held = 0;
			s->head = (s->head + 1) % SSP_PF_DEPTH;
			s->count--;
			/* Wake the thread only for a good amount of work: one
			 * wake-up per batch costs more than the batch. */
			if (p->sleeping && s->count <= SSP_PF_DEPTH / 2)
				pthread_cond_signal(&p->room);
		}
		while (s->count == 0) {
			p->want = i;
			pthread_cond_wait(&p->data, &p->mu);
		}
		p->want = p->n;
		s->held = 1;
		sl = &s->slot[s->head];
		pthread_mutex_unlock(&p->mu);
	}
	s->rawpos = sl->rawpos;
	if (mirror(s, sl) != 0) {
		s->endb.end = -1;
		ssp_err_set(&s->endb.err, SSP_ERR_NOMEM, 0, "out of memory");
		s->ended = 1;
		return &s->endb;
	}
	if (sl->b.end != 0) {
		s->endb.end = sl->b.end;
		s->endb.err = sl->b.err;
		s->ended = 1;
	}
	return &sl->b;
}

const char *
ssp_pf_str(const struct ssp_pf *p, size_t i, uint64_t id, size_t *len)
{
	const struct pstream *s = &p->s[i];

	if (id == 0 || id > s->nstr)
		return NULL;
	if (len != NULL)
		*len = s->len[id - 1];
	return s->arena + s->off[id - 1];
}

uint64_t
ssp_pf_rawpos(const struct ssp_pf *p)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < p->n; i++)
		n += p->s[i].rawpos;
	return n;
}

void
ssp_pf_free(struct ssp_pf *p)
{
	size_t i, k;

	if (p == NULL)
		return;
	if (p->started) {
		pthread_mutex_lock(&p->mu);
		p->stop = 1;
		pthread_cond_signal(&p->room);
		if (!p->finished)	/* may be blocked reading a pipe */
			pthread_cancel(p->th);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->th, NULL);
	}
	if (p->threaded) {
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->room);
		pthread_cond_destroy(&p->data);
	}
	for (i = 0; i < p->n; i++) {
		struct pstream *s = &p->s[i];

		for (k = 0; k < SSP_PF_DEPTH; k++) {
			free(s->slot[k].rec);
			free(s->slot[k].sdef);
		}
		free(s->smask);
		free(s->arena);
		free(s->off);
		free(s->len);
	}
	free(p->s);
	free(p);
}
