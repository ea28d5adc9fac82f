#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "base/cli.h"

#ifndef SSP_VERSION
#define SSP_VERSION "0.0.0"
#endif

void
ssp_cli_version(const char *prog)
{
	printf("%s %s (zstd %s, sqlite %s, libcurl %s)\n", prog, SSP_VERSION,
	    ZSTD_versionString(), sqlite3_libversion(),
	    curl_version_info(CURLVERSION_NOW)->version);
}

int
ssp_strtonum(const char *s, int64_t min, int64_t max, int64_t *out,
    const char **errstr)
{
	char *end;
	long long v;

	errno = 0;
	if (s == NULL || *s == '\0' || (*s == ' ' || *s == '\t')) {
		*errstr = "invalid";
		return -1;
	}
	v = strtoll(s, &end, 0);
	if (*end != '\0') {
		*errstr = "invalid";
		return -1;
	}
	if ((errno == ERANGE && v == LLONG_MIN) || v < min) {
		*errstr = "too small";
		return -1;
	}
	if ((errno == ERANGE && v == LLONG_MAX) || v > max) {
		*errstr = "too large";
		return -1;
	}
	*out = v;
	return 0;
}

int
ssp_strtou64(const char *s, uint64_t *out, const char **errstr)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (s == NULL || *s < '0' || *s > '9') {
		*errstr = "invalid";
		return -1;
	}
	v = strtoull(s, &end, 0);
	if (*end != '\0') {
		*errstr = "invalid";
		return -1;
	}
	if (errno == ERANGE) {
		*errstr = "too large";
		return -1;
	}
	*out = v;
	return 0;
}

int
ssp_parse_ms(const char *s, uint64_t *ms, const char **errstr)
{
	static const struct { const char *sfx; int64_t mul; } u[] = {
		{ "ms", 1 }, { "min", 60000 }, { "s", 1000 }, { "", 1000 } };
	const int64_t week_ms = 7 * 86400 * 1000ll;
	char buf[32];
	size_t n = strlen(s), i, k;
	int64_t v;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		k = strlen(u[i].sfx);
		if (n <= k || n - k >= sizeof(buf) || strcmp(s + n - k, u[i].sfx) != 0)
			continue;
		memcpy(buf, s, n - k);
		buf[n - k] = '\0';
		if (ssp_strtonum(buf, 0, week_ms / u[i].mul, &v, errstr) != 0)
			return -1;
		*ms = (uint64_t)(v * u[i].mul);
		return 0;
	}
	*errstr = "invalid";
	return -1;
}

int
ssp_parse_bytes(const char *s, uint64_t *n, const char **errstr)
{
	static const struct { const char *sfx; int64_t mul; } u[] = {
		{ "KiB", 1 << 10 }, { "MiB", 1 << 20 }, { "GiB", 1 << 30 },
		{ "k", 1 << 10 }, { "K", 1 << 10 }, { "M", 1 << 20 },
		{ "G", 1 << 30 }, { "", 1 } };
	char buf[32];
	size_t len = strlen(s), i, k;
	int64_t v;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		k = strlen(u[i].sfx);
		if (len <= k || len - k >= sizeof(buf) ||
		    strcmp(s + len - k, u[i].sfx) != 0)
			continue;
		memcpy(buf, s, len - k);
		buf[len - k] = '\0';
		if (ssp_strtonum(buf, 0, INT64_MAX / u[i].mul, &v, errstr) != 0)
			return -1;
		*n = (uint64_t)(v * u[i].mul);
		return 0;
	}
	*errstr = "invalid";
	return -1;
}

int
ssp_parse_time(const char *s, int64_t *ps, const char **errstr)
{
	static const struct { const char *sfx; int64_t mul; } units[] = {
		{ "ps", 1 }, { "ns", 1000 }, { "us", 1000000 },
		{ "ms", 1000000000 }, { "s", 1000000000000 },
	};
	char buf[64];
	size_t n, i, k;
	int64_t v;

	if (s == NULL || (n = strlen(s)) == 0 || n >= sizeof(buf)) {
		*errstr = "invalid";
		return -1;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		k = strlen(units[i].sfx);
		if (n > k && strcmp(s + n - k, units[i].sfx) == 0 &&
		    (s[n - k - 1] >= '0' && s[n - k - 1] <= '9')) {
			memcpy(buf, s, n - k);
			buf[n - k] = '\0';
			if (ssp_strtonum(buf, INT64_MIN / units[i].mul,
			    INT64_MAX / units[i].mul, &v, errstr) != 0)
				return -1;
			*ps = v * units[i].mul;
			return 0;
		}
	}
	return ssp_strtonum(s, INT64_MIN, INT64_MAX, ps, errstr);
}

int
ssp_cli_refuse_tty(int fd, int force, const char *prog)
{
	if (!force && isatty(fd)) {
		fprintf(stderr, "%s: refusing to write binary records to a "
		    "terminal (redirect, use -o FILE, or --force)\n", prog);
		return -1;
	}
	return 0;
}

uint64_t
ssp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
ssp_progress_init(struct ssp_progress *p, int64_t total_bytes, const char *what)
{
	memset(p, 0, sizeof(*p));
	p->on = isatty(STDERR_FILENO);
	p->total_bytes = total_bytes;
	p->what = what;
	p->t0_ns = p->last_ns = ssp_now_ns();
}

static void
human(char *buf, size_t n, double v)
{
	static const char *sfx[] = { "", "k", "M", "G", "T" };
	unsigned i = 0;

	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, n, "%.1f%s", v, sfx[i]);
}

/* Seconds as "42s", "3m05s" or "2h07m". */
static void
duration(char *buf, size_t n, double secs)
{
	uint64_t s = secs < 0 ? 0 : (uint64_t)(secs + 0.5);

	if (s < 60)
		snprintf(buf, n, "%" PRIu64 "s", s);
	else if (s < 3600)
		snprintf(buf, n, "%" PRIu64 "m%02" PRIu64 "s", s / 60, s % 60);
	else
		snprintf(buf, n, "%" PRIu64 "h%02" PRIu64 "m", s / 3600, s / 60 % 60);
}

void
ssp_progress_format(char *buf, size_t n, const struct ssp_progress *p,
    double secs, uint64_t bytes, uint64_t lines, uint64_t items)
{
	char b[16], l[16], it[16], d[24], eta[48] = "";

	if (secs <= 0)
		secs = 1e-9;
	human(b, sizeof(b), (double)bytes / secs);
	human(l, sizeof(l), (double)lines / secs);
	human(it, sizeof(it), (double)items / secs);
	if (p->total_bytes > 0 && bytes > 0 && (int64_t)bytes < p->total_bytes) {
		duration(d, sizeof(d), secs * (double)(p->total_bytes -
		    (int64_t)bytes) / (double)bytes);
		snprintf(eta, sizeof(eta), " %3.0f%% ETA %s",
		    100.0 * (double)bytes / (double)p->total_bytes, d);
	}
	snprintf(buf, n, "%" PRIu64 " MB %sB/s %s lines/s %s %s/s%s",
	    bytes >> 20, b, l, it, p->what, eta);
}

void
ssp_progress_draw(struct ssp_progress *p, uint64_t bytes, uint64_t lines,
    uint64_t items)
{
	uint64_t now = ssp_now_ns();
	char buf[160];

	if (!p->on || now - p->last_ns < 250000000u)
		return;
	p->last_ns = now;
	ssp_progress_format(buf, sizeof(buf), p, (double)(now - p->t0_ns) / 1e9,
	    bytes, lines, items);
	fprintf(stderr, "\r%s\033[K", buf);
}

void
ssp_progress_done(struct ssp_progress *p)
{
	if (p->on && p->last_ns != p->t0_ns)
		fputs("\r\033[K", stderr);
}

int
ssp_cli_close_stdout(const char *prog)
{
	int bad = ferror(stdout);

	if (fclose(stdout) != 0 || bad) {
		fprintf(stderr, "%s: stdout: %s\n", prog,
		    errno ? strerror(errno) : "write error");
		return -1;
	}
	return 0;
}

void
ssp_cli_catch_signals(const int *sigs, size_t n, void (*handler)(int))
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++) {
		if (sigs[i] != SIGTERM && sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}
