// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the kernel symbol sources: /proc/kallsyms text, /proc/modules text,
 * the kernel's notes (/sys/kernel/notes, for its build-id) and perf's copy of
 * kallsyms in the build-id cache (~/.debug/[kernel.kallsyms]/<id>/kallsyms).
 * Input: KALLSYMS \n@@\n MODULES \n@@\n NOTES \n@@\n COPY (missing parts
 * are empty; without the third separator, no copy check). KALLSYMS is
 * loaded (text and data symbols, names looked up); the copy check runs
 * twice: with the input's notes, and with notes carrying the build-id under
 * which COPY is stored in a private cache directory (made at the first run,
 * removed at exit), so that the text address comparison and
 * kallsyms_load_copy's module check are reached. */
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "sym/sym_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEP "\n@@\n"

static const uint8_t fixed_id[20] = { 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9,
				      0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3 };
static char cache_dir[64], copy_path[256], fixed_notes_path[256];
static uint64_t sink;

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static void remove_cache(void)
{
	nftw(cache_dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static bool write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok;
}

/* The private build-id cache and notes with fixed_id, once. */
static bool setup(void)
{
	if (cache_dir[0])
		return true;
	snprintf(cache_dir, sizeof(cache_dir), "/tmp/bpfperf-fuzz-kallsyms-XXXXXX");
	if (!mkdtemp(cache_dir))
		return false;
	atexit(remove_cache);
	char hex[41], dir[200];
	sym_hex_id(fixed_id, sizeof(fixed_id), hex);
	snprintf(dir, sizeof(dir), "%s/[kernel.kallsyms]", cache_dir);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/[kernel.kallsyms]/%s", cache_dir, hex);
	mkdir(dir, 0700);
	snprintf(copy_path, sizeof(copy_path), "%s/kallsyms", dir);
	snprintf(fixed_notes_path, sizeof(fixed_notes_path), "%s/notes", cache_dir);
	/* an ELF note: namesz, descsz, type 3 (NT_GNU_BUILD_ID), "GNU\0", id */
	uint8_t note[12 + 4 + sizeof(fixed_id)];
	uint32_t hdr[3] = { 4, sizeof(fixed_id), 3 };
	memcpy(note, hdr, 12);
	memcpy(note + 12, "GNU", 4);
	memcpy(note + 16, fixed_id, sizeof(fixed_id));
	return write_file(fixed_notes_path, note, sizeof(note));
}

static void check_table(const struct symtab *st)
{
	for (size_t i = 0; i < st->n; i++) {
		const struct sym *s = &st->syms[i];
		if (i && s->start < st->syms[i - 1].start)
			abort();
		sink += strlen(s->name) + (s->aux ? strlen(s->aux) : 0);
		(void)symtab_find(st, s->start);
		(void)symtab_find(st, s->end ? s->end - 1 : s->start);
	}
}

static void load_all(const char *ksyms, const char *modules, const uint8_t *text, size_t len)
{
	struct strtab *strs = strtab_new();
	struct symtab st = { 0 };
	bool hidden;
	if (kallsyms_load(ksyms, modules, strs, &st, &hidden) >= 0)
		check_table(&st);
	symtab_free(&st);
	memset(&st, 0, sizeof(st));
	if (kallsyms_load_data(ksyms, modules, strs, &st, &hidden) >= 0)
		check_table(&st);
	symtab_free(&st);
	/* look up the names of the first lines (and a few that are not there) */
	const char *names[8] = { "_text", "_stext", "__sched_text_start", "", NULL };
	size_t n = 4;
	char *copy = fuzz_cstr(text, len), *save = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line && n < 8; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' ');
		names[n++] = sp ? sp + 1 : line;
	}
	uint64_t addrs[8];
	memset(addrs, 0, sizeof(addrs));
	kallsyms_find_names(ksyms, names, addrs, n);
	free(copy);
	strtab_free(strs);
}

static void copy_check(const char *proc, const char *notes, const char *modules)
{
	struct ksources src = { .notes = notes, .proc_kallsyms = proc, .buildid_dir = cache_dir };
	char path[4096];
	if (!kallsyms_find_copy(&src, path, sizeof(path)))
		return;
	struct strtab *strs = strtab_new();
	struct symtab st = { 0 };
	if (kallsyms_load_copy(path, modules, strs, &st) >= 0)
		check_table(&st);
	symtab_free(&st);
	strtab_free(strs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file fk, fm, fn;
	if (!setup())
		return 0;
	size_t pos = 0, klen, mlen, nlen, clen;
	const uint8_t *k = fuzz_part(data, size, &pos, SEP, &klen);
	const uint8_t *m = fuzz_part(data, size, &pos, SEP, &mlen);
	const uint8_t *n = fuzz_part(data, size, &pos, SEP, &nlen);
	bool has_copy = pos < size || (size >= 4 && !memcmp(data + size - 4, SEP, 4));
	const uint8_t *c = fuzz_part(data, size, &pos, SEP, &clen);
	if (!fuzz_file_set(&fk, k, klen) || !fuzz_file_set(&fm, m, mlen))
		return 0;
	load_all(fk.path, fm.path, k, klen);
	/* the copy checks (files written: slower) for inputs that have a COPY part */
	if (!has_copy || !fuzz_file_set(&fn, n, nlen) || !write_file(copy_path, c, clen))
		return 0;
	copy_check(fk.path, fn.path, fm.path);
	copy_check(fk.path, fixed_notes_path, fm.path);
	return 0;
}
