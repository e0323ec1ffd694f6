// SPDX-License-Identifier: GPL-2.0-only
/* BTF-typed value formatting (see btf_fmt.h). One recursive walker; the
 * context says whether it writes JSON (bpftool's "formatted" encoding) or
 * C-initializer text. libbpf's btf_dump__dump_type_data was evaluated for the
 * text form: it prints a type cast before every value ("(int)1") and one
 * member per line, which is too heavy for one line per record, and it has no
 * JSON counterpart; this walker gives both forms the same decisions. */
#include "btf_fmt.h"
#include "json.h"
#include "util.h"

#include <bpf/btf.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_NODES (1u << 20)	/* values written per call: caps hostile BTF */

struct fmt_ctx {
	const struct btf *btf;
	const struct btf_fmt_kenums *ke;
	struct json_writer *jw;	/* JSON mode when set */
	struct strbuf *sb;	/* text mode otherwise */
	const uint8_t *base;
	size_t size;
	unsigned nodes;
	int err;
};

static const char *tname(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);
	return n ? n : "";
}

const struct btf_type *btf_skip_mods(const struct btf *btf, uint32_t *id)
{
	for (int i = 0; i < MAX_DEPTH; i++) {
		const struct btf_type *t = btf__type_by_id(btf, *id);
		if (!t)
			return NULL;
		if (!btf_is_mod(t) && !btf_is_typedef(t))
			return t;
		*id = t->type;
	}
	return NULL;
}

long btf_fmt_type_size(const struct btf *btf, uint32_t type_id)
{
	long long s = btf__resolve_size(btf, type_id);
	return s < 0 ? (long)s : (long)s;
}

uint64_t btf_fmt_read_uint(const void *p, int size)
{
	uint8_t b[8] = {0};
	if (size > 8)
		size = 8;
	if (size > 0)
		memcpy(b, p, (size_t)size);
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | b[i];
	return v;
}

/* Emitters ---------------------------------------------------------------*/

static bool budget(struct fmt_ctx *c)
{
	if (++c->nodes > MAX_NODES) {
		if (!c->err)
			c->err = -E2BIG;
		return false;
	}
	return true;
}

static void emit_err(struct fmt_ctx *c, int err, const char *what)
{
	if (!c->err)
		c->err = err;
	if (c->jw)
		jw_null(c->jw);
	else
		sb_printf(c->sb, "<%s>", what);
}

static void emit_hex_u128(struct fmt_ctx *c, uint64_t hi, uint64_t lo)
{
	char buf[48];
	if (hi)
		snprintf(buf, sizeof(buf), "0x%" PRIx64 "%016" PRIx64, hi, lo);
	else
		snprintf(buf, sizeof(buf), "0x%" PRIx64, lo);
	if (c->jw)
		jw_string(c->jw, buf);
	else
		sb_append(c->sb, buf);
}

/* Bits [bit_off, bit_off + nr_bits) of the little-endian bytes at p
 * (at most 16 bytes available from p, limited by avail). */
static void extract_bits(const uint8_t *p, size_t avail, unsigned bit_off, unsigned nr_bits,
			 uint64_t *hi, uint64_t *lo)
{
	uint8_t b[32] = {0};
	size_t need = (bit_off + nr_bits + 7) / 8;
	if (need > sizeof(b))
		need = sizeof(b);
	if (need > avail)
		need = avail;
	memcpy(b, p, need);
	uint64_t rlo = 0, rhi = 0;
	for (unsigned i = 0; i < nr_bits && i < 128; i++) {
		unsigned bit = bit_off + i;
		if (bit / 8 >= sizeof(b))
			break;
		if (b[bit / 8] >> (bit % 8) & 1) {
			if (i < 64)
				rlo |= 1ULL << i;
			else
				rhi |= 1ULL << (i - 64);
		}
	}
	*hi = rhi;
	*lo = rlo;
}

static bool in_bounds(struct fmt_ctx *c, size_t off, size_t len)
{
	return off <= c->size && len <= c->size - off;
}

static void walk(struct fmt_ctx *c, uint32_t id, size_t off, unsigned bit_off, int depth);

static void walk_int(struct fmt_ctx *c, const struct btf_type *t, size_t off, unsigned bit_off)
{
	uint32_t info = *(const uint32_t *)(t + 1);
	unsigned nr_bits = BTF_INT_BITS(info);
	unsigned enc = BTF_INT_ENCODING(info);
	unsigned total_off = bit_off + BTF_INT_OFFSET(info);
	off += total_off / 8;
	total_off %= 8;

	size_t nbytes = (total_off + nr_bits + 7) / 8;
	if (nr_bits == 0 || nr_bits > 128 || !in_bounds(c, off, nbytes ? nbytes : 1)) {
		emit_err(c, -E2BIG, "truncated");
		return;
	}
	const uint8_t *p = c->base + off;
	uint64_t hi, lo;

	if (total_off || nr_bits % 8 || nr_bits == 128 ||
	    (nr_bits != 8 && nr_bits != 16 && nr_bits != 32 && nr_bits != 64)) {
		/* Bitfield or __int128: hex, like bpftool. In text a
		 * bitfield up to 64 bits reads better as a number. */
		extract_bits(p, c->size - off, total_off, nr_bits, &hi, &lo);
		if (!c->jw && nr_bits < 64 && !(enc & BTF_INT_SIGNED)) {
			sb_printf(c->sb, "%" PRIu64, lo);
			return;
		}
		if (!c->jw && nr_bits < 64 && (enc & BTF_INT_SIGNED)) {
			int64_t v = (int64_t)(lo << (64 - nr_bits)) >> (64 - nr_bits);
			sb_printf(c->sb, "%" PRId64, v);
			return;
		}
		emit_hex_u128(c, hi, lo);
		return;
	}
	int size = (int)(nr_bits / 8);
	uint64_t u = btf_fmt_read_uint(p, size);
	if (enc & BTF_INT_BOOL) {
		if (c->jw)
			jw_bool(c->jw, u != 0);
		else
			sb_append(c->sb, u ? "true" : "false");
		return;
	}
	if ((enc & BTF_INT_CHAR) && size == 1) {
		char ch = (char)u;
		if (isprint((unsigned char)ch)) {
			if (c->jw) {
				jw_string_len(c->jw, &ch, 1);
			} else if (ch == '\'' || ch == '\\') {
				sb_printf(c->sb, "'\\%c'", ch);
			} else {
				sb_printf(c->sb, "'%c'", ch);
			}
		} else if (c->jw) {
			jw_string_len(c->jw, &ch, 1);
		} else {
			sb_printf(c->sb, "'\\x%02x'", (unsigned char)ch);
		}
		return;
	}
	if (enc & BTF_INT_SIGNED) {
		int64_t v = size == 8 ? (int64_t)u : (int64_t)(u << (64 - 8 * size)) >> (64 - 8 * size);
		if (c->jw)
			jw_int(c->jw, v);
		else
			sb_printf(c->sb, "%" PRId64, v);
	} else {
		if (c->jw)
			jw_uint(c->jw, u);
		else
			sb_printf(c->sb, "%" PRIu64, u);
	}
}

static void walk_enum(struct fmt_ctx *c, uint32_t id, const struct btf_type *t, size_t off)
{
	/* the value's size is the object's; the enumerators are the kernel's if it has the enum */
	const struct btf *eb = c->btf;
	const struct btf_type *et = btf_fmt_kenum(c->ke, id, &eb);
	if (!et) {
		et = t;
		eb = c->btf;
	}
	int size = (int)t->size;
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		emit_err(c, -EINVAL, "bad enum size");
		return;
	}
	if (!in_bounds(c, off, (size_t)size)) {
		emit_err(c, -E2BIG, "truncated");
		return;
	}
	uint64_t u = btf_fmt_read_uint(c->base + off, size);
	int64_t sv = size == 8 ? (int64_t)u : (int64_t)(u << (64 - 8 * size)) >> (64 - 8 * size);
	uint16_t vlen = btf_vlen(et);
	bool is64 = btf_is_enum64(et);
	for (uint16_t i = 0; i < vlen; i++) {
		const char *name;
		bool match;
		if (is64) {
			const struct btf_enum64 *e = btf_enum64(et) + i;
			uint64_t ev = ((uint64_t)e->val_hi32 << 32) | e->val_lo32;
			match = ev == u;
			name = btf__name_by_offset(eb, e->name_off);
		} else {
			const struct btf_enum *e = btf_enum(et) + i;
			/* enumerator values are 32 bits: compare sign- and zero-extended */
			match = (int64_t)e->val == sv || (uint64_t)(uint32_t)e->val == u;
			name = btf__name_by_offset(eb, e->name_off);
		}
		if (match && name) {
			if (c->jw)
				jw_string(c->jw, name);
			else
				sb_append(c->sb, name);
			return;
		}
	}
	bool sign = btf_kflag(t);
	if (c->jw) {
		if (is64 && !sign)
			jw_uint(c->jw, u);
		else
			jw_int(c->jw, sv);
	} else {
		if (is64 && !sign)
			sb_printf(c->sb, "%" PRIu64, u);
		else
			sb_printf(c->sb, "%" PRId64, sv);
	}
}

/* bpftool's rule: elements are 1-byte ints with CHAR encoding or named
 * "char" (modifiers skipped, typedefs not), printable up to a NUL. */
static bool is_string_array(struct fmt_ctx *c, const struct btf_array *arr, size_t off)
{
	if (!arr->nelems)
		return false;
	const struct btf_type *et = btf__type_by_id(c->btf, arr->type);
	for (int i = 0; et && btf_is_mod(et) && i < MAX_DEPTH; i++)
		et = btf__type_by_id(c->btf, et->type);
	if (!et || !btf_is_int(et) || et->size != 1)
		return false;
	if (!(btf_int_encoding(et) & BTF_INT_CHAR) && strcmp(tname(c->btf, et), "char"))
		return false;
	if (!in_bounds(c, off, arr->nelems))
		return false;
	const uint8_t *s = c->base + off;
	for (uint32_t i = 0; i < arr->nelems; i++) {
		if (!s[i])
			return true;
		if (s[i] <= 0x1f || s[i] >= 0x7f)
			return false;
	}
	return false;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void text_string(struct strbuf *sb, const char *s)
{
	sb_append(sb, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_printf(sb, "\\%c", *s);
		else
			sb_append_len(sb, s, 1);
	}
	sb_append(sb, "\"");
}

static void walk_array(struct fmt_ctx *c, const struct btf_type *t, size_t off, int depth)
{
	const struct btf_array *arr = btf_array(t);
	if (is_string_array(c, arr, off)) {
		const char *s = (const char *)c->base + off;
		if (c->jw)
			jw_string(c->jw, s);
		else
			text_string(c->sb, s);
		return;
	}
	long long esz = btf__resolve_size(c->btf, arr->type);
	if (esz < 0) {
		emit_err(c, -EINVAL, "bad array element type");
		return;
	}
	uint32_t n = arr->nelems;
	/* Elements past the data are not shown (and reported as -E2BIG). */
	if (esz > 0 && (unsigned long long)n * (unsigned long long)esz > c->size - (off <= c->size ? off : c->size)) {
		if (!c->err)
			c->err = -E2BIG;
		n = off <= c->size ? (uint32_t)((c->size - off) / (size_t)esz) : 0;
	}
	uint32_t shown = n;
	/* Text: omit trailing zero elements of longer arrays, as C does. */
	if (!c->jw && n >= 8 && esz > 0) {
		while (shown > 0 && all_zero(c->base + off + (size_t)(shown - 1) * (size_t)esz, (size_t)esz))
			shown--;
	}
	if (c->jw)
		jw_start_array(c->jw);
	else
		sb_append(c->sb, "{ ");
	for (uint32_t i = 0; i < shown; i++) {
		if (!budget(c))
			break;
		if (!c->jw && i)
			sb_append(c->sb, ", ");
		walk(c, arr->type, off + (size_t)i * (size_t)esz, 0, depth + 1);
	}
	if (c->jw) {
		jw_end_array(c->jw);
	} else {
		if (shown < n)
			sb_append(c->sb, shown ? ", ..." : "0, ...");
		sb_append(c->sb, " }");
	}
}

static void walk_struct(struct fmt_ctx *c, const struct btf_type *t, size_t off, int depth)
{
	const struct btf_member *m = btf_members(t);
	uint16_t vlen = btf_vlen(t);
	bool kflag = btf_kflag(t);
	if (c->jw)
		jw_start_object(c->jw);
	else
		sb_append(c->sb, vlen ? "{ " : "{");
	for (uint16_t i = 0; i < vlen; i++) {
		if (!budget(c))
			break;
		uint32_t bit = kflag ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;
		uint32_t bsz = kflag ? BTF_MEMBER_BITFIELD_SIZE(m[i].offset) : 0;
		const char *name = btf__name_by_offset(c->btf, m[i].name_off);
		if (!name)
			name = "";
		if (c->jw) {
			jw_key(c->jw, name);
		} else {
			if (i)
				sb_append(c->sb, ", ");
			if (*name)
				sb_printf(c->sb, ".%s = ", name);
		}
		size_t moff = off + bit / 8;
		if (bsz) {
			uint64_t hi, lo;
			if (!in_bounds(c, moff, (bit % 8 + bsz + 7) / 8)) {
				emit_err(c, -E2BIG, "truncated");
				continue;
			}
			extract_bits(c->base + moff, c->size - moff, bit % 8, bsz, &hi, &lo);
			if (c->jw) {
				emit_hex_u128(c, hi, lo);
			} else {
				uint32_t mid = m[i].type;
				const struct btf_type *mt = btf_skip_mods(c->btf, &mid);
				bool sign = mt && btf_is_int(mt) && (btf_int_encoding(mt) & BTF_INT_SIGNED);
				if (bsz < 64 && sign)
					sb_printf(c->sb, "%" PRId64,
						  (int64_t)(lo << (64 - bsz)) >> (64 - bsz));
				else if (bsz <= 64)
					sb_printf(c->sb, "%" PRIu64, lo);
				else
					emit_hex_u128(c, hi, lo);
			}
		} else {
			walk(c, m[i].type, moff, bit % 8, depth + 1);
		}
	}
	if (c->jw)
		jw_end_object(c->jw);
	else
		sb_append(c->sb, vlen ? " }" : "}");
}

static void walk_datasec(struct fmt_ctx *c, const struct btf_type *t, size_t off, int depth)
{
	const struct btf_var_secinfo *v = btf_var_secinfos(t);
	uint16_t vlen = btf_vlen(t);
	if (c->jw)
		jw_start_object(c->jw);
	else
		sb_append(c->sb, "{ ");
	for (uint16_t i = 0; i < vlen; i++) {
		if (!budget(c))
			break;
		const struct btf_type *vt = btf__type_by_id(c->btf, v[i].type);
		const char *name = vt ? tname(c->btf, vt) : "";
		if (c->jw) {
			jw_key(c->jw, name);
		} else {
			if (i)
				sb_append(c->sb, ", ");
			sb_printf(c->sb, ".%s = ", name);
		}
		if (!vt || !btf_is_var(vt)) {
			emit_err(c, -EINVAL, "not a variable");
			continue;
		}
		walk(c, vt->type, off + v[i].offset, 0, depth + 1);
	}
	if (c->jw)
		jw_end_object(c->jw);
	else
		sb_append(c->sb, " }");
}

static void walk(struct fmt_ctx *c, uint32_t id, size_t off, unsigned bit_off, int depth)
{
	if (depth > MAX_DEPTH) {
		emit_err(c, -ELOOP, "too deep");
		return;
	}
	const struct btf_type *t = btf_skip_mods(c->btf, &id);
	if (!t) {
		emit_err(c, -EINVAL, "bad type");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		walk_int(c, t, off, bit_off);
		return;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		walk_enum(c, id, t, off);
		return;
	case BTF_KIND_PTR: {
		if (!in_bounds(c, off, 8)) {
			emit_err(c, -E2BIG, "truncated");
			return;
		}
		uint64_t v = btf_fmt_read_uint(c->base + off, 8);
		if (c->jw)
			jw_uint(c->jw, v);
		else
			sb_printf(c->sb, "0x%" PRIx64, v);
		return;
	}
	case BTF_KIND_FLOAT: {
		double d;
		if (!in_bounds(c, off, t->size)) {
			emit_err(c, -E2BIG, "truncated");
			return;
		}
		if (t->size == 4) {
			float f;
			memcpy(&f, c->base + off, 4);
			d = f;
		} else if (t->size == 8) {
			memcpy(&d, c->base + off, 8);
		} else if (t->size == 16 && sizeof(long double) == 16) {
			long double ld;
			memcpy(&ld, c->base + off, 16);
			d = (double)ld;
		} else {
			emit_err(c, -EINVAL, "bad float size");
			return;
		}
		if (c->jw)
			jw_double(c->jw, d);
		else
			sb_printf(c->sb, "%g", d);
		return;
	}
	case BTF_KIND_ARRAY:
		walk_array(c, t, off, depth);
		return;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		walk_struct(c, t, off, depth);
		return;
	case BTF_KIND_VAR:
		walk(c, t->type, off, 0, depth + 1);
		return;
	case BTF_KIND_DATASEC:
		walk_datasec(c, t, off, depth);
		return;
	case BTF_KIND_FWD:
		emit_err(c, -EINVAL, "forward declaration");
		return;
	default:
		emit_err(c, -EINVAL, "unsupported BTF kind");
		return;
	}
}

int btf_fmt_json(struct json_writer *jw, const struct btf *btf, uint32_t type_id,
		 const void *data, size_t size)
{
	return btf_fmt_json_k(jw, btf, NULL, type_id, data, size);
}

int btf_fmt_json_k(struct json_writer *jw, const struct btf *btf, const struct btf_fmt_kenums *ke,
		   uint32_t type_id, const void *data, size_t size)
{
	struct fmt_ctx c = { .btf = btf, .ke = ke, .jw = jw, .base = data, .size = data ? size : 0 };
	if (!btf) {
		btf_fmt_hex_json(jw, data, size);
		return -EINVAL;
	}
	walk(&c, type_id, 0, 0, 0);
	return c.err;
}

int btf_fmt_text(struct strbuf *sb, const struct btf *btf, uint32_t type_id,
		 const void *data, size_t size)
{
	return btf_fmt_text_k(sb, btf, NULL, type_id, data, size);
}

int btf_fmt_text_k(struct strbuf *sb, const struct btf *btf, const struct btf_fmt_kenums *ke,
		   uint32_t type_id, const void *data, size_t size)
{
	struct fmt_ctx c = { .btf = btf, .ke = ke, .sb = sb, .base = data, .size = data ? size : 0 };
	if (!btf) {
		btf_fmt_hex_text(sb, data, size);
		return -EINVAL;
	}
	walk(&c, type_id, 0, 0, 0);
	return c.err;
}

void btf_fmt_hex_json(struct json_writer *jw, const void *data, size_t size)
{
	const uint8_t *p = data;
	char b[8];
	jw_start_array(jw);
	for (size_t i = 0; i < size; i++) {
		snprintf(b, sizeof(b), "0x%02x", p[i]);
		jw_string(jw, b);
	}
	jw_end_array(jw);
}

void btf_fmt_hex_text(struct strbuf *sb, const void *data, size_t size)
{
	const uint8_t *p = data;
	if (!size)
		sb_append(sb, "(empty)");
	for (size_t i = 0; i < size; i++)
		sb_printf(sb, i ? " %02x" : "%02x", p[i]);
}

uint32_t btf_fmt_find_struct(const struct btf *btf, const char *name)
{
	uint32_t n = btf__type_cnt(btf);
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (t && (btf_is_struct(t) || btf_is_union(t)) && !strcmp(tname(btf, t), name))
			return id;
	}
	/* A typedef to a struct counts too. */
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (t && btf_is_typedef(t) && !strcmp(tname(btf, t), name))
			return id;
	}
	return 0;
}

bool btf_fmt_int_info(const struct btf *btf, uint32_t type_id, int *size, bool *is_signed)
{
	const struct btf_type *t = btf_skip_mods(btf, &type_id);
	if (!t)
		return false;
	if (btf_is_int(t)) {
		unsigned bits = btf_int_bits(t);
		if (btf_int_offset(t) || (bits != 8 && bits != 16 && bits != 32 && bits != 64) ||
		    (btf_int_encoding(t) & BTF_INT_BOOL))
			return false;
		*size = (int)bits / 8;
		*is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		return true;
	}
	return false;
}

bool btf_fmt_find_slots(const struct btf *btf, uint32_t type_id, size_t *offset,
			uint32_t *nr, int *elem_size)
{
	const struct btf_type *t = btf_skip_mods(btf, &type_id);
	if (!t || !btf_is_struct(t))
		return false;
	const struct btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const char *name = btf__name_by_offset(btf, m[i].name_off);
		if (!name || strcmp(name, "slots"))
			continue;
		uint32_t mid = m[i].type;
		const struct btf_type *mt = btf_skip_mods(btf, &mid);
		if (!mt || !btf_is_array(mt))
			return false;
		bool sign;
		if (!btf_fmt_int_info(btf, btf_array(mt)->type, elem_size, &sign))
			return false;
		uint32_t bit = btf_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;
		if (bit % 8)
			return false;
		*offset = bit / 8;
		*nr = btf_array(mt)->nelems;
		return *nr > 0;
	}
	return false;
}

/* Kernel enums ------------------------------------------------------------*/

struct kenum_name {
	const char *name;	/* in the object's BTF */
	uint32_t id;
};

struct btf_fmt_kenums {
	const struct btf *kbtf;
	uint32_t nr;		/* object type ids below nr */
	uint32_t *kid;		/* object type id -> kernel type id, 0: none */
};

static int cmp_kenum_name(const void *a, const void *b)
{
	return strcmp(((const struct kenum_name *)a)->name, ((const struct kenum_name *)b)->name);
}

struct btf_fmt_kenums *btf_fmt_kenums_new(const struct btf *btf, const struct btf *kbtf)
{
	if (!btf || !kbtf)
		return NULL;
	uint32_t n = btf__type_cnt(btf);
	struct kenum_name *names = NULL;
	size_t nr_names = 0;
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = t && btf_is_any_enum(t) ? btf__name_by_offset(btf, t->name_off) : NULL;
		if (!name || !*name)
			continue;
		names = xrealloc(names, (nr_names + 1) * sizeof(*names));
		names[nr_names++] = (struct kenum_name){ .name = name, .id = id };
	}
	struct btf_fmt_kenums *ke = NULL;
	if (!nr_names)
		return NULL;
	qsort(names, nr_names, sizeof(*names), cmp_kenum_name);
	/* one pass over the kernel's types: it has far more than the object */
	uint32_t kn = btf__type_cnt(kbtf);
	for (uint32_t kid = 1; kid < kn; kid++) {
		const struct btf_type *kt = btf__type_by_id(kbtf, kid);
		if (!kt || !btf_is_any_enum(kt) || !kt->name_off)
			continue;
		struct kenum_name key = { .name = btf__name_by_offset(kbtf, kt->name_off) };
		if (!key.name)
			continue;
		struct kenum_name *hit = bsearch(&key, names, nr_names, sizeof(*names), cmp_kenum_name);
		if (!hit)
			continue;
		/* equal names sit together: map every object enum of that name */
		while (hit > names && !strcmp(hit[-1].name, key.name))
			hit--;
		for (; hit < names + nr_names && !strcmp(hit->name, key.name); hit++) {
			if (!ke) {
				ke = xcalloc(1, sizeof(*ke));
				ke->kbtf = kbtf;
				ke->nr = n;
				ke->kid = xcalloc(n, sizeof(*ke->kid));
			}
			if (!ke->kid[hit->id])	/* the first kernel enum of a name wins */
				ke->kid[hit->id] = kid;
		}
	}
	free(names);
	return ke;
}

void btf_fmt_kenums_free(struct btf_fmt_kenums *ke)
{
	if (!ke)
		return;
	free(ke->kid);
	free(ke);
}

const struct btf_type *btf_fmt_kenum(const struct btf_fmt_kenums *ke, uint32_t type_id,
				     const struct btf **kbtf)
{
	if (!ke || type_id >= ke->nr || !ke->kid[type_id])
		return NULL;
	*kbtf = ke->kbtf;
	return btf__type_by_id(ke->kbtf, ke->kid[type_id]);
}
