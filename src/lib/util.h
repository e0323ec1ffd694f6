/* SPDX-License-Identifier: GPL-2.0-only */
/* Small helpers shared by the library and commands. */
#ifndef BPFPERF_UTIL_H
#define BPFPERF_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#ifndef ALIGN_UP
#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))
#endif

/* Allocation that reports "out of memory" and exits: callers need no checks. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* For a process about to allocate about size bytes in many blocks: keep them
 * in one heap advised for transparent huge pages (far fewer page faults).
 * Call early, before threads start; only advice where THP is off. */
void mem_reserve_huge(size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *arr (element size elem) so that it holds at least need elements. */
void grow_array(void **arr, size_t *cap, size_t need, size_t elem);
#define ARRAY_GROW(arr, cap, need) grow_array((void **)&(arr), &(cap), (need), sizeof(*(arr)))
/* ARRAY_GROW without zeroing the new elements: for arrays whose elements
 * are written whole before they are read (the pages are touched once, by
 * the writes, not first by a memset). */
void grow_array_raw(void **arr, size_t *cap, size_t need, size_t elem);
#define ARRAY_GROW_RAW(arr, cap, need) grow_array_raw((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* Growable string. */
struct strbuf {
	char *buf;
	size_t len, cap;
};
void sb_append(struct strbuf *sb, const char *s);
void sb_append_len(struct strbuf *sb, const char *s, size_t n);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_reset(struct strbuf *sb);
void sb_free(struct strbuf *sb);

/* Open a file that must be a regular file, to read it. With O_NONBLOCK, so
 * that a FIFO (or a device) put where a file was expected cannot block the
 * open, then fstat: anything but a regular file is refused. max_size (0: no
 * limit) bounds the size fstat gives. The fd (O_CLOEXEC, O_NONBLOCK, which
 * changes nothing for regular files), or a negative errno: the open's,
 * -EINVAL when it is not a regular file (st->st_mode, if st, says what it is:
 * see file_type_name), -EFBIG when it is larger than max_size. st may be NULL. */
struct stat;
int open_regular(const char *path, uint64_t max_size, struct stat *st);
/* The text for a negative errno from open_regular/read_file: "not a regular
 * file" for -EINVAL, "too large" for -EFBIG, else strerror's. */
const char *open_regular_strerror(int err);
/* "a FIFO", "a directory", "a socket", ... for a st_mode. */
const char *file_type_name(unsigned int mode);
/* Whole regular file into a NUL-terminated buffer, at most max bytes (also
 * for files whose size is unknown, as in /proc); NULL and errno set on
 * failure (EINVAL: not a regular file, EFBIG: more than max bytes). */
char *read_file_max(const char *path, size_t max, size_t *len);
/* read_file_max with READ_FILE_MAX. */
#define READ_FILE_MAX ((size_t)256 << 20)
char *read_file(const char *path, size_t *len);
/* A loaded kernel module, as /proc/modules lists it ("name size refcount
 * deps state 0xaddr [taints]"). */
struct kmod_range {
	char name[256];
	uint64_t start, end;
};
/* The modules of a /proc/modules-format file (NULL: none), sorted by
 * address; those whose address is hidden (0: kptr_restrict) or wraps are
 * left out. Their count; *out malloc'd, NULL when none. */
size_t kmods_read(const char *path, struct kmod_range **out);
/* Each module's file in the running kernel's modules.dep, read once for all
 * ("/lib/modules/REL/kernel/...ko[.xz]"; "-" and "_" match each other):
 * files[i] malloc'd, or NULL where there is none. */
void kmod_files(const struct kmod_range *mods, size_t n, char **files);
/* read() until len bytes or the end of the file (EINTR retried): the count
 * read, or -1 with errno. */
ssize_t read_full(int fd, void *buf, size_t len);
/* write() until all of buf is written (EINTR retried): 0 or -errno. */
int write_full(int fd, const void *buf, size_t len);

/* "0-3,5" -> mask[cpu] = true. Returns 0, or -EINVAL naming nothing (caller reports). */
int parse_cpu_list(const char *s, bool *mask, int nr_cpus);
/* Number of possible CPUs (the kernel's numbering), >= 1. */
int cpu_count_possible(void);
/* Online CPUs as a mask of cpu_count_possible() entries. */
bool *cpu_online_mask(void);
/* Where a CPU sits: perf's socket (physical_package_id), die and core ids. */
struct cpu_topo {
	int socket, die, core;
};
/* CPU cpu's ids from DIR/cpuN/topology (DIR: "/sys/devices/system/cpu"; a
 * kernel without die_id gives die 0). 0, or -errno naming nothing (caller
 * reports). */
int cpu_topology(const char *dir, int cpu, struct cpu_topo *t);

/* Levenshtein distance (capped at 64) for "did you mean" suggestions. */
size_t edit_distance(const char *a, const char *b);

/* Has the reader of this pipe or socket gone (closed its end)? Seen without
 * writing; false for regular files and terminals. */
bool output_closed(int fd);

/* Stable merge sort of n elements of `size` bytes. Unlike qsort, defined for
 * any comparator, even one that is not a total order (perf's children sort
 * compares depths only within one thread): it ends, stays in bounds and gives
 * one result for one input order. */
void sort_stable(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* sort_stable for a comparator that takes a context, as qsort_r's: cmp(a, b,
 * ctx). The same merges, so the same order. */
void sort_stable_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *ctx);
/* sort_stable for a comparator that is a total order (transitive): pairs of
 * runs already in order are not merged, so input made of sorted runs (the
 * records of perf.data's ring buffer chunks) costs one comparison a pair. */
void sort_stable_total(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* The merge of the sorted runs src[i, mid) and src[j, hi) into dst from
 * index k on (i, j and k advance), elements moved by assignment: the right
 * run's element first only when strictly before, CMP(right, left) < 0. */
#define SORT_MERGE_RUNS(dst, k, src, i, mid, j, hi, CMP)					\
	do {											\
		while (i < mid && j < hi)							\
			dst[k++] = CMP(&src[j], &src[i]) < 0 ? src[j++] : src[i++];		\
		while (i < mid)									\
			dst[k++] = src[i++];							\
		while (j < hi)									\
			dst[k++] = src[j++];							\
	} while (0)
/* sort_stable's algorithm (the same comparisons, in the same order, so the
 * same result for a comparator that is no total order) for one element
 * type: defines static void name(type *a, size_t n, fn_t cmp, void *ctx)
 * comparing by CALL(&x, &y), which may use cmp and ctx (util.c's sorts) or
 * be an inline comparator of two element pointers that ignores both. */
#define SORT_STABLE_DEFINE(name, type, fn_t, CALL)						\
static void name(type *a, size_t n, fn_t cmp, void *ctx)					\
{												\
	(void)cmp;										\
	(void)ctx;										\
	type *tmp = xmalloc((n ? n : 1) * sizeof(*tmp)), *src = a, *dst = tmp;			\
	for (size_t w = 1; w < n; w *= 2) {							\
		for (size_t lo = 0; lo < n; lo += 2 * w) {					\
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;	\
			size_t i = lo, j = mid, k = lo;						\
			SORT_MERGE_RUNS(dst, k, src, i, mid, j, hi, CALL);			\
		}										\
		type *t = src;									\
		src = dst;									\
		dst = t;									\
	}											\
	if (src != a)										\
		memcpy(a, src, n * sizeof(*a));							\
	free(tmp);										\
}
/* sort_stable_total's algorithm for one element type and one comparator,
 * CMP(a, b) on two element pointers, called inline (the record index sorts
 * millions); defines static void name(type *a, size_t n, cmp), where cmp is
 * the comparator for CMP to use if it names it (unused otherwise). */
#define SORT_STABLE_TOTAL_DEFINE(name, type, CMP)						\
static void name(type *a, size_t n, int (*cmp)(const void *, const void *))			\
{												\
	(void)cmp;										\
	type *tmp = xmalloc((n ? n : 1) * sizeof(*tmp));					\
	for (size_t w = 1; w < n; w *= 2) {							\
		for (size_t lo = 0; lo < n; lo += 2 * w) {					\
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;	\
			if (mid >= hi || CMP(&a[mid], &a[mid - 1]) >= 0)			\
				continue;	/* in order: no merge */			\
			size_t i = lo, j = mid, k = 0;						\
			SORT_MERGE_RUNS(tmp, k, a, i, mid, j, hi, CMP);				\
			memcpy(a + lo, tmp, k * sizeof(*a));					\
		}										\
	}											\
	free(tmp);										\
}
uint64_t now_ns(void);		/* CLOCK_MONOTONIC */
uint64_t str_hash(const char *s);	/* FNV-1a */
uint64_t mem_hash(const void *p, size_t n);	/* FNV-1a of n bytes */
/* A 64-bit mix (murmur3's finalizer); inline: the tables of the hot path
 * call it per lookup. */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* Parse a non-negative number with an optional unit; returns false if malformed. */
bool parse_u64(const char *s, uint64_t *out);
bool parse_double(const char *s, double *out);
/* A duration or interval in some unit (seconds, milliseconds): a finite
 * number, not NaN, within [min, max] (rejected, never clamped: "inf" or 1e11
 * must not become a shorter time), and above 0 when min is 0 and zero_ok is
 * false. Every duration option goes through this. */
bool parse_duration(const char *s, double min, double max, bool zero_ok, double *out);

#endif
