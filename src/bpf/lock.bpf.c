// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf lock contention: kernel lock contention aggregated in the kernel.
 *
 * lock:contention_begin (5.19+) stores the time, the lock and its flags (and
 * the stack id when aggregating by caller) in the waiting task's slot;
 * lock:contention_end adds the wait to the entry of its key (enum lock_aggr
 * in lock_data.h): count and total by atomic adds, max and min. A begin while
 * one is in flight (a nested contention, e.g. a mutex's spinning) is not
 * counted, as perf does; every other loss is counted in `counters`.
 *
 * Three designs, chosen by user space at load time (skel_load_designs):
 * tp_btf programs with task storage; raw_tp programs with task storage;
 * raw_tp programs with a hash map keyed by thread id. With --lock-addr the
 * end program also names the lock where it can: the mm's mmap_lock, the
 * sighand's siglock, this CPU's runqueue lock, a memory zone's lock, or the
 * slab cache of the object holding the lock and the lock's offset in the
 * object (bpf_get_kmem_cache, tp_btf only). */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "lock_data.h"
#include "stack_store.h"
#include "target_filter.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 aggr = LOCK_AGGR_CALLER;
const volatile __u8 name_locks = 0;	/* LOCK_AGGR_ADDR: known locks */
const volatile __u8 use_kmem_cache = 0;	/* bpf_get_kmem_cache may be called */
const volatile __u64 flags_filter = 0;	/* non-zero: only these types, bit (1 << flags) each */
const volatile __u32 page_shift = 12;	/* log2 of the page size */
/* --lock-filter: only the locks at the addresses of addr_filter, the known
 * locks of known_filter (bit 1 << enum lock_known) and the locks in objects
 * of the slab caches named in slab_filter (nr_slab_filter of them) */
const volatile __u8 lock_filter = 0;
const volatile __u32 known_filter = 0;
const volatile __u32 nr_slab_filter = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct lock_key);
	__type(value, struct lock_value);
} stat SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct lock_tstamp);
} tstamp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct lock_tstamp);
} tstamp_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct lock_slab_info);
} slab_names SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, char[16]);
} task_comms SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, __u8);
} addr_filter SEC(".maps");

/* each CPU's runqueue lock, as seen from that CPU (LOCK_AGGR_ADDR): user
 * space names another CPU's runqueue lock with it */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} rq_locks SEC(".maps");

/* the cache names of the filter, LOCK_SLAB_NAME bytes each */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LOCK_FILTER_SLABS);
	__type(key, __u32);
	__type(value, struct lock_slab_name);
} slab_filter SEC(".maps");

/* struct kmem_cache * -> 1 its name is in slab_filter, 0 not: each cache's
 * name compared once */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, __u8);
} slab_selected SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LOCK_CNT__MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

extern struct kmem_cache *bpf_get_kmem_cache(__u64 addr) __ksym __weak;

/* Whether a __weak ksym was found (libbpf sets a missing one to 0). */
#define ksym_exists(sym) ((void *)(sym) != (void *)0)

/* Linux 5.14 renamed rq::lock to __lock. */
struct rq___old {
	raw_spinlock_t lock;
} __attribute__((preserve_access_index));

static __always_inline void count(__u32 which)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &which);
	if (c)
		(*c)++;
}

static __always_inline struct lock_tstamp *tstamp_get(bool ts, bool create)
{
	if (ts) {
		struct task_struct *t = bpf_get_current_task_btf();
		return bpf_task_storage_get(&tstamp, t, NULL, create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	}
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct lock_tstamp *p = bpf_map_lookup_elem(&tstamp_hash, &tid);
	if (p || !create)
		return p;
	struct lock_tstamp zero = {};
	bpf_map_update_elem(&tstamp_hash, &tid, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&tstamp_hash, &tid);
}

/* The thread holding a mutex or an rwsem held for write (the owner word
 * is a task_struct pointer with flag bits below bit 3), its comm kept for
 * user space; 0 when there is no single owner to name (readers, spinning
 * locks, an rt kernel's mutexes). */
static __always_inline __u32 lock_owner(__u64 lock, __u32 flags)
{
	long owner;

	if (flags & LOCK_F_MUTEX) {
		struct mutex *m = (void *)lock;

		if (!bpf_core_field_exists(m->owner))
			return 0;
		owner = BPF_CORE_READ(m, owner.counter);
	} else if ((flags & (LOCK_F_READ | LOCK_F_WRITE)) &&
		   !(flags & (LOCK_F_SPIN | LOCK_F_PERCPU | LOCK_F_RT))) {
		struct rw_semaphore *s = (void *)lock;

		if (!bpf_core_field_exists(s->owner))
			return 0;
		owner = BPF_CORE_READ(s, owner.counter);
		if (owner & 1)	/* RWSEM_READER_OWNED: readers, no single owner */
			return 0;
	} else {
		return 0;
	}
	struct task_struct *t = (struct task_struct *)(owner & ~7L);
	char comm[16];
	__u32 tid;

	if (!t)
		return 0;
	tid = BPF_CORE_READ(t, pid);
	if (tid && !bpf_map_lookup_elem(&task_comms, &tid)) {
		BPF_CORE_READ_STR_INTO(&comm, t, comm);
		bpf_map_update_elem(&task_comms, &tid, comm, BPF_ANY);
	}
	return tid;
}

/* Is this lock type selected? flags_filter has bit (1 << flags) per type. */
static __always_inline bool type_selected(__u32 flags)
{
	if (!flags_filter)
		return true;
	return (flags_filter >> (flags & 63)) & 1;
}

static __always_inline bool lock_selected(__u64 lock);

static __always_inline int on_begin(void *ctx, __u64 lock, __u32 flags, bool ts)
{
	if (!target_match(bpf_get_current_pid_tgid()))
		return 0;
	flags &= LOCK_F_MASK;
	if (!type_selected(flags))
		return 0;
	if (lock_filter && !lock_selected(lock))
		return 0;
	count(LOCK_CNT_BEGIN);
	struct lock_tstamp *p = tstamp_get(ts, true);
	if (!p) {
		count(LOCK_CNT_TASK_FULL);
		return 0;
	}
	if (p->lock) {
		count(LOCK_CNT_NESTED);
		return 0;
	}
	p->stack = 0;
	if (aggr == LOCK_AGGR_CALLER) {
		enum stack_store_err err;

		p->stack = stack_store_get(ctx, 0, stack_store_depth, &err);
		if (!p->stack)
			count(LOCK_CNT_NO_STACK);
	}
	p->owner = aggr == LOCK_AGGR_OWNER ? lock_owner(lock, flags) : 0;
	p->lock = lock;
	p->flags = flags;
	p->ts = bpf_ktime_get_ns();
	return 0;
}

/* Is addr the lock of one of the zones of node nid? The node's pglist_data
 * is reached through the memory cgroup's per-node lruvec (CONFIG_MEMCG):
 * node_data and contig_page_data are in kallsyms only with
 * CONFIG_KALLSYMS_ALL and have no BTF variable. */
static __always_inline bool node_zone_lock(struct mem_cgroup *memcg, int nid, __u64 addr)
{
	struct mem_cgroup_per_node *pn = NULL;
	struct pglist_data *pgdat;

	if (nid < 0 || nid >= 1024)
		return false;
	if (bpf_core_read(&pn, sizeof(pn), &memcg->nodeinfo[nid]) || !pn)
		return false;
	pgdat = BPF_CORE_READ(pn, lruvec.pgdat);
	if (!pgdat)
		return false;
	__u64 zones = (__u64)__builtin_preserve_access_index(&pgdat->node_zones[0]);
	__u64 zone_size = bpf_core_type_size(struct zone);
	__u64 lock_off = bpf_core_field_offset(struct zone, lock);
	__u32 nr = zone_size ? bpf_core_field_size(struct pglist_data, node_zones) / zone_size : 0;
	return lock_zone_index(addr, zones, zone_size, lock_off, nr) >= 0;
}

static __always_inline bool zone_lock(struct task_struct *t, __u64 addr)
{
	if (!bpf_core_field_exists(struct lruvec, pgdat) || !bpf_core_type_exists(struct mem_cgroup) ||
	    !bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
		return false;
	int id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	struct css_set *cs = BPF_CORE_READ(t, cgroups);
	struct cgroup_subsys_state *css = NULL;
	if (!cs || id < 0 || id >= 32 || bpf_core_read(&css, sizeof(css), &cs->subsys[id]) || !css)
		return false;
	struct mem_cgroup *memcg = (void *)((char *)css - bpf_core_field_offset(struct mem_cgroup, css));
	int nid = bpf_get_numa_node_id();
	/* this CPU's node, else node 0 (one node: the usual case) */
	return node_zone_lock(memcg, nid, addr) || (nid != 0 && node_zone_lock(memcg, 0, addr));
}

/* This CPU's runqueue lock, reached through the running task's cfs_rq
 * (CONFIG_FAIR_GROUP_SCHED), as perf checks it: the typed ksym `runqueues`
 * needs CONFIG_KALLSYMS_ALL, which kernels often lack. 0 unknown. */
static __always_inline __u64 this_rq_lock(struct task_struct *t)
{
	if (!bpf_core_field_exists(struct cfs_rq, rq))
		return 0;
	struct rq *rq = BPF_CORE_READ(t, se.cfs_rq, rq);
	if (!rq)
		return 0;
	if (bpf_core_field_exists(rq->__lock))
		return (__u64)__builtin_preserve_access_index(&rq->__lock);
	return (__u64)__builtin_preserve_access_index(&((struct rq___old *)rq)->lock);
}

/* What the lock at addr is, seen from the waiting task (LOCK_AGGR_ADDR). */
static __always_inline __u32 known_lock(__u64 addr)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct mm_struct *mm = BPF_CORE_READ(t, mm);

	if (mm && addr == (__u64)__builtin_preserve_access_index(&mm->mmap_lock))
		return LOCK_KNOWN_MMAP;
	struct sighand_struct *sh = BPF_CORE_READ(t, sighand);
	if (sh && addr == (__u64)__builtin_preserve_access_index(&sh->siglock))
		return LOCK_KNOWN_SIGLOCK;
	__u64 rql = this_rq_lock(t);
	if (rql && addr == rql)
		return LOCK_KNOWN_RQ;
	if (zone_lock(t, addr))
		return LOCK_KNOWN_ZONE;
	return LOCK_KNOWN_NONE;
}

/* The slab cache of the object holding the lock, its name and layout
 * remembered, and the lock's offset in the object (*obj_off). */
static __always_inline __u64 slab_of(__u64 addr, __u64 *obj_off)
{
	*obj_off = LOCK_OBJ_OFF_NONE;
	if (!use_kmem_cache || !ksym_exists(bpf_get_kmem_cache))
		return 0;
	struct kmem_cache *s = bpf_get_kmem_cache(addr);
	__u64 key = (__u64)s;
	if (!s)
		return 0;
	struct lock_slab_info *si = bpf_map_lookup_elem(&slab_names, &key);
	if (!si) {
		struct lock_slab_info n = {};
		const char *name = BPF_CORE_READ(s, name);
		bpf_probe_read_kernel_str(n.name, sizeof(n.name), name);
		n.size = BPF_CORE_READ(s, size);
		n.object_size = BPF_CORE_READ(s, object_size);
		if (bpf_core_field_exists(s->red_left_pad))
			n.red_left_pad = BPF_CORE_READ(s, red_left_pad);
		n.order = BPF_CORE_READ(s, oo.x) >> 16;	/* OO_SHIFT */
		bpf_map_update_elem(&slab_names, &key, &n, BPF_NOEXIST);
		si = bpf_map_lookup_elem(&slab_names, &key);
		if (!si)
			return key;
	}
	*obj_off = lock_slab_obj_offset(addr, page_shift, si);
	return key;
}

/* Is the cache's name one of slab_filter's? */
static __always_inline bool slab_name_selected(struct kmem_cache *s)
{
	struct lock_slab_name n = {};
	const char *name = BPF_CORE_READ(s, name);

	bpf_probe_read_kernel_str(n.name, sizeof(n.name), name);
	for (__u32 i = 0; i < LOCK_FILTER_SLABS && i < nr_slab_filter; i++) {
		__u32 k = i;
		struct lock_slab_name *f = bpf_map_lookup_elem(&slab_filter, &k);
		bool same = true;
		if (!f)
			break;
		for (int j = 0; j < LOCK_SLAB_NAME; j++) {
			if (f->name[j] != n.name[j]) {
				same = false;
				break;
			}
			if (!n.name[j])
				break;
		}
		if (same)
			return true;
	}
	return false;
}

/* --lock-filter: the lock's address, what it is, or its slab cache. */
static __always_inline bool lock_selected(__u64 lock)
{
	if (bpf_map_lookup_elem(&addr_filter, &lock))
		return true;
	if (known_filter && ((known_filter >> (known_lock(lock) & 31)) & 1))
		return true;
	if (nr_slab_filter && use_kmem_cache && ksym_exists(bpf_get_kmem_cache)) {
		struct kmem_cache *s = bpf_get_kmem_cache(lock);
		__u64 key = (__u64)s;
		if (!s)
			return false;
		__u8 *seen = bpf_map_lookup_elem(&slab_selected, &key);
		if (seen)
			return *seen;
		__u8 v = slab_name_selected(s);
		bpf_map_update_elem(&slab_selected, &key, &v, BPF_NOEXIST);
		return v;
	}
	return false;
}

/* The end of a wait: its key, its aggregation and the owner's bookkeeping in
 * one block, long on purpose: the code the verifiers of 6.1 to 6.18 were
 * shown to accept (tests in the 6.1 and 6.12 guests) stays as it is. */
static __always_inline int on_end(__u64 lock, bool ts)
{
	struct lock_tstamp *p = tstamp_get(ts, false);
	if (!p || !p->lock)
		return 0;
	if (p->lock != lock) {
		/* the end of a lock waited for inside the wait (an rwsem's or
		 * mutex's wait_lock): not counted, and the outer wait goes on,
		 * as perf does */
		count(LOCK_CNT_LOCK_MISMATCH);
		return 0;
	}
	__u64 now = bpf_ktime_get_ns();
	__u64 d = now > p->ts ? now - p->ts : 0;
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	/* by caller, one entry per lock type too (perf's type column); by lock
	 * or thread, one entry (the lock's type is that of its first wait) */
	struct lock_key k = { .flags = aggr == LOCK_AGGR_CALLER ? p->flags : 0 };
	__u32 flags = p->flags;

	switch (aggr) {
	case LOCK_AGGR_ADDR:
		k.id = lock;
		break;
	case LOCK_AGGR_TASK:
		k.id = (__u32)pid_tgid;
		break;
	case LOCK_AGGR_OWNER:
		k.id = p->owner;
		break;
	case LOCK_AGGR_CGROUP:
		k.id = bpf_get_current_cgroup_id();
		break;
	default:
		k.id = p->stack;
		break;
	}
	if (ts)
		p->lock = 0;
	else
		bpf_map_delete_elem(&tstamp_hash, &(__u32){ (__u32)pid_tgid });

	if (aggr == LOCK_AGGR_ADDR && name_locks) {
		__u32 zero = 0;
		__u64 *rq = bpf_map_lookup_elem(&rq_locks, &zero);
		if (rq && !*rq)
			*rq = this_rq_lock((struct task_struct *)bpf_get_current_task());
	}
	struct lock_value *v = bpf_map_lookup_elem(&stat, &k);
	if (!v) {
		struct lock_value nv = { .count = 1, .total = d, .max = d, .min = d, .flags = flags,
					 .obj_off = LOCK_OBJ_OFF_NONE };
		if (aggr == LOCK_AGGR_ADDR && name_locks) {
			nv.known = known_lock(lock);
			if (nv.known == LOCK_KNOWN_NONE)
				nv.slab = slab_of(lock, &nv.obj_off);
		}
		if (aggr == LOCK_AGGR_TASK) {
			char comm[16];
			__u32 tid = (__u32)pid_tgid;
			bpf_get_current_comm(comm, sizeof(comm));
			bpf_map_update_elem(&task_comms, &tid, comm, BPF_ANY);
		}
		if (!bpf_map_update_elem(&stat, &k, &nv, BPF_NOEXIST)) {
			count(LOCK_CNT_END);
			return 0;
		}
		v = bpf_map_lookup_elem(&stat, &k);
		if (!v) {
			count(LOCK_CNT_MAP_FULL);
			return 0;
		}
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->total, d);
	if (d > v->max)
		v->max = d;
	if (d < v->min)
		v->min = d;
	count(LOCK_CNT_END);
	return 0;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(btf_begin, void *lock, unsigned int flags)
{
	return on_begin(ctx, (__u64)lock, flags, true);
}

SEC("tp_btf/contention_end")
int BPF_PROG(btf_end, void *lock, int ret)
{
	return on_end((__u64)lock, true);
}

SEC("raw_tp/contention_begin")
int BPF_PROG(raw_ts_begin, void *lock, unsigned int flags)
{
	return on_begin(ctx, (__u64)lock, flags, true);
}

SEC("raw_tp/contention_end")
int BPF_PROG(raw_ts_end, void *lock, int ret)
{
	return on_end((__u64)lock, true);
}

SEC("raw_tp/contention_begin")
int BPF_PROG(raw_hash_begin, void *lock, unsigned int flags)
{
	return on_begin(ctx, (__u64)lock, flags, false);
}

SEC("raw_tp/contention_end")
int BPF_PROG(raw_hash_end, void *lock, int ret)
{
	return on_end((__u64)lock, false);
}

/* `-- CMD`: the workload is a target from its exec on; its children too. */
TARGET_FOLLOW_PROGRAMS(lock)

/* The hash design frees an exiting thread's slot. */
SEC("raw_tp/sched_process_exit")
int lock_exit(void *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	bpf_map_delete_elem(&tstamp_hash, &tid);
	return 0;
}
