/* SPDX-License-Identifier: GPL-2.0-only */
/* The commands: one file each in src/cmd/, dispatched from src/main.c.
 * A handler gets argv with argv[0] = command name and returns the exit status. */
#ifndef BPFPERF_CMDS_H
#define BPFPERF_CMDS_H

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_lock(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_ftrace(int argc, char **argv);
int cmd_kwork(int argc, char **argv);

#endif
