// SPDX-License-Identifier: GPL-2.0-only
/* Minimal CO-RE target BTF (see core_btf.h), the minimizer: the kernel
 * types the relocations' local types have as candidates, what they hold by
 * value, placeholders for what they reach through pointers, copied into a
 * new BTF. */
#include "core_btf_int.h"
#include "util.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Relocation kinds (enum bpf_core_relo_kind, Documentation/bpf/llvm_reloc.rst). */
enum {
	RELO_FIELD_BYTE_OFFSET = 0, RELO_FIELD_BYTE_SIZE, RELO_FIELD_EXISTS, RELO_FIELD_SIGNED,
	RELO_FIELD_LSHIFT_U64, RELO_FIELD_RSHIFT_U64, RELO_TYPE_ID_LOCAL, RELO_TYPE_ID_TARGET,
	RELO_TYPE_EXISTS, RELO_TYPE_SIZE, RELO_ENUMVAL_EXISTS, RELO_ENUMVAL_VALUE,
	RELO_TYPE_MATCHES,
};

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

/* A local type a relocation names: its essential name and kind class, and
 * how many candidates the target has for it. */
struct root {
	const char *name;
	size_t len;
	int kclass;
	uint32_t cands;
};

/* Marks: what to copy from the target. */
enum { M_FULL = 1, M_SKEL = 2 };

/* The minimizer's state, shared by its phases. */
struct minimizer {
	const struct corebtf_raw *target;
	uint32_t cnt;		/* target type count (ids < cnt) */
	struct root *roots;	/* distinct by kind class and essential name */
	size_t nroots, cap_roots;
	uint32_t kmask;		/* the roots' kinds: bit 1 << BTF_KIND_* */
	uint8_t *mark;		/* per target id: M_FULL | M_SKEL */
	uint32_t *full_id, *skel_id;	/* new ids */
	uint32_t *stack;	/* (id << 1 | skel) work list */
	size_t nstack, cap;
	const char *why;
};

static void push(struct minimizer *m, uint32_t id, bool skel)
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
static uint32_t skip_mods(const struct minimizer *m, uint32_t id)
{
	for (int i = 0; i < 64; i++) {
		if (!id)
			return 0;
		const struct btf_type *t = corebtf_raw_type(m->target, id);
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
static void push_ref_skel(struct minimizer *m, uint32_t id)
{
	uint32_t b = skip_mods(m, id);
	if (b == UINT32_MAX) {
		m->why = "bad type id in the kernel BTF";
		return;
	}
	const struct btf_type *t = corebtf_raw_type(m->target, b);
	if (!t)
		return;
	bool leaf = btf_is_int(t) || btf_is_float(t) || btf_is_any_enum(t) || btf_is_fwd(t);
	push(m, b, !leaf);
}

static void visit(struct minimizer *m, uint32_t id, bool skel)
{
	const struct btf_type *t = corebtf_raw_type(m->target, id);
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
static uint32_t new_ref(const struct minimizer *m, uint32_t id, bool skel)
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
static int emit(struct minimizer *m, struct btf *out, uint32_t id, bool skel)
{
	const struct btf_type *t = corebtf_raw_type(m->target, id);
	const char *name = corebtf_raw_str(m->target, t->name_off);
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
			const char *mn = corebtf_raw_str(m->target, mb->name_off);
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
			const char *en = corebtf_raw_str(m->target, btf_enum(t)[i].name_off);
			int e = en ? btf__add_enum_value(out, en, btf_enum(t)[i].val) : -EINVAL;
			if (e < 0)
				return e;
		}
		break;
	case BTF_KIND_ENUM64:
		r = btf__add_enum64(out, name, t->size, btf_kflag(t));
		for (uint16_t i = 0; r > 0 && i < vlen; i++) {
			const char *en = corebtf_raw_str(m->target, btf_enum64(t)[i].name_off);
			int e = en ? btf__add_enum64_value(out, en, btf_enum64_value(btf_enum64(t) + i)) : -EINVAL;
			if (e < 0)
				return e;
		}
		break;
	case BTF_KIND_FUNC_PROTO:
		r = btf__add_func_proto(out, (int)new_ref(m, t->type, skel));
		for (uint16_t i = 0; r > 0 && i < vlen; i++) {
			const struct btf_param *p = btf_params(t) + i;
			const char *pn = corebtf_raw_str(m->target, p->name_off);
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

/* The roots: the local types the relocations name, each kind class and
 * essential name once. NULL, or why a minimal BTF cannot serve them. */
static const char *collect_roots(struct minimizer *m, const struct corebtf_raw *local,
				 const struct corebtf_relo *relos, size_t nr_relos)
{
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
			return "a bpf_core_type_id_kernel() relocation needs the kernel's own type ids";
		case RELO_TYPE_MATCHES:
			return "a TYPE_MATCHES (bpf_core_type_matches) relocation is not handled by the minimal BTF";
		default:
			return "a CO-RE relocation of unknown kind";
		}
		const struct btf_type *lt = corebtf_raw_type(local, relos[i].type_id);
		const char *ln = lt ? corebtf_raw_str(local, lt->name_off) : NULL;
		if (!ln || !*ln)
			return "a CO-RE relocation names no (or an anonymous) local type";
		switch (btf_kind(lt)) {
		case BTF_KIND_VAR: case BTF_KIND_DATASEC: case BTF_KIND_FUNC: case BTF_KIND_DECL_TAG:
			return "a CO-RE relocation on a variable, section or function";
		default:
			break;
		}
		size_t len = corebtf_essential_len(ln);
		int kc = corebtf_kind_class(lt);
		bool dup = false;
		for (size_t k = 0; k < m->nroots && !dup; k++)
			dup = m->roots[k].kclass == kc && m->roots[k].len == len &&
			      !memcmp(m->roots[k].name, ln, len);
		if (dup)
			continue;
		ARRAY_GROW(m->roots, m->cap_roots, m->nroots + 1);
		m->roots[m->nroots++] = (struct root){ .name = ln, .len = len, .kclass = kc };
		m->kmask |= 1u << btf_kind(lt);
		if (kc == BTF_KIND_ENUM)
			m->kmask |= 1u << BTF_KIND_ENUM | 1u << BTF_KIND_ENUM64;
	}
	return NULL;
}

/* One pass over the target finds every candidate (same kind class, same
 * essential name), as libbpf does, and marks it for a full copy; roots are
 * bucketed by first byte so that most names are rejected by one comparison. */
static void mark_candidates(struct minimizer *m, struct corebtf_stats *st)
{
	const struct corebtf_raw *target = m->target;
	int32_t first[256], *chain = xmalloc((m->nroots + 1) * sizeof(*chain));
	memset(first, 0xff, sizeof(first));
	for (size_t k = m->nroots; k-- > 0;) {
		uint8_t c = (uint8_t)m->roots[k].name[0];
		chain[k] = first[c];
		first[c] = (int32_t)k;
	}
	for (uint32_t id = target->start_id; id < m->cnt; id++) {
		const struct btf_type *t = corebtf_raw_type(target, id);
		if (!(m->kmask & (1u << btf_kind(t))) || !t->name_off)
			continue;
		const char *tn = corebtf_raw_str(target, t->name_off);
		if (!tn || first[(uint8_t)tn[0]] < 0)
			continue;
		int kc = corebtf_kind_class(t);
		for (int32_t k = first[(uint8_t)tn[0]]; k >= 0; k = chain[k]) {
			struct root *r = &m->roots[k];
			if (!corebtf_is_candidate(kc, tn, r->kclass, r->name, r->len))
				continue;
			r->cands++;
			st->cands++;
			push(m, id, false);
		}
	}
	free(chain);
}

/* The roots without a candidate: counted, the first COREBTF_MISSING_KEPT kept. */
static void note_missing_roots(const struct minimizer *m, struct corebtf_stats *st)
{
	for (size_t k = 0; k < m->nroots; k++) {
		if (m->roots[k].cands)
			continue;
		if (st->missing < COREBTF_MISSING_KEPT)
			st->missing_roots[st->missing] = (struct corebtf_missing){
				.name = m->roots[k].name, .len = m->roots[k].len, .kclass = m->roots[k].kclass };
		st->missing++;
	}
}

/* libbpf sizes pointers by the target's "long": keep the kernel's */
static void mark_target_long(struct minimizer *m)
{
	const struct corebtf_raw *target = m->target;
	for (uint32_t id = target->start_id; id < m->cnt && m->nroots; id++) {
		const struct btf_type *t = corebtf_raw_type(target, id);
		const char *tn = btf_is_int(t) ? corebtf_raw_str(target, t->name_off) : NULL;
		if (tn && (!strcmp(tn, "long int") || !strcmp(tn, "long"))) {
			push(m, id, false);
			break;
		}
	}
}

/* New ids: full copies in the kernel's order (candidates keep their
 * relative order), then the placeholders. */
static void assign_new_ids(struct minimizer *m)
{
	m->full_id = xcalloc(m->cnt, sizeof(uint32_t));
	m->skel_id = xcalloc(m->cnt, sizeof(uint32_t));
	uint32_t next = 1;
	for (uint32_t id = 1; id < m->cnt; id++)
		if (m->mark[id] & M_FULL)
			m->full_id[id] = next++;
	for (uint32_t id = 1; id < m->cnt; id++)
		if (m->mark[id] & M_SKEL)
			m->skel_id[id] = next++;
}

/* Every marked type into out, in the order of the new ids: NULL and
 * *nr_types, or why not. */
static const char *emit_all(struct minimizer *m, struct btf *out, uint32_t *nr_types)
{
	uint32_t expect = 1;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t id = 1; id < m->cnt; id++) {
			if (!(m->mark[id] & (pass ? M_SKEL : M_FULL)))
				continue;
			int r = emit(m, out, id, pass == 1);
			if (r < 0 || (uint32_t)r != expect)
				return "libbpf refused a copied kernel type";
			expect++;
		}
	}
	*nr_types = expect - 1;
	return NULL;
}

/* The minimal BTF: roots from the relocations (candidates found as libbpf
 * finds them), the closure of what they hold by value, then the emit pass. */
struct btf *corebtf_minimize(const struct corebtf_raw *local, const struct corebtf_relo *relos,
			     size_t nr_relos, const struct corebtf_raw *target,
			     struct corebtf_stats *st, const char **why)
{
	struct btf *out = NULL;
	struct minimizer m = { .target = target, .cnt = corebtf_raw_type_cnt(target) };

	memset(st, 0, sizeof(*st));
	st->relos = (uint32_t)nr_relos;
	*why = collect_roots(&m, local, relos, nr_relos);
	if (*why)
		goto fail;
	st->roots = (uint32_t)m.nroots;
	m.mark = xcalloc(m.cnt, 1);
	mark_candidates(&m, st);
	note_missing_roots(&m, st);
	mark_target_long(&m);
	/* Transitive closure: by value in full, through pointers as placeholders. */
	while (m.nstack && !m.why) {
		uint32_t e = m.stack[--m.nstack];
		visit(&m, e >> 1, e & 1);
	}
	if (m.why) {
		*why = m.why;
		goto fail;
	}
	assign_new_ids(&m);
	out = btf__new_empty();
	if (!out) {
		*why = "out of memory creating BTF";
		goto fail;
	}
	*why = emit_all(&m, out, &st->types);
	if (*why)
		goto fail;
	goto done;
fail:
	btf__free(out);
	out = NULL;
done:
	free(m.roots);
	free(m.mark);
	free(m.full_id);
	free(m.skel_id);
	free(m.stack);
	return out;
}
