// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf stat --bpf-counters: one perf event per event per CPU, read by
 * this leader program at every context switch; the delta since the last
 * reading on this CPU belongs to the task being switched out and is added
 * to the accumulators when that task is a target (target_filter.h). The
 * final (and every -I) read runs stat_read_cpu on each CPU through
 * BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU: there "current" is the task
 * that CPU was running, whose slice so far is attributed the same way.
 * With cgroups (--for-each-cgroup, -G) the deltas also go to the listed
 * cgroups the task is in (itself or an ancestor); the targets' accumulators
 * come after the cgroups'. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "stat_data.h"
#include "target_filter.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 nr_events = 0;
const volatile __u32 nr_cpus = 1;	/* possible CPUs: the event array's stride */
const volatile __u32 nr_cgroups = 0;	/* the cgroups counted (cgroup_idx) */
/* The target filter's tasks counted too, in the accumulators after the
 * cgroups' (key nr_cgroups * STAT_MAX_EVENTS + event): without cgroups, and
 * for the events without one (per-event cgroups). */
const volatile bool count_targets = true;

/* Pinned and shared by concurrent runs of the same events: the entries
 * live as long as the map, not as long as the run that added them. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(map_flags, BPF_F_PRESERVE_ELEMS);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, STAT_MAX_EVENTS);
	__type(key, __u32);
	__type(value, struct stat_reading);
} prev SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, STAT_MAX_EVENTS);	/* x nr_cgroups, set by user space */
	__type(key, __u32);
	__type(value, struct stat_reading);
} accum SEC(".maps");

/* The deltas of this switch, per event (too big for the stack). */
struct stat_deltas {
	struct stat_reading d[STAT_MAX_EVENTS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stat_deltas);
} deltas SEC(".maps");

/* cgroup v2 id -> its index in --for-each-cgroup's list */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, STAT_MAX_CGROUPS);
	__type(key, __u64);
	__type(value, __u32);
} cgroup_idx SEC(".maps");

/* Read event e on this CPU: the delta since the last reading into *d
 * (zero for the first reading). */
static __always_inline void read_event(__u32 e, __u32 cpu, struct stat_reading *d)
{
	struct bpf_perf_event_value v;
	struct stat_reading *p;

	d->valid = 0;
	if (bpf_perf_event_read_value(&events, e * nr_cpus + cpu, &v, sizeof(v)))
		return;
	p = bpf_map_lookup_elem(&prev, &e);
	if (!p)
		return;
	if (p->valid) {
		d->counter = v.counter - p->counter;
		d->enabled = v.enabled - p->enabled;
		d->running = v.running - p->running;
		d->valid = 1;
	}
	p->counter = v.counter;
	p->enabled = v.enabled;
	p->running = v.running;
	p->valid = 1;
}

static __always_inline void add_delta(__u32 key, const struct stat_reading *d)
{
	struct stat_reading *a;

	if (!d->valid)
		return;
	a = bpf_map_lookup_elem(&accum, &key);
	if (a) {
		a->counter += d->counter;
		a->enabled += d->enabled;
		a->running += d->running;
	}
}

/* Add the deltas to every listed cgroup the current task is in, at any
 * level (hierarchy-aware, as perf's cgroup events on cgroup v2). */
static __always_inline void add_to_cgroups(struct stat_deltas *ds)
{
#pragma clang loop unroll(full)
	for (int lvl = 0; lvl < STAT_MAX_CGROUP_LEVELS; lvl++) {
		__u64 id = bpf_get_current_ancestor_cgroup_id(lvl);
		__u32 *idx = id ? bpf_map_lookup_elem(&cgroup_idx, &id) : NULL;

		if (!idx || *idx >= STAT_MAX_CGROUPS)
			continue;
		__u32 base = *idx * STAT_MAX_EVENTS;
#pragma clang loop unroll(full)
		for (__u32 e = 0; e < STAT_MAX_EVENTS; e++)
			if (e < nr_events)
				add_delta(base + e, &ds->d[e]);
	}
}

static __always_inline int account(void)
{
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0;
	bool match = count_targets && target_match(bpf_get_current_pid_tgid());
	__u32 target_base = nr_cgroups * STAT_MAX_EVENTS;
	struct stat_deltas *ds = bpf_map_lookup_elem(&deltas, &zero);

	if (!ds)
		return 0;
	/* Unrolled: the verifier sees each key as a constant. */
#pragma clang loop unroll(full)
	for (__u32 e = 0; e < STAT_MAX_EVENTS; e++) {
		if (e < nr_events) {
			read_event(e, cpu, &ds->d[e]);
			if (match)
				add_delta(target_base + e, &ds->d[e]);
		}
	}
	if (nr_cgroups)
		add_to_cgroups(ds);
	return 0;
}

/* The leader: sched_switch runs while the outgoing task is still current. */
SEC("tp_btf/sched_switch")
int BPF_PROG(stat_switch_btf)
{
	return account();
}

/* The same where the kernel has no BTF-typed tracepoints. */
SEC("raw_tp/sched_switch")
int BPF_PROG(stat_switch_raw)
{
	return account();
}

/* Run on each CPU by BPF_PROG_TEST_RUN: the first readings, and the reads. */
SEC("raw_tp")
int stat_read_cpu(void *ctx)
{
	return account();
}

/* `-- CMD`: counted from its exec on, and its children. */
TARGET_FOLLOW_PROGRAMS(stat)
