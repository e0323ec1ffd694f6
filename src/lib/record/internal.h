/* SPDX-License-Identifier: GPL-2.0-only */
/* What the files of the recording engine share (record.c: lifecycle and
 * events; drain.c: rings and side band; features.c: header features). */
#ifndef BPFPERF_RECORD_INTERNAL_H
#define BPFPERF_RECORD_INTERNAL_H

#include "record/record.h"
#include "event/event.h"
#include "event/synth.h"

#include <poll.h>

enum rec_event_kind {
	REC_EV_SAMPLING,	/* an event asked for: per CPU, or per task */
	REC_EV_ADDED,		/* added by a hook */
	REC_EV_SIDEBAND,	/* BPF program loads/unloads: system wide, last */
};

struct rec_event {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nids, ids_cap;
	enum rec_event_kind kind;
	bool per_task;		/* REC_EV_ADDED: opened like the sampling events */
	int leader;		/* index of its group leader ({a,b} in -e), -1 outside groups */
};

struct rec_fd {
	int fd;
	int event;		/* index in events */
	int cpu;
	pid_t pid;
};

struct recording {
	struct recording_opts opts;
	struct rec_event *events;
	size_t nevents, events_cap;
	struct rec_fd *fds;
	size_t nfds, fds_cap;
	int *sample_fds;	/* fds of the sampling events */
	size_t nsample_fds, sample_fds_cap;
	struct perf_ring *rings;	/* one per CPU */
	int nrings;
	struct pollfd *pfd;	/* one per ring */
	struct pd_writer *w;
	struct synth synth;
	uint64_t samples, lost, records;
	size_t id_hdr_size;	/* sample_id trailer size of our events */
	bool read_lost;		/* PERF_FORMAT_LOST asked for and available */
	bool configuring;	/* configure hooks running: events may be added */
	struct rec_hits *hits;	/* buildids.c: what the samples hit */
	bool samples_parsed;	/* every ring event's samples start as rec_sample_head */
};

/* The first fields of our samples (IDENTIFIER, IP, TID, TIME first). */
struct rec_sample_head {
	struct perf_event_header header;
	uint64_t id, ip;
	uint32_t pid, tid;
	uint64_t time;
};

/* drain.c: append every ring's records to the file, then commit. */
int rec_drain_all(struct recording *r);
/* features.c: the header feature sections. */
void rec_add_features(struct recording *r);
/* buildids.c: the DSOs hit (see there), HEADER_BUILD_ID, HEADER_SAMPLE_TIME
 * and the build-id cache. */
void rec_hits_init(struct recording *r);
void rec_hits_sample(struct recording *r, const struct rec_sample_head *s);
/* MMAP, MMAP2 and FORK records, as read from a ring or synthesized. */
void rec_hits_record(struct recording *r, const void *rec, size_t size);
void rec_hits_finish(struct recording *r);
void rec_hits_free(struct recording *r);

#endif
