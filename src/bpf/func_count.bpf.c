// SPDX-License-Identifier: GPL-2.0-only
/* Calls and time spent in one function: the test vehicle of the kernel and
 * user function attach helpers (src/lib/skel/kfunc_attach.h,
 * src/lib/sym/uprobe_target.h), driven by tests/helpers/func_count.c.
 *
 * The object holds one entry/exit pair per mechanism; user space loads one:
 * fentry/fexit (BPF trampolines), kprobe/kretprobe (the fallback for kernel
 * functions) or uprobe/uretprobe (user functions). Their sections name no
 * function: the attach target is set at run time. Every pair runs the same
 * two bodies, on_entry() and on_return(), inlined. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "func_count_data.h"

char LICENSE[] SEC("license") = "GPL";

/* thread id -> bpf_ktime_get_ns() at entry */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FUNC_COUNT_MAX_INFLIGHT);
	__type(key, __u32);
	__type(value, __u64);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FUNC_COUNT_NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline void count(__u32 key, __u64 v)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &key);

	if (c)
		*c += v;	/* per CPU: no other writer */
}

static __always_inline int on_entry(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 now = bpf_ktime_get_ns();

	if (bpf_map_update_elem(&inflight, &tid, &now, BPF_ANY))
		count(FUNC_COUNT_MAP_FULL, 1);
	return 0;
}

static __always_inline int on_return(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 *start = bpf_map_lookup_elem(&inflight, &tid);

	if (!start) {
		count(FUNC_COUNT_NO_ENTRY, 1);
		return 0;
	}
	count(FUNC_COUNT_TOTAL_NS, bpf_ktime_get_ns() - *start);
	count(FUNC_COUNT_CALLS, 1);
	bpf_map_delete_elem(&inflight, &tid);
	return 0;
}

SEC("fentry")
int BPF_PROG(fc_fentry)
{
	return on_entry();
}

SEC("fexit")
int BPF_PROG(fc_fexit)
{
	return on_return();
}

SEC("kprobe")
int BPF_KPROBE(fc_kprobe)
{
	return on_entry();
}

SEC("kretprobe")
int BPF_KRETPROBE(fc_kretprobe)
{
	return on_return();
}

SEC("uprobe")
int BPF_KPROBE(fc_uprobe)
{
	return on_entry();
}

SEC("uretprobe")
int BPF_KRETPROBE(fc_uretprobe)
{
	return on_return();
}
