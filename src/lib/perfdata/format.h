/* SPDX-License-Identifier: GPL-2.0-only */
/* perf.data on-disk layout (facts from the Linux tree's
 * tools/perf/Documentation/perf.data-file-format.txt and include/uapi/linux/
 * perf_event.h). Native byte order. Record types and perf_event_attr come from
 * <linux/perf_event.h>; this header adds the file-level structures and the
 * user-space record types that only exist in files. */
#ifndef BPFPERF_PERFDATA_FORMAT_H
#define BPFPERF_PERFDATA_FORMAT_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL

/* perf 6.1 reads attrs up to PERF_ATTR_SIZE_VER7 (128); larger ones make it
 * refuse the file, so that is what we write. */
#define PD_ATTR_SIZE		128

struct pd_section {
	uint64_t offset;
	uint64_t size;
};

struct pd_file_header {
	uint64_t magic;
	uint64_t size;			/* sizeof(struct pd_file_header) = 104 */
	uint64_t attr_size;		/* attr size + sizeof(struct pd_section) */
	struct pd_section attrs;
	struct pd_section data;
	struct pd_section event_types;	/* unused, zero */
	uint64_t adds_features[4];	/* bitmap of feature sections after data */
};

/* Pipe-mode header: records follow directly; attrs and features come as
 * PERF_RECORD_HEADER_ATTR / PERF_RECORD_HEADER_FEATURE records. */
struct pd_pipe_header {
	uint64_t magic;
	uint64_t size;			/* 16 */
};

/* One entry of the attrs section: attr (attr_size - 16 bytes) then ids. */

/* Feature bits (HEADER_*). */
enum pd_feature {
	PD_FEAT_TRACING_DATA = 1,
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CPUDESC = 8,
	PD_FEAT_CPUID = 9,
	PD_FEAT_TOTAL_MEM = 10,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_CPU_TOPOLOGY = 13,
	PD_FEAT_NUMA_TOPOLOGY = 14,
	PD_FEAT_BRANCH_STACK = 15,
	PD_FEAT_PMU_MAPPINGS = 16,
	PD_FEAT_GROUP_DESC = 17,
	PD_FEAT_AUXTRACE = 18,
	PD_FEAT_STAT = 19,
	PD_FEAT_CACHE = 20,
	PD_FEAT_SAMPLE_TIME = 21,
	PD_FEAT_MEM_TOPOLOGY = 22,
	PD_FEAT_CLOCKID = 23,
	PD_FEAT_DIR_FORMAT = 24,
	PD_FEAT_BPF_PROG_INFO = 25,
	PD_FEAT_BPF_BTF = 26,
	PD_FEAT_COMPRESSED = 27,
	PD_FEAT_CPU_PMU_CAPS = 28,
	PD_FEAT_CLOCK_DATA = 29,
	PD_FEAT_HYBRID_TOPOLOGY = 30,
	PD_FEAT_PMU_CAPS = 31,
	PD_FEAT_LAST_61 = 32,		/* perf 6.1's HEADER_LAST_FEATURE */
	PD_FEAT_MAX = 256,
};

/* Records synthesized by user space (never produced by the kernel). */
enum pd_user_record {
	PD_RECORD_HEADER_ATTR = 64,
	PD_RECORD_HEADER_EVENT_TYPE = 65,
	PD_RECORD_HEADER_TRACING_DATA = 66,
	PD_RECORD_HEADER_BUILD_ID = 67,
	PD_RECORD_FINISHED_ROUND = 68,
	PD_RECORD_ID_INDEX = 69,
	PD_RECORD_AUXTRACE_INFO = 70,
	PD_RECORD_AUXTRACE = 71,
	PD_RECORD_AUXTRACE_ERROR = 72,
	PD_RECORD_THREAD_MAP = 73,
	PD_RECORD_CPU_MAP = 74,
	PD_RECORD_STAT_CONFIG = 75,
	PD_RECORD_STAT = 76,
	PD_RECORD_STAT_ROUND = 77,
	PD_RECORD_EVENT_UPDATE = 78,
	PD_RECORD_TIME_CONV = 79,
	PD_RECORD_HEADER_FEATURE = 80,
	PD_RECORD_COMPRESSED = 81,
	PD_RECORD_FINISHED_INIT = 82,
};

/* HEADER_BPF_PROG_INFO array indices (perf's PERF_BPIL_*). */
enum pd_bpil_array {
	PD_BPIL_JITED_INSNS = 0,
	PD_BPIL_XLATED_INSNS = 1,
	PD_BPIL_MAP_IDS = 2,
	PD_BPIL_JITED_KSYMS = 3,
	PD_BPIL_JITED_FUNC_LENS = 4,
	PD_BPIL_FUNC_INFO = 5,
	PD_BPIL_LINE_INFO = 6,
	PD_BPIL_JITED_LINE_INFO = 7,
	PD_BPIL_PROG_TAGS = 8,
	PD_BPIL_MAX = 9,
};

/* What perf asks for (0x1F9): everything but xlated insns and map ids. */
#define PD_BPIL_DEFAULT_ARRAYS 0x1F9ULL

/* KSYMBOL and BPF_EVENT bodies (after struct perf_event_header). */
#define PD_KSYMBOL_TYPE_BPF		1
#define PD_KSYMBOL_TYPE_OOL		2
#define PD_KSYMBOL_FLAGS_UNREGISTER	1
#define PD_BPF_EVENT_PROG_LOAD		1
#define PD_BPF_EVENT_PROG_UNLOAD	2

/* Strings in feature sections: u32 len (strlen+1 rounded up to 64) + bytes. */
#define PD_STRING_ALIGN 64

/* LOST_SAMPLES misc bit: samples dropped by a BPF filter (perf's). */
#define PD_RECORD_MISC_LOST_SAMPLES_BPF (1 << 15)

/* Size of the sample_id trailer of non-sample records (sample_id_all) for
 * a sample_type: pid/tid, time, id, stream_id, cpu, identifier. */
static inline size_t pd_sample_id_size(uint64_t sample_type)
{
	size_t n = 0;
	if (sample_type & PERF_SAMPLE_TID) n += 8;
	if (sample_type & PERF_SAMPLE_TIME) n += 8;
	if (sample_type & PERF_SAMPLE_ID) n += 8;
	if (sample_type & PERF_SAMPLE_STREAM_ID) n += 8;
	if (sample_type & PERF_SAMPLE_CPU) n += 8;
	if (sample_type & PERF_SAMPLE_IDENTIFIER) n += 8;
	return n;
}

/* A callchain entry >= this is a context marker (PERF_CONTEXT_*). */
#define PD_CONTEXT_MAX ((uint64_t)-4095)

#endif
