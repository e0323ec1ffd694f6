/* SPDX-License-Identifier: GPL-2.0-only */
/* perf.data writer. Layout as perf record: header, id arrays, attrs, data,
 * feature sections. The header's data size is updated at every commit, so a
 * writer killed with SIGKILL leaves a file that is readable up to the last
 * commit (perf itself loses the whole file there). */
#ifndef BPFPERF_PERFDATA_WRITER_H
#define BPFPERF_PERFDATA_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "perfdata/format.h"
#include "util.h"

struct pd_writer;

/* Create path (mode 0600) through out/ofile.h: created with O_EXCL |
 * O_NOFOLLOW and renamed into place at once (a symlink at path is replaced,
 * not followed). An existing non-empty file is renamed to path.old first, as
 * perf does. Returns NULL with *err = -errno, the error logged.
 * Path "-": perf's pipe mode on standard output (a stream that perf report
 * -i - and perf inject read): attrs, then the features added before
 * pd_writer_begin, then the records; features added later are sent at
 * finish, and each commit ends a round (FINISHED_ROUND). */
struct pd_writer *pd_writer_create(const char *path, int *err);
bool pd_writer_is_pipe(const struct pd_writer *w);
/* Before pd_writer_begin: one attr per event, its sample ids and its name. */
int pd_writer_add_attr(struct pd_writer *w, const struct perf_event_attr *attr,
		       const char *name, const uint64_t *ids, size_t nids);
/* Writes header, ids and attrs; records may follow. */
int pd_writer_begin(struct pd_writer *w);
int pd_writer_write(struct pd_writer *w, const void *buf, size_t len);
int pd_writer_writev(struct pd_writer *w, const struct iovec *iov, int iovcnt);
/* Make everything written so far part of the file (header data.size). */
int pd_writer_commit(struct pd_writer *w);
/* A feature section to write at finish (payload copied). */
void pd_writer_add_feature(struct pd_writer *w, enum pd_feature feat, const void *data, size_t len);
/* Adds EVENT_DESC from the attrs, writes the feature sections and the final
 * header, closes the file. Returns 0 or -errno. */
int pd_writer_finish(struct pd_writer *w);
void pd_writer_free(struct pd_writer *w);
uint64_t pd_writer_data_size(const struct pd_writer *w);

/* Feature payload helpers (append to a byte buffer). */
void pd_feat_put_u32(struct strbuf *b, uint32_t v);
void pd_feat_put_u64(struct strbuf *b, uint64_t v);
void pd_feat_put_string(struct strbuf *b, const char *s);

#endif
