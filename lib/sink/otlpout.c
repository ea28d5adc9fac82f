/*
 * OTLP requests to a file or an OTLP/HTTP sender: see otlpout.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/varint.h"
#include "sink/otlpout.h"

/* One encoded request: sent, or written as a line (JSON) or with its
 * length before it (protobuf). */
static enum ssp_status
emit(void *ctx, struct ssp_buf *b, size_t nspans, struct ssp_err *e)
{
	struct ssp_otlpout *k = ctx;
	enum ssp_status rc;

	if (k->http != NULL)
		return ssp_http_submit(k->http, b, nspans);
	if (k->proto == SSP_OTLP_JSON)
		ssp_buf_putc(b, '\n');
	else {
		/* Length-delimited requests, like protobuf's writeDelimitedTo. */
		uint8_t pre[SSP_VARINT_MAX];

		if ((rc = ssp_out_write(k->out, pre, ssp_varint_put(pre, b->len),
		    e)) != SSP_OK)
			return rc;
	}
	if (b->failed)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	return ssp_out_write(k->out, b->p, b->len, e);
}

enum ssp_status
ssp_otlpout_flush(struct ssp_otlpout *k, struct ssp_err *e)
{
	size_t n;

	if (ssp_otlp_nspans(k->o) == 0)
		return SSP_OK;
	if (k->http != NULL && ssp_http_gave_up(k->http)) {
		ssp_otlp_discard(k->o, &n);
		ssp_http_not_sent(k->http, 1, n);
		k->batches_discarded++;
		return SSP_OK;
	}
	return ssp_otlp_encode_each(k->o, &k->buf, emit, k, e);
}

enum ssp_status
ssp_otlpout_add(struct ssp_otlpout *k, const struct ssp_rec *r,
    struct ssp_err *e)
{
	enum ssp_status rc;

	if (ssp_otlp_full(k->o, r) &&
	    (rc = ssp_otlpout_flush(k, e)) != SSP_OK)
		return rc;
	return ssp_otlp_add(k->o, r, e);
}

enum ssp_status
ssp_otlpout_pump(struct ssp_otlpout *k, struct ssp_rec_rd *rr,
    const struct ssp_in *in, ssp_otlpout_progress_fn progress, void *pctx,
    int *damaged, struct ssp_err *e)
{
	struct ssp_rec *rp;
	enum ssp_status rc;
	uint64_t n = 0;
	int got;

	*damaged = 0;
	while ((rp = ssp_otlp_slot(k->o)) != NULL &&
	    (got = ssp_rec_rd_next(rr, rp, e)) == 1) {
		if ((rc = ssp_otlpout_add(k, rp, e)) != SSP_OK)
			return rc;
		if (progress != NULL && (++n & 0xffff) == 0)
			progress(pctx, ssp_in_rawpos(in), ssp_rec_rd_records(rr),
			    ssp_otlp_stats(k->o)->spans);
	}
	if (rp == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	*damaged = got < 0;
	return SSP_OK;
}

int
ssp_otlpout_proto(const char *name, int sending, enum ssp_otlp_proto *p)
{
	if (name == NULL)
		*p = sending ? SSP_OTLP_PROTOBUF : SSP_OTLP_JSON;
	else if (strcmp(name, "http/json") == 0 || strcmp(name, "json") == 0)
		*p = SSP_OTLP_JSON;
	else if (strcmp(name, "http/protobuf") == 0 ||
	    strcmp(name, "protobuf") == 0)
		*p = SSP_OTLP_PROTOBUF;
	else
		return -1;
	return 0;
}

enum ssp_status
ssp_otlpout_finish(struct ssp_otlpout *k, struct ssp_err *e)
{
	enum ssp_status rc;

	if ((rc = ssp_otlpout_flush(k, e)) != SSP_OK)
		return rc;
	ssp_otlp_finish(k->o);
	if (k->http == NULL) {
		k->bytes = ssp_out_pos(k->out);
		rc = ssp_out_close(k->out, e);
		k->out = NULL;
		return rc;
	}
	/* the URL dies with the sender, the report names it after */
	if ((k->url = strdup(ssp_http_url(k->http))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "%s", strerror(ENOMEM));
	ssp_http_close(k->http, &k->hs);
	k->http = NULL;
	return SSP_OK;
}

void
ssp_otlpout_free(struct ssp_otlpout *k)
{
	ssp_buf_free(&k->buf);
	free(k->url);
	k->url = NULL;
}
