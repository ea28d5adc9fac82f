/* The gem5 log parser over arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* kernel functions and a user program's (as loaded at 0x555555554000:
 * user function entries after a user event on the same line) */
static const char syms[] =
    "ffffffff81600000 T entry_SYSCALL_64\n"
    "ffffffff814e6819 T mutex_unlock\n"
    "ffffffff814e6819 t mutex_unlock_alias\n"
    "0000555555555100 T main\n"
    "0000000000401000 T _start\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(SSP_SIM_GEM5, data, size, syms, size > 0 && (data[0] & 1));
	return 0;
}
