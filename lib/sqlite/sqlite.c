#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "sqlite/append.h"
#include "sqlite/dberr.h"
#include "sqlite/schema.h"
#include "sqlite/sqlite.h"

struct ssp_sqlite {
	char *name;		/* the database as the user named it */
	char *path;		/* the database (symbolic links resolved) */
	int is_new;		/* no database to append to */
	int keep_mode;		/* a new database replaces an empty file */
	mode_t mode;		/* ... whose mode it gets */
	int dirfd;		/* a new database's directory, locked */
	char *work;		/* what the load wrote */
	int workfd;		/* ... flocked until closed: not stale */
	const struct ssp_load_opts *o;
	struct ssp_load_stats *st;
	int loaded;
};

static enum ssp_status
sys_fail(struct ssp_err *e, const char *what, const char *path)
{
	return ssp_err_set(e, SSP_ERR_IO, 0, "%s%s%s: %s", what, *what ? " " :
	    "", path, strerror(errno));
}

static enum ssp_status
nomem(struct ssp_err *e)
{
	return ssp_err_set(e, SSP_ERR_NOMEM, 0, "out of memory");
}

/*
 * What an existing, non-empty regular file is: a simspan database to
 * append to (*is_new 0), an SQLite database without objects (1), or
 * refused.  SQLite reads it (waiting for a writer's lock; a hot journal
 * of a writer that died is rolled back, as any SQLite reader does).
 */
static enum ssp_status
probe(struct ssp_sqlite *d, int *is_new, struct ssp_err *e)
{
	unsigned char hdr[20];
	sqlite3 *db = NULL;
	enum ssp_status r;
	int version, fd;
	ssize_t n;

	if (sqlite3_open_v2(d->path, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		r = ssp_dberr_set(e, db, d->name);
		goto out;
	}
	sqlite3_busy_timeout(db, SSP_APPEND_BUSY_MS);
	if ((r = ssp_dberr_exec(db, "BEGIN", d->name, e)) != SSP_OK ||
	    (r = ssp_schema_check(db, d->name, &version, e)) != SSP_OK)
		goto out;
	*is_new = version == 0;
	/*
	 * An empty database is replaced by a new one: not in WAL mode, whose
	 * -wal file would be replayed onto the new file.
	 */
	if (*is_new && (fd = open(d->path, O_RDONLY | O_CLOEXEC |
	    O_NONBLOCK)) >= 0) {
		n = pread(fd, hdr, sizeof(hdr), 0);
		close(fd);
		if (n == (ssize_t)sizeof(hdr) && hdr[18] == 2)
			r = ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: an empty database "
			    "in WAL mode; run sqlite3 %s 'PRAGMA journal_mode = "
			    "DELETE' first, or remove it", d->name, d->name);
	}
out:
	sqlite3_close(db);	/* ends the read transaction */
	return r;
}

/* Lock the directory of d->path: loads into a new database there take
 * turns. */
static enum ssp_status
lock_dir(struct ssp_sqlite *d, struct ssp_err *e)
{
	char *slash = strrchr(d->path, '/');

	if (slash != NULL) {
		*slash = '\0';
		d->dirfd = open(slash == d->path ? "/" : d->path,
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		*slash = '/';
	} else {
		d->dirfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (d->dirfd < 0)
		return sys_fail(e, "directory of", d->name);
	while (flock(d->dirfd, LOCK_EX) != 0)
		if (errno != EINTR)
			return sys_fail(e, "cannot lock the directory of", d->name);
	return SSP_OK;
}

/*
 * Remove the files "NAME.tmpXXXXXX" that earlier loads into the database
 * left (kill -9, power loss): a load holds an exclusive flock on its own
 * from before its first write until it is renamed or removed, so a
 * non-empty one that can be locked has no owner left (an empty one may be
 * one that is just being made: left alone).  Best effort.
 */
static void
remove_stale(const struct ssp_sqlite *d)
{
	const char *slash = strrchr(d->path, '/');
	const char *base = slash != NULL ? slash + 1 : d->path;
	size_t blen = strlen(base);
	struct dirent *de;
	struct stat st;
	char *dir;
	DIR *dp;
	int dfd, fd;

	if ((dir = strdup(d->path)) == NULL)
		return;
	if (slash != NULL)
		dir[slash - d->path] = '\0';
	dp = opendir(slash == NULL ? "." : slash == d->path ? "/" : dir);
	free(dir);
	if (dp == NULL)
		return;
	dfd = dirfd(dp);
	while ((de = readdir(dp)) != NULL) {
		if (strncmp(de->d_name, base, blen) != 0 ||
		    strncmp(de->d_name + blen, ".tmp", 4) != 0 ||
		    strlen(de->d_name + blen + 4) != 6)
			continue;
		fd = openat(dfd, de->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlinkat(dfd, de->d_name, 0);
		close(fd);
	}
	closedir(dp);
}

/* What the database file is now: new (absent, empty) or an append. */
static enum ssp_status
look(struct ssp_sqlite *d, unsigned flags, struct ssp_err *e)
{
	struct stat st;

	d->is_new = 1;
	d->keep_mode = 0;
	if (stat(d->path, &st) != 0) {
		if (errno == ENOENT)
			return SSP_OK;
		return sys_fail(e, "", d->name);
	}
	/* never opened: a FIFO would block the open, a device is no file */
	if (!S_ISREG(st.st_mode))
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: not a regular file "
		    "(a database is one)", d->name);
	/* writing it would defeat the protection, as cp(1) refuses to */
	if (!(flags & SSP_SQLITE_FORCE) && ((st.st_mode & 0222) == 0 ||
	    access(d->path, W_OK) != 0))
		return ssp_err_set(e, SSP_ERR_IO, 0, "%s: the database is "
		    "write-protected (mode %03o); not writing it without --force",
		    d->name, (unsigned)(st.st_mode & 0777));
	d->keep_mode = 1;
	d->mode = st.st_mode & 07777;
	return st.st_size > 0 ? probe(d, &d->is_new, e) : SSP_OK;
}

enum ssp_status
ssp_sqlite_open(struct ssp_sqlite **dp, const char *db, unsigned flags,
    struct ssp_err *e)
{
	struct ssp_sqlite *d;
	struct stat st;
	enum ssp_status r;

	SSP_ASSERT(dp != NULL);
	*dp = NULL;
	if (db == NULL || *db == '\0')
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "empty database name");
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return nomem(e);
	d->dirfd = d->workfd = -1;
	if ((d->name = strdup(db)) == NULL) {
		r = nomem(e);
		goto fail;
	}
	/* The file a symbolic link points to is the database. */
	if (lstat(db, &st) == 0 && S_ISLNK(st.st_mode)) {
		if ((d->path = realpath(db, NULL)) == NULL) {
			r = sys_fail(e, "", db);
			goto fail;
		}
	} else if ((d->path = strdup(db)) == NULL) {
		r = nomem(e);
		goto fail;
	}
	if ((r = look(d, flags, e)) != SSP_OK)
		goto fail;
	if (d->is_new) {
		/* under the lock: another load may have made it meanwhile */
		if ((r = lock_dir(d, e)) != SSP_OK || (r = look(d, flags, e)) !=
		    SSP_OK)
			goto fail;
		if (!d->is_new) {
			close(d->dirfd);
			d->dirfd = -1;
		}
	}
	remove_stale(d);
	*dp = d;
	return SSP_OK;
fail:
	ssp_sqlite_close(d);
	return r;
}

int
ssp_sqlite_is_new(const struct ssp_sqlite *d)
{
	SSP_ASSERT(d != NULL);
	return d->is_new;
}

const char *
ssp_sqlite_target(const struct ssp_sqlite *d)
{
	SSP_ASSERT(d != NULL);
	return d->path;
}

/* CREATE INDEX sorts with helper threads, one per further core (SQLite
 * caps them; its default is none). */
static enum ssp_status
sorter_threads(sqlite3 *db, const char *name, struct ssp_err *e)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	char sql[40];

	snprintf(sql, sizeof(sql), "PRAGMA threads = %ld", n > 1 ? n - 1 : 0);
	return ssp_dberr_exec(db, sql, name, e);
}

/* The rows counted of table name, or -1. */
static int64_t
counted(const struct ssp_load_count *c, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(c[i].table, name) == 0)
			return c[i].rows;
	return -1;
}

/*
 * The statistics of a new database written directly: what
 * ssp_schema_analyze gives, without reading every page of the attribute
 * tables.  A table without an index gets from ANALYZE its count of rows
 * (none when empty), found by reading all its pages; the load counted
 * those it wrote, so their sqlite_stat1 rows are written from that.
 * Every other table is analyzed as before (its indexes sampled), one by
 * one.
 */
static enum ssp_status
analyze_new(sqlite3 *db, const char *name, const struct ssp_load_count *c,
    size_t nc, struct ssp_err *e)
{
	sqlite3_stmt *s = NULL, *ins = NULL;
	struct tname {
		char *name;
		int indexed;
	} *tn = NULL;
	size_t n = 0, cap = 0, i;
	enum ssp_status r;
	int rc;

	/* ANALYZE sqlite_schema creates sqlite_stat1, analyzes nothing */
	if ((r = ssp_dberr_exec(db, SSP_SCHEMA_ANALYSIS_PRAGMA "; ANALYZE "
	    "sqlite_schema", name, e)) != SSP_OK)
		return r;
	if (sqlite3_prepare_v2(db, "SELECT name, EXISTS (SELECT 1 FROM "
	    "sqlite_schema AS i WHERE i.type = 'index' AND i.tbl_name = t.name) "
	    "FROM sqlite_schema AS t WHERE type = 'table' AND name NOT LIKE "
	    "'sqlite\\_%' ESCAPE '\\'", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO sqlite_stat1(tbl, idx, stat) "
	    "VALUES (?, NULL, ?)", -1, &ins, NULL) != SQLITE_OK) {
		r = ssp_dberr_set(e, db, name);
		goto out;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);

		if (n == cap) {
			struct tname *nt = realloc(tn, (cap = cap ? 2 * cap : 32) *
			    sizeof(*nt));

			if (nt == NULL)
				goto nomem;
			tn = nt;
		}
		if (t == NULL || (tn[n].name = strdup(t)) == NULL)
			goto nomem;
		tn[n++].indexed = sqlite3_column_int(s, 1);
	}
	if (rc != SQLITE_DONE) {
		r = ssp_dberr_set(e, db, name);
		goto out;
	}
	for (i = 0; i < n && r == SSP_OK; i++) {
		int64_t rows = tn[i].indexed ? -1 : counted(c, nc, tn[i].name);
		char stat[24], *sql;

		if (rows > 0) {
			snprintf(stat, sizeof(stat), "%" PRId64, rows);
			sqlite3_bind_text(ins, 1, tn[i].name, -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 2, stat, -1, SQLITE_STATIC);
			if (sqlite3_step(ins) != SQLITE_DONE)
				r = ssp_dberr_set(e, db, name);
			sqlite3_reset(ins);
		} else if (rows < 0) {
			if ((sql = sqlite3_mprintf("ANALYZE \"%w\"", tn[i].name)) ==
			    NULL)
				goto nomem;
			r = ssp_dberr_exec(db, sql, name, e);
			sqlite3_free(sql);
		}
	}
	goto out;
nomem:
	r = nomem(e);
out:
	sqlite3_finalize(s);
	sqlite3_finalize(ins);
	for (i = 0; i < n; i++)
		free(tn[i].name);
	free(tn);
	return r;
}

/*
 * The stream into the new database work.  Written directly, it starts
 * from the schema image and is complete when the load returns without a
 * connection (the writer wrote the statistics too); else SQLite finishes
 * it, in the load's transaction without journal or syncs (the file is put
 * in place, or merged, only when complete): the indexes of INSERTed rows,
 * the statistics.
 */
static enum ssp_status
load_new(struct ssp_sqlite *d, struct ssp_rec_rd *rr, struct ssp_err *e)
{
	struct ssp_load_count *counts = NULL;
	size_t ncounts = 0;
	sqlite3 *db = NULL;
	enum ssp_status r;

	if ((r = ssp_load_new(&db, d->work, d->name, rr, d->o, d->st, &counts,
	    &ncounts, e)) != SSP_OK || db == NULL)
		goto out;
	if (!d->st->direct && ((r = sorter_threads(db, d->name, e)) != SSP_OK ||
	    (r = ssp_schema_indexes(db, d->name, e)) != SSP_OK))
		goto out;
	if ((r = d->st->direct ? analyze_new(db, d->name, counts, ncounts, e) :
	    ssp_schema_analyze(db, d->name, e)) != SSP_OK ||
	    (r = ssp_dberr_exec(db, "COMMIT", d->name, e)) != SSP_OK)
		goto out;
	if (sqlite3_close(db) != SQLITE_OK) {
		r = ssp_dberr_set(e, db, d->name);
		db = NULL;	/* not reached: every statement is finalized */
		goto out;
	}
	db = NULL;
out:
	/* a new database in the place of an empty file keeps its mode */
	if (r == SSP_OK && d->is_new && d->keep_mode && chmod(d->work,
	    d->mode) != 0)
		r = sys_fail(e, "", d->name);
	sqlite3_close(db);
	free(counts);
	return r;
}

enum ssp_status
ssp_sqlite_load(struct ssp_sqlite *d, const char *work, struct ssp_rec_rd *rr,
    const struct ssp_load_opts *o, struct ssp_load_stats *st,
    struct ssp_err *e)
{
	struct stat sb;
	enum ssp_status r;
	int taken;

	SSP_ASSERT(d != NULL && work != NULL && rr != NULL && o != NULL &&
	    st != NULL && !d->loaded);
	memset(st, 0, sizeof(*st));
	d->o = o;
	d->st = st;
	d->loaded = 1;
	/* a file of our own, empty (never a FIFO given by mistake), locked
	 * before it is written: not taken for a stale one */
	if ((d->workfd = open(work, O_RDWR | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) < 0)
		return sys_fail(e, "cannot open the file next to", d->name);
	if (fstat(d->workfd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size != 0)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: the file to write "
		    "must be a new, empty regular file", d->name);
	if (flock(d->workfd, LOCK_EX | LOCK_NB) != 0)
		return sys_fail(e, "cannot lock the file next to", d->name);
	if ((d->work = strdup(work)) == NULL)
		return nomem(e);
	/* a name that is taken is refused before the stream is read */
	if (!d->is_new && o->run != NULL &&
	    (r = ssp_append_name_taken(d->path, d->name, o->run, &taken, e)) !=
	    SSP_OK)
		return r;
	if (!d->is_new && o->run != NULL && taken)
		return ssp_err_set(e, SSP_ERR_INVAL, 0, "%s: a run named '%s' "
		    "already exists", d->name, o->run);
	return load_new(d, rr, e);
}

enum ssp_status
ssp_sqlite_commit(struct ssp_sqlite *d, struct ssp_err *e)
{
	struct ssp_append_opts ao = { 0 };

	SSP_ASSERT(d != NULL && d->loaded && d->work != NULL);
	if (d->is_new)
		return SSP_OK;
	ao.run = d->o->run;
	return ssp_append_run(d->path, d->name, d->work, &ao, &d->st->run,
	    d->st->run_name, e);
}

void
ssp_sqlite_close(struct ssp_sqlite *d)
{
	if (d == NULL)
		return;
	if (d->workfd >= 0)
		close(d->workfd);	/* its lock: after the rename or removal */
	if (d->dirfd >= 0)
		close(d->dirfd);	/* releases the lock */
	free(d->work);
	free(d->path);
	free(d->name);
	free(d);
}
