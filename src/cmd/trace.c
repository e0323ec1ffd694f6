// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf trace: strace-like syscall tracing and summaries with BPF.
 *
 *   bpfperf trace [-e SYSCALLS] [-s | -S] [--errno-summary] [-p PID,... | -a | -- CMD ARGS...]
 *                 [--failure] [--duration MS] [-o FILE] [--json] [-T] [-m SIZE]
 *
 * Options and output only: the engine is src/lib/feat/trace.c, the kernel
 * side src/bpf/trace.bpf.c, the syscall table and beautifiers
 * src/lib/syscalls/, the printers trace_print.c. */
#include <linux/types.h>

#include "cli.h"
#include "cmds.h"
#include "feat/trace.h"
#include "log.h"
#include "out/ofile.h"
#include "skel/skel.h"
#include "syscalls/syscalls.h"
#include "target/target.h"
#include "trace_print.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

struct trace_cli {
	const char *expr;
	bool summary_only;	/* -s */
	bool with_summary;	/* -S */
	bool errno_summary;
	bool failure;
	double min_ms;		/* --duration */
	const char *output;
	bool json;
	bool abs_time;
	uint64_t buffer_size;
	bool bench_floor;
	bool no_task_storage;
	struct target target;
};

static const char description[] =
	"Trace system calls with BPF: one line per call (like strace / perf trace), or a\n"
	"summary aggregated in the kernel.\n";
static const char footer[] =
	"With -- CMD, the command's forks and threads are followed and its exit status\n"
	"is returned. See docs/bpfperf-trace.md.\n";

/* CLI_OK, or a usage error (reported). */
static int parse_args(int argc, char **argv, struct trace_cli *o)
{
	const struct cli_opt opts[] = {
		CLI_STR('e', "expr", "SYSCALLS", "names and globs, '!' excludes: -e 'open*,!openat2'", &o->expr),
		CLI_STR(0, "event", "SYSCALLS", NULL, &o->expr),
		CLI_FLAG('s', "summary", "summary only (calls, errors, total/min/avg/max, stddev)", &o->summary_only),
		CLI_FLAG('S', "with-summary", "events and the summary", &o->with_summary),
		CLI_FLAG(0, "errno-summary", "break errors down by errno in the summary", &o->errno_summary),
		CLI_CALL('p', "pid", "PID,...", "trace existing processes (all their threads)", &o->target,
			 target_cli_pids),
		CLI_FLAG('a', "all-cpus", "trace the whole system (except bpfperf and its ancestry); with -- CMD, while CMD runs",
			 &o->target.system_wide),
		CLI_FLAG(0, "failure", "show only failed calls", &o->failure),
		CLI_DOUBLE(0, "duration", "MS", "show only calls that took longer than MS milliseconds", &o->min_ms,
			   0, 1e9, "milliseconds, from 0 to 1e9"),
		CLI_STR('o', "output", "FILE", "write the trace to FILE instead of stdout", &o->output),
		CLI_FLAG(0, "json", "JSON: one object per event; -s: one summary document", &o->json),
		CLI_FLAG('T', "time", "absolute timestamps (CLOCK_MONOTONIC seconds)", &o->abs_time),
		CLI_SIZE('m', "buffer-size", "SIZE", "ring buffer size (default 32M; K/M/G suffixes)",
			 &o->buffer_size, 4096, 1ull << 31, "a size between 4K and 2G, e.g. -m 64M"),
		CLI_FLAG(0, "bench-floor", "benchmark only: attach empty programs to the same hooks",
			 &o->bench_floor),
		CLI_FLAG(0, "no-task-storage", "testing: keep per-thread state in hash maps (the fallback\n"
			 "used when the kernel has no BPF task storage)", &o->no_task_storage),
		CLI_END,
	};
	const struct cli_cmd cmd = {
		.name = "trace",
		.synopsis = "[OPTIONS] [-p PID,... | -a | -- CMD [ARGS...]]",
		.description = description,
		.footer = footer,
		.opts = opts,
		.positional = CLI_POS_CMD,
	};
	int rc = cli_parse_cmd(&cmd, argc, argv, &o->target.argv);
	if (rc != CLI_OK)
		return rc;

	if (o->summary_only && o->with_summary) {
		pr_err("-s (summary only) and -S (events and summary) exclude each other; pick one");
		return CLI_USAGE_ERROR;
	}
	const struct target *t = &o->target;
	if (!t->nr_pids && !t->system_wide && !t->argv) {
		pr_err("nothing to trace; give -p PID, -a or -- CMD (see 'bpfperf trace --help')");
		return CLI_USAGE_ERROR;
	}
	if (target_check(t, TARGET_REQUIRED | TARGET_NO_TIDS | TARGET_A_WITH_CMD) < 0)
		return CLI_USAGE_ERROR;
	return CLI_OK;
}

/* The syscall table, and which syscalls -e selects: 0, or an exit status. */
static int select_syscalls(const struct trace_cli *o, struct sc_table *table, bool *enabled)
{
	const char *tfs = tracefs_dir();
	if (sc_table_load(table, tfs) < 0 || !table->nr_formats)
		pr_warn("cannot read the syscall formats in tracefs (%s); arguments are printed raw. "
			"Mount it with 'mount -t tracefs nodev /sys/kernel/tracing'",
			tfs ? tfs : "not mounted and mounting failed");
	pr_debug("syscall table: %d syscalls, %d with tracefs formats (x86_64 native ABI; "
		 "32-bit compat syscalls are not named)", table->nr_syscalls, table->nr_formats);
	if (!o->expr) {
		for (int i = 0; i < SC_MAX_NR; i++)
			enabled[i] = table->by_nr[i] != NULL;
		return 0;
	}
	char errbuf[512];
	if (sc_select(table, o->expr, enabled, errbuf, sizeof(errbuf)) < 0) {
		pr_err("-e '%s': %s", o->expr, errbuf);
		return EXIT_USAGE;
	}
	return 0;
}

static void say_design(const struct trace_cli *o, const struct trace *tr)
{
	const char *why;
	switch (trace_design(tr, &why)) {
	case TRACE_DESIGN_TASK_STORAGE:
		pr_info("per-thread state in BPF task storage and per-CPU records (summary cache: %d slots per CPU)",
			TRACE_CACHE_ENTRIES);
		break;
	case TRACE_DESIGN_HASH_MAPS:
		pr_info("per-thread state in hash maps: %s", o->no_task_storage ? "--no-task-storage" : why);
		break;
	case TRACE_DESIGN_FLOOR:
		break;
	}
}

static bool want_summary(const struct trace_cli *o)
{
	return o->summary_only || o->with_summary || o->errno_summary;
}

/* The JSON event stream says where events were lost: the loss counters are
 * read after the events the poll consumed, at most every 100 ms. */
struct trace_run {
	struct trace *tr;
	struct trace_printer *p;
	bool json_events;
	uint64_t lost_events, lost_args;	/* reported so far */
	uint64_t next_check_ns;
	uint64_t next_flush_ns;
	bool unflushed;		/* events written since the last flush */
};

#define TRACE_LOST_CHECK_NS 100000000ull
/* A reader of a pipe (grep, head) sees the events within this time, as with
 * strace, however slow they come; a full buffer is written sooner. */
#define TRACE_FLUSH_NS 100000000ull

static void report_lost(struct trace_run *r)
{
	uint64_t ev, args;
	trace_lost(r->tr, &ev, &args);
	if (ev <= r->lost_events && args <= r->lost_args)
		return;
	trace_print_lost_json(r->p, ev - r->lost_events, args - r->lost_args, ev, args);
	r->lost_events = ev;
	r->lost_args = args;
}

/* The summary, the flush of the output and what was lost. When the reader
 * of the output has gone (closed: "trace -a | head -1"), what is left of the
 * trace is dropped and the summary goes to stderr. */
static void finish_output(const struct trace_cli *o, struct trace_run *r, bool closed)
{
	struct trace *tr = r->tr;
	struct trace_printer *p = r->p;
	struct trace_summary s;
	FILE *out = p->out;
	if (r->json_events && !closed) {
		report_lost(r);
		trace_print_lost_total_json(p, r->lost_events, r->lost_args);
	}
	trace_summary(tr, &s);
	if (closed) {
		__fpurge(out);
		clearerr(out);
		p->out = stderr;
		pr_info("the reader of the output has gone: tracing stopped%s",
			want_summary(o) ? "; the summary goes to stderr" : "");
	}
	if (want_summary(o) && o->json)
		trace_print_summary_json(p, &s, o->summary_only);
	else if (want_summary(o))
		trace_print_summary_text(p, &s);
	p->out = out;	/* the output file again, for its close */

	const uint64_t *cnt = s.counters;
	if (cnt[TRACE_CNT_LOST_EVENTS] || cnt[TRACE_CNT_LOST_AUG])
		pr_warn("%" PRIu64 " events lost and %" PRIu64 " argument copies lost: the ring buffer "
			"(%" PRIu64 " KiB) was full; raise it with -m, or use -s (no events are lost)",
			cnt[TRACE_CNT_LOST_EVENTS], cnt[TRACE_CNT_LOST_AUG], trace_buffer_size(tr) >> 10);
	else
		pr_info("%" PRIu64 " events, 0 lost", trace_nr_events(tr));
	if (cnt[TRACE_CNT_SUM_FULL])
		pr_warn("%" PRIu64 " calls were not counted in the summary: its map was full", cnt[TRACE_CNT_SUM_FULL]);
	if (cnt[TRACE_CNT_INFLIGHT_FULL])
		pr_warn("%" PRIu64 " calls were not traced: %s", cnt[TRACE_CNT_INFLIGHT_FULL],
			trace_design(tr, NULL) == TRACE_DESIGN_TASK_STORAGE
				? "per-thread task storage could not be allocated (out of memory)"
				: "the thread table was full");
	trace_summary_free(&s);
}

static int poll_trace(void *ctx, int timeout_ms)
{
	struct trace_run *r = ctx;
	int n = trace_poll(r->tr, timeout_ms);
	uint64_t now = now_ns();
	if (r->json_events && now >= r->next_check_ns) {
		report_lost(r);
		r->next_check_ns = now + TRACE_LOST_CHECK_NS;
	}
	if (n > 0)
		r->unflushed = true;
	if (r->unflushed && now >= r->next_flush_ns) {
		fflush(r->p->out);	/* a failure (EPIPE) is seen by ferror and the stop loop */
		r->unflushed = false;
		r->next_flush_ns = now + TRACE_FLUSH_NS;
	}
	return n;
}

/* Load, attach, release the workload, stream until a stop, print the
 * summary: the exit status. */
static int run_trace(const struct trace_cli *o, struct workload *wl, struct trace_printer *p,
		     const bool *enabled)
{
	static char outbuf[1 << 20];
	struct trace *tr = NULL;
	struct trace_opts to = {
		.table = p->table,
		.enabled = enabled,
		.events = !o->summary_only,
		.summary = want_summary(o),
		.errno_summary = o->errno_summary,
		.failures_only = o->failure,
		.min_duration_ns = (uint64_t)(o->min_ms * 1e6),
		.buffer_size = o->buffer_size,
		.system_wide = o->target.system_wide,
		.follow_workload = wl->pid > 0,
		.bench_floor = o->bench_floor,
		.no_task_storage = o->no_task_storage,
		.on_event = o->json ? trace_print_event_json : trace_print_event_text,
		.ctx = p,
	};
	int ret = EXIT_FAIL, err;
	struct ofile *of = NULL;

	if (trace_open(&to, &tr) < 0)
		return EXIT_FAIL;
	say_design(o, tr);
	/* A trace is meant to be shared (0644); the file appears when it is complete. */
	if (ofile_open(o->output ? o->output : "-", OFILE_SHARED, 0, &of) < 0)
		goto out;
	p->out = ofile_stream(of);
	setvbuf(p->out, outbuf, _IOFBF, sizeof(outbuf));

	if (trace_start(tr, o->target.pids, o->target.nr_pids, wl->pid) < 0)
		goto out;
	p->t0 = now_ns();
	/* A stop signal while setting up: the workload is not released; the
	 * stop loop ends it at once. */
	if (wl->pid > 0 && !stop_signal_received() && (err = workload_start(wl)) < 0) {
		ret = workload_failed_status(err);
		goto out;
	}

	struct trace_run run = { .tr = tr, .p = p, .json_events = o->json && !o->summary_only };
	struct stop_loop loop = {
		.wl = wl->pid > 0 ? wl : NULL,
		.target = &o->target,
		.out_fd = fileno(p->out),
		.poll = poll_trace,
		.ctx = &run,
	};
	enum stop_reason why = stop_loop_run(&loop);
	trace_stop(tr);
	/* Also when the reader went away before the loop saw it. */
	bool closed = why == STOP_OUTPUT_CLOSED || output_closed(fileno(p->out));
	finish_output(o, &run, closed);
	/* The reader's choice to stop is no failure (nor the workload's
	 * SIGTERM then). */
	if (why == STOP_ERROR)
		ret = EXIT_FAIL;
	else if (closed || wl->pid <= 0)
		ret = EXIT_OK;
	else
		ret = workload_exit_status(wl);
	err = ofile_close(of);	/* every write checked: a lost trace is a failure */
	of = NULL;
	if (err < 0 && !closed)
		ret = EXIT_FAIL;
out:
	ofile_abort(of);
	p->out = NULL;
	trace_close(tr);
	return ret;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_cli o = { .buffer_size = TRACE_DEFAULT_BUFFER_SIZE };
	struct workload wl = { .go_fd = -1, .err_fd = -1 };
	struct sc_table table = { 0 };
	struct trace_printer p = { .table = &table };
	bool enabled[SC_MAX_NR];
	int ret, err;

	ret = parse_args(argc, argv, &o);
	if (ret != CLI_OK) {
		free(o.target.pids);
		return cli_exit(ret);
	}
	p.abs_time = o.abs_time;
	p.errno_summary = o.errno_summary;

	/* Before the workload exists: a signal while loading stops cleanly. */
	stop_signals_install(true);
	/* The cheapest errors first: the command, privileges, -e. */
	if (o.target.argv && (err = workload_prepare(&wl, o.target.argv)) < 0)
		ret = workload_failed_status(err);
	else if (bpf_privileges_check("the trace BPF programs") < 0)
		ret = EXIT_FAIL;
	else if (!(ret = select_syscalls(&o, &table, enabled)))
		ret = run_trace(&o, &wl, &p, enabled);

	workload_destroy(&wl);
	sb_free(&p.line);
	sc_table_free(&table);
	free(o.target.pids);
	return ret;
}
