/* SPDX-License-Identifier: GPL-2.0-only */
/* Off-CPU samples in perf.data (written by record/off_cpu.c, read by
 * report): samples of a software BPF_OUTPUT event named `offcpu-time`, the
 * way perf 6.0-6.15 writes them (period = nanoseconds blocked), whose RAW
 * data is a struct off_cpu_raw (src/bpf/off_cpu_data.h: the task state and
 * the number of waits summed). */
#ifndef BPFPERF_PERFDATA_OFFCPU_H
#define BPFPERF_PERFDATA_OFFCPU_H

#include <stdint.h>

#define OFF_CPU_EVENT_NAME "offcpu-time"
/* The time of samples aggregated over the whole recording (perf's
 * OFF_CPU_TIMESTAMP shape: after every real sample). */
#define OFF_CPU_TIME_END (~0ull << 32)

/* The state letter of ps: 'S' sleeping, 'D' disk (uninterruptible), 'I'
 * idle (D with NOLOAD), '?' other. */
char off_cpu_state_char(uint32_t state);

#endif
