/* SPDX-License-Identifier: GPL-2.0-only */
/* Typed decoders for the perf.data records bpfperf reads (layouts in
 * format.h). Each takes one whole record, contiguous in memory: rec points at
 * its struct perf_event_header and size is the record's size (normally
 * header.size; a reader that knows better, as for the KSYMBOL/BPF_EVENT
 * records of pd_record_true_size(), may pass less). rec need not be aligned:
 * the fixed part is copied out into out->rec, and pointers into the record
 * are given for the variable parts. A decoder checks that the record has the
 * expected type, that size covers the fixed part, and that strings end with
 * a NUL inside the record; it returns 0, or -EINVAL on a malformed record
 * (logged at debug level: the caller knows where the record was and says
 * what it does about it). Samples are decoded by the reader (struct
 * pd_sample in reader.h; the code beside these decoders, in decode.c)
 * because their layout depends on the event's attr. */
#ifndef BPFPERF_PERFDATA_DECODE_H
#define BPFPERF_PERFDATA_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata/format.h"

struct pd_mmap {
	struct pd_rec_mmap rec;
	const char *filename;		/* inside the record */
};

struct pd_mmap2 {
	struct pd_rec_mmap2 rec;	/* rec.build_id_size <= PD_BUILD_ID_MAX when
					 * rec.header.misc has MMAP_BUILD_ID */
	const char *filename;
};

struct pd_comm {
	struct pd_rec_comm rec;
	const char *comm;
};

struct pd_fork {			/* FORK or EXIT */
	struct pd_rec_fork rec;
};

struct pd_lost {
	struct pd_rec_lost rec;
};

struct pd_lost_samples {
	struct pd_rec_lost_samples rec;
};

struct pd_ksymbol {
	struct pd_rec_ksymbol rec;
	const char *name;
};

struct pd_bpf_event {
	struct pd_rec_bpf_event rec;
};

/* Any of the side-band records above, decoded (one at a time). */
union pd_sideband {
	struct pd_mmap mmap;
	struct pd_mmap2 mmap2;
	struct pd_comm comm;
	struct pd_fork fork;
	struct pd_lost lost;
	struct pd_lost_samples lost_samples;
	struct pd_ksymbol ksymbol;
	struct pd_bpf_event bpf_event;
};

int pd_decode_mmap(const void *rec, size_t size, struct pd_mmap *out);
int pd_decode_mmap2(const void *rec, size_t size, struct pd_mmap2 *out);
int pd_decode_comm(const void *rec, size_t size, struct pd_comm *out);
/* PERF_RECORD_FORK or PERF_RECORD_EXIT. */
int pd_decode_fork(const void *rec, size_t size, struct pd_fork *out);
int pd_decode_lost(const void *rec, size_t size, struct pd_lost *out);
int pd_decode_lost_samples(const void *rec, size_t size, struct pd_lost_samples *out);
int pd_decode_ksymbol(const void *rec, size_t size, struct pd_ksymbol *out);
int pd_decode_bpf_event(const void *rec, size_t size, struct pd_bpf_event *out);

/* The real size of a KSYMBOL or BPF_EVENT record of size bytes whose
 * sample_id trailer is trailer_size bytes. Kernels compute the header size of
 * these records once and add the trailer size again for every event they
 * write the record to, so when several events listen the header's size is
 * too large and garbage follows the trailer. Returns the size up to the end
 * of the trailer, or size itself when the header is right, the record is of
 * another type, or its name does not end inside the record (or within
 * name_max bytes, when name_max is not 0). */
size_t pd_record_true_size(const void *rec, size_t size, size_t trailer_size, size_t name_max);

/* HEADER_BUILD_ID entries: fn gets each (misc: cpumode, pid, build-id, the
 * file name). Returns the number of entries, or -1 if the section is
 * malformed (the entries before the problem were delivered). */
typedef void (*pd_build_id_fn)(void *ctx, uint16_t misc, int32_t pid, const uint8_t *id,
			       size_t idlen, const char *name);
int pd_build_ids_decode(const void *buf, size_t len, pd_build_id_fn fn, void *ctx);

#endif
