// SPDX-License-Identifier: GPL-2.0-only
/* Symbolization: kallsyms, BPF ksymbols, user ELF files (this test binary
 * itself, through its own /proc/self/maps), perf-PID.map JIT symbols,
 * demangling, unresolved forms, comm/fork/exit. No privileges needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym/buildid.h"
#include "sym/machine.h"
#include "sym/sym_int.h"
#include "util.h"

__attribute__((noinline)) int test_sym_target_function(int x)
{
	/* Some body so that the function has a size and an inside. */
	volatile int acc = x;
	for (int i = 0; i < 10; i++)
		acc = acc * 3 + i;
	return acc;
}

static char *write_temp(const char *content)
{
	char *path = xstrdup("/tmp/bpfperf-test-sym-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return path;
}

static const char *KALLSYMS =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t core_func_a\n"
	"ffffffff81000200 T core_func_b\n"
	"ffffffff81000300 D some_data\n"
	"ffffffff81000400 W weak_func\n"
	"ffffffff81000500 T _etext\n"
	"0000000000000000 A fixed_percpu_data\n"
	"garbage line\n"
	"ffffffff8100060\n"
	"ffffffff81000700 t\n"
	"zzzz t bad_addr\n"
	"\n"
	"ffffffffc0001000 t mod_func_a\t[mymod]\n"
	"ffffffffc0001080 T mod_func_b\t[mymod]\n"
	"ffffffffc0002000 t bpf_prog_0123456789abcdef_live\t[bpf]\n"
	"ffffffffc0010000 t ftrace_tramp\t[__builtin__ftrace]\n";

static const char *MODULES = "mymod 4096 0 - Live 0xffffffffc0001000\n";

static struct machine *kmachine(char **kpath, char **mpath)
{
	*kpath = write_temp(KALLSYMS);
	*mpath = write_temp(MODULES);
	struct machine_opts o = { .kallsyms = *kpath, .modules = *mpath };
	return machine_new(&o);
}

static void free_kmachine(struct machine *m, char *kpath, char *mpath)
{
	machine_free(m);
	unlink(kpath);
	unlink(mpath);
	free(kpath);
	free(mpath);
}

static void test_kallsyms(void **state)
{
	(void)state;
	char *kp, *mp;
	struct machine *m = kmachine(&kp, &mp);
	struct resolved r;

	machine_resolve(m, 1, 1, 0xffffffff81000150ull, AS_KERNEL, &r);
	assert_true(r.found);
	assert_string_equal(r.sym, "core_func_a");
	assert_string_equal(r.dso, "[kernel.kallsyms]");
	assert_int_equal(r.level, 'k');
	assert_true(r.sym_start == 0xffffffff81000100ull);

	/* A symbol ends where the next one (of any type) starts. */
	machine_resolve(m, 1, 1, 0xffffffff810002ffull, AS_KERNEL, &r);
	assert_string_equal(r.sym, "core_func_b");
	machine_resolve(m, 1, 1, 0xffffffff81000300ull, AS_KERNEL, &r);
	assert_false(r.found);
	assert_string_equal(r.dso, "[kernel.kallsyms]");
	assert_string_equal(r.sym, "0xffffffff81000300");
	machine_resolve(m, 1, 1, 0xffffffff81000410ull, AS_KERNEL, &r);
	assert_string_equal(r.sym, "weak_func");

	/* Aliases: the one without leading underscores... all have them: _stext/_text. */
	machine_resolve(m, 1, 1, 0xffffffff81000010ull, AS_KERNEL, &r);
	assert_true(r.found);
	assert_true(strcmp(r.sym, "_stext") == 0 || strcmp(r.sym, "_text") == 0);

	/* Modules: dso "[mod]", bounded by /proc/modules. */
	machine_resolve(m, 1, 1, 0xffffffffc0001090ull, AS_KERNEL, &r);
	assert_string_equal(r.sym, "mod_func_b");
	assert_string_equal(r.dso, "[mymod]");
	machine_resolve(m, 1, 1, 0xffffffffc0001fffull, AS_KERNEL, &r);
	assert_true(r.found);
	machine_resolve(m, 1, 1, 0xffffffffc0001800ull, AS_UNKNOWN, &r);
	assert_string_equal(r.dso, "[mymod]");
	assert_int_equal(r.level, 'k');

	/* Live BPF programs from kallsyms: dso = sym = the program. */
	machine_resolve(m, 1, 1, 0xffffffffc0002010ull, AS_KERNEL, &r);
	assert_string_equal(r.sym, "bpf_prog_0123456789abcdef_live");
	assert_string_equal(r.dso, "bpf_prog_0123456789abcdef_live");
	/* [__builtin__*] symbols belong to the kernel. */
	machine_resolve(m, 1, 1, 0xffffffffc0010004ull, AS_KERNEL, &r);
	assert_string_equal(r.dso, "[kernel.kallsyms]");
	assert_string_equal(r.sym, "ftrace_tramp");

	/* Below every symbol. */
	machine_resolve(m, 1, 1, 0xffffffff80000000ull, AS_KERNEL, &r);
	assert_false(r.found);
	assert_string_equal(r.sym, "0xffffffff80000000");

	/* Cached results are identical (interned pointers). */
	struct resolved r2;
	machine_resolve(m, 1, 1, 0xffffffff81000150ull, AS_KERNEL, &r);
	machine_resolve(m, 7, 7, 0xffffffff81000150ull, AS_KERNEL, &r2);
	assert_ptr_equal(r.sym, r2.sym);
	assert_ptr_equal(r.sym, machine_intern(m, "core_func_a"));
	free_kmachine(m, kp, mp);
}

static void test_kallsyms_bad(void **state)
{
	(void)state;
	struct resolved r;
	/* Missing file. */
	struct machine_opts o = { .kallsyms = "/nonexistent/kallsyms", .modules = "/nonexistent" };
	struct machine *m = machine_new(&o);
	machine_resolve(m, 1, 1, 0xffffffff81000150ull, AS_KERNEL, &r);
	assert_false(r.found);
	assert_string_equal(r.sym, "0xffffffff81000150");
	assert_int_equal(r.level, 'k');
	machine_free(m);

	/* Hidden addresses (kptr_restrict). */
	char *kp = write_temp("0000000000000000 T _text\n0000000000000000 t foo\n");
	o.kallsyms = kp;
	m = machine_new(&o);
	machine_resolve(m, 1, 1, 0xffffffff81000150ull, AS_KERNEL, &r);
	assert_false(r.found);
	machine_free(m);
	unlink(kp);
	free(kp);

	/* Binary junk and a huge name. */
	char junk[9000];
	for (size_t i = 0; i < sizeof(junk) - 1; i++)
		junk[i] = (char)(i * 37 % 251 + 1);
	memcpy(junk, "ffffffff81000000 t ", 19);
	junk[sizeof(junk) - 1] = '\0';
	kp = write_temp(junk);
	o.kallsyms = kp;
	m = machine_new(&o);
	machine_resolve(m, 1, 1, 0xffffffff81000001ull, AS_KERNEL, &r);
	machine_resolve(m, 1, 1, 0xffffffffffffffffull, AS_KERNEL, &r);
	machine_free(m);
	unlink(kp);
	free(kp);
}

/* A kallsyms file larger than the reader's 1 MiB blocks: lines cut by block
 * ends, a last line without a newline, and one out of order (sorted again). */
/* A small kallsyms file (a test's, a fuzzer's, a short copy) gets a table and
 * a read buffer sized by the file, not the 128Ki lines (8 MiB) that
 * /proc/kallsyms, which has no size, is given at once: fuzzing loaded tiny
 * files at a few per second because of it. */
static void test_kallsyms_small_file(void **state)
{
	(void)state;
	char *kp = write_temp(KALLSYMS);
	struct strtab *strs = strtab_new();
	struct symtab st = { 0 };
	bool hidden;
	assert_true(kallsyms_load(kp, "/nonexistent", strs, &st, &hidden) > 0);
	assert_true(st.cap <= 1024);
	symtab_free(&st);
	strtab_free(strs);
	unlink(kp);
	free(kp);
}

static void test_kallsyms_blocks(void **state)
{
	(void)state;
	enum { N = 60000 };
	struct strbuf sb = { 0 };
	char line[160];
	for (int i = 0; i < N; i++) {
		/* names of varying length so that block ends fall inside lines */
		snprintf(line, sizeof(line), "%016llx t func_%d_%.*s\n",
			 0xffffffff81000000ull + (unsigned long long)i * 0x40, i, i % 23 + 1,
			 "abcdefghijklmnopqrstuvwxyz");
		sb_append(&sb, line);
	}
	sb_append(&sb, "ffffffff80f00000 T early_func");	/* no newline, lower address */
	assert_true(sb.len > (2u << 20));
	char *kp = write_temp(sb.buf);
	free(sb.buf);
	struct machine_opts o = { .kallsyms = kp, .modules = "/nonexistent" };
	struct machine *m = machine_new(&o);
	struct resolved r;
	for (int i = 0; i < N; i++) {
		char want[64];
		snprintf(want, sizeof(want), "func_%d_%.*s", i, i % 23 + 1, "abcdefghijklmnopqrstuvwxyz");
		machine_resolve(m, 1, 1, 0xffffffff81000000ull + (uint64_t)i * 0x40 + 8, AS_KERNEL, &r);
		assert_true(r.found);
		assert_string_equal(r.sym, want);
	}
	machine_resolve(m, 1, 1, 0xffffffff80f00010ull, AS_KERNEL, &r);
	assert_true(r.found);
	assert_string_equal(r.sym, "early_func");
	machine_free(m);
	unlink(kp);
	free(kp);
}

/* Overlong lines (not kallsyms: a name is at most 512 bytes) are skipped up
 * to their newline, across block ends, and the lines around them still load;
 * a file of one overlong line loads nothing. */
static void test_kallsyms_long_lines(void **state)
{
	(void)state;
	struct strbuf sb = { 0 };
	sb_append(&sb, "ffffffff81000000 T before_func\n");
	sb_append(&sb, "ffffffff81000100 T ");
	for (int i = 0; i < (3 << 20) / 64; i++)	/* 3 MiB: crosses two block ends */
		sb_append(&sb, "long_name_long_name_long_name_long_name_long_name_long_name_1234");
	sb_append(&sb, "\nffffffff81000200 T after_func\n");
	sb_append(&sb, "ffffffff81000300 T ");
	for (int i = 0; i < 100; i++)			/* 6.4 KB at the end, no newline */
		sb_append(&sb, "long_name_long_name_long_name_long_name_long_name_long_name_1234");
	char *kp = write_temp(sb.buf);
	free(sb.buf);
	struct machine_opts o = { .kallsyms = kp, .modules = "/nonexistent" };
	struct machine *m = machine_new(&o);
	struct resolved r;
	machine_resolve(m, 1, 1, 0xffffffff81000008ull, AS_KERNEL, &r);
	assert_true(r.found);
	assert_string_equal(r.sym, "before_func");
	machine_resolve(m, 1, 1, 0xffffffff81000208ull, AS_KERNEL, &r);
	assert_true(r.found);
	assert_string_equal(r.sym, "after_func");
	machine_resolve(m, 1, 1, 0xffffffff81000308ull, AS_KERNEL, &r);
	assert_true(!r.found || strcmp(r.sym, "after_func") == 0);
	machine_free(m);
	unlink(kp);
	free(kp);
}

/* perf's build-id cache copy of kallsyms: found for the running kernel's
 * build-id and KASLR offset only, used without its BPF programs and
 * trampolines, and refused when the loaded modules differ. */
static void put_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void put_notes(const char *path, uint8_t first)
{
	uint8_t n[64] = { 0 };
	uint32_t hdr[3] = { 4, 4, 1 };	/* another note first: name "Linux", type 1 */
	size_t off = 0;
	hdr[0] = 6;
	memcpy(n, hdr, 12);
	memcpy(n + 12, "Linux", 6);
	off = 12 + 8 + 4;
	uint32_t gnu[3] = { 4, 20, 3 };
	memcpy(n + off, gnu, 12);
	memcpy(n + off + 12, "GNU", 4);
	for (int i = 0; i < 20; i++)
		n[off + 16 + i] = (uint8_t)(first + i);
	put_file(path, n, off + 36);
}

static void test_kallsyms_copy(void **state)
{
	(void)state;
	char dir[] = "/tmp/bpfperf-test-kcopy-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char notes[128], proc[128], mods[128], cache[256], copy[512], found[512];
	snprintf(notes, sizeof(notes), "%s/notes", dir);
	snprintf(proc, sizeof(proc), "%s/kallsyms", dir);
	snprintf(mods, sizeof(mods), "%s/modules", dir);
	snprintf(cache, sizeof(cache), "%s/[kernel.kallsyms]", dir);
	assert_int_equal(mkdir(cache, 0700), 0);
	snprintf(cache, sizeof(cache), "%s/[kernel.kallsyms]/a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3", dir);
	assert_int_equal(mkdir(cache, 0700), 0);
	snprintf(copy, sizeof(copy), "%s/kallsyms", cache);
	put_notes(notes, 0xa0);
	put_file(proc, KALLSYMS, strlen(KALLSYMS));
	put_file(copy, KALLSYMS, strlen(KALLSYMS));
	put_file(mods, MODULES, strlen(MODULES));
	struct ksources src = { .notes = notes, .proc_kallsyms = proc, .buildid_dir = dir };

	assert_true(kallsyms_find_copy(&src, found, sizeof(found)));
	assert_string_equal(found, copy);

	struct strtab *strs = strtab_new();
	struct symtab st = { 0 };
	assert_true(kallsyms_load_copy(found, mods, strs, &st) > 0);
	const struct sym *s = symtab_find(&st, 0xffffffff81000150ull);
	assert_non_null(s);
	assert_string_equal(s->name, "core_func_a");
	s = symtab_find(&st, 0xffffffffc0001090ull);
	assert_non_null(s);
	assert_string_equal(s->aux, "[mymod]");
	/* BPF programs and trampolines of the copy are not used */
	s = symtab_find(&st, 0xffffffffc0002010ull);
	assert_true(!s || strcmp(s->name, "bpf_prog_0123456789abcdef_live") != 0);
	s = symtab_find(&st, 0xffffffffc0010004ull);
	assert_true(!s || strcmp(s->name, "ftrace_tramp") != 0);
	symtab_free(&st);

	/* the modules loaded now differ: gone, moved, or one more */
	const char *stale[] = { "othermod 4096 0 - Live 0xffffffffc0001000\n",
				"mymod 4096 0 - Live 0xffffffffc0100000\n",
				"mymod 4096 0 - Live 0xffffffffc0001000\nnewmod 4096 0 - Live 0xffffffffc0200000\n" };
	for (size_t i = 0; i < sizeof(stale) / sizeof(stale[0]); i++) {
		put_file(mods, stale[i], strlen(stale[i]));
		memset(&st, 0, sizeof(st));
		assert_int_equal(kallsyms_load_copy(found, mods, strs, &st), -ESTALE);
		assert_int_equal(st.n, 0);
	}
	strtab_free(strs);

	/* another boot's KASLR offset: the kernel text moved */
	const char *moved = "ffffffff9a000000 T _text\nffffffff9a000100 t core_func_a\n";
	put_file(proc, moved, strlen(moved));
	assert_false(kallsyms_find_copy(&src, found, sizeof(found)));
	put_file(proc, KALLSYMS, strlen(KALLSYMS));
	/* another kernel: no copy under its build-id */
	put_notes(notes, 0x10);
	assert_false(kallsyms_find_copy(&src, found, sizeof(found)));
	/* truncated or junk notes */
	put_file(notes, "\x04\x00\x00\x00\xff\xff", 6);
	assert_false(kallsyms_find_copy(&src, found, sizeof(found)));
	put_file(notes, "", 0);
	assert_false(kallsyms_find_copy(&src, found, sizeof(found)));

	unlink(copy);
	rmdir(cache);
	snprintf(cache, sizeof(cache), "%s/[kernel.kallsyms]", dir);
	rmdir(cache);
	unlink(notes);
	unlink(proc);
	unlink(mods);
	rmdir(dir);
}

static void test_bpf_ksymbol(void **state)
{
	(void)state;
	char *kp, *mp;
	struct machine *m = kmachine(&kp, &mp);
	struct resolved r;
	const uint64_t a = 0xffffffffa0000000ull;

	machine_ksymbol(m, a, 0x100, "bpf_prog_aaaaaaaaaaaaaaaa_first", false);
	machine_resolve(m, 1, 1, a + 0x10, AS_KERNEL, &r);
	assert_true(r.found);
	assert_string_equal(r.sym, "bpf_prog_aaaaaaaaaaaaaaaa_first");
	assert_ptr_equal(r.dso, r.sym);
	assert_int_equal(r.level, 'k');
	assert_true(r.sym_start == a);
	machine_resolve(m, 1, 1, a + 0x100, AS_KERNEL, &r);
	assert_false(r.found);

	/* Unloaded: still resolves (earlier samples, and later ones too). */
	machine_ksymbol(m, a, 0x100, "bpf_prog_aaaaaaaaaaaaaaaa_first", true);
	machine_resolve(m, 1, 1, a + 0x10, AS_KERNEL, &r);
	assert_string_equal(r.sym, "bpf_prog_aaaaaaaaaaaaaaaa_first");

	/* A new program over part of it replaces it. */
	machine_ksymbol(m, a + 0x80, 0x100, "bpf_prog_bbbbbbbbbbbbbbbb_second", false);
	machine_resolve(m, 1, 1, a + 0x90, AS_KERNEL, &r);
	assert_string_equal(r.sym, "bpf_prog_bbbbbbbbbbbbbbbb_second");
	machine_resolve(m, 1, 1, a + 0x10, AS_KERNEL, &r);
	assert_false(r.found);

	/* KSYMBOL ranges take precedence over kallsyms (even after a cached lookup). */
	machine_resolve(m, 1, 1, 0xffffffff81000150ull, AS_KERNEL, &r);
	assert_string_equal(r.sym, "core_func_a");
	machine_ksymbol(m, 0xffffffff81000140ull, 0x20, "bpf_prog_cccccccccccccccc_over", false);
	machine_resolve(m, 1, 1, 0xffffffff81000150ull, AS_KERNEL, &r);
	assert_string_equal(r.sym, "bpf_prog_cccccccccccccccc_over");
	machine_resolve(m, 1, 1, 0xffffffff81000130ull, AS_KERNEL, &r);
	assert_string_equal(r.sym, "core_func_a");

	/* Subprograms are separate ranges. */
	machine_ksymbol(m, a + 0x1000, 0x40, "bpf_prog_dddddddddddddddd_F", false);
	machine_ksymbol(m, a + 0x2000, 0x40, "bpf_prog_eeeeeeeeeeeeeeee_main", false);
	machine_resolve(m, 1, 1, a + 0x1010, AS_KERNEL, &r);
	assert_string_equal(r.sym, "bpf_prog_dddddddddddddddd_F");
	machine_resolve(m, 1, 1, a + 0x2010, AS_KERNEL, &r);
	assert_string_equal(r.sym, "bpf_prog_eeeeeeeeeeeeeeee_main");

	/* Program info from the file header: names programs without KSYMBOL,
	 * never overrides one. */
	uint64_t ksyms[2] = { a + 0x3000, a + 0x2000 };
	uint32_t lens[2] = { 0x50, 0x50 };
	uint8_t tags[2][BPF_TAG_SIZE] = { { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 },
					   { 0xff, 0, 0, 0, 0, 0, 0, 0x11 } };
	struct bpf_prog_info info = { 0 };
	memcpy(info.tag, tags[0], BPF_TAG_SIZE);
	snprintf(info.name, sizeof(info.name), "demo_prog");
	info.nr_jited_ksyms = 2;
	info.nr_jited_func_lens = 2;
	info.nr_prog_tags = 2;
	info.jited_ksyms = (uint64_t)(uintptr_t)ksyms;
	info.jited_func_lens = (uint64_t)(uintptr_t)lens;
	info.prog_tags = (uint64_t)(uintptr_t)tags;
	machine_bpf_prog_info(m, &info);
	machine_resolve(m, 1, 1, a + 0x3010, AS_KERNEL, &r);
	assert_string_equal(r.sym, "bpf_prog_0102030405060708_demo_prog");
	machine_resolve(m, 1, 1, a + 0x2010, AS_KERNEL, &r);
	assert_string_equal(r.sym, "bpf_prog_eeeeeeeeeeeeeeee_main");
	free_kmachine(m, kp, mp);
}

/* Feed this process's executable maps into the machine as pid. */
static void feed_self_maps(struct machine *m, int pid, char *exe_path, size_t exe_len,
			   uint64_t *exe_start, uint64_t *exe_end, uint64_t *exe_pgoff)
{
	FILE *f = fopen("/proc/self/maps", "r");
	assert_non_null(f);
	char line[4096];
	uintptr_t fn = (uintptr_t)&test_sym_target_function;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8], path[4096] = "";
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &s, &e, perms, &off,
			   path) < 4)
			continue;
		char *p = path;
		while (*p == ' ')
			p++;
		uint32_t prot = (perms[0] == 'r' ? PROT_READ : 0) |
				(perms[1] == 'w' ? PROT_WRITE : 0) | (perms[2] == 'x' ? PROT_EXEC : 0);
		machine_mmap(m, pid, pid, s, e - s, off, p, NULL, 0, prot, false);
		if (fn >= s && fn < e && exe_path) {
			snprintf(exe_path, exe_len, "%s", p);
			*exe_start = s;
			*exe_end = e;
			*exe_pgoff = off;
		}
	}
	fclose(f);
}

/* A file gone since the recording: HEADER_BUILD_ID gives its build-id (its
 * map has none) and the build-id cache has its copy, under perf's layout. */
static void test_buildid_cache_copy(void **state)
{
	(void)state;
	char exe[4096] = "";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	uint8_t id[20];
	size_t idlen = buildid_of_file(exe, id, sizeof(id));
	if (!idlen)
		skip();	/* linked without a build-id */
	char dir[] = "/tmp/bpfperf-test-bidcache-XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct buildid_cache *c = buildid_cache_open(dir, NULL);
	assert_int_equal(buildid_cache_add(c, "/gone/prog", exe, "elf", id, idlen, false), 0);
	buildid_cache_close(c, NULL);

	struct machine_opts mo = { .buildid_dir = dir };
	struct machine *m = machine_new(&mo);
	machine_build_id(m, "/gone/prog", id, idlen);
	int pid = getpid();
	char mapped[4096] = "";
	uint64_t s = 0, e = 0, off = 0;
	struct machine *probe = machine_new(NULL);	/* where this binary's text is */
	feed_self_maps(probe, pid, mapped, sizeof(mapped), &s, &e, &off);
	machine_free(probe);
	machine_mmap(m, 4243, 4243, s, e - s, off, "/gone/prog", NULL, 0, PROT_READ | PROT_EXEC, false);
	struct resolved r;
	uintptr_t fn = (uintptr_t)&test_sym_target_function;
	machine_resolve(m, 4243, 4243, fn + 4, AS_USER, &r);
	assert_true(r.found);
	assert_string_equal(r.sym, "test_sym_target_function");
	assert_string_equal(r.dso, "prog");
	machine_free(m);

	/* Without the cache, the file is gone: no symbol. */
	char empty[] = "/tmp/bpfperf-test-bidcache-XXXXXX";
	assert_non_null(mkdtemp(empty));
	mo.buildid_dir = empty;
	m = machine_new(&mo);
	machine_build_id(m, "/gone/prog", id, idlen);
	machine_mmap(m, 4243, 4243, s, e - s, off, "/gone/prog", NULL, 0, PROT_READ | PROT_EXEC, false);
	machine_resolve(m, 4243, 4243, fn + 4, AS_USER, &r);
	assert_false(r.found);
	machine_free(m);
	char *cmd = xasprintf("rm -rf '%s' '%s'", dir, empty);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void test_user_self(void **state)
{
	(void)state;
	struct machine *m = machine_new(NULL);
	int pid = getpid();
	char exe[4096] = "";
	uint64_t s = 0, e = 0, off = 0;
	feed_self_maps(m, pid, exe, sizeof(exe), &s, &e, &off);
	assert_true(exe[0] == '/');
	const char *base = strrchr(exe, '/') + 1;

	struct resolved r;
	uintptr_t fn = (uintptr_t)&test_sym_target_function;
	machine_resolve(m, pid, pid, fn + 4, AS_USER, &r);
	assert_true(r.found);
	assert_string_equal(r.sym, "test_sym_target_function");
	assert_string_equal(r.dso, base);
	assert_string_equal(r.dso_path, exe);
	assert_int_equal(r.level, '.');
	assert_true(r.rel_addr == r.sym_start + 4);

	/* PIE/relocation: the same file mapped elsewhere (another process)
	 * resolves through pgoff and the PT_LOAD segments, not the address. */
	const uint64_t fake = 0x555500000000ull;
	machine_mmap(m, 4242, 4242, fake, e - s, off, exe, NULL, 0, PROT_READ | PROT_EXEC, false);
	struct resolved r2;
	machine_resolve(m, 4242, 4242, fake + (fn - s) + 4, AS_USER, &r2);
	assert_true(r2.found);
	assert_ptr_equal(r2.sym, r.sym);
	assert_true(r2.rel_addr == r.rel_addr);

	/* PLT0, the resolver stub before the first "<target>@plt", belongs to
	 * _init (size 0: it ends where the next symbol starts, as perf's
	 * symbols__fixup_end has it), not to nothing. */
	uint64_t init_addr = 0, plt_addr = 0, init_file = 0;
	int efd = open(exe, O_RDONLY);
	elf_version(EV_CURRENT);
	Elf *el = efd >= 0 ? elf_begin(efd, ELF_C_READ, NULL) : NULL;
	size_t shstr;
	if (el && elf_getshdrstrndx(el, &shstr) == 0) {
		for (Elf_Scn *scn = NULL; (scn = elf_nextscn(el, scn));) {
			GElf_Shdr sh;
			const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(el, shstr, sh.sh_name) : NULL;
			if (n && !strcmp(n, ".init"))
				init_file = sh.sh_addr;
			if (n && !strcmp(n, ".plt") && !plt_addr)
				plt_addr = sh.sh_addr;
		}
	}
	if (el)
		elf_end(el);
	if (efd >= 0)
		close(efd);
	extern void _init(void);
	init_addr = (uintptr_t)&_init;
	if (init_file && plt_addr > init_file) {
		machine_resolve(m, pid, pid, init_addr + (plt_addr - init_file) + 6, AS_USER, &r);
		assert_true(r.found);
		assert_string_equal(r.sym, "_init");
	}

	/* A libc function through the same maps. */
	uintptr_t libc_fn = (uintptr_t)&getpid;
	machine_resolve(m, pid, pid, libc_fn, AS_USER, &r);
	assert_true(r.found);
	assert_non_null(strstr(r.dso, "libc"));
	assert_non_null(strstr(r.sym, "getpid"));

	/* The vDSO: some address of it resolves to a __vdso_ / clock symbol. */
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	unsigned long long vs = 0, ve = 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]"))
			sscanf(line, "%llx-%llx", &vs, &ve);
	fclose(f);
	if (vs) {
		bool any = false;
		for (uint64_t a = vs; a < ve && !any; a += 8) {
			machine_resolve(m, pid, pid, a, AS_USER, &r);
			assert_string_equal(r.dso, "[vdso]");
			any = r.found;
		}
		assert_true(any);
	}
	machine_free(m);
}

/* libc's PLT stubs for IRELATIVE relocations (ifuncs called from inside
 * libc) have no target symbol: perf 6.1 names them "@plt", the empty name
 * it reads for symbol 0, and so do we, rather than leave the address bare. */
static void test_plt_irelative(void **state)
{
	(void)state;
	struct machine *m = machine_new(NULL);
	int pid = getpid();
	char exe[4096] = "";
	uint64_t s = 0, e = 0, off = 0;
	feed_self_maps(m, pid, exe, sizeof(exe), &s, &e, &off);
	struct resolved r;
	machine_resolve(m, pid, pid, (uintptr_t)&getpid, AS_USER, &r);
	assert_true(r.found);
	char libc[4096];
	snprintf(libc, sizeof(libc), "%s", r.dso_path);

	int fd = open(libc, O_RDONLY);
	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	Elf *el = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(el);
	size_t shstr;
	assert_int_equal(elf_getshdrstrndx(el, &shstr), 0);
	GElf_Shdr plt = { 0 }, rela = { 0 };
	Elf_Scn *rscn = NULL;
	bool pltsec = false;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(el, scn));) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(el, shstr, sh.sh_name) : NULL;
		if (n && !strcmp(n, ".plt"))
			plt = sh;
		if (n && !strcmp(n, ".plt.sec"))
			pltsec = true;
		if (n && !strcmp(n, ".rela.plt")) {
			rela = sh;
			rscn = scn;
		}
	}
	long irel = -1;
	Elf_Data *rd = rscn ? elf_getdata(rscn, NULL) : NULL;
	for (size_t i = 0; rd && rela.sh_entsize && i < rela.sh_size / rela.sh_entsize && irel < 0; i++) {
		GElf_Rela rl;
		if (gelf_getrela(rd, (int)i, &rl) && GELF_R_SYM(rl.r_info) == 0)
			irel = (long)i;
	}
	elf_end(el);
	close(fd);
	if (irel < 0 || pltsec || !plt.sh_addr) {
		fprintf(stderr, "SKIP-NOTE: %s has no IRELATIVE PLT stub in .plt; not checked\n", libc);
		machine_free(m);
		return;
	}
	/* libc mapped whole at a base of our choosing, another process */
	struct stat st;
	assert_int_equal(stat(libc, &st), 0);
	const uint64_t base = 0x7f0000000000ull;
	machine_mmap(m, 4343, 4343, base, (uint64_t)st.st_size, 0, libc, NULL, 0, PROT_READ | PROT_EXEC, false);
	machine_resolve(m, 4343, 4343, base + plt.sh_addr + 16 + 16 * (uint64_t)irel + 4, AS_USER, &r);
	assert_true(r.found);
	assert_string_equal(r.sym, "@plt");
	machine_free(m);
}

static void test_unresolved(void **state)
{
	(void)state;
	struct machine *m = machine_new(NULL);
	struct resolved r;
	machine_mmap(m, 10, 10, 0x1000000, 0x4000, 0x2000, "/nonexistent/libfoo.so.1", NULL, 0,
		     PROT_READ | PROT_EXEC, false);
	machine_resolve(m, 10, 10, 0x1000010, AS_USER, &r);
	assert_false(r.found);
	assert_string_equal(r.dso, "libfoo.so.1");
	assert_string_equal(r.dso_path, "/nonexistent/libfoo.so.1");
	assert_string_equal(r.sym, "0x0000000000002010");
	assert_int_equal(r.level, '.');

	machine_resolve(m, 10, 10, 0x7000000, AS_USER, &r);
	assert_false(r.found);
	assert_string_equal(r.dso, "[unknown]");
	assert_string_equal(r.sym, "0x0000000007000000");
	/* No process at all. */
	machine_resolve(m, 99, 99, 0x1234, AS_USER, &r);
	assert_string_equal(r.dso, "[unknown]");
	assert_string_equal(r.sym, "0x0000000000001234");

	/* Non-exec maps cover no code but end what was there. */
	machine_mmap(m, 10, 10, 0x1001000, 0x1000, 0, "//anon", NULL, 0, PROT_READ, false);
	machine_resolve(m, 10, 10, 0x1001010, AS_USER, &r);
	assert_string_equal(r.dso, "[unknown]");
	/* The right remnant keeps the right file offset. */
	machine_resolve(m, 10, 10, 0x1002010, AS_USER, &r);
	assert_string_equal(r.dso, "libfoo.so.1");
	assert_string_equal(r.sym, "0x0000000000004010");
	machine_resolve(m, 10, 10, 0x1000020, AS_USER, &r);
	assert_string_equal(r.sym, "0x0000000000002020");

	/* Anonymous memory: identity addresses. */
	machine_mmap(m, 10, 10, 0x9000000, 0x1000, 0, "[heap]", NULL, 0, PROT_EXEC, false);
	machine_resolve(m, 10, 10, 0x9000010, AS_USER, &r);
	assert_string_equal(r.dso, "[heap]");
	assert_string_equal(r.sym, "0x0000000009000010");

	/* A build-id that matches nothing: unresolved, no crash. */
	uint8_t bid[20] = { 1, 2, 3 };
	machine_mmap(m, 10, 10, 0xa000000, 0x1000, 0, "/proc/self/exe", bid, 20,
		     PROT_EXEC, false);
	machine_resolve(m, 10, 10, 0xa000010, AS_USER, &r);
	assert_false(r.found);
	assert_string_equal(r.dso, "exe");

	/* Guests and garbage spaces. */
	machine_resolve(m, 10, 10, 0x1000010, AS_GUEST_USER, &r);
	assert_string_equal(r.dso, "[unknown]");

	/* Unresolved addresses are printed as perf's "%#.16llx" (0 without 0x). */
	const uint64_t vals[] = { 0, 1, 0xf, 0xabcdef, 0x7fffffffffffull, 0x8000000000000000ull,
				  0xfedcba9876543210ull, ~0ull };
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		char want[32];
		snprintf(want, sizeof(want), "%#.16llx", (unsigned long long)vals[i]);
		machine_resolve(m, 99, 99, vals[i], AS_USER, &r);
		assert_string_equal(r.sym, want);
	}
	machine_free(m);
}

static void test_demangle_perfmap(void **state)
{
	(void)state;
	/* perf's default form: no return type, no own parameters. */
	static const char *const cases[][3] = {
		{ "_ZN3foo3barEi", "foo::bar", "foo::bar(int)" },
		{ "_Z3maxIiET_S0_S0_", "max<int>", "int max<int>(int, int)" },
		{ "_ZNK3Foo3getEv", "Foo::get", "Foo::get() const" },
		{ "_ZN3FooclEi", "Foo::operator()", "Foo::operator()(int)" },
		{ "_ZN3FooltERKS_", "Foo::operator<", "Foo::operator<(Foo const&)" },
		{ "_ZnwmPv", "operator new", "operator new(unsigned long, void*)" },
		{ "_Z3fooi.cold", "foo [clone .cold]", "foo(int) [clone .cold]" },
		{ "_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo",
		  "(anonymous namespace)::foo()" },
		{ "_ZZ4mainENKUliE_clEi", "main::{lambda(int)#1}::operator()",
		  "main::{lambda(int)#1}::operator()(int) const" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = sym_demangle(cases[i][0]);
		assert_non_null(d);
		assert_string_equal(d, cases[i][1]);
		free(d);
		d = sym_demangle_opts(cases[i][0], true);
		assert_non_null(d);
		assert_string_equal(d, cases[i][2]);
		free(d);
	}
	assert_null(sym_demangle("main"));
	assert_null(sym_demangle("_Zgarbage!!"));

	/* JIT symbols from /tmp/perf-PID.map, mangled ones demangled. */
	const int pid = 2000000000 + (getpid() % 100000);
	char path[64];
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pid);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "7f0000001000 100 _ZN3foo3barEi\n7f0000001100 80 jit_plain\nbroken\n");
	fclose(f);
	for (int nd = 0; nd < 2; nd++) {
		struct machine_opts o = { .no_demangle = nd };
		struct machine *m = machine_new(&o);
		machine_mmap(m, pid, pid, 0x7f0000000000ull, 0x10000, 0, "//anon", NULL, 0,
			     PROT_EXEC | PROT_READ, false);
		struct resolved r;
		machine_resolve(m, pid, pid, 0x7f0000001010ull, AS_USER, &r);
		assert_true(r.found);
		assert_string_equal(r.sym, nd ? "_ZN3foo3barEi" : "foo::bar");
		char jit[32];
		snprintf(jit, sizeof(jit), "[JIT] tid %d", pid);
		assert_string_equal(r.dso, jit);	/* as perf names /tmp/perf-PID.map */
		machine_resolve(m, pid, pid, 0x7f0000001110ull, AS_USER, &r);
		assert_string_equal(r.sym, "jit_plain");
		machine_resolve(m, pid, pid, 0x7f0000002000ull, AS_USER, &r);
		assert_false(r.found);
		assert_string_equal(r.sym, "0x00007f0000002000");
		machine_free(m);
	}
	unlink(path);

	/* A FIFO planted as the map: no symbols, and no wait for a writer
	 * (the alarm turns a blocked open into a failure). */
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(10);
	struct machine *m = machine_new(NULL);
	machine_mmap(m, pid, pid, 0x7f0000000000ull, 0x10000, 0, "//anon", NULL, 0,
		     PROT_EXEC | PROT_READ, false);
	struct resolved r;
	machine_resolve(m, pid, pid, 0x7f0000001010ull, AS_USER, &r);
	assert_false(r.found);
	machine_free(m);
	alarm(0);
	unlink(path);
}

static void test_threads(void **state)
{
	(void)state;
	struct machine *m = machine_new(NULL);
	struct resolved r;
	machine_comm(m, 100, 100, "parent", false);
	machine_mmap(m, 100, 100, 0x400000, 0x1000, 0, "/nonexistent/parent-bin", NULL, 0,
		     PROT_EXEC, false);
	assert_string_equal(machine_comm_of(m, 100, 100), "parent");

	/* A new process copies comm and maps. */
	machine_fork(m, 101, 101, 100, 100);
	assert_string_equal(machine_comm_of(m, 101, 101), "parent");
	machine_resolve(m, 101, 101, 0x400010, AS_USER, &r);
	assert_string_equal(r.dso, "parent-bin");
	/* Its later maps are its own. */
	machine_mmap(m, 101, 101, 0x800000, 0x1000, 0, "/nonexistent/child-lib", NULL, 0,
		     PROT_EXEC, false);
	machine_resolve(m, 100, 100, 0x800010, AS_USER, &r);
	assert_string_equal(r.dso, "[unknown]");
	machine_resolve(m, 101, 101, 0x800010, AS_USER, &r);
	assert_string_equal(r.dso, "child-lib");

	/* A new thread shares its process's maps, even those mapped later. */
	machine_fork(m, 100, 102, 100, 100);
	assert_string_equal(machine_comm_of(m, 100, 102), "parent");
	machine_mmap(m, 100, 100, 0x900000, 0x1000, 0, "/nonexistent/late-lib", NULL, 0,
		     PROT_EXEC, false);
	machine_resolve(m, 100, 102, 0x900010, AS_USER, &r);
	assert_string_equal(r.dso, "late-lib");
	machine_comm(m, 100, 102, "worker", false);
	assert_string_equal(machine_comm_of(m, 100, 102), "worker");
	assert_string_equal(machine_comm_of(m, 100, 100), "parent");

	/* exec: new comm, old maps gone. */
	machine_comm(m, 101, 101, "child", true);
	assert_string_equal(machine_comm_of(m, 101, 101), "child");
	machine_resolve(m, 101, 101, 0x400010, AS_USER, &r);
	assert_string_equal(r.dso, "[unknown]");

	/* Exit keeps what samples still need. */
	machine_exit(m, 100, 102);
	assert_string_equal(machine_comm_of(m, 100, 102), "worker");
	machine_resolve(m, 100, 102, 0x900010, AS_USER, &r);
	assert_string_equal(r.dso, "late-lib");

	/* Unknown threads: ":tid"; a thread of a known process: the process's comm. */
	assert_string_equal(machine_comm_of(m, 555, 556), ":556");
	assert_string_equal(machine_comm_of(m, 100, 103), "parent");
	assert_ptr_equal(machine_comm_of(m, 555, 556), machine_intern(m, ":556"));
	machine_free(m);
}

/* A workload sampled before its exec's COMM record (no synthesized comm, no
 * FORK from a named parent) is named by its first COMM, as perf does. */
static void test_first_comm(void **state)
{
	(void)state;
	struct machine *m = machine_new(NULL);
	machine_comm_first(m, 154, 154, "bpfperf-demo");
	machine_comm_first(m, 154, 154, "later-name");	/* only the first counts */
	assert_string_equal(machine_comm_of(m, 154, 154), "bpfperf-demo");
	assert_string_equal(machine_comm_of(m, 154, 155), "bpfperf-demo");	/* via its process */
	machine_comm(m, 154, 154, "renamed", false);	/* a known comm wins */
	assert_string_equal(machine_comm_of(m, 154, 154), "renamed");
	assert_string_equal(machine_comm_of(m, 200, 200), ":200");
	machine_free(m);
}

static void test_intern(void **state)
{
	(void)state;
	struct machine *m = machine_new(NULL);
	const char *a = machine_intern(m, "hello");
	char buf[16];
	snprintf(buf, sizeof(buf), "hel%s", "lo");
	assert_ptr_equal(a, machine_intern(m, buf));
	assert_ptr_not_equal(a, machine_intern(m, "hello!"));
	/* Many strings: growth keeps pointers stable. */
	const char *ptrs[5000];
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "s%d", i);
		ptrs[i] = machine_intern(m, buf);
	}
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "s%d", i);
		assert_ptr_equal(ptrs[i], machine_intern(m, buf));
	}
	assert_ptr_equal(a, machine_intern(m, "hello"));
	assert_string_equal(machine_intern(m, ""), "");
	machine_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_first_comm),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kallsyms_bad),
		cmocka_unit_test(test_kallsyms_blocks),
		cmocka_unit_test(test_kallsyms_long_lines),
		cmocka_unit_test(test_kallsyms_small_file),
		cmocka_unit_test(test_kallsyms_copy),
		cmocka_unit_test(test_bpf_ksymbol),
		cmocka_unit_test(test_user_self),
		cmocka_unit_test(test_buildid_cache_copy),
		cmocka_unit_test(test_unresolved),
		cmocka_unit_test(test_plt_irelative),
		cmocka_unit_test(test_demangle_perfmap),
		cmocka_unit_test(test_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
