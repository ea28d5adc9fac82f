/*
 * nocfr.so: an LD_PRELOAD library that makes copy_file_range(2) fail, so
 * the shell tests reach the read/write copy a tool falls back to where the
 * kernel or the file system cannot copy (span2sqlite's append).
 *
 *   SSP_NOCFR_ERRNO  the error to fail with: ENOSYS (default), EXDEV, EIO
 *   SSP_NOCFR_MARK   a file to create on the first call, so a test knows
 *                    the fake was reached and not bypassed
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

ssize_t
copy_file_range(int fd_in, off_t *off_in, int fd_out, off_t *off_out,
    size_t len, unsigned int flags)
{
	const char *mark = getenv("SSP_NOCFR_MARK");
	const char *name = getenv("SSP_NOCFR_ERRNO");
	int fd;

	(void)fd_in; (void)off_in; (void)fd_out; (void)off_out; (void)len;
	(void)flags;
	if (mark != NULL && (fd = open(mark, O_WRONLY | O_CREAT, 0644)) >= 0)
		close(fd);
	if (name != NULL && strcmp(name, "EXDEV") == 0)
		errno = EXDEV;
	else if (name != NULL && strcmp(name, "EIO") == 0)
		errno = EIO;
	else
		errno = ENOSYS;
	return -1;
}
