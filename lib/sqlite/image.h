/*
 * The first pages of every new database the direct writer makes: the
 * schema image, an empty database with the whole of formats/simspan.sql
 * (tables, views, indexes) and sqlite_stat1, made with SQLite when the
 * library is built (tools/gen/sqlite-image.c), with its catalog
 * (catalog.h).  A load copies it and plans from the catalog, so SQLite
 * never parses the schema of a new database.
 */
#ifndef SSP_IMAGE_H
#define SSP_IMAGE_H

#include <stddef.h>

#include "base/err.h"
#include "sqlite/catalog.h"

/*
 * The image (*n bytes at *img) and its catalog (*cat, the caller frees
 * it), checked against each other and against the schema compiled in:
 * the image's page count and size, its user_version that of
 * formats/simspan.sql, its schema cookie, user_version and application
 * id those of the catalog.  SSP_ERR_INVAL: a stale image (a broken
 * build).
 */
SSP_MUST_USE enum ssp_status ssp_image_get(const unsigned char **img,
    size_t *n, struct ssp_catalog **cat, struct ssp_err *e);
/* The same checks of an image of n bytes at img and a catalog's text (tn
 * bytes): *cat, or SSP_ERR_INVAL (SSP_ERR_FORMAT: text is no catalog). */
SSP_MUST_USE enum ssp_status ssp_image_check(const unsigned char *img,
    size_t n, const char *text, size_t tn, struct ssp_catalog **cat,
    struct ssp_err *e);

#endif
