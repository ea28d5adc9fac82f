/*
 * simspan's data files (the rules files) found by name, the way a user names
 * them: "-r linux-i40e.csv".  A name that is a readable file as given
 * wins; a bare name (no '/') is then looked for in the installed data
 * directory (DATADIR/rules, the Makefile's share/simspan), next to the
 * binary's installation (BIN/../share/simspan/rules, for a DESTDIR or a
 * moved prefix) and in the source tree the binary was built in
 * (build/bin/../../rules).  Also where the running binary is, for tools
 * that run their siblings.
 */
#ifndef SSP_TOOLS_DATAFILE_H
#define SSP_TOOLS_DATAFILE_H

#include <stddef.h>

/*
 * The path of data file name of kind ("rules"), malloc'd; NULL when it
 * is nowhere, with the places looked at in tried (n bytes, may be 0).
 */
char *ssp_datafile_find(const char *kind, const char *name, char *tried,
    size_t n);
/* The directory of the running executable (/proc/self/exe), malloc'd,
 * or NULL. */
char *ssp_datafile_selfdir(void);

#endif
