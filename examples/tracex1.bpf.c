// SPDX-License-Identifier: GPL-2.0-only
/* tracex1: packets received on one network device (default "lo").
 * Like the seed's sample it walks skb->dev->name from the tracepoint's skb
 * pointer; each matching packet is streamed as a `struct event` record and
 * counted in `packets`.
 *   bpfperf run tracex1.bpf.o --set device=lo -- ping -c 3 127.0.0.1 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile char device[16] = "lo";
const volatile __u32 match_len = 0;	/* 0: every length */

struct event {
	__u64 skbaddr;
	__u32 len;
	char dev[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
	__type(value, struct event);	/* the record type, for bpfperf run */
} events SEC(".maps");

__u64 packets = 0;

SEC("tp/net/netif_receive_skb")
int tracex1(struct trace_event_raw_net_dev_template *ctx)
{
	struct sk_buff *skb = ctx->skbaddr;
	struct net_device *dev = BPF_CORE_READ(skb, dev);
	char name[16] = {};
	__u32 len = BPF_CORE_READ(skb, len);

	bpf_probe_read_kernel_str(name, sizeof(name), &dev->name);
	for (int i = 0; i < 16; i++) {
		if (name[i] != device[i])
			return 0;
		if (!name[i])
			break;
	}
	if (match_len && len != match_len)
		return 0;
	__sync_fetch_and_add(&packets, 1);

	struct event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->skbaddr = (__u64)skb;
	e->len = len;
	__builtin_memcpy(e->dev, name, sizeof(e->dev));
	bpf_ringbuf_submit(e, 0);
	return 0;
}
