/*
 * The line reader against a model of it.  The input is read in chunks of
 * random size, with follow-mode breaks (a pipe's writer going away) and
 * idle ticks in between; every line handed out must be the model's next
 * line: its bytes at its offset in the input, its number, its cut and
 * unterminated flags.
 *
 * Input: byte 0 flags (1 follow mode, 2 breaks, 4 idle ticks, 8 expand),
 * bytes 1-4 the seed of the chunk sizes, then the text.  With expand, ESC c b
 * in the text stands for (c + 1) * 4096 bytes b, so that lines past
 * SSP_LINES_MAX are reachable.  Inputs shorter than 5 bytes are all text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/in.h"
#include "io/lines.h"

#define F_FOLLOW 1
#define F_BREAKS 2
#define F_IDLE   4
#define F_EXPAND 8
#define TEXT_MAX (3 * (size_t)SSP_LINES_MAX)
#define NBRK     64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct feed {
	const uint8_t *p;
	size_t n, off;
	uint32_t rng;
	int idle;
	const size_t *brk;	/* break offsets, increasing, in 1..n */
	size_t nbrk, bi;
};

static uint32_t
next_rng(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static ssize_t
feed_read(void *ctx, void *buf, size_t n)
{
	struct feed *f = ctx;
	uint32_t r = next_rng(&f->rng);
	size_t k;

	if (f->idle && r % 5 == 0)
		return SSP_IN_IDLE;
	if (f->bi < f->nbrk && f->off == f->brk[f->bi]) {
		f->bi++;
		return SSP_IN_BREAK;
	}
	switch (r & 3) {
	case 0: k = 1 + (r >> 2) % 16; break;
	case 1: k = 1 + (r >> 2) % 4096; break;
	case 2: k = 1 + (r >> 2) % (1u << 20); break;
	default: k = n; break;
	}
	if (f->bi < f->nbrk && f->off + k > f->brk[f->bi])
		k = f->brk[f->bi] - f->off;
	if (k > f->n - f->off)
		k = f->n - f->off;
	if (k > n)
		k = n;
	if (k == 0)
		return SSP_IN_EOF;
	memcpy(buf, f->p + f->off, k);
	f->off += k;
	return (ssize_t)k;
}

/* The model: lines end at a newline, a break or the end; a line longer
 * than SSP_LINES_MAX is its first SSP_LINES_MAX bytes, cut; an empty
 * line without a newline is no line. */
struct model {
	const uint8_t *p;
	size_t n, s;
	const size_t *brk;
	size_t nbrk, bi;
	int follow, done;
};

struct want {
	size_t off, len;
	int cut, unterminated;
};

static int
model_next(struct model *m, struct want *w)
{
	const uint8_t *nl;
	size_t b, lim, len, start;
	int kind;	/* 0 newline, 1 break, 2 end */

	while (!m->done) {
		while (m->bi < m->nbrk && m->brk[m->bi] <= m->s)
			m->bi++;
		b = m->bi < m->nbrk ? m->brk[m->bi] : m->n + 1;
		lim = b < m->n ? b : m->n;
		start = m->s;
		nl = memchr(m->p + start, '\n', lim - start);
		if (nl != NULL) {
			len = (size_t)(nl - (m->p + start));
			kind = 0;
			m->s = start + len + 1;
		} else if (b <= m->n) {
			len = b - start;
			kind = 1;
			m->s = b;
		} else {
			len = m->n - start;
			kind = 2;
			m->s = m->n;
			m->done = 1;
		}
		w->off = start;
		w->cut = 0;
		w->unterminated = 0;
		if (len > SSP_LINES_MAX) {
			w->len = SSP_LINES_MAX;
			w->cut = 1;
			return 1;
		}
		w->len = len;
		if (kind == 0)
			return 1;
		if (len > 0) {
			w->unterminated = kind == 1 ? 1 : m->follow;
			return 1;
		}
	}
	return 0;
}

/* Text from the input: as is, or with ESC c b runs expanded. */
static size_t
expand(const uint8_t *p, size_t n, uint8_t *t)
{
	size_t i, k = 0, run;

	for (i = 0; i < n && k < TEXT_MAX; i++) {
		if (p[i] == 0x1b && i + 2 < n) {
			run = ((size_t)p[i + 1] + 1) * 4096;
			if (run > TEXT_MAX - k)
				run = TEXT_MAX - k;
			if (t != NULL)
				memset(t + k, p[i + 2], run);
			k += run;
			i += 2;
		} else {
			if (t != NULL)
				t[k] = p[i];
			k++;
		}
	}
	return k;
}

static uint8_t *
text(const uint8_t *p, size_t n, int expanded, size_t *tn)
{
	uint8_t *t;

	*tn = expanded ? expand(p, n, NULL) : n;
	if ((t = malloc(*tn > 0 ? *tn : 1)) == NULL)
		abort();
	if (expanded)
		expand(p, n, t);
	else
		memcpy(t, p, n);
	return t;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned flags = 0;
	uint32_t seed = 1;
	size_t brk[NBRK], nbrk = 0, tn, len, lines = 0;
	struct feed f;
	struct model m;
	struct want w;
	struct ssp_in *in;
	struct ssp_lines *l;
	uint8_t *t;
	char *line;
	int r;

	if (size >= 5) {
		flags = data[0];
		seed = (uint32_t)data[1] | (uint32_t)data[2] << 8 |
		    (uint32_t)data[3] << 16 | (uint32_t)data[4] << 24;
		data += 5;
		size -= 5;
	}
	t = text(data, size, (flags & F_EXPAND) != 0, &tn);
	if (seed == 0)
		seed = 1;
	if ((flags & F_BREAKS) && tn > 0) {	/* increasing offsets in 1..tn */
		size_t at = 0, gap = tn / 8 + 1;

		while (nbrk < NBRK) {
			at += 1 + next_rng(&seed) % gap;
			if (at > tn)
				break;
			brk[nbrk++] = at;
		}
	}
	memset(&f, 0, sizeof(f));
	f.p = t;
	f.n = tn;
	f.rng = seed;
	f.idle = (flags & F_IDLE) != 0;
	f.brk = brk;
	f.nbrk = nbrk;
	memset(&m, 0, sizeof(m));
	m.p = t;
	m.n = tn;
	m.brk = brk;
	m.nbrk = nbrk;
	m.follow = (flags & F_FOLLOW) != 0;

	if (ssp_in_fnopen(&in, feed_read, &f, "fuzz",
	    (flags & F_FOLLOW) ? SSP_IN_FOLLOW : 0, NULL) != SSP_OK ||
	    ssp_lines_open(&l, in, NULL) != SSP_OK)
		abort();
	while ((r = ssp_lines_next(l, &line, &len, NULL)) != SSP_LINE_EOF) {
		if (r == SSP_LINE_IDLE)
			continue;
		if (r != SSP_LINE || model_next(&m, &w) != 1)
			abort();	/* no error expected; no line past the model's */
		lines++;
		if (len != w.len || ssp_lines_offset(l) != w.off ||
		    ssp_lines_lineno(l) != lines || ssp_lines_cut(l) != w.cut ||
		    ssp_lines_unterminated(l) != w.unterminated)
			abort();
		/* the line is within the input, NUL-terminated, one line */
		if (w.off + len > tn || memcmp(line, t + w.off, len) != 0 ||
		    line[len] != '\0' || memchr(line, '\n', len) != NULL)
			abort();
	}
	if (model_next(&m, &w) != 0 || ssp_in_pos(in) != tn || f.off != tn ||
	    ssp_lines_lineno(l) != lines)
		abort();
	/* at the end it stays at the end */
	if (ssp_lines_next(l, &line, &len, NULL) != SSP_LINE_EOF)
		abort();
	ssp_lines_close(l);
	ssp_in_close(in);
	free(t);
	return 0;
}
