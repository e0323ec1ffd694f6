// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the BTF value formatter (src/lib/btf): every BTF kind in
 * JSON (bpftool's "formatted" encoding) and in C-initializer text, bounds
 * on short data, and histogram shapes. BTF is built in memory. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf/btf_fmt.h"
#include "json.h"
#include "util.h"

struct types {
	struct btf *btf;
	int u8, s8, u16, s16, u32, s32, u64, s64, chr, boolean, i128, u128;
	int flt, dbl, ptr, arr_u32, arr_char, typedef_u32, const_u32, volatile_u32;
	int enm, enm64, strct, un, bitfields, nested, datasec, var_a, var_b;
};

static struct types T;

static int setup(void **state)
{
	(void)state;
	struct btf *b = btf__new_empty();
	T.btf = b;
	T.u8 = btf__add_int(b, "unsigned char", 1, 0);
	T.s8 = btf__add_int(b, "signed char", 1, BTF_INT_SIGNED);
	T.u16 = btf__add_int(b, "unsigned short", 2, 0);
	T.s16 = btf__add_int(b, "short", 2, BTF_INT_SIGNED);
	T.u32 = btf__add_int(b, "unsigned int", 4, 0);
	T.s32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	T.u64 = btf__add_int(b, "unsigned long", 8, 0);
	T.s64 = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	T.chr = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	T.boolean = btf__add_int(b, "_Bool", 1, BTF_INT_BOOL);
	T.i128 = btf__add_int(b, "__int128", 16, BTF_INT_SIGNED);
	T.u128 = btf__add_int(b, "unsigned __int128", 16, 0);
	T.flt = btf__add_float(b, "float", 4);
	T.dbl = btf__add_float(b, "double", 8);
	T.ptr = btf__add_ptr(b, T.u32);
	T.arr_u32 = btf__add_array(b, T.u32, T.u32, 3);
	T.arr_char = btf__add_array(b, T.u32, T.chr, 8);
	T.typedef_u32 = btf__add_typedef(b, "u32_t", T.u32);
	T.const_u32 = btf__add_const(b, T.typedef_u32);
	T.volatile_u32 = btf__add_volatile(b, T.const_u32);
	T.enm = btf__add_enum(b, "color", 4);
	btf__add_enum_value(b, "RED", 0);
	btf__add_enum_value(b, "GREEN", 1);
	btf__add_enum_value(b, "NEG", -2);
	T.enm64 = btf__add_enum64(b, "big", 8, false);
	btf__add_enum64_value(b, "HUGE", 0x100000000ULL);
	/* struct s { u32 a; char name[8]; enum color c; u64 *p; } */
	T.strct = btf__add_struct(b, "s", 24);
	btf__add_field(b, "a", T.u32, 0, 0);
	btf__add_field(b, "name", T.arr_char, 32, 0);
	btf__add_field(b, "c", T.enm, 96, 0);
	btf__add_field(b, "p", T.ptr, 128, 0);
	/* union u { u32 x; u16 y; } */
	T.un = btf__add_union(b, "u", 4);
	btf__add_field(b, "x", T.u32, 0, 0);
	btf__add_field(b, "y", T.u16, 0, 0);
	/* struct bf { u32 lo:3; u32 mid:5; s32 neg:4; } */
	T.bitfields = btf__add_struct(b, "bf", 4);
	btf__add_field(b, "lo", T.u32, 0, 3);
	btf__add_field(b, "mid", T.u32, 3, 5);
	btf__add_field(b, "neg", T.s32, 8, 4);
	/* struct n { struct u u; u32 v[3]; volatile const u32_t t; } */
	T.nested = btf__add_struct(b, "n", 20);
	btf__add_field(b, "u", T.un, 0, 0);
	btf__add_field(b, "v", T.arr_u32, 32, 0);
	btf__add_field(b, "t", T.volatile_u32, 128, 0);
	T.var_a = btf__add_var(b, "hits", BTF_VAR_GLOBAL_ALLOCATED, T.u64);
	T.var_b = btf__add_var(b, "on", BTF_VAR_GLOBAL_ALLOCATED, T.boolean);
	T.datasec = btf__add_datasec(b, ".bss", 16);
	btf__add_datasec_var_info(b, T.var_a, 0, 8);
	btf__add_datasec_var_info(b, T.var_b, 8, 1);
	return T.datasec > 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	btf__free(T.btf);
	return 0;
}

static char *json_of(int type, const void *data, size_t size, int *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer *jw = jw_new(f, false);
	*err = btf_fmt_json(jw, T.btf, (uint32_t)type, data, size);
	jw_free(jw);
	fclose(f);
	/* drop the trailing newline */
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = 0;
	return buf;
}

static char *text_of(int type, const void *data, size_t size, int *err)
{
	struct strbuf sb = {0};
	*err = btf_fmt_text(&sb, T.btf, (uint32_t)type, data, size);
	return sb.buf ? sb.buf : xstrdup("");
}

#define CHECK(type, data, size, want_json, want_text) do {		\
	int e1, e2;							\
	char *j = json_of(type, data, size, &e1);			\
	char *t = text_of(type, data, size, &e2);			\
	assert_string_equal(j, want_json);				\
	assert_string_equal(t, want_text);				\
	assert_int_equal(e1, 0);					\
	assert_int_equal(e2, 0);					\
	free(j);							\
	free(t);							\
} while (0)

static void test_ints(void **state)
{
	(void)state;
	uint8_t u8 = 250;
	int8_t s8 = -5;
	uint16_t u16 = 65535;
	int16_t s16 = -300;
	uint32_t u32 = 4000000000u;
	int32_t s32 = -70000;
	uint64_t u64 = 18446744073709551615ull;
	int64_t s64 = -9000000000ll;
	CHECK(T.u8, &u8, 1, "250", "250");
	CHECK(T.s8, &s8, 1, "-5", "-5");
	CHECK(T.u16, &u16, 2, "65535", "65535");
	CHECK(T.s16, &s16, 2, "-300", "-300");
	CHECK(T.u32, &u32, 4, "4000000000", "4000000000");
	CHECK(T.s32, &s32, 4, "-70000", "-70000");
	CHECK(T.u64, &u64, 8, "18446744073709551615", "18446744073709551615");
	CHECK(T.s64, &s64, 8, "-9000000000", "-9000000000");
	char c = 'A';
	CHECK(T.chr, &c, 1, "65", "65");	/* clang's char: a signed 1-byte int, like bpftool */
	uint8_t b = 1;
	CHECK(T.boolean, &b, 1, "true", "true");
	b = 0;
	CHECK(T.boolean, &b, 1, "false", "false");
}

static void test_int128_float_ptr(void **state)
{
	(void)state;
	uint64_t v[2] = { 0x1122334455667788ull, 0x1ull };
	CHECK(T.u128, v, 16, "\"0x11122334455667788\"", "0x11122334455667788");
	uint64_t small[2] = { 0xff, 0 };
	CHECK(T.i128, small, 16, "\"0xff\"", "0xff");
	float f = 1.5f;
	CHECK(T.flt, &f, 4, "1.5", "1.5");
	double d = -0.25;
	CHECK(T.dbl, &d, 8, "-0.25", "-0.25");
	uint64_t p = 0xffff888012345678ull;
	CHECK(T.ptr, &p, 8, "18446612682375452280", "0xffff888012345678");
}

static void test_arrays_modifiers(void **state)
{
	(void)state;
	uint32_t a[3] = { 1, 2, 3 };
	CHECK(T.arr_u32, a, sizeof(a), "[1,2,3]", "{ 1, 2, 3 }");
	char s[8] = "lo";
	CHECK(T.arr_char, s, 8, "\"lo\"", "\"lo\"");
	char bin[8] = { 1, 2, 0 };	/* not printable: an array of numbers */
	/* text leaves out trailing zeros of arrays of 8 or more, C-style, with a marker */
	CHECK(T.arr_char, bin, 8, "[1,2,0,0,0,0,0,0]", "{ 1, 2, ... }");
	char full[8] = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' };	/* no NUL */
	CHECK(T.arr_char, full, 8, "[97,98,99,100,101,102,103,104]",
	      "{ 97, 98, 99, 100, 101, 102, 103, 104 }");
	uint32_t x = 7;
	CHECK(T.typedef_u32, &x, 4, "7", "7");
	CHECK(T.volatile_u32, &x, 4, "7", "7");
}

static void test_enums(void **state)
{
	(void)state;
	int32_t e = 1;
	CHECK(T.enm, &e, 4, "\"GREEN\"", "GREEN");
	e = -2;
	CHECK(T.enm, &e, 4, "\"NEG\"", "NEG");
	e = 42;
	CHECK(T.enm, &e, 4, "42", "42");
	uint64_t e64 = 0x100000000ULL;
	CHECK(T.enm64, &e64, 8, "\"HUGE\"", "HUGE");
	e64 = 5;
	CHECK(T.enm64, &e64, 8, "5", "5");
}

static void test_structs(void **state)
{
	(void)state;
	struct {
		uint32_t a;
		char name[8];
		int32_t c;
		uint64_t p;
	} s = { 9, "eth0", 0, 0x10 };
	CHECK(T.strct, &s, sizeof(s),
	      "{\"a\":9,\"name\":\"eth0\",\"c\":\"RED\",\"p\":16}",
	      "{ .a = 9, .name = \"eth0\", .c = RED, .p = 0x10 }");
	uint32_t u = 0x00020001;
	CHECK(T.un, &u, 4, "{\"x\":131073,\"y\":1}", "{ .x = 131073, .y = 1 }");
	/* lo = 5, mid = 17, neg = -3 (0xd) */
	uint32_t bf = 5u | (17u << 3) | (0xdu << 8);
	CHECK(T.bitfields, &bf, 4, "{\"lo\":\"0x5\",\"mid\":\"0x11\",\"neg\":\"0xd\"}",
	      "{ .lo = 5, .mid = 17, .neg = -3 }");
	uint32_t n[5] = { 3, 10, 20, 30, 99 };
	CHECK(T.nested, n, sizeof(n), "{\"u\":{\"x\":3,\"y\":3},\"v\":[10,20,30],\"t\":99}",
	      "{ .u = { .x = 3, .y = 3 }, .v = { 10, 20, 30 }, .t = 99 }");
}

static void test_datasec(void **state)
{
	(void)state;
	uint8_t d[16] = {0};
	uint64_t hits = 12345;
	memcpy(d, &hits, 8);
	d[8] = 1;
	CHECK(T.datasec, d, sizeof(d), "{\"hits\":12345,\"on\":true}", "{ .hits = 12345, .on = true }");
}

static void test_short_data_and_bad_types(void **state)
{
	(void)state;
	int err;
	uint32_t a[2] = { 1, 2 };
	char *j = json_of(T.arr_u32, a, sizeof(a), &err);	/* 3 elements, data for 2 */
	assert_int_equal(err, -E2BIG);
	assert_string_equal(j, "[1,2]");
	free(j);
	j = json_of(T.u64, a, 4, &err);
	assert_int_equal(err, -E2BIG);
	assert_string_equal(j, "null");
	free(j);
	j = json_of(9999, a, 8, &err);
	assert_int_equal(err, -EINVAL);
	free(j);
	char *t = text_of(T.strct, a, 8, &err);	/* truncated struct: still well formed */
	assert_int_equal(err, -E2BIG);
	assert_non_null(strstr(t, ".a = 1"));
	free(t);
	j = json_of(T.u32, NULL, 0, &err);
	assert_int_equal(err, -E2BIG);
	free(j);
}

static void test_hex_fallback(void **state)
{
	(void)state;
	uint8_t d[3] = { 0x00, 0xab, 0x10 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer *jw = jw_new(f, false);
	btf_fmt_hex_json(jw, d, 3);
	jw_free(jw);
	fclose(f);
	assert_string_equal(buf, "[\"0x00\",\"0xab\",\"0x10\"]\n");
	free(buf);
	struct strbuf sb = {0};
	btf_fmt_hex_text(&sb, d, 3);
	assert_string_equal(sb.buf, "00 ab 10");
	sb_free(&sb);
}

/* Histogram shapes: a struct with slots[] (drawing: tests/unit/test_out_hist.c). */
static void test_slots(void **state)
{
	(void)state;
	size_t off;
	uint32_t nr;
	int esz;
	int arr = btf__add_array(T.btf, T.u32, T.u32, 26);
	int h = btf__add_struct(T.btf, "hist", 8 + 26 * 4);
	btf__add_field(T.btf, "total", T.u64, 0, 0);
	btf__add_field(T.btf, "slots", arr, 64, 0);
	assert_true(btf_fmt_find_slots(T.btf, (uint32_t)h, &off, &nr, &esz));
	assert_int_equal(off, 8);
	assert_int_equal(nr, 26);
	assert_int_equal(esz, 4);
	assert_false(btf_fmt_find_slots(T.btf, (uint32_t)T.strct, &off, &nr, &esz));
	assert_int_equal(btf_fmt_find_struct(T.btf, "hist"), h);
	assert_int_equal(btf_fmt_find_struct(T.btf, "nope"), 0);
}

/* A kernel enum numbered differently than the object's copy (skb_drop_reason
 * on 6.1 vs the build machine): values are named by the kernel's numbering. */
static void test_kernel_enums(void **state)
{
	(void)state;
	struct btf *obj = btf__new_empty(), *kern = btf__new_empty();
	int u32 = btf__add_int(obj, "unsigned int", 4, 0);
	int reason = btf__add_enum(obj, "drop_reason", 4);
	btf__add_enum_value(obj, "NOT_SPECIFIED", 2);
	btf__add_enum_value(obj, "NO_SOCKET", 3);
	btf__add_enum_value(obj, "NEW_ONE", 4);
	int local = btf__add_enum(obj, "local_only", 4);
	btf__add_enum_value(obj, "L_A", 7);
	int tdef = btf__add_typedef(obj, "reason_t", reason);
	(void)u32;
	btf__add_int(kern, "int", 4, BTF_INT_SIGNED);
	btf__add_enum(kern, "unrelated", 4);
	btf__add_enum_value(kern, "X", 3);
	btf__add_enum(kern, "drop_reason", 4);
	btf__add_enum_value(kern, "NO_SOCKET", 2);
	btf__add_enum_value(kern, "NOT_SPECIFIED", 3);

	struct btf_fmt_kenums *ke = btf_fmt_kenums_new(obj, kern);
	assert_non_null(ke);
	const struct btf *kb = NULL;
	const struct btf_type *kt = btf_fmt_kenum(ke, (uint32_t)reason, &kb);
	assert_non_null(kt);
	assert_ptr_equal(kb, kern);
	assert_int_equal(btf_vlen(kt), 2);
	assert_null(btf_fmt_kenum(ke, (uint32_t)local, &kb));

	uint32_t v = 2;
	struct strbuf sb = {0};
	assert_int_equal(btf_fmt_text_k(&sb, obj, ke, (uint32_t)tdef, &v, 4), 0);
	assert_string_equal(sb.buf, "NO_SOCKET");	/* the object's BTF says NOT_SPECIFIED */
	sb_free(&sb);
	v = 4;	/* the kernel has no enumerator 4: a number, not the object's NEW_ONE */
	assert_int_equal(btf_fmt_text_k(&sb, obj, ke, (uint32_t)reason, &v, 4), 0);
	assert_string_equal(sb.buf, "4");
	sb_free(&sb);
	v = 7;	/* an enum the kernel lacks keeps the object's names */
	assert_int_equal(btf_fmt_text_k(&sb, obj, ke, (uint32_t)local, &v, 4), 0);
	assert_string_equal(sb.buf, "L_A");
	sb_free(&sb);
	v = 2;	/* without the table: the object's numbering */
	assert_int_equal(btf_fmt_text_k(&sb, obj, NULL, (uint32_t)reason, &v, 4), 0);
	assert_string_equal(sb.buf, "NOT_SPECIFIED");
	sb_free(&sb);
	btf_fmt_kenums_free(ke);

	/* nothing in common: no table */
	struct btf *other = btf__new_empty();
	btf__add_enum(other, "zzz", 4);
	btf__add_enum_value(other, "Z", 1);
	assert_null(btf_fmt_kenums_new(other, kern));
	btf__free(other);
	btf__free(obj);
	btf__free(kern);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ints),
		cmocka_unit_test(test_int128_float_ptr),
		cmocka_unit_test(test_arrays_modifiers),
		cmocka_unit_test(test_enums),
		cmocka_unit_test(test_kernel_enums),
		cmocka_unit_test(test_structs),
		cmocka_unit_test(test_datasec),
		cmocka_unit_test(test_short_data_and_bad_types),
		cmocka_unit_test(test_hex_fallback),
		cmocka_unit_test(test_slots),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
