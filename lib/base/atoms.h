/*
 * Interned strings shared by the log parsers and symbol tables: component
 * names, CPU names, symbol names, ns-3 device types.  An atom id is a small
 * integer that stays valid for the pool's lifetime, so parsed events carry
 * ids instead of strings and the event writer maps each id to its own
 * string id once (no hashing of names per event).
 */
#ifndef SSP_ATOMS_H
#define SSP_ATOMS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct ssp_atoms;

SSP_MUST_USE enum ssp_status ssp_atoms_new(struct ssp_atoms **ap,
    struct ssp_err *e);
void ssp_atoms_free(struct ssp_atoms *a);

/*
 * Intern s[0, n): returns its id (> 0), or 0 when out of memory or when
 * adding it would pass the limit set with ssp_atoms_limit.
 */
uint32_t ssp_atoms_intern(struct ssp_atoms *a, const char *s, size_t n);
/* Id of s if interned, else 0. */
uint32_t ssp_atoms_find(const struct ssp_atoms *a, const char *s, size_t n);
/* The string of an id (NUL-terminated; valid until the next intern). */
const char *ssp_atoms_str(const struct ssp_atoms *a, uint32_t id, size_t *n);
/* Number of atoms; ids are 1..count. */
uint32_t ssp_atoms_count(const struct ssp_atoms *a);
/*
 * Cap further growth: at most more_atoms new atoms and more_bytes bytes of
 * new strings from now on.  Keeps memory constant when the strings come
 * from untrusted log lines.
 */
void ssp_atoms_limit(struct ssp_atoms *a, uint32_t more_atoms, size_t more_bytes);

#endif
