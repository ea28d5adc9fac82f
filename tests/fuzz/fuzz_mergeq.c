/*
 * Merge queue against the plain merge: the input is up to three event
 * streams separated by the 4 bytes "\377SEP" (the first byte's low bit
 * asks for the reader thread, its other bits pick a filter).  Whatever the
 * streams hold (damage, concatenated segments, strings redefined, time
 * going backwards), ssp_mergeq_run must give the records, string texts,
 * resets, ends and errors of the reference merge (tests/unit/refmerge.h) over ssp_rec_rd_next, in the same
 * order; and with a filter on every reader (ssp_rec_rd_filter), the same
 * less the records the tick rule (ssp_rec_tick_*) leaves out, a reset
 * coming before the first record of its segment that is left in.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_mem.h"
#include "span/mergeq.h"
#include "stream/event.h"
#include "tests/unit/refmerge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXS 3

struct log {
	char *s;
	size_t len, cap;
};

static void add(struct log *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
add(struct log *l, const char *fmt, ...)
{
	char line[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	if (l->len + (size_t)n + 1 > l->cap) {
		l->cap = (l->cap + (size_t)n + 1) * 2;
		if ((l->s = realloc(l->s, l->cap)) == NULL)
			abort();
	}
	memcpy(l->s + l->len, line, (size_t)n);
	l->len += (size_t)n;
}

/* A record: stream, time, type, fields, and the text of its string fields
 * (by the program's schema: the caller of the queue knows no other). */
static void
log_rec(struct log *l, unsigned i, const struct ssp_rec *r,
    const char *(*str)(const void *, size_t, uint64_t), const void *ctx)
{
	unsigned k;

	const char *t;

	add(l, "%u %lld %u/%u", i, (long long)r->ts, r->type, r->nf);
	for (k = 0; k < r->nf && k < SSP_MAXF; k++) {
		add(l, " %llu", (unsigned long long)r->f[k]);
		if (r->type < SSP_EV_NTYPES &&
		    k < ssp_event_schema.types[r->type].nf &&
		    ssp_event_schema.types[r->type].f[k].enc == SSP_ENC_S) {
			t = str(ctx, i, r->f[k]);
			add(l, "=%s", t != NULL ? t : "-");
		}
	}
	add(l, "\n");
}

static const char *
rr_str(const void *ctx, size_t i, uint64_t id)
{
	struct ssp_rec_rd *const *rr = ctx;

	return ssp_rec_rd_str(rr[i], id, NULL);
}

static const char *
mq_str(const void *ctx, size_t i, uint64_t id)
{
	return ssp_mergeq_str(ctx, i, id, NULL);
}

struct direct {
	struct ssp_rec_rd *rr;
	uint64_t gen;
	int reset;
};

static int
direct_next(void *arg, struct ssp_rec *r, struct ssp_err *e)
{
	struct direct *d = arg;
	int got = ssp_rec_rd_next(d->rr, r, e);

	if (got == 1 && ssp_rec_rd_strgen(d->rr) != d->gen) {
		d->gen = ssp_rec_rd_strgen(d->rr);
		d->reset = 1;
	}
	return got;
}

/* Open readers on the parts; those whose header is bad are left out. */
static size_t
open_all(const uint8_t **part, const size_t *plen, size_t np,
    struct ssp_in **in, struct ssp_rec_rd **rr)
{
	struct ssp_err e;
	size_t k, n = 0;

	for (k = 0; k < np; k++) {
		in[n] = fuzz_in(part[k], plen[k], SSP_IN_ZSTD_AUTO);
		if (ssp_event_reader_open(&rr[n], in[n], &e) != SSP_OK) {
			ssp_in_close(in[n]);
			continue;
		}
		n++;
	}
	return n;
}

static void
close_all(struct ssp_in **in, struct ssp_rec_rd **rr, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		ssp_rec_rd_close(rr[k]);
		ssp_in_close(in[k]);
	}
}

/* The filter of variant v (1 to 3) for type t (SSP_EV_NTYPES: unknown). */
static uint8_t
filter_act(unsigned v, unsigned salt, unsigned t)
{
	switch (v) {
	case 1:			/* a span builder's host stream */
		if (t == SSP_EV_SYNC || t == SSP_EV_PROC_IN || t == SSP_EV_INSN)
			return SSP_RA_TICK;
		if (t == SSP_EV_MMIO_RD || t == SSP_EV_MMIO_WR)
			return SSP_RA_ARM;
		return t >= SSP_EV_NIC_RD && t != SSP_EV_USER ? SSP_RA_SKIP :
		    SSP_RA_KEEP;
	case 2:			/* any mix */
		return (uint8_t)((t * 5 + salt) % 4);
	default:		/* nearly all left out */
		return (t + salt) % 3 == 0 ? SSP_RA_KEEP : SSP_RA_SKIP;
	}
}

/* The log of the queue (q) or of the merge, through a filter (act) or not. */
static void
run(const uint8_t **part, const size_t *plen, size_t np, int threaded,
    const uint8_t *act, int q_side, struct log *out)
{
	struct ssp_in *in[MAXS];
	struct ssp_rec_rd *rr[MAXS];
	struct direct d[MAXS];
	struct ssp_rec_tick tk[MAXS];
	int pending[MAXS];
	struct ref_merge *m;
	struct ssp_mergeq *q;
	const struct ssp_rec *r;
	struct ssp_err e;
	size_t n, k, cnt;
	unsigned i;
	int rc;

	n = open_all(part, plen, np, in, rr);
	if (!q_side) {
		if ((m = ref_merge_new(n)) == NULL)
			abort();
		for (k = 0; k < n; k++) {
			d[k].rr = rr[k];
			d[k].gen = ssp_rec_rd_strgen(rr[k]);
			d[k].reset = 0;
			ref_merge_set(m, k, direct_next, &d[k]);
			memset(&tk[k], 0, sizeof(tk[k]));
			pending[k] = 0;
		}
		while ((rc = ref_merge_next(m, &i, &r, &e)) != REF_MERGE_DONE) {
			if (rc == REF_MERGE_END) {
				add(out, "end %u\n", i);
			} else if (rc < 0) {	/* -status */
				add(out, "error %u: %s (%d)\n", i, e.msg, -rc);
			} else {
				unsigned a = act == NULL ? SSP_RA_KEEP :
				    act[r->type < SSP_EV_NTYPES ? r->type :
				    SSP_EV_NTYPES];

				pending[i] |= d[i].reset;
				d[i].reset = 0;
				if (!ssp_rec_tick_wants(&tk[i], a, r->ts))
					continue;
				ssp_rec_tick_took(&tk[i], a, r->ts);
				if (pending[i])
					add(out, "reset %u\n", i);
				pending[i] = 0;
				log_rec(out, i, r, rr_str, rr);
			}
		}
		for (k = 0; k < n; k++)
			add(out, "backwards %zu %llu\n", k,
			    (unsigned long long)ref_merge_backwards(m, k));
		ref_merge_free(m);
		close_all(in, rr, n);
		return;
	}
	for (k = 0; k < n && act != NULL; k++)
		if (ssp_rec_rd_filter(rr[k], act, &e) != SSP_OK)
			abort();
	if (ssp_mergeq_new(&q, rr, in, n, threaded, &e) != SSP_OK)
		abort();
	while ((rc = ssp_mergeq_run(q, &i, &r, &cnt, &e)) != SSP_MQ_DONE) {
		if (rc == SSP_MQ_END)
			add(out, "end %u\n", i);
		else if (rc < 0)
			add(out, "error %u: %s (%d)\n", i, e.msg, -rc);
		else if (rc == SSP_MQ_RESET)
			add(out, "reset %u\n", i);
		else {
			if (cnt == 0)
				abort();
			for (k = 0; k < cnt; k++, r = ssp_mergeq_rec_next(r))
				log_rec(out, i, r, mq_str, q);
		}
	}
	for (k = 0; k < n; k++)
		add(out, "backwards %zu %llu\n", k,
		    (unsigned long long)ssp_mergeq_backwards(q, k));
	ssp_mergeq_free(q);
	close_all(in, rr, n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part[MAXS], *p, *end;
	size_t plen[MAXS], np = 0;
	uint8_t act[SSP_EV_NTYPES + 1];
	unsigned t, pass;
	int threaded;

	if (size < 1)
		return 0;
	threaded = data[0] & 1;
	p = data + 1;
	end = data + size;
	while (np < MAXS) {	/* split at "\377SEP" */
		const uint8_t *s = p;

		while (s + 4 <= end && memcmp(s, "\377SEP", 4) != 0)
			s++;
		if (s + 4 > end)
			s = end;
		part[np] = p;
		plen[np++] = (size_t)(s - p);
		if (s == end)
			break;
		p = s + 4;
	}
	for (t = 0; t <= SSP_EV_NTYPES; t++)
		act[t] = filter_act(1 + (data[0] >> 1) % 3, data[0] >> 3, t);
	for (pass = 0; pass < 2; pass++) {	/* without, with the filter */
		struct log want = { 0 }, got = { 0 };
		const uint8_t *a = pass == 0 ? NULL : act;

		run(part, plen, np, threaded, a, 0, &want);
		run(part, plen, np, threaded, a, 1, &got);
		if (want.len != got.len || (want.len > 0 &&
		    memcmp(want.s, got.s, want.len) != 0)) {
			fprintf(stderr, "merge queue differs from the merge%s:\n"
			    "--- merge\n%.*s--- queue\n%.*s", a != NULL ?
			    " (filtered)" : "", (int)want.len, want.s,
			    (int)got.len, got.s);
			abort();
		}
		free(want.s);
		free(got.s);
	}
	return 0;
}
