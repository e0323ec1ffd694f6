// SPDX-License-Identifier: GPL-2.0-only
#include "perfdata/writer.h"
#include "log.h"
#include "out/ofile.h"

#include <errno.h>
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
};

struct pd_writer {
	struct ofile *of;
	int fd;
	char *path;
	struct pd_attr_entry *attrs;
	size_t nattrs, attrs_cap;
	struct pd_file_header hdr;
	uint64_t data_size;
	uint64_t committed;
	struct pd_feature_data feats[PD_FEAT_MAX];
};

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

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
	memcpy(e->ids, ids, nids * sizeof(uint64_t));
	e->nids = nids;
	return 0;
}

int pd_writer_begin(struct pd_writer *w)
{
	int err;
	uint64_t off = sizeof(struct pd_file_header);
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
	w->hdr.data.size = w->data_size;
	w->committed = w->data_size;
	return pwrite_full(w->fd, &w->hdr.data, sizeof(w->hdr.data),
			   (off_t)offsetof(struct pd_file_header, data));
}

void pd_writer_add_feature(struct pd_writer *w, enum pd_feature feat, const void *data, size_t len)
{
	if ((int)feat <= 0 || feat >= PD_FEAT_MAX)
		return;
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
