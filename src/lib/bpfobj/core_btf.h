/* SPDX-License-Identifier: GPL-2.0-only */
/* Minimal CO-RE target BTF for one BPF object.
 *
 * libbpf relocates CO-RE accesses against the kernel's BTF, which it reads
 * whole from /sys/kernel/btf/vmlinux (5+ MB, 100k+ types) at every load. The
 * relocations of a typical object only look at a handful of kernel types.
 * This module reads the object's .BTF.ext CO-RE records, finds the kernel
 * types libbpf would consider as candidates (same kind, same name without a
 * ___flavor suffix) and copies them, with every type they contain by value
 * (members, array elements, typedefs, modifiers, enums), into a small
 * standalone BTF. Types reached through pointers are cut to kind-preserving
 * placeholders: CO-RE field relocations accept any pointer, and type
 * relocations only compare kinds past a pointer (relo_core.c), so the result
 * of every relocation is the same as against the full kernel BTF. The caller
 * hands the result to libbpf as bpf_object_open_opts.btf_custom_path.
 *
 * The kernel BTF is read without copying (mmap of the sysfs file where the
 * kernel allows it, else one read into a buffer) and walked in place.
 *
 * Objects that need the full kernel BTF anyway (tracing/LSM/iter/struct_ops
 * programs, typed ksyms), or use relocations whose result depends on kernel
 * type ids (bpf_core_type_id_kernel) or kinds not handled here
 * (TYPE_MATCHES), are left to libbpf: corebtf_prepare() says why. */
#ifndef BPFPERF_CORE_BTF_H
#define BPFPERF_CORE_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;
struct btf_type;

/* A raw BTF blob parsed in place (nothing copied): type ids start_id ..
 * start_id + nr - 1 live here, lower ids in base (split BTF). */
struct corebtf_raw {
	const uint8_t *types;
	const char *strs;
	uint32_t types_len, strs_len;
	uint32_t *offs;		/* offs[id - start_id]: offset of the type in types */
	uint32_t nr, start_id;
	const struct corebtf_raw *base;
};

/* Parse and validate raw BTF (header, every type's length, string section).
 * 0, or -EINVAL with *why set (a static string). data must outlive r. */
int corebtf_raw_parse(struct corebtf_raw *r, const void *data, size_t len,
		      const struct corebtf_raw *base, const char **why);
void corebtf_raw_free(struct corebtf_raw *r);
/* Type by id (1..), NULL for 0 (void) or out of range. */
const struct btf_type *corebtf_raw_type(const struct corebtf_raw *r, uint32_t id);
/* String by offset, NULL when out of range. */
const char *corebtf_raw_str(const struct corebtf_raw *r, uint32_t off);
/* Total number of type ids including void: valid ids are < this. */
uint32_t corebtf_raw_type_cnt(const struct corebtf_raw *r);

/* One CO-RE relocation record of .BTF.ext (struct bpf_core_relo's layout). */
struct corebtf_relo {
	uint32_t insn_off, type_id, access_str_off, kind;
};
/* Collect the CO-RE relocation records of a .BTF.ext section. *out (free())
 * may be NULL when there are none. 0 or -EINVAL with *why. */
int corebtf_ext_relos(const void *ext, size_t len, struct corebtf_relo **out, size_t *nr,
		      const char **why);

/* Name length without a ___flavor suffix (libbpf's "essential name"). */
size_t corebtf_essential_len(const char *name);

#define COREBTF_MISSING_KEPT 8
struct corebtf_stats {
	uint32_t relos, roots, cands, types;
	uint32_t missing;	/* roots without any candidate in the target */
	/* the first COREBTF_MISSING_KEPT of them: essential name (name[0..len),
	 * pointing into the local BTF) and kind class (BTF_KIND_ENUM for enum64 too) */
	struct corebtf_missing {
		const char *name;
		size_t len;
		int kclass;
	} missing_roots[COREBTF_MISSING_KEPT];
};

/* Build the minimal target BTF for the relocations relos (local type ids
 * refer to local) from target. Returns the new BTF (btf__free()), or NULL
 * with *why when this object's relocations cannot be served by a minimal BTF
 * (the caller falls back to the full kernel BTF). */
struct btf *corebtf_minimize(const struct corebtf_raw *local, const struct corebtf_relo *relos,
			     size_t nr_relos, const struct corebtf_raw *target,
			     struct corebtf_stats *st, const char **why);

/* ---- For bpfobj_open(): everything from the object file to a path ---- */

enum corebtf_mode {
	COREBTF_AUTO = 0,	/* minimal BTF when possible, else libbpf's full load */
	COREBTF_VMLINUX,	/* always leave CO-RE to libbpf (full kernel BTF) */
	COREBTF_MINIMAL,	/* minimal BTF; fail where it cannot be built */
};

struct corebtf_prep {
	int memfd;		/* -1: none; else holds the BTF at path until corebtf_prep_done */
	char path[64];		/* "/proc/self/fd/N" for btf_custom_path, "" for none */
	const char *fallback;	/* why libbpf loads the full kernel BTF (NULL: minimal, or no CO-RE) */
	bool no_core;		/* the object has no CO-RE relocations */
	struct corebtf_stats st;
	double ms;		/* time spent */
	size_t bytes;		/* size of the minimal BTF */
};

/* Look at the object file obj_path and, unless it needs the full kernel BTF,
 * build its minimal CO-RE target BTF from kernel_btf (NULL: the running
 * kernel's /sys/kernel/btf/vmlinux). Returns 0 (p filled: a path, or a
 * fallback reason, or no_core) or -errno when mode is COREBTF_MINIMAL and
 * no minimal BTF could be made (p->fallback says why). */
int corebtf_prepare(const char *obj_path, const char *kernel_btf, enum corebtf_mode mode,
		    struct corebtf_prep *p);
void corebtf_prep_done(struct corebtf_prep *p);

#endif
