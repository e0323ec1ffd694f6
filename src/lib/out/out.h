/* SPDX-License-Identifier: GPL-2.0-only */
/* Output writers for an aggregated profile: perf-style text table (with call
 * graphs), JSON, folded stacks, and a self-contained flame graph HTML page. */
#ifndef BPFPERF_OUT_H
#define BPFPERF_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hist/hist.h"

/* perf's -g modes: graph (percentages of the total), fractal (of each
 * parent's children), flat (each chain, a frame per line), folded (each
 * chain on one line). For flat, folded and fractal the hist's call-graph
 * trees must be whole (hist_opts.callgraph_limit 0): the threshold is
 * applied here. */
enum out_cg_mode { OUT_CG_GRAPH, OUT_CG_FRACTAL, OUT_CG_FLAT, OUT_CG_FOLDED };
enum out_cg_value { OUT_CG_PERCENT, OUT_CG_PERIOD, OUT_CG_COUNT };

struct out_opts {
	const char *event_name;		/* e.g. "cpu-clock" for the "# Samples: N of event" line */
	uint64_t total_samples;		/* samples in the file (after filtering) */
	uint64_t lost_samples;		/* lost samples reported by the kernel */
	double percent_limit;		/* hide entries below this overhead percent */
	bool callgraph;			/* -g: print call-graph trees under entries */
	double callgraph_limit;		/* perf's 0.5: hide call-graph branches below it (%);
					 * in fractal mode, of each parent's children */
	enum out_cg_mode callgraph_mode;	/* -g's graph (default), fractal, flat, folded */
	enum out_cg_value callgraph_value;	/* -g's percent (default), period, count */
	unsigned callgraph_print_limit;	/* -g's print limit: chains, or kids per
					 * level (0: all) */
	const char *title;		/* flame graph title */
	bool show_nr_samples;		/* -n: a Samples column after the overheads */
	bool show_total_period;		/* --show-total-period: a Period column after them */
	const enum sort_key *fields;	/* the columns first shown, in this order (keys
					 * and SORT_OVERHEAD...), then the hist's keys
					 * not among them, as perf appends its sort keys
					 * to its output fields; NULL: the overheads,
					 * -n's samples, the period, then the keys */
	int nfields;
	bool quiet;			/* -q: no "#" lines (header, column names) */
	bool graph_skip_sym;		/* a single call-graph root does not repeat the
					 * entry's symbol on its first line (perf: when
					 * --sort starts with sym and there is no -F) */
	bool fields_strict;		/* fields are -F's own (perf's strict field
					 * order): "Overhead" even with children */
	/* A key filtered to one value (--comm X, --dsos X, --symbols X): its
	 * column is left out and "# comm: X" said once above the table, as
	 * perf does. NULL: shown. */
	const char *elide[SORT__MAX];
	const char *time_slices;	/* --time's text, shown after the sample count */
};

/* perf report --stdio layout: "# Samples: ...", column headers (Children/Self
 * or Overhead, then the sort keys), one line per entry, trees with -g. */
/* Every writer below returns 0, or -1 when a write to f failed: f's error
 * flag is then set and the caller reports it naming the file (out/ofile.h's
 * ofile_close does). */
int out_table(FILE *f, const struct hist *h, const struct out_opts *o);
/* {"total_samples": N, "lost_samples": N, "entries": [{"self": pct,
 * "children": pct, "samples": n, <sort keys>...}]} in the order of the hist
 * (sorted by the overhead shown). */
int out_json(FILE *f, const struct hist *h, const struct out_opts *o);
/* Several events' profiles (n > 1): the first's keys at the top level as
 * out_json writes them, then "events": [{"name", "samples", "period",
 * "entries"}] with every event's, in order. */
int out_json_multi(FILE *f, const struct hist *const *hs, const struct out_opts *os, size_t n);
/* "comm;outer;...;inner count" per distinct stack (count = samples). */
int out_folded(FILE *f, const struct hist *h);
struct out_folded_opts {
	const char *root;	/* a frame put under the comm, e.g. "[off-cpu]"; NULL: none */
	bool by_period;		/* count = the stack's period (ns for cpu-clock and
				 * offcpu-time), not its samples */
};
int out_folded_ex(FILE *f, const struct hist *h, const struct out_folded_opts *o);
/* One self-contained HTML file: no network, light for 1M samples, searchable,
 * zoomable. */
int out_flamegraph_html(FILE *f, const struct hist *h, const struct out_opts *o);
/* One page from several hists side by side: hist k's stacks under a frame
 * named roots[k] when given (e.g. "[off-cpu]", drawn in its own colour),
 * else at the top; by_period: widths are periods (ns for cpu-clock and
 * offcpu-time, so on- and off-CPU time compare), else samples. */
int out_flamegraph_html_multi(FILE *f, const struct hist *const *hs, const char *const *roots, size_t nh,
			      bool by_period, const struct out_opts *o);

/* perf report --stats: "Aggregated stats:", the count of each record type
 * present (nr[type], named by type_name) with its share, then per event the
 * samples. */
struct out_stats_event {
	const char *name;
	uint64_t samples;
};
int out_record_stats(FILE *f, const uint64_t *nr, size_t ntypes, const char *(*type_name)(uint32_t),
		     const struct out_stats_event *ev, size_t nev);

#endif
