#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/map.h"
#include "base/num.h"
#include "config/rules.h"
#include "io/csv.h"

static const char *const fclass_names[SSP_FC_NCLASSES] = {
	"syscall-entry", "kernel-tx", "kernel-rx", "driver-tx", "driver-rx",
	"pci-write", "blacklist", "linux-net", "driver-net",
	"syscall-exit", "irq-entry", "irq-exit", "softirq-entry", "sleep",
	"sched-in", "wakeup", "idle", "app-root", "ipi-send", "ipi-entry",
};

struct fn {			/* one function name and its classes */
	size_t off;		/* into names */
	uint32_t len;
	unsigned mask;
};

struct bar {
	char *nic;		/* NULL for '*' */
	unsigned mask;
	unsigned line, col;
};

struct ssp_rules {
	char *name;
	char *names;		/* function names, NUL-separated */
	size_t nlen, ncap;
	struct fn *fns;
	size_t nfns, cfns;
	struct ssp_map map;	/* name hash -> index into fns */
	size_t count[SSP_FC_NCLASSES];
	struct bar *bars;
	size_t nbars, cbars;
	enum ssp_root_policy root;
	enum ssp_bg_policy bg;
	int64_t packet_idle;
	uint32_t context_limit;
	unsigned rows;
	/* where each single-valued setting was given, to refuse repeats */
	unsigned set_line[4];
};

const char *
ssp_rules_fclass_name(unsigned fclass)
{
	unsigned i;

	for (i = 0; i < SSP_FC_NCLASSES; i++)
		if (fclass == 1u << i)
			return fclass_names[i];
	return NULL;
}

static struct fn *
lookup(const struct ssp_rules *r, const char *s, size_t n)
{
	const struct ssp_map_slot *sl;

	for (sl = ssp_map_find(&r->map, ssp_map_hash(s, n)); sl != NULL;
	    sl = ssp_map_next(&r->map, sl)) {
		struct fn *f = &r->fns[sl->val];

		if (f->len == n && memcmp(r->names + f->off, s, n) == 0)
			return f;
	}
	return NULL;
}

static int
add_fn(struct ssp_rules *r, const char *s, size_t n, unsigned mask)
{
	struct fn *f = lookup(r, s, n);
	unsigned i;

	if (f == NULL) {
		if (ssp_buf_array((void **)&r->fns, &r->cfns, r->nfns + 1,
		    sizeof(*r->fns)) != 0 ||
		    ssp_buf_array((void **)&r->names, &r->ncap, r->nlen + n + 1,
		    1) != 0)
			return -1;
		if (ssp_map_add(&r->map, ssp_map_hash(s, n),
		    (uint32_t)r->nfns) == NULL)
			return -1;
		f = &r->fns[r->nfns++];
		f->off = r->nlen;
		f->len = (uint32_t)n;
		f->mask = 0;
		memcpy(r->names + r->nlen, s, n);
		r->names[r->nlen + n] = '\0';
		r->nlen += n + 1;
	}
	for (i = 0; i < SSP_FC_NCLASSES; i++)
		if ((mask & (1u << i)) && !(f->mask & (1u << i)))
			r->count[i]++;
	f->mask |= mask;
	return 0;
}

int
ssp_rules_new(struct ssp_rules **rp, struct ssp_err *e)
{
	struct ssp_rules *r = calloc(1, sizeof(*r));

	*rp = NULL;
	if (r == NULL || (r->name = strdup("(built-in defaults)")) == NULL) {
		free(r);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	r->root = SSP_ROOT_ALL_SYSCALLS;
	r->bg = SSP_BG_ADAPTER;
	r->packet_idle = SSP_RULES_PACKET_IDLE;
	r->context_limit = SSP_RULES_CONTEXT_LIMIT;
	*rp = r;
	return SSP_OK;
}

/* A setting given once: refuse a second row. */
static int
once(struct ssp_rules *r, unsigned which, const struct ssp_csv_row *row,
    struct ssp_err *e)
{
	if (r->set_line[which] != 0)
		return ssp_csv_ferr(e, row, 0, "'%s' is already set at line %u",
		    row->f[0].s, r->set_line[which]);
	r->set_line[which] = row->line;
	return SSP_OK;
}

static int
need(const struct ssp_csv_row *row, unsigned n, const char *what,
    struct ssp_err *e)
{
	if (row->n < n || row->f[n - 1].len == 0)
		return ssp_csv_ferr(e, row, n - 1, "missing %s", what);
	if (row->n > n)
		return ssp_csv_ferr(e, row, n, "unexpected field '%.40s' (a %s "
		    "row has %u fields)", row->f[n].s, row->f[0].s, n);
	return SSP_OK;
}

static int
row_bar(struct ssp_rules *r, const struct ssp_csv_row *row, struct ssp_err *e)
{
	const char *v;
	struct bar *b;
	int rc;

	if ((rc = need(row, 3, "BAR number (0-5)", e)) != SSP_OK)
		return rc;
	v = row->f[2].s;
	if (row->f[2].len != 1 || v[0] < '0' || v[0] > '5')
		return ssp_csv_ferr(e, row, 2, "bad BAR '%.40s' (expected 0-5)", v);
	if (strcmp(row->f[1].s, "*") != 0 &&
	    !ssp_topo_name_ok(row->f[1].s, row->f[1].len))
		return ssp_csv_ferr(e, row, 1, "bad nic name '%.40s' (a stream "
		    "name or *)", row->f[1].s);
	if (r->nbars == r->cbars) {
		size_t c = r->cbars ? r->cbars * 2 : 8;
		struct bar *nb = realloc(r->bars, c * sizeof(*nb));

		if (nb == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		r->bars = nb;
		r->cbars = c;
	}
	b = &r->bars[r->nbars];
	b->nic = NULL;
	if (strcmp(row->f[1].s, "*") != 0 &&
	    (b->nic = strdup(row->f[1].s)) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	b->mask = 1u << (v[0] - '0');
	b->line = row->f[1].line;
	b->col = row->f[1].col;
	r->nbars++;
	return SSP_OK;
}

static int
on_row(void *ctx, const struct ssp_csv_row *row, struct ssp_err *e)
{
	struct ssp_rules *r = ctx;
	const char *cls = row->f[0].s, *v;
	const char *errstr;
	int64_t x;
	unsigned i;
	int rc;

	if (r->rows++ == 0 && strcmp(cls, "class") == 0)
		return SSP_OK;		/* header row */
	for (i = 0; i < SSP_FC_NCLASSES; i++)
		if (strcmp(cls, fclass_names[i]) == 0)
			break;
	if (i < SSP_FC_NCLASSES) {
		if ((rc = need(row, 2, "function name", e)) != SSP_OK)
			return rc;
		if (add_fn(r, row->f[1].s, row->f[1].len, 1u << i) != 0)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		return SSP_OK;
	}
	if (strcmp(cls, "device-bar") == 0)
		return row_bar(r, row, e);
	if (strcmp(cls, "root") == 0) {
		if ((rc = need(row, 2, "root policy", e)) != SSP_OK ||
		    (rc = once(r, 0, row, e)) != SSP_OK)
			return rc;
		v = row->f[1].s;
		if (strcmp(v, "all-syscalls") == 0)
			r->root = SSP_ROOT_ALL_SYSCALLS;
		else if (strcmp(v, "net-syscalls") == 0)
			r->root = SSP_ROOT_NET_SYSCALLS;
		else
			return ssp_csv_ferr(e, row, 1, "unknown root policy '%.40s' "
			    "(expected all-syscalls or net-syscalls)", v);
		return SSP_OK;
	}
	if (strcmp(cls, "background") == 0) {
		if ((rc = need(row, 2, "background policy", e)) != SSP_OK ||
		    (rc = once(r, 1, row, e)) != SSP_OK)
			return rc;
		v = row->f[1].s;
		if (strcmp(v, "adapter") == 0)
			r->bg = SSP_BG_ADAPTER;
		else if (strcmp(v, "all") == 0)
			r->bg = SSP_BG_ALL;
		else
			return ssp_csv_ferr(e, row, 1, "unknown background policy "
			    "'%.40s' (expected adapter or all)", v);
		return SSP_OK;
	}
	if (strcmp(cls, "packet-idle") == 0) {
		if ((rc = need(row, 2, "time", e)) != SSP_OK ||
		    (rc = once(r, 2, row, e)) != SSP_OK)
			return rc;
		if (ssp_num_parse_time(row->f[1].s, &x, &errstr) != 0 || x <= 0)
			return ssp_csv_ferr(e, row, 1, "bad time '%.40s' (a positive "
			    "number with unit ps, ns, us, ms or s)", row->f[1].s);
		r->packet_idle = x;
		return SSP_OK;
	}
	if (strcmp(cls, "context-limit") == 0) {
		if ((rc = need(row, 2, "number", e)) != SSP_OK ||
		    (rc = once(r, 3, row, e)) != SSP_OK)
			return rc;
		if (ssp_num_strtonum(row->f[1].s, 1, 1 << 30, &x, &errstr) != 0)
			return ssp_csv_ferr(e, row, 1, "bad context limit '%.40s' "
			    "(%s; 1 to 2^30)", row->f[1].s, errstr);
		r->context_limit = (uint32_t)x;
		return SSP_OK;
	}
	return ssp_csv_ferr(e, row, 0, "unknown class '%.40s' (expected a "
	    "function class such as syscall-entry, or device-bar, root, "
	    "background, packet-idle, context-limit)", cls);
}

int
ssp_rules_parse(struct ssp_rules **rp, const char *name, const char *buf,
    size_t len, struct ssp_err *e)
{
	struct ssp_rules *r;
	int rc;

	*rp = NULL;
	if ((rc = ssp_rules_new(&r, e)) != SSP_OK)
		return rc;
	free(r->name);
	if ((r->name = strdup(name)) == NULL) {
		ssp_rules_free(r);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	if ((rc = ssp_csv_read_mem(name, buf, len, on_row, r, e)) != SSP_OK) {
		ssp_rules_free(r);
		return rc;
	}
	*rp = r;
	return SSP_OK;
}

int
ssp_rules_load(struct ssp_rules **rp, const char *path, struct ssp_err *e)
{
	char *buf;
	size_t len;
	int rc;

	*rp = NULL;
	if ((rc = ssp_csv_slurp(path, &buf, &len, e)) != SSP_OK)
		return rc;
	rc = ssp_rules_parse(rp, path, buf, len, e);
	free(buf);
	return rc;
}

int
ssp_rules_check(const struct ssp_rules *r, const struct ssp_topo *t,
    struct ssp_err *e)
{
	size_t i;
	int k;

	for (i = 0; i < r->nbars; i++) {
		if (r->bars[i].nic == NULL)
			continue;
		k = ssp_topo_find(t, r->bars[i].nic);
		if (k < 0)
			return ssp_csv_err(e, r->name, r->bars[i].line, r->bars[i].col,
			    "no stream named '%s' in %s", r->bars[i].nic, t->name);
		if (t->streams[k].kind != SSP_SIM_NICBM)
			return ssp_csv_err(e, r->name, r->bars[i].line, r->bars[i].col,
			    "stream '%s' is a %s stream, expected a nic stream",
			    r->bars[i].nic, ssp_event_sim_kind(t->streams[k].kind));
	}
	return SSP_OK;
}

void
ssp_rules_free(struct ssp_rules *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nbars; i++)
		free(r->bars[i].nic);
	free(r->bars);
	free(r->names);
	free(r->fns);
	ssp_map_free(&r->map);
	free(r->name);
	free(r);
}

unsigned
ssp_rules_fclass(const struct ssp_rules *r, const char *name, size_t len)
{
	const struct fn *f = lookup(r, name, len);

	return f != NULL ? f->mask : 0;
}

unsigned
ssp_rules_device_bars(const struct ssp_rules *r, const char *nic)
{
	unsigned own = 0, any = 0;
	size_t i;

	for (i = 0; i < r->nbars; i++) {
		if (r->bars[i].nic == NULL)
			any |= r->bars[i].mask;
		else if (strcmp(r->bars[i].nic, nic) == 0)
			own |= r->bars[i].mask;
	}
	return own ? own : any ? any : 1u;
}

enum ssp_root_policy ssp_rules_root(const struct ssp_rules *r) { return r->root; }
enum ssp_bg_policy ssp_rules_background(const struct ssp_rules *r) { return r->bg; }
int64_t ssp_rules_packet_idle(const struct ssp_rules *r) { return r->packet_idle; }
uint32_t ssp_rules_context_limit(const struct ssp_rules *r) { return r->context_limit; }

int
ssp_rules_kctx(const struct ssp_rules *r)
{
	return r->count[10] > 0 || r->count[9] > 0;	/* irq-entry, syscall-exit */
}

size_t
ssp_rules_count(const struct ssp_rules *r, unsigned fclass)
{
	unsigned i;

	for (i = 0; i < SSP_FC_NCLASSES; i++)
		if (fclass == 1u << i)
			return r->count[i];
	return 0;
}
