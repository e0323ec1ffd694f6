// SPDX-License-Identifier: GPL-2.0-only
/* Draining the per-CPU rings into the file, with the side band: a BPF
 * program load seen in a BPF_EVENT record has its info saved while the
 * program still exists, and KSYMBOL/BPF_EVENT records whose size the kernel
 * inflated are written with their real size. Records are otherwise copied
 * as they are, without per-record work beyond reading their header. */
#include "record/internal.h"
#include "log.h"
#include "perfdata/bpf_info.h"
#include "perfdata/writer.h"
#include "util.h"

#include <string.h>

/* Copy n bytes at offset off of the (possibly wrapped) region iov[0..1]. */
static void iov_copy(const struct iovec *iov, size_t off, void *dst, size_t n)
{
	uint8_t *d = dst;
	for (int k = 0; k < 2 && n; k++) {
		if (off >= iov[k].iov_len) {
			off -= iov[k].iov_len;
			continue;
		}
		size_t take = iov[k].iov_len - off < n ? iov[k].iov_len - off : n;
		memcpy(d, (uint8_t *)iov[k].iov_base + off, take);
		d += take;
		n -= take;
		off = 0;
	}
}

/* Append bytes [from, to) of the (possibly wrapped) ring region. */
static int write_range(struct recording *r, const struct iovec *iov, size_t from, size_t to)
{
	struct iovec out[2];
	int n = 0;
	size_t base = 0;
	for (int k = 0; k < 2; k++) {
		size_t s = base, e = base + iov[k].iov_len;
		size_t a = from > s ? from : s, b = to < e ? to : e;
		if (a < b) {
			out[n].iov_base = (uint8_t *)iov[k].iov_base + (a - s);
			out[n].iov_len = b - a;
			n++;
		}
		base = e;
	}
	return n ? pd_writer_writev(r->w, out, n) : 0;
}

/* The real size of a KSYMBOL or BPF_EVENT record. The kernel computes their
 * header size once and adds the sample_id size for every event it writes
 * the record to (perf_event_ksymbol_output/perf_event_bpf_output do not
 * restore it), so when several events listen (another profiler, or one per
 * CPU and task), the size in the header is too large and garbage follows the
 * record. Returns 0 when the header is right. */
static size_t sideband_true_size(struct recording *r, const struct iovec *iov, size_t off,
				 const struct perf_event_header *h)
{
	size_t body;
	if (h->type == PERF_RECORD_KSYMBOL) {
		char name[512];
		size_t max = h->size > 24 ? h->size - 24 : 0;
		if (max > sizeof(name))
			max = sizeof(name);
		iov_copy(iov, off + 24, name, max);
		size_t n = strnlen(name, max);
		if (n == max)
			return 0;
		body = 16 + ALIGN_UP(n + 1, 8);
	} else if (h->type == PERF_RECORD_BPF_EVENT) {
		body = 16;
	} else {
		return 0;
	}
	size_t want = sizeof(*h) + body + r->id_hdr_size;
	return want < h->size ? want : 0;
}

/* Look at the records (counts, BPF loads), then append them to the file. */
static int drain_ring(struct recording *r, struct perf_ring *ring)
{
	struct iovec iov[2];
	size_t len = perf_ring_peek(ring, iov);
	if (!len)
		return 0;
	size_t off = 0, done = 0;
	int err = 0;
	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;
		iov_copy(iov, off, &h, sizeof(h));
		if (h.size < sizeof(h) || off + h.size > len)
			break;
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			r->samples++;
			break;
		case PERF_RECORD_LOST: {
			uint64_t v[2];
			iov_copy(iov, off + sizeof(h), v, sizeof(v));
			r->lost += v[1];
			break;
		}
		case PERF_RECORD_BPF_EVENT: {
			uint16_t type;
			uint32_t id;
			iov_copy(iov, off + sizeof(h), &type, 2);
			iov_copy(iov, off + sizeof(h) + 4, &id, 4);
			if (type == PD_BPF_EVENT_PROG_LOAD) {
				int e = synth_bpf_program(&r->synth, id, false);
				if (e)
					pr_debug("BPF program %u was unloaded before its info could be "
						 "saved: %s", id, log_strerr(e));
			}
			break;
		}
		default:
			break;
		}
		size_t fixed = sideband_true_size(r, iov, off, &h);
		if (fixed && !err) {
			/* Write what precedes it, then the record with its real size. */
			uint8_t rec[65536];
			err = write_range(r, iov, done, off);
			iov_copy(iov, off, rec, fixed);
			struct perf_event_header *fh = (void *)rec;
			fh->size = (uint16_t)fixed;
			if (!err)
				err = pd_writer_write(r->w, rec, fixed);
			done = off + h.size;
		}
		r->records++;
		off += h.size;
	}
	if (!err)
		err = write_range(r, iov, done, off);
	perf_ring_consume(ring, off);
	return err;
}

int rec_drain_all(struct recording *r)
{
	for (int i = 0; i < r->nrings; i++) {
		int err = drain_ring(r, &r->rings[i]);
		if (err)
			return err;
	}
	return pd_writer_commit(r->w);
}
