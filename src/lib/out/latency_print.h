/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf latency's output: perf ftrace latency's histogram (the
 * "DURATION | COUNT | GRAPH |" rows and "# statistics") per function, with a
 * "# function: NAME" line above each block when there are several and a
 * "# not measured: ..." line under a block that lost calls; or JSON. */
#ifndef BPFPERF_OUT_LATENCY_PRINT_H
#define BPFPERF_OUT_LATENCY_PRINT_H

#include "feat/latency.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Bucket i's values in units: [*low, *high); no upper bound for the last
 * one (*high = UINT64_MAX). */
void latency_bucket_bounds(const struct lat_cfg *c, uint32_t i, uint64_t *low, uint64_t *high);
/* The name of a loss counter as JSON keys and the text line show it. */
const char *latency_lost_name(enum lat_lost k);

/* One histogram block, as perf prints it. */
void latency_print_hist(FILE *f, const struct lat_cfg *c, const struct latency_hist *h, bool hide_empty);
/* Every function's block; header: the "# function:" lines (several -T). */
void latency_print_text(FILE *f, const struct lat_cfg *c, const struct latency_result *r, bool hide_empty);
/* One JSON object on one line: {"unit", "functions": [{"name", "mechanism",
 * "buckets": [{"low","high","count"}], "stats": {...}, "lost": {...}}]};
 * hide_empty drops the empty buckets. */
void latency_print_json(FILE *f, const struct lat_cfg *c, const struct latency_result *r, bool hide_empty);

#endif
