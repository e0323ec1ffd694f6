// SPDX-License-Identifier: GPL-2.0-only
/* Tracepoint formats and records, see tp_format.h: libtraceevent parses the
 * formats and prints the records (as perf does); this file refuses what
 * could make libtraceevent read outside a record, prints records, and keeps
 * perf report's own rules for tracepoint sort keys (tp_field_text,
 * tp_field_width). Reading formats from a recording, with libtraceevent's
 * parser in a child process, is tp_load.c's. */
#include "perfdata/tp_format.h"
#include "perfdata/tp_format_int.h"
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

/* libtraceevent's messages (a weak function it lets programs override):
 * debug output, shown at -vv (tp_tep_new sets its level). */
int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt, va_list ap);
int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt, va_list ap)
{
	int err = errno;
	char msg[512];
	(void)print_err;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	size_t n = strlen(msg);
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	log_msg(level <= TEP_LOG_ERROR ? LOG_WARN : LOG_DEBUG, "%s: %s", name ? name : "libtraceevent", msg);
	return err;
}

/* LeakSanitizer (ASan builds): libtraceevent 1.7.1 leaks a token when a
 * field line does not parse ("field:int;"), and a string of its own on some
 * malformed print formats (fuzz_tpformat); nothing of ours to free. Its
 * parse runs with leak detection off (LSan's own switch, weak: absent
 * without a sanitizer), as the suppression cannot match a stack cut short
 * in libtraceevent (built without frame pointers). Leaks of our own handles
 * (tep_alloc without tep_free) are still reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_format\n";
}
void __lsan_disable(void) __attribute__((weak));
void __lsan_enable(void) __attribute__((weak));

struct tep_handle *tp_tep_new(void)
{
	struct tep_handle *tep = tep_alloc();
	if (!tep) {
		pr_err("cannot allocate a libtraceevent handle: %s", log_limit_hint(-ENOMEM));
		exit(1);	/* as xmalloc */
	}
	tep_set_loglevel(log_verbosity() >= 2 ? TEP_LOG_ALL : TEP_LOG_ERROR);
	tep_set_long_size(tep, (int)sizeof(long));
	return tep;
}

/* ---- formats ----------------------------------------------------------- */

static unsigned tpf_flags(const struct tep_format_field *tf, bool common)
{
	static const struct { unsigned long tep; unsigned tpf; } map[] = {
		{ TEP_FIELD_IS_SIGNED, TPF_SIGNED }, { TEP_FIELD_IS_ARRAY, TPF_ARRAY },
		{ TEP_FIELD_IS_DYNAMIC, TPF_DYNAMIC }, { TEP_FIELD_IS_RELATIVE, TPF_RELATIVE },
		{ TEP_FIELD_IS_STRING, TPF_STRING }, { TEP_FIELD_IS_LONG, TPF_LONG },
		{ TEP_FIELD_IS_POINTER, TPF_POINTER },
	};
	unsigned fl = common ? TPF_COMMON : 0;
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (tf->flags & map[i].tep)
			fl |= map[i].tpf;
	if (fl & TPF_DYNAMIC)
		fl |= TPF_ARRAY;
	return fl;
}

/* The end of the event's fields, or 0 when one is outside TP_REC_MAX (or a
 * __data_loc is not the 2 or 4 bytes libtraceevent reads). */
static uint32_t event_extent(const struct tep_event *ev)
{
	const struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	uint32_t end = 0;
	for (int l = 0; l < 2; l++)
		for (const struct tep_format_field *tf = lists[l]; tf; tf = tf->next) {
			if (tf->offset < 0 || tf->size < 0 ||
			    (uint64_t)tf->offset + (uint64_t)tf->size > TP_REC_MAX)
				return 0;
			if ((tf->flags & TEP_FIELD_IS_DYNAMIC) && tf->size != 4 && tf->size != 2)
				return 0;
			if ((uint32_t)(tf->offset + tf->size) > end)
				end = (uint32_t)(tf->offset + tf->size);
		}
	return end ? end : 1;
}

static const struct tep_print_arg *skip_casts(const struct tep_print_arg *a)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a;
}

/* The value of a number literal (false: not one). */
static bool atom_val(const struct tep_print_arg *a, unsigned long long *v)
{
	a = skip_casts(a);
	if (!a || a->type != TEP_PRINT_ATOM || !a->atom.atom)
		return false;
	char *end;
	*v = strtoull(a->atom.atom, &end, 0);
	return end != a->atom.atom && !*end;
}

static const struct tep_format_field *arg_field(const struct tep_event *ev, const struct tep_print_arg *a)
{
	a = skip_casts(a);
	if (!a || a->type != TEP_PRINT_FIELD)
		return NULL;
	return a->field.field ? a->field.field : tep_find_any_field((struct tep_event *)ev, a->field.name);
}

/* Is the byte count n (an argument of __print_hex, __print_array) within the
 * array arr? __get_dynamic_array_len() of the same __data_loc (divided by a
 * number, for a count of elements of at least that size), or a number within
 * a fixed array. */
static bool bounded(const struct tep_event *ev, const struct tep_print_arg *arr, const struct tep_print_arg *n,
		    unsigned long long el)
{
	unsigned long long v, d = 1;
	arr = skip_casts(arr);
	n = skip_casts(n);
	if (!arr || !n || !el)
		return false;
	if (arr->type == TEP_PRINT_DYNAMIC_ARRAY) {
		if (n->type == TEP_PRINT_OP && n->op.op && !strcmp(n->op.op, "/") && atom_val(n->op.right, &d)) {
			n = skip_casts(n->op.left);
			if (!n || d < el)
				return false;
		} else if (el != 1) {
			return false;
		}
		return n->type == TEP_PRINT_DYNAMIC_ARRAY_LEN && n->dynarray.field &&
		       n->dynarray.field == arr->dynarray.field;
	}
	const struct tep_format_field *f = arg_field(ev, arr);
	return f && !(f->flags & TEP_FIELD_IS_DYNAMIC) && atom_val(n, &v) && v <= (unsigned)f->size / el;
}

/* Can libtraceevent print every argument of args reading only what the
 * record holds? It bounds __data_loc areas by the record's size, not the
 * lengths of __print_hex and __print_array or an index into an array. */
static bool args_safe(const struct tep_event *ev, const struct tep_print_arg *a, int depth)
{
	unsigned long long v;
	if (depth > 64)
		return false;
	for (; a; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			if (!bounded(ev, a->hex.field, a->hex.size, 1))
				return false;
			break;
		case TEP_PRINT_INT_ARRAY:
			if (!atom_val(a->int_array.el_size, &v) || (v != 1 && v != 2 && v != 4 && v != 8) ||
			    !bounded(ev, a->int_array.field, a->int_array.count, v))
				return false;
			break;
		case TEP_PRINT_FLAGS:
			if (!args_safe(ev, a->flags.field, depth + 1))
				return false;
			break;
		case TEP_PRINT_SYMBOL:
			if (!args_safe(ev, a->symbol.field, depth + 1))
				return false;
			break;
		case TEP_PRINT_TYPE:
			if (a->typecast.item && !args_safe(ev, a->typecast.item, depth + 1))
				return false;
			break;
		case TEP_PRINT_OP:
			if (a->op.op && !strcmp(a->op.op, "[")) {
				const struct tep_format_field *f = arg_field(ev, a->op.left);
				if (!f || (f->flags & TEP_FIELD_IS_DYNAMIC) || !atom_val(a->op.right, &v) ||
				    !f->elementsize || (v + 1) * f->elementsize > (unsigned)f->size)
					return false;
			}
			if ((a->op.left && !args_safe(ev, a->op.left, depth + 1)) ||
			    (a->op.right && !args_safe(ev, a->op.right, depth + 1)))
				return false;
			break;
		case TEP_PRINT_FUNC:
			if (!args_safe(ev, a->func.args, depth + 1))
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

void tp_fill_format(struct tp_format *f, struct tep_event *ev, uint32_t rec_min)
{
	memset(f, 0, sizeof(*f));
	f->ev = ev;
	f->sys = ev->system ? ev->system : "";
	f->name = ev->name;
	f->id = (uint64_t)ev->id;
	f->print_fmt = ev->print_fmt.format;
	f->rec_min = rec_min;
	size_t cap = 0;
	const struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	for (int l = 0; l < 2; l++)
		for (struct tep_format_field *tf = (struct tep_format_field *)lists[l]; tf; tf = tf->next) {
			ARRAY_GROW(f->fields, cap, f->nfields + 1);
			f->fields[f->nfields++] = (struct tp_field){
				.name = tf->name, .type = tf->type, .offset = (uint32_t)tf->offset,
				.size = (uint32_t)tf->size, .flags = tpf_flags(tf, l == 0), .tf = tf,
			};
		}
}

/* Parse text into tep (see tp_format_int.h). */
struct tep_event *tp_parse_into(struct tep_handle *tep, const char *text, size_t len, const char *sys,
				    uint32_t *extent)
{
	struct tep_event *ev = NULL;
	/* libtraceevent keeps an event whose format failed (flagged failed);
	 * when it did not get as far as the print format's text, its fields
	 * did not parse */
	if (__lsan_disable)
		__lsan_disable();
	tep_parse_format(tep, &ev, text, len, sys ? sys : "");
	if (__lsan_enable)
		__lsan_enable();
	if (!ev || ((ev->flags & TEP_EVENT_FL_FAILED) && !ev->print_fmt.format))
		return NULL;
	*extent = event_extent(ev);
	if (!*extent)
		return NULL;
	if (!(ev->flags & TEP_EVENT_FL_FAILED) && !args_safe(ev, ev->print_fmt.args, 0)) {
		pr_debug("tracepoint %s:%s: a length or index in its print format is not bounded by the "
			 "record; its records print as [FAILED TO PARSE]", ev->system, ev->name);
		ev->flags |= TEP_EVENT_FL_FAILED;
	}
	return ev;
}

void tp_format_free(struct tp_format *f)
{
	free(f->fields);
	if (f->own)
		tep_free(f->own);
	memset(f, 0, sizeof(*f));
}

const struct tp_field *tp_format_field(const struct tp_format *f, const char *name)
{
	for (size_t i = 0; i < f->nfields; i++)
		if (!strcmp(f->fields[i].name, name))
			return &f->fields[i];
	return NULL;
}

/* ---- records ------------------------------------------------------------ */

bool tp_field_data(const struct tp_field *fl, const void *raw, size_t size, const uint8_t **data,
		   size_t *len)
{
	const uint8_t *r = raw;
	if (!raw || (uint64_t)fl->offset + fl->size > size)
		return false;
	if (!(fl->flags & TPF_DYNAMIC)) {
		*data = r + fl->offset;
		*len = fl->size;
		return true;
	}
	unsigned long long loc;
	if (tep_read_number_field(fl->tf, raw, &loc))
		return false;
	uint64_t off = loc & 0xffff, n = fl->size == 2 ? (off <= size ? size - off : 0) : (loc >> 16) & 0xffff;
	if (fl->flags & TPF_RELATIVE)
		off += (uint64_t)fl->offset + fl->size;
	if (off + n > size)
		return false;
	*data = r + off;
	*len = (size_t)n;
	return true;
}

bool tp_field_num(const struct tp_field *fl, const void *raw, size_t size, uint64_t *val)
{
	unsigned long long v;
	if (!raw || (uint64_t)fl->offset + fl->size > size || tep_read_number_field(fl->tf, raw, &v))
		return false;
	*val = v;
	if ((fl->flags & TPF_SIGNED) && fl->size < 8) {
		unsigned sh = 64 - 8 * fl->size;
		*val = (uint64_t)((int64_t)(*val << sh) >> sh);
	}
	return true;
}

/* The record as libtraceevent may read it: a copy of at least f->rec_min
 * bytes, zero-padded, with a NUL after it. */
static uint8_t *rec_copy(const struct tp_format *f, const void *raw, size_t size)
{
	size_t n = size > f->rec_min ? size : f->rec_min;
	uint8_t *c = xcalloc(1, n + 1);
	if (raw && size)
		memcpy(c, raw, size);
	/* libtraceevent's raw printer (tep_print_fields) reads a __data_loc
	 * area wherever the record says it is (a 2-byte one to the record's
	 * end, size - offset bytes): one that runs past the record's end is cut
	 * there (its length only, when its offset is inside: the bytes a char
	 * array without NUL runs on into stay as they are), one that starts
	 * past it is made an empty one at the end (zeros in the copy) */
	for (size_t i = 0; raw && i < f->nfields; i++) {
		const struct tp_field *fl = &f->fields[i];
		const uint8_t *d;
		size_t len;
		if (!(fl->flags & TPF_DYNAMIC) || (uint64_t)fl->offset + fl->size > size ||
		    (fl->size != 2 && fl->size != 4) || tp_field_data(fl, c, size, &d, &len))
			continue;
		uint64_t base = (fl->flags & TPF_RELATIVE) ? (uint64_t)fl->offset + fl->size : 0;
		uint32_t loc = 0;
		memcpy(&loc, c + fl->offset, fl->size);
		if (fl->size == 4 && base + (loc & 0xffff) <= size)
			loc = (uint32_t)(size - base - (loc & 0xffff)) << 16 | (loc & 0xffff);
		else	/* offset at the end, length 0 */
			loc = size - base <= 0xffff ? (uint32_t)(size - base) : 0;
		memcpy(c + fl->offset, &loc, fl->size);
	}
	return c;
}

static void seq_take(struct strbuf *sb, struct trace_seq *s)
{
	trace_seq_terminate(s);
	if (s->buffer && s->len)
		sb_append_len(sb, s->buffer, strnlen(s->buffer, s->len));
	trace_seq_destroy(s);
}

/* The raw value of fl (NULL: " name=value" for each own field), as perf
 * 6.1's libtraceevent printed it. libtraceevent 1.7 prints a field the print
 * format shows alone with that conversion (target_cpu's "%03d" gives 001,
 * perf 6.1 printed 1); for an event marked failed it uses its raw printer,
 * so the event is marked for the call. */
static void print_raw(struct strbuf *sb, const struct tp_format *f, const struct tp_field *fl,
		      const void *raw, size_t size)
{
	uint8_t *c = rec_copy(f, raw, size);
	struct trace_seq s;
	int flags = f->ev->flags;
	trace_seq_init(&s);
	f->ev->flags |= TEP_EVENT_FL_FAILED;
	if (fl)
		tep_print_field_content(&s, c, (int)size, fl->tf);
	else
		tep_print_fields(&s, c, (int)size, f->ev);
	f->ev->flags = flags;
	seq_take(sb, &s);
	free(c);
}

void tp_print_field(struct strbuf *sb, const struct tp_format *f, const struct tp_field *fl,
		    const void *raw, size_t size)
{
	print_raw(sb, f, fl, raw, size);
}

void tp_print_fields(struct strbuf *sb, const struct tp_format *f, const void *raw, size_t size)
{
	print_raw(sb, f, NULL, raw, size);
}

void tp_print_event(struct strbuf *sb, const struct tp_format *f, const void *raw, size_t size)
{
	uint8_t *c = rec_copy(f, raw, size);
	struct tep_record rec = { .data = c, .size = (int)size };
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(f->ev->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	seq_take(sb, &s);
	free(c);
}

/* ---- sort key values (perf report's rules, util/sort.c) ------------------- */

void tp_field_text(struct strbuf *sb, const struct tp_format *f, const struct tp_field *fl,
		   const void *raw, size_t size, const char *line, bool raw_trace)
{
	if (!raw_trace) {
		struct strbuf own = { 0 };
		if (!line) {
			tp_print_event(&own, f, raw, size);
			line = own.buf ? own.buf : "";
		}
		size_t nl = strlen(fl->name);
		const char *w = line;
		bool found = false;
		while (w) {
			const char *sp = strchr(w, ' ');
			const char *we = sp ? sp : w + strlen(w);
			if (!strncmp(w, fl->name, nl)) {
				if ((size_t)(we - w) > nl)
					sb_append_len(sb, w + nl + 1, (size_t)(we - w) - nl - 1);
				found = true;
				break;
			}
			w = sp ? sp + 1 : NULL;
		}
		sb_free(&own);
		if (found)
			return;
	}
	tp_print_field(sb, f, fl, raw, size);
}

int tp_field_width(const struct tp_field *fl, size_t dyn_len)
{
	size_t len = dyn_len, nl = strlen(fl->name);
	size_t fieldlen = fl->size;
	if (nl > len)
		len = nl;
	if (!(fl->flags & TPF_STRING))
		fieldlen = (size_t)fl->size * 2 + 2;
	if (fieldlen > len)
		len = fieldlen;
	return len > 4096 ? 4096 : (int)len;
}

const struct tp_format *tp_formats_by_id(const struct tp_formats *fs, uint64_t id)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].id == id)
			return &fs->v[i];
	return NULL;
}

void tp_formats_free(struct tp_formats *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		tp_format_free(&fs->v[i]);
	free(fs->v);
	if (fs->tep)
		tep_free(fs->tep);
	memset(fs, 0, sizeof(*fs));
}
