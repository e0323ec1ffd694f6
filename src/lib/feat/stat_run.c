// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf stat's runs, see feat/stat_run.h. */
#include "feat/stat_run.h"
#include "log.h"
#include "skel/skel.h"
#include "target/target.h"
#include "util.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

struct runner {
	const struct stat_run_opts *o;
	struct stat_printer *p;
	struct stat_engine *s;
	bool per_cpu;		/* counting on CPUs */
	int nr_ctrs, nr_slots;
	struct stat_value *prev, *cur;
	struct stat_cells *total;	/* over the runs */
	const struct cpu_topo *topo;	/* per core or socket: by CPU number */
	uint64_t t0, last_tick;
};

/* Every interval: the counts since the last print. */
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
	int status;		/* this run's: see stat_run */
	bool stopped;		/* a stop signal: no more runs */
	bool counted;		/* the counts were read (else nothing is printed) */
	double elapsed_s;
};

/* The counters of one run, on the corked workload wl_pid (0: none) or the
 * targets: 0, or a negative errno (reported): -BPFPERF_EUSAGE when the
 * events or a cgroup were refused. */
static int open_counters(struct runner *r, const pid_t *tids, size_t nr_tids, const bool *cpus, int nr_cpus,
			 pid_t wl_pid, struct stat_engine **s)
{
	const struct stat_run_opts *o = r->o;
	struct stat_opts so = {
		.events = o->events,
		.per_cpu = r->per_cpu,
		.cpus = cpus,
		.nr_cpus = nr_cpus,
		.tids = tids,
		.nr_tids = nr_tids,
		.workload = r->per_cpu || nr_tids ? 0 : wl_pid,
		.bpf_counters = o->bpf_counters,
		.no_tp_btf = o->no_tp_btf,
		.cgroups = o->cgroup_v,
		.nr_cgroups = o->nr_cgroups,
		.event_cgroups = o->event_cgroup_v,
		.nr_event_cgroups = o->nr_event_cgroups,
		.system_wide = r->per_cpu,
		.pids = o->target->pids,
		.nr_pids = o->target->nr_pids,
		.only_tids = o->target->tids,
		.nr_only_tids = o->target->nr_tids,
	};
	if (o->bpf_counters && !r->per_cpu)
		so.workload = o->target->nr_pids || o->target->nr_tids ? 0 : wl_pid;
	return stat_open(&so, s);	/* it says what it refused */
}

/* One run: open, start, wait, read into r->total. */
static void one_run(struct runner *r, const pid_t *tids, size_t nr_tids, const bool *cpus, int nr_cpus,
		    struct run_result *res)
{
	const struct stat_run_opts *o = r->o;
	struct workload wl = { .go_fd = -1, .err_fd = -1 };
	struct stat_engine *s = NULL;
	int err;

	res->status = -EIO;
	if (o->target->argv && (err = workload_prepare(&wl, o->target->argv)) < 0) {
		res->status = workload_failed_status(err);
		return;
	}
	err = open_counters(r, tids, nr_tids, cpus, nr_cpus, wl.pid, &s);
	if (err < 0) {
		if (err == -BPFPERF_EUSAGE)
			res->status = err;
		goto out;
	}
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
		stat_close(r->s);	/* the previous run's */
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
		.target = o->target,
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
		res->status = -EIO;
	else
		res->status = wl.pid > 0 ? workload_exit_status(&wl) : 0;
out:
	workload_destroy(&wl);
	if (s != r->s)
		stat_close(s);
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

int stat_run(const struct stat_run_opts *o, struct stat_printer *p)
{
	const struct target *t = o->target;
	struct runner r = { .o = o, .p = p, .per_cpu = t->system_wide || t->cpu_list, .topo = o->topo };
	int ret = -EIO;
	pid_t *tids = NULL;
	size_t nr_tids = 0;
	struct stat_acc elapsed = { 0 };
	struct rusage ru0, ru1;

	if ((t->nr_pids || t->nr_tids) && target_threads(t, &tids, &nr_tids) < 0)
		goto out;
	stop_signals_install(false);
	getrusage(RUSAGE_CHILDREN, &ru0);
	int runs = o->repeat ? (int)o->repeat : 1, done = 0;
	for (int i = 0; i < runs; i++) {
		struct run_result res = { 0 };
		one_run(&r, tids, nr_tids, o->cpus, o->nr_cpus, &res);
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
	stat_close(r.s);
	stat_cells_free(r.total);
	free(r.prev);
	free(r.cur);
	free(tids);
	return ret;
}

