// SPDX-License-Identifier: GPL-2.0-only
/* The trace feature's lifecycle: loading (task storage or hash maps),
 * targets, attaching, reading the ring buffer, detaching (see trace.h).
 * The summary maps are read in trace_summary.c. */
#include <linux/types.h>

#include "feat/trace_int.h"
#include "log.h"
#include "skel/skel.h"
#include "syscalls/syscalls.h"
#include "target/target.h"
#include "util.h"

#include "trace.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- pending copied arguments -------------------------------------------- */

static void pending_store(struct trace *tr, uint32_t tid, uint32_t nr, const void *items, size_t len)
{
	bool added;
	struct trace_pending *p = oa_imap_findnew(&tr->pending, tid, sizeof(*p), &added);
	if (added)
		p->tid = tid;
	if (p->cap < len) {
		p->buf = xrealloc(p->buf, len);
		p->cap = len;
	}
	memcpy(p->buf, items, len);
	p->len = len;
	p->nr = nr;
}

static void pending_free_all(struct trace *tr)
{
	for (size_t i = 0; i < tr->pending.n; i++) {
		struct trace_pending *p = tr->pending.v[i].val;
		free(p->buf);
		free(p);
	}
	oa_imap_free(&tr->pending);
}

/* Find the copied pointees of the call in the pending items. */
static void collect_copies(const struct trace_pending *p, struct trace_copy *cp)
{
	size_t off = 0;
	while (p && off + sizeof(struct trace_aug_item) <= p->len) {
		struct trace_aug_item it;
		memcpy(&it, p->buf + off, sizeof(it));
		off += sizeof(it);
		size_t padded = ALIGN_UP((size_t)it.len, 8);
		if (it.len > TRACE_STR_MAX || off + it.len > p->len)
			break;
		if (it.arg < TRACE_MAX_ARGS && !(it.flags & TRACE_AUG_FAULT)) {
			cp[it.arg].data = p->buf + off;
			cp[it.arg].len = it.len;
			cp[it.arg].have = true;
		}
		off += padded;
	}
}

/* A poll hands back after its wait plus this long of records, checking the
 * time every so many records; the callback's return that stops libbpf. */
#define POLL_BUDGET_MS 50
#define POLL_CHECK_EVERY 256
#define POLL_YIELD (-ETIME)

/* The ring buffer callback: copied arguments are kept until their call's
 * record comes; a call goes to on_event with them. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct trace *tr = ctx;
	uint16_t type;

	if (size < sizeof(type))
		return 0;
	memcpy(&type, data, sizeof(type));
	if (type == TRACE_REC_AUG && size >= sizeof(struct trace_aug_hdr)) {
		struct trace_aug_hdr h;
		memcpy(&h, data, sizeof(h));
		size_t len = h.size;
		if (len > size - sizeof(h))
			len = size - sizeof(h);
		pending_store(tr, h.tid, h.nr, (const char *)data + sizeof(h), len);
		return 0;
	}
	if (type != TRACE_REC_SYSCALL || size < sizeof(struct trace_sc_event)) {
		tr->nr_bad_records++;
		return 0;
	}
	const struct trace_sc_event *e = data;
	struct trace_event ev = { .rec = e, .sc = sc_table_get(tr->o.table, (int)e->nr) };
	struct trace_pending *p = NULL;
	if (e->flags & TRACE_EV_AUG) {
		p = oa_imap_get(&tr->pending, e->tid);
		if (p && p->nr == e->nr && p->len)
			collect_copies(p, ev.copies);
	}
	tr->nr_events++;
	tr->o.on_event(tr->o.ctx, &ev);
	if (p)
		p->len = 0;
	/* Records that come faster than they are printed would keep
	 * ring_buffer__poll consuming for ever, and the caller's stop loop
	 * (signals, the duration, a closed output) would never run: hand
	 * back once the poll's time is up (this record is consumed). */
	if (++tr->poll_records % POLL_CHECK_EVERY == 0 && now_ns() > tr->poll_end)
		return POLL_YIELD;
	return 0;
}

/* ---- loading: task storage or hash maps --------------------------------- */

static uint64_t round_pow2_pages(uint64_t v)
{
	uint64_t p = 4096;
	while (p < v)
		p <<= 1;
	return p;
}

static void fill_descs(struct trace_bpf *skel, const struct sc_table *t, const bool *enabled)
{
	for (int nr = 0; nr < TRACE_MAX_SYSCALLS && nr < SC_MAX_NR; nr++) {
		struct trace_syscall_desc *d = &skel->rodata->descs[nr];
		const struct sc_info *sc = sc_table_get(t, nr);
		memset(d, 0, sizeof(*d));
		if (!sc || (enabled && !enabled[nr]))
			continue;
		d->enabled = 1;
		d->noreturn = sc->noreturn;
		for (int i = 0; i < sc->nargs && i < TRACE_MAX_ARGS; i++) {
			switch (sc->args[i].kind) {
			case SC_ARG_STR: d->copy[i] = TRACE_COPY_STR; break;
			case SC_ARG_SOCKADDR: d->copy[i] = TRACE_COPY_SOCKADDR; break;
			case SC_ARG_TIMESPEC:
				d->copy[i] = TRACE_COPY_FIXED;
				d->fixed_size[i] = 16;
				break;
			default: continue;
			}
			if (d->ncopies < TRACE_MAX_COPIES)
				d->ncopies++;
			else
				d->copy[i] = TRACE_COPY_NONE;
		}
	}
}

/* Syscalls most programs make most often get distinct summary cache slots;
 * then the other selected syscalls round-robin. With at most
 * TRACE_CACHE_SLOTS syscalls selected, no slot is ever shared. */
static void assign_slots(struct trace_bpf *skel, const struct sc_table *t)
{
	static const char *const hot[] = {
		"read", "write", "openat", "close", "fstat", "newfstatat", "mmap", "futex",
		"lseek", "ioctl", "epoll_wait", "poll", "ppoll", "recvfrom", "sendto", "pread64",
	};
	bool done[TRACE_MAX_SYSCALLS] = { false };
	unsigned next = 0;

	for (size_t i = 0; i < ARRAY_SIZE(hot); i++) {
		int nr = sc_table_find(t, hot[i]);
		if (nr < 0 || nr >= TRACE_MAX_SYSCALLS || !skel->rodata->descs[nr].enabled)
			continue;
		skel->rodata->descs[nr].slot = next++ % TRACE_CACHE_SLOTS;
		done[nr] = true;
	}
	for (int nr = 0; nr < TRACE_MAX_SYSCALLS; nr++) {
		if (!done[nr] && skel->rodata->descs[nr].enabled)
			skel->rodata->descs[nr].slot = next++ % TRACE_CACHE_SLOTS;
	}
}

/* Can raw_tp programs keep per-thread state in BPF task storage here?
 * (map type and bpf_get_current_task_btf: 5.11+.) What the probes do not
 * cover (tp_btf/sched_switch, the verifier) is checked by loading: if the
 * fast design does not load, the hash-map design is loaded instead. */
static bool task_storage_usable(void *ctx, const char **why)
{
	const struct trace *tr = ctx;
	if (tr->o.bench_floor) {
		*why = "the benchmark floor keeps no state";
		return false;
	}
	if (tr->o.no_task_storage) {
		*why = "task storage turned off (testing)";
		return false;
	}
	return skel_task_storage_usable(why);
}

static const struct skel_design designs[] = {
	{ "task storage", task_storage_usable },
	{ "hash maps", NULL },
};

/* skel_load_designs' loader: open, configure for design (an index of
 * designs[]) and load, replacing a skeleton that failed to load. */
static int load_design(void *ctx, int design)
{
	struct trace *tr = ctx;
	const struct trace_opts *o = &tr->o;
	bool use_ts = design == 0;
	struct trace_bpf *skel;

	trace_bpf__destroy(tr->skel);
	tr->skel = skel = trace_bpf__open();
	if (!skel) {
		int err = -errno;
		pr_err("cannot open the trace BPF object: %s", log_strerr(err));
		return err;
	}
	/* not system wide: -p processes or a workload (trace_start) */
	target_cfg_set(&skel->rodata->target_cfg, o->system_wide, true, false, false);
	skel->rodata->want_events = o->events;
	skel->rodata->want_summary = o->summary;
	skel->rodata->want_errnos = o->errno_summary;
	skel->rodata->only_failures = o->failures_only;
	skel->rodata->min_duration_ns = o->min_duration_ns;
	skel->rodata->wakeup_bytes = o->buffer_size / 16;
	fill_descs(skel, o->table, o->enabled);
	assign_slots(skel, o->table);
	bpf_map__set_max_entries(skel->maps.events, (uint32_t)o->buffer_size);
	uint32_t nthreads = o->system_wide ? 65536 : 16384;
	bpf_map__set_max_entries(skel->maps.inflight, use_ts || o->bench_floor ? 1 : nthreads);
	bpf_map__set_max_entries(skel->maps.summary, o->summary ? nthreads * 4 : 1);
	bpf_map__set_max_entries(skel->maps.errnos, o->errno_summary ? nthreads : 1);
	bpf_map__set_autocreate(skel->maps.tasks, use_ts);
	bpf_map__set_autocreate(skel->maps.cpus, use_ts);
	bpf_map__set_autocreate(skel->maps.cache, use_ts);

	bool hash = !o->bench_floor && !use_ts, ts = !o->bench_floor && use_ts;
	bpf_program__set_autoload(skel->progs.trace_fork, o->follow_workload && !o->bench_floor);
	bpf_program__set_autoload(skel->progs.floor_sys_enter, o->bench_floor);
	bpf_program__set_autoload(skel->progs.floor_sys_exit, o->bench_floor);
	bpf_program__set_autoload(skel->progs.trace_sys_enter, hash);
	bpf_program__set_autoload(skel->progs.trace_sys_exit, hash);
	bpf_program__set_autoload(skel->progs.trace_exit, hash);
	bpf_program__set_autoload(skel->progs.ts_sys_enter, ts);
	bpf_program__set_autoload(skel->progs.ts_sys_exit, ts);
	bpf_program__set_autoload(skel->progs.ts_switch, ts);
	return trace_bpf__load(skel);
}

static void ignore_event(void *ctx, const struct trace_event *ev)
{
	(void)ctx;
	(void)ev;
}

int trace_open(const struct trace_opts *opts, struct trace **out)
{
	struct trace *tr = xcalloc(1, sizeof(*tr));
	int chosen = 1, err;

	*out = NULL;
	tr->o = *opts;
	if (!tr->o.buffer_size)
		tr->o.buffer_size = TRACE_DEFAULT_BUFFER_SIZE;
	tr->o.buffer_size = round_pow2_pages(tr->o.buffer_size);
	tr->o.summary = tr->o.summary || tr->o.errno_summary;
	if (!tr->o.on_event)
		tr->o.on_event = ignore_event;
	err = skel_load_designs(designs, (int)ARRAY_SIZE(designs), load_design, tr,
				"the trace BPF programs", &chosen, &tr->why);
	if (err) {
		trace_close(tr);
		return err;
	}
	tr->design = tr->o.bench_floor ? TRACE_DESIGN_FLOOR
		     : chosen == 0 ? TRACE_DESIGN_TASK_STORAGE : TRACE_DESIGN_HASH_MAPS;
	*out = tr;
	return 0;
}

enum trace_design trace_design(const struct trace *tr, const char **why)
{
	if (why)
		*why = tr->design == TRACE_DESIGN_TASK_STORAGE ? NULL : tr->why;
	return tr->design;
}

uint64_t trace_buffer_size(const struct trace *tr)
{
	return tr->o.buffer_size;
}

uint64_t trace_nr_events(const struct trace *tr)
{
	return tr->nr_events;
}

/* ---- targets, attaching, reading ----------------------------------------- */

/* Attach in an order that loses nothing: sched_switch (which moves a
 * switched-out thread's in-flight record to its task storage), the exit and
 * fork hooks before the syscall hooks, sys_exit before sys_enter. */
static int attach_all(struct trace_bpf *skel)
{
	struct bpf_program *const progs[] = {
		skel->progs.ts_switch, skel->progs.trace_exit, skel->progs.trace_fork,
		skel->progs.ts_sys_exit, skel->progs.trace_sys_exit, skel->progs.floor_sys_exit,
		skel->progs.ts_sys_enter, skel->progs.trace_sys_enter, skel->progs.floor_sys_enter,
	};
	struct bpf_link **const links[] = {
		&skel->links.ts_switch, &skel->links.trace_exit, &skel->links.trace_fork,
		&skel->links.ts_sys_exit, &skel->links.trace_sys_exit, &skel->links.floor_sys_exit,
		&skel->links.ts_sys_enter, &skel->links.trace_sys_enter, &skel->links.floor_sys_enter,
	};
	return skel_attach_ordered(progs, links, (int)ARRAY_SIZE(progs));
}

int trace_start(struct trace *tr, const pid_t *pids, size_t nr_pids, pid_t workload)
{
	struct target_maps tm = { .tgids = bpf_map__fd(tr->skel->maps.target_tgids), .tids = -1,
				  .excluded = bpf_map__fd(tr->skel->maps.target_excluded) };
	int err = target_maps_fill(&tm, pids, nr_pids, NULL, 0, workload);
	if (err)
		return err;
	if (tr->o.system_wide)
		target_maps_exclude_ancestors(&tm);

	tr->rb = ring_buffer__new(bpf_map__fd(tr->skel->maps.events), on_record, tr, NULL);
	if (!tr->rb) {
		err = -errno;
		const char *limit = log_limit_hint(err);
		pr_err("cannot set up the reader of the %llu KiB ring buffer: %s; %s",
		       (unsigned long long)(trace_buffer_size(tr) >> 10), log_strerr(err),
		       limit ? limit : "a smaller ring buffer may fit");
		return err;
	}
	tr->attached = true;
	err = attach_all(tr->skel);
	if (err)
		return err;
	pr_info("tracing started");
	return 0;
}

int trace_poll(struct trace *tr, int timeout_ms)
{
	tr->poll_records = 0;
	tr->poll_end = now_ns() + ((uint64_t)(timeout_ms > 0 ? timeout_ms : 0) + POLL_BUDGET_MS) * 1000000;
	int n = ring_buffer__poll(tr->rb, timeout_ms);
	/* The BPF side wakes us only above a backlog (wakeup_bytes): what is
	 * below it is read when the wait times out, so that a few events are
	 * seen within a poll timeout, not when the buffer fills or at the end. */
	if (n == 0)
		n = ring_buffer__consume(tr->rb);
	if (n == POLL_YIELD)
		n = (int)tr->poll_records;
	if (n < 0 && n != -EINTR)
		pr_err("reading the ring buffer failed: %s", log_strerr(n));
	return n;
}

static void detach_link(struct bpf_link **l)
{
	bpf_link__destroy(*l);
	*l = NULL;
}

/* Syscall hooks off first, then the others; once no program runs any more,
 * the summary map and the per-CPU caches are stable. */
void trace_stop(struct trace *tr)
{
	struct trace_bpf *skel = tr->skel;
	if (!tr->attached)
		return;
	tr->attached = false;
	detach_link(&skel->links.ts_sys_enter);
	detach_link(&skel->links.trace_sys_enter);
	detach_link(&skel->links.floor_sys_enter);
	detach_link(&skel->links.ts_sys_exit);
	detach_link(&skel->links.trace_sys_exit);
	detach_link(&skel->links.floor_sys_exit);
	detach_link(&skel->links.trace_fork);
	trace_bpf__detach(skel);
	bpf_wait_for_programs();
	tr->poll_end = UINT64_MAX;	/* all of it: no more come */
	ring_buffer__consume(tr->rb);
}

void trace_close(struct trace *tr)
{
	if (!tr)
		return;
	ring_buffer__free(tr->rb);
	trace_bpf__destroy(tr->skel);
	pending_free_all(tr);
	free(tr);
}
