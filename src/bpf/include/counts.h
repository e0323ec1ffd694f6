/* SPDX-License-Identifier: GPL-2.0-only */
/* counts.h: count, sum, min, max and an exact 128-bit sum of squares of a
 * series of values (latencies in ns, sizes), so that user space can print the
 * mean and standard deviation without a histogram. Shared by every BPF program
 * and by user space: the same counts_add() and counts_merge() run on both
 * sides (BPF adds per event, user space merges per-CPU copies and threads).
 *
 * A struct counts is updated by one writer at a time (a per-CPU value, or a
 * per-thread key written only by that thread): nothing here is atomic.
 * Empty: all zero but min = ~0 (COUNTS_EMPTY). */
#ifndef BPFPERF_COUNTS_H
#define BPFPERF_COUNTS_H

#include "shared_defs.h"

struct counts {
	__u64 count;
	__u64 sum;
	__u64 min;			/* ~0 while empty */
	__u64 max;
	__u64 sumsq_lo;			/* sum of squared values, 128 bits */
	__u64 sumsq_hi;
};

#define COUNTS_EMPTY_INIT { .min = ~0ULL }	/* in initializers */
#define COUNTS_EMPTY ((struct counts)COUNTS_EMPTY_INIT)

/* v * v as 128 bits (exact), without a 128-bit type (BPF has none). */
SHARED_INLINE void counts_square128(__u64 v, __u64 *lo, __u64 *hi)
{
	if (v < (1ULL << 32)) {
		*lo = v * v;
		*hi = 0;
		return;
	}
	__u64 a = v >> 32, b = v & 0xffffffffULL;
	__u64 bb = b * b, ab = a * b;
	/* v^2 = a^2 << 64 + 2ab << 32 + b^2 */
	__u64 l = bb + (ab << 33);
	*hi = a * a + (ab >> 31) + (l < bb);
	*lo = l;
}

/* (hi:lo) += (ahi:alo), 128 bits. */
SHARED_INLINE void counts_add128(__u64 *lo, __u64 *hi, __u64 alo, __u64 ahi)
{
	__u64 l = *lo + alo;
	*hi += ahi + (l < alo);
	*lo = l;
}

/* Count one value. */
SHARED_INLINE void counts_add(struct counts *c, __u64 v)
{
	__u64 lo, hi;

	c->count++;
	c->sum += v;
	if (v < c->min)
		c->min = v;
	if (v > c->max)
		c->max = v;
	counts_square128(v, &lo, &hi);
	counts_add128(&c->sumsq_lo, &c->sumsq_hi, lo, hi);
}

/* Add the values counted in src into dst. */
SHARED_INLINE void counts_merge(struct counts *dst, const struct counts *src)
{
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	counts_add128(&dst->sumsq_lo, &dst->sumsq_hi, src->sumsq_lo, src->sumsq_hi);
}

#ifndef __bpf__
#include <math.h>

/* Sample standard deviation (n - 1), 0 below two values. long double keeps
 * the 128-bit sum of squares' precision where a double would cancel. */
static inline double counts_stddev(const struct counts *c)
{
	if (c->count < 2)
		return 0;
	long double n = (long double)c->count;
	long double sumsq = (long double)c->sumsq_hi * 18446744073709551616.0L +
			    (long double)c->sumsq_lo;
	long double mean = (long double)c->sum / n;
	long double var = (sumsq - n * mean * mean) / (n - 1);
	return var > 0 ? (double)sqrtl(var) : 0;
}

static inline double counts_mean(const struct counts *c)
{
	return c->count ? (double)c->sum / (double)c->count : 0;
}
#endif

#endif
