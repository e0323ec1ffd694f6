// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf stat's printers against lines perf stat 6.1 printed on this
 * machine (the same numbers in, the same bytes out): the table, -x, CSV,
 * -j JSON, -A and -I prefixes, -r variance, the footer. No privileges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/stat_print.h"

static const struct stat_counter task_clock = { .name = "task-clock", .unit = "msec", .scale = 1e-6,
						.is_clock = true, .supported = true };
static const struct stat_counter page_faults = { .name = "page-faults", .unit = "", .scale = 1, .supported = true };
static const struct stat_counter cycles = { .name = "cycles", .unit = "", .scale = 1, .supported = false };

static char buf[4096];

static struct stat_printer printer(enum stat_fmt fmt, FILE *f)
{
	struct stat_printer p = { .out = f, .fmt = fmt, .sep = fmt == STAT_FMT_CSV ? "," : " ", .run_count = 1 };
	return p;
}

static const char *row(enum stat_fmt fmt, int runs, const struct stat_row *r)
{
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct stat_printer p = printer(fmt, f);
	p.run_count = runs;
	stat_print_row(&p, r);
	fclose(f);
	return buf;
}

/* task-clock 2407180 ns over 4.2528 ms wall, 47 page-faults: perf's
 * "2.41,msec,task-clock,2407180,100.00,0.566,CPUs utilized" */
static void test_csv(void **state)
{
	(void)state;
	struct stat_row tc = { .c = &task_clock, .cpu = -1, .counted = true, .avg = 2407180, .run = 2407180,
			       .ena = 2407180, .clock_ns = 2407180, .wall_ns = 4252800 };
	assert_string_equal(row(STAT_FMT_CSV, 1, &tc), "2.41,msec,task-clock,2407180,100.00,0.566,CPUs utilized\n");
	struct stat_row pf = tc;
	pf.c = &page_faults;
	pf.avg = 47;
	assert_string_equal(row(STAT_FMT_CSV, 1, &pf), "47,,page-faults,2407180,100.00,19.525,K/sec\n");
	struct stat_row cy = { .c = &cycles, .cpu = -1, .clock_ns = 2407180, .wall_ns = 4252800 };
	assert_string_equal(row(STAT_FMT_CSV, 1, &cy), "<not supported>,,cycles,0,100.00,,\n");
	/* -G: perf's cgroup column, empty for an event without one */
	static const struct stat_counter pf_nocg = { .name = "page-faults", .unit = "", .scale = 1, .supported = true,
						     .cgroup = "" };
	struct stat_row ng = { .c = &pf_nocg, .cpu = -1, .counted = true, .avg = 6418, .run = 410700783,
			       .ena = 410700783, .clock_ns = -1 };
	assert_string_equal(row(STAT_FMT_CSV, 1, &ng), "6418,,page-faults,,410700783,100.00,,\n");
	/* -A, -r: "CPU0,..." and the variance after the event */
	pf.cpu = 0;
	pf.clock_ns = -1;
	pf.stddev = 47 * 0.0213;
	assert_string_equal(row(STAT_FMT_CSV, 2, &pf), "CPU0,47,,page-faults,2.13%,2407180,100.00,,\n");
}

static void test_table(void **state)
{
	(void)state;
	struct stat_row tc = { .c = &task_clock, .cpu = -1, .counted = true, .avg = 3140000, .run = 1, .ena = 1,
			       .clock_ns = 3140000, .wall_ns = 3140000 / 0.396 };
	assert_string_equal(row(STAT_FMT_STD, 1, &tc),
			    "              3.14 msec task-clock                       #    0.396 CPUs utilized          \n");
	struct stat_row pf = tc;
	pf.c = &page_faults;
	pf.avg = 48;
	pf.clock_ns = 48 / 15.310e3 * 1e9;
	assert_string_equal(row(STAT_FMT_STD, 1, &pf),
			    "                48      page-faults                      #   15.310 K/sec                  \n");
	pf.stddev = 48 * 0.0069;
	assert_string_equal(row(STAT_FMT_STD, 3, &pf),
			    "                48      page-faults                      #   15.310 K/sec                    ( +-  0.69% )\n");
	pf.clock_ns = -1;
	pf.stddev = 0;
	assert_string_equal(row(STAT_FMT_STD, 1, &pf),
			    "                48      page-faults                                                        \n");
	struct stat_row cy = { .c = &cycles, .cpu = -1 };
	assert_string_equal(row(STAT_FMT_STD, 1, &cy),
			    "   <not supported>      cycles                                                      \n");
	/* multiplexed: scaled by the caller, the running percentage shown */
	pf.run = 1;
	pf.ena = 4;
	assert_string_equal(row(STAT_FMT_STD, 1, &pf),
			    "                48      page-faults                                                          (25.00%)\n");
}

static void test_json_interval(void **state)
{
	(void)state;
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct stat_printer p = printer(STAT_FMT_JSON, f);
	p.interval = true;
	p.ts_ns = 200496385;
	struct stat_row tc = { .c = &task_clock, .cpu = -1, .counted = true, .avg = 4773284, .run = 4773284,
			       .ena = 4773284, .clock_ns = 4773284, .wall_ns = 200e6 };
	stat_print_row(&p, &tc);
	fclose(f);
	assert_string_equal(buf, "{\"interval\" : 0.200496385, \"counter-value\" : \"4.773284\", \"unit\" : \"msec\", "
				 "\"event\" : \"task-clock\", \"event-runtime\" : 4773284, \"pcnt-running\" : 100.00, "
				 "\"metric-value\" : 0.023866, \"metric-unit\" : \"CPUs utilized\"}\n");
	struct stat_row pf = { .c = &page_faults, .cpu = 1, .counted = true, .avg = 2184, .run = 131768289,
			       .ena = 131768289, .clock_ns = -1 };
	assert_string_equal(row(STAT_FMT_JSON, 1, &pf),
			    "{\"cpu\" : \"1\", \"counter-value\" : \"2184.000000\", \"unit\" : \"\", \"event\" : "
			    "\"page-faults\", \"event-runtime\" : 131768289, \"pcnt-running\" : 100.00, "
			    "\"metric-value\" : 0.000000, \"metric-unit\" : \"(null)\"}\n");
}

/* --per-core and --per-socket prefixes, against perf 6.1's lines on this
 * machine ("S0-D0-C0           1             520.03 msec cpu-clock ..."). */
static void test_aggr(void **state)
{
	(void)state;
	struct stat_row tc = { .c = &task_clock, .cpu = -1, .id = { .socket = 0, .die = 0, .core = 1 }, .nr_cpus = 1,
			       .counted = true, .avg = 501704542, .run = 501704542, .ena = 501704542,
			       .clock_ns = 501704542, .wall_ns = 501704542 };
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct stat_printer p = printer(STAT_FMT_CSV, f);
	p.aggr = STAT_AGGR_CORE;
	stat_print_row(&p, &tc);
	fclose(f);
	assert_string_equal(buf, "S0-D0-C1,1,501.70,msec,task-clock,501704542,100.00,1.000,CPUs utilized\n");
	f = fmemopen(buf, sizeof(buf), "w");
	p = printer(STAT_FMT_STD, f);
	p.aggr = STAT_AGGR_CORE;
	tc.avg = 520030000;
	tc.wall_ns = 518205892;
	stat_print_row(&p, &tc);
	fclose(f);
	assert_string_equal(buf, "S0-D0-C1           1             520.03 msec task-clock                       "
				 "#    1.004 CPUs utilized          \n");
	f = fmemopen(buf, sizeof(buf), "w");
	p = printer(STAT_FMT_STD, f);
	p.aggr = STAT_AGGR_SOCKET;
	struct stat_row pf = { .c = &page_faults, .cpu = -1, .nr_cpus = 2, .counted = true, .avg = 53542, .run = 1,
			       .ena = 1, .clock_ns = 1008910000 };
	stat_print_row(&p, &pf);
	fclose(f);
	assert_string_equal(buf, "S0        2              53542      page-faults                      "
				 "#   53.069 K/sec                  \n");
	f = fmemopen(buf, sizeof(buf), "w");
	p = printer(STAT_FMT_JSON, f);
	p.aggr = STAT_AGGR_SOCKET;
	p.interval = true;
	p.ts_ns = 300376244;
	pf.avg = 33501;
	pf.run = pf.ena = 1018931326;
	pf.clock_ns = 1018930473;
	stat_print_row(&p, &pf);
	fclose(f);
	assert_string_equal(buf, "{\"interval\" : 0.300376244, \"socket\" : \"S0\", \"aggregate-number\" : 2, "
				 "\"counter-value\" : \"33501.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", "
				 "\"event-runtime\" : 1018931326, \"pcnt-running\" : 100.00, \"metric-value\" : 32.878593, "
				 "\"metric-unit\" : \"K/sec\"}\n");
	f = fmemopen(buf, sizeof(buf), "w");
	p = printer(STAT_FMT_STD, f);
	p.aggr = STAT_AGGR_CORE;
	p.interval = true;
	stat_print_interval_start(&p);
	p.aggr = STAT_AGGR_SOCKET;
	p.nr_interval_prints = 0;
	stat_print_interval_start(&p);
	fclose(f);
	assert_string_equal(buf, "#           time core            cpus             counts unit events\n"
				 "#           time socket cpus             counts unit events\n");
}

/* The topology of a CPU from a sysfs-like directory; no die_id: die 0. */
static void test_topology(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_topology.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/cpu3/topology && cd %s/cpu3/topology && echo 1 >physical_package_id && "
		 "echo 2 >die_id && echo 7 >core_id && mkdir -p %s/cpu4/topology && cd %s/cpu4/topology && "
		 "echo 0 >physical_package_id && echo 5 >core_id", dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	struct cpu_topo t;
	assert_int_equal(cpu_topology(dir, 3, &t), 0);
	assert_int_equal(t.socket, 1);
	assert_int_equal(t.die, 2);
	assert_int_equal(t.core, 7);
	assert_int_equal(cpu_topology(dir, 4, &t), 0);
	assert_int_equal(t.socket, 0);
	assert_int_equal(t.die, 0);
	assert_int_equal(t.core, 5);
	assert_int_equal(cpu_topology(dir, 5, &t), -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_footer(void **state)
{
	(void)state;
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct stat_printer p = printer(STAT_FMT_STD, f);
	p.run_count = 3;
	stat_print_footer(&p, 0.01288, 0.00306, false, 0, 0);
	fclose(f);
	assert_string_equal(buf, "\n           0.01288 +- 0.00306 seconds time elapsed  ( +- 23.76% )\n\n");
	f = fmemopen(buf, sizeof(buf), "w");
	p = printer(STAT_FMT_STD, f);
	stat_print_footer(&p, 0.007912684, 0, true, 0, 0.008041);
	fclose(f);
	assert_string_equal(buf, "\n       0.007912684 seconds time elapsed\n\n"
				 "       0.000000000 seconds user\n       0.008041000 seconds sys\n\n\n");
}

static void test_acc(void **state)
{
	(void)state;
	struct stat_acc a = { 0 };
	stat_acc_add(&a, 1);
	stat_acc_add(&a, 2);
	stat_acc_add(&a, 3);
	assert_true(fabs(a.mean - 2) < 1e-12);
	assert_true(fabs(stat_acc_stddev_mean(&a) - sqrt(1.0 / 3)) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_json_interval),
		cmocka_unit_test(test_aggr),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_footer),
		cmocka_unit_test(test_acc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
