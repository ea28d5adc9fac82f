/*
 * Output files written whole or not at all: the tool writes a temporary
 * file next to the target, and a rename puts it in place once complete,
 * so a failure or a signal never leaves half a file where a good one was
 * (the old file stays byte for byte).  /dev/null, a FIFO, a terminal or
 * any other target that is not a regular file is written in place
 * (renaming over it would replace the device or cut off its reader).  A
 * symbolic link is followed: the file it names is replaced, the link stays.
 *
 * Several outputs may be pending at once (a tool that writes a directory
 * of files): each ssp_outfile_begin adds one, ssp_outfile_commit puts all
 * of them in place, ssp_outfile_abort removes all of them.  Until then,
 * SIGHUP, SIGINT, SIGPIPE, SIGQUIT, SIGTERM and SIGXFSZ remove every
 * pending temporary file and then kill the process as they would have
 * (a signal ignored at the start stays ignored, except SIGTERM), and so
 * does exit(3) (err(3) after a failure).  A tool that handles one of
 * those signals itself must write in place instead.
 */
#ifndef SSP_TOOLS_OUTFILE_H
#define SSP_TOOLS_OUTFILE_H

#include <stddef.h>

struct ssp_out;

/*
 * The path the tool must write for path: a new empty temporary file
 * "PATH.tmpXXXXXX" (mode 0666 less the umask, as open(2) gives) when path
 * may be replaced (ssp_cli_replaceable), else path itself.  The temporary
 * name does not end as path does: decide compression from path.  Valid
 * until commit or abort.  NULL with errno set on failure.
 */
const char *ssp_outfile_begin(const char *path);
/*
 * fsync every pending temporary file, then rename each over its target
 * (in the order they were begun): 0, or -1 with errno set and the
 * temporary files not yet renamed removed.  0 at once without pending
 * outputs (in-place output only).
 */
int ssp_outfile_commit(void);
/* Remove every pending temporary file (safe to call at any time). */
void ssp_outfile_abort(void);
/* begin, and write n bytes of p to it: 0, or -1 with errno set and this
 * output removed.  The next commit puts it in place with the others. */
int ssp_outfile_put(const char *path, const void *p, size_t n);
/* begin, write n bytes of p, and put this one output in place (not the
 * others pending): 0, or -1 with errno set. */
int ssp_outfile_write(const char *path, const void *p, size_t n);
/*
 * A tool's binary output stream (lib/io/out.h): path written whole
 * (begin; the tool commits or aborts), or in place with inplace (sim2ev
 * --follow: readers follow the file as it grows), or standard output for
 * NULL and "-"; compressed when path ends in .zst or with zstd (-z).  A
 * terminal is refused unless force (ssp_cli_refuse_tty).  Exits 1 with a
 * message when the output cannot be opened or is refused.
 */
struct ssp_out *ssp_outfile_stream(const char *path, int inplace, int zstd,
    int force, const char *prog);
/* Exit 1 ("PATH: the output is the input file") when path names the
 * file open as in_fd: a filter would destroy what it reads. */
void ssp_outfile_not_input(const char *path, int in_fd);

#endif
