/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf kwork's output: perf kwork's tables (report, latency, timehist,
 * top) with its columns, widths and units, or JSON; --hist's log2
 * histograms under the table. The entries come sorted and filtered
 * (feat/kwork.h). */
#ifndef BPFPERF_OUT_KWORK_PRINT_H
#define BPFPERF_OUT_KWORK_PRINT_H

#include "feat/kwork.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The JSON names of enum kwork_counter, by value. */
extern const char *const kwork_counter_names[KWORK_CNT__MAX];

/* report (runtime) or latency (delay): the table; summary: perf's -S lines;
 * hist: each entry's histogram after the table. */
void kwork_print_table(FILE *f, enum kwork_view v, const struct kwork_result *r, bool summary, bool hist);
void kwork_print_timehist_header(FILE *f);
void kwork_print_timehist_event(FILE *f, const struct kwork_tevent *ev);
/* The last line of timehist: the events shown and those lost. */
void kwork_print_timehist_end(FILE *f, uint64_t shown, const uint64_t *counters);
void kwork_print_top(FILE *f, const struct kwork_top *t);

void kwork_print_json(FILE *f, enum kwork_view v, const struct kwork_result *r, const struct kwork_top *t,
		      bool hist);
/* timehist --json: one object per line. */
void kwork_print_timehist_json(FILE *f, const struct kwork_tevent *ev);
void kwork_print_timehist_json_end(FILE *f, uint64_t shown, const uint64_t *counters);

#endif
