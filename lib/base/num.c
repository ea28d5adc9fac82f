#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"

int
ssp_num_strtonum(const char *s, int64_t min, int64_t max, int64_t *out,
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
ssp_num_strtou64(const char *s, uint64_t *out, const char **errstr)
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
ssp_num_parse_ms(const char *s, uint64_t *ms, const char **errstr)
{
	static const struct { const char *sfx; int64_t mul; } u[] = {
		{ "ms", 1 }, { "min", 60000 }, { "s", 1000 }, { "", 1000 } };
	const int64_t week_ms = 7 * 86400 * 1000ll;
	char buf[32], *dot;
	size_t n = strlen(s), i, k, nf;
	int64_t v, f = 0, scale = 1;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		k = strlen(u[i].sfx);
		if (n <= k || n - k >= sizeof(buf) || strcmp(s + n - k, u[i].sfx) != 0)
			continue;
		memcpy(buf, s, n - k);
		buf[n - k] = '\0';
		/* a fraction: up to 6 digits, the result whole milliseconds */
		if ((dot = strchr(buf, '.')) != NULL) {
			*dot = '\0';
			nf = strlen(dot + 1);
			if (nf == 0 || nf > 6 || dot[1 + strspn(dot + 1,
			    "0123456789")] != '\0' || buf[0] == '\0') {
				*errstr = "invalid";
				return -1;
			}
			f = strtoll(dot + 1, NULL, 10);
			while (nf-- > 0)
				scale *= 10;
		}
		if (ssp_num_strtonum(buf, 0, week_ms / u[i].mul, &v,
		    errstr) != 0)
			return -1;
		if ((f * u[i].mul) % scale != 0) {
			*errstr = "finer than a millisecond";
			return -1;
		}
		if (v * u[i].mul + f * u[i].mul / scale > week_ms) {
			*errstr = "too large";
			return -1;
		}
		*ms = (uint64_t)(v * u[i].mul + f * u[i].mul / scale);
		return 0;
	}
	*errstr = "invalid";
	return -1;
}

int
ssp_num_parse_bytes(const char *s, uint64_t *n, const char **errstr)
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
		if (ssp_num_strtonum(buf, 0, INT64_MAX / u[i].mul, &v,
		    errstr) != 0)
			return -1;
		*n = (uint64_t)(v * u[i].mul);
		return 0;
	}
	*errstr = "invalid";
	return -1;
}

int
ssp_num_parse_time(const char *s, int64_t *ps, const char **errstr)
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
			if (ssp_num_strtonum(buf, INT64_MIN / units[i].mul,
			    INT64_MAX / units[i].mul, &v, errstr) != 0)
				return -1;
			*ps = v * units[i].mul;
			return 0;
		}
	}
	return ssp_num_strtonum(s, INT64_MIN, INT64_MAX, ps, errstr);
}
