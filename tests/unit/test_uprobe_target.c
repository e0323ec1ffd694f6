// SPDX-License-Identifier: GPL-2.0-only
/* User functions to uprobe file offsets (sym/uprobe_target.h), checked
 * against computations that share no code with it:
 *   - tests/helpers/uprobe_target (linked without PIE: its code's addresses
 *     are not its file offsets): the symbol's value read here from .symtab,
 *     mapped through its *section* header (sh_offset + value - sh_addr), and
 *     the file's bytes at the offset equal to the section's bytes there;
 *   - this test program itself: the file's bytes at the offset of one of its
 *     functions equal the function's code in memory, by BINARY:FUNC and by
 *     PID:FUNC (getpid());
 * and the errors: data object, two static functions of one name, an import,
 * no such function, not ELF, no such process, no FUNC. No privileges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sym/uprobe_target.h"

#ifndef UPROBE_TARGET
#error "UPROBE_TARGET: the path of tests/helpers/uprobe_target (tests/unit/meson.build)"
#endif

__attribute__((noinline, used)) int test_uprobe_probe_me(int x);
__attribute__((noinline, used)) int test_uprobe_probe_me(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 7 + 3;
}

/* The value of the symbol name in .symtab, and the section holding it:
 * read with libelf here, not through the code under test. bytes gets the
 * function's first *n bytes from the section (fewer if it is shorter). */
static void section_offset(const char *path, const char *name, uint64_t *value, uint64_t *off,
			   unsigned char *bytes, size_t *n)
{
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(e);
	Elf_Scn *scn = NULL;
	bool found = false;
	while (!found && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		assert_non_null(gelf_getshdr(scn, &sh));
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			gelf_getsym(d, (int)i, &s);
			const char *nm = elf_strptr(e, sh.sh_link, s.st_name);
			if (nm && !strcmp(nm, name) && GELF_ST_TYPE(s.st_info) == STT_FUNC) {
				*value = s.st_value;
				Elf_Scn *text = elf_getscn(e, s.st_shndx);
				GElf_Shdr th;
				assert_non_null(gelf_getshdr(text, &th));
				*off = th.sh_offset + s.st_value - th.sh_addr;
				Elf_Data *td = elf_getdata(text, NULL);
				size_t pos = s.st_value - th.sh_addr;
				assert_true(pos < td->d_size);
				if (*n > td->d_size - pos)
					*n = td->d_size - pos;
				if (*n > s.st_size)
					*n = s.st_size;
				assert_true(*n >= 2);
				memcpy(bytes, (char *)td->d_buf + pos, *n);
				found = true;
				break;
			}
		}
	}
	assert_true(found);
	elf_end(e);
	close(fd);
}

static void read_at(const char *path, uint64_t off, unsigned char *buf, size_t n)
{
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, n, (off_t)off), (ssize_t)n);
	close(fd);
}

static void test_non_pie_target(void **state)
{
	(void)state;
	struct uprobe_target t;
	assert_int_equal(uprobe_target_resolve(UPROBE_TARGET ":ut_target_fn", &t), 0);
	uint64_t value, off;
	unsigned char sec[16], file[16];
	size_t n = sizeof(sec);
	section_offset(UPROBE_TARGET, "ut_target_fn", &value, &off, sec, &n);
	assert_int_equal(t.vaddr, value);
	assert_int_equal(t.offset, off);
	assert_true(t.offset != t.vaddr);	/* no PIE: a wrong mapping shows */
	assert_true(t.size > 0);
	read_at(UPROBE_TARGET, t.offset, file, n);
	assert_memory_equal(file, sec, n);
	assert_int_equal(t.pid, -1);
	assert_string_equal(t.path, UPROBE_TARGET);
	assert_string_equal(t.func, "ut_target_fn");
	/* the other function, with the other function's bytes */
	assert_int_equal(uprobe_target_resolve(UPROBE_TARGET ":ut_dup_other", &t), 0);
	n = sizeof(sec);
	section_offset(UPROBE_TARGET, "ut_dup_other", &value, &off, sec, &n);
	assert_int_equal(t.offset, off);
}

static void check_self(const char *spec)
{
	struct uprobe_target t;
	assert_int_equal(uprobe_target_resolve(spec, &t), 0);
	assert_true(t.size >= 8);
	unsigned char file[8];
	read_at("/proc/self/exe", t.offset, file, sizeof(file));
	assert_memory_equal(file, (const void *)test_uprobe_probe_me, sizeof(file));
}

static void test_self_in_memory(void **state)
{
	(void)state;
	char exe[PATH_MAX], spec[PATH_MAX + 64];
	ssize_t r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(r > 0);
	exe[r] = '\0';
	snprintf(spec, sizeof(spec), "%s:test_uprobe_probe_me", exe);
	check_self(spec);
	snprintf(spec, sizeof(spec), "%d:test_uprobe_probe_me", (int)getpid());
	check_self(spec);
	struct uprobe_target t;
	assert_int_equal(uprobe_target_resolve(spec, &t), 0);
	assert_int_equal(t.pid, getpid());
	assert_string_equal(t.name, exe);
}

static void test_errors(void **state)
{
	(void)state;
	struct uprobe_target t;
	assert_int_equal(uprobe_target_resolve(UPROBE_TARGET ":ut_data_object", &t), -EINVAL);
	assert_int_equal(uprobe_target_resolve(UPROBE_TARGET ":ut_dup", &t), -ENOTUNIQ);
	assert_int_equal(uprobe_target_resolve(UPROBE_TARGET ":puts", &t), -ENOENT);
	assert_int_equal(uprobe_target_resolve(UPROBE_TARGET ":no_such_function", &t), -ENOENT);
	assert_int_equal(uprobe_target_resolve(UPROBE_TARGET, &t), -EINVAL);
	assert_int_equal(uprobe_target_resolve(UPROBE_TARGET ":", &t), -EINVAL);
	assert_int_equal(uprobe_target_resolve(":main", &t), -EINVAL);
	assert_int_equal(uprobe_target_resolve("/nonexistent/bin:main", &t), -ENOENT);
	assert_int_equal(uprobe_target_resolve(TEST_SRCDIR "/tests/unit/test_uprobe_target.c:main", &t),
			 -ENOEXEC);
	assert_int_equal(uprobe_target_resolve("/proc:main", &t), -EINVAL);	/* a directory */
	assert_int_equal(uprobe_target_resolve("999999999:main", &t), -ESRCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_non_pie_target),
		cmocka_unit_test(test_self_in_memory),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
