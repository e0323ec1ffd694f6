/* SPDX-License-Identifier: GPL-2.0-only */
/* perf.data reader: file mode (written by bpfperf or perf record) and pipe
 * mode. Validates every record against the file's bounds and reports the
 * first problem with its offset; never trusts a size from the file. Records
 * are delivered in time order (stable: ties keep file order). */
#ifndef BPFPERF_PERFDATA_READER_H
#define BPFPERF_PERFDATA_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/format.h"

struct pd_event {
	struct perf_event_attr attr;	/* zero-extended to our struct size */
	char *name;			/* from EVENT_DESC, or derived from attr */
	uint64_t *ids;
	size_t nids;
};

/* The dummy event (software, PERF_COUNT_SW_DUMMY): it carries side-band
 * records and never samples. */
static inline bool pd_event_is_dummy(const struct pd_event *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_DUMMY;
}

/* Fields of a sample, or of a non-sample record's sample_id trailer. */
struct pd_sample {
	uint64_t id, ip, time, addr, period, stream_id;
	uint32_t pid, tid, cpu;
	uint64_t nr_callchain;
	const uint64_t *callchain;	/* points into the file */
	const void *raw;
	uint32_t raw_size;
	bool has_time;
};

struct pd_record {
	const struct perf_event_header *hdr;	/* hdr->type, misc, size */
	uint64_t offset;			/* file offset of the record */
	const struct pd_event *event;		/* the attr it belongs to (may be NULL) */
	struct pd_sample s;
};

struct pd_file;

/* Errors follow the library's convention (log.h): the reader logs each
 * failure once, where it sees it, with pr_err ("<file>: <what>, where; what
 * to do"; files opened with pd_open_mem have no name to start with), and
 * returns a negative errno: -EINVAL for a corrupt or truncated file, else
 * the system's (-ENOENT, -EACCES, -EPERM for a foreign file, -ENOMEM, ...).
 * Its callers pass it up without logging again. The pd_open* functions
 * return NULL on failure and store the negative errno in *errp (errp may be
 * NULL); errno itself is not to be relied on. Where the user needs a
 * command-line option to go on, the message ends with the command's hint
 * (log_hint: LOG_HINT_INPUT_*). */

/* The perf.data file at path, or NULL (see above). */
struct pd_file *pd_open(const char *path, int *errp);
/* pd_open that, like perf, refuses a file owned by neither the effective
 * user nor root (its contents are not trusted) unless any_owner. *owner is
 * then that other owner's uid (the file read or refused), else -1. The
 * owner is checked on the opened file, not on the path. */
struct pd_file *pd_open_owned(const char *path, bool any_owner, long *owner, int *errp);
/* pd_open on an open regular file (fd stays open; name is for the messages). */
struct pd_file *pd_open_fd(int fd, const char *name, int *errp);
/* The standard input as a regular file for pd_open_fd (close() it): stdin
 * itself when it is one (a redirection), else the stream copied to an
 * unlinked file in TMPDIR (or /tmp), so that memory use does not grow with
 * it. A negative errno (logged) when it cannot (a terminal, no room). */
int pd_stdin_file(void);
/* Same on a memory buffer (fuzzing, tests); buf must outlive the pd_file. */
struct pd_file *pd_open_mem(const void *buf, size_t len, int *errp);
void pd_close(struct pd_file *f);

size_t pd_nr_events(const struct pd_file *f);
const struct pd_event *pd_event_at(const struct pd_file *f, size_t i);
bool pd_is_pipe(const struct pd_file *f);
/* Feature section payload, or NULL. */
const void *pd_feature(const struct pd_file *f, int feat, size_t *len);
/* Where the data section and the feature table are (feat_off 0 in pipe mode). */
void pd_layout(const struct pd_file *f, uint64_t *data_off, uint64_t *data_size,
	       uint64_t *feat_off);
/* Whether the data section was cut short (e.g. the recorder was killed). */
uint64_t pd_data_size(const struct pd_file *f);

/* Validate every record and order them by time (done by pd_process if not
 * called before; separate so that other work can overlap it). Returns 0 or
 * a negative errno (logged): -EINVAL for a corrupt file. */
int pd_index(struct pd_file *f);

typedef int (*pd_record_fn)(void *ctx, const struct pd_record *r);
/* Validate, order by time and deliver every record. A non-zero return from fn
 * stops and is returned (fn logs its own errors). Returns -EINVAL on corrupt
 * data (logged, naming the offset and record type). */
int pd_process(struct pd_file *f, pd_record_fn fn, void *ctx);

/* pd_process in the order perf 6.1's report delivers the records (and
 * perf report -D prints them), its ordered-events queue: user-space records
 * (type >= 64) and records without a time (synthesized ones: time 0) as they
 * come in the file; the others queued, and at each FINISHED_ROUND those up
 * to the latest time the previous round had seen delivered in time order
 * (ties in file order); the rest at the end. Validates the whole file
 * first (pd_index), so a corrupt file delivers nothing. */
int pd_process_perf_order(struct pd_file *f, pd_record_fn fn, void *ctx);

/* pd_process for the records of one type only (others are not decoded). */
int pd_process_type(struct pd_file *f, uint32_t type, pd_record_fn fn, void *ctx);

/* "cpu-clock", "cycles", "sched:sched_switch" (tracepoints by id via tracefs
 * when available, else "tracepoint:<id>"). */
char *pd_event_name_from_attr(const struct perf_event_attr *attr);

/* "MMAP", "KSYMBOL", ... for a kernel record type, else "type <n>" (in a
 * per-thread buffer overwritten by the next call). */
const char *pd_record_type_name(uint32_t type);

/* Feature string helpers for readers of sections: read a perf string at *pos
 * within [buf, buf+len); returns NULL if malformed. */
const char *pd_feat_get_string(const void *buf, size_t len, size_t *pos);

#endif
