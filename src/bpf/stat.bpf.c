// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf stat --bpf-counters: one perf event per event per CPU, read by
 * this leader program at every context switch; the delta since the last
 * reading on this CPU belongs to the task being switched out and is added
 * to the accumulators when that task is a target (target_filter.h). The
 * final (and every -I) read runs stat_read_cpu on each CPU through
 * BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU: there "current" is the task
 * that CPU was running, whose slice so far is attributed the same way. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "stat_data.h"
#include "target_filter.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 nr_events = 0;
const volatile __u32 nr_cpus = 1;	/* possible CPUs: the event array's stride */

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, STAT_MAX_EVENTS);
	__type(key, __u32);
	__type(value, struct stat_reading);
} prev SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, STAT_MAX_EVENTS);
	__type(key, __u32);
	__type(value, struct stat_reading);
} accum SEC(".maps");

static __always_inline void account_event(__u32 e, __u32 cpu, bool match)
{
	struct bpf_perf_event_value v;
	struct stat_reading *p, *a;

	if (bpf_perf_event_read_value(&events, e * nr_cpus + cpu, &v, sizeof(v)))
		return;
	p = bpf_map_lookup_elem(&prev, &e);
	if (!p)
		return;
	if (p->valid && match) {
		a = bpf_map_lookup_elem(&accum, &e);
		if (a) {
			a->counter += v.counter - p->counter;
			a->enabled += v.enabled - p->enabled;
			a->running += v.running - p->running;
		}
	}
	p->counter = v.counter;
	p->enabled = v.enabled;
	p->running = v.running;
	p->valid = 1;
}

static __always_inline int account(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	bool match = target_match(bpf_get_current_pid_tgid());

	/* Unrolled: the verifier sees each key as a constant. */
#pragma clang loop unroll(full)
	for (__u32 e = 0; e < STAT_MAX_EVENTS; e++)
		if (e < nr_events)
			account_event(e, cpu, match);
	return 0;
}

/* The leader: sched_switch runs while the outgoing task is still current. */
SEC("tp_btf/sched_switch")
int BPF_PROG(stat_switch_btf)
{
	return account();
}

/* The same where the kernel has no BTF-typed tracepoints. */
SEC("raw_tp/sched_switch")
int BPF_PROG(stat_switch_raw)
{
	return account();
}

/* Run on each CPU by BPF_PROG_TEST_RUN: the first readings, and the reads. */
SEC("raw_tp")
int stat_read_cpu(void *ctx)
{
	return account();
}

/* `-- CMD`: counted from its exec on, and its children. */
SEC("raw_tp/sched_process_exec")
int BPF_PROG(stat_exec)
{
	target_start(bpf_get_current_pid_tgid() >> 32);
	return 0;
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(stat_fork, struct task_struct *parent, struct task_struct *child)
{
	target_follow_fork(BPF_CORE_READ(parent, tgid), BPF_CORE_READ(child, tgid));
	return 0;
}
