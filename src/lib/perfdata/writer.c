// SPDX-License-Identifier: GPL-2.0-only
#include "perfdata/writer.h"
#include "log.h"
#include "out/ofile.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct pd_attr_entry {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nids;
};

struct pd_feature_data {
	void *data;
	size_t len;
	bool sent;	/* pipe mode: already in the stream as it is now */
};

struct pd_writer {
	struct ofile *of;
	int fd;
	char *path;
	bool pipe;	/* pipe mode: a stream, nothing is rewritten */
	bool begun;
	struct pd_attr_entry *attrs;
	size_t nattrs, attrs_cap;
	struct pd_file_header hdr;
	uint64_t data_size;
	uint64_t committed;
	struct pd_feature_data feats[PD_FEAT_MAX];
};

static int pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;
	while (len) {
		ssize_t n = pwrite(fd, p, len, off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

struct pd_writer *pd_writer_create(const char *path, int *err)
{
	if (strcmp(path, "-") == 0) {
		/* our own descriptor: closing it at finish leaves stdout open */
		int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (fd < 0) {
			*err = -errno;
			return NULL;
		}
		struct pd_writer *w = xcalloc(1, sizeof(*w));
		w->fd = fd;
		w->path = xstrdup("standard output");
		w->pipe = true;
		return w;
	}
	struct ofile *of;
	/* Mode 0600, never through a symlink nor into someone else's file;
	 * at PATH from the start, so that a killed recorder leaves it readable. */
	*err = ofile_open(path, OFILE_PRIVATE, OFILE_KEEP_OLD | OFILE_PUBLISH_EARLY, &of);
	if (*err)
		return NULL;
	if (lseek(ofile_fd(of), 0, SEEK_SET) < 0) {
		*err = -errno;
		pr_err("cannot write %s: %s; a recording needs a seekable file, not a pipe", path,
		       log_strerr(*err));
		ofile_abort(of);
		return NULL;
	}
	struct pd_writer *w = xcalloc(1, sizeof(*w));
	w->of = of;
	w->fd = ofile_fd(of);
	w->path = xstrdup(path);
	return w;
}

bool pd_writer_is_pipe(const struct pd_writer *w)
{
	return w->pipe;
}

int pd_writer_add_attr(struct pd_writer *w, const struct perf_event_attr *attr,
		       const char *name, const uint64_t *ids, size_t nids)
{
	ARRAY_GROW(w->attrs, w->attrs_cap, w->nattrs + 1);
	struct pd_attr_entry *e = &w->attrs[w->nattrs++];
	memset(&e->attr, 0, sizeof(e->attr));
	memcpy(&e->attr, attr, sizeof(*attr) < PD_ATTR_SIZE ? sizeof(*attr) : PD_ATTR_SIZE);
	e->attr.size = PD_ATTR_SIZE;
	e->name = xstrdup(name);
	e->ids = xcalloc(nids, sizeof(uint64_t));
	if (nids)	/* an event opened nowhere has no ids (ids may be NULL) */
		memcpy(e->ids, ids, nids * sizeof(uint64_t));
	e->nids = nids;
	return 0;
}

static void add_event_desc(struct pd_writer *w);
static int pipe_begin(struct pd_writer *w);
static int pipe_send_features(struct pd_writer *w);

int pd_writer_begin(struct pd_writer *w)
{
	int err;
	uint64_t off = sizeof(struct pd_file_header);
	w->begun = true;
	if (w->pipe)
		return pipe_begin(w);
	struct pd_section *id_secs = xcalloc(w->nattrs, sizeof(*id_secs));

	if (lseek(w->fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	for (size_t i = 0; i < w->nattrs; i++) {
		id_secs[i].offset = off;
		id_secs[i].size = w->attrs[i].nids * sizeof(uint64_t);
		if ((err = write_full(w->fd, w->attrs[i].ids, id_secs[i].size)))
			goto out;
		off += id_secs[i].size;
	}
	w->hdr.magic = PERF_MAGIC2;
	w->hdr.size = sizeof(struct pd_file_header);
	w->hdr.attr_size = PD_ATTR_SIZE + sizeof(struct pd_section);
	w->hdr.attrs.offset = off;
	w->hdr.attrs.size = w->nattrs * w->hdr.attr_size;
	for (size_t i = 0; i < w->nattrs; i++) {
		if ((err = write_full(w->fd, &w->attrs[i].attr, PD_ATTR_SIZE)))
			goto out;
		if ((err = write_full(w->fd, &id_secs[i], sizeof(id_secs[i]))))
			goto out;
	}
	off += w->hdr.attrs.size;
	w->hdr.data.offset = off;
	w->hdr.data.size = 0;
	err = pwrite_full(w->fd, &w->hdr, sizeof(w->hdr), 0);
out:
	free(id_secs);
	return err;
}

int pd_writer_write(struct pd_writer *w, const void *buf, size_t len)
{
	int err = write_full(w->fd, buf, len);
	if (!err)
		w->data_size += len;
	return err;
}

int pd_writer_writev(struct pd_writer *w, const struct iovec *iov, int iovcnt)
{
	size_t total = 0;
	for (int i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	struct iovec local[8];
	if (iovcnt > 8)
		return -EINVAL;
	memcpy(local, iov, sizeof(*iov) * (size_t)iovcnt);
	size_t done = 0;
	int idx = 0;
	while (done < total) {
		ssize_t n = writev(w->fd, local + idx, iovcnt - idx);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += (size_t)n;
		size_t adv = (size_t)n;
		while (idx < iovcnt && adv >= local[idx].iov_len) {
			adv -= local[idx].iov_len;
			idx++;
		}
		if (idx < iovcnt) {
			local[idx].iov_base = (char *)local[idx].iov_base + adv;
			local[idx].iov_len -= adv;
		}
	}
	w->data_size += total;
	return 0;
}

int pd_writer_commit(struct pd_writer *w)
{
	if (w->committed == w->data_size)
		return 0;
	if (w->pipe) {
		/* A stream has no header to update: the end of a round tells
		 * readers that sort by time (perf) what they may process. */
		struct perf_event_header round = {
			.type = PD_RECORD_FINISHED_ROUND, .size = sizeof(round),
		};
		int err = write_full(w->fd, &round, sizeof(round));
		if (!err)
			w->data_size += sizeof(round);
		w->committed = w->data_size;
		return err;
	}
	w->hdr.data.size = w->data_size;
	w->committed = w->data_size;
	return pwrite_full(w->fd, &w->hdr.data, sizeof(w->hdr.data),
			   (off_t)offsetof(struct pd_file_header, data));
}

void pd_writer_add_feature(struct pd_writer *w, enum pd_feature feat, const void *data, size_t len)
{
	if ((int)feat <= 0 || feat >= PD_FEAT_MAX)
		return;
	if (w->feats[feat].sent && w->feats[feat].len == len && !memcmp(w->feats[feat].data, data, len))
		return;	/* pipe mode: the stream has it already */
	w->feats[feat].sent = false;
	free(w->feats[feat].data);
	w->feats[feat].data = xmalloc(len);
	memcpy(w->feats[feat].data, data, len);
	w->feats[feat].len = len;
}

void pd_feat_put_u32(struct strbuf *b, uint32_t v)
{
	sb_append_len(b, (const char *)&v, sizeof(v));
}

void pd_feat_put_u64(struct strbuf *b, uint64_t v)
{
	sb_append_len(b, (const char *)&v, sizeof(v));
}

void pd_feat_put_string(struct strbuf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded = ALIGN_UP(n, PD_STRING_ALIGN);
	static const char zeros[PD_STRING_ALIGN];
	pd_feat_put_u32(b, (uint32_t)padded);
	sb_append_len(b, s, n - 1);
	sb_append_len(b, zeros, padded - (n - 1));
}

static void add_event_desc(struct pd_writer *w)
{
	struct strbuf b = { 0 };
	pd_feat_put_u32(&b, (uint32_t)w->nattrs);
	pd_feat_put_u32(&b, PD_ATTR_SIZE);
	for (size_t i = 0; i < w->nattrs; i++) {
		sb_append_len(&b, (const char *)&w->attrs[i].attr, PD_ATTR_SIZE);
		pd_feat_put_u32(&b, (uint32_t)w->attrs[i].nids);
		pd_feat_put_string(&b, w->attrs[i].name);
		sb_append_len(&b, (const char *)w->attrs[i].ids, w->attrs[i].nids * sizeof(uint64_t));
	}
	pd_writer_add_feature(w, PD_FEAT_EVENT_DESC, b.buf, b.len);
	sb_free(&b);
}

int pd_writer_finish(struct pd_writer *w)
{
	int err;
	add_event_desc(w);
	if (w->pipe) {
		/* what was added since the start (BPF programs seen meanwhile) */
		err = pipe_send_features(w);
		w->committed = w->data_size;
		if (close(w->fd) < 0 && !err)
			err = -errno;
		w->fd = -1;
		return err;
	}
	w->hdr.data.size = w->data_size;
	uint64_t table_off = w->hdr.data.offset + w->data_size;
	size_t nfeat = 0;
	memset(w->hdr.adds_features, 0, sizeof(w->hdr.adds_features));
	for (int f = 1; f < PD_FEAT_MAX; f++)
		if (w->feats[f].data) {
			w->hdr.adds_features[f / 64] |= 1ULL << (f % 64);
			nfeat++;
		}
	struct pd_section *secs = xcalloc(nfeat, sizeof(*secs));
	uint64_t off = table_off + nfeat * sizeof(struct pd_section);
	size_t k = 0;
	for (int f = 1; f < PD_FEAT_MAX; f++) {
		if (!w->feats[f].data)
			continue;
		secs[k].offset = off;
		secs[k].size = w->feats[f].len;
		if ((err = pwrite_full(w->fd, w->feats[f].data, w->feats[f].len, (off_t)off)))
			goto out;
		off += w->feats[f].len;
		k++;
	}
	if ((err = pwrite_full(w->fd, secs, nfeat * sizeof(*secs), (off_t)table_off)))
		goto out;
	if (ofile_is_regular(w->of) && ftruncate(w->fd, (off_t)off) < 0) {
		err = -errno;
		goto out;
	}
	err = pwrite_full(w->fd, &w->hdr, sizeof(w->hdr), 0);
	w->committed = w->data_size;
out:
	free(secs);
	if (err) {
		ofile_abort(w->of);	/* published at create: stays, readable up to the last commit */
	} else {
		err = ofile_close(w->of);
	}
	w->of = NULL;
	w->fd = -1;
	return err;
}

void pd_writer_free(struct pd_writer *w)
{
	if (!w)
		return;
	ofile_abort(w->of);
	for (size_t i = 0; i < w->nattrs; i++) {
		free(w->attrs[i].name);
		free(w->attrs[i].ids);
	}
	free(w->attrs);
	for (int f = 0; f < PD_FEAT_MAX; f++)
		free(w->feats[f].data);
	free(w->path);
	free(w);
}

uint64_t pd_writer_data_size(const struct pd_writer *w)
{
	return w->data_size;
}

/* ---- pipe mode ----
 * perf's stream format: a 16-byte header, the attrs as HEADER_ATTR records,
 * the features as HEADER_FEATURE records closed by one whose id is perf's
 * HEADER_LAST_FEATURE, the tracepoint formats as a HEADER_TRACING_DATA
 * record followed by the data, then the records. Nothing is rewritten: the
 * data size is never known, FINISHED_ROUND ends each commit. */

static int pipe_write(struct pd_writer *w, const void *buf, size_t len)
{
	int err = write_full(w->fd, buf, len);
	if (!err)
		w->data_size += len;
	return err;
}

/* HEADER_TRACING_DATA: the record says how many bytes follow it (padded to
 * 8); its own size does not count them. */
static int pipe_send_tracing_data(struct pd_writer *w, const void *data, size_t len)
{
	static const char zeros[8];
	size_t aligned = ALIGN_UP(len, 8);
	struct __attribute__((packed)) {
		struct perf_event_header h;
		uint32_t size;
	} rec = { .h = { .type = PD_RECORD_HEADER_TRACING_DATA, .size = sizeof(rec) },
		  .size = (uint32_t)aligned };
	int err = pipe_write(w, &rec, sizeof(rec));
	if (!err)
		err = pipe_write(w, data, len);
	if (!err)
		err = pipe_write(w, zeros, aligned - len);
	return err;
}

static int pipe_send_feature(struct pd_writer *w, uint64_t feat, const void *data, size_t len)
{
	struct pd_rec_header_feature fr = {
		.header = { .type = PD_RECORD_HEADER_FEATURE },
		.feat_id = feat,
	};
	size_t total = sizeof(fr) + ALIGN_UP(len, 8);
	if (total > UINT16_MAX) {
		/* a record's size is 16 bits; perf drops these too */
		pr_debug("feature %llu (%zu bytes) does not fit in a pipe-mode record; not sent",
			 (unsigned long long)feat, len);
		return 0;
	}
	static const char zeros[8];
	fr.header.size = (uint16_t)total;
	struct iovec iov[3] = {
		{ &fr, sizeof(fr) }, { (void *)data, len }, { (void *)zeros, total - sizeof(fr) - len },
	};
	return pd_writer_writev(w, iov, 3);
}

static int pipe_send_features(struct pd_writer *w)
{
	int err = 0;
	for (int f = 1; f < PD_FEAT_MAX && !err; f++) {
		struct pd_feature_data *d = &w->feats[f];
		if (!d->data || d->sent)
			continue;
		if (f == PD_FEAT_TRACING_DATA)
			err = pipe_send_tracing_data(w, d->data, d->len);
		else if (f == PD_FEAT_BUILD_ID || f == PD_FEAT_AUXTRACE)
			;	/* perf reads these at a file offset, from the stream in a pipe: never sent */
		else if (f < PD_FEAT_LAST_61)	/* perf 6.1 fails on ids past its last */
			err = pipe_send_feature(w, (uint64_t)f, d->data, d->len);
		d->sent = true;
	}
	return err;
}

static int pipe_begin(struct pd_writer *w)
{
	struct pd_pipe_header ph = { .magic = PERF_MAGIC2, .size = sizeof(ph) };
	int err = write_full(w->fd, &ph, sizeof(ph));
	for (size_t i = 0; i < w->nattrs && !err; i++) {
		struct pd_attr_entry *e = &w->attrs[i];
		size_t size = sizeof(struct pd_rec_header_attr) + PD_ATTR_SIZE + e->nids * sizeof(uint64_t);
		if (size > UINT16_MAX) {
			pr_err("event '%s' has %zu sample ids, more than a pipe-mode attr record "
			       "holds; record fewer threads or CPUs, or write a file",
			       e->name, e->nids);
			return -E2BIG;
		}
		struct pd_rec_header_attr h = {
			.header = { .type = PD_RECORD_HEADER_ATTR, .size = (uint16_t)size },
		};
		struct iovec iov[3] = {
			{ &h, sizeof(h) }, { &e->attr, PD_ATTR_SIZE },
			{ e->ids, e->nids * sizeof(uint64_t) },
		};
		err = pd_writer_writev(w, iov, 3);
	}
	if (err)
		return err;
	/* the event names (perf reads them by id: after the attrs) */
	add_event_desc(w);
	if ((err = pipe_send_features(w)))
		return err;
	struct pd_rec_header_feature last = {
		.header = { .type = PD_RECORD_HEADER_FEATURE, .size = sizeof(last) },
		.feat_id = PD_FEAT_LAST_61,
	};
	if ((err = pipe_write(w, &last, sizeof(last))))
		return err;
	w->committed = w->data_size;
	return 0;
}
