/* SPDX-License-Identifier: GPL-2.0-only */
/* A report of a perf.data file as perf report makes it: its call graphs
 * decided against the file, the events that get a profile of their own,
 * then each profile (hist/profile.h) written as the table, JSON, folded
 * stacks or a flame graph page, with the notes on the file (samples lost,
 * filtered, malformed records, why there are none).
 *
 *   struct report rp = { .input = ..., options ..., .out = ... };
 *   report_views(&rp, &ho);                       (and hist/report_setup.h's keys)
 *   report_cg_resolve(&rp, f, &ho, &callgraph);
 *   report_pick_events(&rp, f, text, idx, &n);
 *   report_passes(&rp, &ho, callgraph, f, idx, n, text);
 *
 * Nothing here names a command-line option: the notes that end with one
 * take it from rp.hints, and what the call-graph resolution found is left
 * in rp for the caller's message. */
#ifndef BPFPERF_OUT_REPORT_H
#define BPFPERF_OUT_REPORT_H

#include "hist/filter.h"
#include "hist/profile.h"
#include "hist/report_setup.h"
#include "out/out.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pd_file;

/* The caller's hints at the end of notes (they name its options); NULL: none. */
struct report_hints {
	const char *malformed;		/* after the first malformed record's offset: how to see why */
	const char *filtered;		/* after "dropped by the BPF filter": which filter */
	const char *lost;		/* after "the profile is incomplete": what to record instead */
	const char *more_freq;		/* after "record a longer run": sampled at a frequency, */
	const char *more_period;	/* or every N events */
};

struct report {
	/* what the report shows */
	const char *input;		/* the file's name in messages */
	struct report_keys keys;	/* sort keys and columns */
	struct hist_filter filter;	/* only these commands, threads, DSOs, symbols */
	const char *cpu_list;		/* only the CPUs set in cpus (the list as given) */
	bool cpus[4096];
	const char *time;		/* only the samples in these times (profile_opts.time) */
	int percentage;			/* 0 absolute, 1 relative */
	double percent_limit;		/* hide entries below it (percent) */
	bool json, folded;
	const char *flamegraph;		/* write a flame graph page here */
	bool stats;			/* only the counts of the file's records, by type */
	bool dump;			/* every record (out/dump.h): no profile */
	bool quiet;			/* the entries only: no header lines, no notes */
	const char *event;		/* only this event's samples */
	bool hide_unresolved;		/* leave out the samples whose address has no symbol */
	const char *sym_filter;		/* only the entries whose symbol contains it */
	const char *parent_regex;	/* the sort key parent: the first frame matching it */
	uint64_t max_stack;		/* frames of each call chain used, 0: all */
	bool no_demangle;		/* keep C++ symbols mangled */
	const char *kallsyms;		/* kernel symbols from this file (see machine.h) */
	const char *buildid_dir;	/* perf's build-id cache (see machine.h) */
	int children;			/* -1 = default (children when callchains exist) */
	int callgraph;			/* -1 = default (when callchains exist) */
	bool inverted;			/* call graphs from the outermost caller */
	double cg_threshold;		/* percent, < 0: default */
	int cg_order;			/* caller (0) / callee (1); -1: default */
	enum out_cg_mode cg_mode;	/* graph, fractal, flat or folded */
	enum out_cg_value cg_value;	/* percent, period or count */
	unsigned cg_print_limit;	/* chains or kids per level (0: all) */
	/* how: set by the caller */
	FILE *out;			/* the report (not the flame graph page) */
	FILE *notes;			/* the notes on the file (standard error) */
	struct report_hints hints;
	/* resolved (report_views, report_cg_resolve), and the current pass */
	struct profile_opts po;		/* what every pass shares (views, symbols) */
	bool cg_dwarf;			/* the file's user call graphs need DWARF unwinding */
	bool cg_missing;		/* call graphs asked for, and the file has none */
	double cg_limit;		/* the call graphs' threshold in effect (percent) */
	struct profile *p;		/* the profile being written */
	struct out_folded_opts folded_opts;
	const struct pd_file *file;
};

/* The views (filters, CPUs, times, max_stack) into ho and rp->po, which
 * every pass shares. */
void report_views(struct report *rp, struct hist_opts *ho);

/* Is w a word of perf's call-graph option (or a number)? */
bool report_cg_word(const char *w);
/* perf's call-graph option TYPE,MIN_PERCENT[,PRINT_LIMIT],ORDER,KEY[,branch],VALUE
 * (NULL: call graphs with the defaults) into rp's cg_* and callgraph. 0;
 * -EOPNOTSUPP for a word we cannot draw (copied into bad); -EINVAL. */
int report_cg_parse(struct report *rp, const char *arg, char *bad, size_t badlen);
/* Call graphs against f: shown or not (*callgraph), order, threshold into
 * ho; rp->cg_dwarf and rp->cg_missing for the caller's notes. 0, or
 * -EINVAL (the sort key parent, and f has no call graphs). */
int report_cg_resolve(struct report *rp, const struct pd_file *f, struct hist_opts *ho, bool *callgraph);

/* Does e carry samples (not perf's dummy event)? */
bool report_event_sampled(const struct pd_event *e);
/* Which events of f get a profile of their own (see out/report.c): their
 * indexes in idx (64 at most), *n = 0 for one profile of every event.
 * -ENOENT after naming rp->event missing (and listing f's events). */
int report_pick_events(struct report *rp, const struct pd_file *f, bool text, size_t *idx, size_t *n);
/* The profiles of the events picked, from one pass over f
 * (profile_build_set; f is closed after), written to
 * rp->out or the flame graph page, one block per event. 0 or -1 (reported;
 * a write error is rp->out's to report). */
int report_passes(struct report *rp, const struct hist_opts *ho, bool callgraph, struct pd_file *f,
		  const size_t *idx, size_t n, bool text);

#endif
