#include <stdarg.h>
#include <stdio.h>

#include "tools/common/cli.h"
#include "tools/common/warn.h"

static int quiet;	/* one tool per process: -q is the process's */

void
ssp_warn_quiet(void)
{
	quiet = 1;
}

void
ssp_warn(struct ssp_warn *w, const char *fmt, ...)
{
	va_list ap;

	w->n++;
	if (quiet)
		return;
	fprintf(stderr, "%s: warning: ", w->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
ssp_warn_status(const struct ssp_warn *w, int rc)
{
	return rc == 0 && w->strict && w->n > 0 ? SSP_EXIT_FAIL : rc;
}
