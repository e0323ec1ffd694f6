// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the ELF symbol loading of untrusted files: the input is an ELF file
 * mapped executable into a process (through a memfd path, as a file on disk
 * would be: build-id, .gnu_debuglink, .gnu_debugdata and all) and loaded from
 * memory (the vDSO path); a few addresses are resolved. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sym/machine.h"
#include "sym/sym_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* From memory. */
	struct symtab st = { 0 };
	struct seg *segs = NULL;
	size_t nsegs = 0;
	if (elf_mem_load_syms(data, size, &st, &segs, &nsegs)) {
		for (size_t i = 0; i < st.n && i < 64; i++)
			(void)symtab_find(&st, st.syms[i].start + 1);
	}
	symtab_free(&st);
	free(segs);

	/* From a file, through the machine. */
	int fd = memfd_create("fuzz-elf", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct machine *m = machine_new(NULL);
	const uint64_t base = 0x400000;
	const uint64_t len = 0x100000;
	for (int pg = 0; pg < 2; pg++)
		machine_mmap(m, 1, 1, base + (uint64_t)pg * len, len, (uint64_t)pg * 0x1000, path,
			     NULL, 0, PROT_READ | PROT_EXEC, false);
	uint64_t probes[] = { base, base + 0x10, base + 0x1000, base + 0x1234,
			      base + size / 2, base + len + 0x40, base + 2 * len - 1 };
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		struct resolved r;
		machine_resolve(m, 1, 1, probes[i], AS_USER, &r);
		if (!r.sym || !r.dso)
			abort();
	}
	machine_free(m);
	close(fd);
	return 0;
}
