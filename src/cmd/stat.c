// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf stat: count events like perf stat, in perf stat 6.1's output
 * formats.
 *
 *   bpfperf stat [-e EVENTS] [-a | -p PID | -t TID | -- CMD] [-C CPUS] [-I MS]
 *                [-A | --per-core | --per-socket] [-G CGROUPS | --for-each-cgroup CGROUPS]
 *                [-x SEP | -j] [-r N] [--no-big-num] [-o FILE]
 *
 * Options only: the counting engine is src/lib/feat/stat.c, its runs
 * feat/stat_run.c, the formats out/stat_print.c. */
#include "cli.h"
#include "cmds.h"
#include "feat/stat_run.h"
#include "log.h"
#include "out/ofile.h"
#include "out/stat_print.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stat_cli {
	struct stat_run_opts run;	/* -e, -I, -r, --bpf-counters, the cgroups (feat/stat_run.h) */
	struct target target;
	bool no_aggr;		/* -A */
	bool per_core, per_socket;	/* with -A: run.aggr */
	const char *sep;	/* -x */
	bool json;		/* -j */
	bool big_num;
	const char *output;
	const char *cgroups;	/* --for-each-cgroup: run.cgroup_v */
	const char *event_cgroups;	/* -G: run.event_cgroup_v ("" for an event without one) */
};

static const char description[] =
	"Count events (perf's names, :u/:k modifiers) in a command, processes, threads or\n"
	"the whole system, and print the counts in perf stat's formats (table, -x CSV,\n"
	"-j JSON lines), to stderr as perf does unless -o is given.\n";
static const char footer[] =
	"Without -e: task-clock (cpu-clock with -a/-C), context-switches, cpu-migrations,\n"
	"page-faults, and cycles, instructions, branches, branch-misses (<not supported>\n"
	"without a hardware PMU). With -- CMD its exit status is returned; Ctrl-C prints\n"
	"the counts so far. See docs/bpfperf-stat.md.\n";

/* Over 80 lines: the option table (one entry per option, perf stat's) and
 * the checks between options that the table cannot express. */
static int parse_args(int argc, char **argv, struct stat_cli *o)
{
	const struct cli_opt opts[] = {
		CLI_STR('e', "event", "EVENTS", "events to count, comma-separated: -e task-clock,page-faults:u",
			&o->run.events),
		CLI_FLAG('a', "all-cpus", "count on every CPU (the whole system)", &o->target.system_wide),
		CLI_CALL('p', "pid", "PID,...", "count existing processes (all their threads)", &o->target,
			 target_cli_pids),
		CLI_CALL('t', "tid", "TID,...", "count existing threads", &o->target, target_cli_tids),
		CLI_STR('C', "cpu", "CPUS", "count only on these CPUs (e.g. 0-1,3); implies counting per CPU",
			&o->target.cpu_list),
		CLI_DOUBLE('I', "interval-print", "MS", "print the counts every MS milliseconds", &o->run.interval_ms,
			   10, 1e9, "milliseconds, from 10 to 1e9"),
		CLI_FLAG('A', "no-aggr", "a line per CPU (with -a or -C)", &o->no_aggr),
		CLI_FLAG(0, "per-core", "a line per core: S<socket>-D<die>-C<core> and its CPUs counted\n"
			 "(with -a or -C)", &o->per_core),
		CLI_FLAG(0, "per-socket", "a line per socket: S<socket> and its CPUs counted (with -a or -C)",
			 &o->per_socket),
		CLI_STR('x', "field-separator", "SEP", "CSV output with SEP between the fields", &o->sep),
		CLI_FLAG('j', "json-output", "JSON output, one object per line", &o->json),
		CLI_U64('r', "repeat", "N", "run the command N times: means and the ( +- x% ) variance",
			&o->run.repeat, 1, 1e6, "a number of runs between 1 and 1000000"),
		CLI_FLAG('B', "big-num", "group digits by the locale's thousands separator (default)", &o->big_num),
		CLI_FLAG_OFF(0, "no-big-num", "no digit grouping", &o->big_num),
		CLI_STR('o', "output", "FILE", "write the counts to FILE instead of stderr", &o->output),
		CLI_FLAG(0, "bpf-counters", "one event per CPU, attributed to the targets by a BPF program at\n"
			 "every context switch; shared by concurrent runs of the same events", &o->run.bpf_counters),
		CLI_FLAG(0, "no-tp-btf", NULL, &o->run.no_tp_btf),	/* testing: the raw_tp fallback */
		CLI_STR('G', "cgroup", "CGROUPS", "count each event in one cgroup v2 path: the i-th for the i-th\n"
			"event of -e, empty for none (a,,b), a single one for all; with -a or -C", &o->event_cgroups),
		CLI_STR(0, "for-each-cgroup", "CGROUPS", "every event for each cgroup (cgroup v2 paths, comma-\n"
			"separated; with -a or -C)", &o->cgroups),
		CLI_END,
	};
	const struct cli_cmd cmd = {
		.name = "stat",
		.synopsis = "[OPTIONS] [-a | -p PID,... | -t TID,... | -- CMD [ARGS...]]",
		.description = description,
		.footer = footer,
		.opts = opts,
		.positional = CLI_POS_CMD,
	};
	int rc = cli_parse_cmd(&cmd, argc, argv, &o->target.argv);
	if (rc != CLI_OK)
		return rc;

	const struct target *t = &o->target;
	if (!t->nr_pids && !t->nr_tids && !t->system_wide && !t->argv && !t->cpu_list) {
		pr_err("nothing to count; give -a, -C CPUS, -p PID, -t TID or -- CMD (see 'bpfperf stat --help')");
		return CLI_USAGE_ERROR;
	}
	/* perf's "-p PID -- sleep 5": the command only times the count. */
	char **timer = o->target.argv;
	if (t->nr_pids || t->nr_tids)
		o->target.argv = NULL;
	int bad = target_check(t, TARGET_A_WITH_CMD) < 0;
	o->target.argv = timer;
	if (bad)
		return CLI_USAGE_ERROR;
	if (t->cpu_list && (t->nr_pids || t->nr_tids)) {
		pr_err("-C counts every task on those CPUs and cannot be combined with -p/-t");
		return CLI_USAGE_ERROR;
	}
	if (o->sep && o->json) {
		pr_err("-x (CSV) and -j (JSON) exclude each other; pick one");
		return CLI_USAGE_ERROR;
	}
	if (o->sep && !*o->sep) {
		pr_err("-x needs a non-empty separator, e.g. -x,");
		return CLI_USAGE_ERROR;
	}
	if (o->no_aggr + o->per_core + o->per_socket > 1) {
		pr_err("-A, --per-core and --per-socket exclude each other; pick one");
		return CLI_USAGE_ERROR;
	}
	o->run.aggr = o->no_aggr ? STAT_AGGR_CPU : o->per_core ? STAT_AGGR_CORE : o->per_socket ? STAT_AGGR_SOCKET
											      : STAT_AGGR_GLOBAL;
	if (o->run.aggr != STAT_AGGR_GLOBAL && !t->system_wide && !t->cpu_list) {
		pr_err("%s (a line per %s) needs counting per CPU: add -a or -C CPUS",
		       o->no_aggr ? "-A" : o->per_core ? "--per-core" : "--per-socket",
		       o->no_aggr ? "CPU" : o->per_core ? "core" : "socket");
		return CLI_USAGE_ERROR;
	}
	if (o->cgroups && !t->system_wide && !t->cpu_list) {
		pr_err("--for-each-cgroup counts on CPUs: add -a or -C CPUS");
		return CLI_USAGE_ERROR;
	}
	if (o->event_cgroups && o->cgroups) {
		pr_err("-G and --for-each-cgroup exclude each other; pick one");
		return CLI_USAGE_ERROR;
	}
	if (o->event_cgroups && !t->system_wide && !t->cpu_list) {
		pr_err("-G counts on CPUs: add -a or -C CPUS");
		return CLI_USAGE_ERROR;
	}
	if (o->event_cgroups && !o->run.events) {
		pr_err("-G applies to the events of -e in order; give -e EVENTS (as perf: events before cgroups)");
		return CLI_USAGE_ERROR;
	}
	if (o->event_cgroups) {	/* perf keeps the empty entries: an event without a cgroup */
		const char *c = o->event_cgroups;
		for (;;) {
			size_t len = strcspn(c, ",");
			o->run.event_cgroup_v = xrealloc(o->run.event_cgroup_v,
							 (o->run.nr_event_cgroups + 1) * sizeof(char *));
			o->run.event_cgroup_v[o->run.nr_event_cgroups++] = xstrndup(c, len);
			if (!c[len])
				break;
			c += len + 1;
		}
	}
	if (o->cgroups) {
		char *list = xstrdup(o->cgroups), *save = NULL;
		for (char *c = strtok_r(list, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
			o->run.cgroup_v = xrealloc(o->run.cgroup_v, (o->run.nr_cgroups + 1) * sizeof(char *));
			o->run.cgroup_v[o->run.nr_cgroups++] = xstrdup(c);
		}
		free(list);
		if (!o->run.nr_cgroups) {
			pr_err("--for-each-cgroup needs cgroup names, e.g. --for-each-cgroup a,b");
			return CLI_USAGE_ERROR;
		}
	}
	if (o->run.repeat > 1 && !t->argv) {
		pr_err("-r repeats a command: give one after --");
		return CLI_USAGE_ERROR;
	}
	if (o->run.repeat > 1 && o->run.interval_ms > 0) {
		pr_err("-r and -I cannot be combined; use one of them");
		return CLI_USAGE_ERROR;
	}
	return CLI_OK;
}

/* --per-core/--per-socket: where each counted CPU sits, by CPU number. */
static struct cpu_topo *read_topology(const bool *cpus, int nr_cpus)
{
	static const char dir[] = "/sys/devices/system/cpu";
	struct cpu_topo *topo = xcalloc((size_t)nr_cpus, sizeof(*topo));
	for (int c = 0; c < nr_cpus; c++) {
		int err = cpus[c] ? cpu_topology(dir, c, &topo[c]) : 0;
		if (err < 0) {
			pr_err("cannot read the topology of CPU %d (%s/cpu%d/topology): %s; count without "
			       "--per-core/--per-socket (-A gives a line per CPU)", c, dir, c, strerror(-err));
			free(topo);
			return NULL;
		}
	}
	return topo;
}

/* The CPUs and their topology (their messages name the options), then the
 * runs (feat/stat_run.h): their result as the exit status. */
static int run_stat(const struct stat_cli *o, struct stat_printer *p)
{
	const struct target *t = &o->target;
	struct stat_run_opts ro = o->run;
	bool *cpus = NULL;
	int nr_cpus = 0, ret = EXIT_FAIL;
	struct cpu_topo *topo = NULL;

	if ((t->system_wide || t->cpu_list || o->run.bpf_counters) && target_cpus(t, &cpus, &nr_cpus) < 0)
		return EXIT_USAGE;
	if ((o->run.aggr == STAT_AGGR_CORE || o->run.aggr == STAT_AGGR_SOCKET) &&
	    !(topo = read_topology(cpus, nr_cpus)))
		goto out;
	ro.target = t;
	ro.cpus = cpus;
	ro.nr_cpus = nr_cpus;
	ro.topo = topo;
	ret = cli_exit_status(stat_run(&ro, p));
out:
	/* -o FILE is checked when it is closed (out/ofile.h) */
	if (!o->output && (fflush(p->out) != 0 || ferror(p->out))) {
		pr_err("cannot write the counts to standard error: %s", strerror(errno));
		ret = EXIT_FAIL;
	}
	free(cpus);
	free(topo);
	return ret;
}

static void free_cli(struct stat_cli *o)
{
	free(o->target.pids);
	free(o->target.tids);
	for (size_t i = 0; i < o->run.nr_cgroups; i++)
		free(o->run.cgroup_v[i]);
	free(o->run.cgroup_v);
	for (size_t i = 0; i < o->run.nr_event_cgroups; i++)
		free(o->run.event_cgroup_v[i]);
	free(o->run.event_cgroup_v);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_cli o = { .big_num = true };
	/* the option the library's messages point to (log_hint) */
	log_set_hint(LOG_HINT_CGROUP_BPF_COUNTERS, "; or use --bpf-counters");
	int ret = parse_args(argc, argv, &o);
	if (ret != CLI_OK) {
		free_cli(&o);
		return cli_exit(ret);
	}
	struct stat_printer p = {
		.fmt = o.json ? STAT_FMT_JSON : o.sep ? STAT_FMT_CSV : STAT_FMT_STD,
		.sep = o.sep ? o.sep : " ",
		.big_num = o.big_num,
		.interval = o.run.interval_ms > 0,
		.aggr = o.run.aggr,
		.run_count = 1,
	};
	if (p.fmt == STAT_FMT_STD && p.big_num)
		setlocale(LC_NUMERIC, "");	/* the thousands separator, as perf */
	/* The counts are meant to be shared (0644); the file appears when complete. */
	struct ofile *of = NULL;
	if (o.output && ofile_open(o.output, OFILE_SHARED, 0, &of) < 0) {
		ret = EXIT_FAIL;
	} else {
		p.out = of ? ofile_stream(of) : stderr;
		ret = run_stat(&o, &p);
		if (ofile_close(of) < 0)
			ret = EXIT_FAIL;
	}
	free_cli(&o);
	return ret;
}
