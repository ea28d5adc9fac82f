/* The gem5 log parser over arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char syms[] =
    "ffffffff81600000 T entry_SYSCALL_64\n"
    "ffffffff814e6819 T mutex_unlock\n"
    "ffffffff814e6819 t mutex_unlock_alias\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(SSP_SIM_GEM5, data, size, syms, size > 0 && (data[0] & 1));
	return 0;
}
