// SPDX-License-Identifier: GPL-2.0-only
/* record --off-cpu without the kernel: the callchain layout of an
 * offcpu-time sample (context markers, empty parts, truncation) and the
 * state letters. No privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "perfdata/offcpu.h"
#include "record/off_cpu.h"
#include "off_cpu_data.h"

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
					    cmocka_unit_test(test_filter) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
