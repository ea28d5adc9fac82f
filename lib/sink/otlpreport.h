/*
 * What span2otlp tells at the end of an export, as lines (no program name,
 * no newline) handed to a callback, since the library never prints: the
 * counts of --stats and the warnings about spans, events and links that
 * did not make it.
 */
#ifndef SSP_OTLPREPORT_H
#define SSP_OTLPREPORT_H

#include "sink/http.h"
#include "sink/otlp.h"
#include "sink/otlpout.h"

typedef void ssp_otlpreport_fn(void *arg, const char *line);

/* The counts after ssp_otlpout_finish: read, encoded, not sent and dropped
 * records, then the requests written to dest (a file) or sent; verbose
 * adds the sender's retry settings ho. */
void ssp_otlpreport_stats(const struct ssp_otlpout *k, const char *dest,
    const struct ssp_http_opts *ho, int verbose, ssp_otlpreport_fn *line,
    void *arg);
/* One line for each kind of loss (spans not delivered or rejected, spans
 * dropped, links and events not attached); the number of lines, so 0 when
 * everything was exported. */
int ssp_otlpreport_problems(const struct ssp_otlpout *k,
    ssp_otlpreport_fn *line, void *arg);

#endif
