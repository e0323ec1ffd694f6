// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf trace: syscall events and in-kernel summaries.
 *
 * raw_tp/sys_enter: filter by target (target_filter.h: -p, -a minus exclusions,
 * the armed `-- CMD`) and by
 * syscall number, store the entry time and arguments in the thread's inflight
 * slot and copy pointer arguments (paths, sockaddr, small structs) into one
 * TRACE_REC_AUG ring buffer record, so the output does not race the process.
 * raw_tp/sys_exit: duration and return value; update the per-thread summary
 * (calls, errors, total, min, max, sum of squares, per-errno counts) and emit
 * one TRACE_REC_SYSCALL record. Ring buffer reservation failures are counted.
 * raw_tp/sched_process_fork adds children of traced processes (-- CMD).
 *
 * Two designs, chosen by user space at load time:
 * - fast (ts_* programs; kernels with BPF task storage and tp_btf): per-CPU
 *   state for the common case where a thread is not switched out during its
 *   call (no map lookup but per-CPU arrays, which the verifier inlines), task
 *   storage for the rest, and per-CPU caches of the summary counters. See
 *   trace_data.h (struct trace_cpu) for the invariants.
 * - hash maps (trace_* programs, the fallback): inflight keyed by tid, the
 *   summary map updated at every call. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "target_filter.h"
#include "trace_data.h"

char LICENSE[] SEC("license") = "GPL";

#define NR_EXECVE 59
#define NR_EXECVEAT 322

/* Set by user space between open and load. */
const volatile bool want_events = false;
const volatile bool want_summary = false;
const volatile bool want_errnos = false;
const volatile bool only_failures = false;
const volatile __u64 min_duration_ns = 0;
const volatile __u64 wakeup_bytes = 0;		/* wake the reader above this backlog */
const volatile struct trace_syscall_desc descs[TRACE_MAX_SYSCALLS];

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);		/* tid */
	__type(value, struct trace_inflight);
} inflight SEC(".maps");

/* Fast design (not created on the fallback): per traced thread, per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct trace_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct trace_cpu);
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TRACE_CACHE_ENTRIES);
	__type(key, __u32);
	__type(value, struct trace_cache_slot);
} cache SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct trace_sum_key);
	__type(value, struct trace_sum_val);
} summary SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct trace_errno_key);
	__type(value, __u64);
} errnos SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TRACE_CNT__MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct aug_scratch {
	struct trace_aug_hdr hdr;
	__u8 data[TRACE_AUG_DATA];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct aug_scratch);
} scratch SEC(".maps");

static __always_inline void count(__u32 which)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &which);
	if (c)
		(*c)++;
}

static __always_inline __u64 rb_flags(void)
{
	if (!wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes ?
		BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline bool is_error(__s64 ret)
{
	return ret < 0 && ret >= -4095;
}

static __always_inline void count_n(__u32 which, __u64 n)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &which);
	if (c)
		*c += n;
}

static __always_inline void count_errno(__u32 tid, __u32 nr, __s64 ret)
{
	struct trace_errno_key ek = { .tid = tid, .nr = nr, .err = (__u32)-ret };
	__u64 *c = bpf_map_lookup_elem(&errnos, &ek);
	if (c) {
		(*c)++;
	} else {
		__u64 one = 1;
		if (bpf_map_update_elem(&errnos, &ek, &one, BPF_NOEXIST))
			count(TRACE_CNT_SUM_FULL);
	}
}

static __always_inline void update_summary(__u32 tid, __u32 tgid, __u32 nr, __s64 ret, __u64 dur)
{
	struct trace_sum_key key = { .tid = tid, .nr = nr };
	struct trace_sum_val *v = bpf_map_lookup_elem(&summary, &key);

	if (!v) {
		struct trace_sum_val z = { .c = TRACE_COUNTS_EMPTY_INIT, .pid = tgid };
		bpf_get_current_comm(z.comm, sizeof(z.comm));
		bpf_map_update_elem(&summary, &key, &z, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&summary, &key);
		if (!v) {
			count(TRACE_CNT_SUM_FULL);
			return;
		}
	}
	/* Only this thread writes its keys: no atomics needed. */
	bool err = is_error(ret);
	trace_counts_add(&v->c, dur, err);
	if (err && want_errnos)
		count_errno(tid, nr, ret);
}

static __always_inline void emit_event(__u32 tid, __u32 tgid, __u32 nr, __u16 flags, __u64 ts,
				       __u64 dur, __s64 ret, const __u64 *args)
{
	struct trace_sc_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count(TRACE_CNT_LOST_EVENTS);
		return;
	}
	e->type = TRACE_REC_SYSCALL;
	e->flags = flags;
	e->nr = nr;
	e->pid = tgid;
	e->tid = tid;
	e->ts = ts;
	e->duration = dur;
	e->ret = ret;
	for (int i = 0; i < TRACE_MAX_ARGS; i++)
		e->args[i] = args[i];
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, rb_flags());
}

/* Copy the pointer arguments of this call into one TRACE_REC_AUG record.
 * Returns -1 if the record was lost, else the number of copies that faulted
 * (the page was not resident: BPF cannot fault it in). */
static __always_inline int emit_aug(const volatile struct trace_syscall_desc *d, const __u64 *args,
				     __u32 tid, __u32 nr)
{
	__u32 zero = 0;
	struct aug_scratch *s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return -1;
	__u32 off = 0;
	__u16 n = 0;
	int faults = 0;

#pragma unroll
	for (int i = 0; i < TRACE_MAX_ARGS; i++) {
		__u8 kind = d->copy[i];
		if (kind == TRACE_COPY_NONE || n >= TRACE_MAX_COPIES)
			continue;
		off &= TRACE_AUG_MASK;
		struct trace_aug_item *it = (void *)(s->data + off);
		void *dst = s->data + off + sizeof(*it);
		const void *p = (const void *)args[i];
		long len = -1;

		if (kind == TRACE_COPY_STR) {
			len = bpf_probe_read_user_str(dst, TRACE_STR_MAX, p);
		} else {
			__u64 sz = 0;
			if (kind == TRACE_COPY_SOCKADDR) {
				if (i + 1 < TRACE_MAX_ARGS)
					sz = (__u32)args[i + 1];
				if (sz > TRACE_SOCKADDR_MAX)
					sz = TRACE_SOCKADDR_MAX;
			} else {
				sz = d->fixed_size[i];
				if (sz > TRACE_FIXED_MAX)
					sz = TRACE_FIXED_MAX;
			}
			len = bpf_probe_read_user(dst, sz, p) ? -1 : (long)sz;
		}
		it->arg = i;
		it->kind = kind;
		it->pad = 0;
		if (len < 0) {
			faults++;
			it->flags = TRACE_AUG_FAULT;
			it->len = 0;
			len = 0;
		} else {
			it->flags = 0;
			it->len = len;
		}
		off += sizeof(*it) + (((__u32)len + 7) & ~7U);
		n++;
	}
	off &= TRACE_AUG_MASK;
	s->hdr.type = TRACE_REC_AUG;
	s->hdr.ncopies = n;
	s->hdr.tid = tid;
	s->hdr.nr = nr;
	s->hdr.size = off;
	if (bpf_ringbuf_output(&events, s, sizeof(s->hdr) + off, rb_flags())) {
		count(TRACE_CNT_LOST_AUG);
		return -1;
	}
	return faults;
}

/* Targets (target_filter.h), and the child of `-- CMD`, traced from its
 * execve on like strace's. */
static __always_inline bool traced_tgid(__u64 pid_tgid, long id)
{
	if (target_match(pid_tgid))
		return true;
	if (id != NR_EXECVE && id != NR_EXECVEAT)
		return false;
	return target_start(pid_tgid >> 32);
}

static __always_inline void read_args(struct pt_regs *regs, __u64 *args)
{
	struct pt_regs r;
	if (bpf_probe_read_kernel(&r, sizeof(r), regs)) {
		for (int i = 0; i < TRACE_MAX_ARGS; i++)
			args[i] = 0;
		return;
	}
	args[0] = r.di;
	args[1] = r.si;
	args[2] = r.dx;
	args[3] = r.r10;
	args[4] = r.r8;
	args[5] = r.r9;
}

SEC("raw_tp/sys_enter")
int trace_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	long id = (long)ctx->args[1];
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32, tid = (__u32)pid_tgid;

	if (id < 0 || id >= TRACE_MAX_SYSCALLS)
		return 0;
	if (!traced_tgid(pid_tgid, id))
		return 0;
	const volatile struct trace_syscall_desc *d = &descs[id];
	if (!d->enabled)
		return 0;

	if (d->noreturn) {
		/* exit_group never reaches sys_exit: account it now. */
		__u64 args[TRACE_MAX_ARGS] = {};
		__u64 now = bpf_ktime_get_ns();
		if (want_summary)
			update_summary(tid, tgid, id, 0, 0);
		if (want_events && !only_failures && !min_duration_ns) {
			read_args((struct pt_regs *)ctx->args[0], args);
			emit_event(tid, tgid, id, TRACE_EV_NORETURN, now, 0, 0, args);
		}
		return 0;
	}

	struct trace_inflight *in = bpf_map_lookup_elem(&inflight, &tid);
	if (!in) {
		struct trace_inflight z = {};
		bpf_map_update_elem(&inflight, &tid, &z, BPF_NOEXIST);
		in = bpf_map_lookup_elem(&inflight, &tid);
		if (!in) {
			count(TRACE_CNT_INFLIGHT_FULL);
			return 0;
		}
	}
	in->nr = id;
	in->flags = 0;
	if (want_events) {
		read_args((struct pt_regs *)ctx->args[0], in->args);
		if (d->ncopies) {
			int f = emit_aug(d, in->args, tid, id);
			if (f >= 0)
				in->flags = TRACE_EV_AUG;
			if (f > 0)
				in->flags |= TRACE_EV_REFETCH;
		}
	}
	/* Last, so that copying the arguments is not part of the duration. */
	in->ts = bpf_ktime_get_ns();
	return 0;
}

/* The end of a call, for both designs: its event, if one is wanted. */
static __always_inline int exit_event(struct trace_inflight *in, __u32 tid, __u32 tgid, __u32 nr,
				      __u64 ts, __u64 dur, __s64 ret)
{
	if (!want_events)
		return 0;
	if (only_failures && !is_error(ret))
		return 0;
	if (dur < min_duration_ns)
		return 0;
	__u16 flags = in->flags & TRACE_EV_AUG;
	if ((in->flags & TRACE_EV_REFETCH) && nr < TRACE_MAX_SYSCALLS) {
		/* A copy faulted at entry; the call itself has read the memory
		 * by now, so it is resident: copy again (a later record of the
		 * same tid replaces the first in user space). */
		if (emit_aug(&descs[nr], in->args, tid, nr) >= 0)
			flags = TRACE_EV_AUG;
	}
	emit_event(tid, tgid, nr, flags, ts, dur, ret, in->args);
	return 0;
}

SEC("raw_tp/sys_exit")
int trace_sys_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pid_tgid;
	struct trace_inflight *in = bpf_map_lookup_elem(&inflight, &tid);

	if (!in || !in->ts)
		return 0;
	__u64 ts = in->ts;
	__u64 dur = bpf_ktime_get_ns() - ts;
	__u32 nr = in->nr;
	__s64 ret = (__s64)ctx->args[1];
	in->ts = 0;
	if (want_summary)
		update_summary(tid, pid_tgid >> 32, nr, ret, dur);
	return exit_event(in, tid, pid_tgid >> 32, nr, ts, dur, ret);
}

/* `-- CMD` follows forks: children of a traced process are traced. */
SEC("raw_tp/sched_process_fork")
int BPF_PROG(trace_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 ctgid = BPF_CORE_READ(child, tgid);

	target_follow_fork(ptgid, ctgid);
	return 0;
}

/* Free the thread's inflight slot when it exits. */
SEC("raw_tp/sched_process_exit")
int trace_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	bpf_map_delete_elem(&inflight, &tid);
	return 0;
}

/* ---- fast design ---------------------------------------------------------- */

/* Add an evicted cache slot into the summary map. Slots of one thread are
 * only written on the CPU it runs on, with preemption disabled, and one
 * (tid, nr) lives in at most one slot per CPU: no atomics needed. */
static __always_inline void flush_slot(struct trace_cache_slot *s)
{
	struct trace_sum_key k = { .tid = s->tid, .nr = s->key - 1 };
	struct trace_sum_val *v = bpf_map_lookup_elem(&summary, &k);
	if (v) {
		trace_counts_merge(&v->c, &s->c);
	} else {
		struct trace_sum_val z = { .c = s->c, .pid = s->pid };
		__builtin_memcpy(z.comm, s->comm, TRACE_COMM_LEN);
		if (bpf_map_update_elem(&summary, &k, &z, BPF_NOEXIST))
			count_n(TRACE_CNT_SUM_FULL, s->c.calls);
	}
}

/* Count one call in this CPU's cache; on a collision the previous owner's
 * counters go to the summary map first. */
static __always_inline void ts_account(__u32 tid, __u32 tgid, __u32 nr, __s64 ret, __u64 dur)
{
	__u32 idx = ((tid & (TRACE_CACHE_LANES - 1)) * TRACE_CACHE_SLOTS) |
		    (descs[nr & (TRACE_MAX_SYSCALLS - 1)].slot & (TRACE_CACHE_SLOTS - 1));
	struct trace_cache_slot *s = bpf_map_lookup_elem(&cache, &idx);
	bool err = is_error(ret);

	if (!s)
		return;
	if (s->key != nr + 1 || s->tid != tid) {
		/* Claim the slot, then count the call as on a hit. */
		if (s->key)
			flush_slot(s);
		s->tid = tid;
		s->key = nr + 1;
		s->pid = tgid;
		s->c = TRACE_COUNTS_EMPTY;
		bpf_get_current_comm(s->comm, sizeof(s->comm));
	}
	trace_counts_add(&s->c, dur, err);
	if (err && want_errnos)
		count_errno(tid, nr, ret);
}

/* First syscall of the running thread since it was switched in, or an
 * execve (which arms `-- CMD` and may change the tid): decide, and cache the
 * verdict in pc. Task storage exists only for traced threads: once traced,
 * always traced. */
static __noinline bool ts_decide(struct trace_cpu *pc, long id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32;
	bool traced = bpf_task_storage_get(&tasks, task, NULL, 0) != NULL;

	if (!traced && traced_tgid(pid_tgid, id)) {
		traced = bpf_task_storage_get(&tasks, task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE) != NULL;
		if (!traced)
			count(TRACE_CNT_INFLIGHT_FULL);
	}
	pc->valid = 1;
	pc->tid = (__u32)pid_tgid;
	pc->tgid = tgid;
	pc->traced = traced;
	return traced;
}

SEC("raw_tp/sys_enter")
int ts_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	long id = (long)ctx->args[1];
	__u32 zero = 0;
	struct trace_cpu *pc = bpf_map_lookup_elem(&cpus, &zero);

	if (!pc || id < 0 || id >= TRACE_MAX_SYSCALLS)
		return 0;
	if (!pc->valid || id == NR_EXECVE || id == NR_EXECVEAT) {
		if (!ts_decide(pc, id))
			return 0;
	} else if (!pc->traced) {
		return 0;
	}
	const volatile struct trace_syscall_desc *d = &descs[id];
	if (!d->enabled)
		return 0;

	if (d->noreturn) {
		/* exit_group never reaches sys_exit: account it now. */
		if (want_summary)
			ts_account(pc->tid, pc->tgid, id, 0, 0);
		if (want_events && !only_failures && !min_duration_ns) {
			__u64 args[TRACE_MAX_ARGS] = {};
			__u64 now = bpf_ktime_get_ns();
			read_args((struct pt_regs *)ctx->args[0], args);
			emit_event(pc->tid, pc->tgid, id, TRACE_EV_NORETURN, now, 0, 0, args);
		}
		return 0;
	}
	pc->in.nr = id;
	if (want_events) {
		pc->in.flags = 0;
		read_args((struct pt_regs *)ctx->args[0], pc->in.args);
		if (d->ncopies) {
			int f = emit_aug(d, pc->in.args, pc->tid, id);
			if (f >= 0)
				pc->in.flags = TRACE_EV_AUG;
			if (f > 0)
				pc->in.flags |= TRACE_EV_REFETCH;
		}
	}
	/* Last, so that copying the arguments is not part of the duration. */
	pc->in.ts = bpf_ktime_get_ns();
	return 0;
}

/* sys_exit: the record is on this CPU unless the thread was switched out
 * during the call (then it is in its task storage). */
static __always_inline int ts_exit_common(struct bpf_raw_tracepoint_args *ctx, struct trace_cpu *pc,
					  struct trace_inflight *in, __u32 tid, __u32 tgid)
{
	__u64 ts = in->ts;
	__u64 dur = bpf_ktime_get_ns() - ts;
	__u32 nr = in->nr;
	__s64 ret = (__s64)ctx->args[1];
	in->ts = 0;
	if (want_summary)
		ts_account(tid, tgid, nr, ret, dur);
	if (nr == NR_EXECVE || nr == NR_EXECVEAT)
		pc->valid = 0;	/* a thread's exec may have changed its tid */
	return exit_event(in, tid, tgid, nr, ts, dur, ret);
}

static __noinline int ts_exit_slow(struct bpf_raw_tracepoint_args *ctx, struct trace_cpu *pc)
{
	struct trace_task *t = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), NULL, 0);
	if (!t || !t->in.ts)
		return 0;
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	return ts_exit_common(ctx, pc, &t->in, (__u32)pid_tgid, pid_tgid >> 32);
}

SEC("raw_tp/sys_exit")
int ts_sys_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;
	struct trace_cpu *pc = bpf_map_lookup_elem(&cpus, &zero);

	if (!pc)
		return 0;
	if (!pc->in.ts)
		return ts_exit_slow(ctx, pc);
	return ts_exit_common(ctx, pc, &pc->in, pc->tid, pc->tgid);
}

/* Another thread runs on this CPU: forget the verdict; a thread switched out
 * in the middle of a traced call takes its in-flight record along (it may
 * return on another CPU, and another thread may enter a call on this one). */
SEC("tp_btf/sched_switch")
int BPF_PROG(ts_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 zero = 0;
	struct trace_cpu *pc = bpf_map_lookup_elem(&cpus, &zero);

	if (!pc)
		return 0;
	pc->valid = 0;
	if (!pc->in.ts)
		return 0;
	struct trace_task *t = bpf_task_storage_get(&tasks, prev, NULL, 0);
	if (t)
		t->in = pc->in;
	else
		count(TRACE_CNT_INFLIGHT_FULL);
	pc->in.ts = 0;
	return 0;
}

/* The cost floor for the benchmark (--bench-floor): empty programs on the
 * same hooks. Not loaded otherwise. */
SEC("raw_tp/sys_enter")
int floor_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	return 0;
}

SEC("raw_tp/sys_exit")
int floor_sys_exit(struct bpf_raw_tracepoint_args *ctx)
{
	return 0;
}
