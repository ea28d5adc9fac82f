#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "sqlite/dberr.h"
#include "sqlite/insert.h"

#define BATCH	64	/* rows per multi-row INSERT */

/* A value waiting in a batch: text is an offset into the batch's arena. */
struct cell {
	int type;		/* SQLITE_NULL, SQLITE_INTEGER or SQLITE_TEXT */
	int64_t i;
	size_t len;
};

/* The rows of one table waiting for their INSERT. */
struct batch {
	char *head;		/* "INSERT INTO t(cols) VALUES" */
	unsigned ncols;		/* columns bound per row */
	int val[SSP_ROWS_ATTR_MAXCOLS];	/* the value of each: -1 the row id */
	/* prepared when first used (preparing every one cost a fifth of a
	 * small load's instructions) */
	sqlite3_stmt *multi, *one;
	unsigned n;
	struct cell *cells;	/* BATCH * ncols */
	struct ssp_buf text;
};

struct ssp_insert {
	struct ssp_rows rows;	/* the writer interface: first */
	sqlite3 *db;
	const char *name;
	struct ssp_err *e;
	struct batch tab[SSP_ROWS_NTABLES];
	struct batch *attr;	/* by record type; head NULL: none */
	unsigned nft;
};

static enum ssp_status
nomem(struct ssp_insert *w)
{
	return ssp_err_set(w->e, SSP_ERR_NOMEM, 0, "out of memory");
}

/* "INSERT INTO t(cols) VALUES (?,..),(?,..)..." for n rows of k columns. */
static char *
multi_insert(const char *head, unsigned k, unsigned n)
{
	size_t len = strlen(head) + (size_t)n * (2 * k + 3) + 1;
	char *sql = malloc(len), *p;
	unsigned i, j;

	if (sql == NULL)
		return NULL;
	p = sql + sprintf(sql, "%s", head);
	for (i = 0; i < n; i++) {
		*p++ = i ? ',' : ' ';
		*p++ = '(';
		for (j = 0; j < k; j++) {
			*p++ = '?';
			*p++ = j + 1 < k ? ',' : ')';
		}
	}
	*p = '\0';
	return sql;
}

/* The batch of table `table` whose bound columns are names[i] for the
 * values val[i] (-1: the row id). */
static enum ssp_status
batch_init(struct ssp_insert *w, struct batch *b, const char *table,
    const char *const *names, const int *val, unsigned n)
{
	size_t len = 0, cap = 64 + strlen(table);
	unsigned i;

	for (i = 0; i < n; i++)
		cap += strlen(names[i]) + 4;
	if ((b->head = malloc(cap)) == NULL ||
	    (b->cells = calloc((size_t)BATCH * (n ? n : 1),
	    sizeof(*b->cells))) == NULL)
		return nomem(w);
	len = (size_t)snprintf(b->head, cap, "INSERT INTO \"%s\"(", table);
	for (i = 0; i < n; i++) {
		len += (size_t)snprintf(b->head + len, cap - len, "%s\"%s\"",
		    i ? ", " : "", names[i]);
		b->val[i] = val[i];
	}
	snprintf(b->head + len, cap - len, ") VALUES");
	b->ncols = n;
	return SSP_OK;
}

static enum ssp_status
flush(struct ssp_insert *w, struct batch *b)
{
	sqlite3_stmt **sp = b->n == BATCH ? &b->multi : &b->one, *s;
	unsigned i, j;
	int k = 0, rc;

	if (b->n == 0)
		return SSP_OK;
	if (*sp == NULL) {
		char *sql = multi_insert(b->head, b->ncols, b->n == BATCH ?
		    BATCH : 1);

		if (sql == NULL)
			return nomem(w);
		rc = sqlite3_prepare_v3(w->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
		    sp, NULL);
		free(sql);
		if (rc != SQLITE_OK)
			return ssp_dberr_set(w->e, w->db, w->name);
	}
	s = *sp;
	for (i = 0; i < b->n; i++) {
		const struct cell *c = &b->cells[i * b->ncols];

		for (j = 0; j < b->ncols; j++) {
			k++;
			if (c[j].type == SQLITE_INTEGER)
				sqlite3_bind_int64(s, k, c[j].i);
			else if (c[j].type == SQLITE_TEXT)
				sqlite3_bind_text(s, k, (char *)b->text.p + c[j].i,
				    (int)c[j].len, SQLITE_STATIC);
			else
				sqlite3_bind_null(s, k);
		}
		if (s == b->one) {
			rc = sqlite3_step(s);
			sqlite3_reset(s);
			if (rc != SQLITE_DONE)
				return ssp_dberr_set(w->e, w->db, w->name);
			k = 0;
		}
	}
	if (s == b->multi) {
		rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return ssp_dberr_set(w->e, w->db, w->name);
	}
	b->n = 0;
	b->text.len = 0;
	return SSP_OK;
}

/* A row into batch b: the values it binds, text copied. */
static enum ssp_status
add(struct ssp_insert *w, struct batch *b, int64_t id,
    const struct ssp_value *v)
{
	struct cell *c = &b->cells[b->n * b->ncols];
	unsigned j;

	for (j = 0; j < b->ncols; j++) {
		const struct ssp_value *x = b->val[j] < 0 ? NULL : &v[b->val[j]];

		if (x == NULL) {
			c[j].type = SQLITE_INTEGER;
			c[j].i = id;
		} else if (x->type == SQLITE_TEXT || x->type == SQLITE_BLOB) {
			if (ssp_buf_reserve(&b->text, x->n + 1) != 0)
				return nomem(w);
			if (x->n > 0)
				memcpy(b->text.p + b->text.len, x->p, x->n);
			c[j].type = SQLITE_TEXT;
			c[j].i = (int64_t)b->text.len;
			c[j].len = x->n;
			b->text.len += x->n;
		} else {
			c[j].type = x->type;
			c[j].i = x->i;
		}
	}
	if (++b->n == BATCH)
		return flush(w, b);
	return SSP_OK;
}

static enum ssp_status
insert_row(struct ssp_rows *r, unsigned table, int64_t id, struct ssp_value *v,
    int ft, uint32_t stream)
{
	struct ssp_insert *w = (struct ssp_insert *)r;

	(void)ft;
	(void)stream;
	SSP_ASSERT(table < SSP_ROWS_NTABLES && v != NULL);
	return add(w, &w->tab[table], id, v);
}

static enum ssp_status
insert_attr(struct ssp_rows *r, unsigned ft, int64_t id,
    const struct ssp_value *v)
{
	struct ssp_insert *w = (struct ssp_insert *)r;

	SSP_ASSERT(ft < w->nft && w->attr[ft].head != NULL && v != NULL);
	return add(w, &w->attr[ft], id, v);
}

static enum ssp_status
insert_traces(struct ssp_rows *r)
{
	(void)r;
	return SSP_OK;
}

static enum ssp_status
insert_finish(struct ssp_rows *r, int rest, sqlite3 **db)
{
	struct ssp_insert *w = (struct ssp_insert *)r;
	enum ssp_status st;
	unsigned t;

	(void)rest;	/* the rows are in the caller's database anyway */
	for (t = 0; t < SSP_ROWS_NTABLES; t++)
		if ((st = flush(w, &w->tab[t])) != SSP_OK)
			return st;
	for (t = 0; t < w->nft; t++)
		if (w->attr[t].head != NULL &&
		    (st = flush(w, &w->attr[t])) != SSP_OK)
			return st;
	*db = w->db;
	return SSP_OK;
}

static void
batch_free(struct batch *b)
{
	sqlite3_finalize(b->multi);
	sqlite3_finalize(b->one);
	free(b->head);
	free(b->cells);
	ssp_buf_free(&b->text);
}

static void
insert_free(struct ssp_rows *r)
{
	struct ssp_insert *w = (struct ssp_insert *)r;
	unsigned t;

	for (t = 0; t < SSP_ROWS_NTABLES; t++)
		batch_free(&w->tab[t]);
	for (t = 0; w->attr != NULL && t < w->nft; t++)
		batch_free(&w->attr[t]);
	free(w->attr);
	free(w);
}

static const struct ssp_rows_ops insert_ops = {
	.row = insert_row,
	.attr = insert_attr,
	.traces = insert_traces,
	.finish = insert_finish,
	.free = insert_free,
};

struct ssp_rows *
ssp_insert_new(sqlite3 *db, const char *name,
    const struct ssp_rows_attr *const *attr, unsigned nft, struct ssp_err *e)
{
	struct ssp_insert *w;
	const char *names[SSP_ROWS_ATTR_MAXCOLS];
	int val[SSP_ROWS_ATTR_MAXCOLS];
	unsigned t, c, n;

	SSP_ASSERT(db != NULL && name != NULL && (attr != NULL || nft == 0));
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->attr = calloc(nft + 1, sizeof(*w->attr))) == NULL) {
		free(w);
		ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		return NULL;
	}
	w->rows.ops = &insert_ops;
	w->db = db;
	w->name = name;
	w->e = e;
	w->nft = nft;
	/* every column but the generated ones, the id among them */
	for (t = 0; t < SSP_ROWS_NTABLES; t++) {
		const struct ssp_rows_table *d = &ssp_rows_tables[t];

		for (c = n = 0; c < d->ncols; c++)
			if (!(d->gen >> c & 1)) {
				names[n] = d->col[c];
				val[n++] = c == 0 ? -1 : (int)c;
			}
		if (batch_init(w, &w->tab[t], d->name, names, val, n) != SSP_OK)
			goto fail;
	}
	/* the span, and the columns that have a field (the others keep their
	 * default) */
	for (t = 0; t < nft; t++) {
		const struct ssp_rows_attr *a = attr[t];

		if (a == NULL)
			continue;
		for (c = n = 0; c < a->ncols; c++)
			if (a->field[c] != SSP_ROWS_ATTR_NONE) {
				names[n] = a->col[c];
				val[n++] = a->field[c] == SSP_ROWS_ATTR_SPAN ? -1 :
				    (int)c;
			}
		if (batch_init(w, &w->attr[t], a->table, names, val, n) != SSP_OK)
			goto fail;
	}
	return &w->rows;
fail:
	insert_free(&w->rows);
	return NULL;
}
