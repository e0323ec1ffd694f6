/* SPDX-License-Identifier: GPL-2.0-only */
/* What every BPF feature needs around its skeleton, written once:
 *
 *   bpf_privileges_check()     CAP_SYS_ADMIN, or CAP_BPF and CAP_PERFMON
 *   tracefs_dir()              where tracefs is (mounted on demand)
 *   skel_load_designs()        load the best design the kernel supports, with
 *                              feature probes and a fallback, saying which (-v)
 *   skel_attach_ordered()      attach in a given order; a failure names the
 *                              kernel feature that is missing
 *   percpu_lookup()            read one key of a per-CPU map, all CPUs
 *   bpf_wait_for_programs()    no program still running on another CPU
 *   stop_loop_run()            poll and drain until a signal, the duration,
 *                              the workload's exit or the targets' exit
 *   bpf_detach_in_background() exit at once, leaving the slow detach of
 *                              tracepoints and kprobes to a child
 *
 * Nothing here prints except through log.h, and nothing names an option.
 * Error convention: 0 or a negative errno, one message logged by the
 * function that saw the failure (what failed, why, what to do). */
#ifndef BPFPERF_SKEL_H
#define BPFPERF_SKEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct bpf_program;
struct bpf_link;
struct target;
struct target_cfg;
struct workload;

/* 0, or -EPERM after saying that root or CAP_BPF+CAP_PERFMON is needed to
 * load what (e.g. "the trace BPF programs"). */
int bpf_privileges_check(const char *what);

/* tracefs's mount point (/sys/kernel/tracing, /sys/kernel/debug/tracing),
 * mounting it at /sys/kernel/tracing when it is not mounted; NULL if that
 * fails (the caller says what it loses). */
const char *tracefs_dir(void);

/* ---- loading: designs tried best first ---- */

struct skel_design {
	const char *name;	/* "task storage", "hash maps": shown at -v */
	/* Probe the kernel: true if this design can work here; else *why says
	 * what is missing. NULL: always worth trying. */
	bool (*usable)(void *ctx, const char **why);
};
/* Try designs[0..n) in order: skip those whose probe fails, call
 * load(ctx, i) for the others until one returns 0. *chosen is the index
 * loaded and *why the reason the better designs were not used (NULL when
 * the first was). When every design fails, the last load error is reported
 * (permissions, or the verifier log hint) and returned. */
int skel_load_designs(const struct skel_design *designs, int n, int (*load)(void *ctx, int design),
		      void *ctx, const char *what, int *chosen, const char **why);
/* A design probe: can raw tracepoint programs use BPF task storage here
 * (Linux 5.11+)? Else *why says what is missing. */
bool skel_task_storage_usable(const char **why);
/* Report a failed load of what: permissions, or where the verifier's reasons
 * are. Returns err. */
int skel_load_error(int err, const char *what);

/* Attach progs[i] into *links[i] in the order given, skipping programs not
 * set to load. On a failure the attached ones stay (destroy them with the
 * skeleton) and the error names the program and the kernel feature its type
 * needs. */
int skel_attach_ordered(struct bpf_program *const *progs, struct bpf_link **const *links, int n);
/* The kernel feature a program type needs, for messages ("raw tracepoints
 * (CONFIG_BPF_EVENTS)", "kprobes (CONFIG_KPROBE_EVENTS)", ...). */
const char *skel_prog_feature(const struct bpf_program *p);

/* ---- maps ---- */

/* Number of possible CPUs, as per-CPU maps count them. */
int percpu_nr_cpus(void);
/* Look key up in a per-CPU map: *values gets nr_cpus values of value_size
 * bytes each, value_stride (value_size rounded up to 8) apart, in a buffer
 * the caller owns (percpu_alloc). 0, -ENOENT or -errno (not reported). */
void *percpu_alloc(size_t value_size);
size_t percpu_stride(size_t value_size);
int percpu_lookup(int map_fd, const void *key, void *values);
/* Event and loss counters kept by the BPF side in a per-CPU array of u64
 * (key 0..n-1, e.g. events lost when a ring buffer was full): out[i] is key
 * i summed over the CPUs (0 for a key that cannot be read). */
void percpu_counters_read(int map_fd, uint64_t *out, uint32_t n);

/* ---- the maps of src/bpf/include/target_filter.h ---- */

struct target_maps {
	int tgids, tids, excluded;	/* map fds (target_tgids, ...); unused ones may be -1 */
};
/* Before attach: the -p processes (matched at once), the -t threads, and the
 * workload (armed: matched from its exec on). 0, or -errno (reported). */
int target_maps_fill(const struct target_maps *m, const pid_t *pids, size_t nr_pids,
		     const pid_t *tids, size_t nr_tids, pid_t workload);
/* The program's target_cfg (its rodata, before load): never bpfperf itself;
 * every task when system_wide, else the tgids of target_tgids (tgids: -p
 * processes or a workload) and the threads of target_tids (tids); only tasks
 * under target_cgroup when cgroup (alone: all of them). */
void target_cfg_set(struct target_cfg *cfg, bool system_wide, bool tgids, bool tids, bool cgroup);
/* System wide: our output goes through the terminal, ssh and the shells
 * above us, whose activity would make more output (a feedback loop): leave
 * our ancestors out. */
void target_maps_exclude_ancestors(const struct target_maps *m);

/* ---- the map of src/bpf/include/stack_store.h ---- */

/* The frames of stack id (innermost first) into ips, at most cap of them:
 * their number, 0 for id 0 or an id not in the map. */
size_t stack_store_read(int map_fd, uint64_t id, uint64_t *ips, size_t cap);

/* Wait until no BPF program can still be running on another CPU (programs
 * run under RCU; one grace period), so that maps are stable after detach. */
void bpf_wait_for_programs(void);

/* ---- the stop loop ---- */

enum stop_reason {
	STOP_ERROR = -1,
	STOP_SIGNAL = 1,	/* SIGINT, SIGTERM or SIGHUP */
	STOP_DURATION,		/* the duration has passed */
	STOP_WORKLOAD_EXIT,	/* the workload has exited (and is reaped) */
	STOP_TARGETS_GONE,	/* every -p/-t target has exited */
	STOP_OUTPUT_CLOSED,	/* the reader of the output pipe has gone */
};

struct stop_loop {
	struct workload *wl;		/* the workload, or NULL */
	const struct target *target;	/* its -p/-t ids are watched, or NULL */
	double duration;		/* seconds, 0: none */
	double interval;		/* seconds between tick() calls, 0: none */
	/* The output's fd when it may be a pipe or a socket (stdout: 1): the
	 * loop ends once nobody reads it any more ("| head -1"), also when
	 * nothing is written. 0: not watched (fd 0 is never an output). */
	int out_fd;
	/* Wait up to timeout_ms for data and consume it: >= 0, or a negative
	 * errno that ends the loop (-EINTR is not an error). Required. */
	int (*poll)(void *ctx, int timeout_ms);
	int (*tick)(void *ctx);		/* every interval: < 0 ends the loop */
	void *ctx;
	int err;			/* out: the error for STOP_ERROR */
	int signal;			/* out: the signal for STOP_SIGNAL */
};

/* Catch SIGINT, SIGTERM and SIGHUP (they end the loop), wake on SIGCHLD;
 * with ignore_sigpipe, writes to a closed pipe fail with EPIPE instead of
 * killing the process. Call before the workload starts. */
void stop_signals_install(bool ignore_sigpipe);
/* The stop signal received so far, or 0. */
int stop_signal_received(void);

/* Run until one of the stop reasons. With a workload that is still running
 * when a signal or the duration ends the loop, the workload gets the signal
 * (SIGTERM for the duration) and the loop goes on draining while it exits;
 * one second later it is killed. The workload is reaped on return. */
enum stop_reason stop_loop_run(struct stop_loop *l);

/* ---- exiting ---- */

/* Call when done, just before exiting with the BPF links still open: forks a
 * child that inherits them and closes them once this process has exited, so
 * that the exit does not wait for the kernel's detach (RCU grace periods,
 * tens of ms per tracepoint or kprobe). Best effort: on failure the caller
 * detaches itself. BPFPERF_SYNC_DETACH=1 in the environment turns it off
 * (to measure the difference). */
void bpf_detach_in_background(void);

#endif
