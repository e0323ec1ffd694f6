/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf lock contention's output: the entries sorted and filtered as
 * perf lock contention does, then perf 6.x's table (contended, total wait,
 * max wait, avg wait, then the type and caller, the address and lock, the
 * pid and comm of the waiter or the owner, or the cgroup) or JSON. */
#ifndef BPFPERF_OUT_LOCK_PRINT_H
#define BPFPERF_OUT_LOCK_PRINT_H

#include "feat/lock.h"

#include <stdbool.h>
#include <stdio.h>

/* -k: perf's sort keys, in this order in lock_sort_key_names. */
enum lock_sort_key { LOCK_KEY_WAIT_TOTAL, LOCK_KEY_CONTENDED, LOCK_KEY_WAIT_MAX, LOCK_KEY_WAIT_MIN,
		     LOCK_KEY_AVG_WAIT };
extern const char *const lock_sort_key_names[];	/* NULL-terminated */

/* Sort by key (descending), then total wait, then the key's id. */
void lock_result_sort(struct lock_result *r, enum lock_sort_key key);
/* perf's -L (locks by name, address or, for a lock in a slab object, its
 * cache's name "&<cache>" as perf names it) and -S (a frame of the caller's
 * stack whose name contains one of the words): comma-separated lists, NULL
 * for none; the entries that do not match are dropped, the order kept. */
void lock_result_filter(struct lock *l, struct lock_result *r, const char *locks, const char *callstack);

/* The first n entries. stacks: each caller's stack under it (-v). */
void lock_print_text(FILE *f, struct lock *l, const struct lock_result *r, enum lock_aggr aggr, size_t n,
		     bool stacks);
void lock_print_json(FILE *f, struct lock *l, const struct lock_result *r, enum lock_aggr aggr, size_t n);

#endif
