// SPDX-License-Identifier: GPL-2.0-only
/* The lock contention feature's engine (see lock.h): designs, targets,
 * attaching, reading the aggregation map. The filters are parsed in
 * lock_filter.c, the entries named in lock_names.c. */
#include <linux/types.h>

#include "feat/lock_int.h"
#include "log.h"
#include "skel/skel.h"
#include "sym/machine.h"
#include "target/target.h"
#include "util.h"

#include "lock.skel.h"
#include "stack_store.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Frames taken beyond those kept: the tracing machinery (3) and the lock's
 * own functions (slow path, lock call: 2 to 4). */
#define LOCK_STACK_EXTRA 8

/* ---- loading ----------------------------------------------------------------- */

static bool btf_ts_usable(void *ctx, const char **why)
{
	const struct lock *l = ctx;
	if (l->o.min_design > LOCK_DESIGN_BTF_TS) {
		*why = "the tp_btf design turned off (testing)";
		return false;
	}
	return skel_task_storage_usable(why);
}

static bool raw_ts_usable(void *ctx, const char **why)
{
	const struct lock *l = ctx;
	if (l->o.min_design > LOCK_DESIGN_RAW_TS) {
		*why = "task storage turned off (testing)";
		return false;
	}
	return skel_task_storage_usable(why);
}

static const struct skel_design designs[] = {
	{ "tp_btf programs with task storage", btf_ts_usable },
	{ "raw tracepoint programs with task storage", raw_ts_usable },
	{ "raw tracepoint programs with a hash map", NULL },
};

const char *lock_design_name(enum lock_design d)
{
	return designs[d].name;
}

static int load_design(void *ctx, int design)
{
	struct lock *l = ctx;
	const struct lock_opts *o = &l->o;
	struct lock_bpf *skel;

	lock_bpf__destroy(l->skel);
	l->skel = skel = lock_bpf__open();
	if (!skel) {
		int err = -errno;
		pr_err("cannot open the lock BPF object: %s", log_strerr(err));
		return err;
	}
	/* not system wide: -p processes or a workload (lock_start) */
	target_cfg_set(&skel->rodata->target_cfg, o->system_wide, true, false, false);
	skel->rodata->aggr = o->aggr;
	skel->rodata->name_locks = o->aggr == LOCK_AGGR_ADDR;
	skel->rodata->use_kmem_cache = design == LOCK_DESIGN_BTF_TS;
	skel->rodata->flags_filter = o->type_mask;
	skel->rodata->lock_filter = l->nr_filter_addrs || l->filter_known || l->nr_filter_slabs;
	skel->rodata->known_filter = l->filter_known;
	skel->rodata->nr_slab_filter = l->nr_filter_slabs;
	if (!skel->rodata->lock_filter) {
		bpf_map__set_max_entries(skel->maps.addr_filter, 1);
		bpf_map__set_max_entries(skel->maps.slab_selected, 1);
	}
	long page = sysconf(_SC_PAGESIZE);
	for (uint32_t shift = 0; shift < 20; shift++)
		if (page == 1L << shift)
			skel->rodata->page_shift = shift;
	uint32_t entries = o->map_entries ? o->map_entries : 16384;	/* -M: both maps, as perf */
	bpf_map__set_max_entries(skel->maps.stat, entries);
	if (o->aggr != LOCK_AGGR_CALLER) {
		bpf_map__set_max_entries(skel->maps.stacks, 1);
	} else {
		/* the frames kept, and room above them for the tracing machinery
		 * and the lock's own functions (the caller is found below them):
		 * a shallower stack is cheaper to take, and stacks that differ
		 * only deeper are one caller, as perf's fixed depth does */
		uint32_t depth = o->max_stack + LOCK_STACK_EXTRA;
		if (depth > LOCK_STACK_MAX)
			depth = LOCK_STACK_MAX;
		/* stacks kept by content (no stack lost to another's hash
		 * bucket, as in a stack map), each value only as long as
		 * depth frames */
		skel->rodata->stack_store_depth = depth;
		bpf_map__set_value_size(skel->maps.stacks, STACK_STORE_VAL_SIZE(depth));
		bpf_map__set_max_entries(skel->maps.stacks, entries);
	}
	if (o->aggr != LOCK_AGGR_TASK && o->aggr != LOCK_AGGR_OWNER)
		bpf_map__set_max_entries(skel->maps.task_comms, 1);
	if (o->aggr != LOCK_AGGR_ADDR)
		bpf_map__set_max_entries(skel->maps.slab_names, 1);
	bool ts = design != LOCK_DESIGN_RAW_HASH;
	bpf_map__set_autocreate(skel->maps.tstamp, ts);
	if (ts)
		bpf_map__set_max_entries(skel->maps.tstamp_hash, 1);
	bpf_program__set_autoload(skel->progs.btf_begin, design == LOCK_DESIGN_BTF_TS);
	bpf_program__set_autoload(skel->progs.btf_end, design == LOCK_DESIGN_BTF_TS);
	bpf_program__set_autoload(skel->progs.raw_ts_begin, design == LOCK_DESIGN_RAW_TS);
	bpf_program__set_autoload(skel->progs.raw_ts_end, design == LOCK_DESIGN_RAW_TS);
	bpf_program__set_autoload(skel->progs.raw_hash_begin, design == LOCK_DESIGN_RAW_HASH);
	bpf_program__set_autoload(skel->progs.raw_hash_end, design == LOCK_DESIGN_RAW_HASH);
	bpf_program__set_autoload(skel->progs.lock_exit, !ts);
	bpf_program__set_autoload(skel->progs.lock_exec, o->follow_workload);
	bpf_program__set_autoload(skel->progs.lock_fork, o->follow_workload);
	return lock_bpf__load(skel);
}

/* The tracepoints came with Linux 5.19: say so rather than fail to attach. */
static int check_tracepoints(void)
{
	const char *tfs = tracefs_dir();
	char path[512];
	if (!tfs)
		return 0;	/* cannot tell: attaching will */
	snprintf(path, sizeof(path), "%s/events/lock/contention_begin", tfs);
	if (access(path, F_OK) == 0)
		return 0;
	pr_err("the kernel has no lock:contention_begin and lock:contention_end tracepoints "
	       "(%s/events/lock/ has no contention_begin): they came with Linux 5.19; "
	       "lock contention cannot be observed on this kernel", tfs);
	return -ENOENT;
}

int lock_open(const struct lock_opts *opts, struct lock **out)
{
	struct lock *l = xcalloc(1, sizeof(*l));
	int chosen = 0, err;

	*out = NULL;
	l->o = *opts;
	if (!l->o.max_stack || l->o.max_stack > LOCK_STACK_MAX)
		l->o.max_stack = LOCK_STACK_MAX;
	if ((err = check_tracepoints()) < 0) {
		free(l);
		return err;
	}
	l->m = machine_new(&(struct machine_opts){ .live = true });
	if (l->o.lock_filter && l->o.aggr != LOCK_AGGR_ADDR && (err = lock_filter_parse(l, l->o.lock_filter))) {
		lock_close(l);
		return err;
	}
	err = skel_load_designs(designs, (int)ARRAY_SIZE(designs), load_design, l,
				"the lock contention BPF programs", &chosen, &l->why);
	if (err) {
		lock_close(l);
		return err;
	}
	l->design = (enum lock_design)chosen;
	const char *why;
	if (l->o.aggr == LOCK_AGGR_ADDR && !lock_zone_lock_usable(l, &why))
		pr_info("zone locks are not named zone_lock: %s", why);
	if ((err = lock_filter_fill(l))) {
		lock_close(l);
		return err;
	}
	*out = l;
	return 0;
}

enum lock_design lock_design(const struct lock *l, const char **why)
{
	if (why)
		*why = l->why;
	return l->design;
}

/* ---- running ----------------------------------------------------------------- */

int lock_start(struct lock *l, const pid_t *pids, size_t nr_pids, pid_t workload)
{
	struct lock_bpf *s = l->skel;
	struct target_maps tm = { .tgids = bpf_map__fd(s->maps.target_tgids), .tids = -1,
				  .excluded = bpf_map__fd(s->maps.target_excluded) };
	int err = target_maps_fill(&tm, pids, nr_pids, NULL, 0, workload);
	if (err)
		return err;
	/* exec and fork before the lock hooks, end before begin: nothing in
	 * flight is missed or left half-done */
	struct bpf_program *const progs[] = {
		s->progs.lock_exit, s->progs.lock_exec, s->progs.lock_fork,
		s->progs.btf_end, s->progs.raw_ts_end, s->progs.raw_hash_end,
		s->progs.btf_begin, s->progs.raw_ts_begin, s->progs.raw_hash_begin,
	};
	struct bpf_link **const links[] = {
		&s->links.lock_exit, &s->links.lock_exec, &s->links.lock_fork,
		&s->links.btf_end, &s->links.raw_ts_end, &s->links.raw_hash_end,
		&s->links.btf_begin, &s->links.raw_ts_begin, &s->links.raw_hash_begin,
	};
	l->attached = true;
	err = skel_attach_ordered(progs, links, (int)ARRAY_SIZE(progs));
	if (err)
		return err;
	pr_info("lock contention tracing started");
	return 0;
}

int lock_poll(struct lock *l, int timeout_ms)
{
	(void)l;
	if (poll(NULL, 0, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	return 0;
}

void lock_stop(struct lock *l)
{
	struct lock_bpf *s = l->skel;
	if (!l->attached)
		return;
	l->attached = false;
	bpf_link__destroy(s->links.btf_begin);
	bpf_link__destroy(s->links.raw_ts_begin);
	bpf_link__destroy(s->links.raw_hash_begin);
	s->links.btf_begin = s->links.raw_ts_begin = s->links.raw_hash_begin = NULL;
	lock_bpf__detach(s);
	bpf_wait_for_programs();
}

/* ---- reading ----------------------------------------------------------------- */

int lock_read(struct lock *l, struct lock_result *r)
{
	int fd = bpf_map__fd(l->skel->maps.stat);
	int sfd = bpf_map__fd(l->skel->maps.stacks);
	struct lock_key k, *prev = NULL;
	size_t cap = 0;
	uint64_t ips[LOCK_STACK_MAX];
	bool why_checked = false;

	memset(r, 0, sizeof(*r));
	percpu_counters_read(bpf_map__fd(l->skel->maps.counters), r->counters, LOCK_CNT__MAX);
	if (l->o.aggr == LOCK_AGGR_ADDR && !l->rq_locks)
		lock_read_rq_locks(l);
	while (bpf_map_get_next_key(fd, prev, &k) == 0) {
		prev = &k;
		struct lock_entry e = { .key = k };
		if (bpf_map_lookup_elem(fd, &k, &e.v))
			continue;
		switch (l->o.aggr) {
		case LOCK_AGGR_CALLER:
			lock_name_caller(l, &e, ips, stack_store_read(sfd, k.id, ips, LOCK_STACK_MAX));
			break;
		case LOCK_AGGR_ADDR:
			lock_name_lock(l, &e);
			if (!e.named)
				r->nr_unnamed++;
			if (!e.named && !why_checked) {	/* once: a kallsyms lookup */
				r->unnamed_why = lock_slab_naming_missing(l);
				why_checked = true;
			}
			break;
		case LOCK_AGGR_TASK:
		case LOCK_AGGR_OWNER:
			lock_name_task(l, &e);
			break;
		case LOCK_AGGR_CGROUP:
			lock_name_cgroup(l, &e);
			break;
		}
		ARRAY_GROW(r->e, cap, r->n + 1);
		r->e[r->n++] = e;
	}
	return 0;
}

void lock_close(struct lock *l)
{
	if (!l)
		return;
	lock_bpf__destroy(l->skel);
	btf__free(l->btf);
	free(l->filter_addrs);
	free(l->rq_locks);
	if (l->m)
		machine_free(l->m);
	free(l);
}
