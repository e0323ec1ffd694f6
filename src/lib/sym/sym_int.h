/* SPDX-License-Identifier: GPL-2.0-only */
/* Internals of the symbolization layer shared by its files: the string table,
 * sorted symbol tables, DSOs (ELF files, vDSO, perf-PID.map) and kallsyms. */
#ifndef BPFPERF_SYM_INT_H
#define BPFPERF_SYM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- strtab.c: interned strings (equal strings, equal pointers) ---- */
struct strtab;
struct strtab *strtab_new(void);
void strtab_free(struct strtab *t);
const char *strtab_intern(struct strtab *t, const char *s);
const char *strtab_intern_len(struct strtab *t, const char *s, size_t len);
size_t strtab_count(const struct strtab *t);
/* Intern under a mutex: for a table shared by threads. */
void strtab_set_locked(struct strtab *t, bool on);

/* ---- symtab.c: a sorted table of [start, end) symbols ---- */
/* A label (STT_NOTYPE in a code section, as perf takes them, e.g. ld.so's
 * _dl_start_user): no size, ends at the next symbol; dropped where a sized
 * function covers it, and the last choice among aliases. */
#define SYM_RANK_LABEL 3

struct sym {
	uint64_t start, end;	/* end 0: unknown, up to the next symbol (as perf) */
	const char *name;	/* raw (mangled) name, owned by the table's blobs */
	const char *aux;	/* kallsyms: interned dso name; ELF: NULL */
	uint8_t rank;		/* 0 global, 1 weak, 2 local, SYM_RANK_LABEL; kallsyms: 10 = data */
	uint32_t seq;		/* order of addition */
	const char *shown;	/* the name as shown (demangled), interned; set at the
				 * first lookup (atomic: two threads may look up) */
};

struct symtab {
	struct sym *syms;
	size_t n, cap;
	char **blobs;		/* memory owned by the table (copies of string sections) */
	size_t nblobs, capblobs;
	bool last_alias_wins;	/* kallsyms: of aliases, the last listed is shown (as perf) */
};

void symtab_add(struct symtab *st, uint64_t start, uint64_t end, const char *name,
		const char *aux, uint8_t rank);
/* Take ownership of a malloc'd block that names point into. */
void symtab_own(struct symtab *st, char *blob);
/* A build-id as lowercase hex; out holds 2 * len + 1 bytes. */
void sym_hex_id(const uint8_t *id, size_t len, char *out);
/* Sort by start, drop aliases (keep the one perf shows: sized, non-weak,
 * global, fewer leading underscores, longer name, first in the file), give
 * zero-size symbols the next symbol's start as end (or start + last_size). */
void symtab_finish(struct symtab *st, uint64_t last_size);
/* The symbol covering addr, or NULL. */
const struct sym *symtab_find(const struct symtab *st, uint64_t addr);
void symtab_free(struct symtab *st);

/* ---- demangle.c ---- */
/* C++ (Itanium ABI) names demangled through the C++ runtime; returns the
 * demangled name in a malloc'd string, or NULL if name is not mangled. */
char *sym_demangle(const char *name);	/* as perf shows: no parameters */
char *sym_demangle_opts(const char *name, bool params);

/* ---- elf.c: user-space objects ---- */
enum dso_kind {
	DSO_ELF,	/* a file: symbols from .symtab/.dynsym, debug files */
	DSO_VDSO,	/* [vdso]: this process's own vDSO image */
	DSO_PERFMAP,	/* anonymous JIT memory with /tmp/perf-PID.map */
	DSO_ANON,	/* no symbols: [heap], [stack], //anon, [vsyscall], ... */
};

struct seg {
	uint64_t off, vaddr, filesz;
};

struct dso {
	const char *name;	/* interned short name (basename, "[vdso]", ...) */
	const char *path;	/* interned full path as recorded */
	uint8_t build_id[20];
	size_t build_id_len;
	enum dso_kind kind;
	int pid;		/* process that mapped it first (/proc/PID/root, perf map) */
	bool loaded, usable;	/* usable: symbols and segments were read */
	struct seg *segs;
	size_t nsegs;
	struct symtab st;
};

struct dso_load_opts {
	bool live;
	const char *buildid_dir;	/* perf's build-id cache, looked at first; may be NULL */
};

/* Read symbols and segments; never fails hard (sets usable=false and says why
 * at debug level). */
void dso_load(struct dso *d, const struct dso_load_opts *o);
void dso_free(struct dso *d);
/* The GNU build-id of the ELF file at path (at most cap bytes): its length, 0
 * when the file is not ELF or has none. */
size_t elf_path_build_id(const char *path, uint8_t *id, size_t cap);
/* File offset -> link-time virtual address through the PT_LOAD segments. */
bool dso_off_to_vaddr(const struct dso *d, uint64_t off, uint64_t *vaddr);

/* Load function symbols of an ELF image in memory (used by the fuzzer, the
 * vDSO and tests). Returns false if it is not a usable ELF file. */
bool elf_mem_load_syms(const void *data, size_t size, struct symtab *st, struct seg **segs,
		       size_t *nsegs);

/* A symbol of a given name (elf_find_syms). */
struct elf_sym_match {
	uint64_t value, size;	/* st_value (link-time address), st_size */
	unsigned type;		/* STT_* */
	bool defined;		/* not SHN_UNDEF (an import) */
	bool func;		/* a function as the symbol tables count them */
};
/* The symbols named name in .symtab and .dynsym of the ELF file at path
 * (each once), the first cap of them into m, and the file's PT_LOAD
 * segments into *segs (the caller frees them). Their number (may exceed
 * cap), or a negative errno, not reported: the open's, -ENOEXEC when the
 * file is not ELF. */
long elf_find_syms(const char *path, const char *name, struct elf_sym_match *m, size_t cap,
		   struct seg **segs, size_t *nsegs);

/* ---- kallsyms.c ---- */
/* Parse a /proc/kallsyms-format file into st: text symbols, aux = interned dso
 * ("[kernel.kallsyms]", "[mod]", or the symbol itself for "[bpf]"). modules:
 * /proc/modules-format file to bound module symbols (may be NULL/missing).
 * Returns the number of text symbols, or -errno if the file cannot be read. */
long kallsyms_load(const char *path, const char *modules, struct strtab *strs,
		   struct symtab *st, bool *hidden);

/* kallsyms_load for the data symbols (types d, D, b, B, r, R...): locks and
 * other variables, each ending where the next symbol starts. */
long kallsyms_load_data(const char *path, const char *modules, struct strtab *strs,
			struct symtab *st, bool *hidden);

/* The addresses of the symbols named names[0..n) (aliases included, which the
 * tables drop), 0 for those not found: the number found, or -errno. */
int kallsyms_find_names(const char *path, const char *const *names, uint64_t *addrs, size_t n);

/* Where the running kernel's identity and symbols are read from. The
 * defaults (all NULL) are /sys/kernel/notes, /proc/kallsyms and perf's
 * build-id cache ($PERF_BUILDID_DIR, else ~/.debug). */
struct ksources {
	const char *notes, *proc_kallsyms, *buildid_dir;
};

/* perf record keeps a copy of /proc/kallsyms in its build-id cache
 * (<dir>/[kernel.kallsyms]/<build-id>/kallsyms). Reading that regular file is
 * several times cheaper than /proc/kallsyms, which the kernel formats on every
 * read. Finds the copy for the running kernel's build-id whose kernel text
 * address (_text/_stext) is the running kernel's (same KASLR offset); copies
 * into path and returns true. kallsyms_load_copy then checks the modules. */
bool kallsyms_find_copy(const struct ksources *src, char *path, size_t len);

/* The address of _text (else _stext) among the first lines of a kallsyms
 * file: reading a few KiB of /proc/kallsyms costs little, the kernel formats
 * only what is read. 0 if not found. */
uint64_t kallsyms_text_address(const char *path);

/* kallsyms_load for such a copy: leaves out what changes while the kernel
 * runs (BPF programs, ftrace/kprobe trampolines) and returns -ESTALE, with st
 * empty, when its modules are not those loaded now (by name and address in
 * /proc/modules): the caller then reads /proc/kallsyms. */
long kallsyms_load_copy(const char *path, const char *modules, struct strtab *strs,
			struct symtab *st);

/* srcline.c: "file.c:123" of an address of an ELF file (file vaddr), from
 * its DWARF line table; NULL when it has none. Thread-safe; path interned. */
struct srcline_cache;
struct srcline_cache *srcline_cache_new(void);
void srcline_cache_free(struct srcline_cache *c);
const char *srcline_find(struct srcline_cache *c, struct strtab *strs, const char *path, uint64_t addr);

#endif
