/* SPDX-License-Identifier: GPL-2.0-only */
/* kwork_data.h: every layout shared by src/bpf/kwork.bpf.c and
 * src/lib/feat/kwork.c (the one copy): the aggregation key and value, the
 * pending raise/entry state, the timehist event, the per-CPU counters. */
#ifndef BPFPERF_KWORK_DATA_H
#define BPFPERF_KWORK_DATA_H

#include "shared_defs.h"
#include "log2_hist.h"

/* The kinds of kernel work (perf kwork's classes), in -k's order. */
enum kwork_class {
	KWORK_IRQ = 0,		/* hard irq handlers: irq_handler_entry/exit */
	KWORK_SOFTIRQ = 1,	/* softirq_raise/entry/exit */
	KWORK_WORKQUEUE = 2,	/* workqueue_activate_work/execute_start/execute_end */
	KWORK_SCHED = 3,	/* tasks on CPUs: sched_switch (top) */
	KWORK_CLASS__MAX,
};

/* What the kernel side measures. */
enum kwork_view {
	KWORK_VIEW_REPORT = 0,	/* runtime: entry -> exit, aggregated */
	KWORK_VIEW_LATENCY = 1,	/* delay: raise/activate -> entry, aggregated */
	KWORK_VIEW_TIMEHIST = 2,	/* each exit streamed with its entry and raise times */
	KWORK_VIEW_TOP = 3,	/* task time per CPU (sched_switch), irq and softirq time by
				 * the task they interrupted */
};

#define KWORK_NR_SOFTIRQS 10	/* NR_SOFTIRQS: HI .. RCU */
#define KWORK_MAX_CPUS 1024	/* the -C mask's size */
#define KWORK_HIST_SLOTS 32	/* log2 slots of microseconds (--hist) */
#define KWORK_NAME_LEN 32	/* an irq's name (irqaction.name), kept once per irq */
#define KWORK_COMM_LEN 16

/* top with a cgroup: the id under which the time of the tasks outside it
 * (and the irq time that interrupted them) is counted, for the CPUs' totals */
#define KWORK_ID_OTHERS (~0ULL)

/* The aggregation key: id is the irq number, the softirq vector, the work
 * function's address (workqueue), or a tid (sched; irq and softirq in top:
 * the interrupted task). */
struct kwork_key {
	__u32 type;		/* enum kwork_class */
	__u32 cpu;
	__u64 id;
};

struct kwork_value {
	__u64 count;
	__u64 total;		/* ns: runtime (report, top) or delay (latency) */
	__u64 max;		/* ns */
	__u64 max_start;	/* ktime ns of the longest one's start (entry or raise) */
	__u64 max_end;		/* and its end (exit or entry) */
	__u64 hist[KWORK_HIST_SLOTS];	/* log2 of microseconds, when asked for */
};

/* A raise or entry waiting for its entry or exit. */
struct kwork_pend {
	__u64 ts;		/* 0: none */
	__u64 raise;		/* entries: the raise's time (timehist), 0 none */
	__u64 func;		/* workqueue: the work function */
	__u64 id;		/* the irq number (the one irq slot of a CPU) */
};

/* Per-CPU pending slots of irqs and softirqs (a percpu array): */
#define KWORK_PEND_IRQ 0					/* the running hard irq */
#define KWORK_PEND_SOFTIRQ(vec) (1 + (vec))			/* a running softirq */
#define KWORK_PEND_RAISED(vec) (1 + KWORK_NR_SOFTIRQS + (vec))	/* a raised softirq */
#define KWORK_PEND_SLOTS (1 + 2 * KWORK_NR_SOFTIRQS)

/* Workqueue items pending, by work_struct address. */
struct kwork_wq_key {
	__u64 work;
	__u32 entry;		/* 0: activated (raise), 1: executing (entry) */
	__u32 pad;
};

/* The task running on a CPU since its switch-in (top). */
struct kwork_running {
	__u64 ts;		/* 0: not seen yet */
	__u64 tid;
};

/* One finished piece of work (timehist), through the ring buffer. */
struct kwork_event {
	__u32 type;
	__u32 cpu;
	__u64 id;
	__u64 raise;		/* 0: none seen (irqs have none) */
	__u64 start;
	__u64 end;
};

/* Per-CPU counters (percpu_counters_read). */
enum kwork_counter {
	KWORK_CNT_EVENTS = 0,	/* tracepoint hits handled */
	KWORK_CNT_COUNTED,	/* runtimes or delays counted (or streamed) */
	KWORK_CNT_MAP_FULL,	/* the aggregation map was full: one lost */
	KWORK_CNT_PEND_FULL,	/* the workqueue pending map was full: one lost */
	KWORK_CNT_NO_ENTRY,	/* an exit without its entry (the entry before the start) */
	KWORK_CNT_NO_RAISE,	/* an entry without a raise (latency, timehist: raised
				 * before the start, or by a path without the tracepoint) */
	KWORK_CNT_OVERWRITE,	/* an entry while one was pending: the first dropped */
	KWORK_CNT_RB_FULL,	/* the ring buffer was full: an event lost (timehist) */
	KWORK_CNT_BAD_VEC,	/* a softirq vector out of range */
	KWORK_CNT_NAME_FULL,	/* the irq or task name map was full: shown unnamed */
	KWORK_CNT_SWITCH_UNSEEN, /* top: a switch out of a task that no sched_switch showed
				 * (the next one names another task as the one leaving) */
	KWORK_CNT_UNSEEN_NS,	/* top: the time between such a task's switch-in and the next
				 * switch seen: whose it was is unknown, not counted */
	/* filled by user space: the kernel's count of calls of a class's
	 * programs it skipped because another BPF program was running on the
	 * CPU (bpf_prog_info.recursion_misses; the largest of the class's
	 * programs): irqs, softirqs, workqueue items, task switches missed */
	KWORK_CNT_MISSED_IRQ,
	KWORK_CNT_MISSED_SOFTIRQ,
	KWORK_CNT_MISSED_WORKQUEUE,
	KWORK_CNT_MISSED_SCHED,
	KWORK_CNT__MAX,
};

/* The --hist slot of a duration in ns: log2 of microseconds. */
SHARED_INLINE __u32 kwork_hist_slot(__u64 ns)
{
	return log2_slot(ns / 1000, KWORK_HIST_SLOTS);
}

#endif
