/* SPDX-License-Identifier: GPL-2.0-only */
/* stat_data.h: the layouts shared by stat.bpf.c (the --bpf-counters leader
 * program) and src/lib/feat/stat.c. */
#ifndef BPFPERF_STAT_DATA_H
#define BPFPERF_STAT_DATA_H

#include "shared_defs.h"

/* Events counted at once (perf event array slots: event * nr_cpus + cpu). */
#define STAT_MAX_EVENTS 32

/* --for-each-cgroup: cgroups counted at once, and the cgroup v2 levels
 * looked at above a task (its cgroup and its ancestors). */
#define STAT_MAX_CGROUPS 1024
#define STAT_MAX_CGROUP_LEVELS 8

/* accum's key: cgroup index * STAT_MAX_EVENTS + event; the targets' (no
 * cgroup) at index nr_cgroups (0 without cgroups). */

/* A counter reading (prev: the last one on this CPU; accum: the sum of the
 * deltas attributed to the targets on this CPU). */
struct stat_reading {
	__u64 counter;
	__u64 enabled;
	__u64 running;
	__u32 valid;		/* prev: a first reading was taken on this CPU */
	__u32 pad;
};

#endif
