/* SPDX-License-Identifier: GPL-2.0-only */
/* The kwork feature: time spent in hard irqs, softirqs, workqueue items and
 * tasks, measured and aggregated in the kernel (src/bpf/kwork.bpf.c), read
 * back as named entries (perf kwork's names: "virtio0-input.0:25",
 * "(s)RCU:9", "(w)flush_to_ldisc"), or streamed (timehist).
 *
 *   kwork_open(&opts, &k);             probe, pick the design, load
 *   kwork_start(k)                     attach
 *   kwork_poll(k, ms)                  the stop loop's wait: timehist events
 *                                      go to opts.on_event
 *   kwork_stop(k); kwork_read(k, &r);  detach, read and name the entries
 *   kwork_result_free(&r); kwork_close(k);
 *
 * Error convention: 0 or a negative errno after one logged message. */
#ifndef BPFPERF_FEAT_KWORK_H
#define BPFPERF_FEAT_KWORK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kwork_data.h"

struct kwork;

enum kwork_design {
	KWORK_DESIGN_BTF = 0,		/* tp_btf programs */
	KWORK_DESIGN_TP = 1,		/* classic tracepoint programs */
};

/* One finished piece of work (timehist). */
struct kwork_tevent {
	struct kwork_event e;
	const char *name;	/* as kwork_name() */
};

struct kwork_opts {
	enum kwork_view view;
	uint32_t classes;	/* bit 1 << enum kwork_class */
	const bool *cpus;	/* cpus[i]: observe CPU i; NULL: all */
	int nr_cpus;
	bool hist;		/* log2 histograms of the durations */
	int cgroup_fd;		/* > 0: top counts only the tasks of this cgroup (v2) */
	uint32_t map_entries;	/* aggregation entries (0: 8192) */
	int min_design;		/* testing: skip the better designs (enum kwork_design) */
	void (*on_event)(void *ctx, const struct kwork_tevent *ev);	/* timehist */
	void *ctx;
};

struct kwork_entry {
	struct kwork_key key;
	struct kwork_value v;
	const char *name;	/* kwork_name(); a task's comm for KWORK_SCHED */
	/* top, after kwork_top_compute(): */
	uint64_t runtime;	/* ns, the irq and softirq time taken out */
	uint64_t usage;		/* share of its CPU's time, in 1/100 % */
};

struct kwork_result {
	struct kwork_entry *e;
	size_t n;
	uint64_t counters[KWORK_CNT__MAX];
	uint64_t span_ns;	/* the observed window */
	bool names_own;		/* names allocated by the result (unit tests) */
};

/* top: the per-CPU time and the tasks using it (kwork_top_compute). */
struct kwork_top_cpu {
	uint64_t total, idle, irq, softirq, load;	/* ns */
	bool seen;
};
struct kwork_top {
	struct kwork_top_cpu *cpu;	/* nr_cpu entries */
	int nr_cpu;
	struct kwork_top_cpu all;
	struct kwork_entry *tasks;	/* merged per task (the idle task per CPU) */
	size_t nr_tasks;
};

int kwork_open(const struct kwork_opts *o, struct kwork **out);
enum kwork_design kwork_design(const struct kwork *k, const char **why);
const char *kwork_design_name(enum kwork_design d);
int kwork_start(struct kwork *k);
int kwork_poll(struct kwork *k, int timeout_ms);
void kwork_stop(struct kwork *k);
int kwork_read(struct kwork *k, struct kwork_result *r);
/* Counters only (timehist: nothing is aggregated). */
void kwork_read_counters(struct kwork *k, uint64_t *c);
void kwork_result_free(struct kwork_result *r);
void kwork_close(struct kwork *k);

/* ---- pure helpers (kwork_result.c; no kernel, unit tested) ---- */

/* -k's names, in enum kwork_class order, NULL-terminated. */
extern const char *const kwork_class_names[];
/* "irq,softirq" -> bits; 0 and *bad (the word, static) for an unknown name. */
uint32_t kwork_parse_classes(const char *list, const char **bad);
/* The softirq vector's name ("RCU"), NULL if out of range. */
const char *kwork_softirq_name(uint64_t vec);
/* perf's name of a work: "name:irq", "(s)NAME:vec", "(w)function" or
 * "(w)0x<address>" (sym NULL), the comm for a task. what: the irq's name,
 * the work function's symbol or the comm (NULL: unknown). */
const char *kwork_name(uint32_t type, uint64_t id, const char *what, char *buf, size_t len);

/* -s keys: */
enum kwork_sort_key { KWORK_SORT_RUNTIME, KWORK_SORT_MAX, KWORK_SORT_COUNT, KWORK_SORT_ID,
		      KWORK_SORT_AVG, KWORK_SORT_RATE, KWORK_SORT_TID, KWORK_SORT__MAX };
extern const char *const kwork_sort_names[];	/* by enum, NULL-terminated */
/* Parse "runtime,max" for a view into keys (at most KWORK_SORT__MAX):
 * their number, or -1 with *bad the word not valid for the view. NULL: the
 * view's default (perf's). */
int kwork_parse_sort(enum kwork_view v, const char *list, enum kwork_sort_key *keys, const char **bad);
/* Sort entries (or top's tasks) by keys, each descending as perf. */
void kwork_sort(struct kwork_entry *e, size_t n, const enum kwork_sort_key *keys, int nkeys);
/* Keep the entries named name (perf's -n): the order kept. */
void kwork_filter_name(struct kwork_result *r, const char *name);
/* top: per-CPU shares and the tasks, from the sched, irq and softirq
 * entries of r (perf kwork top's arithmetic). name: perf's -n on tasks. */
void kwork_top_compute(const struct kwork_result *r, const char *name, struct kwork_top *t);
void kwork_top_free(struct kwork_top *t);
static inline uint64_t kwork_entry_avg(const struct kwork_entry *e)
{
	return e->v.count ? e->v.total / e->v.count : 0;
}

#endif
