/* SPDX-License-Identifier: GPL-2.0-only */
/* Tracepoint event formats (tracefs events/SYS/NAME/format, and the copies a
 * perf.data file keeps in HEADER_TRACING_DATA) read with libtraceevent, the
 * library perf uses for them: the fields of the event's RAW data and what
 * perf makes of a record with them: one field's value, the whole formatted
 * line (TEP_PRINT_INFO) and the raw "name=value" list (--raw-trace).
 *
 * Every input is untrusted: libtraceevent parses a recording's formats in a
 * worker process first, as it crashes on some (tp_load.c); a format whose
 * fields do not parse, or lie outside a 64 KiB record, is refused; a record is handed to libtraceevent as
 * a copy at least as long as the longest event's fields, zero-padded and
 * NUL-terminated, so nothing outside it is read (libtraceevent checks each
 * __data_loc against the record's size; a print format whose __print_hex or
 * __print_array length it could not bound is shown as "[FAILED TO PARSE]").
 * Library code: no printing (libtraceevent's messages go to log.h). */
#ifndef BPFPERF_PERFDATA_TP_FORMAT_H
#define BPFPERF_PERFDATA_TP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct tep_handle;
struct tep_event;
struct tep_format_field;

/* Field flags, from libtraceevent's TEP_FIELD_IS_* (and TPF_COMMON). */
enum {
	TPF_SIGNED = 1 << 0,	/* signed:1 */
	TPF_ARRAY = 1 << 1,	/* NAME[N], or a __data_loc TYPE[] */
	TPF_DYNAMIC = 1 << 2,	/* __data_loc / __rel_loc: u32 (len << 16 | offset) */
	TPF_RELATIVE = 1 << 3,	/* __rel_loc: offset from the end of the field */
	TPF_STRING = 1 << 4,	/* an array of char (u8, s8): shown as a string */
	TPF_LONG = 1 << 5,	/* "long" in the type */
	TPF_POINTER = 1 << 6,	/* "*" in the type */
	TPF_COMMON = 1 << 7,	/* common_*: before the event's own fields */
};

/* The largest record a format may describe. */
#define TP_REC_MAX 65536u

struct tp_field {
	const char *name;	/* libtraceevent's strings */
	const char *type;	/* as libtraceevent keeps it ("char[16]", "const char *") */
	uint32_t offset, size;
	unsigned flags;		/* TPF_* */
	struct tep_format_field *tf;
};

struct tp_format {
	const char *sys;		/* the system (tracefs directory, or the
					 * system name of HEADER_TRACING_DATA) */
	const char *name;		/* "name: sched_switch" */
	uint64_t id;			/* "ID: 316" */
	struct tp_field *fields;	/* common fields first, in file order */
	size_t nfields;
	const char *print_fmt;		/* the text after "print fmt: " (NULL: none) */
	uint32_t rec_min;		/* records are printed from a copy this long
					 * at least (every event's fields fit in it) */
	struct tep_event *ev;
	struct tep_handle *own;		/* tp_format_parse's handle, freed with it */
};

/* Parse one format text of system sys (NULL: "") with libtraceevent, in a
 * worker process first (tp_load.c: a format that crashes libtraceevent's
 * parser is refused, one whose print format does is marked failed). 0, or
 * -EINVAL when it has no name or ID, its fields do not parse, or they do not
 * fit in TP_REC_MAX (nothing to free then). A print format libtraceevent
 * cannot parse is not an error: the event prints as "[FAILED TO PARSE]". */
int tp_format_parse(const char *text, size_t len, const char *sys, struct tp_format *out);
/* tp_format_parse for a format the running kernel wrote (tracefs), trusted
 * as the kernel is: parsed in this process, without the guard's worker
 * (hundreds of syscall formats at trace's start). */
int tp_format_parse_kernel(const char *text, size_t len, const char *sys, struct tp_format *out);
void tp_format_free(struct tp_format *f);
/* The field called name (NULL: none). Common fields are found too. */
const struct tp_field *tp_format_field(const struct tp_format *f, const char *name);

/* Where field's data is in the record: for a __data_loc/__rel_loc field the
 * dynamic area it points to, else the field itself. false when that is not
 * entirely inside [raw, raw + size) (a corrupt record). */
bool tp_field_data(const struct tp_field *fl, const void *raw, size_t size, const uint8_t **data,
		   size_t *len);
/* An integer field's value, sign-extended when signed (false: outside the
 * record, or not 1, 2, 4 or 8 bytes). */
bool tp_field_num(const struct tp_field *fl, const void *raw, size_t size, uint64_t *val);

/* One field as libtraceevent's tep_print_field prints it: strings as text,
 * other arrays as ARRAY[xx, ...], numbers in decimal (hex for pointers and
 * longs). */
void tp_print_field(struct strbuf *sb, const struct tp_format *f, const struct tp_field *fl,
		    const void *raw, size_t size);
/* " name=value" for each of the event's own fields (perf's --raw-trace). */
void tp_print_fields(struct strbuf *sb, const struct tp_format *f, const void *raw, size_t size);
/* The record formatted by its event's print format (tep_print_event's
 * TEP_PRINT_INFO: what perf script and perf report -s trace show). */
void tp_print_event(struct strbuf *sb, const struct tp_format *f, const void *raw, size_t size);

/* The value perf report shows for a tracepoint-field sort key: taken from the
 * formatted line (the word that starts with the field's name, after the
 * '='), else as tp_print_field prints it; raw_trace: always the latter.
 * line is tp_print_event's text for this record (NULL: computed). */
void tp_field_text(struct strbuf *sb, const struct tp_format *f, const struct tp_field *fl,
		   const void *raw, size_t size, const char *line, bool raw_trace);
/* The width perf gives such a column: the longest of the name, the field's
 * size (twice plus 2 for numbers, printed in hex) and dyn_len (the longest
 * dynamic value seen). */
int tp_field_width(const struct tp_field *fl, size_t dyn_len);

/* All the formats of a file's HEADER_TRACING_DATA, in one libtraceevent
 * handle (formats that do not parse are left out; a section that does not
 * parse gives none). */
struct tp_formats {
	struct tp_format *v;
	size_t n;
	struct tep_handle *tep;
};
void tp_formats_load(struct tp_formats *fs, const void *tracing_data, size_t len);
const struct tp_format *tp_formats_by_id(const struct tp_formats *fs, uint64_t id);
void tp_formats_free(struct tp_formats *fs);

#endif
