/*
 * OTLP/HTTP sender: POSTs encoded requests with libcurl from a sender
 * thread, so the next batch is encoded while the previous one is in
 * flight (two buffers, swapped at each submit).  One curl handle for the
 * whole run keeps the connection alive.  Retry policy (OTLP/HTTP spec):
 * 429, 502, 503, 504 and connection-level failures are retried with capped
 * exponential backoff and jitter, or after the server's Retry-After (in
 * full), as long as the retry starts within max_elapsed_ms of the first
 * attempt; other 4xx and 5xx fail that batch; a batch that exhausts its
 * retries (or that time) makes the sender give up, and later batches are
 * counted as not delivered.
 */
#ifndef SSP_HTTP_H
#define SSP_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

struct ssp_http_opts {
	const char *url;	/* as given; see ssp_http_url */
	int json;		/* body is OTLP/JSON, else protobuf */
	int gzip;		/* Content-Encoding: gzip */
	uint64_t timeout_ms;	/* per attempt, connection included */
	unsigned retries;	/* attempts after the first */
	uint64_t backoff_ms;	/* first retry delay (before jitter) */
	uint64_t backoff_max_ms;	/* cap of backoff delays (not Retry-After) */
	uint64_t max_elapsed_ms;	/* a request's retries start within this
					 * time of its first attempt; 0: any */
	const char *user_agent;
	const char *const *headers;	/* extra "Name: value" lines */
	size_t nheaders;
	/* Messages (failed batches, rejected spans, the first retry, with
	 * verbose every retry, with quiet no retry), called from the sender
	 * thread; may be NULL. */
	void (*report)(void *arg, const char *msg);
	void *report_arg;
	int verbose;
	int quiet;
};

struct ssp_http_stats {
	uint64_t batches_sent, spans_sent, bytes_sent;	/* accepted (2xx) */
	uint64_t batches_failed, spans_failed;	/* not delivered */
	uint64_t spans_rejected;	/* accepted requests, partial_success */
	uint64_t retries;
	int gave_up;
	char last_error[320];
};

struct ssp_http;

/* Validates the URL (SSP_ERR_INVAL: bad usage) and starts the sender. */
SSP_MUST_USE enum ssp_status ssp_http_open(struct ssp_http **hp,
    const struct ssp_http_opts *o, struct ssp_err *e);
/* The URL requests go to. */
const char *ssp_http_url(const struct ssp_http *h);
/* Hand over a request body holding nspans spans: waits while the previous
 * one is in flight, then swaps *body with an empty buffer to refill. */
SSP_MUST_USE enum ssp_status ssp_http_submit(struct ssp_http *h,
    struct ssp_buf *body, uint64_t nspans);
/* Has the sender given up (retries exhausted, or a fatal error)? */
int ssp_http_gave_up(struct ssp_http *h);
/* Count spans that were never handed over as not delivered. */
void ssp_http_not_sent(struct ssp_http *h, uint64_t batches, uint64_t spans);
/* Wait for the last request, stop the sender, fill *st (may be NULL). */
void ssp_http_close(struct ssp_http *h, struct ssp_http_stats *st);
/* libcurl is loaded at the first sender (or URL) and not before: its
 * version, loading it; NULL when it cannot be loaded. */
const char *ssp_http_curl_version(void);

/* --- the policy as pure functions (unit tested) ------------------------- */

enum ssp_http_verdict {
	SSP_HTTP_OK,		/* delivered */
	SSP_HTTP_RETRY,		/* try again after a delay */
	SSP_HTTP_FAIL,		/* this batch is not delivered */
	SSP_HTTP_FATAL,		/* no batch can be delivered (bad setup) */
};
/* status: HTTP status (0 if none); curlcode: CURLcode of the transfer. */
enum ssp_http_verdict ssp_http_classify(long status, int curlcode);
/* Retry-After: delta-seconds or an HTTP-date, relative to now (seconds
 * since the epoch).  0 and *ms, or -1 if unparseable.  Past dates: 0 ms. */
SSP_MUST_USE int ssp_http_retry_after(const char *value, int64_t now,
    uint64_t *ms);
/* Delay before retry number attempt (0-based): base * 2^attempt capped at
 * max, then a uniformly random point of its upper half (rnd: any 32-bit
 * random number), so clients that failed together do not retry together. */
uint64_t ssp_http_backoff_ms(unsigned attempt, uint64_t base, uint64_t max,
    uint32_t rnd);
/* The wait before a retry: Retry-After (when given, ra_ms >= 0) as the
 * server asks, else the backoff (capped at max). */
uint64_t ssp_http_delay_ms(int64_t ra_ms, unsigned attempt, uint64_t base,
    uint64_t max, uint32_t rnd);
/* What a response body holds (from its Content-Type). */
enum { SSP_HTTP_BODY_PB, SSP_HTTP_BODY_JSON, SSP_HTTP_BODY_TEXT };
/* gzip (RFC 1952) of p[0..n) appended to out: 0 or -1. */
SSP_MUST_USE int ssp_http_gzip(struct ssp_buf *out, const void *p, size_t n);
/* ExportTraceServiceResponse.partial_success of a response body (kind:
 * SSP_HTTP_BODY_*): 1 when
 * present (rejected spans and message filled), 0 if absent, -1 malformed. */
SSP_MUST_USE int ssp_http_partial(const void *body, size_t n, int kind,
    int64_t *rejected, char *msg, size_t msgsz);
/* A readable one-line message from an error response body (google.rpc.Status
 * in protobuf or JSON, or text); "" when there is none. */
void ssp_http_error_text(const void *body, size_t n, int kind, char *msg,
    size_t msgsz);
/* Check an endpoint URL: http or https, with a host; a URL with no path
 * gets /v1/traces.  Returns a malloc'ed URL, or NULL with e set. */
char *ssp_http_endpoint(const char *url, struct ssp_err *e);

#endif
