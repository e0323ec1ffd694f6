// SPDX-License-Identifier: GPL-2.0-only
/* Global variables of a BPF object: where they live (the one DATASEC walk),
 * assigning them before load ("NAME=VALUE") and reading them after. */
#include "bpfobj_int.h"
#include "btf/btf_fmt.h"
#include "log.h"
#include "util.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool bpfobj_btf_find_var(const struct btf *btf, const char *sec, const char *name,
			 struct bpfobj_global *g)
{
	uint32_t n = btf__type_cnt(btf);
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t || !btf_is_datasec(t))
			continue;
		const char *sn = btf__name_by_offset(btf, t->name_off);
		if (sec && (!sn || strcmp(sn, sec)))
			continue;
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			const struct btf_type *vt = btf__type_by_id(btf, v[i].type);
			if (!vt || !btf_is_var(vt))
				continue;
			const char *vn = btf__name_by_offset(btf, vt->name_off);
			if (vn && !strcmp(vn, name)) {
				*g = (struct bpfobj_global){ .sec = sn, .type_id = vt->type,
							     .offset = v[i].offset, .size = v[i].size };
				return true;
			}
		}
	}
	return false;
}

bool bpfobj_map_is_section(const struct bpf_map *m, const char *sec)
{
	const char *n = bpf_map__name(m);
	size_t ln = strlen(n), ls = strlen(sec);
	return bpf_map__is_internal(m) && ln >= ls && !strcmp(n + ln - ls, sec);
}

int bpfobj_find_global(const struct bpfobj *bo, const char *sec, const char *name,
		       struct bpfobj_global *g)
{
	return bo->btf && bpfobj_btf_find_var(bo->btf, sec, name, g) ? 0 : -ENOENT;
}

bool bpfobj_has_global(const struct bpfobj *bo, const char *name)
{
	struct bpfobj_global g;
	return bpfobj_find_global(bo, NULL, name, &g) == 0;
}

int bpfobj_global_u64(struct bpfobj *bo, const char *sec, const char *name, uint64_t *val)
{
	struct bpfobj_global g;
	if (bpfobj_find_global(bo, sec, name, &g) || g.size != 8)
		return -ENOENT;
	void *vals = NULL;
	size_t stride = 0;
	int n = 0;
	int err = bpfobj_map_read(bo, sec, NULL, &vals, &stride, &n);
	if (!err && (n < 1 || (size_t)g.offset + 8 > stride))
		err = -ENOENT;
	if (!err)
		memcpy(val, (uint8_t *)vals + g.offset, 8);
	free(vals);
	return err;
}

const struct btf_fmt_kenums *bpfobj_kenums(struct bpfobj *bo)
{
	if (bo->kenums_tried || !bo->btf)
		return bo->kenums;
	bo->kenums_tried = true;
	bool any = false;	/* read the kernel's BTF only for an object with named enums */
	for (uint32_t id = 1, n = btf__type_cnt(bo->btf); id < n && !any; id++) {
		const struct btf_type *t = btf__type_by_id(bo->btf, id);
		any = t && btf_is_any_enum(t) && t->name_off;
	}
	if (!any)
		return NULL;
	bo->kbtf = btf__load_vmlinux_btf();
	if (!bo->kbtf) {
		pr_debug("%s: the kernel's BTF is unreadable (%s): enums keep the numbering of the "
			 "object's BTF, which may differ from the running kernel's", bo->path,
			 strerror(errno));
		bo->kbtf = NULL;
		return NULL;
	}
	bo->kenums = btf_fmt_kenums_new(bo->btf, bo->kbtf);
	if (bo->kenums)
		pr_debug("%s: enums the kernel defines are named and numbered as in its BTF", bo->path);
	return bo->kenums;
}

/* ---------------------------------------------------- assignment before load */

static int bad_type(const char *name)
{
	pr_err("cannot set %s: its type is not an integer, bool, enum or char array, "
	       "the only types a value can be assigned to", name);
	return -EINVAL;
}

/* The variable and the bytes of its initial value that libbpf loads. */
static int set_target(struct bpfobj *bo, const char *name, struct bpfobj_global *g, uint8_t **dst)
{
	if (bpfobj_find_global(bo, NULL, name, g)) {
		pr_err("cannot set %s: %s has no global variable '%s'%s", name, bo->path, name,
		       bo->btf ? "; declare it as 'const volatile TYPE NAME = DEFAULT;'"
			       : " (the object has no BTF; compile with clang -g)");
		return -EINVAL;
	}
	if (!g->sec || (strcmp(g->sec, ".rodata") && strcmp(g->sec, ".data"))) {
		pr_err("cannot set %s: the variable lives in '%s'; only 'const volatile' (.rodata) "
		       "and initialized (.data) globals can be set before load", name,
		       g->sec ? g->sec : "?");
		return -EINVAL;
	}
	struct bpf_map *map = NULL, *m;
	bpf_object__for_each_map(m, bo->obj) {
		if (bpfobj_map_is_section(m, g->sec)) {
			map = m;
			break;
		}
	}
	size_t msz = 0;
	/* libbpf 1.1 returns it const, but it is the writable image applied at load */
	uint8_t *data = map ? (uint8_t *)(uintptr_t)bpf_map__initial_value(map, &msz) : NULL;
	if (!data || (size_t)g->offset + g->size > msz) {
		pr_err("cannot set %s: cannot reach the %s data of %s", name, g->sec, bo->path);
		return -EINVAL;
	}
	*dst = data + g->offset;
	return 0;
}

static int set_bool(const char *name, const char *val, uint8_t *dst, uint32_t size)
{
	bool b;
	if (!strcmp(val, "true") || !strcmp(val, "1"))
		b = true;
	else if (!strcmp(val, "false") || !strcmp(val, "0"))
		b = false;
	else {
		pr_err("cannot set %s=%s: '%s' is a bool; use true or false", name, val, name);
		return -EINVAL;
	}
	memset(dst, 0, size);
	dst[0] = b;
	return 0;
}

/* The value of enumerator val of enum type t. */
static bool enum_value(const struct btf *btf, const struct btf_type *t, const char *val, uint64_t *u)
{
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const char *en;
		uint64_t ev;
		if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t) + i;
			en = btf__name_by_offset(btf, e->name_off);
			ev = ((uint64_t)e->val_hi32 << 32) | e->val_lo32;
		} else {
			const struct btf_enum *e = btf_enum(t) + i;
			en = btf__name_by_offset(btf, e->name_off);
			ev = (uint64_t)(int64_t)e->val;
		}
		if (en && !strcmp(en, val)) {
			*u = ev;
			return true;
		}
	}
	return false;
}

/* A number for an integer of sz bytes: 0, -EINVAL (not a number) or -ERANGE. */
static int parse_number(const char *val, unsigned sz, bool is_signed, uint64_t *u)
{
	char *end;
	errno = 0;
	if (val[0] == '-') {
		long long s = strtoll(val, &end, 0);
		*u = (uint64_t)s;
		if (!errno && !*end && *val && sz < 8) {
			long long lim = 1LL << (8 * sz - 1);
			if (!is_signed || s < -lim)
				errno = ERANGE;
		}
	} else {
		*u = strtoull(val, &end, 0);
		if (!errno && !*end && sz < 8) {
			uint64_t lim = is_signed ? (1ULL << (8 * sz - 1)) - 1 : (1ULL << (8 * sz)) - 1;
			if (*u > lim)
				errno = ERANGE;
		}
	}
	if (errno == ERANGE)
		return -ERANGE;
	return errno || !*val || *end ? -EINVAL : 0;
}

static int set_integer(const struct btf *btf, const struct btf_fmt_kenums *ke, uint32_t tid,
		       const char *name, const char *val, const struct btf_type *t, uint8_t *dst,
		       uint32_t size)
{
	unsigned sz = btf_is_int(t) ? btf_int_bits(t) / 8 : t->size;
	bool is_signed = btf_is_int(t) ? (btf_int_encoding(t) & BTF_INT_SIGNED) : true;
	if (btf_is_int(t) && (btf_int_offset(t) || btf_int_bits(t) % 8))
		return bad_type(name);
	if (sz == 0 || sz > 8 || sz > size)
		return bad_type(name);
	uint64_t u = 0;
	/* an enum the kernel defines takes the kernel's numbers: the program compares
	 * the value with what the kernel stores */
	const struct btf *kb = NULL;
	const struct btf_type *kt = btf_is_any_enum(t) ? btf_fmt_kenum(ke, tid, &kb) : NULL;
	if (kt && !enum_value(kb, kt, val, &u) && enum_value(btf, t, val, &u)) {
		pr_err("cannot set %s=%s: the running kernel's enum %s has no enumerator %s (the "
		       "object was built with headers of another kernel); give one the kernel has "
		       "or a number", name, val, btf__name_by_offset(kb, kt->name_off), val);
		return -EINVAL;
	}
	if (kt ? !enum_value(kb, kt, val, &u) : (!btf_is_any_enum(t) || !enum_value(btf, t, val, &u))) {
		int err = parse_number(val, sz, is_signed, &u);
		if (err) {
			pr_err("cannot set %s=%s: not a%s %u-byte %s%s", name, val,
			       err == -ERANGE ? "n in-range" : " valid", sz,
			       btf_is_any_enum(t) ? "enum value" : (is_signed ? "signed integer" : "unsigned integer"),
			       btf_is_any_enum(t) ? " (give an enumerator name or a number)" : "");
			return -EINVAL;
		}
	}
	for (unsigned i = 0; i < sz; i++)
		dst[i] = (uint8_t)(u >> (8 * i));
	return 0;
}

static int set_string(const struct btf *btf, const char *name, const char *val,
		      const struct btf_type *t, uint8_t *dst, uint32_t size)
{
	uint32_t eid = btf_array(t)->type;
	const struct btf_type *et = btf_skip_mods(btf, &eid);
	if (!et || !btf_is_int(et) || et->size != 1)
		return bad_type(name);
	uint32_t nelems = btf_array(t)->nelems;
	size_t len = strlen(val);
	if (len > nelems || len > size) {
		pr_err("cannot set %s: the string is %zu bytes; '%s' holds at most %u", name, len,
		       name, nelems);
		return -EINVAL;
	}
	memset(dst, 0, nelems < size ? nelems : size);
	memcpy(dst, val, len);
	return 0;
}

static int apply_set(struct bpfobj *bo, const char *assign)
{
	const char *eq = strchr(assign, '=');
	if (!eq || eq == assign) {
		pr_err("cannot assign '%s' to a global variable: expected NAME=VALUE", assign);
		return -EINVAL;
	}
	char *name = xstrndup(assign, (size_t)(eq - assign));
	const char *val = eq + 1;
	struct bpfobj_global g;
	uint8_t *dst;
	int ret = set_target(bo, name, &g, &dst);
	if (!ret) {
		uint32_t rid = g.type_id;
		const struct btf_type *t = btf_skip_mods(bo->btf, &rid);
		if (t && btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_BOOL))
			ret = set_bool(name, val, dst, g.size);
		else if (t && (btf_is_int(t) || btf_is_any_enum(t)))
			ret = set_integer(bo->btf, bpfobj_kenums(bo), rid, name, val, t, dst, g.size);
		else if (t && btf_is_array(t))
			ret = set_string(bo->btf, name, val, t, dst, g.size);
		else
			ret = bad_type(name);
	}
	if (!ret)
		pr_debug("set %s (%s+%u) = %s", name, g.sec, g.offset, val);
	free(name);
	return ret;
}

int bpfobj_set(struct bpfobj *bo, const char *assign, bool must_exist)
{
	const char *eq = strchr(assign, '=');
	if (!must_exist && eq) {
		char *name = xstrndup(assign, (size_t)(eq - assign));
		bool has = bpfobj_has_global(bo, name);
		free(name);
		if (!has)
			return 0;
	}
	int err = apply_set(bo, assign);
	return err ? err : 1;
}

