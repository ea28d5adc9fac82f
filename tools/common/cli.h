/*
 * What every tool's main needs besides getopt and the library: exit codes,
 * the version line, the terminal check for binary output, signal catching,
 * and the final check that stdout was really written.  Compiled into the
 * tools only (build/libtoolcommon.a); the library never writes to a
 * terminal.
 */
#ifndef SSP_TOOLS_CLI_H
#define SSP_TOOLS_CLI_H

#include <stddef.h>

/* Exit codes of every tool (see the EXIT STATUS of each man page). */
#define SSP_EXIT_OK    0
#define SSP_EXIT_FAIL  1	/* runtime failure: i/o, corrupt input, ... */
#define SSP_EXIT_USAGE 2	/* bad usage or bad configuration file */

/*
 * "prog 0.1.0 (zstd 1.5.4, sqlite 3.40.1)" on stdout: zstd, which every
 * tool links, then the name and version pairs of the other libraries the
 * tool links, ended by NULL.  A tool names only what it links, so linking
 * this module pulls in no library.
 */
void ssp_cli_version(const char *prog, ...) __attribute__((sentinel));

/* Binary output to a terminal is refused unless forced (exit 1 message). */
int ssp_cli_refuse_tty(int fd, int force, const char *prog);

/*
 * Call handler on each of the n signals, without SA_RESTART (a blocking
 * read returns EINTR).  A signal other than SIGTERM that was ignored on
 * entry stays ignored: a script's background job or nohup decides itself
 * when to stop.  SIGTERM is always caught.
 */
void ssp_cli_catch_signals(const int *sigs, size_t n, void (*handler)(int));

/* Close stdout and report a failed write (jq's check): 0 or -1 (warned). */
int ssp_cli_close_stdout(const char *prog);

/*
 * The exit status after --help or --version (code 0) or a usage error:
 * code, or SSP_EXIT_FAIL when code is 0 and stdout could not be written
 * (> /dev/full, >&-), warned.
 */
int ssp_cli_done(const char *prog, int code);
/*
 * Whether output to path may go through a temporary file renamed over it
 * (nothing half-written): path does not exist or is a regular file.  Not
 * for /dev/null, a FIFO or a terminal, which must be written as they are.
 */
int ssp_cli_replaceable(const char *path);

/*
 * Options renamed in 0.2 so that a letter means one thing in every tool
 * (README, Changes): the old spelling works until 0.3 and prints
 * "prog: warning: OLD is deprecated, use NEW" once per run on stderr.
 */
void ssp_cli_deprecated(const char *prog, const char *old, const char *use);
/*
 * An old spelling that only the next argument tells from the new one
 * (evcat's -c was --csv and now takes a column list): each argv[i] equal
 * to opt whose next argument is missing or fails is_new becomes repl,
 * with the notice.  Call before getopt; stops at "--".
 */
void ssp_cli_respell(int argc, char **argv, const char *opt,
    int (*is_new)(const char *next), char *repl, const char *prog);

#endif
