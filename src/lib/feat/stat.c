// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf stat's counting engine: see stat.h. */
#include "feat/stat.h"
#include "feat/stat_share.h"
#include "target/cgroup.h"

#include "event/event.h"
#include "log.h"
#include "skel/skel.h"
#include "stat_data.h"
#include "target_filter.h"
#include "util.h"

#include "stat.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* perf 6.1's default set, in its order. The clock is cpu-clock when
 * counting on CPUs (as perf does). */
static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
};

struct stat_ctr {
	struct stat_counter pub;
	int ev, cg;		/* event index, cgroup index (-1: none) */
	struct perf_event_attr attr;
	int *fds;		/* nr_slots x nr_fds_per_slot; -1: not opened */
};

struct stat_engine {
	struct stat_ctr *ctrs;
	int nr_ctrs;
	int nr_slots;		/* CPUs, or 1 */
	int *slot_cpu;
	int fds_per_slot;	/* task mode: threads (or 1 for the workload) */
	const pid_t *pids;	/* task mode: what each fd of a slot counts */
	pid_t *pid_store;
	bool hw_missing;
	/* BPF counters */
	const struct stat_opts *o;	/* during stat_open only */
	struct stat_bpf *skel;
	struct bpf_link *link_switch, *link_exec, *link_fork;
	int design;			/* 0: tp_btf, 1: raw_tp; -1: none */
	const char *why;
	int nr_possible;
	int nr_out_slots;		/* slots the caller sees */
	struct stat_reading *pcpu;	/* percpu_alloc'd reading buffer */
	int nr_events, nr_cgroups;	/* counters: nr_cgroups (or 1) x nr_events */
	int *ev_ctr;			/* BPF counters: each event's first counter */
	int *cg_fds;			/* the cgroup directories */
	uint64_t *cg_ids;
	const char *const *cg_names;
	struct stat_share *share;	/* the perf events shared with concurrent runs */
	bool joined;			/* another run opened them */
	const char **cg_store;		/* per-event cgroups: the distinct names */
};

double stat_scaled(const struct stat_value *v)
{
	if (!v->run)
		return 0;
	if (v->run >= v->ena)
		return (double)v->val;
	return (double)v->val * (double)v->ena / (double)v->run;
}

static int add_counter(struct stat_engine *s, const char *spec, bool dflt)
{
	struct stat_ctr c;
	char err[1024];
	memset(&c, 0, sizeof(c));
	/* a parser of the caller's text: its message comes back in err */
	if (event_parse(spec, &c.attr, &c.pub.name, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return -BPFPERF_EUSAGE;
	}
	c.pub.supported = true;
	c.pub.scale = 1;
	c.pub.unit = "";
	if (c.attr.type == PERF_TYPE_SOFTWARE &&
	    (c.attr.config == PERF_COUNT_SW_TASK_CLOCK || c.attr.config == PERF_COUNT_SW_CPU_CLOCK)) {
		c.pub.is_clock = true;
		c.pub.unit = "msec";
		c.pub.scale = 1e-6;
	}
	if (dflt && (c.attr.type == PERF_TYPE_HARDWARE) && !event_hw_available()) {
		c.pub.supported = false;
		s->hw_missing = true;
	}
	c.ev = s->nr_ctrs;
	c.cg = -1;
	s->ctrs = xrealloc(s->ctrs, (s->nr_ctrs + 1) * sizeof(*s->ctrs));
	s->ctrs[s->nr_ctrs++] = c;
	return 0;
}

/* The cgroups' directories and ids, in the order given. */
static int open_cgroups(struct stat_engine *s, const char *const *names, size_t n)
{
	const char *mnt = cgroup2_mount();
	if (!mnt) {
		pr_err("cgroup v2 is not mounted; mount it with 'mount -t cgroup2 none /sys/fs/cgroup'");
		return -BPFPERF_EUSAGE;
	}
	if (n > STAT_MAX_CGROUPS) {
		pr_err("%zu cgroups given; at most %d at once", n, STAT_MAX_CGROUPS);
		return -BPFPERF_EUSAGE;
	}
	s->nr_cgroups = (int)n;
	s->cg_fds = xmalloc(n * sizeof(int));
	s->cg_ids = xcalloc(n, sizeof(uint64_t));
	s->cg_names = names;
	for (size_t i = 0; i < n; i++)
		s->cg_fds[i] = -1;
	int r = 0;
	for (size_t i = 0; !r && i < n; i++) {
		const char *name = names[i];
		char path[8200];
		cgroup_full_path(name, path, sizeof(path));
		s->cg_fds[i] = cgroup_open(name);
		if (s->cg_fds[i] < 0) {
			pr_err("no cgroup '%s' (%s: %s); give paths under the cgroup v2 hierarchy %s",
			       name, path, strerror(-s->cg_fds[i]), mnt);
			r = -BPFPERF_EUSAGE;
		} else if ((r = cgroup_id_of_path(name, &s->cg_ids[i])) < 0) {
			pr_err("cannot get the id of cgroup '%s': %s", name, strerror(-r));
			r = -BPFPERF_EUSAGE;
		}
	}
	return r;
}

/* --for-each-cgroup: the event list once per cgroup, in perf's order. */
static void expand_cgroups(struct stat_engine *s, const struct stat_opts *o)
{
	int n = s->nr_events;
	s->ctrs = xrealloc(s->ctrs, (size_t)n * o->nr_cgroups * sizeof(*s->ctrs));
	for (size_t cg = 0; cg < o->nr_cgroups; cg++)
		for (int e = 0; e < n; e++) {
			struct stat_ctr *c = &s->ctrs[cg * n + e];
			if (cg)
				*c = s->ctrs[e], c->pub.name = xstrdup(s->ctrs[e].pub.name);
			c->ev = e;
			c->cg = (int)cg;
			c->pub.cgroup = o->cgroups[cg];
		}
	s->nr_ctrs = n * (int)o->nr_cgroups;
}

/* Per-event cgroups (perf's -G): the i-th name for the i-th event, one
 * name for all, "" for none; the distinct names opened once. */
static int assign_cgroups(struct stat_engine *s, const struct stat_opts *o)
{
	size_t n = o->nr_event_cgroups;
	if (n > (size_t)s->nr_ctrs) {
		pr_err("%zu cgroups given for %d events; give at most one cgroup per event, in the "
		       "events' order (or one for all)", n, s->nr_ctrs);
		return -BPFPERF_EUSAGE;
	}
	s->cg_store = xcalloc(n, sizeof(char *));
	size_t nr = 0;
	for (int i = 0; i < s->nr_ctrs; i++) {
		const char *name = n == 1 ? o->event_cgroups[0] : (size_t)i < n ? o->event_cgroups[i] : "";
		struct stat_ctr *c = &s->ctrs[i];
		c->pub.cgroup = name;
		if (!*name)
			continue;
		size_t k = 0;
		while (k < nr && strcmp(s->cg_store[k], name))
			k++;
		if (k == nr)
			s->cg_store[nr++] = name;
		c->cg = (int)k;
	}
	return open_cgroups(s, s->cg_store, nr);
}

static int parse_events(struct stat_engine *s, const struct stat_opts *o)
{
	if (!o->events) {
		for (size_t i = 0; i < ARRAY_SIZE(default_events); i++) {
			const char *e = default_events[i];
			if (i == 0 && o->per_cpu)
				e = "cpu-clock";
			int r = add_counter(s, e, true);
			if (r < 0)
				return r;
		}
		return 0;
	}
	char *list = xstrdup(o->events), *save = NULL;
	int r = 0;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if ((r = add_counter(s, tok, false)) < 0)
			break;
	if (!r && !s->nr_ctrs) {
		pr_err("the event list '%s' is empty", o->events);
		r = -BPFPERF_EUSAGE;
	}
	free(list);
	return r;
}

/* Events this kernel or machine does not have: perf's "<not supported>". */
static bool not_supported_errno(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == ENOSYS;
}

static int open_counter(struct stat_engine *s, struct stat_ctr *c, const struct stat_opts *o)
{
	int n = s->nr_slots * s->fds_per_slot;
	c->fds = xmalloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		c->fds[i] = -1;
	if (!c->pub.supported)
		return 0;
	if (o->bpf_counters && s->ev_ctr[c->ev] != c - s->ctrs) {	/* one set of events for every cgroup */
		c->pub.supported = s->ctrs[s->ev_ctr[c->ev]].pub.supported;
		return 0;
	}
	if (s->joined)		/* counted by the shared events of another run */
		return 0;
	c->attr.size = sizeof(c->attr);
	c->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	c->attr.disabled = !o->bpf_counters;
	if (o->bpf_counters && c->attr.type == PERF_TYPE_SOFTWARE && c->attr.config == PERF_COUNT_SW_TASK_CLOCK)
		c->attr.config = PERF_COUNT_SW_CPU_CLOCK;	/* per CPU, attributed to tasks by the program */
	if (o->bpf_counters) {
	} else if (!o->per_cpu && o->workload > 0) {
		c->attr.inherit = 1;
		c->attr.enable_on_exec = 1;
	} else if (!o->per_cpu) {
		c->attr.inherit = 1;
	}
	for (int slot = 0; slot < s->nr_slots; slot++) {
		for (int k = 0; k < s->fds_per_slot; k++) {
			bool on_cpu = o->per_cpu || o->bpf_counters;
			bool by_cgroup = c->cg >= 0 && !o->bpf_counters;
			pid_t pid = by_cgroup ? s->cg_fds[c->cg] : on_cpu ? -1 : s->pids[k];
			int cpu = on_cpu ? s->slot_cpu[slot] : -1;
			int fd = sys_perf_event_open(&c->attr, pid, cpu, -1,
						     PERF_FLAG_FD_CLOEXEC | (by_cgroup ? PERF_FLAG_PID_CGROUP : 0));
			if (fd >= 0) {
				c->fds[slot * s->fds_per_slot + k] = fd;
				continue;
			}
			int e = errno;
			if (by_cgroup && e == ENOENT)	/* perf_cgroup_connect: the cgroup, not the event */
				pr_warn_once("counting in a cgroup: " CGROUP_PERF_ENOENT_WHY "; its events are "
					     "<not supported>, as perf says%s",
					     log_hint(LOG_HINT_CGROUP_BPF_COUNTERS));
			if (not_supported_errno(e)) {
				pr_debug("event '%s' is not supported here: %s", c->pub.name, strerror(e));
				c->pub.supported = false;
				return 0;
			}
			if (e == ESRCH && !o->per_cpu && o->workload <= 0) {
				pr_debug("thread %d exited before its counter was opened", (int)pid);
				continue;
			}
			const char *fix = e == EACCES || e == EPERM
				? "run as root or lower /proc/sys/kernel/perf_event_paranoid"
				: log_limit_hint(-e);
			pr_err("cannot open the perf event '%s' (%s %d): %s%s%s", c->pub.name,
			       on_cpu ? "CPU" : "task", on_cpu ? cpu : (int)pid, strerror(e),
			       fix ? "; " : "", fix ? fix : "");
			return -e;
		}
	}
	return 0;
}


/* ---- BPF counters ---------------------------------------------------------- */

/* tp_btf needs the kernel's BTF; a kernel without tp_btf programs fails
 * the load and gets the raw_tp design. */
static bool tp_btf_usable(void *ctx, const char **why)
{
	const struct stat_engine *s = ctx;
	if (s->o->no_tp_btf) {
		*why = "tp_btf turned off (testing)";
		return false;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		*why = "the kernel has no BTF (/sys/kernel/btf/vmlinux) for BTF-typed tracepoints";
		return false;
	}
	return true;
}

static const struct skel_design designs[] = {
	{ "tp_btf", tp_btf_usable },
	{ "raw_tp", NULL },
};

static int load_design(void *ctx, int design)
{
	struct stat_engine *s = ctx;
	const struct stat_opts *o = s->o;
	stat_bpf__destroy(s->skel);
	s->skel = stat_bpf__open();
	if (!s->skel) {
		int err = -errno;
		pr_err("cannot open the stat BPF object: %s", log_strerr(err));
		return err;
	}
	struct stat_bpf *k = s->skel;
	k->rodata->nr_events = (uint32_t)s->nr_events;
	k->rodata->nr_cgroups = (uint32_t)s->nr_cgroups;
	/* the cgroups' accumulators, then the targets' (events without a cgroup) */
	bpf_map__set_max_entries(k->maps.accum, STAT_MAX_EVENTS * (uint32_t)(s->nr_cgroups + 1));
	k->rodata->count_targets = !o->nr_cgroups;
	k->rodata->nr_cpus = (uint32_t)s->nr_possible;
	target_cfg_set(&k->rodata->target_cfg, o->system_wide, o->nr_pids || o->workload > 0,
		       o->nr_only_tids, false);
	bpf_map__set_max_entries(k->maps.events, (uint32_t)(s->nr_events * s->nr_possible));
	if (s->share && bpf_map__set_pin_path(k->maps.events, stat_share_pin(s->share)))
		return -errno;
	bpf_program__set_autoload(k->progs.stat_switch_btf, design == 0);
	bpf_program__set_autoload(k->progs.stat_switch_raw, design == 1);
	bool follow = !o->system_wide && o->workload > 0;
	bpf_program__set_autoload(k->progs.stat_exec, follow);
	bpf_program__set_autoload(k->progs.stat_fork, follow);
	return stat_bpf__load(k);
}

/* Run the reading program on each counted CPU. */
static int run_on_cpus(struct stat_engine *s)
{
	int fd = bpf_program__fd(s->skel->progs.stat_read_cpu);
	for (int slot = 0; slot < s->nr_slots; slot++) {
		LIBBPF_OPTS(bpf_test_run_opts, ro, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = (uint32_t)s->slot_cpu[slot]);
		if (bpf_prog_test_run_opts(fd, &ro) < 0) {
			int err = -errno;
			pr_err("cannot read the counters on CPU %d: running the BPF program there failed (%s); "
			       "BPF counters need BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU (Linux 5.10+)",
			       s->slot_cpu[slot], log_strerr(err));
			return err;
		}
	}
	return 0;
}

static int map_put(int fd, uint32_t key, const void *val, const char *what)
{
	if (bpf_map_update_elem(fd, &key, val, BPF_ANY)) {
		int err = -errno;
		pr_err("cannot add %s %u to the BPF counters' maps: %s", what, key, log_strerr(err));
		return err;
	}
	return 0;
}

static int bpf_targets(struct stat_engine *s, const struct stat_opts *o)
{
	int r = 0;
	for (int i = 0; i < s->nr_cgroups; i++) {
		uint32_t idx = (uint32_t)i;
		if (bpf_map_update_elem(bpf_map__fd(s->skel->maps.cgroup_idx), &s->cg_ids[i], &idx, BPF_ANY)) {
			r = -errno;
			pr_err("cannot add cgroup '%s' to the BPF counters' maps: %s", s->cg_names[i], log_strerr(r));
			return r;
		}
	}
	if (o->system_wide)
		return r;
	struct target_maps tm = { .tgids = bpf_map__fd(s->skel->maps.target_tgids),
				  .tids = bpf_map__fd(s->skel->maps.target_tids), .excluded = -1 };
	return target_maps_fill(&tm, o->pids, o->nr_pids, o->only_tids, o->nr_only_tids, o->workload);
}

static int bpf_open(struct stat_engine *s, const struct stat_opts *o)
{
	int err, chosen = 1;
	if (bpf_privileges_check("the BPF counters") < 0)
		return -EPERM;
	s->nr_possible = percpu_nr_cpus();
	s->o = o;
	err = skel_load_designs(designs, (int)ARRAY_SIZE(designs), load_design, s, "the stat BPF counters",
				&chosen, &s->why);
	s->o = NULL;
	if (err)
		return err;
	s->design = chosen;
	int efd = bpf_map__fd(s->skel->maps.events);
	for (int i = 0; i < s->nr_events; i++)
		for (int slot = 0; s->ctrs[s->ev_ctr[i]].pub.supported && slot < s->nr_slots; slot++) {
			int fd = s->ctrs[s->ev_ctr[i]].fds[slot];
			uint32_t key = (uint32_t)(i * s->nr_possible + s->slot_cpu[slot]);
			if (fd >= 0 && (err = map_put(efd, key, &fd, "the perf event of slot")) < 0)
				return err;
		}
	if (s->share) {	/* the first run says which events it opened */
		bool sup[STAT_MAX_EVENTS];
		for (int i = 0; i < s->nr_events; i++)
			sup[i] = s->ctrs[s->ev_ctr[i]].pub.supported;
		stat_share_ready(s->share, s->joined ? NULL : sup, s->nr_events);
	}
	if ((err = bpf_targets(s, o)) < 0)
		return err;
	struct stat_bpf *k = s->skel;
	bool follow = !o->system_wide && o->workload > 0;
	struct bpf_program *progs[] = { chosen == 0 ? k->progs.stat_switch_btf : k->progs.stat_switch_raw,
					 follow ? k->progs.stat_fork : NULL, follow ? k->progs.stat_exec : NULL };
	struct bpf_link **links[] = { &s->link_switch, &s->link_fork, &s->link_exec };
	if ((err = skel_attach_ordered(progs, links, 3)) < 0)
		return err;
	s->pcpu = percpu_alloc(sizeof(struct stat_reading));
	return run_on_cpus(s);	/* the first readings: deltas start now */
}

static int bpf_read(struct stat_engine *s, struct stat_value *values)
{
	int err = run_on_cpus(s), fd = bpf_map__fd(s->skel->maps.accum);
	size_t stride = percpu_stride(sizeof(struct stat_reading));
	if (err < 0)
		return err;
	memset(values, 0, (size_t)s->nr_ctrs * s->nr_out_slots * sizeof(*values));
	for (int i = 0; i < s->nr_ctrs; i++) {
		int cg = s->ctrs[i].cg >= 0 ? s->ctrs[i].cg : s->nr_cgroups;
		uint32_t key = (uint32_t)(cg * STAT_MAX_EVENTS + s->ctrs[i].ev);
		if (!s->ctrs[i].pub.supported)
			continue;
		if ((err = percpu_lookup(fd, &key, s->pcpu)) < 0) {
			pr_err("cannot read the BPF counters' accumulators: %s", log_strerr(err));
			return err;
		}
		for (int slot = 0; slot < s->nr_slots; slot++) {
			const struct stat_reading *r =
				(const void *)((const char *)s->pcpu + stride * (size_t)s->slot_cpu[slot]);
			struct stat_value *v = &values[i * s->nr_out_slots + (s->nr_out_slots > 1 ? slot : 0)];
			v->val += r->counter;
			v->ena += r->enabled;
			v->run += r->running;
		}
	}
	return 0;
}

/* BPF counters: one perf event per CPU for each distinct event; the same
 * event counted in several cgroups (-G) reads the same one. */
static int distinct_events(struct stat_engine *s)
{
	s->ev_ctr = xcalloc((size_t)s->nr_ctrs, sizeof(int));
	s->nr_events = 0;
	for (int i = 0; i < s->nr_ctrs; i++) {
		int e = 0;
		while (e < s->nr_events && strcmp(s->ctrs[s->ev_ctr[e]].pub.name, s->ctrs[i].pub.name))
			e++;
		if (e == s->nr_events)
			s->ev_ctr[s->nr_events++] = i;
		s->ctrs[i].ev = e;
	}
	if (s->nr_events > STAT_MAX_EVENTS) {
		pr_err("%d events given; BPF counters count at most %d at once", s->nr_events,
		       STAT_MAX_EVENTS);
		return -BPFPERF_EUSAGE;
	}
	return 0;
}

/* Concurrent runs of the same events on the same CPUs share the perf
 * events (stat_share.h); without a BPF file system each run has its own. */
static void share_join(struct stat_engine *s)
{
	struct strbuf key = { 0 };
	bool sup[STAT_MAX_EVENTS];
	for (int i = 0; i < s->nr_events; i++)
		sb_printf(&key, "%s,", s->ctrs[s->ev_ctr[i]].pub.name);
	sb_printf(&key, "|%d|", percpu_nr_cpus());
	for (int slot = 0; slot < s->nr_slots; slot++)
		sb_printf(&key, "%d,", s->slot_cpu[slot]);
	char hex[17];
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)str_hash(key.buf));
	sb_free(&key);
	if (stat_share_open(hex, s->nr_events, &s->share, &s->joined, sup) < 0)
		return;
	for (int i = 0; s->joined && i < s->nr_events; i++)
		s->ctrs[s->ev_ctr[i]].pub.supported = sup[i];
}

int stat_open(const struct stat_opts *o, struct stat_engine **out)
{
	struct stat_engine *s = xcalloc(1, sizeof(*s));
	int r = parse_events(s, o);
	if (r < 0)
		goto fail;
	s->nr_events = s->nr_ctrs;
	if (o->nr_cgroups) {
		if ((r = open_cgroups(s, (const char *const *)o->cgroups, o->nr_cgroups)) < 0)
			goto fail;
		expand_cgroups(s, o);
	} else if (o->nr_event_cgroups && (r = assign_cgroups(s, o)) < 0) {
		goto fail;
	}
	if (o->bpf_counters && (r = distinct_events(s)) < 0)
		goto fail;
	s->design = -1;
	if (o->per_cpu || o->bpf_counters) {
		s->slot_cpu = xmalloc(o->nr_cpus * sizeof(int));
		for (int c = 0; c < o->nr_cpus; c++)
			if (o->cpus[c])
				s->slot_cpu[s->nr_slots++] = c;
		s->fds_per_slot = 1;
	} else {
		s->nr_slots = 1;
		if (o->workload > 0) {
			s->pid_store = xmalloc(sizeof(pid_t));
			s->pid_store[0] = o->workload;
			s->pids = s->pid_store;
			s->fds_per_slot = 1;
		} else {
			s->pids = o->tids;
			s->fds_per_slot = (int)o->nr_tids;
		}
	}
	if (o->bpf_counters)
		share_join(s);
	for (int i = 0; i < s->nr_ctrs; i++)
		if ((r = open_counter(s, &s->ctrs[i], o)) < 0)
			goto fail;
	s->nr_out_slots = s->nr_slots;
	if (o->bpf_counters) {
		s->nr_out_slots = o->per_cpu ? s->nr_slots : 1;
		if ((r = bpf_open(s, o)) < 0)
			goto fail;
	}
	*out = s;
	return 0;
fail:
	stat_close(s);
	return r;
}

int stat_nr_counters(const struct stat_engine *s) { return s->nr_ctrs; }
const struct stat_counter *stat_counter(const struct stat_engine *s, int i) { return &s->ctrs[i].pub; }
int stat_nr_slots(const struct stat_engine *s) { return s->nr_out_slots; }
int stat_slot_cpu(const struct stat_engine *s, int slot) { return s->slot_cpu ? s->slot_cpu[slot] : -1; }

const char *stat_bpf_design(const struct stat_engine *s, const char **why)
{
	if (why)
		*why = s->design == 1 ? s->why : NULL;
	return s->design == 0 ? "tp_btf" : s->design == 1 ? "raw_tp" : NULL;
}
bool stat_hw_missing(const struct stat_engine *s) { return s->hw_missing; }

static int ioctl_all(struct stat_engine *s, unsigned long req)
{
	for (int i = 0; i < s->nr_ctrs; i++)
		for (int k = 0; s->ctrs[i].fds && k < s->nr_slots * s->fds_per_slot; k++)
			if (s->ctrs[i].fds[k] >= 0 && ioctl(s->ctrs[i].fds[k], req, 0) < 0) {
				pr_err("cannot %s the counter '%s': %s", req == PERF_EVENT_IOC_ENABLE ? "enable" : "disable",
				       s->ctrs[i].pub.name, strerror(errno));
				return -errno;
			}
	return 0;
}

/* BPF counters: the per-CPU counters run from stat_open on; the program
 * attributes them. */
int stat_enable(struct stat_engine *s) { return s->skel ? 0 : ioctl_all(s, PERF_EVENT_IOC_ENABLE); }
int stat_disable(struct stat_engine *s) { return s->skel ? 0 : ioctl_all(s, PERF_EVENT_IOC_DISABLE); }

int stat_read(struct stat_engine *s, struct stat_value *values)
{
	if (s->skel)
		return bpf_read(s, values);
	for (int i = 0; i < s->nr_ctrs; i++) {
		for (int slot = 0; slot < s->nr_slots; slot++) {
			struct stat_value *v = &values[i * s->nr_slots + slot];
			memset(v, 0, sizeof(*v));
			for (int k = 0; k < s->fds_per_slot; k++) {
				int fd = s->ctrs[i].fds ? s->ctrs[i].fds[slot * s->fds_per_slot + k] : -1;
				uint64_t buf[3];
				if (fd < 0)
					continue;
				if (read_full(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
					pr_err("cannot read the counter '%s': %s", s->ctrs[i].pub.name, strerror(errno));
					return -EIO;
				}
				v->val += buf[0];
				v->ena += buf[1];
				v->run += buf[2];
			}
		}
	}
	return 0;
}

void stat_close(struct stat_engine *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nr_ctrs; i++) {
		for (int k = 0; s->ctrs[i].fds && k < s->nr_slots * s->fds_per_slot; k++)
			if (s->ctrs[i].fds[k] >= 0)
				close(s->ctrs[i].fds[k]);
		free(s->ctrs[i].fds);
		free(s->ctrs[i].pub.name);
	}
	bpf_link__destroy(s->link_switch);
	bpf_link__destroy(s->link_exec);
	bpf_link__destroy(s->link_fork);
	stat_bpf__destroy(s->skel);
	stat_share_close(s->share);
	free(s->pcpu);
	for (int i = 0; s->cg_fds && i < s->nr_cgroups; i++)
		if (s->cg_fds[i] >= 0)
			close(s->cg_fds[i]);
	free(s->cg_fds);
	free(s->cg_ids);
	free(s->cg_store);
	free(s->ev_ctr);
	free(s->ctrs);
	free(s->slot_cpu);
	free(s->pid_store);
	free(s);
}
