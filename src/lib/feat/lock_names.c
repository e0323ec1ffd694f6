// SPDX-License-Identifier: GPL-2.0-only
/* Naming lock contention's entries (see lock_int.h): perf's lock type names,
 * the caller of a contention (its first frame below the lock functions),
 * locks by well-known name, runqueue, slab cache and member path (the
 * kernel's BTF) or kernel data symbol, tasks by comm, cgroups by path. */
#include <linux/types.h>

#include "btf/btf_path.h"
#include "feat/lock_int.h"
#include "log.h"
#include "skel/skel.h"
#include "sym/machine.h"
#include "sym/stack_skip.h"
#include "target/cgroup.h"
#include "util.h"

#include "lock.skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- lock types -------------------------------------------------------------- */

const struct lock_type_name lock_type_names[] = {
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

const size_t lock_nr_type_names = ARRAY_SIZE(lock_type_names);

/* The row of the type of these contention_begin flags, or NULL. */
static const struct lock_type_name *type_name_of(uint32_t flags)
{
	flags &= LOCK_F_MASK;
	for (size_t i = 0; i < ARRAY_SIZE(lock_type_names); i++)
		if (lock_type_names[i].flags == flags)
			return &lock_type_names[i];
	return NULL;
}

const char *lock_type_str(uint32_t flags)
{
	const struct lock_type_name *t = type_name_of(flags);
	return t ? t->str : "unknown";
}

const char *lock_type_class(uint32_t flags)
{
	const struct lock_type_name *t = type_name_of(flags);
	return t ? t->cls : "unknown";
}

const char *const lock_known_names[LOCK_KNOWN_ZONE + 1] = {
	"", "mmap_lock", "siglock", "rq_lock", "zone_lock",
};

/* ---- the kernel's BTF ------------------------------------------------------------ */

const struct btf *lock_kernel_btf(struct lock *l)
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
bool lock_zone_lock_usable(struct lock *l, const char **why)
{
	const struct btf *btf = lock_kernel_btf(l);
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

/* ---- callers ------------------------------------------------------------------- */

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

const char *lock_frame_sym(struct lock *l, uint64_t ip)
{
	struct resolved r;
	machine_resolve(l->m, -1, -1, ip, AS_KERNEL, &r);
	return r.found ? r.sym : NULL;
}

static const char *skip_sym(void *l, uint64_t ip)
{
	return lock_frame_sym(l, ip);
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
	return lock_frame_class(lock_frame_sym(l, ip)) == LOCK_FRAME_LOCK;
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
void lock_name_caller(struct lock *l, struct lock_entry *e, const uint64_t *ips, size_t n)
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

/* ---- locks, tasks, cgroups ----------------------------------------------------- */

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

void lock_name_lock(struct lock *l, struct lock_entry *e)
{
	char buf[300];
	const char *sym;
	uint64_t off;

	e->named = true;
	if (e->v.known > 0 && e->v.known < ARRAY_SIZE(lock_known_names)) {
		e->name = lock_known_names[e->v.known];
		return;
	}
	/* beyond perf: another CPU's runqueue lock, as that CPU saw it */
	for (int c = 0; c < l->nr_rq_locks; c++) {
		if (l->rq_locks[c] == e->key.id) {
			e->name = lock_known_names[LOCK_KNOWN_RQ];
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
			    lock_slab_member_name(lock_kernel_btf(l), &si, e->v.obj_off, e->v.flags, buf, sizeof(buf)))
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

void lock_name_task(struct lock *l, struct lock_entry *e)
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
void lock_name_cgroup(struct lock *l, struct lock_entry *e)
{
	char path[4096];
	if (cgroup_path_of_id(e->key.id, path, sizeof(path)) == 0)
		e->name = machine_intern(l->m, path);
	else
		e->name = "";
}

void lock_read_rq_locks(struct lock *l)
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

bool lock_kernel_has_kmem_cache(struct lock *l)
{
	const char *names[] = { "bpf_get_kmem_cache" };
	uint64_t a = 0;
	return machine_kernel_symbol_addrs(l->m, names, &a, 1) == 1;
}

/* Locks in slab objects are named through the bpf_get_kmem_cache kfunc of
 * tp_btf programs: what this run lacks for it, or NULL. */
const char *lock_slab_naming_missing(struct lock *l)
{
	if (l->design != LOCK_DESIGN_BTF_TS)
		return "locks in slab objects are named by tp_btf programs, and this kernel "
		       "cannot run them";
	if (!lock_kernel_has_kmem_cache(l))
		return "locks in slab objects need the bpf_get_kmem_cache kfunc (Linux 6.13+) to be "
		       "named, and this kernel has none";
	return NULL;
}
