/* simsynth scenarios end to end: logs monotonic, the truth exactly the
 * span starts found in the logs, causes before effects by at least the
 * link latency, determinism, padding that never moves the timeline,
 * checkpoint offsets, size targets, zstd output, parameter checks. */
#include <csv.h>
#include <dirent.h>
#include <inttypes.h>
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
#include "stream/span.h"
#include "synth/syndata.h"
#include "synth/syngem5.h"
#include "synth/synsim.h"
#include "synth/synsym.h"

#define MAXROWS 200000

static char dirs[4][64];

static const char *
tmpdir(int i)
{
	snprintf(dirs[i], sizeof(dirs[i]), "/tmp/ssp-test-syn-%d-%d",
	    (int)getpid(), i);
	return dirs[i];
}

static void
rmdir_all(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[512];

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* The whole (decompressed) file. */
static char *
slurp(const char *path, size_t *n)
{
	struct ssp_in *in;
	struct ssp_err e = { 0 };
	size_t cap = 1 << 20, len = 0;
	char *b = malloc(cap + 1);
	ssize_t r;

	assert_non_null(b);
	assert_int_equal(ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, &e), 0);
	for (;;) {
		if (len == cap) {
			cap *= 2;
			b = realloc(b, cap + 1);
			assert_non_null(b);
		}
		r = ssp_in_read(in, b + len, cap - len, &e);
		assert_true(r >= 0);
		if (r == 0)
			break;
		len += (size_t)r;
	}
	ssp_in_close(in);
	b[len] = '\0';
	*n = len;
	return b;
}

static void
scenario(struct ssp_synparams *p)
{
	ssp_synparams_defaults(p);
	p->hosts = 4;
	p->servers = 1;
	p->concurrency = 3;
	p->requests = 12;
	p->interval = 40000000;
	p->bg_to_host = 0.5;
	p->housekeeping = 2;
	p->nonposted = 0.3;
	p->exec_rate = 2;
	p->pcie_lat = 700000;
	p->eth_lat = 300000;
}

static void
run(const struct ssp_synparams *p, const char *dir, struct ssp_synsim_result *res)
{
	struct ssp_err e = { 0 };

	rmdir_all(dir);
	if (ssp_synsim_run(p, dir, res, &e) != SSP_OK)
		fail_msg("ssp_synsim_run: %s", e.msg);
}

/* --- the truth file ------------------------------------------------------ */

struct trow {
	uint64_t id, parent;
	char stream[32], kind[16], key[48], links[256], rule[24];
	int64_t start;
	int amb;		/* --kernel linux: the ambiguous column */
};

struct tfile {
	struct trow *r;
	size_t n;
	int field;
};

/* Copy, cutting what does not fit (test data is short). */
static void
copy(char *dst, size_t size, const char *v)
{
	size_t n = strlen(v);

	if (n >= size)
		n = size - 1;
	memcpy(dst, v, n);
	dst[n] = '\0';
}

static void
tf_field(void *s, size_t len, void *data)
{
	struct tfile *t = data;
	struct trow *r = &t->r[t->n];
	char v[256];

	if (len >= sizeof(v))
		len = sizeof(v) - 1;
	memcpy(v, s, len);
	v[len] = '\0';
	switch (t->field++) {
	case 0: r->id = strtoull(v, NULL, 10); break;
	case 1: copy(r->stream, sizeof(r->stream), v); break;
	case 2: copy(r->kind, sizeof(r->kind), v); break;
	case 3: r->start = strtoll(v, NULL, 10); break;
	case 4: copy(r->key, sizeof(r->key), v); break;
	case 5: r->parent = strtoull(v, NULL, 10); break;
	case 6: copy(r->links, sizeof(r->links), v); break;
	case 7: copy(r->rule, sizeof(r->rule), v); break;
	case 8: r->amb = strcmp(v, "1") == 0; break;
	}
}

static void
tf_row(int c, void *data)
{
	struct tfile *t = data;

	(void)c;
	assert_true(t->field == 8 || t->field == 9);
	t->field = 0;
	if (t->r[t->n].id != 0 || t->n > 0)	/* not the header */
		t->n++;
	assert_true(t->n < MAXROWS);
}

static void
load_truth(const char *dir, struct tfile *t)
{
	struct csv_parser p;
	char path[512], *buf;
	size_t n;

	snprintf(path, sizeof(path), "%s/truth.csv", dir);
	buf = slurp(path, &n);
	assert_true(strncmp(buf, "id,stream,kind,start_ps,key,parent_id,links,"
	    "rule_parent_id\r\n", 56) == 0);
	memset(t, 0, sizeof(*t));
	t->r = calloc(MAXROWS, sizeof(*t->r));
	assert_non_null(t->r);
	csv_init(&p, 0);
	assert_int_equal(csv_parse(&p, buf, n, tf_field, tf_row, t), n);
	csv_fini(&p, tf_field, tf_row, t);
	csv_free(&p);
	free(buf);
}

/* --- span starts found in the logs ------------------------------------ */

struct evlist {
	char **s;
	size_t n, cap;
};

static void
ev_add(struct evlist *l, const char *stream, const char *kind, int64_t t,
    const char *key)
{
	char buf[160];

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4096;
		l->s = realloc(l->s, l->cap * sizeof(*l->s));
		assert_non_null(l->s);
	}
	snprintf(buf, sizeof(buf), "%s|%s|%" PRId64 "|%s", stream, kind, t, key);
	l->s[l->n++] = strdup(buf);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int64_t lastmono;

static void
mono(int64_t t, const char *file)
{
	if (t < lastmono)
		fail_msg("%s: time goes back from %" PRId64 " to %" PRId64, file,
		    lastmono, t);
	lastmono = t;
}

static void
scan_gem5(const char *file, const char *stream, const char *buf,
    int64_t off, uint64_t entry, uint64_t error_entry, struct evlist *l)
{
	const char *p = buf, *nl, *m;
	char key[64];

	lastmono = 0;
	for (; *p != '\0'; p = nl + 1) {
		int64_t t = strtoll(p, (char **)&m, 10);

		nl = strchr(p, '\n');
		assert_non_null(nl);
		assert_true(m[0] == ':' && m[1] == ' ');
		mono(t, file);
		t -= off;
		m += 2;
		if (strncmp(m, "system.switch_cpus: A0 T0 : 0x", 30) == 0) {
			const char *q;
			uint64_t pc = strtoull(m + 30, (char **)&q, 16);

			if (strncmp(q, "    :", 5) == 0 && (pc == entry ||
			    pc == error_entry))
				ev_add(l, stream, "host.syscall", t, "");
		} else if (strncmp(m, "system.pc.simbricks_0: simbricks-pci: sending ", 46) == 0) {
			const char *id = strstr(m, " id ");

			assert_non_null(id);
			snprintf(key, sizeof(key), "%llu", strtoull(id + 4, NULL, 10));
			ev_add(l, stream, "host.mmio", t, key);
		} else if (strncmp(m, "system.pc.simbricks_0: simbricks-pci: received DMA ", 51) == 0) {
			const char *id = strstr(m, " id ");

			snprintf(key, sizeof(key), "%llu", strtoull(id + 4, NULL, 10));
			ev_add(l, stream, "host.dma", t, key);
		} else if (strncmp(m, "system.pc.simbricks_0: simbricks-pci: received MSI-X intr vec ", 62) == 0) {
			snprintf(key, sizeof(key), "%lu", strtoul(m + 62, NULL, 10));
			ev_add(l, stream, "host.msix", t, key);
		} else if (strncmp(m, "system.pc.simbricks_0: simbricks-pci: received MSI intr vec ", 60) == 0) {
			snprintf(key, sizeof(key), "%lu", strtoul(m + 60, NULL, 10));
			ev_add(l, stream, "host.msix", t, key);	/* Corundum: MSI */
		} else if (strncmp(m, "system.pc.pci_host: 00:00.0: ", 29) == 0) {
			const char *o = strstr(m, "offset=0x");

			snprintf(key, sizeof(key), "0x%lx", strtoul(o + 9, NULL, 16));
			ev_add(l, stream, "host.pci", t, key);
		} else if (strncmp(m, "system.pc.pci_host.interface[00:04.0]: "
		    "postInt\n", 47) == 0) {
			ev_add(l, stream, "host.intr", t, "");
		}
	}
}

static void
scan_nicbm(const char *file, const char *stream, const char *buf,
    struct evlist *l)
{
	const char *p = buf;
	char key[64];

	lastmono = 0;
	while ((p = strstr(p, "main_time = ")) != NULL) {
		const char *m;
		int64_t t = strtoll(p + 12, (char **)&m, 10);

		if (strncmp(m, ": nicbm: ", 9) != 0) {	/* [Runner ...] main_time = */
			p = m;
			continue;
		}
		mono(t, file);
		m += 9;
		if (strncmp(m, "read(off=0x", 11) == 0 ||
		    strncmp(m, "write(off=0x", 12) == 0) {
			const char *o = strstr(m, "0x");

			snprintf(key, sizeof(key), "0x%lx", strtoul(o + 2, NULL, 16));
			ev_add(l, stream, "nic.mmio", t, key);
		} else if (strncmp(m, "issuing dma op 0x", 17) == 0) {
			snprintf(key, sizeof(key), "0x%llx", strtoull(m + 17, NULL, 16));
			ev_add(l, stream, "nic.dma", t, key);
		} else if (strncmp(m, "eth tx: ", 8) == 0) {
			ev_add(l, stream, "nic.tx", t, "");
		} else if (strncmp(m, "eth rx: ", 8) == 0) {
			ev_add(l, stream, "nic.rx", t, "");
		} else if (strncmp(m, "issue MSI-X interrupt vec ", 26) == 0) {
			snprintf(key, sizeof(key), "%lu", strtoul(m + 26, NULL, 10));
			ev_add(l, stream, "nic.msix", t, key);
		} else if (strncmp(m, "issue MSI interrupt vec ", 24) == 0) {
			snprintf(key, sizeof(key), "%lu", strtoul(m + 24, NULL, 10));
			ev_add(l, stream, "nic.msix", t, key);
		}
		p = m;
	}
}

static void
scan_ns3(const char *file, const char *buf, struct evlist *l)
{
	const char *p = buf, *nl;
	unsigned node, dev;
	uint64_t uid;
	char key[64], type[32], src[40], intr[8];

	lastmono = 0;
	for (; *p != '\0'; p = nl + 1) {
		int64_t t;

		nl = strchr(p, '\n');
		assert_non_null(nl);
		assert_true(p[1] == ' ' && p[2] == ' ');
		t = strtoll(p + 3, NULL, 10);
		mono(t, file);
		if (sscanf(p + 3, "%*d /$ns3::NodeListPriv/NodeList/%u/$ns3::Node/"
		    "DeviceList/%u/$ns3::%31[^/]/%39s Packet-Uid=%" SCNu64
		    " Intersting=%7s", &node, &dev, type, src, &uid, intr) != 6)
			fail_msg("%s: bad line %.80s", file, p);
		assert_int_equal(t % 1000, 0);
		if (p[0] != '+')
			continue;
		if (strcmp(intr, "true") == 0 || (strcmp(type, "CosimNetDevice") == 0 &&
		    strcmp(src, "RxPacketFromNetwork") == 0)) {
			snprintf(key, sizeof(key), "%u/%u/%" PRIu64, node, dev, uid);
			ev_add(l, "net", "net.device", t, key);
		}
	}
}

/* Span starts in all logs of dir, each log checked to be in time order. */
static void
scan_logs(const char *dir, int64_t off, struct evlist *l)
{
	struct ssp_synsym_set *syms;
	struct ssp_err e = { 0 };
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[512], stream[64], *buf, *dot;
	size_t n;

	assert_int_equal(ssp_synsym_new(&syms, &e), 0);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (strstr(de->d_name, ".log") == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		copy(stream, sizeof(stream), de->d_name);
		dot = strchr(stream, '.');
		*dot = '\0';
		buf = slurp(path, &n);
		if (strstr(de->d_name, ".gem5.") != NULL)
			scan_gem5(path, stream, buf, off,
			    ssp_synsym_find(syms, "entry_SYSCALL_64")->addr,
			    ssp_synsym_find(syms, "error_entry")->addr, l);
		else if (strstr(de->d_name, ".nicbm.") != NULL)
			scan_nicbm(path, stream, buf, l);
		else
			scan_ns3(path, buf, l);
		free(buf);
	}
	closedir(d);
	ssp_synsym_free(syms);
}

static void
free_ev(struct evlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
}

/* The truth lists exactly the span starts in the logs: same multiset of
 * (stream, kind, start, key without tie counter). */
static void
check_truth_matches_logs(const char *dir, int64_t off)
{
	struct evlist logs = { 0 }, tr = { 0 };
	struct tfile t;
	size_t i;

	scan_logs(dir, off, &logs);
	load_truth(dir, &t);
	for (i = 0; i < t.n; i++) {
		char key[48], *h;

		snprintf(key, sizeof(key), "%s", t.r[i].key);
		if ((h = strchr(key, '#')) != NULL)
			*h = '\0';
		ev_add(&tr, t.r[i].stream, t.r[i].kind, t.r[i].start, key);
	}
	qsort(logs.s, logs.n, sizeof(*logs.s), cmp_str);
	qsort(tr.s, tr.n, sizeof(*tr.s), cmp_str);
	for (i = 0; i < logs.n && i < tr.n; i++)
		if (strcmp(logs.s[i], tr.s[i]) != 0)
			fail_msg("log has %s, truth has %s", logs.s[i], tr.s[i]);
	assert_int_equal(logs.n, tr.n);
	assert_true(t.n > 500);
	free_ev(&logs);
	free_ev(&tr);
	free(t.r);
}

static void
test_truth_is_the_logs(void **state)
{
	struct ssp_synparams p;
	struct ssp_synsim_result res;

	(void)state;
	scenario(&p);
	run(&p, tmpdir(0), &res);
	assert_int_equal(res.requests_done, p.requests);
	check_truth_matches_logs(tmpdir(0), 0);
	/* every span kind occurs */
	for (unsigned k = 0; k < 12; k++)
		if (res.spans_kind[k] == 0)
			fail_msg("no spans of kind %u", k);
	ssp_synsim_result_free(&res);
	rmdir_all(tmpdir(0));
}

static const struct trow *
by_id(const struct tfile *t, uint64_t id)
{
	/* ids are 1..n in order */
	return id >= 1 && id <= t->n && t->r[id - 1].id == id ? &t->r[id - 1] : NULL;
}

static int
is_nic(const char *stream)
{
	size_t n = strlen(stream);

	return n > 4 && strcmp(stream + n - 4, "-nic") == 0;
}

static void
check_causal(const struct ssp_synparams *pp)
{
	struct ssp_synparams p = *pp;
	struct tfile t;
	size_t i, ndiff = 0, nlinks = 0;

	run(&p, tmpdir(0), NULL);
	load_truth(tmpdir(0), &t);
	for (i = 0; i < t.n; i++) {
		const struct trow *r = &t.r[i], *pr;
		const char *l;
		char *end;

		assert_int_equal(r->id, i + 1);
		if (r->parent != 0) {
			pr = by_id(&t, r->parent);
			if (pr == NULL || pr->id >= r->id)
				fail_msg("span %" PRIu64 ": parent %" PRIu64 " not before",
				    r->id, r->parent);
			assert_true(pr->start <= r->start);
			if (strcmp(pr->stream, r->stream) != 0) {
				/* crossing a link: at least its latency */
				int64_t lat = strcmp(pr->stream, "net") == 0 ||
				    strcmp(r->stream, "net") == 0 ? p.eth_lat :
				    p.pcie_lat;

				if (r->start - pr->start < lat)
					fail_msg("%s %" PRIu64 " only %" PRId64 " ps after "
					    "its cause %" PRIu64, r->kind, r->id,
					    r->start - pr->start, pr->id);
				/* links join neighbours only */
				if (strcmp(r->stream, "net") == 0)
					assert_true(is_nic(pr->stream));
				else if (is_nic(r->stream))
					assert_true(strcmp(pr->stream, "net") == 0 ||
					    strncmp(pr->stream, r->stream,
					    strlen(pr->stream)) == 0);
				else
					assert_true(is_nic(pr->stream));
			}
		}
		for (l = r->links; *l != '\0'; l = end) {
			uint64_t to = strtoull(l, &end, 10);

			assert_true(end != l);
			pr = by_id(&t, to);
			assert_non_null(pr);
			assert_string_equal(pr->kind, "nic.rx");
			assert_true(pr->start < r->start);
			nlinks++;
		}
		if (r->rule[0] != '\0' && p.nic == SSP_SYN_NIC_E1000 &&
		    strcmp(r->kind, "host.intr") == 0) {
			/* INTx: SPEC §3 makes it the current syscall's (or a
			 * root), the real cause is the NIC's work */
			assert_true(is_nic(by_id(&t, r->parent)->stream));
			if (strcmp(r->rule, "root") != 0)
				assert_string_equal(by_id(&t, strtoull(r->rule, NULL,
				    10))->kind, "host.syscall");
			ndiff++;
		} else if (r->rule[0] != '\0') {
			/* only the NIC's "last causing span" can differ */
			assert_true(strcmp(r->kind, "nic.dma") == 0 ||
			    strcmp(r->kind, "nic.tx") == 0 ||
			    strcmp(r->kind, "nic.msix") == 0);
			pr = by_id(&t, strtoull(r->rule, NULL, 10));
			assert_non_null(pr);
			assert_string_equal(pr->stream, r->stream);
			assert_true(pr->start <= r->start);
			ndiff++;
		}
		/* receiving syscalls hang below a NIC rx span */
		if (strcmp(r->kind, "host.syscall") == 0 && r->parent != 0)
			assert_string_equal(by_id(&t, r->parent)->kind, "nic.rx");
	}
	assert_true(nlinks > 0);	/* concurrency 3: some syscalls took more */
	(void)ndiff;
	free(t.r);
	rmdir_all(tmpdir(0));
}

static void
test_truth_consistent_and_causal(void **state)
{
	struct ssp_synparams p;

	(void)state;
	scenario(&p);
	check_causal(&p);
	p.nic = SSP_SYN_NIC_CORUNDUM;
	check_causal(&p);
}

static int has_file(const char *dir, const char *name);

/* --nic e1000: e1000_gem5's E1000_DEBUG log (descriptor batches, INTx),
 * the e1000 symbols and rules, a causal truth with host.intr spans the
 * NIC caused and no MSI-X. */
static void
test_e1000(void **state)
{
	struct ssp_synparams p;
	struct ssp_synsim_result res;
	char path[512], *buf;
	size_t n;

	(void)state;
	scenario(&p);
	p.nic = SSP_SYN_NIC_E1000;
	run(&p, tmpdir(0), &res);
	assert_int_equal(res.requests_done, p.requests);
	assert_true(res.spans_kind[SSP_SK_HOST_INTR] > 0);
	assert_int_equal(res.spans_kind[SSP_SK_NIC_MSIX], 0);
	assert_int_equal(res.spans_kind[SSP_SK_HOST_MSIX], 0);
	assert_int_equal(res.spans_kind[SSP_SK_NIC_DMA],
	    res.spans_kind[SSP_SK_HOST_DMA]);
	ssp_synsim_result_free(&res);
	assert_true(has_file(tmpdir(0), "e1000.syms"));
	assert_false(has_file(tmpdir(0), "i40e.syms"));
	snprintf(path, sizeof(path), "%s/rules.csv", tmpdir(0));
	buf = slurp(path, &n);
	assert_string_equal(buf, ssp_syndata_rules_e1000);
	free(buf);
	snprintf(path, sizeof(path), "%s/commands.sh", tmpdir(0));
	buf = slurp(path, &n);
	assert_non_null(strstr(buf, "-s e1000.syms,e1000,0xffffffffa0000000 "));
	assert_non_null(strstr(buf, "sim2ev -f e1000 -n client0-nic "));
	free(buf);
	snprintf(path, sizeof(path), "%s/client0-nic.e1000.log", tmpdir(0));
	buf = slurp(path, &n);
	assert_non_null(strstr(buf, "warn: enabling debug messages because "
	    "E1000_DEBUG envar set\n"));
	/* the TDT doorbell: context and data descriptor in one fetch, 10 ns
	 * (fetch_delay) after the write */
	assert_non_null(strstr(buf, ": EthernetDesc: [TxDesc] Fetching "
	    "descriptors at 0x"));
	assert_non_null(strstr(buf, "), size: 0x20\n"));
	assert_non_null(strstr(buf, ": EthernetIntr: EINT: Posting interrupt "
	    "to CPU now. Vector 0x800000"));
	assert_non_null(strstr(buf, ": EthernetIntr: EINT: Clearing interrupt "
	    "to CPU now. Vector 0\n"));
	assert_null(strstr(buf, "MSI"));
	free(buf);
	snprintf(path, sizeof(path), "%s/client0.gem5.log", tmpdir(0));
	buf = slurp(path, &n);
	assert_non_null(strstr(buf, ": system.pc.pci_host.interface[00:00.0]: "
	    "postInt\n"));
	free(buf);
	rmdir_all(tmpdir(0));
	scenario(&p);
	p.nic = SSP_SYN_NIC_E1000;
	check_causal(&p);
}

static int
has_file(const char *dir, const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	fclose(f);
	return 1;
}

/* --nic corundum: corundum_bm's logs (MSI, completion and event writes,
 * the TX descriptor's op reused for the payload), the mqnic symbols and
 * rules, and a truth that is the logs. */
static void
test_corundum(void **state)
{
	struct ssp_synparams p;
	struct ssp_synsim_result res;
	char path[512], *buf;
	const char *q;
	size_t n;

	(void)state;
	scenario(&p);
	p.nic = SSP_SYN_NIC_CORUNDUM;
	run(&p, tmpdir(0), &res);
	assert_int_equal(res.requests_done, p.requests);
	check_truth_matches_logs(tmpdir(0), 0);
	for (unsigned k = 0; k < 12; k++)
		if (res.spans_kind[k] == 0)
			fail_msg("no spans of kind %u", k);
	/* every event write raises an MSI: one per frame sent or received */
	assert_int_equal(res.spans_kind[SSP_SK_NIC_MSIX],
	    res.spans_kind[SSP_SK_NIC_TX] + res.spans_kind[SSP_SK_NIC_RX]);
	assert_int_equal(res.spans_kind[SSP_SK_HOST_MSIX],
	    res.spans_kind[SSP_SK_NIC_MSIX]);
	assert_true(has_file(tmpdir(0), "mqnic.syms"));
	assert_false(has_file(tmpdir(0), "i40e.syms"));
	snprintf(path, sizeof(path), "%s/rules.csv", tmpdir(0));
	buf = slurp(path, &n);
	assert_string_equal(buf, ssp_syndata_rules_corundum);
	free(buf);
	snprintf(path, sizeof(path), "%s/commands.sh", tmpdir(0));
	buf = slurp(path, &n);
	assert_non_null(strstr(buf, "-s mqnic.syms,mqnic,0xffffffffa0000000 "));
	free(buf);
	snprintf(path, sizeof(path), "%s/client0-nic.nicbm.log", tmpdir(0));
	buf = slurp(path, &n);
	assert_null(strstr(buf, "MSI-X"));
	/* a TX doorbell, then the descriptor and the payload by one op */
	q = strstr(buf, "write(off=0x200010, len=4, val=0x");
	assert_non_null(q);
	q = strstr(q, "issuing dma op 0x");
	assert_non_null(q);
	{
		char op[32], want[64];
		const char *d;

		snprintf(op, sizeof(op), "%.14s", q + 15);
		d = strstr(q, " len 16 pending");
		assert_non_null(d);
		snprintf(want, sizeof(want), "completed dma read op %s", op);
		d = strstr(d, want);
		assert_non_null(d);
		snprintf(want, sizeof(want), "issuing dma op %s", op);
		assert_non_null(strstr(d, want));
	}
	assert_non_null(strstr(buf, ": nicbm: issue MSI interrupt vec 0\n"));
	free(buf);
	snprintf(path, sizeof(path), "%s/client0.gem5.log", tmpdir(0));
	buf = slurp(path, &n);
	assert_non_null(strstr(buf, "simbricks-pci: received MSI intr vec 0\n"));
	assert_non_null(strstr(buf, "simbricks-pci: MSI addr=fee00000 val=25 "
	    "mask=0\n"));
	assert_null(strstr(buf, "MSI-X"));
	free(buf);
	ssp_synsim_result_free(&res);
	rmdir_all(tmpdir(0));
}

/*
 * --kernel linux: the truth of the kernel contexts holds together.  Every
 * parent exists, is older and of the kind its child needs (host.irq <-
 * host.msix, host.softirq <- host.irq of the same CPU, host.resume <- the
 * waking context, host.mmio <- a context of its host); every host.resume
 * is linked by exactly one suspended syscall; nic.msix links are rx spans
 * of that NIC; identities are unique.  host.app (a client_request entry)
 * is a root keyed by its CPU; a syscall's parent is a host.app of its own
 * host (a request's syscall) or a nic.rx (a receive that did not sleep).
 */
static int
is_ctx(const char *kind)
{
	return strcmp(kind, "host.syscall") == 0 || strcmp(kind, "host.irq") == 0 ||
	    strcmp(kind, "host.softirq") == 0 || strcmp(kind, "host.resume") == 0;
}

static int
cmp_row(const void *a, const void *b)
{
	const struct trow *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static void
check_linux(const char *dir, size_t *nkinds)
{
	struct tfile t;
	size_t i, j, nres = 0, nlinked = 0;
	char **ids;

	load_truth(dir, &t);
	/* rows of syscalls come when they end: put them in id order */
	qsort(t.r, t.n, sizeof(*t.r), cmp_row);
	for (i = 0; i < t.n; i++)
		assert_int_equal(t.r[i].id, i + 1);
	ids = calloc(t.n, sizeof(*ids));
	assert_non_null(ids);
	for (i = 0; i < t.n; i++) {
		const struct trow *r = &t.r[i], *pr = NULL;
		char buf[200];

		snprintf(buf, sizeof(buf), "%s|%s|%" PRId64 "|%s", r->stream,
		    r->kind, r->start, r->key);
		ids[i] = strdup(buf);
		if (strcmp(r->kind, "host.irq") == 0)
			nkinds[0]++;
		else if (strcmp(r->kind, "host.softirq") == 0)
			nkinds[1]++;
		else if (strcmp(r->kind, "host.resume") == 0)
			nkinds[2]++;
		else if (strcmp(r->kind, "host.app") == 0)
			nkinds[4]++;
		nkinds[3] += r->amb;
		if (r->parent != 0) {
			pr = by_id(&t, r->parent);
			if (pr == NULL || pr->id >= r->id || pr->start > r->start)
				fail_msg("span %" PRIu64 ": parent %" PRIu64 " missing "
				    "or not older", r->id, r->parent);
		}
		if (strcmp(r->kind, "host.irq") == 0 && pr != NULL) {
			/* a device irq: its MSI-X; a reschedule IPI (the
			 * default --print real): its sender, on another CPU */
			assert_string_equal(pr->stream, r->stream);
			if (strcmp(pr->kind, "host.msix") != 0) {
				assert_true(strncmp(pr->kind, "host.", 5) == 0);
				assert_string_not_equal(pr->key, r->key);
			}
		}
		if (strcmp(r->kind, "host.softirq") == 0) {
			if (pr == NULL)
				fail_msg("softirq %" PRIu64 " without its irq", r->id);
			assert_string_equal(pr->kind, "host.irq");
			assert_string_equal(pr->key, r->key);
		}
		if (strcmp(r->kind, "host.resume") == 0) {
			assert_non_null(pr);
			assert_true(is_ctx(pr->kind));
			assert_string_equal(pr->stream, r->stream);
			nres++;
		}
		if (strcmp(r->kind, "host.app") == 0) {
			assert_null(pr);	/* a root */
			assert_int_equal(r->amb, 0);
		}
		if (strcmp(r->kind, "host.syscall") == 0 && pr != NULL) {
			if (strcmp(pr->kind, "host.app") == 0)
				assert_string_equal(pr->stream, r->stream);
			else
				assert_string_equal(pr->kind, "nic.rx");
		}
		if (strcmp(r->kind, "host.mmio") == 0) {
			assert_non_null(pr);
			assert_true(is_ctx(pr->kind));
			assert_string_equal(pr->stream, r->stream);
		}
		if (strcmp(r->kind, "host.irq") == 0 || strcmp(r->kind,
		    "host.softirq") == 0 || strcmp(r->kind, "host.resume") == 0 ||
		    strcmp(r->kind, "host.app") == 0)
			assert_true(r->key[0] >= '0' && r->key[0] <= '3' &&
			    r->key[1] == '\0');
		if (r->links[0] != '\0') {
			const char *l;
			char *end;

			for (l = r->links; *l != '\0'; l = end) {
				const struct trow *lr = by_id(&t, strtoull(l, &end, 10));

				assert_true(end != l);
				assert_non_null(lr);
				if (strcmp(r->kind, "host.syscall") == 0 &&
				    strcmp(lr->kind, "host.resume") == 0) {
					assert_string_equal(lr->stream, r->stream);
					assert_true(lr->start > r->start);
					nlinked++;
				} else {
					assert_string_equal(lr->kind, "nic.rx");
					assert_true(lr->start < r->start);
				}
			}
		}
	}
	assert_int_equal(nres, nlinked);
	qsort(ids, t.n, sizeof(*ids), cmp_str);
	for (j = 1; j < t.n; j++)
		if (strcmp(ids[j - 1], ids[j]) == 0)
			fail_msg("two spans are %s", ids[j]);
	for (j = 0; j < t.n; j++)
		free(ids[j]);
	free(ids);
	free(t.r);
}

static void
test_linux_truth(void **state)
{
	static const enum ssp_synparams_flow flows[] = { SSP_SYN_FLOW_UDP_RR,
	    SSP_SYN_FLOW_TCP_RR, SSP_SYN_FLOW_TCP_STREAM };
	struct ssp_synparams p;
	struct ssp_synsim_result res;
	size_t f, napp, n[5] = { 0, 0, 0, 0, 0 };

	(void)state;
	for (f = 0; f < 3; f++) {
		ssp_synparams_defaults(&p);
		p.kernel = SSP_SYN_KERNEL_LINUX;
		p.cpus = 1 + (unsigned)f;
		p.flow = flows[f];
		p.hosts = 3;
		p.concurrency = 2;
		p.requests = 16;
		p.exec_rate = 1;
		p.bg_to_host = 0.3;
		p.napi_budget = 2;
		if (p.flow == SSP_SYN_FLOW_TCP_STREAM) {
			p.req_size = 5792;
			p.interval = 5000000;
		}
		run(&p, tmpdir(0), &res);
		assert_int_equal(res.requests_done, p.requests);
		napp = n[4];
		check_linux(tmpdir(0), n);
		/* one client_request entry per request; none in a stream */
		assert_int_equal(n[4] - napp, p.flow == SSP_SYN_FLOW_TCP_STREAM ?
		    0 : p.requests);
		ssp_synsim_result_free(&res);
		rmdir_all(tmpdir(0));
	}
	assert_true(n[0] > 0 && n[1] > 0 && n[2] > 0);
	assert_true(n[3] > 0);	/* four server threads on few CPUs */
}

static void
test_linux_params(void **state)
{
	struct ssp_synparams p;
	struct ssp_err e = { 0 };
	enum ssp_synparams_flow f;
	enum ssp_synparams_kernel k;

	(void)state;
	ssp_synparams_defaults(&p);
	p.cpus = 2;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "--kernel linux"));
	p.kernel = SSP_SYN_KERNEL_LINUX;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_OK);
	p.cpus = 5;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);
	p.cpus = 4;
	p.req_size = 5792;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);	/* UDP */
	p.flow = SSP_SYN_FLOW_TCP_STREAM;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_OK);
	assert_int_equal(ssp_synparams_flow("tcp-rr", &f), SSP_OK);
	assert_int_equal(f, SSP_SYN_FLOW_TCP_RR);
	assert_int_equal(ssp_synparams_flow("sctp", &f), SSP_ERR_INVAL);
	assert_int_equal(ssp_synparams_kernel("linux", &k), SSP_OK);
	assert_int_equal(k, SSP_SYN_KERNEL_LINUX);
	assert_int_equal(ssp_synparams_kernel("bsd", &k), SSP_ERR_INVAL);
}

static int
same_file(const char *a, const char *b)
{
	size_t na, nb;
	char *x = slurp(a, &na), *y = slurp(b, &nb);
	int same = na == nb && memcmp(x, y, na) == 0;

	free(x);
	free(y);
	return same;
}

static int
same(const char *d1, const char *d2, const char *name)
{
	char a[512], b[512];

	snprintf(a, sizeof(a), "%s/%s", d1, name);
	snprintf(b, sizeof(b), "%s/%s", d2, name);
	return same_file(a, b);
}

static void
test_determinism_and_padding(void **state)
{
	static const char *files[] = { "truth.csv", "topology.csv",
	    "vmlinux.syms", "i40e.syms", "rules.csv", "commands.sh",
	    "server0.gem5.log", "client1.gem5.log", "server0-nic.nicbm.log",
	    "client2-nic.nicbm.log", "net.ns3.log" };
	struct ssp_synparams p;
	unsigned i;

	(void)state;
	scenario(&p);
	run(&p, tmpdir(0), NULL);
	run(&p, tmpdir(1), NULL);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!same(tmpdir(0), tmpdir(1), files[i]))
			fail_msg("%s differs between two runs", files[i]);
	/* another seed, another scenario */
	p.seed = 2;
	run(&p, tmpdir(1), NULL);
	assert_false(same(tmpdir(0), tmpdir(1), "truth.csv"));
	assert_false(same(tmpdir(0), tmpdir(1), "net.ns3.log"));
	/* padding changes the gem5 logs and nothing else */
	p.seed = 1;
	p.exec_rate = 40;
	run(&p, tmpdir(1), NULL);
	assert_true(same(tmpdir(0), tmpdir(1), "truth.csv"));
	assert_true(same(tmpdir(0), tmpdir(1), "server0-nic.nicbm.log"));
	assert_true(same(tmpdir(0), tmpdir(1), "net.ns3.log"));
	assert_false(same(tmpdir(0), tmpdir(1), "server0.gem5.log"));
	check_truth_matches_logs(tmpdir(1), 0);
	rmdir_all(tmpdir(0));
	rmdir_all(tmpdir(1));
}

static void
test_checkpoint_offset(void **state)
{
	struct ssp_synparams p;
	const int64_t off = 1473000000000LL;
	char path[512], *buf, *s;
	size_t n, nsync = 0;

	(void)state;
	scenario(&p);
	p.ckpt_offset = off;
	p.requests = 4;
	run(&p, tmpdir(0), NULL);
	check_truth_matches_logs(tmpdir(0), off);
	snprintf(path, sizeof(path), "%s/client0.gem5.log", tmpdir(0));
	buf = slurp(path, &n);
	/* tick - ts of every sync line is the offset */
	for (s = buf; (s = strstr(s, "sending sync message for ts=")) != NULL; s++) {
		const char *line = s;
		int64_t ts = strtoll(s + 28, NULL, 10);

		while (line > buf && line[-1] != '\n')
			line--;
		assert_int_equal(strtoll(line, NULL, 10) - ts, off);
		nsync++;
	}
	assert_true(nsync > 100);
	free(buf);
	/* the notes tell sim2ev how to take the offset */
	snprintf(path, sizeof(path), "%s/commands.sh", tmpdir(0));
	buf = slurp(path, &n);
	assert_non_null(strstr(buf, "--time-offset sync"));
	free(buf);
	rmdir_all(tmpdir(0));
}

static void
test_size_target_and_zstd(void **state)
{
	struct ssp_synparams p;
	struct ssp_synsim_result res;
	unsigned i;

	(void)state;
	scenario(&p);
	p.requests = 4;
	p.gem5_size = 3u << 20;
	run(&p, tmpdir(0), &res);
	for (i = 0; i < res.nlogs; i++) {
		double r = (double)res.logs[i].io.bytes / (double)p.gem5_size;

		if (res.logs[i].sim == SSP_SIM_GEM5 && (r < 0.95 || r > 1.05))
			fail_msg("%s: %" PRIu64 " bytes for a target of %" PRIu64,
			    res.logs[i].file, res.logs[i].io.bytes, p.gem5_size);
	}
	ssp_synsim_result_free(&res);
	/* compressed logs hold the same bytes */
	p.zlevel = 3;
	run(&p, tmpdir(1), &res);
	for (i = 0; i < res.nlogs; i++) {
		char a[512], b[512];

		snprintf(a, sizeof(a), "%s/%s", tmpdir(1), res.logs[i].file);
		snprintf(b, sizeof(b), "%s/%.*s", tmpdir(0),
		    (int)(strlen(res.logs[i].file) - 4), res.logs[i].file);
		assert_non_null(strstr(a, ".zst"));
		if (!same_file(a, b))
			fail_msg("%s differs from %s", a, b);
	}
	/* -z compresses the truth too (issue 26: 150 MB of it were left) */
	{
		char a[512], b[512], c[512];
		struct stat sb;

		snprintf(a, sizeof(a), "%s/truth.csv.zst", tmpdir(1));
		snprintf(b, sizeof(b), "%s/truth.csv", tmpdir(0));
		snprintf(c, sizeof(c), "%s/truth.csv", tmpdir(1));
		assert_true(same_file(a, b));
		assert_int_equal(stat(c, &sb), -1);
	}
	ssp_synsim_result_free(&res);
	rmdir_all(tmpdir(0));
	rmdir_all(tmpdir(1));
}

static void
test_params_checked(void **state)
{
	struct ssp_synparams p;
	struct ssp_err e = { 0 };

	(void)state;
	ssp_synparams_defaults(&p);
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_OK);
	p.hosts = 1;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "--hosts"));
	ssp_synparams_defaults(&p);
	p.servers = 2;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);
	ssp_synparams_defaults(&p);
	p.concurrency = 2;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "--concurrency"));
	ssp_synparams_defaults(&p);
	p.pcie_lat = 0;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);
	ssp_synparams_defaults(&p);
	p.resp_size = 1473;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);
	ssp_synparams_defaults(&p);
	p.bg_load = 0.99;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);
	ssp_synparams_defaults(&p);	/* corundum_bm has no moderation */
	p.nic = SSP_SYN_NIC_CORUNDUM;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_OK);
	p.itr = 1000000;
	assert_int_equal(ssp_synparams_check(&p, &e), SSP_ERR_INVAL);
	assert_non_null(strstr(e.msg, "--itr"));
	/* a directory that cannot be made */
	ssp_synparams_defaults(&p);
	assert_int_equal(ssp_synsim_run(&p, "/proc/version/x", NULL, &e), SSP_ERR_IO);
	assert_non_null(strstr(e.msg, "/proc/version/x"));
}

/* The dialect parsers return a status (not -1) and leave *out alone on
 * an unknown word. */
static void
test_dialects_parsed(void **state)
{
	enum ssp_synparams_nicbm d = SSP_SYN_NICBM_UPSTREAM;
	unsigned bits = 0;

	(void)state;
	assert_int_equal(ssp_synparams_nicbm_dialect("sigcomm22", &d), SSP_OK);
	assert_int_equal(d, SSP_SYN_NICBM_SIGCOMM22);
	assert_int_equal(ssp_synparams_nicbm_dialect("2019", &d), SSP_ERR_INVAL);
	assert_int_equal(d, SSP_SYN_NICBM_SIGCOMM22);
	assert_string_equal(ssp_synparams_nicbm_dialect_name(d), "sigcomm22");
	assert_int_equal(ssp_synparams_gem5_dialect("fmtflag,nobar", &bits),
	    SSP_OK);
	assert_int_equal(bits, SSP_SYN_G5_FMTFLAG | SSP_SYN_G5_NOBAR);
	assert_int_equal(ssp_synparams_gem5_dialect("current", &bits), SSP_OK);
	assert_int_equal(bits, 0);
	assert_int_equal(ssp_synparams_gem5_dialect("fmtflag,old", &bits),
	    SSP_ERR_INVAL);
	assert_int_equal(ssp_synparams_gem5_dialect("", &bits), SSP_ERR_INVAL);
	{
		enum ssp_synparams_nic nic = SSP_SYN_NIC_I40E;

		assert_int_equal(ssp_synparams_nic("corundum", &nic), SSP_OK);
		assert_int_equal(nic, SSP_SYN_NIC_CORUNDUM);
		assert_int_equal(ssp_synparams_nic("ixgbe", &nic), SSP_ERR_INVAL);
		assert_int_equal(nic, SSP_SYN_NIC_CORUNDUM);
		assert_string_equal(ssp_synparams_nic_name(nic), "corundum");
		assert_string_equal(ssp_synparams_nic_name(SSP_SYN_NIC_I40E), "i40e");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truth_is_the_logs),
		cmocka_unit_test(test_truth_consistent_and_causal),
		cmocka_unit_test(test_corundum),
		cmocka_unit_test(test_determinism_and_padding),
		cmocka_unit_test(test_checkpoint_offset),
		cmocka_unit_test(test_size_target_and_zstd),
		cmocka_unit_test(test_params_checked),
		cmocka_unit_test(test_dialects_parsed),
		cmocka_unit_test(test_e1000),
		cmocka_unit_test(test_linux_truth),
		cmocka_unit_test(test_linux_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
