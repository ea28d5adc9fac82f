/*
 * The symbol tables behind simsynth's gem5 Exec lines: a vmlinux table
 * with real Linux function names at made-up but plausible addresses, and
 * the real i40e module table (ssp_syndata) loaded at the module offset.
 * Function-entry Exec lines use symbol start addresses; every other pc is
 * checked not to be the start of any symbol, so no instruction is taken
 * for a function entry by mistake.
 */
#ifndef SSP_SYNSYM_H
#define SSP_SYNSYM_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define SSP_SYN_I40E_OFFSET 0xffffffffa0000000ull
/* The mqnic module (Corundum) is loaded at the same address. */
#define SSP_SYN_MQNIC_OFFSET SSP_SYN_I40E_OFFSET

/* SSP_SYNTAB_I40E: the NIC driver module's table (i40e, mqnic or e1000). */
enum { SSP_SYNTAB_VMLINUX, SSP_SYNTAB_I40E };

struct ssp_synsym {
	const char *name;
	uint64_t addr;		/* module offset applied */
	uint64_t size;
	unsigned table;
};

struct ssp_synsym_set;

int ssp_synsym_new(struct ssp_synsym_set **sp, struct ssp_err *e);
/* The driver module: i40e's real table, or a made-up table of the
 * functions of SimBricks' mqnic driver or of Linux's e1000 driver, and
 * then the few vmlinux functions only their paths run, after every other
 * vmlinux function. */
enum { SSP_SYNMOD_I40E, SSP_SYNMOD_MQNIC, SSP_SYNMOD_E1000 };
int ssp_synsym_new_nic(struct ssp_synsym_set **sp, int mqnic,
    struct ssp_err *e);
/* linux_paths: also the functions of simsynth --kernel linux's paths
 * (scheduler, softirq, TCP, idle), after all the others, so the tables
 * of the Columbo world stay as they are. */
int ssp_synsym_new_ex(struct ssp_synsym_set **sp, int mqnic, int linux_paths,
    struct ssp_err *e);
void ssp_synsym_free(struct ssp_synsym_set *s);
/* A function by name (vmlinux first), or NULL. */
const struct ssp_synsym *ssp_synsym_find(const struct ssp_synsym_set *s,
    const char *name);
/* The functions of the rules' blacklist that only the blacklist names
 * (noise inside syscalls), by index. */
size_t ssp_synsym_nnoise(const struct ssp_synsym_set *s);
const struct ssp_synsym *ssp_synsym_noise(const struct ssp_synsym_set *s,
    size_t i);
/* A label without a type inside a function (objdump: no 'F'), or NULL. */
const struct ssp_synsym *ssp_synsym_label(const struct ssp_synsym_set *s,
    const char *name);
/* Is addr the start of any symbol of either table? */
int ssp_synsym_is_start(const struct ssp_synsym_set *s, uint64_t addr);
/* The i-th vmlinux function (for instruction pcs inside bodies). */
size_t ssp_synsym_nvmlinux(const struct ssp_synsym_set *s);
const struct ssp_synsym *ssp_synsym_vmlinux(const struct ssp_synsym_set *s,
    size_t i);
/* Write the tables in objdump --syms format. */
int ssp_synsym_write_vmlinux(const struct ssp_synsym_set *s, const char *path,
    struct ssp_err *e);
int ssp_synsym_write_i40e(const char *path, struct ssp_err *e);
/* A made-up module table (SSP_SYNMOD_MQNIC or SSP_SYNMOD_E1000). */
int ssp_synsym_write_mod(const char *path, int mod, struct ssp_err *e);
int ssp_synsym_write_mqnic(const char *path, struct ssp_err *e);

#endif
