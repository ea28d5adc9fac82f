/*
 * Configuration CSV files (topology, rules) read with libcsv, row by row,
 * with the line and column of every field so errors can point at it.
 * Lines whose first byte is '#' are comments; blank lines are skipped;
 * spaces around unquoted fields are trimmed (libcsv's default).
 */
#ifndef SSP_CSV_H
#define SSP_CSV_H

#include <stddef.h>

#include "base/err.h"

#define SSP_CSV_MAXF     16			/* fields per row */
#define SSP_CSV_MAXBYTES (64u * 1024 * 1024)	/* largest file */

struct ssp_csv_field {
	const char *s;		/* NUL-terminated, valid during the callback */
	size_t len;
	unsigned line, col;	/* where the field starts, from 1 */
};

struct ssp_csv_row {
	const char *file;	/* name used in messages */
	const struct ssp_csv_field *f;
	unsigned n;		/* fields, trailing empty fields removed */
	unsigned line;
};

/* Return SSP_OK to go on; anything else stops the reader and is returned. */
typedef int (*ssp_csv_row_fn)(void *ctx, const struct ssp_csv_row *row,
    struct ssp_err *e);

SSP_MUST_USE enum ssp_status ssp_csv_read_mem(const char *name, const char *buf,
    size_t len, ssp_csv_row_fn fn, void *ctx, struct ssp_err *e);
/* Read a whole (small) file into a NUL-terminated buffer to free(). */
SSP_MUST_USE enum ssp_status ssp_csv_slurp(const char *path, char **buf,
    size_t *len, struct ssp_err *e);
SSP_MUST_USE enum ssp_status ssp_csv_read_file(const char *path,
    ssp_csv_row_fn fn, void *ctx, struct ssp_err *e);

/* "FILE:LINE:COL: message" as SSP_ERR_INVAL, with e->line set. */
int ssp_csv_err(struct ssp_err *e, const char *file, unsigned line,
    unsigned col, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same, pointing at a field. */
int ssp_csv_ferr(struct ssp_err *e, const struct ssp_csv_row *row,
    unsigned field, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
