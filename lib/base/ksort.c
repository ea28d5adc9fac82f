#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/hugemem.h"
#include "base/ksort.h"

#define MIN_MEM		(1u << 16)
#define MIN_KEYS	16384	/* keys a chunk may always hold, pool or not */
#define RUN_BUF		(1u << 16)	/* bytes read at a time from a run */

struct run {
	uint64_t off, left;	/* in the file: next key, keys left */
	uint64_t *buf;		/* keys read ahead */
	size_t n, i;
};

struct ssp_ksort {
	unsigned nw, w;		/* key words, words per key with payload */
	uint64_t *keys, *tmp;	/* the chunk in memory, radix scratch */
	size_t n, cap, max;	/* keys in the chunk, allocated, limit */
	size_t *pool, taken;	/* shared bytes, what this sorter took */
	uint64_t count;
	enum ssp_status status;
	int fd;			/* spilled chunks, or -1 */
	uint64_t fsize;
	struct run *runs;
	unsigned nruns;
	unsigned *heap;		/* runs by their current key */
	unsigned nheap;
	size_t next;		/* in memory: the next key to give */
	int merging, done;
};

/*
 * The radix scratch of the last sort, kept for the next one while sorters
 * of this thread exist (their sorts run one at a time): a fresh buffer
 * each time would cost a page fault per 4 KiB, and its unmapping.  It is
 * no larger than the largest chunk sorted, the scratch the budget allows.
 */
static _Thread_local uint64_t *spare;
static _Thread_local size_t spare_bytes;
static _Thread_local unsigned live;	/* sorters of this thread */

struct ssp_ksort *
ssp_ksort_new(unsigned nw, size_t mem, size_t *pool)
{
	struct ssp_ksort *s;

	if (nw < 1 || nw > 7 || (s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	live++;
	s->nw = nw;
	s->w = nw + 1;
	s->fd = -1;
	if (mem < MIN_MEM)
		mem = MIN_MEM;
	s->max = mem / (s->w * sizeof(uint64_t));
	s->pool = pool;
	return s;
}

void
ssp_ksort_free(struct ssp_ksort *s)
{
	unsigned i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nruns; i++)
		free(s->runs[i].buf);
	free(s->runs);
	free(s->heap);
	ssp_hugemem_free(s->keys);
	ssp_hugemem_free(s->tmp);
	if (s->fd >= 0)
		close(s->fd);
	if (s->pool != NULL)
		*s->pool += s->taken;
	if (--live == 0) {
		ssp_hugemem_free(spare);
		spare = NULL;
		spare_bytes = 0;
	}
	free(s);
}

void
ssp_ksort_drop_scratch(void)
{
	ssp_hugemem_free(spare);
	spare = NULL;
	spare_bytes = 0;
}

enum ssp_status ssp_ksort_status(const struct ssp_ksort *s) { return s->status; }
uint64_t ssp_ksort_count(const struct ssp_ksort *s) { return s->count; }
unsigned ssp_ksort_spills(const struct ssp_ksort *s) { return s->nruns; }

static inline void
copy_key(uint64_t *dst, const uint64_t *src, unsigned w)
{
	switch (w) {	/* constant sizes: inlined moves */
	case 2:
		memcpy(dst, src, 2 * sizeof(*src));
		break;
	case 3:
		memcpy(dst, src, 3 * sizeof(*src));
		break;
	case 4:
		memcpy(dst, src, 4 * sizeof(*src));
		break;
	default:
		memcpy(dst, src, w * sizeof(*src));
	}
}

/*
 * Stable LSD radix sort of the chunk by its nw key words, a byte at a
 * time from the least significant byte of the last word; bytes that are
 * the same in every key are skipped.
 */
static enum ssp_status
radix(struct ssp_ksort *s)
{
	size_t (*hist)[256] = NULL, i, d, sz = s->w, bytes, tbytes;
	unsigned digit[56], nd = 0, nw = s->nw, k;
	uint64_t *src = s->keys, *dst, *tmp, and[7], or[7];

	if (s->n < 2)
		return SSP_OK;
	/* which bytes differ between keys */
	for (k = 0; k < nw; k++)
		and[k] = or[k] = src[k];
	for (i = 1; i < s->n; i++)
		for (k = 0; k < nw; k++) {
			and[k] &= src[i * sz + k];
			or[k] |= src[i * sz + k];
		}
	for (d = 0; d < (size_t)nw * 8; d++) {	/* d: word nw-1-d/8, byte d%8 */
		unsigned w = nw - 1 - (unsigned)(d / 8), sh = 8 * (unsigned)(d % 8);

		if (((and[w] ^ or[w]) >> sh) & 0xff)
			digit[nd++] = (unsigned)d;
	}
	if (nd == 0)
		return SSP_OK;
	/* the scratch: the one kept from the last sort if large enough */
	bytes = s->cap * sz * sizeof(uint64_t);
	if (spare != NULL && spare_bytes >= bytes) {
		tmp = spare;
		tbytes = spare_bytes;
	} else {
		ssp_hugemem_free(spare);
		if ((tmp = ssp_hugemem_alloc(bytes)) == NULL) {
			spare = NULL;
			return s->status = SSP_ERR_NOMEM;
		}
		tbytes = bytes;
	}
	spare = NULL;
	if ((hist = calloc(nd, sizeof(*hist))) == NULL) {
		spare = tmp;
		spare_bytes = tbytes;
		return s->status = SSP_ERR_NOMEM;
	}
	for (i = 0; i < s->n; i++) {
		const uint64_t *key = src + i * sz;

		for (k = 0; k < nd; k++) {
			unsigned dd = digit[k];

			hist[k][(key[nw - 1 - dd / 8] >> (8 * (dd % 8))) & 0xff]++;
		}
	}
	dst = tmp;
	for (k = 0; k < nd; k++) {
		unsigned dd = digit[k], w = nw - 1 - dd / 8, sh = 8 * (dd % 8);
		size_t sum = 0, c;
		uint64_t *t;

		for (c = 0; c < 256; c++) {
			size_t h = hist[k][c];

			hist[k][c] = sum;
			sum += h;
		}
		for (i = 0; i < s->n; i++) {
			const uint64_t *key = src + i * sz;

			copy_key(dst + hist[k][(key[w] >> sh) & 0xff]++ * sz, key,
			    (unsigned)sz);
		}
		t = src;
		src = dst;
		dst = t;
	}
	free(hist);
	if (src != s->keys) {	/* the result is in the scratch buffer: */
		tmp = s->keys;	/* the chunk's keys take it (s->cap keys */
		s->keys = src;	/* fit), its old buffer is the scratch */
		tbytes = bytes;
	}
	spare = tmp;		/* for the next sort */
	spare_bytes = tbytes;
	return SSP_OK;
}

static enum ssp_status
spill(struct ssp_ksort *s)
{
	size_t bytes = s->n * s->w * sizeof(uint64_t);
	const char *dir = getenv("TMPDIR");
	struct run *nr;
	size_t done = 0;

	if (radix(s) != SSP_OK)
		return s->status;
	if (s->fd < 0) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/ssp-ksort.XXXXXX",
		    dir != NULL && *dir != '\0' ? dir : "/tmp");
		if ((s->fd = mkstemp(path)) < 0)
			return s->status = SSP_ERR_IO;
		unlink(path);
	}
	if ((nr = realloc(s->runs, (s->nruns + 1) * sizeof(*nr))) == NULL)
		return s->status = SSP_ERR_NOMEM;
	s->runs = nr;
	while (done < bytes) {
		ssize_t w = pwrite(s->fd, (const char *)s->keys + done,
		    bytes - done, (off_t)(s->fsize + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return s->status = SSP_ERR_IO;
		done += (size_t)w;
	}
	memset(&s->runs[s->nruns], 0, sizeof(s->runs[0]));
	s->runs[s->nruns].off = s->fsize;
	s->runs[s->nruns].left = s->n;
	s->nruns++;
	s->fsize += bytes;
	s->n = 0;
	return SSP_OK;
}

enum ssp_status
ssp_ksort_add(struct ssp_ksort *s, const uint64_t *key)
{
	SSP_ASSERT(s != NULL && key != NULL && !s->done);
	if (s->status != SSP_OK)
		return s->status;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64, delta;
		uint64_t *k;

		if (cap > s->max)
			cap = s->max;
		delta = (cap - s->cap) * s->w * sizeof(*k);
		if (cap > MIN_KEYS && s->pool != NULL && *s->pool < delta)
			cap = s->cap;	/* the others hold the memory */
		if (cap == s->cap) {
			if (spill(s) != SSP_OK)
				return s->status;
		} else {
			if ((k = ssp_hugemem_realloc(s->keys,
			    cap * s->w * sizeof(*k))) == NULL)
				return s->status = SSP_ERR_NOMEM;
			s->keys = k;
			s->cap = cap;
			if (s->pool != NULL) {
				delta = delta < *s->pool ? delta : *s->pool;
				*s->pool -= delta;
				s->taken += delta;
			}
		}
	}
	memcpy(s->keys + s->n * s->w, key, s->w * sizeof(*key));
	s->n++;
	s->count++;
	return SSP_OK;
}

static int
cmp(const struct ssp_ksort *s, const uint64_t *a, const uint64_t *b)
{
	unsigned i;

	for (i = 0; i < s->w; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* Read ahead in run r; 0 when it is exhausted or on error. */
static int
refill(struct ssp_ksort *s, struct run *r)
{
	size_t esz = s->w * sizeof(uint64_t), want, got = 0;

	if (r->left == 0)
		return 0;
	want = RUN_BUF / esz;
	if (want == 0)
		want = 1;
	if (want > r->left)
		want = (size_t)r->left;
	if (r->buf == NULL && (r->buf = malloc((RUN_BUF / esz + 1) * esz)) == NULL) {
		s->status = SSP_ERR_NOMEM;
		return 0;
	}
	while (got < want * esz) {
		ssize_t n = pread(s->fd, (char *)r->buf + got, want * esz - got,
		    (off_t)(r->off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			s->status = SSP_ERR_IO;
			return 0;
		}
		got += (size_t)n;
	}
	r->off += want * esz;
	r->left -= want;
	r->n = want;
	r->i = 0;
	return 1;
}

static const uint64_t *
head(const struct ssp_ksort *s, unsigned r)
{
	return s->runs[r].buf + s->runs[r].i * s->w;
}

static void
sift_down(struct ssp_ksort *s, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, m = i, t;

		if (l < s->nheap && cmp(s, head(s, s->heap[l]), head(s, s->heap[m])) < 0)
			m = l;
		if (l + 1 < s->nheap &&
		    cmp(s, head(s, s->heap[l + 1]), head(s, s->heap[m])) < 0)
			m = l + 1;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

enum ssp_status
ssp_ksort_done(struct ssp_ksort *s)
{
	unsigned i;

	if (s->status != SSP_OK)
		return s->status;
	s->done = 1;
	if (s->nruns == 0)
		return radix(s);
	if (s->n > 0 && spill(s) != SSP_OK)
		return s->status;
	ssp_hugemem_free(s->keys);
	ssp_hugemem_free(s->tmp);
	s->keys = s->tmp = NULL;
	s->cap = 0;
	if (s->pool != NULL) {
		*s->pool += s->taken;
		s->taken = 0;
	}
	if ((s->heap = malloc(s->nruns * sizeof(*s->heap))) == NULL)
		return s->status = SSP_ERR_NOMEM;
	for (i = 0; i < s->nruns; i++)
		if (refill(s, &s->runs[i]))
			s->heap[s->nheap++] = i;
	if (s->status != SSP_OK)
		return s->status;
	for (i = s->nheap / 2; i-- > 0;)
		sift_down(s, i);
	s->merging = 1;
	return SSP_OK;
}

const uint64_t *
ssp_ksort_next(struct ssp_ksort *s)
{
	struct run *r;
	unsigned top;

	if (s->status != SSP_OK || !s->done)
		return NULL;
	if (!s->merging)
		return s->next < s->n ? s->keys + s->next++ * s->w : NULL;
	if (s->nheap == 0)
		return NULL;
	/* Hand out the smallest head; keep it valid by copying it out of the
	 * run's buffer before the buffer is refilled. */
	top = s->heap[0];
	r = &s->runs[top];
	if (s->keys == NULL &&
	    (s->keys = ssp_hugemem_alloc(s->w * sizeof(uint64_t))) == NULL) {
		s->status = SSP_ERR_NOMEM;
		return NULL;
	}
	memcpy(s->keys, head(s, top), s->w * sizeof(uint64_t));
	if (++r->i == r->n && !refill(s, r)) {
		if (s->status != SSP_OK)
			return NULL;
		s->heap[0] = s->heap[--s->nheap];
	}
	if (s->nheap > 0)
		sift_down(s, 0);
	return s->keys;
}
