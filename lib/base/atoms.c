#include <stdlib.h>
#include <string.h>

#include "base/atoms.h"
#include "base/buf.h"
#include "base/map.h"

#define ATOMS_MAX 0x7fffffffu

struct ssp_atoms {
	char *arena;		/* strings back to back, each NUL-terminated */
	size_t alen, acap;
	size_t *off;		/* by id - 1 */
	uint32_t *len;
	uint32_t n, cap;
	struct ssp_map map;	/* string hash -> id */
	uint32_t max_n;		/* limits on growth */
	size_t max_bytes;
	int limited;
};

enum ssp_status
ssp_atoms_new(struct ssp_atoms **ap, struct ssp_err *e)
{
	struct ssp_atoms *a = calloc(1, sizeof(*a));

	*ap = NULL;
	if (a == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	a->map = (struct ssp_map)SSP_MAP_INIT;
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
	ssp_map_free(&a->map);
	free(a);
}

uint32_t
ssp_atoms_find(const struct ssp_atoms *a, const char *s, size_t n)
{
	const struct ssp_map_slot *sl;

	for (sl = ssp_map_find(&a->map, ssp_map_hash(s, n)); sl != NULL;
	    sl = ssp_map_next(&a->map, sl)) {
		uint32_t id = sl->val;

		if (a->len[id - 1] == n && memcmp(a->arena + a->off[id - 1], s, n) == 0)
			return id;
	}
	return 0;
}

uint32_t
ssp_atoms_intern(struct ssp_atoms *a, const char *s, size_t n)
{
	uint32_t id;

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
	if (ssp_buf_array((void **)&a->arena, &a->acap, a->alen + n + 1, 1) != 0)
		return 0;
	if (ssp_map_add(&a->map, ssp_map_hash(s, n), a->n + 1) == NULL)
		return 0;
	a->off[a->n] = a->alen;
	a->len[a->n] = (uint32_t)n;
	memcpy(a->arena + a->alen, s, n);
	a->arena[a->alen + n] = '\0';
	a->alen += n + 1;
	id = ++a->n;
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
