// SPDX-License-Identifier: GPL-2.0-only
/* User-space objects: function symbols of ELF files (.symtab, else .dynsym
 * plus a separate debug file found by build-id or .gnu_debuglink, else the
 * .gnu_debugdata minidebuginfo decompressed with a size cap), their PT_LOAD segments to map
 * file offsets to link-time addresses, the vDSO from this process's own image
 * and JIT symbols from /tmp/perf-PID.map. Every input is untrusted: sizes and
 * indexes are checked, nothing is assumed NUL-terminated. */
#include "sym_int.h"
#include "sym/buildid.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif
#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

static void elf_init(void)
{
	static bool done;
	if (!done) {
		elf_version(EV_CURRENT);
		done = true;
	}
}

static bool read_build_id(Elf *e, uint8_t *out, size_t *len)
{
	Elf_Scn *scn = NULL;
	/* Sections first (cheap), then PT_NOTE segments (stripped section headers). */
	for (int pass = 0; pass < 2; pass++) {
		size_t nph = 0;
		if (pass == 1 && elf_getphdrnum(e, &nph) < 0)
			return false;
		for (size_t i = 0;; i++) {
			Elf_Data *data = NULL;
			if (pass == 0) {
				scn = elf_nextscn(e, scn);
				if (!scn)
					break;
				GElf_Shdr sh;
				if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
					continue;
				data = elf_getdata(scn, NULL);
			} else {
				if (i >= nph)
					break;
				GElf_Phdr ph;
				if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
					continue;
				data = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz,
							    ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
			}
			if (!data || !data->d_buf)
				continue;
			size_t off = 0, noff, doff;
			GElf_Nhdr nh;
			while (off < data->d_size &&
			       (off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
				if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
				    memcmp((char *)data->d_buf + noff, "GNU", 4) != 0 ||
				    !nh.n_descsz)
					continue;
				size_t n = nh.n_descsz > 20 ? 20 : nh.n_descsz;
				memcpy(out, (char *)data->d_buf + doff, n);
				*len = n;
				return true;
			}
		}
	}
	return false;
}

static void read_segs(Elf *e, struct seg **segs, size_t *nsegs)
{
	size_t nph = 0;
	*segs = NULL;
	*nsegs = 0;
	if (elf_getphdrnum(e, &nph) < 0 || !nph)
		return;
	if (nph > 4096)
		nph = 4096;
	*segs = xcalloc(nph, sizeof(**segs));
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		struct seg *s = &(*segs)[(*nsegs)++];
		s->off = ph.p_offset;
		s->vaddr = ph.p_vaddr;
		s->filesz = ph.p_filesz;
	}
}

static uint8_t bind_rank(unsigned bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

static bool is_func_sym(const GElf_Sym *s)
{
	unsigned t = GELF_ST_TYPE(s->st_info);
	return (t == STT_FUNC || t == STT_GNU_IFUNC) && s->st_shndx != SHN_UNDEF &&
	       s->st_value != 0;
}

/* perf's labels: named STT_NOTYPE symbols of a section (the caller checks
 * that it holds code), not ARM mapping symbols ($a, $t, $d, $x). */
static bool is_label_sym(const GElf_Sym *s, const char *name)
{
	return GELF_ST_TYPE(s->st_info) == STT_NOTYPE && s->st_shndx != SHN_UNDEF &&
	       s->st_shndx < SHN_LORESERVE && s->st_value != 0 && name[0] != '$' &&
	       strncmp(name, ".L", 2) != 0;
}

/* Function symbols (and labels in code) of sections of type sh_type into
 * st. Returns the count. */
static size_t read_sym_section(Elf *e, Elf64_Word sh_type, struct symtab *st)
{
	GElf_Ehdr eh;
	if (!gelf_getehdr(e, &eh))
		return 0;
	size_t count = 0;
	/* Which sections hold code (labels count there only). A symbol without
	 * a size ends where the next one starts, as perf's symbols__fixup_end:
	 * _init covers PLT0 up to the first "<target>@plt" stub. */
	size_t nsec = 0;
	bool *sec_code = NULL;
	if (elf_getshdrnum(e, &nsec) == 0 && nsec && nsec < 65536) {
		sec_code = xcalloc(nsec, sizeof(*sec_code));
		for (size_t i = 0; i < nsec; i++) {
			GElf_Shdr sh;
			Elf_Scn *s = elf_getscn(e, i);
			if (!s || !gelf_getshdr(s, &sh))
				continue;
			sec_code[i] = sh.sh_flags & SHF_EXECINSTR;	/* NOBITS in a debug file */
		}
	}
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != sh_type || sh.sh_type == SHT_NOBITS)
			continue;
		Elf_Scn *strscn = elf_getscn(e, sh.sh_link);
		GElf_Shdr strsh;
		if (!strscn || !gelf_getshdr(strscn, &strsh) || strsh.sh_type != SHT_STRTAB)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		Elf_Data *strd = elf_getdata(strscn, NULL);
		if (!data || !strd || !data->d_buf || !strd->d_buf || !strd->d_size)
			continue;
		size_t entsize = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
		if (!entsize)
			continue;
		size_t nsyms = data->d_size / entsize;
		/* A private copy of the string table with a guard NUL: names stay
		 * valid after the file is closed and are always terminated. */
		char *blob = xmalloc(strd->d_size + 1);
		memcpy(blob, strd->d_buf, strd->d_size);
		blob[strd->d_size] = '\0';
		symtab_own(st, blob);
		for (size_t i = 1; i < nsyms; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym) || sym.st_name >= strd->d_size ||
			    !blob[sym.st_name])
				continue;
			bool label = !is_func_sym(&sym) && sec_code && sym.st_shndx < nsec &&
				     sec_code[sym.st_shndx] && is_label_sym(&sym, blob + sym.st_name);
			if (!label && !is_func_sym(&sym))
				continue;
			uint64_t start = sym.st_value;
			if (eh.e_machine == EM_ARM)
				start &= ~1ull;	/* Thumb bit */
			uint64_t end = sym.st_size && start + sym.st_size > start ?
				start + sym.st_size : 0;
			symtab_add(st, start, label ? 0 : end, blob + sym.st_name, NULL,
				   label ? SYM_RANK_LABEL : bind_rank(GELF_ST_BIND(sym.st_info)));
			count++;
		}
	}
	free(sec_code);
	return count;
}

/* Has a section of type sh_type a named, defined data symbol? perf loads
 * those too (its dso__load_sym keeps functions and objects), and their
 * count decides whether it names PLT stubs. */
static bool has_defined_object(Elf *e, Elf64_Word sh_type)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != sh_type)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t entsize = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
		if (!data || !entsize)
			continue;
		size_t nsyms = data->d_size / entsize;
		for (size_t i = 1; i < nsyms; i++) {
			GElf_Sym sym;
			if (gelf_getsym(data, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_OBJECT &&
			    sym.st_name && sym.st_shndx != SHN_UNDEF)
				return true;
		}
	}
	return false;
}

static bool has_section(Elf *e, const char *name, Elf_Scn **out)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(e, &shstrndx) < 0)
		return false;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *n = elf_strptr(e, shstrndx, sh.sh_name);
		if (n && strcmp(n, name) == 0) {
			if (out)
				*out = scn;
			return sh.sh_type != SHT_NOBITS;
		}
	}
	return false;
}


/* x86-64 PLT stubs as perf names them, "<target>@plt" ("@plt" for those
 * without a target symbol): one 16-byte entry per
 * .rela.plt relocation, in .plt.sec when present (IBT), else in .plt after
 * its 16-byte header. */
static void read_plt_syms(Elf *e, struct symtab *st)
{
	GElf_Ehdr eh;
	Elf_Scn *rela = NULL, *plt = NULL, *pltsec = NULL;
	if (!gelf_getehdr(e, &eh) || eh.e_machine != EM_X86_64 ||
	    !has_section(e, ".rela.plt", &rela) || !has_section(e, ".plt", &plt))
		return;
	has_section(e, ".plt.sec", &pltsec);
	GElf_Shdr rsh, psh;
	if (!gelf_getshdr(rela, &rsh) || rsh.sh_type != SHT_RELA ||
	    !gelf_getshdr(pltsec ? pltsec : plt, &psh))
		return;
	uint64_t base = psh.sh_addr + (pltsec ? 0 : 16);
	Elf_Scn *dynsym = elf_getscn(e, rsh.sh_link);
	GElf_Shdr dsh;
	if (!dynsym || !gelf_getshdr(dynsym, &dsh) || dsh.sh_type != SHT_DYNSYM)
		return;
	Elf_Scn *strscn = elf_getscn(e, dsh.sh_link);
	Elf_Data *rd = elf_getdata(rela, NULL), *sd = elf_getdata(dynsym, NULL);
	Elf_Data *strd = strscn ? elf_getdata(strscn, NULL) : NULL;
	size_t relsz = gelf_fsize(e, ELF_T_RELA, 1, EV_CURRENT);
	if (!rd || !sd || !strd || !strd->d_buf || !relsz)
		return;
	size_t n = rd->d_size / relsz;
	struct strbuf names = { 0 };
	size_t *offs = xcalloc(n ? n : 1, sizeof(*offs));
	size_t k = 0;
	for (size_t i = 0; i < n && 16 * (i + 1) <= psh.sh_size; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		if (!gelf_getrela(rd, (int)i, &r) ||
		    !gelf_getsym(sd, (int)GELF_R_SYM(r.r_info), &sym) || sym.st_name >= strd->d_size)
			continue;
		/* symbol 0 (IRELATIVE: an ifunc called from inside the file)
		 * has the empty name, and perf 6.1 names its stub "@plt" */
		const char *nm = (const char *)strd->d_buf + sym.st_name;
		size_t len = strnlen(nm, strd->d_size - sym.st_name);
		offs[i] = names.len + 1;	/* 0 = none */
		sb_append_len(&names, nm, len);
		sb_append_len(&names, "@plt", 5);	/* with its NUL */
		k++;
	}
	if (k) {
		symtab_own(st, names.buf);
		for (size_t i = 0; i < n; i++)
			if (offs[i])
				symtab_add(st, base + 16 * i, base + 16 * (i + 1),
					   names.buf + offs[i] - 1, NULL, 2);
	} else {
		sb_free(&names);
	}
	free(offs);
}

/* An opened ELF file. */
struct elf_file {
	int fd;
	Elf *e;
};

static bool elf_file_open(const char *path, struct elf_file *f)
{
	elf_init();
	f->e = NULL;
	struct stat st;
	f->fd = open_regular(path, 0, &st);
	if (f->fd == -EINVAL && !S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
		pr_warn("%s is %s, not a regular file: its symbols are not read (was it replaced "
			"after the recording?); put the program back or remove the path",
			path, file_type_name(st.st_mode));
	if (f->fd < 0) {
		f->fd = -1;
		return false;
	}
	f->e = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (!f->e || elf_kind(f->e) != ELF_K_ELF || !gelf_getehdr(f->e, &eh)) {
		if (f->e)
			elf_end(f->e);
		close(f->fd);
		f->e = NULL;
		f->fd = -1;
		return false;
	}
	return true;
}

static void elf_file_close(struct elf_file *f)
{
	if (f->e)
		elf_end(f->e);
	if (f->fd >= 0)
		close(f->fd);
	f->e = NULL;
	f->fd = -1;
}

static bool same_build_id(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	/* perf pads build-ids to 20 bytes: compare the shorter length. */
	size_t n = alen < blen ? alen : blen;
	return n > 0 && memcmp(a, b, n) == 0;
}

/* MiniDebugInfo: .gnu_debugdata is an xz-compressed ELF whose .symtab has
 * the functions .dynsym lacks. Its decompressed size is capped: symbol
 * tables compress about 3 to 10 times, so 64 times the section (at least
 * 1 MiB, at most 256 MiB) is generous for a real one, while a corrupt or
 * hostile one (xz packs zeros 7000 to 1) could ask for any amount. */
#define MINIDEBUGINFO_RATIO 64
#define MINIDEBUGINFO_MIN (1u << 20)
#define MINIDEBUGINFO_MAX (256u << 20)
#define MINIDEBUGINFO_DECODER_MEM (64u << 20)

/* The section decompressed into *out (malloc'd): its size, or 0 when it is
 * not sound xz or exceeds the cap (with a warning naming the file). */
static size_t unxz_section(const char *path, const uint8_t *in, size_t in_len, uint8_t **out)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	*out = NULL;
	if (lzma_stream_decoder(&strm, MINIDEBUGINFO_DECODER_MEM, 0) != LZMA_OK)
		return 0;
	size_t limit = in_len > MINIDEBUGINFO_MAX / MINIDEBUGINFO_RATIO ? MINIDEBUGINFO_MAX :
		       in_len * MINIDEBUGINFO_RATIO;
	if (limit < MINIDEBUGINFO_MIN)
		limit = MINIDEBUGINFO_MIN;
	size_t cap = in_len * 4 < limit ? in_len * 4 : limit, len = 0;
	if (cap < 4096)
		cap = 4096;
	uint8_t *buf = xmalloc(cap);
	strm.next_in = in;
	strm.avail_in = in_len;
	lzma_ret ret;
	for (;;) {
		if (len == cap) {
			if (cap >= limit) {
				pr_warn("%s: its MiniDebugInfo (.gnu_debugdata, %zu bytes) decompresses "
					"to more than %zu bytes (%d times its size, at most %u MiB): not "
					"read, only its .dynsym symbols are used; the file may be corrupt",
					path, in_len, limit, MINIDEBUGINFO_RATIO, MINIDEBUGINFO_MAX >> 20);
				ret = LZMA_MEMLIMIT_ERROR;
				break;
			}
			cap = cap * 2 > limit ? limit : cap * 2;
			buf = xrealloc(buf, cap);
		}
		strm.next_out = buf + len;
		strm.avail_out = cap - len;
		ret = lzma_code(&strm, LZMA_FINISH);
		len = cap - strm.avail_out;
		if (ret != LZMA_OK)
			break;
	}
	lzma_end(&strm);
	if (ret != LZMA_STREAM_END) {
		if (ret != LZMA_MEMLIMIT_ERROR || len < cap)
			pr_debug("%s: .gnu_debugdata is not sound xz (liblzma error %d)", path, (int)ret);
		free(buf);
		return 0;
	}
	*out = buf;
	return len;
}

static size_t read_minidebuginfo(Elf *main, const char *path, struct symtab *st)
{
	Elf_Scn *scn;
	if (!has_section(main, ".gnu_debugdata", &scn))
		return 0;
	Elf_Data *d = elf_rawdata(scn, NULL);
	if (!d || !d->d_buf || !d->d_size)
		return 0;
	uint8_t *raw;
	size_t len = unxz_section(path, d->d_buf, d->d_size, &raw);
	if (!len)
		return 0;
	size_t n = 0;
	Elf *e = elf_memory((char *)raw, len);
	if (e && elf_kind(e) == ELF_K_ELF)
		n = read_sym_section(e, SHT_SYMTAB, st);
	if (e)
		elf_end(e);
	free(raw);	/* read_sym_section keeps its own copy of the names */
	return n;
}

/* A separate debug file with a .symtab for the main file: by build-id, then
 * by .gnu_debuglink next to the file, in .debug/ and under /usr/lib/debug. */
static bool load_debug_file(Elf *main, const char *path, const char *root,
			    const uint8_t *bid, size_t bidlen, struct symtab *st)
{
	char *cand[5];
	int nc = 0;
	if (bidlen >= 2) {
		char hex[41];
		sym_hex_id(bid, bidlen, hex);
		cand[nc++] = xasprintf("%s/usr/lib/debug/.build-id/%.2s/%s.debug", root, hex,
				       hex + 2);
		/* perf's build-id cache keeps debug files too (perf buildid-cache). */
		const char *home = getenv("HOME");
		if (home && *home)
			cand[nc++] = xasprintf("%s/.debug/.build-id/%.2s/%s/debug", home, hex,
					       hex + 2);
	}
	Elf_Scn *scn;
	if (has_section(main, ".gnu_debuglink", &scn)) {
		Elf_Data *d = elf_getdata(scn, NULL);
		if (d && d->d_buf && d->d_size > 1) {
			size_t n = strnlen(d->d_buf, d->d_size);
			if (n > 0 && n < 256 && !memchr(d->d_buf, '/', n)) {
				char *link = xstrndup(d->d_buf, n);
				const char *slash = strrchr(path, '/');
				char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
				cand[nc++] = xasprintf("%s%s/%s", root, dir, link);
				cand[nc++] = xasprintf("%s%s/.debug/%s", root, dir, link);
				cand[nc++] = xasprintf("%s/usr/lib/debug%s/%s", root, dir, link);
				free(dir);
				free(link);
			}
		}
	}
	bool done = false;
	for (int i = 0; i < nc && !done; i++) {
		struct elf_file f;
		if (strcmp(cand[i], path) == 0 || !elf_file_open(cand[i], &f))
			continue;
		uint8_t dbid[20];
		size_t dlen = 0;
		bool ok = true;
		if (bidlen && read_build_id(f.e, dbid, &dlen) && !same_build_id(bid, bidlen, dbid, dlen))
			ok = false;
		size_t n = ok ? read_sym_section(f.e, SHT_SYMTAB, st) : 0;
		elf_file_close(&f);
		if (n) {
			pr_debug("symbols of %s from %s", path, cand[i]);
			done = true;
		}
	}
	for (int i = 0; i < nc; i++)
		free(cand[i]);
	return done;
}

static void load_elf_syms(struct elf_file *f, const char *path, const char *root,
			  struct symtab *st)
{
	uint8_t bid[20];
	size_t bidlen = 0;
	read_build_id(f->e, bid, &bidlen);
	size_t n0 = st->n;
	bool symtab = read_sym_section(f->e, SHT_SYMTAB, st);
	if (!symtab) {
		bool mini = has_section(f->e, ".gnu_debugdata", NULL);
		if (!load_debug_file(f->e, path, root, bid, bidlen, st) && mini)
			read_minidebuginfo(f->e, path, st);
		read_sym_section(f->e, SHT_DYNSYM, st);
	}
	/* as perf's dso__load: "<target>@plt" stubs only in a file that gave
	 * symbols of its own, functions or data (a stripped executable that
	 * defines nothing keeps its stubs as addresses; dash, which defines
	 * environ, names them) */
	if (st->n > n0 || has_defined_object(f->e, symtab ? SHT_SYMTAB : SHT_DYNSYM))
		read_plt_syms(f->e, st);
}

bool elf_mem_load_syms(const void *data, size_t size, struct symtab *st, struct seg **segs,
		       size_t *nsegs)
{
	elf_init();
	*segs = NULL;
	*nsegs = 0;
	if (!size)
		return false;
	char *copy = xmalloc(size);
	memcpy(copy, data, size);
	Elf *e = elf_memory(copy, size);
	GElf_Ehdr eh;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		if (e)
			elf_end(e);
		free(copy);
		return false;
	}
	read_segs(e, segs, nsegs);
	if (!read_sym_section(e, SHT_SYMTAB, st))
		read_sym_section(e, SHT_DYNSYM, st);
	elf_end(e);
	free(copy);
	symtab_finish(st, 1);
	return true;
}

/* The vDSO of this process: the same kernel's image as the recorded one's
 * when reporting on the machine that recorded. */
static bool load_vdso(struct dso *d)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return false;
	const unsigned char *img = (const unsigned char *)base;
	if (memcmp(img, ELFMAG, SELFMAG) != 0 || img[EI_CLASS] != ELFCLASS64)
		return false;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	uint64_t size = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	if (size > (1u << 20))
		return false;
	return elf_mem_load_syms(img, size, &d->st, &d->segs, &d->nsegs);
}

/* /tmp/perf-PID.map: "START SIZE name" in hex, absolute addresses. A JIT
 * writes a line per compiled function: 1 GiB is far beyond any real one. */
#define PERF_MAP_MAX ((size_t)1 << 30)
#define PERF_MAP_MAX_TEXT "1 GiB"
static bool load_perf_map(struct dso *d)
{
	char *buf = read_file_max(d->path, PERF_MAP_MAX, NULL);
	if (!buf) {
		if (errno == EINVAL || errno == EFBIG)
			pr_warn("%s: %s: its symbols are not read; remove it or write the map again",
				d->path, errno == EINVAL ? open_regular_strerror(-EINVAL)
				: "larger than " PERF_MAP_MAX_TEXT);
		return false;
	}
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end;
		uint64_t start = strtoull(line, &end, 16);
		if (end == line || *end != ' ')
			continue;
		char *p = end + 1;
		uint64_t size = strtoull(p, &end, 16);
		if (end == p || *end != ' ' || !end[1])
			continue;
		char *name = end + 1;
		size_t n = strlen(name);
		while (n && (name[n - 1] == '\r' || name[n - 1] == ' '))
			name[--n] = '\0';
		if (!n)
			continue;
		symtab_add(&d->st, start, start + size > start ? start + size : 0, name, NULL, 0);
	}
	symtab_own(&d->st, buf);
	symtab_finish(&d->st, 1);
	return true;
}

/* Open a file found by d's build-id (the build-id cache's copy, the
 * distribution's debug file): true when it is there and carries that very
 * build-id; else nothing is left open. */
static bool open_by_build_id(const struct dso *d, const char *cand, struct elf_file *f)
{
	if (!elf_file_open(cand, f))
		return false;
	uint8_t bid[20];
	size_t blen = 0;
	if (read_build_id(f->e, bid, &blen) && same_build_id(d->build_id, d->build_id_len, bid, blen))
		return true;
	elf_file_close(f);
	return false;
}

/* The ELF file found for a DSO, open. */
struct dso_file {
	struct elf_file f;
	char path[4096];	/* its path: the recorded one, or the copy's found by build-id */
	char root[64];		/* "" or the /proc/PID/root the recorded path was found under */
	char opened[4096 + 64];	/* what was opened: root and path */
};

/* perf's build-id cache first: the file as it was when recorded, even
 * when it was rebuilt, deleted or lived in a container now gone. */
static bool open_cached(const struct dso *d, const struct dso_load_opts *o, struct dso_file *df)
{
	char *cached = d->build_id_len ?
		buildid_cache_lookup(o->buildid_dir, d->build_id, d->build_id_len, "elf") : NULL;
	bool found = cached && open_by_build_id(d, cached, &df->f);
	if (found) {
		snprintf(df->opened, sizeof(df->opened), "%.4000s", cached);
		snprintf(df->path, sizeof(df->path), "%.4000s", cached);
	}
	free(cached);
	return found;
}

/* The recorded path, and when live under the process's /proc/PID/root:
 * a file there with another build-id than the recorded one is not taken
 * (*mismatch set). */
static bool open_recorded(const struct dso *d, const struct dso_load_opts *o,
			  struct dso_file *df, bool *mismatch)
{
	int nroots = o->live && d->pid > 0 ? 2 : 1;	/* as is, then under the root */
	df->root[0] = '\0';
	for (int r = 0; r < nroots; r++) {
		if (r)
			snprintf(df->root, sizeof(df->root), "/proc/%d/root", d->pid);
		snprintf(df->opened, sizeof(df->opened), "%s%s", df->root, df->path);
		if (!elf_file_open(df->opened, &df->f))
			continue;
		if (d->build_id_len) {
			uint8_t bid[20];
			size_t blen = 0;
			if (read_build_id(df->f.e, bid, &blen) &&
			    !same_build_id(d->build_id, d->build_id_len, bid, blen)) {
				*mismatch = true;
				elf_file_close(&df->f);
				continue;
			}
		}
		return true;
	}
	df->root[0] = '\0';
	return false;
}

/* The recorded file was replaced: the distribution's debug file (which
 * keeps the program headers and symbols). */
static bool open_debug_file(const struct dso *d, struct dso_file *df)
{
	if (!d->build_id_len)
		return false;
	char hex[41];
	sym_hex_id(d->build_id, d->build_id_len, hex);
	char cand[4096];
	snprintf(cand, sizeof(cand), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	if (!open_by_build_id(d, cand, &df->f))
		return false;
	snprintf(df->opened, sizeof(df->opened), "%.4000s", cand);
	snprintf(df->path, sizeof(df->path), "%.4000s", cand);
	return true;
}

/* Symbols of one DSO from the first source that matches: perf's build-id
 * cache, the recorded path (also under the process's /proc/PID/root), and
 * when its build id differs, the distribution's debug file. */
void dso_load(struct dso *d, const struct dso_load_opts *o)
{
	if (d->loaded)
		return;
	d->loaded = true;
	if (d->kind == DSO_VDSO) {
		d->usable = load_vdso(d);
		return;
	}
	if (d->kind == DSO_PERFMAP) {
		d->usable = load_perf_map(d);
		return;
	}
	if (d->kind != DSO_ELF)
		return;

	struct dso_file df = { .f = { .fd = -1 } };
	/* The path as recorded, without the " (deleted)" of replaced files. */
	snprintf(df.path, sizeof(df.path), "%s", d->path);
	size_t pl = strlen(df.path);
	if (pl > 10 && strcmp(df.path + pl - 10, " (deleted)") == 0)
		df.path[pl - 10] = '\0';

	bool mismatch = false;
	if (!open_cached(d, o, &df) && !open_recorded(d, o, &df, &mismatch) &&
	    !open_debug_file(d, &df)) {
		if (mismatch) {
			char hex[41];
			sym_hex_id(d->build_id, d->build_id_len, hex);
			pr_debug("%s: build-id differs from the recorded %s and no copy was found "
				 "by build-id; its addresses stay unresolved", d->path, hex);
		} else {
			pr_debug("%s: cannot open as an ELF file; its addresses stay unresolved",
				 d->path);
		}
		return;
	}
	read_segs(df.f.e, &d->segs, &d->nsegs);
	load_elf_syms(&df.f, df.path, df.root, &d->st);
	elf_file_close(&df.f);
	symtab_finish(&d->st, 1);
	d->usable = true;
	pr_debug("%s: %zu function symbols from %s", d->path, d->st.n, df.opened);
}

size_t elf_path_build_id(const char *path, uint8_t *id, size_t cap)
{
	struct elf_file f;
	uint8_t bid[20];
	size_t len = 0;
	if (!elf_file_open(path, &f))
		return 0;
	if (!read_build_id(f.e, bid, &len) || len > cap)
		len = 0;
	else
		memcpy(id, bid, len);
	elf_file_close(&f);
	return len;
}

void dso_free(struct dso *d)
{
	symtab_free(&d->st);
	free(d->segs);
	free(d);
}

bool dso_off_to_vaddr(const struct dso *d, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < d->nsegs; i++) {
		const struct seg *s = &d->segs[i];
		if (off >= s->off && off - s->off < s->filesz) {
			*vaddr = off - s->off + s->vaddr;
			return true;
		}
	}
	return false;
}

/* Every symbol named name in .symtab and .dynsym, with its type, value and
 * size, whatever its kind (functions, data, undefined imports), the same
 * symbol in both tables once. */
long elf_find_syms(const char *path, const char *name, struct elf_sym_match *m, size_t cap,
		   struct seg **segs, size_t *nsegs)
{
	elf_init();
	*segs = NULL;
	*nsegs = 0;
	int fd = open_regular(path, 0, NULL);
	if (fd < 0)
		return fd;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		if (e)
			elf_end(e);
		close(fd);
		return -ENOEXEC;
	}
	size_t n = 0;
	Elf_Scn *scn = NULL;
	size_t entsize = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
	while (entsize && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh, strsh;
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		Elf_Scn *strscn = elf_getscn(e, sh.sh_link);
		Elf_Data *data = elf_getdata(scn, NULL);
		Elf_Data *strd = strscn && gelf_getshdr(strscn, &strsh) &&
				 strsh.sh_type == SHT_STRTAB ? elf_getdata(strscn, NULL) : NULL;
		if (!data || !strd || !strd->d_buf)
			continue;
		size_t nsyms = data->d_size / entsize;
		for (size_t i = 1; i < nsyms; i++) {
			GElf_Sym s;
			if (!gelf_getsym(data, (int)i, &s) || s.st_name >= strd->d_size)
				continue;
			const char *nm = (const char *)strd->d_buf + s.st_name;
			size_t left = strd->d_size - s.st_name;
			if (strnlen(nm, left) == left || strcmp(nm, name) != 0)
				continue;
			struct elf_sym_match x = {
				.value = s.st_value, .size = s.st_size,
				.type = GELF_ST_TYPE(s.st_info),
				.defined = s.st_shndx != SHN_UNDEF,
				.func = is_func_sym(&s),
			};
			if (eh.e_machine == EM_ARM)
				x.value &= ~1ull;	/* Thumb bit */
			bool seen = false;
			for (size_t j = 0; j < n && j < cap && !seen; j++)
				seen = m[j].value == x.value && m[j].type == x.type &&
				       m[j].defined == x.defined;
			if (seen)
				continue;
			if (n < cap)
				m[n] = x;
			n++;
		}
	}
	read_segs(e, segs, nsegs);
	elf_end(e);
	close(fd);
	return (long)n;
}
