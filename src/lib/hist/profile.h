/* SPDX-License-Identifier: GPL-2.0-only */
/* A profile read from a perf.data file (ours or perf's):
 *
 *   struct profile p;
 *   profile_build(&p, file, &opts);   decode, symbolize, aggregate into p.h
 *   out_table(stdout, p.h, ...);      any output of out/out.h
 *   profile_free(&p);
 *
 * Side-band records (COMM, MMAP/MMAP2, FORK/EXIT, KSYMBOL, BPF program info)
 * build the machine; samples go to the aggregation thread (aggregate.h).
 * Malformed side-band records are skipped and counted, never fatal. */
#ifndef BPFPERF_PROFILE_H
#define BPFPERF_PROFILE_H

#include "hist/filter.h"
#include "hist/hist.h"

#include <stdbool.h>
#include <stdint.h>

struct pd_file;
struct pd_event;
struct machine;
struct aggregator;
struct tp_formats;
struct tpkeys;

struct profile_opts {
	struct hist_opts hist;	/* sort keys, children, call chains */
	bool no_demangle;	/* keep C++ symbols mangled */
	const char *kallsyms;	/* kernel symbols from this file, or NULL (see machine.h) */
	const char *buildid_dir;	/* perf's build-id cache, or NULL (see machine.h) */
	const char *name;	/* the file's name, for messages */
	const struct pd_event *only_event;	/* only this event's samples; NULL: every event's */
	const char *time;	/* only samples in these time ranges (time_ranges_parse's
				 * syntax, percent slices of the recording included); NULL: all */
	const bool *cpus;	/* only samples of the CPUs set here (ncpus entries); NULL: all */
	int ncpus;
	unsigned max_stack;	/* keep max_stack frames of each call chain (perf
				 * report --max-stack): the innermost, or in caller
				 * order (children, caller_order) the outermost, the
				 * sampled frame then off_chain; 0: all */
	bool count_records;	/* fill profile.nr_records and event_samples (perf's --stats) */
	/* Tracepoint sort keys: hist.keys' SORT_TP0 + j stands for tp_names[j]
	 * (hist/tpkeys.h), expanded for the event profiled (only_event, else
	 * the first sampled one) from the file's HEADER_TRACING_DATA. */
	char *const *tp_names;
	/* The file's tracepoint formats, loaded once by the caller for every
	 * pass (tp_formats_load; NULL: each pass loads them) */
	const struct tp_formats *tp_formats;
	bool raw_trace;		/* perf's --raw-trace: fields' raw values */
};

#define PROFILE_MAX_EVENTS 64
#define PROFILE_RECORD_TYPES 128

struct profile {
	struct machine *m;	/* shared by a set's profiles (profile_build_set) */
	struct hist *h;		/* the result, finished */
	struct aggregator *agg;
	uint64_t samples;	/* samples aggregated */
	uint64_t lost;		/* samples the kernel lost (ring buffer full) */
	uint64_t filtered;	/* samples a BPF filter dropped on purpose */
	const struct pd_event *sample_event;	/* the first sampled event */
	const struct pd_event *only_event;	/* profile_opts.only_event */
	uint64_t malformed;	/* side-band records skipped */
	uint32_t malformed_type;	/* the first one's type and offset */
	uint64_t malformed_offset;
	uint64_t dropped;	/* samples outside the time ranges or CPUs asked for */
	uint64_t no_task;	/* samples of pid -1: the kernel could not name the task
				 * (it was exiting); perf credits them to a thread ":-1" */
	uint64_t nr_records[PROFILE_RECORD_TYPES];	/* count_records: records by type */
	uint64_t event_samples[PROFILE_MAX_EVENTS];	/* count_records: samples by event index */
	struct time_range *ranges;	/* parsed opts.time */
	size_t nranges;
	const struct pd_file *file;
	const bool *cpus;
	int ncpus;
	unsigned max_stack;
	bool max_stack_outer;
	bool count_records;
	struct tp_formats *tp_formats;	/* the file's, when there are tracepoint keys
					 * (and no profile_opts.tp_formats) */
	struct tpkeys *tpk;		/* their values */
	const struct pd_event *tp_event;	/* the event they are for */
	bool shares;		/* m, agg and ranges are another profile's of its set */
};

/* Index and decode f into p (which it initializes). 0, or -EINVAL after
 * reporting a file that cannot be read or a bad time range. Free p with profile_free either way. */
int profile_build(struct profile *p, struct pd_file *f, const struct profile_opts *o);
/* The profiles of n events (1 <= n <= PROFILE_MAX_EVENTS) from one pass
 * over f, as n profile_build calls with opts.only_event = events[i] would
 * make them (events[0] NULL, with n = 1: every event's): one index, one
 * machine and one decoding of the records for all; ps[i] is events[i]'s.
 * 0 or -EINVAL as profile_build. Free with profile_set_free either way. */
int profile_build_set(struct profile *ps, size_t n, struct pd_file *f, const struct profile_opts *o,
		      const struct pd_event *const *events);
void profile_free(struct profile *p);
void profile_set_free(struct profile *ps, size_t n);

/* The machine profile_build uses for f (free with machine_free): the options
 * of o (kallsyms, build-id cache, demangling), perf's idle task named
 * swapper, the file's build-ids and BPF program info given (a malformed
 * section is warned about). Feed it the side-band with profile_sideband. */
struct machine *profile_machine_new(const struct pd_file *f, const struct profile_opts *o);
/* One side-band record into m: COMM, MMAP/MMAP2, FORK/EXIT, KSYMBOL (other
 * types change nothing). 0, or -EINVAL when its decoder refuses it. */
struct pd_record;
int profile_sideband(struct machine *m, const struct pd_record *r);

/* The address space of a record's PERF_RECORD_MISC_CPUMODE bits. */
enum addr_space profile_addr_space(uint16_t misc);

#endif
