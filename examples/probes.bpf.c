// SPDX-License-Identifier: GPL-2.0-only
/* probes: calls of do_nanosleep() counted once per program type (kprobe,
 * kretprobe, fentry, fexit) and, as a reference, sys_enter_clock_nanosleep
 * tracepoint hits, for the tasks whose comm is target_comm:
 *   bpfperf run probes.bpf.o --set target_comm=sleep -- sleep 0.1
 * On a kernel without kprobes or BPF trampolines `bpfperf run` names what is
 * missing; --skip-unsupported runs the programs the kernel can. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

const volatile char target_comm[16] = "";

__u64 kprobe_calls = 0;
__u64 kretprobe_calls = 0;	/* returns of 0 (the sleep completed) */
__u64 fentry_calls = 0;
__u64 fexit_calls = 0;		/* returns of 0 */
__u64 tracepoint_calls = 0;

static __always_inline bool is_target(void)
{
	char comm[16];

	bpf_get_current_comm(comm, sizeof(comm));
	for (int i = 0; i < 16; i++) {
		if (comm[i] != target_comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

SEC("kprobe/do_nanosleep")
int BPF_KPROBE(nanosleep_kprobe)
{
	if (is_target())
		__sync_fetch_and_add(&kprobe_calls, 1);
	return 0;
}

SEC("kretprobe/do_nanosleep")
int BPF_KRETPROBE(nanosleep_kretprobe, int ret)
{
	if (is_target() && ret == 0)
		__sync_fetch_and_add(&kretprobe_calls, 1);
	return 0;
}

/* do_nanosleep(struct hrtimer_sleeper *t, enum hrtimer_mode mode): the
 * arguments are not read, so no kernel type is needed (the vendored
 * vmlinux.h has few) */
SEC("fentry/do_nanosleep")
int BPF_PROG(nanosleep_fentry)
{
	if (is_target())
		__sync_fetch_and_add(&fentry_calls, 1);
	return 0;
}

/* fexit: ctx[0], ctx[1] are the two arguments, ctx[2] the return value */
SEC("fexit/do_nanosleep")
int nanosleep_fexit(unsigned long long *ctx)
{
	if (is_target() && (int)ctx[2] == 0)
		__sync_fetch_and_add(&fexit_calls, 1);
	return 0;
}

SEC("tp/syscalls/sys_enter_clock_nanosleep")
int nanosleep_tracepoint(void *ctx)
{
	if (is_target())
		__sync_fetch_and_add(&tracepoint_calls, 1);
	return 0;
}
