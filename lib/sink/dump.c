#include <csv.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/strfmt.h"
#include "sink/dump.h"

#define NUMBUF 32	/* longest number, MAC or address as text */
#define NOCOL  (~0u)	/* colmap: a field without a column (-c LIST) */

struct ssp_dump {
	FILE *out;
	enum ssp_dump_fmt fmt;
	const struct ssp_rec_rd *rr;
	const struct ssp_rec_rd *bound_rr;	/* reader and segment the tables describe */
	uint64_t bound_gen;
	size_t typew;		/* text: width of the type column */
	/* CSV: the header's columns; column of each (file type, field) */
	unsigned ncols;
	char **cols;
	unsigned *colmap;	/* [type * SSP_MAXF + field] -> column */
	unsigned ntypes;	/* types colmap covers */
	const char **cell;	/* scratch row: text and length per column */
	size_t *cell_len;
	char num[SSP_MAXF][NUMBUF];
	char err[256];
	const char *const *streams;	/* stream names, or NULL */
	size_t nstreams;
	unsigned name_col;	/* CSV: the stream_name column, NOCOL = none */
	struct ssp_buf jbuf;	/* JSON: one string */
	int sel;		/* CSV columns given (-c LIST), not the union */
	unsigned ts_col, type_col, trace_col;	/* NOCOL: none */
	int trace_id;		/* trace_hi, trace_lo as one trace id */
	unsigned char *thi, *tlo;	/* per type: field + 1 of each, 0 none */
	char tsbuf[NUMBUF], tracebuf[40];
};

static int
is_stream_field(const struct ssp_dump *d, const struct ssp_field *f)
{
	return d->streams != NULL && f->enc == SSP_ENC_U &&
	    strcmp(f->name, "stream") == 0;
}

static const char *
stream_name(const struct ssp_dump *d, uint64_t v)
{
	return v < d->nstreams ? d->streams[v] : "?";
}

void
ssp_dump_value(char *buf, size_t n, char enc, uint64_t v, const struct ssp_rec_rd *rr)
{
	const char *s;

	switch (enc) {
	case SSP_ENC_X:
		snprintf(buf, n, "0x%" PRIx64, v);
		break;
	case SSP_ENC_I:
	case SSP_ENC_T:
		snprintf(buf, n, "%" PRId64, (int64_t)v);
		break;
	case SSP_ENC_S:
		s = v == 0 ? "" : ssp_rec_rd_str(rr, v, NULL);
		snprintf(buf, n, "%s", s != NULL ? s : "?");
		break;
	case SSP_ENC_M:
		snprintf(buf, n, "%02x:%02x:%02x:%02x:%02x:%02x",
		    (unsigned)(v >> 40) & 0xff, (unsigned)(v >> 32) & 0xff,
		    (unsigned)(v >> 24) & 0xff, (unsigned)(v >> 16) & 0xff,
		    (unsigned)(v >> 8) & 0xff, (unsigned)v & 0xff);
		break;
	case SSP_ENC_A:
		snprintf(buf, n, "%u.%u.%u.%u", (unsigned)(v >> 24) & 0xff,
		    (unsigned)(v >> 16) & 0xff, (unsigned)(v >> 8) & 0xff,
		    (unsigned)v & 0xff);
		break;
	default:
		snprintf(buf, n, "%" PRIu64, v);
	}
}

/* Does a text-form value need quotes to stay one token on one line? */
static int
needs_quotes(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= ' ' || c == '"' || c == '\\' || c == '=' || c == 0x7f)
			return 1;
	}
	return 0;
}

static void
text_str(FILE *out, const char *s, size_t n)
{
	size_t i;

	if (!needs_quotes(s, n)) {
		fwrite(s, 1, n, out);
		return;
	}
	putc('"', out);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c == '\r')
			fputs("\\r", out);
		else if (c < ' ' || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			putc(c, out);
	}
	putc('"', out);
}

/* Escape the way a person reading the dump wants: control characters and
 * invalid bytes as visible escapes. */
#define JSON_FLAGS (SSP_STRFMT_CTL_U | SSP_STRFMT_BAD_ESC)

void
ssp_dump_json_str(FILE *out, const char *s, size_t n)
{
	struct ssp_buf b = SSP_BUF_INIT;

	ssp_strfmt_json_str_flags(&b, s, n, JSON_FLAGS);
	fwrite(b.p, 1, b.len, out);
	ssp_buf_free(&b);
}

/* The same into the dump's own buffer (no allocation per string). */
static void
json_str(struct ssp_dump *d, const char *s, size_t n)
{
	ssp_buf_reset(&d->jbuf);
	ssp_strfmt_json_str_flags(&d->jbuf, s, n, JSON_FLAGS);
	fwrite(d->jbuf.p, 1, d->jbuf.len, d->out);
}

static void
csv_cell(FILE *out, const char *s, size_t n)
{
	size_t i;

	/* Quote only when RFC 4180 needs it, so numbers stay plain. */
	for (i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			break;
	if (i < n || (n > 0 && (s[0] == ' ' || s[n - 1] == ' ')))
		csv_fwrite(out, s, n);
	else
		fwrite(s, 1, n, out);
}

static int
column(struct ssp_dump *d, const char *name)
{
	unsigned c;

	for (c = 0; c < d->ncols; c++)
		if (c != d->ts_col && c != d->type_col && c != d->trace_col &&
		    c != d->name_col &&
		    strcmp(d->cols[c], name) == 0)
			return (int)c;
	return -1;
}

/* The trace_hi and trace_lo fields of each type, when trace ids are one. */
static int
bind_trace(struct ssp_dump *d, const struct ssp_schema *fs)
{
	unsigned t, k;

	free(d->thi);
	free(d->tlo);
	d->thi = calloc(fs->ntypes + 1, 1);
	d->tlo = calloc(fs->ntypes + 1, 1);
	if (d->thi == NULL || d->tlo == NULL)
		return -1;
	for (t = 0; t < fs->ntypes; t++)
		for (k = 0; k < fs->types[t].nf; k++)
			if (fs->types[t].f[k].enc == SSP_ENC_X &&
			    strcmp(fs->types[t].f[k].name, "trace_hi") == 0)
				d->thi[t] = (unsigned char)(k + 1);
			else if (fs->types[t].f[k].enc == SSP_ENC_X &&
			    strcmp(fs->types[t].f[k].name, "trace_lo") == 0)
				d->tlo[t] = (unsigned char)(k + 1);
	for (t = 0; t < fs->ntypes; t++)
		if (d->thi[t] == 0 || d->tlo[t] == 0)
			d->thi[t] = d->tlo[t] = 0;
	return 0;
}

/* The 32 hex digits of record r's trace id, or NULL (its type has none). */
static const char *
trace_text(struct ssp_dump *d, const struct ssp_rec *r)
{
	unsigned t = r->ftag - 1;

	if (d->thi == NULL || d->thi[t] == 0)
		return NULL;
	snprintf(d->tracebuf, sizeof(d->tracebuf), "%016" PRIx64 "%016" PRIx64,
	    r->f[d->thi[t] - 1], r->f[d->tlo[t] - 1]);
	return d->tracebuf;
}

static int
add_column(struct ssp_dump *d, const char *name)
{
	char **nc = realloc(d->cols, (d->ncols + 1) * sizeof(*nc));

	if (nc == NULL)
		return -1;
	d->cols = nc;
	if ((d->cols[d->ncols] = strdup(name)) == NULL)
		return -1;
	d->ncols++;
	return 0;
}

/*
 * (Re)build the per-type tables for the reader's current schema.  CSV:
 * the first schema makes the header; later ones must fit in it.
 */
static int
bind(struct ssp_dump *d)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(d->rr);
	unsigned t, k;
	int c;

	d->bound_rr = d->rr;
	d->bound_gen = ssp_rec_rd_strgen(d->rr);
	for (t = 0; t < fs->ntypes; t++)
		if (strlen(fs->types[t].name) > d->typew)
			d->typew = strlen(fs->types[t].name);
	if (d->trace_id && bind_trace(d, fs) != 0)
		goto nomem;
	if (d->fmt != SSP_DUMP_CSV)
		return SSP_OK;
	free(d->colmap);
	d->ntypes = fs->ntypes;
	if ((d->colmap = calloc((size_t)fs->ntypes * SSP_MAXF + 1,
	    sizeof(*d->colmap))) == NULL)
		goto nomem;
	for (t = 0; t < fs->ntypes; t++) {
		const struct ssp_rec_type *rt = &fs->types[t];

		for (k = 0; k < rt->nf; k++) {
			if ((c = column(d, rt->f[k].name)) < 0 && d->sel) {
				d->colmap[t * SSP_MAXF + k] = NOCOL;
				continue;
			}
			if (c < 0) {
				if (d->cell != NULL) {	/* header already out */
					snprintf(d->err, sizeof(d->err), "%s: field "
					    "'%s' of type '%s' has no column in the "
					    "CSV header, which came from the first "
					    "input; convert it separately",
					    ssp_rec_rd_name(d->rr), rt->f[k].name,
					    rt->name);
					return SSP_ERR_SCHEMA;
				}
				if (add_column(d, rt->f[k].name) != 0)
					goto nomem;
				c = (int)d->ncols - 1;
				if (is_stream_field(d, &rt->f[k]) &&
				    d->name_col == NOCOL) {
					if (add_column(d, "stream_name") != 0)
						goto nomem;
					d->name_col = d->ncols - 1;
				}
			}
			d->colmap[t * SSP_MAXF + k] = (unsigned)c;
		}
	}
	if (d->cell == NULL) {	/* first schema: the header row */
		d->cell = calloc(d->ncols, sizeof(*d->cell));
		d->cell_len = calloc(d->ncols, sizeof(*d->cell_len));
		if (d->cell == NULL || d->cell_len == NULL)
			goto nomem;
		for (c = 0; c < (int)d->ncols; c++) {
			if (c > 0)
				putc(',', d->out);
			csv_cell(d->out, d->cols[c], strlen(d->cols[c]));
		}
		fputs("\r\n", d->out);
	}
	return SSP_OK;
nomem:
	snprintf(d->err, sizeof(d->err), "out of memory");
	return SSP_ERR_NOMEM;
}

struct ssp_dump *
ssp_dump_new(FILE *out, enum ssp_dump_fmt fmt, const struct ssp_rec_rd *rr)
{
	return ssp_dump_new_named(out, fmt, rr, NULL, 0);
}

struct ssp_dump *
ssp_dump_new_named(FILE *out, enum ssp_dump_fmt fmt, const struct ssp_rec_rd *rr,
    const char *const *streams, size_t nstreams)
{
	struct ssp_dump_opts o = { streams, nstreams, NULL, 0 };
	struct ssp_dump *d;

	return ssp_dump_open(&d, out, fmt, rr, &o, NULL) == SSP_OK ? d : NULL;
}

/* Whether some type of the schema has a field called name. */
static int
schema_has(const struct ssp_schema *fs, const char *name)
{
	unsigned t, k;

	for (t = 0; t < fs->ntypes; t++)
		for (k = 0; k < fs->types[t].nf; k++)
			if (strcmp(fs->types[t].f[k].name, name) == 0)
				return 1;
	return 0;
}

/* -c LIST: the columns asked for, each a pseudo-column or some field. */
static enum ssp_status
select_columns(struct ssp_dump *d, const char *list, struct ssp_err *e)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(d->rr);
	const char *p = list, *q;
	char name[64];
	size_t n;
	unsigned c;

	d->sel = 1;
	for (;;) {
		q = strchr(p, ',');
		n = q != NULL ? (size_t)(q - p) : strlen(p);
		if (n == 0 || n >= sizeof(name))
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "-c %s: %s column name",
			    list, n == 0 ? "an empty" : "too long a");
		memcpy(name, p, n);
		name[n] = '\0';
		for (c = 0; c < d->ncols; c++)
			if (strcmp(d->cols[c], name) == 0)
				return ssp_err_set(e, SSP_ERR_INVAL, 0, "-c %s: "
				    "column '%s' twice", list, name);
		c = d->ncols;
		if (strcmp(name, "ts") == 0)
			d->ts_col = c;
		else if (strcmp(name, "type") == 0)
			d->type_col = c;
		else if (strcmp(name, "stream_name") == 0 && d->streams != NULL)
			d->name_col = c;
		else if (strcmp(name, "trace") == 0 && d->trace_id &&
		    schema_has(fs, "trace_hi") && schema_has(fs, "trace_lo"))
			d->trace_col = c;
		else if (!schema_has(fs, name))
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "-c %s: %s has no "
			    "column '%s' (--csv's header row names them all)",
			    list, ssp_rec_rd_name(d->rr), name);
		if (add_column(d, name) != 0)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		if (q == NULL)
			return SSP_OK;
		p = q + 1;
	}
}

enum ssp_status
ssp_dump_open(struct ssp_dump **dp, FILE *out, enum ssp_dump_fmt fmt,
    const struct ssp_rec_rd *rr, const struct ssp_dump_opts *o,
    struct ssp_err *e)
{
	struct ssp_dump *d = calloc(1, sizeof(*d));
	enum ssp_status rc;

	*dp = NULL;
	if (d == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	d->streams = o->streams;
	d->nstreams = o->nstreams;
	d->trace_id = o->trace_id;
	d->out = out;
	d->fmt = fmt;
	d->rr = rr;
	d->ts_col = d->type_col = d->trace_col = d->name_col = NOCOL;
	if (o->columns != NULL && fmt == SSP_DUMP_CSV) {
		if ((rc = select_columns(d, o->columns, e)) != SSP_OK) {
			ssp_dump_free(d);
			return rc;
		}
	} else if (add_column(d, "ts") != 0 || add_column(d, "type") != 0) {
		ssp_dump_free(d);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	} else {
		d->ts_col = 0;
		d->type_col = 1;
	}
	if ((rc = bind(d)) != SSP_OK) {
		ssp_err_set(e, rc, 0, "%s", d->err);
		ssp_dump_free(d);
		return rc;
	}
	*dp = d;
	return SSP_OK;
}

void ssp_dump_reader(struct ssp_dump *d, const struct ssp_rec_rd *rr) { d->rr = rr; }
const char *ssp_dump_error(const struct ssp_dump *d) { return d->err; }

/* Field value: strings point into the reader, numbers into buf. */
static const char *
value(struct ssp_dump *d, char enc, uint64_t v, char *buf, size_t *n)
{
	const char *s;

	if (enc == SSP_ENC_S) {
		*n = 0;
		if (v == 0 || (s = ssp_rec_rd_str(d->rr, v, n)) == NULL)
			return "";
		return s;
	}
	ssp_dump_value(buf, NUMBUF, enc, v, d->rr);
	*n = strlen(buf);
	return buf;
}

enum ssp_status
ssp_dump_rec(struct ssp_dump *d, const struct ssp_rec *r)
{
	const struct ssp_rec_type *t;
	const char *s;
	char v[NUMBUF];
	size_t n;
	unsigned k, c;
	int rc;

	if ((d->bound_rr != d->rr || d->bound_gen != ssp_rec_rd_strgen(d->rr)) &&
	    (rc = bind(d)) != SSP_OK)
		return rc;
	t = &ssp_rec_rd_file_schema(d->rr)->types[r->ftag - 1];
	switch (d->fmt) {
	case SSP_DUMP_TEXT:
		/* no padding after the type when no field follows */
		fprintf(d->out, "%15" PRId64 " %-*s", r->ts,
		    t->nf > 0 ? (int)d->typew : 0, t->name);
		for (k = 0; k < t->nf; k++) {
			fprintf(d->out, " %s=", t->f[k].name);
			if (is_stream_field(d, &t->f[k])) {
				s = stream_name(d, r->f[k]);
				text_str(d->out, s, strlen(s));
				continue;
			}
			s = value(d, t->f[k].enc, r->f[k], v, &n);
			if (t->f[k].enc == SSP_ENC_S && r->f[k] != 0)
				text_str(d->out, s, n);
			else
				fwrite(s, 1, n, d->out);
		}
		putc('\n', d->out);
		break;
	case SSP_DUMP_CSV:
		for (c = 0; c < d->ncols; c++)
			d->cell[c] = NULL;
		for (k = 0; k < t->nf; k++) {
			c = d->colmap[(r->ftag - 1) * SSP_MAXF + k];
			if (c != NOCOL)
				d->cell[c] = value(d, t->f[k].enc, r->f[k],
				    d->num[k], &d->cell_len[c]);
			if (d->name_col != NOCOL && is_stream_field(d, &t->f[k])) {
				c = d->name_col;
				d->cell[c] = stream_name(d, r->f[k]);
				d->cell_len[c] = strlen(d->cell[c]);
			}
		}
		if (d->ts_col != NOCOL) {
			snprintf(d->tsbuf, sizeof(d->tsbuf), "%" PRId64, r->ts);
			d->cell[d->ts_col] = d->tsbuf;
			d->cell_len[d->ts_col] = strlen(d->tsbuf);
		}
		if (d->type_col != NOCOL) {
			d->cell[d->type_col] = t->name;
			d->cell_len[d->type_col] = strlen(t->name);
		}
		if (d->trace_col != NOCOL && (s = trace_text(d, r)) != NULL) {
			d->cell[d->trace_col] = s;
			d->cell_len[d->trace_col] = strlen(s);
		}
		for (c = 0; c < d->ncols; c++) {
			if (c > 0)
				putc(',', d->out);
			if (d->cell[c] != NULL)
				csv_cell(d->out, d->cell[c], d->cell_len[c]);
		}
		fputs("\r\n", d->out);
		break;
	case SSP_DUMP_JSON:
		fprintf(d->out, "{\"ts\":%" PRId64 ",\"type\":", r->ts);
		json_str(d, t->name, strlen(t->name));
		for (k = 0; k < t->nf; k++) {
			char enc = t->f[k].enc;

			if (d->thi != NULL && d->thi[r->ftag - 1] != 0 &&
			    (k + 1 == d->thi[r->ftag - 1] ||
			    k + 1 == d->tlo[r->ftag - 1])) {
				if (k + 1 == d->thi[r->ftag - 1])
					fprintf(d->out, ",\"trace\":\"%s\"",
					    trace_text(d, r));
				continue;
			}
			putc(',', d->out);
			json_str(d, t->f[k].name,
			    strlen(t->f[k].name));
			putc(':', d->out);
			s = value(d, enc, r->f[k], v, &n);
			if (enc == SSP_ENC_U || enc == SSP_ENC_I || enc == SSP_ENC_T)
				fwrite(s, 1, n, d->out);
			else if (enc == SSP_ENC_B)
				fputs(r->f[k] ? "true" : "false", d->out);
			else
				json_str(d, s, n);
			if (is_stream_field(d, &t->f[k])) {
				s = stream_name(d, r->f[k]);
				fputs(",\"stream_name\":", d->out);
				json_str(d, s, strlen(s));
			}
		}
		fputs("}\n", d->out);
		break;
	}
	return SSP_OK;
}

void
ssp_dump_free(struct ssp_dump *d)
{
	unsigned c;

	if (d == NULL)
		return;
	for (c = 0; c < d->ncols; c++)
		free(d->cols[c]);
	free(d->cols);
	free(d->colmap);
	free(d->cell);
	free(d->cell_len);
	free(d->thi);
	free(d->tlo);
	ssp_buf_free(&d->jbuf);
	free(d);
}

/* evcat -H and spancat -H (dump.h). */
void
ssp_dump_header(FILE *out, const struct ssp_rec_rd *rr, enum ssp_dump_fmt fmt,
    const char *label)
{
	const struct ssp_schema *s = ssp_rec_rd_file_schema(rr);
	const char *name = ssp_rec_rd_name(rr);
	const struct ssp_meta *m;
	size_t i;
	unsigned t, k;

	if (fmt == SSP_DUMP_JSON) {
		fprintf(out, "{\"header\":{\"file\":");
		ssp_dump_json_str(out, name, strlen(name));
		fprintf(out, ",\"format\":\"1.%u\",\"meta\":{",
		    ssp_rec_rd_version_minor(rr));
		for (i = 0; i < ssp_rec_rd_nmeta(rr); i++) {
			m = ssp_rec_rd_meta_at(rr, i);
			if (i)
				putc(',', out);
			ssp_dump_json_str(out, m->key, strlen(m->key));
			putc(':', out);
			ssp_dump_json_str(out, m->value, strlen(m->value));
		}
		fprintf(out, "},\"types\":[");
		for (t = 0; t < s->ntypes; t++) {
			fprintf(out, "%s{\"name\":", t ? "," : "");
			ssp_dump_json_str(out, s->types[t].name,
			    strlen(s->types[t].name));
			fprintf(out, ",\"fields\":[");
			for (k = 0; k < s->types[t].nf; k++) {
				fprintf(out, "%s[", k ? "," : "");
				ssp_dump_json_str(out, s->types[t].f[k].name,
				    strlen(s->types[t].f[k].name));
				fprintf(out, ",\"%c\"]", s->types[t].f[k].enc);
			}
			fprintf(out, "]}");
		}
		fprintf(out, "]}}\n");
		return;
	}
	fprintf(out, "# %s %s (format 1.%u)\n", label, name,
	    ssp_rec_rd_version_minor(rr));
	for (i = 0; i < ssp_rec_rd_nmeta(rr); i++) {
		m = ssp_rec_rd_meta_at(rr, i);
		fprintf(out, "# %s: %s\n", m->key, m->value);
	}
	for (t = 0; t < s->ntypes; t++) {
		fprintf(out, "# type %u %s:", t + 1, s->types[t].name);
		for (k = 0; k < s->types[t].nf; k++)
			fprintf(out, " %s/%c", s->types[t].f[k].name,
			    s->types[t].f[k].enc);
		fprintf(out, "\n");
	}
}
