// SPDX-License-Identifier: GPL-2.0-only
/* perf.data reader: the standard input as a file to read (pd_stdin_file),
 * a pipe copied to an unlinked temporary file. */
#include "perfdata/reader.h"
#include "perfdata/reader_int.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Copy fd (a pipe) to an unlinked temporary file: reports read a file
 * several times and in time order, a stream only once. */
static int spool(int in, const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		char *tmpl = xasprintf("%s/bpfperf-stdin-XXXXXX", dir);
		fd = mkostemp(tmpl, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmpl);
		free(tmpl);
	}
	if (fd < 0) {
		pr_err("cannot create a temporary file in %s to hold the standard input: "
		       "%s; set TMPDIR to a writable directory", dir, strerror(errno));
		return -EIO;
	}
	static char buf[1 << 16];
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pr_err("cannot read the standard input: %s", strerror(errno));
			close(fd);
			return -EIO;
		}
		if (n == 0)
			break;
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(fd, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				pr_err("cannot copy the standard input to a temporary file "
				       "in %s: %s; set TMPDIR to a directory with more room", dir,
				       strerror(errno));
				close(fd);
				return -EIO;
			}
			done += w;
		}
	}
	return fd;
}

int pd_stdin_file(void)
{
	struct stat st;
	if (fstat(STDIN_FILENO, &st) < 0) {
		pr_err("cannot read the standard input: %s", strerror(errno));
		return -EBADF;
	}
	if (S_ISREG(st.st_mode)) {	/* a redirection: read it in place */
		int fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
		if (fd < 0) {
			int e = errno;
			pr_err("cannot read the standard input: %s", strerror(e));
			return -e;
		}
		return fd;
	}
	if (isatty(STDIN_FILENO)) {
		pr_err("the standard input is a terminal: pipe perf.data into it%s",
		       log_hint(LOG_HINT_INPUT_TERMINAL));
		return -EINVAL;
	}
	const char *dir = getenv("TMPDIR");
	return spool(STDIN_FILENO, dir && *dir ? dir : "/tmp");
}
