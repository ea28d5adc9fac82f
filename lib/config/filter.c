#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/map.h"
#include "base/num.h"
#include "config/filter.h"
#include "io/csv.h"
#include "stream/event.h"

#define FNAME_MAX   4096	/* longest function name in a list */
#define DESC_MAX    3000	/* metadata values are limited to 4096 bytes */
#define UNK         63		/* type bit of types this program does not know */
#define BAD_TYPE    0xffffffffu

_Static_assert(SSP_EV_NTYPES < UNK, "type masks are 64 bits");

#define B(t) (1ull << SSP_EV_##t)
#define RANGE(a, b) (((1ull << SSP_EV_##b) - 1) & ~((1ull << SSP_EV_##a) - 1))

static const struct {
	const char *name;
	uint64_t mask;
} groups[] = {
	{ "noise", B(SYNC) | B(PROC_IN) },
	{ "host", RANGE(SYNC, NIC_RD) | B(USER) },
	{ "nic", RANGE(NIC_RD, NET_ENQ) | B(NIC_RD_DONE) | B(NIC_WR_DONE) },
	{ "net", RANGE(NET_ENQ, USER) | B(NET_SEEN) },
	{ "mmio", B(MMIO_RD) | B(MMIO_WR) | B(MMIO_POSTED) | B(MMIO_RD_DONE) |
	    B(MMIO_WR_DONE) | B(NIC_RD) | B(NIC_WR) | B(NIC_RD_DONE) |
	    B(NIC_WR_DONE) },
	{ "dma", B(DMA_RD) | B(DMA_WR) | B(DMA_DONE) | B(NIC_DMA_ISSUE) |
	    B(NIC_DMA_EXEC) | B(NIC_DMA_ENQ) | B(NIC_DMA_DONE_RD) |
	    B(NIC_DMA_DONE_WR) },
	{ "irq", B(MSIX) | B(MSI) | B(INTR) | B(POST_INT) | B(CLEAR_INT) |
	    B(NIC_MSIX) | B(NIC_MSI) | B(NIC_INTX) },
	{ "pci", B(CFG_RD) | B(CFG_WR) | B(PCIHOST_RD) | B(PCIHOST_WR) },
	{ "eth", B(NIC_TX) | B(NIC_RX) },
	{ "all", RANGE(SYNC, NTYPES) },
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))
#define ALL_TYPES (RANGE(SYNC, NTYPES) | 1ull << UNK)
#define NET_TYPES (RANGE(NET_ENQ, USER) | B(NET_SEEN))
_Static_assert(SSP_EV_USER == SSP_EV_NET_RX + 1 &&
    SSP_EV_NIC_RD_DONE == SSP_EV_USER + 1 &&
    SSP_EV_NET_SEEN == SSP_EV_NIC_WR_DONE + 1 &&
    SSP_EV_NTYPES == SSP_EV_NET_SEEN + 1,
    "the group masks above know where the types added in 1.1 and 1.2 are");

static const char *const reasons[SSP_FR_NREASONS] = {
	"kept", "noise", "type", "time", "net-dev", "interesting", "comp",
	"cpu", "table", "function",
};

/* Bits of the per-string-id verdict cache. */
enum { SV_DONE = 1, SV_COMP = 2, SV_CPU = 4, SV_TABLE = 8, SV_FUNC = 16 };

/* A set of names: arena of NUL-terminated strings, open addressing. */
struct nameset {
	char *arena;
	size_t alen, acap;
	struct ssp_map map;	/* name hash -> arena offset */
	size_t n;
};

struct patlist {
	char *src;		/* the user's lists joined by ',' */
	char *buf;		/* the same, split in place */
	char **pat;
	size_t n;
};

struct netdev {
	uint64_t node, dev;
	int anydev;
};

/* Checks a type needs (ssp_filter.need): what recompute() derives from
 * the criteria, so the per-event path tests only what applies. */
enum { N_DROP = 1, N_TIME = 2, N_NET = 4, N_COMP = 8, N_CPU = 16,
	N_TABLE = 32, N_FUNC = 64 };

struct ssp_filter {
	uint64_t slow;		/* type bits that need more than the fast check */
	uint8_t need[64];	/* N_* by type bit */
	uint8_t dropwhy[64];	/* reason when N_DROP */
	uint64_t noise;		/* type bits dropped as noise */
	uint64_t keep;		/* type bits kept by -t/-T */
	uint64_t incl, excl;
	int incl_set;
	int from_set, to_set;
	int64_t from, to;
	struct netdev *nd;
	size_t nnd;
	int netdev_set, interesting;
	struct patlist pat[3];	/* by enum ssp_filter_field */
	struct nameset funcs[2];	/* black, white */
	int funcs_set[2];
	int strings;		/* any criterion looking at string fields */
	int8_t fidx[4][64];	/* field index of comp/cpu/table/sym by type */
	/* verdicts per string id of the current reader segment */
	uint8_t *sv;
	size_t svcap;
	const struct ssp_rec_rd *sv_rr;
	uint64_t sv_gen;
	/* output: the input's schema, and file type -> output type */
	struct ssp_rec_type *wtypes;
	struct ssp_schema wschema;
	char *wnames;
	uint32_t p2w[SSP_EV_NTYPES];	/* program type -> output type */
	uint32_t *wmap;			/* file type -> output type */
	unsigned nwmap;
	uint64_t wgen;
	char desc[DESC_MAX + 64];
	size_t desclen;
	/* per pattern list: values that passed, the first rejected ones */
	uint64_t pat_pass[3];
	char pat_seen[3][SSP_FILTER_SEEN][64];
	unsigned npat_seen[3];
};

const char *
ssp_filter_reason_name(unsigned reason)
{
	return reason < SSP_FR_NREASONS ? reasons[reason] : "?";
}

size_t ssp_filter_ngroups(void) { return NGROUPS; }

const char *
ssp_filter_group(size_t i, char *members, size_t n)
{
	size_t len = 0;
	unsigned t;

	if (i >= NGROUPS)
		return NULL;
	if (n > 0)
		members[0] = '\0';
	for (t = 0; t < SSP_EV_NTYPES; t++)
		if (groups[i].mask & (1ull << t) && len < n)
			len += (size_t)snprintf(members + len, n - len, "%s%s",
			    len ? "," : "", ssp_event_schema.types[t].name);
	return groups[i].name;
}

static void describe(struct ssp_filter *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
describe(struct ssp_filter *f, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (f->desclen >= DESC_MAX)
		return;
	if (f->desclen > 0)
		f->desc[f->desclen++] = ' ';
	va_start(ap, fmt);
	k = vsnprintf(f->desc + f->desclen, DESC_MAX - f->desclen, fmt, ap);
	va_end(ap);
	if (k < 0)
		k = 0;
	f->desclen += (size_t)k;
	if (f->desclen >= DESC_MAX) {
		f->desclen = DESC_MAX;
		memcpy(f->desc + DESC_MAX - 4, "...", 4);
	}
}

const char *ssp_filter_describe(const struct ssp_filter *f) { return f->desc; }

int
ssp_filter_uses(const struct ssp_filter *f, unsigned reason)
{
	switch (reason) {
	case SSP_FR_NOISE: return f->noise != 0;
	case SSP_FR_TYPE: return f->keep != ALL_TYPES;
	case SSP_FR_TIME: return f->from_set || f->to_set;
	case SSP_FR_NETDEV: return f->netdev_set;
	case SSP_FR_INTERESTING: return f->interesting;
	case SSP_FR_COMP: return f->pat[SSP_FFIELD_COMP].n > 0;
	case SSP_FR_CPU: return f->pat[SSP_FFIELD_CPU].n > 0;
	case SSP_FR_TABLE: return f->pat[SSP_FFIELD_TABLE].n > 0;
	case SSP_FR_FUNC: return f->funcs_set[0] || f->funcs_set[1];
	default: return 0;
	}
}

static void recompute(struct ssp_filter *f);

struct ssp_filter *
ssp_filter_new(void)
{
	static const char *const names[4] = { "comp", "cpu", "table", "sym" };
	struct ssp_filter *f = calloc(1, sizeof(*f));
	unsigned t, k;

	if (f == NULL)
		return NULL;
	f->keep = ALL_TYPES;
	memset(f->fidx, -1, sizeof(f->fidx));
	for (k = 0; k < 4; k++)
		for (t = 0; t < SSP_EV_NTYPES; t++)
			f->fidx[k][t] = (int8_t)ssp_rec_type_field(
			    &ssp_event_schema.types[t], names[k]);
	/* only function entries carry the symbol a function list matches */
	for (t = 0; t < SSP_EV_NTYPES; t++)
		if (t != SSP_EV_FUNC)
			f->fidx[3][t] = -1;
	recompute(f);
	return f;
}

static void
nameset_free(struct nameset *s)
{
	free(s->arena);
	ssp_map_free(&s->map);
}

void
ssp_filter_free(struct ssp_filter *f)
{
	unsigned k;

	if (f == NULL)
		return;
	free(f->nd);
	for (k = 0; k < 3; k++) {
		free(f->pat[k].src);
		free(f->pat[k].buf);
		free(f->pat[k].pat);
	}
	nameset_free(&f->funcs[0]);
	nameset_free(&f->funcs[1]);
	free(f->sv);
	free(f->wtypes);
	free(f->wnames);
	free(f->wmap);
	free(f);
}

/* Which types the fast path of ssp_filter_check cannot decide alone. */
static void
recompute(struct ssp_filter *f)
{
	static const uint8_t fneed[4] = { N_COMP, N_CPU, N_TABLE, N_FUNC };
	unsigned t, k;

	f->slow = 0;
	f->sv_rr = NULL;	/* cached verdicts are for the old criteria */
	for (t = 0; t < 64; t++) {
		uint64_t bit = 1ull << t;
		uint8_t n = 0;

		if (t >= SSP_EV_NTYPES && t != UNK) {	/* no such type */
			f->need[t] = 0;
			continue;
		}

		if ((f->noise | ~f->keep) & bit) {
			n = N_DROP;
			f->dropwhy[t] = f->noise & bit ? SSP_FR_NOISE : SSP_FR_TYPE;
		}
		if (f->from_set || f->to_set)
			n |= N_TIME;
		if ((f->netdev_set || f->interesting) && (bit & NET_TYPES))
			n |= N_NET;
		for (k = 0; k < 4; k++) {
			int on = k < 3 ? f->pat[k].n > 0 :
			    f->funcs_set[0] || f->funcs_set[1];

			if (on && f->fidx[k][t] >= 0)
				n |= fneed[k];
		}
		f->need[t] = n;
		if (n != 0)
			f->slow |= bit;
	}
}
/* --- configuration from user strings -------------------------------------- */

static int
type_mask(const char *name, uint64_t *mask)
{
	int t = ssp_rec_schema_find(&ssp_event_schema, name);
	size_t g;

	if (t >= 0) {
		*mask = 1ull << t;
		return 0;
	}
	for (g = 0; g < NGROUPS; g++)
		if (strcmp(name, groups[g].name) == 0) {
			*mask = groups[g].mask;
			return 0;
		}
	return -1;
}

/* Split a comma-separated list in place; empty items are errors. */
static int
split(char *s, char ***items, size_t *n, const char *what, struct ssp_err *e)
{
	char *p, **v;
	size_t k = 1, i = 0;

	for (p = s; *p; p++)
		k += *p == ',';
	if ((v = calloc(k, sizeof(*v))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (p = s;; p++) {
		char *c = strchr(p, ',');

		if (c != NULL)
			*c = '\0';
		if (*p == '\0') {
			free(v);
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: empty item "
			    "in list", what);
		}
		v[i++] = p;
		if (c == NULL)
			break;
		p = c;
	}
	*items = v;
	*n = i;
	return SSP_OK;
}

int
ssp_filter_types(struct ssp_filter *f, const char *list, int exclude,
    struct ssp_err *e)
{
	char *s = strdup(list), **items;
	size_t n, i;
	uint64_t m, acc = 0;
	int r;

	if (s == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((r = split(s, &items, &n, "type list", e)) != SSP_OK) {
		free(s);
		return r;
	}
	for (i = 0; i < n; i++) {
		if (type_mask(items[i], &m) != 0) {
			r = ssp_err_set(e, SSP_ERR_INVAL, 0, "unknown event type "
			    "or group '%.64s'", items[i]);
			break;
		}
		acc |= m;
	}
	free(items);
	free(s);
	if (r != SSP_OK)
		return r;
	if (exclude) {
		f->excl |= acc;
	} else {
		f->incl |= acc;
		f->incl_set = 1;
	}
	f->keep = (f->incl_set ? f->incl : ALL_TYPES) & ~f->excl;
	recompute(f);
	describe(f, "%s=%s", exclude ? "exclude" : "types", list);
	return SSP_OK;
}

void
ssp_filter_noise(struct ssp_filter *f)
{
	f->noise = groups[0].mask;
	recompute(f);
	describe(f, "no-noise");
}

int
ssp_filter_time(struct ssp_filter *f, int from_set, int64_t from, int to_set,
    int64_t to, struct ssp_err *e)
{
	if (from_set && to_set && from >= to)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "empty time window: "
		    "from %lld ps is not before to %lld ps", (long long)from,
		    (long long)to);
	f->from_set = from_set;
	f->from = from;
	f->to_set = to_set;
	f->to = to;
	recompute(f);
	if (from_set)
		describe(f, "from=%lldps", (long long)from);
	if (to_set)
		describe(f, "to=%lldps", (long long)to);
	return SSP_OK;
}

int
ssp_filter_patterns(struct ssp_filter *f, enum ssp_filter_field which,
    const char *list, struct ssp_err *e)
{
	static const char *const names[] = { "comp", "cpu", "table" };
	struct patlist *pl = &f->pat[which];
	size_t old = pl->src != NULL ? strlen(pl->src) : 0, a = strlen(list);
	char *src, *buf, **items;
	size_t n;
	int r;

	/* Several lists add up: split the joined source again. */
	src = malloc(old + 1 + a + 1);
	buf = malloc(old + 1 + a + 1);
	if (src == NULL || buf == NULL) {
		free(src);
		free(buf);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	if (old > 0) {
		memcpy(src, pl->src, old);
		src[old++] = ',';
	}
	memcpy(src + old, list, a + 1);
	memcpy(buf, src, old + a + 1);
	if ((r = split(buf, &items, &n, names[which], e)) != SSP_OK) {
		free(src);
		free(buf);
		return r;
	}
	free(pl->src);
	free(pl->buf);
	free(pl->pat);
	pl->src = src;
	pl->buf = buf;
	pl->pat = items;
	pl->n = n;
	f->strings = 1;
	recompute(f);
	describe(f, "%s=%s", names[which], list);
	return SSP_OK;
}

int
ssp_filter_netdev(struct ssp_filter *f, const char *list, struct ssp_err *e)
{
	char *s = strdup(list), **items, *colon;
	const char *errstr;
	struct netdev *nd;
	size_t n, i;
	int64_t v;
	int r;

	if (s == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((r = split(s, &items, &n, "net-dev", e)) != SSP_OK) {
		free(s);
		return r;
	}
	if ((nd = realloc(f->nd, (f->nnd + n) * sizeof(*nd))) == NULL) {
		r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	f->nd = nd;
	for (i = 0; i < n; i++) {
		nd = &f->nd[f->nnd];
		if ((colon = strchr(items[i], ':')) == NULL) {
			r = ssp_err_set(e, SSP_ERR_INVAL, 0, "net-dev '%.64s': "
			    "expected NODE:DEVICE", items[i]);
			goto out;
		}
		*colon = '\0';
		if (ssp_num_strtonum(items[i], 0, UINT32_MAX, &v,
		    &errstr) != 0) {
			r = ssp_err_set(e, SSP_ERR_INVAL, 0, "net-dev '%.32s:%.32s': "
			    "node %s", items[i], colon + 1, errstr);
			goto out;
		}
		nd->node = (uint64_t)v;
		nd->anydev = strcmp(colon + 1, "*") == 0;
		if (!nd->anydev) {
			if (ssp_num_strtonum(colon + 1, 0, UINT32_MAX, &v,
			    &errstr) != 0) {
				r = ssp_err_set(e, SSP_ERR_INVAL, 0, "net-dev "
				    "'%.32s:%.32s': device %s", items[i],
				    colon + 1, errstr);
				goto out;
			}
			nd->dev = (uint64_t)v;
		}
		f->nnd++;
	}
	f->netdev_set = 1;
	recompute(f);
	describe(f, "net-dev=%s", list);
out:
	free(items);
	free(s);
	return r;
}

void
ssp_filter_interesting(struct ssp_filter *f)
{
	f->interesting = 1;
	recompute(f);
	describe(f, "interesting");
}

/* --- name sets ------------------------------------------------------------- */

static int
nameset_has(const struct nameset *s, const char *name, size_t n)
{
	const struct ssp_map_slot *sl;

	for (sl = ssp_map_find(&s->map, ssp_map_hash(name, n)); sl != NULL;
	    sl = ssp_map_next(&s->map, sl)) {
		const char *c = s->arena + sl->val;

		if (strncmp(c, name, n) == 0 && c[n] == '\0')
			return 1;
	}
	return 0;
}

static int
nameset_add(struct nameset *s, const char *name, size_t n)
{
	if (nameset_has(s, name, n))
		return 0;
	if (n >= UINT32_MAX || s->alen > UINT32_MAX - 1 - n)
		return -1;
	if (ssp_buf_array((void **)&s->arena, &s->acap, s->alen + n + 1, 1) != 0)
		return -1;
	if (ssp_map_add(&s->map, ssp_map_hash(name, n), (uint32_t)s->alen) == NULL)
		return -1;
	memcpy(s->arena + s->alen, name, n);
	s->arena[s->alen + n] = '\0';
	s->alen += n + 1;
	s->n++;
	return 0;
}

size_t
ssp_filter_nfuncs(const struct ssp_filter *f, int whitelist)
{
	return f->funcs[whitelist != 0].n;
}

/* --- function lists from CSV (read by ssp_csv, shared with evspan) -------- */

struct csvload {
	struct nameset *set;
	const char *classes;	/* selected classes, or NULL for the default */
	int whitelist;
	int format;		/* 0 undecided, 1 rules, 2 plain list */
	unsigned ccol, fcol;	/* class and function columns (rules) */
	uint64_t added, matched;
	char seen[512];		/* classes found, for the error message */
};

/* Is a class selected?  A list of names, or the default. */
static int
class_selected(const struct csvload *ld, const char *cls)
{
	const char *p = ld->classes;
	size_t n = strlen(cls);

	if (p == NULL)
		return ld->whitelist ? strcmp(cls, "blacklist") != 0 :
		    strcmp(cls, "blacklist") == 0;
	while (*p) {
		const char *c = strchr(p, ',');
		size_t k = c != NULL ? (size_t)(c - p) : strlen(p);

		if (k == n && memcmp(p, cls, n) == 0)
			return 1;
		if (c == NULL)
			break;
		p = c + 1;
	}
	return 0;
}

static void
note_class(struct csvload *ld, const char *cls)
{
	size_t n = strlen(cls), have = strlen(ld->seen);
	const char *p;

	if (n == 0)
		cls = "\"\"", n = 2;	/* an empty class cell */
	for (p = ld->seen; (p = strstr(p, cls)) != NULL; p += n)
		if ((p == ld->seen || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return;
	if (have + n + 3 < sizeof(ld->seen))
		snprintf(ld->seen + have, sizeof(ld->seen) - have, "%s%s",
		    have ? ", " : "", cls);
}

static int
add_name(struct csvload *ld, const struct ssp_csv_row *row, unsigned i,
    struct ssp_err *e)
{
	const struct ssp_csv_field *c = &row->f[i];

	if (c->len == 0)
		return ssp_csv_ferr(e, row, i, "empty function name");
	if (c->len > FNAME_MAX)
		return ssp_csv_ferr(e, row, i, "field longer than %d bytes",
		    FNAME_MAX);
	if (nameset_add(ld->set, c->s, c->len) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	ld->added++;
	return SSP_OK;
}

static int
ld_row(void *ctx, const struct ssp_csv_row *row, struct ssp_err *e)
{
	struct csvload *ld = ctx;
	unsigned i;

	if (ld->format == 0) {
		int cc = -1, fc = -1;

		for (i = 0; i < row->n; i++) {
			if (strcasecmp(row->f[i].s, "class") == 0 && cc < 0)
				cc = (int)i;
			if (strcasecmp(row->f[i].s, "function") == 0 && fc < 0)
				fc = (int)i;
		}
		if (cc >= 0 && fc >= 0) {
			ld->format = 1;
			ld->ccol = (unsigned)cc;
			ld->fcol = (unsigned)fc;
			return SSP_OK;
		}
		if (row->n != 1)
			return ssp_csv_ferr(e, row, 0, "expected a header row "
			    "naming 'class' and 'function' columns, or one "
			    "function name per row");
		ld->format = 2;
		if (strcasecmp(row->f[0].s, "function") == 0)
			return SSP_OK;	/* header of a plain list */
	}
	if (ld->format == 2) {
		if (row->n != 1)
			return ssp_csv_ferr(e, row, 1, "expected one function "
			    "name per row, found %u fields", row->n);
		ld->matched++;
		return add_name(ld, row, 0, e);
	}
	/* rules format: other classes (roots, device BARs, ...) are not ours */
	if (row->n <= ld->ccol)
		return SSP_OK;
	note_class(ld, row->f[ld->ccol].s);
	if (!class_selected(ld, row->f[ld->ccol].s))
		return SSP_OK;
	ld->matched++;
	if (row->n <= ld->fcol)
		return ssp_csv_ferr(e, row, ld->fcol, "row of class '%.40s' has "
		    "no function column (%u fields, the header puts 'function' "
		    "in column %u)", row->f[ld->ccol].s, row->n, ld->fcol + 1);
	return add_name(ld, row, ld->fcol, e);
}

int
ssp_filter_funcs(struct ssp_filter *f, struct ssp_in *in, int whitelist,
    const char *classes, struct ssp_err *e)
{
	struct csvload ld;
	char *buf = NULL;
	size_t len = 0, cap = 0, before;
	const char *file = ssp_in_name(in);
	ssize_t got;
	int r;

	whitelist = whitelist != 0;
	if (classes != NULL && (*classes == '\0' || strstr(classes, ",,") ||
	    classes[0] == ',' || classes[strlen(classes) - 1] == ','))
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "class list '%.64s': "
		    "empty item", classes);
	/* Lists are small: read the whole input (any ssp_in: stdin, .zst). */
	do {
		if (cap - len < 65536) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			if (cap > SSP_CSV_MAXBYTES + 65536 ||
			    (nb = realloc(buf, cap + 1)) == NULL) {
				free(buf);
				return ssp_err_set(e, cap > SSP_CSV_MAXBYTES ?
				    SSP_ERR_LIMIT : SSP_ERR_NOMEM, 0, "%s: too "
				    "large for a function list", file);
			}
			buf = nb;
		}
		got = ssp_in_read(in, buf + len, cap - len, e);
		if (got < 0) {	/* -status */
			free(buf);
			return (int)-got;
		}
		len += (size_t)got;
	} while (got > 0);
	memset(&ld, 0, sizeof(ld));
	ld.set = &f->funcs[whitelist];
	ld.classes = classes;
	ld.whitelist = whitelist;
	before = ld.set->n;
	r = ssp_csv_read_mem(file, buf != NULL ? buf : "", len, ld_row, &ld, e);
	free(buf);
	if (r != SSP_OK)
		return r;
	if (ld.format == 1 && ld.matched == 0)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: no rows of class %s "
		    "(classes in the file: %s)", file, classes != NULL ?
		    classes : whitelist ? "other than blacklist" : "blacklist",
		    ld.seen[0] ? ld.seen : "none");
	if (ld.added == 0)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: no function names",
		    file);
	f->funcs_set[whitelist] = 1;
	f->strings = 1;
	recompute(f);
	if (ld.format == 1)
		describe(f, "%s=%s[%s]:%zu", whitelist ? "whitelist" : "blacklist",
		    file, classes != NULL ? classes : whitelist ? "!blacklist" :
		    "blacklist", ld.set->n - before);
	else
		describe(f, "%s=%s:%zu", whitelist ? "whitelist" : "blacklist",
		    file, ld.set->n - before);
	return SSP_OK;
}

int
ssp_filter_funcs_load(struct ssp_filter *f, const char *path, int whitelist,
    const char *classes, struct ssp_err *e)
{
	struct ssp_in *in;
	int r;

	if ((r = ssp_in_open(&in, path, SSP_IN_ZSTD_AUTO, NULL, e)) != SSP_OK)
		return r;
	r = ssp_filter_funcs(f, in, whitelist, classes, e);
	ssp_in_close(in);
	return r;
}

/* --- the per-event check --------------------------------------------------- */

static int
matches(const struct patlist *pl, const char *s)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		if (fnmatch(pl->pat[i], s, 0) == 0)
			return 1;
	return 0;
}

/* Compute (and cache) the verdicts on one string id. */
__attribute__((noinline)) static unsigned
sv_fill(struct ssp_filter *f, const struct ssp_rec_rd *rr, uint64_t id)
{
	const char *s;
	size_t n = 0;
	unsigned v = SV_DONE;

	if (id >= f->svcap) {
		size_t cap = f->svcap ? f->svcap : 1024;
		uint8_t *nv;

		while (cap <= id)
			cap *= 2;
		if ((nv = realloc(f->sv, cap)) == NULL)
			goto nocache;
		memset(nv + f->svcap, 0, cap - f->svcap);
		f->sv = nv;
		f->svcap = cap;
	}
nocache:
	s = id == 0 ? "" : ssp_rec_rd_str(rr, id, &n);
	if (s == NULL)
		s = "";
	if (matches(&f->pat[SSP_FFIELD_COMP], s))
		v |= SV_COMP;
	if (matches(&f->pat[SSP_FFIELD_CPU], s))
		v |= SV_CPU;
	if (matches(&f->pat[SSP_FFIELD_TABLE], s))
		v |= SV_TABLE;
	if ((!f->funcs_set[1] || nameset_has(&f->funcs[1], s, n)) &&
	    !(f->funcs_set[0] && nameset_has(&f->funcs[0], s, n)))
		v |= SV_FUNC;
	if (id < f->svcap)
		f->sv[id] = (uint8_t)v;
	return v;
}

static inline unsigned
sv_get(struct ssp_filter *f, const struct ssp_rec_rd *rr, uint64_t id)
{
	if (id < f->svcap && f->sv[id] != 0)
		return f->sv[id];
	return sv_fill(f, rr, id);
}

/* A new reader or segment: string ids mean something else now. */
static inline void
sv_sync(struct ssp_filter *f, const struct ssp_rec_rd *rr)
{
	uint64_t gen = ssp_rec_rd_strgen(rr);

	if (__builtin_expect(rr != f->sv_rr || gen != f->sv_gen, 0)) {
		f->sv_rr = rr;
		f->sv_gen = gen;
		if (f->sv != NULL)
			memset(f->sv, 0, f->svcap);
	}
}

/* A value a pattern list rejected: keep the first distinct ones (for
 * ssp_filter_unmatched).  Returns the reason. */
__attribute__((noinline)) static unsigned
pat_reject(struct ssp_filter *f, const struct ssp_rec_rd *rr,
    enum ssp_filter_field which, uint64_t id)
{
	const char *v;
	size_t n = 0, i;

	if (f->npat_seen[which] < SSP_FILTER_SEEN && id != 0 &&
	    (v = ssp_rec_rd_str(rr, id, &n)) != NULL) {
		if (n > sizeof(f->pat_seen[0][0]) - 1)
			n = sizeof(f->pat_seen[0][0]) - 1;
		for (i = 0; i < f->npat_seen[which]; i++)
			if (strncmp(f->pat_seen[which][i], v, n) == 0 &&
			    f->pat_seen[which][i][n] == '\0')
				break;
		if (i == f->npat_seen[which]) {
			memcpy(f->pat_seen[which][i], v, n);
			f->pat_seen[which][i][n] = '\0';
			f->npat_seen[which]++;
		}
	}
	return which == SSP_FFIELD_COMP ? SSP_FR_COMP : which == SSP_FFIELD_CPU ?
	    SSP_FR_CPU : SSP_FR_TABLE;
}

/* The checks type t needs.  rr may be NULL when none looks at strings;
 * otherwise sv_sync(f, rr) must have run since rr last changed segment. */
__attribute__((always_inline)) static inline unsigned
check_slow(struct ssp_filter *f, const struct ssp_rec_rd *rr,
    const struct ssp_rec *r, unsigned t)
{
	unsigned n = f->need[t];

	if (n & N_DROP)
		return f->dropwhy[t];
	if ((n & N_TIME) && ((f->from_set && r->ts < f->from) ||
	    (f->to_set && r->ts >= f->to)))
		return SSP_FR_TIME;
	if (n & N_NET) {
		if (f->netdev_set) {
			size_t i;

			for (i = 0; i < f->nnd; i++)
				if (f->nd[i].node == r->f[SSP_F_NET_NODE] &&
				    (f->nd[i].anydev ||
				    f->nd[i].dev == r->f[SSP_F_NET_DEV]))
					break;
			if (i == f->nnd)
				return SSP_FR_NETDEV;
		}
		if (f->interesting && r->f[SSP_F_NET_INTERESTING] == 0)
			return SSP_FR_INTERESTING;
	}
	if (!(n & (N_COMP | N_CPU | N_TABLE | N_FUNC)))
		return SSP_FR_KEEP;
	if (n & N_COMP) {
		if (!(sv_get(f, rr, r->f[f->fidx[0][t]]) & SV_COMP))
			return pat_reject(f, rr, SSP_FFIELD_COMP, r->f[f->fidx[0][t]]);
		f->pat_pass[SSP_FFIELD_COMP]++;
	}
	/* a host device event with no Exec line before it has no CPU (0):
	 * like an event without the field, it passes */
	if ((n & N_CPU) && r->f[f->fidx[1][t]] != 0) {
		if (!(sv_get(f, rr, r->f[f->fidx[1][t]]) & SV_CPU))
			return pat_reject(f, rr, SSP_FFIELD_CPU, r->f[f->fidx[1][t]]);
		f->pat_pass[SSP_FFIELD_CPU]++;
	}
	if (n & N_TABLE) {
		if (!(sv_get(f, rr, r->f[f->fidx[2][t]]) & SV_TABLE))
			return pat_reject(f, rr, SSP_FFIELD_TABLE, r->f[f->fidx[2][t]]);
		f->pat_pass[SSP_FFIELD_TABLE]++;
	}
	if ((n & N_FUNC) &&
	    !(sv_get(f, rr, r->f[f->fidx[3][t]]) & SV_FUNC))
		return SSP_FR_FUNC;
	return SSP_FR_KEEP;
}

int
ssp_filter_unmatched(const struct ssp_filter *f, enum ssp_filter_field which,
    const char **names)
{
	unsigned i;

	if (f->pat[which].n == 0 || f->pat_pass[which] > 0)
		return -1;
	for (i = 0; i < f->npat_seen[which]; i++)
		names[i] = f->pat_seen[which][i];
	return (int)f->npat_seen[which];
}

unsigned
ssp_filter_check(struct ssp_filter *f, const struct ssp_rec_rd *rr,
    const struct ssp_rec *r)
{
	unsigned t = r->type < SSP_EV_NTYPES ? r->type : UNK;

	if (__builtin_expect(!(f->slow & (1ull << t)), 1))
		return SSP_FR_KEEP;
	if (f->strings && rr != NULL)
		sv_sync(f, rr);
	return check_slow(f, rr, r, t);
}

/* --- output ---------------------------------------------------------------- */

/* Copy rr's current file schema (names into one arena). */
static int
copy_schema(struct ssp_filter *f, const struct ssp_schema *fs)
{
	size_t len = 0, off = 0;
	unsigned t, k;

	free(f->wtypes);	/* a filter may be used for several outputs */
	free(f->wnames);
	f->wgen = 0;
	free(f->wmap);
	f->wmap = NULL;
	f->nwmap = 0;
	for (t = 0; t < fs->ntypes; t++) {
		len += strlen(fs->types[t].name) + 1;
		for (k = 0; k < fs->types[t].nf; k++)
			len += strlen(fs->types[t].f[k].name) + 1;
	}
	f->wtypes = calloc(fs->ntypes, sizeof(*f->wtypes));
	f->wnames = malloc(len);
	if (f->wtypes == NULL || f->wnames == NULL)
		return -1;
#define DUP(dst, src) do { size_t n_ = strlen(src) + 1; \
	memcpy(f->wnames + off, (src), n_); (dst) = f->wnames + off; off += n_; } while (0)
	for (t = 0; t < fs->ntypes; t++) {
		const struct ssp_rec_type *st = &fs->types[t];
		struct ssp_rec_type *dt = &f->wtypes[t];

		DUP(dt->name, st->name);
		dt->nf = st->nf;
		for (k = 0; k < st->nf; k++) {
			DUP(dt->f[k].name, st->f[k].name);
			dt->f[k].enc = st->f[k].enc;
		}
	}
#undef DUP
	f->wschema.ntypes = fs->ntypes;
	f->wschema.types = f->wtypes;
	return 0;
}

/* Map the current segment's file types onto the output's, by name
 * (ssp_rec_wr_copy checks the fields). */
static int
remap(struct ssp_filter *f, const struct ssp_rec_rd *rr, struct ssp_err *e)
{
	const struct ssp_schema *fs = ssp_rec_rd_file_schema(rr);
	unsigned t;
	int j;

	free(f->wmap);
	if ((f->wmap = calloc(fs->ntypes, sizeof(*f->wmap))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	f->nwmap = fs->ntypes;
	for (t = 0; t < fs->ntypes; t++) {
		j = ssp_rec_schema_find(&f->wschema, fs->types[t].name);
		f->wmap[t] = j >= 0 ? (uint32_t)j : BAD_TYPE;
	}
	f->wgen = ssp_rec_rd_strgen(rr);
	return SSP_OK;
}

int
ssp_filter_writer_open(struct ssp_filter *f, struct ssp_rec_wr **wp,
    struct ssp_out *o, const struct ssp_rec_rd *rr, const char *producer,
    struct ssp_err *e)
{
	size_t n = ssp_rec_rd_nmeta(rr), i, k = 0;
	struct ssp_meta *m;
	const char *old = NULL;
	char *val;
	int r;

	*wp = NULL;
	f->sv_rr = NULL;	/* a new reader may sit where an old one was */
	if (copy_schema(f, ssp_rec_rd_file_schema(rr)) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < SSP_EV_NTYPES; i++) {
		int j = ssp_rec_schema_find(&f->wschema,
		    ssp_event_schema.types[i].name);

		f->p2w[i] = j >= 0 ? (uint32_t)j : BAD_TYPE;
	}
	if ((r = remap(f, rr, e)) != SSP_OK)
		return r;
	m = calloc(n + 2, sizeof(*m));
	val = malloc(4096);
	if (m == NULL || val == NULL) {
		free(m);
		free(val);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	for (i = 0; i < n; i++) {
		const struct ssp_meta *im = ssp_rec_rd_meta_at(rr, i);

		if (strcmp(im->key, "filter") == 0 && old == NULL) {
			old = im->value;
			continue;
		}
		m[k++] = *im;
	}
	i = (size_t)snprintf(val, 4096, "%s%s%s: %s", old ? old : "",
	    old ? " | " : "", producer, f->desc[0] ? f->desc : "pass-through");
	if (i >= 4096)
		memcpy(val + 4092, "...", 4);
	m[k++] = (struct ssp_meta){ "filter", val };
	/* the input's schema, so also its minor version */
	r = ssp_rec_wr_open_minor(wp, o, ssp_frame_magic_events,
	    ssp_rec_rd_version_minor(rr), &f->wschema, m, k, e);
	free(m);
	free(val);
	return r;
}

/* Types this program does not know: mapped by name per segment, the
 * output type in *tp. */
__attribute__((noinline)) static int
map_slow(struct ssp_filter *f, const struct ssp_rec_rd *rr, const struct ssp_rec *r,
    uint32_t *tp, struct ssp_err *e)
{
	uint32_t t;
	int rv;

	if (r->type < SSP_EV_NTYPES)
		t = f->p2w[r->type];
	else {
		if (f->wgen != ssp_rec_rd_strgen(rr) &&
		    (rv = remap(f, rr, e)) != SSP_OK)
			return rv;
		t = r->ftag > 0 && r->ftag <= f->nwmap ? f->wmap[r->ftag - 1] :
		    BAD_TYPE;
	}
	*tp = t;
	if (t == BAD_TYPE)
		return ssp_err_set(e, SSP_ERR_SCHEMA, ssp_rec_rd_offset(rr), "%s: "
		    "offset %llu: record type '%s' is not in the first segment "
		    "of this concatenated stream; filter the segments "
		    "separately", ssp_rec_rd_name(rr),
		    (unsigned long long)ssp_rec_rd_offset(rr),
		    r->ftag > 0 && r->ftag <= ssp_rec_rd_file_schema(rr)->ntypes ?
		    ssp_rec_rd_file_schema(rr)->types[r->ftag - 1].name : "?");
	return SSP_OK;
}

/* ssp_rec_wr_copy checks that the record's fields fit the output type. */
int
ssp_filter_copy(struct ssp_filter *f, struct ssp_rec_wr *w, const struct ssp_rec_rd *rr,
    struct ssp_rec *r, struct ssp_err *e)
{
	uint32_t t;
	int rv;

	if (__builtin_expect(r->type < SSP_EV_NTYPES &&
	    (t = f->p2w[r->type]) != BAD_TYPE, 1)) {
		r->type = t;
		return ssp_rec_wr_copy_raw(w, rr, 0, r, e);
	}
	if ((rv = map_slow(f, rr, r, &t, e)) != SSP_OK)
		return rv;
	r->type = t;
	return ssp_rec_wr_copy_raw(w, rr, 0, r, e);
}

#define BATCH 256

/* The output type of r, or BAD_TYPE (e set). */
static inline uint32_t
out_type(struct ssp_filter *f, const struct ssp_rec_rd *rr, const struct ssp_rec *r,
    struct ssp_err *e)
{
	uint32_t t;

	if (__builtin_expect(r->type < SSP_EV_NTYPES &&
	    (t = f->p2w[r->type]) != BAD_TYPE, 1))
		return t;
	return map_slow(f, rr, r, &t, e) == SSP_OK ? t : BAD_TYPE;
}

int
ssp_filter_run(struct ssp_filter *f, struct ssp_rec_rd *rr, struct ssp_rec_wr *w,
    struct ssp_filter_stats *st, uint64_t max, struct ssp_err *e)
{
	struct ssp_rec batch[BATCH], *r;
	uint64_t done = 0;
	unsigned keep[BATCH];
	uint32_t cnt[SSP_FR_NREASONS][4], ot;
	unsigned t, why, nk, j;
	int n, i;

	while (done < max) {
		n = ssp_rec_rd_next_batch(rr, batch, max - done < BATCH ?
		    (unsigned)(max - done) : BATCH, e);
		if (n <= 0)
			return n;	/* 0 or -status */
		done += (uint64_t)n;
		st->in += (uint64_t)n;
		nk = 0;
		if (f->slow == 0) {	/* nothing to check */
			for (i = 0; i < n; i++)
				keep[nk++] = (unsigned)i;
		} else {
			/* Decide first, then copy: whether an event is kept
			 * is often as good as random, and a branch on it
			 * would mispredict. */
			if (f->strings)	/* a batch is from one segment */
				sv_sync(f, rr);
			memset(cnt, 0, sizeof(cnt));
			for (i = 0; i < n; i++) {
				r = &batch[i];
				t = r->type < SSP_EV_NTYPES ? r->type : UNK;
				why = (f->slow >> t) & 1 ?
				    check_slow(f, rr, r, t) : SSP_FR_KEEP;
				/* four lanes, so counting does not wait for
				 * the last count; [SSP_FR_KEEP] is scratch */
				cnt[why][i & 3]++;
				keep[nk] = (unsigned)i;
				nk += why == SSP_FR_KEEP;
			}
			for (j = 1; j < SSP_FR_NREASONS; j++)
				st->dropped[j] += (uint64_t)cnt[j][0] +
				    cnt[j][1] + cnt[j][2] + cnt[j][3];
		}
		for (j = 0; j < nk; j++) {
			r = &batch[keep[j]];
			if ((ot = out_type(f, rr, r, e)) == BAD_TYPE)
				break;
			r->type = ot;
		}
		/* on a type the output lacks, the events before it still go out */
		if (ssp_rec_wr_copy_raw_batch(w, rr, batch, keep, j, e) != SSP_OK)
			goto fail;
		st->kept += j;
		if (j < nk)	/* e still says why (a copy sets it only on error) */
			goto fail;
	}
	return 1;
fail:	/* only a failed write makes the output unusable */
	return e->code == SSP_ERR_IO ? SSP_FILTER_EWRITE : -e->code;
}

int
ssp_filter_end(struct ssp_rec_wr *w, int got, struct ssp_err *e)
{
	int r = SSP_OK;

	if (got >= 0)
		return ssp_rec_wr_close(w, e);
	if (got != SSP_FILTER_EWRITE)
		r = ssp_rec_wr_flush(w, e);
	ssp_rec_wr_abort(w);
	return r;
}
