// SPDX-License-Identifier: GPL-2.0-only
#include "perfdata/reader.h"
#include "perfdata/decode.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

struct rec_index {
	uint64_t time;
	uint64_t off;	/* offsets are increasing: ties keep file order */
};

struct pd_feat_ref {
	const void *data;
	size_t len;
};

struct pd_file {
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

static void seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const char *const record_names[] = {
	[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST", [PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT", [PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE", [PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ", [PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE", [PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL", [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP", [PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	/* user-space records, as perf names them */
	[64] = "ATTR", [65] = "EVENT_TYPE", [66] = "TRACING_DATA", [67] = "BUILD_ID",
	[68] = "FINISHED_ROUND", [69] = "ID_INDEX", [70] = "AUXTRACE_INFO", [71] = "AUXTRACE",
	[72] = "AUXTRACE_ERROR", [73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG",
	[76] = "STAT", [77] = "STAT_ROUND", [78] = "EVENT_UPDATE", [79] = "TIME_CONV",
	[80] = "FEATURE", [81] = "COMPRESSED", [82] = "FINISHED_INIT",
};

const char *pd_record_type_name(uint32_t type)
{
	static __thread char buf[32];
	if (type < ARRAY_SIZE(record_names) && record_names[type])
		return record_names[type];
	snprintf(buf, sizeof(buf), "type %u", type);
	return buf;
}

char *pd_event_name_from_attr(const struct perf_event_attr *a)
{
	static const char *const hw[] = { "cycles", "instructions", "cache-references",
		"cache-misses", "branches", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles" };
	static const char *const sw[] = { "cpu-clock", "task-clock", "page-faults",
		"context-switches", "cpu-migrations", "minor-faults", "major-faults",
		"alignment-faults", "emulation-faults", "dummy", "bpf-output", "cgroup-switches" };
	if (a->type == PERF_TYPE_HARDWARE && a->config < ARRAY_SIZE(hw))
		return xstrdup(hw[a->config]);
	if (a->type == PERF_TYPE_SOFTWARE && a->config < ARRAY_SIZE(sw))
		return xstrdup(sw[a->config]);
	if (a->type == PERF_TYPE_TRACEPOINT)
		return xasprintf("tracepoint:%llu", (unsigned long long)a->config);
	return xasprintf("raw:%u:0x%llx", a->type, (unsigned long long)a->config);
}

const char *pd_feat_get_string(const void *buf, size_t len, size_t *pos)
{
	const uint8_t *b = buf;
	uint32_t n;
	if (*pos + 4 > len)
		return NULL;
	memcpy(&n, b + *pos, 4);
	if (n == 0 || n > len - *pos - 4)
		return NULL;
	const char *s = (const char *)b + *pos + 4;
	if (!memchr(s, '\0', n))
		return NULL;
	*pos += 4 + n;
	return s;
}

static struct pd_event *add_event(struct pd_file *f, const void *attr, size_t attr_len)
{
	ARRAY_GROW(f->events, f->events_cap, f->nevents + 1);
	struct pd_event *e = &f->events[f->nevents++];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr, attr_len < sizeof(e->attr) ? attr_len : sizeof(e->attr));
	return e;
}

/* Position of the id among sample fields, in u64 units, or -1. */
static int sample_id_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	int pos = 0;
	if (st & PERF_SAMPLE_IP) pos++;
	if (st & PERF_SAMPLE_TID) pos++;
	if (st & PERF_SAMPLE_TIME) pos++;
	if (st & PERF_SAMPLE_ADDR) pos++;
	return pos;
}

/* Position of the id from the end of a sample_id trailer, in u64, or -1. */
static int trailer_id_rpos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	int pos = 1;
	if (st & PERF_SAMPLE_CPU) pos++;
	if (st & PERF_SAMPLE_STREAM_ID) pos++;
	return pos;
}

static void finish_events(struct pd_file *f)
{
	f->same_sample_type = true;
	for (size_t i = 1; i < f->nevents; i++)
		if (f->events[i].attr.sample_type != f->events[0].attr.sample_type)
			f->same_sample_type = false;
	uint64_t st = f->nevents ? f->events[0].attr.sample_type : 0;
	f->id_pos = sample_id_pos(st);
	f->id_rpos = trailer_id_rpos(st);
	for (size_t i = 0; i < f->nevents; i++)
		if (!f->events[i].name)
			f->events[i].name = pd_event_name_from_attr(&f->events[i].attr);
}

/* EVENT_DESC gives the names perf shows ("cpu-clock:ppp"); strip modifiers
 * we do not interpret. */
static void apply_event_desc(struct pd_file *f)
{
	const uint8_t *b = f->feats[PD_FEAT_EVENT_DESC].data;
	size_t len = f->feats[PD_FEAT_EVENT_DESC].len, pos = 8;
	uint32_t nr, asz;
	if (!b || len < 8)
		return;
	memcpy(&nr, b, 4);
	memcpy(&asz, b + 4, 4);
	for (uint32_t i = 0; i < nr && i < f->nevents; i++) {
		uint32_t nids;
		if (asz > len || pos > len - asz - 4)
			return;
		pos += asz;
		memcpy(&nids, b + pos, 4);
		pos += 4;
		const char *name = pd_feat_get_string(b, len, &pos);
		if (!name || nids > (len - pos) / 8)
			return;
		pos += (size_t)nids * 8;
		free(f->events[i].name);
		f->events[i].name = xstrdup(name);
	}
}

/* The file header, attrs and feature sections of a perf.data file, each
 * bounds-checked against the file (untrusted input): one check after another,
 * each naming the offset that is wrong, hence the length. */
static int open_file_mode(struct pd_file *f, char *err, size_t errlen)
{
	struct pd_file_header h;
	memset(&h, 0, sizeof(h));
	if (f->len < 72) {
		seterr(err, errlen, "file is %zu bytes, shorter than a perf.data header", f->len);
		return -EINVAL;
	}
	memcpy(&h, f->buf, f->len < sizeof(h) ? f->len : sizeof(h));
	if (h.size != sizeof(h) && h.size != 72) {
		seterr(err, errlen, "header at offset 0: unsupported header size %llu", (unsigned long long)h.size);
		return -EINVAL;
	}
	if (h.size == 72)
		memset(h.adds_features, 0, sizeof(h.adds_features));
	if (h.attr_size < 16 + PERF_ATTR_SIZE_VER0 || h.attr_size > 4096) {
		seterr(err, errlen, "header at offset 8: bad attr size %llu", (unsigned long long)h.attr_size);
		return -EINVAL;
	}
	if (h.attrs.offset > f->len || h.attrs.size > f->len - h.attrs.offset ||
	    h.attrs.size % h.attr_size) {
		seterr(err, errlen, "attr section (offset %llu, size %llu) lies outside the %zu-byte file",
		       (unsigned long long)h.attrs.offset, (unsigned long long)h.attrs.size, f->len);
		return -EINVAL;
	}
	size_t nattr = h.attrs.size / h.attr_size;
	if (nattr == 0) {
		seterr(err, errlen, "file has no events (attr section is empty)");
		return -EINVAL;
	}
	for (size_t i = 0; i < nattr; i++) {
		const uint8_t *p = f->buf + h.attrs.offset + i * h.attr_size;
		size_t alen = h.attr_size - 16;
		struct pd_event *e = add_event(f, p, alen);
		struct pd_section ids;
		memcpy(&ids, p + alen, sizeof(ids));
		if (ids.offset > f->len || ids.size > f->len - ids.offset || ids.size % 8) {
			seterr(err, errlen, "attr %zu at offset %llu: id array outside the file", i,
			       (unsigned long long)(h.attrs.offset + i * h.attr_size));
			return -EINVAL;
		}
		e->nids = ids.size / 8;
		e->ids = xcalloc(e->nids, 8);
		memcpy(e->ids, f->buf + ids.offset, ids.size);
	}
	f->data_off = h.data.offset;
	f->data_size = h.data.size;
	if (h.data.offset % 8) {
		seterr(err, errlen, "header at offset 40: data section offset %llu is not 8-byte aligned: "
		       "corrupt file", (unsigned long long)h.data.offset);
		return -EINVAL;
	}
	if (h.data.offset > f->len) {
		seterr(err, errlen, "data section starts at offset %llu, past the end of the %zu-byte file "
		       "(truncated file?)", (unsigned long long)h.data.offset, f->len);
		return -EINVAL;
	}
	if (h.data.size == 0 && f->len > h.data.offset) {
		/* perf record killed before it finished: like perf, read on to the
		 * end of the file (there is no feature section). */
		pr_warn("the data size in the file header is 0: the recorder was not terminated "
			"properly; reading the records up to the end of the file");
		f->data_size = f->len - h.data.offset;
		f->data_size -= f->data_size % 8;
		memset(h.adds_features, 0, sizeof(h.adds_features));
		h.data.size = f->data_size;
		f->unterminated = true;
	}
	if (h.data.size > f->len - h.data.offset) {
		seterr(err, errlen, "data section (offset %llu, size %llu) runs past the end of the "
		       "%zu-byte file: the file is truncated", (unsigned long long)h.data.offset,
		       (unsigned long long)h.data.size, f->len);
		return -EINVAL;
	}
	/* Feature sections: a table of {offset,size} after data, one per bit. */
	uint64_t toff = h.data.offset + h.data.size;
	f->feat_off = toff;
	int k = 0;
	for (int bit = 1; bit < PD_FEAT_MAX; bit++) {
		if (!(h.adds_features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		struct pd_section s;
		uint64_t at = toff + (uint64_t)k * sizeof(s);
		k++;
		if (at > f->len || sizeof(s) > f->len - at) {
			pr_warn("feature table entry for feature %d at offset %llu is outside the file; "
				"ignoring the remaining features", bit, (unsigned long long)at);
			break;
		}
		memcpy(&s, f->buf + at, sizeof(s));
		if (s.offset > f->len || s.size > f->len - s.offset) {
			pr_warn("feature %d section (offset %llu, size %llu) is outside the file; ignored",
				bit, (unsigned long long)s.offset, (unsigned long long)s.size);
			continue;
		}
		f->feats[bit].data = f->buf + s.offset;
		f->feats[bit].len = s.size;
	}
	apply_event_desc(f);
	finish_events(f);
	return 0;
}

/* A HEADER_TRACING_DATA record (pipe mode, and the data section of what
 * perf inject makes of a stream) is followed by the tracepoint formats,
 * which its size does not count: their length (u32 after the header), or 0
 * for any other record. */
static uint64_t trailing_data(const struct pd_file *f, uint64_t off,
				   const struct perf_event_header *hdr)
{
	uint32_t n = 0;
	if (hdr->type == PD_RECORD_HEADER_TRACING_DATA && hdr->size >= sizeof(*hdr) + 4)
		memcpy(&n, f->buf + off + sizeof(*hdr), 4);
	return n;
}

/* Pipe mode: attrs and features are records inside the stream. */
static int open_pipe_mode(struct pd_file *f, char *err, size_t errlen)
{
	size_t pos = 16;
	f->data_off = 16;
	f->data_size = f->len - 16;
	f->unterminated = true;	/* a stream ends where its writer stopped */
	while (pos + sizeof(struct perf_event_header) <= f->len) {
		struct perf_event_header hdr;
		memcpy(&hdr, f->buf + pos, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size > f->len - pos)
			break;	/* reported by pd_process */
		uint64_t extra = trailing_data(f, pos, &hdr);
		if (extra > f->len - pos - hdr.size)
			break;
		if (hdr.type == PD_RECORD_HEADER_TRACING_DATA) {
			f->feats[PD_FEAT_TRACING_DATA].data = f->buf + pos + hdr.size;
			f->feats[PD_FEAT_TRACING_DATA].len = extra;
		} else if (hdr.type == PD_RECORD_HEADER_ATTR) {
			const uint8_t *p = f->buf + pos + sizeof(struct pd_rec_header_attr);
			size_t body = hdr.size - sizeof(struct pd_rec_header_attr);
			uint32_t asz;
			if (body < offsetof(struct perf_event_attr, size) + sizeof(asz)) {
				seterr(err, errlen, "HEADER_ATTR record at offset %zu is too short", pos);
				return -EINVAL;
			}
			memcpy(&asz, p + offsetof(struct perf_event_attr, size), sizeof(asz));
			if (asz < PERF_ATTR_SIZE_VER0 || asz > body) {
				seterr(err, errlen, "HEADER_ATTR record at offset %zu: bad attr size %u", pos, asz);
				return -EINVAL;
			}
			struct pd_event *e = add_event(f, p, asz);
			e->nids = (body - asz) / 8;
			e->ids = xcalloc(e->nids, 8);
			memcpy(e->ids, p + asz, e->nids * 8);
		} else if (hdr.type == PD_RECORD_HEADER_FEATURE &&
			   hdr.size >= sizeof(struct pd_rec_header_feature)) {
			struct pd_rec_header_feature fr;
			memcpy(&fr, f->buf + pos, sizeof(fr));
			if (fr.feat_id > 0 && fr.feat_id < PD_FEAT_MAX) {
				f->feats[fr.feat_id].data = f->buf + pos + sizeof(fr);
				f->feats[fr.feat_id].len = hdr.size - sizeof(fr);
			}
		}
		pos += hdr.size + extra;
	}
	if (f->nevents == 0) {
		seterr(err, errlen, "pipe-mode file has no HEADER_ATTR record: no events");
		return -EINVAL;
	}
	apply_event_desc(f);
	finish_events(f);
	return 0;
}

/* perf record -z writes the ring buffers' records as one zstd stream cut
 * into COMPRESSED records (a frame may span several); other records (the
 * synthesized ones, FINISHED_ROUND) stay as they are between them. Builds
 * the data section perf sees: each COMPRESSED record replaced, in place, by
 * what it decompresses to. A file without one is left alone. */
#define INFLATE_MAX (64ull << 30)	/* a decompression bomb stops here */
static int inflate_data(struct pd_file *f, char *err, size_t errlen)
{
	uint64_t start = f->data_off, end = f->data_off + f->data_size, off;
	struct perf_event_header hdr;
	for (off = start; end - off >= sizeof(hdr); off += hdr.size) {
		memcpy(&hdr, f->buf + off, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size > end - off || hdr.type == PD_RECORD_COMPRESSED)
			break;
	}
	if (end - off < sizeof(hdr) || hdr.type != PD_RECORD_COMPRESSED)
		return 0;	/* none (a bad record is pd_index's to report) */
	ZSTD_DStream *zs = ZSTD_createDStream();
	if (!zs || ZSTD_isError(ZSTD_initDStream(zs))) {
		ZSTD_freeDStream(zs);
		seterr(err, errlen, "cannot start zstd decompression of the COMPRESSED records");
		return -ENOMEM;
	}
	size_t cap = start + 2 * f->data_size + ZSTD_DStreamOutSize(), len = start;
	uint8_t *out = xmalloc(cap);
	memcpy(out, f->buf, start);
	int ret = 0;
	for (off = start; off < end; off += hdr.size) {
		if (end - off < sizeof(hdr))
			break;
		memcpy(&hdr, f->buf + off, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size > end - off)
			break;	/* copied as it is below: pd_index reports it */
		if (hdr.type != PD_RECORD_COMPRESSED) {
			ARRAY_GROW_RAW(out, cap, len + hdr.size);
			memcpy(out + len, f->buf + off, hdr.size);
			len += hdr.size;
			continue;
		}
		ZSTD_inBuffer in = { f->buf + off + sizeof(hdr), hdr.size - sizeof(hdr), 0 };
		/* until the input is consumed and zstd has output all it holds
		 * (a full output buffer may leave some in it) */
		for (bool full = true; in.pos < in.size || full;) {
			ARRAY_GROW_RAW(out, cap, len + ZSTD_DStreamOutSize());
			ZSTD_outBuffer o = { out + len, cap - len, 0 };
			size_t before = in.pos, r = ZSTD_decompressStream(zs, &o, &in);
			if (ZSTD_isError(r)) {
				seterr(err, errlen, "COMPRESSED record at offset %llu: %s (corrupt file)",
				       (unsigned long long)off, ZSTD_getErrorName(r));
				ret = -EINVAL;
				goto out;
			}
			len += o.pos;
			full = o.pos == o.size;
			if (len - start > INFLATE_MAX) {
				seterr(err, errlen, "COMPRESSED records decompress to more than %llu GiB: "
				       "corrupt file or not one to read whole", INFLATE_MAX >> 30);
				ret = -EFBIG;
				goto out;
			}
			if (!o.pos && in.pos == before && in.pos < in.size) {
				seterr(err, errlen, "COMPRESSED record at offset %llu: zstd made no "
				       "progress (corrupt file)", (unsigned long long)off);
				ret = -EINVAL;
				goto out;
			}
		}
	}
	if (off < end) {	/* a bad record and what follows: as they are */
		ARRAY_GROW_RAW(out, cap, len + (end - off));
		memcpy(out + len, f->buf + off, end - off);
		len += end - off;
	}
	pr_debug("perf record -z data: %llu bytes decompress to %llu",
		 (unsigned long long)f->data_size, (unsigned long long)(len - start));
	f->file_buf = f->buf;
	f->file_len = f->len;
	f->file_data_size = f->data_size;
	f->inflated = out;
	f->buf = out;
	f->len = len;
	f->data_size = len - start;
	out = NULL;
out:
	free(out);
	ZSTD_freeDStream(zs);
	return ret;
}

static struct pd_file *open_common(struct pd_file *f, char *err, size_t errlen)
{
	uint64_t magic, size;
	if (f->len < 16) {
		seterr(err, errlen, "file is %zu bytes, too short for a perf.data header", f->len);
		goto fail;
	}
	memcpy(&magic, f->buf, 8);
	memcpy(&size, f->buf + 8, 8);
	if (magic == PERF_MAGIC2_SWAPPED) {
		seterr(err, errlen, "file was recorded on a machine of the other byte order; "
		       "cross-endian perf.data is not supported");
		goto fail;
	}
	if (magic != PERF_MAGIC2) {
		seterr(err, errlen, "not a perf.data file (bad magic at offset 0; "
		       "old PERFFILE v1 files are not supported either)");
		goto fail;
	}
	int r;
	if (size == 16) {	/* pipe mode: header records in the stream, which may be compressed */
		f->pipe = true;
		f->data_off = 16;
		f->data_size = f->len - 16;
		r = inflate_data(f, err, errlen);
		if (r >= 0)
			r = open_pipe_mode(f, err, errlen);
	} else {
		/* COMPRESSED records are inflated by pd_index when it meets
		 * the first: no pass over the data for files without */
		r = open_file_mode(f, err, errlen);
	}
	if (r < 0)
		goto fail;
	return f;
fail:
	pd_close(f);
	return NULL;
}

struct pd_file *pd_open_mem(const void *buf, size_t len, char *err, size_t errlen)
{
	struct pd_file *f = xcalloc(1, sizeof(*f));
	f->buf = buf;
	f->len = len;
	if ((uintptr_t)buf % 8) {
		/* Records are read in place: they need their natural alignment. */
		f->owned = xmalloc(len);
		memcpy(f->owned, buf, len);
		f->buf = f->owned;
	}
	return open_common(f, err, errlen);
}

struct pd_file *pd_open_fd(int fd, const char *name, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		seterr(err, errlen, "%s is not a regular file", name);
		return NULL;
	}
	struct pd_file *f = xcalloc(1, sizeof(*f));
	f->len = (size_t)st.st_size;
	if (f->len) {
		void *p = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (p == MAP_FAILED) {
			seterr(err, errlen, "cannot map %s: %s", name, strerror(errno));
			free(f);
			return NULL;
		}
		f->buf = p;
		f->mapped = true;
	}
	struct pd_file *r = open_common(f, err, errlen);
	if (!r && err && errlen) {
		char tmp[1024];
		snprintf(tmp, sizeof(tmp), "%s: %s", name, err);
		snprintf(err, errlen, "%s", tmp);
	}
	return r;
}

struct pd_file *pd_open(const char *path, char *err, size_t errlen)
{
	long owner;
	return pd_open_owned(path, true, &owner, err, errlen);
}

struct pd_file *pd_open_owned(const char *path, bool any_owner, long *owner, char *err, size_t errlen)
{
	*owner = -1;
	struct stat st;
	/* never blocks on a FIFO planted at the path */
	int fd = open_regular(path, 0, &st);
	if (fd == -EINVAL) {
		seterr(err, errlen, "%s is %s, not a regular file: give the path of a perf.data file",
		       path, file_type_name(st.st_mode));
		return NULL;
	}
	if (fd < 0) {
		seterr(err, errlen, "cannot open %s: %s%s", path, strerror(-fd),
		       fd == -ENOENT ? "; record one first with 'bpfperf record' or give -i FILE" : "");
		return NULL;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		*owner = (long)st.st_uid;
		if (!any_owner) {
			seterr(err, errlen, "%s is not owned by the current user or root (uid %ld owns it): its "
			       "contents are not trusted", path, *owner);
			close(fd);
			return NULL;
		}
	}
	struct pd_file *f = pd_open_fd(fd, path, err, errlen);
	close(fd);
	return f;
}

/* Copy fd (a pipe) to an unlinked temporary file: reports read a file
 * several times and in time order, a stream only once. */
static int spool(int in, const char *dir, char *err, size_t errlen)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		char *tmpl = xasprintf("%s/bpfperf-stdin-XXXXXX", dir);
		fd = mkostemp(tmpl, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmpl);
		free(tmpl);
	}
	if (fd < 0) {
		seterr(err, errlen, "cannot create a temporary file in %s to hold the standard input: "
		       "%s; set TMPDIR to a writable directory", dir, strerror(errno));
		return -EIO;
	}
	static char buf[1 << 16];
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			seterr(err, errlen, "cannot read the standard input: %s", strerror(errno));
			close(fd);
			return -EIO;
		}
		if (n == 0)
			break;
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(fd, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				seterr(err, errlen, "cannot copy the standard input to a temporary file "
				       "in %s: %s; set TMPDIR to a directory with more room", dir,
				       strerror(errno));
				close(fd);
				return -EIO;
			}
			done += w;
		}
	}
	return fd;
}

int pd_stdin_file(char *err, size_t errlen)
{
	struct stat st;
	if (fstat(STDIN_FILENO, &st) < 0) {
		seterr(err, errlen, "cannot read the standard input: %s", strerror(errno));
		return -EBADF;
	}
	if (S_ISREG(st.st_mode)) {	/* a redirection: read it in place */
		int fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
		if (fd < 0)
			seterr(err, errlen, "cannot read the standard input: %s", strerror(errno));
		return fd < 0 ? -errno : fd;
	}
	if (isatty(STDIN_FILENO)) {
		seterr(err, errlen, "the standard input is a terminal: pipe perf.data into it "
		       "('bpfperf record -o - ... | bpfperf report -i -') or give -i FILE");
		return -EINVAL;
	}
	const char *dir = getenv("TMPDIR");
	return spool(STDIN_FILENO, dir && *dir ? dir : "/tmp", err, errlen);
}

void pd_close(struct pd_file *f)
{
	if (!f)
		return;
	if (f->mapped)
		munmap((void *)(f->file_buf ? f->file_buf : f->buf), f->file_buf ? f->file_len : f->len);
	free(f->owned);
	free(f->inflated);
	for (size_t i = 0; i < f->nevents; i++) {
		free(f->events[i].name);
		free(f->events[i].ids);
	}
	free(f->events);
	free(f->idx);
	free(f);
}

size_t pd_nr_events(const struct pd_file *f) { return f->nevents; }
const struct pd_event *pd_event_at(const struct pd_file *f, size_t i) { return &f->events[i]; }
bool pd_is_pipe(const struct pd_file *f) { return f->pipe; }
uint64_t pd_data_size(const struct pd_file *f) { return f->data_size; }

void pd_layout(const struct pd_file *f, uint64_t *data_off, uint64_t *data_size,
	       uint64_t *feat_off)
{
	*data_off = f->data_off;
	*data_size = f->inflated ? f->file_data_size : f->data_size;
	*feat_off = f->pipe ? 0 : f->feat_off;
}

const void *pd_feature(const struct pd_file *f, int feat, size_t *len)
{
	if (feat <= 0 || feat >= PD_FEAT_MAX || !f->feats[feat].data)
		return NULL;
	if (len)
		*len = f->feats[feat].len;
	return f->feats[feat].data;
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


static int cmp_index(const void *a, const void *b)
{
	const struct rec_index *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
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
static int decode(const struct pd_file *f, uint64_t off, struct pd_record *r, char *err, size_t errlen)
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
			seterr(err, errlen, "SAMPLE record at offset %llu (size %u) is shorter than its "
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
		seterr(err, errlen, "%s record at offset %llu (size %u) is too short for its sample_id "
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
 * the record has no time or is too short for one: decode() then tells. */
static bool sample_time(const struct pd_file *f, uint64_t off, uint64_t *t)
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

/* Minimum sizes of the kernel records we interpret: the fixed part, and at
 * least one byte of the string that follows it. */
static size_t min_size(uint32_t type)
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

/* Stable merge sort of runs: the records of one ring buffer chunk are in
 * time order, so the input is a sequence of sorted runs. */
static void merge_sort_index(struct rec_index *a, size_t n)
{
	struct rec_index *tmp = xmalloc(n * sizeof(*a));
	for (size_t width = 1; width < n; width *= 2) {
		/* Skip merging when a pair of runs is already in order. */
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			if (mid >= hi || cmp_index(&a[mid - 1], &a[mid]) <= 0)
				continue;
			size_t i = lo, j = mid, k = 0;
			while (i < mid && j < hi)
				tmp[k++] = cmp_index(&a[j], &a[i]) < 0 ? a[j++] : a[i++];
			while (i < mid)
				tmp[k++] = a[i++];
			while (j < hi)
				tmp[k++] = a[j++];
			memcpy(a + lo, tmp, k * sizeof(*a));
		}
	}
	free(tmp);
}

/* One pass over the data section: every record header checked, samples
 * timed in place, the index sorted by time only if the file is not ordered.
 * Long because each malformed case gets its own message with the offset. */
int pd_index(struct pd_file *f, char *err, size_t errlen)
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
			seterr(err, errlen, "truncated record header at offset %llu (data ends at %llu): "
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
			seterr(err, errlen, "bad %s record at offset %llu: size %u %s",
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
			if ((ret = inflate_data(f, err, errlen)) < 0)
				return ret;
			start = f->data_off;
			end = f->data_off + f->data_size;
			if (f->inflated)
				goto again;
		}
		if (hdr.type == PD_RECORD_COMPRESSED) {	/* inflate_data replaced them all */
			seterr(err, errlen, "COMPRESSED record at offset %llu inside compressed data: "
			       "corrupt file", (unsigned long long)off);
			ret = -EINVAL;
			goto out;
		}
		if (hdr.type == PD_RECORD_HEADER_TRACING_DATA) {
			/* not a record to deliver: the formats follow it */
			uint64_t extra = trailing_data(f, off, &hdr);
			if (extra > end - off - hdr.size) {
				seterr(err, errlen, "HEADER_TRACING_DATA record at offset %llu: its %llu "
				       "bytes of tracepoint formats run past the end of the data "
				       "(truncated stream)", (unsigned long long)off,
				       (unsigned long long)extra);
				ret = -EINVAL;
				goto out;
			}
			off += hdr.size + extra;
			continue;
		}
		if (hdr.type < PD_RECORD_HEADER_ATTR && hdr.size < min_size(hdr.type)) {
			seterr(err, errlen, "%s record at offset %llu is too short (%u bytes): corrupt file",
			       pd_record_type_name(hdr.type), (unsigned long long)off, hdr.size);
			ret = -EINVAL;
			goto out;
		}
		uint64_t t;
		bool has_time;
		if (hdr.type == PERF_RECORD_SAMPLE && off % 8 == 0 && f->nevents &&
		    sample_time(f, off, &t)) {
			has_time = true;
		} else {
			struct pd_record r;
			if ((ret = decode(f, off, &r, err, errlen)) < 0)
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
		merge_sort_index(idx, n);
	f->idx = idx;
	f->nidx = n;
	f->indexed = true;
	return 0;
out:
	free(idx);
	return ret;
}

int pd_process_type(struct pd_file *f, uint32_t type, pd_record_fn fn, void *ctx, char *err,
		    size_t errlen)
{
	int ret = pd_index(f, err, errlen);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < f->nidx; i++) {
		struct perf_event_header hdr;
		memcpy(&hdr, f->buf + f->idx[i].off, sizeof(hdr));
		if (hdr.type != type)
			continue;
		struct pd_record r;
		if ((ret = decode(f, f->idx[i].off, &r, err, errlen)) < 0)
			return ret;
		if ((ret = fn(ctx, &r)) != 0)
			return ret;
	}
	return 0;
}

int pd_process(struct pd_file *f, pd_record_fn fn, void *ctx, char *err, size_t errlen)
{
	int ret = pd_index(f, err, errlen);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < f->nidx; i++) {
		struct pd_record r;
		if ((ret = decode(f, f->idx[i].off, &r, err, errlen)) < 0)
			return ret;
		if ((ret = fn(ctx, &r)) != 0)
			return ret;
	}
	return 0;
}

/* perf reads the sample_id trailer of every record at the end of its size,
 * also of the KSYMBOL and BPF_EVENT records whose size the kernel inflated
 * (see pd_record_true_size): there it finds the padding (zeros: time 0, so
 * they are delivered at once, CPU 0). decode() reads the real trailer;
 * this gives perf's view. */
static void perf_trailer(struct pd_record *r)
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

/* Sort the queue q[0..n) and deliver its records with a time <= limit;
 * *done: how many were. 0, or what decode or fn returned. */
static int deliver_upto(struct pd_file *f, struct rec_index *q, size_t n, uint64_t limit, size_t *done,
			pd_record_fn fn, void *ctx, char *err, size_t errlen)
{
	size_t i = 0;
	int ret = 0;
	merge_sort_index(q, n);
	for (; i < n && q[i].time <= limit; i++) {
		struct pd_record r;
		if ((ret = decode(f, q[i].off, &r, err, errlen)) < 0)
			break;
		perf_trailer(&r);
		if ((ret = fn(ctx, &r)) != 0)
			break;
	}
	*done = i;
	return ret;
}

int pd_process_perf_order(struct pd_file *f, pd_record_fn fn, void *ctx, char *err, size_t errlen)
{
	int ret = pd_index(f, err, errlen);
	if (ret < 0)
		return ret;
	/* the index is in time order: back to file order (offsets are unique) */
	struct rec_index *file = xmalloc((f->nidx ? f->nidx : 1) * sizeof(*file));
	struct rec_index *q = xmalloc((f->nidx ? f->nidx : 1) * sizeof(*q));
	size_t nq = 0, done;
	uint64_t next_flush = 0, max_time = 0;
	for (size_t i = 0; i < f->nidx; i++)	/* sorted by offset (as the time) */
		file[i] = (struct rec_index){ .time = f->idx[i].off, .off = f->idx[i].off };
	merge_sort_index(file, f->nidx);
	for (size_t i = 0; i < f->nidx && !ret; i++) {
		struct pd_record r;
		if ((ret = decode(f, file[i].off, &r, err, errlen)) < 0)
			break;
		perf_trailer(&r);
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
			ret = deliver_upto(f, q, nq, next_flush, &done, fn, ctx, err, errlen);
			memmove(q, q + done, (nq - done) * sizeof(*q));
			nq -= done;
			next_flush = max_time;
		}
	}
	if (!ret)
		ret = deliver_upto(f, q, nq, UINT64_MAX, &done, fn, ctx, err, errlen);
	free(file);
	free(q);
	return ret;
}
