// SPDX-License-Identifier: GPL-2.0-only
/* BINARY:FUNC and PID:FUNC to a uprobe's file and offset (uprobe_target.h),
 * from the symbols elf.c reads. */
#include "sym/uprobe_target.h"
#include "sym_int.h"
#include "log.h"
#include "util.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

#define MAX_MATCHES 16

static const char *sym_kind(unsigned type)
{
	switch (type) {
	case STT_OBJECT:
		return "a data object";
	case STT_TLS:
		return "a thread-local variable";
	case STT_COMMON:
		return "a common (uninitialized) variable";
	case STT_NOTYPE:
		return "a symbol without type (an assembler label)";
	case STT_SECTION:
		return "a section";
	case STT_FILE:
		return "a file name";
	default:
		return "not a function";
	}
}

static bool vaddr_to_off(const struct seg *segs, size_t n, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < n; i++)
		if (vaddr >= segs[i].vaddr && vaddr - segs[i].vaddr < segs[i].filesz) {
			*off = vaddr - segs[i].vaddr + segs[i].off;
			return true;
		}
	return false;
}

int uprobe_func_offset(const char *path, const char *name, const char *func, uint64_t *offset,
		       uint64_t *vaddr, uint64_t *size)
{
	struct elf_sym_match m[MAX_MATCHES];
	struct seg *segs = NULL;
	size_t nsegs = 0;
	if (!name)
		name = path;
	long n = elf_find_syms(path, func, m, MAX_MATCHES, &segs, &nsegs);
	if (n == -ENOEXEC) {
		pr_err("cannot find function '%s' in %s: it is not an ELF file; give an "
		       "executable or a shared library", func, name);
		return (int)n;
	}
	if (n < 0) {
		pr_err("cannot read %s to find function '%s' in it: %s; give the path of an "
		       "executable or a shared library", name, func, open_regular_strerror((int)n));
		return (int)n;
	}
	size_t kept = (size_t)n < MAX_MATCHES ? (size_t)n : MAX_MATCHES;
	const struct elf_sym_match *fn = NULL, *other = NULL, *import = NULL;
	size_t nfuncs = 0;
	uint64_t second = 0;
	for (size_t i = 0; i < kept; i++) {
		if (m[i].func) {
			if (fn && m[i].value == fn->value)
				continue;	/* an alias of the same code */
			if (fn && !second)
				second = m[i].value;
			if (!fn)
				fn = &m[i];
			nfuncs++;
		} else if (!m[i].defined) {
			import = &m[i];
		} else {
			other = &m[i];
		}
	}
	int err = 0;
	if (nfuncs > 1) {
		pr_err("'%s' names %zu%s functions in %s (at 0x%" PRIx64 " and 0x%" PRIx64
		       ": static functions of different source files); a uprobe needs one: give "
		       "the function a unique name", func, nfuncs, (size_t)n > kept ? " or more" : "",
		       name, fn->value, second);
		err = -ENOTUNIQ;
	} else if (!fn && other) {
		pr_err("'%s' in %s is %s, not a function; give the name of a function "
		       "(nm %s lists them with type T or t)", func, name, sym_kind(other->type),
		       name);
		err = -EINVAL;
	} else if (!fn && import) {
		pr_err("function '%s' is not defined in %s: it is imported from a shared "
		       "library; probe it in that library (ldd %s lists them)", func, name, name);
		err = -ENOENT;
	} else if (!fn) {
		pr_err("no function '%s' in %s (neither in .symtab nor in .dynsym); check the "
		       "name (C++ names are mangled: nm %s), or the binary may be stripped of "
		       "its symbols", func, name, name);
		err = -ENOENT;
	} else if (!vaddr_to_off(segs, nsegs, fn->value, offset)) {
		pr_err("function '%s' of %s at 0x%" PRIx64 " is in none of the file's loaded "
		       "segments (PT_LOAD): the file is damaged or is not a program", func, name,
		       fn->value);
		err = -ENOEXEC;
	} else {
		*vaddr = fn->value;
		*size = fn->size;
		if (fn->type == STT_GNU_IFUNC)
			pr_warn("'%s' in %s is an indirect function (STT_GNU_IFUNC): the probe "
				"is on its resolver, which runs once at load, not on the "
				"implementation it picks", func, name);
	}
	free(segs);
	return err;
}

int uprobe_target_resolve(const char *spec, struct uprobe_target *t)
{
	memset(t, 0, sizeof(*t));
	t->pid = -1;
	const char *colon = strrchr(spec, ':');
	if (!colon || colon == spec || !colon[1]) {
		pr_err("'%s' is not a user function: give BINARY:FUNC (a path and a function "
		       "name) or PID:FUNC (a process's program)", spec);
		return -EINVAL;
	}
	size_t blen = (size_t)(colon - spec);
	if (strlen(colon + 1) >= sizeof(t->func) || blen >= sizeof(t->path)) {
		pr_err("'%s' is too long for BINARY:FUNC (paths up to %zu bytes, function "
		       "names up to %zu)", spec, sizeof(t->path) - 1, sizeof(t->func) - 1);
		return -EINVAL;
	}
	memcpy(t->func, colon + 1, strlen(colon + 1) + 1);
	bool digits = true;
	for (size_t i = 0; i < blen; i++)
		digits = digits && isdigit((unsigned char)spec[i]);
	if (digits) {
		long pid = strtol(spec, NULL, 10);
		if (pid <= 0 || blen > 9) {
			pr_err("'%.*s' in '%s' is not a process id", (int)blen, spec, spec);
			return -EINVAL;
		}
		t->pid = (pid_t)pid;
		/* the magic link: the kernel resolves it to the program's inode,
		 * also across mount namespaces and for a deleted file */
		snprintf(t->path, sizeof(t->path), "/proc/%ld/exe", pid);
		ssize_t r = readlink(t->path, t->name, sizeof(t->name) - 1);
		if (r < 0) {
			int err = -errno;
			pr_err("cannot find the program of process %ld (%s): %s; is the process "
			       "running, and are we allowed to trace it?", pid, t->path,
			       log_strerr(err));
			return err == -ENOENT ? -ESRCH : err;
		}
		t->name[r] = '\0';
	} else {
		memcpy(t->path, spec, blen);
		t->path[blen] = '\0';
		memcpy(t->name, t->path, blen + 1);
	}
	return uprobe_func_offset(t->path, t->name, t->func, &t->offset, &t->vaddr, &t->size);
}
