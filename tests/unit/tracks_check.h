/*
 * A model reader of ssp_tracks' items, for the unit test and the fuzz
 * target: it keeps every item, then reads them as trace_processor reads
 * a trace (tests/perfetto/check.js does the same on the encoded files):
 * sorted by time, equal times in the order handed out; a stack of slices
 * per track; flows as its FlowTracker makes them (flow_ids begin a flow
 * or step an active one, terminating ids end an active one, v1 flow
 * events bind to the innermost open slice; a flow goes from the slice
 * that starts first).  tc_check() returns NULL or what is wrong.
 *
 * With json set, every flow end is a v1 flow event, bound as
 * trace_processor binds a JSON one: to the innermost slice that starts at
 * its time on its track (a zero-length slice stays there until the next
 * one starts).
 *
 * tc_args is the arguments callback: it encodes the span id and parent,
 * so that a BEGIN names its span.  Header-only; abort() on no memory.
 */
#ifndef SSP_TEST_TRACKS_CHECK_H
#define SSP_TEST_TRACKS_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/tracks.h"
#include "stream/span.h"

struct tc_ev {
	uint64_t ts, end, order, flow, span, parent;
	uint32_t what, tid, kind, fl0, nfl;
};

struct tc_slice {
	uint64_t span, parent, start, end;
	uint32_t tid, ended, nested;
};

struct tc_row {
	uint64_t id;
	uint32_t out, in;	/* slice indices */
	int v1;			/* made by flow events of their own */
};

struct tc {
	struct tc_ev *ev;
	size_t nev, evcap;
	struct ssp_tracks_fl *fl;
	size_t nfl, flcap;
	uint32_t *tids;		/* tracks announced */
	char (*names)[64];
	int32_t *ranks;
	size_t ntids, tidcap, namecap, rankcap;
	size_t nprocs;
	struct tc_slice *sl;
	size_t nsl;
	struct tc_row *row;
	size_t nrow;
	size_t v1_lost;		/* v1 flows left without an end */
	int json;		/* read flows as the JSON's */
	char why[200];
};

static inline void *
tc_grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need > *cap) {
		*cap = need * 2 + 16;
		if ((p = realloc(p, *cap * size)) == NULL)
			abort();
	}
	return p;
}

static inline void
tc_args(void *ctx, struct ssp_buf *b, const struct ssp_rec_rd *rr,
    const struct ssp_rec_type *rt, const struct ssp_rec *r)
{
	(void)ctx, (void)rr, (void)rt;
	ssp_buf_put(b, &r->f[SSP_SF_SPAN], 8);
	ssp_buf_put(b, &r->f[SSP_SF_PARENT], 8);
}

static inline enum ssp_status
tc_emit(void *ctx, const struct ssp_tracks_item *it, struct ssp_err *err)
{
	struct tc *c = ctx;
	struct tc_ev *v;

	(void)err;
	if (it->what == SSP_TRACKS_PROC) {
		c->nprocs++;
		return SSP_OK;
	}
	if (it->what == SSP_TRACKS_TRACK) {
		c->tids = tc_grow(c->tids, &c->tidcap, c->ntids + 1, sizeof(*c->tids));
		c->names = tc_grow(c->names, &c->namecap, c->ntids + 1,
		    sizeof(*c->names));
		c->ranks = tc_grow(c->ranks, &c->rankcap, c->ntids + 1,
		    sizeof(*c->ranks));
		memcpy(c->names[c->ntids], it->track->name, 64);
		c->ranks[c->ntids] = it->track->rank;
		c->tids[c->ntids++] = it->track->tid;
		return SSP_OK;
	}
	c->ev = tc_grow(c->ev, &c->evcap, c->nev + 1, sizeof(*c->ev));
	v = &c->ev[c->nev];
	memset(v, 0, sizeof(*v));
	v->order = c->nev++;
	v->what = it->what;
	v->ts = it->ts;
	v->end = it->end;
	v->tid = it->track->tid;
	v->kind = it->kind;
	v->flow = it->flow;
	if (it->what == SSP_TRACKS_BEGIN && it->nargs == 16) {
		memcpy(&v->span, it->args, 8);
		memcpy(&v->parent, it->args + 8, 8);
	}
	v->fl0 = (uint32_t)c->nfl;
	v->nfl = (uint32_t)it->nfl;
	c->fl = tc_grow(c->fl, &c->flcap, c->nfl + it->nfl + 1, sizeof(*c->fl));
	if (it->nfl > 0)
		memcpy(c->fl + c->nfl, it->fl, it->nfl * sizeof(*it->fl));
	c->nfl += it->nfl;
	return SSP_OK;
}

static inline void
tc_free(struct tc *c)
{
	free(c->ev);
	free(c->fl);
	free(c->tids);
	free(c->names);
	free(c->ranks);
	free(c->sl);
	free(c->row);
	memset(c, 0, sizeof(*c));
}

static inline int
tc_ev_cmp(const void *a, const void *b)
{
	const struct tc_ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Active flows: an open-addressing table, id -> slice index + 1, or
 * TC_CLOSED (kept, so that probe chains stay whole). */
#define TC_CLOSED UINT32_MAX
struct tc_act {
	uint64_t *key;
	uint32_t *val;
	size_t cap;
};

static inline uint32_t *
tc_act_slot(struct tc_act *a, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15u >> 20) & (a->cap - 1);

	while (a->val[i] != 0 && a->key[i] != key)
		i = (i + 1) & (a->cap - 1);
	a->key[i] = key;
	return &a->val[i];
}

static inline const char *
tc_fail(struct tc *c, const char *what, uint64_t x)
{
	snprintf(c->why, sizeof(c->why), "%s (%llu)", what,
	    (unsigned long long)x);
	return c->why;
}

static inline void
tc_flow(struct tc *c, uint64_t id, uint32_t a, uint32_t b, int v1)
{
	struct tc_row *r;

	c->row = realloc(c->row, (c->nrow + 1) * sizeof(*c->row));
	if (c->row == NULL)
		abort();
	r = &c->row[c->nrow++];
	r->id = id;
	r->v1 = v1;
	if (c->sl[a].start > c->sl[b].start) {
		uint32_t x = a;

		a = b;
		b = x;
	}
	r->out = a;
	r->in = b;
}

/* The JSON's binding: the slice begun last on tid that starts at ts. */
static inline int
tc_json_slice(const struct tc *c, size_t ns, uint32_t tid, uint64_t ts,
    uint32_t *s)
{
	size_t i = ns;

	while (i-- > 0)
		if (c->sl[i].tid == tid && c->sl[i].start == ts) {
			*s = (uint32_t)i;
			return 1;
		}
	return 0;
}

/* A v1 flow event on slice s (have: one was found). */
static inline void
tc_v1(struct tc *c, struct tc_act *v1, int out, uint64_t id, int have,
    uint32_t s)
{
	uint32_t *a = tc_act_slot(v1, id);

	if (out)
		c->v1_lost++;	/* less the ones that end */
	if (!have || (!out && (*a == 0 || *a == TC_CLOSED))) {
		if (!out && *a == 0)
			*a = TC_CLOSED;
		return;
	}
	if (out) {
		if (*a != 0)
			tc_fail(c, "v1 flow starts twice", id);
		*a = s + 1;
	} else {
		tc_flow(c, id, *a - 1, s, 1);
		c->v1_lost--;
	}
}

/* Read the items; NULL when they are a valid trace. */
static inline const char *
tc_check(struct tc *c)
{
	struct tc_act act, v1;
	uint32_t *top, *stk, **tstk, *depth;
	size_t i, k, maxtid = 0, nsl = 0, ns;

	for (i = 0; i < c->ntids; i++)
		if (c->tids[i] - SSP_TRACKS_TID0 + 1 > maxtid)
			maxtid = c->tids[i] - SSP_TRACKS_TID0 + 1;
	for (i = 0; i < c->nev; i++) {	/* each event after its track */
		for (k = 0; k < c->ntids && c->tids[k] != c->ev[i].tid; k++)
			;
		if (k == c->ntids)
			return tc_fail(c, "event on a track not announced",
			    c->ev[i].tid);
		nsl += c->ev[i].what == SSP_TRACKS_BEGIN;
	}
	if (c->nev > 0)
		qsort(c->ev, c->nev, sizeof(*c->ev), tc_ev_cmp);
	c->sl = calloc(nsl + 1, sizeof(*c->sl));
	top = calloc(maxtid + 1, sizeof(*top));
	depth = calloc(maxtid + 1, sizeof(*depth));
	tstk = calloc(maxtid + 1, sizeof(*tstk));
	for (act.cap = 64; act.cap < 4 * (c->nfl + c->nev + 1); act.cap *= 2)
		;
	v1.cap = act.cap;
	act.key = calloc(act.cap, sizeof(*act.key));
	act.val = calloc(act.cap, sizeof(*act.val));
	v1.key = calloc(v1.cap, sizeof(*v1.key));
	v1.val = calloc(v1.cap, sizeof(*v1.val));
	stk = calloc(nsl + 1, sizeof(*stk));
	if (c->sl == NULL || top == NULL || depth == NULL || tstk == NULL ||
	    act.key == NULL || act.val == NULL || v1.key == NULL ||
	    v1.val == NULL || stk == NULL)
		abort();
	/* a stack per track, carved from stk by the track's slice count */
	{
		uint32_t *cnt = calloc(maxtid + 1, sizeof(*cnt));
		size_t off = 0;

		if (cnt == NULL)
			abort();
		for (i = 0; i < c->nev; i++)
			if (c->ev[i].what == SSP_TRACKS_BEGIN)
				cnt[c->ev[i].tid - SSP_TRACKS_TID0]++;
		for (k = 0; k <= maxtid; k++) {
			tstk[k] = stk + off;
			off += cnt[k];
		}
		free(cnt);
	}
	ns = 0;
	c->why[0] = '\0';
	for (i = 0; i < c->nev && c->why[0] == '\0'; i++) {
		const struct tc_ev *v = &c->ev[i];
		uint32_t t = v->tid - SSP_TRACKS_TID0, s = 0, *d = &depth[t];

		switch (v->what) {
		case SSP_TRACKS_BEGIN:
			s = (uint32_t)ns++;
			c->sl[s].span = v->span;
			c->sl[s].parent = v->parent;
			c->sl[s].start = v->ts;
			c->sl[s].end = v->end;
			c->sl[s].tid = v->tid;
			if (*d > 0) {	/* nested: only in its parent */
				const struct tc_slice *p = &c->sl[tstk[t][*d - 1]];

				if (p->span != v->parent || v->parent == 0)
					tc_fail(c, "slice nested in another than "
					    "its parent", v->span);
				if (v->end > p->end)
					tc_fail(c, "slice ends after the one it is "
					    "nested in", v->span);
				c->sl[s].nested = 1;
			}
			tstk[t][(*d)++] = s;
			break;
		case SSP_TRACKS_END:
			if (*d == 0) {
				tc_fail(c, "END on an empty track", v->tid);
				continue;
			}
			s = tstk[t][--*d];
			if (c->sl[s].end != v->ts)
				tc_fail(c, "END not at its slice's end",
				    c->sl[s].span);
			c->sl[s].ended = 1;
			break;
		case SSP_TRACKS_FLOW_OUT:
		case SSP_TRACKS_FLOW_IN: {
			/* a slice already ended (zero-length) leaves the
			 * flow without an end: the caveat of v1 flows */
			int have;

			if (c->json)
				have = tc_json_slice(c, ns, v->tid, v->ts, &s);
			else if ((have = *d > 0))
				s = tstk[t][*d - 1];
			tc_v1(c, &v1, v->what == SSP_TRACKS_FLOW_OUT, v->flow,
			    have, s);
			continue;
		}
		}
		if (c->json) {	/* right after the slice's X: on it */
			for (k = v->fl0; k < v->fl0 + v->nfl; k++)
				tc_v1(c, &v1, c->fl[k].part == SSP_TRACKS_FL_OUT,
				    c->fl[k].id, 1, s);
			continue;
		}
		for (k = v->fl0; k < v->fl0 + v->nfl; k++) {
			uint32_t *a = tc_act_slot(&act, c->fl[k].id);

			if (c->fl[k].part != SSP_TRACKS_FL_IN) {
				if (*a != 0 && *a != TC_CLOSED)
					tc_flow(c, c->fl[k].id, *a - 1, s, 0);
				*a = s + 1;
			} else if (*a == 0 || *a == TC_CLOSED) {
				tc_fail(c, "flow ends before it begins", c->fl[k].id);
			} else {
				tc_flow(c, c->fl[k].id, *a - 1, s, 0);
				*a = TC_CLOSED;
			}
		}
	}
	c->nsl = ns;
	for (k = 0; k <= maxtid && c->why[0] == '\0'; k++)
		if (depth[k] != 0)
			tc_fail(c, "slices never end on track", k);
	free(top);
	free(depth);
	free(tstk);
	free(stk);
	free(act.key);
	free(act.val);
	free(v1.key);
	free(v1.val);
	return c->why[0] ? c->why : NULL;
}

/* After tc_check: every flow once, parent flows between a child (span id
 * = flow id) and its parent; *parents, *links: the flows of each kind;
 * *v1_bad: flows made by v1 flow events bound to another slice, or left
 * without an end (tc.v1_lost), which v1 flows allow. */
static inline const char *
tc_check_flows(struct tc *c, size_t *parents, size_t *links, size_t *v1_bad)
{
	size_t i, j;

	*parents = *links = 0;
	*v1_bad = c->v1_lost;
	for (i = 0; i < c->nrow; i++) {
		const struct tc_row *r = &c->row[i];
		const struct tc_slice *a = &c->sl[r->out], *b = &c->sl[r->in];

		for (j = i + 1; j < c->nrow; j++)
			if (c->row[j].id == r->id)
				return tc_fail(c, "flow twice", r->id);
		if (r->id & SSP_TRACKS_LINK_FLOW) {
			(*links)++;
			continue;
		}
		if (!((b->span == r->id && b->parent == a->span) ||
		    (a->span == r->id && a->parent == b->span))) {
			if (!r->v1)
				return tc_fail(c, "flow not between parent and "
				    "child", r->id);
			(*v1_bad)++;
			continue;
		}
		(*parents)++;
	}
	return NULL;
}

#endif
