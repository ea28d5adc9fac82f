/*
 * Records as text, driven by the stream's own schema, so one dumper serves
 * event and span streams and types it has never heard of.
 *   text: "<ts> <type> name=value ..." with aligned ts and type columns
 *   csv:  RFC 4180 via libcsv; header row ts,type,<union of field names>
 *   json: one object per line
 */
#ifndef SSP_DUMP_H
#define SSP_DUMP_H

#include <stdio.h>

#include "ssp_rec.h"

enum ssp_dump_fmt { SSP_DUMP_TEXT, SSP_DUMP_CSV, SSP_DUMP_JSON };

struct ssp_dump;

/* Columns come from the reader's file schema (CSV writes its header now). */
struct ssp_dump *ssp_dump_new(FILE *out, enum ssp_dump_fmt fmt,
    const struct ssp_rr *rr);
/*
 * The same, naming streams: a 'u' field called "stream" is shown as the
 * name streams[value] (text), or gets a "stream_name" column / key right
 * after it (CSV, JSON).  streams may be NULL.
 */
struct ssp_dump *ssp_dump_new_named(FILE *out, enum ssp_dump_fmt fmt,
    const struct ssp_rr *rr, const char *const *streams, size_t nstreams);
/* Print one record read from rr (r->ftag selects the file type). */
void ssp_dump_rec(struct ssp_dump *d, const struct ssp_rec *r);
void ssp_dump_free(struct ssp_dump *d);

/* One field value as text into buf (for other tools' messages and tests). */
void ssp_dump_value(char *buf, size_t n, char enc, uint64_t v,
    const struct ssp_rr *rr);

#endif
