// SPDX-License-Identifier: GPL-2.0-only
/* tracex2: kfree_skb drops counted by location and reason, and a log2
 * histogram of write(2) sizes (optionally of one command and one fd).
 *   bpfperf run tracex2.bpf.o --set comm=dd --set fd=1 -- dd if=/dev/zero of=/dev/null bs=512 count=1000 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile char comm[16] = "";	/* "": every command */
const volatile int fd = -1;		/* -1: every fd */

struct drop_key {
	void *location;
	enum skb_drop_reason reason;
	__u16 protocol;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct drop_key);
	__type(value, __u64);
} drops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} write_size_hist SEC(".maps");

SEC("tp/skb/kfree_skb")
int count_drops(struct trace_event_raw_kfree_skb *ctx)
{
	struct drop_key k = {
		.location = ctx->location,
		.reason = ctx->reason,
		.protocol = ctx->protocol,
	};
	__u64 one = 1, *v = bpf_map_lookup_elem(&drops, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&drops, &k, &one, BPF_NOEXIST);
	return 0;
}

static __always_inline __u32 log2l(__u64 v)
{
	__u32 r = 0;

	while (v > 1 && r < 63) {
		v >>= 1;
		r++;
	}
	return r;
}

static __always_inline bool comm_matches(void)
{
	char c[16];

	if (!comm[0])
		return true;
	bpf_get_current_comm(c, sizeof(c));
	for (int i = 0; i < 16; i++) {
		if (c[i] != comm[i])
			return false;
		if (!c[i])
			break;
	}
	return true;
}

SEC("tp/syscalls/sys_enter_write")
int write_sizes(struct trace_event_raw_sys_enter *ctx)
{
	if (fd >= 0 && (int)ctx->args[0] != fd)
		return 0;
	if (!comm_matches())
		return 0;
	__u32 slot = log2l(ctx->args[2]);
	__u64 *v = bpf_map_lookup_elem(&write_size_hist, &slot);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}
