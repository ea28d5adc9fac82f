#include <stdlib.h>
#include <string.h>

#include "ssp_lines.h"

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

int
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

static int
emit(struct ssp_lines *l, size_t nl, char **line, size_t *len)
{
	*line = l->buf + l->start;
	*len = nl - l->start;
	l->buf[nl] = '\0';
	l->off = l->base + l->start;
	l->lineno++;
	l->start = nl + 1;
	l->scan = l->start;
	return SSP_LINE;
}

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
			return emit(l, at, line, len);
		}
		l->scan = l->end;
		if (l->end - l->start >= SSP_LINES_MAX) {
			/* Hand out the first SSP_LINES_MAX bytes, drop the rest. */
			if (l->skipping) {
				l->start = l->scan = l->end;
			} else {
				l->skipping = 1;
				l->cut = 1;
				r = emit(l, l->start + SSP_LINES_MAX - 1, line, len);
				l->start = l->scan = l->end;
				return (int)r;
			}
		}
		if (l->eof) {
			if (l->start < l->end && !l->skipping) {
				l->unterminated = 1;
				return emit(l, l->end, line, len);
			}
			return SSP_LINE_EOF;
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
			/* The writer went away mid-line: that line ends here. */
			if (l->start < l->end && !l->skipping) {
				l->unterminated = 1;
				emit(l, l->end, line, len);
				/* emit steps over a newline that is not there: the
				 * next writer's bytes start at end */
				l->start = l->scan = l->end;
				return SSP_LINE;
			}
			l->skipping = 0;
		} else if (r == SSP_IN_IDLE) {
			return SSP_LINE_IDLE;
		} else {
			return SSP_LINE_ERR;
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
