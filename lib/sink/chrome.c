#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strfmt.h"
#include "sink/chrome.h"
#include "stream/span.h"

#define FLUSH_AT (1u << 20)

size_t
ssp_chrome_us(char *out, uint64_t ns)
{
	size_t n = ssp_strfmt_u64(out, ns / 1000);
	unsigned f = (unsigned)(ns % 1000);

	out[n++] = '.';
	out[n++] = (char)('0' + f / 100);
	out[n++] = (char)('0' + f / 10 % 10);
	out[n++] = (char)('0' + f % 10);
	return n;
}

static void
key(struct ssp_buf *b, const char *k, int first)
{
	if (!first)
		ssp_buf_putc(b, ',');
	ssp_strfmt_json_str(b, k, strlen(k));
	ssp_buf_putc(b, ':');
}

void
ssp_chrome_args(void *ctx, struct ssp_buf *b, const struct ssp_rec_rd *rr,
    const struct ssp_rec_type *rt, const struct ssp_rec *r)
{
	char tmp[48];
	const char *s;
	size_t n;
	unsigned k;

	(void)ctx;
	ssp_tracks_trace_hex(tmp, r->f[SSP_SF_TRACE_HI], r->f[SSP_SF_TRACE_LO]);
	ssp_buf_lit(b, "{\"trace_id\":");
	ssp_strfmt_json_str(b, tmp, 32);
	key(b, "span_id", 0);
	ssp_strfmt_json_u64(b, r->f[SSP_SF_SPAN]);
	if (r->f[SSP_SF_PARENT] != 0) {
		key(b, "parent_id", 0);
		ssp_strfmt_json_u64(b, r->f[SSP_SF_PARENT]);
	}
	key(b, "start_ps", 0);
	ssp_strfmt_json_i64(b, r->ts);
	key(b, "dur_ps", 0);
	ssp_strfmt_json_i64(b, (int64_t)r->f[SSP_SF_DUR]);
	if (r->f[SSP_SF_FLAGS] != 0) {
		n = ssp_tracks_flags(tmp, sizeof(tmp), r->f[SSP_SF_FLAGS]);
		key(b, "flags", 0);
		ssp_strfmt_json_str(b, tmp, n);
	}
	if (r->f[SSP_SF_CAUSE] != 0 &&
	    (s = ssp_rec_rd_str(rr, r->f[SSP_SF_CAUSE], &n)) != NULL && n > 0) {
		key(b, "cause", 0);
		ssp_strfmt_json_str(b, s, n);
	}
	for (k = SSP_SF_NCOMMON; k < rt->nf && k < r->nf; k++) {
		uint64_t v = r->f[k];

		switch (rt->f[k].enc) {
		case SSP_ENC_U:
			key(b, rt->f[k].name, 0);
			ssp_strfmt_json_u64(b, v);
			break;
		case SSP_ENC_I:
		case SSP_ENC_T:
			key(b, rt->f[k].name, 0);
			ssp_strfmt_json_i64(b, (int64_t)v);
			break;
		case SSP_ENC_B:
			key(b, rt->f[k].name, 0);
			if (v)
				ssp_buf_lit(b, "true");
			else
				ssp_buf_lit(b, "false");
			break;
		case SSP_ENC_S:
			if (v == 0 || (s = ssp_rec_rd_str(rr, v, &n)) == NULL)
				break;
			key(b, rt->f[k].name, 0);
			ssp_strfmt_json_str(b, s, n);
			break;
		case SSP_ENC_X:
			key(b, rt->f[k].name, 0);
			n = (size_t)snprintf(tmp, sizeof(tmp), "0x%" PRIx64, v);
			ssp_strfmt_json_str(b, tmp, n);
			break;
		case SSP_ENC_A:
			key(b, rt->f[k].name, 0);
			n = ssp_tracks_ipv4(tmp, v);
			ssp_strfmt_json_str(b, tmp, n);
			break;
		case SSP_ENC_M:
			key(b, rt->f[k].name, 0);
			n = (size_t)snprintf(tmp, sizeof(tmp),
			    "%02x:%02x:%02x:%02x:%02x:%02x",
			    (unsigned)(v >> 40) & 0xff, (unsigned)(v >> 32) & 0xff,
			    (unsigned)(v >> 24) & 0xff, (unsigned)(v >> 16) & 0xff,
			    (unsigned)(v >> 8) & 0xff, (unsigned)v & 0xff);
			ssp_strfmt_json_str(b, tmp, n);
			break;
		default:
			key(b, rt->f[k].name, 0);
			ssp_strfmt_json_u64(b, v);
		}
	}
	ssp_buf_putc(b, '}');
}

struct ssp_chrome {
	struct ssp_out *out;
	struct ssp_buf b;
	const char *producer;
	uint64_t spans;
	int first;
};

static void
num(struct ssp_buf *b, uint64_t v)
{
	ssp_strfmt_json_u64(b, v);
}

static void
us(struct ssp_buf *b, uint64_t ns)
{
	if (ssp_buf_reserve(b, 32) == 0)
		b->len += ssp_chrome_us((char *)b->p + b->len, ns);
}

/* Every event on a line of its own, after a comma but the first. */
static void
next(struct ssp_chrome *c)
{
	if (c->first)
		ssp_buf_putc(&c->b, '\n');
	else
		ssp_buf_lit(&c->b, ",\n");
	c->first = 0;
}

/* ,"pid":P,"tid":T */
static void
where(struct ssp_buf *b, const struct ssp_tracks_item *it)
{
	ssp_buf_lit(b, ",\"pid\":");
	num(b, it->proc->pid);
	ssp_buf_lit(b, ",\"tid\":");
	num(b, it->track->tid);
}

static void
meta(struct ssp_chrome *c, const char *what, uint32_t pid, uint32_t tid,
    const char *argk, const char *name, uint64_t ival)
{
	struct ssp_buf *b = &c->b;

	next(c);
	ssp_buf_lit(b, "{\"ph\":\"M\",\"name\":");
	ssp_strfmt_json_str(b, what, strlen(what));
	ssp_buf_lit(b, ",\"pid\":");
	num(b, pid);
	ssp_buf_lit(b, ",\"tid\":");
	num(b, tid);
	ssp_buf_lit(b, ",\"args\":{");
	ssp_strfmt_json_str(b, argk, strlen(argk));
	ssp_buf_putc(b, ':');
	if (name != NULL)
		ssp_strfmt_json_str(b, name, strlen(name));
	else
		num(b, ival);
	ssp_buf_lit(b, "}}");
}

/* A flow event at ts on the item's track: "s" leaving the enclosing
 * slice, "f" (binding point "e") entering it. */
static void
flow(struct ssp_chrome *c, const struct ssp_tracks_item *it, uint64_t id,
    uint64_t ts, int in)
{
	struct ssp_buf *b = &c->b;

	next(c);
	if (in)
		ssp_buf_lit(b, "{\"ph\":\"f\",\"bp\":\"e\"");
	else
		ssp_buf_lit(b, "{\"ph\":\"s\"");
	ssp_buf_lit(b, ",\"id\":");
	num(b, id);
	if (id & SSP_TRACKS_LINK_FLOW)
		ssp_buf_lit(b, ",\"name\":\"link\",\"cat\":\"link\"");
	else
		ssp_buf_lit(b, ",\"name\":\"cause\",\"cat\":\"cause\"");
	where(b, it);
	ssp_buf_lit(b, ",\"ts\":");
	us(b, ts);
	ssp_buf_putc(b, '}');
}

struct ssp_chrome *
ssp_chrome_new(const char *producer, struct ssp_out *o)
{
	struct ssp_chrome *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->out = o;
	c->producer = producer;
	c->first = 1;
	/* no displayTimeUnit: some trace_processor versions take "ns" there
	 * as the unit of ts and dur, which the format says are us */
	ssp_buf_lit(&c->b, "{\"traceEvents\":[");
	return c;
}

enum ssp_status
ssp_chrome_emit(void *ctx, const struct ssp_tracks_item *it,
    struct ssp_err *e)
{
	struct ssp_chrome *c = ctx;
	struct ssp_buf *b = &c->b;
	char name[128];
	const char *kn;
	size_t k;

	switch (it->what) {
	case SSP_TRACKS_PROC:
		snprintf(name, sizeof(name), "%s%s%s%s", it->proc->name,
		    it->proc->sim[0] ? " (" : "", it->proc->sim,
		    it->proc->sim[0] ? ")" : "");
		meta(c, "process_name", it->proc->pid, 0, "name", name, 0);
		meta(c, "process_sort_index", it->proc->pid, 0, "sort_index",
		    NULL, it->proc->pid - 1);
		break;
	case SSP_TRACKS_TRACK:
		meta(c, "thread_name", it->proc->pid, it->track->tid, "name",
		    it->track->name, 0);
		meta(c, "thread_sort_index", it->proc->pid, it->track->tid,
		    "sort_index", NULL, (uint32_t)it->track->rank);
		break;
	case SSP_TRACKS_BEGIN:
		c->spans++;
		kn = ssp_span_kind_name(it->kind);
		next(c);
		ssp_buf_lit(b, "{\"ph\":\"X\",\"name\":");
		ssp_strfmt_json_str(b, kn, strlen(kn));
		ssp_buf_lit(b, ",\"cat\":");
		ssp_strfmt_json_str(b, kn, strlen(kn));
		where(b, it);
		ssp_buf_lit(b, ",\"ts\":");
		us(b, it->ts);
		ssp_buf_lit(b, ",\"dur\":");
		us(b, it->end - it->ts);
		ssp_buf_lit(b, ",\"args\":");
		ssp_buf_put(b, it->args, it->nargs);
		ssp_buf_putc(b, '}');
		for (k = 0; k < it->nfl; k++)
			if (it->fl[k].part == SSP_TRACKS_FL_OUT)
				flow(c, it, it->fl[k].id, it->ts, 0);
		for (k = 0; k < it->nfl; k++)
			if (it->fl[k].part != SSP_TRACKS_FL_OUT)
				flow(c, it, it->fl[k].id, it->ts, 1);
		break;
	case SSP_TRACKS_END:
		return SSP_OK;
	case SSP_TRACKS_FLOW_OUT:
	case SSP_TRACKS_FLOW_IN:
		flow(c, it, it->flow, it->ts, it->what == SSP_TRACKS_FLOW_IN);
		break;
	}
	if (b->len < FLUSH_AT && !b->failed)
		return SSP_OK;
	return ssp_out_buf(c->out, b, FLUSH_AT, e);
}

enum ssp_status
ssp_chrome_finish(struct ssp_chrome *c, struct ssp_err *e)
{
	struct ssp_buf *b = &c->b;

	ssp_buf_lit(b, "\n],\n\"otherData\":{\"producer\":");
	ssp_strfmt_json_str(b, c->producer, strlen(c->producer));
	ssp_buf_lit(b, ",\"spans\":");
	num(b, c->spans);
	ssp_buf_lit(b, "}}\n");
	return ssp_out_buf(c->out, b, 0, e);
}

void
ssp_chrome_free(struct ssp_chrome *c)
{
	if (c == NULL)
		return;
	ssp_buf_free(&c->b);
	free(c);
}
