/*
 * symphony's serialized Simulation (simulation.json: Simulation.toJSON())
 * and System (system.json), an optional extra input: what out.json
 * cannot tell.  simulation.json names every simulator (out.json keeps
 * one entry per display name, so two simulators with one name lose one
 * of them silently), and system.json the channels the experiment meant;
 * both are checked against a run and its plan.  Never required: a local
 * run does not write them (the cloud backend keeps them).
 */
#ifndef SSP_SBSIM_H
#define SSP_SBSIM_H

#include <stddef.h>

#include "base/err.h"
#include "config/sbplan.h"
#include "config/simbricks.h"

struct ssp_sbsim;

/*
 * Read simulation.json and, if system is not NULL, system.json.
 * SSP_ERR_FORMAT naming the file and key: not JSON, or not the shape
 * Simulation.toJSON() / System.toJSON() write; SSP_ERR_IO.
 */
int ssp_sbsim_load(struct ssp_sbsim **sp, const char *simulation,
    const char *system, struct ssp_err *e);
void ssp_sbsim_free(struct ssp_sbsim *s);

/*
 * Check r and p against s.  SSP_ERR_INVAL: two simulators of
 * simulation.json with one display name, or a channel of system.json
 * whose two simulators the command lines do not link (another run's
 * files?).  Findings that do not stop the plan (a simulator out.json
 * lacks, one simulation.json lacks) are appended to *warn (malloc'd
 * lines, *nwarn of them); on an error none are added.
 */
int ssp_sbsim_check(const struct ssp_sbsim *s, const struct ssp_simbricks *r,
    const struct ssp_sbplan *p, char ***warn, size_t *nwarn,
    struct ssp_err *e);

#endif
