/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf trace: layouts shared by trace.bpf.c and src/lib/feat/trace.c. */
#ifndef BPFPERF_TRACE_DATA_H
#define BPFPERF_TRACE_DATA_H

#include "counts.h"		/* and __u32, __u64 (vmlinux.h on the BPF side) */
#include "target_filter.h"	/* the target configuration and states */

#define TRACE_MAX_SYSCALLS 512		/* x86_64 syscall numbers are below this */
#define TRACE_MAX_ARGS 6
#define TRACE_STR_MAX 4096		/* PATH_MAX: longest string copied at entry */
#define TRACE_SOCKADDR_MAX 128		/* sizeof(struct sockaddr_storage) */
#define TRACE_MAX_COPIES 3		/* pointer arguments copied per call */
#define TRACE_COMM_LEN 16
#define TRACE_FIXED_MAX 64

/* What the BPF side copies for one argument at sys_enter. */
enum trace_copy_kind {
	TRACE_COPY_NONE = 0,
	TRACE_COPY_STR = 1,		/* NUL-terminated, up to TRACE_STR_MAX */
	TRACE_COPY_SOCKADDR = 2,	/* length in the next argument, up to TRACE_SOCKADDR_MAX */
	TRACE_COPY_FIXED = 3,		/* fixed_size bytes (small input structs) */
};

/* Per syscall number (global array indexed by nr). */
struct trace_syscall_desc {
	__u8 enabled;			/* traced (events and summary) */
	__u8 noreturn;			/* exit/exit_group: account and emit at entry */
	__u8 ncopies;			/* copy[] entries != NONE */
	__u8 slot;			/* summary cache slot, < TRACE_CACHE_SLOTS */
	__u8 copy[TRACE_MAX_ARGS];	/* enum trace_copy_kind per argument */
	__u16 fixed_size[TRACE_MAX_ARGS];	/* TRACE_COPY_FIXED: bytes, <= TRACE_FIXED_MAX */
};

/* Ring buffer records; every record starts with __u16 type. */
enum trace_rec_type {
	TRACE_REC_SYSCALL = 1,		/* struct trace_sc_event, at sys_exit (noreturn: at entry) */
	TRACE_REC_AUG = 2,		/* struct trace_aug_hdr + items, at sys_enter */
};

#define TRACE_EV_AUG 1			/* a TRACE_REC_AUG of this tid came before */
#define TRACE_EV_NORETURN 2		/* no return value (exit_group) */
#define TRACE_EV_REFETCH 4		/* inflight only: a copy faulted at entry, retry at exit */

struct trace_sc_event {
	__u16 type;
	__u16 flags;
	__u32 nr;
	__u32 pid;			/* tgid */
	__u32 tid;
	__u64 ts;			/* entry, CLOCK_MONOTONIC ns */
	__u64 duration;			/* ns */
	__s64 ret;
	__u64 args[TRACE_MAX_ARGS];
	char comm[TRACE_COMM_LEN];
};

/* Copied pointer arguments of one call: header, then ncopies items, each
 * a struct trace_aug_item followed by len bytes padded to 8. */
struct trace_aug_hdr {
	__u16 type;
	__u16 ncopies;
	__u32 tid;
	__u32 nr;
	__u32 size;			/* bytes of items after the header */
};

#define TRACE_AUG_FAULT 1		/* the copy failed (bad pointer) */

struct trace_aug_item {
	__u8 arg;			/* argument index */
	__u8 kind;			/* enum trace_copy_kind */
	__u8 flags;			/* TRACE_AUG_* */
	__u8 pad;
	__u32 len;			/* bytes copied (strings: including the NUL) */
};

/* Offsets of items are masked with TRACE_AUG_MASK for the verifier. */
#define TRACE_AUG_ITEM_MAX (sizeof(struct trace_aug_item) + TRACE_STR_MAX)
#define TRACE_AUG_MASK 16383
#define TRACE_AUG_DATA (TRACE_AUG_MASK + 1 + TRACE_AUG_ITEM_MAX)

/* Entry state per thread (inflight map, key tid). */
struct trace_inflight {
	__u64 ts;			/* 0: no call in flight */
	__u32 nr;
	__u32 flags;			/* TRACE_EV_AUG */
	__u64 args[TRACE_MAX_ARGS];
};

/* Summary counters of one (thread, syscall), in the summary map and in the
 * per-CPU cache slots: a struct counts (include/counts.h) of the durations,
 * under trace's names, and the failed calls. Empty: TRACE_COUNTS_EMPTY.
 * Counted only with trace_counts_add() and trace_counts_merge(), used by
 * both the BPF programs and user space. */
struct trace_counts {
	union {
		struct counts dur;	/* the same fields, for counts.h */
		struct {
			__u64 calls;
			__u64 total_ns;
			__u64 min_ns;
			__u64 max_ns;
			__u64 sumsq_lo;	/* sum of squared ns, 128 bits */
			__u64 sumsq_hi;
		};
	};
	__u64 errors;
};

#define TRACE_COUNTS_ALIASES(name, field) \
	(__builtin_offsetof(struct trace_counts, name) == __builtin_offsetof(struct counts, field))
_Static_assert(TRACE_COUNTS_ALIASES(calls, count) && TRACE_COUNTS_ALIASES(total_ns, sum) &&
	       TRACE_COUNTS_ALIASES(min_ns, min) && TRACE_COUNTS_ALIASES(max_ns, max) &&
	       TRACE_COUNTS_ALIASES(sumsq_lo, sumsq_lo) && TRACE_COUNTS_ALIASES(sumsq_hi, sumsq_hi) &&
	       sizeof(struct counts) == 6 * sizeof(__u64),
	       "trace_counts' names must alias struct counts field by field");
#undef TRACE_COUNTS_ALIASES

#define TRACE_COUNTS_EMPTY_INIT { .dur = COUNTS_EMPTY_INIT }	/* in initializers */
#define TRACE_COUNTS_EMPTY ((struct trace_counts)TRACE_COUNTS_EMPTY_INIT)

/* Count one call that took dur ns; failed: it returned an error. */
SHARED_INLINE void trace_counts_add(struct trace_counts *c, __u64 dur, _Bool failed)
{
	counts_add(&c->dur, dur);
	if (failed)
		c->errors++;
}

/* Add the counters of src into dst. */
SHARED_INLINE void trace_counts_merge(struct trace_counts *dst, const struct trace_counts *src)
{
	counts_merge(&dst->dur, &src->dur);
	dst->errors += src->errors;
}

/* Fast design (kernels with BPF task storage and tp_btf):
 * - per CPU (struct trace_cpu): the traced/not-traced verdict of the thread
 *   running on this CPU and its call in flight. tp_btf/sched_switch clears
 *   the verdict at every context switch and moves the in-flight record of a
 *   thread switched out in the middle of a call to its task storage: what is
 *   found on a CPU always belongs to the thread running there.
 * - per traced thread (BPF_MAP_TYPE_TASK_STORAGE, struct trace_task): its
 *   presence is the cached "traced" verdict; it holds a moved in-flight record.
 * - per CPU, a direct-mapped cache of summary counters keyed by (tid, nr):
 *   TRACE_CACHE_LANES lanes (by tid) of TRACE_CACHE_SLOTS slots (by
 *   descs[nr].slot). An evicted slot is added into the summary map; at the
 *   end user space adds every CPU's slots to what it read from that map. */
#define TRACE_CACHE_SLOTS 16		/* power of two */
#define TRACE_CACHE_LANES 16		/* power of two */
#define TRACE_CACHE_ENTRIES (TRACE_CACHE_SLOTS * TRACE_CACHE_LANES)

struct trace_cache_slot {
	__u32 tid;
	__u32 key;			/* syscall nr + 1; 0: empty */
	__u32 pid;			/* tgid */
	__u32 pad;
	struct trace_counts c;
	char comm[TRACE_COMM_LEN];	/* when the slot was claimed */
};

struct trace_cpu {
	__u32 valid;			/* tid, tgid, traced are the running thread's */
	__u32 traced;
	__u32 tid;
	__u32 tgid;
	struct trace_inflight in;	/* in.ts != 0: the running thread's call */
};

struct trace_task {
	struct trace_inflight in;	/* moved here when switched out mid-call */
};

/* Summary, aggregated in the kernel per thread and syscall. */
struct trace_sum_key {
	__u32 tid;
	__u32 nr;
};

struct trace_sum_val {
	struct trace_counts c;
	__u32 pid;
	__u32 pad;
	char comm[TRACE_COMM_LEN];
};

/* --errno-summary: calls failing with err, per thread and syscall. */
struct trace_errno_key {
	__u32 tid;
	__u32 nr;
	__u32 err;
	__u32 pad;
};

/* Counters (per-CPU array). */
enum trace_counter {
	TRACE_CNT_LOST_EVENTS = 0,	/* ring buffer full at sys_exit */
	TRACE_CNT_LOST_AUG = 1,		/* ring buffer full at sys_enter (arguments not shown) */
	TRACE_CNT_SUM_FULL = 2,		/* summary map full: calls not counted */
	TRACE_CNT_INFLIGHT_FULL = 3,	/* thread table full: calls not traced */
	TRACE_CNT__MAX = 4,
};

#endif
