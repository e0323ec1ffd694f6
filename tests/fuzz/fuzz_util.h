/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the fuzz targets whose parser reads a file: the bytes go
 * to a memfd (no file system is touched) named by a /proc/self/fd path; and
 * one input split into several parts at a separator. */
#ifndef BPFPERF_FUZZ_UTIL_H
#define BPFPERF_FUZZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct fuzz_file {
	int fd;
	char path[64];
};

/* A memfd holding data: its path is readable as a file by any open(). The
 * memfd is reused from call to call (truncated), so that a long fuzzing run
 * does not create millions of them. Returns false if it cannot be made. */
static inline bool fuzz_file_set(struct fuzz_file *f, const void *data, size_t size)
{
	if (f->fd <= 0) {
		f->fd = memfd_create("bpfperf-fuzz", MFD_CLOEXEC);
		if (f->fd < 0) {
			f->fd = 0;
			return false;
		}
		snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
	}
	if (ftruncate(f->fd, 0) < 0)
		return false;
	size_t done = 0;
	while (done < size) {
		ssize_t n = pwrite(f->fd, (const char *)data + done, size - done, (off_t)done);
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

/* The next part of [*pos, size) up to sep (not included); *pos moves past the
 * separator. The last part runs to the end. */
static inline const uint8_t *fuzz_part(const uint8_t *data, size_t size, size_t *pos,
				       const char *sep, size_t *len)
{
	size_t seplen = strlen(sep);
	const uint8_t *start = data + *pos;
	size_t left = size - *pos;
	const uint8_t *hit = left >= seplen ? memmem(start, left, sep, seplen) : NULL;
	if (!hit) {
		*len = left;
		*pos = size;
	} else {
		*len = (size_t)(hit - start);
		*pos += *len + seplen;
	}
	return start;
}

/* A NUL-terminated private copy of data[0..len) (ASan sees reads past it). */
static inline char *fuzz_cstr(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1);
	if (!s)
		abort();
	memcpy(s, data, len);
	s[len] = '\0';
	return s;
}

#endif
