/* SPDX-License-Identifier: GPL-2.0-only */
/* target_filter.h: which tasks a BPF program counts, shared by every program
 * that takes a target (-p/-t/-a/-G/-- CMD) and by the user space that fills
 * the configuration and the maps. Generalised from trace.bpf.c's targets
 * map: the tgids of -p and of `-- CMD` (armed until its exec, then followed
 * across forks), the tids of -t, system-wide minus exclusions for -a, and a
 * cgroup (with its descendants) that narrows any of these.
 *
 * BPF side: include it after vmlinux.h and bpf_helpers.h; it defines the
 * rodata `target_cfg` (set between open and load) and the maps target_tgids,
 * target_tids, target_excluded and target_cgroup (filled before attach), and
 * programs call target_match(bpf_get_current_pid_tgid()).
 * User space: struct target_cfg and enum target_state only. */
#ifndef BPFPERF_TARGET_FILTER_H
#define BPFPERF_TARGET_FILTER_H

#include "shared_defs.h"

/* Values of target_tgids. */
enum target_state {
	TARGET_ARMED = 1,		/* `-- CMD` before its exec: not yet matched */
	TARGET_ON = 2,
};

#define TARGET_MAX_TGIDS 8192
#define TARGET_MAX_TIDS 8192
#define TARGET_MAX_EXCLUDED 64

struct target_cfg {
	__u32 self_tgid;		/* never matched (bpfperf itself); 0: unset */
	__u8 all;			/* every task but target_excluded tgids */
	__u8 by_tgid;			/* tgids in target_tgids that are TARGET_ON */
	__u8 by_tid;			/* tids in target_tids */
	__u8 by_cgroup;			/* only tasks under target_cgroup[0]; alone: all of them */
};

#ifdef __bpf__
const volatile struct target_cfg target_cfg = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TARGET_MAX_TGIDS);
	__type(key, __u32);		/* tgid */
	__type(value, __u8);		/* enum target_state */
} target_tgids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TARGET_MAX_TIDS);
	__type(key, __u32);		/* tid */
	__type(value, __u8);		/* unused (1) */
} target_tids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TARGET_MAX_EXCLUDED);
	__type(key, __u32);		/* tgid: bpfperf's terminal/ssh ancestry */
	__type(value, __u8);
} target_excluded SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);		/* a cgroup directory's fd, from user space */
} target_cgroup SEC(".maps");

/* Whether the task with this bpf_get_current_pid_tgid() value is a target:
 * the current task, as the cgroup test can only look at that one. */
static __always_inline bool target_match(__u64 pid_tgid)
{
	__u32 tgid = pid_tgid >> 32, tid = (__u32)pid_tgid;
	bool who;

	if (target_cfg.self_tgid && tgid == target_cfg.self_tgid)
		return false;
	if (target_cfg.all) {
		who = !bpf_map_lookup_elem(&target_excluded, &tgid);
	} else if (target_cfg.by_tgid || target_cfg.by_tid) {
		__u8 *st = target_cfg.by_tgid ? bpf_map_lookup_elem(&target_tgids, &tgid) : NULL;

		who = st && *st == TARGET_ON;
		if (!who && target_cfg.by_tid)
			who = bpf_map_lookup_elem(&target_tids, &tid) != NULL;
	} else {
		who = target_cfg.by_cgroup;
	}
	if (!who)
		return false;
	if (target_cfg.by_cgroup && bpf_current_task_under_cgroup(&target_cgroup, 0) != 1)
		return false;
	return true;
}

/* An armed tgid (`-- CMD`) has exec'ed: match it from now on. Call it where
 * the program sees the exec (sched_process_exec, or execve's entry). Returns
 * whether tgid was armed (and is now a target). */
static __always_inline bool target_start(__u32 tgid)
{
	__u8 *st = bpf_map_lookup_elem(&target_tgids, &tgid);

	if (!st || *st != TARGET_ARMED)
		return false;
	*st = TARGET_ON;
	return true;
}

/* A new process: a target if its parent is (sched_process_fork). Threads
 * share their tgid and need nothing. Returns whether the child was added. */
static __always_inline bool target_follow_fork(__u32 parent_tgid, __u32 child_tgid)
{
	__u8 on = TARGET_ON;
	__u8 *st;

	if (parent_tgid == child_tgid || !target_cfg.by_tgid)
		return false;
	st = bpf_map_lookup_elem(&target_tgids, &parent_tgid);
	if (!st || *st != TARGET_ON)
		return false;
	return !bpf_map_update_elem(&target_tgids, &child_tgid, &on, BPF_ANY);
}
/* The two programs that follow a `-- CMD` workload, for a program that
 * includes bpf_tracing.h and bpf_core_read.h: <prefix>_exec matches the
 * armed workload from its exec on, <prefix>_fork adds its children. User
 * space loads them only when the target is a workload. */
#define TARGET_FOLLOW_PROGRAMS(prefix)							\
	SEC("raw_tp/sched_process_exec")						\
	int prefix##_exec(void *ctx)							\
	{										\
		target_start(bpf_get_current_pid_tgid() >> 32);				\
		return 0;								\
	}										\
	SEC("raw_tp/sched_process_fork")						\
	int BPF_PROG(prefix##_fork, struct task_struct *parent, struct task_struct *child) \
	{										\
		target_follow_fork(BPF_CORE_READ(parent, tgid), BPF_CORE_READ(child, tgid)); \
		return 0;								\
	}
#endif /* __bpf__ */

#endif
