/* SPDX-License-Identifier: GPL-2.0-only */
/* perf report -D, record by record: what perf 6.1 prints for each record
 * itself (the thread and map lines it adds after a sample need the machine:
 * out/dump.h puts the whole dump together, in perf's order). */
#ifndef BPFPERF_PERFDATA_DUMP_H
#define BPFPERF_PERFDATA_DUMP_H

#include <stdio.h>

struct pd_file;
struct pd_record;

/* The raw block of record r of f ("\nOFFSET@NAME [SIZE]: event: TYPE", the
 * bytes in hex and ASCII; name is the file as perf names it there), then the
 * decoded line: "[CPU ][TIME ]OFFSET [SIZE]: PERF_RECORD_TYPE" and the
 * type's fields as perf prints them (MMAP/MMAP2 maps, COMM, FORK/EXIT,
 * KSYMBOL, BPF_EVENT, LOST, a sample's pid, ip, period and call chain,
 * ID_INDEX, THREAD_MAP, CPU_MAP, TIME_CONV, ": unhandled!" where perf's report has no
 * handler). Returns 0, or -1 on a write error (errno set, not logged). */
int pd_dump_record(FILE *out, const struct pd_file *f, const struct pd_record *r, const char *name);

#endif
