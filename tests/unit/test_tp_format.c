// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for src/lib/perfdata/tp_format (tracepoint formats: field
 * extraction of every kind, the print format, bounds on corrupt records)
 * and src/lib/hist/tpkeys (sort key names, expansion, values). Synthetic
 * format text and records; no privileges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hist/tpkeys.h"
#include "perfdata/tp_format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Every kind of field: fixed ints of each size and signedness, a long, a
 * pointer, a char array, a __data_loc string, a __rel_loc string, an int
 * array and a __data_loc byte array. */
static const char kinds_fmt[] =
	"name: kinds\n"
	"ID: 42\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:s8 a8;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:u8 b8;\toffset:9;\tsize:1;\tsigned:0;\n"
	"\tfield:short a16;\toffset:10;\tsize:2;\tsigned:1;\n"
	"\tfield:unsigned short b16;\toffset:12;\tsize:2;\tsigned:0;\n"
	"\tfield:int a32;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int b32;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:s64 a64;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\tfield:u64 b64;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long ul;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:void * ptr;\toffset:48;\tsize:8;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:56;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:72;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rel;\toffset:76;\tsize:4;\tsigned:0;\n"
	"\tfield:int arr[2];\toffset:80;\tsize:8;\tsigned:1;\n"
	"\tfield:__data_loc u8[] bytes;\toffset:88;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"a8=%d b8=%u a16=%d b16=%u a32=%d b32=%u a64=%lld b64=%llu ul=0x%lx comm=%s "
	"name=%s rel=%s st=%s%s sym=%s cpu=%03d neg=%d\", REC->a8, REC->b8, REC->a16, REC->b16, REC->a32, "
	"REC->b32, REC->a64, REC->b64, ((unsigned long)(REC->ul)), REC->comm, __get_str(name), "
	"__get_rel_str(rel), (REC->b32 & 0xff) ? __print_flags(REC->b32 & 0xff, \"|\", { 0x01, \"S\" }, "
	"{ 0x02, \"D\" }) : \"R\", REC->b32 & (0x100) ? \"+\" : \"\", __print_symbolic(REC->b8, { 1, \"one\" }, "
	"{ 200, \"two hundred\" }), REC->a16 + 10, -(int)REC->b8 << 1\n";

struct rec {
	uint8_t b[112];
};

static void put(struct rec *r, size_t off, const void *v, size_t n)
{
	memcpy(r->b + off, v, n);
}

static void make_rec(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	uint16_t type = 42;	/* the event's ID: libtraceevent finds the event by it */
	put(r, 0, &type, 2);
	int8_t a8 = -5;
	uint8_t b8 = 200;
	int16_t a16 = -300;
	uint16_t b16 = 60000;
	int32_t a32 = -70000;
	uint32_t b32 = 0x103;	/* S|D and the "+" bit */
	int64_t a64 = -5000000000ll;
	uint64_t b64 = 18000000000000000000ull, ul = 0xabc, ptr = 0xffff888012345678ull;
	put(r, 8, &a8, 1);
	put(r, 9, &b8, 1);
	put(r, 10, &a16, 2);
	put(r, 12, &b16, 2);
	put(r, 16, &a32, 4);
	put(r, 20, &b32, 4);
	put(r, 24, &a64, 8);
	put(r, 32, &b64, 8);
	put(r, 40, &ul, 8);
	put(r, 48, &ptr, 8);
	put(r, 56, "bash", 5);
	uint32_t loc = (6u << 16) | 92;	/* "hello\0" at 92 */
	put(r, 72, &loc, 4);
	put(r, 92, "hello", 6);
	uint32_t rel = (3u << 16) | 18;	/* from the end of the field (80): 98 */
	put(r, 76, &rel, 4);
	put(r, 98, "xy", 3);
	int32_t arr[2] = { 1, -1 };
	put(r, 80, arr, 8);
	uint32_t bl = (3u << 16) | 101;
	put(r, 88, &bl, 4);
	uint8_t bytes[3] = { 0x01, 0xfe, 0x80 };
	put(r, 101, bytes, 3);
}

static char *field_str(const struct tp_format *f, const char *name, const struct rec *r, size_t size)
{
	struct strbuf sb = { 0 };
	const struct tp_field *fl = tp_format_field(f, name);
	assert_non_null(fl);
	tp_print_field(&sb, f, fl, r->b, size);
	return sb.buf ? sb.buf : strdup("");
}

static void test_parse_kinds(void **state)
{
	(void)state;
	struct tp_format f;
	assert_int_equal(tp_format_parse(kinds_fmt, sizeof(kinds_fmt) - 1, "test", &f), 0);
	assert_string_equal(f.name, "kinds");
	assert_int_equal(f.id, 42);
	assert_int_equal(f.nfields, 19);
	const struct tp_field *fl = tp_format_field(&f, "common_pid");
	assert_true(fl->flags & TPF_COMMON);
	fl = tp_format_field(&f, "a16");
	assert_int_equal(fl->offset, 10);
	assert_int_equal(fl->size, 2);
	assert_true(fl->flags & TPF_SIGNED);
	fl = tp_format_field(&f, "comm");
	assert_string_equal(fl->type, "char[16]");
	assert_int_equal(fl->flags & (TPF_ARRAY | TPF_STRING | TPF_DYNAMIC), TPF_ARRAY | TPF_STRING);
	fl = tp_format_field(&f, "name");
	assert_int_equal(fl->flags & (TPF_ARRAY | TPF_STRING | TPF_DYNAMIC), TPF_ARRAY | TPF_STRING | TPF_DYNAMIC);
	assert_true(tp_format_field(&f, "rel")->flags & TPF_RELATIVE);
	assert_true(tp_format_field(&f, "ul")->flags & TPF_LONG);
	assert_true(tp_format_field(&f, "ptr")->flags & TPF_POINTER);
	assert_false(tp_format_field(&f, "arr")->flags & TPF_STRING);
	assert_non_null(f.print_fmt);
	assert_null(tp_format_field(&f, "nope"));
	tp_format_free(&f);
}

static void test_fields(void **state)
{
	(void)state;
	struct tp_format f;
	struct rec r;
	assert_int_equal(tp_format_parse(kinds_fmt, sizeof(kinds_fmt) - 1, "test", &f), 0);
	make_rec(&r);
	static const struct {
		const char *name, *want;
	} cases[] = {
		{ "a8", "-5" }, { "b8", "200" }, { "a16", "-300" }, { "b16", "60000" },
		{ "a32", "-70000" }, { "b32", "259" }, { "a64", "-5000000000" },
		{ "b64", "18000000000000000000" }, { "ul", "0xabc" }, { "ptr", "0xffff888012345678" },
		{ "comm", "bash" }, { "name", "hello" }, { "rel", "xy" },
		{ "arr", "ARRAY[01, 00, 00, 00, ff, ff, ff, ff]" }, { "bytes", "ARRAY[01, fe, 80]" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = field_str(&f, cases[i].name, &r, sizeof(r.b));
		assert_string_equal(s, cases[i].want);
		free(s);
	}
	uint64_t v;
	assert_true(tp_field_num(tp_format_field(&f, "a16"), r.b, sizeof(r.b), &v));
	assert_int_equal((int64_t)v, -300);
	assert_true(tp_field_num(tp_format_field(&f, "b16"), r.b, sizeof(r.b), &v));
	assert_int_equal(v, 60000);
	tp_format_free(&f);
}

static void test_print_event(void **state)
{
	(void)state;
	struct tp_format f;
	struct rec r;
	struct strbuf sb = { 0 };
	assert_int_equal(tp_format_parse(kinds_fmt, sizeof(kinds_fmt) - 1, "test", &f), 0);
	make_rec(&r);
	tp_print_event(&sb, &f, r.b, sizeof(r.b));
	/* libtraceevent (and so perf) does not sign-extend a field narrower than
	 * the conversion: an s8 -5 with %d is 251 */
	assert_string_equal(sb.buf, "a8=251 b8=200 a16=65236 b16=60000 a32=-70000 b32=259 a64=-5000000000 "
			    "b64=18000000000000000000 ul=0xabc comm=bash name=hello rel=xy st=S|D+ "
			    "sym=two hundred cpu=65246 neg=-400");
	/* the value of a field key: the word of the line, else the raw field */
	struct strbuf t = { 0 };
	tp_field_text(&t, &f, tp_format_field(&f, "b32"), r.b, sizeof(r.b), sb.buf, false);
	assert_string_equal(t.buf, "259");
	sb_reset(&t);
	tp_field_text(&t, &f, tp_format_field(&f, "ptr"), r.b, sizeof(r.b), sb.buf, false);
	assert_string_equal(t.buf, "0xffff888012345678");
	sb_free(&t);
	/* --raw-trace's line */
	sb_reset(&sb);
	tp_print_fields(&sb, &f, r.b, sizeof(r.b));
	assert_true(!strncmp(sb.buf, " a8=-5 b8=200 a16=-300", 22));
	sb_free(&sb);
	assert_int_equal(tp_field_width(tp_format_field(&f, "comm"), 0), 16);
	assert_int_equal(tp_field_width(tp_format_field(&f, "a32"), 0), 10);
	assert_int_equal(tp_field_width(tp_format_field(&f, "name"), 30), 30);
	tp_format_free(&f);
}

/* A __data_loc pointing outside the record, records cut short: nothing is
 * read outside (ASan checks), the values are empty. */
static void test_corrupt(void **state)
{
	(void)state;
	struct tp_format f;
	struct rec r;
	assert_int_equal(tp_format_parse(kinds_fmt, sizeof(kinds_fmt) - 1, "test", &f), 0);
	make_rec(&r);
	uint32_t loc = (200u << 16) | 100;	/* 200 bytes at 100: past the end */
	put(&r, 72, &loc, 4);
	loc = (8u << 16) | 0xfff0;
	put(&r, 76, &loc, 4);
	put(&r, 56, "0123456789abcdef", 16);	/* comm without its NUL */
	char *s = field_str(&f, "name", &r, sizeof(r.b));
	assert_string_equal(s, "");
	free(s);
	/* libtraceevent takes an offset past the end as 0 (plus the __rel_loc's
	 * base): the text is from inside the record */
	s = field_str(&f, "rel", &r, sizeof(r.b));
	assert_true(strlen(s) < sizeof(r.b));
	free(s);
	/* a char array without its NUL runs on into the next field, as in perf */
	s = field_str(&f, "comm", &r, sizeof(r.b));
	assert_string_equal(s, "0123456789abcdefd");
	free(s);
	const uint8_t *d;
	size_t n;
	assert_false(tp_field_data(tp_format_field(&f, "name"), r.b, sizeof(r.b), &d, &n));
	for (size_t size = 0; size <= sizeof(r.b); size++) {
		/* every cut of the record, from a heap copy of that size */
		uint8_t *cut = malloc(size ? size : 1);
		memcpy(cut, r.b, size);
		struct strbuf sb = { 0 };
		tp_print_event(&sb, &f, cut, size);
		tp_print_fields(&sb, &f, cut, size);
		for (size_t k = 0; k < f.nfields; k++)
			tp_field_text(&sb, &f, &f.fields[k], cut, size, NULL, false);
		sb_free(&sb);
		free(cut);
	}
	tp_format_free(&f);
}

static void test_bad_formats(void **state)
{
	(void)state;
	struct tp_format f;
	static const char *const bad[] = {
		"ID: 1\nformat:\n",	/* no name */
		"name: x\nformat:\n\tfield:int;\toffset:0;\tsize:4;\tsigned:1;\n",
		"name: x\nformat:\n\tfield:int a;\toffset:z;\tsize:4;\tsigned:1;\n",
		"name: x\nformat:\n\tfield:__data_loc char[] s;\toffset:0;\tsize:8;\tsigned:0;\n",
		"name: x\nformat:\n\tfield:int a]\toffset:0;\tsize:4;\tsigned:1;\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(tp_format_parse(bad[i], strlen(bad[i]), "test", &f), -EINVAL);
	/* a print format we cannot evaluate: libtraceevent's failure text */
	static const char unk[] = "name: x\nID: 7\nformat:\n"
				  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
				  "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n\n"
				  "print fmt: \"a=%d\", some_helper(REC->a)\n";
	assert_int_equal(tp_format_parse(unk, sizeof(unk) - 1, "test", &f), 0);
	int32_t rec[3] = { 7, 0, 7 };	/* common_type 7 */
	struct strbuf sb = { 0 };
	tp_print_event(&sb, &f, rec, sizeof(rec));
	assert_string_equal(sb.buf, "[FAILED TO PARSE] a=7");
	sb_free(&sb);
	tp_format_free(&f);
}

/* What libtraceevent prints that the old hand-written evaluator did not
 * (__print_hex), and the print formats it would read outside a record with:
 * a __print_hex length or an array index taken from the record. */
static void test_print_helpers(void **state)
{
	(void)state;
#define HEAD "name: h\nID: 9\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n" \
	"\tfield:__data_loc u8[] buf;\toffset:4;\tsize:4;\tsigned:0;\n" \
	"\tfield:u8 arr[4];\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:unsigned int n;\toffset:12;\tsize:4;\tsigned:0;\n\nprint fmt: "
	static const struct {
		const char *fmt, *want;
	} cases[] = {
		{ HEAD "\"hex=%s\", __print_hex(__get_dynamic_array(buf), __get_dynamic_array_len(buf))\n",
		  "hex=fa fb fc" },
		{ HEAD "\"hex=%s\", __print_hex(REC->arr, 4)\n", "hex=01 02 03 04" },
		{ HEAD "\"a=%d\", REC->arr[3]\n", "a=4" },
		/* not bounded by the record: refused, printed as failed */
		{ HEAD "\"hex=%s\", __print_hex(REC->arr, REC->n)\n", "[FAILED TO PARSE] buf=ARRAY[fa, fb, fc] "
		  "arr=ARRAY[01, 02, 03, 04] n=100000" },
		{ HEAD "\"hex=%s\", __print_hex(REC->arr, 5)\n", "[FAILED TO PARSE]" },
		{ HEAD "\"a=%d\", REC->arr[REC->n]\n", "[FAILED TO PARSE]" },
	};
#undef HEAD
	uint8_t rec[19] = { 9, 0, 0, 0, 16, 0, 3, 0, 1, 2, 3, 4, 0xa0, 0x86, 0x01, 0, 0xfa, 0xfb, 0xfc };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tp_format f;
		assert_int_equal(tp_format_parse(cases[i].fmt, strlen(cases[i].fmt), "test", &f), 0);
		struct strbuf sb = { 0 };
		tp_print_event(&sb, &f, rec, sizeof(rec));
		if (strncmp(sb.buf, cases[i].want, strlen(cases[i].want)))
			fail_msg("case %zu: got '%s', want '%s'", i, sb.buf, cases[i].want);
		sb_free(&sb);
		tp_format_free(&f);
	}
	/* a field past TP_REC_MAX: refused */
	static const char far[] = "name: far\nID: 9\nformat:\n"
				  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
				  "\tfield:int a;\toffset:2147483640;\tsize:4;\tsigned:1;\n\nprint fmt: \"\", 0\n";
	struct tp_format f;
	assert_int_equal(tp_format_parse(far, sizeof(far) - 1, "test", &f), -EINVAL);
}

static void test_tracing_data(void **state)
{
	(void)state;
	struct strbuf b = { 0 };
	static const char magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	uint64_t z = 0, n;
	uint32_t page = 4096, zero = 0, one = 1;
	sb_append_len(&b, magic, sizeof(magic));
	sb_append_len(&b, "0.6", 4);
	sb_append_len(&b, "\0\10", 2);
	sb_append_len(&b, (const char *)&page, 4);
	sb_append_len(&b, "header_page", 12);
	sb_append_len(&b, (const char *)&z, 8);
	sb_append_len(&b, "header_event", 13);
	sb_append_len(&b, (const char *)&z, 8);
	sb_append_len(&b, (const char *)&zero, 4);
	sb_append_len(&b, (const char *)&one, 4);
	sb_append_len(&b, "test", 5);
	sb_append_len(&b, (const char *)&one, 4);
	n = sizeof(kinds_fmt) - 1;
	sb_append_len(&b, (const char *)&n, 8);
	sb_append_len(&b, kinds_fmt, n);
	struct tp_formats fs;
	tp_formats_load(&fs, b.buf, b.len);
	assert_int_equal(fs.n, 1);
	const struct tp_format *f = tp_formats_by_id(&fs, 42);
	assert_non_null(f);
	assert_string_equal(f->sys, "test");
	/* names: known, close matches, expansion for the event */
	char *hint;
	assert_true(tpkeys_known("comm", &fs, &hint));
	assert_true(tpkeys_known("test:kinds.a16", &fs, &hint));
	assert_true(tpkeys_known("trace", &fs, &hint));
	assert_false(tpkeys_known("comx", &fs, &hint));
	assert_string_equal(hint, "comm");
	free(hint);
	assert_false(tpkeys_known("common_pid", &fs, &hint));	/* perf: own fields only */
	free(hint);
	char *names[TPKEYS_MAX_NAMES];
	int nn;
	enum sort_key keys[SORT__MAX];
	const char *bad;
	int nk = sort_keys_parse_tp("comm,a16,test:kinds.comm,trace", keys, SORT__MAX, names, &nn, &bad);
	assert_int_equal(nk, 4);
	assert_int_equal(nn, 3);
	assert_int_equal(keys[0], SORT_COMM);
	assert_int_equal(keys[1], SORT_TP0);
	tpkeys_names_free(names, nn);
	assert_int_equal(sort_keys_parse_tp("comm,a b", keys, SORT__MAX, names, &nn, &bad), -1);
	assert_string_equal(bad, "a b");
	nk = sort_keys_parse_tp("comm,a16,test:kinds.comm,nothere,trace", keys, SORT__MAX, names, &nn, &bad);
	struct hist_opts ho = { 0 };
	struct tpkey tk[HIST_TP_MAX];
	assert_int_equal(tpkeys_expand(keys, nk, names, "test:kinds", f, false, &ho, tk), 3);
	assert_int_equal(ho.nkeys, 4);	/* nothere: not a field of this event */
	assert_string_equal(ho.tp_cols[0].name, "a16");
	assert_string_equal(ho.tp_cols[1].name, "comm");
	assert_true(ho.tp_cols[2].left);
	/* values: interned, ids ordered as perf's descending memcmp */
	struct tpkeys *t = tpkeys_new(tk, 3, false);
	struct rec r1, r2;
	make_rec(&r1);
	make_rec(&r2);
	const struct hist_tp *v1 = tpkeys_values(t, r1.b, sizeof(r1.b));
	assert_ptr_equal(v1, tpkeys_values(t, r2.b, sizeof(r2.b)));
	assert_string_equal(v1->text[0], "65236");	/* as the line has it */
	assert_string_equal(v1->text[1], "bash");
	int16_t a16 = -299;
	put(&r2, 10, &a16, 2);
	const struct hist_tp *v2 = tpkeys_values(t, r2.b, sizeof(r2.b));
	assert_ptr_not_equal(v1, v2);
	assert_true(strcmp(v2->id[0], v1->id[0]) < 0);	/* bytes d5 fe > d4 fe: first */
	tpkeys_free(t);
	tpkeys_names_free(names, nn);
	tp_formats_free(&fs);
	/* truncated sections: refused, never read past the end */
	for (size_t cut = 0; cut < b.len; cut++) {
		char *c = malloc(cut ? cut : 1);
		memcpy(c, b.buf, cut);
		tp_formats_load(&fs, c, cut);
		tp_formats_free(&fs);
		free(c);
	}
	sb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_kinds),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_print_event),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_bad_formats),
		cmocka_unit_test(test_print_helpers),
		cmocka_unit_test(test_tracing_data),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
