/* SPDX-License-Identifier: GPL-2.0-only */
/* Off-CPU profiling plugged into a recording as a hook (src/bpf/off_cpu.bpf.c):
 * the time the targets spend blocked (sleeping S or uninterruptible D), by
 * thread, kernel and user stack and state, aggregated in the kernel and
 * written as samples of a software BPF_OUTPUT event named `offcpu-time`,
 * the way perf 6.0-6.15 writes them (period = nanoseconds blocked), so that
 * perf report/script read them beside the CPU samples. Beyond perf: the
 * kernel stack (PERF_CONTEXT_KERNEL frames before the user ones, tracing
 * machinery skipped) and the task state (PERF_SAMPLE_RAW, see
 * struct off_cpu_raw in src/bpf/off_cpu_data.h).
 *
 *   struct record_off_cpu *oc = record_off_cpu_new(&opts);
 *   struct recording_hook h = record_off_cpu_hook(oc);
 *   ... the recording ...
 *   record_off_cpu_stats(oc, &st);
 *   record_off_cpu_free(oc);
 */
#ifndef BPFPERF_RECORD_OFF_CPU_H
#define BPFPERF_RECORD_OFF_CPU_H

#include "perfdata/offcpu.h"
#include "record/record.h"
#include <stdio.h>
#include "sample_filter_data.h"

struct record_off_cpu_opts {
	bool system_wide;
	int cgroup_fd;		/* only tasks in this cgroup v2 directory (and below); <= 0: none */
	const pid_t *pids;	/* -p processes */
	size_t nr_pids;
	const pid_t *tids;	/* -t threads */
	size_t nr_tids;
	pid_t workload;		/* a corked `-- CMD`, followed from its exec */
	uint64_t thresh_ns;	/* waits at least this long: a sample each, with its time (0: none) */
	int stack_skip;		/* kernel frames dropped; STACK_SKIP_AUTO (sym/stack_skip.h) */
	uint32_t map_entries;	/* aggregation entries (0: default); flushed when half full */
	int min_design;		/* testing: 1 the raw_tp + hash map design */
	/* A sample filter (--filter for every event) applied to the off-CPU
	 * samples as they are written: terms off_cpu_filter_term_ok() only. */
	const struct sample_filter_entry *filter;
	size_t nr_filter;
};

struct record_off_cpu_stats {
	uint64_t samples;	/* offcpu-time samples written */
	uint64_t waits;		/* waits measured */
	uint64_t lost;		/* waits lost (map or slot full) */
	uint64_t no_switch_in;	/* waits lost: their task's switch-in never reached the program */
	uint64_t no_stack;	/* waits with neither stack */
	uint64_t no_kstack;	/* waits without their kernel stack only */
	uint64_t stacks_full;	/* stacks lost: the stack store was full */
	uint64_t stacks_clash;	/* stacks lost: every id probed held another stack */
	uint64_t total_ns;	/* off-CPU time written */
	uint64_t filtered;	/* samples the filter dropped */
	const char *design;	/* the BPF design loaded */
};

struct record_off_cpu *record_off_cpu_new(const struct record_off_cpu_opts *o);
struct recording_hook record_off_cpu_hook(struct record_off_cpu *oc);
void record_off_cpu_stats(const struct record_off_cpu *oc, struct record_off_cpu_stats *st);
void record_off_cpu_free(struct record_off_cpu *oc);
/* The end of recording lines (perf's "[ ... ]" shape): waits, time, samples,
 * what the filter dropped and what was lost. */
void record_off_cpu_summary(const struct record_off_cpu *oc, FILE *f);

/* ---- pure helpers (unit-tested) ---- */

/* The callchain of an off-CPU sample into out[cap]: PERF_CONTEXT_KERNEL
 * and kernel frames (zero-terminated kips[0..nk)), then PERF_CONTEXT_USER
 * and user frames; either part is left out when empty. Returns the number
 * of entries (at most cap). */
size_t off_cpu_callchain(const uint64_t *kips, size_t nk, const uint64_t *uips, size_t nu, uint64_t *out,
			 size_t cap);

/* The sample filter terms an off-CPU sample has: tid, pid, ip (its first
 * frame), period (ns blocked) and time. */
bool off_cpu_filter_term_ok(uint32_t term);
/* Does a sample with these fields pass the filter's n entries? */
bool off_cpu_filter_match(const struct sample_filter_entry *e, size_t n, uint32_t pid, uint32_t tid,
			  uint64_t ip, uint64_t period, uint64_t time);

#endif
