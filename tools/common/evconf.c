/*
 * evspan's configuration and findings (evconf.h).
 */
#include <err.h>
#include <string.h>
#include <unistd.h>

#include "tools/common/cli.h"
#include "tools/common/datafile.h"
#include "tools/common/evconf.h"

void
ssp_evconf_load(struct ssp_topo **tp, struct ssp_rules **rp,
    const char *topo_path, char **over, int n, const char **rules_path,
    char **rules_found)
{
	struct ssp_err e = { 0 };
	char tried[2048];
	int rc, i;

	if ((rc = ssp_topo_load(tp, topo_path, &e)) != SSP_OK)
		errx(rc == SSP_ERR_INVAL ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
		    "%s", e.msg);
	for (i = 0; i < n; i++)
		if (ssp_topo_override(*tp, over[i], &e) != SSP_OK) {
			ssp_topo_free(*tp);
			errx(SSP_EXIT_USAGE, "%s", e.msg);
		}
	/* a bare name the current directory lacks: the installed rules or
	 * the source tree's (-r linux-i40e.csv) */
	if (*rules_path != NULL && access(*rules_path, F_OK) != 0 &&
	    strchr(*rules_path, '/') == NULL) {
		if ((*rules_found = ssp_datafile_find("rules", *rules_path, tried,
		    sizeof(tried))) == NULL) {
			ssp_topo_free(*tp);
			errx(SSP_EXIT_FAIL, "%s: no such rules file (looked at %s)",
			    *rules_path, tried);
		}
		*rules_path = *rules_found;
	}
	rc = *rules_path != NULL ? ssp_rules_load(rp, *rules_path, &e) :
	    ssp_rules_new(rp, &e);
	if (rc == SSP_OK)
		rc = ssp_rules_check(*rp, *tp, &e);
	if (rc != SSP_OK) {
		ssp_rules_free(*rp);
		ssp_topo_free(*tp);
		errx(rc == SSP_ERR_INVAL ? SSP_EXIT_USAGE : SSP_EXIT_FAIL,
		    "%s", e.msg);
	}
}

size_t
ssp_evconf_checks(const struct ssp_evcheck *c, int force, struct ssp_warn *w)
{
	size_t i, bad = 0;

	for (i = 0; i < c->n; i++)
		if (!c->m[i].error)
			ssp_warn(w, "%s", c->m[i].msg);
		else if (force)
			ssp_warn(w, "%s (--force: going on)", c->m[i].msg);
		else {
			warnx("%s; --force to go on", c->m[i].msg);
			bad++;
		}
	return bad;
}

