/* SPDX-License-Identifier: GPL-2.0-only */
/* Concurrent `stat --bpf-counters` runs counting the same events on the
 * same CPUs share one set of perf events (internal to feat/stat.c).
 *
 * The perf event array holding the events is pinned under
 * /sys/fs/bpf/bpfperf/stat-<key> and created with BPF_F_PRESERVE_ELEMS, so
 * its entries live as long as the map, not as long as the run that added
 * them: the first run opens the events and pins the map; later runs reuse
 * the pinned map (no perf event of their own) with their own programs,
 * readings and accumulators. Each run holds a shared flock on
 * /run/bpfperf/stat-<key>.users for its lifetime (the reference count, let
 * go by the kernel when a run dies); the last one to leave, or the next run
 * finding nobody holding it, removes the pin, and the map and its events
 * are freed with the last program. /run/bpfperf/stat.lock (exclusive)
 * serializes joining and leaving. */
#ifndef BPFPERF_FEAT_STAT_SHARE_H
#define BPFPERF_FEAT_STAT_SHARE_H

#include <stdbool.h>

struct stat_share;

/* Join or start the sharing of key's events (n of them): *joined tells
 * whether a live run already pinned them (supported[] then says which
 * events it could open). The registry lock is held until
 * stat_share_ready(). 0, or a negative errno (logged at debug level: the
 * caller counts without sharing). */
int stat_share_open(const char *key, int n, struct stat_share **out, bool *joined, bool *supported);
/* Where the perf event array is (or is to be) pinned. */
const char *stat_share_pin(const struct stat_share *sh);
/* The map is loaded (and pinned by the first run, which records which
 * events it opened): others may join. */
void stat_share_ready(struct stat_share *sh, const bool *supported, int n);
/* Leave; the last run removes the pin. NULL is fine. */
void stat_share_close(struct stat_share *sh);

#endif
