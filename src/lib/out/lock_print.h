/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf lock contention's output: perf 6.x's table (contended, total
 * wait, max wait, avg wait, then the type and caller, the address and lock,
 * the pid and comm of the waiter or the owner, or the cgroup) or JSON, of
 * entries sorted and filtered as perf lock contention does (feat/lock.h:
 * lock_result_sort, lock_result_filter). */
#ifndef BPFPERF_OUT_LOCK_PRINT_H
#define BPFPERF_OUT_LOCK_PRINT_H

#include "feat/lock.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* perf's time column: ns below 1 us, else "%*.2f us|ms|s |m |h " in width
 * characters; width 0: plain nanoseconds (CSV). Returns buf. */
char *lock_fmt_time(uint64_t ns, int width, char *buf, size_t len);

/* The first n entries. stacks: each caller's stack under it (-v). */
void lock_print_text(FILE *f, struct lock *l, const struct lock_result *r, enum lock_aggr aggr, size_t n,
		     bool stacks);
void lock_print_json(FILE *f, struct lock *l, const struct lock_result *r, enum lock_aggr aggr, size_t n);

#endif
