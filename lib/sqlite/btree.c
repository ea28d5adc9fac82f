#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sqlite/btree.h"

/*
 * Page and record formats as in https://www.sqlite.org/fileformat2.html
 * (sections 1.3 header, 1.6 b-tree pages, 2.1 record format).
 */
#define PENDING_BYTE	0x40000000u
#define MAX_PAGES	0xfffffffeu
#define WBUF_PAGES	256	/* written in runs of up to this many pages */
#define F_INTERIOR_INDEX 0x02
#define F_INTERIOR_TABLE 0x05
#define F_LEAF_INDEX	0x0a
#define F_LEAF_TABLE	0x0d

/* One page being filled, at one level of a tree (0: the leaves). */
struct level {
	unsigned char *pg;	/* the page: cells placed from the end down */
	size_t top;		/* where the cell content starts */
	uint32_t *off, *len;	/* each cell: offset, length without the
				 * child pointer and padding */
	uint32_t *child;	/* interior: the left child of each cell */
	int64_t *key;		/* interior table pages: each cell's rowid */
	unsigned n, cap;
	size_t used;		/* bytes of the page taken (header, cells) */
	uint32_t closed;	/* pages of this level written so far */
	int64_t maxkey;		/* table leaves: the last rowid */
	unsigned char *spare;	/* a cell taken out of a full page */
};

struct ssp_btree_tree {
	struct ssp_btree *b;
	int index;
	uint32_t root;
	struct level *lv;
	unsigned nlv;
	uint64_t rows;
	int64_t last;
};

struct ssp_btree {
	int fd;
	char *name;		/* the database, for messages */
	uint32_t psz, usable;	/* page size, usable bytes of a page */
	uint32_t maxlocal[2];	/* payload kept on a table, index page */
	uint32_t npages;	/* pages in the file */
	uint32_t oldpages;	/* pages SQLite wrote (the schema, its rows) */
	uint32_t pending;	/* the lock-byte page, never used */
	unsigned char *wbuf;	/* pages wfirst.. not yet written */
	uint32_t wfirst, wn;
	unsigned char *page, *rec, *cell;
	size_t reccap;
	struct ssp_btree_tree **trees;
	unsigned ntrees;
	struct ssp_err e;
};

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static uint32_t
be16(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static void
put16(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

/* SQLite's varint: big-endian groups of 7 bits, 8 in the ninth byte. */
static unsigned
put_varint_long(unsigned char *p, uint64_t v)
{
	unsigned char tmp[10];
	unsigned n = 0, i;

	if (v & 0xff00000000000000ull) {
		p[8] = (unsigned char)v;
		v >>= 8;
		for (i = 8; i-- > 0;) {
			p[i] = (unsigned char)((v & 0x7f) | 0x80);
			v >>= 7;
		}
		return 9;
	}
	do {
		tmp[n++] = (unsigned char)((v & 0x7f) | 0x80);
		v >>= 7;
	} while (v != 0);
	tmp[0] &= 0x7f;
	for (i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

static inline unsigned
put_varint(unsigned char *p, uint64_t v)
{
	if (v < 0x80) {
		p[0] = (unsigned char)v;
		return 1;
	}
	if (v < 0x4000) {
		p[0] = (unsigned char)(0x80 | v >> 7);
		p[1] = (unsigned char)(v & 0x7f);
		return 2;
	}
	if (v < 0x200000) {
		p[0] = (unsigned char)(0x80 | v >> 14);
		p[1] = (unsigned char)(0x80 | (v >> 7 & 0x7f));
		p[2] = (unsigned char)(v & 0x7f);
		return 3;
	}
	return put_varint_long(p, v);
}

static inline unsigned
varint_len(uint64_t v)
{
	unsigned bits = v == 0 ? 1 : 64 - (unsigned)__builtin_clzll(v);

	return bits > 56 ? 9 : (bits + 6) / 7;
}

static int
fail(struct ssp_btree *b, const char *what)
{
	if (b->e.code == SSP_OK)
		ssp_err_set(&b->e, SSP_ERR_IO, 0, "%s: %s: %s", b->name, what,
		    strerror(errno));
	return b->e.code;
}

static int
nomem(struct ssp_btree *b)
{
	if (b->e.code == SSP_OK)
		ssp_err_set(&b->e, SSP_ERR_NOMEM, 0, "out of memory");
	return b->e.code;
}

const struct ssp_err *ssp_btree_err(const struct ssp_btree *b) { return &b->e; }

/* --- pages --------------------------------------------------------------- */

static int
write_all(struct ssp_btree *b, const unsigned char *p, size_t n, uint64_t off)
{
	while (n > 0) {
		ssize_t w = pwrite(b->fd, p, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return fail(b, "write");
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return SSP_OK;
}

/* Page pg of the file as SQLite left it (new pages are not read back). */
static int
read_page(struct ssp_btree *b, uint32_t pg, unsigned char *buf)
{
	size_t got = 0;

	if (pg < 2 || pg > b->oldpages || pg == b->pending)
		return ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "%s: no page "
		    "%u", b->name, (unsigned)pg);
	while (got < b->psz) {
		ssize_t r = pread(b->fd, buf + got, b->psz - got,
		    (off_t)((uint64_t)(pg - 1) * b->psz + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 ? ssp_err_set(&b->e, SSP_ERR_FORMAT, 0,
			    "%s: page %u cut short", b->name, (unsigned)pg) :
			    fail(b, "read");
		got += (size_t)r;
	}
	return SSP_OK;
}

static int
flush_pages(struct ssp_btree *b)
{
	int r = SSP_OK;

	if (b->wn > 0)
		r = write_all(b, b->wbuf, (size_t)b->wn * b->psz,
		    (uint64_t)(b->wfirst - 1) * b->psz);
	b->wn = 0;
	return r;
}

/* The page number the next new page gets, after page pg. */
static uint32_t
after(const struct ssp_btree *b, uint32_t pg)
{
	return pg + 1 == b->pending ? pg + 2 : pg + 1;
}

/* The number of a new page: the file grows by one; 0 on error. */
static uint32_t
new_page(struct ssp_btree *b)
{
	uint32_t pg;

	if (b->e.code != SSP_OK)
		return 0;
	pg = after(b, b->npages);
	if (pg >= MAX_PAGES) {
		ssp_err_set(&b->e, SSP_ERR_LIMIT, 0, "%s: too many pages", b->name);
		return 0;
	}
	b->npages = pg;	/* a lock-byte page skipped stays a hole: zeros */
	return pg;
}

/* Write page pg (from new_page()): buffered while the pages written are
 * consecutive. */
static int
write_at(struct ssp_btree *b, uint32_t pg, const unsigned char *data)
{
	if (b->e.code != SSP_OK)
		return b->e.code;
	if (b->wn > 0 && pg != b->wfirst + b->wn && flush_pages(b) != SSP_OK)
		return b->e.code;
	if (b->wn == 0)
		b->wfirst = pg;
	memcpy(b->wbuf + (size_t)b->wn * b->psz, data, b->psz);
	if (++b->wn == WBUF_PAGES)
		flush_pages(b);
	return b->e.code;
}

/* Write a new page; its number, 0 on error. */
static uint32_t
put_page(struct ssp_btree *b, const unsigned char *data)
{
	uint32_t pg = new_page(b);

	return pg != 0 && write_at(b, pg, data) == SSP_OK ? pg : 0;
}

/*
 * The bytes of a payload of n bytes kept on its b-tree page (the rest goes
 * to overflow pages): fileformat2.html, "Cell Payload Overflow Pages".
 */
static size_t
local_size(const struct ssp_btree *b, int index, size_t n)
{
	size_t u = b->usable, x = b->maxlocal[index != 0], m, k;

	if (n <= x)
		return n;
	m = (u - 12) * 32 / 255 - 23;
	k = m + (n - m) % (u - 4);
	return k <= x ? k : m;
}

/* Store payload[local..n) in a chain of overflow pages; the first page. */
static uint32_t
overflow(struct ssp_btree *b, const unsigned char *p, size_t n)
{
	size_t chunk = b->usable - 4;
	uint32_t first = new_page(b), pg = first, next;

	while (n > 0 && b->e.code == SSP_OK) {
		size_t k = n < chunk ? n : chunk;

		next = n > k ? new_page(b) : 0;
		memset(b->page, 0, b->psz);
		put32(b->page, next);
		memcpy(b->page + 4, p, k);
		write_at(b, pg, b->page);
		pg = next;
		p += k;
		n -= k;
	}
	return first;
}

/* --- records ---------------------------------------------------------------- */

/*
 * Serial type and size of an integer by its significant bits (of i, or of
 * ~i when negative): 1, 2, 3, 4, 6 or 8 bytes (types 1 to 6); 0 and 1 are
 * types 8 and 9 without a body.
 */
static const unsigned char int_type[65] = {
	1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0..15 bits */
	3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4,	/* 16..31 */
	5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,	/* 32..47 */
	6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,	/* 48..64 */
};
static const unsigned char type_len[10] = { 0, 1, 2, 3, 4, 6, 8, 8, 0, 0 };

/*
 * The record of v[0..n) into b->rec at REC_HEAD (the bytes before it are
 * room for the cell's varints); its length, 0 when out of memory.  One
 * pass sizes the header and body, a second writes both: each serial type
 * and its value, integers as one 8-byte big-endian store of which the
 * low bytes count (REC_SLACK bytes after the body allow the overshoot).
 */
#define REC_HEAD	18	/* two varints: payload size, rowid */
#define REC_SLACK	8

static size_t
record(struct ssp_btree *b, const struct ssp_value *v, unsigned n)
{
	uint64_t st[64];
	unsigned i;
	size_t hdr = 0, body = 0, need, h;
	unsigned char *hp, *q;

	if (n > 64) {
		ssp_err_set(&b->e, SSP_ERR_LIMIT, 0, "%s: record of %u "
		    "columns", b->name, n);
		return 0;
	}
	for (i = 0; i < n; i++) {
		const struct ssp_value *x = &v[i];
		uint64_t t;

		if (x->type == SQLITE_INTEGER) {
			uint64_t u = x->i < 0 ? ~(uint64_t)x->i : (uint64_t)x->i;

			if ((uint64_t)x->i <= 1) {
				t = 8 + (uint64_t)x->i;
			} else {
				/* u < 2^63: significant bits of u */
				t = int_type[u == 0 ? 0 : 64 - __builtin_clzll(u)];
				body += type_len[t];
			}
			hdr++;
		} else if (x->type == SQLITE_TEXT || x->type == SQLITE_BLOB) {
			t = (x->type == SQLITE_TEXT ? 13 : 12) + 2 * (uint64_t)x->n;
			body += x->n;
			hdr += t < 0x80 ? 1 : varint_len(t);
		} else {
			t = 0;
			hdr++;
		}
		st[i] = t;
	}
	if (hdr < 127) {
		hdr++;
	} else {
		h = varint_len(hdr + 1);
		if (varint_len(hdr + h) > h)
			h++;
		hdr += h;
	}
	need = REC_HEAD + hdr + body + REC_SLACK;
	if (need > b->reccap) {
		size_t cap = b->reccap ? b->reccap : 4096;
		unsigned char *p;

		while (cap < need)
			cap *= 2;
		if ((p = realloc(b->rec, cap)) == NULL)
			return nomem(b), 0;
		b->rec = p;
		b->reccap = cap;
	}
	hp = b->rec + REC_HEAD;
	hp += put_varint(hp, hdr);
	q = b->rec + REC_HEAD + hdr;
	for (i = 0; i < n; i++) {
		uint64_t t = st[i];

		if (t < 0x80)
			*hp++ = (unsigned char)t;
		else
			hp += put_varint(hp, t);
		if (t >= 12) {		/* text or blob */
			if (v[i].n > 0)
				memcpy(q, v[i].p, v[i].n);
			q += v[i].n;
		} else if (t >= 1 && t <= 6) {
			unsigned len = type_len[t];
			uint64_t be = __builtin_bswap64((uint64_t)v[i].i <<
			    (64 - 8 * len) % 64);

			memcpy(q, &be, 8);
			q += len;
		}
	}
	return (size_t)(q - (b->rec + REC_HEAD));
}

/*
 * The cell of a payload (after its rowid for tables): payload size,
 * [rowid], the local part, [first overflow page].  Without overflow it is
 * made in place in b->rec (the varints before the record); else in
 * b->cell.  Sets *cell; its length.
 */
static size_t
make_cell(struct ssp_btree *b, int index, int64_t rowid, size_t n,
    const unsigned char **cell)
{
	size_t local = local_size(b, index, n), pos, hl;
	unsigned char *rec = b->rec + REC_HEAD, *c;

	if (local == n) {
		hl = varint_len(n) + (index ? 0 : varint_len((uint64_t)rowid));
		c = rec - hl;
		pos = put_varint(c, n);
		if (!index)
			put_varint(c + pos, (uint64_t)rowid);
		*cell = c;
		return hl + n;
	}
	pos = put_varint(b->cell, n);
	if (!index)
		pos += put_varint(b->cell + pos, (uint64_t)rowid);
	memcpy(b->cell + pos, rec, local);
	pos += local;
	put32(b->cell + pos, overflow(b, rec + local, n - local));
	pos += 4;
	*cell = b->cell;
	return pos;
}

/* --- trees ------------------------------------------------------------------ */

static size_t
cell_size(int interior, size_t len)
{
	size_t n = len + (interior ? 4 : 0);

	return n < 4 ? 4 : n;	/* SQLite's minimum cell size */
}

static struct level *
level(struct ssp_btree_tree *t, unsigned i)
{
	struct ssp_btree *b = t->b;

	while (t->nlv <= i) {
		struct level *nl = realloc(t->lv, (t->nlv + 1) * sizeof(*nl));

		if (nl == NULL)
			return nomem(b), NULL;
		t->lv = nl;
		memset(&nl[t->nlv], 0, sizeof(*nl));
		nl[t->nlv].used = t->nlv == 0 ? 8 : 12;
		nl[t->nlv].top = b->usable;
		if ((nl[t->nlv].spare = malloc(b->psz)) == NULL ||
		    (nl[t->nlv].pg = malloc(b->psz)) == NULL) {
			free(nl[t->nlv].spare);
			return nomem(b), NULL;
		}
		t->nlv++;
	}
	return &t->lv[i];
}

/* Level 0 of t, made on first use. */
static inline struct level *
leaf(struct ssp_btree_tree *t)
{
	return t->nlv > 0 ? t->lv : level(t, 0);
}

static int
fits(const struct ssp_btree *b, const struct level *lv, int interior, size_t len)
{
	return lv->used + 2 + cell_size(interior, len) <= b->usable;
}

/*
 * Room for a cell of len bytes (interior: after its child pointer) below
 * the cells of lv, and its bookkeeping; where its len bytes go, NULL when
 * out of memory.
 */
static unsigned char *
new_cell(struct ssp_btree *b, struct level *lv, int interior, size_t len,
    uint32_t child, int64_t key)
{
	size_t sz = cell_size(interior, len);
	unsigned char *c;

	if (lv->n == lv->cap) {
		unsigned cap = lv->cap ? 2 * lv->cap : 64;
		uint32_t *off = realloc(lv->off, cap * sizeof(*off));
		uint32_t *ln = off != NULL ? realloc(lv->len, cap * sizeof(*ln)) : NULL;
		uint32_t *ch = ln != NULL ? realloc(lv->child, cap * sizeof(*ch)) : NULL;
		int64_t *k = ch != NULL ? realloc(lv->key, cap * sizeof(*k)) : NULL;

		if (off != NULL)
			lv->off = off;
		if (ln != NULL)
			lv->len = ln;
		if (ch != NULL)
			lv->child = ch;
		if (k == NULL)
			return nomem(b), NULL;
		lv->key = k;
		lv->cap = cap;
	}
	lv->top -= sz;
	c = lv->pg + lv->top;
	if (interior) {
		put32(c, child);
		c += 4;
	}
	if (sz > len + (interior ? 4 : 0))	/* padded to SQLite's minimum */
		memset(c + len, 0, sz - len - (interior ? 4 : 0));
	lv->off[lv->n] = (uint32_t)lv->top;
	lv->len[lv->n] = (uint32_t)len;
	lv->child[lv->n] = child;
	lv->key[lv->n] = key;
	lv->n++;
	lv->used += 2 + sz;
	return c;
}

static int
add_cell(struct ssp_btree *b, struct level *lv, int interior,
    const unsigned char *p, size_t len, uint32_t child, int64_t key)
{
	unsigned char *c = new_cell(b, lv, interior, len, child, key);

	if (c == NULL)
		return b->e.code;
	memcpy(c, p, len);
	return SSP_OK;
}

/* Take the last cell out of lv, into lv->spare; its length. */
static size_t
pop_cell(struct level *lv, int interior)
{
	size_t len = lv->len[--lv->n];

	memcpy(lv->spare, lv->pg + lv->off[lv->n] + (interior ? 4 : 0), len);
	lv->top += cell_size(interior, len);
	lv->used -= 2 + cell_size(interior, len);
	return len;
}

/*
 * Write the page of lv (flag says which kind) and empty lv.  At the root
 * when root is not 0, else appended; returns the page, 0 on error.
 */
static uint32_t
write_page(struct ssp_btree *b, struct level *lv, int flag, uint32_t right,
    uint32_t root)
{
	int interior = flag == F_INTERIOR_INDEX || flag == F_INTERIOR_TABLE;
	unsigned hdr = interior ? 12 : 8, i;
	unsigned char *p = lv->pg;
	size_t top = lv->top;
	uint32_t pg;

	memset(p, 0, hdr);
	p[0] = (unsigned char)flag;
	put16(p + 3, lv->n);
	put16(p + 5, top == 65536 ? 0 : (uint32_t)top);
	if (interior)
		put32(p + 8, right);
	for (i = 0; i < lv->n; i++)
		put16(p + hdr + 2 * i, lv->off[i]);
	memset(p + hdr + 2 * lv->n, 0, top - hdr - 2 * lv->n);	/* free space */
	if (b->usable < b->psz)
		memset(p + b->usable, 0, b->psz - b->usable);	/* reserved */
	lv->n = 0;
	lv->top = b->usable;
	lv->used = hdr;
	if (root != 0) {
		if (write_all(b, p, b->psz, (uint64_t)(root - 1) * b->psz) != SSP_OK)
			return 0;
		return root;
	}
	if ((pg = put_page(b, p)) != 0)
		lv->closed++;
	return pg;
}

/* Add (child, key) to level i of a table tree. */
static int
push_table(struct ssp_btree_tree *t, unsigned i, uint32_t child, int64_t key)
{
	struct ssp_btree *b = t->b;
	struct level *lv = level(t, i);
	unsigned char c[9];
	size_t len = put_varint(c, (uint64_t)key);

	if (lv == NULL)
		return b->e.code;
	if (!fits(b, lv, 1, len)) {
		uint32_t right = lv->child[lv->n - 1], pg;
		int64_t rkey = lv->key[lv->n - 1];

		pop_cell(lv, 1);
		if ((pg = write_page(b, lv, F_INTERIOR_TABLE, right, 0)) == 0 ||
		    push_table(t, i + 1, pg, rkey) != SSP_OK)
			return b->e.code;
		lv = &t->lv[i];	/* level() may have moved it */
	}
	return add_cell(b, lv, 1, c, len, child, key);
}

/* Add (child, cell) to level i of an index tree. */
static int
push_index(struct ssp_btree_tree *t, unsigned i, uint32_t child,
    const unsigned char *cell, size_t len)
{
	struct ssp_btree *b = t->b;
	struct level *lv = level(t, i);

	if (lv == NULL)
		return b->e.code;
	if (!fits(b, lv, 1, len)) {
		uint32_t right = lv->child[lv->n - 1], pg;
		size_t rlen = pop_cell(lv, 1);

		if ((pg = write_page(b, lv, F_INTERIOR_INDEX, right, 0)) == 0 ||
		    push_index(t, i + 1, pg, t->lv[i].spare, rlen) != SSP_OK)
			return b->e.code;
		lv = &t->lv[i];
	}
	return add_cell(b, lv, 1, cell, len, child, 0);
}

enum ssp_status
ssp_btree_row(struct ssp_btree_tree *t, int64_t rowid, const struct ssp_value *v,
    unsigned n)
{
	struct ssp_btree *b = t->b;
	const unsigned char *cell;
	struct level *lv;
	size_t len, clen;
	uint32_t pg;

	SSP_ASSERT(t != NULL && (v != NULL || n == 0));
	if (b->e.code != SSP_OK)
		return b->e.code;
	if (t->rows > 0 && rowid <= t->last)
		return ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "%s: rowid %lld "
		    "after %lld", b->name, (long long)rowid, (long long)t->last);
	if ((len = record(b, v, n)) == 0 || (lv = leaf(t)) == NULL)
		return b->e.code;
	clen = make_cell(b, 0, rowid, len, &cell);
	if (b->e.code != SSP_OK)
		return b->e.code;
	if (!fits(b, lv, 0, clen)) {
		int64_t key = lv->maxkey;

		if ((pg = write_page(b, lv, F_LEAF_TABLE, 0, 0)) == 0 ||
		    push_table(t, 1, pg, key) != SSP_OK)
			return b->e.code;
		lv = &t->lv[0];
	}
	if (add_cell(b, lv, 0, cell, clen, 0, rowid) != SSP_OK)
		return b->e.code;
	lv->maxkey = rowid;
	t->last = rowid;
	t->rows++;
	return SSP_OK;
}

/* Leaf lv of index t is full: its last entry goes up as the divider, the
 * rest is written.  The empty leaf, NULL on error. */
static struct level *
leaf_full(struct ssp_btree_tree *t, struct level *lv)
{
	struct ssp_btree *b = t->b;
	size_t dlen = pop_cell(lv, 0);
	uint32_t pg;

	if ((pg = write_page(b, lv, F_LEAF_INDEX, 0, 0)) == 0 ||
	    push_index(t, 1, pg, t->lv[0].spare, dlen) != SSP_OK)
		return NULL;
	return &t->lv[0];	/* push_index() may have moved it */
}

/* An index cell of len bytes into the leaf being filled. */
static int
put_cell(struct ssp_btree_tree *t, const unsigned char *c, size_t len)
{
	struct ssp_btree *b = t->b;
	struct level *lv;

	if ((lv = leaf(t)) == NULL)
		return b->e.code;
	if (!fits(b, lv, 0, len) && (lv = leaf_full(t, lv)) == NULL)
		return b->e.code;
	return add_cell(b, lv, 0, c, len, 0, 0);
}

/* An index entry whose record is in b->rec (at REC_HEAD), len bytes. */
static int
entry(struct ssp_btree_tree *t, size_t len)
{
	struct ssp_btree *b = t->b;
	const unsigned char *cell;
	struct level *lv;
	size_t clen;

	if ((lv = leaf(t)) == NULL)
		return b->e.code;
	clen = make_cell(b, 1, 0, len, &cell);
	if (b->e.code != SSP_OK || put_cell(t, cell, clen) != SSP_OK)
		return b->e.code;
	t->rows++;
	return SSP_OK;
}

enum ssp_status
ssp_btree_entry(struct ssp_btree_tree *t, const struct ssp_value *v, unsigned n)
{
	struct ssp_btree *b = t->b;
	size_t len;

	SSP_ASSERT(v != NULL && n > 0);
	if (b->e.code != SSP_OK)
		return b->e.code;
	if ((len = record(b, v, n)) == 0)
		return b->e.code;
	return entry(t, len);
}

enum ssp_status
ssp_btree_entry_rec(struct ssp_btree_tree *t, const unsigned char *rec,
    size_t n)
{
	struct ssp_btree *b = t->b;
	struct level *lv;
	unsigned char *c;
	size_t hl;

	SSP_ASSERT(rec != NULL || n == 0);
	if (b->e.code != SSP_OK)
		return b->e.code;
	if (n == 0)
		return ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "%s: empty "
		    "record", b->name);
	if (n <= b->maxlocal[1]) {	/* no overflow: straight into the page */
		hl = varint_len(n);
		if ((lv = leaf(t)) == NULL)
			return b->e.code;
		if (!fits(b, lv, 0, hl + n) && (lv = leaf_full(t, lv)) == NULL)
			return b->e.code;
		if ((c = new_cell(b, lv, 0, hl + n, 0, 0)) == NULL)
			return b->e.code;
		put_varint(c, n);
		memcpy(c + hl, rec, n);
		t->rows++;
		return SSP_OK;
	}
	if (REC_HEAD + n + REC_SLACK > b->reccap) {
		size_t cap = b->reccap ? b->reccap : 4096;
		unsigned char *p;

		while (cap < REC_HEAD + n + REC_SLACK)
			cap *= 2;
		if ((p = realloc(b->rec, cap)) == NULL)
			return nomem(b);
		b->rec = p;
		b->reccap = cap;
	}
	memcpy(b->rec + REC_HEAD, rec, n);
	return entry(t, n);
}

/*
 * Write the pages still open, bottom up: a level that never wrote a page
 * is the top of the tree and goes to the root page; every other level's
 * last page becomes the right-most child of the level above.
 */
static int
finish(struct ssp_btree_tree *t)
{
	struct ssp_btree *b = t->b;
	uint32_t child = 0;
	unsigned i;

	if (t->rows == 0)
		return SSP_OK;	/* the root SQLite made stays an empty leaf */
	for (i = 0; i < t->nlv; i++) {
		struct level *lv = &t->lv[i];
		int flag = i == 0 ? (t->index ? F_LEAF_INDEX : F_LEAF_TABLE) :
		    (t->index ? F_INTERIOR_INDEX : F_INTERIOR_TABLE);
		int top = lv->closed == 0;

		child = write_page(b, lv, flag, child, top ? t->root : 0);
		if (child == 0)
			return b->e.code;
		if (top)
			return SSP_OK;
	}
	return ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "%s: tree without "
	    "a top", b->name);	/* not reached: the top level never wrote a page */
}

static struct ssp_btree_tree *
new_tree(struct ssp_btree *b, uint32_t root, int index)
{
	struct ssp_btree_tree *t, **nt;
	unsigned i;

	if (root < 2 || root > b->npages) {
		ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "%s: no root page %u",
		    b->name, (unsigned)root);
		return NULL;
	}
	if ((t = calloc(1, sizeof(*t))) == NULL ||
	    (nt = realloc(b->trees, (b->ntrees + 1) * sizeof(*nt))) == NULL) {
		free(t);
		nomem(b);
		return NULL;
	}
	b->trees = nt;
	b->trees[b->ntrees++] = t;
	t->b = b;
	t->root = root;
	t->index = index;
	for (i = 0; i < b->ntrees - 1; i++)
		if (b->trees[i]->root == root) {
			ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "%s: two "
			    "trees at page %u", b->name, (unsigned)root);
			return NULL;
		}
	/* the writer only ever fills trees SQLite made empty */
	if (read_page(b, root, b->page) != SSP_OK)
		return NULL;
	if (b->page[0] != (index ? F_LEAF_INDEX : F_LEAF_TABLE) ||
	    be16(b->page + 3) != 0) {
		ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "%s: page %u is not "
		    "the root of an empty %s", b->name, (unsigned)root, index ? "index" :
		    "table");
		return NULL;
	}
	return t;
}

struct ssp_btree_tree *
ssp_btree_table(struct ssp_btree *b, uint32_t root)
{
	SSP_ASSERT(b != NULL);
	return new_tree(b, root, 0);
}

struct ssp_btree_tree *
ssp_btree_index(struct ssp_btree *b, uint32_t root)
{
	SSP_ASSERT(b != NULL);
	return new_tree(b, root, 1);
}

/* --- the file ------------------------------------------------------------- */

enum ssp_status
ssp_btree_open(struct ssp_btree **bp, const char *path, const char *name,
    uint32_t pending_byte, struct ssp_err *e)
{
	struct ssp_btree *b;
	unsigned char h[100];
	struct stat st;
	ssize_t n;
	uint32_t psz;

	SSP_ASSERT(bp != NULL && path != NULL);
	*bp = NULL;
	if (name == NULL)
		name = path;
	if ((b = calloc(1, sizeof(*b))) == NULL ||
	    (b->name = strdup(name)) == NULL) {
		free(b);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	if ((b->fd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
		enum ssp_status r = ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", name,
		    strerror(errno));

		free(b->name);
		free(b);
		return r;
	}
	n = pread(b->fd, h, sizeof(h), 0);
	if (n != (ssize_t)sizeof(h) || fstat(b->fd, &st) != 0 ||
	    memcmp(h, "SQLite format 3", 16) != 0) {
		ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "%s: not an SQLite "
		    "database", name);
		goto fail;
	}
	psz = (uint32_t)h[16] << 8 | h[17];
	if (psz == 1)
		psz = 65536;
	b->psz = psz;
	b->usable = psz - h[20];
	b->maxlocal[0] = b->usable - 35;
	b->maxlocal[1] = (b->usable - 12) * 64 / 255 - 23;
	b->npages = be32(h + 28);
	if (be32(h + 24) != be32(h + 92) || b->npages == 0)
		b->npages = (uint32_t)(st.st_size / psz);
	b->oldpages = b->npages;
	/* as SQLite makes a new database: rollback journal (1), no
	 * auto-vacuum, UTF-8, schema format 4 (0 and 1 as serial types 8 and
	 * 9), no free pages */
	if (psz < 512 || (psz & (psz - 1)) != 0 || h[18] != 1 || h[19] != 1 ||
	    b->usable < 480 || h[21] != 64 || h[22] != 32 || h[23] != 32 ||
	    be32(h + 32) != 0 || be32(h + 36) != 0 || be32(h + 44) != 4 ||
	    be32(h + 52) != 0 || be32(h + 56) != 1 ||
	    (uint64_t)st.st_size != (uint64_t)b->npages * psz) {
		ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "%s: not a new database "
		    "as SQLite makes them (the direct writer fills only those)",
		    name);
		goto fail;
	}
	b->pending = (pending_byte ? pending_byte : PENDING_BYTE) / psz + 1;
	b->wbuf = malloc((size_t)WBUF_PAGES * psz);
	b->page = malloc(psz + 16);	/* a varint read at its end */
	b->cell = malloc(psz + 32);
	if (b->wbuf == NULL || b->page == NULL || b->cell == NULL) {
		nomem(b);
		goto fail;
	}
	*bp = b;
	return SSP_OK;
fail:
	if (e != NULL)
		*e = b->e;
	n = b->e.code;
	ssp_btree_abort(b);
	return (enum ssp_status)n;
}

static void
free_trees(struct ssp_btree *b)
{
	unsigned i, j;

	for (i = 0; i < b->ntrees; i++) {
		struct ssp_btree_tree *t = b->trees[i];

		for (j = 0; j < t->nlv; j++) {
			free(t->lv[j].pg);
			free(t->lv[j].off);
			free(t->lv[j].len);
			free(t->lv[j].child);
			free(t->lv[j].key);
			free(t->lv[j].spare);
		}
		free(t->lv);
		free(t);
	}
	free(b->trees);
	b->trees = NULL;
	b->ntrees = 0;
}

enum ssp_status
ssp_btree_close(struct ssp_btree *b, struct ssp_err *e)
{
	unsigned char h[100];
	unsigned i;
	uint32_t change;
	enum ssp_status r;

	SSP_ASSERT(b != NULL);
	for (i = 0; i < b->ntrees && b->e.code == SSP_OK; i++)
		finish(b->trees[i]);
	if (b->e.code == SSP_OK && flush_pages(b) == SSP_OK) {
		if (pread(b->fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
			fail(b, "read");
		else {
			change = be32(h + 24) + 1;
			put32(h + 24, change);
			put32(h + 28, b->npages);
			put32(h + 92, change);
			put32(h + 96, (uint32_t)sqlite3_libversion_number());
			write_all(b, h, sizeof(h), 0);
		}
	}
	if (close(b->fd) != 0 && b->e.code == SSP_OK)
		fail(b, "close");
	b->fd = -1;
	r = (enum ssp_status)b->e.code;
	if (r != SSP_OK && e != NULL)
		*e = b->e;
	ssp_btree_abort(b);
	return r;
}

void
ssp_btree_abort(struct ssp_btree *b)
{
	if (b == NULL)
		return;
	if (b->fd >= 0)
		close(b->fd);
	free_trees(b);
	free(b->wbuf);
	free(b->page);
	free(b->cell);
	free(b->rec);
	free(b->name);
	free(b);
}
