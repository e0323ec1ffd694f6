/* SPDX-License-Identifier: GPL-2.0-only */
/* Text renderers for log2 histograms, shared by every command that prints
 * one: slot 0 counts the values 0 and 1, slot i (i >= 1) the values
 * [2^i, 2^(i+1) - 1]. The caller owns the counts; these only draw. */
#ifndef BPFPERF_OUT_LOG2HIST_H
#define BPFPERF_OUT_LOG2HIST_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* The histogram trimmed to its non-empty slots, one row per slot:
 *
 *                    usecs : count      distribution
 *                 4 -> 7   : 4          |********************                    |
 *                    total : 13
 *
 * label names the unit of the values ("value" if NULL); bars are scaled to
 * the largest count and a non-zero count always shows at least one '*'.
 * All slots zero: one "label : (no counts)" line. */
void out_log2_hist(FILE *f, const uint64_t *counts, uint32_t nr, const char *label);

/* One heat-map row, for histograms printed at intervals:
 * "HH:MM:SS TITLE |shades|" with when's local time, TITLE padded to 16
 * columns, and one character per slot from " .:-=+*#%@" (log scale of the
 * slot's count against the row's largest, so small counts stay visible). */
void out_log2_heat_row(FILE *f, time_t when, const char *title, const uint64_t *counts,
		       uint32_t nr);

#endif
