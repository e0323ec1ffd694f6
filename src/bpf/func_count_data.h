/* SPDX-License-Identifier: GPL-2.0-only */
/* func_count_data.h: the layouts shared by src/bpf/func_count.bpf.c and its
 * reader, tests/helpers/func_count.c (the one copy): the per-CPU counters of
 * one attached function. */
#ifndef BPFPERF_FUNC_COUNT_DATA_H
#define BPFPERF_FUNC_COUNT_DATA_H

#include "shared_defs.h"

/* Keys of the per-CPU array `counters` (__u64 values, summed over CPUs). */
enum func_count_counter {
	FUNC_COUNT_CALLS = 0,	/* returns seen after their entry */
	FUNC_COUNT_TOTAL_NS,	/* entry to return, summed, in ns */
	FUNC_COUNT_NO_ENTRY,	/* returns whose entry was not seen (attached mid-call) */
	FUNC_COUNT_MAP_FULL,	/* entries lost: the map of calls in flight was full */
	FUNC_COUNT_NR,
};

/* Calls in flight at once (one per thread inside the function). */
#define FUNC_COUNT_MAX_INFLIGHT 10240

#endif
