// SPDX-License-Identifier: GPL-2.0-only
/* Internals of the hist module, shared by its files (see hist.c for how
 * samples are aggregated):
 *   sort_keys.c  sort-key names, parsing and headers
 *   trie.c       the stack trie (trie_*)
 *   hist.c       hist_new/hist_free and the hot path (hist_add_sample)
 *   finish.c     entries, the finishing DFS, hist_finish and the sort
 *   callchain.c  the call-graph trees of the entries
 *   walk.c       stack and tree walks (folded stacks, flame graphs) */
#ifndef BPFPERF_HIST_HIST_INT_H
#define BPFPERF_HIST_HIST_INT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hist/hist.h"
#include "oa.h"
#include "util.h"

#define NONE UINT32_MAX

/* ---- stack trie ---------------------------------------------------------- */

struct root_attr {
	const char *comm;
	int pid, tid, cpu;
	int64_t state;		/* state letter | parent id << 8 | srcline id << 32 */
	const struct hist_tp *tp;	/* tracepoint key values (NULL without such keys) */
	uint32_t node;
};

struct tnode {
	struct hist_frame frame;	/* roots: sym = comm, dso = NULL, level 'c' */
	uint32_t parent;		/* NONE for roots */
	uint32_t root;			/* index in trie.roots */
	uint64_t self_period;
	uint64_t self_count;
	int first_tid;			/* the thread of the sample that made the node */
};

struct trie {
	struct tnode *nodes;
	size_t nnodes, cap;
	struct oa_index kids;		/* a node by (parent, frame): trie_child */
	struct root_attr *roots;
	size_t nroots, roots_cap;
	struct oa_index rindex;		/* a root by its attributes: trie_root */
	/* built by trie_index() */
	uint64_t *cum_period, *cum_count;
	uint32_t *first_kid, *next_sib;	/* kid lists (NULL: not built yet) */
	bool kids_sorted;		/* kid lists are in name order (trie_sort_kids) */
	int cur_tid;			/* the thread of the sample being added */
};

static inline uint64_t mix3(uint64_t a, uint64_t b, uint64_t c)
{
	return hash_u64(a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull ^
			(c * 0x94d049bb133111ebull));
}

/* A trie node is a frame under its parent: its sym, dso, ip_sym (frames
 * without symbol are told apart by address, as perf's call graphs do) and
 * off_chain. */
static inline uint64_t node_hash(uint32_t parent, const struct hist_frame *f)
{
	return mix3(parent | (uint64_t)f->off_chain << 32,
		    (uintptr_t)f->sym ^ (uintptr_t)f->ip_sym * 0x9e3779b97f4a7c15ull, (uintptr_t)f->dso ^ f->start);
}

static inline bool same_frame(const struct hist_frame *a, const struct hist_frame *b)
{
	/* the start too: two functions of one name in one file (static ones,
	 * ld.so's two check_match) are two, as perf compares symbols by start */
	return a->sym == b->sym && a->dso == b->dso && a->ip_sym == b->ip_sym && a->off_chain == b->off_chain &&
	       a->start == b->start;
}

static inline uint64_t root_hash(const char *comm, int pid, int tid, int cpu, int64_t state,
				 const struct hist_tp *tp)
{
	return mix3((uintptr_t)comm ^ (uintptr_t)tp * 0xc4ceb9fe1a85ec53ull, ((uint64_t)(uint32_t)pid << 32) | (uint32_t)tid,
		    (uint32_t)cpu ^ (uint64_t)state * 0xff51afd7ed558ccdull);
}

static inline int str_cmp_null(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

/* sort_keys_parse with each word made a key by word_key (sort_keys.c; also
 * sort_keys_parse_tp's). */
int sort_keys_parse_list(const char *s, enum sort_key *keys, int max, const char **bad,
			 bool (*word_key)(void *ctx, const char *word, size_t len, enum sort_key *key), void *ctx);

void trie_init(struct trie *t);
void trie_free(struct trie *t);
uint32_t trie_child(struct trie *t, uint32_t parent, const struct hist_frame *f);
uint32_t trie_root(struct trie *t, const char *comm, int pid, int tid, int cpu, int64_t state,
		   const struct hist_tp *tp);
/* Cumulative sums and kid lists (trie.c). */
void trie_index(struct trie *t);
/* Kid lists sorted by name (trie.c). */
void trie_sort_kids(struct trie *t);

/* ---- entries and call-graph trees --------------------------------------- */

struct hent {
	struct hist_entry e;
	int64_t pstate;		/* the key part of the root's state word (root_attr.state) */
	uint32_t mark;		/* on the current DFS path */
	uint32_t cc_root;	/* call-graph root in hist.cc */
	uint32_t max_depth;	/* longest chain in the call graph (perf's max_depth) */
	uint32_t first_node;	/* the first trie node made of the entry's frames: its
				 * sample made perf's entry, which keeps its thread */
	bool no_sym, no_map;	/* perf's NULL symbol, NULL map: no symbol covers the
				 * address, no map covers it ("[unknown]") */
	uint64_t sym_start;	/* with the sym key: the symbol's start (ekey.start) */
	int first_tid;		/* the thread of first_node, for the sort (sort_prepare) */
};

struct cnode {
	const struct hist_frame *frame;
	uint64_t period, count;
	uint32_t kid0, nkids;	/* kids are contiguous, sorted */
	uint32_t key_rank;	/* callchain_node.key_rank */
};

struct stk {
	uint64_t hash;
	uint32_t root, leaf;	/* trie nodes */
	uint32_t nframes;
	bool has_ip_sym;	/* a frame has an ip_sym: nframes of them follow the pairs */
	bool off_chain;		/* frames[0].off_chain */
	size_t off;		/* in pool, 2 pointers per frame (sym, dso), then the
				 * ip_syms when has_ip_sym (the symbols' starts are
				 * compared on the trie's nodes: not kept twice) */
	uint64_t period, count;	/* folded into the trie by hist_finish */
};

/* Bound of the stack cache's frame pool (pointers): past it, new stacks go
 * through the trie only (profiles with millions of distinct stacks). */
#define STK_POOL_MAX ((size_t)16 << 20)

struct hist {
	struct hist_opts opts;
	bool key[SORT__MAX];
	struct trie trie;
	uint64_t total_period, total_samples;
	uint64_t filtered_period, filtered_samples;	/* refused by opts.filter */
	uint64_t hidden_samples;	/* opts.hide_unresolved */
	struct hist_frame *hu_frames;	/* opts.hide_unresolved: a sample's resolved frames */
	size_t hu_cap;
	/* last root, to skip the root lookup for runs of samples of one thread */
	const char *last_comm;
	int last_pid, last_tid, last_cpu;
	int64_t last_state;
	const struct hist_tp *last_tp;
	uint32_t last_root;
	bool any_tp;			/* a SORT_TP key is among the keys */
	uint32_t (*dso_rank)(const void *ctx, const char *dso);	/* hist_dso_order */
	const void *dso_rank_ctx;

	/* entries (after hist_finish) */
	struct hent *ents;
	size_t nents, ents_cap;
	struct oa_index eindex;		/* an entry by its key (entry_of) */
	struct hist_entry **sorted;
	size_t nsorted;

	/* call-graph trees */
	struct cnode *cn;
	size_t ncn, cn_cap;
	struct callchain_node *pub;
	struct callchain_node **pub_kids;

	/* whole-stack cache in front of the trie: a sample whose stack was seen
	 * before costs one hash of its frames, one probe and one sequential
	 * compare instead of one probe per frame */
	struct stk *stks;		/* dense, in order of first sight */
	size_t nstks, stks_cap;
	struct oa_index stk_index;	/* a stack by its root and frames */
	const char **pool;		/* frames of the cached stacks (struct stk.off) */
	size_t npool, pool_cap;
	size_t last_stk;		/* stks index of the previous sample's stack, or SIZE_MAX */

	struct trie *comm_trie;	/* merged by comm, built on demand when roots carry pid/tid/cpu
				 * or frames are told apart by more than their names */
	bool split_frames;	/* some have an ip_sym of their own, or are off_chain */
	bool finished;

	/* SORT_PARENT: the parent of a sample is kept in the roots' state word
	 * (id << 8, 0: [other]); symbols are interned, so the regex runs once
	 * per distinct symbol */
	regex_t parent_re;
	bool parent_re_ok;
	const char **parents;		/* id - 1 -> symbol */
	size_t nparents, parents_cap;
	struct { const char *sym; int id; } *pcache;	/* symbols seen (id -1: no match) */
	size_t npcache, pcache_cap;
	struct oa_index pcache_index;
	/* SORT_SRCLINE: the sample's srcline, by id (<< 32 in the state word) */
	const char **srclines;		/* id - 1 -> srcline */
	size_t nsrclines, srclines_cap;
	struct oa_index srcline_index;	/* a srcline's id - 1 */
};

/* Indexes of the trie used by hist_finish. */
struct fidx {
	uint32_t *eof;		/* entry of each node (NONE: root, or no entry) */
	uint32_t *pre, *end;	/* pre-order number and end of the subtree (exclusive) */
	uint32_t *depth;	/* roots 0, first frame 1 */
	uint32_t *anc1;		/* ancestor at depth 1 */
	uint32_t *height;	/* length of the longest chain from the node down */
	/* per entry: self nodes in pre-order, prefix sums of their self period */
	uint32_t *soff, *spre, *snode;
	uint64_t *ssum, *scnt;	/* and of their self sample count */
	/* per entry: outermost occurrences (children mode) */
	uint32_t *ooff, *onode;
	/* callee_children: per entry, its innermost occurrences (the ones
	 * perf's chains start at), and per node what only it covers */
	uint32_t *ioff, *inode;
	uint64_t *iperiod, *icount;
};

/* The call-graph trees of the entries (callchain.c): e.callers. */
void hist_build_callchains(struct hist *h, const struct fidx *x);

#endif
