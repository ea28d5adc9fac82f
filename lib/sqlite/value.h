/*
 * A value of an SQLite row: NULL, an integer or text (or a blob), as the
 * row writers take them (rows.h) and the b-tree writer stores them
 * (btree.h).  Text is UTF-8, not NUL-terminated, and borrowed: it stays
 * where it is until the writer that took it says it is done with it.
 */
#ifndef SSP_VALUE_H
#define SSP_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sqlite3.h>

/* type: SQLITE_NULL, SQLITE_INTEGER, SQLITE_TEXT or SQLITE_BLOB. */
struct ssp_value {
	int type;
	int64_t i;
	const void *p;
	size_t n;
};

static inline struct ssp_value
ssp_value_int(int64_t i)
{
	return (struct ssp_value){ SQLITE_INTEGER, i, NULL, 0 };
}

static inline struct ssp_value
ssp_value_null(void)
{
	return (struct ssp_value){ SQLITE_NULL, 0, NULL, 0 };
}

static inline struct ssp_value
ssp_value_text(const char *p, size_t n)
{
	return (struct ssp_value){ SQLITE_TEXT, 0, p, n };
}

static inline struct ssp_value
ssp_value_str(const char *p)
{
	return ssp_value_text(p, strlen(p));
}

/* A row id or a reference to one: NULL for 0 (no row). */
static inline struct ssp_value
ssp_value_ref(int64_t row)
{
	return row > 0 ? ssp_value_int(row) : ssp_value_null();
}

#endif
