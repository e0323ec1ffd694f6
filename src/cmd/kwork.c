// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf kwork: time spent in hard irqs, softirqs, workqueue items and
 * tasks, measured and aggregated in the kernel with BPF; perf kwork's
 * views without a perf.data file.
 *
 *   bpfperf kwork report|latency|timehist|top [-k CLASSES] [-a | -C CPUS]
 *                [-n NAME] [-s KEYS] [-S] [--duration SEC] [--json] [--hist]
 *                [-G CGROUP] [-- CMD ARGS...]
 *
 * Options and output only: the engine is src/lib/feat/kwork.c, the kernel
 * side src/bpf/kwork.bpf.c. */
#include <linux/types.h>

#include "cli.h"
#include "cmds.h"
#include "feat/kwork.h"
#include "log.h"
#include "out/kwork_print.h"
#include "skel/skel.h"
#include "target/cgroup.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kwork_cli {
	enum kwork_view view;
	const char *classes;	/* -k */
	const char *name;	/* -n */
	const char *sort;	/* -s */
	bool summary;		/* -S */
	bool json;
	bool hist;
	double duration;
	const char *cgroup;	/* -G */
	uint64_t map_entries;
	uint64_t min_design;
	struct target target;
	/* parsed */
	uint32_t class_bits;
	enum kwork_sort_key keys[KWORK_SORT__MAX];
	int nkeys;
	bool *cpus;
	int nr_cpus;
};

static const char *const view_names[] = { "report", "latency", "timehist", "top", NULL };
/* the command's name in usage lines and messages, by view */
static const char *const view_cmds[] = { "kwork report", "kwork latency", "kwork timehist", "kwork top" };

static const char description[] =
	"Time spent in hard irqs, softirqs, workqueue items and tasks, measured with BPF\n"
	"on the kernel's tracepoints and aggregated in the kernel, shown as perf kwork's\n"
	"views: report (runtime per work), latency (raise to entry), timehist (each\n"
	"piece of work as it ends) and top (each CPU's busy share and the tasks using it).\n";
static const char footer[] =
	"Classes (-k): irq, softirq, workqueue (default: all three), sched (top: always).\n"
	"Sort keys (-s): report runtime,max,count,id (default runtime,max,count);\n"
	"latency avg,max,count,id (default avg,max,count); top rate,runtime,tid\n"
	"(default rate,runtime). See docs/bpfperf-kwork.md.\n";

static int parse_args(int argc, char **argv, struct kwork_cli *o)
{
	const struct cli_opt opts[] = {
		CLI_STR('k', "kwork", "CLASSES", "the kinds of work: irq, softirq, workqueue, sched\n"
			"(comma-separated; default irq,softirq,workqueue)", &o->classes),
		CLI_FLAG('a', "all-cpus", "every CPU (the default)", &o->target.system_wide),
		CLI_STR('C', "cpu", "CPUS", "only these CPUs (e.g. 0-1,3)", &o->target.cpu_list),
		CLI_STR('n', "name", "NAME", "only the work of this name (as shown: \"(s)RCU:9\")", &o->name),
		CLI_STR('s', "sort", "KEYS", "sort by these keys (comma-separated; see below)", &o->sort),
		CLI_FLAG('S', "with-summary", "report: the total count, runtime and time span", &o->summary),
		CLI_FLAG(0, "json", "JSON output (timehist: one object per line)", &o->json),
		CLI_FLAG(0, "hist", "a log2 histogram of each work's runtime (latency: delay)", &o->hist),
		CLI_CALL(0, "duration", "SEC", "stop after SEC seconds", &o->duration, cli_parse_seconds),
		CLI_STR('G', "cgroup", "CGROUP", "top: only the time of the tasks of this cgroup v2 path", &o->cgroup),
		CLI_U64('M', "map-nr-entries", "N", "entries of the aggregation map (default 8192)", &o->map_entries,
			1, 1 << 22, "a number of entries from 1 to 4M"),
		CLI_U64(0, "min-design", "N", NULL, &o->min_design, 0, 1, "0 or 1"),
		CLI_END,
	};
	const struct cli_cmd cmd = {
		.name = view_cmds[o->view],
		.synopsis = "[OPTIONS] [-a | -C CPUS] [-- CMD [ARGS...]]",
		.description = description,
		.footer = footer,
		.opts = opts,
		.positional = CLI_POS_CMD,
	};
	int rc = cli_parse_cmd(&cmd, argc, argv, &o->target.argv);
	if (rc != CLI_OK)
		return rc;

	const char *bad;
	if (o->classes) {
		o->class_bits = kwork_parse_classes(o->classes, &bad);
		if (!o->class_bits)
			return cli_bad_value("--kwork", bad, "irq, softirq, workqueue or sched, comma-separated");
	} else {
		o->class_bits = (1U << KWORK_IRQ) | (1U << KWORK_SOFTIRQ) | (1U << KWORK_WORKQUEUE);
	}
	if (o->view == KWORK_VIEW_TOP) {
		/* perf kwork top: task time, and the irq time taken out of it */
		o->class_bits |= (1U << KWORK_SCHED) | (1U << KWORK_IRQ) | (1U << KWORK_SOFTIRQ);
		o->class_bits &= ~(1U << KWORK_WORKQUEUE);
	} else if (!(o->class_bits & ~(1U << KWORK_SCHED))) {
		pr_err("the sched class is shown by 'kwork top' only; give irq, softirq or workqueue to -k");
		return CLI_USAGE_ERROR;
	} else if (o->class_bits & (1U << KWORK_SCHED)) {
		pr_warn("the sched class is shown by 'kwork top' only: left out here (the other classes "
			"of -k are shown)");
		o->class_bits &= ~(1U << KWORK_SCHED);
	}
	if (o->view == KWORK_VIEW_TIMEHIST && o->sort)
		return cli_bad_value("--sort", o->sort, "no keys: timehist shows the events in time order");
	if (o->view != KWORK_VIEW_TIMEHIST) {
		o->nkeys = kwork_parse_sort(o->view, o->sort, o->keys, &bad);
		if (o->nkeys < 0)
			return cli_bad_value("--sort", bad,
					     o->view == KWORK_VIEW_LATENCY ? "avg, max, count or id" :
					     o->view == KWORK_VIEW_TOP ? "rate, runtime or tid" :
									  "runtime, max, count or id");
	}
	if (o->summary && o->view != KWORK_VIEW_REPORT) {
		pr_err("-S (--with-summary) is a report option");
		return CLI_USAGE_ERROR;
	}
	if (o->hist && (o->view == KWORK_VIEW_TIMEHIST || o->view == KWORK_VIEW_TOP)) {
		pr_err("--hist works with report and latency (timehist shows each event, top shares)");
		return CLI_USAGE_ERROR;
	}
	if (o->cgroup && o->view != KWORK_VIEW_TOP) {
		pr_err("-G (--cgroup) selects tasks: it works with 'kwork top' only");
		return CLI_USAGE_ERROR;
	}
	if (o->target.cpu_list) {
		if (o->target.system_wide) {
			pr_err("-a (every CPU) and -C (these CPUs) exclude each other; pick one");
			return CLI_USAGE_ERROR;
		}
		o->nr_cpus = cpu_count_possible();
		o->cpus = xcalloc((size_t)o->nr_cpus, sizeof(bool));
		if (parse_cpu_list(o->target.cpu_list, o->cpus, o->nr_cpus) < 0)
			return cli_bad_value("--cpu", o->target.cpu_list, "CPU numbers of this machine, e.g. 0-1,3");
		bool any = false;
		for (int i = 0; i < o->nr_cpus; i++)
			any |= o->cpus[i];
		if (!any)
			return cli_bad_value("--cpu", o->target.cpu_list, "CPU numbers of this machine, e.g. 0-1,3");
	}
	o->target.system_wide = true;
	return CLI_OK;
}

/* What was not counted, on stderr. */
static void report_losses(const uint64_t *c, enum kwork_view v)
{
	if (c[KWORK_CNT_MAP_FULL])
		pr_warn("%" PRIu64 " runtimes or delays lost: the aggregation map was full; raise --map-nr-entries",
			c[KWORK_CNT_MAP_FULL]);
	if (c[KWORK_CNT_PEND_FULL])
		pr_warn("%" PRIu64 " workqueue items lost: the pending-work map was full", c[KWORK_CNT_PEND_FULL]);
	if (c[KWORK_CNT_RB_FULL])
		pr_warn("%" PRIu64 " events lost: the ring buffer was full (the output too slow)", c[KWORK_CNT_RB_FULL]);
	if (c[KWORK_CNT_BAD_VEC])
		pr_warn("%" PRIu64 " softirqs with a vector out of range not counted", c[KWORK_CNT_BAD_VEC]);
	if (c[KWORK_CNT_NAME_FULL])
		pr_warn("%" PRIu64 " names not kept: the name map was full", c[KWORK_CNT_NAME_FULL]);
	for (int i = 0; i < KWORK_CLASS__MAX; i++)
		if (c[KWORK_CNT_MISSED_IRQ + i])
			pr_warn("up to %" PRIu64 " %s events missed: the kernel skipped them while another BPF "
				"program ran on the CPU (recursion misses)", c[KWORK_CNT_MISSED_IRQ + i],
				kwork_class_names[i]);
	if (c[KWORK_CNT_SWITCH_UNSEEN])
		pr_warn("%.3f ms of CPU time not counted: the kernel switched tasks %" PRIu64 " times "
			"without a sched_switch event, so whose time it was is unknown",
			(double)c[KWORK_CNT_UNSEEN_NS] / 1e6, c[KWORK_CNT_SWITCH_UNSEEN]);
	if (c[KWORK_CNT_OVERWRITE])
		pr_warn("%" PRIu64 " entries without their exit (a second entry came first): not counted",
			c[KWORK_CNT_OVERWRITE]);
	pr_info("%" PRIu64 " events, %" PRIu64 " counted; %" PRIu64 " exits without their entry (it came before "
		"the start)", c[KWORK_CNT_EVENTS], c[KWORK_CNT_COUNTED], c[KWORK_CNT_NO_ENTRY]);
	if (v == KWORK_VIEW_LATENCY || v == KWORK_VIEW_TIMEHIST)
		pr_info("%" PRIu64 " entries without their raise (raised before the start), not in the delays",
			c[KWORK_CNT_NO_RAISE]);
}

struct th_state {
	const struct kwork_cli *o;
	uint64_t shown;
};

static void on_event(void *ctx, const struct kwork_tevent *ev)
{
	struct th_state *st = ctx;
	if (st->o->name && strcmp(ev->name, st->o->name))
		return;
	st->shown++;
	if (st->o->json)
		kwork_print_timehist_json(stdout, ev);
	else
		kwork_print_timehist_event(stdout, ev);
}

static int poll_kwork(void *ctx, int timeout_ms)
{
	return kwork_poll(ctx, timeout_ms);
}

static int run_kwork(struct kwork_cli *o, struct workload *wl)
{
	struct th_state st = { .o = o };
	struct kwork_opts ko = {
		.view = o->view,
		.classes = o->class_bits,
		.cpus = o->cpus,
		.nr_cpus = o->nr_cpus,
		.hist = o->hist,
		.cgroup_fd = -1,
		.map_entries = (uint32_t)o->map_entries,
		.min_design = (int)o->min_design,
		.on_event = on_event,
		.ctx = &st,
	};
	struct kwork *k = NULL;
	struct kwork_result r = { 0 };
	struct kwork_top top = { 0 };
	int ret = EXIT_FAIL, err;

	if (o->cgroup) {
		ko.cgroup_fd = cgroup_open(o->cgroup);
		if (ko.cgroup_fd < 0) {
			pr_err("cannot open cgroup '%s': %s; give a cgroup v2 path under %s", o->cgroup,
			       log_strerr(ko.cgroup_fd), cgroup2_mount() ? cgroup2_mount() : "the cgroup2 mount");
			return EXIT_USAGE;
		}
	}
	if (kwork_open(&ko, &k) < 0)
		goto out;
	const char *why;
	enum kwork_design d = kwork_design(k, &why);
	if (why)
		pr_info("%s: %s", kwork_design_name(d), why);
	else
		pr_info("%s", kwork_design_name(d));
	if (o->view == KWORK_VIEW_TIMEHIST && !o->json)
		kwork_print_timehist_header(stdout);
	if (kwork_start(k) < 0)
		goto out;
	if (wl->pid > 0 && !stop_signal_received() && (err = workload_start(wl)) < 0) {
		ret = workload_failed_status(err);
		goto out;
	}
	struct stop_loop loop = {
		.wl = wl->pid > 0 ? wl : NULL,
		.duration = o->duration,
		.out_fd = o->view == KWORK_VIEW_TIMEHIST ? 1 : 0,
		.poll = poll_kwork,
		.ctx = k,
	};
	enum stop_reason stop = stop_loop_run(&loop);
	kwork_stop(k);
	if (o->view == KWORK_VIEW_TIMEHIST) {
		uint64_t c[KWORK_CNT__MAX];
		kwork_read_counters(k, c);
		if (o->json)
			kwork_print_timehist_json_end(stdout, st.shown, c);
		else
			kwork_print_timehist_end(stdout, st.shown, c);
		report_losses(c, o->view);
	} else {
		kwork_read(k, &r);
		if (o->view == KWORK_VIEW_TOP) {
			kwork_top_compute(&r, o->name, &top);
			kwork_sort(top.tasks, top.nr_tasks, o->keys, o->nkeys);
		} else {
			kwork_filter_name(&r, o->name);
			kwork_sort(r.e, r.n, o->keys, o->nkeys);
		}
		if (o->json)
			kwork_print_json(stdout, o->view, &r, &top, o->hist);
		else if (o->view == KWORK_VIEW_TOP)
			kwork_print_top(stdout, &top);
		else
			kwork_print_table(stdout, o->view, &r, o->summary, o->hist);
		report_losses(r.counters, o->view);
	}
	if (stop == STOP_ERROR)
		ret = EXIT_FAIL;
	else
		ret = wl->pid > 0 ? workload_exit_status(wl) : EXIT_OK;
out:
	kwork_top_free(&top);
	kwork_result_free(&r);
	kwork_close(k);
	if (ko.cgroup_fd > 0)
		close(ko.cgroup_fd);
	return ret;
}

static void usage_kwork(FILE *f)
{
	fprintf(f, "usage: bpfperf kwork report|latency|timehist|top [OPTIONS] [-a | -C CPUS] [-- CMD [ARGS...]]\n\n"
		   "Views:\n"
		   "  report    runtime of each irq, softirq and workqueue item per CPU\n"
		   "  latency   delay from raise (softirq) or activation (workqueue) to entry\n"
		   "  timehist  each piece of work as it ends, with its runtime and delay\n"
		   "  top       each CPU's busy share and the tasks using it\n\n"
		   "See 'bpfperf kwork report --help' and docs/bpfperf-kwork.md.\n");
}

/* The view named by argv[1]: 0, or -1 after a message. */
static int parse_view(const char *word, enum kwork_view *v)
{
	for (int i = 0; view_names[i]; i++)
		if (!strcmp(word, view_names[i])) {
			*v = (enum kwork_view)i;
			return 0;
		}
	pr_err("unknown kwork view '%s': use report, latency, timehist or top (see 'bpfperf kwork --help')", word);
	return -1;
}

static void kwork_cli_free(struct kwork_cli *o)
{
	free(o->cpus);
	free(o->target.pids);
}

int cmd_kwork(int argc, char **argv)
{
	struct kwork_cli o = { 0 };
	struct workload wl = { .go_fd = -1, .err_fd = -1 };
	int ret, err;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_kwork(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (parse_view(argv[1], &o.view) < 0)
		return EXIT_USAGE;
	ret = parse_args(argc - 1, argv + 1, &o);
	if (ret != CLI_OK) {
		kwork_cli_free(&o);
		return cli_exit(ret);
	}
	stop_signals_install(true);
	if (o.target.argv && (err = workload_prepare(&wl, o.target.argv)) < 0)
		ret = workload_failed_status(err);
	else if (bpf_privileges_check("the kwork BPF programs") < 0)
		ret = EXIT_FAIL;
	else
		ret = run_kwork(&o, &wl);
	workload_destroy(&wl);
	kwork_cli_free(&o);
	return ret;
}
