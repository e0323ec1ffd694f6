// SPDX-License-Identifier: GPL-2.0-only
/* Output files: temporary file + rename for regular files, in place for
 * devices and standard output; every write checked (see ofile.h). */
#include "out/ofile.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct ofile {
	char *path;		/* as given */
	char *tmp;		/* the temporary file, NULL when written in place */
	int fd;
	FILE *stream;
	bool is_stdout;		/* "-": the process's stdout stream */
	bool published;		/* tmp already renamed to path */
	int err;		/* the first write error (negative errno) */
};

/* Reported by ofile_close("-"): ofile_close_stdout does not say it again. */
static bool stdout_error_reported;

static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct ofile *of = cookie;
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(of->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!of->err)
				of->err = n < 0 ? -errno : -EIO;
			break;	/* a short count: stdio marks the stream in error */
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* DIR/.BASE.XXXXXX with six random characters. */
static char *temp_name(const char *path, unsigned attempt)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	uint64_t r = hash_u64(now_ns() ^ ((uint64_t)getpid() << 32) ^ ((uint64_t)attempt << 20) ^
			      (uint64_t)(uintptr_t)path);
	char rnd[7];
	for (int i = 0; i < 6; i++, r /= 62)
		rnd[i] = chars[r % 62];
	rnd[6] = '\0';
	return xasprintf("%.*s.%s.%s", dirlen, path, base, rnd);
}

static int create_temp(struct ofile *of, mode_t mode)
{
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		char *tmp = temp_name(of->path, attempt);
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0) {
			of->tmp = tmp;
			of->fd = fd;
			return 0;
		}
		int err = -errno;
		free(tmp);
		if (err != -EEXIST) {
			const char *limit = log_limit_hint(err);
			pr_err("cannot create %s: cannot create a file in its directory: %s; %s", of->path,
			       log_strerr(err), limit ? limit : "check that the directory exists and that "
			       "you may write to it");
			return err;
		}
	}
	pr_err("cannot create %s: no free temporary name in its directory after 100 tries; remove the "
	       ".NAME.XXXXXX files left there", of->path);
	return -EEXIST;
}

static int publish(struct ofile *of)
{
	if (rename(of->tmp, of->path) < 0) {
		int err = -errno;
		pr_err("cannot replace %s: %s; %s", of->path, log_strerr(err),
		       err == -EPERM || err == -EACCES
			       ? "a file another user owns in a shared directory cannot be replaced: remove it "
				 "or choose another name"
			       : "remove it or choose another name");
		return err;
	}
	free(of->tmp);
	of->tmp = NULL;
	of->published = true;
	return 0;
}

/* perf record's backup: a non-empty regular file becomes PATH.old. */
static int keep_old(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	char *old = xasprintf("%s.old", path);
	int err = 0;
	if (rename(path, old) < 0) {
		err = -errno;
		pr_err("cannot rename %s to %s: %s; remove or move them", path, old, log_strerr(err));
	}
	free(old);
	return err;
}

static bool same_file(const struct stat *a, int fd)
{
	struct stat b;
	return fstat(fd, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/* /dev/stdout and its aliases by name. */
static bool is_std_name(const char *path, int std)
{
	char a[32], b[32], c[32];
	snprintf(a, sizeof(a), "/dev/fd/%d", std);
	snprintf(b, sizeof(b), "/proc/self/fd/%d", std);
	snprintf(c, sizeof(c), "/dev/%s", std == STDOUT_FILENO ? "stdout" : "stderr");
	return !strcmp(path, a) || !strcmp(path, b) || !strcmp(path, c);
}

/* Where PATH is written in place: an existing device, FIFO or socket, or
 * one of our own standard streams (/dev/stdout): *fd, else -1 (a regular
 * file, a symlink to one, or nothing yet). Negative errno after a log. */
static int open_in_place(const char *path, int *fd)
{
	struct stat lst, st;
	*fd = -1;
	/* As bash does in redirections, also where /dev has no such links
	 * (a bare devtmpfs, as in the QEMU guests) */
	for (int std = STDOUT_FILENO; std <= STDERR_FILENO; std++)
		if (is_std_name(path, std)) {
			*fd = fcntl(std, F_DUPFD_CLOEXEC, 3);
			if (*fd < 0) {
				int err = -errno;
				pr_err("cannot write %s: %s", path, log_strerr(err));
				return err;
			}
			return 0;
		}
	if (lstat(path, &lst) < 0) {
		int err = -errno;
		if (err == -ENOENT)
			return 0;
		pr_err("cannot create %s: %s; check the path and the directories' permissions", path,
		       log_strerr(err));
		return err;
	}
	if (S_ISDIR(lst.st_mode)) {
		pr_err("cannot create %s: it is a directory; give a file name", path);
		return -EISDIR;
	}
	if (S_ISREG(lst.st_mode))
		return 0;
	if (S_ISLNK(lst.st_mode)) {
		if (stat(path, &st) < 0)
			return 0;	/* dangling: replaced, its target never created */
		if (S_ISDIR(st.st_mode)) {
			pr_err("cannot create %s: it is a symlink to a directory; give a file name", path);
			return -EISDIR;
		}
		if (S_ISREG(st.st_mode)) {
			for (int std = STDOUT_FILENO; std <= STDERR_FILENO; std++)
				if (same_file(&st, std)) {
					*fd = fcntl(std, F_DUPFD_CLOEXEC, 3);
					if (*fd < 0) {
						int err = -errno;
						pr_err("cannot write %s: %s", path, log_strerr(err));
						return err;
					}
					return 0;
				}
			return 0;	/* a symlink to a regular file: replaced, never followed */
		}
	}
	/* No O_CREAT: nothing is created through a symlink here. */
	int f = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (f < 0) {
		int err = -errno;
		pr_err("cannot open %s for writing: %s%s", path, log_strerr(err), log_limit_suffix(err));
		return err;
	}
	if (fstat(f, &st) < 0 || S_ISREG(st.st_mode)) {
		close(f);	/* replaced by a regular file meanwhile: the safe way */
		return 0;
	}
	*fd = f;
	return 0;
}

int ofile_open(const char *path, mode_t mode, unsigned flags, struct ofile **out)
{
	struct ofile *of = xcalloc(1, sizeof(*of));
	int err;
	of->path = xstrdup(path);
	of->fd = -1;
	if (!strcmp(path, "-")) {
		of->is_stdout = true;
		of->fd = STDOUT_FILENO;
		of->stream = stdout;
		*out = of;
		return 0;
	}
	if ((err = open_in_place(path, &of->fd)) < 0)
		goto fail;
	if (of->fd >= 0) {
		*out = of;
		return 0;
	}
	if ((err = create_temp(of, mode)) < 0)
		goto fail;
	if ((flags & OFILE_KEEP_OLD) && (err = keep_old(path)) < 0)
		goto fail;
	if ((flags & OFILE_PUBLISH_EARLY) && (err = publish(of)) < 0)
		goto fail;
	*out = of;
	return 0;
fail:
	ofile_abort(of);
	*out = NULL;
	return err;
}

FILE *ofile_stream(struct ofile *of)
{
	if (!of->stream) {
		cookie_io_functions_t io = { .write = cookie_write };
		of->stream = fopencookie(of, "w", io);
		if (!of->stream) {
			pr_err("out of memory");
			exit(1);
		}
	}
	return of->stream;
}

int ofile_fd(const struct ofile *of)
{
	return of->fd;
}

const char *ofile_name(const struct ofile *of)
{
	return of->path;
}

bool ofile_is_regular(const struct ofile *of)
{
	return of->tmp || of->published;
}

static const char *display_name(const struct ofile *of)
{
	return of->is_stdout ? "standard output" : of->path;
}

int ofile_close(struct ofile *of)
{
	if (!of)
		return 0;
	int err = 0;
	if (of->stream) {
		bool bad = ferror(of->stream);
		errno = 0;
		if (fflush(of->stream) != 0 || bad)
			err = of->err ? of->err : errno ? -errno : -EIO;
		if (!of->is_stdout)
			fclose(of->stream);	/* the cookie stream: the fd stays ours */
		of->stream = NULL;
	}
	if (!err && of->err)
		err = of->err;
	if (!of->is_stdout && of->fd >= 0) {
		if (close(of->fd) < 0 && !err)
			err = -errno;
		of->fd = -1;
	}
	if (err == -EPIPE && of->is_stdout) {
		/* The reader went away (trace -a | head): its choice, not a
		 * failure to report; the caller sees -EPIPE. */
		pr_debug("standard output: the reader of the pipe has gone");
		stdout_error_reported = true;
		ofile_abort(of);
		return err;
	}
	if (err) {
		pr_err("cannot write %s: %s; %s", display_name(of), log_strerr(err),
		       of->tmp ? "the file was left unchanged; free space or choose another file"
			       : "its contents are incomplete");
		if (of->is_stdout)
			stdout_error_reported = true;
		ofile_abort(of);
		return err;
	}
	if (of->tmp && (err = publish(of)) < 0) {
		ofile_abort(of);
		return err;
	}
	ofile_abort(of);	/* nothing left to undo: frees */
	return 0;
}

void ofile_abort(struct ofile *of)
{
	if (!of)
		return;
	if (of->stream && !of->is_stdout)
		fclose(of->stream);
	if (!of->is_stdout && of->fd >= 0)
		close(of->fd);
	if (of->tmp)
		unlink(of->tmp);
	free(of->tmp);
	free(of->path);
	free(of);
}

int ofile_close_stdout(void)
{
	bool bad = ferror(stdout);
	errno = 0;
	int err = 0;
	if (fflush(stdout) != 0 || bad)
		err = errno ? -errno : -EIO;
	if (fclose(stdout) != 0 && !err)
		err = errno ? -errno : -EIO;
	if (err == -EPIPE)
		return 0;	/* the reader went away: where SIGPIPE is ignored, a way to stop */
	if (err && !stdout_error_reported)
		pr_err("cannot write standard output: %s; the output is incomplete", log_strerr(err));
	return err;
}
