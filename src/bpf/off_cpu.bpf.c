// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf record --off-cpu: where targets wait while they are off the CPU.
 *
 * At sched_switch the outgoing task (still current) is a target leaving the
 * CPU in a blocked state (S or D): its switch-out time, user and kernel
 * stacks (their ids in the stack store, stack_store.h) and state go to its
 * slot. When a task with a slot comes back (next), the time it was off the
 * CPU is added to the entry of {pid, tgid, stacks, state}, or, above the
 * threshold, sent at once through the ring buffer with its start and end. User space turns both into
 * samples of the `offcpu-time` event.
 *
 * Designs (user space picks the first that loads): tp_btf + task storage,
 * raw_tp + a hash map keyed by thread id (task storage would need a
 * trusted pointer to the task switched in, which raw_tp does not give). */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "core_compat.h"
#include "off_cpu_data.h"
#include "stack_store.h"
#include "target_filter.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 thresh_ns = 0;	/* 0: aggregate every wait */
const volatile __u8 use_task_storage = 1;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);	/* set by user space */
	__type(key, struct off_cpu_key);
	__type(value, struct off_cpu_value);
} off_cpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct off_cpu_tstamp);
} tstamp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);		/* the fallback design sets the size */
	__type(key, __u32);
	__type(value, struct off_cpu_tstamp);
} tstamp_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);	/* set by user space */
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, OFF_CPU_CNT__MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline void count(__u32 c)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &c);

	if (v)
		*v += 1;
}

static __always_inline struct off_cpu_tstamp *slot(struct task_struct *t, bool create)
{
	if (use_task_storage)
		return bpf_task_storage_get(&tstamp, t, NULL, create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);

	__u32 tid = BPF_CORE_READ(t, pid);
	struct off_cpu_tstamp *ts = bpf_map_lookup_elem(&tstamp_hash, &tid);

	if (!ts && create) {
		struct off_cpu_tstamp zero = {};

		bpf_map_update_elem(&tstamp_hash, &tid, &zero, BPF_NOEXIST);
		ts = bpf_map_lookup_elem(&tstamp_hash, &tid);
	}
	return ts;
}

/* A stack of current into the stack store; 0 if lost, counted by cause. */
static __always_inline __u64 take_stack(void *ctx, __u64 flags)
{
	enum stack_store_err err;
	__u64 id = stack_store_get(ctx, flags, OFF_CPU_STACK_MAX, &err);

	if (err == STACK_STORE_FULL)
		count(OFF_CPU_CNT_STACK_FULL);
	else if (err == STACK_STORE_CLASH)
		count(OFF_CPU_CNT_STACK_CLASH);
	return id;
}

static __always_inline void switch_out(void *ctx, bool preempt, struct task_struct *prev)
{
	unsigned int state = core_task_state(prev) & OFF_CPU_STATE_MASK;
	struct off_cpu_tstamp *ts;

	/* preempted: still runnable, whatever its state word says */
	if (preempt || !(state & (OFF_CPU_TASK_INTERRUPTIBLE | OFF_CPU_TASK_UNINTERRUPTIBLE)))
		return;
	if (!target_match(bpf_get_current_pid_tgid()))
		return;
	count(OFF_CPU_CNT_SWITCH_OUT);
	ts = slot(prev, true);
	if (!ts) {
		count(OFF_CPU_CNT_TASK_FULL);
		return;
	}
	/* the last wait never ended for us: the task ran again without a
	 * sched_switch event (docs/bpfperf-record.md: a sandbox's 6.18 shows
	 * no event while its agent's thread is current); its end is unknown */
	if (ts->ts)
		count(OFF_CPU_CNT_NO_SWITCH_IN);
	/* current is prev: its stacks are the ones it blocked in */
	ts->user_stack = take_stack(ctx, BPF_F_USER_STACK);
	ts->kern_stack = take_stack(ctx, 0);
	if (!ts->user_stack && !ts->kern_stack)
		count(OFF_CPU_CNT_NO_STACK);
	else if (!ts->kern_stack)
		count(OFF_CPU_CNT_NO_KSTACK);
	ts->state = state;
	ts->ts = bpf_ktime_get_ns();
}

static __always_inline void switch_in(struct task_struct *next)
{
	struct off_cpu_tstamp *ts = slot(next, false);
	__u64 now, start;

	if (!ts || !ts->ts)
		return;
	now = bpf_ktime_get_ns();
	start = ts->ts;
	ts->ts = 0;

	struct off_cpu_key key = {
		.pid = BPF_CORE_READ(next, pid),
		.tgid = BPF_CORE_READ(next, tgid),
		.user_stack = ts->user_stack,
		.kern_stack = ts->kern_stack,
		.state = ts->state,
	};

	count(OFF_CPU_CNT_WAITS);
	if (thresh_ns && now - start >= thresh_ns) {
		struct off_cpu_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

		if (e) {
			e->key = key;
			e->start = start;
			e->end = now;
			bpf_ringbuf_submit(e, 0);
			return;
		}
		count(OFF_CPU_CNT_RINGBUF_FULL);	/* aggregated instead */
	}

	struct off_cpu_value *v = bpf_map_lookup_elem(&off_cpu, &key);

	if (!v) {
		struct off_cpu_value zero = {};

		bpf_map_update_elem(&off_cpu, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&off_cpu, &key);
		if (!v) {
			count(OFF_CPU_CNT_MAP_FULL);
			return;
		}
	}
	__sync_fetch_and_add(&v->total, now - start);
	__sync_fetch_and_add(&v->count, 1);
	v->last = now;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(off_cpu_switch_btf, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	switch_out(ctx, preempt, prev);
	switch_in(next);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(off_cpu_switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	switch_out(ctx, preempt, prev);
	switch_in(next);
	return 0;
}

/* `-- CMD`: a target from its exec on, and its children. */
TARGET_FOLLOW_PROGRAMS(off_cpu)

/* A thread that exits leaves its hash slot (the fallback design). */
SEC("raw_tp/sched_process_free")
int BPF_PROG(off_cpu_free, struct task_struct *p)
{
	__u32 tid = BPF_CORE_READ(p, pid);

	bpf_map_delete_elem(&tstamp_hash, &tid);
	return 0;
}
