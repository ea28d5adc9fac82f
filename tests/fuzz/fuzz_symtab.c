/* Symbol table loading (objdump -t / nm detection) over arbitrary bytes,
 * then lookups of every loaded address. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/atoms.h"
#include "fuzz_mem.h"
#include "source/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ssp_atoms *atoms;
	struct ssp_symtab *st;
	struct ssp_in *in = fuzz_in(data, size, SSP_IN_ZSTD_AUTO);
	struct ssp_err e;
	size_t n = 0;

	if (ssp_atoms_new(&atoms, NULL) != SSP_OK ||
	    ssp_symtab_new(&st, atoms, NULL) != SSP_OK)
		abort();
	if (ssp_symtab_load(st, in, "fuzz", 0x1000, &n, NULL, &e) == SSP_OK) {
		uint64_t pc;

		if (ssp_symtab_finish(st, NULL) != SSP_OK || ssp_symtab_count(st) != n)
			abort();
		/* every symbol's address finds a symbol with that address */
		for (pc = 0; pc < 64; pc++) {
			const struct ssp_sym *s = ssp_symtab_at(st, pc + 0x1000);

			if (s != NULL && (s->addr != pc + 0x1000 ||
			    ssp_atoms_str(atoms, s->name, NULL) == NULL ||
			    ssp_symtab_named(st, s->addr, s->name) == NULL))
				abort();
		}
	} else if (e.msg[0] == '\0') {
		abort();	/* errors always say why */
	}
	ssp_in_close(in);
	ssp_symtab_free(st);
	ssp_atoms_free(atoms);
	return 0;
}
