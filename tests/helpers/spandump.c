/*
 * spandump: the ids of a span stream, one line per span, for comparing what
 * an OTLP receiver got with what went in.  Independent of ssp_otlp: ids are
 * printed with printf, links and events are joined here.
 *
 *   <traceId> <spanId> <parentSpanId|-> <name> <events> [<trace>:<span> ...]
 *
 * where <name> is the span kind, and for a host.syscall with a call the
 * kind, a space and the call (at most 200 bytes of it), as span2otlp names it.
 *
 * usage: spandump [-n] [FILE]     (-n: count no events, as --no-events)
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/in.h"
#include "stream/span.h"

struct sp { uint64_t hi, lo, id, parent; unsigned kind; size_t nev, first;
	char *call; };
struct ln { uint64_t span, hi, lo, target; size_t seq; };

/* By span, then stream order. */
static int
by_span(const void *a, const void *b)
{
	const struct ln *x = a, *y = b;

	if (x->span != y->span)
		return x->span < y->span ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
by_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

int
main(int argc, char **argv)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_rec r;
	struct ssp_err e = { 0 };
	struct sp *sp = NULL;
	struct ln *ln = NULL;
	uint64_t *ev = NULL;
	size_t nsp = 0, nln = 0, nev = 0, i, j, k;
	int ch, noev = 0, got;

	while ((ch = getopt(argc, argv, "n")) != -1) {
		if (ch != 'n') {
			fprintf(stderr, "usage: spandump [-n] [FILE]\n");
			return 2;
		}
		noev = 1;
	}
	if (ssp_in_open(&in, argv[optind], SSP_IN_ZSTD_AUTO, NULL, &e) != SSP_OK ||
	    ssp_span_reader_open(&rr, in, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	while ((got = ssp_rec_rd_next(rr, &r, &e)) == 1) {
		if (r.type < SSP_SK_NKINDS) {
			if ((sp = realloc(sp, (nsp + 1) * sizeof(*sp))) == NULL)
				err(1, NULL);
			const char *c = NULL;
			size_t clen = 0;

			if (r.type == SSP_SK_HOST_SYSCALL &&
			    r.nf > SSP_SA_SYSCALL_CALL &&
			    r.f[SSP_SA_SYSCALL_CALL] != 0)
				c = ssp_rec_rd_str(rr, r.f[SSP_SA_SYSCALL_CALL],
				    &clen);
			sp[nsp++] = (struct sp){ r.f[SSP_SF_TRACE_HI],
			    r.f[SSP_SF_TRACE_LO], r.f[SSP_SF_SPAN],
			    r.f[SSP_SF_PARENT], r.type, 0, 0,
			    c != NULL && clen > 0 ? strndup(c, clen > 200 ?
			    200 : clen) : NULL };
		} else if (r.type == SSP_SPAN_T_LINK) {
			if ((ln = realloc(ln, (nln + 1) * sizeof(*ln))) == NULL)
				err(1, NULL);
			ln[nln] = (struct ln){ r.f[SSP_LF_SPAN],
			    r.f[SSP_LF_TRACE_HI], r.f[SSP_LF_TRACE_LO],
			    r.f[SSP_LF_TARGET], nln };
			nln++;
		} else if (r.type >= SSP_SPAN_T_EV0 && r.type != SSP_TYPE_UNKNOWN &&
		    !noev) {
			if ((ev = realloc(ev, (nev + 1) * sizeof(*ev))) == NULL)
				err(1, NULL);
			ev[nev++] = r.f[SSP_EF_SPAN];
		}
	}
	if (got < 0)
		errx(1, "%s", e.msg);
	if (nev > 0)
		qsort(ev, nev, sizeof(*ev), by_u64);
	if (nln > 0)
		qsort(ln, nln, sizeof(*ln), by_span);
	for (i = 0; i < nsp; i++) {
		size_t lo = 0, hi = nev;

		while (lo < hi) {	/* first event of this span */
			size_t mid = (lo + hi) / 2;

			if (ev[mid] < sp[i].id)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (k = lo; k < nev && ev[k] == sp[i].id; k++)
			sp[i].nev++;
		printf("%016" PRIx64 "%016" PRIx64 " %016" PRIx64 " ", sp[i].hi,
		    sp[i].lo, sp[i].id);
		if (sp[i].parent)
			printf("%016" PRIx64, sp[i].parent);
		else
			printf("-");
		printf(" %s%s%s %zu", ssp_span_kind_name(sp[i].kind),
		    sp[i].call != NULL ? " " : "",
		    sp[i].call != NULL ? sp[i].call : "", sp[i].nev);
		free(sp[i].call);
		lo = 0;
		hi = nln;
		while (lo < hi) {	/* first link of this span */
			size_t mid = (lo + hi) / 2;

			if (ln[mid].span < sp[i].id)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (j = lo; j < nln && ln[j].span == sp[i].id; j++)
			printf(" %016" PRIx64 "%016" PRIx64 ":%016" PRIx64,
			    ln[j].hi, ln[j].lo, ln[j].target);
		printf("\n");
	}
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	free(sp);
	free(ln);
	free(ev);
	return 0;
}
