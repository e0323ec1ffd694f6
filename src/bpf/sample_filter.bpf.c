// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf record --filter: a perf_event program run by the kernel on every
 * sample of the event it is attached to; it evaluates the filter's entries
 * (sample_filter_data.h) and returns 0 to drop the sample. Two designs, one
 * loaded (src/lib/feat/sample_filter.c decides):
 *
 *   sf_kctx   bpf_cast_to_kern_ctx (Linux 6.2+): the sample's own fields in
 *             struct perf_sample_data, prepared by the kernel before the
 *             program runs (every term)
 *   sf_regs   without the kfunc: the context's registers (ip), period and
 *             addr, and helpers for the current task and CPU (tid, pid, uid,
 *             gid, cgroup, cpu); no id, time, weight, phys_addr, data_src
 *
 * The entries are read-only data, so the verifier sees each one's term and
 * prunes the branches the filter does not use. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "sample_filter_data.h"

char LICENSE[] SEC("license") = "GPL";

const volatile struct sample_filter_entry entries[SF_MAX_ENTRIES];
const volatile __u32 nr_entries = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SF_NR_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

extern void *bpf_cast_to_kern_ctx(void *obj) __ksym __weak;

static __always_inline void count(__u32 which)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &which);
	if (c)
		*c += 1;	/* per CPU; perf_event programs do not nest on a CPU */
}

/* A data_src sub-field (enum sf_mem_part) of union perf_mem_data_src's val. */
static __always_inline __u64 mem_part(__u64 v, __u32 part)
{
	switch (part) {
	case SF_MEM_OP: return v & 0x1f;
	case SF_MEM_LVL: return (v >> 33) & 0xf;
	case SF_MEM_SNOOP: return ((v >> 38) & 0x3) << 5 | ((v >> 19) & 0x1f);
	case SF_MEM_REMOTE: return (v >> 37) & 0x1;
	case SF_MEM_LOCK: return (v >> 24) & 0x3;
	case SF_MEM_DTLB: return (v >> 26) & 0x7f;
	case SF_MEM_BLK: return (v >> 40) & 0x7;
	case SF_MEM_HOPS: return (v >> 43) & 0x7;
	default: return v;
	}
}

/* A field the sample does not carry reads as 0, as in perf. */
#define HAS(bit) (flags & (bit))

static __always_inline __u64 kctx_value(struct bpf_perf_event_data_kern *k, __u32 term, __u32 part)
{
	struct perf_sample_data *d = k->data;
	__u64 flags = d->sample_flags;

	switch (term) {
	case SF_TERM_IP: return HAS(PERF_SAMPLE_IP) ? d->ip : 0;
	case SF_TERM_ID: return HAS(PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ? d->id : 0;
	case SF_TERM_TID: return HAS(PERF_SAMPLE_TID) ? d->tid_entry.tid : 0;
	case SF_TERM_PID: return HAS(PERF_SAMPLE_TID) ? d->tid_entry.pid : 0;
	case SF_TERM_CPU: return HAS(PERF_SAMPLE_CPU) ? d->cpu_entry.cpu : 0;
	case SF_TERM_TIME: return HAS(PERF_SAMPLE_TIME) ? d->time : 0;
	case SF_TERM_ADDR: return HAS(PERF_SAMPLE_ADDR) ? d->addr : 0;
	case SF_TERM_PERIOD: return HAS(PERF_SAMPLE_PERIOD) ? d->period : 0;
	case SF_TERM_WEIGHT: return HAS(PERF_SAMPLE_WEIGHT) ? d->weight.full : 0;
	case SF_TERM_PHYS_ADDR: return HAS(PERF_SAMPLE_PHYS_ADDR) ? d->phys_addr : 0;
	case SF_TERM_DATA_SRC: return HAS(PERF_SAMPLE_DATA_SRC) ? mem_part(d->data_src.val, part) : 0;
	case SF_TERM_CGROUP: return bpf_get_current_cgroup_id();
	case SF_TERM_UID: return (__u32)bpf_get_current_uid_gid();
	case SF_TERM_GID: return bpf_get_current_uid_gid() >> 32;
	default: return 0;
	}
}

static __always_inline __u64 regs_value(struct bpf_perf_event_data *ctx, __u32 term)
{
	switch (term) {
	case SF_TERM_IP: return PT_REGS_IP(&ctx->regs);
	case SF_TERM_TID: return (__u32)bpf_get_current_pid_tgid();
	case SF_TERM_PID: return bpf_get_current_pid_tgid() >> 32;
	case SF_TERM_CPU: return bpf_get_smp_processor_id();
	case SF_TERM_ADDR: return ctx->addr;
	case SF_TERM_PERIOD: return ctx->sample_period;
	case SF_TERM_CGROUP: return bpf_get_current_cgroup_id();
	case SF_TERM_UID: return (__u32)bpf_get_current_uid_gid();
	case SF_TERM_GID: return bpf_get_current_uid_gid() >> 32;
	default: return 0;	/* refused by user space before loading */
	}
}

static __always_inline int filter(struct bpf_perf_event_data *ctx, struct bpf_perf_event_data_kern *k)
{
	struct sf_state s = { 0 };

	for (__u32 i = 0; i < SF_MAX_ENTRIES; i++) {
		if (i >= nr_entries)
			break;
		__u32 op = entries[i].op, term = entries[i].term;
		if (sf_skip(&s, op))
			continue;
		__u64 v = 0;
		if (op < SF_OP_GROUP_BEGIN)
			v = k ? kctx_value(k, term, entries[i].part) : regs_value(ctx, term);
		if (sf_step(&s, op, v, entries[i].value) < 0) {
			count(SF_CNT_DROPPED);
			return 0;
		}
	}
	count(SF_CNT_KEPT);
	return 1;
}

SEC("perf_event")
int sf_kctx(struct bpf_perf_event_data *ctx)
{
	struct bpf_perf_event_data_kern *k = bpf_cast_to_kern_ctx(ctx);
	return filter(ctx, k);
}

SEC("perf_event")
int sf_regs(struct bpf_perf_event_data *ctx)
{
	return filter(ctx, NULL);
}
