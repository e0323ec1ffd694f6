// SPDX-License-Identifier: GPL-2.0-only
/* dropmon: kfree_skb() drops counted by kernel location (the address that
 * freed the packet), optionally for one drop reason given by name:
 *   bpfperf run dropmon.bpf.o --set reason=SKB_DROP_REASON_NO_SOCKET --duration 5 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

/* SKB_NOT_DROPPED_YET (0): every reason */
const volatile enum skb_drop_reason reason = SKB_NOT_DROPPED_YET;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, void *);	/* location */
	__type(value, __u64);	/* drops */
} drops_by_location SEC(".maps");

SEC("tp/skb/kfree_skb")
int dropmon(struct trace_event_raw_kfree_skb *ctx)
{
	if (reason != SKB_NOT_DROPPED_YET && ctx->reason != reason)
		return 0;
	void *loc = ctx->location;
	__u64 one = 1;
	__u64 *n = bpf_map_lookup_elem(&drops_by_location, &loc);

	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&drops_by_location, &loc, &one, BPF_NOEXIST);
	return 0;
}
