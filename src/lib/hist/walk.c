// SPDX-License-Identifier: GPL-2.0-only
/* Stack walks: the distinct stacks (folded stacks) and the merged tree
 * (flame graphs), with roots merged by comm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/hist_int.h"
#include "util.h"

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

/* Roots by comm; ctx: their trie. */
static int cmp_root_comm(const void *pa, const void *pb, void *ctx)
{
	const struct trie *t = ctx;
	const struct root_attr *a = &t->roots[*(const uint32_t *)pa];
	const struct root_attr *b = &t->roots[*(const uint32_t *)pb];
	return str_cmp_null(a->comm, b->comm);
}

static uint32_t *sorted_roots(const struct trie *t)
{
	uint32_t *r = xmalloc((t->nroots ? t->nroots : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < t->nroots; i++)
		r[i] = (uint32_t)i;
	qsort_r(r, t->nroots, sizeof(uint32_t), cmp_root_comm, (void *)t);
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
