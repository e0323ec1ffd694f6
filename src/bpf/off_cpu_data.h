/* SPDX-License-Identifier: GPL-2.0-only */
/* off_cpu_data.h: every layout shared by src/bpf/off_cpu.bpf.c and
 * src/lib/record/off_cpu.c (the one copy): the per-task switch-out state,
 * the aggregation key and value, the ring buffer record of a long wait,
 * the per-CPU counters. */
#ifndef BPFPERF_OFF_CPU_DATA_H
#define BPFPERF_OFF_CPU_DATA_H

#include "shared_defs.h"
#include "stack_store.h"

/* Scheduler states that make a switched-out task "off CPU" (blocked), as
 * the kernel defines them (include/linux/sched.h); the rest of the state
 * word is masked off with OFF_CPU_STATE_MASK. */
#define OFF_CPU_TASK_INTERRUPTIBLE	0x0001u	/* S: sleeping, wakes on signals */
#define OFF_CPU_TASK_UNINTERRUPTIBLE	0x0002u	/* D: disk/uninterruptible */
#define OFF_CPU_TASK_NOLOAD		0x0400u	/* with D: I (idle, not load) */
#define OFF_CPU_STATE_MASK		(OFF_CPU_TASK_INTERRUPTIBLE | OFF_CPU_TASK_UNINTERRUPTIBLE | \
					 OFF_CPU_TASK_NOLOAD)

/* Stack depth of both stacks (kernel: the tracing frames included). */
#define OFF_CPU_STACK_MAX STACK_STORE_MAX

/* The aggregation key: one entry per thread, stacks and state. */
struct off_cpu_key {
	__u32 pid;		/* thread id */
	__u32 tgid;		/* process id */
	__u64 user_stack;	/* stack_store.h ids; 0: none */
	__u64 kern_stack;
	__u32 state;		/* prev_state & OFF_CPU_STATE_MASK at switch-out */
	__u32 pad;
};

struct off_cpu_value {
	__u64 total;		/* ns blocked, summed (atomic add) */
	__u64 count;		/* waits (atomic add) */
	__u64 last;		/* bpf_ktime_get_ns() at the end of the last wait */
};

/* What a target's switch-out leaves in its task slot. */
struct off_cpu_tstamp {
	__u64 ts;		/* bpf_ktime_get_ns() at switch-out; 0: not off CPU */
	__u64 user_stack;	/* stack_store.h ids; 0: none */
	__u64 kern_stack;
	__u32 state;
	__u32 pad;
};

/* A wait above the threshold, sent at once through the ring buffer. */
struct off_cpu_event {
	struct off_cpu_key key;
	__u64 start;		/* bpf_ktime_get_ns() at switch-out */
	__u64 end;		/* ... and at switch-in */
};

/* The PERF_SAMPLE_RAW payload of an offcpu-time sample (perf.data, not the
 * kernel): a u32 size then these bytes, padded to 8 as perf requires. */
struct off_cpu_raw {
	__u32 state;		/* OFF_CPU_TASK_* bits at switch-out */
	__u32 count;		/* waits summed in the sample (1 above the threshold) */
};

/* Per-CPU counters (percpu_counters_read). */
enum off_cpu_counter {
	OFF_CPU_CNT_SWITCH_OUT = 0,	/* target switch-outs in a blocked state */
	OFF_CPU_CNT_WAITS,		/* waits counted (aggregated or sent) */
	OFF_CPU_CNT_MAP_FULL,		/* aggregation map full: a wait lost */
	OFF_CPU_CNT_TASK_FULL,		/* no per-task slot (task storage or hash full) */
	OFF_CPU_CNT_NO_STACK,		/* a wait with neither stack */
	OFF_CPU_CNT_RINGBUF_FULL,	/* ring buffer full: a long wait aggregated instead */
	OFF_CPU_CNT_NO_KSTACK,		/* a wait without its kernel stack (shown under the user one) */
	OFF_CPU_CNT_STACK_FULL,		/* a stack lost: the stack store was full */
	OFF_CPU_CNT_STACK_CLASH,	/* a stack lost: every id probed held another stack */
	OFF_CPU_CNT_NO_SWITCH_IN,	/* a wait lost: the task left the CPU again, its switch-in unseen */
	OFF_CPU_CNT__MAX,
};

#endif
