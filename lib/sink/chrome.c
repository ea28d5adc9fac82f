#include <inttypes.h>
#include <stdio.h>
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

/* ,"pid":P,"tid":T */
static void
where(struct ssp_buf *b, const struct ssp_tracks_view *v, uint32_t track)
{
	ssp_buf_lit(b, ",\"pid\":");
	num(b, v->proc[v->track[track].proc].pid);
	ssp_buf_lit(b, ",\"tid\":");
	num(b, v->track[track].tid);
}

static void
meta(struct ssp_buf *b, const char *what, uint32_t pid, uint32_t tid,
    const char *argk, const char *name, uint64_t ival)
{
	ssp_buf_lit(b, ",\n{\"ph\":\"M\",\"name\":");
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

static void
flow(struct ssp_buf *b, const struct ssp_tracks_view *v,
    const struct ssp_tracks_flow *f, const struct ssp_tracks_span *s, int end)
{
	ssp_buf_lit(b, ",\n{\"ph\":");
	if (end)
		ssp_buf_lit(b, "\"f\",\"bp\":\"e\"");
	else
		ssp_buf_lit(b, "\"s\"");
	ssp_buf_lit(b, ",\"id\":");
	num(b, f->id);
	if (f->link)
		ssp_buf_lit(b, ",\"name\":\"link\",\"cat\":\"link\"");
	else
		ssp_buf_lit(b, ",\"name\":\"cause\",\"cat\":\"cause\"");
	where(b, v, s->track);
	ssp_buf_lit(b, ",\"ts\":");
	us(b, ssp_tracks_ns(s->start));
	ssp_buf_putc(b, '}');
}

int
ssp_chrome_write(const struct ssp_tracks_view *v, const char *producer,
    struct ssp_out *o, struct ssp_err *e)
{
	struct ssp_buf b = SSP_BUF_INIT;
	char name[128];
	size_t i, k, start;
	int rc = SSP_OK;

	/* no displayTimeUnit: some trace_processor versions take "ns" there
	 * as the unit of ts and dur, which the format says are us */
	ssp_buf_lit(&b, "{\"otherData\":{\"producer\":");
	ssp_strfmt_json_str(&b, producer, strlen(producer));
	ssp_buf_lit(&b, ",\"spans\":");
	num(&b, v->nspans);
	ssp_buf_lit(&b, "},\n\"traceEvents\":[");
	start = b.len;
	for (i = 0; i < v->nprocs; i++) {
		const struct ssp_tracks_proc *p = &v->proc[i];

		snprintf(name, sizeof(name), "%s%s%s%s", p->name,
		    p->sim[0] ? " (" : "", p->sim, p->sim[0] ? ")" : "");
		meta(&b, "process_name", p->pid, 0, "name", name, 0);
		meta(&b, "process_sort_index", p->pid, 0, "sort_index", NULL, i);
	}
	for (i = 0; i < v->ntracks; i++) {
		const struct ssp_tracks_track *t = &v->track[i];

		meta(&b, "thread_name", v->proc[t->proc].pid, t->tid, "name",
		    t->name, 0);
		meta(&b, "thread_sort_index", v->proc[t->proc].pid, t->tid,
		    "sort_index", NULL, t->tid - SSP_TRACKS_TID0);
	}
	/* every event starts with ",\n": not the first */
	if (!b.failed && b.len > start && b.p[start] == ',') {
		memmove(b.p + start, b.p + start + 1, b.len - start - 1);
		b.len--;
	}
	for (i = 0; i < 2 * v->nspans && rc == SSP_OK; i++) {
		const struct ssp_tracks_ev *ev = &v->ev[i];
		const struct ssp_tracks_span *s = &v->span[ev->span];
		const char *kn;
		char sname[256];
		size_t nn;

		if (ev->end)
			continue;
		kn = ssp_span_kind_name(s->kind);
		nn = ssp_tracks_span_name(v, s, sname, sizeof(sname));
		ssp_buf_lit(&b, ",\n{\"ph\":\"X\",\"name\":");
		ssp_strfmt_json_str(&b, sname, nn);
		ssp_buf_lit(&b, ",\"cat\":");
		ssp_strfmt_json_str(&b, kn, strlen(kn));
		where(&b, v, s->track);
		ssp_buf_lit(&b, ",\"ts\":");
		us(&b, ev->ts);
		ssp_buf_lit(&b, ",\"dur\":");
		us(&b, ssp_tracks_ns(s->end) - ev->ts);
		ssp_buf_lit(&b, ",\"args\":");
		ssp_buf_put(&b, v->arena + s->args, s->nargs);
		ssp_buf_putc(&b, '}');
		for (k = 0; k < s->nout; k++)
			flow(&b, v, &v->flow[s->out0 + k], s, 0);
		for (k = 0; k < s->nin; k++)
			flow(&b, v, &v->flow[v->in[s->in0 + k]], s, 1);
		rc = ssp_out_buf(o, &b, FLUSH_AT, e);
	}
	if (rc == SSP_OK) {
		ssp_buf_lit(&b, "\n]}\n");
		rc = ssp_out_buf(o, &b, 0, e);
	}
	ssp_buf_free(&b);
	return rc;
}
