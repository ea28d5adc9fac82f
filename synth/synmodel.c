/*
 * The core of simsynth's discrete-event model: the event queue, span
 * recording into the truth, symbol look-up for the host scripts, packets
 * and the bookkeeping of answered requests.
 */
#include <stdlib.h>

#include "synth/synmodel.h"

/* --- event queue: binary min-heap on (t, seq) ------------------------- */

static int
ev_less(const struct sev *a, const struct sev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void
ssp_synmodel_schedule(struct syn *s, int64_t t, uint32_t type, uint32_t who,
    uint64_t a, void *p)
{
	struct sev ev = { t, s->seq++, type, who, a, p };
	size_t i;

	if (t < s->now)		/* never into the past */
		ev.t = s->now;
	if (s->nheap == s->capheap) {
		size_t cap = s->capheap ? s->capheap * 2 : 1024;
		struct sev *h = realloc(s->heap, cap * sizeof(*h));

		if (h == NULL) {
			s->failed = 1;
			ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
			return;
		}
		s->heap = h;
		s->capheap = cap;
	}
	i = s->nheap++;
	while (i > 0 && ev_less(&ev, &s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = ev;
}

int
ssp_synmodel_pop(struct syn *s, struct sev *out)
{
	struct sev last;
	size_t i = 0, c;

	if (s->nheap == 0)
		return 0;
	*out = s->heap[0];
	last = s->heap[--s->nheap];
	while ((c = 2 * i + 1) < s->nheap) {
		if (c + 1 < s->nheap && ev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	s->heap[i] = last;
	return 1;
}

/* --- helpers for the model --------------------------------------------- */

/*
 * --host qemu: QEMU prints no instruction trace, so a QEMU host has no
 * kernel spans (the truth has none: their children are roots), and its
 * times are on its ns clock.  0 drops the span.
 */
static int
qemu_span(const struct syn *s, unsigned stream, unsigned kind, int64_t *start)
{
	if (s->qemu_stream == NULL || !s->qemu_stream[stream])
		return 1;
	if (kind != SSP_SK_HOST_MMIO && kind != SSP_SK_HOST_DMA &&
	    kind != SSP_SK_HOST_MSIX)
		return 0;
	*start = ssp_synqemu_time(*start);
	return 1;
}

uint64_t
ssp_synmodel_span(struct syn *s, unsigned stream, unsigned kind, int64_t start,
    const char *key, uint64_t parent, uint64_t rule_parent)
{
	if (!qemu_span(s, stream, kind, &start))
		return 0;
	return ssp_syntruth_span(s->truth, stream, s->stream_names[stream], kind,
	    start, key, parent, NULL, 0, rule_parent == parent ? 0 :
	    rule_parent == 0 ? SSP_TRUTH_RULE_ROOT : rule_parent);
}

uint64_t
ssp_synmodel_span_links(struct syn *s, unsigned stream, unsigned kind,
    int64_t start, const char *key, uint64_t parent, const uint64_t *links,
    size_t nlinks)
{
	if (!qemu_span(s, stream, kind, &start))
		return 0;
	return ssp_syntruth_span(s->truth, stream, s->stream_names[stream], kind,
	    start, key, parent, links, nlinks, 0);
}

const struct ssp_synsym *
ssp_synmodel_fn(struct syn *s, const char *name)
{
	const struct ssp_synsym *f = ssp_synsym_find(s->syms, name);

	if (f == NULL && !s->failed) {	/* a bug in the scripts */
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_INVAL, 0, "internal: no symbol %s",
		    name);
	}
	return f;
}

struct pkt *
ssp_synmodel_pkt_new(struct syn *s, enum pkt_kind kind)
{
	struct pkt *pk = calloc(1, sizeof(*pk));

	if (pk == NULL) {
		s->failed = 1;
		ssp_err_set(&s->err, SSP_ERR_NOMEM, 0, "out of memory");
		return NULL;
	}
	pk->kind = kind;
	pk->refs = 1;
	pk->src_host = pk->dst_host = pk->src_dummy = pk->dst_dummy = -1;
	return pk;
}

void
ssp_synmodel_pkt_put(struct pkt *pk)
{
	if (pk != NULL && --pk->refs <= 0)
		free(pk);
}

void
ssp_synmodel_request_done(struct syn *s, unsigned req, int64_t t)
{
	if (req >= s->nreqs || s->reqs[req].t_done != 0)
		return;
	s->reqs[req].t_done = t;
	if (++s->reqs_done == s->nreqs && !s->ending) {
		s->ending = 1;
		s->end = t + TAIL_PS;
	}
}
