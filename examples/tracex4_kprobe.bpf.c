// SPDX-License-Identifier: GPL-2.0-only
/* tracex4, kprobe variant (as in the seed): write sizes from a kprobe on
 * ksys_write. Needs CONFIG_KPROBES; on kernels without kprobes `bpfperf run`
 * names the missing feature, and --skip-unsupported runs the other objects
 * (e.g. tracex4.bpf.o, the tracepoint variant) alone. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} kprobe_write_hist SEC(".maps");

SEC("kprobe/ksys_write")
int BPF_KPROBE(ksys_write_entry, unsigned int fd, const char *buf, size_t count)
{
	__u32 slot = 0;

	for (__u64 v = count; v > 1 && slot < 63; v >>= 1)
		slot++;
	__u64 *n = bpf_map_lookup_elem(&kprobe_write_hist, &slot);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}
