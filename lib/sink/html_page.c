/*
 * The HTML page (formats/html.md): the viewer's template with the data,
 * gzip'd and base64'd, and its CSP hashes filled in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "sink/html_int.h"
#include "sink/html_viewer.h"

static int
gzip_b64(const struct ssp_buf *in, struct ssp_buf *out, uint64_t *gzlen,
    struct ssp_err *e)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+/";
	z_stream z;
	struct ssp_buf gz = SSP_BUF_INIT;
	size_t i, bound;
	int zr;

	memset(&z, 0, sizeof(z));
	/* level 6 as gzip(1); past 32 MiB of JSON level 3, three times as
	 * fast for a fifth more bytes */
	if (deflateInit2(&z, in->len > (32u << 20) ? 3 : 6, Z_DEFLATED, 31, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "zlib: deflateInit2 failed");
	bound = deflateBound(&z, (uLong)in->len) + 64;
	if (ssp_buf_reserve(&gz, bound) != 0) {
		deflateEnd(&z);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	z.next_in = in->p;
	z.avail_in = (uInt)in->len;
	z.next_out = gz.p;
	z.avail_out = (uInt)bound;
	zr = deflate(&z, Z_FINISH);
	gz.len = z.total_out;
	deflateEnd(&z);
	if (zr != Z_STREAM_END) {
		ssp_buf_free(&gz);
		return ssp_err_set(e, SSP_ERR_LIMIT, 0, "zlib: deflate failed "
		    "(%d): data too large", zr);
	}
	*gzlen = gz.len;
	if (ssp_buf_reserve(out, (gz.len + 2) / 3 * 4 + 1) != 0) {
		ssp_buf_free(&gz);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	for (i = 0; i + 2 < gz.len; i += 3) {
		uint32_t v = (uint32_t)gz.p[i] << 16 | (uint32_t)gz.p[i + 1] << 8 |
		    gz.p[i + 2];
		uint8_t *o = out->p + out->len;

		o[0] = (uint8_t)tab[v >> 18];
		o[1] = (uint8_t)tab[(v >> 12) & 63];
		o[2] = (uint8_t)tab[(v >> 6) & 63];
		o[3] = (uint8_t)tab[v & 63];
		out->len += 4;
	}
	if (i < gz.len) {
		uint32_t v = (uint32_t)gz.p[i] << 16 |
		    (i + 1 < gz.len ? (uint32_t)gz.p[i + 1] << 8 : 0);
		uint8_t *o = out->p + out->len;

		o[0] = (uint8_t)tab[v >> 18];
		o[1] = (uint8_t)tab[(v >> 12) & 63];
		o[2] = i + 1 < gz.len ? (uint8_t)tab[(v >> 6) & 63] : '=';
		o[3] = '=';
		out->len += 4;
	}
	ssp_buf_free(&gz);
	return SSP_OK;
}

/* Copy tmpl to b with each marker replaced. */
static void
subst(struct ssp_buf *b, const char *tmpl, const char *const *mark,
    const struct ssp_buf *const *val, size_t nmark)
{
	const char *p = tmpl, *q, *best;
	size_t k, which = 0;

	for (;;) {
		best = NULL;
		for (k = 0; k < nmark; k++)
			if ((q = strstr(p, mark[k])) != NULL &&
			    (best == NULL || q < best)) {
				best = q;
				which = k;
			}
		if (best == NULL)
			break;
		ssp_buf_put(b, p, (size_t)(best - p));
		ssp_buf_put(b, val[which]->p, val[which]->len);
		p = best + strlen(mark[which]);
	}
	ssp_buf_put(b, p, strlen(p));
}


int
ssp_html_page(struct ssp_html *h, struct ssp_buf *out, struct ssp_err *e)
{
	static const char *const mark[] = { "/*@CSS@*/", "/*@JS@*/", "@DATA@",
	    "@TITLE@", "@SCRIPT_HASH@", "@STYLE_HASH@" };
	struct ssp_buf json = SSP_BUF_INIT, b64 = SSP_BUF_INIT;
	struct ssp_buf css = SSP_BUF_INIT, js = SSP_BUF_INIT, title = SSP_BUF_INIT;
	struct ssp_buf jsh = SSP_BUF_INIT, cssh = SSP_BUF_INIT;
	const struct ssp_buf *val[] = { &css, &js, &b64, &title, &jsh, &cssh };
	size_t before = out->len;
	const char *s;
	int rc;

	if ((rc = ssp_html_json(h, &json, e)) != SSP_OK)
		goto done;
	h->st.json_bytes = json.len;
	if ((rc = gzip_b64(&json, &b64, &h->st.gz_bytes, e)) != SSP_OK)
		goto done;
	ssp_buf_put(&css, ssp_html_viewer_css, ssp_html_viewer_css_len);
	ssp_buf_put(&js, ssp_html_viewer_js, ssp_html_viewer_js_len);
	/* the policy allows the inline script and style by their hashes
	 * (made by the build), so an injected one would not run (viewer.html) */
	ssp_buf_put(&jsh, ssp_html_viewer_js_csp, ssp_html_viewer_js_csp_len);
	ssp_buf_put(&cssh, ssp_html_viewer_css_csp, ssp_html_viewer_css_csp_len);
	/* the title is HTML text: escape what HTML would read */
	for (s = h->o.source; *s != '\0'; s++) {
		if (*s == '<')
			ssp_buf_lit(&title, "&lt;");
		else if (*s == '&')
			ssp_buf_lit(&title, "&amp;");
		else if (*s == '>')
			ssp_buf_lit(&title, "&gt;");
		else
			ssp_buf_putc(&title, *s);
	}
	subst(out, ssp_html_viewer_html, mark, val, 6);
	h->st.page_bytes = out->len - before;
	rc = out->failed || css.failed || js.failed || title.failed ||
	    jsh.failed || cssh.failed ?
	    ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory") : SSP_OK;
done:
	ssp_buf_free(&json);
	ssp_buf_free(&b64);
	ssp_buf_free(&css);
	ssp_buf_free(&js);
	ssp_buf_free(&title);
	ssp_buf_free(&jsh);
	ssp_buf_free(&cssh);
	return rc;
}
