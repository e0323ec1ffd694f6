// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf record: sample a command, processes or the whole system into a
 * perf.data file that Linux perf reads too. Options follow perf record; the
 * recording itself is the library's (src/lib/record/). */
#include "cmds.h"
#include "cli.h"
#include "log.h"
#include "record/filter.h"
#include "record/record.h"
#include "skel/skel.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 16
#define MAX_PAGES (1u << 20)
#define XSTR(x) STR_(x)
#define STR_(x) #x

struct record_cli {
	struct cli_strv events;		/* -e, each maybe a comma-separated list */
	struct cli_strv sets;		/* --set NAME=VALUE */
	uint64_t freq, period, pages;
	bool callchain;
	struct target target;
	const char *output;
	double duration;
	const char *bpf_object;
};

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

static const char *parse_call_graph(const char *arg, void *dst)
{
	if (strcmp(arg, "fp") && strncmp(arg, "fp,", 3))
		return "fp (frame pointers): other call-graph modes are not supported";
	*(bool *)dst = true;
	return NULL;
}

static struct record_cli o;

static const struct cli_opt record_opts[] = {
	CLI_STRV('e', "event", "EVENT", "event to sample (default: cycles, or cpu-clock where there is no\n"
		 "hardware PMU); perf names or tracepoints SYSTEM:NAME", &o.events),
	CLI_CALL('F', "freq", "HZ", "sampling frequency (default " XSTR(RECORDING_DEFAULT_FREQ)
		 "; max: the kernel's limit)", &o.freq, parse_freq),
	CLI_U64('c', "count", "PERIOD", "sample every PERIOD events instead of a frequency", &o.period,
		1, 18446744073709551615.0, "a positive count"),
	CLI_FLAG('g', NULL, "record call graphs (frame pointers)", &o.callchain),
	CLI_CALL(0, "call-graph", "fp", "the same", &o.callchain, parse_call_graph),
	CLI_FLAG('a', "all-cpus", "system-wide (default when no command and no -p/-t)",
		 &o.target.system_wide),
	CLI_CALL('p', "pid", "PID[,PID]", "existing processes (and their threads)", &o.target,
		 target_cli_pids),
	CLI_CALL('t', "tid", "TID[,TID]", "existing threads", &o.target, target_cli_tids),
	CLI_STR('C', "cpu", "CPUS", "only these CPUs (e.g. 0-1,3)", &o.target.cpu_list),
	CLI_STR('o', "output", "FILE", "output file (default perf.data; an existing one becomes FILE.old)",
		&o.output),
	CLI_CALL('m', "mmap-pages", "N", "ring buffer data pages per CPU, a power of two (default "
		 XSTR(RECORDING_DEFAULT_PAGES) ")", &o.pages, parse_pages),
	CLI_CALL(0, "duration", "SEC", "stop after SEC seconds", &o.duration, cli_parse_seconds),
	CLI_STR(0, "bpf-object", "OBJ", "filter samples with OBJ's SEC(\"perf_event\") program (0 drops)",
		&o.bpf_object),
	CLI_STRV(0, "set", "NAME=VALUE", "assign a const volatile global of the filter object", &o.sets),
	CLI_END,
};

static const struct cli_cmd record_cmd = {
	.name = "record",
	.synopsis = "[-e EVENT]... [-F HZ | -c PERIOD] [-g] [-a | -p PID | -t TID]\n"
		    "                      [-C CPUS] [-o FILE] [-m PAGES] [--duration SEC] [-- CMD ARGS...]",
	.opts = record_opts,
	.positional = CLI_POS_CMD,
};

/* The -e values split at commas, into specs (free each and the array). */
static int split_events(char ***specs, size_t *n)
{
	size_t cap = 0;
	*specs = NULL;
	*n = 0;
	for (size_t i = 0; i < o.events.n; i++) {
		char *dup = xstrdup(o.events.v[i]), *save = NULL;
		for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (*n >= MAX_EVENTS) {
				pr_err("too many events (at most %d)", MAX_EVENTS);
				free(dup);
				return -EINVAL;
			}
			ARRAY_GROW(*specs, cap, *n + 1);
			(*specs)[(*n)++] = xstrdup(t);
		}
		free(dup);
	}
	return 0;
}

/* Combinations the table cannot check. */
static int check_options(void)
{
	if (o.freq && o.period) {
		pr_err("-F and -c both given: choose a frequency or a period");
		return -EINVAL;
	}
	if (o.sets.n && !o.bpf_object) {
		pr_err("--set needs --bpf-object");
		return -EINVAL;
	}
	return target_check(&o.target, TARGET_A_WITH_CMD);
}

static void print_summary(const struct recording_stats *st, const struct record_filter *filter)
{
	double mb = (double)st->data_bytes / (1024.0 * 1024.0);
	fprintf(stderr, "[ bpfperf record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb,
		o.output, (unsigned long long)st->samples);
	if (filter) {
		uint64_t dropped;
		record_filter_dropped(filter, &dropped);
		fprintf(stderr, "[ bpfperf record: the BPF filter %s dropped %llu samples ]\n",
			o.bpf_object, (unsigned long long)dropped);
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
static int run(struct recording *rec, struct workload *wl, const struct record_filter *filter)
{
	int status = 0, err;
	recording_enable(rec);
	if (wl->pid > 0 && (err = workload_start(wl)) < 0) {
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
	print_summary(&st, filter);
	return status;
}

int cmd_record(int argc, char **argv)
{
	struct cli_args args;
	char **specs = NULL;
	size_t nspecs = 0;
	bool *cpus = NULL;
	int ncpus = 0, err, ret = EXIT_USAGE;
	pid_t *threads = NULL;
	size_t nthreads = 0;
	struct workload wl = { .go_fd = -1, .err_fd = -1 };
	struct record_filter *filter = NULL;
	struct recording *rec = NULL;

	memset(&o, 0, sizeof(o));
	o.output = "perf.data";
	o.pages = RECORDING_DEFAULT_PAGES;
	int rc = cli_parse(&record_cmd, argc, argv, &args);
	if (rc != CLI_OK)
		return cli_exit(rc);
	o.target.argv = args.cmd;
	if (check_options() < 0 || split_events(&specs, &nspecs) < 0 ||
	    target_cpus(&o.target, &cpus, &ncpus) < 0)
		goto out;
	target_threads(&o.target, &threads, &nthreads);

	stop_signals_install(false);
	if (o.target.argv && (err = workload_prepare(&wl, o.target.argv)) < 0) {
		ret = workload_failed_status(err);
		goto out;
	}
	struct recording_hook hook;
	struct recording_opts ro = {
		.events = (const char *const *)specs,
		.nr_events = nspecs,
		.freq = o.freq,
		.period = o.period,
		.callchain = o.callchain,
		.mmap_pages = o.pages,
		.cpus = cpus,
		.nr_cpus = ncpus,
		.system_wide = target_is_system_wide(&o.target),
		.threads = threads,
		.nr_threads = nthreads,
		.inherit = o.target.nr_tids == 0,
		.workload_pid = wl.pid,
		.output = o.output,
		.cmdline_argc = argc,
		.cmdline_argv = argv,
	};
	if (o.bpf_object) {
		filter = record_filter_new(o.bpf_object, o.sets.v, (int)o.sets.n);
		hook = record_filter_hook(filter);
		ro.hooks = &hook;
		ro.nr_hooks = 1;
	}
	ret = EXIT_FAIL;
	if (recording_open(&ro, &rec) == 0)
		ret = run(rec, &wl, filter);
out:
	recording_close(rec);
	record_filter_free(filter);
	workload_destroy(&wl);
	for (size_t i = 0; i < nspecs; i++)
		free(specs[i]);
	free(specs);
	free(cpus);
	free(threads);
	free(o.target.pids);
	free(o.target.tids);
	free(o.events.v);
	free(o.sets.v);
	cli_args_free(&args);
	return ret;
}
