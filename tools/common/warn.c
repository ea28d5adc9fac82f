#include <stdarg.h>
#include <stdio.h>

#include "tools/common/cli.h"
#include "tools/common/warn.h"

void
ssp_warn(struct ssp_warn *w, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", w->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	w->n++;
}

int
ssp_warn_status(const struct ssp_warn *w, int rc)
{
	return rc == 0 && w->strict && w->n > 0 ? SSP_EXIT_FAIL : rc;
}
