/* SPDX-License-Identifier: GPL-2.0-only */
/* The lock contention feature: lock:contention_begin/end aggregated in the
 * kernel (src/bpf/lock.bpf.c), read back as entries with their lock type,
 * caller or lock name resolved (kallsyms, slab caches, well-known locks).
 *
 *   lock_open(&opts, &l);            probe, pick the design, load
 *   lock_start(l, pids, n, workload) targets, attach
 *   lock_poll(l, ms)                 the stop loop's wait (nothing to drain)
 *   lock_stop(l); lock_read(l, &r);  detach, read and resolve the entries
 *   lock_result_free(&r); lock_close(l);
 *
 * Error convention: 0 or a negative errno after one logged message. */
#ifndef BPFPERF_FEAT_LOCK_H
#define BPFPERF_FEAT_LOCK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lock_data.h"
#include "target_filter.h"

struct lock;

enum lock_design {
	LOCK_DESIGN_BTF_TS = 0,		/* tp_btf programs, task storage */
	LOCK_DESIGN_RAW_TS = 1,		/* raw_tp programs, task storage */
	LOCK_DESIGN_RAW_HASH = 2,	/* raw_tp programs, hash map */
};

struct lock_opts {
	enum lock_aggr aggr;
	bool system_wide;
	bool follow_workload;
	uint64_t type_mask;	/* bit (1 << flags) per lock type to keep; 0: all */
	uint32_t max_stack;	/* frames kept per stack from the caller on (1..LOCK_STACK_MAX) */
	int stack_skip;		/* leading frames dropped; STACK_SKIP_AUTO: sym/stack_skip.h's rule */
	uint32_t map_entries;	/* aggregation entries (0: 16384) */
	int min_design;		/* testing: skip the better designs (enum lock_design) */
	/* only these locks, filtered in the kernel (comma-separated: addresses,
	 * mmap_lock, siglock, rq_lock, zone_lock, &<slab cache>, kernel data
	 * symbols); NULL: all. Not with LOCK_AGGR_ADDR, whose entries are
	 * filtered by name afterwards (lock_result_filter). */
	const char *lock_filter;
};

struct lock_entry {
	struct lock_key key;
	struct lock_value v;
	const char *name;	/* caller (symbol+off), lock name or comm; "" unknown */
	uint64_t *stack;	/* LOCK_AGGR_CALLER: from the caller on, 0-terminated */
	uint32_t nr_stack;
	bool named;		/* LOCK_AGGR_ADDR: the lock could be named */
	const char *cache;	/* LOCK_AGGR_ADDR: "&<slab cache>" (perf's name) of a lock in a
				 * slab object, also when name is its member path; else NULL */
};

struct lock_result {
	struct lock_entry *e;
	size_t n;
	uint64_t counters[LOCK_CNT__MAX];
	size_t nr_unnamed;	/* LOCK_AGGR_ADDR: entries whose lock has no name */
	const char *unnamed_why;	/* then: what the kernel lacks to name more, or NULL */
};

int lock_open(const struct lock_opts *o, struct lock **out);
/* Is every name of a lock filter (lock_opts.lock_filter) one the kernel side
 * can select? 0, or after a message naming the word -BPFPERF_EUSAGE (no
 * such lock, too many), -EOPNOTSUPP (zone_lock where zones cannot be told)
 * or another negative errno. */
int lock_filter_check(const char *list);
enum lock_design lock_design(const struct lock *l, const char **why);
int lock_start(struct lock *l, const pid_t *pids, size_t nr_pids, pid_t workload);
int lock_poll(struct lock *l, int timeout_ms);
void lock_stop(struct lock *l);
int lock_read(struct lock *l, struct lock_result *r);
/* symbol+offset of a kernel text address (as perf shows callers), in buf. */
const char *lock_symbolize(struct lock *l, uint64_t addr, char *buf, size_t len);
/* Does a frame of the entry's stack have a symbol containing sub (perf's
 * --callstack-filter)? */
bool lock_stack_matches(struct lock *l, const struct lock_entry *e, const char *sub);
void lock_result_free(struct lock_result *r);
void lock_close(struct lock *l);

/* ---- the entries read (lock_result.c) ---- */

/* -k: perf's sort keys, in this order in lock_sort_key_names. */
enum lock_sort_key { LOCK_KEY_WAIT_TOTAL, LOCK_KEY_CONTENDED, LOCK_KEY_WAIT_MAX, LOCK_KEY_WAIT_MIN,
		     LOCK_KEY_AVG_WAIT };
extern const char *const lock_sort_key_names[];	/* NULL-terminated */

/* Sort by key (descending), then total wait, then the key's id. */
void lock_result_sort(struct lock_result *r, enum lock_sort_key key);
/* perf's -L (locks by name, address or, for a lock in a slab object, its
 * cache's name "&<cache>" as perf names it) and -S (a frame of the caller's
 * stack whose name contains one of the words): comma-separated lists, NULL
 * for none; the entries that do not match are dropped, the order kept. */
void lock_result_filter(struct lock *l, struct lock_result *r, const char *locks, const char *callstack);

/* The average wait of an entry (ns), 0 without contentions. */
static inline uint64_t lock_entry_avg_wait(const struct lock_entry *e)
{
	return e->v.count ? e->v.total / e->v.count : 0;
}

/* ---- pure helpers (no kernel, unit tested) ---- */

/* perf's lock type names of contention_begin flags: "spinlock", "rwlock:R",
 * "rwsem:W", "mutex", "semaphore", "pcpu-sem:R", ...; "unknown" otherwise.
 * lock_type_class: the type without the mode ("rwsem", "percpu-rwsem"). */
const char *lock_type_str(uint32_t flags);
const char *lock_type_class(uint32_t flags);
/* The flags values a type name selects ("rwsem" both modes, "rwsem:R" one,
 * "mutex", "spinlock"...) as bits 1 << flags; 0 if the name is unknown. */
uint64_t lock_type_mask(const char *name);

enum lock_frame {
	LOCK_FRAME_OTHER = 0,	/* a caller */
	LOCK_FRAME_TRACING,	/* the tracing machinery above the tracepoint */
	LOCK_FRAME_LOCK,	/* a lock's own function (perf skips these for the caller) */
};
/* Classify a kernel function by name (used where the lock and scheduler text
 * sections are not known, and for the tracing frames). */
enum lock_frame lock_frame_class(const char *sym);

struct btf;
/* The BTF struct, typedef and member types a lock of these flags is (the
 * lock's type class: "rw_semaphore", "mutex", "spinlock_t"...),
 * NULL-terminated; NULL for an unknown type. */
const char *const *lock_btf_types(uint32_t flags);
/* "&<struct>.<member path>" of the lock obj_off bytes into an object of
 * the slab cache si (btf/btf_path.h: the cache's struct, then the member of
 * the lock's type at that offset), in buf. 0, or -ENOENT when the cache's
 * struct is not known or no member of the lock's type is there. */
int lock_slab_member_name(const struct btf *btf, const struct lock_slab_info *si, uint64_t obj_off,
			  uint32_t flags, char *buf, size_t len);

#endif
