// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the opening of user-space DSOs (src/lib/sym/elf.c) the ways that
 * fuzz_elf does not: the first input byte selects what the rest is.
 *   0  the xz stream of a .gnu_debugdata section (MiniDebugInfo), inside an
 *      ELF file made here that has no .symtab, so that its symbols come from
 *      that section through libdwfl's xz reader;
 *   1  a whole ELF file, loaded as a DSO from its path (memfd);
 *   2  the separate debug file that a .gnu_debuglink of the main file names
 *      (both in a private directory, made at the first run);
 *   3  the copy in perf's build-id cache, $HOME/.debug/.build-id/xx/.../elf,
 *      of a recorded file that is gone (HOME is the private directory);
 *   4  a symbol name, demangled with and without parameters;
 *   5  symbol records (start, size, rank, name) for the sorted table: alias
 *      choice, sizes from the next symbol, look-ups.
 * Every DSO loaded has its table checked and each symbol looked up and
 * demangled. */
#include <elf.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "sym/sym_int.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The build-id of the recorded file whose copy mode 3 looks for. */
static const uint8_t cache_id[20] = { 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9,
				      0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3 };
static char dir[64], main_path[128], debug_path[128], cache_path[256];
static uint64_t sink;

/* ---- a small ELF file: one PT_LOAD over the whole file, given sections ---- */
struct esec {
	const char *name;
	uint32_t type;
	const void *data;
	size_t size;
};

static void put(struct strbuf *b, const void *p, size_t n)
{
	sb_append_len(b, p, n);
}

static void pad8(struct strbuf *b)
{
	static const char zero[8];
	if (b->len % 8)
		put(b, zero, 8 - b->len % 8);
}

/* ELF64 ET_DYN x86-64 with sections s[0..n) (plus the null section and
 * .shstrtab), in *out (sb_free it). */
static void make_elf(struct strbuf *out, const struct esec *s, size_t n)
{
	struct strbuf names = { 0 };
	put(&names, "", 1);
	size_t name_off[8];
	for (size_t i = 0; i < n; i++) {
		name_off[i] = names.len;
		put(&names, s[i].name, strlen(s[i].name) + 1);
	}
	size_t shstr_name = names.len;
	put(&names, ".shstrtab", 10);

	Elf64_Ehdr eh = { 0 };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 1;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (uint16_t)(n + 2);
	eh.e_shstrndx = (uint16_t)(n + 1);
	put(out, &eh, sizeof(eh));
	size_t ph_at = out->len;
	Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_align = 0x1000 };
	put(out, &ph, sizeof(ph));

	Elf64_Shdr sh[10];
	memset(sh, 0, sizeof(sh));
	for (size_t i = 0; i < n; i++) {
		pad8(out);
		sh[i + 1] = (Elf64_Shdr){ .sh_name = (uint32_t)name_off[i], .sh_type = s[i].type,
					  .sh_offset = out->len, .sh_size = s[i].size, .sh_addralign = 1 };
		put(out, s[i].data, s[i].size);
	}
	sh[n + 1] = (Elf64_Shdr){ .sh_name = (uint32_t)shstr_name, .sh_type = SHT_STRTAB,
				  .sh_offset = out->len, .sh_size = names.len, .sh_addralign = 1 };
	put(out, names.buf, names.len);
	pad8(out);
	Elf64_Ehdr *e = (Elf64_Ehdr *)out->buf;
	e->e_shoff = out->len;
	put(out, sh, sizeof(sh[0]) * (n + 2));
	Elf64_Phdr *p = (Elf64_Phdr *)(out->buf + ph_at);
	p->p_filesz = p->p_memsz = out->len;
	sb_free(&names);
}

static bool write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static void remove_dir(void)
{
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* The private directory: main.elf with a .gnu_debuglink to fuzz.debug, and
 * HOME/.debug/.build-id/b0/b1...c3/ for the build-id cache. */
static bool setup(void)
{
	if (dir[0])
		return true;
	snprintf(dir, sizeof(dir), "/tmp/bpfperf-fuzz-dso-XXXXXX");
	if (!mkdtemp(dir))
		return false;
	atexit(remove_dir);
	setenv("HOME", dir, 1);
	snprintf(main_path, sizeof(main_path), "%s/main.elf", dir);
	snprintf(debug_path, sizeof(debug_path), "%s/fuzz.debug", dir);
	static const char link[16] = "fuzz.debug";	/* NUL padded, then a CRC (unchecked) */
	struct esec s[] = { { ".gnu_debuglink", SHT_PROGBITS, link, sizeof(link) } };
	struct strbuf elf = { 0 };
	make_elf(&elf, s, 1);
	bool ok = write_file(main_path, elf.buf, elf.len);
	sb_free(&elf);
	char hex[41], p[200];
	sym_hex_id(cache_id, sizeof(cache_id), hex);
	snprintf(p, sizeof(p), "%s/.debug", dir);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/.debug/.build-id", dir);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/.debug/.build-id/%.2s", dir, hex);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/.debug/.build-id/%.2s/%s", dir, hex, hex + 2);
	mkdir(p, 0700);
	snprintf(cache_path, sizeof(cache_path), "%s/elf", p);
	return ok;
}

static void check_table(const struct symtab *st)
{
	for (size_t i = 0; i < st->n; i++) {
		const struct sym *s = &st->syms[i];
		if (i && s->start < st->syms[i - 1].start)
			abort();
		(void)symtab_find(st, s->start);
		if (s->end > s->start)
			(void)symtab_find(st, s->end - 1);
		if (i < 64) {
			char *d = sym_demangle_opts(s->name, i & 1);
			if (d)
				sink += strlen(d);
			free(d);
		}
	}
}

static void load_dso(const char *path, const uint8_t *bid, size_t bidlen)
{
	struct dso *d = calloc(1, sizeof(*d));
	if (!d)
		abort();
	d->kind = DSO_ELF;
	d->path = d->name = path;
	if (bidlen) {
		memcpy(d->build_id, bid, bidlen);
		d->build_id_len = bidlen;
	}
	struct dso_load_opts o = { 0 };
	dso_load(d, &o);
	if (d->usable) {
		check_table(&d->st);
		uint64_t v;
		for (uint64_t off = 0; off < 0x3000; off += 0x800)
			if (dso_off_to_vaddr(d, off, &v))
				sink += v;
	}
	dso_free(d);
}

static void minidebuginfo(const uint8_t *xz, size_t size)
{
	static struct fuzz_file f;
	struct esec s[] = { { ".gnu_debugdata", SHT_PROGBITS, xz, size } };
	struct strbuf elf = { 0 };
	make_elf(&elf, s, 1);
	if (fuzz_file_set(&f, elf.buf, elf.len))
		load_dso(f.path, NULL, 0);
	sb_free(&elf);
}

static void whole(const uint8_t *data, size_t size)
{
	static struct fuzz_file f;
	if (fuzz_file_set(&f, data, size))
		load_dso(f.path, NULL, 0);
}

static void demangle(const uint8_t *data, size_t size)
{
	char *name = fuzz_cstr(data, size);
	for (int params = 0; params < 2; params++) {
		char *d = sym_demangle_opts(name, params);
		if (d)
			sink += strlen(d);
		free(d);
	}
	free(name);
}

/* Records of 8-byte start, 4-byte size, 1-byte rank, then a NUL-terminated name. */
static void table(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	copy[size] = '\0';
	struct symtab st = { 0 };
	size_t pos = 0;
	while (size - pos >= 13 && st.n < 4096) {
		uint64_t start;
		uint32_t len;
		memcpy(&start, copy + pos, 8);
		memcpy(&len, copy + pos + 8, 4);
		uint8_t rank = (uint8_t)copy[pos + 12] % 3;
		const char *name = copy + pos + 13;
		pos += 13 + strlen(name) + 1;
		symtab_add(&st, start, len ? start + len : 0, name, NULL, rank);
		if (pos > size)
			break;
	}
	symtab_own(&st, copy);
	symtab_finish(&st, 1);
	check_table(&st);
	for (size_t i = 0; i + 8 <= size && i < 256; i += 8) {
		uint64_t a;
		memcpy(&a, data + i, 8);
		(void)symtab_find(&st, a);
	}
	symtab_free(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size || !setup())
		return 0;
	const uint8_t *in = data + 1;
	size_t n = size - 1;
	switch (data[0] % 6) {
	case 0:
		minidebuginfo(in, n);
		break;
	case 1:
		whole(in, n);
		break;
	case 2:
		if (write_file(debug_path, in, n))
			load_dso(main_path, NULL, 0);
		break;
	case 3: {
		char gone[160];
		snprintf(gone, sizeof(gone), "%s/gone.so", dir);
		if (write_file(cache_path, in, n))
			load_dso(gone, cache_id, sizeof(cache_id));
		break;
	}
	case 4:
		demangle(in, n);
		break;
	case 5:
		table(in, n);
		break;
	}
	return 0;
}
