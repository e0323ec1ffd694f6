// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf run: load any BPF object, attach every program by its section,
 * stream its ring buffers / perf event arrays, dump its maps by BTF.
 * The work is in src/lib/bpfobj (objects) and src/lib/btf (formatting); the
 * target and the workload come from src/lib/target, the stop loop and the
 * background detach from src/lib/skel. This file is the command line and the
 * order of the steps:
 *
 *   run_parse -> run_open -> run_load -> run_attach -> run_loop -> run_finish */
#include "cmds.h"
#include "bpfobj/bpfobj.h"
#include "cli.h"
#include "log.h"
#include "skel/skel.h"
#include "target/target.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct run_opts {
	double duration, interval;	/* seconds, 0: none */
	struct target target;		/* -p (one pid) or -- CMD */
	struct cli_strv sets;		/* --set NAME=VALUE */
	struct bpfobj_perf_event *events; /* -e */
	size_t nr_events, cap_events;
	const char *event_type;
	int core_btf;			/* enum bpfobj_core_btf, -1: not given */
	bool json, skip, hist, heatmap, xlated;
};

/* The options of this process's one run (the table below points into it). */
static struct run_opts run_opts = { .core_btf = -1, .hist = true };

/* -p: run attaches uprobe/, usdt/ and perf_event programs to one process. */
static const char *parse_pid(const char *arg, void *dst)
{
	struct target *t = dst;
	if (t->nr_pids)
		return "a single -p (run attaches to one process)";
	if (target_cli_pids(arg, t))
		return "a process id, e.g. 1234";
	if (t->nr_pids > 1)
		return "one process id (run attaches to a single process)";
	return NULL;
}

#define EVENT_NAMES "cpu-clock, task-clock, page-faults, context-switches, cpu-migrations, " \
	"minor-faults, major-faults, cycles, instructions, cache-references, cache-misses, " \
	"branches, branch-misses"

static const char *parse_event(const char *arg, void *dst)
{
	struct run_opts *o = dst;
	ARRAY_GROW(o->events, o->cap_events, o->nr_events + 1);
	if (bpfobj_parse_perf_event(arg, &o->events[o->nr_events])) {
		pr_err("invalid --event '%s': unknown event or bad frequency; expected EVENT[:HZ] with "
		       "EVENT one of " EVENT_NAMES, arg);
		return CLI_REPORTED;
	}
	o->nr_events++;
	return NULL;
}

static const char *parse_set(const char *arg, void *dst)
{
	struct cli_strv *sv = dst;
	if (!strchr(arg, '=') || arg[0] == '=')
		return "NAME=VALUE";
	ARRAY_GROW(sv->v, sv->cap, sv->n + 1);
	sv->v[sv->n++] = (char *)arg;
	return NULL;
}

static const char *parse_core_btf(const char *arg, void *dst)
{
	static const char *const modes[] = { [BPFOBJ_CORE_BTF_AUTO] = "auto",
		[BPFOBJ_CORE_BTF_VMLINUX] = "vmlinux", [BPFOBJ_CORE_BTF_MINIMAL] = "minimal" };
	for (int i = 0; i < (int)ARRAY_SIZE(modes); i++) {
		if (!strcmp(arg, modes[i])) {
			*(int *)dst = i;
			return NULL;
		}
	}
	return "auto, vmlinux or minimal";
}

static const struct cli_opt run_table[] = {
	CLI_CALL('d', "duration", "SEC", "stop after SEC seconds (default: Ctrl-C or CMD exit)",
		 &run_opts.duration, cli_parse_seconds),
	CLI_CALL('p', "pid", "PID", "target of uprobe/, usdt/ and perf_event programs",
		 &run_opts.target, parse_pid),
	CLI_CALL(0, "set", "NAME=VALUE", "assign a const volatile global before load (repeatable)",
		 &run_opts.sets, parse_set),
	CLI_CALL('e', "event", "EV[:HZ]", "perf event for SEC(\"perf_event\") programs (repeatable;\n"
		 "default cpu-clock:99): cpu-clock, task-clock, page-faults,\n"
		 "context-switches, cpu-migrations, cycles, instructions...",
		 &run_opts, parse_event),
	CLI_DOUBLE('I', "interval", "SEC", "also dump the maps every SEC seconds", &run_opts.interval,
		   0.01, CLI_SECONDS_MAX, "a number of seconds from 0.01 to 1e7, e.g. 1 or 0.5"),
	CLI_FLAG(0, "heatmap", "with --interval: print histogram maps as one heat-map row\n"
		 "per interval instead of full dumps", &run_opts.heatmap),
	CLI_STR(0, "event-type", "NAME", "decode stream records as struct NAME", &run_opts.event_type),
	CLI_FLAG_OFF(0, "no-hist", "do not render histogram maps as text histograms", &run_opts.hist),
	CLI_FLAG(0, "skip-unsupported", "run the programs this kernel supports, skip the others",
		 &run_opts.skip),
	CLI_CALL(0, "core-btf", "MODE", "CO-RE relocation target: auto (default: a minimal copy of\n"
		 "the kernel types used, or the full kernel BTF where needed),\n"
		 "vmlinux (always the full kernel BTF), minimal (or fail)",
		 &run_opts.core_btf, parse_core_btf),
	CLI_FLAG(0, "dump-xlated", "load, print the programs' translated instructions, exit",
		 &run_opts.xlated),
	CLI_FLAG('j', "json", "JSON: one object per record, {\"maps\": [...]} per dump", &run_opts.json),
	CLI_END,
};

static const struct cli_cmd run_cmd = {
	.name = "run",
	.synopsis = "OBJ.bpf.o [OBJ...] [options] [-- CMD [ARGS...]]",
	.description =
		"Open each BPF object, assign its const volatile globals (--set), load it,\n"
		"attach every program where its section says, stream its ring buffer and\n"
		"perf event array maps, and dump every other map typed by BTF at the end.\n",
	.footer =
		"Sections: tracepoint/ tp/ raw_tp/ raw_tracepoint/ tp_btf/ uprobe/ uretprobe/\n"
		"usdt/ perf_event kprobe/ kretprobe/ fentry/ fexit/. See docs/bpfperf-run.md.\n",
	.opts = run_table,
	.positional = CLI_POS_ARGS,	/* the objects; what follows -- is the command */
};

/* One run: the objects and the workload, from start to exit. */
struct run {
	const struct run_opts *o;
	char **paths;			/* the object files */
	int nr_objs;
	struct bpfobj **objs;
	int opened;
	struct workload wl;
	int links, nstreams;
	uint64_t t0, t_loaded;		/* now_ns() */
};

/* Parse and check the command line into run_opts and args. Returns -1 to go
 * on, else the exit status (0 for --help, 2 for a usage error). */
static int run_parse(int argc, char **argv, struct cli_args *args)
{
	struct run_opts *o = &run_opts;
	int rc = cli_parse(&run_cmd, argc, argv, args);
	if (rc != CLI_OK)
		return cli_exit(rc);
	o->target.argv = args->cmd;
	if (!args->nr_pos) {
		pr_err("no BPF object given; usage: bpfperf run OBJ.bpf.o [options] [-- CMD]");
		cli_usage(&run_cmd, stderr);
		return EXIT_USAGE;
	}
	if (o->heatmap && (!o->interval || o->json)) {
		pr_err("--heatmap needs --interval SEC and text output (no --json)");
		return EXIT_USAGE;
	}
	if (o->target.nr_pids && o->target.argv) {
		pr_err("-p and a command are exclusive: trace either an existing process or CMD");
		return EXIT_USAGE;
	}
	if (target_check(&o->target, TARGET_NO_TIDS) < 0)
		return EXIT_USAGE;	/* a bad combination, or no such process */
	return -1;
}

/* Open every object, apply the --set assignments and check that the kernel
 * supports the programs. 0, or -1 (reported). */
static int run_open(struct run *r)
{
	const struct run_opts *o = r->o;
	r->objs = xcalloc((size_t)r->nr_objs, sizeof(*r->objs));
	struct bpfobj_open_opts oo = { .core_btf = o->core_btf >= 0 ? (enum bpfobj_core_btf)o->core_btf
									: BPFOBJ_CORE_BTF_AUTO };
	for (int i = 0; i < r->nr_objs; i++) {
		if (bpfobj_open(r->paths[i], &oo, &r->objs[i]))
			return -1;
		r->opened++;
	}
	/* Each --set goes to every object that has the variable; at least one must. */
	for (size_t s = 0; s < o->sets.n; s++) {
		int applied = 0;
		for (int i = 0; i < r->nr_objs; i++) {
			int ret = bpfobj_set(r->objs[i], o->sets.v[s], r->nr_objs == 1);
			if (ret < 0)
				return -1;
			applied += ret;
		}
		if (!applied) {
			pr_err("--set %s: no object has that global variable; declare it as "
			       "'const volatile TYPE NAME = DEFAULT;'", o->sets.v[s]);
			return -1;
		}
	}
	int nr_progs = 0;
	for (int i = 0; i < r->nr_objs; i++) {
		int ret = bpfobj_check_support(r->objs[i], o->skip);
		if (ret < 0)
			return -1;
		nr_progs += ret;
	}
	if (!nr_progs) {
		pr_err("no program to run: %s", o->skip ? "every program was skipped as unsupported"
			: "the object has no BPF programs (put them in SEC(\"tp/CATEGORY/NAME\") functions)");
		return -1;
	}
	return 0;
}

/* Fork the command (held before exec until we are attached) and load the
 * objects; with --dump-xlated print the programs instead (the command does
 * not run). Returns -1 to go on, else the exit status. */
static int run_load(struct run *r)
{
	const struct run_opts *o = r->o;
	/* Before the command exists: a signal while loading stops cleanly. */
	stop_signals_install(false);
	if (o->target.argv && !o->xlated) {
		int err = workload_prepare(&r->wl, o->target.argv);
		if (err)
			return workload_failed_status(err);
	}
	for (int i = 0; i < r->nr_objs; i++)
		if (bpfobj_load(r->objs[i]))
			return EXIT_FAIL;
	r->t_loaded = now_ns();
	if (o->xlated) {
		int ret = EXIT_OK;
		for (int i = 0; i < r->nr_objs && !ret; i++)
			ret = bpfobj_dump_xlated(r->objs[i], stdout) ? EXIT_FAIL : EXIT_OK;
		fflush(stdout);
		return ret;
	}
	return -1;
}

/* Attach every program, open the streams, then let the command exec.
 * Returns -1 to go on, else the exit status. */
static int run_attach(struct run *r)
{
	const struct run_opts *o = r->o;
	bool cmd = r->wl.pid > 0;
	struct bpfobj_attach_opts ao = {
		.pid = cmd ? r->wl.pid : o->target.nr_pids ? o->target.pids[0] : -1,
		.inherit = cmd,
		.events = o->events, .nr_events = (int)o->nr_events, .skip_unsupported = o->skip,
	};
	for (int i = 0; i < r->nr_objs; i++) {
		if (bpfobj_attach(r->objs[i], &ao))
			return EXIT_FAIL;
		r->links += bpfobj_nr_links(r->objs[i]);
	}
	struct bpfobj_output so = { .out = stdout, .json = o->json, .event_type = o->event_type };
	for (int i = 0; i < r->nr_objs; i++) {
		int ret = bpfobj_streams_open(r->objs[i], &so);
		if (ret < 0)
			return EXIT_FAIL;
		r->nstreams += ret;
	}
	pr_info("attached %d program link%s from %d object%s in %.1f ms (load %.1f ms)%s", r->links,
		r->links == 1 ? "" : "s", r->nr_objs, r->nr_objs == 1 ? "" : "s",
		(double)(now_ns() - r->t0) / 1e6, (double)(r->t_loaded - r->t0) / 1e6,
		cmd ? "" : "; Ctrl-C to stop");
	/* A stop signal while loading: the command is not released; the stop
	 * loop ends it at once and the maps are dumped. */
	if (cmd && !stop_signal_received()) {
		int err = workload_start(&r->wl);
		if (err)
			return workload_failed_status(err);
	}
	return -1;
}

/* Dump every object's maps: one {"maps": [...]} line in JSON, else text
 * (heading before the first object's maps, if any). */
static void dump_all(struct run *r, bool heatmap, const char *heading)
{
	struct bpfobj_dump_opts d = { .o = { .out = stdout, .json = r->o->json }, .histograms = r->o->hist,
				      .heatmap = heatmap, .heading = heading };
	bpfobj_dump_maps_all(r->objs, r->nr_objs, &d);
}

/* stop_loop poll: wait for stream records of every object (the wait shared
 * between them) and print them. */
static int run_poll(void *ctx, int timeout_ms)
{
	struct run *r = ctx;
	return bpfobj_streams_poll_all(r->objs, r->nr_objs, timeout_ms);
}

/* stop_loop tick (--interval): a heat-map row, a JSON dump, or a full text
 * dump under the time of day. */
static int run_tick(void *ctx)
{
	struct run *r = ctx;
	if (r->o->heatmap || r->o->json) {
		dump_all(r, r->o->heatmap, NULL);
		return 0;
	}
	time_t tt = time(NULL);
	struct tm tm;
	char head[64];
	localtime_r(&tt, &tm);
	strftime(head, sizeof(head), "=== %H:%M:%S ===", &tm);
	dump_all(r, false, head);
	return 0;
}

/* Stream until Ctrl-C, the duration or the command's exit (a command still
 * running then gets the signal, or SIGTERM, and 1 s to exit). Returns -1 to
 * go on to the final dump with *status the exit status, or the exit status
 * of a failure. */
static int run_loop(struct run *r, int *status)
{
	struct stop_loop l = { .wl = r->wl.pid > 0 ? &r->wl : NULL, .duration = r->o->duration,
			       .interval = r->o->interval, .poll = run_poll, .tick = run_tick, .ctx = r };
	enum stop_reason why = stop_loop_run(&l);
	if (why == STOP_ERROR) {
		pr_err("reading events: %s", log_strerr(l.err));
		return EXIT_FAIL;
	}
	/* The command's status when it exited or was stopped by a signal; when
	 * the duration stopped it, the run itself succeeded. */
	*status = l.wl && why != STOP_DURATION ? workload_exit_status(&r->wl) : EXIT_OK;
	return -1;
}

/* The final dump and the stream counts; the links are left to a child to
 * detach after we exit (see bpf_detach_in_background). */
static void run_finish(struct run *r)
{
	uint64_t records, lost;
	bpfobj_streams_stats_all(r->objs, r->nr_objs, &records, &lost);
	fflush(stdout);
	if (r->o->json)
		dump_all(r, false, NULL);
	else
		dump_all(r, false, r->o->interval ? "=== final ===" : (r->nstreams && records ? "" : NULL));
	if (r->nstreams)
		fprintf(stderr, "bpfperf run: %" PRIu64 " records streamed, %" PRIu64 " lost\n", records, lost);
	pr_info("finished %.1f ms after start", (double)(now_ns() - r->t0) / 1e6);
	if (r->links > 0)
		bpf_detach_in_background();
}

int cmd_run(int argc, char **argv)
{
	struct cli_args args = { 0 };
	struct run r = { .o = &run_opts, .wl = { .go_fd = -1, .err_fd = -1 } };
	int status = EXIT_OK;
	int ret = run_parse(argc, argv, &args);
	if (ret >= 0)
		goto out;
	r.paths = args.pos;
	r.nr_objs = args.nr_pos;
	r.t0 = now_ns();
	if (run_open(&r) < 0)
		ret = EXIT_FAIL;
	if (ret < 0)
		ret = run_load(&r);
	if (ret < 0)
		ret = run_attach(&r);
	if (ret < 0)
		ret = run_loop(&r, &status);
	if (ret < 0) {
		run_finish(&r);
		ret = status;
	}
	workload_destroy(&r.wl);
	for (int i = 0; i < r.opened; i++)
		bpfobj_close(r.objs[i]);
	free(r.objs);
out:
	cli_args_free(&args);
	free(run_opts.target.pids);
	free(run_opts.sets.v);
	free(run_opts.events);
	return ret;
}
