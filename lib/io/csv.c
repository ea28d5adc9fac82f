#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/csv.h"

struct rd {
	const char *name;
	ssp_csv_row_fn fn;
	void *ctx;
	struct ssp_err *e;
	int status;		/* first non-OK callback or local error */
	/* the row being collected */
	struct ssp_csv_field f[SSP_CSV_MAXF];
	size_t off[SSP_CSV_MAXF];	/* field text offsets into buf */
	unsigned n;
	char *buf;
	size_t len, cap;
	/* position of the byte being fed and of the field being read */
	unsigned line, col, fline, fcol;
	int need_start, row_start;
};

static int vferr(struct ssp_err *e, const char *file, unsigned line,
    unsigned col, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

static int
vferr(struct ssp_err *e, const char *file, unsigned line, unsigned col,
    const char *fmt, va_list ap)
{
	char msg[200];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (e != NULL) {
		ssp_err_set(e, SSP_ERR_INVAL, 0, "%s:%u:%u: %s", file, line, col, msg);
		e->line = line;
	}
	return SSP_ERR_INVAL;
}

int
ssp_csv_err(struct ssp_err *e, const char *file, unsigned line, unsigned col,
    const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vferr(e, file, line, col, fmt, ap);
	va_end(ap);
	return r;
}

int
ssp_csv_ferr(struct ssp_err *e, const struct ssp_csv_row *row, unsigned field,
    const char *fmt, ...)
{
	va_list ap;
	unsigned line = row->line, col = 1;
	int r;

	if (field < row->n) {
		line = row->f[field].line;
		col = row->f[field].col;
	} else if (row->n > 0) {	/* a missing field: point past the last */
		line = row->f[row->n - 1].line;
		col = row->f[row->n - 1].col + (unsigned)row->f[row->n - 1].len;
	}
	va_start(ap, fmt);
	r = vferr(e, row->file, line, col, fmt, ap);
	va_end(ap);
	return r;
}

static void
on_field(void *s, size_t len, void *data)
{
	struct rd *r = data;

	r->need_start = 1;
	if (r->status != SSP_OK)
		return;
	if (r->n == SSP_CSV_MAXF) {
		r->status = ssp_csv_err(r->e, r->name, r->fline, r->fcol,
		    "more than %d fields in a row", SSP_CSV_MAXF);
		return;
	}
	if (len > 0 && memchr(s, '\0', len) != NULL) {
		r->status = ssp_csv_err(r->e, r->name, r->fline, r->fcol,
		    "NUL byte in field");
		return;
	}
	if (r->len + len + 1 > r->cap) {
		size_t cap = r->cap ? r->cap : 256;
		char *nb;

		while (cap < r->len + len + 1)
			cap *= 2;
		if ((nb = realloc(r->buf, cap)) == NULL) {
			r->status = ssp_err_set(r->e, SSP_ERR_NOMEM, 0, "out of memory");
			return;
		}
		r->buf = nb;
		r->cap = cap;
	}
	if (len > 0)
		memcpy(r->buf + r->len, s, len);
	r->buf[r->len + len] = '\0';
	r->off[r->n] = r->len;
	r->f[r->n].len = len;
	r->f[r->n].line = r->fline;
	r->f[r->n].col = r->fcol;
	r->n++;
	r->len += len + 1;
}

static void
on_row(int c, void *data)
{
	struct rd *r = data;
	struct ssp_csv_row row;
	unsigned i;

	(void)c;
	r->need_start = 1;
	r->row_start = 1;
	if (r->status == SSP_OK) {
		for (i = 0; i < r->n; i++)
			r->f[i].s = r->buf + r->off[i];
		while (r->n > 0 && r->f[r->n - 1].len == 0)
			r->n--;
		if (r->n > 0) {
			row.file = r->name;
			row.f = r->f;
			row.n = r->n;
			row.line = r->f[0].line;
			r->status = r->fn(r->ctx, &row, r->e);
		}
	}
	r->n = 0;
	r->len = 0;
}

enum ssp_status
ssp_csv_read_mem(const char *name, const char *buf, size_t len,
    ssp_csv_row_fn fn, void *ctx, struct ssp_err *e)
{
	struct csv_parser p;
	struct rd r;
	size_t i = 0;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.fn = fn;
	r.ctx = ctx;
	r.e = e;
	r.line = r.col = 1;
	r.need_start = r.row_start = 1;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		i = 3;		/* UTF-8 byte order mark from spreadsheets */
	for (; i < len && r.status == SSP_OK; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (r.row_start && r.col == 1 && c == '#') {
			while (i < len && buf[i] != '\n')
				i++;
			r.line++;
			continue;
		}
		/* a field starts at its first byte that is not trimmed space */
		if (r.need_start && c != ' ' && c != '\t' &&
		    !(r.row_start && (c == '\r' || c == '\n'))) {
			r.fline = r.line;
			r.fcol = r.col;
			r.need_start = 0;
		}
		if (c != '\r' && c != '\n')
			r.row_start = 0;
		/*
		 * libcsv grows its field buffer by blk_size (128 bytes): a
		 * realloc and copy per 128 bytes of a long field, minutes for
		 * 5 MB under ASan.  Growing the block with the buffer doubles it.
		 */
		if (p.entry_size > p.blk_size)
			csv_set_blk_size(&p, p.entry_size);
		if (csv_parse(&p, &c, 1, on_field, on_row, &r) != 1) {
			r.status = ssp_csv_err(e, name, r.line, r.col,
			    "malformed CSV (%s); quote fields containing '\"' "
			    "or ','", csv_strerror(csv_error(&p)));
			break;
		}
		if (c == '\n') {
			r.line++;
			r.col = 1;
		} else {
			r.col++;
		}
	}
	if (r.status == SSP_OK && csv_fini(&p, on_field, on_row, &r) != 0 &&
	    r.status == SSP_OK)
		r.status = ssp_csv_err(e, name, r.fline, r.fcol,
		    "unterminated quoted field");	/* where it opened */
	csv_free(&p);
	free(r.buf);
	return r.status;
}

enum ssp_status
ssp_csv_slurp(const char *path, char **bufp, size_t *lenp, struct ssp_err *e)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	*bufp = NULL;
	*lenp = 0;
	if (f == NULL)
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path, strerror(errno));
	for (;;) {
		if (len == cap) {
			char *nb;

			if (cap >= SSP_CSV_MAXBYTES) {
				fclose(f);
				free(buf);
				return ssp_err_set(e, SSP_ERR_LIMIT, 0, "%s: larger "
				    "than %u bytes", path, SSP_CSV_MAXBYTES);
			}
			cap = cap ? cap * 2 : 65536;
			if ((nb = realloc(buf, cap + 1)) == NULL) {
				fclose(f);
				free(buf);
				return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		int r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path, strerror(errno));

		fclose(f);
		free(buf);
		return r;
	}
	fclose(f);
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return SSP_OK;
}

enum ssp_status
ssp_csv_read_file(const char *path, ssp_csv_row_fn fn, void *ctx,
    struct ssp_err *e)
{
	char *buf;
	size_t len;
	int r;

	if ((r = ssp_csv_slurp(path, &buf, &len, e)) != SSP_OK)
		return r;
	r = ssp_csv_read_mem(path, buf, len, fn, ctx, e);
	free(buf);
	return r;
}
