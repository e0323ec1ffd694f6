// SPDX-License-Identifier: GPL-2.0-only
/* The kwork feature's engine (see kwork.h): designs, attaching, the ring
 * buffer of timehist, reading and naming the aggregated entries. The pure
 * parts (names, sorting, top's arithmetic) are in kwork_result.c. */
#include <linux/types.h>

#include "feat/kwork.h"
#include "log.h"
#include "skel/skel.h"
#include "sym/machine.h"
#include "util.h"

#include "target_filter.h"

#include "kwork.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kwork {
	struct kwork_opts o;
	struct kwork_bpf *skel;
	enum kwork_design design;
	const char *why;
	bool attached;
	struct ring_buffer *rb;
	struct machine *m;
	uint64_t t_start, t_stop;	/* CLOCK_MONOTONIC ns */
	char (*irq_names)[KWORK_NAME_LEN];	/* timehist: read on demand */
};

/* ---- loading ----------------------------------------------------------------- */

static bool btf_usable(void *ctx, const char **why)
{
	const struct kwork *k = ctx;
	if (k->o.min_design > KWORK_DESIGN_BTF) {
		*why = "the tp_btf design turned off (testing)";
		return false;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		*why = "the kernel has no BTF (/sys/kernel/btf/vmlinux: CONFIG_DEBUG_INFO_BTF)";
		return false;
	}
	return true;
}

static const struct skel_design designs[] = {
	{ "tp_btf programs", btf_usable },
	{ "classic tracepoint programs", NULL },
};

const char *kwork_design_name(enum kwork_design d)
{
	return designs[d].name;
}

/* The programs of a design, in the order they attach (exits before
 * entries before raises: no entry is left without its exit). */
#define KWORK_NR_PROGS 9
static void design_progs(struct kwork_bpf *s, enum kwork_design d, struct bpf_program **p, struct bpf_link ***l)
{
	if (d == KWORK_DESIGN_BTF) {
		struct bpf_program *pp[KWORK_NR_PROGS] = {
			s->progs.btf_switch, s->progs.btf_irq_exit, s->progs.btf_softirq_exit, s->progs.btf_wq_end,
			s->progs.btf_irq_entry, s->progs.btf_softirq_entry, s->progs.btf_wq_start,
			s->progs.btf_softirq_raise, s->progs.btf_wq_activate,
		};
		struct bpf_link **ll[KWORK_NR_PROGS] = {
			&s->links.btf_switch, &s->links.btf_irq_exit, &s->links.btf_softirq_exit, &s->links.btf_wq_end,
			&s->links.btf_irq_entry, &s->links.btf_softirq_entry, &s->links.btf_wq_start,
			&s->links.btf_softirq_raise, &s->links.btf_wq_activate,
		};
		memcpy(p, pp, sizeof(pp));
		memcpy(l, ll, sizeof(ll));
	} else {
		struct bpf_program *pp[KWORK_NR_PROGS] = {
			s->progs.tp_switch, s->progs.tp_irq_exit, s->progs.tp_softirq_exit, s->progs.tp_wq_end,
			s->progs.tp_irq_entry, s->progs.tp_softirq_entry, s->progs.tp_wq_start,
			s->progs.tp_softirq_raise, s->progs.tp_wq_activate,
		};
		struct bpf_link **ll[KWORK_NR_PROGS] = {
			&s->links.tp_switch, &s->links.tp_irq_exit, &s->links.tp_softirq_exit, &s->links.tp_wq_end,
			&s->links.tp_irq_entry, &s->links.tp_softirq_entry, &s->links.tp_wq_start,
			&s->links.tp_softirq_raise, &s->links.tp_wq_activate,
		};
		memcpy(p, pp, sizeof(pp));
		memcpy(l, ll, sizeof(ll));
	}
}

/* Is program i of design_progs() needed by this view and these classes? */
static bool prog_needed(const struct kwork_opts *o, int i)
{
	bool raise = o->view == KWORK_VIEW_LATENCY || o->view == KWORK_VIEW_TIMEHIST;
	bool runtime = o->view != KWORK_VIEW_LATENCY;
	bool irq = o->classes & (1U << KWORK_IRQ), soft = o->classes & (1U << KWORK_SOFTIRQ);
	bool wq = o->classes & (1U << KWORK_WORKQUEUE) && o->view != KWORK_VIEW_TOP;

	switch (i) {
	case 0: return o->view == KWORK_VIEW_TOP;		/* sched_switch */
	case 1: return irq && runtime;				/* irq exit */
	case 2: return soft && runtime;				/* softirq exit */
	case 3: return wq && runtime;				/* workqueue end */
	case 4: return irq && runtime;				/* irq entry */
	case 5: return soft;					/* softirq entry */
	case 6: return wq;					/* workqueue start */
	case 7: return soft && raise;				/* softirq raise */
	case 8: return wq && raise;				/* workqueue activate */
	default: return false;
	}
}

static int load_design(void *ctx, int design)
{
	struct kwork *k = ctx;
	const struct kwork_opts *o = &k->o;
	struct kwork_bpf *s;
	struct bpf_program *progs[KWORK_NR_PROGS], *other[KWORK_NR_PROGS];
	struct bpf_link **links[KWORK_NR_PROGS];

	kwork_bpf__destroy(k->skel);
	k->skel = s = kwork_bpf__open();
	if (!s) {
		int err = -errno;
		pr_err("cannot open the kwork BPF object: %s", log_strerr(err));
		return err;
	}
	s->rodata->view = o->view;
	s->rodata->classes = o->classes;
	s->rodata->want_hist = o->hist;
	if (o->cpus) {
		s->rodata->cpu_filter = 1;
		for (int c = 0; c < o->nr_cpus && c < KWORK_MAX_CPUS; c++)
			if (o->cpus[c])
				s->rodata->cpu_mask[c / 64] |= 1ULL << (c % 64);
	}
	target_cfg_set(&s->rodata->target_cfg, true, false, false, o->cgroup_fd > 0);
	s->rodata->task_filter = o->cgroup_fd > 0;
	bpf_map__set_max_entries(s->maps.works, o->map_entries ? o->map_entries : 8192);
	if (o->view != KWORK_VIEW_TIMEHIST)
		bpf_map__set_max_entries(s->maps.events, (uint32_t)sysconf(_SC_PAGESIZE));
	if (o->view != KWORK_VIEW_TOP)
		bpf_map__set_max_entries(s->maps.comms, 1);
	bpf_program__set_autoload(s->progs.kwork_top_flush, o->view == KWORK_VIEW_TOP);
	design_progs(s, (enum kwork_design)design, progs, links);
	design_progs(s, design == KWORK_DESIGN_BTF ? KWORK_DESIGN_TP : KWORK_DESIGN_BTF, other, links);
	for (int i = 0; i < KWORK_NR_PROGS; i++) {
		bpf_program__set_autoload(progs[i], prog_needed(o, i));
		bpf_program__set_autoload(other[i], false);
	}
	return kwork_bpf__load(s);
}

/* Every tracepoint a view needs, or a message naming the missing one. */
static int check_tracepoints(const struct kwork_opts *o)
{
	static const char *const tps[KWORK_NR_PROGS] = {
		"sched/sched_switch", "irq/irq_handler_exit", "irq/softirq_exit",
		"workqueue/workqueue_execute_end", "irq/irq_handler_entry", "irq/softirq_entry",
		"workqueue/workqueue_execute_start", "irq/softirq_raise", "workqueue/workqueue_activate_work",
	};
	const char *tfs = tracefs_dir();
	char path[512];

	if (!tfs)
		return 0;	/* cannot tell: attaching will */
	for (int i = 0; i < KWORK_NR_PROGS; i++) {
		if (!prog_needed(o, i))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", tfs, tps[i]);
		if (access(path, F_OK) == 0)
			continue;
		pr_err("the kernel has no %s tracepoint (%s is missing): kernel work of this kind cannot be "
		       "observed on this kernel; leave its class out", tps[i], path);
		return -ENOENT;
	}
	return 0;
}

static int on_record(void *ctx, void *data, size_t size);

int kwork_open(const struct kwork_opts *opts, struct kwork **out)
{
	struct kwork *k = xcalloc(1, sizeof(*k));
	int chosen = 0, err;

	*out = NULL;
	k->o = *opts;
	if ((err = check_tracepoints(&k->o)) < 0) {
		free(k);
		return err;
	}
	k->m = machine_new(&(struct machine_opts){ .live = true });
	err = skel_load_designs(designs, (int)ARRAY_SIZE(designs), load_design, k, "the kwork BPF programs",
				&chosen, &k->why);
	if (err) {
		kwork_close(k);
		return err;
	}
	k->design = (enum kwork_design)chosen;
	if (k->o.cgroup_fd > 0) {
		uint32_t zero = 0;
		if (bpf_map_update_elem(bpf_map__fd(k->skel->maps.target_cgroup), &zero, &k->o.cgroup_fd, 0)) {
			err = -errno;
			pr_err("cannot set the cgroup to observe: %s", log_strerr(err));
			kwork_close(k);
			return err;
		}
	}
	if (k->o.view == KWORK_VIEW_TIMEHIST) {
		k->rb = ring_buffer__new(bpf_map__fd(k->skel->maps.events), on_record, k, NULL);
		if (!k->rb) {
			err = -errno;
			pr_err("cannot set up the kwork ring buffer: %s", log_strerr(err));
			kwork_close(k);
			return err;
		}
	}
	*out = k;
	return 0;
}

enum kwork_design kwork_design(const struct kwork *k, const char **why)
{
	if (why)
		*why = k->why;
	return k->design;
}

/* ---- running ----------------------------------------------------------------- */

int kwork_start(struct kwork *k)
{
	struct bpf_program *progs[KWORK_NR_PROGS];
	struct bpf_link **links[KWORK_NR_PROGS];

	design_progs(k->skel, k->design, progs, links);
	k->attached = true;
	k->t_start = now_ns();
	k->skel->bss->window_start = k->t_start;
	int err = skel_attach_ordered(progs, links, KWORK_NR_PROGS);
	if (err)
		return err;
	pr_info("kwork tracing started (%s)", designs[k->design].name);
	return 0;
}

/* A name for a work of the ring buffer, from the maps and kallsyms. */
static const char *name_of(struct kwork *k, uint32_t type, uint64_t id, char *buf, size_t len)
{
	char what[KWORK_NAME_LEN] = "";
	const char *w = NULL;

	if (type == KWORK_IRQ) {
		uint32_t irq = (uint32_t)id;
		if (!bpf_map_lookup_elem(bpf_map__fd(k->skel->maps.irq_names), &irq, what))
			w = what;
	} else if (type == KWORK_WORKQUEUE && id) {
		struct resolved r;
		machine_resolve(k->m, -1, -1, id, AS_KERNEL, &r);
		if (r.found)
			w = r.sym;
	} else if (type == KWORK_SCHED) {
		uint32_t tid = (uint32_t)id;
		char comm[KWORK_COMM_LEN] = "";
		if (!id)
			w = "swapper";	/* the idle task, as perf names it */
		else if (id == KWORK_ID_OTHERS)
			w = "[other tasks]";
		else if (!bpf_map_lookup_elem(bpf_map__fd(k->skel->maps.comms), &tid, comm)) {
			snprintf(what, sizeof(what), "%.*s", KWORK_COMM_LEN, comm);
			w = what;
		}
	}
	return kwork_name(type, id, w, buf, len);
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct kwork *k = ctx;
	struct kwork_tevent ev;
	char buf[256];

	if (size < sizeof(ev.e))
		return 0;
	memcpy(&ev.e, data, sizeof(ev.e));
	ev.name = name_of(k, ev.e.type, ev.e.id, buf, sizeof(buf));
	if (k->o.on_event)
		k->o.on_event(k->o.ctx, &ev);
	return 0;
}

int kwork_poll(struct kwork *k, int timeout_ms)
{
	if (!k->rb) {
		if (poll(NULL, 0, timeout_ms) < 0 && errno != EINTR)
			return -errno;
		return 0;
	}
	int n = ring_buffer__poll(k->rb, timeout_ms);
	if (n == -EINTR)
		return 0;
	return n < 0 ? n : 0;
}

/* top: the tasks running when the window ended had their last slice
 * reported by no sched_switch: kwork_top_flush counts it on each CPU, where
 * it runs as the interrupted task (BPF_PROG_TEST_RUN on that CPU). */
static void top_flush(struct kwork *k)
{
	int fd = bpf_program__fd(k->skel->progs.kwork_top_flush);
	int n = libbpf_num_possible_cpus();
	for (int cpu = 0; cpu < n; cpu++) {
		if (k->o.cpus && (cpu >= k->o.nr_cpus || !k->o.cpus[cpu]))
			continue;
		LIBBPF_OPTS(bpf_test_run_opts, ro, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = (uint32_t)cpu);
		if (bpf_prog_test_run_opts(fd, &ro) < 0 && errno != ENXIO) {
			/* ENXIO: an offline CPU, which runs nothing */
			pr_warn("kwork top: the time of the tasks still running at the end is not counted: "
				"running the BPF program on CPU %d failed (%s; BPF_PROG_TEST_RUN with "
				"BPF_F_TEST_RUN_ON_CPU needs Linux 5.10)", cpu, log_strerr(-errno));
			return;
		}
	}
}

void kwork_stop(struct kwork *k)
{
	if (!k->attached)
		return;
	k->attached = false;
	k->t_stop = now_ns();
	k->skel->bss->window_end = k->t_stop;
	k->skel->bss->stopped = 1;	/* the window ends here, not after the detach */
	if (k->o.view == KWORK_VIEW_TOP)
		top_flush(k);		/* before the detach: see kwork_top_flush */
	kwork_bpf__detach(k->skel);
	bpf_wait_for_programs();
	if (k->rb)
		ring_buffer__consume(k->rb);
}

/* ---- reading ----------------------------------------------------------------- */

/* The class of each program of design_progs(). */
static const uint32_t prog_class[KWORK_NR_PROGS] = {
	KWORK_SCHED, KWORK_IRQ, KWORK_SOFTIRQ, KWORK_WORKQUEUE, KWORK_IRQ, KWORK_SOFTIRQ, KWORK_WORKQUEUE,
	KWORK_SOFTIRQ, KWORK_WORKQUEUE,
};

void kwork_read_counters(struct kwork *k, uint64_t *c)
{
	struct bpf_program *progs[KWORK_NR_PROGS];
	struct bpf_link **links[KWORK_NR_PROGS];

	percpu_counters_read(bpf_map__fd(k->skel->maps.counters), c, KWORK_CNT__MAX);
	/* the calls the kernel skipped (another BPF program running on the CPU) */
	design_progs(k->skel, k->design, progs, links);
	for (int i = 0; i < KWORK_NR_PROGS; i++) {
		struct bpf_prog_info info = { 0 };
		uint32_t len = sizeof(info);
		int fd = bpf_program__fd(progs[i]);
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		uint64_t *m = &c[KWORK_CNT_MISSED_IRQ + prog_class[i]];
		if (info.recursion_misses > *m)
			*m = info.recursion_misses;
	}
}

int kwork_read(struct kwork *k, struct kwork_result *r)
{
	int fd = bpf_map__fd(k->skel->maps.works);
	struct kwork_key key, *prev = NULL;
	size_t cap = 0;
	char buf[256];

	memset(r, 0, sizeof(*r));
	kwork_read_counters(k, r->counters);
	r->span_ns = k->t_stop > k->t_start ? k->t_stop - k->t_start : 0;
	while (bpf_map_get_next_key(fd, prev, &key) == 0) {
		prev = &key;
		struct kwork_entry e = { .key = key };
		if (bpf_map_lookup_elem(fd, &key, &e.v))
			continue;
		uint64_t id = key.id;
		if (k->o.view == KWORK_VIEW_TOP && key.type != KWORK_SCHED)
			e.name = "";	/* keyed by the interrupted task */
		else
			e.name = machine_intern(k->m, name_of(k, key.type, id, buf, sizeof(buf)));
		ARRAY_GROW(r->e, cap, r->n + 1);
		r->e[r->n++] = e;
	}
	return 0;
}

void kwork_result_free(struct kwork_result *r)
{
	if (r->names_own)
		for (size_t i = 0; i < r->n; i++)
			free((char *)r->e[i].name);
	free(r->e);
	memset(r, 0, sizeof(*r));
}

void kwork_close(struct kwork *k)
{
	if (!k)
		return;
	ring_buffer__free(k->rb);
	kwork_bpf__destroy(k->skel);
	if (k->m)
		machine_free(k->m);
	free(k);
}
