/*
 * The streaming track layout (sink/tracks) on spans made from the input:
 * whatever their order, times (below zero, near the end of int64, equal),
 * durations, parents (missing, later, themselves) and links, and whatever
 * the window (1 to 64 spans) and flow model, what a time-sorting reader
 * sees must be a valid trace (tests/unit/tracks_check.h): every END after
 * its BEGIN on its track, slices nested only in their parent, every flow
 * between the right two spans, and every child nested, joined or counted.
 *
 * Input: byte 0 the window and flow model, then 8 bytes a record:
 *   kind (% 17: a span kind, or 16 a link), stream, start (16 bits, x 97
 *   ps, less 1000), duration class and bits, parent (0 none, 254 itself,
 *   255 three spans on, else that many spans back), link target (back).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/in.h"
#include "io/out.h"
#include "sink/tracks.h"
#include "stream/span.h"
#include "tests/unit/tracks_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXREC 1024

static struct ssp_rec_rd *rr;

/* A reader of a span stream with two streams and no records: its header
 * names the processes, its schema the record types. */
static void
open_reader(void)
{
	static const struct ssp_span_source src[] = {
		{ "host", 0, SSP_SIM_GEM5 }, { "nic", 0, SSP_SIM_NICBM },
	};
	struct ssp_err e = { 0 };
	struct ssp_rec_wr *w;
	struct ssp_out *out;
	struct ssp_in *in;
	char path[64];
	int fd = memfd_create("fuzz-tracks", 0);

	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (ssp_out_open(&out, path, 0, &e) != SSP_OK ||
	    ssp_span_writer_open(&w, out, "fuzz", src, 2, 0, &e) != SSP_OK ||
	    ssp_rec_wr_close(w, &e) != SSP_OK || ssp_out_close(out, &e) != SSP_OK)
		abort();
	lseek(fd, 0, SEEK_SET);
	if (ssp_in_fdopen(&in, fd, "fuzz", 0, NULL) != SSP_OK ||
	    ssp_span_reader_open(&rr, in, &e) != SSP_OK)
		abort();
	if (ssp_rec_rd_file_schema(rr)->ntypes <= SSP_SPAN_T_LINK)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_tracks_opts o = { 0 };
	struct ssp_err e = { 0 };
	struct ssp_tracks *t;
	struct tc c;
	const struct ssp_tracks_stats *st;
	size_t i, nspans = 0, nchild = 0, nlinks = 0, parents, links, bad;

	if (rr == NULL)
		open_reader();
	if (size < 1)
		return 0;
	memset(&c, 0, sizeof(c));
	o.window = 1 + (data[0] & 63);
	o.flows = data[0] & 64 ? SSP_TRACKS_FLOWS_JSON : SSP_TRACKS_FLOWS_PROTO;
	c.json = o.flows == SSP_TRACKS_FLOWS_JSON;
	o.emit = tc_emit;
	o.args = tc_args;
	o.ctx = &c;
	if (ssp_tracks_open(&t, rr, &o, &e) != SSP_OK)
		abort();
	for (i = 1; i + 8 <= size && i / 8 < MAXREC; i += 8) {
		const uint8_t *p = data + i;
		unsigned kind = p[0] % (SSP_SK_NKINDS + 1);
		struct ssp_rec r;
		int64_t dur;

		memset(&r, 0, sizeof(r));
		if (kind == SSP_SK_NKINDS) {	/* a link of the last span */
			if (nspans == 0)
				continue;
			r.type = SSP_SPAN_T_LINK;
			r.nf = 5;
			r.f[SSP_LF_SPAN] = nspans;
			r.f[SSP_LF_TARGET] = p[7] < nspans ? nspans - p[7] :
			    nspans + 1 + p[7];	/* later: not written before */
			nlinks++;
		} else {
			nspans++;
			r.type = kind;
			r.nf = SSP_SF_NCOMMON;
			r.ts = (int64_t)(p[2] | p[3] << 8) * 97 - 1000;
			switch (p[4] & 3) {
			case 0: dur = 0; break;
			case 1: dur = p[4] >> 2; break;
			case 2: dur = (int64_t)(p[4] >> 2) * 5000; break;
			default: dur = INT64_MAX - (p[4] >> 2); break;
			}
			if ((p[4] >> 2) == 63)
				r.ts = INT64_MAX - 5;	/* end clamped */
			r.f[SSP_SF_SPAN] = nspans;
			r.f[SSP_SF_STREAM] = p[1] % 3;
			r.f[SSP_SF_DUR] = (uint64_t)dur;
			r.f[SSP_SF_PARENT] = p[5] == 0 ? 0 : p[5] == 254 ? nspans :
			    p[5] == 255 ? nspans + 3 : p[5] < nspans ?
			    nspans - p[5] : 0;
			nchild += r.f[SSP_SF_PARENT] != 0;
		}
		r.ftag = r.type + 1;
		if (ssp_tracks_add(t, &r, &e) != SSP_OK)
			abort();
	}
	if (ssp_tracks_finish(t, &e) != SSP_OK)
		abort();
	st = ssp_tracks_stats(t);
	if (tc_check(&c) != NULL || tc_check_flows(&c, &parents, &links, &bad) !=
	    NULL) {
		fprintf(stderr, "fuzz_tracks: %s\n", c.why);
		abort();
	}
	if (c.nsl != nspans || st->spans != nspans ||
	    st->flows + st->nested + st->parents_missing != nchild ||
	    st->link_flows + st->links_unmatched != nlinks ||
	    parents + links + bad != st->flows + st->link_flows ||
	    (!c.json && bad > st->flow_events))
		abort();
	ssp_tracks_free(t);
	tc_free(&c);
	return 0;
}
