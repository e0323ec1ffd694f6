// SPDX-License-Identifier: GPL-2.0-only
/* Draining the per-CPU rings into the file, with the side band: a BPF
 * program load seen in a BPF_EVENT record has its info saved while the
 * program still exists, and KSYMBOL/BPF_EVENT records whose size the kernel
 * inflated are written with their real size. Records are otherwise copied
 * as they are, without per-record work beyond reading their header. */
#include "record/internal.h"
#include "log.h"
#include "perfdata/bpf_info.h"
#include "perfdata/decode.h"
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

/* A side-band record we look at (lost counts, BPF program loads), copied
 * out of the ring into rec (they are rare and small). Returns its real size
 * when the kernel inflated the size in its header (see pd_record_true_size),
 * else 0. */
static size_t note_sideband(struct recording *r, const uint8_t *rec, size_t size)
{
	const struct perf_event_header *h = (const void *)rec;
	struct pd_lost l;
	struct pd_bpf_event b;
	if (h->type == PERF_RECORD_LOST) {
		if (pd_decode_lost(rec, size, &l) == 0)
			r->lost += l.rec.lost;
		return 0;
	}
	if (h->type == PERF_RECORD_BPF_EVENT && pd_decode_bpf_event(rec, size, &b) == 0 &&
	    b.rec.type == PD_BPF_EVENT_PROG_LOAD) {
		int e = synth_bpf_program(&r->synth, b.rec.id, false);
		if (e)
			pr_debug("BPF program %u was unloaded before its info could be saved: %s",
				 b.rec.id, log_strerr(e));
	}
	size_t t = pd_record_true_size(rec, size, r->id_hdr_size, 512);
	return t < size ? t : 0;
}

/* Look at the records (counts, BPF loads), then append them to the file:
 * samples are counted from their header alone and copied in runs. */
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
		if (h.type == PERF_RECORD_SAMPLE) {
			r->samples++;
			if (r->samples_parsed && h.size >= sizeof(struct rec_sample_head)) {
				struct rec_sample_head s;
				iov_copy(iov, off, &s, sizeof(s));
				rec_hits_sample(r, &s);
			}
		} else if (h.type == PERF_RECORD_MMAP2 || h.type == PERF_RECORD_MMAP ||
			   h.type == PERF_RECORD_FORK) {
			uint8_t rec[65536];
			iov_copy(iov, off, rec, h.size);
			rec_hits_record(r, rec, h.size);
		} else if (h.type == PERF_RECORD_LOST || h.type == PERF_RECORD_BPF_EVENT ||
			   h.type == PERF_RECORD_KSYMBOL) {
			uint8_t rec[65536];
			iov_copy(iov, off, rec, h.size);
			size_t fixed = note_sideband(r, rec, h.size);
			if (fixed && !err) {
				/* Write what precedes it, then the record with its real size. */
				err = write_range(r, iov, done, off);
				((struct perf_event_header *)rec)->size = (uint16_t)fixed;
				if (!err)
					err = pd_writer_write(r->w, rec, fixed);
				done = off + h.size;
			}
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
