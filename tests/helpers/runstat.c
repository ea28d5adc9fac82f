/*
 * runstat: run a command and write what it cost, for the benchmarks:
 *
 *   <wall s> <user s> <sys s> <peak RSS KiB>
 *
 * Wall time from CLOCK_MONOTONIC around fork and wait (nanosecond
 * resolution, not GNU time's 10 ms), CPU times and the peak RSS from
 * wait4's rusage of the command and everything it waited for (a shell
 * pipeline: the sum of its processes' CPU, the largest one's RSS).
 *
 * usage: runstat -o FILE COMMAND [ARG ...]
 * Exits with the command's status (128 + signal if it was killed).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

int
main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	const char *out = NULL;
	FILE *f;
	pid_t pid;
	int ch, status;

	while ((ch = getopt(argc, argv, "+o:")) != -1) {
		switch (ch) {
		case 'o': out = optarg; break;
		default: goto usage;
		}
	}
	argc -= optind;
	argv += optind;
	if (out == NULL || argc < 1)
		goto usage;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		execvp(argv[0], argv);
		warn("%s", argv[0]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) == -1)
		err(1, "wait4");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if ((f = fopen(out, "w")) == NULL)
		err(1, "%s", out);
	fprintf(f, "%.6f %.6f %.6f %ld\n", (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, tv(ru.ru_utime),
	    tv(ru.ru_stime), ru.ru_maxrss);
	if (fclose(f) != 0)
		err(1, "%s", out);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
usage:
	fprintf(stderr, "usage: runstat -o FILE COMMAND [ARG ...]\n");
	return 2;
}
