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

/* Whole file into a NUL-terminated buffer; NULL and errno set on failure. */
char *read_file(const char *path, size_t *len);
/* read() until len bytes or the end of the file (EINTR retried): the count
 * read, or -1 with errno. */
ssize_t read_full(int fd, void *buf, size_t len);

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

uint64_t now_ns(void);		/* CLOCK_MONOTONIC */
uint64_t str_hash(const char *s);	/* FNV-1a */
uint64_t hash_u64(uint64_t x);

/* Parse a non-negative number with an optional unit; returns false if malformed. */
bool parse_u64(const char *s, uint64_t *out);
bool parse_double(const char *s, double *out);

#endif
