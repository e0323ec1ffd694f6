/* SPDX-License-Identifier: GPL-2.0-only */
/* latency_data.h: the layouts shared by src/bpf/latency.bpf.c and its engine,
 * src/lib/feat/latency.c (the one copy): the bucket configuration, the
 * per-function histogram slot, the per-thread stack of entry times and the
 * loss counters. lat_bucket() is the bucketing rule of both sides (the BPF
 * programs count with it; the printer and the unit tests label with the
 * same numbers). */
#ifndef BPFPERF_LATENCY_DATA_H
#define BPFPERF_LATENCY_DATA_H

#include "shared_defs.h"
#include "counts.h"
#include "log2_hist.h"

#define LAT_MAX_FUNCS 64	/* -T functions (a glob expands to at most this many) */
#define LAT_LOG2_BUCKETS 22	/* perf's NUM_BUCKET: "0 - 1", 1-2, ... 512-1024 ms, "1 - ... s" */
#define LAT_MAX_BUCKETS 256	/* linear buckets (--bucket-range with --max-latency) */
#define LAT_STACK_DEPTH 16	/* nested or recursive calls in flight per thread and function */
#define LAT_MAX_STACKS 16384	/* (thread, function) pairs with calls in flight */
#define LAT_MAX_SYSCALLS 512	/* syscall:NAME: numbers below this */
#define LAT_MAX_CPUS 4096	/* -C */

/* Calls not in the histogram, per function (lat_slot.lost). */
enum lat_lost {
	LAT_LOST_DEPTH = 0,	/* entries beyond LAT_STACK_DEPTH nested calls: not timed */
	LAT_LOST_NO_ENTRY,	/* returns whose entry was not seen (attached mid-call) */
	LAT_LOST_EXITED,	/* entries whose thread exited before the return */
	LAT_LOST_NO_SLOT,	/* entries lost: the map of stacks was full */
	LAT_LOST_INFLIGHT,	/* entries still in flight at the end (counted in user space) */
	LAT_LOST_NR,
};

/* One function's histogram for one generation (-i: user space flips the
 * generation, then reads and zeroes the other), per CPU. count/sum/min/max
 * in ns. */
struct lat_slot {
	__u64 buckets[LAT_MAX_BUCKETS];
	struct counts c;
	__u64 lost[LAT_LOST_NR];
};

/* The bucket configuration (rodata). Values are counted in units of
 * unit_ns (1000: usec, 1: nsec with -n). range 0: perf's log2 buckets; else
 * linear: bucket 0 [0, min), bucket i [min + (i-1)*range, min + i*range),
 * the last bucket [max, ...). */
struct lat_cfg {
	__u64 unit_ns;
	__u64 range;
	__u64 min;
	__u64 max;
	__u32 nr_buckets;	/* LAT_LOG2_BUCKETS, or (max - min) / range + 2 */
	__u32 pad;
};

/* Key and value of the map of stacks: one per thread and function with a
 * call in flight. depth may exceed LAT_STACK_DEPTH: the entries above it
 * were counted in LAT_LOST_DEPTH and their returns only pop. */
struct lat_stack_key {
	__u32 tid;
	__u32 func;
};

struct lat_stack {
	__u32 depth;
	__u32 pad;
	__u64 ts[LAT_STACK_DEPTH];
};

/* The bucket of a duration of ns nanoseconds. */
SHARED_INLINE __u32 lat_bucket(__u64 ns, __u64 unit_ns, __u64 range, __u64 min, __u64 max,
			       __u32 nr_buckets)
{
	__u64 v = unit_ns > 1 ? ns / unit_ns : ns;
	__u64 i;

	if (nr_buckets < 2)
		return 0;
	if (!range) {
		if (!v)
			return 0;
		i = (__u64)log2_u64(v) + 1;
		return i < nr_buckets ? (__u32)i : nr_buckets - 1;
	}
	if (v < min)
		return 0;
	if (v >= max)
		return nr_buckets - 1;
	i = (v - min) / range + 1;
	return i < nr_buckets - 1 ? (__u32)i : nr_buckets - 1;
}

#endif
