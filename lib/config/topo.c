#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "config/topo.h"
#include "io/csv.h"

/* A reference to a stream by name, resolved after all rows are read. */
struct ref {
	char *name;
	unsigned line, col;
	enum ssp_sim want;
};

struct pending_pcie { struct ref host, nic; char *adapter; unsigned line, acol; };
struct pending_eth { struct ref nic, net; uint32_t node, dev; unsigned line, col; };
struct pending_n2n { struct ref net[2]; uint32_t node[2], dev[2]; unsigned line, col[2]; };

struct tp {
	struct ssp_topo *t;
	const char *dir;
	unsigned rows;
	struct pending_pcie *pp;
	size_t npp, cpp;
	struct pending_eth *pe;
	size_t npe, cpe;
	struct pending_n2n *pn;
	size_t npn, cpn;
	size_t cstreams;
};

static char *
dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d != NULL) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

int
ssp_topo_name_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > SSP_TOPO_NAMEMAX)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

int
ssp_topo_find(const struct ssp_topo *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nstreams; i++)
		if (strcmp(t->streams[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int
get_ref(struct ref *r, const struct ssp_csv_row *row, unsigned i,
    enum ssp_sim want, const char *what, struct ssp_err *e)
{
	if (i >= row->n || row->f[i].len == 0)
		return ssp_csv_ferr(e, row, i, "missing %s name", what);
	if (!ssp_topo_name_ok(row->f[i].s, row->f[i].len))
		return ssp_csv_ferr(e, row, i, "bad stream name '%.40s' (allowed: "
		    "A-Z a-z 0-9 . _ -, at most %d)", row->f[i].s, SSP_TOPO_NAMEMAX);
	if ((r->name = dupn(row->f[i].s, row->f[i].len)) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	r->line = row->f[i].line;
	r->col = row->f[i].col;
	r->want = want;
	return SSP_OK;
}

static int
get_u32(uint32_t *v, const struct ssp_csv_row *row, unsigned i,
    const char *what, struct ssp_err *e)
{
	const char *s;
	uint64_t x = 0;

	if (i >= row->n || row->f[i].len == 0)
		return ssp_csv_ferr(e, row, i, "missing %s", what);
	for (s = row->f[i].s; *s; s++) {
		if (*s < '0' || *s > '9' || x > UINT32_MAX / 10)
			return ssp_csv_ferr(e, row, i, "bad %s '%.40s' (a decimal "
			    "number below 2^32)", what, row->f[i].s);
		x = x * 10 + (uint64_t)(*s - '0');
	}
	if (x > UINT32_MAX)
		return ssp_csv_ferr(e, row, i, "bad %s '%.40s' (a decimal "
		    "number below 2^32)", what, row->f[i].s);
	*v = (uint32_t)x;
	return SSP_OK;
}

static int
too_many(const struct ssp_csv_row *row, unsigned max, struct ssp_err *e)
{
	if (row->n > max)
		return ssp_csv_ferr(e, row, max, "unexpected field '%.40s' (a %s "
		    "row has at most %u fields)", row->f[max].s, row->f[0].s, max);
	return SSP_OK;
}

static int
row_stream(struct tp *p, const struct ssp_csv_row *row, struct ssp_err *e)
{
	struct ssp_topo *t = p->t;
	struct ssp_topo_stream *s;
	enum ssp_sim kind;
	int r;

	if ((r = too_many(row, 4, e)) != SSP_OK)
		return r;
	if (row->n < 2 || row->f[1].len == 0)
		return ssp_csv_ferr(e, row, 1, "missing stream name");
	if (!ssp_topo_name_ok(row->f[1].s, row->f[1].len))
		return ssp_csv_ferr(e, row, 1, "bad stream name '%.40s' (allowed: "
		    "A-Z a-z 0-9 . _ -, at most %d)", row->f[1].s, SSP_TOPO_NAMEMAX);
	if ((r = ssp_topo_find(t, row->f[1].s)) >= 0)
		return ssp_csv_ferr(e, row, 1, "duplicate stream name '%s' (first "
		    "defined at line %u)", row->f[1].s, t->streams[r].line);
	if (row->n < 3 || row->f[2].len == 0)
		return ssp_csv_ferr(e, row, 2, "missing stream kind (host, nic or net)");
	if ((kind = ssp_event_sim_parse_kind(row->f[2].s)) == SSP_SIM_NONE)
		return ssp_csv_ferr(e, row, 2, "unknown stream kind '%.40s' "
		    "(expected host, nic or net)", row->f[2].s);
	if (t->nstreams == SSP_TOPO_MAXSTREAMS)
		return ssp_csv_ferr(e, row, 0, "more than %d streams",
		    SSP_TOPO_MAXSTREAMS);
	if (ssp_buf_array((void **)&t->streams, &p->cstreams, t->nstreams + 1,
	    sizeof(*s)) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	s = &t->streams[t->nstreams];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->line = row->line;
	s->pcie = s->eth = -1;
	if ((s->name = dupn(row->f[1].s, row->f[1].len)) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	t->nstreams++;
	if (row->n >= 4 && row->f[3].len > 0) {
		const char *f = row->f[3].s;
		size_t n;

		if (f[0] == '/' || strcmp(f, "-") == 0 || p->dir == NULL) {
			s->file = dupn(f, row->f[3].len);
		} else {
			n = strlen(p->dir) + row->f[3].len + 2;
			if ((s->file = malloc(n)) != NULL)
				snprintf(s->file, n, "%s/%s", p->dir, f);
		}
		if (s->file == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	return SSP_OK;
}

static int
row_pcie(struct tp *p, const struct ssp_csv_row *row, struct ssp_err *e)
{
	struct pending_pcie *pc;
	int r;

	if ((r = too_many(row, 4, e)) != SSP_OK)
		return r;
	if (ssp_buf_array((void **)&p->pp, &p->cpp, p->npp + 1, sizeof(*pc)) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	pc = &p->pp[p->npp++];
	memset(pc, 0, sizeof(*pc));
	pc->line = row->line;
	if ((r = get_ref(&pc->host, row, 1, SSP_SIM_GEM5, "host", e)) != SSP_OK ||
	    (r = get_ref(&pc->nic, row, 2, SSP_SIM_NICBM, "nic", e)) != SSP_OK)
		return r;
	if (row->n >= 4 && row->f[3].len > 0) {
		if ((pc->adapter = dupn(row->f[3].s, row->f[3].len)) == NULL)
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		pc->acol = row->f[3].col;
	}
	return SSP_OK;
}

static int
row_eth(struct tp *p, const struct ssp_csv_row *row, struct ssp_err *e)
{
	struct pending_eth *pe;
	int r;

	if ((r = too_many(row, 5, e)) != SSP_OK)
		return r;
	if (ssp_buf_array((void **)&p->pe, &p->cpe, p->npe + 1, sizeof(*pe)) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	pe = &p->pe[p->npe++];
	memset(pe, 0, sizeof(*pe));
	pe->line = row->line;
	if ((r = get_ref(&pe->nic, row, 1, SSP_SIM_NICBM, "nic", e)) != SSP_OK ||
	    (r = get_ref(&pe->net, row, 2, SSP_SIM_NS3, "net", e)) != SSP_OK ||
	    (r = get_u32(&pe->node, row, 3, "ns-3 node number", e)) != SSP_OK ||
	    (r = get_u32(&pe->dev, row, 4, "ns-3 device number", e)) != SSP_OK)
		return r;
	pe->col = row->f[3].col;
	return SSP_OK;
}

static int
row_n2n(struct tp *p, const struct ssp_csv_row *row, struct ssp_err *e)
{
	struct pending_n2n *pn;
	unsigned i;
	int r;

	if ((r = too_many(row, 7, e)) != SSP_OK)
		return r;
	if (ssp_buf_array((void **)&p->pn, &p->cpn, p->npn + 1, sizeof(*pn)) != 0)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	pn = &p->pn[p->npn++];
	memset(pn, 0, sizeof(*pn));
	pn->line = row->line;
	for (i = 0; i < 2; i++) {
		if ((r = get_ref(&pn->net[i], row, 1 + 3 * i, SSP_SIM_NS3, "net",
		    e)) != SSP_OK ||
		    (r = get_u32(&pn->node[i], row, 2 + 3 * i, "node number", e)) !=
		    SSP_OK ||
		    (r = get_u32(&pn->dev[i], row, 3 + 3 * i, "device number", e)) !=
		    SSP_OK)
			return r;
		pn->col[i] = row->f[2 + 3 * i].col;
	}
	return SSP_OK;
}

static int
on_row(void *ctx, const struct ssp_csv_row *row, struct ssp_err *e)
{
	struct tp *p = ctx;
	const char *type = row->f[0].s;

	if (p->rows++ == 0 && strcmp(type, "type") == 0)
		return SSP_OK;		/* header row */
	if (strcmp(type, "stream") == 0)
		return row_stream(p, row, e);
	if (strcmp(type, "pcie") == 0)
		return row_pcie(p, row, e);
	if (strcmp(type, "eth") == 0)
		return row_eth(p, row, e);
	if (strcmp(type, "n2n") == 0)
		return row_n2n(p, row, e);
	return ssp_csv_ferr(e, row, 0, "unknown row type '%.40s' (expected "
	    "stream, pcie, eth or n2n)", type);
}

static int
resolve(struct tp *p, const struct ref *r, unsigned *idx, struct ssp_err *e)
{
	int i = ssp_topo_find(p->t, r->name);

	if (i < 0)
		return ssp_csv_err(e, p->t->name, r->line, r->col, "no stream "
		    "named '%s'", r->name);
	if (p->t->streams[i].kind != r->want)
		return ssp_csv_err(e, p->t->name, r->line, r->col, "stream '%s' is "
		    "a %s stream, expected a %s stream", r->name,
		    ssp_event_sim_kind(p->t->streams[i].kind), ssp_event_sim_kind(r->want));
	*idx = (unsigned)i;
	return SSP_OK;
}

/* The row (eth or n2n) that already wires (net, node, dev), or 0. */
static unsigned
wired(const struct ssp_topo *t, unsigned net, uint32_t node, uint32_t dev)
{
	size_t i;
	int k;

	for (i = 0; i < t->neth; i++)
		if (t->eth[i].net == net && t->eth[i].node == node && t->eth[i].dev == dev)
			return t->eth[i].line;
	for (i = 0; i < t->nn2n; i++)
		for (k = 0; k < 2; k++)
			if (t->n2n[i].net[k] == net && t->n2n[i].node[k] == node &&
			    t->n2n[i].dev[k] == dev)
				return t->n2n[i].line;
	return 0;
}

static int
link_n2n(struct tp *p, struct ssp_err *e)
{
	struct ssp_topo *t = p->t;
	size_t i;
	unsigned line;
	int k, r;

	if (p->npn > 0 && (t->n2n = calloc(p->npn, sizeof(*t->n2n))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < p->npn; i++) {
		struct ssp_topo_n2n *l = &t->n2n[i];
		const struct pending_n2n *pn = &p->pn[i];

		for (k = 0; k < 2; k++)
			if ((r = resolve(p, &pn->net[k], &l->net[k], e)) != SSP_OK)
				return r;
		if (l->net[0] == l->net[1] && pn->node[0] == pn->node[1] &&
		    pn->dev[0] == pn->dev[1])
			return ssp_csv_err(e, t->name, pn->line, pn->col[1], "node %u "
			    "device %u of '%s' is linked to itself", pn->node[0],
			    pn->dev[0], t->streams[l->net[0]].name);
		for (k = 0; k < 2; k++)
			if ((line = wired(t, l->net[k], pn->node[k], pn->dev[k])) != 0)
				return ssp_csv_err(e, t->name, pn->line, pn->col[k],
				    "node %u device %u of '%s' is already attached at "
				    "line %u", pn->node[k], pn->dev[k],
				    t->streams[l->net[k]].name, line);
		for (k = 0; k < 2; k++) {
			l->node[k] = pn->node[k];
			l->dev[k] = pn->dev[k];
		}
		l->line = pn->line;
		t->nn2n++;
	}
	return SSP_OK;
}

static int
link_up(struct tp *p, struct ssp_err *e)
{
	struct ssp_topo *t = p->t;
	size_t i, j;
	int r;

	if (t->nstreams == 0)
		return ssp_csv_err(e, t->name, 1, 1, "no stream rows");
	if (p->npp > 0 && (t->pcie = calloc(p->npp, sizeof(*t->pcie))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < p->npp; i++) {
		struct ssp_topo_pcie *l = &t->pcie[i];
		struct ssp_topo_stream *nic;

		if ((r = resolve(p, &p->pp[i].host, &l->host, e)) != SSP_OK ||
		    (r = resolve(p, &p->pp[i].nic, &l->nic, e)) != SSP_OK)
			return r;
		l->line = p->pp[i].line;
		l->adapter = p->pp[i].adapter;
		p->pp[i].adapter = NULL;
		t->npcie++;
		nic = &t->streams[l->nic];
		if (nic->pcie >= 0)
			return ssp_csv_err(e, t->name, p->pp[i].nic.line,
			    p->pp[i].nic.col, "nic '%s' is already attached to a "
			    "host at line %u", nic->name, t->pcie[nic->pcie].line);
		nic->pcie = (int)i;
	}
	/* A host with several NICs tells them apart by adapter component. */
	for (i = 0; i < t->npcie; i++)
		for (j = 0; j < t->npcie; j++) {
			const struct ssp_topo_pcie *a = &t->pcie[i], *b = &t->pcie[j];

			if (i == j || a->host != b->host)
				continue;
			if (a->adapter == NULL)
				return ssp_csv_err(e, t->name, a->line, 1, "host '%s' "
				    "has several nics: give the gem5 adapter "
				    "(e.g. system.pc.simbricks_0) as 4th field",
				    t->streams[a->host].name);
			if (b->adapter != NULL && j < i &&
			    strcmp(a->adapter, b->adapter) == 0)
				return ssp_csv_err(e, t->name, a->line,
				    p->pp[i].acol, "adapter '%s' of host '%s' is "
				    "already used at line %u", a->adapter,
				    t->streams[a->host].name, b->line);
		}
	if (p->npe > 0 && (t->eth = calloc(p->npe, sizeof(*t->eth))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	for (i = 0; i < p->npe; i++) {
		struct ssp_topo_eth *l = &t->eth[i];
		struct ssp_topo_stream *nic;

		if ((r = resolve(p, &p->pe[i].nic, &l->nic, e)) != SSP_OK ||
		    (r = resolve(p, &p->pe[i].net, &l->net, e)) != SSP_OK)
			return r;
		l->node = p->pe[i].node;
		l->dev = p->pe[i].dev;
		l->line = p->pe[i].line;
		t->neth++;
		nic = &t->streams[l->nic];
		if (nic->eth >= 0)
			return ssp_csv_err(e, t->name, p->pe[i].nic.line,
			    p->pe[i].nic.col, "nic '%s' is already attached to a "
			    "network at line %u", nic->name, t->eth[nic->eth].line);
		nic->eth = (int)i;
		for (j = 0; j < i; j++)
			if (t->eth[j].net == l->net && t->eth[j].node == l->node &&
			    t->eth[j].dev == l->dev)
				return ssp_csv_err(e, t->name, l->line, p->pe[i].col,
				    "node %u device %u of '%s' is already attached "
				    "at line %u", l->node, l->dev,
				    t->streams[l->net].name, t->eth[j].line);
	}
	return link_n2n(p, e);
}

int
ssp_topo_parse(struct ssp_topo **tp, const char *name, const char *dir,
    const char *buf, size_t len, struct ssp_err *e)
{
	struct tp p;
	size_t i;
	int r;

	*tp = NULL;
	memset(&p, 0, sizeof(p));
	if ((p.t = calloc(1, sizeof(*p.t))) == NULL ||
	    (p.t->name = strdup(name)) == NULL) {
		ssp_topo_free(p.t);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	p.dir = dir;
	r = ssp_csv_read_mem(name, buf, len, on_row, &p, e);
	if (r == SSP_OK)
		r = link_up(&p, e);
	for (i = 0; i < p.npp; i++) {
		free(p.pp[i].host.name);
		free(p.pp[i].nic.name);
		free(p.pp[i].adapter);
	}
	for (i = 0; i < p.npe; i++) {
		free(p.pe[i].nic.name);
		free(p.pe[i].net.name);
	}
	for (i = 0; i < p.npn; i++) {
		free(p.pn[i].net[0].name);
		free(p.pn[i].net[1].name);
	}
	free(p.pp);
	free(p.pe);
	free(p.pn);
	if (r != SSP_OK) {
		ssp_topo_free(p.t);
		return r;
	}
	*tp = p.t;
	return SSP_OK;
}

int
ssp_topo_load(struct ssp_topo **tp, const char *path, struct ssp_err *e)
{
	char *buf, *dir, *slash;
	size_t len;
	int r;

	*tp = NULL;
	if ((r = ssp_csv_slurp(path, &buf, &len, e)) != SSP_OK)
		return r;
	if ((dir = strdup(path)) == NULL) {
		free(buf);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	slash = strrchr(dir, '/');
	if (slash == NULL) {
		free(dir);
		dir = NULL;
	} else if (slash == dir) {
		slash[1] = '\0';	/* "/topo.csv": root */
	} else {
		*slash = '\0';
	}
	r = ssp_topo_parse(tp, path, dir, buf, len, e);
	free(buf);
	free(dir);
	return r;
}

int
ssp_topo_override(struct ssp_topo *t, const char *arg, struct ssp_err *e)
{
	const char *eq = strchr(arg, '=');
	char name[SSP_TOPO_NAMEMAX + 1];
	size_t n;
	int i;
	char *f;

	if (eq == NULL || eq == arg || eq[1] == '\0')
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "'%s': expected NAME=FILE",
		    arg);
	n = (size_t)(eq - arg);
	if (!ssp_topo_name_ok(arg, n))
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "'%s': bad stream name", arg);
	memcpy(name, arg, n);
	name[n] = '\0';
	if ((i = ssp_topo_find(t, name)) < 0)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "'%s': %s has no stream "
		    "named '%s'", arg, t->name, name);
	if ((f = strdup(eq + 1)) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	free(t->streams[i].file);
	t->streams[i].file = f;
	return SSP_OK;
}

void
ssp_topo_free(struct ssp_topo *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nstreams; i++) {
		free(t->streams[i].name);
		free(t->streams[i].file);
	}
	for (i = 0; i < t->npcie; i++)
		free(t->pcie[i].adapter);
	free(t->streams);
	free(t->pcie);
	free(t->eth);
	free(t->n2n);
	free(t->name);
	free(t);
}
