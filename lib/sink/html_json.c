/*
 * The HTML page's data as JSON (formats/html.md §4): the run, the listed
 * traces and their detail, the latency groups and the lane density.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/html_int.h"

static void
put_str(struct ssp_buf *b, const char *s)
{
	ssp_strfmt_json_str(b, s, strlen(s));
}

static void
put_atom(struct ssp_buf *b, const struct ssp_html *h, uint32_t a)
{
	size_t n;
	const char *s = ssp_atoms_str(h->atoms, a, &n);

	ssp_strfmt_json_str(b, s, n);
}

static void
put_key(struct ssp_buf *b, const char *k)
{
	ssp_buf_putc(b, '"');
	ssp_buf_put(b, k, strlen(k));
	ssp_buf_lit(b, "\":");
}

struct idpos {
	uint64_t id;
	uint32_t i;
};

static int
cmp_idpos(const void *a, const void *b)
{
	const struct idpos *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* One detailed trace: its spans in stream order (a parent before its
 * children), as rows (formats/html.md §2.3).  Parents are looked up among
 * the trace's own spans (a parent is in the same trace). */
static int
write_detail(struct ssp_html *h, struct ssp_buf *b, uint32_t ti,
    uint32_t **idx, uint32_t *cap)
{
	const struct strace *tr = &h->sel[ti];
	struct idpos *byid, *hit;
	uint32_t n = 0, i, s, cnt = 0;
	int64_t p;

	for (s = tr->first; s != NONE; s = h->sp[s].next)
		cnt++;
	if (ssp_html_grow((void **)idx, cap, cnt + 1, sizeof(**idx)) != 0 ||
	    (byid = malloc(((size_t)cnt + 1) * sizeof(*byid))) == NULL)
		return -1;
	for (s = tr->first; s != NONE; s = h->sp[s].next) {
		byid[n].id = h->sp[s].id;
		byid[n].i = n;
		(*idx)[n++] = s;
	}
	ssp_html_sort_n(byid, n, sizeof(*byid), cmp_idpos);
	ssp_buf_lit(b, "{\"trace\":");
	put_num(b, tr->pos);
	ssp_buf_lit(b, ",\"spans\":[");
	for (i = 0; i < n; i++) {
		const struct span *x = &h->sp[(*idx)[i]];

		if (i > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		put_hex(b, x->id);
		ssp_buf_putc(b, ',');
		/* the first span with the parent's id (ids are unique in a
		 * good stream) */
		hit = NULL;
		if (x->parent != 0) {
			size_t lo = 0, hi = n;

			while (lo < hi) {
				size_t m = (lo + hi) / 2;

				if (byid[m].id < x->parent)
					lo = m + 1;
				else
					hi = m;
			}
			if (lo < n && byid[lo].id == x->parent)
				hit = &byid[lo];
		}
		p = hit != NULL ? (int64_t)hit->i : -1;
		put_num(b, p);
		ssp_buf_putc(b, ',');
		put_num(b, h->ft[x->ft].kind);
		ssp_buf_putc(b, ',');
		put_num(b, x->stream);
		ssp_buf_putc(b, ',');
		put_num(b, x->lane);
		ssp_buf_putc(b, ',');
		put_num(b, x->start);
		ssp_buf_putc(b, ',');
		put_num(b, x->dur);
		ssp_buf_putc(b, ',');
		put_num(b, x->flags);
		ssp_buf_putc(b, ',');
		if (x->cause)
			put_atom(b, h, x->cause);
		else
			ssp_buf_lit(b, "\"\"");
		ssp_buf_putc(b, ',');
		ssp_buf_put(b, h->text.p + x->attr, x->attrlen);
		ssp_buf_lit(b, ",[");
		if (x->xlinks > 0)
			ssp_buf_put(b, h->ltext.p + x->ltra, x->xlinks);
		ssp_buf_lit(b, "],");
		if (tr->events && x->xevents > 0) {
			ssp_buf_putc(b, '[');
			ssp_buf_put(b, h->xtext.p + x->xtra, x->xevents);
			ssp_buf_putc(b, ']');
		} else if (x->nevents > 0) {
			/* left out: minus their count */
			put_num(b, -(int64_t)x->nevents);
		} else {
			ssp_buf_lit(b, "[]");
		}
		ssp_buf_putc(b, ']');
	}
	ssp_buf_lit(b, "]}");
	free(byid);
	return 0;
}

/* One lane's row of bins, written as a JSON array. */


static int
write_traces(struct ssp_html *h, struct ssp_buf *b)
{
	static const char *const cols[] = { "id", "root_kind", "root_stream",
	    "start", "dur", "spans", "busy", "flags", "detail", "streams" };
	uint32_t c, i, k;

	ssp_buf_lit(b, "\"traces\":{");
	for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		if (c > 0)
			ssp_buf_putc(b, ',');
		put_key(b, cols[c]);
		ssp_buf_putc(b, '[');
		for (i = 0; i < h->nsel; i++) {
			const struct strace *tr = &h->sel[h->order[i]];
			const struct agg *a = &tr->a;

			if (i > 0)
				ssp_buf_putc(b, ',');
			switch (c) {
			case 0: put_trace_id(b, a->hi, a->lo); break;
			case 1: put_num(b, a->root_kind); break;
			case 2:
				put_num(b, a->root_stream == NONE ? -1 :
				    (int64_t)a->root_stream);
				break;
			case 3: put_num(b, a->start); break;
			case 4: put_num(b, a->end - a->start); break;
			case 5: put_num(b, a->n); break;
			case 6: put_num(b, tr->busy); break;
			case 7: put_num(b, tr->flags); break;
			case 8: put_num(b, tr->detail); break;
			case 9:
				ssp_buf_putc(b, '[');
				for (k = 0; k < tr->nsp; k++) {
					const struct ssplit *sp = &tr->sp[k];

					if (k > 0)
						ssp_buf_putc(b, ',');
					put_num(b, sp->stream);
					ssp_buf_putc(b, ',');
					put_num(b, sp->spans);
					ssp_buf_putc(b, ',');
					put_num(b, sp->busy);
				}
				ssp_buf_putc(b, ']');
				break;
			}
		}
		ssp_buf_putc(b, ']');
	}
	ssp_buf_putc(b, '}');
	return 0;
}

static int
cmp_group(const void *x, const void *y)
{
	const struct lgroup *a = x, *b = y;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	return a->net < b->net ? -1 : a->net > b->net;
}

/* The latency histograms of every trace, per group (formats/html.md §2.5). */
static void
write_latency(struct ssp_html *h, struct ssp_buf *b)
{
	uint32_t i, k;
	int any;

	ssp_html_sort_n(h->groups, h->ngroups, sizeof(*h->groups), cmp_group);
	h->last_group = NONE;
	ssp_buf_lit(b, "\"latency\":{\"bits\":");
	put_num(b, SSP_HTML_HIST_BITS);
	ssp_buf_lit(b, ",\"groups\":[");
	for (i = 0; i < h->ngroups; i++) {
		const struct lgroup *g = &h->groups[i];

		if (i > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_lit(b, "{\"root_kind\":");
		put_num(b, g->kind);
		ssp_buf_lit(b, ",\"root_stream\":");
		put_num(b, g->stream == NONE ? -1 : (int64_t)g->stream);
		ssp_buf_lit(b, ",\"net\":");
		if (g->net)
			ssp_buf_lit(b, "true");
		else
			ssp_buf_lit(b, "false");
		ssp_buf_lit(b, ",\"traces\":");
		put_num(b, (int64_t)g->n);
		ssp_buf_lit(b, ",\"min\":");
		put_num(b, g->min);
		ssp_buf_lit(b, ",\"max\":");
		put_num(b, g->max);
		ssp_buf_lit(b, ",\"buckets\":[");
		for (k = any = 0; k < g->len; k++) {
			if (g->c[k] == 0)
				continue;
			if (any++)
				ssp_buf_putc(b, ',');
			put_num(b, g->base + k);
			ssp_buf_putc(b, ',');
			put_num(b, (int64_t)g->c[k]);
		}
		ssp_buf_lit(b, "]}");
	}
	ssp_buf_lit(b, "]}");
}

/*
 * Per lane and bin over the whole run (all spans): the busy fraction of
 * the bin in millionths, and how many spans touch it; the bins from the
 * first to the last any span touched.
 */
static void
write_density(struct ssp_html *h, struct ssp_buf *b)
{
	int64_t first = 0, nb = 0, w = h->dw;
	uint32_t l, i;

	if (h->docc) {
		first = h->occ_lo - h->dlo;
		nb = h->occ_hi - h->occ_lo + 1;
	}
	for (l = 0; l < h->nlanes; l++)
		ssp_html_lane_concrete(&h->lanes[l], w);
	ssp_buf_lit(b, "\"density\":{\"bins\":");
	put_num(b, nb);
	ssp_buf_lit(b, ",\"bin_ps\":");
	put_num(b, w);
	ssp_buf_lit(b, ",\"origin\":");
	/* the first bin's start, in ps: occ_lo * w, which may lie below
	 * INT64_MIN only for absurd times; then clamped */
	put_num(b, h->docc && h->occ_lo >= INT64_MIN / w ? h->occ_lo * w :
	    h->docc ? INT64_MIN : 0);
	ssp_buf_lit(b, ",\"busy\":[");
	for (l = 0; l < h->nlanes; l++) {
		if (l > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		for (i = 0; i < nb; i++) {
			if (i > 0)
				ssp_buf_putc(b, ',');
			ssp_strfmt_json_u64(b, (uint64_t)(h->lanes[l].busy[first + i] *
			    (1e6 / (double)w) + 0.5));
		}
		ssp_buf_putc(b, ']');
	}
	ssp_buf_lit(b, "],\"count\":[");
	for (l = 0; l < h->nlanes; l++) {
		if (l > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		for (i = 0; i < nb; i++) {
			if (i > 0)
				ssp_buf_putc(b, ',');
			put_num(b, h->lanes[l].cnt[first + i]);
		}
		ssp_buf_putc(b, ']');
	}
	ssp_buf_lit(b, "]}");
	for (l = 0; l < h->nlanes; l++)
		ssp_html_lane_diff(&h->lanes[l]);
}

int
ssp_html_json(struct ssp_html *h, struct ssp_buf *b, struct ssp_err *e)
{
	uint32_t i, *idx = NULL, cap = 0;
	const struct ssp_html_stats *st = &h->st;

	if (h->pass != 3)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "ssp_html_json: the "
		    "second pass (ssp_html_detail) has not run");
	ssp_buf_lit(b, "{\"format\":\"simspan-html\",\"version\":");
	put_num(b, FORMAT_VERSION);
	ssp_buf_lit(b, ",\"producer\":");
	put_str(b, h->o.tool);
	ssp_buf_lit(b, ",\"source\":");
	put_str(b, h->o.source);
	ssp_buf_lit(b, ",\"stream_producer\":");
	put_str(b, h->producer);
	ssp_buf_lit(b, ",\"streams\":[");
	for (i = 0; i < h->nstreams; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_lit(b, "{\"name\":");
		put_str(b, h->streams[i].name);
		ssp_buf_lit(b, ",\"sim\":");
		put_str(b, h->streams[i].sim);
		ssp_buf_lit(b, ",\"kind\":");
		put_str(b, h->streams[i].kind);
		ssp_buf_putc(b, '}');
	}
	ssp_buf_lit(b, "],\"kinds\":[");
	for (i = 0; i < h->nkinds; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		put_str(b, h->kinds[i]);
	}
	ssp_buf_lit(b, "],\"lanes\":[");
	for (i = 0; i < h->nlanes; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		put_num(b, h->lanes[i].stream);
		ssp_buf_putc(b, ',');
		if (h->lanes[i].ctx)
			put_atom(b, h, h->lanes[i].ctx);
		else
			ssp_buf_lit(b, "\"\"");
		ssp_buf_putc(b, ']');
	}
	ssp_buf_lit(b, "],\"counts\":{\"spans\":");
	put_num(b, (int64_t)st->spans);
	ssp_buf_lit(b, ",\"traces\":");
	put_num(b, (int64_t)st->traces);
	ssp_buf_lit(b, ",\"links\":");
	put_num(b, (int64_t)st->links);
	ssp_buf_lit(b, ",\"events\":");
	put_num(b, (int64_t)st->events);
	ssp_buf_lit(b, ",\"orphans\":");
	put_num(b, (int64_t)st->orphans);
	ssp_buf_lit(b, ",\"open\":");
	put_num(b, (int64_t)st->open);
	ssp_buf_lit(b, ",\"background\":");
	put_num(b, (int64_t)st->background);
	ssp_buf_lit(b, ",\"incomplete\":");
	put_num(b, (int64_t)st->incomplete);
	ssp_buf_lit(b, ",\"unknown\":");
	put_num(b, (int64_t)st->unknown);
	ssp_buf_lit(b, ",\"unattached\":");
	put_num(b, (int64_t)st->unattached);
	ssp_buf_lit(b, ",\"listed_traces\":");
	put_num(b, (int64_t)st->listed_traces);
	ssp_buf_lit(b, ",\"detail_traces\":");
	put_num(b, (int64_t)st->detail_traces);
	ssp_buf_lit(b, ",\"detail_spans\":");
	put_num(b, (int64_t)st->detail_spans);
	ssp_buf_lit(b, ",\"detail_events\":");
	put_num(b, (int64_t)st->detail_events);
	ssp_buf_lit(b, ",\"omitted_events\":");
	put_num(b, (int64_t)h->omit_events);
	ssp_buf_lit(b, "},\"selection\":");
	{
		char sel[96];

		if (h->all)
			snprintf(sel, sizeof(sel), "all");
		else
			snprintf(sel, sizeof(sel), "slowest:%" PRIu32 ",sample:%"
			    PRIu32, h->o.slowest, h->o.sample);
		put_str(b, sel);
	}
	ssp_buf_lit(b, ",\"max_spans\":");
	put_num(b, (int64_t)h->o.max_spans);
	ssp_buf_lit(b, ",\"start\":");
	put_num(b, h->st.spans ? h->t0 : 0);
	ssp_buf_lit(b, ",\"end\":");
	put_num(b, h->st.spans ? h->t1 : 0);
	ssp_buf_putc(b, ',');
	write_traces(h, b);
	ssp_buf_lit(b, ",\"details\":[");
	for (i = 0; i < h->ndetail; i++) {
		if (i > 0)
			ssp_buf_putc(b, ',');
		if (write_detail(h, b, h->detail[i], &idx, &cap) != 0)
			goto nomem;
	}
	ssp_buf_lit(b, "],");
	write_latency(h, b);
	ssp_buf_putc(b, ',');
	write_density(h, b);
	ssp_buf_lit(b, "}\n");
	free(idx);
	if (b->failed)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return SSP_OK;
nomem:
	free(idx);
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}
