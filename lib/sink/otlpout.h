/*
 * Where OTLP requests go: span batches collected by an ssp_otlp encoder
 * are encoded and either written to a file (JSON: one request a line;
 * protobuf: each request after its varint length, like protobuf's
 * writeDelimitedTo) or submitted to an ssp_http sender.  Once the sender
 * gave up, later batches are counted as not sent instead of encoded.
 */
#ifndef SSP_OTLPOUT_H
#define SSP_OTLPOUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "io/in.h"
#include "io/out.h"
#include "sink/http.h"
#include "sink/otlp.h"
#include "stream/rec.h"

/* The caller opens o and exactly one of out and http, and closes them. */
struct ssp_otlpout {
	struct ssp_otlp *o;
	struct ssp_out *out;	/* file output, or */
	struct ssp_http *http;	/* sending */
	int proto;		/* SSP_OTLP_JSON or SSP_OTLP_PROTOBUF */
	struct ssp_buf buf;
	uint64_t batches_discarded;
	/* after ssp_otlpout_finish: */
	char *url;		/* sending: where to (ssp_http_url) */
	struct ssp_http_stats hs;	/* sending: the sender's counts */
	uint64_t bytes;		/* file: bytes written before compression */
};

/* The --protocol names: "http/json" or "json", "http/protobuf" or
 * "protobuf"; NULL picks protobuf when sending, else JSON.  0, or -1 for
 * another name. */
int ssp_otlpout_proto(const char *name, int sending,
    enum ssp_otlp_proto *p);

/* Encode and write or send the current batch (nothing when it is empty):
 * one request, or more when it is larger than the encoder's max_bytes. */
SSP_MUST_USE enum ssp_status ssp_otlpout_flush(struct ssp_otlpout *k,
    struct ssp_err *e);
/* Add a record, flushing the batch first when r would not fit. */
SSP_MUST_USE enum ssp_status ssp_otlpout_add(struct ssp_otlpout *k,
    const struct ssp_rec *r, struct ssp_err *e);
typedef void (*ssp_otlpout_progress_fn)(void *ctx, uint64_t bytes,
    uint64_t records, uint64_t spans);
/* Read the span stream rr (on in) to its end, each record straight into
 * the batch, flushing full batches; progress (may be NULL) gets pctx every
 * 64k records.  SSP_OK at the end, and at damage too, with *damaged set and
 * e saying where (what came before it is kept to finish); else the failure
 * of adding a record or of the batch's memory. */
SSP_MUST_USE enum ssp_status ssp_otlpout_pump(struct ssp_otlpout *k,
    struct ssp_rec_rd *rr, const struct ssp_in *in,
    ssp_otlpout_progress_fn progress, void *pctx, int *damaged,
    struct ssp_err *e);
/* Flush the last batch, finish o and close out (keeping bytes) or http
 * (keeping url and hs; http is NULL after, so tell the two apart before). */
SSP_MUST_USE enum ssp_status ssp_otlpout_finish(struct ssp_otlpout *k,
    struct ssp_err *e);
/* Free the request buffer and url (not o or rr). */
void ssp_otlpout_free(struct ssp_otlpout *k);

#endif
