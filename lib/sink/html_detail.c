/*
 * The HTML sink's second pass (html_int.h): the spans, attributes, events
 * and links of the traces the first pass listed, and their busy-time
 * split by stream.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/html_int.h"

static void
put_mac(struct ssp_buf *b, uint64_t v)
{
	char s[20];
	int n = snprintf(s, sizeof(s), "\"%02x:%02x:%02x:%02x:%02x:%02x\"",
	    (unsigned)(v >> 40) & 255, (unsigned)(v >> 32) & 255,
	    (unsigned)(v >> 24) & 255, (unsigned)(v >> 16) & 255,
	    (unsigned)(v >> 8) & 255, (unsigned)v & 255);

	ssp_buf_put(b, s, (size_t)n);
}

static void
put_ip(struct ssp_buf *b, uint64_t v)
{
	char s[20];
	int n = snprintf(s, sizeof(s), "\"%u.%u.%u.%u\"",
	    (unsigned)(v >> 24) & 255, (unsigned)(v >> 16) & 255,
	    (unsigned)(v >> 8) & 255, (unsigned)v & 255);

	ssp_buf_put(b, s, (size_t)n);
}

/* Fields [first, nf) of r as a JSON object (formats/html.md §4). */
static void
put_fields(struct ssp_buf *b, const struct ssp_rec_type *t, unsigned first,
    const struct ssp_rec *r, const struct ssp_rec_rd *rr)
{
	unsigned k;
	int any = 0;

	ssp_buf_putc(b, '{');
	for (k = first; k < t->nf && k < r->nf; k++) {
		uint64_t v = r->f[k];
		char enc = t->f[k].enc;
		const char *s = NULL;
		size_t len = 0;

		if ((enc == SSP_ENC_I && (int64_t)v == -1) ||
		    (enc == SSP_ENC_S && (v == 0 ||
		    (s = ssp_rec_rd_str(rr, v, &len)) == NULL)))
			continue;
		if (any)
			ssp_buf_putc(b, ',');
		any = 1;
		ssp_strfmt_json_str(b, t->f[k].name, strlen(t->f[k].name));
		ssp_buf_putc(b, ':');
		switch (enc) {
		case SSP_ENC_B: if (v) ssp_buf_lit(b, "true");
			else ssp_buf_lit(b, "false");
			break;
		case SSP_ENC_S: ssp_strfmt_json_str(b, s, len); break;
		case SSP_ENC_M: put_mac(b, v); break;
		case SSP_ENC_A: put_ip(b, v); break;
		case SSP_ENC_X: put_hex(b, v); break;
		case SSP_ENC_U:
			if (v < (UINT64_C(1) << 53))
				ssp_strfmt_json_u64(b, v);
			else
				put_hex(b, v);
			break;
		default: put_num(b, (int64_t)v);
		}
	}
	ssp_buf_putc(b, '}');
}

/* --- the second pass: the listed traces --------------------------------- */

/* Add [b, e] to the set (its union length is the busy time; an empty
 * interval adds nothing). */
static int
iset_add(struct iset *s, int64_t b, int64_t e)
{
	uint32_t lo = 0, hi = s->n, i, j;

	if (e <= b)
		return 0;
	while (lo < hi) {	/* the first interval that ends at or after b */
		uint32_t m = lo + (hi - lo) / 2;

		if (s->v[2 * m + 1] < b)
			lo = m + 1;
		else
			hi = m;
	}
	i = lo;
	for (j = i; j < s->n && s->v[2 * j] <= e; j++) {
		if (s->v[2 * j] < b)
			b = s->v[2 * j];
		if (s->v[2 * j + 1] > e)
			e = s->v[2 * j + 1];
	}
	if (j == i) {		/* touches none: a new one at i */
		if (ssp_html_grow((void **)&s->v, &s->cap, 2 * s->n + 2, sizeof(*s->v)) != 0)
			return -1;
		memmove(s->v + 2 * i + 2, s->v + 2 * i,
		    (size_t)(s->n - i) * 2 * sizeof(*s->v));
		s->n++;
	} else if (j > i + 1) {	/* i .. j - 1 become one */
		memmove(s->v + 2 * i + 2, s->v + 2 * j,
		    (size_t)(s->n - j) * 2 * sizeof(*s->v));
		s->n -= j - i - 1;
	}
	s->v[2 * i] = b;
	s->v[2 * i + 1] = e;
	return 0;
}

static int64_t
iset_len(const struct iset *s)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < s->n; i++)
		n += (uint64_t)s->v[2 * i + 1] - (uint64_t)s->v[2 * i];
	return n > INT64_MAX ? INT64_MAX : (int64_t)n;
}

static int
split_add(struct strace *t, uint32_t stream, int64_t b, int64_t e)
{
	uint32_t i;

	for (i = 0; i < t->nsp && t->sp[i].stream != stream; i++)
		;
	if (i == t->nsp) {
		if (ssp_html_grow((void **)&t->sp, &t->capsp, t->nsp + 1, sizeof(*t->sp)) != 0)
			return -1;
		memset(&t->sp[i], 0, sizeof(t->sp[i]));
		t->sp[i].stream = stream;
		t->nsp++;
	}
	t->sp[i].spans++;
	return iset_add(&t->sp[i].is, b, e) != 0 || iset_add(&t->all, b, e) != 0 ?
	    -1 : 0;
}

static uint32_t
sel_find(struct ssp_html *h, uint64_t hi, uint64_t lo)
{
	const struct ssp_map_slot *s;
	uint32_t i = h->last_sel;

	if (i < h->nsel && h->sel[i].a.hi == hi && h->sel[i].a.lo == lo)
		return i;
	for (s = ssp_map_find(&h->smap, idhash(hi, lo)); s != NULL;
	    s = ssp_map_next(&h->smap, s))
		if (h->sel[s->val].a.hi == hi && h->sel[s->val].a.lo == lo)
			return h->last_sel = s->val;
	return NONE;
}

static int
changed(struct ssp_rec_rd *rr, struct ssp_err *e)
{
	return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not the stream read the "
	    "first time (did the file change?)", ssp_rec_rd_name(rr));
}

/* The second pass's span record: its trace's split, and when the trace
 * is detailed the span with its attributes. */
static int
detail_span(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f,
    struct ssp_rec_rd *rr, struct ssp_err *e)
{
	struct strace *t;
	struct span *s;
	uint32_t ti, ctx, lane;
	const char *str;
	size_t len;
	int64_t end;

	h->have_cur = 0;
	if (ssp_html_bad_span(h, r, rr, e) != SSP_OK)
		return changed(rr, e);
	h->seq2++;
	h->check2 = ssp_html_span_check(h->check2, r);
	if ((ti = sel_find(h, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO])) ==
	    NONE)
		return SSP_OK;
	t = &h->sel[ti];
	end = span_end(r->ts, (int64_t)r->f[SSP_SF_DUR]);
	t->seen++;
	t->flags |= (uint32_t)r->f[SSP_SF_FLAGS];
	if (split_add(t, (uint32_t)r->f[SSP_SF_STREAM], r->ts, end) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if (t->detail < 0)
		return SSP_OK;
	if ((ctx = ssp_html_span_ctx(h, r, f, rr, 0)) == NONE ||
	    (lane = ssp_html_lane_find(h, (uint32_t)r->f[SSP_SF_STREAM], ctx)) == NONE)
		return changed(rr, e);
	if (ssp_html_grow((void **)&h->sp, &h->capsp, h->nsp + 1, sizeof(*h->sp)) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	s = &h->sp[h->nsp];
	memset(s, 0, sizeof(*s));
	s->start = r->ts;
	s->dur = (int64_t)r->f[SSP_SF_DUR];
	s->id = r->f[SSP_SF_SPAN];
	s->parent = r->f[SSP_SF_PARENT];
	s->next = NONE;
	s->ft = r->ftag - 1;
	s->stream = (uint32_t)r->f[SSP_SF_STREAM];
	s->flags = (uint32_t)r->f[SSP_SF_FLAGS];
	s->lane = lane;
	if (r->f[SSP_SF_CAUSE] != 0 &&
	    (str = ssp_rec_rd_str(rr, r->f[SSP_SF_CAUSE], &len)) != NULL &&
	    (s->cause = ssp_atoms_intern(h->atoms, str, len)) == 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	s->attr = h->text.len;
	put_fields(&h->text, &h->fs->types[r->ftag - 1], SSP_SF_NCOMMON, r, rr);
	s->attrlen = (uint32_t)(h->text.len - s->attr);
	s->xtra = h->xtext.len;
	s->ltra = h->ltext.len;
	if (t->last == NONE)
		t->first = h->nsp;
	else
		h->sp[t->last].next = h->nsp;
	t->last = h->nsp;
	h->have_cur = 1;
	h->cur_id = s->id;
	h->cur = h->nsp++;
	h->cur_nl = h->cur_ne = 0;
	h->keep_events = t->events;
	return SSP_OK;
}

/* A member event or link of the detailed span just read. */
static void
detail_extra(struct ssp_html *h, const struct ssp_rec *r, const struct ftype *f,
    struct ssp_rec_rd *rr)
{
	const struct ssp_rec_type *t = &h->fs->types[r->ftag - 1];
	struct ssp_buf *b = f->cls == C_LINK ? &h->ltext : &h->xtext;
	struct span *s;
	const char *str;
	size_t len, at = b->len;

	if (!ssp_html_attached(h, r, f))
		return;
	s = &h->sp[h->cur];
	if (f->cls == C_LINK) {
		if (s->xlinks > 0)
			ssp_buf_putc(b, ',');
		ssp_buf_putc(b, '[');
		put_trace_id(b, r->f[SSP_LF_TRACE_HI], r->f[SSP_LF_TRACE_LO]);
		ssp_buf_putc(b, ',');
		put_hex(b, r->nf > SSP_LF_TARGET ? r->f[SSP_LF_TARGET] : 0);
		ssp_buf_putc(b, ',');
		if (r->nf > SSP_LF_KIND && r->f[SSP_LF_KIND] != 0 &&
		    (str = ssp_rec_rd_str(rr, r->f[SSP_LF_KIND], &len)) != NULL)
			ssp_strfmt_json_str(b, str, len);
		else
			ssp_buf_lit(b, "\"\"");
		ssp_buf_putc(b, ']');
		s->xlinks += (uint32_t)(b->len - at);
		return;
	}
	s->nevents++;
	if (!h->keep_events)
		return;
	if (s->xevents > 0)
		ssp_buf_putc(b, ',');
	ssp_buf_putc(b, '[');
	put_num(b, r->ts);
	ssp_buf_putc(b, ',');
	ssp_strfmt_json_str(b, f->name, strlen(f->name));
	ssp_buf_putc(b, ',');
	put_fields(b, t, SSP_EF_NCOMMON, r, rr);
	ssp_buf_putc(b, ']');
	s->xevents += (uint32_t)(b->len - at);
}

static int
cmp_split(const void *a, const void *b)
{
	const struct ssplit *x = a, *y = b;

	return x->stream < y->stream ? -1 : x->stream > y->stream;
}

int
ssp_html_detail(struct ssp_html *h, struct ssp_rec_rd *rr, struct ssp_err *e)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(rr);
	struct ssp_rec r;
	uint32_t i, k;
	int got, rc;

	if (h->pass != 1)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "ssp_html_detail: not "
		    "after ssp_html_load");
	/* the same file: the same schema */
	if (fs->ntypes != h->fs_ntypes)
		return changed(rr, e);
	for (i = 0; i < fs->ntypes; i++)
		if (strcmp(fs->types[i].name, h->ft[i].tname) != 0)
			return changed(rr, e);
	h->fs = fs;
	h->pass = 2;
	h->have_cur = 0;
	while ((got = ssp_rec_rd_next(rr, &r, e)) == 1) {
		const struct ftype *f = r.ftag >= 1 && r.ftag <= fs->ntypes ?
		    &h->ft[r.ftag - 1] : NULL;

		h->records2++;
		if (f == NULL || f->cls == C_SKIP)
			continue;
		if (f->cls == C_SPAN) {
			if ((rc = detail_span(h, &r, f, rr, e)) != SSP_OK)
				return rc;
		} else {
			detail_extra(h, &r, f, rr);
		}
		if (h->o.tick != NULL && h->records2 % TICK == 0)
			h->o.tick(h->o.tick_ctx, h->records1 + h->records2,
			    h->st.spans + h->seq2);
	}
	h->fs = NULL;
	h->have_cur = 0;
	if (got < 0)
		return got;
	if (h->seq2 != h->st.spans || h->records2 != h->records1 ||
	    h->check2 != h->check)
		return changed(rr, e);
	if (h->text.failed || h->xtext.failed || h->ltext.failed)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < h->nsel; i++) {
		struct strace *t = &h->sel[i];

		if (t->seen != t->a.n && t->a.n != UINT32_MAX)
			return changed(rr, e);
		t->busy = iset_len(&t->all);
		free(t->all.v);
		t->all.v = NULL;
		for (k = 0; k < t->nsp; k++) {
			t->sp[k].busy = iset_len(&t->sp[k].is);
			free(t->sp[k].is.v);
			t->sp[k].is.v = NULL;
		}
		ssp_html_sort_n(t->sp, t->nsp, sizeof(*t->sp), cmp_split);
	}
	h->pass = 3;
	return SSP_OK;
}
