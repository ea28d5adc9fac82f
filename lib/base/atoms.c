#include <stdlib.h>
#include <string.h>

#include "base/atoms.h"

#define ATOMS_MAX 0x7fffffffu

struct ssp_atoms {
	char *arena;		/* strings back to back, each NUL-terminated */
	size_t alen, acap;
	size_t *off;		/* by id - 1 */
	uint32_t *len;
	uint32_t n, cap;
	uint32_t *slot;		/* hash slots: id, 0 = empty */
	uint32_t nslot;
	uint32_t max_n;		/* limits on growth */
	size_t max_bytes;
	int limited;
};

static uint32_t
hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (n--) {
		h ^= (uint8_t)*s++;
		h *= 0x100000001b3ULL;
	}
	return (uint32_t)(h ^ h >> 32);
}

int
ssp_atoms_new(struct ssp_atoms **ap, struct ssp_err *e)
{
	struct ssp_atoms *a = calloc(1, sizeof(*a));

	*ap = NULL;
	if (a == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	a->max_n = ATOMS_MAX;
	a->max_bytes = SIZE_MAX;
	*ap = a;
	return SSP_OK;
}

void
ssp_atoms_free(struct ssp_atoms *a)
{
	if (a == NULL)
		return;
	free(a->arena);
	free(a->off);
	free(a->len);
	free(a->slot);
	free(a);
}

uint32_t
ssp_atoms_find(const struct ssp_atoms *a, const char *s, size_t n)
{
	uint32_t i, id;

	if (a->nslot == 0)
		return 0;
	for (i = hash(s, n) & (a->nslot - 1); (id = a->slot[i]) != 0;
	    i = (i + 1) & (a->nslot - 1))
		if (a->len[id - 1] == n && memcmp(a->arena + a->off[id - 1], s, n) == 0)
			return id;
	return 0;
}

static int
rehash(struct ssp_atoms *a)
{
	uint32_t ns = a->nslot ? a->nslot * 2 : 256, id, i;
	uint32_t *sl = calloc(ns, sizeof(*sl));

	if (sl == NULL)
		return -1;
	for (id = 1; id <= a->n; id++) {
		i = hash(a->arena + a->off[id - 1], a->len[id - 1]) & (ns - 1);
		while (sl[i] != 0)
			i = (i + 1) & (ns - 1);
		sl[i] = id;
	}
	free(a->slot);
	a->slot = sl;
	a->nslot = ns;
	return 0;
}

uint32_t
ssp_atoms_intern(struct ssp_atoms *a, const char *s, size_t n)
{
	uint32_t id, i;

	if ((id = ssp_atoms_find(a, s, n)) != 0)
		return id;
	if (a->n >= a->max_n || n + 1 > a->max_bytes || n > UINT32_MAX - 1)
		return 0;
	if (a->n == a->cap) {
		uint32_t cap = a->cap ? a->cap * 2 : 64;
		size_t *no = realloc(a->off, cap * sizeof(*no));
		uint32_t *nl;

		if (no == NULL)
			return 0;
		a->off = no;
		if ((nl = realloc(a->len, cap * sizeof(*nl))) == NULL)
			return 0;
		a->len = nl;
		a->cap = cap;
	}
	if (a->alen + n + 1 > a->acap) {
		size_t cap = a->acap ? a->acap : 4096;
		char *na;

		while (cap < a->alen + n + 1)
			cap *= 2;
		if ((na = realloc(a->arena, cap)) == NULL)
			return 0;
		a->arena = na;
		a->acap = cap;
	}
	if ((a->n + 1) * 2 > a->nslot && rehash(a) != 0)
		return 0;
	a->off[a->n] = a->alen;
	a->len[a->n] = (uint32_t)n;
	memcpy(a->arena + a->alen, s, n);
	a->arena[a->alen + n] = '\0';
	a->alen += n + 1;
	id = ++a->n;
	for (i = hash(s, n) & (a->nslot - 1); a->slot[i] != 0; i = (i + 1) & (a->nslot - 1))
		;
	a->slot[i] = id;
	if (a->limited)
		a->max_bytes -= n + 1;
	return id;
}

const char *
ssp_atoms_str(const struct ssp_atoms *a, uint32_t id, size_t *n)
{
	if (id == 0 || id > a->n)
		return NULL;
	if (n != NULL)
		*n = a->len[id - 1];
	return a->arena + a->off[id - 1];
}

uint32_t ssp_atoms_count(const struct ssp_atoms *a) { return a->n; }

void
ssp_atoms_limit(struct ssp_atoms *a, uint32_t more_atoms, size_t more_bytes)
{
	a->max_n = more_atoms > ATOMS_MAX - a->n ? ATOMS_MAX - 1 : a->n + more_atoms;
	a->max_bytes = more_bytes;
	a->limited = 1;
}
