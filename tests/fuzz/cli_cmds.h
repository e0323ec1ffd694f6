/* SPDX-License-Identifier: GPL-2.0-only */
/* The parse stage of each command, for fuzz_cli: cli_<cmd>.c includes the
 * command's source (its option table and checks are static there) and runs
 * what the command does with its argv before it starts anything: the option
 * table, the combination checks, the value parsers (-e event specs, --filter
 * expressions, -p/-t lists, --sort keys, cgroup lists). Nothing is opened,
 * loaded or attached; everything allocated is freed. */
#ifndef BPFPERF_FUZZ_CLI_CMDS_H
#define BPFPERF_FUZZ_CLI_CMDS_H

int fuzz_cli_record(int argc, char **argv);
int fuzz_cli_report(int argc, char **argv);
int fuzz_cli_stat(int argc, char **argv);
int fuzz_cli_trace(int argc, char **argv);
int fuzz_cli_lock(int argc, char **argv);
int fuzz_cli_run(int argc, char **argv);
int fuzz_cli_latency(int argc, char **argv);
int fuzz_cli_kwork(int argc, char **argv);

#endif
