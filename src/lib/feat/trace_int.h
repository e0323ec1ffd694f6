/* SPDX-License-Identifier: GPL-2.0-only */
/* The trace feature's state, shared by trace.c (lifecycle, events) and
 * trace_summary.c (summary maps and per-CPU caches). Not for commands. */
#ifndef BPFPERF_FEAT_TRACE_INT_H
#define BPFPERF_FEAT_TRACE_INT_H

#include "feat/trace.h"
#include "oa.h"

struct trace_bpf;
struct ring_buffer;

/* Copied arguments of the call in flight, per tid, until its exit record. */
struct trace_pending {
	uint32_t tid, nr;
	size_t len, cap;
	unsigned char *buf;	/* items after the aug header */
};

struct trace {
	struct trace_opts o;
	struct trace_bpf *skel;
	struct ring_buffer *rb;
	enum trace_design design;
	const char *why;	/* why not task storage, or NULL */
	bool attached;
	uint64_t nr_events;
	uint64_t nr_bad_records;
	uint64_t poll_end;	/* now_ns() after which trace_poll hands back */
	uint64_t poll_records;	/* records of the current trace_poll */
	struct oa_imap pending;	/* struct trace_pending by tid */
};

#endif
