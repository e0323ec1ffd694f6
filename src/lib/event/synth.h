/* SPDX-License-Identifier: GPL-2.0-only */
/* Records synthesized at the start of a recording, as perf does: the kernel
 * map, existing processes' comm and executable maps, and BPF programs already
 * loaded (KSYMBOL per subprogram + BPF_EVENT). BPF program info and BTF are
 * captured for the HEADER_BPF_PROG_INFO / HEADER_BPF_BTF features. */
#ifndef BPFPERF_EVENT_SYNTH_H
#define BPFPERF_EVENT_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perfdata/bpf_info.h"

struct synth {
	/* Output: a complete record (header + body + sample_id trailer). */
	int (*emit)(void *ctx, const void *rec, size_t len);
	void *ctx;
	uint64_t sample_type;	/* of the event the records are attributed to */
	uint64_t id;		/* its sample id (for IDENTIFIER/ID) */
	/* Captured BPF info (owned; freed by synth_free). */
	struct pd_bpf_prog **progs;
	size_t nprogs, progs_cap;
	struct pd_btf_blob *btfs;
	size_t nbtfs, btfs_cap;
	uint64_t progs_missed;	/* programs gone before their info was read */
};

void synth_free(struct synth *s);

int synth_kernel_mmap(struct synth *s);
/* COMM for each thread and MMAP2 for each executable map of pid. Returns
 * -ESRCH if the process is gone. */
int synth_process(struct synth *s, pid_t pid);
int synth_all_processes(struct synth *s, pid_t skip_pid);
/* Every loaded BPF program: records + saved info. */
int synth_bpf_programs(struct synth *s);
/* Capture info + BTF of one program (e.g. on a BPF_EVENT PROG_LOAD seen while
 * recording); emit_records also writes its KSYMBOL/BPF_EVENT records.
 * Already-captured ids are skipped. */
int synth_bpf_program(struct synth *s, uint32_t prog_id, bool emit_records);

#endif
