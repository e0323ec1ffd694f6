// SPDX-License-Identifier: GPL-2.0-only
/* Record decoders: the typed decoders of side-band records (decode.h), and,
 * for the reader (reader_int.h), the records it delivers: sample fields and
 * sample_id trailers, whose layout depends on the event's attr. */
#include "perfdata/decode.h"
#include "perfdata/reader_int.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <string.h>

/* Check the type and the fixed part, and copy the fixed part out. */
static int take_fixed(const void *rec, size_t size, uint32_t type, const char *what,
		      void *fixed, size_t fixed_size)
{
	struct perf_event_header h;
	if (size < sizeof(h)) {
		pr_debug("malformed %s record: %zu bytes, shorter than a record header", what, size);
		return -EINVAL;
	}
	memcpy(&h, rec, sizeof(h));
	if (h.type != type) {
		pr_debug("record of type %u given to the %s decoder", h.type, what);
		return -EINVAL;
	}
	if (size < fixed_size) {
		pr_debug("malformed %s record: %zu bytes, shorter than its %zu-byte fixed part",
			 what, size, fixed_size);
		return -EINVAL;
	}
	memcpy(fixed, rec, fixed_size);
	return 0;
}

/* The string that follows the fixed part, if it ends inside the record. */
static const char *take_string(const void *rec, size_t size, size_t off, const char *what)
{
	const char *s = (const char *)rec + off;
	if (off >= size || !memchr(s, '\0', size - off)) {
		pr_debug("malformed %s record: its string does not end inside its %zu bytes",
			 what, size);
		return NULL;
	}
	return s;
}

int pd_decode_mmap(const void *rec, size_t size, struct pd_mmap *out)
{
	int err = take_fixed(rec, size, PERF_RECORD_MMAP, "MMAP", &out->rec, sizeof(out->rec));
	if (err)
		return err;
	out->filename = take_string(rec, size, sizeof(out->rec), "MMAP");
	return out->filename ? 0 : -EINVAL;
}

int pd_decode_mmap2(const void *rec, size_t size, struct pd_mmap2 *out)
{
	int err = take_fixed(rec, size, PERF_RECORD_MMAP2, "MMAP2", &out->rec, sizeof(out->rec));
	if (err)
		return err;
	out->filename = take_string(rec, size, sizeof(out->rec), "MMAP2");
	if (!out->filename)
		return -EINVAL;
	if ((out->rec.header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    out->rec.build_id_size > PD_BUILD_ID_MAX) {
		/* The kernel sets the flag in the mmap event it shares between
		 * all listeners (perf_event_mmap_output): once an event with
		 * attr.build_id (another profiler's) has seen it, the others
		 * get the flag with the device and inode layout, the "size"
		 * being the device's major number. Read it as that layout. */
		pr_debug("MMAP2 record of %s: build-id flag with a size of %u (more than %d): read "
			 "as device and inode (a flag the kernel leaked from another recording)",
			 out->filename, out->rec.build_id_size, PD_BUILD_ID_MAX);
		out->rec.header.misc &= (uint16_t)~PERF_RECORD_MISC_MMAP_BUILD_ID;
	}
	return 0;
}

int pd_decode_comm(const void *rec, size_t size, struct pd_comm *out)
{
	int err = take_fixed(rec, size, PERF_RECORD_COMM, "COMM", &out->rec, sizeof(out->rec));
	if (err)
		return err;
	out->comm = take_string(rec, size, sizeof(out->rec), "COMM");
	return out->comm ? 0 : -EINVAL;
}

int pd_decode_fork(const void *rec, size_t size, struct pd_fork *out)
{
	struct perf_event_header h;
	if (size >= sizeof(h)) {
		memcpy(&h, rec, sizeof(h));
		if (h.type == PERF_RECORD_EXIT)	/* same layout */
			return take_fixed(rec, size, PERF_RECORD_EXIT, "EXIT", &out->rec,
					  sizeof(out->rec));
	}
	return take_fixed(rec, size, PERF_RECORD_FORK, "FORK", &out->rec, sizeof(out->rec));
}

int pd_decode_lost(const void *rec, size_t size, struct pd_lost *out)
{
	return take_fixed(rec, size, PERF_RECORD_LOST, "LOST", &out->rec, sizeof(out->rec));
}

int pd_decode_lost_samples(const void *rec, size_t size, struct pd_lost_samples *out)
{
	return take_fixed(rec, size, PERF_RECORD_LOST_SAMPLES, "LOST_SAMPLES", &out->rec,
			  sizeof(out->rec));
}

int pd_decode_ksymbol(const void *rec, size_t size, struct pd_ksymbol *out)
{
	int err = take_fixed(rec, size, PERF_RECORD_KSYMBOL, "KSYMBOL", &out->rec, sizeof(out->rec));
	if (err)
		return err;
	out->name = take_string(rec, size, sizeof(out->rec), "KSYMBOL");
	return out->name ? 0 : -EINVAL;
}

int pd_decode_bpf_event(const void *rec, size_t size, struct pd_bpf_event *out)
{
	return take_fixed(rec, size, PERF_RECORD_BPF_EVENT, "BPF_EVENT", &out->rec,
			  sizeof(out->rec));
}

size_t pd_record_true_size(const void *rec, size_t size, size_t trailer_size, size_t name_max)
{
	struct perf_event_header h;
	size_t want;
	if (size < sizeof(h))
		return size;
	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_KSYMBOL) {
		const size_t fixed = sizeof(struct pd_rec_ksymbol);
		if (size <= fixed)
			return size;
		size_t max = size - fixed;
		if (name_max && max > name_max)
			max = name_max;
		size_t n = strnlen((const char *)rec + fixed, max);
		if (n == max)
			return size;
		want = fixed + ALIGN_UP(n + 1, 8) + trailer_size;
	} else if (h.type == PERF_RECORD_BPF_EVENT) {
		want = sizeof(struct pd_rec_bpf_event) + trailer_size;
	} else {
		return size;
	}
	return want < size ? want : size;
}

/* {header (misc: cpumode | BUILD_ID_SIZE bit 15, size), s32 pid,
 * u8 build_id[20], u8 size, 3 reserved, name NUL-padded} back to back. Old
 * files have no size: the id is 20 bytes, trailing zeros trimmed as perf. */
int pd_build_ids_decode(const void *buf, size_t len, pd_build_id_fn fn, void *ctx)
{
	const uint8_t *b = buf;
	size_t pos = 0;
	int n = 0;
	while (pos + 36 <= len) {
		struct perf_event_header h;
		memcpy(&h, b + pos, sizeof(h));
		if (h.size < 36 || h.size > len - pos)
			return -1;
		int32_t pid;
		memcpy(&pid, b + pos + 8, 4);
		const uint8_t *id = b + pos + 12;
		size_t idlen = 20;
		if (h.misc & (1u << 15)) {
			idlen = b[pos + 32];
			if (idlen > 20)
				return -1;
		} else {
			while (idlen && !id[idlen - 1])
				idlen--;
		}
		const char *name = (const char *)b + pos + 36;
		size_t nmax = h.size - 36;
		if (!nmax || !memchr(name, '\0', nmax))
			return -1;
		fn(ctx, h.misc & 0x7fff, pid, id, idlen, name);
		n++;
		pos += h.size;
	}
	return n;
}

static const struct pd_event *event_by_id(const struct pd_file *f, uint64_t id)
{
	if (f->nevents == 1)
		return &f->events[0];
	for (size_t i = 0; i < f->nevents; i++)
		for (size_t j = 0; j < f->events[i].nids; j++)
			if (f->events[i].ids[j] == id)
				return &f->events[i];
	return &f->events[0];
}

/* Parse a SAMPLE body. Returns 0 or -1 if it does not fit. */
static int parse_sample(const struct pd_event *ev, const uint8_t *p, size_t n, struct pd_sample *s)
{
	uint64_t st = ev->attr.sample_type;
	size_t pos = 0;
#define TAKE64(dst) do { if (pos + 8 > n) return -1; memcpy(&(dst), p + pos, 8); pos += 8; } while (0)
	uint64_t tmp;
	if (st & PERF_SAMPLE_IDENTIFIER) TAKE64(s->id);
	if (st & PERF_SAMPLE_IP) TAKE64(s->ip);
	if (st & PERF_SAMPLE_TID) {
		if (pos + 8 > n) return -1;
		memcpy(&s->pid, p + pos, 4);
		memcpy(&s->tid, p + pos + 4, 4);
		pos += 8;
	}
	if (st & PERF_SAMPLE_TIME) { TAKE64(s->time); s->has_time = true; }
	if (st & PERF_SAMPLE_ADDR) TAKE64(s->addr);
	if (st & PERF_SAMPLE_ID) TAKE64(s->id);
	if (st & PERF_SAMPLE_STREAM_ID) TAKE64(s->stream_id);
	if (st & PERF_SAMPLE_CPU) {
		if (pos + 8 > n) return -1;
		memcpy(&s->cpu, p + pos, 4);
		pos += 8;
	}
	if (st & PERF_SAMPLE_PERIOD) TAKE64(s->period);
	else s->period = 1;
	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = ev->attr.read_format;
		if (rf & PERF_FORMAT_GROUP) {
			uint64_t nr;
			TAKE64(nr);
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) TAKE64(tmp);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) TAKE64(tmp);
			size_t per = 8 + ((rf & PERF_FORMAT_ID) ? 8 : 0) + ((rf & PERF_FORMAT_LOST) ? 8 : 0);
			if (nr > (n - pos) / per) return -1;
			pos += nr * per;
		} else {
			TAKE64(tmp);
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) TAKE64(tmp);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) TAKE64(tmp);
			if (rf & PERF_FORMAT_ID) TAKE64(tmp);
			if (rf & PERF_FORMAT_LOST) TAKE64(tmp);
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		TAKE64(s->nr_callchain);
		if (s->nr_callchain > (n - pos) / 8) return -1;
		s->callchain = (const uint64_t *)(p + pos);
		pos += s->nr_callchain * 8;
	}
	if (st & PERF_SAMPLE_RAW) {
		if (pos + 4 > n) return -1;
		memcpy(&s->raw_size, p + pos, 4);
		if (s->raw_size > n - pos - 4) return -1;
		s->raw = p + pos + 4;
		pos += 4 + s->raw_size;
	}
#undef TAKE64
	(void)tmp;
	return 0;
}

static void parse_trailer(const struct pd_event *ev, const uint8_t *end, struct pd_sample *s)
{
	uint64_t st = ev->attr.sample_type;
	const uint8_t *p = end - pd_sample_id_size(st);
	if (st & PERF_SAMPLE_TID) { memcpy(&s->pid, p, 4); memcpy(&s->tid, p + 4, 4); p += 8; }
	if (st & PERF_SAMPLE_TIME) { memcpy(&s->time, p, 8); s->has_time = true; p += 8; }
	if (st & PERF_SAMPLE_ID) { memcpy(&s->id, p, 8); p += 8; }
	if (st & PERF_SAMPLE_STREAM_ID) { memcpy(&s->stream_id, p, 8); p += 8; }
	if (st & PERF_SAMPLE_CPU) { memcpy(&s->cpu, p, 4); p += 8; }
	if (st & PERF_SAMPLE_IDENTIFIER) memcpy(&s->id, p, 8);
}

/* The event a SAMPLE body belongs to: by its id when the file has several
 * events and the body is long enough to hold the id, else the first. */
static const struct pd_event *sample_event(const struct pd_file *f, const uint8_t *body, size_t n)
{
	if (f->nevents > 1 && f->id_pos >= 0 && n >= (size_t)(f->id_pos + 1) * 8) {
		uint64_t id;
		memcpy(&id, body + f->id_pos * 8, 8);
		return event_by_id(f, id);
	}
	return &f->events[0];
}

/* Decode one record at off into r (header already bounds-checked). */
int pd_decode_record(const struct pd_file *f, uint64_t off, struct pd_record *r)
{
	/* Records are read in place; one at an odd offset (pipe-mode files may
	 * have unpadded user records) is copied to aligned scratch first. */
	static __thread uint64_t scratch[65536 / 8];
	const struct perf_event_header *hdr = (const void *)(f->buf + off);
	if (off % 8) {
		uint16_t size;
		memcpy(&size, f->buf + off + 6, 2);
		memcpy(scratch, f->buf + off, size);
		hdr = (const void *)scratch;
	}
	memset(r, 0, sizeof(*r));
	r->hdr = hdr;
	r->offset = off;
	const uint8_t *body = (const uint8_t *)(hdr + 1);
	size_t n = hdr->size - sizeof(*hdr);
	if (hdr->type == PERF_RECORD_SAMPLE) {
		const struct pd_event *ev = sample_event(f, body, n);
		r->event = ev;
		if (parse_sample(ev, body, n, &r->s) < 0) {
			pd_err(f, "SAMPLE record at offset %llu (size %u) is shorter than its "
			       "sample_type 0x%llx requires: corrupt file", (unsigned long long)off,
			       hdr->size, (unsigned long long)ev->attr.sample_type);
			return -EINVAL;
		}
		return 0;
	}
	if (hdr->type >= PD_RECORD_HEADER_ATTR || f->nevents == 0)
		return 0;
	const struct pd_event *ev = &f->events[0];
	if (!ev->attr.sample_id_all)
		return 0;
	size_t ts = pd_sample_id_size(ev->attr.sample_type);
	if (f->nevents > 1 && f->id_rpos > 0 && n >= ts) {
		uint64_t id;
		memcpy(&id, body + n - (size_t)f->id_rpos * 8, 8);
		ev = event_by_id(f, id);
		ts = pd_sample_id_size(ev->attr.sample_type);
	}
	r->event = ev;
	if (n < ts) {
		pd_err(f, "%s record at offset %llu (size %u) is too short for its sample_id "
		       "trailer: corrupt file", pd_record_type_name(hdr->type), (unsigned long long)off,
		       hdr->size);
		return -EINVAL;
	}
	/* KSYMBOL/BPF_EVENT records written by kernels that inflate their
	 * header size when several events listen: the trailer follows the real
	 * body, not the end of the record. */
	size_t real = pd_record_true_size(hdr, hdr->size, ts, 0);
	parse_trailer(ev, (const uint8_t *)hdr + real, &r->s);
	return 0;
}

/* The time of a SAMPLE record without decoding it all (pd_index reads only
 * the times; pd_process decodes, and checks, each record once). False when
 * the record has no time or is too short for one: pd_decode_record() then
 * tells. */
bool pd_sample_time(const struct pd_file *f, uint64_t off, uint64_t *t)
{
	const struct perf_event_header *hdr = (const void *)(f->buf + off);
	const uint8_t *body = (const uint8_t *)(hdr + 1);
	size_t n = hdr->size - sizeof(*hdr);
	uint64_t st = sample_event(f, body, n)->attr.sample_type;
	if (!(st & PERF_SAMPLE_TIME))
		return false;
	/* the body starts IDENTIFIER, IP, TID, TIME */
	size_t pos = 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
			  !!(st & PERF_SAMPLE_TID));
	if (n < pos + 8)
		return false;
	memcpy(t, body + pos, 8);
	return true;
}

/* perf reads the sample_id trailer of every record at the end of its size,
 * also of the KSYMBOL and BPF_EVENT records whose size the kernel inflated
 * (see pd_record_true_size): there it finds the padding (zeros: time 0, so
 * they are delivered at once, CPU 0). pd_decode_record() reads the real
 * trailer; this gives perf's view. */
void pd_perf_trailer(struct pd_record *r)
{
	const struct perf_event_header *h = r->hdr;
	if (!r->event || (h->type != PERF_RECORD_KSYMBOL && h->type != PERF_RECORD_BPF_EVENT))
		return;
	size_t ts = pd_sample_id_size(r->event->attr.sample_type);
	if (pd_record_true_size(h, h->size, ts, 0) == h->size)
		return;
	memset(&r->s, 0, sizeof(r->s));
	parse_trailer(r->event, (const uint8_t *)h + h->size, &r->s);
}
