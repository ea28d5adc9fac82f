/* Event filters: list parsers, each criterion, reason order, function
 * lists from CSV (formats, classes, errors with line and column), the
 * verdict cache across concatenated segments, and the filtered copy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/filter.h"
#include "io/in.h"
#include "io/out.h"
#include "stream/event.h"
#include "stream/rec.h"

static char path[64], path2[64], csvpath[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssp-test-filter-%d", (int)getpid());
	snprintf(path2, sizeof(path2), "/tmp/ssp-test-filter-%d.out", (int)getpid());
	snprintf(csvpath, sizeof(csvpath), "/tmp/ssp-test-filter-%d.csv", (int)getpid());
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(path);
	unlink(path2);
	unlink(csvpath);
	return 0;
}

static void
spit(const char *p, const char *text)
{
	FILE *f = fopen(p, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	fclose(f);
}

/* Load a function list from text; returns the status, e filled. */
static int
load(struct ssp_filter *f, const char *text, int white, const char *classes,
    struct ssp_err *e)
{
	struct ssp_in *in;
	int r;

	spit(csvpath, text);
	assert_int_equal(ssp_in_open(&in, csvpath, 0, NULL, e), SSP_OK);
	r = ssp_filter_funcs(f, in, white, classes, e);
	ssp_in_close(in);
	return r;
}

/* Expect a CSV error at line:col with text in the message. */
static void
load_fails(const char *text, int white, const char *classes, const char *where,
    const char *what)
{
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_err e = { 0 };
	char want[128];

	assert_int_equal(load(f, text, white, classes, &e), SSP_ERR_INVAL);
	snprintf(want, sizeof(want), "%s%s", csvpath, where);
	if (strstr(e.msg, want) == NULL || strstr(e.msg, what) == NULL)
		fail_msg("message '%s' lacks '%s' or '%s'", e.msg, want, what);
	ssp_filter_free(f);
}

/*
 * A stream of function entries, one per name (cpu "cpu0", table
 * "linux" unless the name starts with "i40e"), then a few other events.
 */
static void
write_funcs(const char *p, const char *stream, const char *const *names,
    size_t n)
{
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_err e;
	struct ssp_rec r;
	size_t i;

	memset(&r, 0, sizeof(r));
	assert_int_equal(ssp_out_open(&o, p, 0, &e), SSP_OK);
	assert_int_equal(ssp_event_writer_open(&w, o, stream, SSP_SIM_GEM5,
	    "test", NULL, 0, &e), SSP_OK);
	for (i = 0; i < n; i++) {
		r.type = SSP_EV_FUNC;
		r.ts = 1000 * (int64_t)(i + 1);
		r.f[SSP_F_FUNC_CPU] = ssp_rec_wr_str(w, "cpu0", 4, &e);
		r.f[SSP_F_FUNC_SYM] = ssp_rec_wr_str(w, names[i], strlen(names[i]), &e);
		r.f[SSP_F_FUNC_TABLE] = strncmp(names[i], "i40e", 4) == 0 ?
		    ssp_rec_wr_str(w, "i40e", 4, &e) : ssp_rec_wr_str(w, "linux", 5, &e);
		assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	}
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
}

/* Run f over the stream at p; the kept symbols joined by ',' into out. */
static void
run(struct ssp_filter *f, const char *p, struct ssp_filter_stats *st,
    char *out, size_t n)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e;
	size_t len = 0;

	memset(st, 0, sizeof(*st));
	assert_int_equal(ssp_in_open(&in, p, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_out_open(&o, path2, 0, &e), SSP_OK);
	assert_int_equal(ssp_filter_writer_open(f, &w, o, rr, "test", &e), SSP_OK);
	assert_int_equal(ssp_filter_run(f, rr, w, st, UINT64_MAX, &e), 0);
	assert_int_equal(ssp_filter_end(w, 0, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	/* read the output back */
	out[0] = '\0';
	assert_int_equal(ssp_in_open(&in, path2, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	while (ssp_rec_rd_next(rr, &r, &e) == 1) {
		const char *s = r.type == SSP_EV_FUNC ?
		    ssp_rec_rd_str(rr, r.f[SSP_F_FUNC_SYM], NULL) :
		    r.type < SSP_EV_NTYPES ? ssp_event_schema.types[r.type].name :
		    "?";

		len += (size_t)snprintf(out + len, n - len, "%s%s",
		    len ? "," : "", s);
	}
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
}

static uint64_t
sum(const struct ssp_filter_stats *st)
{
	uint64_t s = st->kept;
	unsigned k;

	for (k = 1; k < SSP_FR_NREASONS; k++)
		s += st->dropped[k];
	return s;
}

/* Damaged input: -status, and what came before it was kept, written
 * without the end block by ssp_filter_end. */
static void
test_run_damaged(void **state)
{
	static const char *const names[] = { "a", "b", "c" };
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_filter_stats st = { 0 };
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_rec r;
	struct ssp_err e = { 0 };
	struct stat sb;
	int got, n = 0;

	(void)state;
	write_funcs(path, "host0", names, 3);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(truncate(path, sb.st_size - 4), 0);	/* the end block */
	assert_int_equal(ssp_in_open(&in, path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_out_open(&o, path2, 0, &e), SSP_OK);
	assert_int_equal(ssp_filter_writer_open(f, &w, o, rr, "test", &e), SSP_OK);
	got = ssp_filter_run(f, rr, w, &st, UINT64_MAX, &e);
	assert_int_equal(got, -SSP_ERR_TRUNCATED);
	assert_int_equal(e.code, SSP_ERR_TRUNCATED);
	assert_true(st.kept > 0 && st.kept == st.in);
	assert_int_equal(ssp_filter_end(w, got, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	/* the kept events, then the damage */
	assert_int_equal(ssp_in_open(&in, path2, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	while ((got = ssp_rec_rd_next(rr, &r, &e)) == 1)
		n++;
	assert_int_equal(n, (int)st.kept);
	assert_int_equal(got, -SSP_ERR_TRUNCATED);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	/* after a failed write: no end block, nothing more to report */
	assert_int_equal(ssp_in_open(&in, path, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_event_reader_open(&rr, in, &e), SSP_OK);
	assert_int_equal(ssp_out_open(&o, path2, 0, &e), SSP_OK);
	assert_int_equal(ssp_filter_writer_open(f, &w, o, rr, "test", &e), SSP_OK);
	assert_int_equal(ssp_filter_run(f, rr, w, &st, 1, &e), 1);
	assert_int_equal(ssp_filter_end(w, SSP_FILTER_EWRITE, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	assert_int_equal(ssp_in_open(&in, path2, 0, NULL, &e), SSP_OK);
	if (ssp_event_reader_open(&rr, in, &e) == SSP_OK) {
		while ((got = ssp_rec_rd_next(rr, &r, &e)) == 1)
			;
		assert_true(got < 0);
		ssp_rec_rd_close(rr);
	}
	ssp_in_close(in);
	ssp_filter_free(f);
}

static void
test_type_lists(void **state)
{
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_err e;
	struct ssp_rec r = { 0 };

	(void)state;
	assert_int_equal(ssp_filter_types(f, "func,mmio_wr", 0, &e), SSP_OK);
	r.type = SSP_EV_FUNC;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	r.type = SSP_EV_MMIO_RD;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_TYPE);
	r.type = SSP_TYPE_UNKNOWN;	/* not asked for */
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_TYPE);
	/* a second list adds; an exclude list wins */
	assert_int_equal(ssp_filter_types(f, "dma", 0, &e), SSP_OK);
	r.type = SSP_EV_NIC_DMA_EXEC;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	assert_int_equal(ssp_filter_types(f, "nic", 1, &e), SSP_OK);
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_TYPE);
	r.type = SSP_EV_DMA_RD;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	assert_string_equal(ssp_filter_describe(f),
	    "types=func,mmio_wr types=dma exclude=nic");
	ssp_filter_free(f);

	/* exclude only: unknown types pass */
	f = ssp_filter_new();
	assert_int_equal(ssp_filter_types(f, "insn,noise", 1, &e), SSP_OK);
	r.type = SSP_TYPE_UNKNOWN;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	r.type = SSP_EV_PROC_IN;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_TYPE);
	/* --no-noise reports its own reason, before the type lists */
	ssp_filter_noise(f);
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_NOISE);
	ssp_filter_free(f);

	f = ssp_filter_new();
	assert_int_equal(ssp_filter_types(f, "func,bogus", 0, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "'bogus'"));
	assert_int_equal(ssp_filter_types(f, "func,", 0, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "empty item"));
	assert_int_equal(ssp_filter_types(f, "", 1, &e), SSP_ERR_INVAL);
	assert_int_equal(ssp_filter_types(f, ",func", 0, &e), SSP_ERR_INVAL);
	/* a failed list changes nothing */
	assert_int_equal(ssp_filter_uses(f, SSP_FR_TYPE), 0);
	ssp_filter_free(f);
}

static void
test_groups(void **state)
{
	char m[1024];
	size_t i, n = ssp_filter_ngroups();
	int saw_noise = 0, saw_all = 0;

	(void)state;
	for (i = 0; i < n; i++) {
		const char *g = ssp_filter_group(i, m, sizeof(m));

		assert_non_null(g);
		/* no group shadows a type name */
		assert_true(ssp_rec_schema_find(&ssp_event_schema, g) < 0);
		if (strcmp(g, "noise") == 0) {
			assert_string_equal(m, "sync,proc_in");
			saw_noise = 1;
		}
		if (strcmp(g, "all") == 0) {
			assert_non_null(strstr(m, "net_rx"));
			saw_all = 1;
		}
	}
	assert_true(saw_noise && saw_all);
	assert_null(ssp_filter_group(n, m, sizeof(m)));
}

static void
test_time_window(void **state)
{
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_err e;
	struct ssp_rec r = { 0 };

	(void)state;
	r.type = SSP_EV_SYNC;
	assert_int_equal(ssp_filter_time(f, 1, 100, 1, 100, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "empty time window"));
	assert_int_equal(ssp_filter_time(f, 1, 100, 1, 200, &e), SSP_OK);
	r.ts = 99;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_TIME);
	r.ts = 100;	/* from is inclusive */
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	r.ts = 199;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	r.ts = 200;	/* to is exclusive */
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_TIME);
	ssp_filter_free(f);

	f = ssp_filter_new();	/* open ends */
	assert_int_equal(ssp_filter_time(f, 0, 0, 1, INT64_MIN + 1, &e), SSP_OK);
	r.ts = INT64_MIN;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	r.ts = INT64_MAX;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_TIME);
	ssp_filter_free(f);
	f = ssp_filter_new();
	assert_int_equal(ssp_filter_time(f, 1, INT64_MAX, 0, 0, &e), SSP_OK);
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	ssp_filter_free(f);
}

static void
test_netdev_interesting(void **state)
{
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_err e;
	struct ssp_rec r = { 0 };
	static const char *const bad[] = { "1", "1:", ":2", "1:2,", "x:1",
	    "1:-1", "4294967296:1", "1:99999999999999999999", "1:2:3", "" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (ssp_filter_netdev(f, bad[i], &e) != SSP_ERR_INVAL)
			fail_msg("net-dev '%s' accepted", bad[i]);
	assert_int_equal(ssp_filter_uses(f, SSP_FR_NETDEV), 0);
	assert_int_equal(ssp_filter_netdev(f, "1:2,0:*", &e), SSP_OK);
	assert_int_equal(ssp_filter_netdev(f, "4294967295:4294967295", &e), SSP_OK);
	r.type = SSP_EV_NET_ENQ;
	r.f[SSP_F_NET_NODE] = 1;
	r.f[SSP_F_NET_DEV] = 2;
	r.f[SSP_F_NET_INTERESTING] = 0;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	r.f[SSP_F_NET_DEV] = 1;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_NETDEV);
	r.f[SSP_F_NET_NODE] = 0;	/* 0:* */
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	r.f[SSP_F_NET_NODE] = 4294967295u;
	r.f[SSP_F_NET_DEV] = 4294967295u;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	/* interesting-only applies to ns-3 events after the device check */
	ssp_filter_interesting(f);
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_INTERESTING);
	r.f[SSP_F_NET_INTERESTING] = 1;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	r.f[SSP_F_NET_NODE] = 7;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_NETDEV);
	/* other events never look at these fields */
	r.type = SSP_EV_MMIO_WR;
	assert_int_equal(ssp_filter_check(f, NULL, &r), SSP_FR_KEEP);
	ssp_filter_free(f);
}

static void
test_funcs_rules_csv(void **state)
{
	static const char *const names[] = { "tcp_sendmsg", "_raw_spin_lock",
	    "i40e_lan_xmit_frame", "up_write", "skb_put", "tcp_sendmsg" };
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_filter_stats st;
	struct ssp_err e;
	char out[256];

	(void)state;
	/* the rules format: blacklist class by default */
	assert_int_equal(load(f, "class,function\r\n"
	    "kernel-tx,tcp_sendmsg\r\n"
	    "blacklist,_raw_spin_lock\r\n"
	    "# a comment row\r\n"
	    "\r\n"
	    "blacklist,\"up_write\"\r\n", 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_filter_nfuncs(f, 0), 2);
	write_funcs(path, "h", names, 6);
	run(f, path, &st, out, sizeof(out));
	assert_string_equal(out, "tcp_sendmsg,i40e_lan_xmit_frame,skb_put,"
	    "tcp_sendmsg");
	assert_int_equal(st.in, 6);
	assert_int_equal(st.dropped[SSP_FR_FUNC], 2);
	assert_int_equal(sum(&st), st.in);
	ssp_filter_free(f);

	/* whitelist from the same format: every class but blacklist */
	f = ssp_filter_new();
	assert_int_equal(load(f, "function,class,comment\n"
	    "tcp_sendmsg,kernel-tx,x\n"
	    "i40e_lan_xmit_frame,driver-tx,\n"
	    "up_write,blacklist,\n", 1, NULL, &e), SSP_OK);
	write_funcs(path, "h", names, 6);
	run(f, path, &st, out, sizeof(out));
	assert_string_equal(out, "tcp_sendmsg,i40e_lan_xmit_frame,tcp_sendmsg");
	ssp_filter_free(f);

	/* chosen classes; the real sample file */
	f = ssp_filter_new();
	{
		struct ssp_in *in;
		char sample[512];

		snprintf(sample, sizeof(sample), "%s/rules-linux-i40e.csv",
		    getenv("SSP_SAMPLES") ? getenv("SSP_SAMPLES") :
		    "tests/data/samples");
		assert_int_equal(ssp_in_open(&in, sample, 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_filter_funcs(f, in, 1, "driver-tx,kernel-tx",
		    &e), SSP_OK);
		ssp_in_close(in);
		assert_int_equal(ssp_filter_nfuncs(f, 1), 6);
		assert_non_null(strstr(ssp_filter_describe(f),
		    "[driver-tx,kernel-tx]:6"));
	}
	ssp_filter_free(f);
}

static void
test_funcs_plain_list(void **state)
{
	static const char *const names[] = { "a", "b,c", "d\"e", "f", "g h" };
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_filter_stats st;
	struct ssp_err e;
	char out[256];

	(void)state;
	/* BOM, header, quoting, CRLF, no newline at the end */
	assert_int_equal(load(f, "\xef\xbb\xbf" "function\r\n\"b,c\"\r\n"
	    "\"d\"\"e\"\r\n  f  \r\n\"g h\"", 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_filter_nfuncs(f, 0), 4);
	write_funcs(path, "h", names, 5);
	run(f, path, &st, out, sizeof(out));
	assert_string_equal(out, "a");
	assert_int_equal(st.dropped[SSP_FR_FUNC], 4);
	/* a second blacklist adds to the first; duplicates count once */
	assert_int_equal(load(f, "a\nf\n", 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_filter_nfuncs(f, 0), 5);
	run(f, path, &st, out, sizeof(out));
	assert_string_equal(out, "");
	ssp_filter_free(f);

	/* black and white together: white first, then black */
	f = ssp_filter_new();
	assert_int_equal(load(f, "a\nb,c\nf\n", 1, NULL, &e), SSP_ERR_INVAL);
	assert_int_equal(load(f, "a\n\"b,c\"\nf\n", 1, NULL, &e), SSP_OK);
	assert_int_equal(load(f, "f\n", 0, NULL, &e), SSP_OK);
	run(f, path, &st, out, sizeof(out));
	assert_string_equal(out, "a,b,c");
	ssp_filter_free(f);
}

/* A list by its file's name: read whole, zstd by magic; a file not read
 * is an I/O error, its content an INVAL one. */
static void
test_funcs_load(void **state)
{
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_err e = { 0 };
	char zst[80], cmd[200];

	(void)state;
	spit(csvpath, "a\nb\n");
	assert_int_equal(ssp_filter_funcs_load(f, csvpath, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_filter_nfuncs(f, 0), 2);
	snprintf(zst, sizeof(zst), "%s.zst", csvpath);
	spit(csvpath, "c\n");
	snprintf(cmd, sizeof(cmd), "zstd -q -f -o '%s' '%s'", zst, csvpath);
	if (system(cmd) == 0) {
		assert_int_equal(ssp_filter_funcs_load(f, zst, 0, NULL, &e),
		    SSP_OK);
		assert_int_equal(ssp_filter_nfuncs(f, 0), 3);
		unlink(zst);
	}
	spit(csvpath, "x,y\n");
	assert_int_equal(ssp_filter_funcs_load(f, csvpath, 0, NULL, &e),
	    SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, ":1:1:"));
	assert_int_equal(ssp_filter_funcs_load(f, "/nonexistent/list.csv", 1,
	    NULL, &e), SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "/nonexistent/list.csv"));
	assert_int_equal(ssp_filter_nfuncs(f, 1), 0);
	ssp_filter_free(f);
}

static void
test_funcs_errors(void **state)
{
	(void)state;
	load_fails("a\n\"b\n", 0, NULL, ":2:1:", "unterminated quoted field");
	load_fails("a\nb\"c\n", 0, NULL, ":2:2:", "malformed CSV");
	load_fails("a\n\"b\"x\n", 0, NULL, ":2:4:", "malformed CSV");
	load_fails("a\nb,c\n", 0, NULL, ":2:3:", "one function name per row");
	load_fails("x,y\n", 0, NULL, ":1:1:", "header row");
	/* ssp_csv drops empty trailing fields: an empty row is skipped */
	load_fails("class,function\nblacklist,\"\",x\n", 0, NULL, ":2:11:",
	    "empty function name");
	load_fails("class,function\nblacklist\n", 0, NULL, ":2:10:",
	    "no function column");
	load_fails("class,function\nblacklist, \n", 0, NULL, ":2:10:",
	    "no function column");
	{	/* a NUL byte inside a name */
		struct ssp_filter *f = ssp_filter_new();
		struct ssp_in *in;
		struct ssp_err e;
		FILE *fp = fopen(csvpath, "wb");

		assert_non_null(fp);
		assert_int_equal(fwrite("a\nb\0c\n", 1, 6, fp), 6);
		fclose(fp);
		assert_int_equal(ssp_in_open(&in, csvpath, 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_filter_funcs(f, in, 0, NULL, &e), SSP_ERR_INVAL);
		assert_non_null(strstr(e.msg, ":2:1: NUL byte"));
		assert_int_equal(e.line, 2);
		ssp_in_close(in);
		ssp_filter_free(f);
	}
	{
		struct ssp_filter *f = ssp_filter_new();
		struct ssp_err e;

		assert_int_equal(load(f, "class,function\nkernel-tx,x\n"
		    "driver-tx,y\n", 0, NULL, &e), SSP_ERR_INVAL);
		assert_non_null(strstr(e.msg, "no rows of class blacklist "
		    "(classes in the file: kernel-tx, driver-tx)"));
		assert_int_equal(load(f, "class,function\nkernel-tx,x\n", 0,
		    "kernel-rx", &e), SSP_ERR_INVAL);
		assert_non_null(strstr(e.msg, "no rows of class kernel-rx"));
		/* an empty class cell (a fuzzer found it looping) */
		assert_int_equal(load(f, "class,function\n,x\n", 0, NULL, &e),
		    SSP_ERR_INVAL);
		assert_non_null(strstr(e.msg, "(classes in the file: \"\")"));
		assert_int_equal(load(f, "class,function\nblacklist,x\n", 0,
		    "blacklist,,x", &e), SSP_ERR_INVAL);
		assert_non_null(strstr(e.msg, "empty item"));
		assert_int_equal(load(f, "", 0, NULL, &e), SSP_ERR_INVAL);
		assert_non_null(strstr(e.msg, "no function names"));
		assert_int_equal(load(f, "function\n# only a comment\n", 0, NULL,
		    &e), SSP_ERR_INVAL);
		assert_int_equal(ssp_filter_uses(f, SSP_FR_FUNC), 0);
		ssp_filter_free(f);
	}
	{	/* a long name is fine up to the limit */
		char *big = malloc(5000);

		memset(big, 'x', 4097);
		strcpy(big + 4097, "\n");
		load_fails(big, 0, NULL, ":1:1:", "longer than");
		free(big);
	}
}

static void
test_patterns(void **state)
{
	static const char *const names[] = { "i40e_xmit", "tcp_sendmsg" };
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_filter_stats st;
	struct ssp_err e;
	char out[256];

	(void)state;
	write_funcs(path, "h", names, 2);
	assert_int_equal(ssp_filter_patterns(f, SSP_FFIELD_TABLE, "i4*", &e),
	    SSP_OK);
	run(f, path, &st, out, sizeof(out));
	assert_string_equal(out, "i40e_xmit");
	assert_int_equal(st.dropped[SSP_FR_TABLE], 1);
	/* lists add up */
	assert_int_equal(ssp_filter_patterns(f, SSP_FFIELD_TABLE, "lin?x", &e),
	    SSP_OK);
	run(f, path, &st, out, sizeof(out));
	assert_string_equal(out, "i40e_xmit,tcp_sendmsg");
	assert_int_equal(ssp_filter_patterns(f, SSP_FFIELD_CPU, "cpu[12]", &e),
	    SSP_OK);
	run(f, path, &st, out, sizeof(out));
	assert_string_equal(out, "");
	assert_int_equal(st.dropped[SSP_FR_CPU], 2);
	assert_int_equal(ssp_filter_patterns(f, SSP_FFIELD_COMP, "a,,b", &e),
	    SSP_ERR_INVAL);
	ssp_filter_free(f);
}

/* The first reason in enum order wins; the counts add up. */
static void
test_reason_order(void **state)
{
	static const char *const names[] = { "x", "y", "z" };
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_filter_stats st;
	struct ssp_err e;
	char out[64];

	(void)state;
	write_funcs(path, "h", names, 3);	/* ts 1000, 2000, 3000 */
	assert_int_equal(load(f, "x\ny\nz\n", 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_filter_time(f, 1, 2000, 0, 0, &e), SSP_OK);
	assert_int_equal(ssp_filter_patterns(f, SSP_FFIELD_CPU, "nope", &e),
	    SSP_OK);
	run(f, path, &st, out, sizeof(out));
	assert_int_equal(st.dropped[SSP_FR_TIME], 1);
	assert_int_equal(st.dropped[SSP_FR_CPU], 2);
	assert_int_equal(st.dropped[SSP_FR_FUNC], 0);
	assert_int_equal(sum(&st), 3);
	ssp_filter_free(f);
}

/*
 * Two segments of one stream where string id 2 means different names:
 * verdicts cached for the first segment must not leak into the second.
 */
static void
test_segments(void **state)
{
	static const char *const a[] = { "keep_me", "drop_me" };
	static const char *const b[] = { "drop_me", "keep_me" };
	struct ssp_filter *f = ssp_filter_new();
	struct ssp_filter_stats st;
	struct ssp_err e;
	char out[256], cmd[256];

	(void)state;
	write_funcs(path, "h", a, 2);
	write_funcs(path2, "h", b, 2);
	snprintf(cmd, sizeof(cmd), "cat %s %s > %s.cat", path, path2, path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(load(f, "drop_me\n", 0, NULL, &e), SSP_OK);
	snprintf(cmd, sizeof(cmd), "%s.cat", path);
	run(f, cmd, &st, out, sizeof(out));
	assert_string_equal(out, "keep_me,keep_me");
	assert_int_equal(st.in, 4);
	assert_int_equal(st.dropped[SSP_FR_FUNC], 2);
	unlink(cmd);
	ssp_filter_free(f);
}

/* Metadata is kept, the filter key chains, unknown types survive. */
static void
test_writer_meta_and_schema(void **state)
{
	static const struct ssp_rec_type newer[] = {
		{ "func", 4, { { "cpu", 's' }, { "sym", 's' }, { "table", 's' },
		    { "pc", 'x' } } },
		{ "future_thing", 1, { { "x", 'u' } } },
	};
	static const struct ssp_schema ns = { 2, newer };
	static const struct ssp_meta m[] = { { "stream", "h" },
	    { "filter", "evfilter: types=func" }, { "custom", "kept" } };
	struct ssp_filter *f;
	struct ssp_filter_stats st;
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_err e;
	struct ssp_rec r = { 0 };
	char out[256];

	(void)state;
	assert_int_equal(ssp_out_open(&o, path, 0, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open(&w, o, ssp_frame_magic_events, &ns, m, 3, &e), SSP_OK);
	r.type = 0;
	r.f[0] = ssp_rec_wr_str(w, "cpu0", 4, &e);
	r.f[1] = ssp_rec_wr_str(w, "f1", 2, &e);
	r.f[2] = ssp_rec_wr_str(w, "linux", 5, &e);
	r.f[3] = 0xffffffff81000000ull;
	assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	r.type = 1;
	r.f[0] = 7;
	assert_int_equal(ssp_rec_wr_put(w, &r, &e), SSP_OK);
	assert_int_equal(ssp_rec_wr_close(w, &e), SSP_OK);
	assert_int_equal(ssp_out_close(o, &e), SSP_OK);

	f = ssp_filter_new();
	assert_int_equal(ssp_filter_types(f, "insn", 1, &e), SSP_OK);
	run(f, path, &st, out, sizeof(out));
	assert_int_equal(st.kept, 2);
	ssp_filter_free(f);
	assert_int_equal(ssp_in_open(&in, path2, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_rec_rd_open(&rr, in, ssp_frame_magic_events, NULL, 0, &e), SSP_OK);
	assert_string_equal(ssp_rec_rd_meta(rr, "custom"), "kept");
	assert_string_equal(ssp_rec_rd_meta(rr, "filter"),
	    "evfilter: types=func | test: exclude=insn");
	assert_int_equal(ssp_rec_rd_file_schema(rr)->ntypes, 2);
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
	assert_int_equal(r.nf, 4);
	assert_true(r.f[3] == 0xffffffff81000000ull);
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 1);
	assert_string_equal(ssp_rec_rd_file_schema(rr)->types[r.ftag - 1].name,
	    "future_thing");
	assert_int_equal(r.f[0], 7);
	assert_int_equal(ssp_rec_rd_next(rr, &r, &e), 0);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);

	/* -t drops the unknown type */
	f = ssp_filter_new();
	assert_int_equal(ssp_filter_types(f, "func", 0, &e), SSP_OK);
	run(f, path, &st, out, sizeof(out));
	assert_int_equal(st.kept, 1);
	assert_int_equal(st.dropped[SSP_FR_TYPE], 1);
	ssp_filter_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type_lists),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_time_window),
		cmocka_unit_test(test_netdev_interesting),
		cmocka_unit_test(test_funcs_rules_csv),
		cmocka_unit_test(test_funcs_plain_list),
		cmocka_unit_test(test_funcs_load),
		cmocka_unit_test(test_funcs_errors),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_reason_order),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_writer_meta_and_schema),
		cmocka_unit_test(test_run_damaged),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
