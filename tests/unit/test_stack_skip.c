// SPDX-License-Identifier: GPL-2.0-only
/* Stack skipping (sym/stack_skip.h): one case per rule. The symbol class of
 * the tracing machinery; skipping by class where symbols are known; by the
 * attach point's measured count where they are not (contention_begin 3,
 * sched_switch 2, classic tracepoints 1); a mix of the two; the user's
 * explicit count; bounds. No privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "sym/stack_skip.h"

/* A fake symbol table: address i+1 has the name names[i] (NULL: unknown). */
struct fake {
	const char *const *names;
	size_t n;
};

static const char *fake_sym(void *ctx, uint64_t ip)
{
	const struct fake *f = ctx;
	return ip >= 1 && ip <= f->n ? f->names[ip - 1] : NULL;
}

static void test_class(void **state)
{
	(void)state;
	static const char *const tracing[] = {
		"bpf_prog_6deef7357e7b4530_on_switch", "bpf_trace_run4", "__bpf_trace_sched_switch",
		"__traceiter_sched_switch", "perf_trace_sched_switch", "trace_call_bpf",
		"bpf_trampoline_6442", "__bpf_prog_enter_recur",
	};
	static const char *const other[] = {
		"__schedule", "schedule", "do_nanosleep", "bpf_map_update_elem_x"
		/* a helper is not machinery */, "trace_call_bpf2", "_raw_spin_lock", "", NULL,
	};
	for (size_t i = 0; i < sizeof(tracing) / sizeof(*tracing); i++)
		assert_true(stack_frame_is_tracing(tracing[i]));
	for (size_t i = 0; i < sizeof(other) / sizeof(*other); i++)
		assert_false(stack_frame_is_tracing(other[i]));
}

/* Symbols known: every leading tracing frame goes, whatever the count. */
static void test_by_symbol(void **state)
{
	(void)state;
	static const char *const names[] = { "bpf_prog_abc_f", "bpf_trace_run4", "__bpf_trace_x",
					     "__traceiter_sched_switch", "__schedule", "schedule",
					     "bpf_trace_run4" /* not leading: kept */ };
	struct fake f = { names, 7 };
	uint64_t ips[] = { 1, 2, 3, 4, 5, 6, 7 };
	assert_int_equal(stack_skip(ips, 7, fake_sym, &f, STACK_SKIP_SCHED_SWITCH, STACK_SKIP_AUTO), 4);
	assert_int_equal(stack_skip(ips, 7, fake_sym, &f, 0, STACK_SKIP_AUTO), 4);
	/* a stack that is all machinery is dropped whole, never beyond n */
	assert_int_equal(stack_skip(ips, 3, fake_sym, &f, 1, STACK_SKIP_AUTO), 3);
}

/* Symbols unknown: the attach point's measured count. */
static void test_by_count(void **state)
{
	(void)state;
	uint64_t ips[] = { 100, 101, 102, 103, 104 };
	assert_int_equal(stack_skip(ips, 5, NULL, NULL, STACK_SKIP_CONTENTION_BEGIN, STACK_SKIP_AUTO), 3);
	assert_int_equal(stack_skip(ips, 5, NULL, NULL, STACK_SKIP_SCHED_SWITCH, STACK_SKIP_AUTO), 2);
	assert_int_equal(stack_skip(ips, 5, NULL, NULL, STACK_SKIP_TRACEPOINT, STACK_SKIP_AUTO), 1);
	struct fake none = { NULL, 0 };
	assert_int_equal(stack_skip(ips, 5, fake_sym, &none, STACK_SKIP_SCHED_SWITCH, STACK_SKIP_AUTO), 2);
	/* a stack shorter than the count */
	assert_int_equal(stack_skip(ips, 1, NULL, NULL, STACK_SKIP_CONTENTION_BEGIN, STACK_SKIP_AUTO), 1);
	assert_int_equal(stack_skip(ips, 0, NULL, NULL, STACK_SKIP_CONTENTION_BEGIN, STACK_SKIP_AUTO), 0);
}

/* Mixed: an unknown frame (a BPF program whose symbol is gone) between known
 * tracing frames is counted; a known non-tracing symbol stops at once even
 * below the count. */
static void test_mixed(void **state)
{
	(void)state;
	static const char *const names[] = { NULL, "__bpf_trace_contention_begin", "__schedule" };
	struct fake f = { names, 3 };
	uint64_t a[] = { 1, 2, 3 };
	assert_int_equal(stack_skip(a, 3, fake_sym, &f, STACK_SKIP_CONTENTION_BEGIN, STACK_SKIP_AUTO), 2);
	static const char *const early[] = { "rwsem_down_read_slowpath", NULL, NULL };
	struct fake g = { early, 3 };
	assert_int_equal(stack_skip(a, 3, fake_sym, &g, STACK_SKIP_CONTENTION_BEGIN, STACK_SKIP_AUTO), 0);
}

/* --stack-skip N: exactly N, whatever the symbols say; bounded by n. */
static void test_user(void **state)
{
	(void)state;
	static const char *const names[] = { "bpf_prog_abc_f", "bpf_trace_run4", "__schedule" };
	struct fake f = { names, 3 };
	uint64_t ips[] = { 1, 2, 3 };
	assert_int_equal(stack_skip(ips, 3, fake_sym, &f, 2, 0), 0);
	assert_int_equal(stack_skip(ips, 3, fake_sym, &f, 2, 1), 1);
	assert_int_equal(stack_skip(ips, 3, fake_sym, &f, 2, 3), 3);
	assert_int_equal(stack_skip(ips, 3, fake_sym, &f, 2, 64), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class),	  cmocka_unit_test(test_by_symbol),
		cmocka_unit_test(test_by_count),  cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_user),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
