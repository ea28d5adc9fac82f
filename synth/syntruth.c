#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/out.h"
#include "stream/span.h"
#include "synth/syntruth.h"

#define KEYMAX 48
#define TIEMAX 16

/* Keys seen at the latest start of one (stream, kind), to number ties. */
struct tieset {
	int64_t start;
	unsigned n;
	char key[TIEMAX][KEYMAX];
	unsigned cnt[TIEMAX];
};

struct ssp_syntruth {
	FILE *f;		/* plain, or through zw to a zstd stream */
	struct zw *zw;
	char *path;
	unsigned nstreams;
	uint64_t next;
	uint64_t nkind[SSP_SYNTRUTH_NKINDS];
	uint64_t ties, rule_differs, namb;
	int amb_col;
	struct tieset *tie;	/* [stream * SSP_SK_NKINDS + kind] */
};

/* stdio over a zstd stream (fopencookie): the rows are written with
 * fprintf either way. */
struct zw {
	struct ssp_out *o;
	struct ssp_err err;
	int failed;
};

static ssize_t
zw_write(void *c, const char *buf, size_t n)
{
	struct zw *z = c;

	if (z->failed || ssp_out_write(z->o, buf, n, &z->err) != SSP_OK) {
		z->failed = 1;
		errno = EIO;
		return -1;
	}
	return (ssize_t)n;
}

static int
zw_close(void *c)
{
	struct zw *z = c;

	if (z->failed) {
		ssp_out_abort(z->o);
		return -1;
	}
	return ssp_out_close(z->o, &z->err) == SSP_OK ? 0 : (z->failed = 1, -1);
}

static FILE *
zw_open(struct zw *z, const char *path, int zlevel)
{
	static const cookie_io_functions_t io = { NULL, zw_write, NULL, zw_close };
	FILE *f;

	if (ssp_out_open(&z->o, path, zlevel, &z->err) != SSP_OK) {
		errno = z->err.code == SSP_ERR_NOMEM ? ENOMEM : EIO;
		return NULL;
	}
	if ((f = fopencookie(z, "w", io)) == NULL)
		ssp_out_abort(z->o);
	return f;
}

const char *
ssp_syntruth_kind_name(unsigned kind)
{
	static const char *const ctx[] = { "host.irq", "host.softirq",
	    "host.resume" };

	if (kind >= SSP_SYNTRUTH_K_IRQ && kind < SSP_SYNTRUTH_NKINDS)
		return ctx[kind - SSP_SYNTRUTH_K_IRQ];
	return ssp_span_kind_name(kind);
}

int
ssp_syntruth_open(struct ssp_syntruth **tp, const char *path, unsigned nstreams,
    struct ssp_err *e)
{
	return ssp_syntruth_open_ex(tp, path, nstreams, 0, 0, e);
}

int
ssp_syntruth_open_ex(struct ssp_syntruth **tp, const char *path,
    unsigned nstreams, int amb_col, int zlevel, struct ssp_err *e)
{
	struct ssp_syntruth *t = calloc(1, sizeof(*t));

	*tp = NULL;
	if (t == NULL || (t->tie = calloc((size_t)nstreams * SSP_SYNTRUTH_NKINDS,
	    sizeof(*t->tie))) == NULL) {
		free(t);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	t->nstreams = nstreams;
	t->next = 1;
	t->amb_col = amb_col;
	if (path != NULL) {
		if (zlevel > 0 && (t->zw = calloc(1, sizeof(*t->zw))) == NULL)
			errno = ENOMEM;
		if ((zlevel > 0 ? (t->zw == NULL ? NULL : (t->f = zw_open(t->zw,
		    path, zlevel))) : (t->f = fopen(path, "w"))) == NULL ||
		    (t->path = strdup(path)) == NULL) {
			int err = errno;

			if (t->f != NULL)
				fclose(t->f);
			free(t->zw);
			free(t->tie);
			free(t);
			return ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path,
			    strerror(err));
		}
		fputs(amb_col ? SSP_TRUTH_HEADER_AMB "\r\n" :
		    SSP_TRUTH_HEADER "\r\n", t->f);
	}
	*tp = t;
	return SSP_OK;
}

/* The key with a tie counter appended when needed. */
static void
tie_key(struct ssp_syntruth *t, unsigned stream, unsigned kind, int64_t start,
    const char *key, char *out, size_t outsz)
{
	struct tieset *ts = &t->tie[stream * SSP_SYNTRUTH_NKINDS + kind];
	unsigned i;

	if (ts->n == 0 || ts->start != start) {
		ts->start = start;
		ts->n = 0;
	}
	for (i = 0; i < ts->n; i++) {
		if (strcmp(ts->key[i], key) == 0) {
			snprintf(out, outsz, "%s#%u", key, ts->cnt[i]++);
			t->ties++;
			return;
		}
	}
	if (ts->n < TIEMAX) {
		snprintf(ts->key[ts->n], KEYMAX, "%s", key);
		ts->cnt[ts->n++] = 1;
	}
	snprintf(out, outsz, "%s", key);
}

uint64_t
ssp_syntruth_reserve(struct ssp_syntruth *t)
{
	return t->next++;
}

void
ssp_syntruth_row(struct ssp_syntruth *t, uint64_t id, unsigned stream,
    const char *stream_name, unsigned kind, int64_t start, const char *key,
    uint64_t parent, const uint64_t *links, size_t nlinks,
    uint64_t rule_parent, int ambiguous)
{
	char k[KEYMAX + 16], lbuf[512];
	const char *kname = ssp_syntruth_kind_name(kind);
	size_t i, n = 0;

	if (kind >= SSP_SYNTRUTH_NKINDS)
		return;
	t->nkind[kind]++;
	if (rule_parent != 0)
		t->rule_differs++;
	if (ambiguous)
		t->namb++;
	if (t->f == NULL)
		return;
	tie_key(t, stream, kind, start, key, k, sizeof(k));
	for (i = 0; i < nlinks && n + 24 < sizeof(lbuf); i++)
		n += (size_t)snprintf(lbuf + n, sizeof(lbuf) - n, "%s%" PRIu64,
		    i > 0 ? " " : "", links[i]);
	lbuf[n] = '\0';
	fprintf(t->f, "%" PRIu64 ",", id);
	csv_fwrite(t->f, stream_name, strlen(stream_name));
	fputc(',', t->f);
	csv_fwrite(t->f, kname, strlen(kname));
	fprintf(t->f, ",%" PRId64 ",", start);
	csv_fwrite(t->f, k, strlen(k));
	fputc(',', t->f);
	if (parent != 0)
		fprintf(t->f, "%" PRIu64, parent);
	fputc(',', t->f);
	csv_fwrite(t->f, lbuf, n);
	fputc(',', t->f);
	if (rule_parent == SSP_TRUTH_RULE_ROOT)
		fputs("root", t->f);
	else if (rule_parent != 0)
		fprintf(t->f, "%" PRIu64, rule_parent);
	if (t->amb_col)
		fputs(ambiguous ? ",1" : ",0", t->f);
	fputs("\r\n", t->f);
}

uint64_t
ssp_syntruth_span(struct ssp_syntruth *t, unsigned stream, const char *stream_name,
    unsigned kind, int64_t start, const char *key, uint64_t parent,
    const uint64_t *links, size_t nlinks, uint64_t rule_parent)
{
	uint64_t id = t->next++;

	ssp_syntruth_row(t, id, stream, stream_name, kind, start, key, parent,
	    links, nlinks, rule_parent, 0);
	return id;
}

uint64_t ssp_syntruth_count(const struct ssp_syntruth *t) { return t->next - 1; }
uint64_t ssp_syntruth_count_kind(const struct ssp_syntruth *t, unsigned kind) { return kind < SSP_SYNTRUTH_NKINDS ? t->nkind[kind] : 0; }
uint64_t ssp_syntruth_ties(const struct ssp_syntruth *t) { return t->ties; }
uint64_t ssp_syntruth_rule_differs(const struct ssp_syntruth *t) { return t->rule_differs; }
uint64_t ssp_syntruth_ambiguous(const struct ssp_syntruth *t) { return t->namb; }

int
ssp_syntruth_close(struct ssp_syntruth *t, struct ssp_err *e)
{
	int r = SSP_OK, bad;

	if (t == NULL)
		return SSP_OK;
	if (t->f != NULL) {
		bad = ferror(t->f);
		if (fclose(t->f) != 0 || bad)
			r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: write failed",
			    t->path);
	}
	free(t->zw);
	free(t->path);
	free(t->tie);
	free(t);
	return r;
}
