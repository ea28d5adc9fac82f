#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite/catalog.h"
#include "sqlite/dberr.h"
#include "sqlite/rows.h"

#define TEXT_MAGIC	"simspan-catalog 1"

static enum ssp_status
nomem(struct ssp_err *e)
{
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

static char *
dup_or_null(const unsigned char *s, int *failed)
{
	char *d;

	if (s == NULL)
		return NULL;
	if ((d = strdup((const char *)s)) == NULL)
		*failed = 1;
	return d;
}

void
ssp_catalog_free(struct ssp_catalog *c)
{
	unsigned i, j;

	if (c == NULL)
		return;
	for (i = 0; i < c->ntables; i++) {
		struct ssp_catalog_table *t = &c->table[i];

		for (j = 0; c->arena == NULL && j < t->ncols; j++) {
			free(t->col[j].name);
			free(t->col[j].type);
		}
		free(t->col);
		if (c->arena == NULL) {
			free(t->name);
			free(t->sql);
		}
	}
	for (i = 0; i < c->nindexes; i++) {
		struct ssp_catalog_index *x = &c->index[i];

		for (j = 0; c->arena == NULL && j < x->nkeys; j++) {
			free(x->key[j].name);
			free(x->key[j].coll);
		}
		free(x->key);
		if (c->arena == NULL) {
			free(x->name);
			free(x->table);
			free(x->sql);
		}
	}
	free(c->table);
	free(c->index);
	free(c->arena);
	free(c);
}

const struct ssp_catalog_table *
ssp_catalog_table(const struct ssp_catalog *c, const char *name)
{
	unsigned i;

	SSP_ASSERT(c != NULL && name != NULL);
	for (i = 0; i < c->ntables; i++)
		if (strcmp(c->table[i].name, name) == 0)
			return &c->table[i];
	return NULL;
}

const struct ssp_catalog_col *
ssp_catalog_col(const struct ssp_catalog_table *t, const char *name)
{
	unsigned i;

	SSP_ASSERT(t != NULL && name != NULL);
	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->col[i].name, name) == 0)
			return &t->col[i];
	return NULL;
}

/* --- from a database ------------------------------------------------------ */

/* The columns of table t (pragma_table_xinfo) and whether it has rowids. */
static enum ssp_status
read_cols(sqlite3 *db, const char *name, struct ssp_catalog_table *t,
    struct ssp_err *e)
{
	sqlite3_stmt *s = NULL;
	unsigned cap = 0;
	int rc, failed = 0;

	if (sqlite3_prepare_v2(db, "SELECT name, ifnull(type, ''), \"notnull\", "
	    "dflt_value IS NOT NULL, pk, hidden FROM main.pragma_table_xinfo(?)",
	    -1, &s, NULL) != SQLITE_OK)
		return ssp_dberr_set(e, db, name);
	sqlite3_bind_text(s, 1, t->name, -1, SQLITE_STATIC);
	while (!failed && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct ssp_catalog_col *c;

		if (t->ncols == cap) {
			cap = cap ? 2 * cap : 16;
			if ((c = realloc(t->col, cap * sizeof(*c))) == NULL) {
				failed = 1;
				break;
			}
			t->col = c;
		}
		c = &t->col[t->ncols++];
		memset(c, 0, sizeof(*c));
		c->name = dup_or_null(sqlite3_column_text(s, 0), &failed);
		c->type = dup_or_null(sqlite3_column_text(s, 1), &failed);
		if (c->name == NULL || c->type == NULL)
			failed = 1;
		c->notnull = sqlite3_column_int(s, 2);
		c->dflt = sqlite3_column_int(s, 3);
		c->pk = sqlite3_column_int(s, 4);
		c->hidden = sqlite3_column_int(s, 5);
	}
	sqlite3_finalize(s);
	if (failed)
		return nomem(e);
	if (rc != SQLITE_DONE)
		return ssp_dberr_set(e, db, name);
	/* WITHOUT ROWID, or a PRIMARY KEY that is not the rowid */
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM main.pragma_index_list(?) "
	    "WHERE origin = 'pk'", -1, &s, NULL) != SQLITE_OK)
		return ssp_dberr_set(e, db, name);
	sqlite3_bind_text(s, 1, t->name, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	t->rowid = rc == SQLITE_ROW && sqlite3_column_int(s, 0) == 0;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? SSP_OK : ssp_dberr_set(e, db, name);
}

/* The columns of index x (pragma_index_xinfo), unique and partial. */
static enum ssp_status
read_keys(sqlite3 *db, const char *name, struct ssp_catalog_index *x,
    struct ssp_err *e)
{
	sqlite3_stmt *s = NULL;
	unsigned cap = 0;
	int rc, failed = 0;

	if (sqlite3_prepare_v2(db, "SELECT name, coll, desc, key, (SELECT "
	    "\"unique\" FROM main.pragma_index_list(?2) WHERE name = ?1), (SELECT "
	    "partial FROM main.pragma_index_list(?2) WHERE name = ?1) FROM "
	    "main.pragma_index_xinfo(?1)", -1, &s, NULL) != SQLITE_OK)
		return ssp_dberr_set(e, db, name);
	sqlite3_bind_text(s, 1, x->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, x->table, -1, SQLITE_STATIC);
	while (!failed && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct ssp_catalog_key *k;

		if (x->nkeys == cap) {
			cap = cap ? 2 * cap : 8;
			if ((k = realloc(x->key, cap * sizeof(*k))) == NULL) {
				failed = 1;
				break;
			}
			x->key = k;
		}
		k = &x->key[x->nkeys++];
		memset(k, 0, sizeof(*k));
		k->name = dup_or_null(sqlite3_column_text(s, 0), &failed);
		k->coll = dup_or_null(sqlite3_column_text(s, 1), &failed);
		k->desc = sqlite3_column_int(s, 2);
		k->key = sqlite3_column_int(s, 3);
		x->unique = sqlite3_column_int(s, 4);
		x->partial = sqlite3_column_int(s, 5);
	}
	sqlite3_finalize(s);
	if (failed)
		return nomem(e);
	return rc == SQLITE_DONE ? SSP_OK : ssp_dberr_set(e, db, name);
}

/*
 * Does SQLite compute the generated values of the tables the writers
 * fill (rows.h) as they do?  traces.dur_ps is end_ps - start_ps: two
 * probe rows in an empty copy of the table say (the direct writer builds
 * an index on it from its own differences, else REINDEXes it).
 */
static enum ssp_status
probe_generated(struct ssp_catalog *c, const char *name, struct ssp_err *e)
{
	static const int64_t probe[][2] = { { 5, 12 }, { 12, -30 } };
	const struct ssp_rows_table *rt = &ssp_rows_tables[SSP_ROWS_TRACES];
	struct ssp_catalog_table *t = NULL;
	struct ssp_catalog_col *gen = NULL;
	sqlite3 *m = NULL;
	sqlite3_stmt *ins = NULL, *q = NULL;
	char sql[512];
	size_t len = 0;
	unsigned i;
	int ok = 1;

	for (i = 0; i < c->ntables; i++)
		if (strcmp(c->table[i].name, rt->name) == 0)
			t = &c->table[i];
	for (i = 0; t != NULL && i < t->ncols; i++)
		if (t->col[i].hidden == 2 && strcmp(t->col[i].name,
		    rt->col[SSP_TRACES_DUR_PS]) == 0)
			gen = &t->col[i];
	if (gen == NULL || t->sql == NULL)
		return SSP_OK;
	len += (size_t)snprintf(sql, sizeof(sql), "INSERT INTO %s(", rt->name);
	for (i = 1; i < rt->ncols; i++)
		if (!(rt->gen >> i & 1))
			len += (size_t)snprintf(sql + len, sizeof(sql) - len,
			    "%s%s", i > 1 ? ", " : "", rt->col[i]);
	len += (size_t)snprintf(sql + len, sizeof(sql) - len, ") VALUES (");
	for (i = 1; i < rt->ncols; i++)
		if (!(rt->gen >> i & 1))
			len += (size_t)snprintf(sql + len, sizeof(sql) - len,
			    "%s?%u", i > 1 ? ", " : "", i);
	snprintf(sql + len, sizeof(sql) - len, ")");
	if (sqlite3_open_v2(":memory:", &m, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    sqlite3_exec(m, t->sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(m, sql, -1, &ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(m, "SELECT dur_ps FROM traces WHERE rowid = ?",
	    -1, &q, NULL) != SQLITE_OK) {
		enum ssp_status r = ssp_dberr_set(e, m, name);

		sqlite3_finalize(ins);
		sqlite3_close(m);
		return r;
	}
	for (i = 0; ok && i < sizeof(probe) / sizeof(probe[0]); i++) {
		unsigned k;

		for (k = 1; k < rt->ncols; k++)
			if (rt->text >> k & 1)
				sqlite3_bind_text(ins, (int)k, "0123456789abcdef"
				    "0123456789abcdef", 32, SQLITE_STATIC);
			else
				sqlite3_bind_int64(ins, (int)k, 1);
		sqlite3_bind_int64(ins, SSP_TRACES_RUN, (int64_t)i + 1);
		sqlite3_bind_int64(ins, SSP_TRACES_START_PS, probe[i][0]);
		sqlite3_bind_int64(ins, SSP_TRACES_END_PS, probe[i][1]);
		ok = sqlite3_step(ins) == SQLITE_DONE;
		sqlite3_reset(ins);
		sqlite3_bind_int64(q, 1, sqlite3_last_insert_rowid(m));
		ok = ok && sqlite3_step(q) == SQLITE_ROW &&
		    sqlite3_column_type(q, 0) == SQLITE_INTEGER &&
		    sqlite3_column_int64(q, 0) == probe[i][1] - probe[i][0];
		sqlite3_reset(q);
	}
	gen->gen_ok = ok;
	sqlite3_finalize(ins);
	sqlite3_finalize(q);
	sqlite3_close(m);
	return SSP_OK;
}

enum ssp_status
ssp_catalog_read(sqlite3 *db, const char *name, struct ssp_catalog **cp,
    struct ssp_err *e)
{
	struct ssp_catalog *c;
	sqlite3_stmt *s = NULL;
	enum ssp_status r = SSP_OK;
	unsigned tcap = 0, xcap = 0, i;
	int rc, failed = 0;

	SSP_ASSERT(db != NULL && name != NULL && cp != NULL);
	*cp = NULL;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return nomem(e);
	if ((r = ssp_dberr_int(db, "PRAGMA main.user_version", 0,
	    &c->user_version, name, e)) != SSP_OK ||
	    (r = ssp_dberr_int(db, "PRAGMA main.application_id", 0,
	    &c->application_id, name, e)) != SSP_OK ||
	    (r = ssp_dberr_int(db, "PRAGMA main.schema_version", 0,
	    &c->schema_version, name, e)) != SSP_OK)
		goto out;
	if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, rootpage, sql "
	    "FROM main.sqlite_schema ORDER BY rowid", -1, &s, NULL) != SQLITE_OK) {
		r = ssp_dberr_set(e, db, name);
		goto out;
	}
	while (!failed && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(s, 0);
		int64_t root = sqlite3_column_int64(s, 3);

		if (type == NULL)
			continue;
		if (strcmp(type, "trigger") == 0)
			c->ntriggers++;
		if (root < 0 || root > UINT32_MAX)
			root = 0;
		if (strcmp(type, "table") == 0) {
			struct ssp_catalog_table *t;

			if (c->ntables == tcap) {
				tcap = tcap ? 2 * tcap : 32;
				if ((t = realloc(c->table, tcap * sizeof(*t))) == NULL) {
					failed = 1;
					break;
				}
				c->table = t;
			}
			t = &c->table[c->ntables++];
			memset(t, 0, sizeof(*t));
			t->name = dup_or_null(sqlite3_column_text(s, 1), &failed);
			t->sql = dup_or_null(sqlite3_column_text(s, 4), &failed);
			t->root = (uint32_t)root;
			if (t->name == NULL)
				failed = 1;
		} else if (strcmp(type, "index") == 0) {
			struct ssp_catalog_index *x;

			if (c->nindexes == xcap) {
				xcap = xcap ? 2 * xcap : 32;
				if ((x = realloc(c->index, xcap * sizeof(*x))) == NULL) {
					failed = 1;
					break;
				}
				c->index = x;
			}
			x = &c->index[c->nindexes++];
			memset(x, 0, sizeof(*x));
			x->name = dup_or_null(sqlite3_column_text(s, 1), &failed);
			x->table = dup_or_null(sqlite3_column_text(s, 2), &failed);
			x->sql = dup_or_null(sqlite3_column_text(s, 4), &failed);
			x->root = (uint32_t)root;
			if (x->name == NULL || x->table == NULL)
				failed = 1;
		}
	}
	sqlite3_finalize(s);
	if (failed) {
		r = nomem(e);
		goto out;
	}
	if (rc != SQLITE_DONE) {
		r = ssp_dberr_set(e, db, name);
		goto out;
	}
	for (i = 0; r == SSP_OK && i < c->ntables; i++)
		r = read_cols(db, name, &c->table[i], e);
	for (i = 0; r == SSP_OK && i < c->nindexes; i++)
		r = read_keys(db, name, &c->index[i], e);
	if (r == SSP_OK)
		r = probe_generated(c, name, e);
out:
	if (r != SSP_OK) {
		ssp_catalog_free(c);
		return r;
	}
	*cp = c;
	return SSP_OK;
}

/* --- as text -------------------------------------------------------------- */

/*
 * One line per record, fields separated by tabs:
 *   simspan-catalog 1  user_version  application_id  schema_version  triggers
 *   table  name  root  rowid  sql            (its columns follow)
 *   col  name  type  notnull  dflt  pk  hidden  gen_ok
 *   index  name  table  root  unique  partial  sql   (its keys follow)
 *   key  name  coll  desc  key
 *   end
 * Text fields escape backslash, tab and newline as \\, \t and \n; \N is
 * NULL.
 */
static void
put_text(struct ssp_buf *b, const char *s)
{
	ssp_buf_putc(b, '\t');
	if (s == NULL) {
		ssp_buf_lit(b, "\\N");
		return;
	}
	for (; *s != '\0'; s++)
		if (*s == '\\')
			ssp_buf_lit(b, "\\\\");
		else if (*s == '\t')
			ssp_buf_lit(b, "\\t");
		else if (*s == '\n')
			ssp_buf_lit(b, "\\n");
		else
			ssp_buf_putc(b, *s);
}

static void
put_int(struct ssp_buf *b, int64_t v)
{
	char num[24];

	ssp_buf_put(b, num, (size_t)snprintf(num, sizeof(num), "\t%" PRId64, v));
}

void
ssp_catalog_text(const struct ssp_catalog *c, struct ssp_buf *b)
{
	unsigned i, j;

	SSP_ASSERT(c != NULL && b != NULL);
	ssp_buf_lit(b, TEXT_MAGIC);
	put_int(b, c->user_version);
	put_int(b, c->application_id);
	put_int(b, c->schema_version);
	put_int(b, c->ntriggers);
	ssp_buf_putc(b, '\n');
	for (i = 0; i < c->ntables; i++) {
		const struct ssp_catalog_table *t = &c->table[i];

		ssp_buf_lit(b, "table");
		put_text(b, t->name);
		put_int(b, t->root);
		put_int(b, t->rowid);
		put_text(b, t->sql);
		ssp_buf_putc(b, '\n');
		for (j = 0; j < t->ncols; j++) {
			const struct ssp_catalog_col *k = &t->col[j];

			ssp_buf_lit(b, "col");
			put_text(b, k->name);
			put_text(b, k->type);
			put_int(b, k->notnull);
			put_int(b, k->dflt);
			put_int(b, k->pk);
			put_int(b, k->hidden);
			put_int(b, k->gen_ok);
			ssp_buf_putc(b, '\n');
		}
	}
	for (i = 0; i < c->nindexes; i++) {
		const struct ssp_catalog_index *x = &c->index[i];

		ssp_buf_lit(b, "index");
		put_text(b, x->name);
		put_text(b, x->table);
		put_int(b, x->root);
		put_int(b, x->unique);
		put_int(b, x->partial);
		put_text(b, x->sql);
		ssp_buf_putc(b, '\n');
		for (j = 0; j < x->nkeys; j++) {
			const struct ssp_catalog_key *k = &x->key[j];

			ssp_buf_lit(b, "key");
			put_text(b, k->name);
			put_text(b, k->coll);
			put_int(b, k->desc);
			put_int(b, k->key);
			ssp_buf_putc(b, '\n');
		}
	}
	ssp_buf_lit(b, "end\n");
}

#define MAXF	8	/* fields of a line at most */

/* A line of the text, its fields in place (not terminated). */
struct line {
	char *f[MAXF];
	size_t len[MAXF];
	unsigned n;
};

/* The line at *p (before end) split at tabs; *p moves past it. */
static int
next_line(char **p, char *end, struct line *l)
{
	char *s = *p, *nl;

	if (s >= end || (nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
		return 0;
	l->n = 0;
	for (;;) {
		char *tab = memchr(s, '\t', (size_t)(nl - s));
		char *stop = tab != NULL ? tab : nl;

		if (l->n == MAXF)
			return 0;
		l->f[l->n] = s;
		l->len[l->n++] = (size_t)(stop - s);
		if (tab == NULL)
			break;
		s = tab + 1;
	}
	*p = nl + 1;
	return 1;
}

static int
is(const struct line *l, const char *word, unsigned nf)
{
	return l->n == nf && l->len[0] == strlen(word) &&
	    memcmp(l->f[0], word, l->len[0]) == 0;
}

/* Field i as a string, unescaped where it lies and terminated over the
 * separator after it (NULL for \N): 0, or -1. */
static int
get_text(const struct line *l, unsigned i, char **out)
{
	char *s = l->f[i], *d = s;
	size_t n = l->len[i], k;

	*out = NULL;
	if (n == 2 && s[0] == '\\' && s[1] == 'N')
		return 0;
	for (k = 0; k < n; k++) {
		if (s[k] != '\\') {
			*d++ = s[k];
			continue;
		}
		if (++k == n)
			return -1;
		if (s[k] == '\\')
			*d++ = '\\';
		else if (s[k] == 't')
			*d++ = '\t';
		else if (s[k] == 'n')
			*d++ = '\n';
		else
			return -1;
	}
	*d = '\0';
	*out = s;
	return 0;
}

/* Field i as a decimal integer: 0, or -1. */
static int
get_int(const struct line *l, unsigned i, int64_t *v)
{
	const char *s = l->f[i];
	size_t n = l->len[i], k = s[0] == '-';
	uint64_t u = 0;

	if (n == k || n - k > 18)
		return -1;
	for (; k < n; k++) {
		if (s[k] < '0' || s[k] > '9')
			return -1;
		u = u * 10 + (uint64_t)(s[k] - '0');
	}
	*v = s[0] == '-' ? -(int64_t)u : (int64_t)u;
	return 0;
}

static int
get_small(const struct line *l, unsigned i, int *v)
{
	int64_t x;

	if (get_int(l, i, &x) != 0 || x < INT32_MIN || x > INT32_MAX)
		return -1;
	*v = (int)x;
	return 0;
}

static int
get_root(const struct line *l, unsigned i, uint32_t *v)
{
	int64_t x;

	if (get_int(l, i, &x) != 0 || x < 0 || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* Room for one more of an array of n elements of size sz (capacities
 * are powers of two). */
static void *
more(void *p, unsigned n, size_t sz)
{
	if (n != 0 && (n & (n - 1)) != 0)
		return p;
	return realloc(p, (n ? 2 * (size_t)n : 1) * sz);
}

/* The catalog of the text p .. end, in place: its strings stay there. */
static int
parse(char *p, char *end, struct ssp_catalog *c)
{
	struct ssp_catalog_table *t = NULL;
	struct ssp_catalog_index *x = NULL;
	struct line l;
	int64_t v;
	void *np;

	if (!next_line(&p, end, &l) || l.n != 5 || l.len[0] != strlen(TEXT_MAGIC) ||
	    memcmp(l.f[0], TEXT_MAGIC, l.len[0]) != 0 ||
	    get_int(&l, 1, &c->user_version) != 0 ||
	    get_int(&l, 2, &c->application_id) != 0 ||
	    get_int(&l, 3, &c->schema_version) != 0 ||
	    get_int(&l, 4, &v) != 0 || v < 0 || v > UINT32_MAX)
		return -1;
	c->ntriggers = (unsigned)v;
	while (next_line(&p, end, &l)) {
		if (is(&l, "end", 1))
			return p == end ? 0 : -1;
		if (is(&l, "table", 5)) {
			if (x != NULL || (np = more(c->table, c->ntables,
			    sizeof(*t))) == NULL)
				return -1;
			c->table = np;
			t = &c->table[c->ntables++];
			memset(t, 0, sizeof(*t));
			if (get_text(&l, 1, &t->name) != 0 || t->name == NULL ||
			    get_root(&l, 2, &t->root) != 0 ||
			    get_small(&l, 3, &t->rowid) != 0 ||
			    get_text(&l, 4, &t->sql) != 0)
				return -1;
		} else if (is(&l, "col", 8)) {
			struct ssp_catalog_col *k;

			if (t == NULL || x != NULL ||
			    (np = more(t->col, t->ncols, sizeof(*k))) == NULL)
				return -1;
			t->col = np;
			k = &t->col[t->ncols++];
			memset(k, 0, sizeof(*k));
			if (get_text(&l, 1, &k->name) != 0 || k->name == NULL ||
			    get_text(&l, 2, &k->type) != 0 || k->type == NULL ||
			    get_small(&l, 3, &k->notnull) != 0 ||
			    get_small(&l, 4, &k->dflt) != 0 ||
			    get_small(&l, 5, &k->pk) != 0 ||
			    get_small(&l, 6, &k->hidden) != 0 ||
			    get_small(&l, 7, &k->gen_ok) != 0)
				return -1;
		} else if (is(&l, "index", 7)) {
			if ((np = more(c->index, c->nindexes, sizeof(*x))) == NULL)
				return -1;
			c->index = np;
			x = &c->index[c->nindexes++];
			memset(x, 0, sizeof(*x));
			if (get_text(&l, 1, &x->name) != 0 || x->name == NULL ||
			    get_text(&l, 2, &x->table) != 0 || x->table == NULL ||
			    get_root(&l, 3, &x->root) != 0 ||
			    get_small(&l, 4, &x->unique) != 0 ||
			    get_small(&l, 5, &x->partial) != 0 ||
			    get_text(&l, 6, &x->sql) != 0)
				return -1;
		} else if (is(&l, "key", 5)) {
			struct ssp_catalog_key *k;

			if (x == NULL || (np = more(x->key, x->nkeys,
			    sizeof(*k))) == NULL)
				return -1;
			x->key = np;
			k = &x->key[x->nkeys++];
			memset(k, 0, sizeof(*k));
			if (get_text(&l, 1, &k->name) != 0 ||
			    get_text(&l, 2, &k->coll) != 0 ||
			    get_small(&l, 3, &k->desc) != 0 ||
			    get_small(&l, 4, &k->key) != 0)
				return -1;
		} else {
			return -1;
		}
	}
	return -1;	/* no "end" */
}

enum ssp_status
ssp_catalog_parse(const char *text, size_t n, struct ssp_catalog **cp,
    struct ssp_err *e)
{
	struct ssp_catalog *c;

	SSP_ASSERT(text != NULL && cp != NULL);
	*cp = NULL;
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->arena = malloc(n + 1)) == NULL) {
		free(c);
		return nomem(e);
	}
	memcpy(c->arena, text, n);
	if (parse(c->arena, c->arena + n, c) != 0) {
		ssp_catalog_free(c);
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "a schema catalog that "
		    "does not parse");
	}
	*cp = c;
	return SSP_OK;
}
