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
#include "hist/hist_int.h"
#include "log.h"
#include "oa.h"
#include "util.h"

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
