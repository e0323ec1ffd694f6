// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the minimal CO-RE target BTF (src/lib/bpfobj/core_btf.c),
 * no privileges: "kernel" and "object" BTF are built in memory with
 * libbpf's btf__add_* API; the minimal BTF is checked against the original
 * with libbpf's own BTF accessors (structure of every candidate and of
 * everything it holds by value identical, types behind pointers reduced to
 * same-kind placeholders, nothing else copied), plus the .BTF.ext record
 * parser and the raw parser's rejection of malformed input. */
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

#include "bpfobj/core_btf.h"
#include "util.h"

/* ---- comparison with libbpf's accessors: the oracle ---- */

static const struct btf_type *skipm(const struct btf *b, uint32_t id, uint32_t *res)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	while (t && id && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(b, id);
	}
	*res = id;
	return t;
}

/* Placeholder of what a pointer points to: same kind chain, aggregates empty. */
static bool same_shape(const struct btf *a, uint32_t ia, const struct btf *b, uint32_t ib, int depth);

/* Type ia of a (original) and ib of b (minimal) are the same type: same
 * kind, name, size, encoding, members (names, offsets, bitfields) and
 * member types recursively; pointers lead to same-shape placeholders. */
static bool same_type(const struct btf *a, uint32_t ia, const struct btf *b, uint32_t ib, int depth)
{
	if (depth > 64)
		return false;
	if (!ia || !ib)
		return ia == ib;
	const struct btf_type *x = btf__type_by_id(a, ia), *y = btf__type_by_id(b, ib);
	if (!x || !y || x->info != y->info)
		return false;
	if (strcmp(btf__name_by_offset(a, x->name_off), btf__name_by_offset(b, y->name_off)))
		return false;
	switch (btf_kind(x)) {
	case BTF_KIND_INT:
		return x->size == y->size && *(const uint32_t *)(x + 1) == *(const uint32_t *)(y + 1);
	case BTF_KIND_FLOAT:
		return x->size == y->size;
	case BTF_KIND_FWD:
		return true;
	case BTF_KIND_PTR:
		return same_shape(a, x->type, b, y->type, depth + 1);
	case BTF_KIND_TYPEDEF: case BTF_KIND_CONST: case BTF_KIND_VOLATILE: case BTF_KIND_RESTRICT:
		return same_type(a, x->type, b, y->type, depth + 1);
	case BTF_KIND_ARRAY:
		return btf_array(x)->nelems == btf_array(y)->nelems &&
		       same_type(a, btf_array(x)->type, b, btf_array(y)->type, depth + 1) &&
		       same_type(a, btf_array(x)->index_type, b, btf_array(y)->index_type, depth + 1);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		if (x->size != y->size)
			return false;
		for (uint16_t i = 0; i < btf_vlen(x); i++) {
			const struct btf_member *m = btf_members(x) + i, *n = btf_members(y) + i;
			if (strcmp(btf__name_by_offset(a, m->name_off), btf__name_by_offset(b, n->name_off)) ||
			    btf_member_bit_offset(x, i) != btf_member_bit_offset(y, i) ||
			    btf_member_bitfield_size(x, i) != btf_member_bitfield_size(y, i) ||
			    !same_type(a, m->type, b, n->type, depth + 1))
				return false;
		}
		return true;
	case BTF_KIND_ENUM:
		if (x->size != y->size)
			return false;
		for (uint16_t i = 0; i < btf_vlen(x); i++)
			if (btf_enum(x)[i].val != btf_enum(y)[i].val ||
			    strcmp(btf__name_by_offset(a, btf_enum(x)[i].name_off),
				   btf__name_by_offset(b, btf_enum(y)[i].name_off)))
				return false;
		return true;
	case BTF_KIND_ENUM64:
		if (x->size != y->size)
			return false;
		for (uint16_t i = 0; i < btf_vlen(x); i++)
			if (btf_enum64_value(btf_enum64(x) + i) != btf_enum64_value(btf_enum64(y) + i) ||
			    strcmp(btf__name_by_offset(a, btf_enum64(x)[i].name_off),
				   btf__name_by_offset(b, btf_enum64(y)[i].name_off)))
				return false;
		return true;
	case BTF_KIND_FUNC_PROTO:
		for (uint16_t i = 0; i < btf_vlen(x); i++)
			if (!same_type(a, btf_params(x)[i].type, b, btf_params(y)[i].type, depth + 1))
				return false;
		return same_type(a, x->type, b, y->type, depth + 1);
	default:
		return false;
	}
}

static bool same_shape(const struct btf *a, uint32_t ia, const struct btf *b, uint32_t ib, int depth)
{
	uint32_t ra, rb;
	const struct btf_type *x = skipm(a, ia, &ra), *y = skipm(b, ib, &rb);
	if (!ra || !rb)
		return ra == rb;
	if (!x || !y || btf_kind(x) != btf_kind(y) || depth > 64)
		return false;
	switch (btf_kind(x)) {
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:	/* anonymous, empty, same size */
		return !y->name_off && btf_vlen(y) == 0 && x->size == y->size;
	case BTF_KIND_PTR:
		return same_shape(a, x->type, b, y->type, depth + 1);
	case BTF_KIND_ARRAY:
		return btf_array(x)->nelems == btf_array(y)->nelems &&
		       same_shape(a, btf_array(x)->type, b, btf_array(y)->type, depth + 1);
	case BTF_KIND_FUNC_PROTO:
		if (btf_vlen(x) != btf_vlen(y))
			return false;
		for (uint16_t i = 0; i < btf_vlen(x); i++)
			if (!same_shape(a, btf_params(x)[i].type, b, btf_params(y)[i].type, depth + 1))
				return false;
		return same_shape(a, x->type, b, y->type, depth + 1);
	default:	/* ints, enums, fwds, floats: copied whole */
		return same_type(a, ra, b, rb, depth + 1);
	}
}

/* ---- fixtures ---- */

struct kern {
	struct btf *btf;
	int i32, u32, lng, chr, foo, bar, baz, foo_t, foo_ptr, arr, e, e64, fn_t, dup1, dup2, other;
};

/* A small "kernel": struct foo holds bar by value, baz through a pointer
 * (baz is big and must not be copied), an array, a bitfield, an anonymous
 * union; enums signed and 64-bit; a function-pointer typedef; two types
 * whose essential name is "dup". */
static void make_kernel(struct kern *k)
{
	struct btf *b = btf__new_empty();
	k->btf = b;
	k->i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	k->u32 = btf__add_int(b, "unsigned int", 4, 0);
	k->chr = btf__add_int(b, "char", 1, BTF_INT_CHAR);
	k->other = btf__add_struct(b, "unrelated", 4);
	btf__add_field(b, "x", k->i32, 0, 0);
	k->baz = btf__add_struct(b, "baz", 64);
	btf__add_field(b, "big", btf__add_array(b, k->i32, k->i32, 16), 0, 0);
	k->bar = btf__add_struct(b, "bar", 8);
	btf__add_field(b, "lo", k->u32, 0, 0);
	btf__add_field(b, "flag", k->u32, 32, 3);
	btf__add_field(b, "mode", k->u32, 35, 5);
	int un = btf__add_union(b, NULL, 4);
	btf__add_field(b, "as_int", k->i32, 0, 0);
	btf__add_field(b, "as_uint", k->u32, 0, 0);
	k->arr = btf__add_array(b, k->i32, k->chr, 16);
	int baz_ptr = btf__add_ptr(b, k->baz);
	int cbar = btf__add_const(b, k->bar);
	k->foo = btf__add_struct(b, "foo", 48);
	btf__add_field(b, "a", k->i32, 0, 0);
	btf__add_field(b, "b", cbar, 32, 0);
	btf__add_field(b, "p", baz_ptr, 128, 0);
	btf__add_field(b, "name", k->arr, 192, 0);
	btf__add_field(b, NULL, un, 320, 0);
	k->foo_t = btf__add_typedef(b, "foo_t", k->foo);
	k->foo_ptr = btf__add_ptr(b, k->foo);
	k->e = btf__add_enum(b, "e", 4);
	btf__add_enum_value(b, "E_A", 1);
	btf__add_enum_value(b, "E_B", 2);
	/* signed enum with only non-negative values: the kind flag must survive */
	struct btf_type *et = (struct btf_type *)btf__type_by_id(b, (uint32_t)k->e);
	et->info |= 1u << 31;
	k->e64 = btf__add_enum64(b, "e64", 8, false);
	btf__add_enum64_value(b, "E64_BIG", 1ULL << 40);
	int fp = btf__add_func_proto(b, k->i32);
	btf__add_func_param(b, "f", k->foo_ptr);
	btf__add_func_param(b, "n", k->lng = btf__add_int(b, "long int", 8, BTF_INT_SIGNED));
	k->fn_t = btf__add_typedef(b, "fn_t", btf__add_ptr(b, fp));
	k->dup1 = btf__add_struct(b, "dup", 4);
	btf__add_field(b, "v", k->i32, 0, 0);
	k->dup2 = btf__add_struct(b, "dup___kflavor", 8);
	btf__add_field(b, "w", k->u32, 0, 0);
	btf__add_field(b, "v", k->i32, 32, 0);
	assert_true(k->dup2 > 0);
}

struct local {
	struct btf *btf;
	int foo_v2, e, foo_t, missing, fn_t, dup, e64;
};

static void make_local(struct local *l)
{
	struct btf *b = btf__new_empty();
	l->btf = b;
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	l->foo_v2 = btf__add_struct(b, "foo___v2", 4);
	btf__add_field(b, "a", i32, 0, 0);
	l->e = btf__add_enum(b, "e", 4);
	btf__add_enum_value(b, "E_B", 2);
	l->foo_t = btf__add_typedef(b, "foo_t", l->foo_v2);
	l->missing = btf__add_struct(b, "not_in_kernel", 4);
	btf__add_field(b, "z", i32, 0, 0);
	l->fn_t = btf__add_typedef(b, "fn_t", i32);
	l->dup = btf__add_struct(b, "dup___mine", 4);
	btf__add_field(b, "v", i32, 0, 0);
	/* a 32-bit enum matches the kernel's enum64 of the same name */
	l->e64 = btf__add_enum(b, "e64", 4);
	btf__add_enum_value(b, "E64_BIG", 0);
}

static void raw_of(struct btf *b, struct corebtf_raw *r, void **copy)
{
	uint32_t sz;
	const void *d = btf__raw_data(b, &sz);
	assert_non_null(d);
	*copy = malloc(sz);
	memcpy(*copy, d, sz);
	const char *why = NULL;
	assert_int_equal(corebtf_raw_parse(r, *copy, sz, NULL, &why), 0);
}

static int find(const struct btf *b, const char *name, int kind)
{
	return btf__find_by_name_kind(b, name, (uint32_t)kind);
}

static void test_minimize(void **state)
{
	(void)state;
	struct kern k;
	struct local l;
	make_kernel(&k);
	make_local(&l);
	struct corebtf_raw kr, lr;
	void *kd, *ld;
	raw_of(k.btf, &kr, &kd);
	raw_of(l.btf, &lr, &ld);
	struct corebtf_relo relos[] = {
		{ 0, (uint32_t)l.foo_v2, 0, 0 },	/* field byte offset, flavored root */
		{ 8, (uint32_t)l.foo_v2, 0, 2 },	/* again: same root */
		{ 16, (uint32_t)l.e, 0, 11 },		/* enum value */
		{ 24, (uint32_t)l.foo_t, 0, 8 },	/* type exists on a typedef */
		{ 32, (uint32_t)l.missing, 0, 9 },	/* type size, no candidate */
		{ 40, (uint32_t)l.fn_t, 0, 8 },		/* function-pointer typedef */
		{ 48, (uint32_t)l.dup, 0, 1 },		/* two candidates */
		{ 56, (uint32_t)l.e64, 0, 10 },		/* enum vs enum64 */
		{ 64, (uint32_t)l.missing, 0, 6 },	/* type id local: no root */
	};
	struct corebtf_stats st;
	const char *why = "unset";
	struct btf *m = corebtf_minimize(&lr, relos, ARRAY_SIZE(relos), &kr, &st, &why);
	assert_non_null(m);
	assert_null(why);
	assert_int_equal(st.relos, ARRAY_SIZE(relos));
	assert_int_equal(st.roots, 7);
	assert_int_equal(st.cands, 7);	/* foo, e, foo_t, fn_t, dup, dup___kflavor, e64 */
	assert_int_equal(st.missing, 1);
	assert_int_equal(st.types, btf__type_cnt(m) - 1);

	/* every candidate, and what it holds by value, is the kernel's type */
	static const struct { const char *name; int kind; } cands[] = {
		{ "foo", BTF_KIND_STRUCT }, { "foo_t", BTF_KIND_TYPEDEF }, { "e", BTF_KIND_ENUM },
		{ "fn_t", BTF_KIND_TYPEDEF }, { "dup", BTF_KIND_STRUCT },
		{ "dup___kflavor", BTF_KIND_STRUCT }, { "e64", BTF_KIND_ENUM64 },
		{ "bar", BTF_KIND_STRUCT }, { "long int", BTF_KIND_INT },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cands); i++) {
		int a = find(k.btf, cands[i].name, cands[i].kind), b = find(m, cands[i].name, cands[i].kind);
		assert_true(a > 0);
		if (b <= 0)
			fail_msg("%s missing from the minimal BTF", cands[i].name);
		if (!same_type(k.btf, (uint32_t)a, m, (uint32_t)b, 0))
			fail_msg("%s differs from the kernel's", cands[i].name);
	}
	/* candidates of one root keep the kernel's order */
	assert_true(find(m, "dup", BTF_KIND_STRUCT) < find(m, "dup___kflavor", BTF_KIND_STRUCT));
	/* only reachable through a pointer: not copied; unrelated: not copied */
	assert_true(find(m, "baz", BTF_KIND_STRUCT) < 0);
	assert_true(find(m, "unrelated", BTF_KIND_STRUCT) < 0);
	assert_true(find(m, "not_in_kernel", BTF_KIND_STRUCT) < 0);
	/* libbpf sizes pointers by "long" */
	assert_int_equal(btf__pointer_size(m), 8);
	/* the result is valid BTF for libbpf: it parses its own raw output back */
	uint32_t sz;
	const void *raw = btf__raw_data(m, &sz);
	struct btf *again = btf__new(raw, sz);
	assert_non_null(again);
	assert_int_equal(btf__type_cnt(again), btf__type_cnt(m));
	btf__free(again);
	/* a few types, not the kernel's all */
	assert_true(btf__type_cnt(m) < btf__type_cnt(k.btf));
	btf__free(m);

	/* kinds left to libbpf's full kernel BTF */
	struct corebtf_relo kid = { 0, (uint32_t)l.foo_v2, 0, 7 }, match = { 0, (uint32_t)l.foo_v2, 0, 12 },
			    bad = { 0, (uint32_t)l.foo_v2, 0, 99 }, badid = { 0, 9999, 0, 0 };
	assert_null(corebtf_minimize(&lr, &kid, 1, &kr, &st, &why));
	assert_non_null(strstr(why, "bpf_core_type_id_kernel"));
	assert_null(corebtf_minimize(&lr, &match, 1, &kr, &st, &why));
	assert_non_null(strstr(why, "TYPE_MATCHES"));
	assert_null(corebtf_minimize(&lr, &bad, 1, &kr, &st, &why));
	assert_non_null(why);
	assert_null(corebtf_minimize(&lr, &badid, 1, &kr, &st, &why));
	assert_non_null(why);

	corebtf_raw_free(&kr);
	corebtf_raw_free(&lr);
	free(kd);
	free(ld);
	btf__free(k.btf);
	btf__free(l.btf);
}

static void test_essential_name(void **state)
{
	(void)state;
	/* libbpf's rule: the part before the last "X___Y" separator (X, Y not '_') */
	assert_int_equal(corebtf_essential_len("task_struct"), 11);
	assert_int_equal(corebtf_essential_len("task_struct___v2"), 11);
	assert_int_equal(corebtf_essential_len("a___b___c"), 5);
	assert_int_equal(corebtf_essential_len("a____b"), 6);	/* four underscores: no separator */
	assert_int_equal(corebtf_essential_len("___x"), 4);
	assert_int_equal(corebtf_essential_len("ab___"), 5);
	assert_int_equal(corebtf_essential_len(""), 0);
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void test_ext(void **state)
{
	(void)state;
	uint8_t b[32 + 4 + 8 + 2 * 16 + 8 + 16];
	memset(b, 0, sizeof(b));
	b[0] = 0x9f;
	b[1] = 0xeb;
	b[2] = 1;
	put32(b + 4, 32);		/* hdr_len */
	put32(b + 24, 0);		/* core_relo_off */
	put32(b + 28, 4 + 8 + 32 + 8 + 16);
	uint8_t *p = b + 32;
	put32(p, 16);			/* rec_size */
	put32(p + 4, 1);		/* sec name */
	put32(p + 8, 2);		/* two records */
	for (int i = 0; i < 2; i++) {
		put32(p + 12 + 16 * i, 8u * (uint32_t)i);
		put32(p + 16 + 16 * i, 5 + (uint32_t)i);
		put32(p + 20 + 16 * i, 3);
		put32(p + 24 + 16 * i, (uint32_t)i);
	}
	put32(p + 44, 2);		/* second section, one record */
	put32(p + 48, 1);
	put32(p + 56, 42);
	put32(p + 64, 9);
	struct corebtf_relo *r;
	size_t n;
	const char *why;
	assert_int_equal(corebtf_ext_relos(b, sizeof(b), &r, &n, &why), 0);
	assert_int_equal(n, 3);
	assert_int_equal(r[0].type_id, 5);
	assert_int_equal(r[1].type_id, 6);
	assert_int_equal(r[1].insn_off, 8);
	assert_int_equal(r[1].kind, 1);
	assert_int_equal(r[2].type_id, 42);
	assert_int_equal(r[2].kind, 9);
	free(r);
	/* every truncation is refused, never read past the end */
	for (size_t len = 0; len < sizeof(b); len++) {
		int e = corebtf_ext_relos(b, len, &r, &n, &why);
		assert_true(e == -EINVAL || (e == 0 && n == 0));
		assert_null(r);
	}
	/* an old header without CO-RE fields: no records */
	put32(b + 4, 24);
	assert_int_equal(corebtf_ext_relos(b, sizeof(b), &r, &n, &why), 0);
	assert_int_equal(n, 0);
	b[0] = 0;
	assert_int_equal(corebtf_ext_relos(b, sizeof(b), &r, &n, &why), -EINVAL);
}

static void test_raw_parse_rejects(void **state)
{
	(void)state;
	struct kern k;
	make_kernel(&k);
	uint32_t sz;
	const uint8_t *d = btf__raw_data(k.btf, &sz);
	uint8_t *c = malloc(sz);
	struct corebtf_raw r;
	const char *why;
	/* every truncation is refused */
	for (uint32_t len = 0; len < sz; len++) {
		memcpy(c, d, len);
		assert_int_equal(corebtf_raw_parse(&r, c, len, NULL, &why), -EINVAL);
	}
	memcpy(c, d, sz);
	assert_int_equal(corebtf_raw_parse(&r, c, sz, NULL, &why), 0);
	assert_int_equal(corebtf_raw_type_cnt(&r), btf__type_cnt(k.btf));
	for (uint32_t id = 1; id < btf__type_cnt(k.btf); id++)
		assert_memory_equal(corebtf_raw_type(&r, id), btf__type_by_id(k.btf, id), sizeof(struct btf_type));
	assert_null(corebtf_raw_type(&r, btf__type_cnt(k.btf)));
	assert_null(corebtf_raw_str(&r, 1u << 30));
	corebtf_raw_free(&r);
	/* unknown kind in the first type */
	struct btf_header h;
	memcpy(&h, c, sizeof(h));
	struct btf_type *t = (struct btf_type *)(c + h.hdr_len + h.type_off);
	t->info = 31u << 24;
	assert_int_equal(corebtf_raw_parse(&r, c, sz, NULL, &why), -EINVAL);
	assert_non_null(strstr(why, "kind"));
	free(c);
	btf__free(k.btf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimize),
		cmocka_unit_test(test_essential_name),
		cmocka_unit_test(test_ext),
		cmocka_unit_test(test_raw_parse_rejects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
