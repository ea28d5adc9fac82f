/*
 * What the loader and the row writers need to know of a database's
 * schema, read once: its tables (each column as pragma_table_xinfo gives
 * it, the root page, the DDL), its indexes (each column as
 * pragma_index_xinfo gives it, the root page, unique, partial, the DDL),
 * its triggers and versions, in the order of sqlite_schema.
 *
 * It comes from a database through SQLite (ssp_catalog_read), or from
 * its text (ssp_catalog_text, ssp_catalog_parse): the build reads the
 * catalog of the schema image (image.h) and compiles its text in, so
 * that a new database is planned without SQLite parsing the schema.
 */
#ifndef SSP_CATALOG_H
#define SSP_CATALOG_H

#include <sqlite3.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

struct ssp_catalog_col {	/* a column of a table */
	char *name;
	char *type;		/* as declared, "" if none */
	int notnull;
	int dflt;		/* it has a default value */
	int pk;			/* its place in the PRIMARY KEY, 0: none */
	int hidden;		/* 0; 2, 3: generated, virtual or stored */
	/* a generated column of the tables the writers fill (rows.h) that
	 * SQLite computes as they do (probed when read) */
	int gen_ok;
};

struct ssp_catalog_table {
	char *name;
	char *sql;
	uint32_t root;
	int rowid;		/* a rowid table (no PRIMARY KEY index) */
	unsigned ncols;
	struct ssp_catalog_col *col;
};

struct ssp_catalog_key {	/* a column of an index, the rowid last */
	char *name;		/* NULL: an expression, or the rowid */
	char *coll;		/* collation, NULL for the rowid */
	int desc;
	int key;		/* 1: a key column, 0: the rowid */
};

struct ssp_catalog_index {
	char *name;
	char *table;
	char *sql;		/* NULL: made for a UNIQUE constraint */
	uint32_t root;
	int unique;
	int partial;
	unsigned nkeys;
	struct ssp_catalog_key *key;
};

struct ssp_catalog {
	int64_t user_version;
	int64_t application_id;
	int64_t schema_version;	/* the schema cookie */
	unsigned ntriggers;
	unsigned ntables, nindexes;
	struct ssp_catalog_table *table;	/* in sqlite_schema's order */
	struct ssp_catalog_index *index;	/* the same */
	char *arena;		/* parsed: every string points into it */
};

/* The catalog of the database "main" of db.  name: the database, for
 * messages. */
SSP_MUST_USE enum ssp_status ssp_catalog_read(sqlite3 *db, const char *name,
    struct ssp_catalog **cp, struct ssp_err *e);
/* c as text (appended to out; out->failed when out of memory). */
void ssp_catalog_text(const struct ssp_catalog *c, struct ssp_buf *out);
/* The catalog of text, n bytes that ssp_catalog_text wrote; SSP_ERR_FORMAT
 * on anything else. */
SSP_MUST_USE enum ssp_status ssp_catalog_parse(const char *text, size_t n,
    struct ssp_catalog **cp, struct ssp_err *e);
void ssp_catalog_free(struct ssp_catalog *c);

/* The table named name, or NULL. */
const struct ssp_catalog_table *ssp_catalog_table(const struct ssp_catalog *c,
    const char *name);
/* The column named name of t, or NULL. */
const struct ssp_catalog_col *ssp_catalog_col(const struct ssp_catalog_table *t,
    const char *name);

#endif
