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
};

/* Encode and write or send the current batch (nothing when it is empty):
 * one request, or more when it is larger than the encoder's max_bytes. */
SSP_MUST_USE enum ssp_status ssp_otlpout_flush(struct ssp_otlpout *k,
    struct ssp_err *e);
/* Add a record, flushing the batch first when r would not fit. */
SSP_MUST_USE enum ssp_status ssp_otlpout_add(struct ssp_otlpout *k,
    const struct ssp_rec *r, struct ssp_err *e);
/* Free the request buffer (not o, out or http). */
void ssp_otlpout_free(struct ssp_otlpout *k);

#endif
