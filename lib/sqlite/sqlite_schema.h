/*
 * formats/simspan.sql, compiled in (base/embed.h): the one definition of
 * the schema (schema.h reads it).
 */
#ifndef SSP_SQLITE_SCHEMA_H
#define SSP_SQLITE_SCHEMA_H

#include "base/embed.h"

SSP_EMBED(ssp_sqlite_schema, "formats/simspan.sql");

#endif
