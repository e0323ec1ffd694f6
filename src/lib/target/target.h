/* SPDX-License-Identifier: GPL-2.0-only */
/* What a command observes and the workload it may start, for every command
 * (record, trace, run, and the features after them):
 *
 *   -p PID,...   processes (all their threads)     -t TID,...   threads
 *   -a           the whole system                  -C CPUS      only these CPUs
 *   -- CMD ARGS  a workload started "corked": forked, held before exec until
 *                the tracer is attached, then released (perf's scheme)
 *
 * Error convention (as the rest of the library): functions return 0 or a
 * negative errno and have logged one message saying what failed, why and
 * what to do. The cli callbacks follow cli.h's callback convention. */
#ifndef BPFPERF_TARGET_H
#define BPFPERF_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct target {
	pid_t *pids;		/* -p */
	size_t nr_pids;
	pid_t *tids;		/* -t */
	size_t nr_tids;
	bool system_wide;	/* -a */
	const char *cpu_list;	/* -C as given, or NULL */
	char **argv;		/* -- CMD ARGS..., or NULL */
};

/* cli.h callbacks for -p and -t (dst: struct target *): comma-separated
 * positive decimal ids, appended; an empty list is an error. */
const char *target_cli_pids(const char *arg, void *dst);
const char *target_cli_tids(const char *arg, void *dst);

/* Which combinations a command accepts (target_check). */
enum {
	TARGET_REQUIRED = 1 << 0,	/* one of -p, -t, -a or a command must be given */
	TARGET_A_WITH_CMD = 1 << 1,	/* -a together with a command (system wide while it runs) */
	TARGET_NO_TIDS = 1 << 2,	/* -t is not offered */
};
/* Check the combination and that every -p/-t id exists. -EINVAL (usage:
 * exit 2) or -ESRCH (no such process: exit 2 as well, the id was given). */
int target_check(const struct target *t, unsigned flags);

/* Per-CPU events for every task: -a, -C without -p/-t (with a command too:
 * CPU-wide while it runs, as in perf), or no target at all. */
bool target_is_system_wide(const struct target *t);

/* The online CPUs selected by -C (all online ones without it), as a mask of
 * cpu_count_possible() entries in *mask (free()). -EINVAL for a bad list. */
int target_cpus(const struct target *t, bool **mask, int *nr_cpus);

/* Every thread of the -p processes (read from /proc now) and the -t
 * threads, into *tids (free()). */
int target_threads(const struct target *t, pid_t **tids, size_t *nr);

/* Is any -p/-t target still running? (true when there are none; a zombie,
 * exited but not reaped by its parent, does not count.) Reads /proc. */
bool target_alive(const struct target *t);

/* The -p processes and -t threads watched for their exit through pidfds
 * (Linux 5.3+; single threads 6.9+, else /proc is read): checking costs one
 * poll() and no /proc reads. NULL when there are no -p/-t targets. */
struct target_watch;
struct target_watch *target_watch_open(const struct target *t);
/* Is any target still running? (true for NULL) */
bool target_watch_alive(struct target_watch *w);
void target_watch_close(struct target_watch *w);

/* The parent of pid from /proc, 0 if unknown. */
pid_t proc_parent(pid_t pid);

/* ---- the workload ---- */

struct workload {
	pid_t pid;		/* 0: none */
	int go_fd;		/* write end of the cork: closing it releases the exec */
	int err_fd;		/* read end: the child's errno when its exec failed */
	bool reaped;
	int status;		/* wait status once reaped */
	char *path;		/* the resolved program */
	bool stdout_to_stderr;	/* the workload's stdout goes to our stderr */
	uint64_t start_ns, end_ns;	/* released, reaped (now_ns(); 0: not yet) */
	uint64_t cpu_ns;	/* user + system time it used, once reaped */
	/* A page shared with the child: set before the cork is closed, so
	 * that the child tells its release from the tracer's death (both
	 * close the pipe; a dying tracer closes it before it is reparented). */
	volatile int *released;
};

/* Find argv[0] in PATH and fork a child that waits, corked, before exec.
 * -ENOENT/-EACCES (reported: "cannot run 'X': ...") before any fork when the
 * program cannot be found or run. */
int workload_prepare(struct workload *w, char **argv);
/* Same, the workload's standard output sent to the standard error: our own
 * standard output carries data (perf.data in pipe mode), as perf does. */
int workload_prepare_redirected(struct workload *w, char **argv, bool stdout_to_stderr);
/* Release the child to exec. 0, or the exec's -errno (reported, child reaped). */
int workload_start(struct workload *w);
/* Reap the child if it has exited (block: wait for it). True once reaped. */
bool workload_reap(struct workload *w, bool block);
/* Send sig to the child if it is still running. */
void workload_signal(struct workload *w, int sig);
/* The exit status to return for the workload: its exit code, or 128 + signal. */
int workload_exit_status(const struct workload *w);
/* The exit status for a workload that could not be started: 127 when the
 * program was not found, 126 otherwise (as shells do). */
int workload_failed_status(int err);
/* Kill (SIGKILL) and reap a child that is still there; close the pipes. */
void workload_destroy(struct workload *w);

#endif
