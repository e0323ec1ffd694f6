// SPDX-License-Identifier: GPL-2.0-only
/* The BPF side's shared headers in user space: counts.h (128-bit sum of
 * squares, add, merge, standard deviation), trace_data.h's trace_counts
 * (its names alias a struct counts), and log2_hist.h's bucketing. The same
 * inline functions run in the BPF programs. No privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counts.h"
#include "log2_hist.h"
#include "skel/skel.h"
#include "target_filter.h"
#include "trace_data.h"

typedef unsigned __int128 u128;

static u128 sumsq(const struct counts *c)
{
	return ((u128)c->sumsq_hi << 64) | c->sumsq_lo;
}

/* xorshift64: a reproducible stream spanning every magnitude. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s >> (*s & 63);
}

static void test_square128(void **state)
{
	(void)state;
	const uint64_t edge[] = { 0, 1, 2, 0xffffffffULL, 0x100000000ULL, 0x100000001ULL,
				  0xfffffffffULL, 1ULL << 63, ~0ULL, ~0ULL - 1 };
	uint64_t s = 88172645463325252ULL;

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]) + 100000; i++) {
		uint64_t v = i < sizeof(edge) / sizeof(edge[0]) ? edge[i] : rnd(&s);
		__u64 lo, hi;
		u128 want = (u128)v * v;

		counts_square128(v, &lo, &hi);
		assert_true(lo == (uint64_t)want);
		assert_true(hi == (uint64_t)(want >> 64));
	}
}

static void test_add128_carry(void **state)
{
	(void)state;
	__u64 lo = ~0ULL, hi = 5;

	counts_add128(&lo, &hi, 1, 0);
	assert_true(lo == 0 && hi == 6);
	counts_add128(&lo, &hi, ~0ULL, ~0ULL - 7);
	assert_true(lo == ~0ULL && hi == ~0ULL - 1);
}

static void test_add_and_merge(void **state)
{
	(void)state;
	struct counts all = COUNTS_EMPTY, a = COUNTS_EMPTY, b = COUNTS_EMPTY, m = COUNTS_EMPTY;
	struct counts empty = COUNTS_EMPTY;
	uint64_t s = 0x9e3779b97f4a7c15ULL, sum = 0, mn = ~0ULL, mx = 0;
	u128 sq = 0;

	for (int i = 0; i < 5000; i++) {
		uint64_t v = rnd(&s) >> 8;	/* sums stay below 2^64 */

		counts_add(&all, v);
		counts_add(i % 3 ? &a : &b, v);
		sum += v;
		sq += (u128)v * v;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
	}
	assert_true(all.count == 5000 && all.sum == sum && all.min == mn && all.max == mx);
	assert_true(sumsq(&all) == sq);
	assert_true(sq >> 64);			/* the high half is exercised */

	counts_merge(&m, &a);
	counts_merge(&m, &empty);		/* merging an empty one changes nothing */
	counts_merge(&m, &b);
	assert_memory_equal(&m, &all, sizeof(m));
}

static void test_stddev(void **state)
{
	(void)state;
	struct counts c = COUNTS_EMPTY;
	const uint64_t v[] = { 1000, 2000, 3000, 4000, 10000 };
	double mean = 4000, var = 0;

	assert_true(counts_stddev(&c) == 0 && counts_mean(&c) == 0);
	counts_add(&c, 7);
	assert_true(counts_stddev(&c) == 0);	/* one value: no spread */
	c = COUNTS_EMPTY;
	for (size_t i = 0; i < 5; i++) {
		counts_add(&c, v[i]);
		var += ((double)v[i] - mean) * ((double)v[i] - mean);
	}
	assert_true(counts_mean(&c) == mean);
	assert_true(fabs(counts_stddev(&c) - sqrt(var / 4)) < 1e-9);

	/* Large equal values: the 128-bit sum keeps the spread exactly 0. */
	c = COUNTS_EMPTY;
	for (int i = 0; i < 4; i++)
		counts_add(&c, 5000000000ULL);
	assert_true(counts_stddev(&c) == 0);
}

/* trace_data.h: trace's names are the fields of a struct counts. */
static void test_trace_counts(void **state)
{
	(void)state;
	struct trace_counts t = TRACE_COUNTS_EMPTY, u = TRACE_COUNTS_EMPTY;

	assert_true(t.min_ns == ~0ULL && t.calls == 0 && t.errors == 0 && t.sumsq_hi == 0);
	trace_counts_add(&t, 10, 0);
	trace_counts_add(&t, 1ULL << 40, 1);
	assert_true(t.calls == 2 && t.errors == 1 && t.total_ns == 10 + (1ULL << 40));
	assert_true(t.min_ns == 10 && t.max_ns == 1ULL << 40);
	assert_true(t.sumsq_hi == 1ULL << 16 && t.sumsq_lo == 100);
	assert_true(t.dur.count == t.calls && t.dur.sum == t.total_ns);

	trace_counts_add(&u, 3, 1);
	trace_counts_merge(&u, &t);
	assert_true(u.calls == 3 && u.errors == 2 && u.min_ns == 3 && u.max_ns == 1ULL << 40);
	assert_true(sizeof(struct trace_counts) == 7 * sizeof(__u64));
}

static uint32_t log2_ref(uint64_t v)
{
	uint32_t r = 0;

	while (v > 1) {
		v >>= 1;
		r++;
	}
	return r;
}

static void test_log2(void **state)
{
	(void)state;
	uint64_t s = 0x2545f4914f6cdd1dULL;

	for (uint64_t v = 0; v < 70000; v++)
		assert_int_equal(log2_u64(v), log2_ref(v));
	for (uint32_t i = 0; i < 64; i++) {
		uint64_t p = 1ULL << i;

		assert_int_equal(log2_u64(p), i);
		assert_int_equal(log2_u64(p - 1), i ? i - 1 : 0);
		assert_int_equal(log2_u64(p | (p - 1)), i);
		/* Every value of a slot lies within its bounds. */
		assert_true(log2_slot_low(i) <= p && p <= log2_slot_high(i));
		assert_int_equal(log2_u64(log2_slot_low(i)), i);
		assert_int_equal(log2_u64(log2_slot_high(i)), i);
	}
	for (int i = 0; i < 100000; i++) {
		uint64_t v = rnd(&s);

		assert_int_equal(log2_u64(v), log2_ref(v));
	}
	assert_true(log2_slot_low(0) == 0 && log2_slot_high(0) == 1);
	assert_true(log2_slot_high(LOG2_SLOTS - 1) == ~0ULL);
	assert_int_equal(log2_slot(~0ULL, 32), 31);	/* clamped to the last slot */
	assert_int_equal(log2_slot(5, 32), 2);
	assert_int_equal(log2_slot(5, 1), 0);
}

static void test_target_cfg_layout(void **state)
{
	(void)state;
	/* Set through the skeleton's rodata: a fixed 8-byte layout. */
	assert_int_equal(sizeof(struct target_cfg), 8);
	assert_int_equal(offsetof(struct target_cfg, by_cgroup), 7);
}

/* target_cfg_set: system wide overrides the tgid and tid maps, not the
 * cgroup; bpfperf itself is never a target. */
static void test_target_cfg_set(void **state)
{
	(void)state;
	struct target_cfg c;
	memset(&c, 0xff, sizeof(c));
	target_cfg_set(&c, true, true, true, false);
	assert_int_equal(c.self_tgid, (uint32_t)getpid());
	assert_true(c.all == 1 && c.by_tgid == 0 && c.by_tid == 0 && c.by_cgroup == 0);
	target_cfg_set(&c, false, true, false, true);
	assert_true(c.all == 0 && c.by_tgid == 1 && c.by_tid == 0 && c.by_cgroup == 1);
	target_cfg_set(&c, false, false, true, false);
	assert_true(c.all == 0 && c.by_tgid == 0 && c.by_tid == 1 && c.by_cgroup == 0);
	target_cfg_set(&c, true, false, false, true);
	assert_true(c.all == 1 && c.by_cgroup == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_square128),
		cmocka_unit_test(test_add128_carry),
		cmocka_unit_test(test_add_and_merge),
		cmocka_unit_test(test_stddev),
		cmocka_unit_test(test_trace_counts),
		cmocka_unit_test(test_log2),
		cmocka_unit_test(test_target_cfg_layout),
		cmocka_unit_test(test_target_cfg_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
