/*
 * simspan-simbricks run's lists (symbol tables, log paths, rules, logs)
 * and its configuration file (-C), one setting a line, "# " comments:
 *   symtab FILE[,NAME[,OFFSET]]   (like -s; FILE relative to this file)
 *   rules  NAME-OR-FILE           (like -r)
 *   logs   DIR                    (like --logs)
 *   log    SIMULATOR FILE         (like --log SIMULATOR=FILE)
 * Options given on the command line come first; rules and logs there win.
 * Errors exit as err(3) does: 2 for a bad file or too many entries, 1 for
 * I/O and memory.
 */
#ifndef SSP_TOOLS_SBCONF_H
#define SSP_TOOLS_SBCONF_H

#include <stddef.h>

#define SSP_SBCONF_MAX 256

struct ssp_sbconf {
	const char *sym[SSP_SBCONF_MAX], *log[SSP_SBCONF_MAX];
	size_t nsym, nlog;
	char *own[3 * SSP_SBCONF_MAX];	/* strings made from the config file */
	size_t nown;
	const char *rules, *logs;
};

/* Append s to a[*n] (of SSP_SBCONF_MAX); what names the list in the error. */
void ssp_sbconf_push(const char **a, size_t *n, const char *s,
    const char *what);

/* Add the settings of the configuration file path to l. */
void ssp_sbconf_read(const char *path, struct ssp_sbconf *l);

/* Free the strings read into l and l itself (from calloc). */
void ssp_sbconf_free(struct ssp_sbconf *l);

#endif
