/* SPDX-License-Identifier: GPL-2.0-only */
/* What runs around a recording (record.h) in bpfperf record: the kernel's
 * limits the sampling is checked against, perf's clock names, the run to
 * the end (the workload released, the stop loop, the file finished) and the
 * end of recording lines.
 *
 *   struct record_session s = RECORD_SESSION_INIT;
 *   ... its members set up, recording_open(&opts, &s.rec);
 *   record_run(s.rec, &s.wl, target, duration, &stats, &status);
 *   record_summary(stderr, &(struct record_summary){ .st = &stats, ... });
 *   record_session_free(&s);
 *
 * Nothing here names a command-line option: the lines that speak of how the
 * sampling was asked for take the caller's names for it (struct
 * record_summary). */
#ifndef BPFPERF_RECORD_RUN_H
#define BPFPERF_RECORD_RUN_H

#include "record/record.h"
#include "target/target.h"

#include <stdint.h>
#include <stdio.h>

struct record_filter;
struct sample_filter;
struct record_off_cpu;

/* The kernel's limit on call-graph depth (kernel.perf_event_max_stack;
 * 127 when it cannot be read). */
unsigned record_kernel_max_stack(void);
/* The kernel's highest sampling frequency (kernel.perf_event_max_sample_rate;
 * RECORDING_DEFAULT_FREQ when it cannot be read). */
uint64_t record_max_sample_rate(void);
/* perf's clock names (monotonic, mono, monotonic_raw, raw, realtime, real,
 * boottime, boot, tai; CLOCK_ in front, any case) or a number below 64 into
 * *id. 0, or -EINVAL (silent: the caller names where the text came from). */
int record_clockid(const char *name, int *id);

/* What a recording holds while it runs: everything that was set is freed
 * by record_session_free (the recording closed, the workload killed and
 * reaped if it is still there). */
struct record_session {
	bool *cpus;			/* the CPUs recorded on (target_cpus) */
	int ncpus;
	pid_t *threads;			/* the threads recorded (target_threads) */
	size_t nthreads;
	struct workload wl;		/* the command recorded, corked until the events are on */
	struct record_filter *filter;	/* a BPF object's filter */
	struct sample_filter *sf;	/* sample filters, */
	char **filter_texts;		/* their text per event, */
	size_t nr_filter_texts;		/* for that many events */
	struct record_off_cpu *oc;	/* off-CPU profiling */
	int cgroup_fd;			/* only the tasks of this cgroup; -1: none */
	struct recording *rec;
};
#define RECORD_SESSION_INIT { .wl = { .go_fd = -1, .err_fd = -1 }, .cgroup_fd = -1 }
void record_session_free(struct record_session *s);

/* Enable the events, release the workload (wl->pid 0: none), record until
 * it exits, the targets (t) are gone, a stop signal or the duration
 * (seconds, 0: none); then stop and finish the file. 0 with *status the
 * exit status (the workload's, or the one of a workload that could not be
 * started) and *st the counts; or a negative errno (reported). */
int record_run(struct recording *rec, struct workload *wl, const struct target *t, double duration,
	       struct recording_stats *st, int *status);

/* The end of recording lines, perf's "[ bpfperf record: ... ]". */
struct record_summary {
	const struct recording_stats *st;
	const struct recording *rec;
	const struct workload *wl;		/* an empty recording is explained by its run */
	const char *output;			/* the file, "-": the standard output */
	uint64_t freq, period;			/* the sampling (both 0: the default frequency) */
	const struct record_filter *filter;	/* a BPF object's filter, or NULL, */
	const char *bpf_object;			/* named so */
	const struct sample_filter *sf;		/* sample filters, or NULL */
	const struct record_off_cpu *oc;	/* off-CPU profiling, or NULL */
	/* The caller's words (its options): how the frequency and the period
	 * were given ("at -F 4000"), what to do when samples were lost (after
	 * "the ring buffer was full"). NULL: none. */
	const char *freq_name;
	const char *period_name;
	const char *lost_hint;
};
void record_summary(FILE *f, const struct record_summary *s);

#endif
