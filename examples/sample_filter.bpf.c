// SPDX-License-Identifier: GPL-2.0-only
/* A sample filter for `bpfperf record --bpf-object` (the seed's "perf bpf
 * record"): keeps only samples taken while a task whose comm starts with
 * target_comm runs; every other sample is dropped (return 0). Counts both. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile char target_comm[16] = "";

__u64 kept = 0;
__u64 dropped = 0;

SEC("perf_event")
int keep_comm(struct bpf_perf_event_data *ctx)
{
	char comm[16];

	bpf_get_current_comm(comm, sizeof(comm));
	for (int i = 0; i < 16; i++) {
		if (target_comm[i] == 0)
			break;
		if (comm[i] != target_comm[i]) {
			__sync_fetch_and_add(&dropped, 1);
			return 0;
		}
	}
	__sync_fetch_and_add(&kept, 1);
	return 1;
}
