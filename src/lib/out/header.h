/* SPDX-License-Identifier: GPL-2.0-only */
/* A perf.data file's header and feature sections as `perf report
 * --header-only` prints them (perf 6.1's layout and wording): the file
 * layout, then every feature section present in feature-bit order, then the
 * list of missing features. */
#ifndef BPFPERF_OUT_HEADER_H
#define BPFPERF_OUT_HEADER_H

#include <stdbool.h>
#include <stdio.h>

#include "perfdata/reader.h"

/* path: the file (its modification time is the "captured on" line).
 * full: also the sections perf shows only with -I (CPU and NUMA topology,
 * caches, memory topology); without it, one "info available" line each. */
int out_header(FILE *out, const struct pd_file *f, const char *path, bool full);

#endif
