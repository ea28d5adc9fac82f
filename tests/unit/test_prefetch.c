/* Read-ahead: the batches give exactly the records, strings, end and
 * errors of ssp_rr_next, threaded or not, across batch and segment
 * boundaries; freeing stops a thread blocked on a pipe. */
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

#include "ssp_event.h"
#include "ssp_io.h"
#include "ssp_prefetch.h"
#include "ssp_rec.h"

static char *
tmpname(int k)
{
	static char path[4][64];

	snprintf(path[k], sizeof(path[k]), "/tmp/ssp-test-pf-%d-%d",
	    (int)getpid(), k);
	return path[k];
}

/* A func event stream of n records whose cpu and symbol strings change
 * every few records (new string ids in the middle of batches). */
static void
write_stream(const char *path, const char *name, unsigned n, unsigned seed)
{
	struct ssp_out *o;
	struct ssp_rw *w;
	struct ssp_rec r;
	struct ssp_err e;
	char s[32];
	unsigned i;

	assert_int_equal(ssp_out_open(&o, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, name, SSP_SIM_GEM5,
	    "test", NULL, 0, &e), SSP_OK);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		r.type = SSP_EV_FUNC;
		r.ts = 1000 * i + seed;
		snprintf(s, sizeof(s), "cpu%u", (i / 50) % 3);
		r.f[SSP_F_FUNC_CPU] = ssp_rw_str(w, s, strlen(s), &e);
		snprintf(s, sizeof(s), "fn_%u_%u", seed, i / 7);
		r.f[SSP_F_FUNC_SYM] = ssp_rw_str(w, s, strlen(s), &e);
		r.f[SSP_F_FUNC_TABLE] = 0;
		assert_int_equal(ssp_rw_put(w, &r, &e), SSP_OK);
	}
	assert_int_equal(ssp_rw_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
}

static void
concat(const char *dst, const char *a, const char *b)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cat '%s' '%s' > '%s'", a, b, dst);
	assert_int_equal(system(cmd), 0);
}

static void
truncate_to(const char *path, long keep)
{
	assert_int_equal(truncate(path, keep), 0);
}

/* One record as text: timestamp, type and the strings it names. */
static void
show(char *buf, size_t n, const struct ssp_rec *r, const char *cpu,
    const char *sym)
{
	snprintf(buf, n, "%lld %u %s %s", (long long)r->ts, r->type,
	    cpu ? cpu : "-", sym ? sym : "-");
}

/* Every record of path through ssp_rr_next, and the final status. */
static char **
direct(const char *path, size_t *np, int *end, char *msg)
{
	struct ssp_in *in;
	struct ssp_rr *rr;
	struct ssp_rec r;
	struct ssp_err e;
	char **v = NULL, line[128];
	size_t n = 0;
	int got;

	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	while ((got = ssp_rr_next(rr, &r, &e)) == 1) {
		show(line, sizeof(line), &r, ssp_rr_str(rr, r.f[0], NULL),
		    ssp_rr_str(rr, r.f[1], NULL));
		v = realloc(v, (n + 1) * sizeof(*v));
		v[n++] = strdup(line);
	}
	*end = got == 0 ? 1 : -1;
	strcpy(msg, got == 0 ? "" : e.msg);
	ssp_rr_close(rr);
	ssp_in_close(in);
	*np = n;
	return v;
}

/* The same through the read-ahead, streams read round robin. */
static void
compare(char **paths, size_t ns, int threaded)
{
	struct ssp_in *in[4];
	struct ssp_rr *rr[4];
	struct ssp_pf *pf;
	struct ssp_err e;
	char **want[4], msg[4][sizeof(e.msg)], line[128];
	size_t nwant[4], pos[4] = { 0 }, i, k;
	int wend[4], done[4] = { 0 }, left = (int)ns;

	for (i = 0; i < ns; i++) {
		want[i] = direct(paths[i], &nwant[i], &wend[i], msg[i]);
		assert_int_equal(ssp_in_open(&in[i], paths[i], SSP_IN_ZSTD_AUTO,
		    NULL, &e), SSP_OK);
		assert_int_equal(ssp_event_reader_open(&rr[i], in[i], &e), SSP_OK);
	}
	assert_int_equal(ssp_pf_new(&pf, rr, in, ns, threaded, &e), SSP_OK);
	while (left > 0)
		for (i = 0; i < ns; i++) {
			const struct ssp_pf_batch *b;

			if (done[i])
				continue;
			b = ssp_pf_next(pf, i);
			for (k = 0; k < b->n; k++) {
				const struct ssp_rec *r = &b->rec[k];

				show(line, sizeof(line), r,
				    ssp_pf_str(pf, i, r->f[0], NULL),
				    ssp_pf_str(pf, i, r->f[1], NULL));
				assert_true(pos[i] < nwant[i]);
				assert_string_equal(line, want[i][pos[i]]);
				pos[i]++;
			}
			if (b->end != 0) {
				assert_int_equal(b->end, wend[i]);
				if (b->end < 0)
					assert_string_equal(b->err.msg, msg[i]);
				assert_int_equal(pos[i], nwant[i]);
				/* the end stays */
				b = ssp_pf_next(pf, i);
				assert_int_equal(b->n, 0);
				assert_int_equal(b->end, wend[i]);
				done[i] = 1;
				left--;
			}
		}
	assert_true(ssp_pf_rawpos(pf) > 0);
	ssp_pf_free(pf);
	for (i = 0; i < ns; i++) {
		for (k = 0; k < nwant[i]; k++)
			free(want[i][k]);
		free(want[i]);
		ssp_rr_close(rr[i]);
		ssp_in_close(in[i]);
	}
}

static void
test_same_records(void **state)
{
	char *p[4] = { tmpname(0), tmpname(1), tmpname(2), tmpname(3) };

	(void)state;
	write_stream(p[0], "a", 1000, 1);	/* several batches */
	write_stream(p[1], "b", 3, 2);		/* less than one */
	write_stream(p[2], "c", 0, 3);		/* empty */
	write_stream(p[3], "d", 2 * SSP_PF_BATCH, 4);	/* exactly two */
	compare(p, 4, 0);
	compare(p, 4, 1);
	unlink(p[0]);
	unlink(p[1]);
	unlink(p[2]);
	unlink(p[3]);
}

/* Concatenated segments: string ids start over in the middle of a batch. */
static void
test_segments(void **state)
{
	char *p[4] = { tmpname(0), tmpname(1), tmpname(2), tmpname(3) };

	(void)state;
	write_stream(p[1], "s", 300, 5);
	write_stream(p[2], "s", 40, 6);
	concat(p[3], p[1], p[2]);
	concat(p[0], p[3], p[1]);	/* 300 + 40 + 300 records */
	compare(p, 1, 0);
	compare(p, 1, 1);
	unlink(p[0]);
	unlink(p[1]);
	unlink(p[2]);
	unlink(p[3]);
}

/* A damaged stream: the records before the damage, then the reader's
 * error; the other stream is read to the end. */
static void
test_error(void **state)
{
	char *p[2] = { tmpname(0), tmpname(1) };

	(void)state;
	write_stream(p[0], "a", 5000, 1);
	truncate_to(p[0], 30000);
	write_stream(p[1], "b", 700, 2);
	compare(p, 2, 0);
	compare(p, 2, 1);
	unlink(p[0]);
	unlink(p[1]);
}

static void
on_alarm(int sig)
{
	(void)sig;
	_exit(99);	/* ssp_pf_free hung */
}

/* The thread is blocked reading a pipe that never delivers more: freeing
 * still returns. */
static void
test_free_while_blocked(void **state)
{
	char *p = tmpname(0);
	struct ssp_in *in;
	struct ssp_rr *rr;
	struct ssp_pf *pf;
	struct ssp_err e;
	int fd[2];
	FILE *f;
	char buf[16384];
	size_t n;

	(void)state;
	write_stream(p, "a", 100, 1);
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
	assert_int_equal(ssp_pf_new(&pf, &rr, &in, 1, 1, &e), SSP_OK);
	usleep(50000);		/* let the thread block in read(2) */
	signal(SIGALRM, on_alarm);
	alarm(10);
	ssp_pf_free(pf);
	alarm(0);
	ssp_rr_close(rr);
	ssp_in_close(in);
	close(fd[1]);
	unlink(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_records),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_error),
		cmocka_unit_test(test_free_while_blocked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
