#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite/dberr.h"
#include "sqlite/schema.h"
#include "sqlite/sqlite_schema.h"

#define INDEX_MARKER	"-- span2sqlite: indexes"
#define VERSION_PRAGMA	"PRAGMA user_version = "
#define APP_ID		0x53535053	/* "SSPS" */

int
ssp_schema_version(void)
{
	const char *p = strstr(ssp_sqlite_schema, VERSION_PRAGMA);

	return p != NULL ? atoi(p + strlen(VERSION_PRAGMA)) : -1;
}

static const char *
dbname(sqlite3 *db, const char *name)
{
	const char *f = sqlite3_db_filename(db, "main");

	if (name != NULL)
		return name;
	return f != NULL && *f != '\0' ? f : "database";
}

enum ssp_status
ssp_schema_create(sqlite3 *db, const char *name, struct ssp_err *e)
{
	const char *m = strstr(ssp_sqlite_schema, INDEX_MARKER);
	size_t n = m != NULL ? (size_t)(m - ssp_sqlite_schema) :
	    strlen(ssp_sqlite_schema);
	char *sql = malloc(n + 1);
	enum ssp_status r;

	SSP_ASSERT(db != NULL);
	if (sql == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	memcpy(sql, ssp_sqlite_schema, n);
	sql[n] = '\0';
	r = ssp_dberr_exec(db, sql, dbname(db, name), e);
	free(sql);
	return r;
}

enum ssp_status
ssp_schema_image(sqlite3 *db, const char *name, struct ssp_err *e)
{
	enum ssp_status r;

	SSP_ASSERT(db != NULL);
	name = dbname(db, name);
	/* ANALYZE of sqlite_schema analyzes nothing: it makes sqlite_stat1 */
	if ((r = ssp_dberr_exec(db, "PRAGMA journal_mode = OFF; BEGIN", name,
	    e)) != SSP_OK || (r = ssp_dberr_exec(db, ssp_sqlite_schema, name,
	    e)) != SSP_OK)
		return r;
	return ssp_dberr_exec(db, "ANALYZE sqlite_schema; COMMIT", name, e);
}

enum ssp_status
ssp_schema_indexes(sqlite3 *db, const char *name, struct ssp_err *e)
{
	const char *m = strstr(ssp_sqlite_schema, INDEX_MARKER);

	SSP_ASSERT(db != NULL);
	return m != NULL ? ssp_dberr_exec(db, m, dbname(db, name), e) : SSP_OK;
}

/* Approximate statistics (analysis_limit) cost milliseconds and let the
 * planner choose between the indexes. */
enum ssp_status
ssp_schema_analyze(sqlite3 *db, const char *name, struct ssp_err *e)
{
	SSP_ASSERT(db != NULL);
	return ssp_dberr_exec(db, SSP_SCHEMA_ANALYSIS_PRAGMA "; ANALYZE;",
	    dbname(db, name), e);
}

enum ssp_status
ssp_schema_check(sqlite3 *db, const char *name, int *version,
    struct ssp_err *e)
{
	int64_t app, ver, nobj;
	int want = ssp_schema_version();
	enum ssp_status r;

	SSP_ASSERT(db != NULL && name != NULL && version != NULL);
	*version = 0;
	if ((r = ssp_dberr_int(db, "PRAGMA main.application_id", 0, &app, name,
	    e)) != SSP_OK || (r = ssp_dberr_int(db, "PRAGMA main.user_version",
	    0, &ver, name, e)) != SSP_OK || (r = ssp_dberr_int(db,
	    "SELECT count(*) FROM main.sqlite_schema", 0, &nobj, name, e)) !=
	    SSP_OK)
		return r;
	if (app == 0 && nobj == 0)	/* an empty database: start afresh */
		return SSP_OK;
	if (app != APP_ID)
		return ssp_err_set(e, SSP_ERR_FORMAT, 0, "%s: not a simspan "
		    "database (application_id 0x%" PRIx64 ", expected 0x%x)",
		    name, (uint64_t)app, APP_ID);
	/* every version from 1 up is upgraded by adding what it lacks */
	if (ver < 1 || ver > want)
		return ssp_err_set(e, SSP_ERR_VERSION, 0, "%s: schema version %"
		    PRId64 ", this program writes version %d%s", name, ver, want,
		    ver > want ? "; use a newer span2sqlite" :
		    "; no upgrade path, load into a new database");
	*version = (int)ver;
	return SSP_OK;
}

/* The DDL of src's tables, views and indexes that main lacks, in the
 * order src made them: a NULL-terminated array (free_ddl). */
static enum ssp_status
missing_ddl(sqlite3 *db, const char *src, const char *name, char ***out,
    struct ssp_err *e)
{
	sqlite3_stmt *s = NULL;
	char **ddl = NULL, **nd, *sql;
	size_t n = 0, cap = 0;
	enum ssp_status r = SSP_OK;
	int rc;

	*out = NULL;
	if ((sql = sqlite3_mprintf("SELECT s.sql FROM \"%w\".sqlite_schema AS s "
	    "WHERE s.type IN ('table', 'view', 'index') AND s.sql IS NOT NULL "
	    "AND s.name NOT LIKE 'sqlite\\_%%' ESCAPE '\\' AND NOT EXISTS "
	    "(SELECT 1 FROM main.sqlite_schema AS m WHERE m.type = s.type AND "
	    "m.name = s.name) ORDER BY s.rowid", src)) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return ssp_dberr_set(e, db, name);
	while (r == SSP_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);

		if (n + 1 >= cap) {
			cap = cap ? 2 * cap : 16;
			if ((nd = realloc(ddl, cap * sizeof(*nd))) == NULL) {
				r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
				break;
			}
			ddl = nd;
		}
		ddl[n] = NULL;
		if (t == NULL || (ddl[n++] = strdup(t)) == NULL)
			r = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		ddl[n] = NULL;
	}
	if (r == SSP_OK && rc != SQLITE_DONE)
		r = ssp_dberr_set(e, db, name);
	sqlite3_finalize(s);
	*out = ddl;
	return r;
}

static void
free_ddl(char **ddl)
{
	size_t i;

	for (i = 0; ddl != NULL && ddl[i] != NULL; i++)
		free(ddl[i]);
	free(ddl);
}

enum ssp_status
ssp_schema_migrate(sqlite3 *db, const char *src, int from, const char *name,
    struct ssp_err *e)
{
	char **ddl, pragma[48];
	enum ssp_status r;
	size_t i;

	SSP_ASSERT(db != NULL && src != NULL && name != NULL);
	SSP_ASSERT(from >= 1 && from <= ssp_schema_version());
	if (from == ssp_schema_version())
		return SSP_OK;
	/* collected first: a CREATE while the query runs would change the
	 * schema under it */
	r = missing_ddl(db, src, name, &ddl, e);
	for (i = 0; r == SSP_OK && ddl != NULL && ddl[i] != NULL; i++)
		r = ssp_dberr_exec(db, ddl[i], name, e);
	free_ddl(ddl);
	if (r != SSP_OK)
		return r;
	snprintf(pragma, sizeof(pragma), "PRAGMA main.user_version = %d",
	    ssp_schema_version());
	return ssp_dberr_exec(db, pragma, name, e);
}
