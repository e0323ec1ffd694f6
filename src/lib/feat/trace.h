/* SPDX-License-Identifier: GPL-2.0-only */
/* The trace feature: system calls traced with BPF (src/bpf/trace.bpf.c,
 * layouts in src/bpf/trace_data.h). This module owns the skeleton; the
 * command chooses what to trace and how to print it.
 *
 *   trace_open(&opts, &tr)      probe the kernel, pick the design (BPF task
 *                               storage, or hash maps where it is missing),
 *                               load
 *   trace_start(tr, pids, wl)   fill the targets map, attach in a safe order
 *   trace_poll(tr, ms)          hand each decoded call to opts.on_event
 *                               (copied pointer arguments reassembled)
 *   trace_stop(tr)              detach (syscall hooks first), wait for the
 *                               programs still running, drain the ring buffer
 *   trace_summary(tr, &s)       the summary rows, errno rows and loss
 *                               counters, merged from the maps and per-CPU
 *                               caches, as data
 *   trace_close(tr)
 *
 * Nothing here prints (log.h messages only) or knows about options.
 * Error convention: 0 or a negative errno, one message logged. */
#ifndef BPFPERF_FEAT_TRACE_H
#define BPFPERF_FEAT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace_data.h"

struct sc_table;
struct sc_info;

#define TRACE_DEFAULT_BUFFER_SIZE (32u << 20)

/* A pointer argument's pointee as copied at entry. */
struct trace_copy {
	const void *data;	/* inside the ring buffer record: valid during the callback */
	size_t len;
	bool have;		/* false: not copied (or the copy faulted) */
};

/* One call, as handed to opts.on_event. */
struct trace_event {
	const struct trace_sc_event *rec;		/* the record in the ring buffer */
	const struct sc_info *sc;			/* its syscall; NULL if unknown */
	struct trace_copy copies[TRACE_MAX_ARGS];	/* by argument index */
};

typedef void (*trace_event_cb)(void *ctx, const struct trace_event *ev);

struct trace_opts {
	const struct sc_table *table;	/* required, outlives the trace */
	const bool *enabled;		/* [SC_MAX_NR]: syscalls traced; NULL: all in table */
	bool events;			/* one record per call, to on_event */
	bool summary;			/* per thread and syscall counts, in the kernel */
	bool errno_summary;		/* and per errno (needs summary) */
	bool failures_only;		/* events of failed calls only */
	uint64_t min_duration_ns;	/* events of calls at least this long only */
	uint64_t buffer_size;		/* ring buffer bytes; 0: TRACE_DEFAULT_BUFFER_SIZE */
	bool system_wide;		/* every process but ours and our ancestors */
	bool follow_workload;		/* trace_start gets a workload: follow its forks */
	bool bench_floor;		/* benchmark: empty programs on the same hooks */
	bool no_task_storage;		/* testing: the hash-map design even if task storage works */
	trace_event_cb on_event;	/* required with events */
	void *ctx;			/* for on_event */
};

enum trace_design {
	TRACE_DESIGN_TASK_STORAGE,	/* per-thread state in task storage, per-CPU records */
	TRACE_DESIGN_HASH_MAPS,		/* the fallback: per-thread state in hash maps */
	TRACE_DESIGN_FLOOR,		/* bench_floor */
};

struct trace;

/* Load the BPF programs for opts (copied; table and enabled are not). */
int trace_open(const struct trace_opts *opts, struct trace **tr);
/* The design loaded; *why (may be NULL) says why not task storage, or NULL. */
enum trace_design trace_design(const struct trace *tr, const char **why);
/* The ring buffer size in use (opts.buffer_size rounded up). */
uint64_t trace_buffer_size(const struct trace *tr);

/* Trace pids (all their threads) and the workload (0: none; held corked
 * until after this call: it is traced from its exec on, with its forks),
 * or everything with opts.system_wide; then attach. */
int trace_start(struct trace *tr, const pid_t *pids, size_t nr_pids, pid_t workload);
/* Wait up to timeout_ms for records and hand them to on_event: the number
 * consumed, or a negative errno (-EINTR: interrupted, not an error). */
int trace_poll(struct trace *tr, int timeout_ms);
/* Detach, wait for programs still running, hand over what is left. */
void trace_stop(struct trace *tr);
/* Calls handed to on_event so far. */
uint64_t trace_nr_events(const struct trace *tr);
/* The loss counters so far (a per-CPU map read): events lost because the
 * ring buffer was full, and calls whose arguments were lost. */
void trace_lost(struct trace *tr, uint64_t *events, uint64_t *arguments);

struct trace_sum_row {
	struct trace_sum_key key;
	struct trace_sum_val val;
	double stddev_ns;
};

struct trace_errno_row {
	struct trace_errno_key key;
	uint64_t count;
};

struct trace_summary {
	/* by pid, tid, then total time (longest first), then syscall nr */
	struct trace_sum_row *rows;
	size_t nr_rows;
	/* by tid, nr, then count (most first), then errno */
	struct trace_errno_row *errnos;
	size_t nr_errnos;
	uint64_t counters[TRACE_CNT__MAX];	/* enum trace_counter, all CPUs added */
};

/* After trace_stop: the counters, and the rows with opts.summary (errno
 * rows with opts.errno_summary). Free with trace_summary_free. */
int trace_summary(struct trace *tr, struct trace_summary *s);
void trace_summary_free(struct trace_summary *s);

/* Free everything (detaching what is still attached). NULL is fine. */
void trace_close(struct trace *tr);

#endif
