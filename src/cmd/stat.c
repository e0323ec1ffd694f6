// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf stat: count events like perf stat, in perf stat 6.1's output
 * formats.
 *
 *   bpfperf stat [-e EVENTS] [-a | -p PID | -t TID | -- CMD] [-C CPUS] [-I MS]
 *                [-A | --per-core | --per-socket] [-G CGROUPS | --for-each-cgroup CGROUPS]
 *                [-x SEP | -j] [-r N] [--no-big-num] [-o FILE]
 *
 * Options and the run loop only: the counting engine is src/lib/feat/stat.c,
 * the formats stat_print.c. */
#include "cli.h"
#include "cmds.h"
#include "feat/stat.h"
#include "log.h"
#include "out/ofile.h"
#include "skel/skel.h"
#include "out/stat_print.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

struct stat_cli {
	const char *events;
	struct target target;
	double interval_ms;	/* -I, 0: none */
	bool no_aggr;		/* -A */
	bool per_core, per_socket;
	enum stat_aggr aggr;	/* from -A, --per-core, --per-socket */
	const char *sep;	/* -x */
	bool json;		/* -j */
	uint64_t repeat;	/* -r */
	bool big_num;
	const char *output;
	bool bpf_counters;
	bool no_tp_btf;
	const char *cgroups;	/* --for-each-cgroup */
	char **cgroup_v;
	size_t nr_cgroups;
	const char *event_cgroups;	/* -G */
	char **event_cgroup_v;		/* "" for an event without one */
	size_t nr_event_cgroups;
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
			&o->events),
		CLI_FLAG('a', "all-cpus", "count on every CPU (the whole system)", &o->target.system_wide),
		CLI_CALL('p', "pid", "PID,...", "count existing processes (all their threads)", &o->target,
			 target_cli_pids),
		CLI_CALL('t', "tid", "TID,...", "count existing threads", &o->target, target_cli_tids),
		CLI_STR('C', "cpu", "CPUS", "count only on these CPUs (e.g. 0-1,3); implies counting per CPU",
			&o->target.cpu_list),
		CLI_DOUBLE('I', "interval-print", "MS", "print the counts every MS milliseconds", &o->interval_ms,
			   10, 1e9, "milliseconds, from 10 to 1e9"),
		CLI_FLAG('A', "no-aggr", "a line per CPU (with -a or -C)", &o->no_aggr),
		CLI_FLAG(0, "per-core", "a line per core: S<socket>-D<die>-C<core> and its CPUs counted\n"
			 "(with -a or -C)", &o->per_core),
		CLI_FLAG(0, "per-socket", "a line per socket: S<socket> and its CPUs counted (with -a or -C)",
			 &o->per_socket),
		CLI_STR('x', "field-separator", "SEP", "CSV output with SEP between the fields", &o->sep),
		CLI_FLAG('j', "json-output", "JSON output, one object per line", &o->json),
		CLI_U64('r', "repeat", "N", "run the command N times: means and the ( +- x% ) variance",
			&o->repeat, 1, 1e6, "a number of runs between 1 and 1000000"),
		CLI_FLAG('B', "big-num", "group digits by the locale's thousands separator (default)", &o->big_num),
		CLI_FLAG_OFF(0, "no-big-num", "no digit grouping", &o->big_num),
		CLI_STR('o', "output", "FILE", "write the counts to FILE instead of stderr", &o->output),
		CLI_FLAG(0, "bpf-counters", "one event per CPU, attributed to the targets by a BPF program at\n"
			 "every context switch; shared by concurrent runs of the same events", &o->bpf_counters),
		CLI_FLAG(0, "no-tp-btf", NULL, &o->no_tp_btf),	/* testing: the raw_tp fallback */
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
	o->aggr = o->no_aggr ? STAT_AGGR_CPU : o->per_core ? STAT_AGGR_CORE : o->per_socket ? STAT_AGGR_SOCKET
											  : STAT_AGGR_GLOBAL;
	if (o->aggr != STAT_AGGR_GLOBAL && !t->system_wide && !t->cpu_list) {
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
	if (o->event_cgroups && !o->events) {
		pr_err("-G applies to the events of -e in order; give -e EVENTS (as perf: events before cgroups)");
		return CLI_USAGE_ERROR;
	}
	if (o->event_cgroups) {	/* perf keeps the empty entries: an event without a cgroup */
		const char *c = o->event_cgroups;
		for (;;) {
			size_t len = strcspn(c, ",");
			o->event_cgroup_v = xrealloc(o->event_cgroup_v, (o->nr_event_cgroups + 1) * sizeof(char *));
			o->event_cgroup_v[o->nr_event_cgroups++] = xstrndup(c, len);
			if (!c[len])
				break;
			c += len + 1;
		}
	}
	if (o->cgroups) {
		char *list = xstrdup(o->cgroups), *save = NULL;
		for (char *c = strtok_r(list, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
			o->cgroup_v = xrealloc(o->cgroup_v, (o->nr_cgroups + 1) * sizeof(char *));
			o->cgroup_v[o->nr_cgroups++] = xstrdup(c);
		}
		free(list);
		if (!o->nr_cgroups) {
			pr_err("--for-each-cgroup needs cgroup names, e.g. --for-each-cgroup a,b");
			return CLI_USAGE_ERROR;
		}
	}
	if (o->repeat > 1 && !t->argv) {
		pr_err("-r repeats a command: give one after --");
		return CLI_USAGE_ERROR;
	}
	if (o->repeat > 1 && o->interval_ms > 0) {
		pr_err("-r and -I cannot be combined; use one of them");
		return CLI_USAGE_ERROR;
	}
	return CLI_OK;
}

struct runner {
	const struct stat_cli *o;
	struct stat_printer *p;
	struct stat_engine *s;
	bool per_cpu;		/* counting on CPUs */
	int nr_ctrs, nr_slots;
	struct stat_value *prev, *cur;
	struct stat_cells *total;	/* over the runs */
	struct cpu_topo *topo;		/* --per-core/--per-socket: by CPU number */
	uint64_t t0, last_tick;
};

/* -I: the counts since the last print. */
static int print_interval(struct runner *r)
{
	uint64_t now = now_ns();
	int n = r->nr_ctrs * r->nr_slots;
	if (stat_read(r->s, r->cur) < 0)
		return -EIO;
	struct stat_value *d = xcalloc(n, sizeof(*d));
	stat_values_delta(r->cur, r->prev, d, n);
	struct stat_cells *cells = stat_cells_new(r->s, r->o->aggr, r->topo);
	stat_cells_add(cells, d);
	r->p->ts_ns = now - r->t0;
	stat_print_interval_start(r->p);
	stat_cells_print(r->p, cells, r->s, r->o->interval_ms * 1e6);
	fflush(r->p->out);
	memcpy(r->prev, r->cur, n * sizeof(*r->cur));
	r->last_tick = now;
	stat_cells_free(cells);
	free(d);
	return 0;
}

static int tick_interval(void *ctx)
{
	return print_interval(ctx);
}

static int poll_sleep(void *ctx, int timeout_ms)
{
	(void)ctx;
	if (poll(NULL, 0, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	return 0;
}

struct run_result {
	int status;		/* the exit status for this run */
	bool stopped;		/* a stop signal: no more runs */
	bool counted;		/* the counts were read (else nothing is printed) */
	double elapsed_s;
};

/* One run: open, start, wait, read into r->total. */
static void one_run(struct runner *r, const pid_t *tids, size_t nr_tids, const bool *cpus, int nr_cpus,
		    struct run_result *res)
{
	const struct stat_cli *o = r->o;
	struct workload wl = { .go_fd = -1, .err_fd = -1 };
	struct stat_engine *s = NULL;
	int err;
	char msg[1024] = "";

	res->status = EXIT_FAIL;
	if (o->target.argv && (err = workload_prepare(&wl, o->target.argv)) < 0) {
		res->status = workload_failed_status(err);
		return;
	}
	struct stat_opts so = {
		.events = o->events,
		.per_cpu = r->per_cpu,
		.cpus = cpus,
		.nr_cpus = nr_cpus,
		.tids = tids,
		.nr_tids = nr_tids,
		.workload = r->per_cpu || nr_tids ? 0 : wl.pid,
		.bpf_counters = o->bpf_counters,
		.no_tp_btf = o->no_tp_btf,
		.cgroups = o->cgroup_v,
		.nr_cgroups = o->nr_cgroups,
		.event_cgroups = o->event_cgroup_v,
		.nr_event_cgroups = o->nr_event_cgroups,
		.system_wide = r->per_cpu,
		.pids = o->target.pids,
		.nr_pids = o->target.nr_pids,
		.only_tids = o->target.tids,
		.nr_only_tids = o->target.nr_tids,
	};
	if (o->bpf_counters && !r->per_cpu)
		so.workload = o->target.nr_pids || o->target.nr_tids ? 0 : wl.pid;
	err = stat_open(&so, &s, msg, sizeof(msg));
	if (err == -ENOENT || err == -EINVAL) {
		pr_err("%s", msg);
		res->status = EXIT_USAGE;
		goto out;
	}
	if (err < 0)
		goto out;
	if (!r->s) {
		r->nr_ctrs = stat_nr_counters(s);
		r->nr_slots = stat_nr_slots(s);
		r->total = stat_cells_new(s, o->aggr, r->topo);
		r->prev = xcalloc(r->nr_ctrs * r->nr_slots, sizeof(*r->prev));
		r->cur = xcalloc(r->nr_ctrs * r->nr_slots, sizeof(*r->cur));
		const char *why, *design = stat_bpf_design(s, &why);
		if (design)
			pr_info("BPF counters: the leader program on sched_switch is %s%s%s", design,
				why ? ": " : "", why ? why : "");
		if (stat_hw_missing(s))
			pr_info("no hardware PMU here: cycles, instructions, branches and branch-misses are "
				"<not supported>");
	}
	if (r->s != s)
		stat_close(r->s);	/* the previous run's (-r) */
	r->s = s;
	memset(r->prev, 0, r->nr_ctrs * r->nr_slots * sizeof(*r->prev));

	if ((r->per_cpu || nr_tids || !wl.pid) && stat_enable(s) < 0)
		goto out;
	r->t0 = now_ns();
	/* A stop signal while setting up: the workload is not released; the
	 * stop loop ends it at once. */
	if (wl.pid > 0 && !stop_signal_received() && (err = workload_start(&wl)) < 0) {
		res->status = workload_failed_status(err);
		goto out;
	}
	struct stop_loop loop = {
		.wl = wl.pid > 0 ? &wl : NULL,
		.target = &o->target,
		.interval = o->interval_ms / 1e3,
		.poll = poll_sleep,
		.tick = o->interval_ms > 0 ? tick_interval : NULL,
		.ctx = r,
	};
	enum stop_reason why = stop_loop_run(&loop);
	uint64_t t1 = now_ns();
	stat_disable(s);
	res->elapsed_s = (double)(t1 - r->t0) / 1e9;
	res->stopped = why == STOP_SIGNAL;
	if (o->interval_ms > 0) {
		if (print_interval(r) < 0)
			goto out;
	} else {
		if (stat_read(s, r->cur) < 0)
			goto out;
		stat_cells_add(r->total, r->cur);
	}
	res->counted = true;
	if (why == STOP_ERROR)
		res->status = EXIT_FAIL;
	else
		res->status = wl.pid > 0 ? workload_exit_status(&wl) : EXIT_OK;
out:
	workload_destroy(&wl);
	if (s != r->s)
		stat_close(s);
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
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

static int run_stat(const struct stat_cli *o, struct stat_printer *p)
{
	const struct target *t = &o->target;
	struct runner r = { .o = o, .p = p, .per_cpu = t->system_wide || t->cpu_list };
	bool *cpus = NULL;
	int nr_cpus = 0, ret = EXIT_FAIL;
	pid_t *tids = NULL;
	size_t nr_tids = 0;
	struct stat_acc elapsed = { 0 };
	struct rusage ru0, ru1;

	if ((r.per_cpu || o->bpf_counters) && target_cpus(t, &cpus, &nr_cpus) < 0)
		return EXIT_USAGE;
	if ((o->aggr == STAT_AGGR_CORE || o->aggr == STAT_AGGR_SOCKET) && !(r.topo = read_topology(cpus, nr_cpus)))
		goto out;
	if ((t->nr_pids || t->nr_tids) && target_threads(t, &tids, &nr_tids) < 0)
		goto out;
	stop_signals_install(false);
	getrusage(RUSAGE_CHILDREN, &ru0);
	int runs = o->repeat ? (int)o->repeat : 1, done = 0;
	for (int i = 0; i < runs; i++) {
		struct run_result res = { 0 };
		one_run(&r, tids, nr_tids, cpus, nr_cpus, &res);
		ret = res.status;
		if (!res.counted) {
			if (done)
				pr_err("run %d of %d could not be counted; the %d runs before it are not printed",
				       i + 1, runs, done);
			goto out;	/* nothing half-counted is printed as if complete */
		}
		stat_acc_add(&elapsed, res.elapsed_s);
		done++;
		if (res.stopped)
			break;
	}
	getrusage(RUSAGE_CHILDREN, &ru1);
	if (o->interval_ms > 0)
		goto out;
	p->run_count = done;
	char *what = stat_describe_target(t);
	stat_print_header(p, what);
	free(what);
	stat_cells_print(p, r.total, r.s, elapsed.mean * 1e9);
	stat_print_footer(p, elapsed.mean, stat_acc_stddev_mean(&elapsed),
			  t->argv && !r.per_cpu && !nr_tids && done == 1,
			  tv_s(&ru1.ru_utime) - tv_s(&ru0.ru_utime), tv_s(&ru1.ru_stime) - tv_s(&ru0.ru_stime));
out:
	/* -o FILE is checked when it is closed (out/ofile.h) */
	if (!o->output && (fflush(p->out) != 0 || ferror(p->out))) {
		pr_err("cannot write the counts to standard error: %s", strerror(errno));
		ret = EXIT_FAIL;
	}
	stat_close(r.s);
	stat_cells_free(r.total);
	free(r.prev);
	free(r.cur);
	free(tids);
	free(cpus);
	free(r.topo);
	return ret;
}

static void free_cli(struct stat_cli *o)
{
	free(o->target.pids);
	free(o->target.tids);
	for (size_t i = 0; i < o->nr_cgroups; i++)
		free(o->cgroup_v[i]);
	free(o->cgroup_v);
	for (size_t i = 0; i < o->nr_event_cgroups; i++)
		free(o->event_cgroup_v[i]);
	free(o->event_cgroup_v);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_cli o = { .big_num = true };
	int ret = parse_args(argc, argv, &o);
	if (ret != CLI_OK) {
		free_cli(&o);
		return cli_exit(ret);
	}
	struct stat_printer p = {
		.fmt = o.json ? STAT_FMT_JSON : o.sep ? STAT_FMT_CSV : STAT_FMT_STD,
		.sep = o.sep ? o.sep : " ",
		.big_num = o.big_num,
		.interval = o.interval_ms > 0,
		.aggr = o.aggr,
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
