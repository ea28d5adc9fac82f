/*
 * Data files compiled into the binaries, the one way the tree embeds data.
 * A header declares each one on a line of its own,
 *
 *	SSP_EMBED(ssp_syndata_rules, "rules/linux-i40e.csv");
 *
 * (the path from the top of the tree), and the build makes the C file that
 * defines them: scripts/embed.sh turns synth/syndata.h into
 * $(BUILD)/gen/synth/syndata.c, one NUL-terminated const char array per
 * line holding the file's bytes, and NAME_len, their number (a file may
 * hold NUL bytes), recompiled when a file changes.  A path that begins
 * with "$(BUILD)/" is a file the build makes (the Makefile has its rule).
 * The Makefile finds such headers itself (lines that begin with
 * "SSP_EMBED(") and links the object into the library of the header's
 * folder.  Keep such a header for data alone: its generated object takes
 * its name.
 */
#ifndef SSP_EMBED_H
#define SSP_EMBED_H

#include <stddef.h>

#define SSP_EMBED(name, path) \
	extern const char name[]; \
	extern const size_t name##_len

#endif
