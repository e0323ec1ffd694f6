// SPDX-License-Identifier: GPL-2.0-only
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JW_MAX_DEPTH 128

struct json_writer {
	FILE *out;
	bool pretty;
	int depth;
	bool after_key;
	/* per level: has the container already got an element? */
	bool nonempty[JW_MAX_DEPTH];
};

struct json_writer *jw_new(FILE *out, bool pretty)
{
	struct json_writer *jw = calloc(1, sizeof(*jw));
	if (!jw)
		return NULL;
	jw->out = out;
	jw->pretty = pretty;
	return jw;
}

void jw_free(struct json_writer *jw)
{
	if (!jw)
		return;
	fputc('\n', jw->out);
	fflush(jw->out);
	free(jw);
}

static void jw_indent(struct json_writer *jw)
{
	if (!jw->pretty)
		return;
	fputc('\n', jw->out);
	for (int i = 0; i < jw->depth; i++)
		fputs("  ", jw->out);
}

/* Separator before a value or key at the current level. */
static void jw_sep(struct json_writer *jw)
{
	if (jw->after_key) {
		jw->after_key = false;
		return;
	}
	if (jw->depth > 0) {
		if (jw->nonempty[jw->depth])
			fputc(',', jw->out);
		jw->nonempty[jw->depth] = true;
		jw_indent(jw);
	}
}

static void jw_open(struct json_writer *jw, char c)
{
	jw_sep(jw);
	fputc(c, jw->out);
	if (jw->depth + 1 < JW_MAX_DEPTH)
		jw->depth++;
	jw->nonempty[jw->depth] = false;
}

static void jw_close(struct json_writer *jw, char c)
{
	bool had = jw->nonempty[jw->depth];
	if (jw->depth > 0)
		jw->depth--;
	if (had)
		jw_indent(jw);
	fputc(c, jw->out);
}

void jw_start_object(struct json_writer *jw) { jw_open(jw, '{'); }
void jw_end_object(struct json_writer *jw) { jw_close(jw, '}'); }
void jw_start_array(struct json_writer *jw) { jw_open(jw, '['); }
void jw_end_array(struct json_writer *jw) { jw_close(jw, ']'); }

size_t utf8_seq_len(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf;	/* bounds of the second byte */

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* UTF-16 surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else
		return 0;	/* 0x80-0xc1 (continuation, overlong) and 0xf5-0xff */
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* Bytes that are not UTF-8 (comms, paths and strings copied from traced
 * programs are arbitrary bytes) become U+FFFD, one per invalid byte, so the
 * output always parses with a strict UTF-8 JSON parser. */
void json_fputs_escaped(FILE *f, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	fputc('"', f);
	for (size_t i = 0; i < len;) {
		unsigned char c = u[i];
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, f);
			} else {
				size_t n = utf8_seq_len(u + i, len - i);
				if (!n) {
					fputs("\\ufffd", f);
					i++;
				} else {
					fwrite(u + i, 1, n, f);
					i += n;
				}
				continue;
			}
		}
		i++;
	}
	fputc('"', f);
}

void jw_key(struct json_writer *jw, const char *key)
{
	jw_sep(jw);
	json_fputs_escaped(jw->out, key, strlen(key));
	fputs(jw->pretty ? ": " : ":", jw->out);
	jw->after_key = true;
}

void jw_string_len(struct json_writer *jw, const char *s, size_t len)
{
	jw_sep(jw);
	json_fputs_escaped(jw->out, s, len);
}

void jw_string(struct json_writer *jw, const char *s)
{
	if (!s) {
		jw_null(jw);
		return;
	}
	jw_string_len(jw, s, strlen(s));
}

void jw_int(struct json_writer *jw, int64_t v)
{
	jw_sep(jw);
	fprintf(jw->out, "%" PRId64, v);
}

void jw_uint(struct json_writer *jw, uint64_t v)
{
	jw_sep(jw);
	fprintf(jw->out, "%" PRIu64, v);
}

void jw_double(struct json_writer *jw, double v)
{
	jw_sep(jw);
	if (!isfinite(v))
		fputs("null", jw->out);
	else
		fprintf(jw->out, "%.17g", v);
}

void jw_double_prec(struct json_writer *jw, double v, int decimals)
{
	jw_sep(jw);
	if (!isfinite(v))
		fputs("null", jw->out);
	else
		fprintf(jw->out, "%.*f", decimals, v);
}

void jw_bool(struct json_writer *jw, bool v)
{
	jw_sep(jw);
	fputs(v ? "true" : "false", jw->out);
}

void jw_null(struct json_writer *jw)
{
	jw_sep(jw);
	fputs("null", jw->out);
}

void jw_raw(struct json_writer *jw, const char *json)
{
	jw_sep(jw);
	fputs(json, jw->out);
}

void jw_kv_string(struct json_writer *jw, const char *key, const char *s) { jw_key(jw, key); jw_string(jw, s); }
void jw_kv_int(struct json_writer *jw, const char *key, int64_t v) { jw_key(jw, key); jw_int(jw, v); }
void jw_kv_uint(struct json_writer *jw, const char *key, uint64_t v) { jw_key(jw, key); jw_uint(jw, v); }
void jw_kv_double(struct json_writer *jw, const char *key, double v) { jw_key(jw, key); jw_double(jw, v); }
void jw_kv_bool(struct json_writer *jw, const char *key, bool v) { jw_key(jw, key); jw_bool(jw, v); }
