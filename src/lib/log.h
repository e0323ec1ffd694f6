/* SPDX-License-Identifier: GPL-2.0-only */
/* One logging module for the whole tool: levels selected with -v, libbpf's
 * output routed through it, and one shape for error messages:
 *   "<prog>: error: <what failed>: <why>; <what to do>"
 *
 * The library's error convention (every module under src/lib/):
 *   - a function that can fail returns 0 (or a count, or a pointer) on
 *     success and a negative errno (or NULL with the errno in an out
 *     parameter) on failure;
 *   - the function that sees the failure logs one pr_err() naming what
 *     failed, why (the errno text or the kernel's reason) and what to do; its
 *     callers pass the negative errno up without logging again;
 *   - library messages never name command-line options (commands add those
 *     hints, log_set_hint below); they speak of files, events, programs and
 *     kernel features;
 *   - configuration the caller gave that the library refuses is a usage
 *     error: -BPFPERF_EUSAGE;
 *   - nothing under src/lib/ prints to stdout/stderr except through this
 *     module, or to a FILE * / JSON writer its caller hands it.
 * Commands map results to exit statuses: 0 success, 1 runtime failure,
 * 2 usage error (cli_exit_status in cli.h), or the workload's own status.
 * The one exception: a parser of caller-given text (an option's value, e.g.
 * event_parse) may return its message in a buffer for the caller to log. */
#ifndef BPFPERF_LOG_H
#define BPFPERF_LOG_H

/* The library's usage error, returned negated (-BPFPERF_EUSAGE, logged like
 * any other) where it refuses configuration its caller gave: an event spec
 * that does not parse, an unknown sort key, options that exclude each
 * other. Commands map it to exit status 2 and other negative errnos to 1
 * (cli_exit_status in cli.h). Above every errno, below libbpf's codes
 * (4000 on). */
#define BPFPERF_EUSAGE 3900

#include <stdbool.h>
#include <stddef.h>

enum log_level {
	LOG_ERROR = 0,
	LOG_WARN = 1,
	LOG_INFO = 2,	/* -v */
	LOG_DEBUG = 3,	/* -vv; -vvv also shows libbpf's debug output */
};

/* Name printed before every message, e.g. "bpfperf record". */
void log_set_prog(const char *prog);
/* Verbosity: 0 = errors and warnings, 1 = info, 2 = debug, 3 = libbpf debug.
 * -1 (-q) keeps errors only; LOG_SILENT (-2 and below) prints nothing, not
 * even errors (fuzz targets: a message costs no formatting then). */
#define LOG_SILENT (-2)
void log_set_verbosity(int v);
int log_verbosity(void);
/* Route libbpf's messages through this module (warnings as warnings, debug at -vvv). */
void log_install_libbpf(void);

void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Tests: while buf is set, each error message (the text after
 * "<prog>: error: ", without the newline) is written to buf, the last one
 * kept, and not printed; log_capture_errors(NULL, 0) ends it. This is how a
 * test asserts what a library function reported (errors are captured at any
 * verbosity, LOG_SILENT included). */
void log_capture_errors(char *buf, size_t len);
/* Whether an error message would be printed or captured (false at
 * LOG_SILENT): a caller that builds a costly message may skip it. */
bool log_errors_wanted(void);

/* Hints that name command-line options. Library messages never name
 * options: where the user needs one to go on, the message embeds
 * log_hint(KEY), the text the command set for KEY with log_set_hint() (""
 * when it set none), so that the hint ends the same line. */
enum log_hint {
	LOG_HINT_INPUT_MISSING,		/* the perf.data file to read does not exist */
	LOG_HINT_INPUT_FOREIGN,		/* it is owned by another user: not read */
	LOG_HINT_INPUT_TERMINAL,	/* the standard input to read it from is a terminal */
	/* the options that name a thing, set once for every command (main.c):
	 * " (-p PID)" after "a process" */
	LOG_HINT_OPT_PID, LOG_HINT_OPT_TID, LOG_HINT_OPT_ALL_CPUS, LOG_HINT_OPT_CPU_LIST,
	LOG_HINT_OPT_CMD,
	LOG_HINT_OPT_DEBUG,		/* " (-vv)" after "the debug output" */
	LOG_HINT_OPT_LIBBPF_DEBUG,	/* " (-vvv)" after "libbpf's debug output" */
	LOG_HINT_OPT_CGROUP,		/* record's per-event cgroups */
	LOG_HINT_OPT_FILTER,		/* the sample filter's text */
	LOG_HINT_CGROUP_BPF_FILTER,	/* a cgroup's events cannot be opened: filter in BPF */
	LOG_HINT_CGROUP_BPF_COUNTERS,	/* the same in stat: count with BPF */
	LOG_HINT_OTHER_KALLSYMS,	/* a recording of another kernel: read its kallsyms */
	LOG_HINT_MAX
};
void log_set_hint(enum log_hint key, const char *text);
const char *log_hint(enum log_hint key);

/* Print a warning only once per call site. */
#define pr_warn_once(...) do { static bool __done; if (!__done) { __done = true; pr_warn(__VA_ARGS__); } } while (0)

#define pr_err(...)   log_msg(LOG_ERROR, __VA_ARGS__)
#define pr_warn(...)  log_msg(LOG_WARN, __VA_ARGS__)
#define pr_info(...)  log_msg(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

/* Text for a negative errno returned by a library call (libbpf, perf_event_open, ...). */
const char *log_strerr(int err);

/* When err (negative errno) means a process or system limit was hit, what to
 * raise: EMFILE names the open file limit and its value ('ulimit -n'),
 * ENFILE the system's file table, ENOMEM the address space limit ('ulimit
 * -v') when one is set. NULL for other errors. */
const char *log_limit_hint(int err);
/* "; " + log_limit_hint(err) to end a message with, or "" for other errors. */
const char *log_limit_suffix(int err);
/* The limit errno (-EMFILE, -ENFILE, -ENOMEM) that libbpf reported in a
 * message since the last call, or 0: libbpf retries after such a failure and
 * then returns another error (EINVAL, ESRCH) that would blame the wrong thing. */
int log_libbpf_limit_error(void);
/* err, or the limit errno behind it (log_libbpf_limit_error, or ESRCH from a
 * kernel BTF that could not be read under an address space limit). */
int log_limit_cause(int err);

#endif
