/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf trace's output: one line (or JSON object) per call, and the
 * summary as text or as one JSON document. */
#ifndef BPFPERF_CMD_TRACE_PRINT_H
#define BPFPERF_CMD_TRACE_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "feat/trace.h"
#include "util.h"

struct trace_printer {
	FILE *out;
	const struct sc_table *table;
	bool abs_time;		/* CLOCK_MONOTONIC timestamps, not since t0 */
	bool errno_summary;	/* JSON summary rows get an "errnos" object */
	uint64_t t0;		/* when tracing started */
	struct strbuf line;	/* reused for every line */
};

/* trace_event_cb's for trace_opts.on_event (ctx: struct trace_printer *). */
void trace_print_event_text(void *ctx, const struct trace_event *ev);
void trace_print_event_json(void *ctx, const struct trace_event *ev);

/* JSON stream records of losses: {"type":"lost","time_ns":T,"lost_events":N,
 * "lost_arguments":N,"total_lost_events":N,"total_lost_arguments":N} when
 * more were lost since the last one (the counts since then, and in all),
 * {"type":"lost_total","lost_events":N,"lost_arguments":N} at the end. */
void trace_print_lost_json(struct trace_printer *p, uint64_t events, uint64_t arguments,
			   uint64_t total_events, uint64_t total_arguments);
void trace_print_lost_total_json(struct trace_printer *p, uint64_t events, uint64_t arguments);

/* The summary as text ("Summary of events:", a table per thread). */
void trace_print_summary_text(struct trace_printer *p, const struct trace_summary *s);
/* {"syscalls": [...], "lost_events": N, "lost_arguments": N,
 * "summary_overflows": N}, pretty printed when it is the only output. */
void trace_print_summary_json(struct trace_printer *p, const struct trace_summary *s, bool pretty);

#endif
