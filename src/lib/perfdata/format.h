/* SPDX-License-Identifier: GPL-2.0-only */
/* perf.data on-disk layout (facts from the Linux tree's
 * tools/perf/Documentation/perf.data-file-format.txt and include/uapi/linux/
 * perf_event.h). Native byte order. Record types and perf_event_attr come from
 * <linux/perf_event.h>; this header adds the file-level structures, the
 * user-space record types that only exist in files, and the layouts of the
 * records bpfperf reads or writes (struct pd_rec_*, decoded by decode.h). */
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

/* One entry of the attrs section: attr (attr_size - 16 bytes) then a
 * struct pd_section pointing at its u64 sample ids. */

_Static_assert(sizeof(struct pd_section) == 16, "perf_file_section is two u64");
_Static_assert(sizeof(struct pd_file_header) == 104, "perf_file_header is 104 bytes");
_Static_assert(offsetof(struct pd_file_header, attr_size) == 16, "perf_file_header.attr_size");
_Static_assert(offsetof(struct pd_file_header, attrs) == 24, "perf_file_header.attrs");
_Static_assert(offsetof(struct pd_file_header, data) == 40, "perf_file_header.data");
_Static_assert(offsetof(struct pd_file_header, adds_features) == 72,
	       "perf_file_header.adds_features (72 = size of the old header)");
_Static_assert(sizeof(struct pd_pipe_header) == 16, "pipe header is magic + size");

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

/* Record layouts, as include/uapi/linux/perf_event.h describes them in its
 * comments (the kernel declares no structs for them). Each struct is the fixed
 * part of a record, header included, so sizeof() is the offset of what
 * follows: a string (NUL-terminated, zero-padded to 8 bytes) where a comment
 * says so, then the sample_id trailer when attr.sample_id_all is set (see
 * pd_sample_id_size()). Native byte order; every field at its natural
 * alignment, so no packing is needed. Use the decoders of decode.h to read
 * them: they copy the fixed part out (records need not be aligned) and check
 * the strings. */

/* PERF_RECORD_MMAP: an executable mapping (data ones with attr.mmap_data). */
struct pd_rec_mmap {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	/* char filename[] */
};

/* PERF_RECORD_MMAP2: with inode data, or with a build-id instead when
 * header.misc has PERF_RECORD_MISC_MMAP_BUILD_ID. */
#define PD_BUILD_ID_MAX 20
struct pd_rec_mmap2 {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino;
			uint64_t ino_generation;
		};
		struct {
			uint8_t build_id_size;
			uint8_t reserved1;
			uint16_t reserved2;
			uint8_t build_id[PD_BUILD_ID_MAX];
		};
	};
	uint32_t prot, flags;
	/* char filename[] */
};

/* PERF_RECORD_COMM; header.misc has PERF_RECORD_MISC_COMM_EXEC on exec. */
struct pd_rec_comm {
	struct perf_event_header header;
	uint32_t pid, tid;
	/* char comm[] */
};

/* PERF_RECORD_FORK and PERF_RECORD_EXIT share one layout. */
struct pd_rec_fork {
	struct perf_event_header header;
	uint32_t pid, ppid;
	uint32_t tid, ptid;
	uint64_t time;
};

/* PERF_RECORD_LOST: records the kernel dropped (ring buffer full). */
struct pd_rec_lost {
	struct perf_event_header header;
	uint64_t id;
	uint64_t lost;
};

/* PERF_RECORD_LOST_SAMPLES: samples dropped (by a BPF filter when header.misc
 * has PD_RECORD_MISC_LOST_SAMPLES_BPF). */
struct pd_rec_lost_samples {
	struct perf_event_header header;
	uint64_t lost;
};

/* PERF_RECORD_KSYMBOL: kernel text (a BPF program) registered or gone. */
struct pd_rec_ksymbol {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;		/* PD_KSYMBOL_TYPE_* */
	uint16_t flags;			/* PD_KSYMBOL_FLAGS_* */
	/* char name[] */
};

/* PERF_RECORD_BPF_EVENT: a BPF program loaded or unloaded. */
#define PD_BPF_TAG_SIZE 8
struct pd_rec_bpf_event {
	struct perf_event_header header;
	uint16_t type;			/* PD_BPF_EVENT_PROG_* */
	uint16_t flags;
	uint32_t id;
	uint8_t tag[PD_BPF_TAG_SIZE];
};

/* PD_RECORD_HEADER_ATTR (pipe mode): perf_event_attr (attr.size bytes)
 * followed by the event's u64 sample ids up to the end of the record. */
struct pd_rec_header_attr {
	struct perf_event_header header;
	/* struct perf_event_attr attr; uint64_t id[] */
};

/* PD_RECORD_HEADER_FEATURE (pipe mode): one feature section's payload. */
struct pd_rec_header_feature {
	struct perf_event_header header;
	uint64_t feat_id;		/* enum pd_feature */
	/* payload up to the end of the record */
};

/* The offsets perf_event.h documents (header = 8 bytes). */
_Static_assert(sizeof(struct perf_event_header) == 8, "perf_event_header");
_Static_assert(offsetof(struct pd_rec_mmap, pid) == 8 &&
	       offsetof(struct pd_rec_mmap, start) == 16 &&
	       offsetof(struct pd_rec_mmap, pgoff) == 32 && sizeof(struct pd_rec_mmap) == 40,
	       "PERF_RECORD_MMAP layout");
_Static_assert(offsetof(struct pd_rec_mmap2, maj) == 40 &&
	       offsetof(struct pd_rec_mmap2, ino) == 48 &&
	       offsetof(struct pd_rec_mmap2, ino_generation) == 56 &&
	       offsetof(struct pd_rec_mmap2, build_id_size) == 40 &&
	       offsetof(struct pd_rec_mmap2, build_id) == 44 &&
	       offsetof(struct pd_rec_mmap2, prot) == 64 && offsetof(struct pd_rec_mmap2, flags) == 68 &&
	       sizeof(struct pd_rec_mmap2) == 72, "PERF_RECORD_MMAP2 layout");
_Static_assert(sizeof(struct pd_rec_comm) == 16, "PERF_RECORD_COMM layout");
_Static_assert(offsetof(struct pd_rec_fork, tid) == 16 &&
	       offsetof(struct pd_rec_fork, time) == 24 &&
	       sizeof(struct pd_rec_fork) == 32, "PERF_RECORD_FORK/EXIT layout");
_Static_assert(offsetof(struct pd_rec_lost, lost) == 16 && sizeof(struct pd_rec_lost) == 24,
	       "PERF_RECORD_LOST layout");
_Static_assert(sizeof(struct pd_rec_lost_samples) == 16, "PERF_RECORD_LOST_SAMPLES layout");
_Static_assert(offsetof(struct pd_rec_ksymbol, len) == 16 &&
	       offsetof(struct pd_rec_ksymbol, ksym_type) == 20 &&
	       offsetof(struct pd_rec_ksymbol, flags) == 22 && sizeof(struct pd_rec_ksymbol) == 24,
	       "PERF_RECORD_KSYMBOL layout");
_Static_assert(offsetof(struct pd_rec_bpf_event, id) == 12 &&
	       offsetof(struct pd_rec_bpf_event, tag) == 16 && sizeof(struct pd_rec_bpf_event) == 24,
	       "PERF_RECORD_BPF_EVENT layout");
_Static_assert(sizeof(struct pd_rec_header_attr) == 8 &&
	       offsetof(struct perf_event_attr, size) == 4, "PERF_RECORD_HEADER_ATTR layout");
_Static_assert(sizeof(struct pd_rec_header_feature) == 16, "PERF_RECORD_HEADER_FEATURE layout");
/* Our constants are the kernel's. */
_Static_assert(PD_KSYMBOL_TYPE_BPF == PERF_RECORD_KSYMBOL_TYPE_BPF &&
	       PD_KSYMBOL_TYPE_OOL == PERF_RECORD_KSYMBOL_TYPE_OOL &&
	       PD_KSYMBOL_FLAGS_UNREGISTER == PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER &&
	       PD_BPF_EVENT_PROG_LOAD == PERF_BPF_EVENT_PROG_LOAD &&
	       PD_BPF_EVENT_PROG_UNLOAD == PERF_BPF_EVENT_PROG_UNLOAD, "kernel record constants");

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
