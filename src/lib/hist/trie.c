// SPDX-License-Identifier: GPL-2.0-only
/* The stack trie: a root per sample attribute tuple, then a node per
 * frame, outermost caller first (see hist.c); its cumulative sums and kid
 * lists for hist_finish and the walkers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/hist_int.h"
#include "log.h"
#include "oa.h"
#include "util.h"

void trie_init(struct trie *t)
{
	memset(t, 0, sizeof(*t));
	oa_init(&t->kids, 512);
	oa_init(&t->rindex, 32);
}

void trie_free(struct trie *t)
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
uint32_t trie_child(struct trie *t, uint32_t parent, const struct hist_frame *f)
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
uint32_t trie_root(struct trie *t, const char *comm, int pid, int tid, int cpu, int64_t state,
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
/* Kids by name; ctx: their trie. */
static int cmp_node_name(const void *pa, const void *pb, void *ctx)
{
	const struct trie *t = ctx;
	const struct tnode *a = &t->nodes[*(const uint32_t *)pa];
	const struct tnode *b = &t->nodes[*(const uint32_t *)pb];
	int c = str_cmp_null(a->frame.sym, b->frame.sym);
	if (c)
		return c;
	c = str_cmp_null(a->frame.dso, b->frame.dso);
	if (c)
		return c;
	if (a->root != b->root) {
		const struct root_attr *ra = &t->roots[a->root], *rb = &t->roots[b->root];
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
void trie_index(struct trie *t)
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
void trie_sort_kids(struct trie *t)
{
	uint32_t *kids = NULL;
	size_t cap = 0;

	if (!t->first_kid)
		trie_index(t);
	if (t->kids_sorted)
		return;
	for (size_t p = 0; p < t->nnodes; p++) {
		size_t nk = 0;
		for (uint32_t k = t->first_kid[p]; k != NONE; k = t->next_sib[k]) {
			ARRAY_GROW(kids, cap, nk + 1);
			kids[nk++] = k;
		}
		if (nk < 2)
			continue;
		qsort_r(kids, nk, sizeof(uint32_t), cmp_node_name, t);
		t->first_kid[p] = kids[0];
		for (size_t k = 0; k + 1 < nk; k++)
			t->next_sib[kids[k]] = kids[k + 1];
		t->next_sib[kids[nk - 1]] = NONE;
	}
	free(kids);
	t->kids_sorted = true;
}
