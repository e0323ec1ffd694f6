/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf stat's runs of the counting engine (feat/stat.h): for each run
 * (the command repeated), the command corked, the counters opened on it or
 * on the CPUs or threads, enabled, the command released, counted until the
 * stop loop ends; the counts printed every interval, or summed over the
 * runs and printed at the end (out/stat_print.h) with the elapsed time.
 *
 *   int r = stat_run(&opts, &printer);
 *
 * Nothing here names a command-line option; the caller maps the result to
 * an exit status. */
#ifndef BPFPERF_FEAT_STAT_RUN_H
#define BPFPERF_FEAT_STAT_RUN_H

#include "feat/stat.h"
#include "out/stat_print.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct target;
struct cpu_topo;

struct stat_run_opts {
	const char *events;		/* comma-separated perf event names; NULL: the default set */
	const struct target *target;	/* what is counted; its command is run each time */
	double interval_ms;		/* print the counts every interval_ms, 0: at the end */
	enum stat_aggr aggr;		/* how the CPUs' counts are summed */
	uint64_t repeat;		/* runs of the command (0: one) */
	bool bpf_counters;		/* see stat_opts */
	bool no_tp_btf;
	char **cgroup_v;		/* every event for each of these cgroups (stat_opts.cgroups) */
	size_t nr_cgroups;
	char **event_cgroup_v;		/* or one per event (stat_opts.event_cgroups) */
	size_t nr_event_cgroups;
	/* resolved by the caller from the target */
	const bool *cpus;		/* the CPUs counted on (per CPU, or BPF counters) */
	int nr_cpus;
	const struct cpu_topo *topo;	/* per core or socket: each CPU's place, by CPU number */
};

/* The runs, then the counts printed to p. The exit status of the command
 * counted (of the last run; 0 without a command, 126/127 for one that
 * could not be started), or a negative errno (reported): -BPFPERF_EUSAGE
 * when the events or a cgroup were refused, another when counting failed
 * (cli_exit_status maps them). */
int stat_run(const struct stat_run_opts *o, struct stat_printer *p);

#endif
