// SPDX-License-Identifier: GPL-2.0-only
/* Call-graph trees, built per entry, level by level, from the trie and the
 * indexes of hist_finish (struct fidx). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/hist_int.h"
#include "util.h"

/* The first index in [l, r) of sorted a whose value is at least v (r if none). */
static inline uint32_t first_at_least(const uint32_t *a, uint32_t l, uint32_t r, uint32_t v)
{
	while (l < r) {
		uint32_t m = l + (r - l) / 2;
		if (a[m] < v)
			l = m + 1;
		else
			r = m;
	}
	return l;
}

/* Period of the samples under trie node v (v included) whose leaf entry is
 * e; their number in *count. */
static uint64_t self_under(const struct fidx *x, uint32_t e, uint32_t v, uint64_t *count)
{
	uint32_t b = x->soff[e], n = x->soff[e + 1];
	uint32_t first = first_at_least(x->spre, b, n, x->pre[v]);
	uint32_t l = first_at_least(x->spre, first, n, x->end[v]);
	if (l == first) {
		*count = 0;
		return 0;
	}
	*count = x->scnt[l - 1] - (first > b ? x->scnt[first - 1] : 0);
	return x->ssum[l - 1] - (first > b ? x->ssum[first - 1] : 0);
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

/* Items by frame (name and dso, as pointers); ctx: the trie. */
static int cmp_item_frame(const void *pa, const void *pb, void *ctx)
{
	const struct tnode *nodes = ((const struct trie *)ctx)->nodes;
	const struct hist_frame *a = &nodes[((const struct item *)pa)->t].frame;
	const struct hist_frame *b = &nodes[((const struct item *)pb)->t].frame;
	if (cg_sym(a) != cg_sym(b))
		return (uintptr_t)cg_sym(a) < (uintptr_t)cg_sym(b) ? -1 : 1;
	if (a->dso != b->dso)
		return (uintptr_t)a->dso < (uintptr_t)b->dso ? -1 : 1;
	return 0;
}

/* perf's order of its tree of callees (the order its call graphs take
 * ties in, and its flat chains are collected in), which is keyed by; ctx:
 * the hist (its dso ranks) */
static int cmp_group_key(const void *pa, const void *pb, void *ctx)
{
	const struct group *a = pa, *b = pb;
	const struct hist *h = ctx;
	/* perf's tree of callees is keyed by
	 * (dso, symbol start) or, for frames without symbol, (dso, address):
	 * dsos by rank, highest first (then by name: one total order for
	 * qsort); within a dso descending ("%#.16llx" strings sort as their
	 * values), frames with a symbol before those without */
	const struct hist_frame *fa = a->frame, *fb = b->frame;
	if (fa->dso != fb->dso) {
		if (h->dso_rank) {
			uint32_t ra = h->dso_rank(h->dso_rank_ctx, fa->dso);
			uint32_t rb = h->dso_rank(h->dso_rank_ctx, fb->dso);
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
static int cmp_group(const void *pa, const void *pb, void *ctx)
{
	const struct group *a = pa, *b = pb;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	return cmp_group_key(pa, pb, ctx);
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
	qsort_r(b->items + gb, ge - gb, sizeof(struct item), cmp_item_frame, &h->trie);
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
	qsort_r(b->groups, ng, sizeof(struct group), cmp_group_key, h);
	for (size_t k = 0; k < ng; k++)
		b->groups[k].node = (uint32_t)k;	/* key rank, until the nodes exist */
	qsort_r(b->groups, ng, sizeof(struct group), cmp_group, h);
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

void hist_build_callchains(struct hist *h, const struct fidx *x)
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
