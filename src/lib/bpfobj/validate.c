// SPDX-License-Identifier: GPL-2.0-only
/* Bounds and offsets of a BPF object checked before libbpf sees it (see
 * validate.h). Every read goes through memcpy at an offset checked against
 * the size first; sizes are added in 64 bits so that no sum wraps. */
#include "bpfobj/validate.h"

#include "log.h"
#include "util.h"

#include <bpf/btf.h>
#include <elf.h>
#include <errno.h>
#include <linux/btf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EM_BPF
#define EM_BPF 247
#endif

static int fault(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fault(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (len)
		vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* [off, off + n) inside [0, size)? */
static bool in_bounds(uint64_t off, uint64_t n, uint64_t size)
{
	return off <= size && n <= size - off;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* ---- .BTF ---- */

/* Bytes that follow the 12-byte struct btf_type of a kind, vlen records
 * included; false for a kind this code does not know. */
static bool btf_extra(unsigned int kind, uint32_t vlen, uint64_t *extra)
{
	switch (kind) {
	case BTF_KIND_INT:      *extra = 4; return true;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG: *extra = 0; return true;
	case BTF_KIND_ARRAY:    *extra = sizeof(struct btf_array); return true;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:    *extra = (uint64_t)vlen * sizeof(struct btf_member); return true;
	case BTF_KIND_ENUM:     *extra = (uint64_t)vlen * sizeof(struct btf_enum); return true;
	case BTF_KIND_FUNC_PROTO: *extra = (uint64_t)vlen * sizeof(struct btf_param); return true;
	case BTF_KIND_VAR:      *extra = sizeof(struct btf_var); return true;
	case BTF_KIND_DATASEC:  *extra = (uint64_t)vlen * sizeof(struct btf_var_secinfo); return true;
	case BTF_KIND_DECL_TAG: *extra = sizeof(struct btf_decl_tag); return true;
	case BTF_KIND_ENUM64:   *extra = (uint64_t)vlen * sizeof(struct btf_enum64); return true;
	default: return false;
	}
}

/* Does this kind refer to another type through btf_type.type? */
static bool btf_has_ref(unsigned int kind)
{
	switch (kind) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FUNC_PROTO: case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG: case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

struct btf_walk {
	const uint8_t *types;	/* the type section */
	uint32_t type_len, str_len, nr;
	char *why;
	size_t len;
};

#define BTF_FAULT(w, id, off, fmt, ...) \
	fault((w)->why, (w)->len, "section .BTF: type [%u] at offset %#x of the type section: " fmt, \
	      (id), (off), __VA_ARGS__)

static int check_name(const struct btf_walk *w, uint32_t id, uint32_t off, const char *what, uint32_t name)
{
	if (name >= w->str_len)
		return BTF_FAULT(w, id, off, "%s offset %#x is beyond the string table (%#x bytes)",
				 what, name, w->str_len);
	return 0;
}

static int check_ref(const struct btf_walk *w, uint32_t id, uint32_t off, const char *what, uint32_t ref)
{
	if (ref > w->nr)
		return BTF_FAULT(w, id, off, "%s refers to type [%u], but there are %u types",
				 what, ref, w->nr);
	return 0;
}

/* One pass counts the types and checks each record's length (refs == false),
 * the second checks names and type ids against the counts (refs == true). */
static int btf_walk_types(struct btf_walk *w, bool refs)
{
	uint32_t off = 0, id = 1;
	int err;
	while (off < w->type_len) {
		const uint8_t *t = w->types + off;
		if (w->type_len - off < sizeof(struct btf_type))
			return BTF_FAULT(w, id, off, "the record is cut short (%u of %zu bytes)",
					 w->type_len - off, sizeof(struct btf_type));
		uint32_t name_off = rd32(t), info = rd32(t + 4), size_type = rd32(t + 8);
		unsigned int kind = BTF_INFO_KIND(info);
		uint32_t vlen = BTF_INFO_VLEN(info);
		uint64_t extra;
		if (kind == BTF_KIND_UNKN || !btf_extra(kind, vlen, &extra))
			return BTF_FAULT(w, id, off, "unknown kind %u", kind);
		if (!in_bounds(off + sizeof(struct btf_type), extra, w->type_len))
			return BTF_FAULT(w, id, off, "kind %u with %u members needs %llu bytes, "
					 "beyond the end of the type section (%#x bytes)", kind, vlen,
					 (unsigned long long)(sizeof(struct btf_type) + extra), w->type_len);
		if (refs) {
			const uint8_t *x = t + sizeof(struct btf_type);
			if ((err = check_name(w, id, off, "name", name_off)))
				return err;
			if (btf_has_ref(kind) && (err = check_ref(w, id, off, "the type", size_type)))
				return err;
			for (uint32_t i = 0; i < vlen; i++) {
				switch (kind) {
				case BTF_KIND_STRUCT: case BTF_KIND_UNION: {
					const uint8_t *m = x + i * sizeof(struct btf_member);
					if ((err = check_name(w, id, off, "a member's name", rd32(m))) ||
					    (err = check_ref(w, id, off, "a member", rd32(m + 4))))
						return err;
					break;
				}
				case BTF_KIND_ENUM:
					if ((err = check_name(w, id, off, "an enumerator's name",
							      rd32(x + i * sizeof(struct btf_enum)))))
						return err;
					break;
				case BTF_KIND_ENUM64:
					if ((err = check_name(w, id, off, "an enumerator's name",
							      rd32(x + i * sizeof(struct btf_enum64)))))
						return err;
					break;
				case BTF_KIND_FUNC_PROTO: {
					const uint8_t *p = x + i * sizeof(struct btf_param);
					if ((err = check_name(w, id, off, "a parameter's name", rd32(p))) ||
					    (err = check_ref(w, id, off, "a parameter", rd32(p + 4))))
						return err;
					break;
				}
				case BTF_KIND_DATASEC: {
					const uint8_t *v = x + i * sizeof(struct btf_var_secinfo);
					if ((err = check_ref(w, id, off, "a variable of the section", rd32(v))))
						return err;
					break;
				}
				default:
					break;
				}
			}
			if (kind == BTF_KIND_ARRAY &&
			    ((err = check_ref(w, id, off, "the element type", rd32(x))) ||
			     (err = check_ref(w, id, off, "the index type", rd32(x + 4)))))
				return err;
		}
		off += (uint32_t)(sizeof(struct btf_type) + extra);
		if (id == UINT32_MAX)
			return BTF_FAULT(w, id, off, "%s", "too many types");
		id++;
	}
	w->nr = id - 1;
	return 0;
}

int bpfobj_validate_btf(const void *data, size_t size, uint32_t *nr_types, uint32_t *str_len,
			char *why, size_t len)
{
	const uint8_t *b = data;
	struct btf_header h;
	if (size > UINT32_MAX)
		return fault(why, len, "section .BTF: %zu bytes, more than BTF can address", size);
	if (size < sizeof(h))
		return fault(why, len, "section .BTF: %zu bytes, shorter than its header (%zu bytes)",
			     size, sizeof(h));
	memcpy(&h, b, sizeof(h));
	if (h.magic != BTF_MAGIC)
		return fault(why, len, "section .BTF: bad magic %#06x (not %#06x; big-endian BTF "
			     "is not supported)", h.magic, BTF_MAGIC);
	if (h.version != BTF_VERSION)
		return fault(why, len, "section .BTF: version %u, only version %u is known",
			     h.version, BTF_VERSION);
	if (h.hdr_len < sizeof(h) || h.hdr_len > size)
		return fault(why, len, "section .BTF: header length %u is not between %zu and the "
			     "section size (%zu bytes)", h.hdr_len, sizeof(h), size);
	/* a longer header than this code knows must be zeros past what it knows */
	for (size_t i = sizeof(h); i < h.hdr_len; i++)
		if (b[i])
			return fault(why, len, "section .BTF: header byte %zu past the known fields is "
				     "not zero", i);
	uint64_t body = size - h.hdr_len;
	if (!in_bounds(h.type_off, h.type_len, body))
		return fault(why, len, "section .BTF: the type section (offset %#x, %#x bytes) ends "
			     "beyond the section (%#llx bytes after the header)", h.type_off, h.type_len,
			     (unsigned long long)body);
	if (!in_bounds(h.str_off, h.str_len, body))
		return fault(why, len, "section .BTF: the string table (offset %#x, %#x bytes) ends "
			     "beyond the section (%#llx bytes after the header)", h.str_off, h.str_len,
			     (unsigned long long)body);
	if (h.type_off % 4 || h.type_len % 4)
		return fault(why, len, "section .BTF: the type section (offset %#x, %#x bytes) is "
			     "not 4-byte aligned", h.type_off, h.type_len);
	if ((uint64_t)h.type_off + h.type_len > h.str_off)
		return fault(why, len, "section .BTF: the type section (offset %#x, %#x bytes) "
			     "overlaps the string table at %#x", h.type_off, h.type_len, h.str_off);
	const uint8_t *strs = b + h.hdr_len + h.str_off;
	if (!h.str_len || strs[0] || strs[h.str_len - 1])
		return fault(why, len, "section .BTF: the string table (%#x bytes) does not start "
			     "with an empty string and end with a NUL", h.str_len);
	struct btf_walk w = { .types = b + h.hdr_len + h.type_off, .type_len = h.type_len,
			      .str_len = h.str_len, .why = why, .len = len };
	int err = btf_walk_types(&w, false);
	if (!err)
		err = btf_walk_types(&w, true);
	if (err)
		return err;
	if (nr_types)
		*nr_types = w.nr;
	if (str_len)
		*str_len = h.str_len;
	return 0;
}

/* ---- .BTF.ext ---- */

/* The part of struct btf_ext_header libbpf 1.1 reads (no uapi header has it). */
struct ext_hdr {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len;
	uint32_t func_info_off, func_info_len;
	uint32_t line_info_off, line_info_len;
	uint32_t core_relo_off, core_relo_len;	/* only when hdr_len >= 32 */
};
#define EXT_HDR_MIN 24u

enum ext_kind { EXT_FUNC, EXT_LINE, EXT_CORE };

static const struct {
	const char *name;
	uint32_t min_rec;	/* bpf_func_info, bpf_line_info, bpf_core_relo */
} ext_kinds[] = {
	[EXT_FUNC] = { "func_info", 8 },
	[EXT_LINE] = { "line_info", 16 },
	[EXT_CORE] = { "core_relo", 16 },
};

/* One info subsection: a record size, then blocks of {section name offset,
 * number of records, records}. */
static int ext_info(const uint8_t *p, uint32_t n, enum ext_kind k, uint32_t nr_types,
		    uint32_t str_len, char *why, size_t len)
{
	const char *name = ext_kinds[k].name;
	if (!n)
		return 0;
	if (n < 4)
		return fault(why, len, "section .BTF.ext: %s: %u bytes, too short for its record size",
			     name, n);
	uint32_t rec = rd32(p);
	if (rec < ext_kinds[k].min_rec || rec % 4 || rec > n)
		return fault(why, len, "section .BTF.ext: %s: record size %u is not a multiple of 4 "
			     "between %u and the subsection size (%u bytes)", name, rec,
			     ext_kinds[k].min_rec, n);
	uint32_t off = 4;
	while (off < n) {
		if (n - off < 8)
			return fault(why, len, "section .BTF.ext: %s: block at offset %#x cut short",
				     name, off);
		uint32_t sec_name = rd32(p + off), num = rd32(p + off + 4);
		if (sec_name >= str_len)
			return fault(why, len, "section .BTF.ext: %s: block at offset %#x: section name "
				     "offset %#x is beyond the .BTF string table (%#x bytes)", name, off,
				     sec_name, str_len);
		if (!num || (uint64_t)num * rec > n - off - 8)
			return fault(why, len, "section .BTF.ext: %s: block at offset %#x: %u records "
				     "of %u bytes do not fit in the subsection (%u bytes)", name, off,
				     num, rec, n);
		off += 8;
		for (uint32_t i = 0; i < num; i++, off += rec) {
			const uint8_t *r = p + off;
			uint32_t a = rd32(r + 4), c = k == EXT_FUNC ? 0 : rd32(r + 8);
			if (k == EXT_FUNC && a > nr_types)
				return fault(why, len, "section .BTF.ext: %s: record at offset %#x refers "
					     "to type [%u], but .BTF has %u types", name, off, a, nr_types);
			if (k == EXT_LINE && (a >= str_len || c >= str_len))
				return fault(why, len, "section .BTF.ext: %s: record at offset %#x: file "
					     "or line offset (%#x, %#x) beyond the .BTF string table (%#x "
					     "bytes)", name, off, a, c, str_len);
			if (k == EXT_CORE && (a > nr_types || c >= str_len))
				return fault(why, len, "section .BTF.ext: %s: record at offset %#x: type "
					     "[%u] (of %u) or access string offset %#x (of %#x bytes) out "
					     "of range", name, off, a, nr_types, c, str_len);
		}
	}
	return 0;
}

int bpfobj_validate_btf_ext(const void *data, size_t size, uint32_t nr_types, uint32_t str_len,
			    char *why, size_t len)
{
	const uint8_t *b = data;
	struct ext_hdr h = { 0 };
	if (size < 8)
		return fault(why, len, "section .BTF.ext: %zu bytes, shorter than its header", size);
	memcpy(&h, b, 8);
	if (h.magic != BTF_MAGIC)
		return fault(why, len, "section .BTF.ext: bad magic %#06x (not %#06x)", h.magic, BTF_MAGIC);
	if (h.version != BTF_VERSION)
		return fault(why, len, "section .BTF.ext: version %u, only version %u is known",
			     h.version, BTF_VERSION);
	if (h.hdr_len < EXT_HDR_MIN || h.hdr_len > size)
		return fault(why, len, "section .BTF.ext: header length %u is not between %u and the "
			     "section size (%zu bytes)", h.hdr_len, EXT_HDR_MIN, size);
	memcpy(&h, b, h.hdr_len < sizeof(h) ? h.hdr_len : sizeof(h));
	uint64_t body = size - h.hdr_len;
	const struct { enum ext_kind k; uint32_t off, n; } subs[] = {
		{ EXT_FUNC, h.func_info_off, h.func_info_len },
		{ EXT_LINE, h.line_info_off, h.line_info_len },
		{ EXT_CORE, h.core_relo_off, h.core_relo_len },
	};
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
		if (!subs[i].n)
			continue;
		if (!in_bounds(subs[i].off, subs[i].n, body) || subs[i].off % 4)
			return fault(why, len, "section .BTF.ext: %s (offset %#x, %#x bytes) is not "
				     "4-byte aligned inside the section (%#llx bytes after the header)",
				     ext_kinds[subs[i].k].name, subs[i].off, subs[i].n,
				     (unsigned long long)body);
		int err = ext_info(b + h.hdr_len + subs[i].off, subs[i].n, subs[i].k, nr_types,
				   str_len, why, len);
		if (err)
			return err;
	}
	return 0;
}

/* ---- ELF ---- */

struct elf_view {
	const uint8_t *b;
	size_t size;
	Elf64_Ehdr eh;
	uint16_t shnum;
};

static Elf64_Shdr shdr(const struct elf_view *e, unsigned int i)
{
	Elf64_Shdr s;
	memcpy(&s, e->b + e->eh.e_shoff + (uint64_t)i * sizeof(s), sizeof(s));
	return s;
}

/* A string table section: in bounds (checked before) and NUL-terminated. */
static bool strtab_ok(const struct elf_view *e, const Elf64_Shdr *s)
{
	return s->sh_type == SHT_STRTAB && s->sh_size && !e->b[s->sh_offset + s->sh_size - 1];
}

static int check_symtab(const struct elf_view *e, unsigned int i, const Elf64_Shdr *s,
			char *why, size_t len)
{
	if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_size % sizeof(Elf64_Sym))
		return fault(why, len, "section [%u] (symbol table): entry size %llu and size %llu "
			     "do not make %zu-byte symbols", i, (unsigned long long)s->sh_entsize,
			     (unsigned long long)s->sh_size, sizeof(Elf64_Sym));
	if (s->sh_link >= e->shnum)
		return fault(why, len, "section [%u] (symbol table): its string table is section "
			     "[%u], but there are %u sections", i, s->sh_link, e->shnum);
	Elf64_Shdr st = shdr(e, s->sh_link);
	if (!strtab_ok(e, &st))
		return fault(why, len, "section [%u] (symbol table): section [%u] is not a "
			     "NUL-terminated string table", i, s->sh_link);
	for (uint64_t k = 0; k < s->sh_size / sizeof(Elf64_Sym); k++) {
		Elf64_Sym sym;
		memcpy(&sym, e->b + s->sh_offset + k * sizeof(sym), sizeof(sym));
		if (sym.st_name >= st.sh_size)
			return fault(why, len, "symbol %llu: name offset %#x is beyond its string "
				     "table (%#llx bytes)", (unsigned long long)k, sym.st_name,
				     (unsigned long long)st.sh_size);
		if (sym.st_shndx >= e->shnum && sym.st_shndx < SHN_LORESERVE)
			return fault(why, len, "symbol %llu: section index %u, but there are %u "
				     "sections", (unsigned long long)k, sym.st_shndx, e->shnum);
	}
	return 0;
}

static int check_rel(const struct elf_view *e, unsigned int i, const Elf64_Shdr *s,
		     char *why, size_t len)
{
	if (s->sh_entsize != sizeof(Elf64_Rel) || s->sh_size % sizeof(Elf64_Rel))
		return fault(why, len, "section [%u] (relocations): entry size %llu and size %llu "
			     "do not make %zu-byte relocations", i, (unsigned long long)s->sh_entsize,
			     (unsigned long long)s->sh_size, sizeof(Elf64_Rel));
	if (s->sh_link >= e->shnum || s->sh_info >= e->shnum)
		return fault(why, len, "section [%u] (relocations): symbol table [%u] or target "
			     "section [%u] out of range (%u sections)", i, s->sh_link, s->sh_info,
			     e->shnum);
	Elf64_Shdr sym = shdr(e, s->sh_link);
	if (sym.sh_type != SHT_SYMTAB)
		return fault(why, len, "section [%u] (relocations): section [%u] is not a symbol "
			     "table", i, s->sh_link);
	uint64_t nsyms = sym.sh_size / sizeof(Elf64_Sym);
	for (uint64_t k = 0; k < s->sh_size / sizeof(Elf64_Rel); k++) {
		Elf64_Rel r;
		memcpy(&r, e->b + s->sh_offset + k * sizeof(r), sizeof(r));
		if (ELF64_R_SYM(r.r_info) >= nsyms)
			return fault(why, len, "section [%u] (relocations): relocation %llu names "
				     "symbol %llu, but there are %llu", i, (unsigned long long)k,
				     (unsigned long long)ELF64_R_SYM(r.r_info),
				     (unsigned long long)nsyms);
	}
	return 0;
}

/* Over 80 lines: the checks in the order the bytes are read (header,
 * section table, names, symbols and relocations, BTF, BTF.ext), each
 * malformed case with its own message naming the section and offset. */
int bpfobj_validate_elf(const void *data, size_t size, struct bpfobj_elf_info *info,
			char *why, size_t len)
{
	struct elf_view e = { .b = data, .size = size };
	if (info)
		*info = (struct bpfobj_elf_info){ 0 };
	if (size < sizeof(e.eh) || memcmp(e.b, ELFMAG, SELFMAG)) {
		fault(why, len, "not an ELF file");
		return -ENOEXEC;
	}
	memcpy(&e.eh, e.b, sizeof(e.eh));
	if (e.eh.e_ident[EI_CLASS] != ELFCLASS64 || e.eh.e_machine != EM_BPF) {
		fault(why, len, "an ELF file, but not for the BPF target (e_machine is not EM_BPF)");
		return -ENOEXEC;
	}
	bool le_host = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
	if (e.eh.e_ident[EI_DATA] != (le_host ? ELFDATA2LSB : ELFDATA2MSB))
		return fault(why, len, "the object's byte order is not this machine's (build it with "
			     "-target bpf, not bpfeb/bpfel)");
	if (e.eh.e_shnum == 0 || e.eh.e_shoff == 0)
		return fault(why, len, "the ELF header gives no section table (e_shoff %#llx, "
			     "e_shnum %u)", (unsigned long long)e.eh.e_shoff, e.eh.e_shnum);
	if (e.eh.e_shentsize != sizeof(Elf64_Shdr))
		return fault(why, len, "section header size %u, not %zu", e.eh.e_shentsize,
			     sizeof(Elf64_Shdr));
	e.shnum = e.eh.e_shnum;
	if (!in_bounds(e.eh.e_shoff, (uint64_t)e.shnum * sizeof(Elf64_Shdr), size))
		return fault(why, len, "the section table (offset %#llx, %u sections) ends beyond the "
			     "file (%zu bytes)", (unsigned long long)e.eh.e_shoff, e.shnum, size);
	if (e.eh.e_shstrndx >= e.shnum)
		return fault(why, len, "the section name table is section [%u], but there are %u",
			     e.eh.e_shstrndx, e.shnum);
	for (unsigned int i = 0; i < e.shnum; i++) {
		Elf64_Shdr s = shdr(&e, i);
		if (s.sh_type != SHT_NOBITS && !in_bounds(s.sh_offset, s.sh_size, size))
			return fault(why, len, "section [%u] (offset %#llx, %#llx bytes) ends beyond "
				     "the file (%zu bytes)", i, (unsigned long long)s.sh_offset,
				     (unsigned long long)s.sh_size, size);
	}
	Elf64_Shdr names = shdr(&e, e.eh.e_shstrndx);
	if (!strtab_ok(&e, &names))
		return fault(why, len, "the section name table (section [%u]) is not a "
			     "NUL-terminated string table", e.eh.e_shstrndx);
	const char *strs = (const char *)e.b + names.sh_offset;
	int btf = -1, ext = -1, maps = -1;
	for (unsigned int i = 0; i < e.shnum; i++) {
		Elf64_Shdr s = shdr(&e, i);
		if (s.sh_name >= names.sh_size)
			return fault(why, len, "section [%u]: name offset %#x is beyond the section "
				     "name table (%#llx bytes)", i, s.sh_name,
				     (unsigned long long)names.sh_size);
		const char *n = strs + s.sh_name;
		int err = 0;
		if (s.sh_type == SHT_SYMTAB)
			err = check_symtab(&e, i, &s, why, len);
		else if (s.sh_type == SHT_REL)
			err = check_rel(&e, i, &s, why, len);
		if (err)
			return err;
		if (!strcmp(n, ".BTF"))
			btf = (int)i;
		else if (!strcmp(n, ".BTF.ext"))
			ext = (int)i;
		else if (!strcmp(n, ".maps"))
			maps = (int)i;
	}
	if (btf < 0) {
		if (maps >= 0)
			return fault(why, len, "it has no BTF (no .BTF section), which its map "
				     "definitions (section .maps) need");
		if (ext >= 0)
			return fault(why, len, "it has a .BTF.ext section but no .BTF");
		return 0;
	}
	Elf64_Shdr s = shdr(&e, (unsigned int)btf);
	if (s.sh_type == SHT_NOBITS)
		return fault(why, len, "section .BTF holds no data (SHT_NOBITS)");
	uint32_t nr_types, str_len;
	int err = bpfobj_validate_btf(e.b + s.sh_offset, s.sh_size, &nr_types, &str_len, why, len);
	if (err)
		return err;
	if (info) {
		info->btf_off = s.sh_offset;
		info->btf_size = s.sh_size;
	}
	if (ext < 0)
		return 0;
	s = shdr(&e, (unsigned int)ext);
	if (s.sh_type == SHT_NOBITS)
		return fault(why, len, "section .BTF.ext holds no data (SHT_NOBITS)");
	return bpfobj_validate_btf_ext(e.b + s.sh_offset, s.sh_size, nr_types, str_len, why, len);
}

int bpfobj_validate_file(const char *path)
{
	size_t size;
	char why[512];
	uint8_t *data = (uint8_t *)read_file(path, &size);
	if (!data) {
		int err = -errno;
		pr_err("cannot read BPF object %s: %s; check the path and its permissions", path,
		       strerror(errno));
		return err;
	}
	struct bpfobj_elf_info info;
	int err = bpfobj_validate_elf(data, size, &info, why, sizeof(why));
	if (err) {
		pr_err("cannot open BPF object %s: %s; rebuild it with 'clang -target bpf -g -O2 -c "
		       "X.bpf.c'", path, why);
		free(data);
		return err;
	}
	/* The bounds are sound: libbpf's own type checks next, on a copy of the
	 * section, so that their failure is named here rather than ignored
	 * ("BTF is optional") and met later as a missing file. */
	if (info.btf_size) {
		struct btf *btf = btf__new(data + info.btf_off, (uint32_t)info.btf_size);
		if (!btf) {
			err = -errno;
			pr_err("cannot open BPF object %s: libbpf rejects its BTF (section .BTF): %s; "
			       "rebuild it with 'clang -target bpf -g -O2 -c X.bpf.c'", path,
			       log_strerr(err));
		}
		btf__free(btf);
	}
	free(data);
	return err;
}
