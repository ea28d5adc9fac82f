#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/common/datafile.h"

/* The Makefile's DATADIR, compiled into this object only. */
#ifndef SSP_DATADIR
#define SSP_DATADIR "/usr/local/share/simspan"
#endif

char *
ssp_datafile_selfdir(void)
{
	char buf[PATH_MAX], *s;
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	if ((s = strrchr(buf, '/')) == NULL)
		return NULL;
	*s = '\0';
	return strdup(s == buf ? "/" : buf);
}

static char *
try(char *tried, size_t n, const char *dir, const char *sub, const char *kind,
    const char *name)
{
	char *p;
	size_t k;

	if (asprintf(&p, "%s%s/%s/%s", dir, sub, kind, name) < 0)
		return NULL;
	if (access(p, R_OK) == 0)
		return p;
	k = tried != NULL ? strlen(tried) : 0;
	if (tried != NULL && k + 8 < n)
		snprintf(tried + k, n - k, "%s%s", k ? ", " : "", p);
	free(p);
	return NULL;
}

char *
ssp_datafile_find(const char *kind, const char *name, char *tried, size_t n)
{
	char *p = NULL, *self;

	if (tried != NULL && n > 0)
		tried[0] = '\0';
	if (access(name, R_OK) == 0)
		return strdup(name);
	if (tried != NULL && n > 0)
		snprintf(tried, n, "%s", name);
	if (strchr(name, '/') != NULL || name[0] == '\0')
		return NULL;
	if ((p = try(tried, n, SSP_DATADIR, "", kind, name)) != NULL)
		return p;
	if ((self = ssp_datafile_selfdir()) == NULL)
		return NULL;
	if ((p = try(tried, n, self, "/../share/simspan", kind, name)) == NULL)
		p = try(tried, n, self, "/../..", kind, name);
	free(self);
	return p;
}
