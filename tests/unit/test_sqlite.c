/*
 * Span streams into SQLite: the schema against the span kinds, attribute
 * encoding, the span -> row mapping, latency splits, references that come
 * late or never, bounded caches, newer streams, run names and the
 * copy-on-write file handling.
 */
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

#include "io/in.h"
#include "io/out.h"
#include "sqlite/sqlite.h"
#include "sqlite/sqlite_direct.h"
#include "stream/span.h"

#define NC SSP_SF_NCOMMON

static char dir[200];	/* this process's own, so that loads running at
			 * once (make check in two trees) do not wait for
			 * each other's lock on a shared directory */

static void
remove_dir(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_sqlite: cannot remove %s\n", dir);
}

static char *
tmpname(const char *what)
{
	static char path[4][256];
	static int i;

	if (dir[0] == 0) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/ssp-test-sqlite.XXXXXX",
		    t != NULL && t[0] == '/' && strlen(t) < 150 ? t : "/tmp");
		if (mkdtemp(dir) == NULL) {
			perror(dir);
			exit(1);
		}
		atexit(remove_dir);
	}
	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, what);
	return path[i];
}

/* --- writing test streams ------------------------------------------------ */

struct tw {
	struct ssp_out *o;
	struct ssp_rec_wr *w;
	struct ssp_err e;
};

static const struct ssp_meta std_meta[] = {
	{ "producer", "test" }, { "time-unit", "ps" },
	{ "stream", "host gem5" }, { "stream", "nic nicbm" },
	{ "stream", "net ns3" },
};

static void
tw_open(struct tw *t, const char *path, const struct ssp_schema *s)
{
	assert_int_equal(ssp_out_open(&t->o, path, 0, &t->e), SSP_OK);
	assert_int_equal(ssp_rec_wr_open(&t->w, t->o, ssp_frame_magic_spans, s, std_meta,
	    sizeof(std_meta) / sizeof(std_meta[0]), &t->e), SSP_OK);
}

static void
tw_close(struct tw *t)
{
	assert_int_equal(ssp_rec_wr_close(t->w, &t->e), SSP_OK);
	assert_int_equal(ssp_out_close(t->o, &t->e), SSP_OK);
}

static uint64_t
tw_str(struct tw *t, const char *s)
{
	uint64_t id = ssp_rec_wr_str(t->w, s, strlen(s), &t->e);

	assert_true(id != 0);
	return id;
}

/* A span of a kind (type index); attributes follow as varargs. */
static void
tw_span(struct tw *t, unsigned type, uint64_t id, uint64_t parent,
    uint64_t trace, unsigned stream, int64_t start, int64_t dur, int nattr, ...)
{
	struct ssp_rec r;
	va_list ap;
	int i;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.ts = start;
	r.f[SSP_SF_TRACE_HI] = 0xabc;
	r.f[SSP_SF_TRACE_LO] = trace;
	r.f[SSP_SF_SPAN] = id;
	r.f[SSP_SF_PARENT] = parent;
	r.f[SSP_SF_STREAM] = stream;
	r.f[SSP_SF_DUR] = (uint64_t)dur;
	va_start(ap, nattr);
	for (i = 0; i < nattr; i++)
		r.f[NC + i] = va_arg(ap, uint64_t);
	va_end(ap);
	assert_int_equal(ssp_rec_wr_put(t->w, &r, &t->e), SSP_OK);
}

static void
tw_link(struct tw *t, uint64_t span, uint64_t trace, uint64_t target)
{
	struct ssp_rec r;

	memset(&r, 0, sizeof(r));
	r.type = SSP_SPAN_T_LINK;
	r.f[SSP_LF_SPAN] = span;
	r.f[SSP_LF_TRACE_HI] = 0xabc;
	r.f[SSP_LF_TRACE_LO] = trace;
	r.f[SSP_LF_TARGET] = target;
	r.f[SSP_LF_KIND] = tw_str(t, "nic.rx");
	assert_int_equal(ssp_rec_wr_put(t->w, &r, &t->e), SSP_OK);
}

static void
tw_event(struct tw *t, unsigned evtype, uint64_t span, unsigned stream,
    int64_t ts, int n, ...)
{
	struct ssp_rec r;
	va_list ap;
	int i;

	memset(&r, 0, sizeof(r));
	r.type = SSP_SPAN_T_EV0 + evtype;
	r.ts = ts;
	r.f[SSP_EF_SPAN] = span;
	r.f[SSP_EF_STREAM] = stream;
	va_start(ap, n);
	for (i = 0; i < n; i++)
		r.f[SSP_EF_NCOMMON + i] = va_arg(ap, uint64_t);
	va_end(ap);
	assert_int_equal(ssp_rec_wr_put(t->w, &r, &t->e), SSP_OK);
}

/* --- loading into memory --------------------------------------------- */

static sqlite3 *
mem_db(void)
{
	sqlite3 *db;
	struct ssp_err e = { 0 };

	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(ssp_sqlite_create(db, &e), SSP_OK);
	return db;
}

static int
load(sqlite3 *db, const char *path, const struct ssp_sqlite_opts *o,
    struct ssp_sqlite_stats *st, struct ssp_err *e)
{
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	int r;

	memset(e, 0, sizeof(*e));
	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&rr, in, e), SSP_OK);
	r = ssp_sqlite_load_db(db, rr, o, st, e);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	return r;
}

static int64_t
qi(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	int64_t v;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* All rows of a query as one string, "|" between columns, "\n" after rows. */
static char *
qs(sqlite3 *db, const char *sql)
{
	static char out[65536];
	sqlite3_stmt *s;
	size_t n = 0;
	int c;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	out[0] = '\0';
	while (sqlite3_step(s) == SQLITE_ROW) {
		for (c = 0; c < sqlite3_column_count(s); c++) {
			const char *v = (const char *)sqlite3_column_text(s, c);

			n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s",
			    c ? "|" : "", v != NULL ? v : "NULL");
		}
		n += (size_t)snprintf(out + n, sizeof(out) - n, "\n");
		assert_true(n < sizeof(out));
	}
	sqlite3_finalize(s);
	return out;
}

/* --- tests ------------------------------------------------------------- */

/* Every span kind has an attribute table with a column for every field and
 * a view; the schema's version is what the code reports. */
static void
test_schema_matches_span_kinds(void **state)
{
	const struct ssp_schema *s = ssp_span_schema(0);
	sqlite3 *db = mem_db();
	struct ssp_err e = { 0 };
	unsigned k, f;
	char sql[256], table[64], *p;

	(void)state;
	assert_int_equal(ssp_sqlite_schema_version(), 2);
	assert_int_equal(qi(db, "PRAGMA user_version"), 2);
	for (k = 0; k < SSP_SK_NKINDS; k++) {
		const struct ssp_rec_type *t = &s->types[k];

		snprintf(table, sizeof(table), "%s", t->name);
		for (p = table; *p; p++)
			if (*p == '.')
				*p = '_';
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM pragma_table_info"
		    "('attr_%s')", table);
		assert_int_equal(qi(db, sql), t->nf - NC + 1);	/* + span */
		for (f = NC; f < t->nf; f++) {
			snprintf(sql, sizeof(sql), "SELECT count(*) FROM "
			    "pragma_table_info('attr_%s') WHERE name = '%s'",
			    table, t->f[f].name);
			if (qi(db, sql) != 1)
				fail_msg("attr_%s has no column %s", table,
				    t->f[f].name);
		}
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM sqlite_schema "
		    "WHERE type = 'view' AND name = '%s'", table);
		assert_int_equal(qi(db, sql), 1);
	}
	assert_int_equal(ssp_sqlite_index(db, &e), SSP_OK);
	assert_true(qi(db, "SELECT count(*) FROM sqlite_schema WHERE type = "
	    "'index' AND name LIKE 'spans_%'") >= 4);
	sqlite3_close(db);
}

static void
test_json_encoding(void **state)
{
	static const struct ssp_rec_type t = { "x", 11, { { "skip", 'u' },
	    { "u", 'u' }, { "x", 'x' }, { "absent", 'i' }, { "i", 'i' },
	    { "t", 't' }, { "yes", 'b' }, { "no", 'b' }, { "mac", 'm' },
	    { "ip", 'a' }, { "s", 's' } } };
	static const char want[] = "{\"u\":5,\"x\":-1,\"i\":-7,\"t\":-3,"
	    "\"yes\":true,\"no\":false,\"mac\":\"aa:bb:cc:dd:ee:0f\","
	    "\"ip\":\"10.0.0.255\"}";
	struct ssp_rec r;
	char buf[256];
	size_t n;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.nf = 11;
	r.f[0] = 99;
	r.f[1] = 5;
	r.f[2] = UINT64_MAX;
	r.f[3] = (uint64_t)-1;
	r.f[4] = (uint64_t)-7;
	r.f[5] = (uint64_t)-3;
	r.f[6] = 2;
	r.f[7] = 0;
	r.f[8] = 0xaabbccddee0full;
	r.f[9] = 0x0a0000ff;
	r.f[10] = 3;	/* no reader to resolve it: left out */
	n = ssp_sqlite_json(buf, sizeof(buf), &t, 1, &r, NULL);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
	/* like snprintf: the length it needs, a NUL-terminated prefix */
	n = ssp_sqlite_json(buf, 10, &t, 1, &r, NULL);
	assert_int_equal(n, strlen(want));
	assert_int_equal(strlen(buf), 9);
	assert_int_equal(strncmp(buf, want, 9), 0);
	assert_int_equal(ssp_sqlite_json(NULL, 0, &t, 1, &r, NULL), strlen(want));
	assert_int_equal(ssp_sqlite_json(buf, sizeof(buf), &t, 11, &r, NULL), 2);
	assert_string_equal(buf, "{}");
	/* SQLite reads it back as the same values */
	{
		sqlite3 *db;
		char sql[1200];

		assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
		ssp_sqlite_json(buf, sizeof(buf), &t, 1, &r, NULL);
		snprintf(sql, sizeof(sql), "SELECT json_valid('%s'), '%s' ->> 'x', "
		    "'%s' ->> 'yes', ('%s' ->> 'absent') IS NULL", buf, buf, buf, buf);
		assert_string_equal(qs(db, sql), "1|-1|1|1\n");
		sqlite3_close(db);
	}
}

/*
 * One trace over three streams, its spans out of order, a gap in the
 * middle; hand-computed split.  host: [0,10] [5,20] [30,40]; nic: [15,35];
 * net: [50,60].  Union of all: [0,40] + [50,60] = 50 of 60.
 */
/* Names and strings are JSON-escaped as ssp_strfmt_json_str does it:
 * invalid UTF-8 becomes U+FFFD, also where the escaper cuts long strings. */
static void
test_json_strings(void **state)
{
	static char lng[600];
	static struct ssp_rec_type t = { "x", 3, {
	    { "q\"\\\n\x01\b\f\x7f", 'u' }, { "bad\xff\xc3", 'u' },
	    { lng, 'u' } } };
	char buf[2048], want[2048];
	struct ssp_rec r;
	size_t i;

	(void)state;
	/* 'a's with a two-byte and a four-byte character across the cut */
	memset(lng, 'a', 590);
	memcpy(lng + 255, "\xc3\xa9", 2);
	memcpy(lng + 510, "\xf0\x9f\x98\x80", 4);
	lng[590] = '\0';
	memset(&r, 0, sizeof(r));
	r.nf = 3;
	for (i = 0; i < 3; i++)
		r.f[i] = i;
	snprintf(want, sizeof(want), "{\"q\\\"\\\\\\n\\u0001\\u0008\\u000c"
	    "\\u007f\":0,"
	    "\"bad\xef\xbf\xbd\xef\xbf\xbd\":1,\"%s\":2}", lng);
	assert_int_equal(ssp_sqlite_json(buf, sizeof(buf), &t, 0, &r, NULL),
	    strlen(want));
	assert_string_equal(buf, want);
}

static void
test_spans_rows_and_split(void **state)
{
	const char *path = tmpname("split.sp");
	struct ssp_sqlite_opts o = { .run = "r", .source = "x.sp" };
	struct ssp_sqlite_stats st;
	struct ssp_err e;
	struct tw t;
	sqlite3 *db = mem_db();

	(void)state;
	tw_open(&t, path, ssp_span_schema(0));
	tw_span(&t, SSP_SK_HOST_SYSCALL, 1, 0, 1, 0, 0, 10, 8, tw_str(&t, "cpu0"),
	    tw_str(&t, "entry_SYSCALL_64"), tw_str(&t, "__sys_sendto"),
	    (uint64_t)3, (uint64_t)1, (uint64_t)0, (uint64_t)0, (uint64_t)1);
	tw_span(&t, SSP_SK_HOST_MMIO, 2, 1, 1, 0, 5, 15, 8, tw_str(&t, "pc.sb0"),
	    (uint64_t)1, (uint64_t)0xc0508000, (uint64_t)4, (uint64_t)7,
	    (uint64_t)-1, (uint64_t)0x108000, (uint64_t)-1);
	tw_span(&t, SSP_SK_NIC_DMA, 4, 2, 1, 1, 15, 20, 4, (uint64_t)0,
	    UINT64_MAX, (uint64_t)0x1000, (uint64_t)64);
	tw_span(&t, SSP_SK_HOST_DMA, 3, 4, 1, 0, 30, 10, 5, (uint64_t)0,
	    (uint64_t)0, (uint64_t)5, (uint64_t)0x1000, (uint64_t)64);
	tw_span(&t, SSP_SK_NET_DEVICE, 5, 4, 1, 2, 50, 10, 12, (uint64_t)1,
	    (uint64_t)2, tw_str(&t, "Cosim\"Net\"\n"), (uint64_t)-1,
	    (uint64_t)1, (uint64_t)0, (uint64_t)2, (uint64_t)-1, (uint64_t)0x800,
	    (uint64_t)0xc0a84001, (uint64_t)0xc0a84002, (uint64_t)17);
	tw_close(&t);
	assert_int_equal(load(db, path, &o, &st, &e), SSP_OK);
	assert_true(st.spans == 5 && st.traces == 1 && st.records == 5);
	assert_true(st.kinds[SSP_SK_NIC_DMA] == 1);
	assert_true(st.late == 0 && st.unresolved == 0);

	assert_string_equal(qs(db, "SELECT id, trace, parent, span_id, kind, "
	    "stream, start_ps, dur_ps, end_ps, flags, cause, extra FROM spans"),
	    "1|1|NULL|1|host.syscall|host|0|10|10|0|NULL|NULL\n"
	    "2|1|1|2|host.mmio|host|5|15|20|0|NULL|NULL\n"
	    "3|1|2|4|nic.dma|nic|15|20|35|0|NULL|NULL\n"
	    "4|1|3|3|host.dma|host|30|10|40|0|NULL|NULL\n"
	    "5|1|3|5|net.device|net|50|10|60|0|NULL|NULL\n");
	/* typed attributes; absent (-1, string 0) are NULL; >= 2^63 wraps */
	assert_string_equal(qs(db, "SELECT * FROM attr_host_syscall"),
	    "1|cpu0|entry_SYSCALL_64|__sys_sendto|3|1|0|0|1\n");
	assert_string_equal(qs(db, "SELECT comp, write, addr, size, id, bar, "
	    "offs, posted FROM attr_host_mmio"),
	    "pc.sb0|1|3226501120|4|7|NULL|1081344|NULL\n");
	assert_string_equal(qs(db, "SELECT op, op = 0xffffffffffffffff FROM "
	    "nic_dma"), "-1|1\n");
	assert_string_equal(qs(db, "SELECT devtype, uid, boundary, payload, "
	    "ip_src FROM net_device"),
	    "Cosim\"Net\"\n|NULL|to_adapter|NULL|192.168.64.1\n");
	assert_string_equal(qs(db, "SELECT comp FROM host_dma"), "NULL\n");

	assert_string_equal(qs(db, "SELECT root, root_kind, root_stream, "
	    "start_ps, end_ps, dur_ps, spans, busy_ps, idle_ps FROM traces"),
	    "1|host.syscall|host|0|60|60|5|50|10\n");
	assert_string_equal(qs(db, "SELECT stream, spans, busy_ps FROM "
	    "trace_streams ORDER BY stream"),
	    "host|3|30\nnet|1|10\nnic|1|20\n");
	assert_string_equal(qs(db, "SELECT kind, busy_ps FROM trace_kinds "
	    "ORDER BY kind"),
	    "host.dma|10\nhost.mmio|15\nhost.syscall|10\nnet.device|10\n"
	    "nic.dma|20\n");
	assert_string_equal(qs(db, "SELECT stream, traces, avg_busy_ps, "
	    "printf('%.4f', share) FROM split_streams ORDER BY stream"),
	    "NULL|1|10.0|0.1667\nhost|1|30.0|0.5000\nnet|1|10.0|0.1667\n"
	    "nic|1|20.0|0.3333\n");
	assert_string_equal(qs(db, "SELECT traces, min_ps, p50_ps, max_ps FROM "
	    "latency"), "1|60|60|60\n");
	sqlite3_close(db);
	unlink(path);
}

/* Nearest-rank percentiles on latencies 1..n (x 1000), n = 1..40. */
static void
test_latency_percentiles(void **state)
{
	const char *path = tmpname("pct.sp");
	struct ssp_sqlite_opts o = { 0 };
	struct ssp_sqlite_stats st;
	struct ssp_err e;
	struct tw t;
	unsigned n, i;

	(void)state;
	for (n = 1; n <= 40; n++) {
		sqlite3 *db = mem_db();
		char want[128];
		unsigned p50 = (50 * n + 99) / 100, p90 = (90 * n + 99) / 100,
		    p99 = (99 * n + 99) / 100;

		tw_open(&t, path, ssp_span_schema(0));
		for (i = 0; i < n; i++) {	/* written in scrambled order */
			unsigned v = (i * 7 + 3) % n + 1;

			tw_span(&t, SSP_SK_NIC_TX, i + 1, 0, i + 1, 1,
			    (int64_t)i * 100000, (int64_t)v * 1000, 1, (uint64_t)60);
		}
		tw_close(&t);
		assert_int_equal(load(db, path, &o, &st, &e), SSP_OK);
		snprintf(want, sizeof(want), "%u|1000|%u|%u|%u|%u\n", n,
		    p50 * 1000, p90 * 1000, p99 * 1000, n * 1000);
		/* with n a multiple of 7, values repeat: not 1..n */
		if (n % 7 != 0)
			assert_string_equal(qs(db, "SELECT traces, min_ps, p50_ps, "
			    "p90_ps, p99_ps, max_ps FROM latency"), want);
		sqlite3_close(db);
	}
	unlink(path);
}

/* Children before parents, parents never written, links and events to
 * spans that come later: resolved after the load, or left NULL. */
static void
test_late_and_missing_references(void **state)
{
	const char *path = tmpname("late.sp");
	struct ssp_sqlite_opts o = { .events = 1 };
	struct ssp_sqlite_stats st;
	struct ssp_err e;
	struct tw t;
	sqlite3 *db = mem_db();

	(void)state;
	tw_open(&t, path, ssp_span_schema(1));
	tw_event(&t, SSP_EV_NIC_TX, 11, 1, 5, 1, (uint64_t)60);	/* before span */
	tw_span(&t, SSP_SK_NIC_TX, 11, 10, 1, 1, 5, 0, 1, (uint64_t)60);
	tw_span(&t, SSP_SK_HOST_SYSCALL, 10, 0, 1, 0, 0, 20, 0);
	tw_span(&t, SSP_SK_NIC_RX, 12, 99, 1, 1, 7, 0, 0);	/* 99: never */
	tw_link(&t, 13, 1, 11);		/* span 13 comes later */
	tw_span(&t, SSP_SK_HOST_SYSCALL, 13, 12, 1, 0, 9, 1, 0);
	tw_event(&t, SSP_EV_FUNC, 13, 0, 9, 3, tw_str(&t, "cpu"),
	    tw_str(&t, "a\\b\tc"), tw_str(&t, "vmlinux"));
	tw_close(&t);
	assert_int_equal(load(db, path, &o, &st, &e), SSP_OK);
	assert_true(st.spans == 4 && st.links == 1 && st.events == 2);
	assert_true(st.late == 3);	/* parent of 11, link span, event */
	assert_true(st.unresolved == 1);	/* parent 99 */
	assert_string_equal(qs(db, "SELECT span_id, parent FROM spans"),
	    "11|2\n10|NULL\n12|NULL\n13|3\n");
	assert_string_equal(qs(db, "SELECT span, target, kind, span_id, "
	    "target_span_id, target_trace_id FROM links"),
	    "4|1|nic.rx|13|11|0000000000000abc0000000000000001\n");
	assert_string_equal(qs(db, "SELECT span, ts_ps, type, stream, attrs "
	    "FROM events"),
	    "1|5|nic_tx|nic|{\"len\":60}\n"
	    "4|9|func|host|{\"cpu\":\"cpu\",\"sym\":\"a\\\\b\\tc\",\"table\":"
	    "\"vmlinux\"}\n");
	assert_string_equal(qs(db, "SELECT attrs ->> 'sym' FROM events WHERE "
	    "type = 'func'"), "a\\b\tc\n");
	/* one trace; its root is the span without parent */
	assert_string_equal(qs(db, "SELECT root, root_kind, spans FROM traces"),
	    "2|host.syscall|4\n");
	sqlite3_close(db);
	unlink(path);
}

/* Many concurrent traces whose spans interleave: with caches of one or two
 * entries, evicted spans and traces come back from the database and the
 * result is the same as with the default caches. */
static void
write_interleaved(const char *path)
{
	struct tw t;
	unsigned i, tr, step;
	uint64_t id = 1, last[40];

	tw_open(&t, path, ssp_span_schema(0));
	for (tr = 0; tr < 40; tr++) {
		last[tr] = id;
		tw_span(&t, SSP_SK_HOST_SYSCALL, id++, 0, 1000 + tr, 0,
		    (int64_t)tr * 1000, 5000, 0);
	}
	for (step = 0; step < 12; step++)
		for (i = 0; i < 40; i++) {
			tr = (i * 17 + step) % 40;
			tw_span(&t, step % 2 ? SSP_SK_NIC_DMA : SSP_SK_NET_DEVICE,
			    id, last[tr], 1000 + tr, 1 + step % 2,
			    (int64_t)tr * 1000 + step * 700 + (i % 3) * 50,
			    600 + (int64_t)(i % 5) * 100, 0);
			if (step == 11 && tr > 0)
				tw_link(&t, id, 1000 + tr - 1, last[tr - 1]);
			last[tr] = id++;
		}
	tw_close(&t);
}

static void
dump_all(sqlite3 *db, char *out, size_t n)
{
	snprintf(out, n, "%s", qs(db, "SELECT group_concat(x, ';') FROM (SELECT "
	    "id || ',' || trace || ',' || ifnull(parent, '-') || ',' || span_id || "
	    "',' || start_ps || ',' || dur_ps AS x FROM spans ORDER BY id)"));
	snprintf(out + strlen(out), n - strlen(out), "%s", qs(db, "SELECT "
	    "group_concat(x, ';') FROM (SELECT id || trace_id || root || "
	    "start_ps || end_ps || spans || busy_ps || streams || kinds AS x "
	    "FROM traces ORDER BY id)"));
	snprintf(out + strlen(out), n - strlen(out), "%s", qs(db, "SELECT "
	    "group_concat(span || ',' || target, ';') FROM links"));
}

static void
test_tiny_caches_same_result(void **state)
{
	const char *path = tmpname("inter.sp");
	struct ssp_sqlite_opts big = { 0 }, tiny = { .span_cache = 2,
	    .trace_cache = 1 }, split = { .split_mem = 40 };
	struct ssp_sqlite_stats a, b, c;
	struct ssp_err e;
	static char da[65536], dbuf[65536], dc[65536];
	sqlite3 *d1 = mem_db(), *d2 = mem_db(), *d3 = mem_db();

	(void)state;
	write_interleaved(path);
	assert_int_equal(load(d1, path, &big, &a, &e), SSP_OK);
	assert_int_equal(load(d2, path, &tiny, &b, &e), SSP_OK);
	assert_true(a.late == 0);
	assert_true(b.late > 100);	/* the slow path was taken */
	assert_true(a.spans == 520 && b.spans == 520 && a.traces == 40 &&
	    b.traces == 40 && a.links == 39 && b.links == 39);
	assert_true(b.unresolved == 0);
	dump_all(d1, da, sizeof(da));
	dump_all(d2, dbuf, sizeof(dbuf));
	assert_string_equal(da, dbuf);
	assert_int_equal(qi(d1, "SELECT count(*) FROM traces WHERE busy_ps IS "
	    "NULL OR streams IS NULL"), 0);
	/* 40 slots over all cached traces: most splits come from the
	 * database at the end, with the same result */
	assert_int_equal(load(d3, path, &split, &c, &e), SSP_OK);
	assert_true(a.resplit == 0);
	assert_true(c.resplit > 10 && c.resplit < 40);
	dump_all(d3, dc, sizeof(dc));
	assert_string_equal(da, dc);
	sqlite3_close(d1);
	sqlite3_close(d2);
	sqlite3_close(d3);
	unlink(path);
}

/* A stream from a newer evspan: a field appended to a known kind, a new
 * kind, a new event type, a record type that is not a span at all. */
static void
test_newer_stream(void **state)
{
	const char *path = tmpname("newer.sp");
	const struct ssp_schema *std = ssp_span_schema(1);
	struct ssp_rec_type types[SSP_SPAN_T_EV0 + SSP_EV_NTYPES + 3];
	struct ssp_schema s;
	struct ssp_sqlite_opts o = { .events = 1 };
	struct ssp_sqlite_stats st;
	struct ssp_rec r;
	struct ssp_err e;
	struct tw t;
	sqlite3 *db = mem_db();
	unsigned nt = std->ntypes;

	(void)state;
	memcpy(types, std->types, nt * sizeof(types[0]));
	/* nic.tx gains "queue"; nic.foo is new; ev.newthing; "weird" */
	types[SSP_SK_NIC_TX].f[types[SSP_SK_NIC_TX].nf++] =
	    (struct ssp_field){ "queue", 'u' };
	types[nt] = types[SSP_SK_NIC_TX];
	types[nt].name = "nic.foo";
	types[nt].nf = NC + 1;
	types[nt].f[NC] = (struct ssp_field){ "bar", 's' };
	types[nt + 1] = (struct ssp_rec_type){ "ev.newthing", 3, { { "span", 'x' },
	    { "stream", 'u' }, { "level", 'i' } } };
	types[nt + 2] = (struct ssp_rec_type){ "weird", 1, { { "x", 'x' } } };
	s.ntypes = nt + 3;
	s.types = types;
	tw_open(&t, path, &s);
	tw_span(&t, SSP_SK_NIC_TX, 1, 0, 1, 1, 0, 5, 2, (uint64_t)60,
	    (uint64_t)7);
	tw_span(&t, nt, 2, 1, 1, 1, 1, 1, 1, tw_str(&t, "baz"));
	memset(&r, 0, sizeof(r));
	r.type = nt + 1;
	r.f[0] = 2;
	r.f[1] = 1;
	r.f[2] = (uint64_t)-5;
	assert_int_equal(ssp_rec_wr_put(t.w, &r, &t.e), SSP_OK);
	r.type = nt + 2;
	assert_int_equal(ssp_rec_wr_put(t.w, &r, &t.e), SSP_OK);
	tw_close(&t);
	assert_int_equal(load(db, path, &o, &st, &e), SSP_OK);
	assert_true(st.spans == 2 && st.other_kinds == 1 && st.events == 1 &&
	    st.unknown == 1 && st.records == 4);
	assert_string_equal(qs(db, "SELECT kind, extra FROM spans"),
	    "nic.tx|{\"queue\":7}\nnic.foo|{\"bar\":\"baz\"}\n");
	assert_string_equal(qs(db, "SELECT len FROM nic_tx"), "60\n");
	assert_string_equal(qs(db, "SELECT span, type, attrs FROM events"),
	    "2|newthing|{\"level\":-5}\n");
	sqlite3_close(db);
	unlink(path);
}

static void
test_bad_stream_index(void **state)
{
	const char *path = tmpname("bad.sp");
	struct ssp_sqlite_opts o = { 0 };
	struct ssp_sqlite_stats st;
	struct ssp_err e;
	struct tw t;
	sqlite3 *db = mem_db();

	(void)state;
	tw_open(&t, path, ssp_span_schema(0));
	tw_span(&t, SSP_SK_NIC_TX, 1, 0, 1, 9, 0, 5, 1, (uint64_t)60);
	tw_close(&t);
	assert_int_equal(load(db, path, &o, &st, &e), SSP_ERR_FORMAT);
	assert_non_null(strstr(e.msg, "offset"));
	assert_non_null(strstr(e.msg, "stream 9"));
	assert_non_null(strstr(e.msg, "bad.sp"));
	sqlite3_close(db);
	unlink(path);
}

static void
test_run_names(void **state)
{
	const char *path = tmpname("names.sp");
	struct ssp_sqlite_opts o = { .source = "/x/y/spans.sp.zst",
	    .now = 1700000000 };
	struct ssp_sqlite_stats st;
	struct ssp_err e;
	struct tw t;
	sqlite3 *db = mem_db();

	(void)state;
	tw_open(&t, path, ssp_span_schema(0));
	tw_span(&t, SSP_SK_NIC_TX, 1, 0, 1, 1, 0, 5, 1, (uint64_t)60);
	tw_close(&t);
	assert_int_equal(load(db, path, &o, &st, &e), SSP_OK);
	assert_string_equal(st.run_name, "spans.sp.zst@2023-11-14T22:13:20Z");
	assert_int_equal(load(db, path, &o, &st, &e), SSP_OK);
	assert_string_equal(st.run_name, "spans.sp.zst@2023-11-14T22:13:20Z#2");
	assert_true(st.run == 2);
	o.source = "-";
	assert_int_equal(load(db, path, &o, &st, &e), SSP_OK);
	assert_string_equal(st.run_name, "stdin@2023-11-14T22:13:20Z");
	o.run = "mine";
	assert_int_equal(load(db, path, &o, &st, &e), SSP_OK);
	assert_int_equal(load(db, path, &o, &st, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "'mine' already exists"));
	assert_string_equal(qs(db, "SELECT group_concat(id || ':' || spans, ' ') "
	    "FROM runs"), "1:1 2:1 3:1 4:1\n");
	/* each run's span numbers follow the previous run's */
	assert_string_equal(qs(db, "SELECT group_concat(id || ':' || run, ' ') "
	    "FROM spans"), "1:1 2:2 3:3 4:4\n");
	sqlite3_close(db);
	unlink(path);
}

static int
same_file(const char *a, const char *b)
{
	FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
	int ca = 0, cb = 0, same = f != NULL && g != NULL;

	while (same && (ca != EOF || cb != EOF)) {
		ca = getc(f);
		cb = getc(g);
		same = ca == cb;
	}
	if (f != NULL)
		fclose(f);
	if (g != NULL)
		fclose(g);
	return same;
}

static void
test_file_copy_on_write(void **state)
{
	const char *sp = tmpname("cow.sp"), *dbp = tmpname("cow.db");
	const char *copy = tmpname("cow.copy");
	struct ssp_sqlite_opts o = { 0 };
	struct ssp_sqlite_stats st;
	struct ssp_sqlite *d;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_err e;
	struct stat sb;
	struct tw t;
	char cmd[400], tmp[200];
	int i;

	(void)state;
	unlink(dbp);
	tw_open(&t, sp, ssp_span_schema(0));
	tw_span(&t, SSP_SK_NIC_TX, 1, 0, 1, 1, 0, 5, 1, (uint64_t)60);
	tw_close(&t);
	for (i = 0; i < 3; i++) {
		assert_int_equal(ssp_sqlite_open(&d, dbp, &e), SSP_OK);
		snprintf(tmp, sizeof(tmp), "%s", ssp_sqlite_tmp_path(d));
		assert_int_equal(stat(tmp, &sb), 0);
		assert_int_equal(ssp_in_open(&in, sp, 0, NULL, &e), SSP_OK);
		assert_int_equal(ssp_span_reader_open(&rr, in, &e), SSP_OK);
		assert_int_equal(ssp_sqlite_load(d, rr, &o, &st, &e), SSP_OK);
		ssp_rec_rd_close(rr);
		ssp_in_close(in);
		if (i == 1) {	/* abandoned: the database stays as it was */
			ssp_sqlite_abort(d);
			assert_true(same_file(dbp, copy));
		} else {
			assert_int_equal(ssp_sqlite_commit(d, &e), SSP_OK);
			snprintf(cmd, sizeof(cmd), "cp %s %s", dbp, copy);
			assert_int_equal(system(cmd), 0);
		}
		assert_int_equal(stat(tmp, &sb), -1);	/* gone */
	}
	{
		sqlite3 *db;

		assert_int_equal(sqlite3_open(dbp, &db), SQLITE_OK);
		assert_int_equal(qi(db, "SELECT count(*) FROM runs"), 2);
		assert_int_equal(qi(db, "SELECT count(*) FROM spans"), 2);
		sqlite3_close(db);
	}
	assert_int_equal(ssp_sqlite_open(&d, "/nonexistent-dir/x.db", &e),
	    SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "nonexistent-dir"));
	assert_int_equal(ssp_sqlite_open(&d, "", &e), SSP_ERR_INVAL);
	unlink(dbp);
	unlink(copy);
	unlink(sp);
}


/* --- direct writing against INSERTs ---------------------------------------- */

static uint64_t
xrnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * n spans of every kind in many interleaved traces, every attribute field
 * filled by its encoding (absent values too), orphans with causes that
 * come in no particular order, open and background flags, links (also to
 * spans that never come), member events before and after their span,
 * parents that come late or never.
 */
static void
write_mixed_seed(const char *path, unsigned n, uint64_t seed, int longcause)
{
	static char big[3001];
	const char *causes[] = { "net.device", "host.mmio", "nic.rx", "a",
	    "host.dma.x" };
	const struct ssp_schema *sch = ssp_span_schema(1);
	uint64_t x = seed, id;
	struct ssp_rec r;
	struct tw t;
	unsigned i, k;

	if (longcause) {	/* index entries with overflow pages */
		memset(big, 'z', sizeof(big) - 1);
		causes[3] = big;
	}
	tw_open(&t, path, sch);
	for (i = 0; i < n; i++) {
		unsigned kind = (unsigned)(xrnd(&x) % SSP_SK_NKINDS);
		const struct ssp_rec_type *ty = &sch->types[kind];
		uint64_t tr = xrnd(&x) % 300;

		id = i + 1;
		memset(&r, 0, sizeof(r));
		r.type = kind;
		r.ts = (int64_t)(i * 1000 + xrnd(&x) % 5000) - (i % 50 == 0 ?
		    1000000 : 0);
		r.f[SSP_SF_TRACE_HI] = tr % 7 == 0 ? 0xffffffffffffffffull : tr;
		r.f[SSP_SF_TRACE_LO] = tr * 0x100000001ull;
		r.f[SSP_SF_SPAN] = i % 97 == 0 ? 0x8000000000000000ull + id : id;
		r.f[SSP_SF_PARENT] = i % 5 == 0 || i < 10 ? 0 : i % 41 == 0 ?
		    id + 3 : i % 43 == 0 ? 999999999 : id - 1 - xrnd(&x) % 9;
		r.f[SSP_SF_STREAM] = xrnd(&x) % 3;
		r.f[SSP_SF_DUR] = i % 61 == 0 ? 0 : xrnd(&x) % 100000;
		r.f[SSP_SF_FLAGS] = i % 7 == 0 ? 1 : i % 11 == 0 ? 2 :
		    i % 13 == 0 ? 5 : 0;
		if (r.f[SSP_SF_FLAGS] & 1 && i % 3 != 0)
			r.f[SSP_SF_CAUSE] = tw_str(&t, causes[(i / 7) % 5]);
		for (k = NC; k < ty->nf; k++) {
			uint64_t v = xrnd(&x);

			switch (ty->f[k].enc) {
			case SSP_ENC_S:
				r.f[k] = v % 4 == 0 ? 0 : tw_str(&t,
				    causes[v % 5]);
				break;
			case SSP_ENC_B: r.f[k] = v & 1; break;
			case SSP_ENC_I: r.f[k] = v % 3 == 0 ? (uint64_t)-1 : v % 1000; break;
			case SSP_ENC_A: r.f[k] = v & 0xffffffff; break;
			case SSP_ENC_M: r.f[k] = v & 0xffffffffffffull; break;
			default: r.f[k] = v % 5 == 0 ? v : v % 70000;
			}
		}
		assert_int_equal(ssp_rec_wr_put(t.w, &r, &t.e), SSP_OK);
		if (i % 9 == 0)
			tw_link(&t, id, tr, i % 27 == 0 ? 77777777 : id / 2 + 1);
		if (i % 4 == 0)
			tw_event(&t, SSP_EV_NIC_TX, i % 8 == 0 ? id : id + 2,
			    (unsigned)(i % 3), (int64_t)i * 10, 1, (uint64_t)i);
	}
	tw_close(&t);
}

static void
write_mixed(const char *path, unsigned n)
{
	write_mixed_seed(path, n, 0x9e3779b97f4a7c15ull, 0);
}

/* Load sp into dbp (appended when it exists). */
static void
file_append(const char *dbp, const char *sp, struct ssp_sqlite_opts *o,
    struct ssp_sqlite_stats *st)
{
	struct ssp_sqlite *d;
	struct ssp_in *in;
	struct ssp_rec_rd *rr;
	struct ssp_err e = { 0 };

	if (ssp_sqlite_open(&d, dbp, &e) != SSP_OK)
		fail_msg("open: %s", e.msg);
	assert_int_equal(ssp_in_open(&in, sp, 0, NULL, &e), SSP_OK);
	assert_int_equal(ssp_span_reader_open(&rr, in, &e), SSP_OK);
	if (ssp_sqlite_load(d, rr, o, st, &e) != SSP_OK)
		fail_msg("load: %s", e.msg);
	ssp_rec_rd_close(rr);
	ssp_in_close(in);
	if (ssp_sqlite_commit(d, &e) != SSP_OK)
		fail_msg("commit: %s", e.msg);
}

/* Load sp into a new database dbp. */
static void
file_load(const char *dbp, const char *sp, struct ssp_sqlite_opts *o,
    struct ssp_sqlite_stats *st)
{
	unlink(dbp);
	file_append(dbp, sp, o, st);
}

/* All rows of a query, each value with its type, in a malloc'd string. */
static char *
qdump(sqlite3 *db, const char *sql)
{
	size_t cap = 1 << 16, n = 0;
	char *out = malloc(cap);
	sqlite3_stmt *s;
	int c;

	assert_non_null(out);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	out[0] = '\0';
	while (sqlite3_step(s) == SQLITE_ROW) {
		for (c = 0; c < sqlite3_column_count(s); c++) {
			int type = sqlite3_column_type(s, c);
			const char *v = (const char *)sqlite3_column_text(s, c);
			size_t k = v != NULL ? strlen(v) : 0;

			while (n + k + 8 > cap) {
				cap *= 2;
				assert_non_null(out = realloc(out, cap));
			}
			n += (size_t)snprintf(out + n, cap - n, "%s%d:%s",
			    c ? "|" : "", type, v != NULL ? v : "");
		}
		out[n++] = '\n';
		out[n] = '\0';
	}
	sqlite3_finalize(s);
	return out;
}

static void
same_rows(sqlite3 *da, sqlite3 *db, const char *sql)
{
	char *a = qdump(da, sql), *b = qdump(db, sql);

	if (strcmp(a, b) != 0)
		fail_msg("%s: differs", sql);
	free(a);
	free(b);
}

/* Every table row by row, typed, and the views: the same in both. */
static void
compare_dbs(const char *a, const char *b)
{
	static const char *const extra[] = { "SELECT * FROM latency",
	    "SELECT * FROM split_streams", "SELECT * FROM split_kinds",
	    "SELECT * FROM orphans", "SELECT * FROM span_kinds",
	    "SELECT * FROM net_device ORDER BY id",
	    ("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name "
	    "NOT LIKE 'sqlite_stat%' ORDER BY name") };
	sqlite3 *da, *db;
	sqlite3_stmt *s;
	char sql[200];
	size_t i;

	assert_int_equal(sqlite3_open(a, &da), SQLITE_OK);
	assert_int_equal(sqlite3_open(b, &db), SQLITE_OK);
	assert_string_equal(qs(da, "PRAGMA integrity_check"), "ok\n");
	assert_string_equal(qs(db, "PRAGMA integrity_check"), "ok\n");
	assert_int_equal(sqlite3_prepare_v2(da, "SELECT name FROM sqlite_schema "
	    "WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", -1, &s, NULL),
	    SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		snprintf(sql, sizeof(sql), "SELECT rowid, * FROM \"%s\" ORDER BY "
		    "rowid", (const char *)sqlite3_column_text(s, 0));
		same_rows(da, db, sql);
	}
	sqlite3_finalize(s);
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		same_rows(da, db, extra[i]);
	sqlite3_close(da);
	sqlite3_close(db);
}

/* A new database written directly holds what INSERTs would have written:
 * default caches, tiny caches (evicted traces, late references), and
 * index keys spilled to a file. */
static void
test_direct_same_as_sql(void **state)
{
	const char *sp = tmpname("mixed.sp"), *da = tmpname("direct.db");
	const char *db = tmpname("sql.db");
	struct ssp_sqlite_opts o[3] = {
		{ .events = 1, .now = 1700000000 },
		{ .events = 1, .now = 1700000000, .span_cache = 50,
		    .trace_cache = 20, .sort_mem = 1 },
		{ .events = 0, .now = 1700000000, .trace_cache = 3 },
	};
	struct ssp_sqlite_stats st;
	unsigned i;

	(void)state;
	write_mixed(sp, 3000);
	for (i = 0; i < 3; i++) {
		o[i].source = sp;
		o[i].sql_only = 0;
		file_load(da, sp, &o[i], &st);
		assert_true(st.direct);
		assert_true(st.spans == 3000 && st.links > 300);
		assert_true(st.late > 0 && st.unresolved > 0);
		o[i].sql_only = 1;
		file_load(db, sp, &o[i], &st);
		assert_false(st.direct);
		compare_dbs(da, db);
	}
	unlink(sp);
	unlink(da);
	unlink(db);
}

/* The pages of database file path, and how many of them are free. */
static void
pages_free(const char *path, int64_t *pages, int64_t *free_pages)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	*pages = qi(db, "PRAGMA page_count");
	*free_pages = qi(db, "PRAGMA freelist_count");
	sqlite3_close(db);
}

/*
 * Appending writes the new rows into the existing trees directly (tables
 * at their right edge, indexes merged): the same rows and index contents
 * as INSERTs, onto a database written directly and onto one written with
 * INSERTs, over several runs: keys that interleave with the old ones
 * (the same spans again, other spans), small caches, index keys spilled,
 * index entries with overflow pages (long orphan causes), a small run.
 * New pages go into the pages an append frees: none are left free, and
 * the file takes no more pages than with INSERTs.
 */
static void
test_append_same_as_sql(void **state)
{
	char sa[96], sb[96], sc[96], da[96], db[96];	/* tmpname() has 4 */
	int64_t pa, fa, pb, fb;
	struct ssp_sqlite_opts o[4] = {
		{ .events = 1, .now = 1700000000 },
		{ .events = 1, .now = 1700000000, .span_cache = 50,
		    .trace_cache = 20, .sort_mem = 1 },
		{ .events = 0, .now = 1700000000, .trace_cache = 3 },
		{ .events = 1, .now = 1700000000 },
	};
	const char *in[4];
	struct ssp_sqlite_stats st;
	unsigned base, i;

	(void)state;
	snprintf(sa, sizeof(sa), "%s", tmpname("a.sp"));
	snprintf(sb, sizeof(sb), "%s", tmpname("b.sp"));
	snprintf(sc, sizeof(sc), "%s", tmpname("c.sp"));
	snprintf(da, sizeof(da), "%s", tmpname("dappend.db"));
	snprintf(db, sizeof(db), "%s", tmpname("sappend.db"));
	write_mixed(sa, 3000);
	write_mixed_seed(sb, 2500, 0x1234567890abcdefull, 1);
	write_mixed_seed(sc, 40, 77, 1);
	in[0] = sb;
	in[1] = sa;
	in[2] = sc;
	in[3] = sb;
	for (base = 0; base < 2; base++) {	/* written directly, by SQL */
		struct ssp_sqlite_opts ob = { .events = 1, .now = 1700000000,
		    .source = sa, .sql_only = base };

		file_load(da, sa, &ob, &st);
		ob.sql_only = 1;
		file_load(db, sa, &ob, &st);
		for (i = 0; i < 4; i++) {
			o[i].source = in[i];
			o[i].sql_only = 0;
			file_append(da, in[i], &o[i], &st);
			assert_true(st.direct);
			o[i].sql_only = 1;
			file_append(db, in[i], &o[i], &st);
			assert_false(st.direct);
			compare_dbs(da, db);
			pages_free(da, &pa, &fa);
			pages_free(db, &pb, &fb);
			print_message("append %u: %lld pages, %lld free; with "
			    "INSERTs %lld, %lld free\n", i, (long long)pa,
			    (long long)fa, (long long)pb, (long long)fb);
			/* new pages went into the free ones: none left over
			 * appends, and no more pages than INSERTs take */
			assert_true(fa <= 4);
			assert_true(pa <= pb);
		}
	}
	unlink(sa);
	unlink(sb);
	unlink(sc);
	unlink(da);
	unlink(db);
}

static struct ssp_btree_val
bv_int(int64_t i)
{
	return (struct ssp_btree_val){ SQLITE_INTEGER, i, NULL, 0 };
}

static struct ssp_btree_val
bv_text(const char *p)
{
	return (struct ssp_btree_val){ SQLITE_TEXT, 0, p, strlen(p) };
}

/*
 * The direct writer takes the column order from the table SQLite created,
 * not from a copy of the schema: spans with its columns in another order
 * gets the same rows, and its indexes (a partial one too) are built from
 * sorted keys, none left to REINDEX.
 */
static void
test_direct_layout_from_schema(void **state)
{
	static const char *const kinds[] = { "k.b", "k.a" };
	static const char *const streams[] = { "s1", "s0" };
	static const char *const noattr[] = { NULL, NULL };
	const char *path = tmpname("layout.db");
	const char *ix = strstr(ssp_sqlite_schema, "-- span2sqlite: indexes");
	const char *const *re;
	struct ssp_btree_val v[SSP_SQLITE_DIRECT_NVALS];
	struct ssp_sqlite_direct *w;
	struct ssp_err e = { 0 };
	char cause[8];
	sqlite3 *db;
	int64_t row;

	(void)state;
	unlink(path);
	assert_non_null(ix);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = OFF; BEGIN",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(ssp_sqlite_create(db, &e), SSP_OK);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE spans; CREATE TABLE "
	    "spans (extra TEXT, cause TEXT, flags INTEGER, id INTEGER PRIMARY "
	    "KEY, dur_ps INTEGER, start_ps INTEGER, end_ps INTEGER GENERATED "
	    "ALWAYS AS (start_ps + dur_ps) VIRTUAL, stream TEXT, kind TEXT, "
	    "span_id INTEGER, parent INTEGER, trace INTEGER, run INTEGER)",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(ssp_sqlite_direct_plan(&w, db, noattr, 2, &e), 1);
	assert_int_equal(sqlite3_exec(db, ix, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(ssp_sqlite_direct_indexes(w, db), SSP_OK);
	assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(ssp_sqlite_direct_open(w, path, kinds, streams, 2,
	    1 << 20), SSP_OK);
	for (row = 1; row <= 300; row++) {
		int ft = (int)(row % 2);

		snprintf(cause, sizeof(cause), "c%d", (int)(row % 5));
		v[0] = (struct ssp_btree_val){ SQLITE_NULL, 0, NULL, 0 };
		v[1] = bv_int(1);
		v[2] = bv_int(row % 7 + 1);
		v[3] = row > 1 ? bv_int(row - 1) : v[0];
		v[4] = bv_int(1000 + row);
		v[5] = bv_text(kinds[ft]);
		v[6] = bv_text(streams[ft]);
		v[7] = bv_int(row * 10);
		v[8] = bv_int(300 - row);
		v[9] = bv_int(row % 3 == 0);
		v[10] = row % 3 == 0 ? bv_text(cause) : v[0];
		v[11] = v[0];
		assert_int_equal(ssp_sqlite_direct_row(w, SSP_SQLITE_DIRECT_SPANS,
		    row, v, ft, (uint32_t)ft), SSP_OK);
	}
	assert_int_equal(ssp_sqlite_direct_finish(w), SSP_OK);
	assert_int_equal(ssp_sqlite_direct_reindex(w, &re), 0);
	ssp_sqlite_direct_free(w);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_string_equal(qs(db, "PRAGMA integrity_check"), "ok\n");
	assert_string_equal(qs(db, "SELECT id, run, trace, parent, span_id, "
	    "kind, stream, start_ps, dur_ps, end_ps, flags, cause, extra FROM "
	    "spans WHERE id <= 3"),
	    "1|1|2|NULL|1001|k.a|s0|10|299|309|0|NULL|NULL\n"
	    "2|1|3|1|1002|k.b|s1|20|298|318|0|NULL|NULL\n"
	    "3|1|4|2|1003|k.a|s0|30|297|327|1|c3|NULL\n");
	assert_int_equal(qi(db, "SELECT count(*) FROM spans INDEXED BY "
	    "spans_orphans WHERE flags & 1 AND run = 1 AND kind = 'k.b' AND "
	    "cause = 'c1'"), 10);
	sqlite3_close(db);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_matches_span_kinds),
		cmocka_unit_test(test_json_encoding),
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_spans_rows_and_split),
		cmocka_unit_test(test_latency_percentiles),
		cmocka_unit_test(test_late_and_missing_references),
		cmocka_unit_test(test_tiny_caches_same_result),
		cmocka_unit_test(test_newer_stream),
		cmocka_unit_test(test_bad_stream_index),
		cmocka_unit_test(test_run_names),
		cmocka_unit_test(test_file_copy_on_write),
		cmocka_unit_test(test_direct_same_as_sql),
		cmocka_unit_test(test_append_same_as_sql),
		cmocka_unit_test(test_direct_layout_from_schema),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
