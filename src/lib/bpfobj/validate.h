/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of a BPF object's bytes before libbpf parses them: libbpf (1.1.x)
 * trusts much of what it reads and crashes on a corrupt .BTF, so the ELF
 * header, the section table, the symbol and relocation tables, .BTF and
 * .BTF.ext are checked for bounds and offsets here first. */
#ifndef BPFPERF_BPFOBJ_VALIDATE_H
#define BPFPERF_BPFOBJ_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

/* Where the checked object's .BTF is (size 0: it has none). */
struct bpfobj_elf_info {
	size_t btf_off, btf_size;
};

/* The whole object file in memory (size bytes). 0 if libbpf may parse it,
 * else -EINVAL (-ENOEXEC when it is no BPF object at all) with the reason in
 * why ("section .BTF: type [12] at offset 0x1c0: ..."). info may be NULL. */
int bpfobj_validate_elf(const void *data, size_t size, struct bpfobj_elf_info *info,
			char *why, size_t len);

/* The bytes of a .BTF section: header, type and string sections in bounds,
 * every type record within the type section, every name offset within the
 * string table, every referenced type id defined. On success *nr_types and
 * *str_len (when not NULL) are the number of types and the string table's
 * size, which .BTF.ext's records refer to. */
int bpfobj_validate_btf(const void *data, size_t size, uint32_t *nr_types, uint32_t *str_len,
			char *why, size_t len);

/* The bytes of a .BTF.ext section, given the counts of the .BTF it extends. */
int bpfobj_validate_btf_ext(const void *data, size_t size, uint32_t nr_types, uint32_t str_len,
			    char *why, size_t len);

/* The file at path read and checked; one pr_err() naming the file and the
 * fault when it is not sound. */
int bpfobj_validate_file(const char *path);

#endif
