#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "tools/common/cli.h"

#ifndef SSP_VERSION
#define SSP_VERSION "0.0.0"
#endif

void
ssp_cli_version(const char *prog, ...)
{
	const char *name;
	va_list ap;

	printf("%s %s (zstd %s", prog, SSP_VERSION, ZSTD_versionString());
	va_start(ap, prog);
	while ((name = va_arg(ap, const char *)) != NULL)
		printf(", %s %s", name, va_arg(ap, const char *));
	va_end(ap);
	printf(")\n");
}

int
ssp_cli_refuse_tty(int fd, int force, const char *prog)
{
	if (!force && isatty(fd)) {
		fprintf(stderr, "%s: refusing to write binary records to a "
		    "terminal (redirect, use -o FILE, or --force)\n", prog);
		return -1;
	}
	return 0;
}

int
ssp_cli_close_stdout(const char *prog)
{
	int bad = ferror(stdout);

	if (fclose(stdout) != 0 || bad) {
		fprintf(stderr, "%s: stdout: %s\n", prog,
		    errno ? strerror(errno) : "write error");
		return -1;
	}
	return 0;
}

int
ssp_cli_done(const char *prog, int code)
{
	if (code == SSP_EXIT_OK && ssp_cli_close_stdout(prog) != 0)
		return SSP_EXIT_FAIL;
	return code;
}

void
ssp_cli_catch_signals(const int *sigs, size_t n, void (*handler)(int))
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++) {
		if (sigs[i] != SIGTERM && sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int
ssp_cli_replaceable(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return errno == ENOENT;
	return S_ISREG(st.st_mode);
}

void
ssp_cli_deprecated(const char *prog, const char *old, const char *use)
{
	static const char *said[16];
	static size_t nsaid;
	size_t i;

	for (i = 0; i < nsaid; i++)
		if (strcmp(said[i], old) == 0)
			return;
	if (nsaid < sizeof(said) / sizeof(said[0]))
		said[nsaid++] = old;
	fprintf(stderr, "%s: warning: %s is deprecated, use %s (the old "
	    "spelling goes in 0.3)\n", prog, old, use);
}

void
ssp_cli_respell(int argc, char **argv, const char *opt,
    int (*is_new)(const char *next), char *repl, const char *prog)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], opt) != 0)
			continue;
		if (i + 1 < argc && is_new(argv[i + 1])) {
			i++;	/* the option's argument */
			continue;
		}
		ssp_cli_deprecated(prog, opt, repl);
		argv[i] = repl;
	}
}
