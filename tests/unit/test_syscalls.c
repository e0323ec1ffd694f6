// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for src/lib/syscalls: static table, tracefs format parsing,
 * argument classification, -e selection and the beautifiers. No privileges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "syscalls/syscalls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

static const char openat_fmt[] =
	"name: sys_enter_openat\n"
	"ID: 782\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"dfd: 0x%08lx\", ((unsigned long)(REC->dfd))\n";

/* The common fields, up to the empty line that ends them. */
#define COMMON "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"

static const char connect_fmt[] =
	"name: sys_enter_connect\nID: 1\nformat:\n" COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:struct sockaddr * uservaddr;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int addrlen;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"fd: 0x%08lx\", ((unsigned long)(REC->fd))\n";

static void test_static_table(void **state)
{
	(void)state;
	assert_int_equal(sc_nr_by_name("read"), 0);
	assert_int_equal(sc_nr_by_name("openat"), 257);
	assert_int_equal(sc_nr_by_name("exit_group"), 231);
	assert_int_equal(sc_nr_by_name("no_such_call"), -1);
	assert_string_equal(sc_name_by_nr(59), "execve");
	assert_null(sc_name_by_nr(100000));
}

static void test_parse_openat(void **state)
{
	(void)state;
	struct sc_info sc;
	assert_int_equal(sc_format_parse(openat_fmt, strlen(openat_fmt), &sc), 0);
	assert_string_equal(sc.name, "openat");
	assert_int_equal(sc.nr, 257);
	assert_int_equal(sc.nargs, 4);
	assert_string_equal(sc.args[1].name, "filename");
	assert_string_equal(sc.args[1].type, "const char *");
	assert_int_equal(sc.args[0].kind, SC_ARG_DIRFD);
	assert_int_equal(sc.args[1].kind, SC_ARG_STR);
	assert_int_equal(sc.args[2].kind, SC_ARG_OPEN_FLAGS);
	assert_int_equal(sc.args[3].kind, SC_ARG_MODE);
}

static void test_parse_connect_and_alias(void **state)
{
	(void)state;
	struct sc_info sc;
	assert_int_equal(sc_format_parse(connect_fmt, strlen(connect_fmt), &sc), 0);
	assert_int_equal(sc.args[0].kind, SC_ARG_FD);
	assert_int_equal(sc.args[1].kind, SC_ARG_SOCKADDR);
	assert_true(sc_arg_kind_copied(sc.args[1].kind));

	const char *stat_fmt = "name: sys_enter_newstat\nID: 2\nformat:\n" COMMON
			       "\tfield:const char * filename;\toffset:16;\tsize:8;\tsigned:0;\n"
			       "\tfield:struct stat * statbuf;\toffset:24;\tsize:8;\tsigned:0;\n\n"
			       "print fmt: \"\", 0\n";
	assert_int_equal(sc_format_parse(stat_fmt, strlen(stat_fmt), &sc), 0);
	assert_string_equal(sc.name, "stat");
	assert_int_equal(sc.nr, 4);
	assert_int_equal(sc.args[1].kind, SC_ARG_PTR);
}

static void test_parse_bad(void **state)
{
	(void)state;
	struct sc_info sc;
	const char *no_name = "ID: 3\nformat:\n" COMMON "\tfield:int fd;\toffset:16;\tsize:8;\tsigned:0;\n";
	assert_int_equal(sc_format_parse(no_name, strlen(no_name), &sc), -EINVAL);
	const char *bad_field = "name: sys_enter_x\nID: 3\nformat:\n" COMMON "\tfield:int;\n";
	assert_int_equal(sc_format_parse(bad_field, strlen(bad_field), &sc), -EINVAL);
#define ARG(n, o) "\tfield:long " n ";\toffset:" #o ";\tsize:8;\tsigned:1;\n"
	const char *seven = "name: sys_enter_x\nID: 3\nformat:\n" COMMON
			    ARG("a", 8) ARG("b", 16) ARG("c", 24) ARG("d", 32) ARG("e", 40) ARG("f", 48)
			    ARG("g", 56) "\nprint fmt: \"\", 0\n";
	assert_int_equal(sc_format_parse(seven, strlen(seven), &sc), -EINVAL);
	/* six are fine */
	const char *six = "name: sys_enter_x\nID: 3\nformat:\n" COMMON
			  ARG("a", 8) ARG("b", 16) ARG("c", 24) ARG("d", 32) ARG("e", 40) ARG("f", 48)
			  "\nprint fmt: \"\", 0\n";
	assert_int_equal(sc_format_parse(six, strlen(six), &sc), 0);
	assert_int_equal(sc.nargs, 6);
#undef ARG
	assert_int_equal(sc_format_parse("", 0, &sc), -EINVAL);
	/* Not NUL-terminated: the parser must stay inside len. */
	char buf[12];
	memcpy(buf, "name: sys_en", 12);
	assert_int_equal(sc_format_parse(buf, sizeof(buf), &sc), -EINVAL);
}

static void test_select(void **state)
{
	(void)state;
	struct sc_table t;
	bool en[SC_MAX_NR];
	char err[256];

	sc_table_load(&t, NULL);
	assert_int_equal(sc_select(&t, "open*,!openat2", en, err, sizeof(err)), 0);
	assert_true(en[sc_nr_by_name("open")]);
	assert_true(en[sc_nr_by_name("openat")]);
	assert_true(en[sc_nr_by_name("open_tree")]);
	assert_false(en[sc_nr_by_name("openat2")]);
	assert_false(en[sc_nr_by_name("read")]);

	/* Only exclusions: everything else. */
	assert_int_equal(sc_select(&t, "!read", en, err, sizeof(err)), 0);
	assert_false(en[0]);
	assert_true(en[1]);

	assert_int_equal(sc_select(&t, "opnat", en, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown syscall 'opnat'"));
	assert_non_null(strstr(err, "openat"));
	assert_int_equal(sc_select(&t, "read,,", en, err, sizeof(err)), 0);
	assert_int_equal(sc_select(&t, "", en, err, sizeof(err)), -EINVAL);
	sc_table_free(&t);
}

static void test_beautifiers(void **state)
{
	(void)state;
	struct strbuf sb = { 0 };

	sc_fmt_open_flags(&sb, 02000000 | 0100 | 1);
	assert_string_equal(sb.buf, "O_WRONLY|O_CREAT|O_CLOEXEC");
	sb_reset(&sb);
	sc_fmt_open_flags(&sb, 0);
	assert_string_equal(sb.buf, "O_RDONLY");
	sb_reset(&sb);
	sc_fmt_mode(&sb, 0644);
	assert_string_equal(sb.buf, "0644");
	sb_reset(&sb);
	sc_fmt_dirfd(&sb, (uint64_t)(int64_t)-100);
	assert_string_equal(sb.buf, "AT_FDCWD");
	sb_reset(&sb);
	sc_fmt_signal(&sb, 9);
	assert_string_equal(sb.buf, "SIGKILL");
	sb_reset(&sb);
	sc_fmt_mmap_prot(&sb, 3);
	assert_string_equal(sb.buf, "PROT_READ|PROT_WRITE");
	sb_reset(&sb);
	sc_fmt_mmap_flags(&sb, 0x22);
	assert_string_equal(sb.buf, "MAP_PRIVATE|MAP_ANONYMOUS");
	sb_reset(&sb);
	sc_fmt_access_mode(&sb, 0);
	assert_string_equal(sb.buf, "F_OK");
	sb_reset(&sb);
	sc_fmt_cstring(&sb, "a\"b\n\x01", 5, false);
	assert_string_equal(sb.buf, "\"a\\\"b\\n\\x01\"");
	sb_reset(&sb);

	unsigned char sin[16] = { 0 };
	uint16_t fam = AF_INET, port = htons(80);
	memcpy(sin, &fam, 2);
	memcpy(sin + 2, &port, 2);
	inet_pton(AF_INET, "127.0.0.1", sin + 4);
	sc_fmt_sockaddr(&sb, sin, sizeof(sin));
	assert_string_equal(sb.buf, "{sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(\"127.0.0.1\")}");
	sb_reset(&sb);

	assert_string_equal(sc_errno_name(ENOENT), "ENOENT");
	assert_string_equal(sc_errno_name(512), "ERESTARTSYS");
	sc_fmt_ret(&sb, NULL, -ENOENT);
	assert_string_equal(sb.buf, "-1 ENOENT (No such file or directory)");
	sb_reset(&sb);
	sc_fmt_ret(&sb, NULL, 3);
	assert_string_equal(sb.buf, "3");
	sb_free(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_table),
		cmocka_unit_test(test_parse_openat),
		cmocka_unit_test(test_parse_connect_and_alias),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_beautifiers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
