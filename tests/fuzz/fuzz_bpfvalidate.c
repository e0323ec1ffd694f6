// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_bpfvalidate: the checks of a BPF object made before libbpf parses it
 * (src/lib/bpfobj/validate.c) on untrusted bytes: the whole input as an
 * object file, and as the bytes of a .BTF and a .BTF.ext section. Whatever
 * .BTF the checks accept, libbpf's btf__new must parse without a crash. */
#include <bpf/btf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpfobj/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[256];
	struct bpfobj_elf_info info;
	uint32_t nr = 0, strs = 0;
	/* copies of exactly size bytes, so that a read past the end is caught */
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (bpfobj_validate_elf(copy, size, &info, why, sizeof(why)) == 0 && info.btf_size) {
		struct btf *b = btf__new(copy + info.btf_off, (uint32_t)info.btf_size);
		btf__free(b);
	}
	if (bpfobj_validate_btf(copy, size, &nr, &strs, why, sizeof(why)) == 0) {
		struct btf *b = btf__new(copy, (uint32_t)size);
		btf__free(b);
	}
	bpfobj_validate_btf_ext(copy, size, nr ? nr : 16, strs ? strs : 256, why, sizeof(why));
	free(copy);
	return 0;
}
