// SPDX-License-Identifier: GPL-2.0-only
/* Minimal CO-RE target BTF (see core_btf.h), the reading side: raw BTF
 * parsed and validated in place (nothing copied), and the CO-RE relocation
 * records of an object's .BTF.ext. */
#include "core_btf.h"
#include "util.h"

#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BTF_MAGIC_LE 0xeB9F

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
