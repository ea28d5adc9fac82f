#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "tools/common/progress.h"

void
ssp_progress_init(struct ssp_progress *p, int64_t total_bytes, const char *what)
{
	memset(p, 0, sizeof(*p));
	p->on = isatty(STDERR_FILENO);
	p->total_bytes = total_bytes;
	p->what = what;
	p->unit = "lines";
	p->t0_ns = p->last_ns = ssp_clock_ns();
}

void
ssp_progress_init_as(struct ssp_progress *p, int64_t total_bytes,
    const char *unit, const char *what, int quiet)
{
	ssp_progress_init(p, total_bytes, what);
	p->unit = unit;
	if (quiet)
		p->on = 0;
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
	snprintf(buf, n, "%" PRIu64 " MB %sB/s %s %s/s %s %s/s%s",
	    bytes >> 20, b, l, p->unit != NULL ? p->unit : "lines", it, p->what, eta);
}

void
ssp_progress_draw(struct ssp_progress *p, uint64_t bytes, uint64_t lines,
    uint64_t items)
{
	uint64_t now = ssp_clock_ns();
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


void
ssp_progress_cb(void *ctx, uint64_t bytes, uint64_t lines, uint64_t items)
{
	ssp_progress_draw(ctx, bytes, lines, items);
}
