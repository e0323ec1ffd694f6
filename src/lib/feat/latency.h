/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfperf latency's engine: histograms of function durations measured in
 * the kernel (src/bpf/latency.bpf.c). Calls, in order:
 *
 *   latency_funcs_resolve()  the -T specs (or the -e pair) to functions:
 *                            globs expanded, binaries and syscalls checked;
 *                            nothing is loaded or attached
 *   latency_open()           open and load the BPF objects (one more per
 *                            kernel function), probe fentry vs kprobes
 *   latency_start()          fill the target maps, attach
 *   latency_read()           the histograms (with reset: since the last read)
 *   latency_stop()           detach, wait for running programs
 *   latency_result_free(), latency_close(), latency_funcs_free()
 *
 * Never prints except through log.h; no option names in messages. */
#ifndef BPFPERF_FEAT_LATENCY_H
#define BPFPERF_FEAT_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/types.h>
#include "latency_data.h"
#include "target_filter.h"

enum latency_kind {
	LAT_KIND_KERNEL = 0,	/* fentry/fexit, else kprobe/kretprobe */
	LAT_KIND_USER,		/* BINARY:FUNC, PID:FUNC: uprobe/uretprobe */
	LAT_KIND_SYSCALL,	/* syscall:NAME: raw_syscalls sys_enter/sys_exit */
	LAT_KIND_TP_PAIR,	/* -e BEGIN,END: two tracepoints */
};

struct latency_func {
	enum latency_kind kind;
	char *name;		/* as shown: "vfs_read", "/bin/x:main", "syscall:read", "a:b,c:d" */
	char *kfunc;		/* LAT_KIND_KERNEL */
	char *path;		/* LAT_KIND_USER: the file to probe */
	uint64_t offset;	/* LAT_KIND_USER */
	pid_t pid;		/* LAT_KIND_USER: PID:FUNC's process, else -1 */
	int sc_nr;		/* LAT_KIND_SYSCALL */
	char *tp[2][2];		/* LAT_KIND_TP_PAIR: {category, name} of begin and end */
	const char *mech;	/* after latency_open: "fentry", "kprobe", "uprobe", ... */
};

struct latency_funcs {
	struct latency_func *v;
	size_t n;
};

/* The -T specs (FUNC, glob, BINARY:FUNC, PID:FUNC, syscall:NAME) into f.
 * A glob over kernel functions takes at most LAT_MAX_FUNCS matches (sorted
 * by name; a warning says how many were left out). 0, or -BPFPERF_EUSAGE
 * after one message (no such function, binary, syscall; a glob matching
 * nothing; too many functions). */
int latency_funcs_resolve(const char *const *specs, size_t n, struct latency_funcs *f);
/* "CAT:NAME,CAT:NAME" (or CAT/NAME): both tracepoints must exist. 0 or
 * -BPFPERF_EUSAGE after a message. */
int latency_events_resolve(const char *pair, struct latency_funcs *f);
void latency_funcs_free(struct latency_funcs *f);
/* Does the pattern have glob characters (*, ?, [)? */
bool latency_is_glob(const char *s);

struct latency_opts {
	struct latency_funcs *funcs;	/* resolved; mech is set by latency_open */
	struct lat_cfg cfg;		/* see latency_cfg_make() */
	bool system_wide;
	bool by_tgid;			/* -p or a workload */
	bool by_tid;			/* --tid */
	bool follow_workload;		/* a workload: match it from its exec on */
	const char *cgroup;		/* cgroup v2 path, or NULL */
	const bool *cpus;		/* nr_cpus flags, or NULL: every CPU */
	int nr_cpus;
	bool force_kprobe;		/* test only (BPFPERF_FORCE_KPROBE=1 works too) */
};

/* The bucket configuration of perf ftrace latency: nsec or usec units,
 * range 0 (log2) or linear with min/max (0: perf's defaults: min = range,
 * max = min + 20 * range). 0, or -BPFPERF_EUSAGE after a message (min or
 * max without range, max below min + range, more than LAT_MAX_BUCKETS). */
int latency_cfg_make(bool nsec, uint64_t range, uint64_t min, uint64_t max, struct lat_cfg *c);

struct latency;
int latency_open(const struct latency_opts *o, struct latency **out);
int latency_start(struct latency *l, const pid_t *pids, size_t nr_pids, const pid_t *tids,
		  size_t nr_tids, pid_t workload);
void latency_stop(struct latency *l);

struct latency_hist {
	const struct latency_func *func;
	uint64_t buckets[LAT_MAX_BUCKETS];	/* cfg.nr_buckets used */
	struct counts c;			/* ns */
	uint64_t lost[LAT_LOST_NR];
};

struct latency_result {
	struct latency_hist *h;		/* one per function, in order */
	size_t n;
};

/* The histograms. reset: those since the last read (interval mode: the
 * programs move to the other half of the slots first, so that nothing is
 * lost); else everything so far. final: count the calls still in flight
 * (LAT_LOST_INFLIGHT). 0 or a negative errno (reported). */
int latency_read(struct latency *l, bool reset, bool final, struct latency_result *r);
void latency_result_free(struct latency_result *r);
void latency_close(struct latency *l);

#endif
