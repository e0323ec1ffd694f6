/* SPDX-License-Identifier: GPL-2.0-only */
/* log2_hist.h: log2 bucketing of u64 values (latencies, sizes) for histogram
 * maps, shared by every BPF program and by the user space that labels the
 * buckets. Slot 0 holds [0, 1], slot i holds [2^i, 2^(i+1) - 1]: the
 * convention the log2 histogram and heat map renderers of src/lib expect.
 * An array of LOG2_SLOTS counters covers every u64; a program may keep fewer
 * slots and clamp with log2_slot(). */
#ifndef BPFPERF_LOG2_HIST_H
#define BPFPERF_LOG2_HIST_H

#include "shared_defs.h"

#define LOG2_SLOTS 64

/* floor(log2(v)), 0 for 0 and 1. Branch-free (five compares, no loop), so
 * the verifier sees straight-line code and the result is below 64. */
SHARED_INLINE __u32 log2_u64(__u64 v)
{
	__u32 r, s;

	r = (v > 0xffffffffULL) << 5;
	v >>= r;
	s = (v > 0xffff) << 4;
	v >>= s;
	r |= s;
	s = (v > 0xff) << 3;
	v >>= s;
	r |= s;
	s = (v > 0xf) << 2;
	v >>= s;
	r |= s;
	s = (v > 0x3) << 1;
	v >>= s;
	r |= s;
	return r | (__u32)(v >> 1);
}

/* The slot of v in a histogram of nslots (>= 1) slots: the last one also
 * counts everything above it. */
SHARED_INLINE __u32 log2_slot(__u64 v, __u32 nslots)
{
	__u32 s = log2_u64(v);

	return s < nslots ? s : nslots - 1;
}

/* Smallest and largest value of slot (< LOG2_SLOTS). */
SHARED_INLINE __u64 log2_slot_low(__u32 slot)
{
	return slot ? 1ULL << slot : 0;
}

SHARED_INLINE __u64 log2_slot_high(__u32 slot)
{
	return slot >= LOG2_SLOTS - 1 ? ~0ULL : (2ULL << slot) - 1;
}

#endif
