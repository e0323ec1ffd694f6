// SPDX-License-Identifier: GPL-2.0-only
/* Not a feature: a BPF object that includes every header of src/bpf/include/
 * and calls every helper in them, so that the build compiles them with the
 * BPF flags (-Werror) even before a feature uses them, and so that
 * `bpftool prog loadall` (as root) shows the verifier accepts them:
 *   bpftool prog loadall build/src/bpf/headers_check.bpf.o /sys/fs/bpf/hc autoattach
 * It is built, never embedded or loaded by bpfperf. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "core_compat.h"
#include "counts.h"
#include "log2_hist.h"
#include "stack_store.h"
#include "target_filter.h"

char LICENSE[] SEC("license") = "GPL";

#define CHECK_SLOTS 32

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CHECK_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} check_hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct counts);
} check_counts SEC(".maps");

__u64 check_states[8] = {};

SEC("raw_tp/sys_enter")
int check_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0, slot;
	struct counts *c, other = COUNTS_EMPTY_INIT;
	__u64 *n, v = ctx->args[1];

	if (!target_match(bpf_get_current_pid_tgid()))
		return 0;
	slot = log2_slot(v, CHECK_SLOTS);
	n = bpf_map_lookup_elem(&check_hist, &slot);
	if (n)
		(*n)++;
	c = bpf_map_lookup_elem(&check_counts, &zero);
	if (!c)
		return 0;
	if (!c->count)
		*c = COUNTS_EMPTY;
	counts_add(&other, log2_slot_low(slot) + log2_slot_high(slot) / 2);
	counts_add(c, v);
	counts_merge(c, &other);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(check_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	unsigned int st = core_task_state(prev);
	enum stack_store_err err;

	check_states[st & 7]++;
	if (stack_store_get(ctx, 0, STACK_STORE_MAX, &err))
		check_states[7]++;
	return 0;
}

TARGET_FOLLOW_PROGRAMS(check)
