// SPDX-License-Identifier: GPL-2.0-only
/* src/lib/util.c: the safe open of files that must be regular (open_regular,
 * read_file_max: a FIFO, a device or a directory never blocks and is
 * refused, sizes bounded), the duration parser, output_closed. A FIFO that
 * blocked would hang the test: an alarm turns that into a failure. No
 * privileges needed. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oa.h"
#include "util.h"

static char dir[] = "/tmp/bpfperf-test-util-XXXXXX";

static void on_alarm(int sig)
{
	(void)sig;
	static const char m[] = "test_util: blocked on a FIFO for 10 s\n";
	if (write(2, m, sizeof(m) - 1) < 0)
		_exit(1);
	_exit(1);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	signal(SIGALRM, on_alarm);
	alarm(10);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	alarm(0);
	char *cmd = xasprintf("rm -rf '%s'", dir);
	int r = system(cmd);
	free(cmd);
	return r == 0 ? 0 : -1;
}

static char *path_in(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static char *write_file(const char *name, const char *content, size_t len)
{
	char *p = path_in(name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(content, 1, len, f), len);
	fclose(f);
	return p;
}

static void test_open_regular(void **state)
{
	(void)state;
	struct stat st;
	char *reg = write_file("reg", "hello\n", 6);
	int fd = open_regular(reg, 0, &st);
	assert_true(fd >= 0);
	assert_true(S_ISREG(st.st_mode));
	char buf[8];
	assert_int_equal(read_full(fd, buf, sizeof(buf)), 6);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);

	/* A FIFO with no writer: open() without O_NONBLOCK would block here. */
	char *fifo = path_in("fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(open_regular(fifo, 0, &st), -EINVAL);
	assert_true(S_ISFIFO(st.st_mode));
	assert_string_equal(file_type_name(st.st_mode), "a FIFO");

	assert_int_equal(open_regular(dir, 0, &st), -EINVAL);
	assert_string_equal(file_type_name(st.st_mode), "a directory");
	assert_int_equal(open_regular("/dev/null", 0, &st), -EINVAL);
	assert_string_equal(file_type_name(st.st_mode), "a character device");

	char *none = path_in("none");
	assert_int_equal(open_regular(none, 0, NULL), -ENOENT);
	/* size bound: 6 bytes fit in 6, not in 5 */
	fd = open_regular(reg, 6, NULL);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(open_regular(reg, 5, NULL), -EFBIG);
	assert_non_null(strstr(open_regular_strerror(-EINVAL), "not a regular file"));
	assert_string_equal(open_regular_strerror(-EFBIG), "too large");
	assert_string_equal(open_regular_strerror(-ENOENT), strerror(ENOENT));
	free(reg);
	free(fifo);
	free(none);
}

static void test_read_file_max(void **state)
{
	(void)state;
	size_t len = 0;
	char *reg = write_file("data", "0123456789", 10);
	char *s = read_file_max(reg, 10, &len);
	assert_non_null(s);
	assert_int_equal(len, 10);
	assert_string_equal(s, "0123456789");
	free(s);
	errno = 0;
	assert_null(read_file_max(reg, 9, &len));
	assert_int_equal(errno, EFBIG);

	/* /proc files say size 0: the bound is on what is read. */
	s = read_file_max("/proc/self/status", 4096 * 16, &len);
	assert_non_null(s);
	assert_non_null(strstr(s, "Name:"));
	free(s);
	errno = 0;
	assert_null(read_file_max("/proc/self/status", 16, &len));
	assert_int_equal(errno, EFBIG);

	/* read_file (every /proc, /sys, tracefs and perf map read) refuses a
	 * FIFO instead of waiting for a writer. */
	char *fifo = path_in("perf-1.map");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	errno = 0;
	assert_null(read_file(fifo, &len));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(read_file("/dev/zero", &len));	/* endless: refused, not read */
	assert_int_equal(errno, EINVAL);
	free(reg);
	free(fifo);
}

static void test_parse_duration(void **state)
{
	(void)state;
	double v = -1;
	assert_true(parse_duration("5", 0, 1e7, false, &v));
	assert_true(v == 5);
	assert_true(parse_duration("0.5", 0, 1e7, false, &v));
	assert_true(v == 0.5);
	assert_true(parse_duration("1e7", 0, 1e7, false, &v));
	assert_true(v == 1e7);
	/* never a shorter (or longer) time than asked: out of range is refused */
	static const char *const bad[] = { "inf", "-inf", "infinity", "nan", "NaN", "1e11", "1e300",
					   "1e400", "-1", "-0.5", "0", "0.0", "", "abc", "5s", "1,5",
					   " ", "0x", NULL };
	for (int i = 0; bad[i]; i++) {
		v = 42;
		assert_false(parse_duration(bad[i], 0, 1e7, false, &v));
		assert_true(v == 42);	/* untouched */
	}
	assert_true(parse_duration("0", 0, 1e9, true, &v));
	assert_true(v == 0);
	assert_false(parse_duration("9", 10, 1e9, true, &v));
	assert_true(parse_duration("10", 10, 1e9, true, &v));
	assert_false(parse_duration(NULL, 0, 1, true, &v));
}

/* oa.h: every key inserted is found at its own index through any number of
 * growths, keys whose hashes are equal (all 64 bits, or the 32 folded bits
 * the slots keep) are told apart by the caller's comparison, a key not
 * inserted is not found, and the index stays at most half full. */
struct oa_kv {
	uint64_t key;
	uint64_t hash;
};

static int oa_same(const void *ctx, uint32_t i)
{
	const struct oa_kv *const *c = ctx;
	return c[0][i].key == c[1]->key;
}

static void test_oa(void **state)
{
	(void)state;
	enum { N = 5000 };
	struct oa_kv *v = calloc(N, sizeof(*v));
	struct oa_index ix = { 0 };	/* zeroed: an empty index */
	assert_non_null(v);
	for (uint32_t i = 0; i < N; i++) {
		v[i].key = (uint64_t)i * 7919 + 1;
		/* every 3rd key shares its whole hash with the one before it,
		 * every 5th shares the folded 32 bits only */
		v[i].hash = i % 3 == 2 ? v[i - 1].hash
			  : i % 5 == 4 ? hash_u64(i) ^ ((uint64_t)(uint32_t)hash_u64(i) << 32) ^ 0x12345678ull << 32
			  : hash_u64(v[i].key);
		struct oa_probe p;
		const struct oa_kv *ctx[2] = { v, &v[i] };
		assert_int_equal(oa_find(&ix, v[i].hash, oa_same, ctx, &p), OA_NONE);
		oa_insert(&ix, &p, i);
		assert_true(ix.n * 2 <= ix.mask + 1);
		assert_int_equal((ix.mask + 1) & ix.mask, 0);	/* a power of two */
	}
	assert_int_equal(ix.n, N);
	for (uint32_t i = 0; i < N; i++) {
		struct oa_probe p;
		const struct oa_kv *ctx[2] = { v, &v[i] };
		assert_int_equal(oa_find(&ix, v[i].hash, oa_same, ctx, &p), i);
	}
	/* not inserted: a new key with the hash of an inserted one */
	struct oa_kv absent = { .key = 3, .hash = v[10].hash };
	const struct oa_kv *ctx[2] = { v, &absent };
	struct oa_probe p;
	assert_int_equal(oa_find(&ix, absent.hash, oa_same, ctx, &p), OA_NONE);
	oa_free(&ix);
	assert_null(ix.slots);
	/* presized: no growth until expect entries */
	oa_init(&ix, 100);
	size_t slots = ix.mask + 1;
	for (uint32_t i = 0; i < 100; i++) {
		const struct oa_kv *c2[2] = { v, &v[i] };
		assert_int_equal(oa_find(&ix, v[i].hash, oa_same, c2, &p), OA_NONE);
		oa_insert(&ix, &p, i);
	}
	assert_int_equal(ix.mask + 1, slots);
	oa_free(&ix);
	free(v);
}

/* oa_imap: every key added is found with its value, absent keys (negative,
 * 0, INT64 extremes, neighbours of present ones) are not, entries are in
 * order of insertion, findnew adds only what is absent, and zeroed memory is
 * an empty map. */
static void test_oa_imap(void **state)
{
	(void)state;
	enum { N = 3000 };
	struct oa_imap m = { 0 };
	static int vals[N];
	assert_null(oa_imap_get(&m, 0));
	assert_null(oa_imap_get(&m, -1));
	for (int i = 0; i < N; i++) {
		/* keys 2 apart, half of them negative, and the extremes */
		int64_t key = i == 0 ? INT64_MIN : i == 1 ? INT64_MAX : (int64_t)(i - N / 2) * 2;
		struct oa_probe p;
		assert_null(oa_imap_find(&m, key, &p));
		oa_imap_add(&m, &p, key, &vals[i]);
		assert_int_equal(m.n, (size_t)i + 1);
		assert_ptr_equal(oa_imap_get(&m, key), &vals[i]);
	}
	for (int i = 0; i < N; i++) {
		int64_t key = m.v[i].key;	/* order of insertion */
		assert_ptr_equal(m.v[i].val, &vals[i]);
		assert_ptr_equal(oa_imap_get(&m, key), &vals[i]);
		struct oa_probe p;
		struct oa_imap_entry *e = oa_imap_find(&m, key, &p);
		assert_non_null(e);
		assert_true(e == &m.v[i]);
		if (i > 1) {	/* odd keys: none added */
			assert_null(oa_imap_get(&m, key + 1));
			assert_null(oa_imap_get(&m, key - 1));
		}
	}
	assert_null(oa_imap_get(&m, INT64_MIN + 1));
	/* findnew: the value there, or a new zeroed one added */
	bool added;
	assert_ptr_equal(oa_imap_findnew(&m, 2, sizeof(int), &added), oa_imap_get(&m, 2));
	assert_false(added);
	int *nv = oa_imap_findnew(&m, 3, sizeof(int), &added);
	assert_true(added);
	assert_int_equal(*nv, 0);
	assert_int_equal(m.n, N + 1);
	assert_ptr_equal(oa_imap_get(&m, 3), nv);
	assert_ptr_equal(oa_imap_findnew(&m, 3, sizeof(int), &added), nv);
	assert_false(added);
	free(nv);
	oa_imap_free(&m);
	assert_int_equal(m.n, 0);
	assert_null(m.v);
	assert_null(oa_imap_get(&m, 2));
}

static void test_output_closed(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_false(output_closed(p[1]));
	close(p[0]);	/* the reader has gone: "| head -1" */
	assert_true(output_closed(p[1]));
	close(p[1]);
	char *reg = write_file("out", "", 0);
	int fd = open(reg, O_WRONLY);
	assert_true(fd >= 0);
	assert_false(output_closed(fd));
	close(fd);
	free(reg);
}

struct kv { int key, seq; };

static int cmp_kv(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

/* rock-paper-scissors: 0 < 1 < 2 < 0, no total order */
static int cmp_cycle(const void *a, const void *b)
{
	int x = ((const struct kv *)a)->key, y = ((const struct kv *)b)->key;
	if (x == y)
		return 0;
	return (y - x + 3) % 3 == 1 ? -1 : 1;
}

static void test_sort_stable(void **state)
{
	(void)state;
	enum { N = 1000 };
	struct kv *v = malloc(N * sizeof(*v));
	unsigned r = 12345;
	for (int n = 0; n <= N; n += n < 20 ? 1 : 97) {
		for (int i = 0; i < n; i++) {
			r = r * 1103515245u + 12345u;
			v[i] = (struct kv){ .key = (int)((r >> 16) % 17), .seq = i };
		}
		sort_stable(v, (size_t)n, sizeof(*v), cmp_kv);
		for (int i = 1; i < n; i++) {
			assert_true(v[i - 1].key <= v[i].key);
			if (v[i - 1].key == v[i].key)	/* stable: equal keys keep their order */
				assert_true(v[i - 1].seq < v[i].seq);
		}
	}
	/* a comparator with a cycle: no crash, every element once, and one
	 * result for one input */
	int seen[N];
	struct kv *w = malloc(N * sizeof(*w));
	for (int i = 0; i < N; i++)
		v[i] = (struct kv){ .key = (i * 7) % 3, .seq = i };
	memcpy(w, v, N * sizeof(*v));
	sort_stable(v, N, sizeof(*v), cmp_cycle);
	sort_stable(w, N, sizeof(*w), cmp_cycle);
	memset(seen, 0, sizeof(seen));
	for (int i = 0; i < N; i++) {
		assert_true(v[i].seq >= 0 && v[i].seq < N);
		seen[v[i].seq]++;
		assert_int_equal(v[i].seq, w[i].seq);
	}
	for (int i = 0; i < N; i++)
		assert_int_equal(seen[i], 1);
	free(v);
	free(w);
}

/* sort_stable_total and sort_stable give the same stable order for a total
 * order, on sorted runs (the record index's shape) and on random input, for
 * word-pair elements (the record index), pointers and other sizes. */
struct kw {
	uint64_t key, seq;
};

static int cmp_kw(const void *a, const void *b)
{
	const struct kw *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_kw_ptr(const void *a, const void *b)
{
	return cmp_kw(*(const struct kw *const *)a, *(const struct kw *const *)b);
}

static void test_sort_stable_total(void **state)
{
	(void)state;
	enum { N = 3000 };
	struct kw *v = malloc(N * sizeof(*v)), *w = malloc(N * sizeof(*w)), *u = malloc(N * sizeof(*u));
	struct kw **pv = malloc(N * sizeof(*pv));
	struct kv *kv = malloc(N * sizeof(*kv)), *kw2 = malloc(N * sizeof(*kw2));
	unsigned r = 777;
	for (int shape = 0; shape < 2; shape++)
		for (int n = 0; n <= N; n += n < 40 ? 1 : 331) {
			for (int i = 0; i < n; i++) {
				r = r * 1103515245u + 12345u;
				/* shape 0: runs of 50 ascending keys; 1: random */
				uint64_t key = shape ? (r >> 16) % 23 : (uint64_t)(i % 50) * 3 + (r >> 16) % 3;
				v[i] = (struct kw){ key, (uint64_t)i };
				kv[i] = (struct kv){ .key = (int)key, .seq = i };
			}
			memcpy(w, v, (size_t)n * sizeof(*v));
			memcpy(u, v, (size_t)n * sizeof(*v));
			memcpy(kw2, kv, (size_t)n * sizeof(*kv));
			for (int i = 0; i < n; i++)
				pv[i] = &u[i];
			sort_stable(w, (size_t)n, sizeof(*w), cmp_kw);
			sort_stable_total(pv, (size_t)n, sizeof(*pv), cmp_kw_ptr);
			sort_stable_total(v, (size_t)n, sizeof(*v), cmp_kw);
			sort_stable_total(kw2, (size_t)n, sizeof(*kw2), cmp_kv);
			for (int i = 0; i < n; i++) {
				assert_int_equal(v[i].seq, w[i].seq);	/* same as sort_stable */
				if (i) {
					assert_true(v[i - 1].key <= v[i].key);
					if (v[i - 1].key == v[i].key)
						assert_true(v[i - 1].seq < v[i].seq);
					assert_true(pv[i - 1]->key <= pv[i]->key);
					if (pv[i - 1]->key == pv[i]->key)
						assert_true(pv[i - 1]->seq < pv[i]->seq);
					assert_true(kw2[i - 1].key <= kw2[i].key);
					if (kw2[i - 1].key == kw2[i].key)
						assert_true(kw2[i - 1].seq < kw2[i].seq);
				}
			}
		}
	free(v);
	free(w);
	free(u);
	free(pv);
	free(kv);
	free(kw2);
}

/* sort_stable_r: elements are indices into a key table, the comparator's
 * context; checked against an insertion sort (stable by construction) with
 * the same comparator, for each element size sort_stable_r moves its own way
 * (4 bytes: memcpy, pointers' 8, pairs of words' 16), and against
 * sort_stable for a comparator that is no total order (the same merges). */
struct keytab {
	const int *key;
	int sign;		/* 1: ascending, -1: descending */
};

static int cmp_idx32(const void *a, const void *b, void *ctx)
{
	const struct keytab *t = ctx;
	int x = t->key[*(const uint32_t *)a], y = t->key[*(const uint32_t *)b];
	return t->sign * ((x > y) - (x < y));
}

static int cmp_idx64(const void *a, const void *b, void *ctx)
{
	const struct keytab *t = ctx;
	int x = t->key[*(const uint64_t *)a], y = t->key[*(const uint64_t *)b];
	return t->sign * ((x > y) - (x < y));
}

static int cmp_idx_pair(const void *a, const void *b, void *ctx)
{
	return cmp_idx64(a, b, ctx);	/* keyed by the pair's first word */
}

static void insertion_sort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
			     void *ctx)
{
	unsigned char *a = base, tmp[16];
	for (size_t i = 1; i < n; i++) {
		size_t j = i;
		memcpy(tmp, a + i * size, size);
		while (j > 0 && cmp(tmp, a + (j - 1) * size, ctx) < 0) {
			memcpy(a + j * size, a + (j - 1) * size, size);
			j--;
		}
		memcpy(a + j * size, tmp, size);
	}
}

static int cmp_cycle_r(const void *a, const void *b, void *ctx)
{
	const struct keytab *t = ctx;
	struct kv x = { .key = t->key[*(const uint64_t *)a] }, y = { .key = t->key[*(const uint64_t *)b] };
	return cmp_cycle(&x, &y);
}

static const int *cycle_keys;

static int cmp_cycle_idx(const void *a, const void *b)
{
	struct kv x = { .key = cycle_keys[*(const uint64_t *)a] }, y = { .key = cycle_keys[*(const uint64_t *)b] };
	return cmp_cycle(&x, &y);
}

static void test_sort_stable_r(void **state)
{
	(void)state;
	enum { N = 700 };
	int *key = malloc(N * sizeof(*key));
	uint32_t *a32 = malloc(N * sizeof(*a32)), *r32 = malloc(N * sizeof(*r32));
	uint64_t *a64 = malloc(N * sizeof(*a64)), *r64 = malloc(N * sizeof(*r64));
	uint64_t (*ap)[2] = malloc(N * sizeof(*ap)), (*rp)[2] = malloc(N * sizeof(*rp));
	unsigned r = 4242;
	for (int round = 0; round < 60; round++) {
		r = r * 1103515245u + 12345u;
		size_t n = round < 20 ? (size_t)round : (r >> 16) % N;
		unsigned range = round % 3 ? 1 + (r >> 8) % 9 : 1000;	/* many ties, or few */
		for (size_t i = 0; i < N; i++) {
			r = r * 1103515245u + 12345u;
			key[i] = (int)((r >> 16) % range);
		}
		for (int sign = -1; sign <= 1; sign += 2) {
			struct keytab t = { key, sign };
			for (size_t i = 0; i < n; i++) {
				/* a permutation of the table's indices */
				a32[i] = r32[i] = (uint32_t)((i * 389 + (size_t)round) % N);
				a64[i] = r64[i] = a32[i];
				ap[i][0] = rp[i][0] = a32[i];
				ap[i][1] = rp[i][1] = i;
			}
			sort_stable_r(a32, n, sizeof(*a32), cmp_idx32, &t);
			insertion_sort_r(r32, n, sizeof(*r32), cmp_idx32, &t);
			sort_stable_r(a64, n, sizeof(*a64), cmp_idx64, &t);
			insertion_sort_r(r64, n, sizeof(*r64), cmp_idx64, &t);
			sort_stable_r(ap, n, sizeof(*ap), cmp_idx_pair, &t);
			insertion_sort_r(rp, n, sizeof(*rp), cmp_idx_pair, &t);
			for (size_t i = 0; i < n; i++) {
				assert_int_equal(a32[i], r32[i]);
				assert_int_equal(a64[i], r64[i]);
				assert_int_equal(ap[i][0], rp[i][0]);
				assert_int_equal(ap[i][1], rp[i][1]);
				if (i)	/* the order the context asked for */
					assert_true(sign * (key[a64[i - 1]] - key[a64[i]]) <= 0);
			}
		}
	}
	/* no total order: the same merges as sort_stable */
	for (size_t i = 0; i < N; i++) {
		key[i] = (int)((i * 7) % 3);
		a64[i] = r64[i] = (N - 1 - i);
	}
	struct keytab t = { key, 1 };
	cycle_keys = key;
	sort_stable_r(a64, N, sizeof(*a64), cmp_cycle_r, &t);
	sort_stable(r64, N, sizeof(*r64), cmp_cycle_idx);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(a64[i], r64[i]);
	free(key);
	free(a32);
	free(r32);
	free(a64);
	free(r64);
	free(ap);
	free(rp);
}

int main(void)
{
	/* The pipe test writes nothing, but a failing check must not kill us. */
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_regular),
		cmocka_unit_test(test_read_file_max),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_output_closed),
		cmocka_unit_test(test_oa),
		cmocka_unit_test(test_oa_imap),
		cmocka_unit_test(test_sort_stable),
		cmocka_unit_test(test_sort_stable_total),
		cmocka_unit_test(test_sort_stable_r),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
