/* SPDX-License-Identifier: GPL-2.0-only */
/* perf report -D: every record of a perf.data file in file order, each as
 * perf 6.1 starts it ("OFFSET@FILE [SIZE]: event: TYPE", the raw bytes in
 * hex and ASCII), then one line naming its type. */
#ifndef BPFPERF_PERFDATA_DUMP_H
#define BPFPERF_PERFDATA_DUMP_H

#include <stdio.h>

/* 0, or -1 after reporting why the file cannot be read. */
int pd_dump_raw(const char *path, FILE *out);

#endif
