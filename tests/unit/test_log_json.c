// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <sys/resource.h>

#include "json.h"
#include "log.h"
#include "util.h"

static char *render(void (*fn)(struct json_writer *), bool pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer *jw = jw_new(f, pretty);
	fn(jw);
	jw_free(jw);
	fclose(f);
	return buf;
}

static void doc_nested(struct json_writer *jw)
{
	jw_start_object(jw);
	jw_kv_uint(jw, "n", 3);
	jw_key(jw, "a");
	jw_start_array(jw);
	jw_int(jw, -1);
	jw_string(jw, "q\"\\\n\x01");
	jw_start_object(jw);
	jw_end_object(jw);
	jw_bool(jw, true);
	jw_null(jw);
	jw_end_array(jw);
	jw_kv_double(jw, "nan", 0.0 / 0.0);
	jw_end_object(jw);
}

static void test_json_compact(void **state)
{
	(void)state;
	char *s = render(doc_nested, false);
	assert_string_equal(s, "{\"n\":3,\"a\":[-1,\"q\\\"\\\\\\n\\u0001\",{},true,null],\"nan\":null}\n");
	free(s);
}

static void test_json_pretty(void **state)
{
	(void)state;
	char *s = render(doc_nested, true);
	assert_non_null(strstr(s, "{\n  \"n\": 3,\n  \"a\": [\n    -1,"));
	free(s);
}

static char *escaped(const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_non_null(f);
	json_fputs_escaped(f, s, len);
	fclose(f);
	return buf;
}

#define assert_escaped(in, want) do { \
	char *got_ = escaped(in, sizeof(in) - 1); \
	assert_string_equal(got_, want); \
	free(got_); \
} while (0)

/* Valid UTF-8 passes through; each byte outside a valid sequence is U+FFFD. */
static void test_json_utf8(void **state)
{
	(void)state;
	assert_escaped("plain", "\"plain\"");
	assert_escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	assert_escaped("\xef\xbf\xbd", "\"\xef\xbf\xbd\"");			/* U+FFFD itself */
	assert_escaped("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");		/* U+10FFFF */
	assert_escaped("a\xff" "b", "\"a\\ufffdb\"");				/* never valid */
	assert_escaped("\x80", "\"\\ufffd\"");					/* lone continuation */
	assert_escaped("\xc3", "\"\\ufffd\"");					/* truncated at the end */
	assert_escaped("\xc3(", "\"\\ufffd(\"");					/* bad continuation */
	assert_escaped("\xe2\x82", "\"\\ufffd\\ufffd\"");			/* truncated 3-byte */
	assert_escaped("\xc0\xaf", "\"\\ufffd\\ufffd\"");			/* overlong '/' */
	assert_escaped("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");		/* overlong 3-byte */
	assert_escaped("\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");	/* overlong 4-byte */
	assert_escaped("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");		/* surrogate D800 */
	assert_escaped("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");	/* above U+10FFFF */
	assert_escaped("\xf8\x88\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
	assert_escaped("q\"b\\\n\x01\x7f", "\"q\\\"b\\\\\\n\\u0001\\u007f\"");
	/* a NUL inside the given length is a control character, not the end */
	assert_escaped("a\0b", "\"a\\u0000b\"");
	/* the sequence check never reads past len */
	char *got = escaped("\xe2\x82\xac", 2);
	assert_string_equal(got, "\"\\ufffd\\ufffd\"");
	free(got);
	assert_int_equal(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
	assert_int_equal(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80", 3), 0);
	assert_int_equal(utf8_seq_len((const unsigned char *)"\xc2\x80", 2), 2);
	assert_int_equal(utf8_seq_len((const unsigned char *)"\xc1\xbf", 2), 0);
}

/* The limit behind EMFILE and ENOMEM is named with its value. */
static void test_limit_hint(void **state)
{
	(void)state;
	struct rlimit saved, rl;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	rl = saved;
	rl.rlim_cur = 100;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	const char *h = log_limit_hint(-EMFILE);
	assert_non_null(h);
	assert_non_null(strstr(h, "the open file limit (100, 'ulimit -n') is reached"));
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	assert_non_null(strstr(log_limit_hint(-ENFILE), "file-max"));
	assert_non_null(strstr(log_limit_hint(-ENOMEM), "memory"));
	assert_null(log_limit_hint(-EINVAL));
	assert_null(log_limit_hint(-ENOENT));
	assert_int_equal(log_limit_cause(-EINVAL), -EINVAL);
	assert_int_equal(log_limit_cause(-EMFILE), -EMFILE);
}

static void test_cpu_list(void **state)
{
	(void)state;
	bool m[8] = { 0 };
	assert_int_equal(parse_cpu_list("0-2,5", m, 8), 0);
	assert_true(m[0] && m[1] && m[2] && !m[3] && !m[4] && m[5]);
	assert_true(parse_cpu_list("9", m, 8) < 0);
	assert_true(parse_cpu_list("3-1", m, 8) < 0);
	assert_true(parse_cpu_list("x", m, 8) < 0);
	assert_true(parse_cpu_list("", m, 8) < 0);
}

static void test_strbuf(void **state)
{
	(void)state;
	struct strbuf sb = { 0 };
	for (int i = 0; i < 1000; i++)
		sb_printf(&sb, "%d,", i);
	assert_int_equal(sb.len, strlen(sb.buf));
	assert_memory_equal(sb.buf, "0,1,2,", 6);
	sb_free(&sb);
}

static void test_parse_numbers(void **state)
{
	(void)state;
	uint64_t v;
	double d;
	assert_true(parse_u64("0x10", &v) && v == 16);
	assert_false(parse_u64("-1", &v));
	assert_false(parse_u64("12abc", &v));
	assert_true(parse_double("2.5", &d) && d == 2.5);
	assert_false(parse_double("nan", &d));
}

/* What tests see of a library error: the last message, without the prefix
 * and newline, at any verbosity; warnings are not captured. The hints
 * commands set end the library's messages. */
static void test_log_capture(void **state)
{
	(void)state;
	char msg[64];
	log_capture_errors(msg, sizeof(msg));
	assert_string_equal(msg, "");
	pr_err("first %d\n", 1);
	pr_err("second %s", "one");
	assert_string_equal(msg, "second one");
	pr_warn("a warning");
	assert_string_equal(msg, "second one");
	log_set_verbosity(LOG_SILENT);
	assert_true(log_errors_wanted());
	pr_err("silent but captured");
	assert_string_equal(msg, "silent but captured");
	log_capture_errors(NULL, 0);
	assert_false(log_errors_wanted());
	assert_int_equal(log_verbosity(), LOG_SILENT);
	log_set_verbosity(0);
	assert_true(log_errors_wanted());
	assert_string_equal(log_hint(LOG_HINT_INPUT_FOREIGN), "");
	log_set_hint(LOG_HINT_INPUT_FOREIGN, "; use -f");
	assert_string_equal(log_hint(LOG_HINT_INPUT_FOREIGN), "; use -f");
	log_set_hint(LOG_HINT_INPUT_FOREIGN, NULL);
	assert_string_equal(log_hint(LOG_HINT_MAX), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_compact),
		cmocka_unit_test(test_json_pretty),
		cmocka_unit_test(test_json_utf8),
		cmocka_unit_test(test_limit_hint),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_parse_numbers),
		cmocka_unit_test(test_log_capture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
