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
	LOCK_KNOWN_ZONE = 4,	/* a memory zone's lock (pglist_data.node_zones[i].lock) */
};

struct lock_key {
	__u64 id;		/* stack id (0: none), lock address, tid or cgroup id (enum lock_aggr) */
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
	__u64 obj_off;		/* the lock's offset in its slab object (slab != 0), or
				 * LOCK_OBJ_OFF_NONE */
};

#define LOCK_OBJ_OFF_NONE (~0ULL)

/* The waiting thread's state between begin and end. */
struct lock_tstamp {
	__u64 ts;		/* ns, 0: none in flight */
	__u64 lock;
	__u64 stack;		/* LOCK_AGGR_CALLER: the stack's id in the stack store
				 * (stack_store.h), 0: none */
	__u32 flags;
	__u32 owner;		/* LOCK_AGGR_OWNER: the holder's tid at the begin, 0 unknown */
};

/* A slab cache (LOCK_AGGR_ADDR), keyed by struct kmem_cache *: its name
 * and the layout of its slabs (struct kmem_cache). */
#define LOCK_SLAB_NAME 32
struct lock_slab_info {
	char name[LOCK_SLAB_NAME];
	__u32 size;		/* the stride of the objects in a slab */
	__u32 object_size;	/* the object itself (the struct the cache holds) */
	__u32 red_left_pad;	/* debugging red zone before each object */
	__u32 order;		/* pages per slab, log2 (kmem_cache.oo) */
};

/* The offset of addr in its slab object, or LOCK_OBJ_OFF_NONE. A slab is
 * 2^order pages allocated from the buddy allocator, so its direct-map address
 * is aligned to its size; objects follow each other every `size` bytes, each
 * after `red_left_pad` bytes. (A slab of the cache's fallback order, taken
 * under memory pressure, is aligned to less: the offset found then is wrong,
 * and the member path found from it fails its type check.) */
SHARED_INLINE __u64 lock_slab_obj_offset(__u64 addr, __u32 page_shift, const struct lock_slab_info *s)
{
	__u64 slab_bytes, in_slab, off;

	if (!s->size || s->order > 10 || page_shift > 16)
		return LOCK_OBJ_OFF_NONE;
	slab_bytes = 1ULL << (page_shift + s->order);
	in_slab = addr & (slab_bytes - 1);
	if (in_slab < s->red_left_pad)
		return LOCK_OBJ_OFF_NONE;
	off = in_slab - s->red_left_pad;
	if (off / s->size >= slab_bytes / s->size)	/* the slab's unused tail */
		return LOCK_OBJ_OFF_NONE;
	off %= s->size;
	return off < s->object_size ? off : LOCK_OBJ_OFF_NONE;
}

/* The index of the zone whose lock is at addr, or -1: zones is the address
 * of a node's zone array (pglist_data.node_zones) of nr_zones, zone_size
 * bytes apart, the lock lock_off bytes into each. */
SHARED_INLINE int lock_zone_index(__u64 addr, __u64 zones, __u64 zone_size, __u64 lock_off, __u32 nr_zones)
{
	__u64 d;

	if (!zones || !zone_size || addr < zones + lock_off)
		return -1;
	d = addr - zones - lock_off;
	if (d % zone_size)
		return -1;
	d /= zone_size;
	return d < nr_zones ? (int)d : -1;
}

/* --lock-filter in the kernel: up to this many slab cache names (the
 * addresses are a hash map of their own). */
#define LOCK_FILTER_SLABS 16
struct lock_slab_name {
	char name[LOCK_SLAB_NAME];
};

/* Per-CPU counters (percpu_counters_read). */
enum lock_counter {
	LOCK_CNT_BEGIN = 0,	/* contention_begin of targets seen */
	LOCK_CNT_END,		/* contentions counted */
	LOCK_CNT_NESTED,	/* begin while one was in flight: not counted (as perf) */
	LOCK_CNT_NO_STACK,	/* the stack could not be taken (the stack store full) */
	LOCK_CNT_MAP_FULL,	/* the aggregation map was full: contention lost */
	LOCK_CNT_TASK_FULL,	/* no per-task slot (task storage or hash full) */
	LOCK_CNT_LOCK_MISMATCH,	/* end for another lock than the one waited for (a nested
				 * wait's, e.g. the wait_lock inside an rwsem's wait): not
				 * counted, the outer wait kept (as perf) */
	LOCK_CNT__MAX,
};

/* Stack depth the BPF side collects (the tracing frames included). */
#define LOCK_STACK_MAX 64

#endif
