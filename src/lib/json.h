/* SPDX-License-Identifier: GPL-2.0-only */
/* Streaming JSON writer used by every command that prints results.
 * Commas and nesting are tracked here; callers only say what comes next. */
#ifndef BPFPERF_JSON_H
#define BPFPERF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_writer;

/* pretty: newlines and two-space indentation; otherwise compact. */
struct json_writer *jw_new(FILE *out, bool pretty);
/* Ends the output with a newline; does not close the FILE. */
void jw_free(struct json_writer *jw);

void jw_start_object(struct json_writer *jw);
void jw_end_object(struct json_writer *jw);
void jw_start_array(struct json_writer *jw);
void jw_end_array(struct json_writer *jw);
/* Object member name; the value follows with one of the calls below. */
void jw_key(struct json_writer *jw, const char *key);

void jw_string(struct json_writer *jw, const char *s);
void jw_string_len(struct json_writer *jw, const char *s, size_t len);
void jw_int(struct json_writer *jw, int64_t v);
void jw_uint(struct json_writer *jw, uint64_t v);
/* Non-finite values are written as null (JSON has no NaN). */
void jw_double(struct json_writer *jw, double v);
/* Fixed number of decimals, e.g. percentages. */
void jw_double_prec(struct json_writer *jw, double v, int decimals);
void jw_bool(struct json_writer *jw, bool v);
void jw_null(struct json_writer *jw);
/* A value already formatted as JSON by the caller. */
void jw_raw(struct json_writer *jw, const char *json);

/* Shorthands for "key": value. */
void jw_kv_string(struct json_writer *jw, const char *key, const char *s);
void jw_kv_int(struct json_writer *jw, const char *key, int64_t v);
void jw_kv_uint(struct json_writer *jw, const char *key, uint64_t v);
void jw_kv_double(struct json_writer *jw, const char *key, double v);
void jw_kv_bool(struct json_writer *jw, const char *key, bool v);

/* Write s as a JSON string literal (with quotes) to f. Control characters
 * are escaped; every byte that is not part of a valid UTF-8 sequence
 * (stray continuation bytes, overlong forms, surrogates, code points above
 * U+10FFFF, truncated sequences) is written as \ufffd, one per byte. */
void json_fputs_escaped(FILE *f, const char *s, size_t len);

/* Length of the valid UTF-8 sequence at s (at most len bytes): 1-4, or 0
 * when s does not start one. len must be at least 1. */
size_t utf8_seq_len(const unsigned char *s, size_t len);

#endif
