// SPDX-License-Identifier: GPL-2.0-only
/* perf.data reader: the record index (every record header checked, the
 * records in time order) and the delivery of the records, in time order,
 * by type, or in perf's order (pd_process*, see reader.h). */
#include "perfdata/reader.h"
#include "perfdata/reader_int.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Minimum sizes of the kernel records we interpret: the fixed part, and at
 * least one byte of the string that follows it. */
static size_t min_record_size(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP: return sizeof(struct pd_rec_mmap) + 1;
	case PERF_RECORD_MMAP2: return sizeof(struct pd_rec_mmap2) + 1;
	case PERF_RECORD_COMM: return sizeof(struct pd_rec_comm) + 1;
	case PERF_RECORD_FORK: case PERF_RECORD_EXIT: return sizeof(struct pd_rec_fork);
	case PERF_RECORD_LOST: return sizeof(struct pd_rec_lost);
	case PERF_RECORD_KSYMBOL: return sizeof(struct pd_rec_ksymbol) + 1;
	case PERF_RECORD_BPF_EVENT: return sizeof(struct pd_rec_bpf_event);
	case PERF_RECORD_LOST_SAMPLES: return sizeof(struct pd_rec_lost_samples);
	default: return 0;
	}
}

/* By time, then by offset (file order). */
static int cmp_index(const void *a, const void *b)
{
	const struct rec_index *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The index by time (offsets unique: a total order), stable: the records of
 * one ring buffer chunk are in time order, so the input is sorted runs, and
 * sort_stable_total's algorithm leaves the pairs already in order alone. */
SORT_STABLE_TOTAL_DEFINE(sort_index, struct rec_index, cmp_index)


/* One pass over the data section: every record header checked, samples
 * timed in place, the index sorted by time only if the file is not ordered.
 * Long because each malformed case gets its own message with the offset. */
int pd_index(struct pd_file *f)
{
	uint64_t start = f->data_off, end = f->data_off + f->data_size;
	struct rec_index *idx = NULL;
	size_t n = 0, cap = 0;
	uint64_t last_time = 0;
	bool ordered = true;
	int ret = 0;

	if (f->indexed)
		return 0;
again:
	for (uint64_t off = start; off < end;) {
		struct perf_event_header hdr;
		if (end - off < sizeof(hdr)) {
			pd_err(f, "truncated record header at offset %llu (data ends at %llu): "
			       "the file is cut short", (unsigned long long)off, (unsigned long long)end);
			ret = -EINVAL;
			goto out;
		}
		memcpy(&hdr, f->buf + off, sizeof(hdr));
		/* Kernel records are multiples of 8 bytes; user-space ones in
		 * pipe-mode files may not be. */
		if (f->unterminated && (hdr.size < sizeof(hdr) || hdr.size > end - off)) {
			pr_warn("records end at offset %llu (%llu bytes of an unfinished record "
				"follow)", (unsigned long long)off, (unsigned long long)(end - off));
			break;
		}
		if (hdr.size < sizeof(hdr) || (hdr.type < PD_RECORD_HEADER_ATTR && hdr.size % 8) ||
		    hdr.size > end - off) {
			pd_err(f, "bad %s record at offset %llu: size %u %s",
			       pd_record_type_name(hdr.type), (unsigned long long)off, hdr.size,
			       hdr.size > end - off ? "runs past the end of the data (truncated file)"
						    : "is not a valid record size (corrupt file)");
			ret = -EINVAL;
			goto out;
		}
		if (hdr.type == PD_RECORD_COMPRESSED && !f->inflated && !f->pipe) {
			/* perf record -z: the data as perf sees it, then index it */
			free(idx);
			idx = NULL;
			n = cap = 0;
			last_time = 0;
			ordered = true;
			if ((ret = pd_inflate_data(f)) < 0)
				return ret;
			start = f->data_off;
			end = f->data_off + f->data_size;
			if (f->inflated)
				goto again;
		}
		if (hdr.type == PD_RECORD_COMPRESSED) {	/* pd_inflate_data replaced them all */
			pd_err(f, "COMPRESSED record at offset %llu inside compressed data: "
			       "corrupt file", (unsigned long long)off);
			ret = -EINVAL;
			goto out;
		}
		if (hdr.type == PD_RECORD_HEADER_TRACING_DATA) {
			/* not a record to deliver: the formats follow it */
			uint64_t extra = pd_trailing_data_size(f, off, &hdr);
			if (extra > end - off - hdr.size) {
				pd_err(f, "HEADER_TRACING_DATA record at offset %llu: its %llu "
				       "bytes of tracepoint formats run past the end of the data "
				       "(truncated stream)", (unsigned long long)off,
				       (unsigned long long)extra);
				ret = -EINVAL;
				goto out;
			}
			off += hdr.size + extra;
			continue;
		}
		if (hdr.type < PD_RECORD_HEADER_ATTR && hdr.size < min_record_size(hdr.type)) {
			pd_err(f, "%s record at offset %llu is too short (%u bytes): corrupt file",
			       pd_record_type_name(hdr.type), (unsigned long long)off, hdr.size);
			ret = -EINVAL;
			goto out;
		}
		uint64_t t;
		bool has_time;
		if (hdr.type == PERF_RECORD_SAMPLE && off % 8 == 0 && f->nevents &&
		    pd_sample_time(f, off, &t)) {
			has_time = true;
		} else {
			struct pd_record r;
			if ((ret = pd_decode_record(f, off, &r)) < 0)
				goto out;
			has_time = r.s.has_time;
			t = r.s.time;
		}
		if (!has_time)
			t = last_time;
		/* Synthesized records carry time 0: they precede everything. */
		if (t < last_time && has_time)
			ordered = false;
		if (has_time)
			last_time = t > last_time ? t : last_time;
		ARRAY_GROW_RAW(idx, cap, n + 1);
		idx[n].time = t;
		idx[n].off = off;
		n++;
		off += hdr.size;
	}
	if (!ordered)
		sort_index(idx, n, NULL);
	f->idx = idx;
	f->nidx = n;
	f->indexed = true;
	return 0;
out:
	free(idx);
	return ret;
}

/* Every record in time order, or those of one type (any_type false);
 * inlined in both callers: no test per record for pd_process. */
static inline __attribute__((always_inline)) int process(struct pd_file *f, bool any_type, uint32_t type, pd_record_fn fn, void *ctx)
{
	int ret = pd_index(f);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < f->nidx; i++) {
		if (!any_type) {
			struct perf_event_header hdr;
			memcpy(&hdr, f->buf + f->idx[i].off, sizeof(hdr));
			if (hdr.type != type)
				continue;
		}
		struct pd_record r;
		if ((ret = pd_decode_record(f, f->idx[i].off, &r)) < 0)
			return ret;
		if ((ret = fn(ctx, &r)) != 0)
			return ret;
	}
	return 0;
}

int pd_process_type(struct pd_file *f, uint32_t type, pd_record_fn fn, void *ctx)
{
	return process(f, false, type, fn, ctx);
}

int pd_process(struct pd_file *f, pd_record_fn fn, void *ctx)
{
	return process(f, true, 0, fn, ctx);
}

/* Sort the queue q[0..n) and deliver its records with a time <= limit;
 * *done: how many were. 0, or what pd_decode_record or fn returned. */
static int deliver_upto(struct pd_file *f, struct rec_index *q, size_t n, uint64_t limit, size_t *done,
			pd_record_fn fn, void *ctx)
{
	size_t i = 0;
	int ret = 0;
	sort_index(q, n, NULL);
	for (; i < n && q[i].time <= limit; i++) {
		struct pd_record r;
		if ((ret = pd_decode_record(f, q[i].off, &r)) < 0)
			break;
		pd_perf_trailer(&r);
		if ((ret = fn(ctx, &r)) != 0)
			break;
	}
	*done = i;
	return ret;
}

int pd_process_perf_order(struct pd_file *f, pd_record_fn fn, void *ctx)
{
	int ret = pd_index(f);
	if (ret < 0)
		return ret;
	/* the index is in time order: back to file order (offsets are unique) */
	struct rec_index *file = xmalloc((f->nidx ? f->nidx : 1) * sizeof(*file));
	struct rec_index *q = xmalloc((f->nidx ? f->nidx : 1) * sizeof(*q));
	size_t nq = 0, done;
	uint64_t next_flush = 0, max_time = 0;
	for (size_t i = 0; i < f->nidx; i++)	/* sorted by offset (as the time) */
		file[i] = (struct rec_index){ .time = f->idx[i].off, .off = f->idx[i].off };
	sort_index(file, f->nidx, NULL);
	for (size_t i = 0; i < f->nidx && !ret; i++) {
		struct pd_record r;
		if ((ret = pd_decode_record(f, file[i].off, &r)) < 0)
			break;
		pd_perf_trailer(&r);
		uint32_t type = r.hdr->type;
		uint64_t t = r.s.has_time ? r.s.time : 0;
		if (type < PD_RECORD_HEADER_ATTR && t != 0 && t != UINT64_MAX) {
			/* perf's ordered-events queue: ties keep arrival order */
			q[nq++] = (struct rec_index){ .time = t, .off = file[i].off };
			max_time = t > max_time ? t : max_time;
			continue;
		}
		if ((ret = fn(ctx, &r)) != 0)
			break;
		if (type == PD_RECORD_FINISHED_ROUND) {
			/* what the round before this one saw is complete */
			ret = deliver_upto(f, q, nq, next_flush, &done, fn, ctx);
			memmove(q, q + done, (nq - done) * sizeof(*q));
			nq -= done;
			next_flush = max_time;
		}
	}
	if (!ret)
		ret = deliver_upto(f, q, nq, UINT64_MAX, &done, fn, ctx);
	free(file);
	free(q);
	return ret;
}
