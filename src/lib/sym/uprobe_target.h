/* SPDX-License-Identifier: GPL-2.0-only */
/* A user function to put a uprobe on: BINARY:FUNC or PID:FUNC (the program
 * /proc/PID/exe runs) to the file and the file offset of the function's first
 * instruction, which uprobes take (libbpf's bpf_program__attach_uprobe_opts
 * with func_name NULL). The offset comes from the function's symbol (.symtab,
 * else .dynsym) through the PT_LOAD segment that holds it:
 *     offset = st_value - p_vaddr + p_offset
 *
 * Errors follow log.h: a negative errno after one message naming the binary. */
#ifndef BPFPERF_UPROBE_TARGET_H
#define BPFPERF_UPROBE_TARGET_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

struct uprobe_target {
	char path[PATH_MAX];	/* the file to probe: BINARY, or /proc/PID/exe */
	char name[PATH_MAX];	/* the binary as messages show it (PID: its exe link) */
	char func[256];
	pid_t pid;		/* PID:FUNC: the process (probe only it), else -1 */
	uint64_t offset;	/* file offset of the function */
	uint64_t vaddr, size;	/* its symbol's value and size */
};

/* Parse and resolve spec. The part after the last ':' is the function; the
 * part before it a process id when it is all digits (a file named so:
 * "./123:FUNC"), else a path. 0; -EINVAL (not that shape, or FUNC is not a
 * function), -ESRCH (no such process), -ENOENT (no such file or function),
 * -ENOTUNIQ (several functions of that name), -ENOEXEC (not ELF), or the
 * open's errno; each reported. */
int uprobe_target_resolve(const char *spec, struct uprobe_target *t);

/* The function func of the ELF file at path (named name in messages; NULL:
 * path): its file offset, symbol value and size. Errors as above. */
int uprobe_func_offset(const char *path, const char *name, const char *func, uint64_t *offset,
		       uint64_t *vaddr, uint64_t *size);

#endif
