/* simspan-simbricks run's configuration file: see sbconf.h. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/common/cli.h"
#include "tools/common/sbconf.h"

void
ssp_sbconf_push(const char **a, size_t *n, const char *s, const char *what)
{
	if (*n == SSP_SBCONF_MAX)
		errx(SSP_EXIT_USAGE, "more than %d %s", SSP_SBCONF_MAX, what);
	a[(*n)++] = s;
}

static char *
own(struct ssp_sbconf *l, char *s)
{
	if (s == NULL)
		err(SSP_EXIT_FAIL, NULL);
	if (l->nown == 3 * SSP_SBCONF_MAX)
		errx(SSP_EXIT_USAGE, "the configuration file is too long");
	return l->own[l->nown++] = s;
}

/* A path of the config file, relative to its directory. */
static char *
cfg_path(const char *cfg, const char *p)
{
	const char *s = strrchr(cfg, '/');
	char *r;

	if (p[0] == '/' || s == NULL)
		return strdup(p);
	if (asprintf(&r, "%.*s/%s", (int)(s - cfg), cfg, p) < 0)
		return NULL;
	return r;
}

void
ssp_sbconf_read(const char *path, struct ssp_sbconf *l)
{
	char line[4096], *key, *val, *rest, *fp;
	unsigned lineno = 0;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		err(SSP_EXIT_FAIL, "%s", path);
	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		if (strchr(line, '\n') == NULL && !feof(f))
			errx(SSP_EXIT_USAGE, "%s:%u: line too long", path, lineno);
		line[strcspn(line, "\r\n")] = '\0';
		key = line + strspn(line, " \t");
		if (*key == '#' || *key == '\0')
			continue;
		val = key + strcspn(key, " \t");
		if (*val != '\0')
			*val++ = '\0';
		val += strspn(val, " \t");
		if (*val == '\0')
			errx(SSP_EXIT_USAGE, "%s:%u: '%s' without a value", path,
			    lineno, key);
		if (strcmp(key, "symtab") == 0) {
			rest = val + strcspn(val, ",");
			fp = own(l, strndup(val, (size_t)(rest - val)));
			fp = own(l, cfg_path(path, fp));
			if (asprintf(&val, "%s%s", fp, rest) < 0)
				err(SSP_EXIT_FAIL, NULL);
			ssp_sbconf_push(l->sym, &l->nsym, own(l, val),
			    "symbol tables");
		} else if (strcmp(key, "rules") == 0) {
			if (l->rules == NULL)
				l->rules = strchr(val, '/') != NULL ?
				    own(l, cfg_path(path, val)) : own(l, strdup(val));
		} else if (strcmp(key, "logs") == 0) {
			if (l->logs == NULL)
				l->logs = own(l, cfg_path(path, val));
		} else if (strcmp(key, "log") == 0) {
			rest = val + strcspn(val, " \t");
			if (*rest == '\0')
				errx(SSP_EXIT_USAGE, "%s:%u: log SIMULATOR FILE",
				    path, lineno);
			*rest++ = '\0';
			rest += strspn(rest, " \t");
			fp = own(l, cfg_path(path, rest));
			if (asprintf(&key, "%s=%s", val, fp) < 0)
				err(SSP_EXIT_FAIL, NULL);
			ssp_sbconf_push(l->log, &l->nlog, own(l, key), "logs");
		} else {
			errx(SSP_EXIT_USAGE, "%s:%u: unknown setting '%s' (symtab, "
			    "rules, logs, log)", path, lineno, key);
		}
	}
	if (ferror(f))
		err(SSP_EXIT_FAIL, "%s", path);
	fclose(f);
}

void
ssp_sbconf_free(struct ssp_sbconf *l)
{
	size_t i;

	for (i = 0; i < l->nown; i++)
		free(l->own[i]);
	free(l);
}
