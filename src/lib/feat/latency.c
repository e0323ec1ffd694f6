// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf latency's engine (latency.h): the BPF objects, attaching, reading.
 *
 * Several kernel functions: an fentry program is bound to its target when
 * it is loaded, so each kernel function gets an object of its own (the same
 * skeleton opened again, only its fentry/fexit or kprobe/kretprobe pair
 * loaded, its function index in rodata) whose maps are the first object's
 * (bpf_map__reuse_fd): one set of histograms, one target filter. User
 * functions share one uprobe/uretprobe pair attached once per function, the
 * BPF cookie naming the function; system calls share the raw_syscalls pair,
 * the sc_func map naming the function. */
#include <linux/types.h>
#include "feat/latency.h"
#include "log.h"
#include "skel/kfunc_attach.h"
#include "skel/skel.h"
#include "target/cgroup.h"
#include "util.h"
#include "latency.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kinst {
	struct latency_bpf *skel;
	struct kfunc_attach k;
	struct kfunc_attach_opts ko;
	size_t func;
};

struct latency {
	struct latency_opts o;
	struct latency_bpf *skel;	/* the first object: maps, uprobes, syscalls, -e */
	struct kinst *kv;		/* one per kernel function */
	size_t nk;
	struct bpf_link **links;	/* uprobes, tracepoints, the rest of the first object */
	size_t nlinks;
	int cgroup_fd;
	uint32_t gen;
	bool attached;
};

int latency_cfg_make(bool nsec, uint64_t range, uint64_t min, uint64_t max, struct lat_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->unit_ns = nsec ? 1 : 1000;
	c->nr_buckets = LAT_LOG2_BUCKETS;
	if (!range) {
		if (min || max) {
			pr_err("a minimum or maximum latency works only with linear buckets (a bucket range)");
			return -BPFPERF_EUSAGE;
		}
		return 0;
	}
	if (!min)
		min = range;	/* perf's default: the first bucket is [0, range) */
	if (max && max < min + range) {
		pr_err("the maximum latency (%" PRIu64 ") must be at least the minimum (%" PRIu64
		       ") plus the bucket range (%" PRIu64 "): there must be one bucket between them",
		       max, min, range);
		return -BPFPERF_EUSAGE;
	}
	uint64_t nr = max ? (max - min) / range + 2 : LAT_LOG2_BUCKETS;
	if (nr > LAT_MAX_BUCKETS) {
		pr_err("%" PRIu64 " buckets from %" PRIu64 " to %" PRIu64 " by %" PRIu64 ": at most %d; "
		       "widen the range or narrow the limits", nr, min, max, range, LAT_MAX_BUCKETS);
		return -BPFPERF_EUSAGE;
	}
	if (!max)
		max = (LAT_LOG2_BUCKETS - 2) * range + min;
	c->range = range;
	c->min = min;
	c->max = max;
	c->nr_buckets = (uint32_t)nr;
	return 0;
}

static void set_rodata(struct latency_bpf *s, const struct latency_opts *o, uint32_t idx)
{
	memcpy((void *)&s->rodata->cfg, &o->cfg, sizeof(o->cfg));
	s->rodata->nr_funcs = (uint32_t)o->funcs->n;
	s->rodata->func_idx = idx;
	s->rodata->by_cpu = o->cpus != NULL;
	target_cfg_set(&s->rodata->target_cfg, o->system_wide, o->by_tgid, o->by_tid, o->cgroup != NULL);
}

static void autoload_only(struct latency_bpf *s, struct bpf_program *const *on, size_t n)
{
	struct bpf_program *p;
	bpf_object__for_each_program(p, s->obj) {
		bool want = false;
		for (size_t i = 0; i < n; i++)
			want |= on[i] == p;
		bpf_program__set_autoload(p, want);
	}
}

/* The maps of a kernel function's object are the first object's. */
static int share_maps(struct latency_bpf *dst, struct latency_bpf *src)
{
	struct bpf_map *m;
	bpf_object__for_each_map(m, dst->obj) {
		if (bpf_map__is_internal(m))
			continue;
		struct bpf_map *sm = bpf_object__find_map_by_name(src->obj, bpf_map__name(m));
		if (!sm || bpf_map__reuse_fd(m, bpf_map__fd(sm))) {
			int err = sm ? -errno : -ENOENT;
			pr_err("cannot share the latency map %s between BPF objects: %s", bpf_map__name(m),
			       log_strerr(err));
			return err;
		}
	}
	return 0;
}

static int open_kernel_func(struct latency *l, size_t i)
{
	struct kinst *ki = &l->kv[l->nk];
	struct latency_bpf *s = latency_bpf__open();
	if (!s) {
		int err = -errno;
		pr_err("cannot open the latency BPF object: %s", log_strerr(err));
		return err;
	}
	memset(ki, 0, sizeof(*ki));
	ki->skel = s;
	ki->func = i;
	l->nk++;
	set_rodata(s, &l->o, (uint32_t)i);
	struct bpf_program *const on[] = { s->progs.lat_fentry, s->progs.lat_fexit,
					   s->progs.lat_kprobe, s->progs.lat_kretprobe };
	autoload_only(s, on, ARRAY_SIZE(on));
	ki->ko = (struct kfunc_attach_opts){
		.func = l->o.funcs->v[i].kfunc,
		.fentry = { s->progs.lat_fentry, s->progs.lat_fexit },
		.kprobe = { s->progs.lat_kprobe, s->progs.lat_kretprobe },
		.force_kprobe = l->o.force_kprobe,
	};
	int err = kfunc_attach_prepare(&ki->ko, &ki->k);
	if (err)
		return err;
	l->o.funcs->v[i].mech = kfunc_mech_name(ki->k.mech);
	if ((err = share_maps(s, l->skel)))
		return err;
	err = latency_bpf__load(s);
	if (err)
		return skel_load_error(err, "the latency BPF programs");
	return 0;
}

int latency_open(const struct latency_opts *o, struct latency **out)
{
	struct latency *l = xcalloc(1, sizeof(*l));
	struct latency_funcs *fs = o->funcs;
	int err;
	l->o = *o;
	l->cgroup_fd = -1;
	*out = l;

	struct latency_bpf *s = latency_bpf__open();
	if (!s) {
		err = -errno;
		pr_err("cannot open the latency BPF object: %s", log_strerr(err));
		return err;
	}
	l->skel = s;
	set_rodata(s, o, 0);
	bool user = false, sc = false, tp = false, kern = false;
	for (size_t i = 0; i < fs->n; i++) {
		switch (fs->v[i].kind) {
		case LAT_KIND_USER: user = true; fs->v[i].mech = "uprobe"; break;
		case LAT_KIND_SYSCALL: sc = true; fs->v[i].mech = "raw_syscalls"; break;
		case LAT_KIND_TP_PAIR: tp = true; fs->v[i].mech = "tracepoint"; break;
		case LAT_KIND_KERNEL: kern = true; break;
		}
	}
	struct bpf_program *on[8];
	size_t n = 0;
	on[n++] = s->progs.lat_exit;
	if (o->follow_workload) {
		on[n++] = s->progs.lat_exec;
		on[n++] = s->progs.lat_fork;
	}
	if (user) {
		on[n++] = s->progs.lat_uprobe;
		on[n++] = s->progs.lat_uretprobe;
	}
	if (sc) {
		on[n++] = s->progs.lat_sys_enter;
		on[n++] = s->progs.lat_sys_exit;
	}
	if (tp) {
		on[n++] = s->progs.lat_tp_begin;
		on[n++] = s->progs.lat_tp_end;
	}
	autoload_only(s, on, n);
	if (o->cpus)
		bpf_map__set_max_entries(s->maps.cpu_ok, (uint32_t)(o->nr_cpus > 0 ? o->nr_cpus : 1));
	err = latency_bpf__load(s);
	if (err)
		return skel_load_error(err, "the latency BPF programs");
	if (kern) {
		l->kv = xcalloc(fs->n, sizeof(*l->kv));
		for (size_t i = 0; i < fs->n; i++)
			if (fs->v[i].kind == LAT_KIND_KERNEL && (err = open_kernel_func(l, i)))
				return err;
	}
	return 0;
}

static int add_link(struct latency *l, struct bpf_link *ln)
{
	if (!ln)
		return -errno ? -errno : -EINVAL;
	l->links = xrealloc(l->links, (l->nlinks + 1) * sizeof(*l->links));
	l->links[l->nlinks++] = ln;
	return 0;
}

static int fill_maps(struct latency *l, const pid_t *pids, size_t nr_pids, const pid_t *tids,
		     size_t nr_tids, pid_t workload)
{
	struct latency_bpf *s = l->skel;
	int err;
	struct target_maps tm = { .tgids = bpf_map__fd(s->maps.target_tgids),
				  .tids = bpf_map__fd(s->maps.target_tids),
				  .excluded = bpf_map__fd(s->maps.target_excluded) };
	if ((err = target_maps_fill(&tm, pids, nr_pids, tids, nr_tids, workload)))
		return err;
	if (l->o.system_wide)
		target_maps_exclude_ancestors(&tm);
	if (l->o.cgroup) {
		l->cgroup_fd = cgroup_open(l->o.cgroup);
		uint32_t zero = 0;
		if (l->cgroup_fd < 0 ||
		    bpf_map_update_elem(bpf_map__fd(s->maps.target_cgroup), &zero, &l->cgroup_fd, BPF_ANY)) {
			err = l->cgroup_fd < 0 ? l->cgroup_fd : -errno;
			pr_err("cannot select cgroup '%s': %s; give a cgroup v2 path relative to its mount "
			       "(%s)", l->o.cgroup, log_strerr(err), cgroup2_mount() ? cgroup2_mount() : "not mounted");
			return -BPFPERF_EUSAGE;
		}
	}
	for (int c = 0; l->o.cpus && c < l->o.nr_cpus; c++) {
		uint32_t key = (uint32_t)c;
		uint8_t v = l->o.cpus[c];
		if (bpf_map_update_elem(bpf_map__fd(s->maps.cpu_ok), &key, &v, BPF_ANY)) {
			err = -errno;
			pr_err("cannot fill the latency CPU map: %s", log_strerr(err));
			return err;
		}
	}
	for (size_t i = 0; i < l->o.funcs->n; i++) {
		const struct latency_func *f = &l->o.funcs->v[i];
		if (f->kind != LAT_KIND_SYSCALL)
			continue;
		uint32_t key = (uint32_t)f->sc_nr, v = (uint32_t)i + 1;
		if (bpf_map_update_elem(bpf_map__fd(s->maps.sc_func), &key, &v, BPF_ANY)) {
			err = -errno;
			pr_err("cannot fill the latency syscall map: %s", log_strerr(err));
			return err;
		}
	}
	return 0;
}

static int attach_user(struct latency *l, size_t i)
{
	const struct latency_func *f = &l->o.funcs->v[i];
	for (int ret = 1; ret >= 0; ret--) {	/* the return first: no entry misses it */
		LIBBPF_OPTS(bpf_uprobe_opts, uo, .retprobe = ret, .bpf_cookie = i);
		struct bpf_program *p = ret ? l->skel->progs.lat_uretprobe : l->skel->progs.lat_uprobe;
		int err = add_link(l, bpf_program__attach_uprobe_opts(p, f->pid, f->path, f->offset, &uo));
		if (err) {
			pr_err("cannot attach %s to %s (file offset 0x%" PRIx64 "): %s; the kernel needs "
			       "uprobes (CONFIG_UPROBE_EVENTS)", ret ? "a uretprobe" : "a uprobe", f->name,
			       f->offset, log_strerr(err));
			return err;
		}
	}
	return 0;
}

static int attach_tp(struct latency *l, const struct latency_func *f)
{
	for (int i = 1; i >= 0; i--) {	/* END first */
		struct bpf_program *p = i ? l->skel->progs.lat_tp_end : l->skel->progs.lat_tp_begin;
		int err = add_link(l, bpf_program__attach_tracepoint(p, f->tp[i][0], f->tp[i][1]));
		if (err) {
			pr_err("cannot attach to tracepoint %s:%s: %s; the kernel needs CONFIG_BPF_EVENTS",
			       f->tp[i][0], f->tp[i][1], log_strerr(err));
			return err;
		}
	}
	return 0;
}

int latency_start(struct latency *l, const pid_t *pids, size_t nr_pids, const pid_t *tids,
		  size_t nr_tids, pid_t workload)
{
	struct latency_bpf *s = l->skel;
	int err = fill_maps(l, pids, nr_pids, tids, nr_tids, workload);
	if (err)
		return err;
	l->attached = true;
	/* exit, exec and fork first; then every return before its entry */
	struct bpf_program *const progs[] = { s->progs.lat_exit, s->progs.lat_exec, s->progs.lat_fork,
					      s->progs.lat_sys_exit, s->progs.lat_sys_enter };
	struct bpf_link **const links[] = { &s->links.lat_exit, &s->links.lat_exec, &s->links.lat_fork,
					    &s->links.lat_sys_exit, &s->links.lat_sys_enter };
	if ((err = skel_attach_ordered(progs, links, (int)ARRAY_SIZE(progs))))
		return err;
	for (size_t i = 0; i < l->o.funcs->n; i++) {
		const struct latency_func *f = &l->o.funcs->v[i];
		if (f->kind == LAT_KIND_USER && (err = attach_user(l, i)))
			return err;
		if (f->kind == LAT_KIND_TP_PAIR && (err = attach_tp(l, f)))
			return err;
	}
	for (size_t k = 0; k < l->nk; k++)
		if ((err = kfunc_attach_links(&l->kv[k].k)))
			return err;
	return 0;
}

void latency_stop(struct latency *l)
{
	if (!l || !l->attached)
		return;
	for (size_t k = 0; k < l->nk; k++)
		kfunc_attach_destroy(&l->kv[k].k);
	for (size_t i = 0; i < l->nlinks; i++)
		bpf_link__destroy(l->links[i]);
	l->nlinks = 0;
	latency_bpf__detach(l->skel);
	l->attached = false;
	bpf_wait_for_programs();
}

/* Sum generation gen's slot of every function over the CPUs into r; zero
 * them when asked. */
static int read_slots(struct latency *l, uint32_t gen, bool zero, struct latency_result *r)
{
	int fd = bpf_map__fd(l->skel->maps.slots);
	int ncpu = percpu_nr_cpus();
	size_t stride = percpu_stride(sizeof(struct lat_slot));
	char *vals = percpu_alloc(sizeof(struct lat_slot));
	for (size_t i = 0; i < r->n; i++) {
		struct latency_hist *h = &r->h[i];
		uint32_t key = (gen & 1) * LAT_MAX_FUNCS + (uint32_t)i;
		if (percpu_lookup(fd, &key, vals))
			continue;
		for (int c = 0; c < ncpu; c++) {
			const struct lat_slot *s = (const void *)(vals + (size_t)c * stride);
			for (uint32_t b = 0; b < LAT_MAX_BUCKETS; b++)
				h->buckets[b] += s->buckets[b];
			if (s->c.count)
				counts_merge(&h->c, &s->c);
			for (int k = 0; k < LAT_LOST_NR; k++)
				h->lost[k] += s->lost[k];
		}
		if (zero) {
			memset(vals, 0, stride * (size_t)ncpu);
			if (bpf_map_update_elem(fd, &key, vals, BPF_ANY)) {
				int err = -errno;
				free(vals);
				pr_err("cannot reset the latency histograms: %s", log_strerr(err));
				return err;
			}
		}
	}
	free(vals);
	return 0;
}

/* Calls still in flight: their entries are on the stacks. */
static void count_inflight(struct latency *l, struct latency_result *r)
{
	int fd = bpf_map__fd(l->skel->maps.stacks);
	struct lat_stack_key k, next;
	struct lat_stack st;
	void *prev = NULL;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &st) || k.func >= r->n)
			continue;
		r->h[k.func].lost[LAT_LOST_INFLIGHT] += st.depth < LAT_STACK_DEPTH ? st.depth : LAT_STACK_DEPTH;
	}
}

int latency_read(struct latency *l, bool reset, bool final, struct latency_result *r)
{
	r->n = l->o.funcs->n;
	r->h = xcalloc(r->n ? r->n : 1, sizeof(*r->h));
	for (size_t i = 0; i < r->n; i++) {
		r->h[i].func = &l->o.funcs->v[i];
		r->h[i].c = COUNTS_EMPTY;
	}
	int err;
	if (reset) {
		/* move the programs to the other half, then read this one */
		uint32_t zero = 0, next = l->gen + 1;
		if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.lat_gen), &zero, &next, BPF_ANY)) {
			err = -errno;
			pr_err("cannot switch the latency histograms: %s", log_strerr(err));
			return err;
		}
		bpf_wait_for_programs();
		err = read_slots(l, l->gen, true, r);
		l->gen = next;
	} else {
		err = read_slots(l, 0, false, r);
		if (!err)
			err = read_slots(l, 1, false, r);
	}
	if (!err && final)
		count_inflight(l, r);
	return err;
}

void latency_result_free(struct latency_result *r)
{
	free(r->h);
	r->h = NULL;
	r->n = 0;
}

void latency_close(struct latency *l)
{
	if (!l)
		return;
	latency_stop(l);
	for (size_t k = 0; k < l->nk; k++) {
		kfunc_attach_destroy(&l->kv[k].k);
		latency_bpf__destroy(l->kv[k].skel);
	}
	free(l->kv);
	free(l->links);
	latency_bpf__destroy(l->skel);
	if (l->cgroup_fd >= 0)
		close(l->cgroup_fd);
	free(l);
}
