/*
 * The OTLP encoder's public side (otlp.h): opening and closing, the batch
 * (records read into it, events and links attached to their span), and
 * requests split to the size limit, each encoded by otlp_json.c or
 * otlp_pb.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hugemem.h"
#include "base/map.h"
#include "sink/otlp.h"
#include "sink/otlp_int.h"
#include "stream/rec.h"
#include "stream/span.h"

/* --- pure helpers ---------------------------------------------------------- */

uint64_t
ssp_otlp_ps_to_ns(int64_t ps, int64_t epoch_ns)
{
	return otlp_ps_to_ns(ps, epoch_ns);
}

void
ssp_otlp_span_hex(char out[16], uint64_t id)
{
	otlp_span_hex(out, id);
}

void
ssp_otlp_trace_hex(char out[32], uint64_t hi, uint64_t lo)
{
	otlp_trace_hex(out, hi, lo);
}

/*
 * CLIENT/SERVER where one side asks and waits for the other (MMIO reads and
 * non-posted writes host->NIC, DMA NIC->host memory), PRODUCER/CONSUMER
 * where something is handed over without an answer (posted writes, packets,
 * interrupts), INTERNAL for work inside one simulator (syscalls, PCI config,
 * interrupt handling, queueing hops inside the network).
 */
enum ssp_otlp_kind
ssp_otlp_kind_of(unsigned kind, int64_t posted)
{
	switch (kind) {
	case SSP_SK_HOST_MMIO:
		return posted == 1 ? SSP_OTLP_KIND_PRODUCER : SSP_OTLP_KIND_CLIENT;
	case SSP_SK_NIC_MMIO:
		return posted == 1 ? SSP_OTLP_KIND_CONSUMER : SSP_OTLP_KIND_SERVER;
	case SSP_SK_NIC_DMA:
		return SSP_OTLP_KIND_CLIENT;
	case SSP_SK_HOST_DMA:
		return SSP_OTLP_KIND_SERVER;
	case SSP_SK_NIC_TX:
	case SSP_SK_NIC_MSIX:
		return SSP_OTLP_KIND_PRODUCER;
	case SSP_SK_NIC_RX:
	case SSP_SK_HOST_MSIX:
		return SSP_OTLP_KIND_CONSUMER;
	default:
		return SSP_OTLP_KIND_INTERNAL;
	}
}

/* Span id -> index maps (ids are never 0). */
static uint32_t
idmap_get(const struct ssp_map *m, uint64_t id)
{
	const struct ssp_map_slot *s = ssp_map_find(m, id);

	return s != NULL ? s->val : NONE;
}

static int
idmap_put(struct ssp_map *m, uint64_t id, uint32_t v)
{
	struct ssp_map_slot *s;
	int isnew;

	if ((s = ssp_map_put(m, id, &isnew)) == NULL)
		return -1;
	s->val = v;
	return 0;
}

/*
 * The record count at which a batch is full by the size estimate: the
 * least n with n * avg > 0.9 * max_bytes, found with that comparison
 * itself, so batches end where the test on every record ended them.
 */
static void
set_full_items(struct ssp_otlp *o)
{
	double lim = 0.9 * (double)o->opt.max_bytes, g;
	size_t n;

	if (o->opt.max_bytes == 0 || !(o->avg > 0) ||
	    (g = lim / o->avg) > 1e15) {
		o->full_items = SIZE_MAX;
		return;
	}
	n = (size_t)g;
	while (!((double)n * o->avg > lim))
		n++;
	while (n > 0 && (double)(n - 1) * o->avg > lim)
		n--;
	o->full_items = n;
}

enum ssp_status
ssp_otlp_open(struct ssp_otlp **op, const struct ssp_otlp_opts *opts,
    const struct ssp_rec_rd *rr, struct ssp_err *e)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(rr);
	struct ssp_span_source *src = NULL;
	struct ssp_otlp *o;
	unsigned i;
	int nsrc, has_events = 0;

	*op = NULL;
	if ((o = calloc(1, sizeof(*o))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	o->opt = *opts;
	if (o->opt.batch == 0)
		o->opt.batch = 1;
	o->rr = rr;
	nsrc = ssp_span_reader_sources(rr, NULL, 0);
	if (nsrc < 0) {
		free(o);
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: bad stream list in "
		    "the span stream header", ssp_rec_rd_name(rr));
	}
	if (ssp_otlp_key_fixed_init(o) != 0)
		goto nomem;
	if ((o->ft = calloc(fs->ntypes + 1, sizeof(*o->ft))) == NULL)
		goto nomem;
	o->nft = fs->ntypes;
	for (i = 0; i < fs->ntypes; i++) {
		if (ssp_otlp_key_type_init(&o->ft[i], &fs->types[i]) != 0)
			goto nomem;
		if (o->ft[i].cls == C_EVENT)
			has_events = 1;
	}
	o->events = opts->events < 0 ? has_events : opts->events;
	if ((src = calloc((size_t)nsrc + 1, sizeof(*src))) == NULL ||
	    (o->st = calloc((size_t)nsrc + 1, sizeof(*o->st))) == NULL)
		goto nomem;
	ssp_span_reader_sources(rr, src, (size_t)nsrc);
	o->nst = (size_t)nsrc;
	for (i = 0; i < o->nst; i++)
		if (ssp_otlp_key_stream_init(o, &o->st[i], &src[i]) != 0)
			goto nomem;
	free(src);
	src = NULL;
	o->pend_max = o->opt.batch * 4 > 65536 ? o->opt.batch * 4 : 65536;
	if (ssp_map_init(&o->spmap, o->opt.batch < 1u << 20 ? o->opt.batch :
	    1u << 20) != 0 || ssp_map_init(&o->pendmap, 64) != 0)
		goto nomem;
	o->last_idx = NONE;
	/* first guess of a record's size (JSON, protobuf); then measured */
	o->avg = o->opt.proto == SSP_OTLP_JSON ? 700 : 300;
	set_full_items(o);
	*op = o;
	return SSP_OK;
nomem:
	free(src);
	ssp_otlp_close(o);
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

void
ssp_otlp_close(struct ssp_otlp *o)
{
	unsigned i;

	if (o == NULL)
		return;
	for (i = 0; i < K_N; i++)
		ssp_otlp_key_free(&o->fkey[i]);
	if (o->ft != NULL)
		for (i = 0; i < o->nft; i++)
			ssp_otlp_key_type_free(&o->ft[i]);
	free(o->ft);
	if (o->st != NULL)
		for (i = 0; i < o->nst; i++) {
			ssp_buf_free(&o->st[i].res_json);
			ssp_buf_free(&o->st[i].res_pb);
		}
	free(o->st);
	ssp_hugemem_free(o->sp);
	ssp_hugemem_free(o->ev);
	free(o->ln);
	free(o->pend);
	ssp_map_free(&o->spmap);
	ssp_map_free(&o->pendmap);
	ssp_buf_free(&o->tmp);
	ssp_buf_free(&o->msg);
	ssp_buf_free(&o->name);
	ssp_buf_free(&o->nraw);
	ssp_buf_free(&o->nfix);
	free(o->sc);
	ssp_buf_free(&o->jarena);
	free(o);
}

const struct ssp_otlp_stats *
ssp_otlp_stats(const struct ssp_otlp *o)
{
	return &o->stats;
}

int
ssp_otlp_events_on(const struct ssp_otlp *o)
{
	return o->events;
}

size_t
ssp_otlp_nspans(const struct ssp_otlp *o)
{
	return o->nsp;
}

/* --- adding records ---------------------------------------------------------- */

int
ssp_otlp_full(const struct ssp_otlp *o, const struct ssp_rec *r)
{
	if (o->nsp == 0 || info(o, r)->cls != C_SPAN)
		return 0;
	/* Events and links are capped too, so one batch stays bounded; and
	 * the request's bytes, estimated from the previous requests (with
	 * room for the new span's events; ssp_otlp_encode_each splits a
	 * batch that is larger all the same). */
	return o->nsp >= o->opt.batch || o->nev + o->nln >= 16 * o->opt.batch ||
	    o->nsp + o->nev + o->nln + 1 >= o->full_items;
}

/*
 * The batch's spans and member events: MiBs filled once per batch (a
 * batch of 8192 spans takes 2 MB), on huge pages (base/hugemem) so that
 * the first batch faults their memory in per 2 MiB rather than per
 * 4 KiB.  The spans' array is made for a whole batch (full) at its
 * second growth (growing it by doubling would touch fresh memory at every
 * step); the first is small and from the heap, so that a short stream
 * does not fault in (and the kernel zero) a 2 MiB page for a few spans.
 */
#define BATCH_FIRST	256

static __attribute__((noinline)) int
batch_grow(void **p, size_t *cap, size_t need, size_t size, size_t full)
{
	size_t c = *cap == 0 ? (full < BATCH_FIRST ? full : BATCH_FIRST) :
	    *cap < full ? full : *cap;
	void *np;

	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (c > SIZE_MAX / size || (np = ssp_hugemem_realloc(*p, c * size)) == NULL)
		return -1;
	*p = np;
	*cap = c;
	return 0;
}

static inline int
batch_array(void **p, size_t *cap, size_t need, size_t size, size_t full)
{
	return need <= *cap ? 0 : batch_grow(p, cap, need, size, full);
}

struct ssp_rec *
ssp_otlp_slot(struct ssp_otlp *o)
{
	if (batch_array((void **)&o->sp, &o->capsp, o->nsp + 1,
	    sizeof(*o->sp), o->opt.batch) != 0)
		return NULL;
	return &o->sp[o->nsp].r;
}

static int
attach_event(struct ssp_otlp *o, uint32_t si, const struct ssp_rec *r)
{
	struct sitem *s = &o->sp[si];

	if (batch_array((void **)&o->ev, &o->capev, o->nev + 1,
	    sizeof(*o->ev), 16) != 0)
		return -1;
	o->ev[o->nev].r = *r;
	o->ev[o->nev].next = NONE;
	if (s->ev == NONE)
		s->ev = (uint32_t)o->nev;
	else
		o->ev[s->ev_last].next = (uint32_t)o->nev;
	s->ev_last = (uint32_t)o->nev++;
	return 0;
}

static int
attach_link(struct ssp_otlp *o, uint32_t si, const struct ssp_rec *r)
{
	struct sitem *s = &o->sp[si];
	struct litem *l;

	if (ssp_buf_array((void **)&o->ln, &o->capln, o->nln + 1,
	    sizeof(*o->ln)) != 0)
		return -1;
	l = &o->ln[o->nln];
	l->trace_hi = r->f[SSP_LF_TRACE_HI];
	l->trace_lo = r->f[SSP_LF_TRACE_LO];
	l->target = r->f[SSP_LF_TARGET];
	l->kind = r->f[SSP_LF_KIND];
	l->next = NONE;
	if (s->ln == NONE)
		s->ln = (uint32_t)o->nln;
	else
		o->ln[s->ln_last].next = (uint32_t)o->nln;
	s->ln_last = (uint32_t)o->nln++;
	return 0;
}

static int
attach(struct ssp_otlp *o, uint32_t si, const struct ssp_rec *r, int cls)
{
	return cls == C_EVENT ? attach_event(o, si, r) : attach_link(o, si, r);
}

/* An event or link that is not exported: count it, and remember the
 * first span that lost one, to name it. */
static void
unmatched(struct ssp_otlp *o, uint64_t span, int cls)
{
	if (o->stats.events_unmatched + o->stats.links_unmatched == 0)
		o->stats.unmatched_span = span;
	if (cls == C_EVENT) {
		o->stats.events_unmatched++;
		o->stats.unmatched_span_events += span == o->stats.unmatched_span;
	} else {
		o->stats.links_unmatched++;
		o->stats.unmatched_span_links += span == o->stats.unmatched_span;
	}
}

/* An event or link whose span is not (yet) in the batch. */
static int
add_pending(struct ssp_otlp *o, uint64_t span, const struct ssp_rec *r, int cls)
{
	uint32_t head;

	if (span == 0 || o->npend >= o->pend_max) {
		unmatched(o, span, cls);
		return 0;
	}
	if (ssp_buf_array((void **)&o->pend, &o->cappend, o->npend + 1,
	    sizeof(*o->pend)) != 0)
		return -1;
	head = idmap_get(&o->pendmap, span);
	o->pend[o->npend].r = *r;
	o->pend[o->npend].next = head;	/* newest first; reversed on use */
	if (idmap_put(&o->pendmap, span, (uint32_t)o->npend) != 0)
		return -1;
	o->npend++;
	o->npend_live++;
	return 0;
}

static int
take_pending(struct ssp_otlp *o, uint64_t span, uint32_t si)
{
	uint32_t i, prev = NONE, next;

	if ((i = idmap_get(&o->pendmap, span)) == NONE)
		return 0;
	(void)idmap_put(&o->pendmap, span, NONE);	/* slot exists */
	while (i != NONE) {		/* reverse to stream order */
		next = o->pend[i].next;
		o->pend[i].next = prev;
		prev = i;
		i = next;
	}
	for (i = prev; i != NONE; i = o->pend[i].next) {
		const struct ssp_rec *r = &o->pend[i].r;

		if (attach(o, si, r, info(o, r)->cls) != 0)
			return -1;
		o->npend_live--;
	}
	if (o->npend_live == 0) {
		o->npend = 0;
		ssp_map_clear(&o->pendmap);
	}
	return 0;
}

/* Most events and links follow their span directly (the fast path in
 * ssp_otlp_add); the map is built only when one does not. */
static uint32_t
find_span(struct ssp_otlp *o, uint64_t span)
{
	size_t i;

	if (!o->spmap_live) {
		for (i = 0; i < o->nsp; i++)
			if (idmap_put(&o->spmap, o->sp[i].r.f[SSP_SF_SPAN],
			    (uint32_t)i) != 0) {
				ssp_map_clear(&o->spmap);
				return NONE - 1;
			}
		o->spmap_live = 1;
	}
	return idmap_get(&o->spmap, span);
}

static int
add_span(struct ssp_otlp *o, const struct ssp_rec *r)
{
	uint64_t stream = r->f[SSP_SF_STREAM];
	struct sitem *s;
	struct stream *st;
	uint32_t si;

	o->stats.spans++;
	if ((r->f[SSP_SF_TRACE_HI] == 0 && r->f[SSP_SF_TRACE_LO] == 0) ||
	    r->f[SSP_SF_SPAN] == 0) {
		o->stats.spans_bad_id++;
		return 0;
	}
	if (stream >= o->nst) {
		o->stats.spans_bad_stream++;
		return 0;
	}
	if (batch_array((void **)&o->sp, &o->capsp, o->nsp + 1,
	    sizeof(*o->sp), o->opt.batch) != 0)
		return -1;
	si = (uint32_t)o->nsp++;
	s = &o->sp[si];
	if (r != &s->r)		/* not decoded in place (ssp_otlp_slot) */
		s->r = *r;
	s->ev = s->ln = s->next = NONE;
	st = &o->st[stream];
	if (st->head == NONE)
		st->head = si;
	else
		o->sp[st->tail].next = si;
	st->tail = si;
	if (o->spmap_live && idmap_put(&o->spmap, r->f[SSP_SF_SPAN], si) != 0)
		return -1;
	o->last_id = r->f[SSP_SF_SPAN];
	o->last_idx = si;
	if (o->npend_live > 0)
		return take_pending(o, r->f[SSP_SF_SPAN], si);
	return 0;
}

enum ssp_status
ssp_otlp_add(struct ssp_otlp *o, const struct ssp_rec *r, struct ssp_err *e)
{
	const struct ftinfo *fi = info(o, r);
	uint64_t span;
	uint32_t si;
	int rc = 0;

	switch (fi->cls) {
	case C_SPAN:
		rc = add_span(o, r);
		break;
	case C_EVENT:
	case C_LINK:
		if (fi->cls == C_EVENT) {
			o->stats.events++;
			if (!o->events) {
				o->stats.events_off++;
				return SSP_OK;
			}
			span = r->f[SSP_EF_SPAN];
		} else {
			o->stats.links++;
			span = r->f[SSP_LF_SPAN];
		}
		if (span != 0 && span == o->last_id && o->last_idx != NONE)
			si = o->last_idx;
		else
			si = span != 0 ? find_span(o, span) : NONE;
		if (si == NONE - 1)
			rc = -1;
		else
			rc = si != NONE ? attach(o, si, r, fi->cls) :
			    add_pending(o, span, r, fi->cls);
		break;
	default:
		o->stats.other++;
		break;
	}
	if (rc != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
}

static void
batch_reset(struct ssp_otlp *o)
{
	size_t i;

	for (i = 0; i < o->nst; i++)
		o->st[i].head = o->st[i].tail = NONE;
	o->nsp = o->nev = o->nln = 0;
	ssp_map_clear(&o->spmap);
	o->spmap_live = 0;
	o->last_id = 0;
	o->last_idx = NONE;
}

void
ssp_otlp_discard(struct ssp_otlp *o, size_t *nspans)
{
	*nspans = o->nsp;
	o->stats.spans_discarded += o->nsp;
	o->stats.events_discarded += o->nev;
	o->stats.links_discarded += o->nln;
	batch_reset(o);
}

void
ssp_otlp_finish(struct ssp_otlp *o)
{
	size_t i;

	SSP_ASSERT(o->nsp == 0);	/* the batch was encoded or discarded */
	for (i = 0; i < o->npend; i++) {
		/* Entries already attached are unlinked from the map. */
		const struct ssp_rec *r = &o->pend[i].r;
		int cls = info(o, r)->cls;
		uint64_t span = cls == C_EVENT ? r->f[SSP_EF_SPAN] :
		    r->f[SSP_LF_SPAN];
		uint32_t j;

		/* Count each live entry once, through its chain head. */
		if (idmap_get(&o->pendmap, span) != (uint32_t)i)
			continue;
		for (j = (uint32_t)i; j != NONE; j = o->pend[j].next)
			unmatched(o, span, info(o, &o->pend[j].r)->cls);
	}
	o->npend = o->npend_live = 0;
	ssp_map_clear(&o->pendmap);
}

/* --- strings of the stream ------------------------------------------------ */

/* Entries start over when the stream's string ids do: checked before
 * each request is encoded (ids change only while records are read). */
static void
strc_sync(struct ssp_otlp *o)
{
	uint64_t gen = ssp_rec_rd_strgen(o->rr);

	if (gen != o->strgen) {		/* ids start over */
		if (o->nsc > 0)
			memset(o->sc, 0, o->nsc * sizeof(*o->sc));
		ssp_buf_reset(&o->jarena);
		o->strgen = gen;
	}
}

struct strc *
ssp_otlp_strc_grow(struct ssp_otlp *o, uint64_t id)
{
	if (id < STRC_MAX) {
		size_t nn = o->nsc < 1024 ? 1024 : o->nsc;
		struct strc *q;

		while (nn <= id)
			nn *= 2;
		if ((q = realloc(o->sc, nn * sizeof(*q))) != NULL) {
			memset(q + o->nsc, 0, (nn - o->nsc) * sizeof(*q));
			o->sc = q;
			o->nsc = nn;
			return &o->sc[id];
		}
	}
	return NULL;
}

/* --- batches -------------------------------------------------------------------- */

/* The spans [lo, hi) of the batch (in arrival order) as one request. */
static void
encode_range(struct ssp_otlp *o, struct ssp_buf *b, uint32_t lo, uint32_t hi)
{
	strc_sync(o);
	if (o->opt.proto == SSP_OTLP_JSON)
		ssp_otlp_json_request(o, b, lo, hi);
	else
		ssp_otlp_pb_request(o, b, lo, hi);
}

enum ssp_status
ssp_otlp_encode(struct ssp_otlp *o, struct ssp_buf *b, size_t *nspans,
    struct ssp_err *e)
{
	*nspans = o->nsp;
	encode_range(o, b, 0, (uint32_t)o->nsp);
	o->stats.spans_out += o->nsp;
	o->stats.batches++;
	batch_reset(o);
	if (b->failed)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory encoding "
		    "a batch of %zu spans", *nspans);
	return SSP_OK;
}

/* Spans, events and links of the spans [lo, hi). */
static size_t
items(const struct ssp_otlp *o, uint32_t lo, uint32_t hi)
{
	size_t n = hi - lo;
	uint32_t i, j;

	for (i = lo; i < hi; i++) {
		if (o->events)
			for (j = o->sp[i].ev; j != NONE; j = o->ev[j].next)
				n++;
		for (j = o->sp[i].ln; j != NONE; j = o->ln[j].next)
			n++;
	}
	return n;
}

enum ssp_status
ssp_otlp_encode_each(struct ssp_otlp *o, struct ssp_buf *b,
    ssp_otlp_emit_fn emit, void *ctx, struct ssp_err *e)
{
	size_t max = o->opt.max_bytes;
	uint32_t lo = 0, hi, n = (uint32_t)o->nsp;
	enum ssp_status rc = SSP_OK;

	/* Requests of up to max bytes, and a batch before it is split, in
	 * memory on huge pages (base/buf): for full batches only, so that a
	 * short stream does not fault in 2 MiB pages for a few KB. */
	if (max != 0 && max <= SIZE_MAX / 4 && o->nsp >= o->opt.batch &&
	    ssp_buf_reserve_huge(b, max + max / 2) != 0) {
		batch_reset(o);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory for a "
		    "request buffer");
	}

	while (lo < n && rc == SSP_OK) {
		struct ssp_otlp_stats saved = o->stats;

		hi = n;
		for (;;) {
			ssp_buf_reset(b);
			encode_range(o, b, lo, hi);
			if (b->failed) {
				rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of "
				    "memory encoding a batch of %u spans", hi - lo);
				break;
			}
			if (max == 0 || b->len <= max || hi - lo == 1)
				break;
			/* Too large (rare: the batch was ended by the estimate):
			 * fewer spans, in proportion, with a margin. */
			o->stats = saved;
			hi = lo + (uint32_t)((double)(hi - lo) * 0.9 * (double)max /
			    (double)b->len);
			if (hi <= lo)
				hi = lo + 1;
		}
		if (rc != SSP_OK)
			break;
		/* what a record costs, for ssp_otlp_full() */
		o->avg = (double)b->len / (double)items(o, lo, hi);
		set_full_items(o);
		o->stats.spans_out += hi - lo;
		o->stats.batches++;
		rc = emit(ctx, b, hi - lo, e);
		lo = hi;
	}
	batch_reset(o);
	return rc;
}
