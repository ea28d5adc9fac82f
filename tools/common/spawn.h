/*
 * Run another program as a child process, from an argv (never through a
 * shell: no word of a simulator's name or path is interpreted), with its
 * standard output and error sent to files or inherited, and wait for it.
 */
#ifndef SSP_TOOLS_SPAWN_H
#define SSP_TOOLS_SPAWN_H

#include <sys/types.h>

/*
 * Start argv: argv[0] as given when it contains a '/', else from the
 * running binary's directory when it is there (a tool runs its siblings
 * of the same build), else from PATH.  dir: the child's working
 * directory (NULL: this one).  out / err: files to write there (created
 * or truncated), NULL: inherited; err may equal out.  Returns the
 * child's pid, or -1 with errno set when it could not be started.
 */
pid_t ssp_spawn_start(char *const argv[], const char *dir, const char *out,
    const char *err);
/* Wait for a child of ssp_spawn_start (pid), or for any (-1, *pidp set):
 * its exit status (0-255; 128 + N when killed by signal N), or -1 with
 * errno set. */
int ssp_spawn_wait(pid_t pid, pid_t *pidp);
/* ssp_spawn_start, then ssp_spawn_wait. */
int ssp_spawn_run(char *const argv[], const char *dir, const char *out,
    const char *err);

#endif
