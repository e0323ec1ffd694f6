// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf lock contention: kernel lock contention with BPF, as perf 6.x's
 * `perf lock contention -b`.
 *
 *   bpfperf lock contention [-a | -p PID,... | -- CMD ARGS...] [-b] [-l | -t]
 *                           [-o | -g] [-k KEY] [-E N] [-Y TYPES] [-L LOCKS]
 *                           [-S SYMS] [--max-stack N] [--json] [--duration SEC]
 *
 * Options and output only: the engine is src/lib/feat/lock.c, the kernel
 * side src/bpf/lock.bpf.c. */
#include <linux/types.h>

#include "cli.h"
#include "cmds.h"
#include "feat/lock.h"
#include "sym/stack_skip.h"
#include "json.h"
#include "log.h"
#include "out/lock_print.h"
#include "skel/skel.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct lock_cli {
	bool use_bpf;
	bool lock_addr;
	bool threads;
	bool owner;		/* -o */
	bool cgroup;		/* -g */
	int key;
	uint64_t entries;
	const char *types;
	uint64_t max_stack;
	uint64_t stack_skip;		/* UINT64_MAX: the automatic rule */
	bool json;
	double duration;
	uint64_t map_entries;
	uint64_t min_design;
	const char *lock_filter;	/* -L */
	const char *stack_filter;	/* -S */
	struct target target;
};

static const char description[] =
	"Kernel lock contention: the lock:contention_begin/end tracepoints (Linux 5.19+)\n"
	"aggregated in the kernel with BPF, shown as perf lock contention -b does: by the\n"
	"caller of the lock (default), by lock (-l) or by waiting thread (-t).\n";
static const char footer[] =
	"Sort keys (-k): wait_total (default), contended, wait_max, wait_min, avg_wait.\n"
	"Lock types (-Y): spinlock, rwlock[:R|:W], rwsem[:R|:W], mutex, semaphore,\n"
	"percpu-rwsem (pcpu-sem[:R|:W]), rt-mutex, comma-separated. -v also prints the\n"
	"stack of each caller. See docs/bpfperf-lock.md.\n";

static uint64_t parse_types(const char *list, const char **bad)
{
	uint64_t mask = 0;
	char *dup = xstrdup(list), *save = NULL;
	*bad = NULL;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t m = lock_type_mask(t);
		if (!m) {
			static char word[64];
			snprintf(word, sizeof(word), "%s", t);
			*bad = word;
			break;
		}
		mask |= m;
	}
	free(dup);
	return mask;
}

static int parse_args(int argc, char **argv, struct lock_cli *o, uint64_t *type_mask)
{
	const struct cli_opt opts[] = {
		CLI_CALL('p', "pid", "PID,...", "observe existing processes (all their threads)", &o->target,
			 target_cli_pids),
		CLI_FLAG('a', "all-cpus", "the whole system (default without -p or a command)",
			 &o->target.system_wide),
		CLI_FLAG('b', "use-bpf", "aggregate in the kernel with BPF (the only mode; accepted as perf's)",
			 &o->use_bpf),
		CLI_FLAG('l', "lock-addr", "one entry per lock, named where possible (mmap_lock, siglock,\n"
			 "rq_lock, global locks, &<slab cache>)", &o->lock_addr),
		CLI_FLAG('t', "threads", "one entry per waiting thread", &o->threads),
		CLI_FLAG('o', "lock-owner", "one entry per thread holding the lock (mutexes, rwsems held\n"
			 "for write; [unknown] for the rest)", &o->owner),
		CLI_FLAG('g', "lock-cgroup", "one entry per cgroup of the waiting threads", &o->cgroup),
		CLI_CHOICE('k', "key", "KEY", "sort by KEY (default wait_total)", &o->key, lock_sort_key_names),
		CLI_U64('E', "entries", "N", "show only the first N entries", &o->entries, 1, 1e9,
			"a positive number of entries"),
		CLI_STR('Y', "type-filter", "TYPES", "only these lock types (comma-separated)", &o->types),
		CLI_STR('L', "lock-filter", "NAMES", "only these locks, by address, name or slab cache\n"
			"(comma-separated: mmap_lock,zone_lock,&filp,0xffff...; with -l\n"
			"also member paths as shown: &inode.i_rwsem)", &o->lock_filter),
		CLI_STR('S', "callstack-filter", "NAMES", "only callers whose stack has a function whose name\n"
			"contains one of NAMES (comma-separated)", &o->stack_filter),
		CLI_U64(0, "max-stack", "N", "frames of each caller's stack kept and shown with -v (default 8)",
			&o->max_stack, 1, LOCK_STACK_MAX, "a number of frames from 1 to 64"),
		CLI_U64(0, "stack-skip", "N", "drop the first N frames of each stack (default: the tracing\n"
			"machinery, by symbol or by the tracepoint's measured depth)",
			&o->stack_skip, 0, LOCK_STACK_MAX, "a number of frames from 0 to 64"),
		CLI_FLAG(0, "json", "JSON output", &o->json),
		CLI_CALL(0, "duration", "SEC", "stop after SEC seconds", &o->duration, cli_parse_seconds),
		CLI_U64('M', "map-nr-entries", "N", "entries of the aggregation map and of the stack store (default 16384)",
			&o->map_entries, 1, 1 << 24, "a number of entries from 1 to 16M"),
		CLI_U64(0, "min-design", "N", NULL, &o->min_design, 0, 2, "0, 1 or 2"),
		CLI_END,
	};
	const struct cli_cmd cmd = {
		.name = "lock contention",
		.synopsis = "[OPTIONS] [-a | -p PID,... | -- CMD [ARGS...]]",
		.description = description,
		.footer = footer,
		.opts = opts,
		.positional = CLI_POS_CMD,
	};
	int rc = cli_parse_cmd(&cmd, argc, argv, &o->target.argv);
	if (rc != CLI_OK)
		return rc;

	if (o->lock_addr + o->threads + o->owner + o->cgroup > 1) {
		pr_err("-l (by lock), -t (by thread), -o (by owner) and -g (by cgroup) exclude each "
		       "other; pick one");
		return CLI_USAGE_ERROR;
	}
	if (o->stack_filter && (o->lock_addr || o->threads || o->owner || o->cgroup)) {
		pr_err("-S (--callstack-filter) works by caller only: -l, -t, -o and -g keep no stacks");
		return CLI_USAGE_ERROR;
	}
	if (o->types) {
		const char *bad;
		*type_mask = parse_types(o->types, &bad);
		if (bad)
			return cli_bad_value("--type-filter", bad,
					     "lock types: spinlock, rwlock, rwsem, mutex, semaphore, "
					     "percpu-rwsem, rt-mutex (with :R or :W for a mode)");
	}
	if (!o->target.nr_pids && !o->target.argv)
		o->target.system_wide = true;
	if (target_check(&o->target, TARGET_REQUIRED | TARGET_NO_TIDS | TARGET_A_WITH_CMD) < 0)
		return CLI_USAGE_ERROR;
	return CLI_OK;
}

/* What was not counted, on stderr. */
static void report_losses(const struct lock_result *r, enum lock_aggr aggr)
{
	const uint64_t *c = r->counters;
	if (c[LOCK_CNT_MAP_FULL])
		pr_warn("%" PRIu64 " contentions lost: the aggregation map was full; raise --map-nr-entries",
			c[LOCK_CNT_MAP_FULL]);
	if (c[LOCK_CNT_TASK_FULL])
		pr_warn("%" PRIu64 " contentions lost: no per-thread slot for the begin time (out of memory "
			"or the thread table was full)", c[LOCK_CNT_TASK_FULL]);
	if (c[LOCK_CNT_NO_STACK])
		pr_warn("%" PRIu64 " contentions without a caller: the stack store was full; raise --map-nr-entries",
			c[LOCK_CNT_NO_STACK]);
	pr_info("%" PRIu64 " contentions counted, %" PRIu64 " nested begins and %" PRIu64 " nested ends "
		"not counted (as perf)", c[LOCK_CNT_END], c[LOCK_CNT_NESTED], c[LOCK_CNT_LOCK_MISMATCH]);
	if (aggr == LOCK_AGGR_ADDR && r->nr_unnamed && r->unnamed_why)
		pr_warn("%zu of %zu locks are shown by address: %s", r->nr_unnamed, r->n, r->unnamed_why);
	else if (aggr == LOCK_AGGR_ADDR && r->nr_unnamed)
		pr_info("%zu of %zu locks could not be named (not a well-known lock, a global variable "
			"or a slab object)", r->nr_unnamed, r->n);
}

static void say_design(struct lock *l)
{
	static const char *const names[] = {
		"tp_btf programs with task storage", "raw tracepoint programs with task storage",
		"raw tracepoint programs with a hash map",
	};
	const char *why;
	enum lock_design d = lock_design(l, &why);
	if (why)
		pr_info("%s: %s", names[d], why);
	else
		pr_info("%s", names[d]);
}

static int poll_lock(void *ctx, int timeout_ms)
{
	return lock_poll(ctx, timeout_ms);
}

static int run_lock(const struct lock_cli *o, uint64_t type_mask, struct workload *wl)
{
	enum lock_aggr aggr = o->lock_addr ? LOCK_AGGR_ADDR : o->threads ? LOCK_AGGR_TASK :
			      o->owner ? LOCK_AGGR_OWNER : o->cgroup ? LOCK_AGGR_CGROUP : LOCK_AGGR_CALLER;
	struct lock_opts lo = {
		.aggr = aggr,
		.system_wide = o->target.system_wide,
		.follow_workload = wl->pid > 0,
		.type_mask = type_mask,
		.max_stack = o->max_stack ? (uint32_t)o->max_stack : 8,
		.stack_skip = o->stack_skip == UINT64_MAX ? STACK_SKIP_AUTO : (int)o->stack_skip,
		.map_entries = (uint32_t)o->map_entries,
		.min_design = (int)o->min_design,
		/* by lock, the entries are filtered by their names afterwards
		 * (member paths too); else the kernel keeps only those locks */
		.lock_filter = o->lock_addr ? NULL : o->lock_filter,
	};
	struct lock *l = NULL;
	struct lock_result r = { 0 };
	int ret = EXIT_FAIL, err;

	if (lo.lock_filter && (err = lock_filter_check(lo.lock_filter)) < 0)
		return cli_exit_status(err);	/* named: a bad value, or the kernel */
	if (lock_open(&lo, &l) < 0)
		return EXIT_FAIL;
	say_design(l);
	if (lock_start(l, o->target.pids, o->target.nr_pids, wl->pid) < 0)
		goto out;
	/* A stop signal while setting up: the workload is not released; the
	 * stop loop ends it at once. */
	if (wl->pid > 0 && !stop_signal_received() && (err = workload_start(wl)) < 0) {
		ret = workload_failed_status(err);
		goto out;
	}
	struct stop_loop loop = {
		.wl = wl->pid > 0 ? wl : NULL,
		.target = &o->target,
		.duration = o->duration,
		.poll = poll_lock,
		.ctx = l,
	};
	enum stop_reason why = stop_loop_run(&loop);
	lock_stop(l);
	lock_read(l, &r);
	lock_result_filter(l, &r, o->lock_addr ? o->lock_filter : NULL, o->stack_filter);
	lock_result_sort(&r, (enum lock_sort_key)o->key);
	size_t n = o->entries && o->entries < r.n ? (size_t)o->entries : r.n;
	if (o->json)
		lock_print_json(stdout, l, &r, aggr, n);
	else
		lock_print_text(stdout, l, &r, aggr, n, log_verbosity() > 0);
	/* standard output: every write checked at exit (main.c, out/ofile.h) */
	report_losses(&r, aggr);
	if (why == STOP_ERROR)
		ret = EXIT_FAIL;
	else
		ret = wl->pid > 0 ? workload_exit_status(wl) : EXIT_OK;
out:
	lock_result_free(&r);
	lock_close(l);
	return ret;
}

static void usage_lock(FILE *f)
{
	fprintf(f, "usage: bpfperf lock contention [OPTIONS] [-a | -p PID,... | -- CMD [ARGS...]]\n\n"
		   "Subcommands:\n"
		   "  contention (con)  kernel lock contention aggregated with BPF\n\n"
		   "See 'bpfperf lock contention --help' and docs/bpfperf-lock.md.\n");
}

int cmd_lock(int argc, char **argv)
{
	struct lock_cli o = { .stack_skip = UINT64_MAX };
	struct workload wl = { .go_fd = -1, .err_fd = -1 };
	uint64_t type_mask = 0;
	int ret, err;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_lock(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[1], "contention") && strcmp(argv[1], "con")) {
		pr_err("unknown lock subcommand '%s'; see 'bpfperf lock --help' (only 'contention' is "
		       "implemented)", argv[1]);
		return EXIT_USAGE;
	}
	ret = parse_args(argc - 1, argv + 1, &o, &type_mask);
	if (ret != CLI_OK) {
		free(o.target.pids);
		return cli_exit(ret);
	}
	/* Before the workload exists: a signal while loading stops cleanly. */
	stop_signals_install(true);
	if (o.target.argv && (err = workload_prepare(&wl, o.target.argv)) < 0)
		ret = workload_failed_status(err);
	else if (bpf_privileges_check("the lock contention BPF programs") < 0)
		ret = EXIT_FAIL;
	else
		ret = run_lock(&o, type_mask, &wl);
	workload_destroy(&wl);
	free(o.target.pids);
	return ret;
}
