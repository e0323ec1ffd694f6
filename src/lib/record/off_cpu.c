// SPDX-License-Identifier: GPL-2.0-only
/* The off-CPU hook: see off_cpu.h. */
#include <linux/types.h>

#include "record/off_cpu.h"
#include "event/event.h"
#include "log.h"
#include "skel/skel.h"
#include "sym/machine.h"
#include "sym/stack_skip.h"
#include "util.h"

#include "target_filter.h"
#include "off_cpu.skel.h"
#include "off_cpu_data.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_ENTRIES 16384
#define DEFAULT_STACKS 16384	/* the stack store: distinct user and kernel stacks */
#define FLUSH_INTERVAL_NS (10ull * 1000000000ull)

struct record_off_cpu {
	struct record_off_cpu_opts o;
	struct off_cpu_bpf *skel;
	int design;
	const char *why;
	struct bpf_link *links[5];
	struct ring_buffer *rb;
	struct recording *rec;	/* during the recording's callbacks */
	int event;		/* offcpu-time's index in the recording */
	uint64_t id;		/* its sample id (the first of its fds) */
	bool have_offset;
	int64_t clock_offset;	/* perf clock - CLOCK_MONOTONIC */
	uint64_t last_flush;	/* CLOCK_MONOTONIC ns */
	struct machine *m;	/* kernel symbols, for stack skipping */
	int err;		/* a write error inside the ring buffer callback */
	struct record_off_cpu_stats st;
};

/* ---- pure helpers ---- */

size_t off_cpu_callchain(const uint64_t *kips, size_t nk, const uint64_t *uips, size_t nu, uint64_t *out,
			 size_t cap)
{
	size_t n = 0;
	if (nk && n < cap) {
		out[n++] = PERF_CONTEXT_KERNEL;
		for (size_t i = 0; i < nk && n < cap; i++)
			out[n++] = kips[i];
	}
	if (nu && n < cap) {
		out[n++] = PERF_CONTEXT_USER;
		for (size_t i = 0; i < nu && n < cap; i++)
			out[n++] = uips[i];
	}
	return n;
}

bool off_cpu_filter_term_ok(uint32_t term)
{
	return term == SF_TERM_NONE || term == SF_TERM_TID || term == SF_TERM_PID || term == SF_TERM_IP ||
	       term == SF_TERM_PERIOD || term == SF_TERM_TIME;
}

bool off_cpu_filter_match(const struct sample_filter_entry *e, size_t n, uint32_t pid, uint32_t tid,
			  uint64_t ip, uint64_t period, uint64_t time)
{
	struct sf_state st = { 0 };
	for (size_t i = 0; i < n; i++) {
		uint64_t v = e[i].term == SF_TERM_TID ? tid : e[i].term == SF_TERM_PID ? pid :
			     e[i].term == SF_TERM_IP ? ip : e[i].term == SF_TERM_PERIOD ? period :
			     e[i].term == SF_TERM_TIME ? time : 0;
		if (sf_skip(&st, e[i].op))
			continue;
		if (sf_step(&st, e[i].op, v, e[i].value) < 0)
			return false;
	}
	return true;
}

/* ---- loading ---- */

static bool btf_usable(void *ctx, const char **why)
{
	const struct record_off_cpu *oc = ctx;
	if (oc->o.min_design > 0) {
		*why = "the tp_btf design turned off (testing)";
		return false;
	}
	return skel_task_storage_usable(why);
}

static const struct skel_design designs[] = {
	/* Task storage needs a trusted task pointer for the task switched
	 * in, which only tp_btf programs get: raw_tp means a hash map. */
	{ "tp_btf sched_switch with task storage", btf_usable },
	{ "raw tracepoint sched_switch with a hash map", NULL },
};

static int load_design(void *ctx, int design)
{
	struct record_off_cpu *oc = ctx;
	const struct record_off_cpu_opts *o = &oc->o;
	struct off_cpu_bpf *k;

	off_cpu_bpf__destroy(oc->skel);
	oc->skel = k = off_cpu_bpf__open();
	if (!k) {
		int err = -errno;
		pr_err("cannot open the off-CPU BPF object: %s", log_strerr(err));
		return err;
	}
	target_cfg_set(&k->rodata->target_cfg, o->system_wide, o->nr_pids || o->workload > 0, o->nr_tids,
		       o->cgroup_fd > 0);
	k->rodata->thresh_ns = o->thresh_ns;
	bool ts = design == 0;
	k->rodata->use_task_storage = ts;
	bpf_map__set_max_entries(k->maps.off_cpu, o->map_entries ? o->map_entries : DEFAULT_ENTRIES);
	bpf_map__set_max_entries(k->maps.stacks, DEFAULT_STACKS);
	bpf_map__set_autocreate(k->maps.tstamp, ts);
	if (!ts)
		bpf_map__set_max_entries(k->maps.tstamp_hash, 65536);
	if (!o->thresh_ns)
		bpf_map__set_max_entries(k->maps.events, (uint32_t)sysconf(_SC_PAGESIZE));
	else
		bpf_map__set_max_entries(k->maps.events, 1u << 20);
	bpf_program__set_autoload(k->progs.off_cpu_switch_btf, design == 0);
	bpf_program__set_autoload(k->progs.off_cpu_switch_raw, design != 0);
	bool follow = !o->system_wide && o->workload > 0;
	bpf_program__set_autoload(k->progs.off_cpu_exec, follow);
	bpf_program__set_autoload(k->progs.off_cpu_fork, follow);
	bpf_program__set_autoload(k->progs.off_cpu_free, !ts);
	return off_cpu_bpf__load(k);
}

/* ---- writing samples ---- */

static uint64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static const char *kernel_sym(void *ctx, uint64_t ip)
{
	struct resolved r;
	machine_resolve(ctx, -1, -1, ip, AS_KERNEL, &r);
	return r.found ? r.sym : NULL;
}

/* A stack from the stack store; kernel stacks lose the tracing machinery.
 * Returns the number of frames in ips. */
static size_t read_stack(struct record_off_cpu *oc, uint64_t id, bool kernel, uint64_t *ips)
{
	size_t n = stack_store_read(bpf_map__fd(oc->skel->maps.stacks), id, ips, OFF_CPU_STACK_MAX);
	if (!kernel || !n)
		return n;
	if (!oc->m)
		oc->m = machine_new(&(struct machine_opts){ .live = true });
	size_t skip = stack_skip(ips, n, kernel_sym, oc->m, STACK_SKIP_SCHED_SWITCH, oc->o.stack_skip);
	memmove(ips, ips + skip, (n - skip) * sizeof(*ips));
	return n - skip;
}

/* One PERF_RECORD_SAMPLE of offcpu-time: IDENTIFIER, IP, TID, TIME, CPU,
 * PERIOD, CALLCHAIN, RAW (the layout of the attr built in configure). */
static int write_sample(struct record_off_cpu *oc, const struct off_cpu_key *k, uint64_t time, uint64_t period,
			uint32_t count)
{
	uint64_t kips[OFF_CPU_STACK_MAX], uips[OFF_CPU_STACK_MAX];
	size_t nk = read_stack(oc, k->kern_stack, true, kips);
	size_t nu = read_stack(oc, k->user_stack, false, uips);
	struct {
		struct perf_event_header h;
		uint64_t id, ip;
		uint32_t pid, tid;
		uint64_t time;
		uint32_t cpu, res;
		uint64_t period;
		uint64_t nr;
		uint64_t chain[2 * OFF_CPU_STACK_MAX + 2];
	} s = { 0 };
	uint64_t ip = nk ? kips[0] : nu ? uips[0] : 0;
	if (oc->o.nr_filter && !off_cpu_filter_match(oc->o.filter, oc->o.nr_filter, k->tgid, k->pid, ip, period, time)) {
		oc->st.filtered++;
		return 0;
	}
	s.nr = off_cpu_callchain(kips, nk, uips, nu, s.chain, sizeof(s.chain) / sizeof(s.chain[0]));
	s.h.type = PERF_RECORD_SAMPLE;
	s.h.misc = nk ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	s.id = oc->id;
	s.ip = ip;
	s.pid = k->tgid;
	s.tid = k->pid;
	s.time = time;
	s.cpu = 0;
	s.period = period;
	/* RAW after the callchain: u32 size, the payload, padding to 8 */
	uint8_t *p = (uint8_t *)&s.chain[s.nr];
	struct off_cpu_raw raw = { .state = k->state, .count = count };
	uint32_t raw_size = sizeof(raw) + 4;
	memcpy(p, &raw_size, 4);
	memcpy(p + 4, &raw, sizeof(raw));
	memset(p + 4 + sizeof(raw), 0, 4);
	size_t len = (size_t)(p + 4 + raw_size - (uint8_t *)&s);
	s.h.size = (uint16_t)len;
	int err = recording_write(oc->rec, &s, len);
	if (!err) {
		oc->st.samples++;
		oc->st.total_ns += period;
	}
	return err;
}

/* A wait above the threshold, with its own time (its end, as perf places
 * a sample when the task runs again). */
static int on_event(void *ctx, void *data, size_t len)
{
	struct record_off_cpu *oc = ctx;
	const struct off_cpu_event *e = data;
	if (len < sizeof(*e) || oc->err)
		return 0;
	uint64_t t = oc->have_offset ? e->end + (uint64_t)oc->clock_offset : OFF_CPU_TIME_END;
	oc->err = write_sample(oc, &e->key, t, e->end - e->start, 1);
	return 0;
}

/* Move the aggregated entries into samples. During the recording each
 * entry is taken out of the map as it is read (a wait that a program adds
 * between the two may be lost; at the end the programs are detached). */
static int flush_map(struct record_off_cpu *oc, bool at_end)
{
	int fd = bpf_map__fd(oc->skel->maps.off_cpu);
	struct off_cpu_key key, next, *prev = NULL;
	struct off_cpu_value v;
	int err = 0;
	while (!err && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (at_end ? bpf_map_lookup_elem(fd, &key, &v) : bpf_map_lookup_and_delete_elem(fd, &key, &v))
			continue;
		uint64_t t = at_end || !oc->have_offset ? OFF_CPU_TIME_END : v.last + (uint64_t)oc->clock_offset;
		err = write_sample(oc, &key, t, v.total, (uint32_t)v.count);
		if (!at_end)
			prev = NULL;	/* the key is gone: start over */
	}
	return err;
}

/* ---- the hook ---- */

static int oc_configure(void *ctx, struct recording *r)
{
	struct record_off_cpu *oc = ctx;
	int chosen = 0, err;
	if (bpf_privileges_check("the off-CPU BPF programs") < 0)
		return -EPERM;
	err = skel_load_designs(designs, (int)ARRAY_SIZE(designs), load_design, oc, "the off-CPU BPF programs",
				&chosen, &oc->why);
	if (err)
		return err;
	oc->design = chosen;
	oc->st.design = designs[chosen].name;
	/* -v names the mechanism chosen, as every feature does */
	if (oc->why)
		pr_info("off-CPU: %s (%s)", designs[chosen].name, oc->why);
	else
		pr_info("off-CPU: %s", designs[chosen].name);
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.size = sizeof(a),
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW,
		.sample_period = 1,
		.sample_id_all = 1,
		.disabled = 1,
	};
	int ev = recording_add_event(r, &a, OFF_CPU_EVENT_NAME, false);
	if (ev < 0)
		return ev;
	oc->event = ev;
	if (perf_clock_offset(&oc->clock_offset) == 0)
		oc->have_offset = true;
	else
		pr_warn("cannot relate BPF time to perf's clock: off-CPU samples get the end of the "
			"recording as their time");
	return 0;
}

/* The events are open: fill the target maps and attach, exec and fork
 * first so the workload is followed from its first instruction. */
static int oc_after_open(void *ctx, struct recording *r)
{
	struct record_off_cpu *oc = ctx;
	struct off_cpu_bpf *k = oc->skel;
	size_t nids;
	const uint64_t *ids = recording_ids(r, (size_t)oc->event, &nids);
	if (!nids) {
		pr_err("the %s event could not be opened on any CPU", OFF_CPU_EVENT_NAME);
		return -ENODEV;
	}
	oc->id = ids[0];
	struct target_maps tm = { .tgids = bpf_map__fd(k->maps.target_tgids),
				  .tids = bpf_map__fd(k->maps.target_tids),
				  .excluded = bpf_map__fd(k->maps.target_excluded) };
	int err = 0;
	uint32_t zero = 0;
	if (oc->o.cgroup_fd > 0 && bpf_map_update_elem(bpf_map__fd(k->maps.target_cgroup), &zero, &oc->o.cgroup_fd, 0)) {
		err = -errno;
		pr_err("cannot give the cgroup to the off-CPU program: %s", log_strerr(err));
		return err;
	}
	if (!oc->o.system_wide)
		err = target_maps_fill(&tm, oc->o.pids, oc->o.nr_pids, oc->o.tids, oc->o.nr_tids,
				       oc->o.workload);
	if (err)
		return err;
	bool follow = !oc->o.system_wide && oc->o.workload > 0;
	struct bpf_program *progs[] = {
		follow ? k->progs.off_cpu_exec : NULL,
		follow ? k->progs.off_cpu_fork : NULL,
		oc->design == 1 ? k->progs.off_cpu_free : NULL,
		oc->design == 0 ? k->progs.off_cpu_switch_btf : k->progs.off_cpu_switch_raw,
	};
	struct bpf_link **links[] = { &oc->links[0], &oc->links[1], &oc->links[2], &oc->links[3] };
	if ((err = skel_attach_ordered(progs, links, 4)) < 0)
		return err;
	if (oc->o.thresh_ns) {
		oc->rb = ring_buffer__new(bpf_map__fd(k->maps.events), on_event, oc, NULL);
		if (!oc->rb) {
			err = -errno;
			pr_err("cannot set up the off-CPU ring buffer: %s", log_strerr(err));
			return err;
		}
	}
	oc->last_flush = mono_ns();
	return 0;
}

/* During the recording: long waits as they come; the aggregates every
 * FLUSH_INTERVAL_NS so that the map stays small. */
static int oc_poll(void *ctx, struct recording *r)
{
	struct record_off_cpu *oc = ctx;
	oc->rec = r;
	if (oc->rb)
		ring_buffer__consume(oc->rb);
	if (oc->err)
		return oc->err;
	uint64_t now = mono_ns();
	if (now - oc->last_flush < FLUSH_INTERVAL_NS)
		return 0;
	oc->last_flush = now;
	return flush_map(oc, false);
}

static int oc_finish(void *ctx, struct recording *r)
{
	struct record_off_cpu *oc = ctx;
	oc->rec = r;
	for (size_t i = 0; i < ARRAY_SIZE(oc->links); i++) {
		bpf_link__destroy(oc->links[i]);
		oc->links[i] = NULL;
	}
	bpf_wait_for_programs();
	if (oc->rb)
		ring_buffer__consume(oc->rb);
	if (oc->err)
		return oc->err;
	int err = flush_map(oc, true);
	uint64_t c[OFF_CPU_CNT__MAX];
	percpu_counters_read(bpf_map__fd(oc->skel->maps.counters), c, OFF_CPU_CNT__MAX);
	oc->st.waits = c[OFF_CPU_CNT_WAITS];
	oc->st.lost = c[OFF_CPU_CNT_MAP_FULL] + c[OFF_CPU_CNT_TASK_FULL];
	oc->st.no_switch_in = c[OFF_CPU_CNT_NO_SWITCH_IN];
	oc->st.no_stack = c[OFF_CPU_CNT_NO_STACK];
	oc->st.no_kstack = c[OFF_CPU_CNT_NO_KSTACK];
	oc->st.stacks_full = c[OFF_CPU_CNT_STACK_FULL];
	oc->st.stacks_clash = c[OFF_CPU_CNT_STACK_CLASH];
	pr_debug("off-CPU: %llu switch-outs of targets, %llu waits, %llu slot full, %llu map full, "
		 "%llu without stacks, %llu without kernel stacks, %llu stacks lost (store full), "
		 "%llu stacks lost (ids taken), %llu long waits aggregated (ring buffer full), "
		 "%llu waits lost (switch-in unseen)",
		 (unsigned long long)c[OFF_CPU_CNT_SWITCH_OUT], (unsigned long long)c[OFF_CPU_CNT_WAITS],
		 (unsigned long long)c[OFF_CPU_CNT_TASK_FULL], (unsigned long long)c[OFF_CPU_CNT_MAP_FULL],
		 (unsigned long long)c[OFF_CPU_CNT_NO_STACK], (unsigned long long)c[OFF_CPU_CNT_NO_KSTACK],
		 (unsigned long long)c[OFF_CPU_CNT_STACK_FULL], (unsigned long long)c[OFF_CPU_CNT_STACK_CLASH],
		 (unsigned long long)c[OFF_CPU_CNT_RINGBUF_FULL], (unsigned long long)c[OFF_CPU_CNT_NO_SWITCH_IN]);
	return err;
}

struct recording_hook record_off_cpu_hook(struct record_off_cpu *oc)
{
	return (struct recording_hook){
		.name = "off-CPU",
		.configure = oc_configure,
		.after_open = oc_after_open,
		.poll = oc_poll,
		.before_finish = oc_finish,
		.ctx = oc,
	};
}

struct record_off_cpu *record_off_cpu_new(const struct record_off_cpu_opts *o)
{
	struct record_off_cpu *oc = xcalloc(1, sizeof(*oc));
	oc->o = *o;
	oc->event = -1;
	return oc;
}

void record_off_cpu_stats(const struct record_off_cpu *oc, struct record_off_cpu_stats *st)
{
	*st = oc->st;
}

void record_off_cpu_free(struct record_off_cpu *oc)
{
	if (!oc)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(oc->links); i++)
		bpf_link__destroy(oc->links[i]);
	ring_buffer__free(oc->rb);
	off_cpu_bpf__destroy(oc->skel);
	machine_free(oc->m);
	free(oc);
}

void record_off_cpu_summary(const struct record_off_cpu *oc, FILE *f)
{
	const struct record_off_cpu_stats *s = &oc->st;
	fprintf(f, "[ bpfperf record: off-CPU: %llu waits, %.3f s blocked, in %llu %s samples ]\n",
		(unsigned long long)s->waits, (double)s->total_ns / 1e9, (unsigned long long)s->samples,
		OFF_CPU_EVENT_NAME);
	if (s->filtered)
		fprintf(f, "[ bpfperf record: the filter dropped %llu samples of %s ]\n",
			(unsigned long long)s->filtered, OFF_CPU_EVENT_NAME);
	if (s->lost)
		fprintf(f, "[ bpfperf record: off-CPU: LOST %llu waits: the BPF maps were full ]\n",
			(unsigned long long)s->lost);
	if (s->no_switch_in)
		fprintf(f, "[ bpfperf record: off-CPU: LOST %llu waits: the kernel ran their task again without a "
			"sched_switch event, so their end is unknown ]\n", (unsigned long long)s->no_switch_in);
	/* a partial stack is a partial result: said, with its cause */
	if (s->stacks_full)
		pr_warn("off-CPU: %llu stacks lost: the stack store (%u distinct stacks) was full; their waits "
			"are counted with the stacks that were taken; record fewer tasks or for less time",
			(unsigned long long)s->stacks_full, (unsigned)DEFAULT_STACKS);
	if (s->stacks_clash)
		pr_warn("off-CPU: %llu stacks lost: %d stacks of one 64-bit hash were already stored; their "
			"waits are counted with the stacks that were taken",
			(unsigned long long)s->stacks_clash, STACK_STORE_PROBES);
	if (s->no_stack)
		pr_warn("off-CPU: %llu waits without a stack, shown with no call chain (%s)",
			(unsigned long long)s->no_stack,
			s->stacks_full || s->stacks_clash ? "see the stacks lost above" : "the unwinder found no frame");
	if (s->no_kstack)
		pr_warn("off-CPU: %llu waits without their kernel stack, shown under their user stack only (%s); "
			"the debug output%s shows the counts",
			(unsigned long long)s->no_kstack,
			s->stacks_full || s->stacks_clash ? "see the stacks lost above" : "the kernel unwinder found no frame",
			log_hint(LOG_HINT_OPT_DEBUG));
}
