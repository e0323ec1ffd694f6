// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the opening of a BPF object file through our code path, up to (not
 * including) loading it into the kernel: bpfobj_open (our ELF check, then
 * libbpf's parser, program and map set-up), the global variable look-ups and
 * --set NAME=VALUE assignments, and the CO-RE preparation (corebtf_prepare:
 * our reading of the object's ELF, .BTF and .BTF.ext, then the minimal BTF
 * against a "kernel" BTF).
 * Input: [u32 obj_len][obj_len bytes: the object][KBTF \n@@\n ASSIGNMENTS]
 * (little endian; ASSIGNMENTS one per line; a too short input is all
 * object). The kernel BTF is KBTF when there is one, so that no run reads
 * the running kernel's (slow, and not what is fuzzed). Crashes inside libbpf
 * are libbpf's: the validation before libbpf is being added separately. */
#include <bpf/libbpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfobj/bpfobj.h"
#include "bpfobj/core_btf.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t sink;

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level; (void)fmt; (void)ap;
	return 0;
}

static void globals(struct bpfobj *bo, char *assign)
{
	char *save = NULL;
	for (char *line = strtok_r(assign, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct bpfobj_global g;
		char *eq = strchr(line, '=');
		if (eq) {
			bpfobj_set(bo, line, false);
			*eq = '\0';
		}
		sink += bpfobj_has_global(bo, line);
		if (bpfobj_find_global(bo, NULL, line, &g) == 0)
			sink += g.offset + g.size + g.type_id + strlen(g.sec);
		if (bpfobj_find_global(bo, ".rodata", line, &g) == 0)
			sink += g.offset;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file fobj, fbtf;
	static bool init;
	if (!init) {
		libbpf_set_print(quiet);
		init = true;
	}
	const uint8_t *obj = data, *rest = NULL;
	size_t obj_len = size, rest_len = 0;
	if (size >= 4) {
		uint32_t n;
		memcpy(&n, data, 4);
		if (n <= size - 4) {
			obj = data + 4;
			obj_len = n;
			rest = data + 4 + n;
			rest_len = size - 4 - n;
		}
	}
	size_t pos = 0, kbtf_len = 0, assign_len = 0;
	const uint8_t *kbtf = rest ? fuzz_part(rest, rest_len, &pos, "\n@@\n", &kbtf_len) : NULL;
	const uint8_t *assign = rest ? fuzz_part(rest, rest_len, &pos, "\n@@\n", &assign_len) : NULL;
	if (!fuzz_file_set(&fobj, obj, obj_len))
		return 0;

	if (kbtf_len && fuzz_file_set(&fbtf, kbtf, kbtf_len)) {
		/* auto or minimal (they differ in what a failure returns) by the
		 * parity of the kernel BTF's length */
		struct corebtf_prep p;
		corebtf_prepare(fobj.path, fbtf.path, kbtf_len & 1 ? COREBTF_MINIMAL : COREBTF_AUTO, &p);
		sink += p.bytes + p.no_core;
		corebtf_prep_done(&p);
	}

	/* CO-RE mode vmlinux: the kernel BTF is not read at open */
	struct bpfobj_open_opts oo = { .core_btf = BPFOBJ_CORE_BTF_VMLINUX };
	struct bpfobj *bo;
	if (bpfobj_open(fobj.path, &oo, &bo) == 0) {
		sink += bpfobj_has_btf(bo);
		if (assign_len) {
			char *a = fuzz_cstr(assign, assign_len);
			globals(bo, a);
			free(a);
		}
		bpfobj_close(bo);
	}
	return 0;
}
