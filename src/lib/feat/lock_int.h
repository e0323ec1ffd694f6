/* SPDX-License-Identifier: GPL-2.0-only */
/* The lock contention feature's state, shared by lock.c (designs, lifecycle,
 * reading), lock_filter.c (the lock filter), lock_names.c (naming callers,
 * locks, tasks and cgroups) and lock_result.c (sorting and filtering the
 * entries read). Not for commands. */
#ifndef BPFPERF_FEAT_LOCK_INT_H
#define BPFPERF_FEAT_LOCK_INT_H

#include "feat/lock.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;
struct lock_bpf;
struct machine;

struct lock {
	struct lock_opts o;
	struct lock_bpf *skel;
	enum lock_design design;
	const char *why;
	bool attached;
	struct machine *m;
	uint64_t sched_text[2], lock_text[2];	/* [start, end), 0 unknown */
	bool sections_read;
	struct btf *btf;	/* the kernel's, for member paths in slab objects */
	bool btf_tried;
	uint64_t *rq_locks;	/* each CPU's runqueue lock (LOCK_AGGR_ADDR), 0 unseen */
	int nr_rq_locks;
	/* the lock filter, parsed */
	uint64_t *filter_addrs;
	size_t nr_filter_addrs;
	uint32_t filter_known;	/* bit 1 << enum lock_known */
	struct lock_slab_name filter_slabs[LOCK_FILTER_SLABS];
	uint32_t nr_filter_slabs;
};

/* lock.c: the name of a design (the skel_design's, for messages). */
const char *lock_design_name(enum lock_design d);

/* ---- lock_filter.c ---- */

/* Parse the lock filter's names (lock_opts.lock_filter) into l's filter_*
 * fields: 0 or a negative errno after a message naming the word. */
int lock_filter_parse(struct lock *l, const char *list);
/* Fill the loaded skeleton's filter maps from l's filter_* fields. */
int lock_filter_fill(struct lock *l);

/* ---- lock_names.c ---- */

/* The names of enum lock_known, by value ("" for LOCK_KNOWN_NONE). */
extern const char *const lock_known_names[LOCK_KNOWN_ZONE + 1];

/* perf's lock types: the contention_begin flags, the type's name and its
 * class (the name without the mode). */
struct lock_type_name {
	uint32_t flags;
	const char *str, *cls;
};
extern const struct lock_type_name lock_type_names[];
extern const size_t lock_nr_type_names;

/* The kernel's BTF, loaded once (NULL when it cannot be read). */
const struct btf *lock_kernel_btf(struct lock *l);
/* Can the BPF side tell zone locks here? false with *why. */
bool lock_zone_lock_usable(struct lock *l, const char **why);
/* The symbol of a kernel text address, or NULL. */
const char *lock_frame_sym(struct lock *l, uint64_t ip);
/* Name an entry read from the aggregation map, by aggregation: its caller
 * (and stack) from the n frames ips, its lock, its task, its cgroup. */
void lock_name_caller(struct lock *l, struct lock_entry *e, const uint64_t *ips, size_t n);
void lock_name_lock(struct lock *l, struct lock_entry *e);
void lock_name_task(struct lock *l, struct lock_entry *e);
void lock_name_cgroup(struct lock *l, struct lock_entry *e);
/* Read each CPU's runqueue lock from the BPF side (LOCK_AGGR_ADDR). */
void lock_read_rq_locks(struct lock *l);
/* Has the kernel the bpf_get_kmem_cache kfunc (Linux 6.13+, in kallsyms),
 * by which tp_btf programs find a lock's slab cache? */
bool lock_kernel_has_kmem_cache(struct lock *l);
/* What this run lacks to name locks in slab objects, or NULL. */
const char *lock_slab_naming_missing(struct lock *l);

#endif
