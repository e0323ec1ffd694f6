// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf record: sample a command, processes or the whole system into a
 * perf.data file that Linux perf reads too. Options follow perf record; the
 * recording itself is the library's (src/lib/record/). */
#include "cmds.h"
#include "cli.h"
#include "event/event.h"
#include "feat/sample_filter.h"
#include "log.h"
#include "record/filter.h"
#include "record/off_cpu.h"
#include "record/record.h"
#include "record/run.h"
#include "skel/skel.h"
#include "sym/stack_skip.h"
#include "target/cgroup.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_EVENTS 16
#define MAX_PAGES (1u << 20)
#define XSTR(x) STR_(x)
#define STR_(x) #x

struct record_cli {
	struct cli_strv events;		/* -e, each maybe a comma-separated list */
	struct cli_strv sets;		/* --set NAME=VALUE */
	uint64_t freq, period, pages;
	bool callchain;
	unsigned max_stack;	/* --call-graph fp,N */
	struct target target;
	const char *output;
	double duration;
	const char *bpf_object;
	struct sf_given *filters;
	size_t nr_filters, filters_cap;
	bool filter_no_kctx;	/* testing */
	const char *cgroup;		/* -G */
	bool off_cpu;
	uint64_t off_cpu_thresh_ms;	/* UINT64_MAX: unset */
	uint64_t stack_skip;		/* UINT64_MAX: automatic */
	uint64_t off_cpu_min_design;	/* testing */
	bool no_buildid_cache;		/* -N */
	const char *buildid_dir;
	int clockid;			/* -k; -1: perf's default clock */
};

/* -k: perf's clock names (and a number). */
static const char *parse_clockid(const char *arg, void *dst)
{
	if (record_clockid(arg, dst) < 0)
		return "a clock: monotonic, monotonic_raw, realtime, boottime, tai (or mono, raw, real, boot)";
	return NULL;
}

/* -F HZ or -F max (the kernel's perf_event_max_sample_rate). */
static const char *parse_freq(const char *arg, void *dst)
{
	uint64_t *freq = dst;
	if (!strcmp(arg, "max")) {
		*freq = record_max_sample_rate();
		return NULL;
	}
	if (!parse_u64(arg, freq) || *freq == 0)
		return "a positive number of Hz, or max";
	return NULL;
}

static const char *parse_pages(const char *arg, void *dst)
{
	uint64_t v;
	if (!parse_u64(arg, &v) || v == 0 || (v & (v - 1)) || v > MAX_PAGES)
		return "a number of data pages that is a power of two, e.g. 128";
	*(uint64_t *)dst = v;
	return NULL;
}

/* fp or fp,N: frame pointers, at most N frames (attr.sample_max_stack). */
static const char *parse_call_graph(const char *arg, void *dst)
{
	struct record_cli *c = dst;
	uint64_t n;
	if (!strncmp(arg, "dwarf", 5) || !strcmp(arg, "lbr"))
		return "fp or fp,N (frame pointers, at most N frames): DWARF and LBR unwinding are "
		       "not supported; build the program with -fno-omit-frame-pointer";
	if (strcmp(arg, "fp") && strncmp(arg, "fp,", 3))
		return "fp or fp,N (frame pointers, at most N frames)";
	if (arg[2] == ',') {
		unsigned lim = record_kernel_max_stack();
		if (!parse_u64(arg + 3, &n) || n == 0 || n > 65535)
			return "fp,N with N a number of frames from 1 to the kernel's "
			       "kernel.perf_event_max_stack";
		if (n > lim) {
			pr_err("invalid --call-graph '%s': %llu frames is over the kernel's limit of %u "
			       "(sysctl kernel.perf_event_max_stack); ask for at most %u",
			       arg, (unsigned long long)n, lim, lim);
			return CLI_REPORTED;
		}
		c->max_stack = (unsigned)n;
	}
	c->callchain = true;
	return NULL;
}

static struct record_cli o;

/* --filter EXPR: checked here (a syntax error is a usage error, with a
 * caret under the column); it applies to the events of the -e before it. */
static const char *add_filter(const char *arg, void *dst)
{
	struct record_cli *c = dst;
	struct sf_expr e;
	struct sf_error err;
	if (sf_parse(arg, &e, &err, NULL)) {
		char buf[1024];
		sf_format_error(arg, &err, buf, sizeof(buf));
		pr_err("invalid --filter: %s", buf);
		return CLI_REPORTED;
	}
	ARRAY_GROW(c->filters, c->filters_cap, c->nr_filters + 1);
	c->filters[c->nr_filters++] = (struct sf_given){ .text = arg, .after = c->events.n };
	return NULL;
}

static const struct cli_opt record_opts[] = {
	CLI_STRV('e', "event", "EVENT", "event to sample (default: cycles, or cpu-clock where there is no\n"
		 "hardware PMU); perf names or tracepoints SYSTEM:NAME", &o.events),
	CLI_CALL('F', "freq", "HZ", "sampling frequency (default " XSTR(RECORDING_DEFAULT_FREQ)
		 "; max: the kernel's limit)", &o.freq, parse_freq),
	CLI_U64('c', "count", "PERIOD", "sample every PERIOD events instead of a frequency", &o.period,
		1, 18446744073709551615.0, "a positive count"),
	CLI_FLAG('g', NULL, "record call graphs (frame pointers)", &o.callchain),
	CLI_CALL(0, "call-graph", "fp[,N]", "the same; N: at most N frames per call graph", &o,
		 parse_call_graph),
	CLI_FLAG('a', "all-cpus", "system-wide (default when no command and no -p/-t)",
		 &o.target.system_wide),
	CLI_CALL('p', "pid", "PID[,PID]", "existing processes (and their threads)", &o.target,
		 target_cli_pids),
	CLI_CALL('t', "tid", "TID[,TID]", "existing threads", &o.target, target_cli_tids),
	CLI_STR('C', "cpu", "CPUS", "only these CPUs (e.g. 0-1,3)", &o.target.cpu_list),
	CLI_STR('G', "cgroup", "CGROUP", "with -a: only the tasks of this cgroup v2 (a path under the\n"
		"cgroup2 mount) and its descendants", &o.cgroup),
	CLI_STR('o', "output", "FILE", "output file (default perf.data; an existing one becomes FILE.old)",
		&o.output),
	CLI_CALL('m', "mmap-pages", "N", "ring buffer data pages per CPU, a power of two (default "
		 XSTR(RECORDING_DEFAULT_PAGES) ")", &o.pages, parse_pages),
	CLI_CALL(0, "duration", "SEC", "stop after SEC seconds", &o.duration, cli_parse_seconds),
	CLI_STR(0, "bpf-object", "OBJ", "filter samples with OBJ's SEC(\"perf_event\") program (0 drops)",
		&o.bpf_object),
	CLI_STRV(0, "set", "NAME=VALUE", "assign a const volatile global of the filter object", &o.sets),
	CLI_CALL(0, "filter", "EXPR", "keep only the samples that match EXPR (perf's BPF sample filter,\n"
		 "e.g. 'tid == 1234, cpu == 0 || cpu == 1'); applies to the events of\n"
		 "the -e before it (every event when none); see bpfperf-record.md", &o, add_filter),
	CLI_FLAG(0, "filter-no-kfunc", NULL, &o.filter_no_kctx),	/* testing: the fallback design */
	CLI_FLAG(0, "off-cpu", "also record where the targets wait off the CPU (blocked), as samples\n"
		 "of an 'offcpu-time' event (period: ns), kernel and user stacks", &o.off_cpu),
	CLI_U64(0, "off-cpu-thresh", "MS", "with --off-cpu: a wait of at least MS milliseconds is a sample\n"
		"of its own, with its time (default: every wait aggregated)", &o.off_cpu_thresh_ms, 0,
		86400000, "a number of milliseconds from 0 to 86400000"),
	CLI_U64(0, "stack-skip", "N", "with --off-cpu: drop the first N kernel frames (default: the\n"
		"tracing machinery, by symbol or by measured depth)", &o.stack_skip, 0, 127,
		"a number of frames from 0 to 127"),
	CLI_U64(0, "off-cpu-min-design", "N", NULL, &o.off_cpu_min_design, 0, 1, "0 or 1"),
	CLI_FLAG('N', "no-buildid-cache", "do not copy the files hit into the build-id cache",
		 &o.no_buildid_cache),
	CLI_STR(0, "buildid-dir", "DIR", "build-id cache directory (default $PERF_BUILDID_DIR,\n"
		"else ~/.debug)", &o.buildid_dir),
	CLI_CALL('k', "clockid", "CLOCK", "timestamps from CLOCK (monotonic, monotonic_raw, realtime,\n"
		 "boottime, tai) instead of perf's clock", &o.clockid, parse_clockid),
	CLI_END,
};

static const struct cli_cmd record_cmd = {
	.name = "record",
	.synopsis = "[-e EVENT]... [-F HZ | -c PERIOD] [-g] [-a | -p PID | -t TID]\n"
		    "                      [-C CPUS] [-o FILE] [-m PAGES] [--duration SEC] [--filter EXPR]\n"
		    "                      [--off-cpu [--off-cpu-thresh MS]]\n"
		    "                      [-- CMD ARGS...]",
	.opts = record_opts,
	.positional = CLI_POS_CMD,
};

/* The -e values split into ev (perf's syntax: commas, {groups});
 * first[i]: the first spec of -e value i (first[o.events.n] = ev->n). */
static int split_events(struct event_list *ev, size_t *first)
{
	char err[512];
	for (size_t i = 0; i < o.events.n; i++) {
		first[i] = ev->n;
		if (event_list_add(ev, o.events.v[i], MAX_EVENTS, err, sizeof(err)) < 0) {
			pr_err("invalid -e '%s': %s", o.events.v[i], err);
			return -EINVAL;
		}
	}
	first[o.events.n] = ev->n;
	return 0;
}

/* The --filter expressions given before any -e apply to every event, the
 * off-CPU samples too: joined into *e. A term those samples lack is a
 * usage error. */
static int off_cpu_filter(struct sf_expr *e)
{
	int err = sf_join_global(o.filters, o.nr_filters, e);
	for (uint32_t i = 0; !err && i < e->n; i++)
		if (!off_cpu_filter_term_ok(e->e[i].term)) {
			pr_err("invalid --filter: off-CPU samples have no '%s' (they have tid, pid, ip, period "
			       "and time); give the filter after -e EVENT to filter that event only",
			       sf_term_name(e->e[i].term, e->e[i].part));
			return -EINVAL;
		}
	return err;
}

/* Combinations the table cannot check. */
static int check_options(void)
{
	if (o.freq && o.period) {
		pr_err("-F and -c both given: choose a frequency or a period");
		return -EINVAL;
	}
	if (o.cgroup && !target_is_system_wide(&o.target)) {
		pr_err("-G (cgroup) needs -a: cgroups are recorded system wide, as in perf");
		return -EINVAL;
	}
	if (o.sets.n && !o.bpf_object) {
		pr_err("--set needs --bpf-object");
		return -EINVAL;
	}
	if (!o.off_cpu && (o.off_cpu_thresh_ms != UINT64_MAX || o.stack_skip != UINT64_MAX)) {
		pr_err("--off-cpu-thresh and --stack-skip need --off-cpu");
		return -EINVAL;
	}
	if (o.nr_filters && o.bpf_object) {
		pr_err("--filter and --bpf-object both given: an event takes one BPF program; "
		       "use one of them");
		return -EINVAL;
	}
	if (!strcmp(o.output, "-") && isatty(STDOUT_FILENO)) {
		pr_err("-o - writes perf.data to the standard output, which is a terminal; pipe it "
		       "('| perf report -i -', '| bpfperf report -i -') or redirect it to a file");
		return -EINVAL;
	}
	return target_check(&o.target, TARGET_A_WITH_CMD);
}

/* Record to the end (record/run.h), then the end of recording lines, in
 * the options' words. The exit status. */
static int run(struct record_session *s)
{
	struct recording_stats st;
	int status;
	if (record_run(s->rec, &s->wl, &o.target, o.duration, &st, &status) < 0)
		return EXIT_FAIL;
	record_summary(stderr, &(struct record_summary){
		.st = &st, .rec = s->rec, .wl = &s->wl, .output = o.output, .freq = o.freq, .period = o.period,
		.filter = s->filter, .bpf_object = o.bpf_object, .sf = s->sf, .oc = s->oc, .freq_name = "-F",
		.period_name = "-c", .lost_hint = "; use a larger -m or a lower -F" });
	return status;
}

/* Over 80 lines: one recording's steps in their order (options, the sample
 * filters before anything is created, the workload, the hooks, the
 * recording), each a call, and the one cleanup path they share. */
int cmd_record(int argc, char **argv)
{
	struct cli_args args;
	struct event_list ev = { 0 };
	struct record_session s = RECORD_SESSION_INIT;	/* record/run.h */
	int err, ret = EXIT_USAGE;
	size_t *first = NULL;

	/* the options the library's messages point to (log_hint) */
	log_set_hint(LOG_HINT_OPT_CGROUP, " (-G)");
	log_set_hint(LOG_HINT_CGROUP_BPF_FILTER, "; or filter in BPF instead: -a --filter 'cgroup == /PATH'");
	log_set_hint(LOG_HINT_OPT_FILTER, " (--filter)");
	memset(&o, 0, sizeof(o));
	o.output = "perf.data";
	o.pages = RECORDING_DEFAULT_PAGES;
	o.off_cpu_thresh_ms = o.stack_skip = UINT64_MAX;
	o.clockid = -1;
	int rc = cli_parse(&record_cmd, argc, argv, &args);
	if (rc != CLI_OK)
		return cli_exit(rc);
	o.target.argv = args.cmd;
	first = xcalloc(o.events.n + 1, sizeof(*first));
	if (check_options() < 0 || split_events(&ev, first) < 0 ||
	    target_cpus(&o.target, &s.cpus, &s.ncpus) < 0)
		goto out;
	target_threads(&o.target, &s.threads, &s.nthreads);
	if (o.nr_filters) {
		/* before the workload and the file: a filter that cannot work records nothing */
		struct sample_filter_opts so = { .no_kctx = o.filter_no_kctx };
		s.sf = sample_filter_new(&so);
		s.nr_filter_texts = ev.n ? ev.n : 1;
		err = sample_filter_setup(s.sf, o.filters, o.nr_filters, first, s.nr_filter_texts, &s.filter_texts);
		if (err) {
			ret = cli_exit_status(err);
			goto out;
		}
	}

	if (o.cgroup && (s.cgroup_fd = cgroup_open(o.cgroup)) < 0) {
		pr_err("invalid -G '%s': no such cgroup under the cgroup v2 mount %s (%s)", o.cgroup,
		       cgroup2_mount() ? cgroup2_mount() : "(cgroup2 is not mounted)", log_strerr(s.cgroup_fd));
		goto out;
	}
	/* -o -: perf's pipe mode on stdout; a reader that goes away is a
	 * write error (EPIPE), and the workload writes to stderr instead. */
	bool to_pipe = !strcmp(o.output, "-");
	stop_signals_install(to_pipe);
	if (o.target.argv &&
	    (err = workload_prepare_redirected(&s.wl, o.target.argv, to_pipe)) < 0) {
		ret = workload_failed_status(err);
		goto out;
	}
	struct recording_hook hooks[3];
	struct recording_opts ro = {
		.events = (const char *const *)ev.spec,
		.event_leaders = ev.leader,
		.nr_events = ev.n,
		.freq = o.freq,
		.period = o.period,
		.callchain = o.callchain,
		.max_stack = o.max_stack,
		.mmap_pages = o.pages,
		.cpus = s.cpus,
		.nr_cpus = s.ncpus,
		.system_wide = target_is_system_wide(&o.target),
		.cgroup_fd = s.cgroup_fd,
		.threads = s.threads,
		.nr_threads = s.nthreads,
		.inherit = o.target.nr_tids == 0,
		.workload_pid = s.wl.pid,
		.output = o.output,
		.buildid_dir = o.buildid_dir,
		.no_buildid_cache = o.no_buildid_cache,
		.use_clockid = o.clockid >= 0,
		.clockid = o.clockid,
		.cmdline_argc = argc,
		.cmdline_argv = argv,
	};
	if (o.bpf_object) {
		s.filter = record_filter_new(o.bpf_object, o.sets.v, (int)o.sets.n);
		hooks[ro.nr_hooks++] = record_filter_hook(s.filter);
	}
	if (s.sf)
		hooks[ro.nr_hooks++] = sample_filter_hook(s.sf);
	struct sf_expr ocf = { .n = 0 };
	if (o.off_cpu && off_cpu_filter(&ocf) < 0) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (o.off_cpu) {
		struct record_off_cpu_opts oo = {
			.filter = ocf.e,
			.nr_filter = ocf.n,
			.system_wide = ro.system_wide,
			.cgroup_fd = s.cgroup_fd,
			.pids = o.target.pids,
			.nr_pids = o.target.nr_pids,
			.tids = o.target.tids,
			.nr_tids = o.target.nr_tids,
			.workload = s.wl.pid,
			.thresh_ns = o.off_cpu_thresh_ms == UINT64_MAX ? 0 : o.off_cpu_thresh_ms * 1000000,
			.stack_skip = o.stack_skip == UINT64_MAX ? STACK_SKIP_AUTO : (int)o.stack_skip,
			.min_design = (int)o.off_cpu_min_design,
		};
		s.oc = record_off_cpu_new(&oo);
		hooks[ro.nr_hooks++] = record_off_cpu_hook(s.oc);
	}
	ro.hooks = hooks;
	ret = EXIT_FAIL;
	if (recording_open(&ro, &s.rec) == 0)
		ret = run(&s);
out:
	record_session_free(&s);
	free(first);
	free(o.filters);
	event_list_free(&ev);
	free(o.target.pids);
	free(o.target.tids);
	free(o.events.v);
	free(o.sets.v);
	cli_args_free(&args);
	return ret;
}
