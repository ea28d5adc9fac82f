/* SimBricks run JSON (the 2022 out/<exp>-<run>.json; symphony's out.json
 * has fuzz_symphony): any bytes parse or fail cleanly with a message; a
 * parsed run plans or is refused cleanly, and a plan is consistent
 * (fuzz_sbplan.h), every captured output reading to its end. */
#include <stdint.h>
#include <string.h>

#include "fuzz_sbplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_run(data, size, "fuzz.json");
	return 0;
}
