/* SPDX-License-Identifier: GPL-2.0-only */
/* Aggregation of samples: entries keyed by sort keys (perf's --sort), self and
 * children overhead, and the callchain tree kept for call-graph output, folded
 * stacks and flame graphs. Strings passed in are interned by the caller (the
 * machine): pointer equality is string equality, and they outlive the hist. */
#ifndef BPFPERF_HIST_H
#define BPFPERF_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hist_filter;

enum sort_key {
	SORT_COMM,	/* "comm":   Command */
	SORT_PID,	/* "pid":    Pid:Command, as perf shows "  1234:name" */
	SORT_TID,	/* "tid" */
	SORT_DSO,	/* "dso":    Shared Object */
	SORT_SYM,	/* "sym":    Symbol, shown as "[k] name" / "[.] name" */
	SORT_CPU,	/* "cpu" */
	SORT_STATE,	/* "state": why an off-CPU sample's task was blocked (S, D, I) */
	SORT_SRCLINE,	/* "srcline": file:line of the sampled address (DWARF) */
	SORT_PARENT,	/* "parent": the first frame of the chain matching
			 * hist_opts.parent_regex, "[other]" when none (perf's) */
	/* Output fields (perf's "hpp" fields, -F): columns, never a split of
	 * entries; they may be listed among the keys as perf allows. */
	SORT_PERIOD,	/* "period": sum of the entry's periods */
	SORT_SAMPLE,	/* "sample": the entry's samples (-n) */
	SORT_OVERHEAD,	/* "overhead": self percentage */
	SORT_OVERHEAD_CHILDREN,	/* "overhead_children": children percentage */
	/* Tracepoint keys (perf's dynamic sort keys: a field of the event's RAW
	 * data, or "trace", the formatted line): column i is SORT_TP0 + i, its
	 * values are the samples' hist_tp, its header hist_opts.tp_cols[i]. */
	SORT_TP0,
	SORT_TP_LAST = SORT_TP0 + 15,
	SORT__MAX,
};

#define HIST_TP_MAX (SORT_TP_LAST - SORT_TP0 + 1)

static inline bool sort_key_is_tp(int k)
{
	return k >= SORT_TP0 && k <= SORT_TP_LAST;
}

/* One distinct combination of a sample's tracepoint key values, interned by
 * the caller (pointer equality is equality; it outlives the hist). */
struct hist_tp {
	const char *id[HIST_TP_MAX];	/* entries are split by it and, at equal
					 * overhead, ordered by it (ascending strcmp) */
	const char *text[HIST_TP_MAX];	/* what is shown */
	uint32_t dyn_len[HIST_TP_MAX];	/* a __data_loc field's size (column width) */
};

/* How a tracepoint key's column looks (perf's): a field is right-aligned
 * and cut to its width (min_width, or the longest dyn_len of the entries);
 * the trace line (left) is as wide as the longest one. */
struct hist_tp_col {
	const char *name;	/* column header and JSON key */
	int min_width;
	bool left;
	bool raw;		/* --raw-trace: the values shown do not widen it */
};

/* Is k an output field rather than a key (see above)? */
static inline bool sort_key_is_field(int k)
{
	return k >= SORT_PERIOD && k <= SORT_OVERHEAD_CHILDREN;
}

/* perf's first sort dimension: the first of n keys that is not a field
 * (fields sort, but neither make entries nor name the first dimension); -1
 * when none. */
static inline int sort_first_key(const enum sort_key *keys, int n)
{
	for (int i = 0; i < n; i++)
		if (!sort_key_is_field(keys[i]))
			return keys[i];
	return -1;
}

/* Does re compile as a --parent regex (POSIX extended)? */
bool hist_parent_regex_ok(const char *re);
/* "comm,dso,sym" -> keys; returns the count, or -1 and *bad = the unknown key
 * (caller reports it). Accepts perf's names: comm, pid, tid, dso, sym, symbol,
 * cpu, and the output fields period, sample, overhead, overhead_children.
 * *unsupported is set when the bad key is one perf has and we do not (the
 * message can then say so). */
int sort_keys_parse(const char *s, enum sort_key *keys, int max, const char **bad);
bool sort_key_perf_only(const char *name);	/* a perf key we do not support? */
/* The names sort_keys_parse accepts, comma-separated (for messages). */
const char *sort_keys_known(void);
const char *sort_key_name(enum sort_key k);	/* "comm", "dso", ... (JSON keys) */
const char *sort_key_header(enum sort_key k);	/* "Command", "Shared Object", ... */

struct hist_frame {
	const char *dso;
	const char *sym;
	char level;		/* 'k', '.', '?' as in struct resolved */
	bool off_chain;		/* frames[0] only: the sampled function is not part
				 * of the call chain kept (perf report --max-stack N
				 * in caller order keeps the N outermost frames): it
				 * makes its entry (self and children), but is no
				 * call-graph node; its samples' graphs end at its
				 * caller */
	const char *ip_sym;	/* a frame without symbol: its address as perf names
				 * it in call chains (struct resolved's ip_sym; may
				 * be sym itself), NULL for resolved frames. perf
				 * merges such call-graph nodes by address, prints
				 * them "%#llx", and names the children entry of
				 * such a caller by ip_sym, the entry of the
				 * samples taken there by sym */
	uint64_t start;		/* resolved frames: the symbol's start (struct
				 * resolved's sym_start). perf orders call-graph
				 * siblings of equal period by it, descending
				 * within a dso */
};

struct hist_sample {
	const char *comm;
	int pid, tid, cpu;	/* pid: SORT_PID is the thread (perf's "pid" key is TID:comm) */
	const char *thread_comm;	/* SORT_PID: the thread's last comm, as perf shows it */
	int state;		/* off-CPU samples: 'S', 'D', 'I'; else 0 */
	const char *srcline;	/* SORT_SRCLINE: of the sampled address (interned) */
	const struct hist_tp *tp;	/* SORT_TP0...: the tracepoint key values */
	uint64_t period;	/* weight: the sample's period (cpu-clock: ns) */
	size_t nframes;		/* >= 1: frames[0] is the sampled ip (leaf), then callers */
	const struct hist_frame *frames;
};

struct hist_opts {
	/* The keys that make entries, in sort order. Fields may be among them
	 * (overhead, overhead_children, period, sample): they sort (highest
	 * first) but make no entries; only fields: a single entry. */
	enum sort_key keys[SORT__MAX];
	int nkeys;
	bool exact_order;	/* keys are the whole sort order (perf's sort list); else
				 * the overhead shown (children, then self) sorts first */
	bool children;		/* accumulate children overhead along callchains */
	bool callchains;	/* keep the callchain tree (for -g, folded, flame graph) */
	bool skip_children_sums; /* with !children: leave hist_entry.children at 0
				 * (perf's --no-children text output does not show
				 * it), which spares hist_finish a walk over every
				 * call-graph node */
	double callgraph_limit;	/* percent of the total period under which call-graph
				 * branches are not built (perf's 0.5; 0 builds all).
				 * Set it like out_opts.callgraph_limit: it is what
				 * keeps hist_finish fast on profiles with many
				 * distinct stacks. */
	bool caller_order;	/* without children: call graphs from the outermost
				 * caller down to the entry (perf's -G), not from the
				 * entry up (callee order, perf's default there) */
	bool callee_children;	/* with children: call graphs in callee order (perf's
				 * --children -g callee), each from the entry's
				 * innermost frame up to the outermost caller */
	const char *parent_regex;	/* for SORT_PARENT; NULL: perf's "^sys_|^do_page_fault".
				 * Searched from the sampled frame up, or from the
				 * outermost caller down with children or caller_order
				 * (perf's resolution order) */
	const struct hist_filter *filter;	/* samples it refuses count in the
				 * total but make no entry (hist/filter.h); NULL: none */
	bool filter_entries;	/* with children, filter's --dsos/--symbols choose entries
				 * by their own dso and symbol (perf's table), not samples
				 * by their leaf (what stack walks need) */
	const char *sym_filter;	/* perf's --symbol-filter: only entries whose symbol
				 * contains it (entries without a symbol: none) */
	bool hide_unresolved;	/* perf's --hide-unresolved: samples whose sampled
				 * address has no symbol are left out, totals too */
	bool relative;		/* percentages of the samples the filter kept (perf's
				 * --percentage relative), not of all */
	struct hist_tp_col tp_cols[HIST_TP_MAX];	/* of the keys SORT_TP0 + i */
	bool no_default_keys;	/* nkeys 0: one entry for every sample (perf with
				 * only tracepoint keys the event does not have),
				 * not the default comm,dso,sym */
};

struct hist;

struct hist *hist_new(const struct hist_opts *opts);
void hist_free(struct hist *h);
/* Copies what it needs; frames may be reused by the caller afterwards. */
void hist_add_sample(struct hist *h, const struct hist_sample *s);
/* Sort entries by the overhead shown (children if opts.children, else self),
 * descending, ties broken by the key values. Call once, after the last add. */
void hist_finish(struct hist *h);

/* Read side (after hist_finish). */
struct hist_entry {
	/* key values; only those in opts.keys are meaningful */
	const char *comm;
	int pid, tid, cpu;	/* pid: SORT_PID is the thread (perf's "pid" key is TID:comm) */
	const char *thread_comm;	/* SORT_PID: the thread's last comm, as perf shows it */
	int state;
	const char *dso;
	const char *sym;
	char level;
	const char *parent;	/* SORT_PARENT: the matching frame's symbol, or NULL ([other]) */
	const char *srcline;	/* SORT_SRCLINE */
	const struct hist_tp *tp;	/* SORT_TP0...: the values of the entry's tracepoint keys */
	uint64_t self;		/* sum of periods where the entry is the leaf */
	uint64_t children;	/* sum of periods where it is anywhere in the chain
				 * (counted once per sample); == self without callchains */
	uint64_t nr_samples;	/* samples where the entry is the leaf */
	struct callchain_node *callers;	/* call-graph tree for -g output (may be NULL) */
};

/* SORT_PID entries are threads: name each by comm_of(ctx, tid), the
 * thread's comm at the end of the recording (perf shows the last one).
 * Call after hist_finish (entries exist from then on). */
void hist_thread_comms(struct hist *h, const char *(*comm_of)(void *ctx, int tid), void *ctx);
/* Call-graph siblings of equal period in different dsos: ordered by
 * rank_of(ctx, dso), highest first, as perf orders them (machine_dso_rank).
 * Without it, by name. Call before hist_finish. */
void hist_dso_order(struct hist *h, uint32_t (*rank_of)(const void *ctx, const char *dso), const void *ctx);
const struct hist_opts *hist_opts(const struct hist *h);
/* perf walks a sample's call chain outermost caller first (its cursor in
 * caller order: children's default, -G), else from the sampled frame up */
static inline bool hist_outer_first(const struct hist_opts *o)
{
	return (o->children && !o->callee_children) || o->caller_order;
}
size_t hist_nr_entries(const struct hist *h);
const struct hist_entry *hist_entry_at(const struct hist *h, size_t i);
/* The total percentages are taken of: every sample's period, or with
 * opts.relative those the filter kept; the same for the sample count. */
uint64_t hist_total_period(const struct hist *h);
uint64_t hist_total_samples(const struct hist *h);
/* Samples the filter refused (counted in the totals unless relative). */
uint64_t hist_filtered_samples(const struct hist *h);
/* Samples left out by hide_unresolved (in no total). */
uint64_t hist_hidden_samples(const struct hist *h);

/* Whole-stack tree, root = outermost caller, per comm (what folded stacks and
 * flame graphs are made of). Walk it with hist_stacks_walk: fn is called once
 * per distinct stack with frames ordered outermost first, and the stack's
 * total self period and sample count. */
typedef void (*hist_stack_fn)(void *ctx, const char *comm, const struct hist_frame *const *frames,
			      size_t nframes, uint64_t period, uint64_t samples);
void hist_stacks_walk(const struct hist *h, hist_stack_fn fn, void *ctx);

/* The same tree node by node, in pre-order (kids sorted by name): depth 0 is
 * a comm (frame->sym = the comm, frame->dso = NULL, level 'c'), then frames.
 * period/samples are cumulative (the node and everything under it);
 * self_samples are the samples ending at the node. For flame graphs. */
typedef void (*hist_tree_fn)(void *ctx, int depth, const struct hist_frame *frame, uint64_t period,
			     uint64_t samples, uint64_t self_samples);
void hist_tree_walk(const struct hist *h, hist_tree_fn fn, void *ctx);

/* Call-graph tree under an entry (perf's -g "caller" view below each entry:
 * for self mode, the chains leading to the entry; children mode: as perf).
 * hist_entry.callers is a root with frame == NULL whose kids are the first
 * frames of the chains; one node per frame (out_table merges single-kid runs
 * as perf prints them); nodes of period 0 are left out. */
struct callchain_node {
	const struct hist_frame *frame;
	uint64_t period;		/* period through this node */
	uint64_t count;			/* samples through it */
	struct callchain_node **kids;	/* sorted by period, descending */
	size_t nkids;
	uint32_t key_rank;		/* its place among its siblings in perf's tree of
					 * callees (0 first): the order of ties above, and
					 * the order perf collects its flat chains in */
};

#endif
