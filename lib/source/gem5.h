/*
 * gem5 debug log parser (FORMATS.md §1-§4): "<tick>: [<flag>: ]<name>:
 * <message>" lines: Exec traces (function entries, optionally every
 * instruction), the SimBricks PCI adapter (simbricks-pci:, and cosim: before
 * 2021), PCI config space, pci_host accesses and interrupts, and SimBricks
 * synchronisation.  Debug lines spliced behind console text are recovered.
 */
#ifndef SSP_GEM5_H
#define SSP_GEM5_H

#include "source/pline.h"

struct ssp_gem5;

int ssp_gem5_new(struct ssp_gem5 **gp, const struct ssp_parser_cfg *cfg,
    struct ssp_err *e);
void ssp_gem5_free(struct ssp_gem5 *g);
void ssp_gem5_line(struct ssp_gem5 *g, const char *s, size_t n,
    struct ssp_pline *out);
/* Report each Exec line's access in out->acc while on (ssp_parser.h). */
void ssp_gem5_want_access(struct ssp_gem5 *g, int on);

#endif
