#include <stdlib.h>
#include <string.h>

#include "io/lines.h"

#define READ_CHUNK (128 * 1024)
#define BUF_SIZE   (SSP_LINES_MAX + READ_CHUNK + 1)

struct ssp_lines {
	struct ssp_in *in;
	char *buf;
	size_t start, end;	/* unconsumed bytes are buf[start, end) */
	size_t scan;		/* no newline in buf[start, scan) */
	uint64_t lineno;
	uint64_t base;		/* stream offset of buf[0] */
	uint64_t off;		/* offset of the last line */
	int eof;
	int cut, unterminated;
	int skipping;		/* discarding the tail of an over-long line */
};

enum ssp_status
ssp_lines_open(struct ssp_lines **lp, struct ssp_in *in, struct ssp_err *e)
{
	struct ssp_lines *l = calloc(1, sizeof(*l));

	*lp = NULL;
	if (l == NULL || (l->buf = malloc(BUF_SIZE)) == NULL) {
		free(l);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	l->in = in;
	*lp = l;
	return SSP_OK;
}

/* Hand out buf[start, at) as the next line; the unconsumed bytes then
 * start at next (past the newline, or at end when there is none). */
static int
emit(struct ssp_lines *l, size_t at, size_t next, char **line, size_t *len)
{
	*line = l->buf + l->start;
	*len = at - l->start;
	l->buf[at] = '\0';
	l->off = l->base + l->start;
	l->lineno++;
	l->start = l->scan = next;
	return SSP_LINE;
}

/*
 * Invariants: start <= scan <= end.  Before a read, end - start <=
 * SSP_LINES_MAX (more would have been cut), so after moving the partial
 * line to the front and reading READ_CHUNK bytes, end <= SSP_LINES_MAX +
 * READ_CHUNK and the NUL written at buf[end] for a line without a newline
 * still fits in BUF_SIZE.
 */
int
ssp_lines_next(struct ssp_lines *l, char **line, size_t *len, struct ssp_err *e)
{
	char *nl;
	ssize_t r;

	l->cut = 0;
	l->unterminated = 0;
	for (;;) {
		nl = l->scan < l->end ?
		    memchr(l->buf + l->scan, '\n', l->end - l->scan) : NULL;
		if (nl != NULL) {
			size_t at = (size_t)(nl - l->buf);

			if (l->skipping) {	/* end of an over-long line */
				l->skipping = 0;
				l->start = l->scan = at + 1;
				continue;
			}
			if (at - l->start > SSP_LINES_MAX) {	/* newline in the last read */
				l->cut = 1;
				return emit(l, l->start + SSP_LINES_MAX, at + 1, line, len);
			}
			return emit(l, at, at + 1, line, len);
		}
		l->scan = l->end;
		if (l->skipping) {
			l->start = l->end;	/* more of an over-long line: drop it */
		} else if (l->end - l->start > SSP_LINES_MAX) {
			/* Longer than SSP_LINES_MAX: hand out the first
			 * SSP_LINES_MAX bytes, drop the rest up to the newline. */
			l->skipping = 1;
			l->cut = 1;
			return emit(l, l->start + SSP_LINES_MAX, l->end, line, len);
		}
		if (l->eof) {
			if (l->start == l->end)
				return SSP_LINE_EOF;
			/* A last line without a newline is a line like any
			 * other at the true end of the input; a follower was
			 * stopped and may have caught it half-written. */
			l->unterminated = ssp_in_follows(l->in);
			return emit(l, l->end, l->end, line, len);
		}
		/* Make room: move the partial line to the front. */
		if (l->start > 0) {
			memmove(l->buf, l->buf + l->start, l->end - l->start);
			l->base += l->start;
			l->end -= l->start;
			l->scan -= l->start;
			l->start = 0;
		}
		r = ssp_in_read(l->in, l->buf + l->end, READ_CHUNK, e);
		if (r > 0) {
			l->end += (size_t)r;
		} else if (r == SSP_IN_EOF) {
			l->eof = 1;
		} else if (r == SSP_IN_BREAK) {
			/* The writer went away mid-line: that line ends here,
			 * and the next writer's bytes start a new one. */
			l->skipping = 0;
			if (l->start < l->end) {
				l->unterminated = 1;
				return emit(l, l->end, l->end, line, len);
			}
		} else if (r == SSP_IN_IDLE) {
			return SSP_LINE_IDLE;
		} else {
			return (int)r;	/* -status */
		}
	}
}

uint64_t ssp_lines_lineno(const struct ssp_lines *l) { return l->lineno; }
uint64_t ssp_lines_offset(const struct ssp_lines *l) { return l->off; }
int ssp_lines_cut(const struct ssp_lines *l) { return l->cut; }
int ssp_lines_unterminated(const struct ssp_lines *l) { return l->unterminated; }

void
ssp_lines_close(struct ssp_lines *l)
{
	if (l == NULL)
		return;
	free(l->buf);
	free(l);
}
