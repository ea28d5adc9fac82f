/* Fuzz helper: present a byte buffer to the library as an ssp_in. */
#ifndef FUZZ_MEM_H
#define FUZZ_MEM_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/in.h"

static inline struct ssp_in *
fuzz_in(const uint8_t *data, size_t size, int flags)
{
	struct ssp_in *in;
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	if (size > 0 && write(fd, data, size) != (ssize_t)size)
		abort();
	lseek(fd, 0, SEEK_SET);
	if (ssp_in_fdopen(&in, fd, "fuzz", flags, NULL) != SSP_OK)
		abort();
	return in;
}

#endif
