// SPDX-License-Identifier: GPL-2.0-only
/* perf.data reader (see reader.h): opening a file, its file mode header or
 * pipe mode header records, the attrs and the feature sections. The other
 * parts are in inflate.c, decode.c, order.c and spool.c (reader_int.h). */
#include "perfdata/reader.h"
#include "perfdata/reader_int.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void pd_err(const struct pd_file *f, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	if (!log_errors_wanted())
		return;	/* fuzzing (LOG_SILENT): no formatting at all */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (f && f->name)
		pr_err("%s: %s", f->name, msg);
	else
		pr_err("%s", msg);
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

/* The attr section of a file mode header: an event for each attr, with its
 * ids. 0, or -EINVAL (logged). */
static int read_attrs(struct pd_file *f, const struct pd_file_header *h)
{
	if (h->attrs.offset > f->len || h->attrs.size > f->len - h->attrs.offset ||
	    h->attrs.size % h->attr_size) {
		pd_err(f, "attr section (offset %llu, size %llu) lies outside the %zu-byte file",
		       (unsigned long long)h->attrs.offset, (unsigned long long)h->attrs.size, f->len);
		return -EINVAL;
	}
	size_t nattr = h->attrs.size / h->attr_size;
	if (nattr == 0) {
		pd_err(f, "file has no events (attr section is empty)");
		return -EINVAL;
	}
	for (size_t i = 0; i < nattr; i++) {
		const uint8_t *p = f->buf + h->attrs.offset + i * h->attr_size;
		size_t alen = h->attr_size - 16;
		struct pd_event *e = add_event(f, p, alen);
		struct pd_section ids;
		memcpy(&ids, p + alen, sizeof(ids));
		if (ids.offset > f->len || ids.size > f->len - ids.offset || ids.size % 8) {
			pd_err(f, "attr %zu at offset %llu: id array outside the file", i,
			       (unsigned long long)(h->attrs.offset + i * h->attr_size));
			return -EINVAL;
		}
		e->nids = ids.size / 8;
		e->ids = xcalloc(e->nids, 8);
		memcpy(e->ids, f->buf + ids.offset, ids.size);
	}
	return 0;
}

/* Feature sections: a table of {offset,size} after data, one per bit of
 * h->adds_features. A section outside the file is warned about and left
 * out; the features whose entries lie outside it too. */
static void read_feature_table(struct pd_file *f, const struct pd_file_header *h)
{
	uint64_t toff = h->data.offset + h->data.size;
	f->feat_off = toff;
	int k = 0;
	for (int bit = 1; bit < PD_FEAT_MAX; bit++) {
		if (!(h->adds_features[bit / 64] & (1ULL << (bit % 64))))
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
}

/* The file header, attrs and feature sections of a perf.data file, each
 * bounds-checked against the file (untrusted input): one check after another,
 * each naming the offset that is wrong. */
static int open_file_mode(struct pd_file *f)
{
	struct pd_file_header h;
	memset(&h, 0, sizeof(h));
	if (f->len < 72) {
		pd_err(f, "file is %zu bytes, shorter than a perf.data header", f->len);
		return -EINVAL;
	}
	memcpy(&h, f->buf, f->len < sizeof(h) ? f->len : sizeof(h));
	if (h.size != sizeof(h) && h.size != 72) {
		pd_err(f, "header at offset 0: unsupported header size %llu", (unsigned long long)h.size);
		return -EINVAL;
	}
	if (h.size == 72)
		memset(h.adds_features, 0, sizeof(h.adds_features));
	if (h.attr_size < 16 + PERF_ATTR_SIZE_VER0 || h.attr_size > 4096) {
		pd_err(f, "header at offset 8: bad attr size %llu", (unsigned long long)h.attr_size);
		return -EINVAL;
	}
	if (read_attrs(f, &h) < 0)
		return -EINVAL;
	f->data_off = h.data.offset;
	f->data_size = h.data.size;
	if (h.data.offset % 8) {
		pd_err(f, "header at offset 40: data section offset %llu is not 8-byte aligned: "
		       "corrupt file", (unsigned long long)h.data.offset);
		return -EINVAL;
	}
	if (h.data.offset > f->len) {
		pd_err(f, "data section starts at offset %llu, past the end of the %zu-byte file "
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
		pd_err(f, "data section (offset %llu, size %llu) runs past the end of the "
		       "%zu-byte file: the file is truncated", (unsigned long long)h.data.offset,
		       (unsigned long long)h.data.size, f->len);
		return -EINVAL;
	}
	read_feature_table(f, &h);
	apply_event_desc(f);
	finish_events(f);
	return 0;
}

/* A HEADER_TRACING_DATA record (pipe mode, and the data section of what
 * perf inject makes of a stream) is followed by the tracepoint formats,
 * which its size does not count: their length (u32 after the header), or 0
 * for any other record. */
uint64_t pd_trailing_data_size(const struct pd_file *f, uint64_t off,
			       const struct perf_event_header *hdr)
{
	uint32_t n = 0;
	if (hdr->type == PD_RECORD_HEADER_TRACING_DATA && hdr->size >= sizeof(*hdr) + 4)
		memcpy(&n, f->buf + off + sizeof(*hdr), 4);
	return n;
}

uint64_t pd_record_span(const struct pd_file *f, uint64_t off, uint64_t end,
			struct perf_event_header *hdr)
{
	memcpy(hdr, f->buf + off, sizeof(*hdr));
	if (hdr->size < sizeof(*hdr) || hdr->size > end - off)
		return 0;
	uint64_t extra = pd_trailing_data_size(f, off, hdr);
	return extra > end - off - hdr->size ? 0 : hdr->size + extra;
}

/* Pipe mode: attrs and features are records inside the stream. */
static int open_pipe_mode(struct pd_file *f)
{
	size_t pos = 16;
	f->data_off = 16;
	f->data_size = f->len - 16;
	f->unterminated = true;	/* a stream ends where its writer stopped */
	while (pos + sizeof(struct perf_event_header) <= f->len) {
		struct perf_event_header hdr;
		uint64_t span = pd_record_span(f, pos, f->len, &hdr);
		if (!span)
			break;	/* reported by pd_process */
		if (hdr.type == PD_RECORD_HEADER_TRACING_DATA) {
			f->feats[PD_FEAT_TRACING_DATA].data = f->buf + pos + hdr.size;
			f->feats[PD_FEAT_TRACING_DATA].len = span - hdr.size;
		} else if (hdr.type == PD_RECORD_HEADER_ATTR) {
			const uint8_t *p = f->buf + pos + sizeof(struct pd_rec_header_attr);
			size_t body = hdr.size - sizeof(struct pd_rec_header_attr);
			uint32_t asz;
			if (body < offsetof(struct perf_event_attr, size) + sizeof(asz)) {
				pd_err(f, "HEADER_ATTR record at offset %zu is too short", pos);
				return -EINVAL;
			}
			memcpy(&asz, p + offsetof(struct perf_event_attr, size), sizeof(asz));
			if (asz < PERF_ATTR_SIZE_VER0 || asz > body) {
				pd_err(f, "HEADER_ATTR record at offset %zu: bad attr size %u", pos, asz);
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
		pos += span;
	}
	if (f->nevents == 0) {
		pd_err(f, "pipe-mode file has no HEADER_ATTR record: no events");
		return -EINVAL;
	}
	apply_event_desc(f);
	finish_events(f);
	return 0;
}

/* The file in f->buf: f, or NULL with the negative errno in *errp (when
 * errp is not NULL) and f closed. */
static struct pd_file *open_common(struct pd_file *f, int *errp)
{
	uint64_t magic, size;
	int r;
	if (f->len < 16) {
		pd_err(f, "file is %zu bytes, too short for a perf.data header", f->len);
		r = -EINVAL;
		goto fail;
	}
	memcpy(&magic, f->buf, 8);
	memcpy(&size, f->buf + 8, 8);
	if (magic == PERF_MAGIC2_SWAPPED) {
		pd_err(f, "file was recorded on a machine of the other byte order; "
		       "cross-endian perf.data is not supported");
		r = -EOPNOTSUPP;
		goto fail;
	}
	if (magic != PERF_MAGIC2) {
		pd_err(f, "not a perf.data file (bad magic at offset 0; "
		       "old PERFFILE v1 files are not supported either)");
		r = -EINVAL;
		goto fail;
	}
	if (size == 16) {	/* pipe mode: header records in the stream, which may be compressed */
		f->pipe = true;
		f->data_off = 16;
		f->data_size = f->len - 16;
		r = pd_inflate_data(f);
		if (r >= 0)
			r = open_pipe_mode(f);
	} else {
		/* COMPRESSED records are inflated by pd_index when it meets
		 * the first: no pass over the data for files without */
		r = open_file_mode(f);
	}
	if (r < 0)
		goto fail;
	return f;
fail:
	pd_close(f);
	if (errp)
		*errp = r;
	return NULL;
}

struct pd_file *pd_open_mem(const void *buf, size_t len, int *errp)
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
	return open_common(f, errp);
}

static struct pd_file *open_failed(int err, int *errp)
{
	if (errp)
		*errp = err;
	return NULL;
}

struct pd_file *pd_open_fd(int fd, const char *name, int *errp)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		pd_err(NULL, "%s is not a regular file", name);
		return open_failed(-EINVAL, errp);
	}
	struct pd_file *f = xcalloc(1, sizeof(*f));
	f->len = (size_t)st.st_size;
	if (f->len) {
		void *p = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (p == MAP_FAILED) {
			int e = errno;
			pd_err(NULL, "cannot map %s: %s", name, strerror(e));
			free(f);
			return open_failed(-e, errp);
		}
		f->buf = p;
		f->mapped = true;
	}
	f->name = xstrdup(name);
	return open_common(f, errp);
}

struct pd_file *pd_open(const char *path, int *errp)
{
	long owner;
	return pd_open_owned(path, true, &owner, errp);
}

struct pd_file *pd_open_owned(const char *path, bool any_owner, long *owner, int *errp)
{
	*owner = -1;
	struct stat st;
	/* never blocks on a FIFO planted at the path */
	int fd = open_regular(path, 0, &st);
	if (fd == -EINVAL) {
		pd_err(NULL, "%s is %s, not a regular file: give the path of a perf.data file",
		       path, file_type_name(st.st_mode));
		return open_failed(fd, errp);
	}
	if (fd < 0) {
		pd_err(NULL, "cannot open %s: %s%s", path, strerror(-fd),
		       fd == -ENOENT ? log_hint(LOG_HINT_INPUT_MISSING) : "");
		return open_failed(fd, errp);
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		*owner = (long)st.st_uid;
		if (!any_owner) {
			pd_err(NULL, "%s is not owned by the current user or root (uid %ld owns it): its "
			       "contents are not trusted%s", path, *owner, log_hint(LOG_HINT_INPUT_FOREIGN));
			close(fd);
			return open_failed(-EPERM, errp);
		}
	}
	struct pd_file *f = pd_open_fd(fd, path, errp);
	close(fd);
	return f;
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
	free(f->name);
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
