// SPDX-License-Identifier: GPL-2.0-only
/* The lock contention feature's engine (see lock.h): designs, targets,
 * attaching, reading the aggregation map, naming callers and locks. */
#include <linux/types.h>

#include "btf/btf_path.h"
#include "feat/lock.h"
#include "log.h"
#include "skel/skel.h"
#include "sym/machine.h"
#include "sym/stack_skip.h"
#include "target/cgroup.h"
#include "target/target.h"
#include "util.h"

#include "lock.skel.h"
#include "stack_store.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Frames taken beyond those kept: the tracing machinery (3) and the lock's
 * own functions (slow path, lock call: 2 to 4). */
#define LOCK_STACK_EXTRA 8

struct lock {
	struct lock_opts o;
	struct lock_bpf *skel;
	enum lock_design design;
	const char *why;
	bool attached;
	struct machine *m;
	uint64_t sched_text[2], lock_text[2];	/* [start, end), 0 unknown */
	bool sections_read;
	struct btf *btf;	/* the kernel's, for member paths in slab objects */
	bool btf_tried;
	uint64_t *rq_locks;	/* each CPU's runqueue lock (LOCK_AGGR_ADDR), 0 unseen */
	int nr_rq_locks;
	/* the lock filter, parsed */
	uint64_t *filter_addrs;
	size_t nr_filter_addrs;
	uint32_t filter_known;	/* bit 1 << enum lock_known */
	struct lock_slab_name filter_slabs[LOCK_FILTER_SLABS];
	uint32_t nr_filter_slabs;
};

/* ---- pure helpers ---------------------------------------------------------- */

static const struct {
	uint32_t flags;
	const char *str, *cls;
} lock_types[] = {
	{ LOCK_F_SPIN, "spinlock", "spinlock" },
	{ LOCK_F_SPIN | LOCK_F_READ, "rwlock:R", "rwlock" },
	{ LOCK_F_SPIN | LOCK_F_WRITE, "rwlock:W", "rwlock" },
	{ LOCK_F_READ, "rwsem:R", "rwsem" },
	{ LOCK_F_WRITE, "rwsem:W", "rwsem" },
	{ LOCK_F_RT, "rt-mutex", "rt-mutex" },
	{ LOCK_F_RT | LOCK_F_READ, "rwlock-rt:R", "rwlock-rt" },
	{ LOCK_F_RT | LOCK_F_WRITE, "rwlock-rt:W", "rwlock-rt" },
	{ LOCK_F_PERCPU | LOCK_F_READ, "pcpu-sem:R", "percpu-rwsem" },
	{ LOCK_F_PERCPU | LOCK_F_WRITE, "pcpu-sem:W", "percpu-rwsem" },
	{ LOCK_F_MUTEX, "mutex", "mutex" },
	{ LOCK_F_MUTEX | LOCK_F_SPIN, "mutex", "mutex" },
	{ 0, "semaphore", "semaphore" },
};

const char *lock_type_str(uint32_t flags)
{
	flags &= LOCK_F_MASK;
	for (size_t i = 0; i < ARRAY_SIZE(lock_types); i++)
		if (lock_types[i].flags == flags)
			return lock_types[i].str;
	return "unknown";
}

const char *lock_type_class(uint32_t flags)
{
	flags &= LOCK_F_MASK;
	for (size_t i = 0; i < ARRAY_SIZE(lock_types); i++)
		if (lock_types[i].flags == flags)
			return lock_types[i].cls;
	return "unknown";
}

uint64_t lock_type_mask(const char *name)
{
	uint64_t mask = 0;
	for (size_t i = 0; i < ARRAY_SIZE(lock_types); i++) {
		if (!strcmp(name, lock_types[i].str) || !strcmp(name, lock_types[i].cls))
			mask |= 1ull << lock_types[i].flags;
	}
	/* perf's aliases of the class names */
	if (!mask && (!strcmp(name, "pcpu-sem") || !strcmp(name, "percpu-rwsem:R") ||
		      !strcmp(name, "percpu-rwsem:W")))
		mask = lock_type_mask(!strcmp(name, "percpu-rwsem:W") ? "pcpu-sem:W"
				      : !strcmp(name, "percpu-rwsem:R") ? "pcpu-sem:R" : "percpu-rwsem");
	return mask;
}

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

enum lock_frame lock_frame_class(const char *sym)
{
	/* the lock implementations (kernel/locking/) and the scheduler's entry
	 * points they sleep in: perf's "lock and sched text sections" by name */
	static const char *const lock_prefix[] = {
		"_raw_spin_", "_raw_read_", "_raw_write_", "do_raw_spin_", "do_raw_read_",
		"do_raw_write_", "queued_spin_lock", "queued_read_lock", "queued_write_lock",
		"native_queued_spin_lock", "__pv_queued_spin_lock", "pv_queued_spin",
		"mutex_lock", "__mutex_lock", "mutex_spin_on_owner", "ww_mutex_lock", "__ww_mutex_lock",
		"rt_mutex_", "__rt_mutex", "rt_spin_lock", "rwbase_", "down_read", "down_write",
		"__down", "down_", "rwsem_down_", "rwsem_optimistic_spin", "percpu_down_",
		"__percpu_down_", "percpu_rwsem_", "schedule", "__schedule", "preempt_schedule",
		"io_schedule",
	};
	if (!sym || !*sym)
		return LOCK_FRAME_OTHER;
	if (stack_frame_is_tracing(sym))
		return LOCK_FRAME_TRACING;
	if (!strcmp(sym, "down"))
		return LOCK_FRAME_LOCK;
	for (size_t i = 0; i < ARRAY_SIZE(lock_prefix); i++)
		if (has_prefix(sym, lock_prefix[i]))
			return LOCK_FRAME_LOCK;
	return LOCK_FRAME_OTHER;
}

char *lock_fmt_time(uint64_t ns, int width, char *buf, size_t len)
{
	static const struct {
		double base;
		const char *unit;
	} units[] = {
		{ 1e9 * 3600, "h " }, { 1e9 * 60, "m " }, { 1e9, "s " }, { 1e6, "ms" }, { 1e3, "us" },
	};
	if (width == 0) {
		snprintf(buf, len, "%" PRIu64, ns);
		return buf;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if ((double)ns < units[i].base)
			continue;
		snprintf(buf, len, "%*.2f %s", width - 3, (double)ns / units[i].base, units[i].unit);
		return buf;
	}
	snprintf(buf, len, "%*" PRIu64 " %s", width - 3, ns, "ns");
	return buf;
}

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
	skel->rodata->target_cfg.self_tgid = (uint32_t)getpid();
	skel->rodata->target_cfg.all = o->system_wide;
	skel->rodata->target_cfg.by_tgid = !o->system_wide;
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

static const struct btf *kernel_btf(struct lock *l)
{
	if (!l->btf_tried) {
		l->btf_tried = true;
		l->btf = btf__load_vmlinux_btf();
		if (!l->btf) {
			pr_debug("the kernel's BTF cannot be read (%s): locks in slab objects are named "
				 "by their cache only", log_strerr(-errno));
			l->btf = NULL;
		}
	}
	return l->btf;
}

/* Can the BPF side tell zone locks here? Its way to the zones: the memory
 * cgroup's per-node lruvec (CONFIG_MEMCG, the controller enabled). */
static bool zone_lock_usable(struct lock *l, const char **why)
{
	const struct btf *btf = kernel_btf(l);
	char *cgroups;

	if (!btf) {
		*why = "the kernel's BTF cannot be read";
		return false;
	}
	int id = btf__find_by_name_kind(btf, "lruvec", BTF_KIND_STRUCT);
	bool pgdat = false;
	if (id > 0) {
		const struct btf_type *t = btf__type_by_id(btf, (uint32_t)id);
		const struct btf_member *m = btf_members(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, m++)
			pgdat |= !strcmp(btf__name_by_offset(btf, m->name_off), "pgdat");
	}
	if (!pgdat || btf__find_by_name_kind(btf, "mem_cgroup", BTF_KIND_STRUCT) <= 0) {
		*why = "the kernel has no memory cgroups (CONFIG_MEMCG), through which the zones are found";
		return false;
	}
	if ((cgroups = read_file("/proc/cgroups", NULL))) {
		/* "memory <hierarchy> <num_cgroups> <enabled>" */
		char *line = strstr(cgroups, "\nmemory\t");
		unsigned h, n, on = 1;
		if (line && sscanf(line + 8, "%u %u %u", &h, &n, &on) == 3 && !on) {
			free(cgroups);
			*why = "the memory cgroup controller is disabled (cgroup_disable=memory), through which "
			       "the zones are found";
			return false;
		}
		free(cgroups);
	}
	return true;
}

static const char *const known_names[] = { "", "mmap_lock", "siglock", "rq_lock", "zone_lock" };

/* The lock filter's names: what each selects in the kernel. */
static int parse_lock_filter(struct lock *l, const char *list)
{
	char *dup = xstrdup(list), *save = NULL;
	size_t cap = 0;
	int err = 0;

	for (char *w = strtok_r(dup, ",", &save); w && !err; w = strtok_r(NULL, ",", &save)) {
		uint64_t addr = 0;
		uint32_t k;
		char *end;

		for (k = 1; k < ARRAY_SIZE(known_names) && strcmp(w, known_names[k]); k++)
			;
		if (k < ARRAY_SIZE(known_names)) {
			const char *why;
			if (k == LOCK_KNOWN_ZONE && !zone_lock_usable(l, &why)) {
				pr_err("lock filter 'zone_lock': zone locks cannot be told here: %s; filter by the "
				       "zone lock's address", why);
				err = -EOPNOTSUPP;
			}
			l->filter_known |= 1u << k;
			continue;
		}
		if (w[0] == '&') {
			if (strchr(w, '.') || strchr(w, '[')) {
				pr_err("lock filter '%s': a member path names locks found by lock address only; "
				       "filter by the slab cache ('&<cache>') or the lock's address here", w);
				err = -EINVAL;
			} else if (strlen(w + 1) >= LOCK_SLAB_NAME || !w[1]) {
				pr_err("lock filter '%s': not a slab cache name (1 to %d characters after '&')", w,
				       LOCK_SLAB_NAME - 1);
				err = -EINVAL;
			} else if (l->nr_filter_slabs >= LOCK_FILTER_SLABS) {
				pr_err("lock filter: more than %d slab caches; filter by fewer", LOCK_FILTER_SLABS);
				err = -E2BIG;
			} else {
				snprintf(l->filter_slabs[l->nr_filter_slabs++].name, LOCK_SLAB_NAME, "%s", w + 1);
			}
			continue;
		}
		errno = 0;
		addr = strtoull(w, &end, 0);
		if (errno || *end || end == w) {
			const char *names[] = { w };
			addr = 0;
			if (machine_kernel_symbol_addrs(l->m, names, &addr, 1) != 1 || !addr) {
				pr_err("lock filter '%s': not an address, a well-known lock (mmap_lock, siglock, "
				       "rq_lock, zone_lock), a slab cache (&<cache>) or a kernel symbol in "
				       "/proc/kallsyms (data symbols need CONFIG_KALLSYMS_ALL)", w);
				err = -EINVAL;
				continue;
			}
		}
		ARRAY_GROW(l->filter_addrs, cap, l->nr_filter_addrs + 1);
		l->filter_addrs[l->nr_filter_addrs++] = addr;
	}
	free(dup);
	if (!err && l->nr_filter_addrs > 1024) {
		pr_err("lock filter: %zu addresses, at most 1024", l->nr_filter_addrs);
		err = -E2BIG;
	}
	return err;
}

int lock_filter_check(const char *list)
{
	struct lock l = { 0 };
	l.m = machine_new(&(struct machine_opts){ .live = true });
	int err = parse_lock_filter(&l, list);
	free(l.filter_addrs);
	btf__free(l.btf);
	machine_free(l.m);
	return err;
}

static int fill_lock_filter(struct lock *l)
{
	int afd = bpf_map__fd(l->skel->maps.addr_filter), sfd = bpf_map__fd(l->skel->maps.slab_filter);
	uint8_t one = 1;

	for (size_t i = 0; i < l->nr_filter_addrs; i++) {
		if (bpf_map_update_elem(afd, &l->filter_addrs[i], &one, BPF_ANY)) {
			int err = -errno;
			pr_err("cannot fill the lock filter's address map: %s", log_strerr(err));
			return err;
		}
	}
	for (uint32_t i = 0; i < l->nr_filter_slabs; i++) {
		if (bpf_map_update_elem(sfd, &i, &l->filter_slabs[i], BPF_ANY)) {
			int err = -errno;
			pr_err("cannot fill the lock filter's slab cache map: %s", log_strerr(err));
			return err;
		}
	}
	if (l->nr_filter_slabs && l->design != LOCK_DESIGN_BTF_TS) {
		pr_err("lock filter by slab cache: needs the bpf_get_kmem_cache kfunc (Linux 6.13+) with "
		       "tp_btf programs, and this run uses %s; filter by address instead", designs[l->design].name);
		return -EOPNOTSUPP;
	}
	if (l->nr_filter_slabs) {
		const char *names[] = { "bpf_get_kmem_cache" };
		uint64_t a = 0;
		if (machine_kernel_symbol_addrs(l->m, names, &a, 1) != 1) {
			pr_err("lock filter by slab cache: the kernel has no bpf_get_kmem_cache kfunc "
			       "(Linux 6.13+); filter by address instead");
			return -EOPNOTSUPP;
		}
	}
	return 0;
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
	if (l->o.lock_filter && l->o.aggr != LOCK_AGGR_ADDR && (err = parse_lock_filter(l, l->o.lock_filter))) {
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
	if (l->o.aggr == LOCK_AGGR_ADDR && !zone_lock_usable(l, &why))
		pr_info("zone locks are not named zone_lock: %s", why);
	if ((err = fill_lock_filter(l))) {
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

/* ---- reading and naming ------------------------------------------------------ */

static void read_sections(struct lock *l)
{
	static const char *const names[] = {
		"__sched_text_start", "__sched_text_end", "__lock_text_start", "__lock_text_end",
	};
	uint64_t a[4];
	l->sections_read = true;
	if (machine_kernel_symbol_addrs(l->m, names, a, 4) == 4) {
		l->sched_text[0] = a[0];
		l->sched_text[1] = a[1];
		l->lock_text[0] = a[2];
		l->lock_text[1] = a[3];
	} else {
		pr_debug("the lock and sched text sections are not in kallsyms: lock functions "
			 "are told by name");
	}
}

static const char *frame_sym(struct lock *l, uint64_t ip)
{
	struct resolved r;
	machine_resolve(l->m, -1, -1, ip, AS_KERNEL, &r);
	return r.found ? r.sym : NULL;
}

static const char *skip_sym(void *l, uint64_t ip)
{
	return frame_sym(l, ip);
}

/* perf's test: mutex and rwsem functions are in the sched text section,
 * spinlock functions in the lock text section; by name where unknown. */
static bool is_lock_frame(struct lock *l, uint64_t ip)
{
	if (!l->sections_read)
		read_sections(l);
	if (l->sched_text[0]) {
		return (ip >= l->sched_text[0] && ip < l->sched_text[1]) ||
		       (ip >= l->lock_text[0] && ip < l->lock_text[1]);
	}
	return lock_frame_class(frame_sym(l, ip)) == LOCK_FRAME_LOCK;
}

const char *lock_symbolize(struct lock *l, uint64_t addr, char *buf, size_t len)
{
	struct resolved r;
	machine_resolve(l->m, -1, -1, addr, AS_KERNEL, &r);
	if (!r.found)
		snprintf(buf, len, "%#" PRIx64, addr);
	else if (addr == r.sym_start)
		snprintf(buf, len, "%s", r.sym);
	else
		snprintf(buf, len, "%s+%#" PRIx64, r.sym, addr - r.sym_start);
	return buf;
}

/* The stack from the first frame below the tracing machinery, and the
 * caller: its first frame that is not a lock function. */
static void name_caller(struct lock *l, struct lock_entry *e, const uint64_t *ips, size_t n)
{
	char buf[256];
	size_t first = stack_skip(ips, n, skip_sym, l, STACK_SKIP_CONTENTION_BEGIN, l->o.stack_skip);
	size_t c = first;
	while (c + 1 < n && is_lock_frame(l, ips[c]))
		c++;
	size_t keep = n - first < l->o.max_stack ? n - first : l->o.max_stack;
	e->stack = xcalloc(keep + 1, sizeof(*e->stack));
	memcpy(e->stack, ips + first, keep * sizeof(*ips));
	e->nr_stack = (uint32_t)keep;
	e->name = c < n ? machine_intern(l->m, lock_symbolize(l, ips[c], buf, sizeof(buf))) : "";
}

/* The struct and member names a lock of these flags has in BTF (the type
 * contention_begin's lock pointer points to, and the types wrapping it at
 * the same address). */
const char *const *lock_btf_types(uint32_t flags)
{
	static const char *const spin[] = { "spinlock_t", "spinlock", "raw_spinlock_t", "raw_spinlock",
					    "arch_spinlock_t", "qspinlock", NULL };
	static const char *const rwlock[] = { "rwlock_t", "rwlock", "arch_rwlock_t", "qrwlock", NULL };
	static const char *const rwsem[] = { "rw_semaphore", NULL };
	static const char *const mutex[] = { "mutex", NULL };
	static const char *const sem[] = { "semaphore", NULL };
	static const char *const pcpu[] = { "percpu_rw_semaphore", NULL };
	static const char *const rt[] = { "rt_mutex", "rt_mutex_base", NULL };
	static const char *const rwrt[] = { "rwlock_t", "rwlock", "rwbase_rt", NULL };
	const char *cls = lock_type_class(flags);

	if (!strcmp(cls, "spinlock"))
		return spin;
	if (!strcmp(cls, "rwlock"))
		return rwlock;
	if (!strcmp(cls, "rwsem"))
		return rwsem;
	if (!strcmp(cls, "mutex"))
		return mutex;
	if (!strcmp(cls, "semaphore"))
		return sem;
	if (!strcmp(cls, "percpu-rwsem"))
		return pcpu;
	if (!strcmp(cls, "rt-mutex"))
		return rt;
	if (!strcmp(cls, "rwlock-rt"))
		return rwrt;
	return NULL;
}

int lock_slab_member_name(const struct btf *btf, const struct lock_slab_info *si, uint64_t obj_off,
			  uint32_t flags, char *buf, size_t len)
{
	const char *const *types = lock_btf_types(flags);
	char name[LOCK_SLAB_NAME + 1];
	char path[256];
	int err;

	if (!btf || !types || obj_off == LOCK_OBJ_OFF_NONE)
		return -ENOENT;
	memcpy(name, si->name, LOCK_SLAB_NAME);
	name[LOCK_SLAB_NAME] = '\0';
	uint32_t id = btf_slab_struct(btf, name, si->object_size);
	if (!id)
		return -ENOENT;
	err = btf_member_path(btf, id, obj_off, types, path, sizeof(path));
	if (err)
		return err;
	if ((size_t)snprintf(buf, len, "&%s", path) >= len)
		return -E2BIG;
	return 0;
}

static void name_lock(struct lock *l, struct lock_entry *e)
{
	static const char *const *const known = known_names;
	char buf[300];
	const char *sym;
	uint64_t off;

	e->named = true;
	if (e->v.known > 0 && e->v.known < ARRAY_SIZE(known_names)) {
		e->name = known[e->v.known];
		return;
	}
	/* beyond perf: another CPU's runqueue lock, as that CPU saw it */
	for (int c = 0; c < l->nr_rq_locks; c++) {
		if (l->rq_locks[c] == e->key.id) {
			e->name = known[LOCK_KNOWN_RQ];
			return;
		}
	}
	if (e->v.slab) {
		struct lock_slab_info si;
		if (!bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.slab_names), &e->v.slab, &si)) {
			si.name[sizeof(si.name) - 1] = '\0';
			snprintf(buf, sizeof(buf), "&%s", si.name);
			e->cache = machine_intern(l->m, buf);
			/* beyond perf: the member the lock is in the cache's struct */
			if (e->v.obj_off == LOCK_OBJ_OFF_NONE ||
			    lock_slab_member_name(kernel_btf(l), &si, e->v.obj_off, e->v.flags, buf, sizeof(buf)))
				snprintf(buf, sizeof(buf), "&%s", si.name);
			e->name = machine_intern(l->m, buf);
			return;
		}
	}
	if (machine_kernel_data_symbol(l->m, e->key.id, &sym, &off) && off < 4096) {
		if (off)
			snprintf(buf, sizeof(buf), "%s+%#" PRIx64, sym, off);
		else
			snprintf(buf, sizeof(buf), "%s", sym);
		e->name = machine_intern(l->m, buf);
		return;
	}
	e->named = false;
	e->name = "";
}

static void name_task(struct lock *l, struct lock_entry *e)
{
	char comm[16] = "";
	uint32_t tid = (uint32_t)e->key.id;
	if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.task_comms), &tid, comm) == 0) {
		comm[15] = '\0';
		e->name = machine_intern(l->m, comm);
	} else {
		e->name = "";
	}
}

/* By cgroup: its path under the cgroup2 mount ("/" the root). */
static void name_cgroup(struct lock *l, struct lock_entry *e)
{
	char path[4096];
	if (cgroup_path_of_id(e->key.id, path, sizeof(path)) == 0)
		e->name = machine_intern(l->m, path);
	else
		e->name = "";
}

static void read_rq_locks(struct lock *l)
{
	int n = percpu_nr_cpus();
	uint32_t zero = 0;
	uint8_t *v = percpu_alloc(sizeof(uint64_t));

	if (n <= 0 || percpu_lookup(bpf_map__fd(l->skel->maps.rq_locks), &zero, v)) {
		free(v);
		return;
	}
	l->rq_locks = xcalloc((size_t)n, sizeof(uint64_t));
	for (int c = 0; c < n; c++)
		memcpy(&l->rq_locks[c], v + (size_t)c * percpu_stride(sizeof(uint64_t)), sizeof(uint64_t));
	l->nr_rq_locks = n;
	free(v);
}

/* Locks in slab objects are named through the bpf_get_kmem_cache kfunc of
 * tp_btf programs: what this run lacks for it, or NULL. */
static const char *slab_naming_missing(struct lock *l)
{
	if (l->design != LOCK_DESIGN_BTF_TS)
		return "locks in slab objects are named by tp_btf programs, and this kernel "
		       "cannot run them";
	const char *names[] = { "bpf_get_kmem_cache" };
	uint64_t a = 0;
	if (machine_kernel_symbol_addrs(l->m, names, &a, 1) != 1)
		return "locks in slab objects need the bpf_get_kmem_cache kfunc (Linux 6.13+) to be "
		       "named, and this kernel has none";
	return NULL;
}

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
		read_rq_locks(l);
	while (bpf_map_get_next_key(fd, prev, &k) == 0) {
		prev = &k;
		struct lock_entry e = { .key = k };
		if (bpf_map_lookup_elem(fd, &k, &e.v))
			continue;
		switch (l->o.aggr) {
		case LOCK_AGGR_CALLER:
			name_caller(l, &e, ips, stack_store_read(sfd, k.id, ips, LOCK_STACK_MAX));
			break;
		case LOCK_AGGR_ADDR:
			name_lock(l, &e);
			if (!e.named)
				r->nr_unnamed++;
			if (!e.named && !why_checked) {	/* once: a kallsyms lookup */
				r->unnamed_why = slab_naming_missing(l);
				why_checked = true;
			}
			break;
		case LOCK_AGGR_TASK:
		case LOCK_AGGR_OWNER:
			name_task(l, &e);
			break;
		case LOCK_AGGR_CGROUP:
			name_cgroup(l, &e);
			break;
		}
		ARRAY_GROW(r->e, cap, r->n + 1);
		r->e[r->n++] = e;
	}
	return 0;
}

bool lock_stack_matches(struct lock *l, const struct lock_entry *e, const char *sub)
{
	for (uint32_t i = 0; i < e->nr_stack; i++) {
		const char *s = frame_sym(l, e->stack[i]);
		if (s && strstr(s, sub))
			return true;
	}
	return false;
}

void lock_result_free(struct lock_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->e[i].stack);
	free(r->e);
	memset(r, 0, sizeof(*r));
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
