/*
 * sqlite-image DB CATALOG: the schema image of a new simspan database
 * (lib/sqlite/image.h), made when the library is built.  DB gets a new
 * database with the whole of formats/simspan.sql (tables, views, indexes,
 * the PRAGMAs) and sqlite_stat1, written by SQLite (ssp_schema_image);
 * CATALOG gets its catalog as text (lib/sqlite/catalog.h).  Exit 0, or 1
 * with a message.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "sqlite/catalog.h"
#include "sqlite/schema.h"

static void
put_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0)
		err(1, "%s", path);
}

int
main(int argc, char **argv)
{
	struct ssp_buf text = SSP_BUF_INIT;
	struct ssp_catalog *c;
	struct ssp_err e = { 0 };
	sqlite3 *db = NULL;

	if (argc != 3) {
		fprintf(stderr, "usage: sqlite-image DB CATALOG\n");
		return 2;
	}
	if (unlink(argv[1]) != 0 && access(argv[1], F_OK) == 0)
		err(1, "%s", argv[1]);
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		errx(1, "%s: %s", argv[1], sqlite3_errmsg(db));
	if (ssp_schema_image(db, argv[1], &e) != SSP_OK ||
	    ssp_catalog_read(db, argv[1], &c, &e) != SSP_OK)
		errx(1, "%s", e.msg);
	if (sqlite3_close(db) != SQLITE_OK)
		errx(1, "%s: cannot close", argv[1]);
	ssp_catalog_text(c, &text);
	if (text.failed)
		errx(1, "out of memory");
	put_file(argv[2], text.p, text.len);
	ssp_catalog_free(c);
	ssp_buf_free(&text);
	return 0;
}
