/*
 * Span streams as trees, for reading by people (spancat --tree): every
 * trace printed as an indented tree of its spans, each with its kind,
 * stream name, start, offset from the root, duration, key attributes,
 * flags and links.  Holds every span of the input in memory.
 */
#ifndef SSP_SPANTREE_H
#define SSP_SPANTREE_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "stream/rec.h"

struct ssp_spantree;

/* rr: an open span stream reader (ssp_span_reader_open); its file schema
 * must stay valid until ssp_spantree_free. */
struct ssp_spantree *ssp_spantree_new(const struct ssp_rec_rd *rr,
    const char *const *streams, size_t nstreams);
/* A record read from rr: spans and links are kept, member events counted. */
int ssp_spantree_add(struct ssp_spantree *t, const struct ssp_rec *r,
    struct ssp_err *e);
void ssp_spantree_print(struct ssp_spantree *t, FILE *out);
void ssp_spantree_free(struct ssp_spantree *t);

#endif
