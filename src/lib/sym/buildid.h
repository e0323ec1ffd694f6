/* SPDX-License-Identifier: GPL-2.0-only */
/* Build-ids and perf's build-id cache: the directory layout perf uses, so
 * that perf and bpfperf read each other's entries:
 *   <dir>/<path>/<build-id>/elf                  a copy of the file
 *   <dir>/[kernel.kallsyms]/<build-id>/kallsyms  a copy of /proc/kallsyms
 *   <dir>/.build-id/<xx>/<rest of the id>  ->  ../../<path>/<build-id>
 * <dir> is given, else $PERF_BUILDID_DIR, else $HOME/.debug.
 *
 * Growth is bounded: a file larger than max_file is not copied, and one
 * cache handle stops adding after max_total bytes (see the defaults below);
 * an entry already there is not copied again. A directory that cannot be
 * written (read-only home) is warned about once and the cache is then off. */
#ifndef BPFPERF_SYM_BUILDID_H
#define BPFPERF_SYM_BUILDID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BUILDID_MAX 20
#define BUILDID_CACHE_MAX_FILE (128ull << 20)	/* larger files are not copied */
#define BUILDID_CACHE_MAX_TOTAL (512ull << 20)	/* per recording */

/* The cache directory (malloc'd): given, else $PERF_BUILDID_DIR, else
 * $HOME/.debug; NULL when none can be named (no HOME). */
char *buildid_dir(const char *given);
/* The GNU build-id of an ELF file: its length, 0 if none or unreadable. */
size_t buildid_of_file(const char *path, uint8_t *id, size_t cap);
/* The GNU build-id in an ELF notes file (/sys/kernel/notes,
 * /sys/module/M/notes/.note.gnu.build-id): its length, 0 if none. */
size_t buildid_of_notes(const char *path, uint8_t *id, size_t cap);
/* Lowercase hex; out holds 2 * len + 1 bytes. */
void buildid_hex(const uint8_t *id, size_t len, char *out);

struct buildid_cache_limits {
	uint64_t max_file, max_total;	/* 0: the defaults above */
};

struct buildid_cache_stats {
	size_t added, present, skipped;	/* skipped: too large, over the total, unreadable */
	uint64_t bytes;			/* copied */
};

struct buildid_cache;
/* NULL (with a warning) when dir is NULL. Nothing is created until an add. */
struct buildid_cache *buildid_cache_open(const char *dir, const struct buildid_cache_limits *lim);
/* Save the file src (where it is readable now: the recorded path, or under
 * /proc/PID/root) as the entry of name (the path as recorded, or
 * "[kernel.kallsyms]") and build-id id, under the file name leaf ("elf",
 * "kallsyms"). replace: write it again even when the entry exists (kallsyms:
 * the addresses change at every boot). 0 when saved or already there, 1 when
 * skipped (limits, cache off), -errno when src cannot be read. */
int buildid_cache_add(struct buildid_cache *c, const char *name, const char *src,
		      const char *leaf, const uint8_t *id, size_t len, bool replace);
/* Whether dir holds a kallsyms copy of the running kernel at its current
 * addresses (same build-id and KASLR offset): no need to save it again. */
bool buildid_cache_kallsyms_current(const char *dir);
/* The path of an entry's file if it exists (malloc'd), else NULL. */
char *buildid_cache_lookup(const char *dir, const uint8_t *id, size_t len, const char *leaf);
void buildid_cache_close(struct buildid_cache *c, struct buildid_cache_stats *stats);

#endif
