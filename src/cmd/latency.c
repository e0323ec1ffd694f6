// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf latency (also `bpfperf ftrace latency`): histograms of function
 * durations measured with BPF, as perf 6.17's `perf ftrace latency -b`,
 * one per -T function.
 *
 *   bpfperf latency -T FUNC [-T FUNC...] | -e BEGIN,END
 *                   [-a | -p PID | --tid TID | -C CPUS | -G CGROUP | -- CMD]
 *                   [-n] [--bucket-range N [--min-latency N] [--max-latency N]]
 *                   [--hide-empty] [--json] [--duration SEC] [-i SEC]
 *
 * Options and output only: the engine is src/lib/feat/latency.c, the kernel
 * side src/bpf/latency.bpf.c, the printer src/lib/out/latency_print.c. */
#include <linux/types.h>

#include "cli.h"
#include "cmds.h"
#include "feat/latency.h"
#include "log.h"
#include "out/latency_print.h"
#include "skel/skel.h"
#include "target/cgroup.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct latency_cli {
	struct cli_strv funcs;	/* -T */
	const char *events;	/* -e */
	const char *cgroup;	/* -G */
	bool use_bpf, nsec, hide_empty, json;
	uint64_t range, min, max;
	double duration, interval;
	struct lat_cfg cfg;
	struct target target;
};

static const char description[] =
	"The duration of functions as histograms, measured in the kernel with BPF, as\n"
	"perf ftrace latency -b does, one histogram per -T function. FUNC is a kernel\n"
	"function or a glob of them (fentry/fexit, else kprobes), BINARY:FUNC or PID:FUNC\n"
	"(uprobes) or syscall:NAME (raw_syscalls). Nested and recursive calls are each\n"
	"measured; calls that cannot be are counted under the histogram.\n";
static const char footer[] =
	"Without a target the whole system is observed. See docs/bpfperf-latency.md.\n";

static int parse_args(int argc, char **argv, struct latency_cli *o)
{
	const struct cli_opt opts[] = {
		CLI_STRV('T', "trace-funcs", "FUNC", "a function to measure (repeatable): kernel function or\n"
			 "glob, BINARY:FUNC, PID:FUNC, syscall:NAME", &o->funcs),
		CLI_STR('e', "events", "BEGIN,END", "the time between two tracepoints on one thread\n"
			"(CATEGORY:NAME,CATEGORY:NAME)", &o->events),
		CLI_FLAG('b', "use-bpf", "measure with BPF (the only mode; accepted as perf's)", &o->use_bpf),
		CLI_FLAG('a', "all-cpus", "the whole system (default without another target)",
			 &o->target.system_wide),
		CLI_CALL('p', "pid", "PID,...", "existing processes (all their threads)", &o->target,
			 target_cli_pids),
		CLI_CALL(0, "tid", "TID,...", "existing threads", &o->target, target_cli_tids),
		CLI_STR('C', "cpu", "CPUS", "only calls that start on these CPUs", &o->target.cpu_list),
		CLI_STR('G', "cgroup", "CGROUP", "only tasks in this cgroup v2 path (and below it)", &o->cgroup),
		CLI_FLAG('n', "use-nsec", "nanosecond units instead of microseconds", &o->nsec),
		CLI_U64(0, "bucket-range", "N", "linear buckets N units wide (default: log2 buckets)",
			&o->range, 1, 1e12, "a positive number of units"),
		CLI_U64(0, "min-latency", "N", "the first linear bucket's upper bound (default: the range)",
			&o->min, 1, 1e12, "a positive number of units"),
		CLI_U64(0, "max-latency", "N", "the last linear bucket's lower bound", &o->max, 1, 1e12,
			"a positive number of units"),
		CLI_FLAG(0, "hide-empty", "hide empty buckets", &o->hide_empty),
		CLI_FLAG(0, "json", "JSON output (one line per interval with -i)", &o->json),
		CLI_CALL(0, "duration", "SEC", "stop after SEC seconds", &o->duration, cli_parse_seconds),
		CLI_CALL('i', "interval", "SEC", "print and reset the histograms every SEC seconds",
			 &o->interval, cli_parse_seconds),
		CLI_END,
	};
	const struct cli_cmd cmd = {
		.name = "latency",
		.synopsis = "-T FUNC... | -e BEGIN,END [OPTIONS] [-a | -p PID | --tid TID | -- CMD [ARGS...]]",
		.description = description,
		.footer = footer,
		.opts = opts,
		.positional = CLI_POS_CMD,
	};
	int rc = cli_parse_cmd(&cmd, argc, argv, &o->target.argv);
	if (rc != CLI_OK)
		return rc;
	if (!o->funcs.n && !o->events) {
		pr_err("nothing to measure: give a function (-T FUNC) or two events (-e BEGIN,END); "
		       "see 'bpfperf latency --help'");
		return CLI_USAGE_ERROR;
	}
	if (o->funcs.n && o->events) {
		pr_err("-T and -e exclude each other: measure functions or the time between two events");
		return CLI_USAGE_ERROR;
	}
	if (o->funcs.n > LAT_MAX_FUNCS) {
		pr_err("%zu functions: at most %d histograms at once", o->funcs.n, LAT_MAX_FUNCS);
		return CLI_USAGE_ERROR;
	}
	if (!o->range && (o->min || o->max)) {
		pr_err("--%s works only with --bucket-range", o->min ? "min-latency" : "max-latency");
		return CLI_USAGE_ERROR;
	}
	if (latency_cfg_make(o->nsec, o->range, o->min, o->max, &o->cfg) < 0)
		return CLI_USAGE_ERROR;
	if (o->interval && o->duration && o->interval > o->duration) {
		pr_err("the interval (%g s) is longer than the duration (%g s)", o->interval, o->duration);
		return CLI_USAGE_ERROR;
	}
	if (!o->target.nr_pids && !o->target.nr_tids && !o->target.argv)
		o->target.system_wide = true;
	if (target_check(&o->target, TARGET_A_WITH_CMD) < 0)
		return CLI_USAGE_ERROR;
	return CLI_OK;
}

struct run_ctx {
	struct latency *l;
	const struct latency_cli *o;
	bool printed;
};

static void print_result(const struct latency_cli *o, const struct latency_result *r, bool stamp)
{
	if (o->json) {
		latency_print_json(stdout, &o->cfg, r, o->hide_empty);
	} else {
		if (stamp) {
			char ts[32];
			time_t now = time(NULL);
			strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&now));
			printf("\n# time: %s\n", ts);
		}
		latency_print_text(stdout, &o->cfg, r, o->hide_empty);
	}
	fflush(stdout);
}

static int poll_latency(void *ctx, int timeout_ms)
{
	(void)ctx;
	/* nothing to drain: the histograms stay in the kernel until read */
	if (poll(NULL, 0, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	return 0;
}

static int tick_latency(void *ctx)
{
	struct run_ctx *c = ctx;
	struct latency_result r = { 0 };
	int err = latency_read(c->l, true, false, &r);
	if (!err)
		print_result(c->o, &r, true);
	latency_result_free(&r);
	return err;
}

static void report_losses(const struct latency_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const uint64_t *lost = r->h[i].lost;
		if (lost[LAT_LOST_NO_SLOT])
			pr_warn("%s: %" PRIu64 " calls not measured: the table of calls in flight (%d threads "
				"and functions) was full", r->h[i].func->name, lost[LAT_LOST_NO_SLOT],
				LAT_MAX_STACKS);
	}
}

static void say_mechanisms(const struct latency_funcs *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		pr_info("%s: %s", fs->v[i].name, fs->v[i].mech ? fs->v[i].mech : "?");
}

static int run_latency(const struct latency_cli *o, struct latency_funcs *fs, struct workload *wl)
{
	bool *cpus = NULL;
	int nr_cpus = 0, err, ret = EXIT_FAIL;
	if (o->target.cpu_list && target_cpus(&o->target, &cpus, &nr_cpus) < 0)
		return EXIT_USAGE;
	struct latency_opts lo = {
		.funcs = fs,
		.cfg = o->cfg,
		.system_wide = o->target.system_wide,
		.by_tgid = o->target.nr_pids || wl->pid > 0,
		.by_tid = o->target.nr_tids > 0,
		.follow_workload = wl->pid > 0 && !o->target.system_wide,
		.cgroup = o->cgroup,
		.cpus = cpus,
		.nr_cpus = nr_cpus,
	};
	struct latency *l = NULL;
	struct latency_result r = { 0 };
	if ((err = latency_open(&lo, &l)) < 0) {
		ret = cli_exit_status(err);
		goto out;
	}
	say_mechanisms(fs);
	if ((err = latency_start(l, o->target.pids, o->target.nr_pids, o->target.tids, o->target.nr_tids,
				 wl->pid)) < 0) {
		ret = cli_exit_status(err);
		goto out;
	}
	if (wl->pid > 0 && !stop_signal_received() && (err = workload_start(wl)) < 0) {
		ret = workload_failed_status(err);
		goto out;
	}
	struct run_ctx ctx = { .l = l, .o = o };
	struct stop_loop loop = {
		.wl = wl->pid > 0 ? wl : NULL,
		.target = &o->target,
		.duration = o->duration,
		.interval = o->interval,
		.poll = poll_latency,
		.tick = o->interval ? tick_latency : NULL,
		.ctx = &ctx,
	};
	enum stop_reason why = stop_loop_run(&loop);
	latency_stop(l);
	if ((err = latency_read(l, o->interval > 0, true, &r)) < 0)
		goto out;
	print_result(o, &r, o->interval > 0);
	report_losses(&r);
	if (why == STOP_ERROR)
		ret = EXIT_FAIL;
	else
		ret = wl->pid > 0 ? workload_exit_status(wl) : EXIT_OK;
out:
	latency_result_free(&r);
	latency_close(l);
	free(cpus);
	return ret;
}

static void latency_cli_free(struct latency_cli *o)
{
	free(o->funcs.v);
	free(o->target.pids);
	free(o->target.tids);
}

int cmd_latency(int argc, char **argv)
{
	struct latency_cli o = { 0 };
	struct workload wl = { .go_fd = -1, .err_fd = -1 };
	struct latency_funcs fs = { 0 };
	int ret, err;

	ret = parse_args(argc, argv, &o);
	if (ret != CLI_OK) {
		latency_cli_free(&o);
		return cli_exit(ret);
	}
	if (bpf_privileges_check("the latency BPF programs") < 0) {
		latency_cli_free(&o);
		return EXIT_FAIL;
	}
	/* every name checked before anything is loaded or started */
	err = o.events ? latency_events_resolve(o.events, &fs)
		       : latency_funcs_resolve((const char *const *)o.funcs.v, o.funcs.n, &fs);
	if (err < 0) {
		latency_cli_free(&o);
		return cli_exit_status(err);
	}
	uint64_t cg_id;
	if (o.cgroup && (err = cgroup_id_of_path(o.cgroup, &cg_id)) < 0) {
		pr_err("no cgroup '%s' (%s): give a cgroup v2 path relative to its mount (%s)", o.cgroup,
		       log_strerr(err), cgroup2_mount() ? cgroup2_mount() : "cgroup v2 is not mounted");
		latency_funcs_free(&fs);
		latency_cli_free(&o);
		return EXIT_USAGE;
	}
	stop_signals_install(true);
	/* JSON on standard output: the workload's own output goes to the standard error */
	if (o.target.argv && (err = workload_prepare_redirected(&wl, o.target.argv, o.json)) < 0)
		ret = workload_failed_status(err);
	else
		ret = run_latency(&o, &fs, &wl);
	workload_destroy(&wl);
	latency_funcs_free(&fs);
	latency_cli_free(&o);
	return ret;
}

/* `bpfperf ftrace latency ...`, perf's spelling: only its latency
 * subcommand exists here. */
int cmd_ftrace(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: bpfperf ftrace latency [OPTIONS]   (the same as 'bpfperf latency')\n\n"
			"Only the latency subcommand of perf ftrace exists here; see 'bpfperf latency --help'.\n");
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[1], "latency")) {
		pr_err("unknown ftrace subcommand '%s': only 'latency' exists (bpfperf ftrace latency, "
		       "or bpfperf latency); see 'bpfperf ftrace --help'", argv[1]);
		return EXIT_USAGE;
	}
	return cmd_latency(argc - 1, argv + 1);
}
