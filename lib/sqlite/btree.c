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

#define MAXDEPTH	20	/* of an existing tree (SQLite's limit) */

/* Walking the entries of an existing index in order (section "old trees"):
 * the pages from the root down to the current one, at each the position:
 * interior pages 2i (child i; i = n: the right child), 2i + 1 (cell i);
 * leaves the next cell. */
struct ocur {
	unsigned char *pg[MAXDEPTH];
	uint32_t no[MAXDEPTH];
	unsigned idx[MAXDEPTH], n[MAXDEPTH];
	int depth;		/* of the current page; -1: past the end */
	int height;		/* depth of the leaves */
};

struct ssp_btree_tree {
	struct ssp_btree *b;
	int index;
	uint32_t root;
	struct level *lv;
	unsigned nlv;
	uint64_t rows;
	int64_t last;
	int old;		/* the root holds rows already: appended to */
	int started;		/* the old tree was taken up */
	uint32_t pend;		/* index: an old leaf reused, waiting for the
				 * entry after it (its divider) */
	unsigned char *pcell;	/* that entry, when it came */
	size_t pclen;
	int haspcell;
	struct ocur cur;
};

struct ssp_btree {
	int fd;
	uint32_t psz, usable;	/* page size, usable bytes of a page */
	uint32_t maxlocal[2];	/* payload kept on a table, index page */
	uint32_t npages;	/* pages in the file */
	uint32_t oldpages;	/* pages in the file as it was opened */
	uint32_t pending;	/* the lock-byte page, never used */
	unsigned char *wbuf;	/* pages wfirst.. not yet written */
	uint32_t wfirst, wn;
	unsigned char *page, *rec, *cell;
	size_t reccap;
	struct ssp_btree_tree **trees;
	unsigned ntrees;
	uint32_t *pool;		/* free pages, a min-heap: the freelist found
				 * and old pages no tree uses any more */
	size_t npool, cappool;
	uint64_t *gone;		/* old pages freed (reused or in the pool):
				 * never read again */
	unsigned char *obuf;	/* a record of an old cell with overflow */
	size_t obufcap;
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
		ssp_err_set(&b->e, SSP_ERR_IO, 0, "database: %s: %s", what,
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

/* Page pg of the file as it was opened (new pages are not read back). */
static int
read_page(struct ssp_btree *b, uint32_t pg, unsigned char *buf)
{
	size_t got = 0;

	if (pg < 2 || pg > b->oldpages || pg == b->pending)
		return ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "database: no page "
		    "%u", (unsigned)pg);
	if (b->gone[pg / 64] >> pg % 64 & 1)	/* a damaged file */
		return ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "database: page "
		    "%u is used twice", (unsigned)pg);
	while (got < b->psz) {
		ssize_t r = pread(b->fd, buf + got, b->psz - got,
		    (off_t)((uint64_t)(pg - 1) * b->psz + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 ? ssp_err_set(&b->e, SSP_ERR_FORMAT, 0,
			    "database: page %u cut short", (unsigned)pg) :
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

/*
 * Free pages.  New pages go into free pages before the file grows: the
 * freelist the file had (taken up when it is opened) and the old pages an
 * append frees as it goes.  A page is freed only once nothing is left to
 * read in it (its cells are in memory or copied), so it can be written
 * over at once.  The lowest first: new pages land near each other, and
 * the writes coalesce where free pages are consecutive.
 */
static int
free_page(struct ssp_btree *b, uint32_t pg)
{
	size_t i;

	if (pg < 2 || pg > b->oldpages || pg == b->pending ||
	    (b->gone[pg / 64] >> pg % 64 & 1))
		return ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "database: page "
		    "%u freed twice or out of the file", (unsigned)pg);
	if (b->npool == b->cappool) {
		size_t cap = b->cappool ? 2 * b->cappool : 256;
		uint32_t *f = realloc(b->pool, cap * sizeof(*f));

		if (f == NULL)
			return nomem(b);
		b->pool = f;
		b->cappool = cap;
	}
	b->gone[pg / 64] |= 1ull << pg % 64;
	for (i = b->npool++; i > 0 && b->pool[(i - 1) / 2] > pg; i = (i - 1) / 2)
		b->pool[i] = b->pool[(i - 1) / 2];
	b->pool[i] = pg;
	return SSP_OK;
}

/* The lowest free page, taken out of the pool (which is not empty). */
static uint32_t
pool_take(struct ssp_btree *b)
{
	uint32_t top = b->pool[0], last = b->pool[--b->npool];
	size_t i = 0, c, n = b->npool;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && b->pool[c + 1] < b->pool[c])
			c++;
		if (last <= b->pool[c])
			break;
		b->pool[i] = b->pool[c];
		i = c;
	}
	if (n > 0)
		b->pool[i] = last;
	return top;
}

/* The number of a new page: a free one, else the file grows; 0 on error. */
static uint32_t
new_page(struct ssp_btree *b)
{
	uint32_t pg;

	if (b->e.code != SSP_OK)
		return 0;
	if (b->npool > 0)
		return pool_take(b);
	pg = after(b, b->npages);
	if (pg >= MAX_PAGES) {
		ssp_err_set(&b->e, SSP_ERR_LIMIT, 0, "database: too many pages");
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
record(struct ssp_btree *b, const struct ssp_btree_val *v, unsigned n)
{
	uint64_t st[64];
	unsigned i;
	size_t hdr = 0, body = 0, need, h;
	unsigned char *hp, *q;

	if (n > 64) {
		ssp_err_set(&b->e, SSP_ERR_LIMIT, 0, "database: record of %u "
		    "columns", n);
		return 0;
	}
	for (i = 0; i < n; i++) {
		const struct ssp_btree_val *x = &v[i];
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

static int take_table(struct ssp_btree_tree *t);
static int merge_upto(struct ssp_btree_tree *t, const unsigned char *k,
    size_t nk);
static int put_cell(struct ssp_btree_tree *t, const unsigned char *c,
    size_t len);
static int finish_old_index(struct ssp_btree_tree *t, uint32_t *child);

int
ssp_btree_row(struct ssp_btree_tree *t, int64_t rowid, const struct ssp_btree_val *v,
    unsigned n)
{
	struct ssp_btree *b = t->b;
	const unsigned char *cell;
	struct level *lv;
	size_t len, clen;
	uint32_t pg;

	if (b->e.code != SSP_OK)
		return b->e.code;
	if (t->old && !t->started && take_table(t) != SSP_OK)
		return b->e.code;
	if ((t->rows > 0 || t->old) && rowid <= t->last)
		return ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "database: rowid %lld "
		    "after %lld", (long long)rowid, (long long)t->last);
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

int
ssp_btree_entry(struct ssp_btree_tree *t, const struct ssp_btree_val *v, unsigned n)
{
	struct ssp_btree *b = t->b;
	size_t len;

	if (b->e.code != SSP_OK)
		return b->e.code;
	if ((len = record(b, v, n)) == 0)
		return b->e.code;
	if (t->old && merge_upto(t, b->rec + REC_HEAD, len) != SSP_OK)
		return b->e.code;
	return entry(t, len);
}

int
ssp_btree_entry_rec(struct ssp_btree_tree *t, const unsigned char *rec,
    size_t n)
{
	struct ssp_btree *b = t->b;
	struct level *lv;
	unsigned char *c;
	size_t hl;

	if (b->e.code != SSP_OK)
		return b->e.code;
	if (n == 0)
		return ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "database: empty "
		    "record");
	if (t->old && merge_upto(t, rec, n) != SSP_OK)
		return b->e.code;
	if (n <= b->maxlocal[1] && t->pend == 0) {	/* no overflow: straight into the page */
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
	i = 0;
	if (t->old && t->index) {
		if (finish_old_index(t, &child) != SSP_OK)
			return b->e.code;
		i = child != 0;	/* a reused leaf is the right-most one */
	}
	for (; i < t->nlv; i++) {
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
	return ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "database: tree without "
	    "a top");	/* not reached: the top level never wrote a page */
}

static struct ssp_btree_tree *
new_tree(struct ssp_btree *b, uint32_t root, int index)
{
	struct ssp_btree_tree *t, **nt;

	if (root < 2 || root > b->npages) {
		ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "database: no root page %u",
		    (unsigned)root);
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
	t->cur.depth = -1;
	if (read_page(b, root, b->page) != SSP_OK)
		return NULL;
	if (b->page[0] != (index ? F_LEAF_INDEX : F_LEAF_TABLE) &&
	    b->page[0] != (index ? F_INTERIOR_INDEX : F_INTERIOR_TABLE)) {
		ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "database: page %u is not "
		    "the root of %s", (unsigned)root, index ? "an index" :
		    "a table");
		return NULL;
	}
	t->old = be16(b->page + 3) > 0 || b->page[0] != (index ?
	    F_LEAF_INDEX : F_LEAF_TABLE);
	return t;
}

struct ssp_btree_tree *
ssp_btree_table(struct ssp_btree *b, uint32_t root)
{
	return new_tree(b, root, 0);
}

struct ssp_btree_tree *
ssp_btree_index(struct ssp_btree *b, uint32_t root)
{
	return new_tree(b, root, 1);
}

/* --- old trees: appending to tables and indexes that hold rows ----------- */

/*
 * A table that holds rows gets the new ones at its right edge: the pages
 * from the root down to the last leaf are taken up (take_table()), the
 * rest stays where it is.
 *
 * An index that holds entries is merged with the new ones (given in
 * order): its entries are walked in order, and each new entry goes in
 * after the old ones that sort before it.  An old leaf whose entries all
 * sort before the next new one is kept as it is: it becomes a child of the
 * new level above, with the entry after it as its divider.  It is not even
 * read when the divider that bounds it in the old tree sorts before the
 * next new entry.  The cells of the other leaves and of the interior pages
 * are copied (an overflowing cell keeps its overflow pages) and those pages
 * are freed.  Records compare as SQLite compares them with the BINARY
 * collation, all columns ascending.
 */

static int
corrupt(struct ssp_btree *b, uint32_t pg)
{
	return ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "database: page %u is not "
	    "a b-tree page this writer can take up", (unsigned)pg);
}

/* SQLite's varint at p; its length into *len. */
static uint64_t
get_varint(const unsigned char *p, unsigned *len)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < 8; i++) {
		v = v << 7 | (p[i] & 0x7f);
		if (!(p[i] & 0x80)) {
			*len = i + 1;
			return v;
		}
	}
	*len = 9;
	return v << 8 | p[8];
}

/* The cells of interior page p (page pg) of an old table into the page
 * being filled at level i: the children left of its right-most one, with
 * their dividers. */
static int
take_interior(struct ssp_btree_tree *t, unsigned i, const unsigned char *p,
    uint32_t pg)
{
	struct ssp_btree *b = t->b;
	struct level *lv = &t->lv[i];
	unsigned n = be16(p + 3), c, off, len;
	int64_t key;

	if (n == 0)
		return corrupt(b, pg);
	for (c = 0; c < n; c++) {	/* p has 16 bytes more */
		if ((off = be16(p + 12 + 2 * c)) < 12 || off + 5 > b->usable)
			return corrupt(b, pg);
		key = (int64_t)get_varint(p + off + 4, &len);
		if (off + 4 + len > b->usable || !fits(b, lv, 1, len) ||
		    (c > 0 && key <= lv->key[lv->n - 1]))
			return corrupt(b, pg);
		if (add_cell(b, lv, 1, p + off + 4, len, be32(p + off), key) !=
		    SSP_OK)
			return b->e.code;
	}
	return SSP_OK;
}

/* The cells of the last old leaf p (page pg) of a table into the leaf
 * being filled (it held them, so they fit). */
static int
take_leaf(struct ssp_btree_tree *t, const unsigned char *p, uint32_t pg)
{
	struct ssp_btree *b = t->b;
	struct level *lv = &t->lv[0];
	unsigned n = be16(p + 3), i, off, len, vl;
	uint64_t size;
	int64_t key;

	if (n == 0)
		return corrupt(b, pg);
	for (i = 0; i < n; i++) {	/* p has 16 bytes more */
		if ((off = be16(p + 8 + 2 * i)) < 8 || off + 2 > b->usable)
			return corrupt(b, pg);
		size = get_varint(p + off, &len);
		key = (int64_t)get_varint(p + off + len, &vl);
		len += vl;
		if (size > 0x7fffffff || (i > 0 && key <= lv->maxkey))
			return corrupt(b, pg);
		len += (unsigned)local_size(b, 0, (size_t)size);
		if (local_size(b, 0, (size_t)size) < size)
			len += 4;	/* the first overflow page */
		if (off + len > b->usable || !fits(b, lv, 0, len))
			return corrupt(b, pg);
		if (add_cell(b, lv, 0, p + off, len, 0, key) != SSP_OK)
			return b->e.code;
		lv->maxkey = key;
	}
	return SSP_OK;
}

/*
 * The first row of table t that holds rows: take the old tree up.  Only
 * its right edge changes: the pages from the root down the right-most
 * children to the last leaf.  Their cells go into the pages being filled
 * at their levels, where the new rows and the pages above them are added
 * after them, and the pages are freed (the root stays the root and gets
 * the new top).  Everything left of the edge stays as it is, unread.  So
 * the last leaf is filled on, not left part empty, and taking a tree up
 * costs its height, not its number of leaves.
 */
static int
take_table(struct ssp_btree_tree *t)
{
	struct ssp_btree *b = t->b;
	unsigned char *p = b->page;
	uint32_t edge[MAXDEPTH];
	unsigned h, d;

	t->started = 1;
	/* down to the last leaf (its depth h), then again from the top */
	for (h = 0, edge[0] = t->root;; h++) {
		if (read_page(b, edge[h], p) != SSP_OK)
			return b->e.code;
		if (p[0] == F_LEAF_TABLE)
			break;
		if (p[0] != F_INTERIOR_TABLE || h + 1 == MAXDEPTH)
			return corrupt(b, edge[h]);
		edge[h + 1] = be32(p + 8);
	}
	if (level(t, h) == NULL)
		return b->e.code;
	for (d = 0; d <= h; d++) {
		if (read_page(b, edge[d], p) != SSP_OK ||
		    (d < h && p[0] != F_INTERIOR_TABLE) ||
		    (d < h ? take_interior(t, h - d, p, edge[d]) :
		    take_leaf(t, p, edge[d])) != SSP_OK ||
		    (d > 0 && free_page(b, edge[d]) != SSP_OK))
			return b->e.code;
		if (d > 0)
			t->lv[h - d].closed = 1;	/* not the top */
	}
	t->last = t->lv[0].maxkey;
	return SSP_OK;
}

/* A cell of an old index page. */
struct ocell {
	const unsigned char *c;	/* the cell (after a child pointer) */
	size_t len;		/* its bytes */
	const unsigned char *rec;	/* its local payload */
	size_t n, local;	/* the record's size, bytes kept on the page */
};

static int
parse_cell(struct ssp_btree *b, const unsigned char *p, uint32_t pg,
    unsigned i, struct ocell *oc)
{
	unsigned hdr = p[0] == F_INTERIOR_INDEX ? 12 : 8, off, vl;

	if (i >= be16(p + 3) || (off = be16(p + hdr + 2 * i)) < hdr ||
	    off + (hdr - 8) + 1 > b->usable)	/* the page has 16 bytes more */
		return corrupt(b, pg);
	oc->c = p + off + (hdr - 8);
	oc->n = (size_t)get_varint(oc->c, &vl);
	oc->local = local_size(b, 1, oc->n);
	oc->rec = oc->c + vl;
	oc->len = vl + oc->local + (oc->local < oc->n ? 4 : 0);
	if (oc->n == 0 || off + (hdr - 8) + oc->len > b->usable)
		return corrupt(b, pg);
	return SSP_OK;
}

/* The whole record of an old cell (its overflow pages read); NULL on
 * error. */
static const unsigned char *
cell_rec(struct ssp_btree *b, const struct ocell *oc)
{
	size_t have = oc->local, chunk = b->usable - 4;
	uint32_t next;

	if (oc->local == oc->n)
		return oc->rec;
	if (oc->n > b->obufcap) {
		unsigned char *p = realloc(b->obuf, oc->n);

		if (p == NULL)
			return nomem(b), NULL;
		b->obuf = p;
		b->obufcap = oc->n;
	}
	memcpy(b->obuf, oc->rec, oc->local);
	next = be32(oc->rec + oc->local);
	while (have < oc->n) {
		size_t k = oc->n - have < chunk ? oc->n - have : chunk;

		if (read_page(b, next, b->page) != SSP_OK)
			return NULL;
		memcpy(b->obuf + have, b->page + 4, k);
		have += k;
		next = be32(b->page);
	}
	return b->obuf;
}

static size_t
body_len(uint64_t t)
{
	return t >= 12 ? (size_t)(t - 12) / 2 : t < 10 ? type_len[t] : 0;
}

static inline int64_t
get_int(const unsigned char *p, uint64_t t)
{
	unsigned n = type_len[t], i;
	uint64_t v;

	if (t >= 8)
		return (int64_t)t - 8;	/* 8, 9: the integers 0 and 1 */
	v = (p[0] & 0x80) ? ~0ull : 0;
	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return (int64_t)v;
}

static long double
get_num(const unsigned char *p, uint64_t t)
{
	uint64_t u;
	double d;
	unsigned i;

	if (t != 7)
		return (long double)get_int(p, t);
	for (u = 0, i = 0; i < 8; i++)
		u = u << 8 | p[i];
	memcpy(&d, &u, sizeof(d));
	return d;
}

/* NULL, numbers, text, blobs (fileformat2.html, 2.1; datatype3.html 4.1). */
static int
type_class(uint64_t t)
{
	return t == 0 ? 0 : t <= 9 ? 1 : t >= 13 && (t & 1) ? 2 : 3;
}

static int
val_cmp(const unsigned char *a, uint64_t ta, const unsigned char *b,
    uint64_t tb)
{
	int ca = type_class(ta), cb = type_class(tb), c;
	size_t na, nb;

	if (ca != cb)
		return ca < cb ? -1 : 1;
	if (ca == 0)
		return 0;
	if (ca == 1) {
		if (ta != 7 && tb != 7) {
			int64_t x = get_int(a, ta), y = get_int(b, tb);

			return x < y ? -1 : x > y;
		} else {
			long double x = get_num(a, ta), y = get_num(b, tb);

			return x < y ? -1 : x > y;
		}
	}
	na = body_len(ta);
	nb = body_len(tb);
	if ((c = memcmp(a, b, na < nb ? na : nb)) != 0)
		return c;
	return na < nb ? -1 : na > nb;
}

/* The varint at p + *pos, which moves past it: one byte mostly. */
static inline uint64_t
next_varint(const unsigned char *p, size_t *pos)
{
	unsigned len;
	uint64_t v;

	if (p[*pos] < 0x80)
		return p[(*pos)++];
	v = get_varint(p + *pos, &len);
	*pos += len;
	return v;
}

/* Two records as SQLite orders them: column by column.  Integers of
 * both (the usual key) compare without val_cmp(). */
static int
rec_cmp(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
	size_t pa = 0, pb = 0, ha = (size_t)next_varint(a, &pa),
	    hb = (size_t)next_varint(b, &pb), da = ha, db = hb;

	while (pa < ha && pb < hb) {
		uint64_t ta = next_varint(a, &pa), tb = next_varint(b, &pb);
		size_t la = body_len(ta), lb = body_len(tb);
		int c;

		if (da + la > na || db + lb > nb)
			return 0;	/* not a record: parse_cell bounds it */
		if (ta - 1 < 6 && tb - 1 < 6) {	/* serial types 1 to 6 */
			int64_t x = get_int(a + da, ta), y = get_int(b + db, tb);

			if (x != y)
				return x < y ? -1 : 1;
		} else if ((c = val_cmp(a + da, ta, b + db, tb)) != 0) {
			return c;
		}
		da += la;
		db += lb;
	}
	return (pa < ha) - (pb < hb);
}

/* Go down to page pg of the old index. */
static int
cur_push(struct ssp_btree_tree *t, uint32_t pg)
{
	struct ssp_btree *b = t->b;
	struct ocur *o = &t->cur;
	int d = o->depth + 1;
	unsigned char *p;

	if (d >= MAXDEPTH)
		return corrupt(b, pg);
	if (o->pg[d] == NULL && (o->pg[d] = malloc(b->psz + 16)) == NULL)
		return nomem(b);
	p = o->pg[d];
	if (read_page(b, pg, p) != SSP_OK)
		return b->e.code;
	if ((p[0] != F_LEAF_INDEX && p[0] != F_INTERIOR_INDEX) ||
	    (o->height >= 0 && (p[0] == F_LEAF_INDEX) != (d == o->height)))
		return corrupt(b, pg);
	o->no[d] = pg;
	o->idx[d] = 0;
	o->n[d] = be16(p + 3);
	o->depth = d;
	return SSP_OK;
}

/* Done with the current page: freed (keep: a leaf reused whole) and the
 * parent moves on. */
static int
cur_pop(struct ssp_btree_tree *t, int keep)
{
	struct ocur *o = &t->cur;

	if (!keep && o->no[o->depth] != t->root &&
	    free_page(t->b, o->no[o->depth]) != SSP_OK)
		return t->b->e.code;
	if (--o->depth >= 0)
		o->idx[o->depth]++;
	return SSP_OK;
}

/* The first entry for an index that holds entries: the cursor at its
 * first leaf. */
static int
take_index(struct ssp_btree_tree *t)
{
	struct ssp_btree *b = t->b;
	struct ocur *o = &t->cur;

	t->started = 1;
	o->depth = o->height = -1;
	if (level(t, 0) == NULL)
		return b->e.code;
	if ((t->pcell = malloc(b->psz)) == NULL)
		return nomem(b);
	if (cur_push(t, t->root) != SSP_OK)
		return b->e.code;
	while (o->pg[o->depth][0] == F_INTERIOR_INDEX) {
		const unsigned char *p = o->pg[o->depth];

		if (cur_push(t, be32(p + (o->n[o->depth] > 0 ? be16(p + 12) :
		    8))) != SSP_OK)
			return b->e.code;
	}
	o->height = o->depth;
	return SSP_OK;
}

/* May an old leaf be reused now?  Not when the page being filled holds
 * one entry (the divider before the leaf would leave it empty), nor when
 * a reused leaf still waits for its divider. */
static int
can_reuse(const struct ssp_btree_tree *t)
{
	return t->lv[0].n != 1 && !(t->pend != 0 && !t->haspcell);
}

/* Is every page above depth d at its right-most child?  Then the page at
 * d (at its right-most child, for an interior page) leads to the old
 * tree's last leaf, which is not reused but filled on, like a table's:
 * else each append would leave a page not full at the end of the index. */
static int
right_edge(const struct ocur *o, int d)
{
	int j;

	for (j = 0; j < d; j++)
		if (o->idx[j] != 2 * o->n[j])
			return 0;
	return 1;
}

/* Does the child at the position of depth d lie before k?  Its bound is
 * the cell after it, here or in a page above; without one, unknown. */
static int
child_before(struct ssp_btree_tree *t, int d, const unsigned char *k,
    size_t nk)
{
	struct ssp_btree *b = t->b;
	struct ocur *o = &t->cur;
	const unsigned char *r;
	struct ocell oc;

	for (; d >= 0; d--) {
		unsigned i = o->idx[d] / 2;

		if (i < o->n[d]) {
			if (parse_cell(b, o->pg[d], o->no[d], i, &oc) != SSP_OK ||
			    (r = cell_rec(b, &oc)) == NULL)
				return 0;
			return rec_cmp(r, oc.n, k, nk) < 0;
		}
	}
	return 0;
}

/* Old leaf pg goes into the new tree as it is. */
static int
reuse_leaf(struct ssp_btree_tree *t, uint32_t pg)
{
	struct ssp_btree *b = t->b;
	struct level *lv = &t->lv[0];
	uint32_t wp;

	if (t->pend != 0) {	/* the one before, with its divider */
		if (push_index(t, 1, t->pend, t->pcell, t->pclen) != SSP_OK)
			return b->e.code;
		t->pend = 0;
		t->haspcell = 0;
		lv = &t->lv[0];
	}
	if (lv->n > 0) {	/* the page being filled, before it */
		size_t dlen = pop_cell(lv, 0);

		if ((wp = write_page(b, lv, F_LEAF_INDEX, 0, 0)) == 0 ||
		    push_index(t, 1, wp, t->lv[0].spare, dlen) != SSP_OK)
			return b->e.code;
	}
	t->lv[0].closed++;	/* level 0 is not the top */
	t->pend = pg;
	return SSP_OK;
}

/* An index cell into the new tree: after a reused leaf, its divider. */
static int
put_cell(struct ssp_btree_tree *t, const unsigned char *c, size_t len)
{
	struct ssp_btree *b = t->b;
	struct level *lv;

	if (t->pend != 0) {
		if (!t->haspcell) {	/* held: the next one decides */
			memcpy(t->pcell, c, len);
			t->pclen = len;
			t->haspcell = 1;
			return SSP_OK;
		}
		if (push_index(t, 1, t->pend, t->pcell, t->pclen) != SSP_OK)
			return b->e.code;
		t->pend = 0;
		t->haspcell = 0;
	}
	if ((lv = leaf(t)) == NULL)
		return b->e.code;
	if (!fits(b, lv, 0, len) && (lv = leaf_full(t, lv)) == NULL)
		return b->e.code;
	return add_cell(b, lv, 0, c, len, 0, 0);
}

/*
 * The old entries of index t that sort before record k (k NULL: all that
 * are left) into the new tree.
 */
static int
merge_upto(struct ssp_btree_tree *t, const unsigned char *k, size_t nk)
{
	struct ssp_btree *b = t->b;
	struct ocur *o = &t->cur;
	const unsigned char *r;
	struct ocell oc;

	if (!t->started && take_index(t) != SSP_OK)
		return b->e.code;
	while (o->depth >= 0 && b->e.code == SSP_OK) {
		int d = o->depth;
		const unsigned char *p = o->pg[d];
		unsigned i = o->idx[d];

		if (p[0] == F_LEAF_INDEX) {
			if (i == o->n[d]) {
				cur_pop(t, 0);
				continue;
			}
			if (i == 0 && o->no[d] != t->root && can_reuse(t) &&
			    !right_edge(o, d)) {
				if (parse_cell(b, p, o->no[d], o->n[d] - 1, &oc) !=
				    SSP_OK || (r = cell_rec(b, &oc)) == NULL)
					break;
				if (k == NULL || rec_cmp(r, oc.n, k, nk) < 0) {
					if (reuse_leaf(t, o->no[d]) == SSP_OK)
						cur_pop(t, 1);
					continue;
				}
			}
			if (parse_cell(b, p, o->no[d], i, &oc) != SSP_OK)
				break;
		} else {
			if (i > 2 * o->n[d]) {
				cur_pop(t, 0);
				continue;
			}
			if (i % 2 == 0) {	/* a child */
				uint32_t child = be32(p + (i / 2 < o->n[d] ?
				    be16(p + 12 + i) : 8));

				if (d + 1 == o->height && can_reuse(t) &&
				    !(i == 2 * o->n[d] && right_edge(o, d)) &&
				    (k == NULL ||
				    child_before(t, d, k, nk))) {
					if (reuse_leaf(t, child) == SSP_OK)
						o->idx[d]++;
					continue;
				}
				cur_push(t, child);
				continue;
			}
			if (parse_cell(b, p, o->no[d], i / 2, &oc) != SSP_OK)
				break;
		}
		if (k != NULL) {
			if ((r = cell_rec(b, &oc)) == NULL)
				break;
			if (rec_cmp(r, oc.n, k, nk) > 0)
				break;	/* the new entry comes first */
		}
		if (put_cell(t, oc.c, oc.len) != SSP_OK)
			break;
		o->idx[d]++;
	}
	return b->e.code;
}

/*
 * The old entries left, at the end.  A reused leaf that is the last page
 * goes to *child (the right-most child of level 1); one followed by a
 * single entry is copied after all (that entry has nothing to divide).
 */
static int
finish_old_index(struct ssp_btree_tree *t, uint32_t *child)
{
	struct ssp_btree *b = t->b;
	unsigned char *p;
	struct ocell oc;
	uint32_t pg = t->pend;
	unsigned i, n;

	*child = 0;
	if (merge_upto(t, NULL, 0) != SSP_OK || (pg = t->pend) == 0)
		return b->e.code;
	if (!t->haspcell) {
		if (t->nlv < 2)
			return ssp_err_set(&b->e, SSP_ERR_INVAL, 0, "database: "
			    "index without a top");	/* not reached */
		*child = pg;
		t->pend = 0;
		return SSP_OK;
	}
	if ((p = malloc(b->psz + 16)) == NULL)
		return nomem(b);
	t->pend = 0;
	t->haspcell = 0;
	if (read_page(b, pg, p) == SSP_OK) {
		n = be16(p + 3);
		for (i = 0; i < n; i++)
			if (parse_cell(b, p, pg, i, &oc) != SSP_OK ||
			    put_cell(t, oc.c, oc.len) != SSP_OK)
				break;
		if (b->e.code == SSP_OK && put_cell(t, t->pcell, t->pclen) ==
		    SSP_OK)
			free_page(b, pg);
	}
	free(p);
	return b->e.code;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The free pages left onto the freelist (fileformat2.html, 1.5): trunk
 * pages of up to usable/4 - 8 leaves each (what SQLite writes).  The
 * freelist the file had is among them.  Sets header h.
 */
static int
write_freelist(struct ssp_btree *b, unsigned char *h)
{
	size_t per = b->usable / 4 - 8, nch, c, j;
	uint32_t first = 0;

	if (b->npool > 0)	/* else the pool may be NULL */
		qsort(b->pool, b->npool, sizeof(*b->pool), cmp_u32);
	nch = (b->npool + per) / (per + 1);
	for (c = nch; c-- > 0;) {
		size_t start = c * (per + 1), end = start + per + 1;

		if (end > b->npool)
			end = b->npool;
		memset(b->page, 0, b->psz);
		put32(b->page, first);
		put32(b->page + 4, (uint32_t)(end - start - 1));
		for (j = start + 1; j < end; j++)
			put32(b->page + 8 + 4 * (j - start - 1), b->pool[j]);
		if (write_all(b, b->page, b->psz, (uint64_t)(b->pool[start] - 1) *
		    b->psz) != SSP_OK)
			return b->e.code;
		first = b->pool[start];
	}
	put32(h + 32, first);
	put32(h + 36, (uint32_t)b->npool);
	return SSP_OK;
}

/*
 * The freelist of the file as it was opened into the pool: its trunk
 * pages (read first) and their leaves.  count: the header's page count.
 */
static int
take_freelist(struct ssp_btree *b, uint32_t trunk, uint32_t count)
{
	uint32_t seen = 0, n, i;

	while (trunk != 0 && b->e.code == SSP_OK) {
		if (read_page(b, trunk, b->page) != SSP_OK)
			return b->e.code;
		n = be32(b->page + 4);
		if (n > b->usable / 4 - 2 || n >= count - seen)
			break;
		for (i = 0; i < n; i++)
			if (free_page(b, be32(b->page + 8 + 4 * i)) != SSP_OK)
				return b->e.code;
		seen += n + 1;
		n = be32(b->page);
		if (free_page(b, trunk) != SSP_OK)
			return b->e.code;
		trunk = n;
	}
	if (b->e.code == SSP_OK && (trunk != 0 || seen != count))
		ssp_err_set(&b->e, SSP_ERR_FORMAT, 0, "database: a freelist "
		    "this writer cannot take up");
	return b->e.code;
}

/* --- the file ------------------------------------------------------------- */

int
ssp_btree_open(struct ssp_btree **bp, const char *path, uint32_t pending_byte,
    struct ssp_err *e)
{
	struct ssp_btree *b;
	unsigned char h[100];
	struct stat st;
	ssize_t n;
	uint32_t psz;

	*bp = NULL;
	if ((b = calloc(1, sizeof(*b))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((b->fd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
		ssp_err_set(e, SSP_ERR_IO, 0, "%s: %s", path, strerror(errno));
		free(b);
		return e != NULL ? e->code : SSP_ERR_IO;
	}
	n = pread(b->fd, h, sizeof(h), 0);
	if (n != (ssize_t)sizeof(h) || fstat(b->fd, &st) != 0 ||
	    memcmp(h, "SQLite format 3", 16) != 0) {
		ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not an SQLite database",
		    path);
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
	/* rollback journal (1), no auto-vacuum, UTF-8, schema format 4 (0
	 * and 1 as serial types 8 and 9); free pages are reused */
	if (psz < 512 || (psz & (psz - 1)) != 0 || h[18] != 1 || h[19] != 1 ||
	    b->usable < 480 || h[21] != 64 || h[22] != 32 || h[23] != 32 ||
	    (be32(h + 32) == 0) != (be32(h + 36) == 0) || be32(h + 44) != 4 ||
	    be32(h + 52) != 0 || be32(h + 56) != 1 ||
	    (uint64_t)st.st_size != (uint64_t)b->npages * psz) {
		ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not a database this "
		    "loader can fill directly", path);
		goto fail;
	}
	b->pending = (pending_byte ? pending_byte : PENDING_BYTE) / psz + 1;
	b->wbuf = malloc((size_t)WBUF_PAGES * psz);
	b->page = malloc(psz + 16);	/* a varint read at its end */
	b->cell = malloc(psz + 32);
	b->gone = calloc((size_t)b->npages / 64 + 1, sizeof(*b->gone));
	if (b->wbuf == NULL || b->page == NULL || b->cell == NULL ||
	    b->gone == NULL) {
		ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		goto fail;
	}
	if (take_freelist(b, be32(h + 32), be32(h + 36)) != SSP_OK) {
		if (e != NULL)
			*e = b->e;
		goto fail;
	}
	*bp = b;
	return SSP_OK;
fail:
	ssp_btree_abort(b);
	return e != NULL ? e->code : SSP_ERR_FORMAT;
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
		for (j = 0; j < MAXDEPTH; j++)
			free(t->cur.pg[j]);
		free(t->pcell);
		free(t->lv);
		free(t);
	}
	free(b->trees);
	b->trees = NULL;
	b->ntrees = 0;
}

int
ssp_btree_close(struct ssp_btree *b, struct ssp_err *e)
{
	unsigned char h[100];
	unsigned i;
	uint32_t change;
	int r;

	for (i = 0; i < b->ntrees && b->e.code == SSP_OK; i++)
		finish(b->trees[i]);
	if (b->e.code == SSP_OK && flush_pages(b) == SSP_OK) {
		if (pread(b->fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
			fail(b, "read");
		else {
			change = be32(h + 24) + 1;
			write_freelist(b, h);
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
	r = b->e.code;
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
	free(b->pool);
	free(b->gone);
	free(b->obuf);
	free(b);
}
