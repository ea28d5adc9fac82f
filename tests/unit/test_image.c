/*
 * The schema image (lib/sqlite/image): compiled in, it is exactly the
 * database SQLite makes now from the schema compiled in, with its
 * catalog (not stale); an image or catalog that do not go together are
 * refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sqlite/image.h"
#include "sqlite/sqlite_image.h"
#include "sqlite_helpers.h"

static unsigned char *
read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	assert_true((len = ftell(f)) > 0);
	rewind(f);
	assert_non_null(p = malloc((size_t)len));
	assert_int_equal(fread(p, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return p;
}

/* The image is what ssp_schema_image makes now, byte for byte, and its
 * catalog what SQLite says of it. */
static void
test_image_is_current(void **state)
{
	const char *path = tmpname("image.db");
	struct ssp_buf text = SSP_BUF_INIT;
	const unsigned char *img;
	unsigned char *now;
	struct ssp_catalog *c, *d;
	struct ssp_err e = { 0 };
	sqlite3 *db;
	size_t n, m;

	(void)state;
	assert_int_equal(ssp_image_get(&img, &n, &c, &e), SSP_OK);
	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(ssp_schema_image(db, NULL, &e), SSP_OK);
	assert_int_equal(ssp_catalog_read(db, "image.db", &d, &e), SSP_OK);
	assert_string_equal(qs(db, "PRAGMA integrity_check"), "ok\n");
	sqlite3_close(db);
	now = read_all(path, &m);
	assert_int_equal(m, n);
	assert_memory_equal(now, img, n);
	ssp_catalog_text(d, &text);
	assert_int_equal(text.len, ssp_sqlite_image_catalog_len);
	assert_memory_equal(text.p, ssp_sqlite_image_catalog, text.len);
	assert_int_equal(c->ntables, d->ntables);
	assert_non_null(ssp_catalog_table(c, "sqlite_stat1"));
	assert_int_equal(c->user_version, ssp_schema_version());
	ssp_catalog_free(c);
	ssp_catalog_free(d);
	ssp_buf_free(&text);
	free(now);
	unlink(path);
}

/* A stale image: a header field that is not the catalog's, a page
 * missing, a catalog of another version. */
static void
test_image_stale(void **state)
{
	static const size_t field[] = { 28, 43, 63, 71 };	/* page count,
				 * schema cookie, user_version, app id */
	unsigned char *img;
	struct ssp_catalog *c;
	struct ssp_err e = { 0 };
	char *text, *p;
	size_t i;

	(void)state;
	assert_non_null(img = malloc(ssp_sqlite_image_len));
	memcpy(img, ssp_sqlite_image, ssp_sqlite_image_len);
	assert_int_equal(ssp_image_check(img, ssp_sqlite_image_len,
	    ssp_sqlite_image_catalog, ssp_sqlite_image_catalog_len, &c, &e),
	    SSP_OK);
	ssp_catalog_free(c);
	for (i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		img[field[i]] ^= 1;
		assert_int_equal(ssp_image_check(img, ssp_sqlite_image_len,
		    ssp_sqlite_image_catalog, ssp_sqlite_image_catalog_len, &c,
		    &e), SSP_ERR_INVAL);
		assert_null(c);
		assert_non_null(strstr(e.msg, "rebuild"));
		img[field[i]] ^= 1;
	}
	assert_int_equal(ssp_image_check(img, ssp_sqlite_image_len - 4096,
	    ssp_sqlite_image_catalog, ssp_sqlite_image_catalog_len, &c, &e),
	    SSP_ERR_INVAL);
	/* the catalog of another version */
	assert_non_null(text = strdup(ssp_sqlite_image_catalog));
	assert_non_null(p = strchr(text, '\t'));
	p[1] = p[1] == '1' ? '9' : '1';
	assert_int_equal(ssp_image_check(img, ssp_sqlite_image_len, text,
	    strlen(text), &c, &e), SSP_ERR_INVAL);
	assert_int_equal(ssp_image_check(img, ssp_sqlite_image_len, "junk", 4,
	    &c, &e), SSP_ERR_FORMAT);
	free(text);
	free(img);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_is_current),
		cmocka_unit_test(test_image_stale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
