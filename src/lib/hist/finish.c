// SPDX-License-Identifier: GPL-2.0-only
/* Finishing the aggregation (hist_finish): the entries of the trie's
 * nodes, the DFS that sums them, and perf's order of the entries. */
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hist/filter.h"
#include "hist/hist_int.h"
#include "log.h"
#include "oa.h"
#include "util.h"

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
static inline int cmp_depth(const struct hist_opts *o, uint32_t da, int ta, uint32_t db, int tb)
{
	if (!o->children || !o->callchains || da == db || ta != tb)
		return 0;
	/* in callee order the shallower first (perf negates it for caller order) */
	if (o->callee_children)
		return da < db ? -1 : 1;
	return da > db ? -1 : 1;
}

static inline int cmp_children(const struct hist *h, const struct hent *a, const struct hent *b)
{
	int c = cmp_desc(a->e.children, b->e.children);
	return c ? c : cmp_depth(&h->opts, a->max_depth, a->first_tid, b->max_depth, b->first_tid);
}

/* perf's dso and sym keys: entries without a map (symbol) after the
 * others; two without symbol equal here (perf's cmp_null) */
static inline int cmp_dso_key(bool no_a, const char *a, bool no_b, const char *b)
{
	return no_a != no_b ? (no_a ? 1 : -1) : str_cmp_null(a, b);
}

static inline int cmp_sym_key(bool no_a, const char *a, bool no_b, const char *b)
{
	return no_a != no_b ? (no_a ? 1 : -1) : no_a ? 0 : str_cmp_null(a, b);
}

/* Entries equal on every key: perf's order of adding them, which is by its
 * keys' own comparisons: symbol-less ones by address (their "%#.16llx"
 * names sort as their values), the same symbol name in two dsos by dso. */
static inline int cmp_added(const char *dso_a, const char *sym_a, bool no_sym_a, const void *id_a,
			    const char *dso_b, const char *sym_b, bool no_sym_b, const void *id_b)
{
	/* the names as arguments: the default-key sort passes its copies
	 * (ties on every key are common: two entries without symbol) */
	int c = no_sym_a && no_sym_b ? str_cmp_null(sym_a, sym_b) : 0;
	if (!c)
		c = str_cmp_null(dso_a, dso_b);
	if (!c)
		c = str_cmp_null(sym_a, sym_b);
	if (c)
		return c;
	return id_a < id_b ? -1 : id_a > id_b;
}

/* perf's order of the entries: one case per sort key, in the keys' order
 * (perf's sort_list), then perf's order of adding equal ones; long as the
 * list of keys is. */
static int cmp_entries(const void *pa, const void *pb, void *ctx)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	const struct hist *h = ctx;
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
		case SORT_DSO:
			c = cmp_dso_key(ha->no_map, a->dso, hb->no_map, b->dso);
			break;
		case SORT_SYM:
			c = cmp_sym_key(ha->no_sym, a->sym, hb->no_sym, b->sym);
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
	return cmp_added(a->dso, a->sym, ha->no_sym, a, b->dso, b->sym, hb->no_sym, b);
}

/* Do h's keys make cmp_entries cmp_default? */
static bool keys_default(const struct hist *h)
{
	static const enum sort_key def[] = { SORT_OVERHEAD_CHILDREN, SORT_OVERHEAD, SORT_COMM, SORT_DSO,
					     SORT_SYM };
	const struct hist_opts *o = &h->opts;
	int skip = o->children ? 0 : 1;	/* without children: from overhead on */
	if (!o->exact_order || o->nkeys != (int)ARRAY_SIZE(def) - skip)
		return false;
	for (int i = 0; i < o->nkeys; i++)
		if (o->keys[i] != def[i + skip])
			return false;
	return true;
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

static int cmp_keyed(const void *pa, const void *pb, void *h)
{
	const struct keyed *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return cmp_entries(&a->e, &b->e, h);
}


/* An entry as cmp_entries compares it under perf's default keys
 * ([overhead_children,] overhead, comm, dso, sym): everything the
 * comparison reads, moved with the entry by the merges, so that a sort of
 * many entries of equal period (most of a --children sort) reads no entry. */
struct keyed_def {
	uint64_t key;		/* the first key: children (with children) or self */
	uint64_t self;
	const char *comm, *dso, *sym;
	int32_t tid;		/* hent.first_tid */
	uint32_t depth;		/* hent.max_depth */
	bool no_map, no_sym;
	const struct hist_entry *e;
};

/* cmp_entries for those keys, the same comparisons on the copies */
static inline int cmp_keyed_def(const struct keyed_def *a, const struct keyed_def *b,
				const struct hist_opts *o)
{
	int c;
	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	if ((c = cmp_depth(o, a->depth, a->tid, b->depth, b->tid)) || (c = cmp_desc(a->self, b->self)) ||
	    (c = str_cmp_null(a->comm, b->comm)) || (c = cmp_dso_key(a->no_map, a->dso, b->no_map, b->dso)) ||
	    (c = cmp_sym_key(a->no_sym, a->sym, b->no_sym, b->sym)))
		return c;
	return cmp_added(a->dso, a->sym, a->no_sym, a->e, b->dso, b->sym, b->no_sym, b->e);
}

#define CMP_KEYED_DEF(x, y) cmp_keyed_def(x, y, ctx)	/* ctx: the sort's, the hist's options */
SORT_STABLE_DEFINE(sort_keyed_def, struct keyed_def, const void *, CMP_KEYED_DEF)

static void sort_default(struct hist *h)
{
	struct keyed_def *k = xmalloc((h->nsorted ? h->nsorted : 1) * sizeof(*k));
	for (size_t i = 0; i < h->nsorted; i++) {
		const struct hent *he = (const struct hent *)h->sorted[i];
		const struct hist_entry *e = &he->e;
		k[i] = (struct keyed_def){ .key = h->opts.children ? e->children : e->self, .self = e->self,
					   .comm = e->comm, .dso = e->dso, .sym = e->sym,
					   .tid = he->first_tid, .depth = he->max_depth,
					   .no_map = he->no_map, .no_sym = he->no_sym, .e = e };
	}
	sort_keyed_def(k, h->nsorted, NULL, &h->opts);
	for (size_t i = 0; i < h->nsorted; i++)
		h->sorted[i] = (struct hist_entry *)k[i].e;
	free(k);
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
	/* not qsort: perf's children sort is no total order (see cmp_children) */
	enum sort_key first = h->opts.exact_order ? (h->opts.nkeys ? h->opts.keys[0] : SORT__MAX)
			      : h->opts.children ? SORT_OVERHEAD_CHILDREN : SORT_OVERHEAD;
	if (keys_default(h)) {
		sort_default(h);
	} else if (first != SORT_OVERHEAD_CHILDREN && first != SORT_OVERHEAD && first != SORT_PERIOD &&
		   first != SORT_SAMPLE) {
		sort_stable_r(h->sorted, h->nsorted, sizeof(*h->sorted), cmp_entries, h);
	} else {
		/* cmp_entries decides first by a count, highest first (the
		 * children or self period, or the samples): kept beside each
		 * pointer, most comparisons read no entry */
		struct keyed *k = xmalloc((h->nsorted ? h->nsorted : 1) * sizeof(*k));
		for (size_t i = 0; i < h->nsorted; i++) {
			const struct hist_entry *e = h->sorted[i];
			k[i] = (struct keyed){ first == SORT_OVERHEAD_CHILDREN ? e->children
					       : first == SORT_SAMPLE ? e->nr_samples : e->self, h->sorted[i] };
		}
		sort_stable_r(k, h->nsorted, sizeof(*k), cmp_keyed, h);
		for (size_t i = 0; i < h->nsorted; i++)
			h->sorted[i] = k[i].e;
		free(k);
	}
}

static void *sort_entries_thread(void *arg)
{
	sort_entries(arg);
	return NULL;
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
	/* The call graphs and the order of the entries are independent (they
	 * write different fields of the entries): on two threads when both
	 * are worth it. */
	pthread_t sorter;
	bool sorting = h->opts.callchains && h->nents >= 4096 &&
		       pthread_create(&sorter, NULL, sort_entries_thread, h) == 0;
	if (h->opts.callchains)
		hist_build_callchains(h, &x);
	fidx_free(&x);
	if (sorting)
		pthread_join(sorter, NULL);
	else
		sort_entries(h);
	oa_free(&h->eindex);
}
