/* SPDX-License-Identifier: GPL-2.0-only */
/* Tracepoint event formats (tracefs events/SYS/NAME/format, and the copies a
 * perf.data file keeps in HEADER_TRACING_DATA): the fields of the event's
 * RAW data and its print format, and what perf (libtraceevent) makes of a
 * record with them: one field's value, the whole formatted line
 * (TEP_PRINT_INFO) and the raw "name=value" list (--raw-trace).
 *
 * Every input is untrusted: a format that does not parse is refused, and a
 * record is only ever read within [raw, raw + size) (a __data_loc pointing
 * outside it reads as empty). Library code: no printing. */
#ifndef BPFPERF_PERFDATA_TP_FORMAT_H
#define BPFPERF_PERFDATA_TP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Field flags, as libtraceevent sets them from the declaration. */
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

#define TP_NAME_MAX 64
#define TP_TYPE_MAX 64

struct tp_field {
	char name[TP_NAME_MAX];
	char type[TP_TYPE_MAX];	/* without the array brackets of the name */
	uint32_t offset, size;
	unsigned flags;		/* TPF_* */
};

struct tp_format {
	char sys[TP_NAME_MAX];		/* set by the caller (tracefs directory, or the
					 * system name of HEADER_TRACING_DATA) */
	char name[TP_NAME_MAX];		/* "name: sched_switch" */
	uint64_t id;			/* "ID: 316" */
	struct tp_field *fields;	/* common fields first, in file order */
	size_t nfields;
	char *print_fmt;		/* the text after "print fmt: " (NULL: none) */
};

/* Parse one format text. 0, or -EINVAL (nothing to free then). */
int tp_format_parse(const char *text, size_t len, struct tp_format *out);
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
 * unsigned longs). */
void tp_print_field(struct strbuf *sb, const struct tp_field *fl, const void *raw, size_t size);
/* " name=value" for each of the event's own fields (perf's --raw-trace). */
void tp_print_fields(struct strbuf *sb, const struct tp_format *f, const void *raw, size_t size);
/* The record formatted by the event's print format (what perf script and
 * perf report -s trace show). A print format we cannot evaluate gives
 * "[FAILED TO PARSE]" and the raw fields, as libtraceevent does. */
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

/* HEADER_TRACING_DATA: every event format in it (fn gets each parsed one,
 * with sys set; it owns it). 0, or -EINVAL for a section that does not
 * parse (formats that do not parse are skipped). */
typedef void (*tp_format_fn)(void *ctx, struct tp_format *f);
int tp_tracing_data_parse(const void *buf, size_t len, tp_format_fn fn, void *ctx);

/* All the formats of a file. */
struct tp_formats {
	struct tp_format *v;
	size_t n;
};
void tp_formats_load(struct tp_formats *fs, const void *tracing_data, size_t len);
const struct tp_format *tp_formats_by_id(const struct tp_formats *fs, uint64_t id);
void tp_formats_free(struct tp_formats *fs);

#endif
