/*
 * truth2spans: turn a simsynth truth file into the span stream a perfect
 * evspan would write (span kinds, starts, keys as attributes, parents,
 * links), so the scorer can be checked end to end on real generated
 * truth: truth2spans | spancsv | score-truth.sh must report a perfect
 * match.  -r uses the SPEC heuristic parents (rule_parent_id) instead of
 * the real ones.  Streams are numbered in topology order.
 *
 * usage: truth2spans [-r] topology.csv truth.csv > spans.sp
 */
#include <csv.h>
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/span.h"

#define MAXF 8
#define MAXSTREAMS 256

struct row {
	int nf;
	char *f[MAXF];
};

struct rows {
	struct row *r;
	size_t n, cap;
	struct row cur;
};

static void
cb_field(void *s, size_t len, void *data)
{
	struct rows *rs = data;
	char *v;

	if (rs->cur.nf >= MAXF)
		return;
	if ((v = malloc(len + 1)) == NULL)
		err(1, "malloc");
	memcpy(v, s, len);
	v[len] = '\0';
	rs->cur.f[rs->cur.nf++] = v;
}

static void
cb_row(int c, void *data)
{
	struct rows *rs = data;

	(void)c;
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 1024;
		if ((rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r))) == NULL)
			err(1, "realloc");
	}
	rs->r[rs->n++] = rs->cur;
	memset(&rs->cur, 0, sizeof(rs->cur));
}

/* Read a CSV file, skipping lines that start with '#'. */
static void
load(const char *path, struct rows *rs)
{
	struct csv_parser p;
	FILE *f = fopen(path, "r");
	char line[65536];

	if (f == NULL)
		err(1, "%s", path);
	csv_init(&p, CSV_APPEND_NULL);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '#')
			continue;
		if (csv_parse(&p, line, strlen(line), cb_field, cb_row, rs) !=
		    strlen(line))
			errx(1, "%s: %s", path, csv_strerror(csv_error(&p)));
	}
	csv_fini(&p, cb_field, cb_row, rs);
	csv_free(&p);
	fclose(f);
}

static void
unload(struct rows *rs)
{
	size_t i;
	int k;

	for (i = 0; i < rs->n; i++)
		for (k = 0; k < rs->r[i].nf; k++)
			free(rs->r[i].f[k]);
	for (k = 0; k < rs->cur.nf; k++)
		free(rs->cur.f[k]);
	free(rs->r);
}

static uint64_t
num(const char *s, int base)
{
	return s != NULL && *s != '\0' ? strtoull(s, NULL, base) : 0;
}

/* The span ids differ from the truth ids, as evspan's would. */
static uint64_t
sid(uint64_t id)
{
	return id == 0 ? 0 : id * 7 + 0x1000;
}

int
main(int argc, char **argv)
{
	struct ssp_span_source src[MAXSTREAMS];
	struct rows topo = { 0 }, truth = { 0 };
	struct ssp_err e = { 0 };
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	size_t i, nsrc = 0, k;
	int ch, rule = 0;

	while ((ch = getopt(argc, argv, "r")) != -1) {
		if (ch == 'r')
			rule = 1;
		else {
			fprintf(stderr, "usage: truth2spans [-r] topology truth\n");
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: truth2spans [-r] topology truth\n");
		return 2;
	}
	load(argv[optind], &topo);
	load(argv[optind + 1], &truth);
	for (i = 0; i < topo.n && nsrc < MAXSTREAMS; i++) {
		struct row *t = &topo.r[i];

		if (t->nf >= 3 && strcmp(t->f[0], "stream") == 0)
			src[nsrc++] = (struct ssp_span_source){ t->f[1], 0,
			    ssp_event_sim_parse_kind(t->f[2]) };
	}
	if (ssp_out_open(&o, NULL, 0, &e) != SSP_OK ||
	    ssp_span_writer_open(&w, o, "truth2spans", src, nsrc, 0, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	for (i = 1; i < truth.n; i++) {	/* row 0 is the header */
		struct row *t = &truth.r[i];
		int kind;
		unsigned stream = 0;
		char key[128], *tie, *a, *b;
		uint64_t parent, tieno = 0;

		if (t->nf < 7)
			errx(1, "truth row %zu: %d fields", i + 1, t->nf);
		if ((kind = (int)ssp_span_kind_parse(t->f[2])) == SSP_SK_NKINDS)
			errx(1, "truth row %zu: kind %s", i + 1, t->f[2]);
		for (k = 0; k < nsrc; k++)
			if (strcmp(src[k].name, t->f[1]) == 0)
				stream = (unsigned)k;
		snprintf(key, sizeof(key), "%s", t->f[4]);
		if ((tie = strchr(key, '#')) != NULL) {
			*tie = '\0';
			tieno = num(tie + 1, 10);
		}
		parent = num(t->f[5], 10);
		if (rule && t->nf >= 8 && t->f[7][0] != '\0')
			parent = strcmp(t->f[7], "root") == 0 ? 0 : num(t->f[7], 10);
		memset(&r, 0, sizeof(r));
		r.type = (uint32_t)kind;
		r.ts = (int64_t)strtoll(t->f[3], NULL, 10);
		r.f[SSP_SF_SPAN] = sid(num(t->f[0], 10));
		r.f[SSP_SF_TRACE_LO] = r.f[SSP_SF_SPAN];
		r.f[SSP_SF_PARENT] = sid(parent);
		r.f[SSP_SF_STREAM] = stream;
		r.f[SSP_SF_DUR] = tieno;	/* ties: the scorer orders by dur */
		switch (kind) {
		case SSP_SK_HOST_MMIO: r.f[SSP_SA_HMMIO_ID] = num(key, 10); break;
		case SSP_SK_HOST_DMA: r.f[SSP_SA_HDMA_ID] = num(key, 10); break;
		case SSP_SK_HOST_MSIX: r.f[SSP_SA_HMSIX_VEC] = num(key, 10); break;
		case SSP_SK_NIC_MSIX: r.f[SSP_SA_NMSIX_VEC] = num(key, 10); break;
		case SSP_SK_HOST_PCI: r.f[SSP_SA_HPCI_REG] = num(key, 16); break;
		case SSP_SK_NIC_MMIO: r.f[SSP_SA_NMMIO_OFF] = num(key, 16); break;
		case SSP_SK_NIC_DMA: r.f[SSP_SA_NDMA_OP] = num(key, 16); break;
		case SSP_SK_NET_DEVICE:
			a = strchr(key, '/');
			b = a != NULL ? strchr(a + 1, '/') : NULL;
			if (b == NULL)
				errx(1, "truth row %zu: key %s", i + 1, key);
			r.f[SSP_SA_NET_NODE] = num(key, 10);
			r.f[SSP_SA_NET_DEV] = num(a + 1, 10);
			r.f[SSP_SA_NET_UID] = num(b + 1, 10);
			break;
		}
		if (ssp_rec_wr_put(w, &r, &e) != SSP_OK)
			errx(1, "%s", e.msg);
		for (a = t->f[6]; *a != '\0'; ) {	/* links */
			uint64_t to = strtoull(a, &b, 10);

			if (b == a)
				break;
			memset(&r, 0, sizeof(r));
			r.type = SSP_SPAN_T_LINK;
			r.ts = (int64_t)strtoll(t->f[3], NULL, 10);
			r.f[SSP_LF_SPAN] = sid(num(t->f[0], 10));
			r.f[SSP_LF_TARGET] = sid(to);
			r.f[SSP_LF_TRACE_LO] = sid(to);
			if (ssp_rec_wr_put(w, &r, &e) != SSP_OK)
				errx(1, "%s", e.msg);
			a = b;
		}
	}
	if (ssp_rec_wr_close(w, &e) != SSP_OK || ssp_out_close(o, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	unload(&topo);
	unload(&truth);
	return 0;
}
