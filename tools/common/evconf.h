/*
 * What evspan's main does before the pipeline and after it, besides
 * printing its options: load the topology with the NAME=FILE overrides
 * of the command line and the rules (found by name, datafile.h), exiting
 * on a configuration error as the tool must; print evcheck's findings.
 */
#ifndef SSP_TOOLS_EVCONF_H
#define SSP_TOOLS_EVCONF_H

#include <stddef.h>

#include "config/rules.h"
#include "config/topo.h"
#include "span/evcheck.h"
#include "tools/common/warn.h"

/*
 * Load topology topo_path into *tp with overrides over[0..n) (NAME=FILE)
 * and the rules *rules_path (NULL: none) into *rp, checked against it.
 * A bare rules name the current directory lacks is looked up
 * (ssp_datafile_find): *rules_path then points at *rules_found (malloc'd,
 * else left NULL).  Exits 2 on a configuration error, 1 on others.
 */
void ssp_evconf_load(struct ssp_topo **tp, struct ssp_rules **rp,
    const char *topo_path, char **over, int n, const char **rules_path,
    char **rules_found);
/*
 * Print the findings of ssp_evcheck_*: a stream header that does not fit
 * the topology is an error, or with force a warning.  Returns the errors.
 */
size_t ssp_evconf_checks(const struct ssp_evcheck *c, int force,
    struct ssp_warn *w);

#endif
