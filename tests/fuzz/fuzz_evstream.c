/* Event stream decoder (framing, header, schema mapping, records, zstd),
 * and its filters: read again with a filter (ssp_rec_rd_filter) through
 * ssp_rec_rd_next_batch and through ssp_rec_rd_next_packed, the records
 * that come, the counts of those left out, of steps back, the largest
 * time and how it ends are those the tick rule picks from the first read. */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "fuzz_mem.h"
#include "stream/event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	uint64_t hash, n, back, skipped[SSP_EV_NTYPES + 1];
	int64_t tsmax;
	int end;		/* the last ssp_rec_rd_next result */
};

static void
mix(struct seen *s, const struct ssp_rec *r)
{
	uint64_t h = s->hash ^ (uint64_t)r->ts;
	unsigned k;

	h = (h ^ r->type) * 0x100000001b3ULL;
	h = (h ^ r->nf) * 0x100000001b3ULL;
	for (k = 0; k < r->nf && k < SSP_MAXF; k++)
		h = (h ^ r->f[k]) * 0x100000001b3ULL;
	s->hash = h;
	s->n++;
}

static unsigned
slot(const struct ssp_rec *r)
{
	return r->type < SSP_EV_NTYPES ? r->type : SSP_EV_NTYPES;
}

/* The filtered read: how 1 batch, 2 packed (and next for what it leaves). */
static void
filtered(const uint8_t *data, size_t size, const uint8_t *act, int how,
    struct seen *s)
{
	static struct ssp_rec b[8];
	static uint64_t buf[2048];
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_rec_rd *rr;
	struct ssp_err e;
	unsigned t;
	int got, k;

	memset(s, 0, sizeof(*s));
	if (ssp_event_reader_open(&rr, in, &e) != SSP_OK) {
		ssp_in_close(in);
		return;
	}
	if (ssp_rec_rd_filter(rr, act, &e) != SSP_OK)
		abort();
	for (;;) {
		if (how == 1) {
			if ((got = ssp_rec_rd_next_batch(rr, b, 8, &e)) <= 0)
				break;
			for (k = 0; k < got; k++)
				mix(s, &b[k]);
			continue;
		}
		{
			const struct ssp_rec *r = (const void *)buf;
			size_t used;
			int over;
			/* no limit, or one from what came so far */
			int64_t limit = s->n % 3 == 0 ? INT64_MAX :
			    (int64_t)(s->hash % 100000);
			unsigned n = ssp_rec_rd_next_packed(rr, buf, sizeof(buf),
			    limit, &used, &over);

			for (; n > 0; n--, r = ssp_rec_packed_next(r))
				mix(s, r);
			if (over)
				mix(s, r);
			if (n > 0 || over)
				continue;
		}
		if ((got = ssp_rec_rd_next(rr, b, &e)) != 1)
			break;
		mix(s, b);
	}
	s->end = got;
	for (t = 0; t < SSP_EV_NTYPES; t++)
		s->skipped[t] = ssp_rec_rd_skipped(rr, t);
	s->skipped[SSP_EV_NTYPES] = ssp_rec_rd_skipped(rr, SSP_TYPE_UNKNOWN);
	s->back = ssp_rec_rd_backwards(rr);
	s->tsmax = ssp_rec_rd_tsmax(rr);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_rec_rd *rr;
	struct ssp_rec r;
	struct ssp_err e;
	const struct ssp_schema *fs;
	struct ssp_rec_tick tk = { 0, 0, 0 };
	struct seen want, got;
	uint8_t act[SSP_EV_NTYPES + 1];
	int64_t last = INT64_MIN;
	unsigned k, how;
	int rc = 0, opened;

	memset(&want, 0, sizeof(want));
	want.tsmax = INT64_MIN;
	for (k = 0; k <= SSP_EV_NTYPES; k++)	/* a filter of this input */
		act[k] = (uint8_t)((k * 7 + size) % 4);
	opened = ssp_event_reader_open(&rr, in, &e) == SSP_OK;
	if (opened) {
		fs = ssp_rec_rd_file_schema(rr);
		while ((rc = ssp_rec_rd_next(rr, &r, &e)) == 1) {
			const struct ssp_rec_type *ft = &fs->types[r.ftag - 1];

			/* every string field must resolve */
			for (k = 0; k < ft->nf && k < r.nf; k++)
				if (ft->f[k].enc == 's' && r.f[k] != 0 &&
				    ssp_rec_rd_str(rr, r.f[k], NULL) == NULL)
					abort();
			/* fields an older stream lacks: the program's count,
			 * filled as absent */
			if (r.nf < ft->nf || (r.nf > ft->nf &&
			    (r.type >= SSP_EV_NTYPES ||
			    r.nf != ssp_event_schema.types[r.type].nf)))
				abort();
			for (k = ft->nf; k < r.nf; k++)
				if (r.f[k] != 0 && r.f[k] != UINT64_MAX)
					abort();
			want.back += r.ts < last;
			last = r.ts;
			want.tsmax = r.ts > want.tsmax ? r.ts : want.tsmax;
			if (ssp_rec_tick_wants(&tk, act[slot(&r)], r.ts)) {
				ssp_rec_tick_took(&tk, act[slot(&r)], r.ts);
				mix(&want, &r);
			} else {
				want.skipped[slot(&r)]++;
			}
		}
		if (ssp_rec_rd_backwards(rr) != want.back ||
		    ssp_rec_rd_tsmax(rr) != want.tsmax)
			abort();
		ssp_rec_rd_close(rr);
	}
	ssp_in_close(in);
	if (!opened)
		return 0;
	want.end = rc;
	for (how = 1; how <= 2; how++) {
		filtered(data, size, act, (int)how, &got);
		if (got.hash != want.hash || got.n != want.n ||
		    got.back != want.back || got.tsmax != want.tsmax ||
		    memcmp(got.skipped, want.skipped, sizeof(got.skipped)) != 0 ||
		    (got.end < 0) != (want.end < 0))
			abort();
	}
	return 0;
}
