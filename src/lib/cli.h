/* SPDX-License-Identifier: GPL-2.0-only */
/* Declarative command-line options: every command declares its options once,
 * in a table of struct cli_opt, and gets its usage text, its getopt parsing,
 * value validation and the exit codes from it.
 *
 *   static const struct cli_opt opts[] = {
 *       CLI_STR('o', "output", "FILE", "write to FILE", &o.output),
 *       CLI_DOUBLE(0, "duration", "MS", "stop after MS milliseconds", &o.ms, 0, 1e9,
 *                  "milliseconds"),
 *       CLI_END,
 *   };
 *   static const struct cli_cmd cmd = { .name = "trace", .synopsis = "...", .opts = opts };
 *   int rc = cli_parse(&cmd, argc, argv, &args);
 *   if (rc != CLI_OK)
 *       return cli_exit(rc);
 *
 * The same rules in every command:
 *   - -v/--verbose (repeatable, -vv) and -h/--help are always accepted;
 *   - a bad value prints "invalid --duration 'abc': expected milliseconds";
 *   - an unknown option prints "unknown option '--bogus'; see 'bpfperf X --help'";
 *   - exit status: 0 success (and --help), 1 runtime failure, 2 usage error.
 * Only commands use this module; the library below never sees argv. */
#ifndef BPFPERF_CLI_H
#define BPFPERF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"

/* Exit statuses shared by every command. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* The exit status for a library result (log.h): 0 EXIT_OK, -BPFPERF_EUSAGE
 * EXIT_USAGE, another negative errno EXIT_FAIL, a positive value (a
 * workload's own exit status) as it is. */
static inline int cli_exit_status(int r)
{
	return r == -BPFPERF_EUSAGE ? EXIT_USAGE : r < 0 ? EXIT_FAIL : r;
}

/* What cli_parse returns. */
enum cli_result { CLI_OK = 0, CLI_HELP = 1, CLI_USAGE_ERROR = -1 };
/* The process exit status for a cli_parse result other than CLI_OK. */
static inline int cli_exit(int rc) { return rc == CLI_HELP ? EXIT_OK : EXIT_USAGE; }

enum cli_kind {
	CLI_K_END = 0,
	CLI_K_FLAG,	/* bool *dst = true */
	CLI_K_FLAG_OFF,	/* bool *dst = false */
	CLI_K_COUNT,	/* int *dst += 1 */
	CLI_K_STR,	/* const char **dst = arg */
	CLI_K_STRV,	/* struct cli_strv *dst: arg appended (repeatable) */
	CLI_K_U64,	/* uint64_t *dst, within [min, max] */
	CLI_K_DOUBLE,	/* double *dst, finite, within [min, max] (parse_duration) */
	CLI_K_SIZE,	/* uint64_t *dst: bytes with K/M/G suffix, within [min, max] */
	CLI_K_CHOICE,	/* int *dst = index of arg in choices (NULL-terminated) */
	CLI_K_CALL,	/* cb(arg, dst): NULL, or what was expected (see CLI_REPORTED) */
};

/* A callback's return for "the error is already reported". */
#define CLI_REPORTED ((const char *)1)

struct cli_opt;
/* Parse arg into dst. Return NULL on success; on failure the text that
 * completes "invalid --name 'arg': expected ...", or CLI_REPORTED after
 * reporting the error itself. */
typedef const char *(*cli_cb)(const char *arg, void *dst);

struct cli_opt {
	enum cli_kind kind;
	char short_name;	/* 0: long only */
	const char *long_name;	/* NULL: short only */
	const char *arg_name;	/* NULL: takes no argument */
	bool optional_arg;	/* the argument may be absent (--name[=ARG], -xARG) */
	const char *help;	/* NULL: not listed in the usage (hidden/testing) */
	void *dst;
	double min, max;	/* CLI_K_U64, CLI_K_DOUBLE, CLI_K_SIZE */
	const char *expect;	/* "expected ..." text for a bad value */
	const char *const *choices;
	cli_cb cb;
	/* optional_arg: may the next word be taken as the argument (perf's
	 * "-g none")? NULL: only an attached argument (--name=ARG, -xARG). */
	bool (*accepts)(const char *word);
};

/* Repeatable string options collect here (free v with free()). */
struct cli_strv {
	char **v;
	size_t n, cap;
};

#define CLI_FLAG(s, l, h, d)        { .kind = CLI_K_FLAG, .short_name = s, .long_name = l, .help = h, .dst = d }
#define CLI_FLAG_OFF(s, l, h, d)    { .kind = CLI_K_FLAG_OFF, .short_name = s, .long_name = l, .help = h, .dst = d }
#define CLI_STR(s, l, a, h, d)      { .kind = CLI_K_STR, .short_name = s, .long_name = l, .arg_name = a, .help = h, .dst = d }
#define CLI_STRV(s, l, a, h, d)     { .kind = CLI_K_STRV, .short_name = s, .long_name = l, .arg_name = a, .help = h, .dst = d }
#define CLI_U64(s, l, a, h, d, lo, hi, e) \
	{ .kind = CLI_K_U64, .short_name = s, .long_name = l, .arg_name = a, .help = h, .dst = d, .min = lo, .max = hi, .expect = e }
#define CLI_DOUBLE(s, l, a, h, d, lo, hi, e) \
	{ .kind = CLI_K_DOUBLE, .short_name = s, .long_name = l, .arg_name = a, .help = h, .dst = d, .min = lo, .max = hi, .expect = e }
#define CLI_SIZE(s, l, a, h, d, lo, hi, e) \
	{ .kind = CLI_K_SIZE, .short_name = s, .long_name = l, .arg_name = a, .help = h, .dst = d, .min = lo, .max = hi, .expect = e }
#define CLI_CHOICE(s, l, a, h, d, c) \
	{ .kind = CLI_K_CHOICE, .short_name = s, .long_name = l, .arg_name = a, .help = h, .dst = d, .choices = c }
#define CLI_CALL(s, l, a, h, d, f)  { .kind = CLI_K_CALL, .short_name = s, .long_name = l, .arg_name = a, .help = h, .dst = d, .cb = f }
#define CLI_END                     { .kind = CLI_K_END }

/* How words that are not options are taken. */
enum cli_positional {
	CLI_POS_NONE,	/* none allowed */
	CLI_POS_CMD,	/* the first one (or what follows --) starts the workload command */
	CLI_POS_ARGS,	/* collected in args->pos, anywhere; what follows -- is the command */
};

struct cli_cmd {
	const char *name;	/* "trace": messages say "see 'bpfperf trace --help'" */
	const char *synopsis;	/* "[OPTIONS] [-p PID | -a | -- CMD [ARGS...]]" */
	const char *description; /* paragraph(s) after the synopsis, or NULL */
	const char *footer;	/* text after the option list, or NULL */
	const struct cli_opt *opts;	/* ends with CLI_END */
	enum cli_positional positional;
};

struct cli_args {
	char **pos;	/* CLI_POS_ARGS: the positional words (free with free()) */
	int nr_pos;
	char **cmd;	/* the workload command (NULL-terminated, inside argv), or NULL */
};

/* Parse argv (argv[0] is the command name). Applies -v levels to the log
 * module as they are seen. Prints the usage on --help (stdout) and the error
 * on a usage error (stderr). */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, struct cli_args *args);
/* Write the usage text generated from the table. */
void cli_usage(const struct cli_cmd *cmd, FILE *f);
/* Report a usage error in the common shape and return CLI_USAGE_ERROR:
 * "invalid --name 'value': expected ..." */
int cli_bad_value(const char *opt, const char *value, const char *expected);
void cli_args_free(struct cli_args *args);
/* cli_parse for a command whose positional words are a workload (CLI_POS_CMD):
 * *workload gets the command (inside argv) or NULL. */
int cli_parse_cmd(const struct cli_cmd *cmd, int argc, char **argv, char ***workload);

/* Values for CLI_K_CALL callbacks that several commands share. */
/* double seconds > 0, <= CLI_SECONDS_MAX (parse_duration: inf, nan, 1e11
 * are usage errors, never a shorter time). */
#define CLI_SECONDS_MAX 1e7
const char *cli_parse_seconds(const char *arg, void *dst);

#endif
