/*
 * The load of a span stream into a database (lib/sqlite/load): the span
 * -> row mapping by named column, latency splits, references that come
 * late or never, bounded caches that grow, newer streams, run names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sqlite_helpers.h"

static void
test_spans_rows_and_split(void **state)
{
	const char *path = tmpname("split.sp");
	struct ssp_load_opts o = { .run = "r", .source = "x.sp" };
	struct ssp_load_stats st;
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
	struct ssp_load_opts o = { 0 };
	struct ssp_load_stats st;
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
	struct ssp_load_opts o = { .events = 1 };
	struct ssp_load_stats st;
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
	struct ssp_load_opts big = { 0 }, tiny = { .span_cache = 2,
	    .trace_cache = 1 }, split = { .split_mem = 40 };
	struct ssp_load_stats a, b, c;
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
	struct ssp_load_opts o = { .events = 1 };
	struct ssp_load_stats st;
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
	struct ssp_load_opts o = { 0 };
	struct ssp_load_stats st;
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
	struct ssp_load_opts o = { .source = "/x/y/spans.sp.zst",
	    .now = 1700000000 };
	struct ssp_load_stats st;
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

/*
 * The caches start small and grow (a load of a few thousand spans takes a
 * few hundred KiB): a stream with more spans and traces than the first
 * sizes loads as with caches made full size from the start, nothing
 * evicted, nothing resolved late.
 */
static void
test_caches_grow(void **state)
{
	const char *path = tmpname("grow.sp");
	struct ssp_load_opts grown = { 0 }, full = { .span_cache = 1 << 18,
	    .trace_cache = 1 << 15 };
	struct ssp_load_stats a, b;
	struct ssp_err e;
	struct tw t;
	sqlite3 *d1 = mem_db(), *d2 = mem_db();
	static const char *const q[] = { "SELECT * FROM spans ORDER BY id",
	    "SELECT * FROM traces ORDER BY id", "SELECT * FROM attr_nic_tx" };
	uint64_t id;
	size_t i;

	(void)state;
	tw_open(&t, path, ssp_span_schema(0));
	/* 3000 traces of 5 spans (parents come first): past 1 Ki traces and
	 * 4 Ki spans, the first sizes of the caches */
	for (id = 1; id <= 15000; id++)
		tw_span(&t, SSP_SK_NIC_TX, id, id % 5 == 1 ? 0 : id - 1,
		    (id - 1) / 5 + 1, 1, (int64_t)id * 10, 5, 1, (uint64_t)60);
	tw_close(&t);
	assert_int_equal(load(d1, path, &grown, &a, &e), SSP_OK);
	assert_int_equal(load(d2, path, &full, &b, &e), SSP_OK);
	assert_true(a.spans == 15000 && a.traces == 3000);
	assert_true(a.late == 0 && a.resplit == 0 && a.unresolved == 0);
	assert_true(b.late == 0 && b.resplit == 0);
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++)
		same_rows(d1, d2, q[i]);
	assert_int_equal(qi(d1, "SELECT count(*) FROM spans WHERE parent IS NULL"),
	    3000);
	sqlite3_close(d1);
	sqlite3_close(d2);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans_rows_and_split),
		cmocka_unit_test(test_latency_percentiles),
		cmocka_unit_test(test_late_and_missing_references),
		cmocka_unit_test(test_tiny_caches_same_result),
		cmocka_unit_test(test_caches_grow),
		cmocka_unit_test(test_newer_stream),
		cmocka_unit_test(test_bad_stream_index),
		cmocka_unit_test(test_run_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
