#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/in.h"
#include "io/out.h"
#include "span/evspan.h"
#include "span/mergeq.h"
#include "span/spanwq.h"
#include "stream/event.h"
#include "stream/rec.h"
#include "stream/span.h"

struct ssp_evspan {
	const struct ssp_topo *t;
	const struct ssp_rules *r;
	struct ssp_evspan_opts o;
	size_t n;
	struct ssp_in **in;
	struct ssp_rec_rd **rr;
	struct ssp_mergeq *q;	/* reads and merges rr, maybe in a thread */
	struct ssp_out *out;
	struct ssp_rec_wr *w;
	struct ssp_spanwq *wq;	/* encodes for w in a thread, or NULL */
	struct ssp_spanb *b;
	uint64_t salt;
	unsigned failed;
};

static const char *
sk_text(void *ctx, unsigned st, uint64_t id, size_t *len)
{
	struct ssp_evspan *ev = ctx;

	return ssp_mergeq_str(ev->q, st, id, len);
}

/* The writers give an id, or 0 with e filled (the builder's own record,
 * never NULL): its code is their status. */
static enum ssp_status
sk_intern(void *ctx, const char *s, size_t len, uint64_t *id,
    struct ssp_err *e)
{
	struct ssp_evspan *ev = ctx;

	SSP_ASSERT(e != NULL);
	*id = ev->wq != NULL ? ssp_spanwq_str(ev->wq, s, len, e) :
	    ssp_rec_wr_str(ev->w, s, len, e);
	SSP_ASSERT(*id != 0 || e->code != SSP_OK);
	return *id != 0 ? SSP_OK : (enum ssp_status)e->code;
}

static enum ssp_status
sk_put(void *ctx, const struct ssp_rec *r, struct ssp_err *e)
{
	struct ssp_evspan *ev = ctx;

	if (ev->wq != NULL)
		return ssp_spanwq_put(ev->wq, r, e);
	return ssp_rec_wr_put(ev->w, r, e);
}

static uint64_t
fnv(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (uint8_t)*s;
		h *= 0x100000001b3ULL;
	}
	h ^= 0xff;		/* separator */
	return h * 0x100000001b3ULL;
}

/* The trace_hi salt: a hash of the stream names and kinds and of every
 * input's header metadata, so reruns on the same inputs give the same
 * trace ids and different simulations do not collide. */
static uint64_t
derive_salt(const struct ssp_evspan *ev)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i, k;

	for (i = 0; i < ev->n; i++) {
		h = fnv(h, ev->t->streams[i].name);
		h = fnv(h, ssp_event_sim_kind(ev->t->streams[i].kind));
		for (k = 0; k < ssp_rec_rd_nmeta(ev->rr[i]); k++) {
			h = fnv(h, ssp_rec_rd_meta_at(ev->rr[i], k)->key);
			h = fnv(h, ssp_rec_rd_meta_at(ev->rr[i], k)->value);
		}
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

/* Threads to run in: 1, 2 (read ahead in a second) or 3 (and encode the
 * spans in a third), by default as many as there are CPUs, up to 3. */
static int
nthreads(const struct ssp_evspan_opts *o)
{
	long ncpu;

	if (o->threads != 0)
		return o->threads;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	return ncpu >= 3 ? 3 : ncpu == 2 ? 2 : 1;
}

static int
threaded(const struct ssp_evspan_opts *o)
{
	return nthreads(o) > 1;
}

enum ssp_status
ssp_evspan_open(struct ssp_evspan **ep, const struct ssp_topo *t,
    const struct ssp_rules *r, const struct ssp_evspan_opts *o,
    struct ssp_err *e)
{
	struct ssp_evspan *ev;
	struct ssp_span_source *src = NULL;
	enum ssp_sim *sims = NULL;
	struct ssp_spanb_opts bo;
	struct ssp_spanb_sink sink;
	size_t i, nstdin = 0;
	enum ssp_status rc;

	SSP_ASSERT(ep != NULL && t != NULL && r != NULL && o != NULL);
	*ep = NULL;
	for (i = 0; i < t->nstreams; i++) {
		const char *f = t->streams[i].file;

		if (f == NULL)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s:%u: stream '%s' "
			    "has no file (give it in the topology or as %s=FILE)",
			    t->name, t->streams[i].line, t->streams[i].name,
			    t->streams[i].name);
		if (strcmp(f, "-") == 0 && nstdin++ > 0)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "stream '%s': "
			    "standard input is already given to another stream",
			    t->streams[i].name);
	}
	if ((ev = calloc(1, sizeof(*ev))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	ev->t = t;
	ev->r = r;
	ev->o = *o;
	ev->n = t->nstreams;
	ev->in = calloc(ev->n, sizeof(*ev->in));
	ev->rr = calloc(ev->n, sizeof(*ev->rr));
	src = calloc(ev->n, sizeof(*src));
	sims = calloc(ev->n, sizeof(*sims));
	if (ev->in == NULL || ev->rr == NULL || src == NULL || sims == NULL) {
		rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto fail;
	}
	for (i = 0; i < ev->n; i++) {
		const struct ssp_topo_stream *ts = &t->streams[i];
		enum ssp_sim sim;
		const char *kind, *simname;

		if ((rc = ssp_in_open(&ev->in[i], ts->file, SSP_IN_ZSTD_AUTO, NULL,
		    e)) != SSP_OK ||
		    (rc = ssp_event_reader_open(&ev->rr[i], ev->in[i], e)) != SSP_OK) {
			if (e != NULL) {	/* say which stream */
				char msg[sizeof(e->msg) + SSP_TOPO_NAMEMAX + 16];

				snprintf(msg, sizeof(msg), "stream %s: %s", ts->name,
				    e->msg);
				msg[sizeof(e->msg) - 1] = '\0';	/* truncate */
				memcpy(e->msg, msg, sizeof(e->msg));
			}
			goto fail;
		}
		/* The header must say the simulator (formats/events.md): a
		 * stream of unknown origin would have all its events dropped
		 * as "of another simulator". */
		simname = ssp_rec_rd_meta(ev->rr[i], "simulator");
		sim = ssp_event_reader_sim(ev->rr[i]);
		kind = ssp_rec_rd_meta(ev->rr[i], "kind");
		if (simname == NULL) {
			rc = ssp_err_set(e, SSP_ERR_SCHEMA, 0, "%s: stream '%s': "
			    "the header names no simulator (the 'simulator' key "
			    "is required)", ssp_in_name(ev->in[i]), ts->name);
			goto fail;
		}
		if (sim == SSP_SIM_NONE) {
			rc = ssp_err_set(e, SSP_ERR_SCHEMA, 0, "%s: stream '%s': "
			    "the header names an unknown simulator '%s' (expected "
			    "gem5, nicbm, ns3, switch, qemu, corundum, e1000 or "
			    "pcap)", ssp_in_name(ev->in[i]), ts->name,
			    simname);
			goto fail;
		}
		if (kind != NULL && strcmp(kind, ssp_event_sim_kind(sim)) != 0) {
			rc = ssp_err_set(e, SSP_ERR_SCHEMA, 0, "%s: stream '%s': "
			    "the header names simulator %s but kind '%s' (%s "
			    "streams are %s streams)", ssp_in_name(ev->in[i]),
			    ts->name, ssp_event_sim_name(sim), kind, ssp_event_sim_name(sim),
			    ssp_event_sim_kind(sim));
			goto fail;
		}
		if (strcmp(ssp_event_sim_kind(sim), ssp_event_sim_kind(ts->kind)) != 0) {
			rc = ssp_err_set(e, SSP_ERR_SCHEMA, 0, "%s: holds %s (%s) "
			    "events, but %s:%u lists stream '%s' as a %s stream",
			    ssp_in_name(ev->in[i]), ssp_event_sim_name(sim),
			    ssp_event_sim_kind(sim), t->name, ts->line, ts->name,
			    ssp_event_sim_kind(ts->kind));
			goto fail;
		}
		src[i].name = ts->name;
		src[i].sim = sim;	/* ns3, switch or pcap for a net stream */
		sims[i] = sim;		/* a simulator's own span handlers */
	}
	ev->salt = o->have_seed ? o->seed : derive_salt(ev);
	if ((rc = ssp_out_open_as(&ev->out, o->out, o->out_name, o->zlevel,
	    e)) != SSP_OK)
		goto fail;
	/* Compressing the output costs about as much as building the spans:
	 * a thread of its own does it.  (Plain output is not worth a third
	 * thread on two CPUs: the copy into its buffers costs more than it
	 * saves.) */
	if (threaded(o) && ssp_out_is_zstd(ev->out) &&
	    (rc = ssp_out_async(ev->out, e)) != SSP_OK)
		goto fail;
	if ((rc = ssp_span_writer_open(&ev->w, ev->out, "evspan " SSP_VERSION,
	    src, ev->n, o->events, e)) != SSP_OK)
		goto fail;
	/* Encoding the spans costs about a third of building them: with a
	 * third CPU, a thread of its own does it (and the checksums and
	 * writes), beside the reader thread.  Not on two: the builder
	 * and the reader keep both busy, and the hand-over costs more
	 * than it saves. */
	if (nthreads(o) >= 3 && (rc = ssp_spanwq_new(&ev->wq, ev->w,
	    ssp_span_schema(o->events), e)) != SSP_OK)
		goto fail;
	bo.salt = ev->salt;
	bo.events = o->events;
	bo.sims = sims;
	sink.ctx = ev;
	sink.text = sk_text;
	sink.intern = sk_intern;
	sink.put = sk_put;
	if ((rc = ssp_spanb_new(&ev->b, t, r, &bo, &sink, e)) != SSP_OK)
		goto fail;
	/* The readers leave out by type what the builder would only count:
	 * about half the events of a gem5 stream (sync, processInEvent). */
	for (i = 0; i < ev->n && !o->decode_all; i++) {
		uint8_t act[SSP_EV_NTYPES + 1];

		ssp_spanb_skips(ev->b, (unsigned)i, act);
		if ((rc = ssp_rec_rd_filter(ev->rr[i], act, e)) != SSP_OK)
			goto fail;
	}
	/* Last: from here on the readers belong to the merge queue. */
	if ((rc = ssp_mergeq_new(&ev->q, ev->rr, ev->in, ev->n, threaded(o),
	    e)) != SSP_OK)
		goto fail;
	free(src);
	free(sims);
	*ep = ev;
	return SSP_OK;
fail:
	free(src);
	free(sims);
	ssp_evspan_free(ev);
	return rc;
}

enum ssp_status
ssp_evspan_run(struct ssp_evspan *ev, ssp_evspan_progress_fn progress,
    void *pctx, ssp_evspan_warn_fn warn, void *ctx, struct ssp_err *e)
{
	const struct ssp_rec *r;
	struct ssp_err se;
	uint64_t nev = 0, next = 0;
	size_t n, k;
	unsigned i, t;
	int got;
	enum ssp_status rc;

	SSP_ASSERT(ev != NULL && ev->b != NULL);
	for (;;) {
		got = ssp_mergeq_run(ev->q, &i, &r, &n, &se);
		if (got == SSP_MQ_REC) {
			if ((rc = ssp_spanb_events(ev->b, i, r, n, e)) != SSP_OK)
				return rc;
			nev += n;
			if (progress != NULL && nev >= next) {
				next = nev + 0x10000;
				progress(pctx, ssp_mergeq_rawpos(ev->q), nev,
				    ev->wq != NULL ? ssp_spanwq_records(ev->wq) :
				    ssp_rec_wr_records(ev->w));
			}
			continue;
		}
		if (got == SSP_MQ_RESET) {
			ssp_spanb_strings_reset(ev->b, i);
			continue;
		}
		if (got == SSP_MQ_DONE)
			break;
		if (got < 0) {
			ev->failed++;
			if (warn != NULL)
				warn(ctx, ev->t->streams[i].name, &se);
		}
		if ((rc = ssp_spanb_stream_end(ev->b, i, e)) != SSP_OK)
			return rc;
	}
	/* what the filters left out, counted once the readers are done */
	for (k = 0; k < ev->n; k++)
		for (t = 0; t <= SSP_EV_NTYPES; t++)
			ssp_spanb_skipped(ev->b, (unsigned)k, t,
			    ssp_rec_rd_skipped(ev->rr[k], t < SSP_EV_NTYPES ?
			    t : SSP_TYPE_UNKNOWN));
	return ssp_spanb_finish(ev->b, e);
}

enum ssp_status
ssp_evspan_close(struct ssp_evspan *ev, struct ssp_err *e)
{
	enum ssp_status rc = SSP_OK;

	SSP_ASSERT(ev != NULL);
	if (ev->wq != NULL) {	/* the thread's last spans, then w is ours */
		rc = ssp_spanwq_finish(ev->wq, e);
		ssp_spanwq_free(ev->wq);
		ev->wq = NULL;
	}
	if (ev->w != NULL && rc != SSP_OK) {
		ssp_rec_wr_abort(ev->w);
		ev->w = NULL;
	}
	if (ev->w != NULL) {
		rc = ssp_rec_wr_close(ev->w, e);
		ev->w = NULL;
	}
	if (ev->out != NULL) {
		if (rc == SSP_OK)
			rc = ssp_out_close(ev->out, e);
		else
			ssp_out_abort(ev->out);
		ev->out = NULL;
	}
	return rc;
}

unsigned ssp_evspan_failed(const struct ssp_evspan *ev) { return ev->failed; }
uint64_t ssp_evspan_salt(const struct ssp_evspan *ev) { return ev->salt; }

const struct ssp_spanb_stats *
ssp_evspan_stats(const struct ssp_evspan *ev)
{
	return ssp_spanb_stats(ev->b);
}

uint64_t
ssp_evspan_backwards(const struct ssp_evspan *ev, size_t i)
{
	SSP_ASSERT(ev != NULL && i < ev->n);
	return ssp_mergeq_backwards(ev->q, i);
}

const struct ssp_rec_rd *
ssp_evspan_reader(const struct ssp_evspan *ev, size_t i)
{
	return i < ev->n ? ev->rr[i] : NULL;
}

uint64_t
ssp_evspan_peak(const struct ssp_evspan *ev)
{
	return ssp_spanb_peak(ev->b);
}

void
ssp_evspan_free(struct ssp_evspan *ev)
{
	size_t i;

	if (ev == NULL)
		return;
	ssp_spanb_free(ev->b);
	ssp_spanwq_free(ev->wq);	/* stops the thread before w goes */
	if (ev->w != NULL)
		ssp_rec_wr_abort(ev->w);
	if (ev->out != NULL)
		ssp_out_abort(ev->out);
	ssp_mergeq_free(ev->q);	/* stops the thread before the readers go */
	for (i = 0; i < ev->n; i++) {
		if (ev->rr != NULL)
			ssp_rec_rd_close(ev->rr[i]);
		if (ev->in != NULL)
			ssp_in_close(ev->in[i]);
	}
	free(ev->in);
	free(ev->rr);
	free(ev);
}
