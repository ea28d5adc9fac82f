/* The corundum log parser over arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(SSP_SIM_CORUNDUM, data, size, NULL, 0);
	return 0;
}
