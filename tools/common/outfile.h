/*
 * Output files written whole or not at all: the tool writes a temporary
 * file next to the target, and a rename puts it in place once complete,
 * so a failure or a signal never leaves half a file where a good one was.
 * /dev/null, a FIFO or a terminal are written in place (renaming over
 * them would replace the device).  One output at a time per process.
 */
#ifndef SSP_TOOLS_OUTFILE_H
#define SSP_TOOLS_OUTFILE_H

#include <stddef.h>

/*
 * The path the tool must write: a new empty temporary file "PATH.tmpXXXXXX"
 * (mode 0666 less the umask, as open(2) gives) when path may be replaced,
 * else path itself.  Until commit or abort, SIGHUP, SIGINT, SIGPIPE,
 * SIGQUIT, SIGTERM and SIGXFSZ remove the temporary file and then kill
 * the process as they would have.  NULL with errno set on failure.
 */
const char *ssp_outfile_begin(const char *path);
/* fsync the temporary file and rename it over the target: 0, or -1 with
 * errno set and the temporary file removed.  A no-op for in-place output. */
int ssp_outfile_commit(void);
/* Remove the temporary file, if any (safe to call at any time). */
void ssp_outfile_abort(void);
/* begin, write n bytes of p, commit: 0, or -1 with errno set. */
int ssp_outfile_write(const char *path, const void *p, size_t n);

#endif
