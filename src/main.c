// SPDX-License-Identifier: GPL-2.0-only
/* bpfperf: command table and global flags. Everything else lives in
 * src/cmd/<command>.c (options, orchestration) and src/lib/ (the library). */
#include "cmd/cmds.h"
#include "log.h"
#include "out/ofile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "record", cmd_record, "Profile a command or the system into perf.data" },
	{ "report", cmd_report, "Read perf.data (ours or perf's) and show the profile" },
	{ "run",    cmd_run,    "Load a BPF object, attach by section, stream events, dump maps" },
	{ "stat",   cmd_stat,   "Count events like perf stat, in its output formats" },
	{ "trace",  cmd_trace,  "strace-like syscall tracing and summaries with BPF" },
	{ "lock",   cmd_lock,   "Kernel lock contention with BPF (lock contention)" },
	{ "latency", cmd_latency, "Function latency histograms with BPF (perf ftrace latency)" },
	{ "ftrace", cmd_ftrace, "perf's spelling: 'ftrace latency' is 'latency'" },
	{ "kwork",  cmd_kwork,  "Time in irqs, softirqs, workqueues and tasks with BPF (kwork)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: bpfperf [-v...] [--version] [--help] [--buildid-dir DIR] COMMAND [ARGS]\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nSee 'bpfperf COMMAND --help' and docs/bpfperf-COMMAND.md.\n");
}

int main(int argc, char **argv)
{
	int verbose = 0;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("bpfperf %s\n", BPFPERF_VERSION);
			return 0;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			verbose = -1;
		} else if (a[1] == 'v' && strspn(a + 1, "v") == strlen(a + 1)) {
			verbose += (int)strlen(a + 1);
		} else if (!strcmp(a, "--verbose")) {
			verbose++;
		} else if (!strcmp(a, "--buildid-dir") || !strncmp(a, "--buildid-dir=", 14)) {
			/* as perf: the build-id cache of every command (PERF_BUILDID_DIR) */
			const char *dir = a[13] == '=' ? a + 14 : (i + 1 < argc ? argv[++i] : NULL);
			if (!dir || !*dir) {
				log_set_verbosity(verbose);
				pr_err("--buildid-dir needs a directory; see 'bpfperf --help'");
				return 2;
			}
			setenv("PERF_BUILDID_DIR", dir, 1);
		} else {
			log_set_verbosity(verbose);
			pr_err("unknown option '%s'; see 'bpfperf --help'", a);
			return 2;
		}
	}
	log_set_verbosity(verbose);
	log_install_libbpf();
	/* the verbosity and target options are the same in every command */
	log_set_hint(LOG_HINT_OPT_DEBUG, " (-vv)");
	log_set_hint(LOG_HINT_OPT_LIBBPF_DEBUG, " (-vvv)");
	log_set_hint(LOG_HINT_OPT_PID, " (-p PID)");
	log_set_hint(LOG_HINT_OPT_TID, " (-t TID)");
	log_set_hint(LOG_HINT_OPT_ALL_CPUS, " (-a)");
	log_set_hint(LOG_HINT_OPT_CPU_LIST, " (-C)");
	log_set_hint(LOG_HINT_OPT_CMD, " (-- CMD)");
	if (i >= argc) {
		usage(stderr);
		return 2;
	}

	/* Exact name first, then an unambiguous prefix (like bpftool). */
	const struct command *found = NULL;
	int matches = 0;
	size_t n = strlen(argv[i]);
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		if (!strcmp(commands[c].name, argv[i])) {
			found = &commands[c];
			matches = 1;
			break;
		}
		if (!strncmp(commands[c].name, argv[i], n)) {
			found = &commands[c];
			matches++;
		}
	}
	if (!found || matches > 1) {
		pr_err("%s command '%s'; run 'bpfperf --help' for the list",
		       matches > 1 ? "ambiguous" : "unknown", argv[i]);
		return 2;
	}
	static char prog[64];
	snprintf(prog, sizeof(prog), "bpfperf %s", found->name);
	log_set_prog(prog);
	int rc = found->fn(argc - i, argv + i);
	/* Every write to standard output checked, as a whole: a report or
	 * trace that did not reach it is a failure (> /dev/full). */
	if (ofile_close_stdout() < 0 && rc == 0)
		rc = 1;
	return rc;
}
