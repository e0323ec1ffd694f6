// SPDX-License-Identifier: GPL-2.0-only
/* record --off-cpu without the kernel: the callchain layout of an
 * offcpu-time sample (context markers, empty parts, truncation), the
 * state letters and the stack store's ids. No privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "perfdata/offcpu.h"
#include "record/off_cpu.h"
#include "off_cpu_data.h"
#include "stack_store.h"

static void test_callchain(void **state)
{
	(void)state;
	const uint64_t k[] = { 0xffffffff81000001ull, 0xffffffff81000002ull }, u[] = { 0x401000, 0x401100, 0x401200 };
	uint64_t out[16];
	size_t n = off_cpu_callchain(k, 2, u, 3, out, 16);
	assert_int_equal(n, 7);
	assert_true(out[0] == PERF_CONTEXT_KERNEL && out[1] == k[0] && out[2] == k[1]);
	assert_true(out[3] == PERF_CONTEXT_USER && out[4] == u[0] && out[6] == u[2]);
	/* user only: perf 6.x's shape */
	n = off_cpu_callchain(k, 0, u, 3, out, 16);
	assert_int_equal(n, 4);
	assert_true(out[0] == PERF_CONTEXT_USER && out[1] == u[0]);
	/* kernel only (a kernel thread) */
	n = off_cpu_callchain(k, 2, u, 0, out, 16);
	assert_int_equal(n, 3);
	assert_true(out[0] == PERF_CONTEXT_KERNEL);
	assert_int_equal(off_cpu_callchain(k, 0, u, 0, out, 16), 0);
	/* bounded by cap */
	assert_int_equal(off_cpu_callchain(k, 2, u, 3, out, 4), 4);
	assert_true(out[3] == PERF_CONTEXT_USER);
}

/* The stack store's id (src/bpf/include/stack_store.h, the same function
 * on the BPF side): never 0 (no stack), the order, the values and the depth
 * of the frames all count, frames past n do not. */
static void test_stack_store_hash(void **state)
{
	(void)state;
	__u64 a[4] = { 0x401000, 0x401100, 0x401200, 0xdead }, b[4] = { 0x401100, 0x401000, 0x401200, 0xbeef };
	__u64 h = stack_store_hash(a, 3);
	assert_true(h != 0);
	assert_true(h == stack_store_hash(a, 3));
	assert_true(h != stack_store_hash(b, 3));	/* two frames swapped */
	assert_true(h != stack_store_hash(a, 2));	/* a shallower stack */
	b[0] = 0x401000, b[1] = 0x401100;
	assert_true(h == stack_store_hash(b, 3));	/* b[3] is past n */
	assert_true(stack_store_hash(a, 0) != 0);
	/* 4096 stacks differing in one frame: 4096 ids */
	__u64 ids[4096];
	for (uint64_t i = 0; i < 4096; i++) {
		a[1] = 0x500000 + i;
		ids[i] = stack_store_hash(a, 3);
		for (uint64_t j = 0; j < i; j++)
			assert_true(ids[j] != ids[i]);
	}
}

static void test_states(void **state)
{
	(void)state;
	assert_int_equal(off_cpu_state_char(OFF_CPU_TASK_INTERRUPTIBLE), 'S');
	assert_int_equal(off_cpu_state_char(OFF_CPU_TASK_UNINTERRUPTIBLE), 'D');
	assert_int_equal(off_cpu_state_char(OFF_CPU_TASK_UNINTERRUPTIBLE | OFF_CPU_TASK_NOLOAD), 'I');
	assert_int_equal(off_cpu_state_char(0), '?');
}

/* --filter on off-CPU samples: the same step as the BPF filter, terms
 * they have only. */
static void test_filter(void **state)
{
	(void)state;
	struct sample_filter_entry tid_is_7[] = { { .term = SF_TERM_TID, .op = SF_OP_EQ, .value = 7 } };
	assert_true(off_cpu_filter_match(tid_is_7, 1, 5, 7, 0, 100, 0));
	assert_false(off_cpu_filter_match(tid_is_7, 1, 7, 5, 0, 100, 0));
	/* period > 10, (pid == 1 || pid == 2) */
	struct sample_filter_entry grp[] = {
		{ .term = SF_TERM_PERIOD, .op = SF_OP_GT, .value = 10 },
		{ .term = SF_TERM_NONE, .op = SF_OP_GROUP_BEGIN },
		{ .term = SF_TERM_PID, .op = SF_OP_EQ, .value = 1 },
		{ .term = SF_TERM_PID, .op = SF_OP_EQ, .value = 2 },
		{ .term = SF_TERM_NONE, .op = SF_OP_GROUP_END },
	};
	assert_true(off_cpu_filter_match(grp, 5, 2, 9, 0, 11, 0));
	assert_false(off_cpu_filter_match(grp, 5, 3, 9, 0, 11, 0));
	assert_false(off_cpu_filter_match(grp, 5, 1, 9, 0, 10, 0));
	assert_true(off_cpu_filter_match(grp, 0, 1, 9, 0, 10, 0));	/* no filter */
	assert_true(off_cpu_filter_term_ok(SF_TERM_IP) && off_cpu_filter_term_ok(SF_TERM_TIME));
	assert_false(off_cpu_filter_term_ok(SF_TERM_UID) || off_cpu_filter_term_ok(SF_TERM_CPU) ||
		     off_cpu_filter_term_ok(SF_TERM_CGROUP) || off_cpu_filter_term_ok(SF_TERM_ADDR));
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_callchain), cmocka_unit_test(test_states),
					    cmocka_unit_test(test_filter), cmocka_unit_test(test_stack_store_hash) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
