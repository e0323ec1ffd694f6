// SPDX-License-Identifier: GPL-2.0-only
/* tracex4: log2 histogram of write(2) sizes from the syscall tracepoint.
 * The seed used a kprobe on sys_write; tracex4_kprobe.bpf.c is that variant
 * for kernels with kprobes (`bpfperf run` says so when they are missing).
 *   bpfperf run tracex4.bpf.o --set comm=dd -- dd if=/dev/zero of=/dev/null bs=4k count=100 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile char comm[16] = "";	/* "": every command */
const volatile int fd = -1;		/* -1: every fd */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} write_hist SEC(".maps");

__u64 writes = 0;
__u64 bytes = 0;

SEC("tp/syscalls/sys_enter_write")
int write_size(struct trace_event_raw_sys_enter *ctx)
{
	char c[16];

	if (fd >= 0 && (int)ctx->args[0] != fd)
		return 0;
	if (comm[0]) {
		bpf_get_current_comm(c, sizeof(c));
		for (int i = 0; i < 16; i++) {
			if (c[i] != comm[i])
				return 0;
			if (!c[i])
				break;
		}
	}
	__u64 size = ctx->args[2];
	__u32 slot = 0;

	for (__u64 v = size; v > 1 && slot < 63; v >>= 1)
		slot++;
	__u64 *n = bpf_map_lookup_elem(&write_hist, &slot);
	if (n)
		__sync_fetch_and_add(n, 1);
	__sync_fetch_and_add(&writes, 1);
	__sync_fetch_and_add(&bytes, size);
	return 0;
}
