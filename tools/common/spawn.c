#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/common/datafile.h"
#include "tools/common/spawn.h"

extern char **environ;

/* argv[0] next to the running binary, if it is there (malloc'd), else
 * NULL: posix_spawnp searches PATH. */
static char *
sibling(const char *prog)
{
	char *dir, *p = NULL;

	if (strchr(prog, '/') != NULL || (dir = ssp_datafile_selfdir()) == NULL)
		return NULL;
	if (asprintf(&p, "%s/%s", dir, prog) < 0)
		p = NULL;
	free(dir);
	if (p != NULL && access(p, X_OK) != 0) {
		free(p);
		p = NULL;
	}
	return p;
}

pid_t
ssp_spawn_start(char *const argv[], const char *dir, const char *out,
    const char *err)
{
	posix_spawn_file_actions_t fa;
	char *path = sibling(argv[0]);
	pid_t pid;
	int rc;

	if ((rc = posix_spawn_file_actions_init(&fa)) != 0) {
		free(path);
		errno = rc;
		return -1;
	}
	rc = dir != NULL ? posix_spawn_file_actions_addchdir_np(&fa, dir) : 0;
	if (rc == 0 && out != NULL)
		rc = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out,
		    O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (rc == 0 && err != NULL && out != NULL && strcmp(err, out) == 0)
		rc = posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO,
		    STDERR_FILENO);
	else if (rc == 0 && err != NULL)
		rc = posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err,
		    O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (rc == 0)
		rc = path != NULL ? posix_spawn(&pid, path, &fa, NULL, argv, environ) :
		    posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(path);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	return pid;
}

int
ssp_spawn_wait(pid_t pid, pid_t *pidp)
{
	pid_t got;
	int st;

	while ((got = waitpid(pid, &st, 0)) < 0)
		if (errno != EINTR)
			return -1;
	if (pidp != NULL)
		*pidp = got;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int
ssp_spawn_run(char *const argv[], const char *dir, const char *out,
    const char *err)
{
	pid_t pid = ssp_spawn_start(argv, dir, out, err);

	return pid < 0 ? -1 : ssp_spawn_wait(pid, NULL);
}
