/* SPDX-License-Identifier: GPL-2.0-only */
/* stat_data.h: the layouts shared by stat.bpf.c (the --bpf-counters leader
 * program) and src/lib/feat/stat.c. */
#ifndef BPFPERF_STAT_DATA_H
#define BPFPERF_STAT_DATA_H

#include "shared_defs.h"

/* Events counted at once (perf event array slots: event * nr_cpus + cpu). */
#define STAT_MAX_EVENTS 32

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
