#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "io/lines.h"
#include "source/conv.h"
#include "source/cpuhold.h"

struct ssp_conv {
	struct ssp_conv_cfg cfg;
	struct ssp_parser *parser;
	struct ssp_rec_wr *w;
	struct ssp_pline pl;
	struct ssp_conv_stats st;
	uint32_t strmask[SSP_EV_NTYPES];	/* string fields per type */
	unsigned nf[SSP_EV_NTYPES];
	uint64_t *wid;				/* atom -> writer string id */
	size_t nwid;
	uint8_t *hold;				/* events before the sync line */
	size_t hlen, hmax;
	uint64_t flushed;			/* records at the last flush */
	struct ssp_conv_example *ex;		/* [reason][examples] */
	uint8_t nex[SSP_SKIP_N];
	struct ssp_atoms *satoms;		/* the sniffing parsers' names */
	struct ssp_parser *sniff[SSP_SIM_N];
	int64_t last_ts;
	int have_ts;
	int skipped_ts;				/* event(): the ts was out of range */
	struct ssp_cpuhold *ch;			/* gem5: accesses waiting for their CPU */
	int64_t ch_tick;			/* the latest tick while holding */
	char offset_buf[32], from_buf[48];
};

static int
open_writer(struct ssp_conv *c, struct ssp_err *e)
{
	struct ssp_meta *m;
	size_t n = c->cfg.nmeta;
	int r;

	if ((m = calloc(n + 2, sizeof(*m))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if (n > 0)
		memcpy(m, c->cfg.meta, n * sizeof(*m));
	snprintf(c->offset_buf, sizeof(c->offset_buf), "%" PRId64, c->st.offset);
	if (c->st.offset_line != 0)
		snprintf(c->from_buf, sizeof(c->from_buf), "sync line %" PRIu64,
		    c->st.offset_line);
	else
		snprintf(c->from_buf, sizeof(c->from_buf), "%s",
		    c->cfg.offset_mode == SSP_OFFSET_FIXED ? "option" : "none");
	m[n++] = (struct ssp_meta){ "time-offset", c->offset_buf };
	m[n++] = (struct ssp_meta){ "time-offset-from", c->from_buf };
	r = ssp_event_writer_open(&c->w, c->cfg.out, c->cfg.stream, c->cfg.sim,
	    c->cfg.producer, m, n, e);
	free(m);
	return r;
}

int
ssp_conv_open(struct ssp_conv **cp, const struct ssp_conv_cfg *cfg,
    struct ssp_err *e)
{
	struct ssp_parser_cfg pc = { cfg->atoms, cfg->syms, cfg->insn };
	struct ssp_conv *c;
	unsigned t, k;
	int rv;

	*cp = NULL;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	c->cfg = *cfg;
	if (c->cfg.examples == 0)
		c->cfg.examples = SSP_CONV_EXAMPLES;
	if (c->cfg.examples > 255)
		c->cfg.examples = 255;
	c->hmax = cfg->hold_max ? cfg->hold_max : SSP_CONV_HOLD_MAX;
	for (t = 0; t < SSP_EV_NTYPES; t++) {
		const struct ssp_rec_type *rt = &ssp_event_schema.types[t];

		c->nf[t] = rt->nf;
		for (k = 0; k < rt->nf; k++)
			if (rt->f[k].enc == SSP_ENC_S)
				c->strmask[t] |= 1u << k;
	}
	c->ex = calloc((size_t)SSP_SKIP_N * c->cfg.examples, sizeof(*c->ex));
	if (c->ex == NULL) {
		free(c);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	/* pcap has records, not lines: its reader calls ssp_conv_record */
	if (cfg->sim != SSP_SIM_PCAP &&
	    (rv = ssp_parser_new(&c->parser, cfg->sim, &pc, e)) != SSP_OK) {
		ssp_conv_free(c);
		return rv;
	}
	if (cfg->sim == SSP_SIM_GEM5 && !cfg->no_hold &&
	    (rv = ssp_cpuhold_new(&c->ch, e)) != SSP_OK) {
		ssp_conv_free(c);
		return rv;
	}
	if ((rv = ssp_atoms_new(&c->satoms, e)) != SSP_OK) {
		ssp_conv_free(c);
		return rv;
	}
	for (t = SSP_SIM_GEM5; t < SSP_SIM_N; t++) {
		struct ssp_parser_cfg sc = { c->satoms, NULL, 0 };

		if (t != SSP_SIM_PCAP && (rv = ssp_parser_new(&c->sniff[t],
		    (enum ssp_sim)t, &sc, e)) != SSP_OK) {
			ssp_conv_free(c);
			return rv;
		}
	}
	if (cfg->offset_mode == SSP_OFFSET_FIXED) {
		c->st.offset = cfg->offset;
		c->st.offset_known = 1;
	} else if (cfg->offset_mode == SSP_OFFSET_NONE) {
		c->st.offset_known = 1;
	}
	if (c->st.offset_known && (rv = open_writer(c, e)) != SSP_OK) {
		ssp_conv_free(c);
		return rv;
	}
	*cp = c;
	return SSP_OK;
}

/* Writer string id of an atom in *id (interned in the writer on first
 * use); atom 0 is id 0. */
static int
wid(struct ssp_conv *c, uint64_t atom, uint64_t *id, struct ssp_err *e)
{
	const char *s;
	size_t n;
	int rv;

	if (atom == 0) {
		*id = 0;
		return SSP_OK;
	}
	if (atom >= c->nwid) {
		size_t cap = c->nwid ? c->nwid : 256;
		uint64_t *nw;

		while (cap <= atom)
			cap *= 2;
		if ((nw = realloc(c->wid, cap * sizeof(*nw))) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		memset(nw + c->nwid, 0, (cap - c->nwid) * sizeof(*nw));
		c->wid = nw;
		c->nwid = cap;
	}
	if (c->wid[atom] == 0) {
		if ((s = ssp_atoms_str(c->cfg.atoms, (uint32_t)atom, &n)) == NULL)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "internal: atom %"
			    PRIu64 " undefined", atom);
		if (n > SSP_REC_STR_MAX) {	/* a giant name: cut, counted */
			if (c->st.cut++ == 0)
				c->st.cut_line = c->st.lines;
			n = SSP_REC_STR_MAX;
		}
		if ((rv = ssp_rec_wr_str_id(c->w, s, n, &c->wid[atom], e)) !=
		    SSP_OK)
			return rv;
	}
	*id = c->wid[atom];
	return SSP_OK;
}

/* Write one event whose ts already has the offset applied. */
static int
put(struct ssp_conv *c, struct ssp_rec *r, struct ssp_err *e)
{
	uint32_t m = c->strmask[r->type];
	int rv;

	while (m != 0) {
		unsigned k = (unsigned)__builtin_ctz(m);

		m &= m - 1;
		if ((rv = wid(c, r->f[k], &r->f[k], e)) != SSP_OK)
			return rv;
	}
	return ssp_rec_wr_put(c->w, r, e);
}

static size_t
held_size(const struct ssp_conv *c, unsigned type)
{
	return 1 + sizeof(int64_t) + c->nf[type] * sizeof(uint64_t);
}

/* Offset now known: open the stream and write what was held. */
static int
release(struct ssp_conv *c, struct ssp_err *e)
{
	struct ssp_rec r;
	size_t at = 0;
	int rv;

	if ((rv = open_writer(c, e)) != SSP_OK)
		return rv;
	while (at < c->hlen) {
		r.type = c->hold[at];
		memcpy(&r.ts, c->hold + at + 1, sizeof(r.ts));
		memcpy(r.f, c->hold + at + 1 + sizeof(r.ts), c->nf[r.type] * sizeof(uint64_t));
		at += held_size(c, r.type);
		if (__builtin_sub_overflow(r.ts, c->st.offset, &r.ts))
			r.ts = c->st.offset > 0 ? INT64_MIN : INT64_MAX;
		if ((rv = put(c, &r, e)) != SSP_OK)
			return rv;
	}
	free(c->hold);
	c->hold = NULL;
	c->hlen = 0;
	c->st.held = 0;
	return SSP_OK;
}

static void
example(struct ssp_conv *c, unsigned reason, const char *s, size_t n,
    uint64_t lineno, const char *why)
{
	struct ssp_conv_example *x;
	size_t i, k;

	if (c->nex[reason] >= c->cfg.examples)
		return;
	x = &c->ex[reason * c->cfg.examples + c->nex[reason]++];
	x->line = lineno;
	x->why = why;
	k = n < SSP_CONV_EXAMPLE_LEN ? n : SSP_CONV_EXAMPLE_LEN;
	for (i = 0; i < k; i++)
		x->text[i] = (s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\t' ? s[i] : '?';
	if (k < n)
		memcpy(x->text + k, "...", 4);
	else
		x->text[k] = '\0';
}

static int
skip(struct ssp_conv *c, unsigned reason, const char *s, size_t n,
    uint64_t lineno, const char *why, struct ssp_err *e)
{
	c->st.skipped[reason]++;
	example(c, reason, s, n, lineno, why);
	if (c->cfg.strict && (reason == SSP_SKIP_MALFORMED || reason == SSP_SKIP_NAMES)) {
		ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s:%" PRIu64 ": %s%s", c->cfg.source,
		    lineno, reason == SSP_SKIP_NAMES ? "too many distinct names" :
		    "malformed line: ", reason == SSP_SKIP_NAMES ? "" : why);
		if (e != NULL)
			e->line = lineno;
		return SSP_ERR_FORMAT;
	}
	return SSP_OK;
}

/* Which simulators' parsers take the line for one of theirs. */
static void
sniff(struct ssp_conv *c, const char *s, size_t n)
{
	struct ssp_pline o;
	unsigned t;

	c->st.sniffed++;
	for (t = SSP_SIM_GEM5; t < SSP_SIM_N; t++) {
		if (c->sniff[t] == NULL)
			continue;
		memset(&o, 0, sizeof(o));
		ssp_parser_line(c->sniff[t], s, n, &o);
		if (o.skip != SSP_SKIP_TEXT && o.skip != SSP_SKIP_EMPTY)
			c->st.looked[t]++;
		if (o.skip == SSP_SKIP_NONE)
			c->st.sniff_events[t]++;
	}
	if (c->st.sniffed == SSP_CONV_SNIFF_LINES) {
		for (t = SSP_SIM_GEM5; t < SSP_SIM_N; t++) {
			ssp_parser_free(c->sniff[t]);
			c->sniff[t] = NULL;
		}
		ssp_atoms_free(c->satoms);
		c->satoms = NULL;
	}
}

static int event(struct ssp_conv *c, struct ssp_rec *ev, const char *s, size_t n,
    uint64_t lineno, struct ssp_err *e);

/* Write the held events that no longer wait; stop asking the parser for
 * accesses when none is held. */
static int
hold_flush(struct ssp_conv *c, struct ssp_err *e)
{
	static const char held_text[] = "(an event held for its CPU)";
	struct ssp_rec *r;
	uint64_t lineno;
	int pair, r2, skipped = 0;

	while ((r = ssp_cpuhold_head(c->ch, &lineno, &pair)) != NULL) {
		/* the second event of a line whose first was skipped for
		 * its time goes with it, as for a line written at once */
		if (pair && skipped) {
			ssp_cpuhold_pop(c->ch);
			continue;
		}
		c->skipped_ts = 0;
		r2 = event(c, r, held_text, sizeof(held_text) - 1, lineno, e);
		skipped = c->skipped_ts;
		ssp_cpuhold_pop(c->ch);
		if (r2 != SSP_OK)
			return r2;
	}
	if (ssp_cpuhold_len(c->ch) == 0)
		ssp_parser_want_access(c->parser, 0);
	return SSP_OK;
}

/* The line's events go behind held ones, or wait for their CPU. */
static int
hold_line(struct ssp_conv *c, struct ssp_pline *pl, uint64_t lineno,
    struct ssp_err *e)
{
	int r;

	if (ssp_cpuhold_len(c->ch) + 2 > SSP_CPUHOLD_MAX) {
		ssp_cpuhold_release(c->ch, 0);
		if ((r = hold_flush(c, e)) != SSP_OK)
			return r;
	}
	if (pl->pre)
		ssp_cpuhold_put(c->ch, &pl->pre_ev, lineno, 0, 0);
	ssp_cpuhold_put(c->ch, &pl->ev, lineno, pl->guess, pl->pre);
	ssp_parser_want_access(c->parser, 1);
	return hold_flush(c, e);
}

/* What the line tells the held accesses: an Exec line's access, the time. */
static void
hold_see(struct ssp_conv *c, const struct ssp_pline *pl, uint64_t lineno)
{
	if (pl->acc) {
		ssp_cpuhold_access(c->ch, &pl->a, lineno);
		if (pl->a.tick > c->ch_tick)
			c->ch_tick = pl->a.tick;
	}
	if (pl->skip == SSP_SKIP_NONE && pl->ev.ts > c->ch_tick)
		c->ch_tick = pl->ev.ts;
	ssp_cpuhold_tick(c->ch, c->ch_tick);
}

int
ssp_conv_line(struct ssp_conv *c, const char *s, size_t n, uint64_t lineno,
    int cut, int partial, struct ssp_err *e)
{
	struct ssp_pline *pl = &c->pl;

	if (c->st.sniffed < SSP_CONV_SNIFF_LINES && !cut && !partial)
		sniff(c, s, n);
	if (cut || partial) {
		c->st.lines++;
		return skip(c, cut ? SSP_SKIP_LONG : SSP_SKIP_PARTIAL, s, n,
		    lineno, NULL, e);
	}
	ssp_parser_line(c->parser, s, n, pl);
	return ssp_conv_record(c, pl, s, n, lineno, e);
}

int
ssp_conv_record(struct ssp_conv *c, struct ssp_pline *pl, const char *s,
    size_t n, uint64_t lineno, struct ssp_err *e)
{
	int r;

	c->st.lines++;
	if (c->ch != NULL && ssp_cpuhold_len(c->ch) > 0) {
		hold_see(c, pl, lineno);
		if ((r = hold_flush(c, e)) != SSP_OK)
			return r;
	}
	if (pl->skip != SSP_SKIP_NONE)
		return skip(c, (unsigned)pl->skip, s, n, lineno, pl->why, e);
	c->st.recovered += (uint64_t)pl->recovered;
	if (pl->untimed && c->st.untimed++ == 0)
		c->st.untimed_line = lineno;
	if (c->ch != NULL && ssp_cpuhold_wants(c->ch, pl->guess))
		return hold_line(c, pl, lineno, e);
	c->skipped_ts = 0;
	/* the two events share the ts: a line skipped for it is skipped once */
	if (pl->pre && ((r = event(c, &pl->pre_ev, s, n, lineno, e)) !=
	    SSP_OK || c->skipped_ts))
		return r;
	return event(c, &pl->ev, s, n, lineno, e);
}

/* One event of a line. */
static int
event(struct ssp_conv *c, struct ssp_rec *ev, const char *s, size_t n,
    uint64_t lineno, struct ssp_err *e)
{
	int rv;

	if (c->have_ts && ev->ts < c->last_ts && c->st.backwards++ == 0)
		c->st.backwards_line = lineno;
	c->last_ts = ev->ts;
	c->have_ts = 1;
	if (!c->st.offset_known) {
		size_t need = held_size(c, ev->type);

		if (ev->type == SSP_EV_SYNC) {
			c->st.offset = ev->ts - (int64_t)ev->f[SSP_F_SYNC_TS];
			c->st.offset_known = 1;
			c->st.offset_line = lineno;
			if ((rv = release(c, e)) != SSP_OK)
				return rv;
		} else {
			if (c->hlen + need > c->hmax &&
			    c->cfg.offset_mode == SSP_OFFSET_SYNC_AUTO) {
				/* no sync line early on: times as printed */
				c->st.offset_known = 1;
				c->st.sync_missing = 1;
				if ((rv = release(c, e)) != SSP_OK)
					return rv;
				return event(c, ev, s, n, lineno, e);
			}
			if (c->hlen + need > c->hmax) {
				ssp_err_set(e, SSP_ERR_LIMIT, 0, "%s:%" PRIu64 ": "
				    "--time-offset sync: %" PRIu64 " events (%zu bytes) "
				    "held and no 'sending sync message for ts=' line yet; "
				    "give the offset with --time-offset PS", c->cfg.source,
				    lineno, c->st.held, c->hlen);
				if (e != NULL)
					e->line = lineno;
				return SSP_ERR_LIMIT;
			}
			if (c->hold == NULL && (c->hold = malloc(c->hmax)) == NULL)
				return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
			c->hold[c->hlen] = (uint8_t)ev->type;
			memcpy(c->hold + c->hlen + 1, &ev->ts, sizeof(ev->ts));
			memcpy(c->hold + c->hlen + 1 + sizeof(ev->ts), ev->f,
			    c->nf[ev->type] * sizeof(uint64_t));
			c->hlen += need;
			c->st.held++;
			c->st.events[ev->type]++;
			c->st.nevents++;
			return SSP_OK;
		}
	}
	if (__builtin_sub_overflow(ev->ts, c->st.offset, &ev->ts)) {
		c->skipped_ts = 1;
		return skip(c, SSP_SKIP_MALFORMED, s, n, lineno,
		    "timestamp out of range after the time offset", e);
	}
	c->st.events[ev->type]++;
	c->st.nevents++;
	if ((rv = put(c, ev, e)) != SSP_OK)
		return rv;
	return SSP_OK;
}

int
ssp_conv_pending(const struct ssp_conv *c)
{
	return c->w != NULL && ssp_rec_wr_records(c->w) != c->flushed;
}

int
ssp_conv_flush(struct ssp_conv *c, struct ssp_err *e)
{
	if (c->w == NULL)
		return SSP_OK;
	c->flushed = ssp_rec_wr_records(c->w);
	return ssp_rec_wr_flush(c->w, e);
}

int
ssp_conv_finish(struct ssp_conv *c, struct ssp_err *e)
{
	int r;

	if (c->ch != NULL) {	/* the log ended: what waits keeps its guess */
		ssp_cpuhold_release(c->ch, 1);
		if ((r = hold_flush(c, e)) != SSP_OK)
			return r;
	}
	if (!c->st.offset_known && c->cfg.offset_mode == SSP_OFFSET_SYNC_AUTO) {
		c->st.offset_known = 1;
		c->st.sync_missing = 1;
		if ((r = release(c, e)) != SSP_OK)
			return r;
	}
	if (!c->st.offset_known)
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: --time-offset sync: no "
		    "'sending sync message for ts=' line in %" PRIu64 " lines (%" PRIu64
		    " events held, not written); give the offset with "
		    "--time-offset PS", c->cfg.source, c->st.lines, c->st.held);
	r = ssp_rec_wr_close(c->w, e);
	c->w = NULL;
	return r;
}

void
ssp_conv_abort(struct ssp_conv *c)
{
	if (c->w != NULL) {
		if (ssp_rec_wr_flush(c->w, NULL) != SSP_OK) {
			/* the output keeps it: ssp_out_close reports it */
		}
		ssp_rec_wr_abort(c->w);
		c->w = NULL;
	}
}

void
ssp_conv_free(struct ssp_conv *c)
{
	unsigned t;

	if (c == NULL)
		return;
	ssp_rec_wr_abort(c->w);
	ssp_parser_free(c->parser);
	ssp_cpuhold_free(c->ch);
	for (t = SSP_SIM_GEM5; t < SSP_SIM_N; t++)
		ssp_parser_free(c->sniff[t]);
	ssp_atoms_free(c->satoms);
	free(c->wid);
	free(c->hold);
	free(c->ex);
	free(c);
}

const struct ssp_conv_stats *
ssp_conv_stats(const struct ssp_conv *c)
{
	return &c->st;
}

const struct ssp_cpuhold_stats *
ssp_conv_hold_stats(const struct ssp_conv *c)
{
	return c->ch != NULL ? ssp_cpuhold_stats(c->ch) : NULL;
}

size_t
ssp_conv_examples(const struct ssp_conv *c, unsigned reason,
    const struct ssp_conv_example **ex)
{
	if (reason >= SSP_SKIP_N) {
		*ex = NULL;
		return 0;
	}
	*ex = &c->ex[reason * c->cfg.examples];
	return c->nex[reason];
}

#define FOLLOW_FLUSH_NS 1000000000ull	/* a trickle waits at most a second */

int
ssp_conv_run(struct ssp_conv *c, struct ssp_in *in, int follow,
    ssp_conv_progress_fn progress, void *ctx, struct ssp_err *e)
{
	struct ssp_lines *l;
	uint64_t calls = 0, lastraw = 0, lastflush = ssp_clock_ns();
	size_t len;
	char *line;
	int r;

	if ((r = ssp_lines_open(&l, in, e)) != SSP_OK)
		return r;
	while ((r = ssp_lines_next(l, &line, &len, e)) != SSP_LINE_EOF) {
		if (r == SSP_LINE_IDLE) {	/* quiet pipe: let readers see it all */
			if (ssp_conv_pending(c) && ssp_conv_flush(c, e) != SSP_OK)
				break;
			lastflush = ssp_clock_ns();
			continue;
		}
		if (r != SSP_LINE || ssp_conv_line(c, line, len,
		    ssp_lines_lineno(l), ssp_lines_cut(l),
		    ssp_lines_unterminated(l), e) != SSP_OK)
			break;
		if (progress != NULL && (++calls & 0xffff) == 0)
			progress(ctx, ssp_in_rawpos(in), c->st.lines,
			    c->st.nevents);
		/* A steady trickle never goes idle: flush on time, looking at
		 * the clock once per read(2). */
		if (follow && ssp_in_rawpos(in) != lastraw) {
			uint64_t now = ssp_clock_ns();

			lastraw = ssp_in_rawpos(in);
			if (now - lastflush >= FOLLOW_FLUSH_NS &&
			    ssp_conv_pending(c)) {
				if (ssp_conv_flush(c, e) != SSP_OK)
					break;
				lastflush = now;
			}
		}
	}
	ssp_lines_close(l);
	if (r < 0 && r != SSP_LINE_IDLE)	/* -status of the read */
		return -r;
	if (r != SSP_LINE_EOF)
		return e != NULL && e->code != SSP_OK ? e->code : SSP_ERR_IO;
	return ssp_conv_finish(c, e);
}
