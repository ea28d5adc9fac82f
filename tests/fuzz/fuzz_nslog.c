/* The ns-3 parser's NS_LOG dialect over arbitrary bytes: its state (device
 * table, device queues, the bridge's uid, a pending receive) carries from
 * line to line, so the corpus holds runs of real lines. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(SSP_SIM_NS3, data, size, NULL, 0);
	return 0;
}
