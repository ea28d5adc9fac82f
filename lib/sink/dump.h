/*
 * Records as text, driven by the stream's own schema, so one dumper serves
 * event and span streams and types it has never heard of.
 *   text: "<ts> <type> name=value ..." with aligned ts and type columns;
 *         string values with blanks, quotes, '=' or control bytes are
 *         quoted with C escapes, so every record stays on one line
 *   csv:  RFC 4180 via libcsv; header row ts,type,<union of field names>,
 *         or only the columns asked for, in their order
 *   json: one object per line; invalid UTF-8 becomes U+FFFD
 * formats/text.md specifies the three forms and their versions.
 * The schema may change between concatenated segments and between the
 * readers given to one dumper; CSV keeps the columns of its first header.
 */
#ifndef SSP_DUMP_H
#define SSP_DUMP_H

#include <stdio.h>

#include "base/err.h"
#include "stream/rec.h"

enum ssp_dump_fmt { SSP_DUMP_TEXT, SSP_DUMP_CSV, SSP_DUMP_JSON };

struct ssp_dump;

/* Columns come from the reader's file schema (CSV writes its header now). */
struct ssp_dump *ssp_dump_new(FILE *out, enum ssp_dump_fmt fmt,
    const struct ssp_rec_rd *rr);
/*
 * The same, naming streams: a 'u' field called "stream" is shown as the
 * name streams[value] (text), or gets a "stream_name" column / key right
 * after it (CSV, JSON).  streams may be NULL.
 */
struct ssp_dump *ssp_dump_new_named(FILE *out, enum ssp_dump_fmt fmt,
    const struct ssp_rec_rd *rr, const char *const *streams, size_t nstreams);
/* What ssp_dump_open can do besides ssp_dump_new. */
struct ssp_dump_opts {
	const char *const *streams;	/* as ssp_dump_new_named, or NULL */
	size_t nstreams;
	/* CSV: only these columns, in this order ("ts,type,sym"); NULL:
	 * all.  ts, type, stream_name (with streams) and trace (with
	 * trace_id) are columns too. */
	const char *columns;
	/* trace_hi and trace_lo as one "trace": the 32 lowercase hex digits
	 * of SQLite, the viewer and OTLP (JSON always, CSV as a column) */
	int trace_id;
};

/*
 * ssp_dump_new_named with options: SSP_OK, SSP_ERR_INVAL when a column
 * asked for is none of rr's schema (e says which), SSP_ERR_NOMEM.
 */
SSP_MUST_USE enum ssp_status ssp_dump_open(struct ssp_dump **dp, FILE *out,
    enum ssp_dump_fmt fmt, const struct ssp_rec_rd *rr,
    const struct ssp_dump_opts *o, struct ssp_err *e);
/* Print the records of another reader next (several input files). */
void ssp_dump_reader(struct ssp_dump *d, const struct ssp_rec_rd *rr);
/* Print one record read from the current reader (r->ftag selects the file
 * type).  SSP_OK, or SSP_ERR_SCHEMA when the CSV header has no column for
 * one of its fields, SSP_ERR_NOMEM; ssp_dump_error() says why. */
SSP_MUST_USE enum ssp_status ssp_dump_rec(struct ssp_dump *d,
    const struct ssp_rec *r);
const char *ssp_dump_error(const struct ssp_dump *d);
void ssp_dump_free(struct ssp_dump *d);

/* One field value as text into buf (for other tools' messages and tests);
 * strings are truncated to fit. */
void ssp_dump_value(char *buf, size_t n, char enc, uint64_t v,
    const struct ssp_rec_rd *rr);
/* Write s as a JSON string (quotes included). */
void ssp_dump_json_str(FILE *out, const char *s, size_t n);
/*
 * The stream header of rr (evcat -H, spancat -H): as text, "# LABEL NAME
 * (format 1.m)", "# key: value" for each metadata entry and "# type N
 * name: field/enc ..." for each type; with SSP_DUMP_JSON one object,
 * {"header":{"file":...,"format":"1.m","meta":{...},"types":[...]}}
 * (formats/text.md).
 */
void ssp_dump_header(FILE *out, const struct ssp_rec_rd *rr,
    enum ssp_dump_fmt fmt, const char *label);

#endif
