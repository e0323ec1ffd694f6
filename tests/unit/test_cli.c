// SPDX-License-Identifier: GPL-2.0-only
/* src/lib/cli.c (option tables: usage, parsing, checks, exit codes) and the
 * -p/-t list callbacks of src/lib/target/. No privileges needed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "log.h"
#include "target/target.h"
#include "util.h"

/* ---- capturing what a call writes to stdout or stderr ---- */

struct capture {
	int fd, saved;
	FILE *tmp;
};

static void capture_start(struct capture *c, int fd)
{
	fflush(NULL);
	c->fd = fd;
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved = dup(fd);
	dup2(fileno(c->tmp), fd);
}

/* What was written since capture_start (free it). */
static char *capture_end(struct capture *c)
{
	fflush(NULL);
	dup2(c->saved, c->fd);
	close(c->saved);
	long n = ftell(c->tmp);
	char *s = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
	rewind(c->tmp);
	if (n > 0 && fread(s, 1, (size_t)n, c->tmp) != (size_t)n)
		s[0] = '\0';
	fclose(c->tmp);
	return s;
}

/* ---- a command with one option of each kind ---- */

struct vals {
	bool flag, on;
	int count, choice;
	const char *str;
	struct cli_strv strv;
	uint64_t u64, size;
	double dbl;
	int calls;
	const char *last_call;
	struct target target;
};

static const char *const colours[] = { "red", "green", "blue", NULL };

static const char *even_cb(const char *arg, void *dst)
{
	struct vals *v = dst;
	uint64_t n;
	if (!parse_u64(arg, &n) || n % 2)
		return "an even number";
	v->calls++;
	v->last_call = arg;
	return NULL;
}

static const char *reported_cb(const char *arg, void *dst)
{
	(void)dst;
	pr_err("the callback says no to '%s'", arg);
	return CLI_REPORTED;
}

static struct vals V;

static const struct cli_opt opts[] = {
	CLI_FLAG('f', "flag", "a flag", &V.flag),
	CLI_FLAG_OFF(0, "no-on", "turn on off", &V.on),
	{ .kind = CLI_K_COUNT, .short_name = 'c', .long_name = "count", .help = "count me", .dst = &V.count },
	CLI_STR('o', "output", "FILE", "write to FILE", &V.str),
	CLI_STRV('I', "include", "DIR", "add DIR (repeatable)", &V.strv),
	CLI_U64('n', "number", "N", "a number\nbetween 1 and 100", &V.u64, 1, 100, "a number from 1 to 100"),
	CLI_DOUBLE(0, "duration", "MS", "milliseconds", &V.dbl, 0, 1e9, "milliseconds"),
	CLI_SIZE('m', "buffer-size", "SIZE", "a size", &V.size, 4096, 1ull << 31, "a size between 4K and 2G"),
	CLI_CHOICE(0, "colour", "C", "red, green or blue", &V.choice, colours),
	CLI_CALL('e', "even", "N", "an even number", &V, even_cb),
	CLI_CALL(0, "refuse", "ANYTHING-AT-ALL", "always refused", &V, reported_cb),
	CLI_CALL('p', "pid", "PID,...", "processes", &V.target, target_cli_pids),
	CLI_CALL('t', "tid", "TID,...", "threads", &V.target, target_cli_tids),
	CLI_FLAG(0, "hidden", NULL, &V.on),
	CLI_END,
};

static struct cli_cmd cmd = {
	.name = "demo",
	.synopsis = "[OPTIONS] [-- CMD [ARGS...]]",
	.description = "Demonstrate the option table.\n",
	.footer = "The end.\n",
	.opts = opts,
	.positional = CLI_POS_CMD,
};

static int setup(void **state)
{
	(void)state;
	free(V.strv.v);
	free(V.target.pids);
	free(V.target.tids);
	memset(&V, 0, sizeof(V));
	V.on = true;
	log_set_verbosity(0);
	cmd.positional = CLI_POS_CMD;
	return 0;
}

static int teardown(void **state)
{
	return setup(state);
}

/* Parse a NULL-terminated word list (argv[0] = "demo"); stderr in *err if
 * err is not NULL. */
static int parse(struct cli_args *a, char **err, ...)
{
	static char *argv[32];
	int argc = 0;
	va_list ap;
	va_start(ap, err);
	argv[argc++] = (char *)"demo";
	for (char *w; (w = va_arg(ap, char *));)
		argv[argc++] = w;
	va_end(ap);
	argv[argc] = NULL;
	struct capture c;
	capture_start(&c, STDERR_FILENO);
	int rc = cli_parse(&cmd, argc, argv, a);
	char *text = capture_end(&c);
	if (err)
		*err = text;
	else
		free(text);
	return rc;
}

static void test_usage(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cli_usage(&cmd, f);
	fclose(f);
	assert_non_null(strstr(buf, "usage: bpfperf demo [OPTIONS] [-- CMD [ARGS...]]\n\nDemonstrate the option table.\n\n"));
	assert_non_null(strstr(buf, "  -f, --flag             a flag\n"));
	assert_non_null(strstr(buf, "      --no-on            turn on off\n"));
	assert_non_null(strstr(buf, "  -o, --output FILE      write to FILE\n"));
	/* a newline in the help: the next line is indented to the help column */
	assert_non_null(strstr(buf, "  -n, --number N         a number\n                         between 1 and 100\n"));
	/* a long left column: the help goes on the next line */
	assert_non_null(strstr(buf, "  -m, --buffer-size SIZE a size\n"));
	assert_non_null(strstr(buf, "      --refuse ANYTHING-AT-ALL\n                         always refused\n"));
	/* the built-ins are added; hidden options are not listed */
	assert_non_null(strstr(buf, "  -v, --verbose"));
	assert_non_null(strstr(buf, "  -h, --help             this help\n"));
	assert_null(strstr(buf, "hidden"));
	assert_non_null(strstr(buf, "\nThe end.\n"));
	free(buf);
}

static void test_help(void **state)
{
	(void)state;
	struct cli_args a;
	struct capture c;
	capture_start(&c, STDOUT_FILENO);
	char *argv[] = { (char *)"demo", (char *)"-f", (char *)"--help", (char *)"--bogus", NULL };
	int rc = cli_parse(&cmd, 4, argv, &a);
	char *out = capture_end(&c);
	assert_int_equal(rc, CLI_HELP);
	assert_int_equal(cli_exit(rc), EXIT_OK);
	assert_non_null(strstr(out, "usage: bpfperf demo"));
	free(out);
}

static void test_values(void **state)
{
	(void)state;
	struct cli_args a;
	int rc = parse(&a, NULL, "-f", "--no-on", "-cc", "--count", "-o", "out.txt", "-I", "a", "--include=b",
		       "-n", "42", "--duration", "0.5", "-m", "64M", "--colour", "blue", "-e", "8", "--even=10",
		       "-p", "1,2", "--pid", "3", "-t", "7", NULL);
	assert_int_equal(rc, CLI_OK);
	assert_true(V.flag);
	assert_false(V.on);
	assert_int_equal(V.count, 3);
	assert_string_equal(V.str, "out.txt");
	assert_int_equal(V.strv.n, 2);
	assert_string_equal(V.strv.v[0], "a");
	assert_string_equal(V.strv.v[1], "b");
	assert_int_equal(V.u64, 42);
	assert_true(V.dbl == 0.5);
	assert_int_equal(V.size, 64ull << 20);
	assert_int_equal(V.choice, 2);
	assert_int_equal(V.calls, 2);
	assert_string_equal(V.last_call, "10");
	assert_int_equal(V.target.nr_pids, 3);
	assert_int_equal(V.target.pids[0], 1);
	assert_int_equal(V.target.pids[2], 3);
	assert_int_equal(V.target.nr_tids, 1);
	assert_int_equal(V.target.tids[0], 7);
	assert_null(a.cmd);
	cli_args_free(&a);
}

static void test_sizes(void **state)
{
	(void)state;
	static const struct { const char *arg; uint64_t want; } ok[] = {
		{ "4096", 4096 }, { "4K", 4096 }, { "4kB", 4096 }, { "2G", 1ull << 31 }, { "0x2000", 8192 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		struct cli_args a;
		assert_int_equal(parse(&a, NULL, "-m", ok[i].arg, NULL), CLI_OK);
		assert_int_equal(V.size, ok[i].want);
		cli_args_free(&a);
	}
	static const char *const bad[] = { "4095", "3G", "12Q", "-4096", "", "K", "99999999999999999G" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct cli_args a;
		char *err;
		assert_int_equal(parse(&a, &err, "-m", bad[i], NULL), CLI_USAGE_ERROR);
		assert_non_null(strstr(err, "invalid --buffer-size '"));
		assert_non_null(strstr(err, "': expected a size between 4K and 2G"));
		free(err);
	}
}

/* Each bad value: CLI_USAGE_ERROR (exit 2) and "invalid --name 'value': expected ...". */
static void test_bad_values(void **state)
{
	(void)state;
	static const struct { const char *opt, *arg, *msg; } bad[] = {
		{ "--duration", "abc", "invalid --duration 'abc': expected milliseconds\n" },
		{ "--duration", "-1", "invalid --duration '-1': expected milliseconds\n" },
		{ "--duration", "inf", "invalid --duration 'inf': expected milliseconds\n" },
		{ "--duration", "nan", "invalid --duration 'nan': expected milliseconds\n" },
		{ "-n", "0", "invalid --number '0': expected a number from 1 to 100\n" },
		{ "-n", "101", "invalid --number '101': expected a number from 1 to 100\n" },
		{ "-n", "1x", "invalid --number '1x': expected a number from 1 to 100\n" },
		{ "--colour", "pink", "invalid --colour 'pink': expected one of red, green or blue\n" },
		{ "-e", "3", "invalid --even '3': expected an even number\n" },
		{ "--refuse", "x", "the callback says no to 'x'\n" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct cli_args a;
		char *err;
		int rc = parse(&a, &err, bad[i].opt, bad[i].arg, NULL);
		assert_int_equal(rc, CLI_USAGE_ERROR);
		assert_int_equal(cli_exit(rc), EXIT_USAGE);
		if (!strstr(err, bad[i].msg))
			fail_msg("%s %s: got '%s', want '%s'", bad[i].opt, bad[i].arg, err, bad[i].msg);
		free(err);
	}
	assert_int_equal(V.calls, 0);
}

static void test_unknown_and_missing(void **state)
{
	(void)state;
	static const struct { const char *word, *msg; } bad[] = {
		{ "--bogus", "unknown option '--bogus'; see 'bpfperf demo --help'\n" },
		{ "--bogus=1", "unknown option '--bogus=1'; see 'bpfperf demo --help'\n" },
		{ "-x", "unknown option '-x'; see 'bpfperf demo --help'\n" },
		{ "-fx", "unknown option '-x'; see 'bpfperf demo --help'\n" },
		{ "--flag=1", "option --flag takes no argument; see 'bpfperf demo --help'\n" },
		{ "-o", "option --output needs an argument (FILE); see 'bpfperf demo --help'\n" },
		{ "--duration", "option --duration needs an argument (MS)" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct cli_args a;
		char *err;
		assert_int_equal(parse(&a, &err, bad[i].word, NULL), CLI_USAGE_ERROR);
		if (!strstr(err, bad[i].msg))
			fail_msg("%s: got '%s', want '%s'", bad[i].word, err, bad[i].msg);
		free(err);
	}
}

static void test_verbose(void **state)
{
	(void)state;
	struct cli_args a;
	assert_int_equal(parse(&a, NULL, "-vv", NULL), CLI_OK);
	assert_int_equal(log_verbosity(), 2);
	cli_args_free(&a);
	log_set_verbosity(0);
	/* anywhere among the options, bundled with others */
	assert_int_equal(parse(&a, NULL, "-f", "-v", "--verbose", "-fv", NULL), CLI_OK);
	assert_int_equal(log_verbosity(), 3);
	assert_true(V.flag);
	cli_args_free(&a);
	log_set_verbosity(0);
	/* after the command it belongs to the command */
	assert_int_equal(parse(&a, NULL, "--", "ls", "-v", NULL), CLI_OK);
	assert_int_equal(log_verbosity(), 0);
	cli_args_free(&a);
}

static void test_pos_cmd(void **state)
{
	(void)state;
	struct cli_args a;
	assert_int_equal(parse(&a, NULL, "-f", "--", "ls", "-l", NULL), CLI_OK);
	assert_non_null(a.cmd);
	assert_string_equal(a.cmd[0], "ls");
	assert_string_equal(a.cmd[1], "-l");
	assert_null(a.cmd[2]);
	cli_args_free(&a);
	/* without --: the first word starts the command, options after it are its own */
	V.flag = false;
	assert_int_equal(parse(&a, NULL, "-o", "x", "sleep", "-f", "1", NULL), CLI_OK);
	assert_false(V.flag);
	assert_string_equal(a.cmd[0], "sleep");
	assert_string_equal(a.cmd[1], "-f");
	cli_args_free(&a);
	/* -- and nothing after it: no command */
	assert_int_equal(parse(&a, NULL, "-f", "--", NULL), CLI_OK);
	assert_null(a.cmd);
	cli_args_free(&a);
}

static void test_pos_args(void **state)
{
	(void)state;
	struct cli_args a;
	cmd.positional = CLI_POS_ARGS;
	assert_int_equal(parse(&a, NULL, "obj.o", "-f", "two", "-o", "x", "--", "cmd", "-f", NULL), CLI_OK);
	assert_int_equal(a.nr_pos, 2);
	assert_string_equal(a.pos[0], "obj.o");
	assert_string_equal(a.pos[1], "two");
	assert_true(V.flag);
	assert_string_equal(V.str, "x");
	assert_non_null(a.cmd);
	assert_string_equal(a.cmd[0], "cmd");
	assert_string_equal(a.cmd[1], "-f");
	cli_args_free(&a);
	assert_int_equal(parse(&a, NULL, "only", NULL), CLI_OK);
	assert_int_equal(a.nr_pos, 1);
	assert_null(a.cmd);
	cli_args_free(&a);
}

static void test_pos_none(void **state)
{
	(void)state;
	struct cli_args a;
	char *err;
	cmd.positional = CLI_POS_NONE;
	assert_int_equal(parse(&a, NULL, "-f", NULL), CLI_OK);
	cli_args_free(&a);
	assert_int_equal(parse(&a, &err, "-f", "stray", NULL), CLI_USAGE_ERROR);
	assert_non_null(strstr(err, "unexpected argument 'stray'; see 'bpfperf demo --help'"));
	free(err);
}

/* -p/-t lists: positive decimal ids, comma-separated, at least one. */
static void test_pid_lists(void **state)
{
	(void)state;
	static const char *const bad[] = { "", ",", ",,", "12x", "0", "-1", "+5", " 5", "1,,x", "0x10",
					   "1k", "99999999999", "1073741824" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct cli_args a;
		char *err;
		int rc = parse(&a, &err, "-p", bad[i], NULL);
		if (rc != CLI_USAGE_ERROR)
			fail_msg("-p '%s' was accepted", bad[i]);
		char want[64];
		snprintf(want, sizeof(want), "invalid --pid '%s': expected ", bad[i]);
		if (!strstr(err, want))
			fail_msg("-p '%s': got '%s'", bad[i], err);
		free(err);
	}
	struct cli_args a;
	char *err;
	assert_int_equal(parse(&a, &err, "-p", "12x", NULL), CLI_USAGE_ERROR);
	assert_non_null(strstr(err, "invalid pid '12x'"));
	free(err);
	assert_int_equal(parse(&a, &err, "-t", "", NULL), CLI_USAGE_ERROR);
	assert_non_null(strstr(err, "invalid --tid '': expected at least one id"));
	free(err);

	/* decimal even with leading zeros; lists append */
	struct target t = { 0 };
	assert_null(target_cli_pids("010,7", &t));
	assert_null(target_cli_pids("1073741823,", &t));
	assert_int_equal(t.nr_pids, 3);
	assert_int_equal(t.pids[0], 10);
	assert_int_equal(t.pids[1], 7);
	assert_int_equal(t.pids[2], 0x3fffffff);
	assert_null(target_cli_tids("3", &t));
	assert_int_equal(t.nr_tids, 1);
	assert_non_null(target_cli_pids("1,x", &t));
	free(t.pids);
	free(t.tids);
}

static void test_target_check(void **state)
{
	(void)state;
	struct capture c;
	char *argv[] = { (char *)"true", NULL };
	pid_t self = getpid(), missing = 0x3ffffffe;
	struct target none = { 0 }, two = { .system_wide = true, .argv = argv };
	struct target gone = { .pids = &missing, .nr_pids = 1 }, me = { .pids = &self, .nr_pids = 1 };

	capture_start(&c, STDERR_FILENO);
	assert_int_equal(target_check(&none, TARGET_REQUIRED), -EINVAL);
	assert_int_equal(target_check(&none, 0), 0);
	assert_int_equal(target_check(&two, 0), -EINVAL);
	assert_int_equal(target_check(&two, TARGET_A_WITH_CMD), 0);
	assert_int_equal(target_check(&gone, TARGET_REQUIRED), -ESRCH);
	assert_int_equal(target_check(&me, TARGET_REQUIRED | TARGET_NO_TIDS), 0);
	char *err = capture_end(&c);
	assert_non_null(strstr(err, "exclude each other"));
	assert_non_null(strstr(err, "no such process: pid 1073741822"));
	free(err);
}

/* A target that exited is gone while it is still a zombie (its parent has
 * not reaped it: kill(pid, 0) still succeeds), through pidfds and /proc. */
static void test_target_exit(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char b;
		close(p[1]);
		while (read(p[0], &b, 1) < 0)	/* until the parent closes its end */
			;
		_exit(0);
	}
	close(p[0]);
	pid_t self = getpid(), ids[2] = { child, self };
	struct target t = { .pids = ids, .nr_pids = 1 }, both = { .pids = ids, .nr_pids = 2 };
	struct target_watch *w = target_watch_open(&t), *wb = target_watch_open(&both);
	assert_non_null(w);
	assert_true(target_alive(&t));
	assert_true(target_watch_alive(w));
	close(p[1]);	/* the child exits, unreaped */
	for (int i = 0; i < 200 && target_watch_alive(w); i++)
		usleep(10000);
	assert_int_equal(kill(child, 0), 0);	/* a zombie */
	assert_false(target_watch_alive(w));
	assert_false(target_alive(&t));
	assert_true(target_watch_alive(wb));	/* several: until all have exited */
	assert_true(target_alive(&both));
	target_watch_close(w);
	target_watch_close(wb);
	assert_null(target_watch_open(&(struct target){ 0 }));
	assert_true(target_watch_alive(NULL));
	waitpid(child, NULL, 0);
}

static void test_seconds(void **state)
{
	(void)state;
	double d = 0;
	assert_null(cli_parse_seconds("0.5", &d));
	assert_true(d == 0.5);
	assert_non_null(cli_parse_seconds("0", &d));
	assert_non_null(cli_parse_seconds("abc", &d));
	assert_non_null(cli_parse_seconds("1e8", &d));
	assert_int_equal(cli_exit(CLI_USAGE_ERROR), 2);
	assert_int_equal(cli_exit(CLI_HELP), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_usage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help, setup, teardown),
		cmocka_unit_test_setup_teardown(test_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_and_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verbose, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pos_cmd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pos_args, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pos_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pid_lists, setup, teardown),
		cmocka_unit_test_setup_teardown(test_target_check, setup, teardown),
		cmocka_unit_test_setup_teardown(test_target_exit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seconds, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
