// SPDX-License-Identifier: GPL-2.0-only
/* The demo workload's hot BPF program: on every getppid() of the demo process
 * it runs a bounded mixing loop in a subprogram, so that a profile shows time
 * in bpf_prog_<tag>_demo_hot_bpf and bpf_prog_<tag>_demo_bpf_mix. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid = 0;
const volatile __u32 rounds = 4000;

__u64 demo_result = 0;
__u64 demo_calls = 0;

static __noinline __u64 demo_bpf_mix(__u64 seed)
{
	__u64 acc = seed;
	__u32 n = rounds;

	if (n > 100000)
		n = 100000;
#pragma clang loop unroll(disable)
	for (__u32 i = 0; i < n; i++)
		acc = (acc ^ (acc >> 7)) * 0x9e3779b97f4a7c15ULL + i;
	return acc;
}

SEC("tp/syscalls/sys_enter_getppid")
int demo_hot_bpf(void *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	if (tgid != target_tgid)
		return 0;
	demo_result += demo_bpf_mix(bpf_ktime_get_ns());
	demo_calls++;
	return 0;
}
