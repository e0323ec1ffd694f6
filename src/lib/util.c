// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"
#include "log.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <poll.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static void oom(size_t size)
{
	pr_err("cannot allocate %zu bytes: %s", size, log_limit_hint(-ENOMEM));
	exit(1);
}

/* Big arrays (hash tables, pools of millions of entries) would otherwise
 * take one page fault per 4 KiB as they fill: ask for transparent huge pages
 * on the 2 MiB-aligned part of them. Only advice: where THP is off (or the
 * memory is not from mmap) nothing changes. */
#define HUGE_MIN (8u << 20)
#define HUGE_ALIGN ((uintptr_t)2 << 20)
static void *advise_huge(void *p, size_t size)
{
	if (size >= HUGE_MIN) {
		uintptr_t s = ((uintptr_t)p + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
		uintptr_t e = ((uintptr_t)p + size) & ~(HUGE_ALIGN - 1);
		if (e > s)
			(void)madvise((void *)s, e - s, MADV_HUGEPAGE);
	}
	return p;
}

void mem_reserve_huge(size_t size)
{
	/* One arena for all threads, big blocks from the heap too, and a heap
	 * that never shrinks: then one early growth of the heap, advised for
	 * huge pages, serves the whole run with few page faults. The worker
	 * threads' mallocs are rare enough for one arena's lock. */
	if (size > (1u << 30))
		size = 1u << 30;
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, (int)size * 2);
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
	/* Grow the heap by size now (virtual memory only), advise it, free it:
	 * the heap keeps it for the allocations to come. */
	void *p = malloc(size);
	if (!p)
		return;
	uintptr_t s = ((uintptr_t)p + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
	uintptr_t e = ((uintptr_t)sbrk(0)) & ~(HUGE_ALIGN - 1);
	if (e > s)
		(void)madvise((void *)s, e - s, MADV_HUGEPAGE);
	free(p);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		oom(size);
	return advise_huge(p, size);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return advise_huge(p, n * size);
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		oom(size);
	return advise_huge(q, size);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		oom(strlen(s));
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		oom(n);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom(strlen(fmt));
	va_end(ap);
	return s;
}

void grow_array_raw(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	*arr = xrealloc(*arr, n * elem);
	*cap = n;
}

void grow_array(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)	/* the common case, without a call */
		return;
	size_t old = *cap;
	grow_array_raw(arr, cap, need, elem);
	if (*cap > old)
		memset((char *)*arr + old * elem, 0, (*cap - old) * elem);
}

void sb_append_len(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		size_t c = sb->cap ? sb->cap : 64;
		while (c < sb->len + n + 1)
			c *= 2;
		sb->buf = xrealloc(sb->buf, c);
		sb->cap = c;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_append(struct strbuf *sb, const char *s)
{
	sb_append_len(sb, s, strlen(s));
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char tmp[512];
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		sb_append_len(sb, tmp, (size_t)n);
		return;
	}
	char *big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb_append_len(sb, big, (size_t)n);
	free(big);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t n = 0;
	while (n < len) {
		ssize_t r = read(fd, (char *)buf + n, len - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

const char *file_type_name(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFSOCK: return "a socket";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFLNK: return "a symbolic link";
	default: return "not a regular file";
	}
}

const char *open_regular_strerror(int err)
{
	if (err == -EINVAL)
		return "not a regular file (a FIFO, device or directory)";
	if (err == -EFBIG)
		return "too large";
	return strerror(-err);
}

int open_regular(const char *path, uint64_t max_size, struct stat *st_out)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	if (st_out)
		*st_out = st;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (max_size && (uint64_t)st.st_size > max_size) {
		close(fd);
		return -EFBIG;
	}
	return fd;
}

char *read_file_max(const char *path, size_t max, size_t *len)
{
	int fd = open_regular(path, max, NULL);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		/* One byte more than max may be read: that is how "too big" is seen. */
		size_t want = cap - n - 1;
		if (max - n < want)
			want = max - n + 1;
		ssize_t r = read(fd, buf + n, want);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			close(fd);
			errno = EFBIG;
			return NULL;
		}
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *read_file(const char *path, size_t *len)
{
	return read_file_max(path, READ_FILE_MAX, len);
}

int parse_cpu_list(const char *s, bool *mask, int nr_cpus)
{
	const char *p = s;
	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		char *end;
		errno = 0;
		long a = strtol(p, &end, 10);
		if (end == p || errno || a < 0)
			return -EINVAL;
		long b = a;
		p = end;
		if (*p == '-') {
			p++;
			b = strtol(p, &end, 10);
			if (end == p || errno || b < a)
				return -EINVAL;
			p = end;
		}
		if (b >= nr_cpus)
			return -ERANGE;
		for (long i = a; i <= b; i++)
			mask[i] = true;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}

int cpu_count_possible(void)
{
	int n = libbpf_num_possible_cpus();
	return n > 0 ? n : 1;
}

bool *cpu_online_mask(void)
{
	int n = cpu_count_possible();
	bool *mask = xcalloc((size_t)n, sizeof(bool));
	char *s = read_file("/sys/devices/system/cpu/online", NULL);
	if (!s || parse_cpu_list(strtok(s, "\n"), mask, n) < 0) {
		for (int i = 0; i < n; i++)
			mask[i] = true;
	}
	free(s);
	return mask;
}

static int topology_id(const char *dir, int cpu, const char *name, int *id)
{
	char *path = xasprintf("%s/cpu%d/topology/%s", dir, cpu, name);
	char *s = read_file(path, NULL);
	int err = s ? 0 : -errno;
	free(path);
	if (s) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || v < -1 || v > INT_MAX)
			err = -EINVAL;
		else
			*id = (int)v;
	}
	free(s);
	return err;
}

int cpu_topology(const char *dir, int cpu, struct cpu_topo *t)
{
	int err;
	t->die = 0;
	if ((err = topology_id(dir, cpu, "physical_package_id", &t->socket)) < 0 ||
	    (err = topology_id(dir, cpu, "core_id", &t->core)) < 0)
		return err;
	err = topology_id(dir, cpu, "die_id", &t->die);
	return err == -ENOENT ? 0 : err;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 64;
	size_t prev[65], cur[65];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t c = prev[j - 1] + (a[i - 1] != b[j - 1]);
			if (prev[j] + 1 < c)
				c = prev[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			cur[j] = c;
		}
		memcpy(prev, cur, sizeof(size_t) * (lb + 1));
	}
	return prev[lb];
}

/* poll() reports POLLERR on the write end of a pipe whose read end is closed
 * (POLLHUP on a socket); a regular file or a terminal never does. */
bool output_closed(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

uint64_t mem_hash(const void *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= ((const unsigned char *)p)[i];
		h *= 1099511628211ull;
	}
	return h;
}

bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool parse_double(const char *s, double *out)
{
	char *end;
	if (!s || !*s)
		return false;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || v != v)
		return false;
	*out = v;
	return true;
}

bool parse_duration(const char *s, double min, double max, bool zero_ok, double *out)
{
	double v;
	if (!parse_double(s, &v) || !isfinite(v) || v < min || v > max || (!zero_ok && v <= 0))
		return false;
	*out = v;
	return true;
}

static int kmod_cmp(const void *a, const void *b)
{
	const struct kmod_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

size_t kmods_read(const char *path, struct kmod_range **out)
{
	*out = NULL;
	char *buf = path ? read_file(path, NULL) : NULL;
	if (!buf)
		return 0;
	size_t n = 0, cap = 0;
	char *save = NULL;
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct kmod_range m;
		unsigned long long size, addr;
		if (sscanf(l, "%255s %llu %*s %*s %*s %llx", m.name, &size, &addr) != 3 || !addr ||
		    addr + size < addr)
			continue;
		m.start = addr;
		m.end = addr + size;
		ARRAY_GROW(*out, cap, n + 1);
		(*out)[n++] = m;
	}
	free(buf);
	if (n)
		qsort(*out, n, sizeof(**out), kmod_cmp);
	return n;
}

/* modules.dep's file name base ("x-y.ko.xz") is module mod ("x_y")? */
static bool dep_is(const char *base, const char *mod)
{
	size_t n = strlen(mod), k;
	for (k = 0; k < n && base[k]; k++)
		if (!(base[k] == mod[k] || ((base[k] == '-' || base[k] == '_') && (mod[k] == '-' || mod[k] == '_'))))
			return false;
	return k == n && !strncmp(base + n, ".ko", 3);
}

void kmod_files(const struct kmod_range *mods, size_t n, char **files)
{
	struct utsname u;
	for (size_t i = 0; i < n; i++)
		files[i] = NULL;
	if (!n || uname(&u) != 0)
		return;
	char *dep = xasprintf("/lib/modules/%s/modules.dep", u.release);
	char *buf = read_file(dep, NULL);
	free(dep);
	if (!buf)
		return;
	char *save = NULL;	/* lines "kernel/fs/x.ko.xz: deps" */
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(l, ':');
		if (!colon)
			continue;
		*colon = '\0';
		const char *base = strrchr(l, '/');
		base = base ? base + 1 : l;
		for (size_t i = 0; i < n; i++)
			if (!files[i] && dep_is(base, mods[i].name))
				files[i] = xasprintf("/lib/modules/%s/%s", u.release, l);
	}
	free(buf);
}

/* sort_stable and sort_stable_r: one algorithm, defined by the macros below
 * for each way of calling the comparator, CALL(x, y) on two element
 * pointers with cmp and ctx in scope (sort_stable's comparator takes no
 * context: its ctx is unused, and no call goes through an adapter). Elements
 * of one word type are moved by assignment (no memcpy per move): pointers,
 * and pairs of words (a key and a pointer); other sizes by memcpy. The same
 * bottom-up schedule for all, so the same order for any comparator. */
struct word_pair {
	uint64_t w[2];
};
typedef void *word_ptr;
typedef int (*cmp_fn)(const void *, const void *);
typedef int (*cmp_r_fn)(const void *, const void *, void *);
#define CALL_CMP(x, y) cmp(x, y)
#define CALL_CMP_R(x, y) cmp(x, y, ctx)

/* Any element size: runs of w merged pairwise, bottom-up; the right run's
 * element first only when strictly before. */
#define DEFINE_SORT_STABLE_ANY(name, fn_t, CALL)						\
static void name(void *base, size_t n, size_t size, fn_t cmp, void *ctx)			\
{												\
	(void)ctx;										\
	unsigned char *a = base, *tmp = xmalloc(n * size), *src = a, *dst = tmp;		\
	for (size_t w = 1; w < n; w *= 2) {							\
		for (size_t lo = 0; lo < n; lo += 2 * w) {					\
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;	\
			size_t i = lo, j = mid, k = lo;						\
			while (i < mid && j < hi) {						\
				if (CALL(src + j * size, src + i * size) < 0)			\
					memcpy(dst + k++ * size, src + j++ * size, size);	\
				else								\
					memcpy(dst + k++ * size, src + i++ * size, size);	\
			}									\
			memcpy(dst + k * size, src + i * size, (mid - i) * size);		\
			k += mid - i;								\
			memcpy(dst + k * size, src + j * size, (hi - j) * size);		\
		}										\
		unsigned char *t = src; src = dst; dst = t;					\
	}											\
	if (src != a)										\
		memcpy(a, src, n * size);							\
	free(tmp);										\
}

/* The sort (name) and its merges (name_ptrs, name_pairs, name_any) for one
 * way of calling the comparator. */
#define DEFINE_SORT_STABLE(name, fn_t, CALL)							\
SORT_STABLE_DEFINE(name##_ptrs, word_ptr, fn_t, CALL)					\
SORT_STABLE_DEFINE(name##_pairs, struct word_pair, fn_t, CALL)				\
DEFINE_SORT_STABLE_ANY(name##_any, fn_t, CALL)							\
static inline void name(void *base, size_t n, size_t size, fn_t cmp, void *ctx)		\
{												\
	if (n < 2)										\
		return;										\
	if (size == sizeof(void *))	/* arrays of pointers: the same merges, words moved */	\
		name##_ptrs(base, n, cmp, ctx);							\
	else if (size == 2 * sizeof(uint64_t))	/* pairs of words (a key and a pointer) */	\
		name##_pairs(base, n, cmp, ctx);						\
	else											\
		name##_any(base, n, size, cmp, ctx);						\
}

DEFINE_SORT_STABLE(sort_plain, cmp_fn, CALL_CMP)
DEFINE_SORT_STABLE(sort_ctx, cmp_r_fn, CALL_CMP_R)
SORT_STABLE_TOTAL_DEFINE(sort_stable_ptrs_total, word_ptr, cmp)
SORT_STABLE_TOTAL_DEFINE(sort_stable_pairs_total, struct word_pair, cmp)

void sort_stable(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	sort_plain(base, n, size, cmp, NULL);
}

void sort_stable_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *ctx)
{
	sort_ctx(base, n, size, cmp, ctx);
}

void sort_stable_total(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n < 2)
		return;
	if (size == sizeof(void *))
		sort_stable_ptrs_total(base, n, cmp);
	else if (size == 2 * sizeof(uint64_t))
		sort_stable_pairs_total(base, n, cmp);
	else
		sort_plain_any(base, n, size, cmp, NULL);
}
