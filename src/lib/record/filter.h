/* SPDX-License-Identifier: GPL-2.0-only */
/* A BPF sample filter plugged into a recording as a hook: the object's one
 * SEC("perf_event") program is attached to every sampling event (returning
 * 0 drops the sample); at the end the number of dropped samples is written
 * as a LOST_SAMPLES record marked as BPF drops, as perf does.
 *
 *   struct record_filter *f = record_filter_new(path, sets, nr_sets);
 *   struct recording_hook h = record_filter_hook(f);
 *   opts.hooks = &h; opts.nr_hooks = 1;
 *   ... the recording ...
 *   record_filter_dropped(f, &n);
 *   record_filter_free(f);
 */
#ifndef BPFPERF_RECORD_FILTER_H
#define BPFPERF_RECORD_FILTER_H

#include "record/record.h"

struct record_filter;

/* A filter from the BPF object at path; sets: "NAME=VALUE" assignments of
 * its const volatile globals (strings kept by reference). The object is
 * opened and attached when the recording's events are open. */
struct record_filter *record_filter_new(const char *path, char *const *sets, int nr_sets);
/* The hook to give the recording (ctx: the filter). */
struct recording_hook record_filter_hook(struct record_filter *f);
/* The samples the filter dropped, once the recording has finished; false
 * when they could not be counted. */
bool record_filter_dropped(const struct record_filter *f, uint64_t *dropped);
void record_filter_free(struct record_filter *f);

#endif
