/*
 * Data simsynth carries inside the binary so an installed copy needs no
 * data files: the objdump --syms table of a real i40e module (from
 * simbricks/columbo, see tests/data/samples/PROVENANCE.md), the function
 * classes of a Linux + i40e setup and rules/linux-corundum.csv and rules/linux-e1000.csv, compiled in
 * from those files (lib/base/embed.h).
 */
#ifndef SSP_SYNDATA_H
#define SSP_SYNDATA_H

#include "base/embed.h"

SSP_EMBED(ssp_syndata_i40e, "tests/data/samples/symbols/i40e-image-syms.columbo.dump");
SSP_EMBED(ssp_syndata_rules, "tests/data/samples/rules-linux-i40e.csv");
SSP_EMBED(ssp_syndata_rules_corundum, "rules/linux-corundum.csv");
SSP_EMBED(ssp_syndata_rules_e1000, "rules/linux-e1000.csv");

#endif
