/* SPDX-License-Identifier: GPL-2.0-only */
/* perf report -D: every record of a perf.data file as perf 6.1 prints it. */
#ifndef BPFPERF_OUT_DUMP_H
#define BPFPERF_OUT_DUMP_H

#include <stdio.h>

struct pd_file;
struct profile_opts;

/* perf's note on --header, then every record of f in the order perf's report
 * delivers them (pd_process_perf_order): its raw bytes and decoded line
 * (pd_dump_record), and after a sample the thread (" ... thread: COMM:TID")
 * and the map (" ...... dso: PATH", or "<not found>") it was in then, from
 * the side-band so far (the machine of o, profile_machine_new); at the end
 * the record counts of --stats. name: the file as the raw lines name it.
 * 0, or -1 after reporting a corrupt file or a write error. */
int out_dump(FILE *out, struct pd_file *f, const char *name, const struct profile_opts *o);

#endif
