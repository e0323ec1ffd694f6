/* SPDX-License-Identifier: GPL-2.0-only */
/* lock_data.h: every layout shared by src/bpf/lock.bpf.c and
 * src/lib/feat/lock.c (the one copy): the aggregation key and value, the
 * per-task begin state, the per-CPU counters and the configuration. */
#ifndef BPFPERF_LOCK_DATA_H
#define BPFPERF_LOCK_DATA_H

#include "shared_defs.h"

/* Flags of lock:contention_begin (include/trace/events/lock.h, 5.19+). */
#define LOCK_F_SPIN	(1U << 0)
#define LOCK_F_READ	(1U << 1)
#define LOCK_F_WRITE	(1U << 2)
#define LOCK_F_RT	(1U << 3)
#define LOCK_F_PERCPU	(1U << 4)
#define LOCK_F_MUTEX	(1U << 5)
#define LOCK_F_MASK	((1U << 6) - 1)

/* What the contentions are aggregated by. */
enum lock_aggr {
	LOCK_AGGR_CALLER = 0,	/* the stack of the contention (stack id) */
	LOCK_AGGR_ADDR = 1,	/* the lock's address */
	LOCK_AGGR_TASK = 2,	/* the waiting thread */
	LOCK_AGGR_OWNER = 3,	/* the thread holding the lock at the begin (mutexes, rwsems held
				 * for write; 0: unknown, e.g. readers or spinlocks) */
	LOCK_AGGR_CGROUP = 4,	/* the waiting thread's cgroup v2 id */
};

/* Locks the BPF side recognises by address in the waiting task's context
 * (LOCK_AGGR_ADDR), or 0. */
enum lock_known {
	LOCK_KNOWN_NONE = 0,
	LOCK_KNOWN_MMAP = 1,	/* current->mm->mmap_lock */
	LOCK_KNOWN_SIGLOCK = 2,	/* current->sighand->siglock */
	LOCK_KNOWN_RQ = 3,	/* this CPU's runqueue lock (runqueues.__lock) */
};

struct lock_key {
	__u64 id;		/* stack id, lock address, tid or cgroup id (enum lock_aggr) */
	__u32 flags;		/* LOCK_F_* of the contention (LOCK_AGGR_CALLER; else 0) */
	__u32 pad;
};

struct lock_value {
	__u64 count;		/* contentions (atomic add) */
	__u64 total;		/* ns waited in all (atomic add) */
	__u64 max;		/* ns, longest (racy update, as perf) */
	__u64 min;		/* ns, shortest (racy update) */
	__u32 known;		/* enum lock_known (LOCK_AGGR_ADDR) */
	__u32 flags;		/* LOCK_F_* of the first contention counted */
	__u64 slab;		/* struct kmem_cache * of the lock's slab object, or 0 */
};

/* The waiting thread's state between begin and end. */
struct lock_tstamp {
	__u64 ts;		/* ns, 0: none in flight */
	__u64 lock;
	__u32 flags;
	__s32 stack_id;
	__u32 owner;		/* LOCK_AGGR_OWNER: the holder's tid at the begin, 0 unknown */
	__u32 pad;
};

/* A slab cache's name (LOCK_AGGR_ADDR), keyed by struct kmem_cache *. */
#define LOCK_SLAB_NAME 32
struct lock_slab_name {
	char name[LOCK_SLAB_NAME];
};

/* Per-CPU counters (percpu_counters_read). */
enum lock_counter {
	LOCK_CNT_BEGIN = 0,	/* contention_begin of targets seen */
	LOCK_CNT_END,		/* contentions counted */
	LOCK_CNT_NESTED,	/* begin while one was in flight: not counted (as perf) */
	LOCK_CNT_NO_STACK,	/* the stack could not be taken (stack map full) */
	LOCK_CNT_MAP_FULL,	/* the aggregation map was full: contention lost */
	LOCK_CNT_TASK_FULL,	/* no per-task slot (task storage or hash full) */
	LOCK_CNT_LOCK_MISMATCH,	/* end for another lock than begin: dropped */
	LOCK_CNT__MAX,
};

/* Stack depth the BPF side collects (the tracing frames included). */
#define LOCK_STACK_MAX 64

#endif
