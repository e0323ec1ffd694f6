/* SPDX-License-Identifier: GPL-2.0-only */
/* Inside perfdata/: what tp_format.c (formats and records) and tp_load.c
 * (formats read from a recording, guarded) share. */
#ifndef BPFPERF_PERFDATA_TP_FORMAT_INT_H
#define BPFPERF_PERFDATA_TP_FORMAT_INT_H

#include "perfdata/tp_format.h"

/* A libtraceevent handle, its messages at our log level (free with tep_free). */
struct tep_handle *tp_tep_new(void);
/* Parse text into tep. The event, or NULL for a format refused (no name or
 * ID, fields that do not parse or do not fit in TP_REC_MAX; libtraceevent
 * keeps a refused event in tep all the same); *extent: the end of its
 * fields. A print format that does not parse, or that could make
 * libtraceevent read outside a record, marks the event failed. */
struct tep_event *tp_parse_into(struct tep_handle *tep, const char *text, size_t len, const char *sys,
				uint32_t *extent);
/* f describes ev (fields from libtraceevent's lists; nothing copied). */
void tp_fill_format(struct tp_format *f, struct tep_event *ev, uint32_t rec_min);

#endif
