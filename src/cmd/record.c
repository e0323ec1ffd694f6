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
#include "skel/skel.h"
#include "sym/stack_skip.h"
#include "target/cgroup.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
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
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	const char *a = !strncasecmp(arg, "CLOCK_", 6) ? arg + 6 : arg;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(a, clocks[i].name)) {
			*(int *)dst = clocks[i].id;
			return NULL;
		}
	uint64_t v;
	if (parse_u64(arg, &v) && v < 64) {
		*(int *)dst = (int)v;
		return NULL;
	}
	return "a clock: monotonic, monotonic_raw, realtime, boottime, tai (or mono, raw, real, boot)";
}

/* -F HZ or -F max (the kernel's perf_event_max_sample_rate). */
static const char *parse_freq(const char *arg, void *dst)
{
	uint64_t *freq = dst;
	if (!strcmp(arg, "max")) {
		char *s = read_file("/proc/sys/kernel/perf_event_max_sample_rate", NULL);
		*freq = s ? strtoull(s, NULL, 10) : RECORDING_DEFAULT_FREQ;
		free(s);
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

/* The kernel's limit on call-graph depth (kernel.perf_event_max_stack). */
static unsigned kernel_max_stack(void)
{
	char buf[32] = "";
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	uint64_t v = 127;
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
		if (!parse_u64(buf, &v))
			v = 127;
	}
	return (unsigned)v;
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
		unsigned lim = kernel_max_stack();
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

/* What each BPF filter dropped: the same line for --bpf-object and --filter. */
static void print_filter_drops(const char *filter, const char *event, uint64_t dropped)
{
	fprintf(stderr, "[ bpfperf record: the BPF filter %s%s%s dropped %llu samples ]\n", filter,
		event ? " on " : "", event ? event : "", (unsigned long long)dropped);
}

/* An empty profile is explained: how long the workload ran and on CPU,
 * against the sampling period (a workload killed in its first milliseconds
 * is over before the first sample is due). */
static void explain_no_samples(const struct workload *wl)
{
	char per[96];
	double period_ms = o.period ? 0 : 1000.0 / (double)(o.freq ? o.freq : RECORDING_DEFAULT_FREQ);
	if (o.period)
		snprintf(per, sizeof(per), "one sample every %llu events at -c %llu",
			 (unsigned long long)o.period, (unsigned long long)o.period);
	else
		snprintf(per, sizeof(per), "one sample every %.4g ms on CPU at -F %llu", period_ms,
			 (unsigned long long)(o.freq ? o.freq : RECORDING_DEFAULT_FREQ));
	if (!wl->pid || !wl->reaped || !wl->start_ns) {
		fprintf(stderr, "[ bpfperf record: 0 samples: the targets did not run long enough "
			"on a CPU while recording (%s) ]\n", per);
		return;
	}
	double ran = (double)(wl->end_ns - wl->start_ns) / 1e6, cpu = (double)wl->cpu_ns / 1e6;
	char how[64] = "";
	if (WIFSIGNALED(wl->status))
		snprintf(how, sizeof(how), "; it was killed by signal %d (%s)", WTERMSIG(wl->status),
			 strsignal(WTERMSIG(wl->status)));
	bool short_run = !o.period && cpu < period_ms;
	fprintf(stderr, "[ bpfperf record: 0 samples: the workload ran for %.1f ms and used %.1f ms "
		"of CPU, %s (%s)%s ]\n", ran, cpu,
		short_run ? "less than one sample period" : "and no sample fell in that time", per, how);
}

static void print_summary(const struct recording_stats *st, const struct record_filter *filter,
			  const struct sample_filter *sf, const struct recording *rec,
			  const struct record_off_cpu *oc, const struct workload *wl)
{
	double mb = (double)st->data_bytes / (1024.0 * 1024.0);
	fprintf(stderr, "[ bpfperf record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb,
		strcmp(o.output, "-") ? o.output : "to the standard output",
		(unsigned long long)st->samples);
	if (st->samples == 0 && !filter && !sf)
		explain_no_samples(wl);
	if (oc)
		record_off_cpu_summary(oc, stderr);
	if (filter) {
		uint64_t dropped;
		record_filter_dropped(filter, &dropped);
		print_filter_drops(o.bpf_object, NULL, dropped);
	}
	for (size_t i = 0; sf && i < sample_filter_count(sf); i++) {
		struct sample_filter_result r;
		sample_filter_result(sf, i, &r);
		char *q = xasprintf("'%s'", r.text);
		print_filter_drops(q, recording_nr_events(rec) > 2 ? recording_event_name(rec, r.event) : NULL,
				   r.dropped);
		free(q);
	}
	if (st->lost)
		fprintf(stderr, "[ bpfperf record: LOST %llu samples: the ring buffer was full; "
			"use a larger -m or a lower -F ]\n", (unsigned long long)st->lost);
	if (st->bpf_progs_missed)
		pr_info("%llu BPF programs were unloaded before their info could be saved "
			"(their KSYMBOL names are still in the file)",
			(unsigned long long)st->bpf_progs_missed);
}

/* Record until the workload exits, the targets are gone, a signal or the
 * duration; then finish the file. The exit status. */
static int run(struct recording *rec, struct workload *wl, const struct record_filter *filter,
	       const struct sample_filter *sf, const struct record_off_cpu *oc)
{
	int status = 0, err;
	recording_enable(rec);
	/* A stop signal while setting up: the workload is not released; the
	 * stop loop ends it at once. */
	if (wl->pid > 0 && !stop_signal_received() && (err = workload_start(wl)) < 0) {
		status = workload_failed_status(err);
	} else {
		struct stop_loop loop = {
			.wl = wl->pid > 0 ? wl : NULL,
			.target = &o.target,
			.duration = o.duration,
			.poll = recording_poll,
			.ctx = rec,
		};
		if (stop_loop_run(&loop) == STOP_ERROR)
			return EXIT_FAIL;	/* the write error is reported */
		status = workload_exit_status(wl);
	}
	struct recording_stats st;
	if (recording_stop(rec) || recording_finish(rec, &st))
		return EXIT_FAIL;
	print_summary(&st, filter, sf, rec, oc, wl);
	return status;
}

/* Over 80 lines: one recording's steps in their order (options, the sample
 * filters before anything is created, the workload, the hooks, the
 * recording), each a call, and the one cleanup path they share. */
int cmd_record(int argc, char **argv)
{
	struct cli_args args;
	struct event_list ev = { 0 };
	bool *cpus = NULL;
	int ncpus = 0, err, ret = EXIT_USAGE;
	pid_t *threads = NULL;
	size_t nthreads = 0;
	struct workload wl = { .go_fd = -1, .err_fd = -1 };
	struct record_filter *filter = NULL;
	struct sample_filter *sf = NULL;
	struct record_off_cpu *oc = NULL;
	int cgroup_fd = -1;
	struct recording *rec = NULL;
	char **filter_texts = NULL;
	size_t *first = NULL;

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
	    target_cpus(&o.target, &cpus, &ncpus) < 0)
		goto out;
	target_threads(&o.target, &threads, &nthreads);
	if (o.nr_filters) {
		/* before the workload and the file: a filter that cannot work records nothing */
		struct sample_filter_opts so = { .no_kctx = o.filter_no_kctx };
		sf = sample_filter_new(&so);
		err = sample_filter_setup(sf, o.filters, o.nr_filters, first, ev.n ? ev.n : 1, &filter_texts);
		if (err) {
			ret = err == -EINVAL || err == -E2BIG || sample_filter_term_refused(sf) ? EXIT_USAGE
											       : EXIT_FAIL;
			goto out;
		}
	}

	if (o.cgroup && (cgroup_fd = cgroup_open(o.cgroup)) < 0) {
		pr_err("invalid -G '%s': no such cgroup under the cgroup v2 mount %s (%s)", o.cgroup,
		       cgroup2_mount() ? cgroup2_mount() : "(cgroup2 is not mounted)", log_strerr(cgroup_fd));
		goto out;
	}
	/* -o -: perf's pipe mode on stdout; a reader that goes away is a
	 * write error (EPIPE), and the workload writes to stderr instead. */
	bool to_pipe = !strcmp(o.output, "-");
	stop_signals_install(to_pipe);
	if (o.target.argv &&
	    (err = workload_prepare_redirected(&wl, o.target.argv, to_pipe)) < 0) {
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
		.cpus = cpus,
		.nr_cpus = ncpus,
		.system_wide = target_is_system_wide(&o.target),
		.cgroup_fd = cgroup_fd,
		.threads = threads,
		.nr_threads = nthreads,
		.inherit = o.target.nr_tids == 0,
		.workload_pid = wl.pid,
		.output = o.output,
		.buildid_dir = o.buildid_dir,
		.no_buildid_cache = o.no_buildid_cache,
		.use_clockid = o.clockid >= 0,
		.clockid = o.clockid,
		.cmdline_argc = argc,
		.cmdline_argv = argv,
	};
	if (o.bpf_object) {
		filter = record_filter_new(o.bpf_object, o.sets.v, (int)o.sets.n);
		hooks[ro.nr_hooks++] = record_filter_hook(filter);
	}
	if (sf)
		hooks[ro.nr_hooks++] = sample_filter_hook(sf);
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
			.cgroup_fd = cgroup_fd,
			.pids = o.target.pids,
			.nr_pids = o.target.nr_pids,
			.tids = o.target.tids,
			.nr_tids = o.target.nr_tids,
			.workload = wl.pid,
			.thresh_ns = o.off_cpu_thresh_ms == UINT64_MAX ? 0 : o.off_cpu_thresh_ms * 1000000,
			.stack_skip = o.stack_skip == UINT64_MAX ? STACK_SKIP_AUTO : (int)o.stack_skip,
			.min_design = (int)o.off_cpu_min_design,
		};
		oc = record_off_cpu_new(&oo);
		hooks[ro.nr_hooks++] = record_off_cpu_hook(oc);
	}
	ro.hooks = hooks;
	ret = EXIT_FAIL;
	if (recording_open(&ro, &rec) == 0)
		ret = run(rec, &wl, filter, sf, oc);
out:
	recording_close(rec);
	record_filter_free(filter);
	sample_filter_free(sf);
	record_off_cpu_free(oc);
	if (cgroup_fd >= 0)
		close(cgroup_fd);
	for (size_t i = 0; filter_texts && i < (ev.n ? ev.n : 1); i++)
		free(filter_texts[i]);
	free(filter_texts);
	free(first);
	free(o.filters);
	workload_destroy(&wl);
	event_list_free(&ev);
	free(cpus);
	free(threads);
	free(o.target.pids);
	free(o.target.tids);
	free(o.events.v);
	free(o.sets.v);
	cli_args_free(&args);
	return ret;
}
