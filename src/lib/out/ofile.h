/* SPDX-License-Identifier: GPL-2.0-only */
/* Output files, written safely: every file the tool writes goes through here.
 *
 * A regular file is never opened at its final path. A temporary file is
 * created next to it (same directory, ".NAME.XXXXXX", O_CREAT | O_EXCL |
 * O_NOFOLLOW, so a symlink or a file someone else planted there is never
 * followed nor reused) and renamed over PATH when it is complete: readers
 * see the old file or the whole new one, and a symlink at PATH is replaced,
 * its target left alone. A failed write leaves PATH as it was.
 *
 * "-" is standard output. An existing character device, FIFO or socket
 * (/dev/null, /dev/full, a pipe behind /dev/stdout) is written in place,
 * without a temporary file: those have no contents to replace.
 *
 *   struct ofile *of;
 *   if (ofile_open(path, OFILE_SHARED, 0, &of) < 0) return -1;   (logged)
 *   fprintf(ofile_stream(of), ...);
 *   if (ofile_close(of) < 0) return -1;   (flush, close, rename; logged)
 */
#ifndef BPFPERF_OUT_OFILE_H
#define BPFPERF_OUT_OFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* Creation modes (the umask still applies). */
#define OFILE_PRIVATE 0600	/* recordings: perf.data holds memory contents, paths, symbols */
#define OFILE_SHARED 0644	/* what is meant to be read by others: reports, flame graphs, traces */

enum ofile_flags {
	/* An existing non-empty regular file at PATH is renamed to PATH.old
	 * first (perf record's behaviour). */
	OFILE_KEEP_OLD = 1 << 0,
	/* The temporary file is renamed into place at open, not at close: the
	 * file is at PATH while it is written (a recording stays readable after
	 * SIGKILL). Still created with O_EXCL | O_NOFOLLOW. */
	OFILE_PUBLISH_EARLY = 1 << 1,
};

struct ofile;

/* Open PATH for writing as above. Returns 0, or a negative errno after one
 * logged error naming PATH and the cause. */
int ofile_open(const char *path, mode_t mode, unsigned flags, struct ofile **out);
/* The file as a stdio stream (made at the first call; standard output for
 * "-"). Do not fclose it: ofile_close does. */
FILE *ofile_stream(struct ofile *of);
/* The file descriptor, for pwrite/writev users that take no stream. */
int ofile_fd(const struct ofile *of);
/* The name given to ofile_open ("-" for standard output). */
const char *ofile_name(const struct ofile *of);
/* True when PATH is a regular file written through a temporary one. */
bool ofile_is_regular(const struct ofile *of);
/* Flush and check every write, close, rename into place. Returns 0, or a
 * negative errno after one logged error naming the file and the errno (the
 * temporary file is removed, PATH left as it was). Frees of; NULL is 0. */
int ofile_close(struct ofile *of);
/* Give up: close without renaming and remove the temporary file (a file
 * published early stays). Frees of; NULL is a no-op. */
void ofile_abort(struct ofile *of);

/* At the end of a command: flush and close standard output, checking every
 * earlier write too. Returns 0, or -errno after a logged error. */
int ofile_close_stdout(void);

#endif
