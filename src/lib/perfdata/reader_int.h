/* SPDX-License-Identifier: GPL-2.0-only */
/* Inside perfdata/: what the perf.data reader's files share. reader.c opens
 * a file (file and pipe mode headers, attrs, features), inflate.c inflates
 * the COMPRESSED records of perf record -z, decode.c decodes a record (the
 * sample fields, the sample_id trailers), order.c indexes the records and
 * delivers them in time or perf's order; spool.c copies a piped standard
 * input to a file. */
#ifndef BPFPERF_PERFDATA_READER_INT_H
#define BPFPERF_PERFDATA_READER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/reader.h"

struct rec_index {
	uint64_t time;
	uint64_t off;	/* offsets are increasing: ties keep file order */
};

struct pd_feat_ref {
	const void *data;
	size_t len;
};

struct pd_file {
	char *name;	/* for the messages (pd_err), or NULL */
	const uint8_t *buf;
	size_t len;
	bool mapped;
	void *owned;	/* aligned copy of a caller's misaligned buffer */
	bool pipe;
	uint64_t data_off, data_size;
	uint64_t feat_off;	/* the feature table (file mode) */
	struct pd_event *events;
	size_t nevents, events_cap;
	struct pd_feat_ref feats[PD_FEAT_MAX];
	/* how records find their event */
	bool same_sample_type;
	bool unterminated;	/* data size 0: records up to EOF, last may be cut */
	struct rec_index *idx;	/* records in time order, after pd_index */
	size_t nidx;
	bool indexed;
	int id_pos;	/* index (in u64) of the id in a sample, -1 if none */
	int id_rpos;	/* index from the end of a sample_id trailer, -1 if none */
	/* perf record -z: buf is the file up to its data, then the data with
	 * each COMPRESSED record replaced by the records it holds; the file
	 * itself (features point into it) stays at file_buf */
	const uint8_t *file_buf;
	size_t file_len;
	uint64_t file_data_size;
	uint8_t *inflated;
};

/* The reader's one point of failure: pr_err of "<name>: <message>" (just
 * the message when f is NULL or has no name, e.g. pd_open_mem). Every error
 * of the reader is logged here, where it is seen; the function then returns
 * a negative errno that its callers pass up without logging again. */
void pd_err(const struct pd_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* reader.c: the length of the tracepoint formats that follow a
 * HEADER_TRACING_DATA record at off (not counted in its size), else 0. */
uint64_t pd_trailing_data_size(const struct pd_file *f, uint64_t off,
			       const struct perf_event_header *hdr);
/* reader.c: the bytes the record at off takes (its header copied to *hdr):
 * its size plus those formats; 0 for a record that is bad or runs past
 * end (the callers that only scan stop there; pd_index names the fault). */
uint64_t pd_record_span(const struct pd_file *f, uint64_t off, uint64_t end,
			struct perf_event_header *hdr);

/* inflate.c: the data section with each COMPRESSED record replaced by what
 * it decompresses to (perf record -z); a file without one is left alone. */
int pd_inflate_data(struct pd_file *f);

/* decode.c: the record at off decoded into r (its header bounds-checked
 * before); 0, or -EINVAL (logged). */
int pd_decode_record(const struct pd_file *f, uint64_t off, struct pd_record *r);
/* decode.c: the time of the SAMPLE record at off, read without decoding it
 * all; false when it has none or is too short for one. */
bool pd_sample_time(const struct pd_file *f, uint64_t off, uint64_t *t);
/* decode.c: r's sample_id trailer as perf reads it (at the end of the size
 * the kernel gave a KSYMBOL or BPF_EVENT record). */
void pd_perf_trailer(struct pd_record *r);

#endif
