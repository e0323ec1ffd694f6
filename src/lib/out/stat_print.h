/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf stat's output in perf stat 6.1's formats: the table, -x SEP
 * (CSV), -j (JSON lines), with -I timestamps, -A CPU columns and -r
 * variance, so that scripts written for perf stat read it unchanged. */
#ifndef BPFPERF_STAT_PRINT_H
#define BPFPERF_STAT_PRINT_H

#include "feat/stat.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum stat_fmt { STAT_FMT_STD, STAT_FMT_CSV, STAT_FMT_JSON };

/* How the CPUs' counts are summed: all in one, one line per CPU (-A), per
 * core (--per-core: socket, die, core) or per socket (--per-socket). */
enum stat_aggr { STAT_AGGR_GLOBAL, STAT_AGGR_CPU, STAT_AGGR_CORE, STAT_AGGR_SOCKET };

struct stat_printer {
	FILE *out;
	enum stat_fmt fmt;
	const char *sep;	/* CSV separator; " " for the table */
	bool big_num;		/* thousands grouping (locale's) in the table */
	int run_count;		/* -r */
	bool interval;		/* -I: a timestamp starts every line */
	uint64_t ts_ns;		/* -I: the timestamp of the lines being printed */
	int nr_interval_prints;	/* the table's header is repeated every 25 */
	enum stat_aggr aggr;	/* the interval header's columns, the core/socket prefix */
};

/* One line: a counter in one aggregation (all CPUs, or one with -A). */
struct stat_row {
	const struct stat_counter *c;
	int cpu;		/* -A: the CPU, else -1 */
	struct cpu_topo id;	/* --per-core/--per-socket: the core or socket */
	int nr_cpus;		/* --per-core/--per-socket: the CPUs summed */
	bool counted;		/* false: <not counted> (never ran) */
	double avg;		/* scaled count (mean over -r runs), raw units */
	double stddev;		/* of the mean over -r runs, 0 for one */
	uint64_t run, ena;	/* running / enabled time, ns */
	double clock_ns;	/* the clock counter's value in the same aggregation, < 0: none */
	double wall_ns;		/* elapsed time (the interval with -I) */
};

void stat_print_header(struct stat_printer *p, const char *what);
/* Before the lines of one interval (the table's column header). */
void stat_print_interval_start(struct stat_printer *p);
void stat_print_row(struct stat_printer *p, const struct stat_row *r);
/* The elapsed time (mean, stddev of the mean over -r runs), and user/sys
 * seconds when ru is true. */
void stat_print_footer(struct stat_printer *p, double elapsed_s, double elapsed_sd, bool ru, double user_s,
		       double sys_s);

/* Counts of an engine summed over its slots into aggregations (all slots
 * in one, one per slot with -A, one per core or socket in perf's order:
 * by socket, die, core) and averaged over -r runs: what the table's rows
 * show. topo[cpu]: each CPU's place (--per-core/--per-socket only). */
struct stat_cells;
struct stat_cells *stat_cells_new(const struct stat_engine *s, enum stat_aggr aggr, const struct cpu_topo *topo);
/* Add one run's (or interval's) values[counter * nr_slots + slot]. */
void stat_cells_add(struct stat_cells *c, const struct stat_value *values);
/* One row per counter and aggregation; wall_ns: the elapsed time (the
 * interval with -I). Each row's rate is against the clock counter of its
 * aggregation and cgroup. */
void stat_cells_print(struct stat_printer *p, const struct stat_cells *c, const struct stat_engine *s,
		      double wall_ns);
void stat_cells_free(struct stat_cells *c);

/* What the table's title names: "'true'", "'system wide'", "'CPU(s) 0-1'",
 * "process id '1,2'", "thread id '3'" (malloc'd). */
struct target;
char *stat_describe_target(const struct target *t);
/* d[i] = cur[i] - prev[i] for n values (-I's counts of one interval). */
void stat_values_delta(const struct stat_value *cur, const struct stat_value *prev, struct stat_value *d, int n);

/* perf's standard error of the mean from n, sum and sum of squares... kept
 * as Welford's running mean and M2. */
struct stat_acc {
	unsigned n;
	double mean, m2;
};
void stat_acc_add(struct stat_acc *a, double x);
double stat_acc_stddev_mean(const struct stat_acc *a);

#endif
