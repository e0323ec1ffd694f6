/* SPDX-License-Identifier: GPL-2.0-only */
/* HEADER_TRACING_DATA: the tracefs formats of the tracepoint events in a
 * file, which perf needs to read any file with a tracepoint event. */
#ifndef BPFPERF_PERFDATA_TRACING_DATA_H
#define BPFPERF_PERFDATA_TRACING_DATA_H

#include <linux/perf_event.h>
#include <stddef.h>

#include "util.h"

/* Append the section for the tracepoint attrs among attrs[0..n) (tracefs
 * mounted at tracefs). Returns 0, or -errno if a format cannot be read. */
int pd_tracing_data_build(struct strbuf *b, const char *tracefs,
			  const struct perf_event_attr *const *attrs, size_t n);

#endif
