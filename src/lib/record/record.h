/* SPDX-License-Identifier: GPL-2.0-only */
/* The recording engine: sampling events opened per CPU (and per task),
 * their mmapped rings drained into a perf.data file that Linux perf reads,
 * with the side band (BPF program loads) and the state that existed before
 * the recording synthesized, as perf record does.
 *
 *   struct recording *rec;
 *   recording_open(&opts, &rec);     events, rings, the file, its attrs and
 *                                    the synthesized records
 *   recording_enable(rec);           (a workload's events start at its exec)
 *   ... recording_poll(rec, ms) until done (a stop_loop's poll callback)
 *   recording_stop(rec);             disable, final drain
 *   recording_finish(rec, &stats);   header features, the finished file
 *   recording_close(rec);
 *
 * Hooks let a feature plug into a recording without copying it (the sample
 * filter in record/filter.h is one; off-CPU profiling will add an event):
 * they are called at fixed points of the lifecycle and use the accessors
 * below (sampling fds, attrs and ids, appending records, adding an event).
 *
 * Error convention (as the rest of the library): 0 or a negative errno, the
 * failure logged once by the function that saw it (what, why, what to do).
 * Nothing here prints except through log.h, and no message names an option. */
#ifndef BPFPERF_RECORD_H
#define BPFPERF_RECORD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RECORDING_DEFAULT_FREQ 4000
#define RECORDING_DEFAULT_PAGES 128

struct recording;

/* A feature plugged into a recording. Every callback is optional; a
 * negative return fails the step that called it (the hook has logged why). */
struct recording_hook {
	const char *name;
	/* The events are parsed but not open: change attrs, add events
	 * (recording_add_event), ask for lost counts. */
	int (*configure)(void *ctx, struct recording *r);
	/* The events are open and their rings mapped; the file does not exist
	 * yet: attach programs to the sampling fds. */
	int (*after_open)(void *ctx, struct recording *r);
	/* The rings were just drained (every recording_poll): drain the
	 * feature's own buffers, flush what must not grow unbounded. */
	int (*poll)(void *ctx, struct recording *r);
	/* The events are disabled and drained; the header features are not
	 * written yet: append final records (recording_write). */
	int (*before_finish)(void *ctx, struct recording *r);
	void *ctx;
};

struct recording_opts {
	const char *const *events;	/* perf event specs; none: cycles, or cpu-clock without a PMU */
	size_t nr_events;
	const int *event_leaders;	/* per spec: its group leader's index, -1 outside groups (NULL: none) */
	uint64_t freq;			/* samples per second, 0: RECORDING_DEFAULT_FREQ */
	uint64_t period;		/* sample every period events instead (0: use freq) */
	bool callchain;			/* frame-pointer call graphs */
	unsigned max_stack;		/* their depth limit (attr.sample_max_stack); 0: the kernel's */
	size_t mmap_pages;		/* data pages per CPU ring, a power of two; 0: default */
	const bool *cpus;		/* which of nr_cpus CPUs to record on */
	int nr_cpus;
	bool system_wide;		/* per-CPU events for every task */
	int cgroup_fd;			/* system wide: only tasks in this cgroup v2 directory
					 * (PERF_FLAG_PID_CGROUP); <= 0: none */
	const pid_t *threads;		/* else per-task events on these threads ... */
	size_t nr_threads;
	bool inherit;			/* ... following the children they create */
	/* A corked workload: per-task events that follow it and start at its
	 * exec; system wide, it is only left out of the synthesized processes
	 * (its exec is recorded). 0: none. */
	pid_t workload_pid;
	const char *output;		/* the perf.data path (an existing file becomes .old) */
	const char *buildid_dir;	/* perf's build-id cache: NULL = $PERF_BUILDID_DIR, else ~/.debug */
	bool no_buildid_cache;		/* do not copy the files hit into it */
	bool use_clockid;		/* the events' clock is clockid (CLOCK_MONOTONIC...), */
	int clockid;			/* not perf's default: HEADER_CLOCKID and CLOCK_DATA */
	int cmdline_argc;		/* the CMDLINE header feature */
	char *const *cmdline_argv;
	const struct recording_hook *hooks;
	size_t nr_hooks;
};

struct recording_stats {
	uint64_t samples;		/* PERF_RECORD_SAMPLE records written */
	uint64_t lost;			/* samples lost to a full ring (PERF_RECORD_LOST) */
	uint64_t records;		/* records written */
	uint64_t data_bytes;		/* size of the data section */
	uint64_t bpf_progs_missed;	/* BPF programs gone before their info was saved */
};

/* Open the events on the selected CPUs/threads, map a ring per CPU, create
 * the file, write the attrs and the synthesized records (kernel map,
 * processes, loaded BPF programs). Events stay disabled. */
int recording_open(const struct recording_opts *opts, struct recording **out);
/* Start sampling (a workload's per-task events start at its exec instead). */
int recording_enable(struct recording *r);
/* Wait up to timeout_ms for data, then append every ring's records to the
 * file. Fits struct stop_loop's poll callback (ctx: the recording). */
int recording_poll(void *r, int timeout_ms);
/* Disable the events and drain the rings a last time. */
int recording_stop(struct recording *r);
/* Run the before_finish hooks, write the header features, finish the file;
 * stats may be NULL. */
int recording_finish(struct recording *r, struct recording_stats *stats);
/* Close everything; the file stays as last committed. NULL is fine. */
void recording_close(struct recording *r);

/* ---- for hooks ---- */

/* The fds of the sampling events (every CPU and task; not the side band). */
const int *recording_sample_fds(const struct recording *r, size_t *n);
/* The events in attr order; ids: their sample ids (one per fd). */
size_t recording_nr_events(const struct recording *r);
const struct perf_event_attr *recording_attr(const struct recording *r, size_t i);
const uint64_t *recording_ids(const struct recording *r, size_t i, size_t *n);
/* Size of the sample_id trailer every non-sample record carries. */
size_t recording_id_hdr_size(const struct recording *r);
/* Counts so far (the file's data size is known from the writer). */
void recording_stats_now(const struct recording *r, struct recording_stats *s);
/* Ask the kernel to count the samples it drops at overflow (Linux 6.0+);
 * configure hooks only. */
void recording_want_lost_counts(struct recording *r);
/* Samples the kernel dropped at overflow (BPF program or full ring) summed
 * over the sampling events; -1 if the kernel cannot tell. */
int64_t recording_kernel_lost(const struct recording *r);
/* Add an event (configure hooks only): opened with pid -1 on every recorded
 * CPU, or like the sampling events (per task) with per_task. attr.disabled
 * decides whether it starts enabled. Returns its index or a negative errno. */
int recording_add_event(struct recording *r, const struct perf_event_attr *attr, const char *name,
			bool per_task);
/* The fd of event i on cpu (pid -1 events), or -1. */
int recording_event_fd(const struct recording *r, size_t i, int cpu);
/* Append one complete record (header, body, sample_id trailer) to the file. */
int recording_write(struct recording *r, const void *rec, size_t len);
/* The name of event i ("cpu-clock"), or NULL. */
const char *recording_event_name(const struct recording *r, size_t i);
/* Add sample fields to event i (configure hooks only): bits outside the
 * sample_id trailer's (not TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER). */
int recording_add_sample_type(struct recording *r, size_t i, uint64_t bits);
/* Attach the perf_event BPF program prog_fd to every fd of sampling event i
 * (after_open hooks), or of every sampling event with i == SIZE_MAX; what
 * names the program in the message of a failure. */
int recording_attach_bpf(struct recording *r, size_t i, int prog_fd, const char *what);
/* Append a LOST_SAMPLES record marked as BPF drops (what perf writes for
 * the samples a BPF filter dropped) for event i: count samples. */
int recording_write_bpf_dropped(struct recording *r, size_t i, uint64_t count);

#endif
