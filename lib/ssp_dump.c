#include <csv.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ssp_dump.h"

struct ssp_dump {
	FILE *out;
	enum ssp_dump_fmt fmt;
	const struct ssp_rr *rr;
	const struct ssp_schema *fs;
	/* CSV: column of each (file type, field), union of field names */
	unsigned ncols;
	const char **cols;
	unsigned *colmap;	/* [type * SSP_MAXF + field] -> column */
	const char **cells;	/* scratch row */
	char buf[SSP_MAXF][256];	/* cell texts of the current row */
	size_t typew;		/* text: width of the type column */
	const char *const *streams;	/* stream names, or NULL */
	size_t nstreams;
	unsigned name_col;	/* CSV: the stream_name column, 0 = none */
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
ssp_dump_value(char *buf, size_t n, char enc, uint64_t v, const struct ssp_rr *rr)
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
		s = v == 0 ? "" : ssp_rr_str(rr, v, NULL);
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

static int
csv_setup(struct ssp_dump *d)
{
	unsigned t, k, c;

	d->cols = calloc(3 + d->fs->ntypes * SSP_MAXF, sizeof(*d->cols));
	d->colmap = calloc((size_t)d->fs->ntypes * SSP_MAXF, sizeof(*d->colmap));
	if (d->cols == NULL || d->colmap == NULL)
		return -1;
	d->cols[0] = "ts";
	d->cols[1] = "type";
	d->ncols = 2;
	for (t = 0; t < d->fs->ntypes; t++) {
		const struct ssp_rtype *rt = &d->fs->types[t];

		for (k = 0; k < rt->nf; k++) {
			for (c = 2; c < d->ncols; c++)
				if (strcmp(d->cols[c], rt->f[k].name) == 0)
					break;
			if (c == d->ncols) {
				d->cols[d->ncols++] = rt->f[k].name;
				if (is_stream_field(d, &rt->f[k]) && d->name_col == 0) {
					d->name_col = d->ncols;
					d->cols[d->ncols++] = "stream_name";
				}
			}
			d->colmap[t * SSP_MAXF + k] = c;
		}
	}
	d->cells = calloc(d->ncols, sizeof(*d->cells));
	if (d->cells == NULL)
		return -1;
	for (c = 0; c < d->ncols; c++) {
		if (c > 0)
			fputc(',', d->out);
		csv_fwrite(d->out, d->cols[c], strlen(d->cols[c]));
	}
	fputs("\r\n", d->out);
	return 0;
}

struct ssp_dump *
ssp_dump_new(FILE *out, enum ssp_dump_fmt fmt, const struct ssp_rr *rr)
{
	return ssp_dump_new_named(out, fmt, rr, NULL, 0);
}

struct ssp_dump *
ssp_dump_new_named(FILE *out, enum ssp_dump_fmt fmt, const struct ssp_rr *rr,
    const char *const *streams, size_t nstreams)
{
	struct ssp_dump *d = calloc(1, sizeof(*d));
	unsigned t;

	if (d == NULL)
		return NULL;
	d->streams = streams;
	d->nstreams = nstreams;
	d->out = out;
	d->fmt = fmt;
	d->rr = rr;
	d->fs = ssp_rr_file_schema(rr);
	for (t = 0; t < d->fs->ntypes; t++)
		if (strlen(d->fs->types[t].name) > d->typew)
			d->typew = strlen(d->fs->types[t].name);
	if (fmt == SSP_DUMP_CSV && csv_setup(d) != 0) {
		ssp_dump_free(d);
		return NULL;
	}
	return d;
}

static void
json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void
ssp_dump_rec(struct ssp_dump *d, const struct ssp_rec *r)
{
	const struct ssp_rtype *t = &d->fs->types[r->ftag - 1];
	char v[256];
	unsigned k, c;

	switch (d->fmt) {
	case SSP_DUMP_TEXT:
		fprintf(d->out, "%15" PRId64 " %-*s", r->ts, (int)d->typew, t->name);
		for (k = 0; k < t->nf; k++) {
			if (is_stream_field(d, &t->f[k]))
				snprintf(v, sizeof(v), "%s", stream_name(d, r->f[k]));
			else
				ssp_dump_value(v, sizeof(v), t->f[k].enc, r->f[k],
				    d->rr);
			fprintf(d->out, " %s=%s", t->f[k].name, v);
		}
		fputc('\n', d->out);
		break;
	case SSP_DUMP_CSV:
		for (c = 0; c < d->ncols; c++)
			d->cells[c] = NULL;
		fprintf(d->out, "%" PRId64 ",", r->ts);
		csv_fwrite(d->out, t->name, strlen(t->name));
		for (k = 0; k < t->nf; k++) {
			ssp_dump_value(d->buf[k], sizeof(d->buf[k]), t->f[k].enc,
			    r->f[k], d->rr);
			d->cells[d->colmap[(r->ftag - 1) * SSP_MAXF + k]] = d->buf[k];
			if (d->name_col != 0 && is_stream_field(d, &t->f[k]))
				d->cells[d->name_col] = stream_name(d, r->f[k]);
		}
		for (c = 2; c < d->ncols; c++) {
			fputc(',', d->out);
			if (d->cells[c] != NULL)
				csv_fwrite(d->out, d->cells[c], strlen(d->cells[c]));
		}
		fputs("\r\n", d->out);
		break;
	case SSP_DUMP_JSON:
		fprintf(d->out, "{\"ts\":%" PRId64 ",\"type\":", r->ts);
		json_str(d->out, t->name);
		for (k = 0; k < t->nf; k++) {
			char enc = t->f[k].enc;

			fputc(',', d->out);
			json_str(d->out, t->f[k].name);
			fputc(':', d->out);
			if (enc == SSP_ENC_U || enc == SSP_ENC_I || enc == SSP_ENC_T) {
				ssp_dump_value(v, sizeof(v), enc, r->f[k], d->rr);
				fputs(v, d->out);
			} else if (enc == SSP_ENC_B) {
				fputs(r->f[k] ? "true" : "false", d->out);
			} else {
				ssp_dump_value(v, sizeof(v), enc, r->f[k], d->rr);
				json_str(d->out, v);
			}
			if (is_stream_field(d, &t->f[k])) {
				fputs(",\"stream_name\":", d->out);
				json_str(d->out, stream_name(d, r->f[k]));
			}
		}
		fputs("}\n", d->out);
		break;
	}
}

void
ssp_dump_free(struct ssp_dump *d)
{
	if (d == NULL)
		return;
	free(d->cols);
	free(d->colmap);
	free(d->cells);
	free(d);
}
