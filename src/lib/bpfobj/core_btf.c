// SPDX-License-Identifier: GPL-2.0-only
/* Minimal CO-RE target BTF: see core_btf.h. */
#include "core_btf.h"
#include "log.h"
#include "util.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define BTF_MAGIC_LE 0xeB9F

/* Relocation kinds (enum bpf_core_relo_kind, Documentation/bpf/llvm_reloc.rst). */
enum {
	RELO_FIELD_BYTE_OFFSET = 0, RELO_FIELD_BYTE_SIZE, RELO_FIELD_EXISTS, RELO_FIELD_SIGNED,
	RELO_FIELD_LSHIFT_U64, RELO_FIELD_RSHIFT_U64, RELO_TYPE_ID_LOCAL, RELO_TYPE_ID_TARGET,
	RELO_TYPE_EXISTS, RELO_TYPE_SIZE, RELO_ENUMVAL_EXISTS, RELO_ENUMVAL_VALUE,
	RELO_TYPE_MATCHES,
};

/* ------------------------------------------------------------ raw BTF */

/* Bytes of type t (header and the data after it), or 0 for an unknown kind. */
static size_t type_bytes(const struct btf_type *t)
{
	size_t n = sizeof(*t), vlen = btf_vlen(t);
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		return n + sizeof(uint32_t);
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return n;
	case BTF_KIND_ARRAY:
		return n + sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return n + vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return n + vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return n + vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return n + sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return n + vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return n + sizeof(struct btf_decl_tag);
	case BTF_KIND_ENUM64:
		return n + vlen * sizeof(struct btf_enum64);
	default:
		return 0;
	}
}

int corebtf_raw_parse(struct corebtf_raw *r, const void *data, size_t len,
		      const struct corebtf_raw *base, const char **why)
{
	const uint8_t *d = data;
	struct btf_header h;

	memset(r, 0, sizeof(*r));
	if (len < sizeof(h)) {
		*why = "shorter than a BTF header";
		return -EINVAL;
	}
	memcpy(&h, d, sizeof(h));
	if (h.magic != BTF_MAGIC_LE) {
		*why = "bad BTF magic (not BTF, or of the other byte order)";
		return -EINVAL;
	}
	if (h.version != 1 || h.hdr_len < sizeof(h) || h.hdr_len > len) {
		*why = "unsupported BTF version or bad header length";
		return -EINVAL;
	}
	uint64_t avail = len - h.hdr_len;
	if ((uint64_t)h.type_off + h.type_len > avail || (uint64_t)h.str_off + h.str_len > avail) {
		*why = "type or string section beyond the end of the data";
		return -EINVAL;
	}
	r->types = d + h.hdr_len + h.type_off;
	r->strs = (const char *)d + h.hdr_len + h.str_off;
	r->types_len = h.type_len;
	r->strs_len = h.str_len;
	if (((uintptr_t)r->types & 3) || (h.type_len & 3)) {
		*why = "misaligned type section";
		return -EINVAL;
	}
	if (!r->strs_len || r->strs[r->strs_len - 1] != '\0' || (!base && r->strs[0] != '\0')) {
		*why = "string section is empty or not NUL-terminated";
		return -EINVAL;
	}
	r->base = base;
	r->start_id = base ? corebtf_raw_type_cnt(base) : 1;
	size_t cap = 0;
	for (uint32_t off = 0; off < r->types_len;) {
		if (r->types_len - off < sizeof(struct btf_type)) {
			*why = "truncated type";
			goto bad;
		}
		const struct btf_type *t = (const struct btf_type *)(r->types + off);
		size_t n = type_bytes(t);
		if (!n) {
			*why = "unknown type kind";
			goto bad;
		}
		if (n > r->types_len - off) {
			*why = "type data beyond the end of the type section";
			goto bad;
		}
		if (r->nr >= 0x7fffffffu - r->start_id) {
			*why = "too many types";
			goto bad;
		}
		if (r->nr == cap) {
			cap = cap ? cap * 2 : (r->types_len / 24 + 16);
			r->offs = xrealloc(r->offs, cap * sizeof(*r->offs));
		}
		r->offs[r->nr++] = off;
		off += (uint32_t)n;
	}
	return 0;
bad:
	corebtf_raw_free(r);
	return -EINVAL;
}

void corebtf_raw_free(struct corebtf_raw *r)
{
	free(r->offs);
	r->offs = NULL;
	r->nr = 0;
}

uint32_t corebtf_raw_type_cnt(const struct corebtf_raw *r)
{
	return r->start_id + r->nr;
}

const struct btf_type *corebtf_raw_type(const struct corebtf_raw *r, uint32_t id)
{
	if (id == 0)
		return NULL;
	if (id < r->start_id)
		return r->base ? corebtf_raw_type(r->base, id) : NULL;
	if (id - r->start_id >= r->nr)
		return NULL;
	return (const struct btf_type *)(r->types + r->offs[id - r->start_id]);
}

const char *corebtf_raw_str(const struct corebtf_raw *r, uint32_t off)
{
	if (r->base) {
		if (off < r->base->strs_len)
			return corebtf_raw_str(r->base, off);
		off -= r->base->strs_len;
	}
	return off < r->strs_len ? r->strs + off : NULL;
}

/* ----------------------------------------------------------- .BTF.ext */

int corebtf_ext_relos(const void *ext, size_t len, struct corebtf_relo **out, size_t *nr,
		      const char **why)
{
	const uint8_t *d = ext;
	uint32_t hdr[8];	/* magic/version/flags, hdr_len, func, line, core_relo off/len */

	*out = NULL;
	*nr = 0;
	if (len < 24) {
		*why = "shorter than a .BTF.ext header";
		return -EINVAL;
	}
	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, d, len < sizeof(hdr) ? len : sizeof(hdr));
	if ((hdr[0] & 0xffff) != BTF_MAGIC_LE) {
		*why = "bad .BTF.ext magic";
		return -EINVAL;
	}
	uint32_t hdr_len = hdr[1];
	if (hdr_len < 24 || hdr_len > len) {
		*why = "bad .BTF.ext header length";
		return -EINVAL;
	}
	if (hdr_len < 32)
		return 0;	/* no CO-RE relocation section in this format */
	uint64_t off = (uint64_t)hdr_len + hdr[6], sec_len = hdr[7];
	if (!sec_len)
		return 0;
	if (off + sec_len > len || sec_len < 4) {
		*why = "CO-RE relocation section beyond the end of .BTF.ext";
		return -EINVAL;
	}
	const uint8_t *p = d + off, *end = p + sec_len;
	uint32_t rec_size;
	memcpy(&rec_size, p, 4);
	p += 4;
	if (rec_size < sizeof(struct corebtf_relo) || rec_size > 1024) {
		*why = "bad CO-RE relocation record size";
		return -EINVAL;
	}
	struct corebtf_relo *v = NULL;
	size_t n = 0, cap = 0;
	while (p < end) {
		uint32_t sh[2];	/* sec_name_off, num_info */
		if ((size_t)(end - p) < sizeof(sh)) {
			*why = "truncated CO-RE relocation section header";
			goto bad;
		}
		memcpy(sh, p, sizeof(sh));
		p += sizeof(sh);
		if ((uint64_t)sh[1] * rec_size > (uint64_t)(end - p)) {
			*why = "CO-RE relocation records beyond the end of the section";
			goto bad;
		}
		for (uint32_t i = 0; i < sh[1]; i++, p += rec_size) {
			ARRAY_GROW(v, cap, n + 1);
			memcpy(&v[n++], p, sizeof(*v));
		}
	}
	*out = v;
	*nr = n;
	return 0;
bad:
	free(v);
	return -EINVAL;
}

/* ----------------------------------------------------------- minimizer */

size_t corebtf_essential_len(const char *name)
{
	size_t n = strlen(name);
	/* the last "X___Y" (X, Y not '_') ends the essential part after X */
	for (size_t i = n >= 5 ? n - 5 + 1 : 0; i-- > 0;) {
		const char *s = name + i;
		if (s[0] != '_' && s[1] == '_' && s[2] == '_' && s[3] == '_' && s[4] != '_')
			return i + 1;
	}
	return n;
}

struct root {
	const char *name;
	size_t len;
	int kclass;
	uint32_t cands;
};

static int kind_class(const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_ENUM64 ? BTF_KIND_ENUM : btf_kind(t);
}

/* Marks: what to copy from the target. */
enum { M_FULL = 1, M_SKEL = 2 };

struct mini {
	const struct corebtf_raw *tg;
	uint32_t cnt;		/* target type count (ids < cnt) */
	uint8_t *mark;		/* per target id: M_FULL | M_SKEL */
	uint32_t *full_id, *skel_id;	/* new ids */
	uint32_t *stack;	/* (id << 1 | skel) work list */
	size_t nstack, cap;
	const char *why;
};

static void push(struct mini *m, uint32_t id, bool skel)
{
	if (!id || id >= m->cnt)
		return;
	uint8_t bit = skel ? M_SKEL : M_FULL;
	if (m->mark[id] & bit)
		return;
	m->mark[id] |= bit;
	ARRAY_GROW(m->stack, m->cap, m->nstack + 1);
	m->stack[m->nstack++] = id << 1 | (skel ? 1u : 0u);
}

/* What a placeholder (a type reached through a pointer) stands for: the
 * type with modifiers and typedefs skipped. 0 for void; UINT32_MAX on a
 * loop or a bad id. */
static uint32_t skip_mods(const struct mini *m, uint32_t id)
{
	for (int i = 0; i < 64; i++) {
		if (!id)
			return 0;
		const struct btf_type *t = corebtf_raw_type(m->tg, id);
		if (!t)
			return UINT32_MAX;
		if (!btf_is_mod(t) && !btf_is_typedef(t))
			return id;
		id = t->type;
	}
	return UINT32_MAX;
}

/* Reference of a placeholder to id: leaves (ints, floats, enums, fwds) are
 * copied whole and shared with full copies; aggregates get placeholders. */
static void push_ref_skel(struct mini *m, uint32_t id)
{
	uint32_t b = skip_mods(m, id);
	if (b == UINT32_MAX) {
		m->why = "bad type id in the kernel BTF";
		return;
	}
	const struct btf_type *t = corebtf_raw_type(m->tg, b);
	if (!t)
		return;
	bool leaf = btf_is_int(t) || btf_is_float(t) || btf_is_any_enum(t) || btf_is_fwd(t);
	push(m, b, !leaf);
}

static void visit(struct mini *m, uint32_t id, bool skel)
{
	const struct btf_type *t = corebtf_raw_type(m->tg, id);
	if (!t) {
		m->why = "bad type id in the kernel BTF";
		return;
	}
	uint16_t vlen = btf_vlen(t);
	switch (btf_kind(t)) {
	case BTF_KIND_INT: case BTF_KIND_FLOAT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		break;
	case BTF_KIND_PTR:
		push_ref_skel(m, t->type);
		break;
	case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
		if (skel)	/* never marked: placeholders skip these */
			m->why = "internal: placeholder of a modifier";
		push(m, t->type, false);
		break;
	case BTF_KIND_ARRAY:
		push(m, btf_array(t)->index_type, false);
		if (skel)
			push_ref_skel(m, btf_array(t)->type);
		else
			push(m, btf_array(t)->type, false);
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		if (!skel)
			for (uint16_t i = 0; i < vlen; i++)
				push(m, btf_members(t)[i].type, false);
		break;
	case BTF_KIND_FUNC_PROTO:
		if (skel)
			push_ref_skel(m, t->type);
		else
			push(m, t->type, false);
		for (uint16_t i = 0; i < vlen; i++) {
			if (skel)
				push_ref_skel(m, btf_params(t)[i].type);
			else
				push(m, btf_params(t)[i].type, false);
		}
		break;
	default:
		m->why = "a CO-RE relocation reaches a kernel type of an unexpected kind";
		break;
	}
}

/* New id of target type id as referenced from a full copy (skel false) or
 * from a placeholder (skel true). */
static uint32_t new_ref(const struct mini *m, uint32_t id, bool skel)
{
	if (!id || id >= m->cnt)
		return 0;
	if (!skel)
		return m->full_id[id];
	uint32_t b = skip_mods(m, id);
	if (!b || b == UINT32_MAX)
		return 0;
	return (m->mark[b] & M_SKEL) ? m->skel_id[b] : m->full_id[b];
}

/* Copy one kernel type into out. One case per BTF kind, each a few lines:
 * long because BTF has many kinds, not because it does many things. */
static int emit(struct mini *m, struct btf *out, uint32_t id, bool skel)
{
	const struct btf_type *t = corebtf_raw_type(m->tg, id);
	const char *name = corebtf_raw_str(m->tg, t->name_off);
	uint16_t vlen = btf_vlen(t);
	int r = -EINVAL;

	if (!name)
		return -EINVAL;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		r = btf__add_int(out, name, t->size, btf_int_encoding(t));
		if (r > 0) {	/* keep the original bits and offset */
			struct btf_type *nt = (struct btf_type *)btf__type_by_id(out, (uint32_t)r);
			memcpy(nt + 1, t + 1, sizeof(uint32_t));
		}
		return r;
	}
	case BTF_KIND_FLOAT:
		return btf__add_float(out, name, t->size);
	case BTF_KIND_FWD:
		return btf__add_fwd(out, name, btf_kflag(t) ? BTF_FWD_UNION : BTF_FWD_STRUCT);
	case BTF_KIND_PTR:
		return btf__add_ptr(out, (int)new_ref(m, t->type, true));
	case BTF_KIND_TYPEDEF:
		return btf__add_typedef(out, name, (int)new_ref(m, t->type, false));
	case BTF_KIND_VOLATILE:
		return btf__add_volatile(out, (int)new_ref(m, t->type, false));
	case BTF_KIND_CONST:
		return btf__add_const(out, (int)new_ref(m, t->type, false));
	case BTF_KIND_RESTRICT:
		return btf__add_restrict(out, (int)new_ref(m, t->type, false));
	case BTF_KIND_TYPE_TAG:
		return btf__add_type_tag(out, name, (int)new_ref(m, t->type, false));
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		return btf__add_array(out, (int)new_ref(m, a->index_type, false),
				      (int)new_ref(m, a->type, skel), a->nelems);
	}
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: {
		bool is_struct = btf_is_struct(t);
		const char *n = skel ? NULL : name;
		r = is_struct ? btf__add_struct(out, n, t->size) : btf__add_union(out, n, t->size);
		if (r < 0 || skel)
			return r;
		for (uint16_t i = 0; i < vlen; i++) {
			const struct btf_member *mb = btf_members(t) + i;
			const char *mn = corebtf_raw_str(m->tg, mb->name_off);
			if (!mn)
				return -EINVAL;
			int e = btf__add_field(out, mn, (int)new_ref(m, mb->type, false),
					       btf_member_bit_offset(t, i), btf_member_bitfield_size(t, i));
			if (e < 0)
				return e;
		}
		break;
	}
	case BTF_KIND_ENUM:
		r = btf__add_enum(out, name, t->size);
		for (uint16_t i = 0; r > 0 && i < vlen; i++) {
			const char *en = corebtf_raw_str(m->tg, btf_enum(t)[i].name_off);
			int e = en ? btf__add_enum_value(out, en, btf_enum(t)[i].val) : -EINVAL;
			if (e < 0)
				return e;
		}
		break;
	case BTF_KIND_ENUM64:
		r = btf__add_enum64(out, name, t->size, btf_kflag(t));
		for (uint16_t i = 0; r > 0 && i < vlen; i++) {
			const char *en = corebtf_raw_str(m->tg, btf_enum64(t)[i].name_off);
			int e = en ? btf__add_enum64_value(out, en, btf_enum64_value(btf_enum64(t) + i)) : -EINVAL;
			if (e < 0)
				return e;
		}
		break;
	case BTF_KIND_FUNC_PROTO:
		r = btf__add_func_proto(out, (int)new_ref(m, t->type, skel));
		for (uint16_t i = 0; r > 0 && i < vlen; i++) {
			const struct btf_param *p = btf_params(t) + i;
			const char *pn = corebtf_raw_str(m->tg, p->name_off);
			if (!pn)
				return -EINVAL;
			int e = btf__add_func_param(out, pn, (int)new_ref(m, p->type, skel));
			if (e < 0)
				return e;
		}
		break;
	default:
		return -EINVAL;
	}
	if (r > 0) {	/* kind flag (signed enum, bitfield encoding) as in the original */
		struct btf_type *nt = (struct btf_type *)btf__type_by_id(out, (uint32_t)r);
		if (nt && btf_vlen(nt) == vlen)
			nt->info = t->info;
	}
	return r;
}

/* The minimal BTF: roots from the relocations (candidates found as libbpf
 * finds them), the closure of what they hold by value, then the emit pass.
 * Kept in one function: the phases share the roots and marks and each is
 * short; split, they would pass the same six arguments around. */
struct btf *corebtf_minimize(const struct corebtf_raw *local, const struct corebtf_relo *relos,
			     size_t nr_relos, const struct corebtf_raw *target,
			     struct corebtf_stats *st, const char **why)
{
	struct root *roots = NULL;
	size_t nroots = 0, cap_roots = 0;
	struct btf *out = NULL;
	struct mini m = { .tg = target, .cnt = corebtf_raw_type_cnt(target) };
	uint32_t kmask = 0;

	memset(st, 0, sizeof(*st));
	st->relos = (uint32_t)nr_relos;
	*why = NULL;
	for (size_t i = 0; i < nr_relos; i++) {
		switch (relos[i].kind) {
		case RELO_TYPE_ID_LOCAL:
			continue;	/* the object's own type id: no kernel type involved */
		case RELO_FIELD_BYTE_OFFSET: case RELO_FIELD_BYTE_SIZE: case RELO_FIELD_EXISTS:
		case RELO_FIELD_SIGNED: case RELO_FIELD_LSHIFT_U64: case RELO_FIELD_RSHIFT_U64:
		case RELO_TYPE_EXISTS: case RELO_TYPE_SIZE: case RELO_ENUMVAL_EXISTS:
		case RELO_ENUMVAL_VALUE:
			break;
		case RELO_TYPE_ID_TARGET:
			*why = "a bpf_core_type_id_kernel() relocation needs the kernel's own type ids";
			goto fail;
		case RELO_TYPE_MATCHES:
			*why = "a TYPE_MATCHES (bpf_core_type_matches) relocation is not handled by the minimal BTF";
			goto fail;
		default:
			*why = "a CO-RE relocation of unknown kind";
			goto fail;
		}
		const struct btf_type *lt = corebtf_raw_type(local, relos[i].type_id);
		const char *ln = lt ? corebtf_raw_str(local, lt->name_off) : NULL;
		if (!ln || !*ln) {
			*why = "a CO-RE relocation names no (or an anonymous) local type";
			goto fail;
		}
		switch (btf_kind(lt)) {
		case BTF_KIND_VAR: case BTF_KIND_DATASEC: case BTF_KIND_FUNC: case BTF_KIND_DECL_TAG:
			*why = "a CO-RE relocation on a variable, section or function";
			goto fail;
		default:
			break;
		}
		size_t len = corebtf_essential_len(ln);
		int kc = kind_class(lt);
		bool dup = false;
		for (size_t k = 0; k < nroots && !dup; k++)
			dup = roots[k].kclass == kc && roots[k].len == len && !memcmp(roots[k].name, ln, len);
		if (dup)
			continue;
		ARRAY_GROW(roots, cap_roots, nroots + 1);
		roots[nroots++] = (struct root){ .name = ln, .len = len, .kclass = kc };
		kmask |= 1u << btf_kind(lt);
		if (kc == BTF_KIND_ENUM)
			kmask |= 1u << BTF_KIND_ENUM | 1u << BTF_KIND_ENUM64;
	}
	st->roots = (uint32_t)nroots;

	/* One pass over the target finds every candidate (same kind class, same
	 * essential name), as libbpf does; roots are bucketed by first byte so
	 * that most names are rejected by one comparison. */
	int32_t first[256], *chain = xmalloc((nroots + 1) * sizeof(*chain));
	memset(first, 0xff, sizeof(first));
	for (size_t k = nroots; k-- > 0;) {
		uint8_t c = (uint8_t)roots[k].name[0];
		chain[k] = first[c];
		first[c] = (int32_t)k;
	}
	m.mark = xcalloc(m.cnt, 1);
	for (uint32_t id = target->start_id; id < m.cnt; id++) {
		const struct btf_type *t = corebtf_raw_type(target, id);
		if (!(kmask & (1u << btf_kind(t))) || !t->name_off)
			continue;
		const char *tn = corebtf_raw_str(target, t->name_off);
		if (!tn || first[(uint8_t)tn[0]] < 0)
			continue;
		int kc = kind_class(t);
		for (int32_t k = first[(uint8_t)tn[0]]; k >= 0; k = chain[k]) {
			struct root *r = &roots[k];
			if (r->kclass != kc || strncmp(tn, r->name, r->len))
				continue;
			if (tn[r->len] && corebtf_essential_len(tn) != r->len)
				continue;
			r->cands++;
			st->cands++;
			push(&m, id, false);
		}
	}
	free(chain);
	for (size_t k = 0; k < nroots; k++) {
		if (roots[k].cands)
			continue;
		if (st->missing < COREBTF_MISSING_KEPT)
			st->missing_roots[st->missing] = (struct corebtf_missing){
				.name = roots[k].name, .len = roots[k].len, .kclass = roots[k].kclass };
		st->missing++;
	}
	/* libbpf sizes pointers by the target's "long": keep the kernel's */
	for (uint32_t id = target->start_id; id < m.cnt && nroots; id++) {
		const struct btf_type *t = corebtf_raw_type(target, id);
		const char *tn = btf_is_int(t) ? corebtf_raw_str(target, t->name_off) : NULL;
		if (tn && (!strcmp(tn, "long int") || !strcmp(tn, "long"))) {
			push(&m, id, false);
			break;
		}
	}
	/* Transitive closure: by value in full, through pointers as placeholders. */
	while (m.nstack && !m.why) {
		uint32_t e = m.stack[--m.nstack];
		visit(&m, e >> 1, e & 1);
	}
	if (m.why) {
		*why = m.why;
		goto fail;
	}
	/* New ids: full copies in the kernel's order (candidates keep their
	 * relative order), then the placeholders. */
	m.full_id = xcalloc(m.cnt, sizeof(uint32_t));
	m.skel_id = xcalloc(m.cnt, sizeof(uint32_t));
	uint32_t next = 1;
	for (uint32_t id = 1; id < m.cnt; id++)
		if (m.mark[id] & M_FULL)
			m.full_id[id] = next++;
	for (uint32_t id = 1; id < m.cnt; id++)
		if (m.mark[id] & M_SKEL)
			m.skel_id[id] = next++;
	out = btf__new_empty();
	if (!out) {
		*why = "out of memory creating BTF";
		goto fail;
	}
	uint32_t expect = 1;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t id = 1; id < m.cnt; id++) {
			if (!(m.mark[id] & (pass ? M_SKEL : M_FULL)))
				continue;
			int r = emit(&m, out, id, pass == 1);
			if (r < 0 || (uint32_t)r != expect) {
				*why = "libbpf refused a copied kernel type";
				goto fail;
			}
			expect++;
		}
	}
	st->types = expect - 1;
	goto done;
fail:
	btf__free(out);
	out = NULL;
done:
	free(roots);
	free(m.mark);
	free(m.full_id);
	free(m.skel_id);
	free(m.stack);
	return out;
}

/* ------------------------------------------------------------- prepare */

/* Program sections for which libbpf loads the kernel's BTF anyway
 * (tracing, LSM, iterators, struct_ops: they attach by kernel BTF id). */
static bool section_needs_vmlinux(const char *s)
{
	static const char *const pfx[] = {
		"tp_btf", "fentry", "fexit", "fmod_ret", "lsm", "iter", "struct_ops",
		".struct_ops",
	};
	for (size_t i = 0; i < ARRAY_SIZE(pfx); i++) {
		size_t n = strlen(pfx[i]);
		if (!strncmp(s, pfx[i], n) && (s[n] == '\0' || s[n] == '/' || s[n] == '.'))
			return true;
	}
	return false;
}

/* A .ksyms DATASEC with typed variables or functions (kfuncs): libbpf
 * resolves them against the kernel's BTF. */
static bool has_typed_ksyms(const struct corebtf_raw *b)
{
	for (uint32_t id = b->start_id; id < corebtf_raw_type_cnt(b); id++) {
		const struct btf_type *t = corebtf_raw_type(b, id);
		if (!btf_is_datasec(t))
			continue;
		const char *n = corebtf_raw_str(b, t->name_off);
		if (!n || strcmp(n, ".ksyms"))
			continue;
		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			const struct btf_type *v = corebtf_raw_type(b, btf_var_secinfos(t)[i].type);
			if (!v || btf_is_func(v) || (btf_is_var(v) && v->type))
				return true;
		}
	}
	return false;
}

struct kbtf {
	void *data;
	size_t len;
	bool mapped;
};

/* The kernel's BTF in memory without copies: mmap (sysfs allows it since
 * Linux 6.16), else one buffer filled by read(). */
static int kbtf_open(const char *path, struct kbtf *k)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	memset(k, 0, sizeof(*k));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		int e = errno ? -errno : -EINVAL;
		close(fd);
		return e;
	}
	k->len = (size_t)st.st_size;
	k->data = mmap(NULL, k->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (k->data != MAP_FAILED) {
		k->mapped = true;
		close(fd);
		return 0;
	}
	k->data = xmalloc(k->len);
	ssize_t got = read_full(fd, k->data, k->len);
	int e = errno;
	close(fd);
	if (got < 0) {
		free(k->data);
		k->data = NULL;
		k->len = 0;
		return -e;
	}
	k->len = (size_t)got;
	return 0;
}

static void kbtf_close(struct kbtf *k)
{
	if (k->mapped)
		munmap(k->data, k->len);
	else
		free(k->data);
	k->data = NULL;
}

/* Kernel module BTFs: where libbpf looks for the candidates of a type that
 * vmlinux's BTF lacks (only then: a type vmlinux has is never looked up in
 * modules). With every missing root absent from the modules too, the minimal
 * BTF gives what libbpf gives (no candidate); otherwise libbpf must relocate.
 * Returns true when a module has one (why: the type and module), or when the
 * search cannot be complete. */
static bool missing_in_modules(const char *kernel_btf, const struct corebtf_raw *vmlinux,
			       const struct corebtf_stats *st, char *why, size_t whylen)
{
	if (strcmp(kernel_btf, "/sys/kernel/btf/vmlinux"))
		return false;	/* another kernel's BTF file: no modules to search */
	if (st->missing > COREBTF_MISSING_KEPT) {
		snprintf(why, whylen, "%u relocated types are not in vmlinux's BTF and may be in "
			 "kernel modules' (libbpf searches the module BTFs)", st->missing);
		return true;
	}
	DIR *d = opendir("/sys/kernel/btf");
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "vmlinux"))
			continue;
		char path[300];
		snprintf(path, sizeof(path), "/sys/kernel/btf/%s", e->d_name);
		struct kbtf mk;
		struct corebtf_raw mod = {0};
		const char *perr;
		if (kbtf_open(path, &mk) < 0)
			continue;	/* a module unloaded meanwhile */
		if (corebtf_raw_parse(&mod, mk.data, mk.len, vmlinux, &perr) < 0) {
			snprintf(why, whylen, "cannot parse module %.64s's BTF (%.64s) to look for "
				 "relocated types vmlinux's BTF lacks", e->d_name, perr);
			found = true;
		}
		for (uint32_t id = mod.start_id; !found && id < corebtf_raw_type_cnt(&mod); id++) {
			const struct btf_type *t = corebtf_raw_type(&mod, id);
			const char *tn = t && t->name_off ? corebtf_raw_str(&mod, t->name_off) : NULL;
			if (!tn)
				continue;
			for (uint32_t k = 0; k < st->missing && !found; k++) {
				const struct corebtf_missing *r = &st->missing_roots[k];
				if (r->kclass != kind_class(t) || strncmp(tn, r->name, r->len) ||
				    (tn[r->len] && corebtf_essential_len(tn) != r->len))
					continue;
				snprintf(why, whylen, "relocated type '%.*s' is not in vmlinux's BTF but in "
					 "module %.64s's (libbpf searches the module BTFs)",
					 (int)(r->len < 64 ? r->len : 64), r->name, e->d_name);
				found = true;
			}
		}
		corebtf_raw_free(&mod);
		kbtf_close(&mk);
	}
	closedir(d);
	return found;
}

/* .BTF, .BTF.ext and whether a program section needs the kernel BTF. */
struct objinfo {
	void *btf, *ext;
	size_t btf_len, ext_len;
	const char *needs_vmlinux;	/* a section name, or NULL */
	char secbuf[128];
};

static int read_object(const char *path, struct objinfo *oi, const char **why)
{
	memset(oi, 0, sizeof(*oi));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*why = "cannot open the object file";
		return -errno;
	}
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t shstrndx;
	int ret = -EINVAL;
	if (!e || elf_getshdrstrndx(e, &shstrndx)) {
		*why = "not a readable ELF file";
		goto out;
	}
	for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh))
			continue;
		const char *n = elf_strptr(e, shstrndx, sh.sh_name);
		if (!n)
			continue;
		bool is_btf = !strcmp(n, ".BTF"), is_ext = !strcmp(n, ".BTF.ext");
		if (is_btf || is_ext) {
			Elf_Data *d = elf_getdata(s, NULL);
			if (!d || !d->d_buf)
				continue;
			/* aligned private copies: the section may sit anywhere in the file */
			void *copy = xmalloc(d->d_size ? d->d_size : 1);
			memcpy(copy, d->d_buf, d->d_size);
			if (is_btf) {
				free(oi->btf);
				oi->btf = copy;
				oi->btf_len = d->d_size;
			} else {
				free(oi->ext);
				oi->ext = copy;
				oi->ext_len = d->d_size;
			}
		} else if (!oi->needs_vmlinux &&
			   ((sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR)) ||
			    !strncmp(n, ".struct_ops", 11)) && section_needs_vmlinux(n)) {
			snprintf(oi->secbuf, sizeof(oi->secbuf), "%s", n);
			oi->needs_vmlinux = oi->secbuf;
		}
	}
	ret = 0;
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

/* Read the object, decide between the minimal BTF and libbpf's full load
 * (each reason logged at -v) and hand the result over as a memfd. A linear
 * sequence of steps with one cleanup path, which is why it is long. */
int corebtf_prepare(const char *obj_path, const char *kernel_btf, enum corebtf_mode mode,
		    struct corebtf_prep *p)
{
	uint64_t t0 = now_ns();
	struct objinfo oi;
	struct corebtf_raw local = {0}, target = {0};
	struct corebtf_relo *relos = NULL;
	size_t nr = 0;
	struct kbtf k = {0};
	struct btf *mini = NULL;
	const char *why = NULL;
	static char whybuf[256];
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->memfd = -1;
	if (!kernel_btf)
		kernel_btf = "/sys/kernel/btf/vmlinux";
	if (mode == COREBTF_VMLINUX) {
		p->fallback = "requested by the caller (CO-RE mode vmlinux)";
		return 0;
	}
	if (read_object(obj_path, &oi, &why) < 0) {
		p->fallback = why;
		goto out;
	}
	if (!oi.ext || !oi.btf) {
		p->no_core = true;
		goto out;
	}
	if (corebtf_ext_relos(oi.ext, oi.ext_len, &relos, &nr, &why) < 0) {
		snprintf(whybuf, sizeof(whybuf), "cannot read the object's .BTF.ext: %s", why);
		p->fallback = whybuf;
		goto out;
	}
	if (!nr) {
		p->no_core = true;
		goto out;
	}
	if (oi.needs_vmlinux) {
		snprintf(whybuf, sizeof(whybuf), "section '%s' attaches by kernel BTF id, so libbpf loads "
			 "the kernel BTF anyway", oi.needs_vmlinux);
		p->fallback = whybuf;
		goto out;
	}
	if (corebtf_raw_parse(&local, oi.btf, oi.btf_len, NULL, &why) < 0) {
		snprintf(whybuf, sizeof(whybuf), "cannot read the object's .BTF: %s", why);
		p->fallback = whybuf;
		goto out;
	}
	if (has_typed_ksyms(&local)) {
		p->fallback = "typed __ksym externs or kfuncs are resolved against the kernel BTF";
		goto out;
	}
	int err = kbtf_open(kernel_btf, &k);
	if (err < 0) {
		snprintf(whybuf, sizeof(whybuf), "cannot read %s: %s", kernel_btf, strerror(-err));
		p->fallback = whybuf;
		goto out;
	}
	if (corebtf_raw_parse(&target, k.data, k.len, NULL, &why) < 0) {
		snprintf(whybuf, sizeof(whybuf), "cannot parse %s: %s", kernel_btf, why);
		p->fallback = whybuf;
		goto out;
	}
	mini = corebtf_minimize(&local, relos, nr, &target, &p->st, &why);
	if (!mini) {
		p->fallback = why;
		goto out;
	}
	if (p->st.missing && missing_in_modules(kernel_btf, &target, &p->st, whybuf, sizeof(whybuf))) {
		p->fallback = whybuf;
		goto out;
	}
	uint32_t size;
	const void *raw = btf__raw_data(mini, &size);
	int fd = raw ? memfd_create("bpfperf-core-btf", MFD_CLOEXEC) : -1;
	if (fd < 0) {
		p->fallback = "cannot create a memfd for the minimal BTF";
		goto out;
	}
	size_t off = 0;
	while (off < size) {
		ssize_t n = write(fd, (const char *)raw + off, size - off);
		if (n <= 0) {
			close(fd);
			p->fallback = "cannot write the minimal BTF to a memfd";
			goto out;
		}
		off += (size_t)n;
	}
	p->memfd = fd;
	p->bytes = size;
	snprintf(p->path, sizeof(p->path), "/proc/self/fd/%d", fd);
out:
	if (mode == COREBTF_MINIMAL && p->memfd < 0 && !p->no_core)
		ret = -EOPNOTSUPP;
	btf__free(mini);
	corebtf_raw_free(&target);
	corebtf_raw_free(&local);
	if (k.data)
		kbtf_close(&k);
	free(relos);
	free(oi.btf);
	free(oi.ext);
	p->ms = (double)(now_ns() - t0) / 1e6;
	return ret;
}

void corebtf_prep_done(struct corebtf_prep *p)
{
	if (p->memfd >= 0)
		close(p->memfd);
	p->memfd = -1;
	p->path[0] = '\0';
}
