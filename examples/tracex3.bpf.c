// SPDX-License-Identifier: GPL-2.0-only
/* tracex3: block I/O latency from block_rq_issue to block_rq_complete, as a
 * log2 histogram in microseconds (`lat_usecs`, an array of slots) and per
 * device (`dev_lat`, a struct with slots[]). With --interval --heatmap the
 * histogram prints as a heat map over time, like the seed's sample.
 *   bpfperf run tracex3.bpf.o -I 1 --heatmap --duration 10 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_dev = 0;	/* kernel dev_t (major << 20 | minor); 0: all */

#define SLOTS 32

struct start_key {
	__u32 dev;
	__u32 pad;
	__u64 sector;
};

struct hist {
	__u64 count;
	__u64 total_usecs;
	__u32 slots[SLOTS];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct start_key);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} lat_usecs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct hist);
} dev_lat SEC(".maps");

static __always_inline __u32 log2l(__u64 v)
{
	__u32 r = 0;

	while (v > 1 && r < SLOTS - 1) {
		v >>= 1;
		r++;
	}
	return r;
}

SEC("tp/block/block_rq_issue")
int rq_issue(struct trace_event_raw_block_rq *ctx)
{
	struct start_key k = { .dev = ctx->dev, .sector = ctx->sector };
	__u64 ts = bpf_ktime_get_ns();

	if (target_dev && ctx->dev != target_dev)
		return 0;
	bpf_map_update_elem(&start, &k, &ts, BPF_ANY);
	return 0;
}

SEC("tp/block/block_rq_complete")
int rq_complete(struct trace_event_raw_block_rq_completion *ctx)
{
	struct start_key k = { .dev = ctx->dev, .sector = ctx->sector };
	__u64 *tsp = bpf_map_lookup_elem(&start, &k);

	if (!tsp)
		return 0;
	__u64 usecs = (bpf_ktime_get_ns() - *tsp) / 1000;
	bpf_map_delete_elem(&start, &k);

	__u32 slot = log2l(usecs);
	__u64 *c = bpf_map_lookup_elem(&lat_usecs, &slot);
	if (c)
		__sync_fetch_and_add(c, 1);

	__u32 dev = ctx->dev;
	struct hist *h = bpf_map_lookup_elem(&dev_lat, &dev);
	if (!h) {
		struct hist zero = {};
		bpf_map_update_elem(&dev_lat, &dev, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&dev_lat, &dev);
		if (!h)
			return 0;
	}
	__sync_fetch_and_add(&h->count, 1);
	__sync_fetch_and_add(&h->total_usecs, usecs);
	if (slot < SLOTS)
		__sync_fetch_and_add(&h->slots[slot], 1);
	return 0;
}
