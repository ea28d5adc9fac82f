/* Merge queue: exactly the records, strings, resets, ends and errors, in
 * exactly the order, of the reference merge (tests/unit/refmerge.h) over ssp_rec_rd_next, threaded or not,
 * across batch, buffer and segment boundaries, also when readers filter;
 * freeing stops a thread blocked on a pipe. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/in.h"
#include "io/out.h"
#include "span/mergeq.h"
#include "stream/event.h"
#include "tests/unit/refmerge.h"
#include "stream/rec.h"

#define MAXS 4

static char *
tmpname(int k)
{
	static char path[8][64];

	snprintf(path[k], sizeof(path[k]), "/tmp/ssp-test-mq-%d-%d",
	    (int)getpid(), k);
	return path[k];
}

/* A func event stream of n records, one every step ps from seed; the cpu
 * and symbol strings change every few records (new string ids in the
 * middle of runs and buffers).  long_names: symbols of ~3 KB, so the
 * queue buffers fill with strings. */
static void
write_stream(const char *path, const char *name, unsigned n, unsigned seed,
    unsigned step, int long_names)
{
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	char s[4096];
	unsigned i;

	assert_int_equal(ssp_out_open(&o, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, name, SSP_SIM_GEM5,
	    "test", NULL, 0, &e), SSP_OK);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		r.type = SSP_EV_FUNC;
		r.ts = (int64_t)step * i + seed;
		snprintf(s, sizeof(s), "cpu%u", (i / 50) % 3);
		r.f[SSP_F_FUNC_CPU] = ssp_rec_wr_str(w, s, strlen(s), &e);
		snprintf(s, sizeof(s), "fn_%u_%u", seed, i / 7);
		if (long_names) {
			memset(s + strlen(s), 'x', 3000);
			s[3010] = '\0';
		}
		r.f[SSP_F_FUNC_SYM] = ssp_rec_wr_str(w, s, strlen(s), &e);
		r.f[SSP_F_FUNC_TABLE] = 0;
		assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
}

static void
concat(const char *dst, const char *a, const char *b)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cat '%s' '%s' > '%s'", a, b, dst);
	assert_int_equal(system(cmd), 0);
}

/* A growing text log of what a reader saw. */
struct log {
	char *s;
	size_t len, cap;
};

static void logf_(struct log *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
logf_(struct log *l, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = strlen(line);
	if (l->len + n + 2 > l->cap) {
		l->cap = (l->cap + n + 2) * 2;
		l->s = realloc(l->s, l->cap);
		assert_non_null(l->s);
	}
	memcpy(l->s + l->len, line, n);
	l->len += n;
	l->s[l->len++] = '\n';
	l->s[l->len] = '\0';
}

static void
log_rec(struct log *l, unsigned i, const struct ssp_rec *r, const char *cpu,
    const char *sym)
{
	logf_(l, "%u %lld %u %s %.20s", i, (long long)r->ts, r->type,
	    cpu ? cpu : "-", sym ? sym : "-");
}

struct direct {
	struct ssp_rec_rd *rr;
	uint64_t gen;
	int reset;		/* the record just read began a new segment */
};

static int
direct_next(void *arg, struct ssp_rec *r, struct ssp_err *e)
{
	struct direct *d = arg;
	int got = ssp_rec_rd_next(d->rr, r, e);

	if (got == 1 && ssp_rec_rd_strgen(d->rr) != d->gen) {
		d->gen = ssp_rec_rd_strgen(d->rr);
		d->reset = 1;
	}
	return got;
}

/* What the reference merge (tests/unit/refmerge.h) over ssp_rec_rd_next gives. */
static void
expect(char **paths, size_t ns, struct log *l)
{
	struct ssp_in *in[MAXS];
	struct direct d[MAXS];
	struct ref_merge *m;
	const struct ssp_rec *r = NULL;
	struct ssp_err e;
	unsigned i;
	size_t k;
	int got;

	assert_non_null(m = ref_merge_new(ns));
	for (k = 0; k < ns; k++) {
		assert_int_equal(ssp_in_open(&in[k], paths[k], SSP_IN_ZSTD_AUTO,
		    NULL, &e), SSP_OK);
		assert_int_equal(ssp_event_reader_open(&d[k].rr, in[k], &e), SSP_OK);
		d[k].gen = ssp_rec_rd_strgen(d[k].rr);
		d[k].reset = 0;
		ref_merge_set(m, k, direct_next, &d[k]);
	}
	while ((got = ref_merge_next(m, &i, &r, &e)) != REF_MERGE_DONE) {
		if (got == REF_MERGE_END)
			logf_(l, "end %u", i);
		else if (got < 0)	/* -status */
			logf_(l, "error %u: %s (%s)", i, e.msg, ssp_err_str(-got));
		else {
			if (d[i].reset) {
				logf_(l, "reset %u", i);
				d[i].reset = 0;
			}
			log_rec(l, i, r, ssp_rec_rd_str(d[i].rr, r->f[0], NULL),
			    ssp_rec_rd_str(d[i].rr, r->f[1], NULL));
		}
	}
	logf_(l, "done");
	for (k = 0; k < ns; k++)
		logf_(l, "backwards %zu %llu", k,
		    (unsigned long long)ref_merge_backwards(m, k));
	ref_merge_free(m);
	for (k = 0; k < ns; k++) {
		ssp_rec_rd_close(d[k].rr);
		ssp_in_close(in[k]);
	}
}

/* What the merge queue gives. */
static void
queued(char **paths, size_t ns, int threaded, struct log *l)
{
	struct ssp_in *in[MAXS];
	struct ssp_rec_rd *rr[MAXS];
	struct ssp_mergeq *q;
	const struct ssp_rec *r;
	struct ssp_err e;
	unsigned i;
	size_t k, n;
	int got;

	for (k = 0; k < ns; k++) {
		assert_int_equal(ssp_in_open(&in[k], paths[k], SSP_IN_ZSTD_AUTO,
		    NULL, &e), SSP_OK);
		assert_int_equal(ssp_event_reader_open(&rr[k], in[k], &e), SSP_OK);
	}
	assert_int_equal(ssp_mergeq_new(&q, rr, in, ns, threaded, &e), SSP_OK);
	while ((got = ssp_mergeq_run(q, &i, &r, &n, &e)) != SSP_MQ_DONE) {
		if (got == SSP_MQ_END)
			logf_(l, "end %u", i);
		else if (got < 0)
			logf_(l, "error %u: %s (%s)", i, e.msg, ssp_err_str(-got));
		else if (got == SSP_MQ_RESET)
			logf_(l, "reset %u", i);
		else {
			assert_true(n >= 1);
			for (k = 0; k < n; k++, r = ssp_mergeq_rec_next(r))
				log_rec(l, i, r, ssp_mergeq_str(q, i, r->f[0], NULL),
				    ssp_mergeq_str(q, i, r->f[1], NULL));
		}
	}
	logf_(l, "done");
	for (k = 0; k < ns; k++)
		logf_(l, "backwards %zu %llu", k,
		    (unsigned long long)ssp_mergeq_backwards(q, k));
	assert_int_equal(ssp_mergeq_run(q, &i, &r, &n, &e), SSP_MQ_DONE);
	assert_true(ssp_mergeq_rawpos(q) > 0);
	ssp_mergeq_free(q);
	for (k = 0; k < ns; k++) {
		ssp_rec_rd_close(rr[k]);
		ssp_in_close(in[k]);
	}
}

/* must: text the expected log has (the case really happens) */
static void
compare(char **paths, size_t ns, const char *must)
{
	struct log want = { 0 }, got = { 0 };
	int threaded;

	expect(paths, ns, &want);
	if (must != NULL && strstr(want.s, must) == NULL)
		fail_msg("the expected log lacks '%s':\n%.2000s", must, want.s);
	for (threaded = 0; threaded <= 1; threaded++) {
		got.len = 0;
		queued(paths, ns, threaded, &got);
		assert_string_equal(got.s, want.s);
	}
	free(want.s);
	free(got.s);
}

static void
test_same_order(void **state)
{
	char *p[4] = { tmpname(0), tmpname(1), tmpname(2), tmpname(3) };

	(void)state;
	write_stream(p[0], "a", 3000, 1, 1000, 0);	/* many batches */
	write_stream(p[1], "b", 3, 500, 300, 0);	/* a few */
	write_stream(p[2], "c", 0, 3, 100, 0);		/* empty */
	write_stream(p[3], "d", 5000, 1, 700, 0);	/* ties with a */
	compare(p, 4, "end 2\n");
	unlink(p[0]);
	unlink(p[1]);
	unlink(p[2]);
	unlink(p[3]);
}

/* Strings big enough to fill queue buffers on their own. */
static void
test_long_strings(void **state)
{
	char *p[2] = { tmpname(0), tmpname(1) };

	(void)state;
	write_stream(p[0], "a", 2000, 1, 1000, 1);
	write_stream(p[1], "b", 2000, 2, 1000, 0);
	compare(p, 2, "fn_1_285xxx");
	unlink(p[0]);
	unlink(p[1]);
}

/* Concatenated segments: string ids start over in the middle of a batch;
 * time goes backwards at the joins. */
static void
test_segments(void **state)
{
	char *p[6] = { tmpname(0), tmpname(1), tmpname(2), tmpname(3),
	    tmpname(4), tmpname(5) };

	(void)state;
	write_stream(p[1], "s", 300, 5, 1000, 0);
	write_stream(p[2], "s", 40, 6, 1000, 0);
	concat(p[3], p[1], p[2]);
	concat(p[0], p[3], p[1]);	/* 300 + 40 + 300 records */
	write_stream(p[4], "t", 500, 7, 900, 0);
	p[1] = p[4];
	compare(p, 2, "\nreset 0\n0 6 3 cpu0 fn_6_0\n");
	compare(p, 2, "\nbackwards 0 2\n");
	unlink(p[0]);
	unlink(p[2]);
	unlink(p[3]);
	unlink(p[4]);
	unlink(tmpname(1));
}

/* A damaged stream: the records before the damage, its error where the
 * merge reports it; the other stream is read to the end. */
static void
test_error(void **state)
{
	char *p[2] = { tmpname(0), tmpname(1) };

	(void)state;
	write_stream(p[0], "a", 40000, 1, 1000, 0);	/* several blocks */
	assert_int_equal(truncate(p[0], 150000), 0);
	write_stream(p[1], "b", 50000, 2, 1000, 0);
	compare(p, 2, "\nerror 0: ");
	unlink(p[0]);
	unlink(p[1]);
}

static void
on_alarm(int sig)
{
	(void)sig;
	_exit(99);	/* ssp_mergeq_free hung */
}

/* The thread is blocked reading a pipe that never delivers more: freeing
 * still returns. */
static void
test_free_while_blocked(void **state)
{
	char *p = tmpname(0);
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_mergeq *q;
	struct ssp_err e;
	int fd[2];
	FILE *f;
	char buf[16384];
	size_t n;

	(void)state;
	write_stream(p, "a", 100, 1, 1000, 0);
	assert_int_equal(pipe(fd), 0);
	f = fopen(p, "rb");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n > 100 && n < sizeof(buf));
	n -= 60;		/* the end of the data block never comes */
	assert_int_equal(write(fd[1], buf, n), (ssize_t)n);
	assert_int_equal(ssp_in_fdopen(&in, fd[0], "pipe", 0, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_mergeq_new(&q, &rr, &in, 1, 1, &e), SSP_OK);
	usleep(50000);		/* let the thread block in read(2) */
	signal(SIGALRM, on_alarm);
	alarm(10);
	ssp_mergeq_free(q);
	alarm(0);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	close(fd[1]);
	unlink(p);
}

/* A gem5 stream of the events "type@ts ..." (types: f func, s sync). */
static void
write_events(const char *path, const char *name, const char *evs)
{
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	const char *p = evs;
	char t;
	long long ts;
	int n;

	assert_int_equal(ssp_out_open(&o, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, name, SSP_SIM_GEM5,
	    "test", NULL, 0, &e), SSP_OK);
	while (sscanf(p, " %c@%lld%n", &t, &ts, &n) == 2) {
		memset(&r, 0, sizeof(r));
		r.type = t == 's' ? SSP_EV_SYNC : SSP_EV_FUNC;
		r.ts = ts;
		if (t == 'f')
			r.f[SSP_F_FUNC_SYM] = ssp_rec_wr_str(w, "fn", 2, &e);
		assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
		p += n;
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
}

/* Readers that leave out sync events: the rest in the order of the whole
 * streams, an end where the stream's last record (left out) was, a record
 * after a left-out one whose time went back where that one was. */
static void
test_filtered(void **state)
{
	static const struct {
		const char *a, *b, *want;
	} cases[] = {
		{ "f@100 s@500 s@600", "f@200 f@550 f@700",
		  "0 100|1 200|1 550|end 0|1 700|end 1|" },
		{ "f@100 s@1000 f@300", "f@500",
		  "0 100|1 500|end 1|0 300|end 0|" },
		{ "s@10 s@20", "f@15",
		  "1 15|end 1|end 0|" },
		{ "s@10 s@30", "f@15 f@40",
		  "1 15|end 0|1 40|end 1|" },
	};
	uint8_t act[SSP_EV_NTYPES + 1];
	unsigned c, threaded;

	(void)state;
	memset(act, SSP_RA_KEEP, sizeof(act));
	act[SSP_EV_SYNC] = SSP_RA_SKIP;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	for (threaded = 0; threaded < 2; threaded++) {
		struct ssp_in *in[2];
		struct ssp_rec_rd *rr[2];
		struct ssp_mergeq *q;
		const struct ssp_rec *r;
		struct ssp_err e;
		char got[256] = "";
		unsigned i, k;
		size_t n;
		int rc;

		write_events(tmpname(0), "a", cases[c].a);
		write_events(tmpname(1), "b", cases[c].b);
		for (k = 0; k < 2; k++) {
			assert_int_equal(ssp_in_open(&in[k], tmpname((int)k),
			    SSP_IN_ZSTD_AUTO, NULL, &e), SSP_OK);
			assert_int_equal(ssp_event_reader_open(&rr[k], in[k], &e),
			    SSP_OK);
			assert_int_equal(ssp_rec_rd_filter(rr[k], act, &e), SSP_OK);
		}
		assert_int_equal(ssp_mergeq_new(&q, rr, in, 2, (int)threaded, &e),
		    SSP_OK);
		while ((rc = ssp_mergeq_run(q, &i, &r, &n, &e)) != SSP_MQ_DONE) {
			char one[32];

			assert_true(rc == SSP_MQ_REC || rc == SSP_MQ_END);
			if (rc == SSP_MQ_END) {
				snprintf(one, sizeof(one), "end %u|", i);
				strcat(got, one);
				continue;
			}
			for (k = 0; k < n; k++, r = ssp_mergeq_rec_next(r)) {
				snprintf(one, sizeof(one), "%u %lld|", i,
				    (long long)r->ts);
				strcat(got, one);
			}
		}
		assert_string_equal(got, cases[c].want);
		ssp_mergeq_free(q);
		for (k = 0; k < 2; k++) {
			ssp_rec_rd_close(rr[k]);
			ssp_in_close(in[k]);
		}
	}
	unlink(tmpname(0));
	unlink(tmpname(1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_order),
		cmocka_unit_test(test_long_strings),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_error),
		cmocka_unit_test(test_filtered),
		cmocka_unit_test(test_free_while_blocked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
