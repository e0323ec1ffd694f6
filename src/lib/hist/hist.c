// SPDX-License-Identifier: GPL-2.0-only
/* Aggregation of samples.
 *
 * The hot path (hist_add_sample) only inserts the sample's stack into one
 * trie: a root per sample attribute tuple (comm, and pid/tid/cpu when they are
 * sort keys), then one node per frame, outermost caller first. Children are
 * found through a single open-addressing table keyed by (parent, sym, dso),
 * where sym and dso are interned pointers, so a sample costs nframes hash
 * probes and no allocation beyond amortized growth.
 *
 * Everything else is derived once, in hist_finish, from the distinct stacks
 * rather than from every sample: entries (self/children), the per-entry
 * call-graph trees laid out as perf builds them, and the sorted order.
 *
 * perf's rules reproduced here (perf 6.1, util/hist.c and util/callchain.c):
 * - children mode: a sample adds its period to the `children` of every
 *   distinct entry on its chain once; the leaf entry gets `self`;
 * - the call graph of an entry in children mode holds, per sample, the whole
 *   chain (outermost first) when the entry is the leaf, else the part of the
 *   chain from the entry's outermost occurrence down to the leaf;
 * - without children, the graph of an entry (always a leaf) holds the chain
 *   from the leaf to the outermost caller (perf's callee order);
 * - a frame without symbol (hist_frame.ip_sym) is a call-graph node by its
 *   address, and in children mode the entry it adds as a member of the
 *   chain is named by that address; the samples taken there go to the
 *   entry of its place in the file (sym), counted once per sample too;
 * - a sampled frame left out of the chain kept (off_chain: --max-stack in
 *   caller order) makes its entry and nothing else: the call graphs of its
 *   samples end at its caller. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/filter.h"
#include "hist/hist.h"
#include "log.h"
#include "oa.h"
#include "util.h"

#define NONE UINT32_MAX

static const struct {
	const char *name;
	const char *header;
	enum sort_key key;
} sort_names[] = {
	{ "comm", "Command", SORT_COMM },
	{ "pid", "Pid:Command", SORT_PID },
	{ "tid", "Tid", SORT_TID },
	{ "dso", "Shared Object", SORT_DSO },
	{ "sym", "Symbol", SORT_SYM },
	{ "symbol", "Symbol", SORT_SYM },
	{ "cpu", "CPU", SORT_CPU },
	{ "state", "State", SORT_STATE },
	{ "parent", "Parent symbol", SORT_PARENT },
	{ "srcline", "Source:Line", SORT_SRCLINE },
	{ "period", "Period", SORT_PERIOD },
	{ "sample", "Samples", SORT_SAMPLE },
	{ "overhead", "Overhead", SORT_OVERHEAD },
	{ "overhead_children", "Children", SORT_OVERHEAD_CHILDREN },
};

/* perf 6.1's other sort keys and fields: refused by name, never replaced by
 * a default. */
static const char *const perf_only_keys[] = {
	"srcfile", "dso_size", "sym_size", "socket", "cgroup",
	"cgroup_id", "time", "code_page_size", "ins_lat", "local_ins_lat", "p_stage_cyc",
	"addr", "local_p_stage_cyc", "simd", "retire_lat", "weight", "local_weight",
	"transaction", "mem", "symoff", "dso_from", "dso_to", "symbol_from", "symbol_to",
	"mispredict", "in_tx", "abort", "cycles", "srcline_from", "srcline_to", "ipc_lbr",
	"addr_from", "addr_to", "symbol_daddr", "dso_daddr", "locked", "tlb", "mem_lvl", "snoop",
	"dcacheline", "phys_daddr", "data_page_size", "blocked", "overhead_sys", "overhead_us",
	"overhead_guest_sys", "overhead_guest_us", "tp", "dso_size", "callchain_branch_predicted",
};

bool sort_key_perf_only(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(perf_only_keys); i++)
		if (!strcmp(perf_only_keys[i], name))
			return true;
	return false;
}

const char *sort_keys_known(void)
{
	return "comm, pid, tid, dso, sym, cpu, state, parent, srcline, period, sample, overhead, overhead_children";
}

int sort_keys_parse(const char *s, enum sort_key *keys, int max, const char **bad)
{
	static char badbuf[64];
	int n = 0;
	const char *p = s ? s : "";

	*bad = NULL;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool found = false, dup = false;

		for (size_t i = 0; i < ARRAY_SIZE(sort_names); i++) {
			if (strlen(sort_names[i].name) != len || strncmp(sort_names[i].name, p, len))
				continue;
			found = true;
			for (int j = 0; j < n; j++)
				dup |= keys[j] == sort_names[i].key;
			if (!dup) {
				if (n >= max)
					goto bad_key;
				keys[n++] = sort_names[i].key;
			}
			break;
		}
		if (!found)
			goto bad_key;
		p += len;
		if (*p == ',')
			p++;
		continue;
bad_key:
		snprintf(badbuf, sizeof(badbuf), "%.*s", (int)(len > 60 ? 60 : len), p);
		*bad = badbuf;
		return -1;
	}
	if (n == 0) {
		*bad = "";
		return -1;
	}
	return n;
}

const char *sort_key_name(enum sort_key k)
{
	for (size_t i = 0; i < ARRAY_SIZE(sort_names); i++)
		if (sort_names[i].key == k)
			return sort_names[i].name;
	return "?";
}

const char *sort_key_header(enum sort_key k)
{
	for (size_t i = 0; i < ARRAY_SIZE(sort_names); i++)
		if (sort_names[i].key == k)
			return sort_names[i].header;
	return "?";
}

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

static void trie_init(struct trie *t)
{
	memset(t, 0, sizeof(*t));
	oa_init(&t->kids, 512);
	oa_init(&t->rindex, 32);
}

static void trie_free(struct trie *t)
{
	free(t->nodes);
	oa_free(&t->kids);
	free(t->roots);
	oa_free(&t->rindex);
	free(t->cum_period);
	free(t->cum_count);
	free(t->first_kid);
	free(t->next_sib);
	memset(t, 0, sizeof(*t));
}

static uint32_t trie_new_node(struct trie *t, uint32_t parent, uint32_t root, const struct hist_frame *f)
{
	if (t->nnodes >= NONE - 1) {
		/* 4G distinct frames: cannot happen with real data; fail loudly. */
		pr_err("aggregating samples: more than 4G distinct stack frames; profile fewer processes or a shorter duration");
		abort();
	}
	if (t->nnodes == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->nodes = xrealloc(t->nodes, t->cap * sizeof(*t->nodes));
	}
	struct tnode *nd = &t->nodes[t->nnodes];
	nd->frame = *f;
	nd->parent = parent;
	nd->root = root;
	nd->self_period = 0;
	nd->self_count = 0;
	nd->first_tid = t->cur_tid;
	return (uint32_t)t->nnodes++;
}

/* f: sym and dso set (never NULL), level the first sight's */
static uint32_t trie_child(struct trie *t, uint32_t parent, const struct hist_frame *f)
{
	struct oa_probe p = oa_probe(&t->kids, node_hash(parent, f));
	for (uint32_t i; (i = oa_next(&t->kids, &p)) != OA_NONE;) {
		const struct tnode *nd = &t->nodes[i];
		if (nd->parent == parent && same_frame(&nd->frame, f))
			return i;
	}
	uint32_t idx = trie_new_node(t, parent, t->nodes[parent].root, f);
	oa_insert(&t->kids, &p, idx);
	return idx;
}

/* Returns the root's node index. */
static uint32_t trie_root(struct trie *t, const char *comm, int pid, int tid, int cpu, int64_t state,
			  const struct hist_tp *tp)
{
	struct oa_probe p = oa_probe(&t->rindex, root_hash(comm, pid, tid, cpu, state, tp));
	for (uint32_t i; (i = oa_next(&t->rindex, &p)) != OA_NONE;) {
		const struct root_attr *r = &t->roots[i];
		if (r->comm == comm && r->pid == pid && r->tid == tid && r->cpu == cpu && r->state == state &&
		    r->tp == tp)
			return r->node;
	}
	ARRAY_GROW(t->roots, t->roots_cap, t->nroots + 1);
	uint32_t ri = (uint32_t)t->nroots++;
	struct root_attr *r = &t->roots[ri];
	r->comm = comm;
	r->pid = pid;
	r->tid = tid;
	r->cpu = cpu;
	r->state = state;
	r->tp = tp;
	r->node = trie_new_node(t, NONE, ri, &(struct hist_frame){ .sym = comm, .level = 'c' });
	oa_insert(&t->rindex, &p, ri);
	return r->node;
}

static int str_cmp_null(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

static const struct trie *sort_trie;	/* qsort context (single-threaded) */


static int cmp_node_name(const void *pa, const void *pb)
{
	const struct tnode *a = &sort_trie->nodes[*(const uint32_t *)pa];
	const struct tnode *b = &sort_trie->nodes[*(const uint32_t *)pb];
	int c = str_cmp_null(a->frame.sym, b->frame.sym);
	if (c)
		return c;
	c = str_cmp_null(a->frame.dso, b->frame.dso);
	if (c)
		return c;
	if (a->root != b->root) {
		const struct root_attr *ra = &sort_trie->roots[a->root], *rb = &sort_trie->roots[b->root];
		if (ra->pid != rb->pid)
			return ra->pid < rb->pid ? -1 : 1;
		if (ra->tid != rb->tid)
			return ra->tid < rb->tid ? -1 : 1;
		if (ra->cpu != rb->cpu)
			return ra->cpu < rb->cpu ? -1 : 1;
		if (ra->state != rb->state)
			return ra->state < rb->state ? -1 : 1;
	}
	return 0;
}

/* Cumulative sums and kid lists, in node order (what hist_finish needs;
 * roots: first_kid[NONE] is not representable, so roots are listed in
 * t->roots order by the walkers). */
static void trie_index(struct trie *t)
{
	size_t n = t->nnodes;

	free(t->cum_period);
	free(t->cum_count);
	free(t->first_kid);
	free(t->next_sib);
	t->cum_period = xmalloc((n ? n : 1) * sizeof(uint64_t));
	t->cum_count = xmalloc((n ? n : 1) * sizeof(uint64_t));
	t->first_kid = xmalloc((n ? n : 1) * sizeof(uint32_t));
	t->next_sib = xmalloc((n ? n : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < n; i++) {
		t->cum_period[i] = t->nodes[i].self_period;
		t->cum_count[i] = t->nodes[i].self_count;
		t->first_kid[i] = NONE;
		t->next_sib[i] = NONE;
	}
	/* a child always has a larger index than its parent: one backward
	 * pass sums the subtrees and links each parent's kids in node order */
	for (size_t i = n; i-- > 0;) {
		uint32_t p = t->nodes[i].parent;
		if (p == NONE)
			continue;
		t->cum_period[p] += t->cum_period[i];
		t->cum_count[p] += t->cum_count[i];
		t->next_sib[i] = t->first_kid[p];
		t->first_kid[p] = (uint32_t)i;
	}
	t->kids_sorted = false;
}

/* Kid lists sorted by name, as the walkers show them (folded stacks, flame
 * graphs). Only they need it: the rest of hist_finish is order-independent. */
static void trie_sort_kids(struct trie *t)
{
	uint32_t *kids = NULL;
	size_t cap = 0;

	if (!t->first_kid)
		trie_index(t);
	if (t->kids_sorted)
		return;
	sort_trie = t;
	for (size_t p = 0; p < t->nnodes; p++) {
		size_t nk = 0;
		for (uint32_t k = t->first_kid[p]; k != NONE; k = t->next_sib[k]) {
			ARRAY_GROW(kids, cap, nk + 1);
			kids[nk++] = k;
		}
		if (nk < 2)
			continue;
		qsort(kids, nk, sizeof(uint32_t), cmp_node_name);
		t->first_kid[p] = kids[0];
		for (size_t k = 0; k + 1 < nk; k++)
			t->next_sib[kids[k]] = kids[k + 1];
		t->next_sib[kids[nk - 1]] = NONE;
	}
	sort_trie = NULL;
	free(kids);
	t->kids_sorted = true;
}

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

/* Id of an interned srcline string (0: none). */
static uint32_t srcline_id(struct hist *h, const char *sl)
{
	if (!sl)
		return 0;
	struct oa_probe p = oa_probe(&h->srcline_index, hash_u64((uintptr_t)sl));
	for (uint32_t i; (i = oa_next(&h->srcline_index, &p)) != OA_NONE;)
		if (h->srclines[i] == sl)
			return i + 1;
	ARRAY_GROW(h->srclines, h->srclines_cap, h->nsrclines + 1);
	h->srclines[h->nsrclines] = sl;
	oa_insert(&h->srcline_index, &p, (uint32_t)h->nsrclines);
	return (uint32_t)++h->nsrclines;
}

#define PARENT_DEFAULT_RE "^sys_|^do_page_fault"

bool hist_parent_regex_ok(const char *re)
{
	regex_t r;
	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB))
		return false;
	regfree(&r);
	return true;
}

static int parent_of_sym(struct hist *h, const char *sym)
{
	struct oa_probe p = oa_probe(&h->pcache_index, hash_u64((uintptr_t)sym));
	for (uint32_t i; (i = oa_next(&h->pcache_index, &p)) != OA_NONE;)
		if (h->pcache[i].sym == sym)
			return h->pcache[i].id;
	int id = -1;
	if (h->parent_re_ok && regexec(&h->parent_re, sym, 0, NULL, 0) == 0) {
		ARRAY_GROW(h->parents, h->parents_cap, h->nparents + 1);
		h->parents[h->nparents++] = sym;
		id = (int)h->nparents;
	}
	ARRAY_GROW(h->pcache, h->pcache_cap, h->npcache + 1);
	h->pcache[h->npcache].sym = sym;
	h->pcache[h->npcache].id = id;
	oa_insert(&h->pcache_index, &p, (uint32_t)h->npcache++);
	return id;
}

/* The parent id of a sample: its first frame matching the regex, in
 * perf's resolution order; 0 when none. */
static int sample_parent(struct hist *h, const struct hist_sample *s)
{
	size_t n = s->frames ? s->nframes : 0;
	bool outer_first = hist_outer_first(&h->opts);
	for (size_t k = 0; k < n; k++) {
		const struct hist_frame *f = &s->frames[outer_first ? n - 1 - k : k];
		/* perf: the symbols of the call chain kept */
		if (!f->sym || f->ip_sym || f->off_chain)
			continue;
		int id = parent_of_sym(h, f->sym);
		if (id > 0)
			return id;
	}
	return 0;
}

struct hist *hist_new(const struct hist_opts *opts)
{
	struct hist *h = xcalloc(1, sizeof(*h));

	h->opts = *opts;
	if (h->opts.nkeys < 0 || (h->opts.nkeys == 0 && !h->opts.no_default_keys) ||
	    h->opts.nkeys > SORT__MAX) {
		h->opts.nkeys = 3;
		h->opts.keys[0] = SORT_COMM;
		h->opts.keys[1] = SORT_DSO;
		h->opts.keys[2] = SORT_SYM;
	}
	for (int i = 0; i < h->opts.nkeys; i++)
		if ((unsigned)h->opts.keys[i] < SORT__MAX) {
			h->key[h->opts.keys[i]] = true;
			h->any_tp |= sort_key_is_tp(h->opts.keys[i]);
		}
	if (h->key[SORT_PARENT])
		h->parent_re_ok = !regcomp(&h->parent_re, h->opts.parent_regex ? h->opts.parent_regex
						   : PARENT_DEFAULT_RE, REG_EXTENDED | REG_NOSUB);
	trie_init(&h->trie);
	h->last_root = NONE;
	h->last_stk = SIZE_MAX;
	return h;
}

void hist_free(struct hist *h)
{
	if (!h)
		return;
	trie_free(&h->trie);
	free(h->hu_frames);
	if (h->comm_trie) {
		trie_free(h->comm_trie);
		free(h->comm_trie);
	}
	free(h->ents);
	oa_free(&h->eindex);
	free(h->sorted);
	free(h->cn);
	free(h->stks);
	oa_free(&h->stk_index);
	free(h->pool);
	free(h->pub);
	free(h->pub_kids);
	if (h->parent_re_ok)
		regfree(&h->parent_re);
	free(h->parents);
	free(h->pcache);
	oa_free(&h->pcache_index);
	free(h->srclines);
	oa_free(&h->srcline_index);
	free(h);
}

static const char unknown_str[] = "[unknown]";

static inline const char *fsym(const struct hist_frame *f)
{
	return f->sym ? f->sym : unknown_str;
}

static inline const char *fdso(const struct hist_frame *f)
{
	return f->dso ? f->dso : unknown_str;
}

static bool stk_equal(const struct hist *h, const struct stk *k, const struct hist_sample *s)
{
	const char *const *p = h->pool + k->off;
	const char *const *ip = k->has_ip_sym ? p + 2 * k->nframes : NULL;

	if (s->nframes && s->frames[0].off_chain != k->off_chain)
		return false;
	for (size_t i = 0; i < s->nframes; i++)
		if (p[2 * i] != fsym(&s->frames[i]) || p[2 * i + 1] != fdso(&s->frames[i]) ||
		    s->frames[i].ip_sym != (ip ? ip[i] : NULL))
			return false;
	/* symbols of one name in one dso told apart by start (same_frame) */
	uint32_t v = k->leaf;
	for (size_t i = 0; i < s->nframes; i++, v = h->trie.nodes[v].parent)
		if (h->trie.nodes[v].frame.start != s->frames[i].start)
			return false;
	return true;
}

/* The hot path of every report: one call per sample. Kept in one piece on
 * purpose (the last-root and stack caches are checked inline, no calls on
 * the common path); see docs/bpfperf-report.md for the measurements. */
static void add_sample(struct hist *h, const struct hist_sample *s)
{
	/* with children, --dsos and --symbols choose entries, each by its own
	 * dso and symbol (hist_finish), not samples: a caller's entry sums the
	 * samples of every callee */
	const struct hist_frame *leaf = s->frames && s->nframes ? &s->frames[0] : NULL;
	if (h->opts.filter && (!hist_filter_match_thread(h->opts.filter, s->comm, s->pid, s->tid) ||
			       (!(h->opts.children && h->opts.filter_entries) &&
				!hist_filter_match_frame(h->opts.filter, leaf ? leaf->dso : NULL,
							 leaf ? leaf->sym : NULL)))) {
		h->filtered_period += s->period;
		h->filtered_samples++;
		h->total_period += s->period;
		h->total_samples++;
		return;
	}
	/* perf's "pid" key is the thread: "TID:comm" */
	int pid = h->key[SORT_PID] ? s->tid : 0;
	int tid = h->key[SORT_TID] ? s->tid : 0;
	int cpu = h->key[SORT_CPU] ? s->cpu : 0;
	int64_t state = h->key[SORT_STATE] ? s->state : 0;
	if (h->key[SORT_PARENT])
		state |= (int64_t)sample_parent(h, s) << 8;
	if (h->key[SORT_SRCLINE])
		state |= (int64_t)srcline_id(h, s->srcline) << 32;
	const char *comm = s->comm ? s->comm : unknown_str;
	const struct hist_tp *tp = h->any_tp ? s->tp : NULL;
	size_t nf = s->frames ? s->nframes : 0;
	uint32_t root, node;

	if (h->last_root != NONE && comm == h->last_comm && pid == h->last_pid && tid == h->last_tid &&
	    cpu == h->last_cpu && state == h->last_state && tp == h->last_tp) {
		root = h->last_root;
	} else {
		root = trie_root(&h->trie, comm, pid, tid, cpu, state, tp);
		h->last_tp = tp;
		h->last_root = root;
		h->last_comm = comm;
		h->last_pid = pid;
		h->last_tid = tid;
		h->last_cpu = cpu;
		h->last_state = state;
	}

	if (h->last_stk != SIZE_MAX) {
		struct stk *k = &h->stks[h->last_stk];
		if (k->root == root && k->nframes == nf && stk_equal(h, k, s)) {
			k->period += s->period;
			k->count++;
			goto counted;
		}
	}
	bool off_chain = nf && s->frames[0].off_chain;
	uint64_t hv = hash_u64(root + nf * 0x9e3779b97f4a7c15ull + off_chain);
	for (size_t i = 0; i < nf; i++)
		hv = (hv ^ (uintptr_t)fsym(&s->frames[i])) * 0x9e3779b97f4a7c15ull ^
		     (uintptr_t)fdso(&s->frames[i]) * 0xc2b2ae3d27d4eb4full ^ (uintptr_t)s->frames[i].ip_sym;
	hv = hash_u64(hv);
	struct oa_probe p = oa_probe(&h->stk_index, hv);
	for (uint32_t si; (si = oa_next(&h->stk_index, &p)) != OA_NONE;) {
		struct stk *k = &h->stks[si];
		if (k->hash == hv && k->root == root && k->nframes == nf && stk_equal(h, k, s)) {
			k->period += s->period;
			k->count++;
			h->last_stk = si;
			goto counted;
		}
	}
	node = root;
	h->trie.cur_tid = s->tid;
	bool has_ip_sym = false;
	for (size_t i = nf; i-- > 0;) {
		const struct hist_frame *f = &s->frames[i];
		struct hist_frame tf = { .sym = fsym(f), .dso = fdso(f), .ip_sym = f->ip_sym, .start = f->start,
					 .level = f->level ? f->level : '?', .off_chain = i == 0 && off_chain };
		has_ip_sym |= f->ip_sym != NULL;
		h->split_frames |= (f->ip_sym && f->ip_sym != tf.sym) || tf.off_chain;
		node = trie_child(&h->trie, node, &tf);
	}
	size_t need = (has_ip_sym ? 3 : 2) * nf;
	if (h->npool + need <= STK_POOL_MAX && h->nstks < NONE - 1) {
		ARRAY_GROW_RAW(h->pool, h->pool_cap, h->npool + need);
		ARRAY_GROW_RAW(h->stks, h->stks_cap, h->nstks + 1);
		struct stk *k = &h->stks[h->nstks];
		k->hash = hv;
		k->root = root;
		k->leaf = node;
		k->nframes = (uint32_t)nf;
		k->has_ip_sym = has_ip_sym;
		k->off_chain = off_chain;
		k->off = h->npool;
		k->period = s->period;
		k->count = 1;
		h->last_stk = h->nstks;
		for (size_t i = 0; i < nf; i++) {
			h->pool[h->npool++] = fsym(&s->frames[i]);
			h->pool[h->npool++] = fdso(&s->frames[i]);
		}
		for (size_t i = 0; has_ip_sym && i < nf; i++)
			h->pool[h->npool++] = s->frames[i].ip_sym;
		oa_insert(&h->stk_index, &p, (uint32_t)h->nstks++);
	} else {
		h->trie.nodes[node].self_period += s->period;
		h->trie.nodes[node].self_count++;
	}
counted:
	h->total_period += s->period;
	h->total_samples++;
}

void hist_add_sample(struct hist *h, const struct hist_sample *s)
{
	if (h->finished || !s)
		return;
	if (!h->opts.hide_unresolved) {
		add_sample(h, s);
		return;
	}
	/* perf's --hide-unresolved: a sample taken where no symbol is, is
	 * left out; so are its callers without symbol, from its call chain
	 * (perf's add_callchain_ip skips them) */
	if (!s->frames || !s->nframes || s->frames[0].ip_sym) {
		h->hidden_samples++;
		return;
	}
	size_t n = 0;
	ARRAY_GROW(h->hu_frames, h->hu_cap, s->nframes);
	for (size_t i = 0; i < s->nframes; i++)
		if (!s->frames[i].ip_sym)
			h->hu_frames[n++] = s->frames[i];
	struct hist_sample t = *s;
	t.frames = h->hu_frames;
	t.nframes = n;
	add_sample(h, &t);
}

struct ekey {
	const char *comm, *dso, *sym;
	uint64_t start;		/* with sym: two symbols of one name in one dso differ */
	int pid, tid, cpu;
	int64_t state;
	const struct hist_tp *tp;
};

/* Does the frame make a children entry of its own when it is a caller (or a
 * leaf in the call chain), besides the entry of the samples taken in it?
 * perf names the first by the address itself (ip_sym), the other by its
 * place in the file (sym). */
static inline bool chain_entry_differs(const struct hist_frame *f)
{
	return f->ip_sym && f->ip_sym != f->sym && !f->off_chain;
}

/* chain: the key of the frame as a member of the call chain (children
 * mode), else as the place where samples were taken. */
static void make_key(const struct hist *h, const struct root_attr *r, const struct hist_frame *f,
		     bool chain, struct ekey *k)
{
	k->comm = h->key[SORT_COMM] ? r->comm : NULL;
	k->pid = h->key[SORT_PID] ? r->pid : 0;
	k->tid = h->key[SORT_TID] ? r->tid : 0;
	k->cpu = h->key[SORT_CPU] ? r->cpu : 0;
	k->state = (h->key[SORT_STATE] ? r->state & 0xff : 0) | (h->key[SORT_PARENT] ? r->state & 0xffffff00 : 0) |
		   (h->key[SORT_SRCLINE] ? r->state & ~(int64_t)0xffffffff : 0);
	k->sym = !h->key[SORT_SYM] ? NULL : chain && chain_entry_differs(f) ? f->ip_sym : f->sym;
	k->start = h->key[SORT_SYM] && !(chain && chain_entry_differs(f)) ? f->start : 0;
	k->dso = (h->key[SORT_SYM] || h->key[SORT_DSO]) ? f->dso : NULL;
	k->tp = h->any_tp ? r->tp : NULL;
}

static inline uint64_t ekey_hash(const struct ekey *k)
{
	return mix3((uintptr_t)k->comm ^ ((uint64_t)(uint32_t)k->pid << 17) ^ (uintptr_t)k->tp * 0x9e3779b97f4a7c15ull,
		    (uintptr_t)k->sym ^ (uint32_t)k->tid ^ k->start * 0x94d049bb133111ebull,
		    (uintptr_t)k->dso ^ ((uint64_t)(uint32_t)k->cpu << 23) ^ ((uint64_t)k->state * 0xc4ceb9fe1a85ec53ull));
}

static inline bool ekey_match(const struct hist *h, const struct hist_entry *e, const struct ekey *k)
{
	return (!h->key[SORT_COMM] || e->comm == k->comm) &&
	       (!h->key[SORT_PID] || e->pid == k->pid) && (!h->key[SORT_TID] || e->tid == k->tid) &&
	       (!h->key[SORT_CPU] || e->cpu == k->cpu) &&
	       (!(h->key[SORT_STATE] || h->key[SORT_PARENT] || h->key[SORT_SRCLINE]) ||
		((const struct hent *)e)->pstate == k->state) &&
	       (!h->key[SORT_SYM] || (e->sym == k->sym && ((const struct hent *)e)->sym_start == k->start)) &&
	       (!(h->key[SORT_SYM] || h->key[SORT_DSO]) || e->dso == k->dso) &&
	       (!h->any_tp || e->tp == k->tp);
}

/* Entry of trie node v (as a member of the call chain, or as where samples
 * were taken: make_key): lookup, and create when create is set. */
static uint32_t entry_of(struct hist *h, uint32_t v, bool create, bool chain)
{
	const struct tnode *nd = &h->trie.nodes[v];
	const struct root_attr *r = &h->trie.roots[nd->root];
	struct ekey k;

	make_key(h, r, &nd->frame, chain, &k);
	struct oa_probe p = oa_probe(&h->eindex, ekey_hash(&k));
	for (uint32_t i; (i = oa_next(&h->eindex, &p)) != OA_NONE;)
		if (ekey_match(h, &h->ents[i].e, &k))
			return i;
	if (!create)
		return NONE;
	ARRAY_GROW(h->ents, h->ents_cap, h->nents + 1);
	uint32_t idx = (uint32_t)h->nents++;
	struct hent *he = &h->ents[idx];
	memset(he, 0, sizeof(*he));
	he->e.comm = r->comm;
	he->e.pid = r->pid;
	he->e.tid = r->tid;
	he->e.cpu = r->cpu;
	he->e.state = r->state & 0xff;
	he->pstate = k.state;
	int pid_ = (int)((r->state >> 8) & 0xffffff);
	uint32_t sid = (uint32_t)((uint64_t)r->state >> 32);
	he->e.parent = pid_ ? h->parents[pid_ - 1] : NULL;
	he->e.srcline = sid ? h->srclines[sid - 1] : NULL;
	he->e.tp = r->tp;
	he->e.dso = nd->frame.dso;
	he->e.sym = chain && chain_entry_differs(&nd->frame) ? nd->frame.ip_sym : nd->frame.sym;
	he->e.level = nd->frame.level;
	he->no_sym = nd->frame.ip_sym != NULL;
	he->sym_start = k.start;
	he->no_map = nd->frame.dso && !strcmp(nd->frame.dso, "[unknown]");
	he->cc_root = NONE;
	he->first_node = NONE;
	oa_insert(&h->eindex, &p, idx);
	return idx;
}

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

/* Period of the samples under trie node v (v included) whose leaf entry is
 * e; their number in *count. */
static uint64_t self_under(const struct fidx *x, uint32_t e, uint32_t v, uint64_t *count)
{
	uint32_t b = x->soff[e], n = x->soff[e + 1];
	uint32_t lo = x->pre[v], hi = x->end[v];
	uint32_t l = b, r = n;

	while (l < r) {		/* first >= lo */
		uint32_t m = l + (r - l) / 2;
		if (x->spre[m] < lo)
			l = m + 1;
		else
			r = m;
	}
	uint32_t first = l;
	r = n;
	while (l < r) {		/* first >= hi */
		uint32_t m = l + (r - l) / 2;
		if (x->spre[m] < hi)
			l = m + 1;
		else
			r = m;
	}
	if (l == first) {
		*count = 0;
		return 0;
	}
	*count = x->scnt[l - 1] - (first > b ? x->scnt[first - 1] : 0);
	return x->ssum[l - 1] - (first > b ? x->ssum[first - 1] : 0);
}

struct pair {
	uint32_t a, b;
};

/* (entry, node) pairs grouped by entry, each group in the pairs' order:
 * *off gets ne + 1 offsets into *node. */
static void bucket_by_entry(const struct pair *p, size_t n, size_t ne, uint32_t **off,
			    uint32_t **node)
{
	uint32_t *o = xcalloc(ne + 1, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		o[p[i].a + 1]++;
	for (size_t i = 0; i < ne; i++)
		o[i + 1] += o[i];
	uint32_t *pos = xmalloc((ne ? ne : 1) * sizeof(uint32_t));
	uint32_t *v = xmalloc((n ? n : 1) * sizeof(uint32_t));
	memcpy(pos, o, ne * sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		v[pos[p[i].a]++] = p[i].b;
	free(pos);
	*off = o;
	*node = v;
}

/* Pre-order numbering, self/children sums, perf's max_depth, and the lists
 * the call-graph construction needs. One DFS over the distinct stacks, long
 * on purpose: the work of each visit and of each step back shares the path's
 * state (entries marked on it, the innermost occurrences it hides), which
 * helpers would have to pass around whole; iterative, as stacks can be
 * thousands of frames deep. */
static void finish_dfs(struct hist *h, struct fidx *x)
{
	struct trie *t = &h->trie;
	uint32_t *path = NULL, *marked = NULL;
	size_t path_cap = 0, marked_cap = 0;
	struct pair *selfs = NULL, *occ = NULL;	/* (entry, node) in pre-order */
	size_t nselfs = 0, selfs_cap = 0, nocc = 0, occ_cap = 0;
	uint32_t pre = 0;
	/* callee_children: each entry's innermost occurrence on the path, and
	 * the one it hid, per depth (restored on the way back) */
	bool inner = h->opts.children && h->opts.callee_children;
	uint32_t *last_occ = NULL, *hidden = NULL;
	size_t hidden_cap = 0;
	struct pair *iocc = NULL;
	size_t niocc = 0, iocc_cap = 0;
	if (inner) {
		last_occ = xmalloc((h->nents ? h->nents : 1) * sizeof(uint32_t));
		for (size_t i = 0; i < h->nents; i++)
			last_occ[i] = NONE;
		x->iperiod = xcalloc(t->nnodes ? t->nnodes : 1, sizeof(uint64_t));
		x->icount = xcalloc(t->nnodes ? t->nnodes : 1, sizeof(uint64_t));
	}

	/* an off_chain leaf is in no call chain: height 0 */
	for (size_t i = t->nnodes; i-- > 0;) {
		if (x->height[i] == 0 && !t->nodes[i].frame.off_chain)
			x->height[i] = 1;
		uint32_t p = t->nodes[i].parent;
		if (p != NONE && x->height[p] < x->height[i] + 1)
			x->height[p] = x->height[i] + 1;
	}
	for (size_t ri = 0; ri < t->nroots; ri++) {
		uint32_t root = t->roots[ri].node;
		size_t d = 0;

		x->pre[root] = pre++;
		x->depth[root] = 0;
		x->anc1[root] = NONE;
		uint32_t v = t->first_kid[root];
		while (v != NONE) {
			d++;
			ARRAY_GROW(path, path_cap, d + 1);
			ARRAY_GROW(marked, marked_cap, d + 1);
			path[d] = v;
			marked[d] = NONE;
			x->pre[v] = pre++;
			x->depth[v] = (uint32_t)d;
			x->anc1[v] = d == 1 ? v : x->anc1[t->nodes[v].parent];
			const struct tnode *nd = &t->nodes[v];
			uint32_t e = x->eof[v];
			if (e != NONE && v < h->ents[e].first_node)
				h->ents[e].first_node = v;
			if (inner) {
				ARRAY_GROW(hidden, hidden_cap, d + 1);
				hidden[d] = NONE;
			}
			if (inner && e != NONE && !nd->frame.off_chain) {
				/* perf's chains in callee order start at the entry's
				 * innermost frame: what is under v is v's, less what
				 * is under its own deeper occurrences */
				uint32_t a = last_occ[e];
				if (a != NONE) {
					x->iperiod[a] -= t->cum_period[v];
					x->icount[a] -= t->cum_count[v];
				}
				x->iperiod[v] = t->cum_period[v];
				x->icount[v] = t->cum_count[v];
				hidden[d] = a;
				last_occ[e] = v;
				ARRAY_GROW(iocc, iocc_cap, niocc + 1);
				iocc[niocc].a = e;
				iocc[niocc++].b = v;
				/* perf's depth there: the chain from the frame to the
				 * outermost caller */
				if ((uint32_t)d > h->ents[e].max_depth)
					h->ents[e].max_depth = (uint32_t)d;
			}
			if (e != NONE && !h->ents[e].mark) {
				struct hent *he = &h->ents[e];
				he->mark = 1;
				marked[d] = e;
				he->e.children += t->cum_period[v];
				if (h->opts.children) {
					if (!inner && x->height[v] > he->max_depth)
						he->max_depth = x->height[v];
					ARRAY_GROW(occ, occ_cap, nocc + 1);
					occ[nocc].a = e;
					occ[nocc++].b = v;
				}
			}
			if (nd->self_count && e != NONE) {
				/* children mode: the entry of the samples taken
				 * here may not be the frame's entry in the chain
				 * (perf counts it once per sample too) */
				uint32_t se = e;
				if (h->opts.children && chain_entry_differs(&nd->frame)) {
					se = entry_of(h, v, true, false);
					if (!h->ents[se].mark)
						h->ents[se].e.children += nd->self_period;
				}
				struct hent *he = &h->ents[se];
				if (v < he->first_node)
					he->first_node = v;
				he->e.self += nd->self_period;
				he->e.nr_samples += nd->self_count;
				/* perf's depth: of the call chain kept */
				uint32_t depth = (uint32_t)d - nd->frame.off_chain;
				if (depth > he->max_depth)
					he->max_depth = depth;
				ARRAY_GROW(selfs, selfs_cap, nselfs + 1);
				selfs[nselfs].a = se;
				selfs[nselfs++].b = v;
			}
			if (t->first_kid[v] != NONE) {
				v = t->first_kid[v];
				continue;
			}
			for (;;) {
				if (marked[d] != NONE)
					h->ents[marked[d]].mark = 0;
				if (inner && x->eof[path[d]] != NONE && !t->nodes[path[d]].frame.off_chain)
					last_occ[x->eof[path[d]]] = hidden[d];
				x->end[path[d]] = pre;
				uint32_t nx = t->next_sib[path[d]];
				d--;
				if (nx != NONE) {
					v = nx;
					break;
				}
				if (d == 0) {
					v = NONE;
					break;
				}
			}
		}
		x->end[root] = pre;
	}
	/* bucket by entry, keeping the pre-order */
	size_t ne = h->nents;
	bucket_by_entry(selfs, nselfs, ne, &x->soff, &x->snode);
	bucket_by_entry(occ, nocc, ne, &x->ooff, &x->onode);
	if (inner)
		bucket_by_entry(iocc, niocc, ne, &x->ioff, &x->inode);
	free(iocc);
	free(last_occ);
	free(hidden);
	x->spre = xmalloc((nselfs ? nselfs : 1) * sizeof(uint32_t));
	x->ssum = xmalloc((nselfs ? nselfs : 1) * sizeof(uint64_t));
	x->scnt = xmalloc((nselfs ? nselfs : 1) * sizeof(uint64_t));
	for (size_t e = 0; e < ne; e++) {
		uint64_t sum = 0, cnt = 0;
		for (uint32_t j = x->soff[e]; j < x->soff[e + 1]; j++) {
			x->spre[j] = x->pre[x->snode[j]];
			sum += t->nodes[x->snode[j]].self_period;
			cnt += t->nodes[x->snode[j]].self_count;
			x->ssum[j] = sum;
			x->scnt[j] = cnt;
		}
	}
	free(selfs);
	free(occ);
	free(path);
	free(marked);
}

/* finish_dfs for self_only: entries of the nodes where samples end, their
 * self sums, and each entry's self nodes (in node order: the call graphs
 * built from them group by frame, so the order does not show). */
static void finish_self(struct hist *h, struct fidx *x)
{
	const struct trie *t = &h->trie;
	struct pair *selfs = NULL;
	size_t nselfs = 0, cap = 0;

	for (size_t i = 0; i < t->nnodes; i++) {
		const struct tnode *nd = &t->nodes[i];
		if (nd->parent == NONE || !nd->self_count)
			continue;
		uint32_t e = entry_of(h, (uint32_t)i, true, false);
		h->ents[e].e.self += nd->self_period;
		h->ents[e].e.nr_samples += nd->self_count;
		ARRAY_GROW(selfs, cap, nselfs + 1);
		selfs[nselfs].a = e;
		selfs[nselfs++].b = (uint32_t)i;
	}
	bucket_by_entry(selfs, nselfs, h->nents, &x->soff, &x->snode);
	free(selfs);
}

/* ---- call-graph trees, built per entry, level by level ------------------- */

/* A piece of the trie contributing to a call-graph node: trie node t with
 * weight w (period) and c (samples). Modes: from the entry's outermost occurrence down (children
 * mode, samples whose leaf is another entry), the whole chain from the
 * outermost caller (samples whose leaf is the entry), and upwards from the
 * leaf (self mode). */
enum { IT_SUFFIX, IT_FULL, IT_UP };

struct item {
	uint32_t t;
	uint32_t mode;
	uint64_t w, c;
};

struct group {
	size_t b, e;		/* items */
	uint64_t period, count;
	const struct hist_frame *frame;
	uint32_t node;
};

struct pend {
	uint32_t node;
	size_t ib, ie;
	bool expanded;
};

struct ccb {
	struct hist *h;
	const struct fidx *x;
	uint32_t ent;
	uint64_t min_hit;
	struct item *items;
	size_t nitems, items_cap;
	struct group *groups;
	size_t groups_cap;
	struct pend *stack;
	size_t nstack, stack_cap;
};

/* A call-graph node is a frame's name (its address when it has no symbol,
 * as perf matches those) and dso. */
static inline const char *cg_sym(const struct hist_frame *f)
{
	return f->ip_sym ? f->ip_sym : f->sym;
}

static bool cmp_item_frame_eq(const struct trie *t, const struct item *it, const struct hist_frame *f)
{
	const struct hist_frame *g = &t->nodes[it->t].frame;
	return cg_sym(g) == cg_sym(f) && g->dso == f->dso;
}

static int cmp_item_frame(const void *pa, const void *pb)
{
	const struct tnode *nodes = sort_trie->nodes;
	const struct hist_frame *a = &nodes[((const struct item *)pa)->t].frame;
	const struct hist_frame *b = &nodes[((const struct item *)pb)->t].frame;
	if (cg_sym(a) != cg_sym(b))
		return (uintptr_t)cg_sym(a) < (uintptr_t)cg_sym(b) ? -1 : 1;
	if (a->dso != b->dso)
		return (uintptr_t)a->dso < (uintptr_t)b->dso ? -1 : 1;
	return 0;
}

static const struct hist *group_hist;	/* qsort context (single-threaded) */

/* perf's order of its tree of callees (the order its call graphs take
 * ties in, and its flat chains are collected in), which is keyed by */
static int cmp_group_key(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;
	/* perf's tree of callees is keyed by
	 * (dso, symbol start) or, for frames without symbol, (dso, address):
	 * dsos by rank, highest first (then by name: one total order for
	 * qsort); within a dso descending ("%#.16llx" strings sort as their
	 * values), frames with a symbol before those without */
	const struct hist_frame *fa = a->frame, *fb = b->frame;
	if (fa->dso != fb->dso) {
		if (group_hist->dso_rank) {
			uint32_t ra = group_hist->dso_rank(group_hist->dso_rank_ctx, fa->dso);
			uint32_t rb = group_hist->dso_rank(group_hist->dso_rank_ctx, fb->dso);
			if (ra != rb)
				return ra > rb ? -1 : 1;
		}
		int c = str_cmp_null(fa->dso, fb->dso);
		if (c)
			return c;
	}
	if (!fa->ip_sym != !fb->ip_sym)
		return fa->ip_sym ? 1 : -1;
	if (fa->ip_sym)
		return -strcmp(fa->ip_sym, fb->ip_sym);
	if (fa->start != fb->start)
		return fa->start > fb->start ? -1 : 1;
	int c = str_cmp_null(fa->sym, fb->sym);
	if (c)
		return c;
	return a->b < b->b ? -1 : a->b > b->b;
}

/* Siblings by period, highest first; ties in the key order. */
static int cmp_group(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	return cmp_group_key(pa, pb);
}

static uint32_t cn_new(struct hist *h, const struct hist_frame *f, uint64_t period, uint64_t count)
{
	ARRAY_GROW_RAW(h->cn, h->cn_cap, h->ncn + 1);
	struct cnode *c = &h->cn[h->ncn];
	c->frame = f;
	c->period = period;
	c->count = count;
	c->kid0 = 0;
	c->nkids = 0;
	c->key_rank = 0;
	return (uint32_t)h->ncn++;
}

static void push_item(struct ccb *b, uint32_t t, uint32_t mode, uint64_t w, uint64_t c)
{
	ARRAY_GROW(b->items, b->items_cap, b->nitems + 1);
	b->items[b->nitems].t = t;
	b->items[b->nitems].mode = mode;
	b->items[b->nitems].w = w;
	b->items[b->nitems].c = c;
	b->nitems++;
}

/* Items [gb, nitems) are the next level under node `parent`: group them by
 * frame, keep the groups of at least min_hit, create their nodes (sorted by
 * period) and queue them. */
static void make_kids(struct ccb *b, uint32_t parent, size_t gb)
{
	struct hist *h = b->h;
	size_t ge = b->nitems, ng = 0;

	if (ge == gb)
		return;
	sort_trie = &h->trie;
	qsort(b->items + gb, ge - gb, sizeof(struct item), cmp_item_frame);
	sort_trie = NULL;
	size_t out = gb;
	for (size_t i = gb; i < ge;) {
		size_t j = i;
		uint64_t sum = 0, cnt = 0;
		const struct hist_frame *f = &h->trie.nodes[b->items[i].t].frame;
		while (j < ge && cmp_item_frame_eq(&h->trie, &b->items[j], f)) {
			sum += b->items[j].w;
			cnt += b->items[j].c;
			j++;
		}
		if (sum && sum >= b->min_hit) {
			ARRAY_GROW(b->groups, b->groups_cap, ng + 1);
			struct group *g = &b->groups[ng++];
			if (out != i)
				memmove(b->items + out, b->items + i, (j - i) * sizeof(struct item));
			g->b = out;
			g->e = out + (j - i);
			g->period = sum;
			g->count = cnt;
			g->frame = f;
			out += j - i;
		}
		i = j;
	}
	b->nitems = out;
	if (!ng)
		return;
	group_hist = h;
	qsort(b->groups, ng, sizeof(struct group), cmp_group_key);
	for (size_t k = 0; k < ng; k++)
		b->groups[k].node = (uint32_t)k;	/* key rank, until the nodes exist */
	qsort(b->groups, ng, sizeof(struct group), cmp_group);
	group_hist = NULL;
	uint32_t kid0 = (uint32_t)h->ncn;
	for (size_t k = 0; k < ng; k++) {
		uint32_t rank = b->groups[k].node;
		b->groups[k].node = cn_new(h, b->groups[k].frame, b->groups[k].period, b->groups[k].count);
		h->cn[b->groups[k].node].key_rank = rank;
	}
	h->cn[parent].kid0 = kid0;
	h->cn[parent].nkids = (uint32_t)ng;
	/* queue in item order so that the item buffer is used as a stack */
	ARRAY_GROW(b->stack, b->stack_cap, b->nstack + ng);
	size_t base = b->nstack;
	for (size_t k = 0; k < ng; k++) {
		struct pend *p = &b->stack[base + k];
		p->node = b->groups[k].node;
		p->ib = b->groups[k].b;
		p->ie = b->groups[k].e;
		p->expanded = false;
	}
	/* sort the new stack entries by ib (groups were sorted by period) */
	for (size_t k = 1; k < ng; k++) {
		struct pend tmp = b->stack[base + k];
		size_t m = k;
		while (m > 0 && b->stack[base + m - 1].ib > tmp.ib) {
			b->stack[base + m] = b->stack[base + m - 1];
			m--;
		}
		b->stack[base + m] = tmp;
	}
	b->nstack += ng;
}

static void expand(struct ccb *b, const struct pend *p)
{
	const struct trie *t = &b->h->trie;
	size_t gb = b->nitems;

	for (size_t i = p->ib; i < p->ie; i++) {
		struct item it = b->items[i];
		if (it.mode == IT_UP) {
			uint32_t par = t->nodes[it.t].parent;
			if (par != NONE && t->nodes[par].parent != NONE)
				push_item(b, par, IT_UP, it.w, it.c);
			continue;
		}
		for (uint32_t k = t->first_kid[it.t]; k != NONE; k = t->next_sib[k]) {
			if (t->nodes[k].frame.off_chain)	/* its samples' chains end here */
				continue;
			uint64_t sc, s = self_under(b->x, b->ent, k, &sc);
			uint64_t w = it.mode == IT_FULL ? s : t->cum_period[k] - s;
			uint64_t c = it.mode == IT_FULL ? sc : t->cum_count[k] - sc;
			if (w)
				push_item(b, k, it.mode, w, c);
		}
	}
	make_kids(b, p->node, gb);
}

static void build_entry_tree(struct ccb *b, uint32_t e)
{
	struct hist *h = b->h;
	const struct fidx *x = b->x;
	const struct trie *t = &h->trie;
	struct hent *he = &h->ents[e];
	uint64_t total = h->opts.children ? he->e.children : he->e.self;

	if (!total || total < b->min_hit)
		return;
	b->ent = e;
	b->nitems = 0;
	b->nstack = 0;
	he->cc_root = cn_new(h, NULL, total, 0);
	if (h->opts.children && h->opts.callee_children) {
		/* from each innermost occurrence up to the outermost caller */
		for (uint32_t j = x->ioff[e]; j < x->ioff[e + 1]; j++) {
			uint32_t v = x->inode[j];
			if (x->iperiod[v])
				push_item(b, v, IT_UP, x->iperiod[v], x->icount[v]);
		}
		/* samples taken where there is no symbol: their entry is named by
		 * the offset in the file, their frame in the chains by the
		 * address (another entry), and perf draws their whole chain
		 * under the entry as well */
		for (uint32_t j = x->soff[e]; j < x->soff[e + 1]; j++) {
			uint32_t v = x->snode[j], u = v;
			if (x->eof[v] == e)
				continue;
			if (t->nodes[u].frame.off_chain)
				u = t->nodes[u].parent;
			if (t->nodes[u].parent != NONE && t->nodes[v].self_period)
				push_item(b, u, IT_UP, t->nodes[v].self_period, t->nodes[v].self_count);
		}
	} else if (h->opts.children || h->opts.caller_order) {
		for (uint32_t j = x->ooff ? x->ooff[e] : 0; x->ooff && j < x->ooff[e + 1]; j++) {
			uint32_t v = x->onode[j];
			uint64_t sc, w = t->cum_period[v] - self_under(x, e, v, &sc);
			if (w)
				push_item(b, v, IT_SUFFIX, w, t->cum_count[v] - sc);
		}
		uint32_t last = NONE;
		for (uint32_t j = x->soff[e]; j < x->soff[e + 1]; j++) {
			uint32_t a = x->anc1[x->snode[j]];
			if (a == last)	/* pre-order: one subtree is contiguous */
				continue;
			last = a;
			if (!t->nodes[a].frame.off_chain) {
				uint64_t sc, s = self_under(x, e, a, &sc);
				push_item(b, a, IT_FULL, s, sc);
			}
		}
	} else {
		for (uint32_t j = x->soff[e]; j < x->soff[e + 1]; j++) {
			uint32_t v = x->snode[j];
			if (t->nodes[v].frame.off_chain)	/* the chain starts at its caller */
				v = t->nodes[v].parent;
			if (t->nodes[v].parent != NONE)
				push_item(b, v, IT_UP, t->nodes[x->snode[j]].self_period,
					  t->nodes[x->snode[j]].self_count);
		}
	}
	for (size_t i = 0; i < b->nitems; i++)	/* the samples of the first level */
		h->cn[he->cc_root].count += b->items[i].c;
	make_kids(b, he->cc_root, 0);
	while (b->nstack) {
		struct pend *p = &b->stack[b->nstack - 1];
		if (p->expanded) {
			b->nitems = p->ib;
			b->nstack--;
			continue;
		}
		p->expanded = true;
		struct pend cur = *p;
		expand(b, &cur);
	}
}

static void build_callchains(struct hist *h, const struct fidx *x)
{
	struct ccb b = { .h = h, .x = x };
	double lim = h->opts.callgraph_limit > 0 ? h->opts.callgraph_limit : 0;

	b.min_hit = (uint64_t)((double)h->total_period * (lim / 100.0));
	for (size_t e = 0; e < h->nents; e++)
		build_entry_tree(&b, (uint32_t)e);
	free(b.items);
	free(b.groups);
	free(b.stack);

	size_t n = h->ncn;
	if (!n)
		return;
	h->pub = xcalloc(n, sizeof(*h->pub));
	h->pub_kids = xmalloc(n * sizeof(*h->pub_kids));
	for (size_t i = 0; i < n; i++) {
		h->pub_kids[i] = &h->pub[i];
		h->pub[i].frame = h->cn[i].frame;
		h->pub[i].period = h->cn[i].period;
		h->pub[i].count = h->cn[i].count;
		h->pub[i].key_rank = h->cn[i].key_rank;
		h->pub[i].nkids = h->cn[i].nkids;
		h->pub[i].kids = h->cn[i].nkids ? &h->pub_kids[h->cn[i].kid0] : NULL;
	}
	for (size_t i = 0; i < h->nents; i++)
		h->ents[i].e.callers = h->ents[i].cc_root == NONE ? NULL : &h->pub[h->ents[i].cc_root];
	free(h->cn);
	h->cn = NULL;
	h->ncn = h->cn_cap = 0;
}

static const struct hist *cmp_hist;	/* qsort context (single-threaded) */

static int cmp_int(int a, int b)
{
	return a < b ? -1 : a > b;
}

static int cmp_desc(uint64_t a, uint64_t b)	/* highest first */
{
	return a > b ? -1 : a < b;
}

/* The thread perf's entry keeps: that of the sample that made it. */
static int first_tid(const struct hist *h, const struct hent *e)
{
	return e->first_node == NONE ? -1 : h->trie.nodes[e->first_node].first_tid;
}

/* Each entry's first thread, for the sort (cmp_children compares it for
 * entries of equal children). */
static void sort_prepare(struct hist *h)
{
	for (size_t i = 0; i < h->nsorted; i++) {
		struct hent *he = (struct hent *)h->sorted[i];
		he->first_tid = first_tid(h, he);
	}
}

/* perf's children sort: the children period, then "put caller above callee
 * when they have equal period", by the depth of their call graphs, for
 * entries of one thread: the thread of the sample that made each entry.
 * Depths compared within a thread only make this no total order (three
 * entries of equal children can form a cycle), so the entries are sorted by
 * sort_stable, which is defined for such a comparator, not by qsort. */
static inline int cmp_children(const struct hist *h, const struct hent *a, const struct hent *b)
{
	int c = cmp_desc(a->e.children, b->e.children);
	if (c)
		return c;
	if (h->opts.children && h->opts.callchains && a->max_depth != b->max_depth &&
	    a->first_tid == b->first_tid) {
		/* in callee order the shallower first (perf negates it for caller order) */
		if (h->opts.callee_children)
			return a->max_depth < b->max_depth ? -1 : 1;
		return a->max_depth > b->max_depth ? -1 : 1;
	}
	return 0;
}

/* perf's order of the entries: one case per sort key, in the keys' order
 * (perf's sort_list), then perf's order of adding equal ones; long as the
 * list of keys is. */
static int cmp_entries(const void *pa, const void *pb)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	const struct hist *h = cmp_hist;
	const struct hent *ha = (const struct hent *)a, *hb = (const struct hent *)b;

	if (!h->opts.exact_order) {
		if (h->opts.children) {
			int c = cmp_children(h, ha, hb);
			if (c)
				return c;
		}
		int c = cmp_desc(a->self, b->self);
		if (c)
			return c;
	}
	for (int i = 0; i < h->opts.nkeys; i++) {
		int c = 0;
		switch (h->opts.keys[i]) {
		case SORT_OVERHEAD_CHILDREN:
			c = cmp_children(h, ha, hb);
			break;
		case SORT_OVERHEAD:
		case SORT_PERIOD:
			c = cmp_desc(a->self, b->self);
			break;
		case SORT_SAMPLE:
			c = cmp_desc(a->nr_samples, b->nr_samples);
			break;
		case SORT_COMM:
			c = str_cmp_null(a->comm, b->comm);
			break;
		case SORT_PID:
			c = cmp_int(a->pid, b->pid);
			break;
		case SORT_TID:
			c = cmp_int(a->tid, b->tid);
			break;
		/* perf: entries without a map (symbol) after the others, and
		 * among themselves by address (hex names of one width) */
		case SORT_DSO:
			c = ha->no_map != hb->no_map ? (ha->no_map ? 1 : -1) : str_cmp_null(a->dso, b->dso);
			break;
		case SORT_SYM:	/* two without symbol: equal here (perf's cmp_null) */
			c = ha->no_sym != hb->no_sym ? (ha->no_sym ? 1 : -1) : ha->no_sym ? 0 :
			    str_cmp_null(a->sym, b->sym);
			break;
		case SORT_CPU:
			c = cmp_int(a->cpu, b->cpu);
			break;
		case SORT_STATE:
			c = cmp_int(a->state, b->state);
			break;
		case SORT_PARENT:
			c = strcmp(a->parent ? a->parent : "[other]", b->parent ? b->parent : "[other]");
			break;
		case SORT_SRCLINE:
			c = str_cmp_null(a->srcline, b->srcline);
			break;
		default:
			if (sort_key_is_tp(h->opts.keys[i])) {
				int t = h->opts.keys[i] - SORT_TP0;
				c = str_cmp_null(a->tp ? a->tp->id[t] : NULL, b->tp ? b->tp->id[t] : NULL);
			}
			break;
		}
		if (c)
			return c;
	}
	/* equal on every key: perf's order of adding them, which is by its
	 * keys' own comparisons: symbol-less ones by address (their
	 * "%#.16llx" names sort as their values), the same symbol name in two
	 * dsos by dso */
	int c = ha->no_sym && hb->no_sym ? str_cmp_null(a->sym, b->sym) : 0;
	if (!c)
		c = str_cmp_null(a->dso, b->dso);
	if (!c)
		c = str_cmp_null(a->sym, b->sym);
	if (c)
		return c;
	return a < b ? -1 : a > b;
}

void hist_dso_order(struct hist *h, uint32_t (*rank_of)(const void *ctx, const char *dso), const void *ctx)
{
	h->dso_rank = rank_of;
	h->dso_rank_ctx = ctx;
}

void hist_thread_comms(struct hist *h, const char *(*comm_of)(void *ctx, int tid), void *ctx)
{
	if (!h->key[SORT_PID])
		return;
	for (size_t i = 0; i < h->nents; i++)
		h->ents[i].e.thread_comm = comm_of(ctx, h->ents[i].e.pid);
}

/* The counts kept in the stack cache go to the trie's leaves; the cache and
 * the trie's child index are not needed after. */
static void fold_stack_cache(struct hist *h)
{
	struct trie *t = &h->trie;
	for (size_t i = 0; i < h->nstks; i++) {
		const struct stk *k = &h->stks[i];
		t->nodes[k->leaf].self_period += k->period;
		t->nodes[k->leaf].self_count += k->count;
	}
	oa_free(&t->kids);
	free(h->stks);
	h->stks = NULL;
	oa_free(&h->stk_index);
	h->nstks = h->stks_cap = 0;
	free(h->pool);
	h->pool = NULL;
	h->npool = h->pool_cap = 0;
}

/* The entry of each trie node (x->eof), then finish_dfs. */
static void finish_entries(struct hist *h, struct fidx *x)
{
	const struct trie *t = &h->trie;
	size_t nn = t->nnodes ? t->nnodes : 1;
	x->eof = xmalloc(nn * sizeof(uint32_t));
	x->pre = xmalloc(nn * sizeof(uint32_t));
	x->end = xmalloc(nn * sizeof(uint32_t));
	x->depth = xmalloc(nn * sizeof(uint32_t));
	x->anc1 = xmalloc(nn * sizeof(uint32_t));
	x->height = xcalloc(nn, sizeof(uint32_t));
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct tnode *nd = &t->nodes[i];
		if (nd->parent == NONE)
			x->eof[i] = NONE;
		else if (h->opts.children || nd->self_count)
			x->eof[i] = entry_of(h, (uint32_t)i, true, h->opts.children);
		else
			x->eof[i] = NONE;
	}
	/* without children, entries are leaves only; other frames still
	 * count towards the children sums of the entries they match */
	if (!h->opts.children)
		for (size_t i = 0; i < t->nnodes; i++)
			if (t->nodes[i].parent != NONE && x->eof[i] == NONE)
				x->eof[i] = entry_of(h, (uint32_t)i, false, false);
	finish_dfs(h, x);
}

static void fidx_free(struct fidx *x)
{
	free(x->eof);
	free(x->pre);
	free(x->end);
	free(x->depth);
	free(x->anc1);
	free(x->height);
	free(x->soff);
	free(x->spre);
	free(x->snode);
	free(x->ssum);
	free(x->scnt);
	free(x->ooff);
	free(x->onode);
	free(x->ioff);
	free(x->inode);
	free(x->iperiod);
	free(x->icount);
}

struct keyed {
	uint64_t key;		/* cmp_entries' first comparison: the period, highest first */
	struct hist_entry *e;
};

static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return cmp_entries(&a->e, &b->e);
}

/* The entries shown (--dsos/--symbols with children choose entries, -S's
 * symbol filter), in perf's order. */
static void sort_entries(struct hist *h)
{
	h->sorted = xmalloc((h->nents ? h->nents : 1) * sizeof(*h->sorted));
	h->nsorted = 0;
	bool by_frame = h->opts.children && h->opts.filter_entries && hist_filter_has_frame(h->opts.filter);
	for (size_t i = 0; i < h->nents; i++) {
		struct hent *he = &h->ents[i];
		if (by_frame && !hist_filter_match_frame(h->opts.filter, he->e.dso, he->e.sym))
			continue;
		if (h->opts.sym_filter && (he->no_sym || !he->e.sym || !strstr(he->e.sym, h->opts.sym_filter))) {
			/* without children, --percentage relative takes its
			 * period out of the total (not its samples out of the
			 * count, as perf 6.1) */
			if (!h->opts.children)
				h->filtered_period += he->e.self;
			continue;
		}
		h->sorted[h->nsorted++] = &he->e;
	}
	sort_prepare(h);
	cmp_hist = h;
	/* not qsort: perf's children sort is no total order (see cmp_children) */
	if (h->opts.exact_order) {
		sort_stable(h->sorted, h->nsorted, sizeof(*h->sorted), cmp_entries);
	} else {
		/* cmp_entries decides first by the children (or self) period:
		 * kept beside each pointer, most comparisons read no entry */
		struct keyed *k = xmalloc((h->nsorted ? h->nsorted : 1) * sizeof(*k));
		for (size_t i = 0; i < h->nsorted; i++)
			k[i] = (struct keyed){ h->opts.children ? h->sorted[i]->children : h->sorted[i]->self,
					       h->sorted[i] };
		sort_stable(k, h->nsorted, sizeof(*k), cmp_keyed);
		for (size_t i = 0; i < h->nsorted; i++)
			h->sorted[i] = k[i].e;
		free(k);
	}
	cmp_hist = NULL;
}

/* Finishing the aggregation: leaves' counts, the DFS (or the self-only
 * shortcut of text --no-children), the call graphs, then the sorted
 * entries. */
void hist_finish(struct hist *h)
{
	if (h->finished)
		return;
	h->finished = true;
	struct trie *t = &h->trie;
	pr_debug("hist: %zu samples, %zu distinct stacks, %zu call-graph nodes", (size_t)h->total_samples,
		 h->nstks, t->nnodes);
	/* Text --no-children: only the leaves' entries and their chains up to
	 * the roots are shown, so neither the subtree sums nor the kid lists
	 * are needed (the walkers build them if asked: trie_sort_kids). */
	bool self_only = !h->opts.children && h->opts.skip_children_sums &&
			 !(h->opts.caller_order && h->opts.callchains);
	fold_stack_cache(h);
	if (!self_only)
		trie_index(t);
	struct fidx x = { 0 };
	if (self_only)
		finish_self(h, &x);
	else
		finish_entries(h, &x);
	if (h->opts.callchains)
		build_callchains(h, &x);
	fidx_free(&x);
	sort_entries(h);
	oa_free(&h->eindex);
}

const struct hist_opts *hist_opts(const struct hist *h)
{
	return &h->opts;
}

size_t hist_nr_entries(const struct hist *h)
{
	return h->finished ? h->nsorted : 0;
}

const struct hist_entry *hist_entry_at(const struct hist *h, size_t i)
{
	return h->finished && i < h->nsorted ? h->sorted[i] : NULL;
}

uint64_t hist_total_period(const struct hist *h)
{
	return h->opts.relative ? h->total_period - h->filtered_period : h->total_period;
}

uint64_t hist_total_samples(const struct hist *h)
{
	return h->opts.relative ? h->total_samples - h->filtered_samples : h->total_samples;
}

uint64_t hist_filtered_samples(const struct hist *h)
{
	return h->filtered_samples;
}

uint64_t hist_hidden_samples(const struct hist *h)
{
	return h->hidden_samples;
}

/* ---- stack walks ------------------------------------------------------------ */

/* Roots merged by comm and frames by name: a second trie, built on first use
 * when the roots of the main trie also carry pid/tid/cpu or its frames are
 * told apart by more than their names (ip_sym, off_chain). */
static const struct trie *comm_trie(const struct hist *hc)
{
	struct hist *h = (struct hist *)hc;
	const struct trie *t = &h->trie;

	if (!h->key[SORT_PID] && !h->key[SORT_TID] && !h->key[SORT_CPU] && !h->key[SORT_STATE] &&
	    !h->any_tp && !h->split_frames) {
		trie_sort_kids(&h->trie);
		return t;
	}
	if (h->comm_trie)
		return h->comm_trie;
	struct trie *m = xmalloc(sizeof(*m));
	trie_init(m);
	uint32_t *map = xmalloc((t->nnodes ? t->nnodes : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct tnode *nd = &t->nodes[i];
		if (nd->parent == NONE)
			map[i] = trie_root(m, t->roots[nd->root].comm, 0, 0, 0, 0, NULL);
		else
			map[i] = trie_child(m, map[nd->parent], &(struct hist_frame){ .sym = nd->frame.sym,
					    .dso = nd->frame.dso, .start = nd->frame.start, .level = nd->frame.level });
		m->nodes[map[i]].self_period += nd->self_period;
		m->nodes[map[i]].self_count += nd->self_count;
	}
	free(map);
	trie_sort_kids(m);
	oa_free(&m->kids);
	h->comm_trie = m;
	return m;
}

static int cmp_root_comm(const void *pa, const void *pb)
{
	const struct root_attr *a = &sort_trie->roots[*(const uint32_t *)pa];
	const struct root_attr *b = &sort_trie->roots[*(const uint32_t *)pb];
	return str_cmp_null(a->comm, b->comm);
}

static uint32_t *sorted_roots(const struct trie *t)
{
	uint32_t *r = xmalloc((t->nroots ? t->nroots : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < t->nroots; i++)
		r[i] = (uint32_t)i;
	sort_trie = t;
	qsort(r, t->nroots, sizeof(uint32_t), cmp_root_comm);
	sort_trie = NULL;
	return r;
}

/* The node after v in a depth-first pre-order walk below one root. *depth is
 * v's depth (a root's children are at 1) and becomes the returned node's;
 * NONE when the walk is over. */
static uint32_t preorder_next(const struct trie *t, uint32_t v, size_t *depth)
{
	if (t->first_kid[v] != NONE) {
		(*depth)++;
		return t->first_kid[v];
	}
	for (;;) {
		if (t->next_sib[v] != NONE)
			return t->next_sib[v];
		if (--*depth == 0)
			return NONE;
		v = t->nodes[v].parent;
	}
}

void hist_stacks_walk(const struct hist *h, hist_stack_fn fn, void *ctx)
{
	if (!h->finished)
		return;
	const struct trie *t = comm_trie(h);
	uint32_t *roots = sorted_roots(t);
	const struct hist_frame **frames = NULL;
	size_t cap = 0;

	for (size_t ri = 0; ri < t->nroots; ri++) {
		uint32_t root = t->roots[roots[ri]].node;
		const char *comm = t->roots[roots[ri]].comm;
		size_t d = 0;
		uint32_t v = t->first_kid[root];

		if (t->nodes[root].self_count)	/* samples without frames */
			fn(ctx, comm, frames, 0, t->nodes[root].self_period, t->nodes[root].self_count);
		if (v != NONE)
			d = 1;
		while (v != NONE) {
			ARRAY_GROW(frames, cap, d);
			frames[d - 1] = &t->nodes[v].frame;
			if (t->nodes[v].self_count)
				fn(ctx, comm, frames, d, t->nodes[v].self_period, t->nodes[v].self_count);
			v = preorder_next(t, v, &d);
		}
	}
	free(frames);
	free(roots);
}

void hist_tree_walk(const struct hist *h, hist_tree_fn fn, void *ctx)
{
	if (!h->finished)
		return;
	const struct trie *t = comm_trie(h);
	uint32_t *roots = sorted_roots(t);

	for (size_t ri = 0; ri < t->nroots; ri++) {
		uint32_t root = t->roots[roots[ri]].node;
		size_t d = 0;
		uint32_t v;

		fn(ctx, 0, &t->nodes[root].frame, t->cum_period[root], t->cum_count[root], t->nodes[root].self_count);
		v = t->first_kid[root];
		if (v != NONE)
			d = 1;
		while (v != NONE) {
			fn(ctx, (int)d, &t->nodes[v].frame, t->cum_period[v], t->cum_count[v], t->nodes[v].self_count);
			v = preorder_next(t, v, &d);
		}
	}
	free(roots);
}
