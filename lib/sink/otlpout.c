/*
 * OTLP requests to a file or an OTLP/HTTP sender: see otlpout.h.
 */
#include <stdint.h>
#include <string.h>

#include "base/varint.h"
#include "sink/otlpout.h"

static int
write_failed(struct ssp_otlpout *k)
{
	if (k->werr.code == SSP_OK)
		k->werr.code = SSP_ERR_IO;
	return 1;
}

/* One encoded request: sent, or written as a line (JSON) or with its
 * length before it (protobuf).  A write error is kept in k->werr. */
static int
emit(void *ctx, struct ssp_buf *b, size_t nspans)
{
	struct ssp_otlpout *k = ctx;

	if (k->http != NULL)
		return ssp_http_submit(k->http, b, nspans);
	if (k->proto == SSP_OTLP_JSON)
		ssp_buf_putc(b, '\n');
	else {
		/* Length-delimited requests, like protobuf's writeDelimitedTo. */
		uint8_t pre[SSP_VARINT_MAX];

		if (ssp_out_write(k->out, pre, ssp_varint_put(pre, b->len),
		    &k->werr) != SSP_OK)
			return write_failed(k);
	}
	if (b->failed) {
		ssp_err_set(&k->werr, SSP_ERR_NOMEM, 0, "out of memory");
		return 1;
	}
	if (ssp_out_write(k->out, b->p, b->len, &k->werr) != SSP_OK)
		return write_failed(k);
	return 0;
}

int
ssp_otlpout_flush(struct ssp_otlpout *k, struct ssp_err *e)
{
	size_t n;
	int rc;

	if (ssp_otlp_nspans(k->o) == 0)
		return SSP_OK;
	if (k->http != NULL && ssp_http_gave_up(k->http)) {
		ssp_otlp_discard(k->o, &n);
		ssp_http_not_sent(k->http, 1, n);
		k->batches_discarded++;
		return SSP_OK;
	}
	memset(&k->werr, 0, sizeof(k->werr));
	rc = ssp_otlp_encode_each(k->o, &k->buf, emit, k, e);
	if (rc != SSP_OK && k->werr.code != SSP_OK) {
		if (e != NULL)
			*e = k->werr;
		rc = k->werr.code;
	}
	return rc;
}

int
ssp_otlpout_add(struct ssp_otlpout *k, const struct ssp_rec *r,
    struct ssp_err *e)
{
	int rc;

	if (ssp_otlp_full(k->o, r) &&
	    (rc = ssp_otlpout_flush(k, e)) != SSP_OK)
		return rc;
	return ssp_otlp_add(k->o, r, e);
}

void
ssp_otlpout_free(struct ssp_otlpout *k)
{
	ssp_buf_free(&k->buf);
}
