/*
 * The schema image, compiled in (base/embed.h): a new simspan database
 * with formats/simspan.sql and sqlite_stat1, as SQLite wrote it when the
 * library was built (tools/gen/sqlite-image.c), and its catalog as text
 * (catalog.h).  image.h reads them.
 */
#ifndef SSP_SQLITE_IMAGE_H
#define SSP_SQLITE_IMAGE_H

#include "base/embed.h"

SSP_EMBED(ssp_sqlite_image, "$(BUILD)/gen/sqlite/schema.db");
SSP_EMBED(ssp_sqlite_image_catalog, "$(BUILD)/gen/sqlite/schema.cat");

#endif
