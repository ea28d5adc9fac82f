#include <stdint.h>
#include <string.h>

#include "sqlite/image.h"
#include "sqlite/schema.h"
#include "sqlite/sqlite_image.h"

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

enum ssp_status
ssp_image_check(const unsigned char *h, size_t n, const char *text,
    size_t tn, struct ssp_catalog **cat, struct ssp_err *e)
{
	struct ssp_catalog *c;
	enum ssp_status r;
	uint32_t psz;

	SSP_ASSERT(h != NULL && text != NULL && cat != NULL);
	*cat = NULL;
	if ((r = ssp_catalog_parse(text, tn, &c, e)) != SSP_OK)
		return r;
	/* the header (fileformat2.html 1.3): page size, page count, schema
	 * cookie, user_version, application id */
	psz = n >= 100 ? (uint32_t)h[16] << 8 | h[17] : 0;
	if (psz == 1)
		psz = 65536;
	if (psz < 512 || memcmp(h, "SQLite format 3", 16) != 0 ||
	    (uint64_t)be32(h + 28) * psz != n ||
	    be32(h + 40) != c->schema_version ||
	    be32(h + 60) != c->user_version ||
	    c->user_version != ssp_schema_version() ||
	    be32(h + 68) != (uint32_t)c->application_id) {
		ssp_catalog_free(c);
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "the schema image built "
		    "in is not that of the schema (version %d) or of its "
		    "catalog; rebuild", ssp_schema_version());
	}
	*cat = c;
	return SSP_OK;
}

enum ssp_status
ssp_image_get(const unsigned char **img, size_t *n, struct ssp_catalog **cat,
    struct ssp_err *e)
{
	SSP_ASSERT(img != NULL && n != NULL && cat != NULL);
	*img = (const unsigned char *)ssp_sqlite_image;
	*n = ssp_sqlite_image_len;
	return ssp_image_check(*img, *n, ssp_sqlite_image_catalog,
	    ssp_sqlite_image_catalog_len, cat, e);
}
