#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sqlite/stat1.h"

void
ssp_stat1_add(struct ssp_stat1 *st, unsigned chng)
{
	unsigned j;

	SSP_ASSERT(st != NULL && st->ncols <= SSP_STAT1_MAXCOLS);
	if (st->n++ == 0)
		chng = 0;
	for (j = chng; j < st->ncols; j++)
		st->dist[j]++;
}

size_t
ssp_stat1_text(const struct ssp_stat1 *st, char *text, size_t cap)
{
	size_t len;
	unsigned j;

	SSP_ASSERT(st != NULL && text != NULL && cap > 0);
	len = (size_t)snprintf(text, cap, "%llu", (unsigned long long)st->n);
	for (j = 0; j < st->ncols && len < cap; j++) {
		uint64_t d = st->dist[j] ? st->dist[j] : 1;
		uint64_t avg = (st->n + d - 1) / d;

		if (avg == 2 && st->n * 10 <= d * 11)
			avg = 1;
		len += (size_t)snprintf(text + len, cap - len, " %llu",
		    (unsigned long long)avg);
	}
	return len < cap ? len : cap - 1;
}

static enum ssp_status
put(struct ssp_btree_tree *tree, int64_t *rowid, const char *tbl,
    const char *idx, const char *text, size_t len)
{
	struct ssp_value v[3];

	v[0] = ssp_value_str(tbl);
	v[1] = idx != NULL ? ssp_value_str(idx) : ssp_value_null();
	v[2] = ssp_value_text(text, len);
	return ssp_btree_row(tree, ++*rowid, v, 3);
}

enum ssp_status
ssp_stat1_write(const struct ssp_catalog *c, const struct ssp_stat1_src *src,
    struct ssp_btree_tree *tree)
{
	char text[24 * (SSP_STAT1_MAXCOLS + 1)];
	int64_t rowid = 0;
	enum ssp_status r;
	unsigned i, x;

	SSP_ASSERT(c != NULL && src != NULL && tree != NULL);
	for (i = 0; i < c->ntables; i++) {
		const struct ssp_catalog_table *ct = &c->table[i];
		uint64_t rows;
		int full = 0;

		if (strncasecmp(ct->name, "sqlite_", 7) == 0)
			continue;	/* ANALYZE leaves SQLite's own */
		for (x = c->nindexes; x-- > 0;) {
			const struct ssp_catalog_index *ci = &c->index[x];
			const struct ssp_stat1 *st;

			if (strcmp(ci->table, ct->name) != 0)
				continue;
			full |= !ci->partial;
			if ((st = src->index(src->ctx, ci->name)) == NULL ||
			    st->n == 0)
				continue;	/* empty: no row */
			if ((r = put(tree, &rowid, ct->name, ci->name, text,
			    ssp_stat1_text(st, text, sizeof(text)))) != SSP_OK)
				return r;
		}
		if (!full && (rows = src->rows(src->ctx, ct->name)) > 0 &&
		    (r = put(tree, &rowid, ct->name, NULL, text, (size_t)snprintf(text,
		    sizeof(text), "%llu", (unsigned long long)rows))) != SSP_OK)
			return r;
	}
	return SSP_OK;
}
