// SPDX-License-Identifier: GPL-2.0-only
/* The checks of a BPF object's ELF, .BTF and .BTF.ext before libbpf parses
 * them (src/lib/bpfobj/validate.c): a sound object passes, each kind of
 * corruption is refused with a reason naming it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <errno.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "bpfobj/validate.h"

static char why[512];

/* A small BTF: int, struct s { int a; int *p; }, pointer, func proto, func. */
static uint8_t *make_btf(uint32_t *size)
{
	struct btf *b = btf__new_empty();
	assert_non_null(b);
	int i = btf__add_int(b, "int", 4, BTF_INT_SIGNED);		/* [1] */
	int s = btf__add_struct(b, "s", 16);				/* [2] */
	assert_int_equal(btf__add_field(b, "a", i, 0, 0), 0);
	assert_int_equal(btf__add_field(b, "p", 3, 64, 0), 0);
	assert_int_equal(btf__add_ptr(b, i), 3);			/* [3] */
	int fp = btf__add_func_proto(b, i);				/* [4] */
	assert_int_equal(btf__add_func_param(b, "x", s), 0);
	assert_true(btf__add_func(b, "f", BTF_FUNC_GLOBAL, fp) > 0);	/* [5] */
	const void *raw = btf__raw_data(b, size);
	uint8_t *copy = malloc(*size);
	memcpy(copy, raw, *size);
	btf__free(b);
	return copy;
}

static struct btf_header hdr(const uint8_t *b)
{
	struct btf_header h;
	memcpy(&h, b, sizeof(h));
	return h;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

#define assert_refused(call, text) do { \
	why[0] = 0; \
	assert_int_equal((call), -EINVAL); \
	if (!strstr(why, text)) \
		fail_msg("reason '%s' lacks '%s'", why, text); \
} while (0)

static void test_btf_sound(void **state)
{
	(void)state;
	uint32_t size, nr = 0, strs = 0;
	uint8_t *b = make_btf(&size);
	assert_int_equal(bpfobj_validate_btf(b, size, &nr, &strs, why, sizeof(why)), 0);
	assert_int_equal(nr, 5);
	assert_int_equal(strs, hdr(b).str_len);
	free(b);
}

static void test_btf_header(void **state)
{
	(void)state;
	uint32_t size;
	uint8_t *b = make_btf(&size), *m = malloc(size);
	struct btf_header h = hdr(b);
#define MUT(off, v) (memcpy(m, b, size), put32(m + (off), (v)), m)
	assert_refused(bpfobj_validate_btf(b, 10, NULL, NULL, why, sizeof(why)), "shorter than its header");
	memcpy(m, b, size); m[0] ^= 0xff;
	assert_refused(bpfobj_validate_btf(m, size, NULL, NULL, why, sizeof(why)), "bad magic");
	memcpy(m, b, size); m[2] = 7;
	assert_refused(bpfobj_validate_btf(m, size, NULL, NULL, why, sizeof(why)), "version 7");
	assert_refused(bpfobj_validate_btf(MUT(4, 8), size, NULL, NULL, why, sizeof(why)), "header length 8");
	assert_refused(bpfobj_validate_btf(MUT(4, size + 1), size, NULL, NULL, why, sizeof(why)), "header length");
	assert_refused(bpfobj_validate_btf(MUT(12, 0xfffffff0), size, NULL, NULL, why, sizeof(why)), "type section");
	assert_refused(bpfobj_validate_btf(MUT(8, 2), size, NULL, NULL, why, sizeof(why)), "aligned");
	assert_refused(bpfobj_validate_btf(MUT(20, h.str_len + 1), size, NULL, NULL, why, sizeof(why)), "string table");
	assert_refused(bpfobj_validate_btf(MUT(16, 0xffffffff), size, NULL, NULL, why, sizeof(why)), "string table");
	assert_refused(bpfobj_validate_btf(MUT(16, 0), size, NULL, NULL, why, sizeof(why)), "overlaps");
	/* the string table must end with a NUL */
	memcpy(m, b, size); m[h.hdr_len + h.str_off + h.str_len - 1] = 'x';
	assert_refused(bpfobj_validate_btf(m, size, NULL, NULL, why, sizeof(why)), "end with a NUL");
	/* cut short: the string table is beyond the end */
	assert_refused(bpfobj_validate_btf(b, size - 1, NULL, NULL, why, sizeof(why)), "string table");
	free(m);
	free(b);
}

static void test_btf_types(void **state)
{
	(void)state;
	uint32_t size;
	uint8_t *b = make_btf(&size), *m = malloc(size);
	struct btf_header h = hdr(b);
	uint32_t t1 = h.hdr_len + h.type_off;		/* [1] int: 12 + 4 bytes */
	uint32_t t2 = t1 + 16;				/* [2] struct, 2 members */
	uint32_t info2;
	memcpy(&info2, b + t2 + 4, 4);
	assert_refused(bpfobj_validate_btf(MUT(t1, 0xfffffff0), size, NULL, NULL, why, sizeof(why)),
		       "type [1] at offset 0 of the type section: name offset 0xfffffff0 is beyond the string table");
	assert_refused(bpfobj_validate_btf(MUT(t1 + 4, 31u << 24), size, NULL, NULL, why, sizeof(why)), "unknown kind 31");
	assert_refused(bpfobj_validate_btf(MUT(t1 + 4, 0), size, NULL, NULL, why, sizeof(why)), "unknown kind 0");
	assert_refused(bpfobj_validate_btf(MUT(t2 + 4, info2 | 0xffff), size, NULL, NULL, why, sizeof(why)),
		       "type [2] at offset 0x10 of the type section: kind 4 with 65535 members");
	/* the second member's name and type */
	assert_refused(bpfobj_validate_btf(MUT(t2 + 12 + 12, 0x7ffffff0), size, NULL, NULL, why, sizeof(why)),
		       "a member's name offset");
	assert_refused(bpfobj_validate_btf(MUT(t2 + 12 + 16, 99), size, NULL, NULL, why, sizeof(why)),
		       "a member refers to type [99], but there are 5 types");
	/* [3] ptr -> [1]: point it past the last type */
	assert_refused(bpfobj_validate_btf(MUT(t2 + 36 + 8, 6), size, NULL, NULL, why, sizeof(why)),
		       "type [3] at offset 0x34 of the type section: the type refers to type [6]");
	/* a record cut by the end of the type section */
	assert_refused(bpfobj_validate_btf(MUT(12, 20), size, NULL, NULL, why, sizeof(why)), "cut short");
	free(m);
	free(b);
}

/* .BTF.ext: a 32-byte header, func_info: rec_size 8, one block of one record. */
static void make_ext(uint8_t *e, uint32_t sec_name, uint32_t type_id)
{
	memset(e, 0, 52);
	e[0] = 0x9f; e[1] = 0xeb; e[2] = 1;
	put32(e + 4, 32);	/* hdr_len */
	put32(e + 8, 0);	/* func_info_off */
	put32(e + 12, 20);	/* func_info_len */
	put32(e + 32, 8);	/* rec_size */
	put32(e + 36, sec_name);
	put32(e + 40, 1);	/* num_info */
	put32(e + 44, 0);	/* insn_off */
	put32(e + 48, type_id);
}

static void test_btf_ext(void **state)
{
	(void)state;
	uint8_t e[52];
	make_ext(e, 1, 5);
	assert_int_equal(bpfobj_validate_btf_ext(e, sizeof(e), 5, 10, why, sizeof(why)), 0);
	make_ext(e, 1, 6);
	assert_refused(bpfobj_validate_btf_ext(e, sizeof(e), 5, 10, why, sizeof(why)), "refers to type [6]");
	make_ext(e, 10, 1);
	assert_refused(bpfobj_validate_btf_ext(e, sizeof(e), 5, 10, why, sizeof(why)), "section name offset 0xa");
	make_ext(e, 1, 1);
	put32(e + 40, 0x10000000);
	assert_refused(bpfobj_validate_btf_ext(e, sizeof(e), 5, 10, why, sizeof(why)), "do not fit");
	make_ext(e, 1, 1);
	put32(e + 32, 3);
	assert_refused(bpfobj_validate_btf_ext(e, sizeof(e), 5, 10, why, sizeof(why)), "record size 3");
	make_ext(e, 1, 1);
	put32(e + 12, 0xfffffff0);
	assert_refused(bpfobj_validate_btf_ext(e, sizeof(e), 5, 10, why, sizeof(why)), "func_info");
	make_ext(e, 1, 1);
	put32(e + 4, 4);
	assert_refused(bpfobj_validate_btf_ext(e, sizeof(e), 5, 10, why, sizeof(why)), "header length 4");
}

/* A BPF ELF: [0] null, [1] .shstrtab, [2] .BTF or .maps (by name), [3] .BTF
 * when with_btf, the section table last. */
struct obj {
	uint8_t *b;
	size_t size, shoff;
};

static struct obj make_obj(bool maps, bool with_btf)
{
	static const char names[] = "\0.shstrtab\0.BTF\0.maps\0";
	uint32_t bsize;
	uint8_t *btf = make_btf(&bsize);
	size_t nsec = 2 + (maps ? 1 : 0) + (with_btf ? 1 : 0);
	size_t off_names = sizeof(Elf64_Ehdr), off_btf = off_names + sizeof(names);
	off_btf = (off_btf + 7) & ~7ul;
	size_t shoff = (off_btf + bsize + 7) & ~7ul;
	size_t size = shoff + nsec * sizeof(Elf64_Shdr);
	uint8_t *b = calloc(1, size);
	Elf64_Ehdr eh = { .e_type = ET_REL, .e_machine = EM_BPF, .e_version = EV_CURRENT,
			  .e_shoff = shoff, .e_ehsize = sizeof(eh), .e_shentsize = sizeof(Elf64_Shdr),
			  .e_shnum = (uint16_t)nsec, .e_shstrndx = 1 };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	memcpy(b, &eh, sizeof(eh));
	memcpy(b + off_names, names, sizeof(names));
	memcpy(b + off_btf, btf, bsize);
	Elf64_Shdr sh[4] = { { 0 } };
	sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_STRTAB, .sh_offset = off_names, .sh_size = sizeof(names) };
	size_t n = 2;
	if (maps)
		sh[n++] = (Elf64_Shdr){ .sh_name = 16, .sh_type = SHT_PROGBITS, .sh_offset = off_btf, .sh_size = 0 };
	if (with_btf)
		sh[n++] = (Elf64_Shdr){ .sh_name = 11, .sh_type = SHT_PROGBITS, .sh_offset = off_btf, .sh_size = bsize };
	memcpy(b + shoff, sh, nsec * sizeof(Elf64_Shdr));
	free(btf);
	return (struct obj){ b, size, shoff };
}

static void test_elf(void **state)
{
	(void)state;
	struct bpfobj_elf_info info;
	struct obj o = make_obj(true, true);
	assert_int_equal(bpfobj_validate_elf(o.b, o.size, &info, why, sizeof(why)), 0);
	assert_true(info.btf_size > 0);
	/* the file cut inside the section table, then inside .BTF */
	assert_refused(bpfobj_validate_elf(o.b, o.size - 1, NULL, why, sizeof(why)), "section table");
	Elf64_Ehdr eh;
	memcpy(&eh, o.b, sizeof(eh));
	eh.e_shstrndx = 9;
	uint8_t *m = malloc(o.size);
	memcpy(m, o.b, o.size); memcpy(m, &eh, sizeof(eh));
	assert_refused(bpfobj_validate_elf(m, o.size, NULL, why, sizeof(why)), "section [9], but there are 4");
	memcpy(&eh, o.b, sizeof(eh));
	eh.e_shoff = UINT64_MAX - 8;
	memcpy(m, o.b, o.size); memcpy(m, &eh, sizeof(eh));
	assert_refused(bpfobj_validate_elf(m, o.size, NULL, why, sizeof(why)), "ends beyond the file");
	/* .BTF's size beyond the file; its name beyond the name table */
	Elf64_Shdr sh;
	size_t at = o.shoff + 3 * sizeof(sh);
	memcpy(m, o.b, o.size);
	memcpy(&sh, m + at, sizeof(sh)); sh.sh_size = UINT64_MAX; memcpy(m + at, &sh, sizeof(sh));
	assert_refused(bpfobj_validate_elf(m, o.size, NULL, why, sizeof(why)), "section [3] (offset");
	memcpy(m, o.b, o.size);
	memcpy(&sh, m + at, sizeof(sh)); sh.sh_name = 1000; memcpy(m + at, &sh, sizeof(sh));
	assert_refused(bpfobj_validate_elf(m, o.size, NULL, why, sizeof(why)), "name offset 0x3e8");
	/* a corrupt .BTF inside a sound ELF */
	memcpy(m, o.b, o.size);
	memcpy(&sh, m + at, sizeof(sh)); m[sh.sh_offset + 4] = 200;
	assert_refused(bpfobj_validate_elf(m, o.size, NULL, why, sizeof(why)), "section .BTF: header length 200");
	/* not an ELF, not BPF */
	assert_int_equal(bpfobj_validate_elf("hello", 5, NULL, why, sizeof(why)), -ENOEXEC);
	memcpy(m, o.b, o.size);
	m[offsetof(Elf64_Ehdr, e_machine)] = EM_X86_64;
	assert_int_equal(bpfobj_validate_elf(m, o.size, NULL, why, sizeof(why)), -ENOEXEC);
	assert_non_null(strstr(why, "not for the BPF target"));
	free(m);
	free(o.b);

	/* maps need BTF */
	o = make_obj(true, false);
	assert_refused(bpfobj_validate_elf(o.b, o.size, &info, why, sizeof(why)), "no BTF");
	free(o.b);
	/* without maps, BTF is optional */
	o = make_obj(false, false);
	assert_int_equal(bpfobj_validate_elf(o.b, o.size, &info, why, sizeof(why)), 0);
	assert_int_equal(info.btf_size, 0);
	free(o.b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_btf_sound),
		cmocka_unit_test(test_btf_header),
		cmocka_unit_test(test_btf_types),
		cmocka_unit_test(test_btf_ext),
		cmocka_unit_test(test_elf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
