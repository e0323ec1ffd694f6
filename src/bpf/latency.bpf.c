// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf latency: a histogram of each function's duration, as perf's
 * `perf ftrace latency -b`, for several functions at once.
 *
 * Entry programs push bpf_ktime_get_ns() on a per-thread, per-function
 * stack (struct lat_stack, LAT_STACK_DEPTH deep); return programs pop it and
 * count the duration in the function's slot: nested and recursive calls are
 * each measured, where perf keeps one timestamp per thread. What cannot be
 * measured is counted per function in lat_slot.lost, never in the histogram.
 *
 * Which program finds the function index where:
 *   fentry/fexit, kprobe/kretprobe  rodata func_idx: a kernel function gets
 *                                   an object of its own (an fentry program
 *                                   binds one target at load), its maps
 *                                   shared with the first object's
 *   uprobe/uretprobe                the BPF cookie of the attachment (one
 *                                   program attached once per function)
 *   raw_tp sys_enter/sys_exit       the syscall number through sc_func
 *   tracepoint begin/end (-e)       function 0
 *
 * Interval mode (-i): user space flips lat_gen[0] and reads the other
 * generation's slots, so that nothing is lost while it reads. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "target_filter.h"
#include "latency_data.h"

char LICENSE[] SEC("license") = "GPL";

const volatile struct lat_cfg cfg = { .unit_ns = 1000, .nr_buckets = LAT_LOG2_BUCKETS };
const volatile __u32 nr_funcs = 1;
const volatile __u32 func_idx;		/* this object's kernel function */
const volatile __u8 by_cpu;		/* -C: only entries on cpu_ok CPUs */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2 * LAT_MAX_FUNCS);
	__type(key, __u32);
	__type(value, struct lat_slot);
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LAT_MAX_STACKS);
	__type(key, struct lat_stack_key);
	__type(value, struct lat_stack);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} lat_gen SEC(".maps");

/* syscall number -> function index + 1 (0: not measured) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAT_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, __u32);
} sc_func SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAT_MAX_CPUS);
	__type(key, __u32);
	__type(value, __u8);
} cpu_ok SEC(".maps");

static __always_inline struct lat_slot *slot_of(__u32 func)
{
	__u32 zero = 0, *g = bpf_map_lookup_elem(&lat_gen, &zero);
	__u32 key = ((g ? *g : 0) & 1) * LAT_MAX_FUNCS + func;

	if (func >= LAT_MAX_FUNCS)
		return NULL;
	return bpf_map_lookup_elem(&slots, &key);
}

static __always_inline void lost(__u32 func, __u32 what, __u64 n)
{
	struct lat_slot *s = slot_of(func);

	if (s && what < LAT_LOST_NR)
		s->lost[what] += n;	/* per CPU: no other writer */
}

static __always_inline int on_entry(__u32 func)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct lat_stack_key k = { .tid = (__u32)pid_tgid, .func = func };
	struct lat_stack *st;

	if (!target_match(pid_tgid))
		return 0;
	if (by_cpu) {
		__u32 cpu = bpf_get_smp_processor_id();
		__u8 *ok = bpf_map_lookup_elem(&cpu_ok, &cpu);

		if (!ok || !*ok)
			return 0;
	}
	st = bpf_map_lookup_elem(&stacks, &k);
	if (!st) {
		struct lat_stack z = {};

		bpf_map_update_elem(&stacks, &k, &z, BPF_NOEXIST);
		st = bpf_map_lookup_elem(&stacks, &k);
		if (!st) {
			lost(func, LAT_LOST_NO_SLOT, 1);
			return 0;
		}
	}
	__u32 d = st->depth;
	if (d >= LAT_STACK_DEPTH) {
		st->depth = d + 1;
		lost(func, LAT_LOST_DEPTH, 1);
		return 0;
	}
	st->depth = d + 1;
	/* last, so that the bookkeeping is not part of the duration */
	st->ts[d & (LAT_STACK_DEPTH - 1)] = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int on_return(__u32 func)
{
	__u64 now = bpf_ktime_get_ns();
	struct lat_stack_key k = { .tid = (__u32)bpf_get_current_pid_tgid(), .func = func };
	struct lat_stack *st = bpf_map_lookup_elem(&stacks, &k);

	if (!st || !st->depth) {
		/* a thread we do not measure has no stack: only count the
		 * returns of threads we do */
		if (st || target_match(bpf_get_current_pid_tgid()))
			lost(func, LAT_LOST_NO_ENTRY, 1);
		return 0;
	}
	__u32 d = st->depth - 1;
	st->depth = d;
	if (d >= LAT_STACK_DEPTH)
		return 0;	/* its entry was counted in LAT_LOST_DEPTH */
	__u64 dur = now - st->ts[d & (LAT_STACK_DEPTH - 1)];
	struct lat_slot *s = slot_of(func);
	if (!s)
		return 0;
	__u32 b = lat_bucket(dur, cfg.unit_ns, cfg.range, cfg.min, cfg.max, cfg.nr_buckets);
	if (b < LAT_MAX_BUCKETS)
		s->buckets[b]++;
	if (!s->c.count)
		s->c.min = ~0ULL;	/* slots start zeroed: COUNTS_EMPTY */
	counts_add(&s->c, dur);
	return 0;
}

/* ---- kernel functions: one object per function (func_idx) ---- */

SEC("fentry")
int BPF_PROG(lat_fentry)
{
	return on_entry(func_idx);
}

SEC("fexit")
int BPF_PROG(lat_fexit)
{
	return on_return(func_idx);
}

SEC("kprobe")
int BPF_KPROBE(lat_kprobe)
{
	return on_entry(func_idx);
}

SEC("kretprobe")
int BPF_KRETPROBE(lat_kretprobe)
{
	return on_return(func_idx);
}

/* ---- user functions: the cookie is the function index ---- */

SEC("uprobe")
int BPF_KPROBE(lat_uprobe)
{
	return on_entry((__u32)bpf_get_attach_cookie(ctx));
}

SEC("uretprobe")
int BPF_KRETPROBE(lat_uretprobe)
{
	return on_return((__u32)bpf_get_attach_cookie(ctx));
}

/* ---- syscall:NAME ---- */

static __always_inline __u32 sc_lookup(long nr)
{
	__u32 key = (__u32)nr, *f;

	if (nr < 0 || nr >= LAT_MAX_SYSCALLS)
		return 0;
	f = bpf_map_lookup_elem(&sc_func, &key);
	return f ? *f : 0;
}

SEC("raw_tp/sys_enter")
int lat_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 f = sc_lookup((long)ctx->args[1]);

	return f ? on_entry(f - 1) : 0;
}

SEC("raw_tp/sys_exit")
int lat_sys_exit(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	long nr = -1;

	bpf_probe_read_kernel(&nr, sizeof(nr), &regs->orig_ax);
	__u32 f = sc_lookup(nr);
	return f ? on_return(f - 1) : 0;
}

/* ---- -e BEGIN,END: two tracepoints, function 0 ---- */

SEC("tracepoint")
int lat_tp_begin(void *ctx)
{
	return on_entry(0);
}

SEC("tracepoint")
int lat_tp_end(void *ctx)
{
	return on_return(0);
}

/* ---- threads that exit with calls in flight ---- */

SEC("raw_tp/sched_process_exit")
int lat_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	for (__u32 i = 0; i < LAT_MAX_FUNCS; i++) {
		if (i >= nr_funcs)
			break;
		struct lat_stack_key k = { .tid = tid, .func = i };
		struct lat_stack *st = bpf_map_lookup_elem(&stacks, &k);

		if (!st)
			continue;
		__u32 d = st->depth;
		if (d > LAT_STACK_DEPTH)
			d = LAT_STACK_DEPTH;	/* the rest: LAT_LOST_DEPTH */
		if (d)
			lost(i, LAT_LOST_EXITED, d);
		bpf_map_delete_elem(&stacks, &k);
	}
	return 0;
}

TARGET_FOLLOW_PROGRAMS(lat)
