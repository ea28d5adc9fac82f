#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/strfmt.h"
#include "sink/http.h"
#include "sink/pb.h"

#define RESP_MAX (1u << 20)	/* response bytes kept */
#ifndef SSP_HTTP_LIBCURL
#define SSP_HTTP_LIBCURL "libcurl.so.4"	/* its soname since 2006 */
#endif

#define BODY_PB SSP_HTTP_BODY_PB
#define BODY_JSON SSP_HTTP_BODY_JSON
#define BODY_TEXT SSP_HTTP_BODY_TEXT

struct ssp_http {
	struct ssp_http_opts o;
	char *url;
	CURL *c;
	struct curl_slist *hdrs;
	char errbuf[CURL_ERROR_SIZE];
	struct ssp_buf resp, gz;
	uint32_t rnd;
	/* hand-over between the reader and the sender thread */
	pthread_t thr;
	int started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int busy, stop, gave_up;
	struct ssp_buf job;
	uint64_t job_spans, seq;
	struct ssp_http_stats st;	/* written by the sender under mu */
};

/*
 * libcurl is opened at its first use (dlopen), not linked: mapping and
 * relocating it and the thirty shared objects it needs (TLS, HTTP/2, SSH,
 * LDAP, Kerberos) took about 10 ms of CPU time at every start of
 * span2otlp, most of whose runs write files.  These are the functions
 * this file calls, by their libcurl names without "curl_".
 */
static struct {
	CURLcode (*global_init)(long);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	CURLHcode (*easy_header)(CURL *, const char *, size_t, unsigned int,
	    int, struct curl_header **);
	void (*free)(void *);
	time_t (*getdate)(const char *, const time_t *);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
	CURLU *(*url)(void);
	void (*url_cleanup)(CURLU *);
	CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
	CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
	const char *(*url_strerror)(CURLUcode);
	curl_version_info_data *(*version_info)(CURLversion);
} C;

#define SYM(f) { "curl_" #f, offsetof(__typeof__(C), f) }
static const struct { const char *name; size_t off; } syms[] = {
	SYM(global_init), SYM(global_cleanup), SYM(easy_init),
	SYM(easy_setopt), SYM(easy_perform), SYM(easy_getinfo),
	SYM(easy_cleanup), SYM(easy_strerror), SYM(easy_header), SYM(free),
	SYM(getdate), SYM(slist_append), SYM(slist_free_all), SYM(url),
	SYM(url_cleanup), SYM(url_get), SYM(url_set), SYM(url_strerror),
	SYM(version_info),
};
#undef SYM

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static char curl_err[160];	/* why libcurl could not be loaded, or "" */

static void
curl_open(void)
{
	void *lib = dlopen(SSP_HTTP_LIBCURL, RTLD_NOW | RTLD_LOCAL), *f;
	size_t i;

	if (lib == NULL) {
		snprintf(curl_err, sizeof(curl_err), "%s", dlerror());
		return;
	}
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if ((f = dlsym(lib, syms[i].name)) == NULL) {
			snprintf(curl_err, sizeof(curl_err), "%s: no %s (libcurl "
			    "7.84 or later is needed)", SSP_HTTP_LIBCURL,
			    syms[i].name);
			return;
		}
		/* POSIX: a function's address fits a void * */
		memcpy((char *)&C + syms[i].off, &f, sizeof(f));
	}
}

/* SSP_OK when libcurl is loaded, else SSP_ERR_IO (e set). */
static enum ssp_status
curl_load(struct ssp_err *e)
{
	pthread_once(&curl_once, curl_open);
	if (curl_err[0] == '\0')
		return SSP_OK;
	return ssp_err_set(e, SSP_ERR_IO, 0, "cannot load libcurl: %s",
	    curl_err);
}

const char *
ssp_http_curl_version(void)
{
	return curl_load(NULL) == SSP_OK ? C.version_info(CURLVERSION_NOW)->version :
	    NULL;
}

/* --- pure functions ---------------------------------------------------------- */

enum ssp_http_verdict
ssp_http_classify(long status, int curlcode)
{
	switch (curlcode) {
	case CURLE_OK:
		break;
	/* The connection failed or broke: the collector may come back. */
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_SSL_CONNECT_ERROR:
		return SSP_HTTP_RETRY;
	default:		/* bad URL, TLS setup, out of memory, ... */
		return SSP_HTTP_FATAL;
	}
	if (status >= 200 && status <= 299)
		return SSP_HTTP_OK;
	if (status == 429 || status == 502 || status == 503 || status == 504)
		return SSP_HTTP_RETRY;
	return SSP_HTTP_FAIL;
}

int
ssp_http_retry_after(const char *v, int64_t now, uint64_t *ms)
{
	const char *p;
	uint64_t s = 0;
	time_t t;

	while (*v == ' ' || *v == '\t')
		v++;
	if (*v >= '0' && *v <= '9') {
		for (p = v; *p >= '0' && *p <= '9'; p++) {
			if (s < UINT64_MAX / 10000)
				s = s * 10 + (uint64_t)(*p - '0');
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '\0')
			return -1;
		*ms = s >= UINT64_MAX / 10000 ? UINT64_MAX / 10 : s * 1000;
		return 0;
	}
	/* IMF-fixdate, RFC 850 and asctime dates (RFC 9110 5.6.7) */
	if (curl_load(NULL) != SSP_OK || (t = C.getdate(v, NULL)) == -1)
		return -1;
	*ms = (int64_t)t <= now ? 0 : (uint64_t)((int64_t)t - now) * 1000;
	return 0;
}

uint64_t
ssp_http_backoff_ms(unsigned attempt, uint64_t base, uint64_t max, uint32_t rnd)
{
	uint64_t d = base, half;

	while (attempt-- > 0 && d < max)
		d = d > max / 2 ? max : d * 2;
	if (d > max)
		d = max;
	half = d / 2;
	return d - half + (half == 0 ? 0 : (uint64_t)rnd % (half + 1));
}

uint64_t
ssp_http_delay_ms(int64_t ra_ms, unsigned attempt, uint64_t base, uint64_t max,
    uint32_t rnd)
{
	if (ra_ms >= 0)
		return (uint64_t)ra_ms;	/* as the server asks, not capped */
	return ssp_http_backoff_ms(attempt, base, max, rnd);
}

int
ssp_http_gzip(struct ssp_buf *out, const void *p, size_t n)
{
	z_stream z;
	size_t bound;
	int rc;

	if (n > UINT32_MAX / 2)
		return -1;
	memset(&z, 0, sizeof(z));
	/* Level 1: the body is repetitive JSON or protobuf; speed matters
	 * more than the last percent (windowBits 15 + 16 = gzip wrapper). */
	if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	bound = deflateBound(&z, (uLong)n);
	if (ssp_buf_reserve(out, bound) != 0) {
		deflateEnd(&z);
		return -1;
	}
	z.next_in = (Bytef *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = out->p + out->len;
	z.avail_out = (uInt)bound;
	rc = deflate(&z, Z_FINISH);
	out->len += bound - z.avail_out;
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

/* Printable ASCII only, one line, cut to sz. */
static void
clean_copy(char *out, size_t sz, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i, o = 0;

	if (sz == 0)
		return;
	for (i = 0; i < n && o + 1 < sz; i++) {
		unsigned char c = s[i];

		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (c < 0x20 || c >= 0x7f)
			c = '?';
		if (c == ' ' && o > 0 && out[o - 1] == ' ')
			continue;
		out[o++] = (char)c;
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

int
ssp_http_partial(const void *body, size_t n, int json, int64_t *rejected,
    char *msg, size_t msgsz)
{
	*rejected = 0;
	if (msgsz > 0)
		msg[0] = '\0';
	if (n == 0 || json == BODY_TEXT)
		return 0;
	if (json == BODY_JSON) {
		static const char *const ps[] = { "partialSuccess" };
		static const char *const rj[] = { "partialSuccess", "rejectedSpans" };
		static const char *const em[] = { "partialSuccess", "errorMessage" };
		const char *v;
		size_t vl;
		int r;

		if ((r = ssp_strfmt_json_find(body, n, ps, 1, &v, &vl)) <= 0)
			return r;
		if (ssp_strfmt_json_find(body, n, rj, 2, &v, &vl) == 1 &&
		    ssp_strfmt_json_int(v, vl, rejected) != 0)
			return -1;
		if (ssp_strfmt_json_find(body, n, em, 2, &v, &vl) == 1 &&
		    ssp_strfmt_json_unquote(v, vl, msg, msgsz) != 0)
			return -1;
		clean_copy(msg, msgsz, msg, strlen(msg));
		return 1;
	} else {
		/* ExportTraceServiceResponse { partial_success = 1 {
		 *   int64 rejected_spans = 1; string error_message = 2; } } */
		struct ssp_pb_rd r = { body, (const uint8_t *)body + n }, rr;
		struct ssp_pb_field f, g;
		int got = 0, k;

		while ((k = ssp_pb_next(&r, &f)) == 1) {
			if (f.num != 1 || f.wt != SSP_PB_LEN)
				continue;
			got = 1;
			rr.p = f.p;
			rr.end = f.p + f.n;
			while ((k = ssp_pb_next(&rr, &g)) == 1) {
				if (g.num == 1 && g.wt == SSP_PB_VARINT)
					*rejected = (int64_t)g.v;
				else if (g.num == 2 && g.wt == SSP_PB_LEN)
					clean_copy(msg, msgsz, g.p, g.n);
			}
			if (k < 0)
				return -1;
		}
		return k < 0 ? -1 : got;
	}
}

void
ssp_http_error_text(const void *body, size_t n, int json, char *msg,
    size_t msgsz)
{
	if (msgsz == 0)
		return;
	msg[0] = '\0';
	if (n == 0)
		return;
	if (json == BODY_JSON) {
		static const char *const m[] = { "message" };
		const char *v;
		size_t vl;

		if (ssp_strfmt_json_find(body, n, m, 1, &v, &vl) == 1 &&
		    ssp_strfmt_json_unquote(v, vl, msg, msgsz) == 0) {
			clean_copy(msg, msgsz, msg, strlen(msg));
			return;
		}
	} else if (json == BODY_PB) {
		/* google.rpc.Status { int32 code = 1; string message = 2; } */
		struct ssp_pb_rd r = { body, (const uint8_t *)body + n };
		struct ssp_pb_field f;
		int k;

		while ((k = ssp_pb_next(&r, &f)) == 1)
			if (f.num == 2 && f.wt == SSP_PB_LEN) {
				clean_copy(msg, msgsz, f.p, f.n);
				return;
			}
		return;
	}
	clean_copy(msg, msgsz, body, n);
}

/* ssp_http_endpoint, the URL in *out: SSP_ERR_INVAL for a bad one. */
static enum ssp_status
endpoint(const char *url, char **out, struct ssp_err *e)
{
	CURLU *u;
	CURLUcode uc;
	char *scheme = NULL, *host = NULL, *path = NULL, *full = NULL;
	enum ssp_status rc;

	*out = NULL;
	if ((rc = curl_load(e)) != SSP_OK)
		return rc;
	if ((u = C.url()) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	if ((uc = C.url_set(u, CURLUPART_URL, url, 0)) != CURLUE_OK) {
		rc = ssp_err_set(e, SSP_ERR_INVAL, 0, "bad endpoint URL '%.200s': "
		    "%s", url, C.url_strerror(uc));
		goto out;
	}
	if (C.url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)) {
		rc = ssp_err_set(e, SSP_ERR_INVAL, 0, "bad endpoint URL '%.200s': "
		    "not http or https", url);
		goto out;
	}
	if (C.url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    *host == '\0') {
		rc = ssp_err_set(e, SSP_ERR_INVAL, 0, "bad endpoint URL '%.200s': "
		    "no host", url);
		goto out;
	}
	if (C.url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK ||
	    strcmp(path, "/") == 0 || *path == '\0')
		(void)C.url_set(u, CURLUPART_PATH, "/v1/traces", 0);
	if (C.url_get(u, CURLUPART_URL, &full, 0) != CURLUE_OK) {
		rc = ssp_err_set(e, SSP_ERR_INVAL, 0, "bad endpoint URL '%.200s'",
		    url);
		goto out;
	}
	if ((*out = strdup(full)) == NULL)
		rc = ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
out:
	C.free(scheme);
	C.free(host);
	C.free(path);
	C.free(full);
	C.url_cleanup(u);
	return rc;
}

char *
ssp_http_endpoint(const char *url, struct ssp_err *e)
{
	char *out;

	return endpoint(url, &out, e) == SSP_OK ? out : NULL;
}

/* --- the sender thread ------------------------------------------------------- */

static void
report(struct ssp_http *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
report(struct ssp_http *h, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (h->o.report == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	h->o.report(h->o.report_arg, msg);
}

static size_t
on_body(char *p, size_t size, size_t nmemb, void *arg)
{
	struct ssp_buf *b = arg;
	size_t n = size * nmemb;

	if (b->len < RESP_MAX)
		ssp_buf_put(b, p, n < RESP_MAX - b->len ? n : RESP_MAX - b->len);
	return n;
}

static uint64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
sleep_ms(uint64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static uint32_t
rand32(struct ssp_http *h)
{
	uint32_t x = h->rnd;	/* xorshift32: jitter only */

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return h->rnd = x;
}

static const char *
header(CURL *c, const char *name)
{
	struct curl_header *hd;

	if (C.easy_header(c, name, 0, CURLH_HEADER, -1, &hd) != CURLHE_OK)
		return NULL;
	return hd->value;
}

/* One attempt.  Returns the verdict; *what describes a failure. */
static enum ssp_http_verdict
attempt(struct ssp_http *h, const void *body, size_t n, int64_t *ra_ms,
    int *rkind, char *what, size_t whatsz)
{
	const char *ra, *ct;
	long status = 0;
	CURLcode cc;
	enum ssp_http_verdict v;
	char text[200];
	uint64_t ms;

	ssp_buf_reset(&h->resp);
	h->errbuf[0] = '\0';
	C.easy_setopt(h->c, CURLOPT_POSTFIELDS, body);
	C.easy_setopt(h->c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
	cc = C.easy_perform(h->c);
	C.easy_getinfo(h->c, CURLINFO_RESPONSE_CODE, &status);
	v = ssp_http_classify(status, (int)cc);
	*ra_ms = -1;
	*rkind = h->o.json ? BODY_JSON : BODY_PB;
	if (cc != CURLE_OK) {
		snprintf(what, whatsz, "%s", h->errbuf[0] ? h->errbuf :
		    C.easy_strerror(cc));
		return v;
	}
	if ((ct = header(h->c, "Content-Type")) != NULL)
		*rkind = strstr(ct, "json") ? BODY_JSON : strstr(ct, "protobuf") ?
		    BODY_PB : BODY_TEXT;
	if (v == SSP_HTTP_RETRY && (ra = header(h->c, "Retry-After")) != NULL &&
	    ssp_http_retry_after(ra, (int64_t)time(NULL), &ms) == 0)
		*ra_ms = ms > INT64_MAX ? INT64_MAX : (int64_t)ms;
	if (v != SSP_HTTP_OK) {
		ssp_http_error_text(h->resp.p, h->resp.len, *rkind, text,
		    sizeof(text));
		snprintf(what, whatsz, "HTTP %ld%s%s", status, *text ? ": " : "",
		    text);
	}
	return v;
}

static void
send_batch(struct ssp_http *h, uint64_t seq, const struct ssp_buf *b,
    uint64_t nspans)
{
	const void *body = b->p;
	size_t n = b->len;
	unsigned try;
	enum ssp_http_verdict v;
	int64_t ra;
	int rkind;
	char what[300];
	uint64_t t0 = mono_ms();

	if (h->st.gave_up) {
		h->st.batches_failed++;
		h->st.spans_failed += nspans;
		return;
	}
	if (h->o.gzip) {
		ssp_buf_reset(&h->gz);
		if (ssp_http_gzip(&h->gz, b->p, b->len) != 0) {
			report(h, "batch %llu (%llu spans): out of memory "
			    "compressing %zu bytes", (unsigned long long)seq,
			    (unsigned long long)nspans, b->len);
			h->st.batches_failed++;
			h->st.spans_failed += nspans;
			return;
		}
		body = h->gz.p;
		n = h->gz.len;
	}
	for (try = 0;; try++) {
		v = attempt(h, body, n, &ra, &rkind, what, sizeof(what));
		if (v == SSP_HTTP_OK)
			break;
		snprintf(h->st.last_error, sizeof(h->st.last_error), "%s", what);
		if (v == SSP_HTTP_RETRY && try < h->o.retries) {
			uint64_t d = ssp_http_delay_ms(ra, try, h->o.backoff_ms,
			    h->o.backoff_max_ms, rand32(h)), now = mono_ms();

			/* No retry that would start after the deadline. */
			if (h->o.max_elapsed_ms > 0 &&
			    now - t0 + d > h->o.max_elapsed_ms) {
				size_t k = strlen(what);

				snprintf(what + k, sizeof(what) - k, "; a retry "
				    "in %llu ms%s would pass --max-elapsed (%llu "
				    "ms)", (unsigned long long)d, ra >= 0 ?
				    " (Retry-After)" : "",
				    (unsigned long long)h->o.max_elapsed_ms);
				snprintf(h->st.last_error,
				    sizeof(h->st.last_error), "%s", what);
				h->st.batches_failed++;
				h->st.spans_failed += nspans;
				report(h, "batch %llu (%llu spans) not delivered: "
				    "%s; giving up", (unsigned long long)seq,
				    (unsigned long long)nspans, what);
				h->st.gave_up = 1;
				return;
			}
			/* the first retry of a run is shown: a collector
			 * that is not there costs the whole backoff
			 * (about 21 s by default) before the failure */
			if (h->o.verbose || (!h->o.quiet && h->st.retries == 0))
				report(h, "batch %llu: %s; retry %u of %u in "
				    "%llu ms%s%s", (unsigned long long)seq, what,
				    try + 1, h->o.retries, (unsigned long long)d,
				    ra >= 0 ? " (Retry-After)" : "",
				    h->o.verbose ? "" : " (-v shows every retry)");
			h->st.retries++;
			sleep_ms(d);
			continue;
		}
		h->st.batches_failed++;
		h->st.spans_failed += nspans;
		if (v == SSP_HTTP_FAIL) {
			report(h, "batch %llu (%llu spans) not delivered: %s",
			    (unsigned long long)seq, (unsigned long long)nspans,
			    what);
			return;
		}
		report(h, "batch %llu (%llu spans) not delivered: %s%s; "
		    "giving up", (unsigned long long)seq,
		    (unsigned long long)nspans, what, v == SSP_HTTP_RETRY ?
		    (h->o.retries ? " (retries exhausted)" : "") : "");
		h->st.gave_up = 1;
		return;
	}
	h->st.batches_sent++;
	h->st.spans_sent += nspans;
	h->st.bytes_sent += n;
	{
		int64_t rej;
		char msg[200];
		int k = ssp_http_partial(h->resp.p, h->resp.len, rkind, &rej,
		    msg, sizeof(msg));

		if (k < 0)
			report(h, "batch %llu: malformed response body (%zu "
			    "bytes) ignored", (unsigned long long)seq,
			    h->resp.len);
		else if (k > 0 && rej > 0) {
			uint64_t nr = (uint64_t)rej > nspans ? nspans :
			    (uint64_t)rej;

			h->st.spans_rejected += nr;
			report(h, "batch %llu: collector rejected %llu of %llu "
			    "spans%s%s", (unsigned long long)seq,
			    (unsigned long long)nr, (unsigned long long)nspans,
			    *msg ? ": " : "", msg);
		} else if (k > 0 && *msg)
			report(h, "batch %llu: collector warning: %s",
			    (unsigned long long)seq, msg);
	}
}

static void *
sender(void *arg)
{
	struct ssp_http *h = arg;

	pthread_mutex_lock(&h->mu);
	for (;;) {
		while (!h->busy && !h->stop)
			pthread_cond_wait(&h->cv, &h->mu);
		if (!h->busy)
			break;
		pthread_mutex_unlock(&h->mu);
		/* The job, the curl handle and st are ours until busy drops;
		 * others read st only when the sender is idle. */
		send_batch(h, h->seq, &h->job, h->job_spans);
		pthread_mutex_lock(&h->mu);
		h->gave_up = h->st.gave_up;
		h->busy = 0;
		pthread_cond_broadcast(&h->cv);
	}
	pthread_mutex_unlock(&h->mu);
	return NULL;
}

enum ssp_status
ssp_http_open(struct ssp_http **hp, const struct ssp_http_opts *o,
    struct ssp_err *e)
{
	struct ssp_http *h;
	enum ssp_status rc;
	char ua[128];
	size_t i;

	*hp = NULL;
	for (i = 0; i < o->nheaders; i++) {
		const char *c = strchr(o->headers[i], ':');

		if (c == NULL || c == o->headers[i] || strpbrk(o->headers[i],
		    "\r\n") != NULL)
			return ssp_err_set(e, SSP_ERR_INVAL, 0, "bad header '%.100s': "
			    "expected 'Name: value'", o->headers[i]);
	}
	if ((rc = curl_load(e)) != SSP_OK)
		return rc;
	if (C.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return ssp_err_set(e, SSP_ERR_IO, 0, "libcurl initialisation failed");
	if ((h = calloc(1, sizeof(*h))) == NULL)
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	h->o = *o;
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	if ((rc = endpoint(o->url, &h->url, e)) != SSP_OK) {
		ssp_http_close(h, NULL);
		return rc;
	}
	h->rnd = (uint32_t)time(NULL) ^ (uint32_t)getpid() << 16 ^
	    (uint32_t)(uintptr_t)h;
	if (h->rnd == 0)
		h->rnd = 1;
	snprintf(ua, sizeof(ua), "User-Agent: %s",
	    o->user_agent ? o->user_agent : "simspan");
	if ((h->c = C.easy_init()) == NULL ||
	    (h->hdrs = C.slist_append(NULL, o->json ?
	    "Content-Type: application/json" :
	    "Content-Type: application/x-protobuf")) == NULL ||
	    /* no "Expect: 100-continue" round trip before large bodies */
	    C.slist_append(h->hdrs, "Expect:") == NULL ||
	    C.slist_append(h->hdrs, ua) == NULL ||
	    (o->gzip && C.slist_append(h->hdrs,
	    "Content-Encoding: gzip") == NULL)) {
		ssp_http_close(h, NULL);
		return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
	}
	for (i = 0; i < o->nheaders; i++)
		if (C.slist_append(h->hdrs, o->headers[i]) == NULL) {
			ssp_http_close(h, NULL);
			return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
		}
	C.easy_setopt(h->c, CURLOPT_URL, h->url);
	C.easy_setopt(h->c, CURLOPT_PROTOCOLS_STR, "http,https");
	C.easy_setopt(h->c, CURLOPT_HTTPHEADER, h->hdrs);
	C.easy_setopt(h->c, CURLOPT_POST, 1L);
	C.easy_setopt(h->c, CURLOPT_NOSIGNAL, 1L);	/* threads */
	C.easy_setopt(h->c, CURLOPT_TIMEOUT_MS, (long)o->timeout_ms);
	C.easy_setopt(h->c, CURLOPT_CONNECTTIMEOUT_MS, (long)o->timeout_ms);
	C.easy_setopt(h->c, CURLOPT_TCP_KEEPALIVE, 1L);
	C.easy_setopt(h->c, CURLOPT_ERRORBUFFER, h->errbuf);
	C.easy_setopt(h->c, CURLOPT_WRITEFUNCTION, on_body);
	C.easy_setopt(h->c, CURLOPT_WRITEDATA, &h->resp);
	if (pthread_create(&h->thr, NULL, sender, h) != 0) {
		ssp_http_close(h, NULL);
		return ssp_err_set(e, SSP_ERR_IO, 0, "cannot start the sender "
		    "thread");
	}
	h->started = 1;
	*hp = h;
	return SSP_OK;
}

const char *
ssp_http_url(const struct ssp_http *h)
{
	return h->url;
}

enum ssp_status
ssp_http_submit(struct ssp_http *h, struct ssp_buf *body, uint64_t nspans)
{
	pthread_mutex_lock(&h->mu);
	while (h->busy)
		pthread_cond_wait(&h->cv, &h->mu);
	ssp_buf_swap(&h->job, body);
	ssp_buf_reset(body);
	h->job_spans = nspans;
	h->seq++;
	h->busy = 1;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
	return SSP_OK;
}

int
ssp_http_gave_up(struct ssp_http *h)
{
	int g;

	pthread_mutex_lock(&h->mu);
	g = h->gave_up;
	pthread_mutex_unlock(&h->mu);
	return g;
}

void
ssp_http_not_sent(struct ssp_http *h, uint64_t batches, uint64_t spans)
{
	pthread_mutex_lock(&h->mu);
	while (h->busy)
		pthread_cond_wait(&h->cv, &h->mu);
	h->st.batches_failed += batches;
	h->st.spans_failed += spans;
	pthread_mutex_unlock(&h->mu);
}

void
ssp_http_close(struct ssp_http *h, struct ssp_http_stats *st)
{
	if (h == NULL)
		return;
	if (h->started) {
		pthread_mutex_lock(&h->mu);
		while (h->busy)
			pthread_cond_wait(&h->cv, &h->mu);
		h->stop = 1;
		pthread_cond_broadcast(&h->cv);
		pthread_mutex_unlock(&h->mu);
		pthread_join(h->thr, NULL);
	}
	if (st != NULL)
		*st = h->st;
	if (h->c != NULL)
		C.easy_cleanup(h->c);
	C.slist_free_all(h->hdrs);
	ssp_buf_free(&h->resp);
	ssp_buf_free(&h->gz);
	ssp_buf_free(&h->job);
	free(h->url);
	pthread_mutex_destroy(&h->mu);
	pthread_cond_destroy(&h->cv);
	free(h);
	C.global_cleanup();
}
