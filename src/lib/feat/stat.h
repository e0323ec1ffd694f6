/* SPDX-License-Identifier: GPL-2.0-only */
/* The counting engine of bpfperf stat: perf events opened per task (the
 * workload, the -p/-t threads) or per CPU (system wide), read with their
 * enabled and running times and scaled when the kernel multiplexed them.
 *
 *   stat_open(&opts, &s)      parse the events, open them (disabled)
 *   stat_enable(s)            counting starts (a workload's counters start
 *                             at its exec by themselves)
 *   stat_read(s, values)      cumulative counts, per counter and slot
 *   stat_disable(s); stat_close(s)
 *
 * A slot is one CPU (per-CPU counting) or the whole task set (threads
 * summed). An event the kernel or this machine does not have is kept as
 * "not supported" (perf prints such a line) instead of failing. */
#ifndef BPFPERF_FEAT_STAT_H
#define BPFPERF_FEAT_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct stat_opts {
	const char *events;	/* comma-separated perf event names; NULL: the default set */
	bool per_cpu;		/* count on CPUs (all tasks) instead of tasks */
	const bool *cpus;	/* per_cpu: which CPUs (nr_cpus entries) */
	int nr_cpus;
	const pid_t *tids;	/* !per_cpu: existing threads to count */
	size_t nr_tids;
	pid_t workload;		/* !per_cpu: a corked workload (counts from its exec, children included) */
	/* BPF counters: one event per event per CPU (on the cpus given, all
	 * of them for tasks), a BPF program at every context switch adding
	 * the deltas to the targets' accumulators. The targets then: */
	bool bpf_counters;
	bool system_wide;	/* every task but bpfperf (per_cpu is the output's per-CPU split) */
	const pid_t *pids;	/* processes (followed by tgid) */
	size_t nr_pids;
	const pid_t *only_tids;	/* threads */
	size_t nr_only_tids;
	bool no_tp_btf;		/* testing: the raw_tp design */
	/* Every event for each of these cgroup v2 paths (relative to the
	 * cgroup2 mount), counted per CPU (per_cpu required). */
	char *const *cgroups;
	size_t nr_cgroups;
	/* Or one cgroup per event, perf's -G rule: the i-th entry for the
	 * i-th event, "" for none (counted on the CPUs as without cgroups);
	 * a single entry for every event. At most as many as events. */
	char *const *event_cgroups;
	size_t nr_event_cgroups;
};

struct stat_counter {
	char *name;		/* as perf prints it: "task-clock", "page-faults:u" */
	const char *unit;	/* "msec" for the clocks, "" otherwise */
	double scale;		/* 1e-6 for the clocks (ns -> msec), 1 otherwise */
	bool is_clock;		/* task-clock or cpu-clock: the time base of the rates */
	bool supported;		/* false: the event does not exist here */
	const char *cgroup;	/* the cgroup counted ("" for none with per-event
				 * cgroups: perf's empty column), NULL without cgroups */
};

struct stat_value {
	uint64_t val, ena, run;	/* raw count, time enabled, time running (ns) */
};

struct stat_engine;

/* 0, or a negative errno, logged where it was seen (log.h):
 * -BPFPERF_EUSAGE when the caller's configuration is refused (an event
 * list that does not parse, with the close matches of an event; a cgroup
 * that does not exist; too many cgroups or events), another when the
 * counters cannot be opened. Counters: for each cgroup (or once), each
 * event (per-event cgroups: each event once). */
int stat_open(const struct stat_opts *o, struct stat_engine **out);
int stat_nr_counters(const struct stat_engine *s);
const struct stat_counter *stat_counter(const struct stat_engine *s, int i);
/* Slots per counter: the selected CPUs, or 1. */
int stat_nr_slots(const struct stat_engine *s);
/* The CPU number of a slot (per-CPU counting), else -1. */
int stat_slot_cpu(const struct stat_engine *s, int slot);
/* BPF counters: the design loaded ("tp_btf" or "raw_tp") and why the
 * better one was not, else NULL. */
const char *stat_bpf_design(const struct stat_engine *s, const char **why);
/* Did the default set ask for hardware events this machine has no PMU for? */
bool stat_hw_missing(const struct stat_engine *s);
int stat_enable(struct stat_engine *s);
int stat_disable(struct stat_engine *s);
/* values[counter * nr_slots + slot]: cumulative since open. 0 or -errno. */
int stat_read(struct stat_engine *s, struct stat_value *values);
void stat_close(struct stat_engine *s);

/* The count scaled for multiplexing (val * ena / run), 0 when it never ran. */
double stat_scaled(const struct stat_value *v);

#endif
