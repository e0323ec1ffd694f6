// SPDX-License-Identifier: GPL-2.0-only
/* Call graphs under the entries of the text table (perf report -g): graph
 * and fractal trees, flat and folded chains.
 *
 * Layout facts reproduced from perf (ui/stdio/hist.c): 12 spaces of margin,
 * a single chain whose period equals the entry's is printed after "---"
 * without percentage, branches as "|--NN.NN%--" / " --NN.NN%--" with the
 * percentage of the total period, runs of frames without branch nor samples
 * of their own on one node, branches below callgraph_limit percent of the
 * total hidden. */
#include <stdlib.h>
#include <string.h>

#include "out/out_int.h"
#include "util.h"

/* Call graph printing state. */
struct cg {
	FILE *f;
	const struct out_opts *o;
	uint64_t total;
	uint64_t min_hit;	/* graph: the absolute threshold */
	double rel;		/* fractal: the threshold, a fraction of each parent's children */
	bool fractal;
	unsigned limit;		/* perf's print limit: entries per level (0: all) */
	bool printed;
	int left_margin;
};

/* A frame's name on a call-graph line; one without symbol by its address,
 * "%#llx" as perf prints it there (0 as "0"). */
static void cg_put_name(FILE *f, const struct callchain_node *n)
{
	if (n->frame && n->frame->ip_sym)
		fprintf(f, "%#llx", strtoull(n->frame->ip_sym, NULL, 16));
	else
		fputs_unlocked(n->frame && n->frame->sym ? n->frame->sym : "[unknown]", f);
}

static void cg_print_name(FILE *f, const struct callchain_node *n)
{
	cg_put_name(f, n);
	fputc_unlocked('\n', f);
}

/* perf's callchain_node__fprintf_value: a percentage of total, the period
 * or the sample count, as -g's value asks. */
static void cg_value(FILE *f, const struct out_opts *o, uint64_t period, uint64_t count, uint64_t total)
{
	if (o->callgraph_value == OUT_CG_PERIOD)
		fprintf(f, "%llu", (unsigned long long)period);
	else if (o->callgraph_value == OUT_CG_COUNT)
		fprintf(f, "%u", (unsigned)count);
	else
		out_put_pct(f, 0, out_pct(period, total));
}

static void cg_margin(struct cg *g)
{
	out_put_spaces(g->f, 12 + abs(g->left_margin));	/* printf's "%*s" of "" */
}

/* The node that ends the run starting at n (perf keeps such runs in one node). */
static const struct callchain_node *run_end(const struct callchain_node *n)
{
	while (n->nkids == 1 && n->kids[0]->period == n->period)
		n = n->kids[0];
	return n;
}

/* What is under n's kids: perf's children_hit. */
static uint64_t kids_period(const struct callchain_node *n)
{
	uint64_t s = 0;
	for (size_t k = 0; k < n->nkids; k++)
		s += n->kids[k]->period;
	return s;
}

static uint64_t kids_count(const struct callchain_node *n)
{
	uint64_t s = 0;
	for (size_t k = 0; k < n->nkids; k++)
		s += n->kids[k]->count;
	return s;
}

/* The kids of n shown: in graph mode those of at least the absolute
 * threshold; in fractal mode those of at least the threshold's share of
 * n's children, rounded up (perf's __sort_chain_graph_rel). Kids are
 * sorted by period, highest first, so they are a prefix. */
static size_t visible_kids(const struct cg *g, const struct callchain_node *n)
{
	uint64_t min = g->min_hit;
	size_t k = 0;

	if (g->fractal) {
		double x = (double)kids_period(n) * g->rel;
		min = (uint64_t)x;
		if ((double)min < x)
			min++;
	}
	while (k < n->nkids && n->kids[k]->period >= min)
		k++;
	return k;
}

static void cg_line(struct cg *g, int depth, const unsigned char *mask)
{
	cg_margin(g);
	for (int i = 0; i < depth; i++)
		fputs_unlocked(mask[i] ? "|          " : "           ", g->f);
	fputc_unlocked('\n', g->f);
	g->printed = true;
}

/* One line of a run: the first gets its value, "--X%--"; name NULL is
 * fractal mode's "[...]" for what its threshold left out. */
static void cg_frame(struct cg *g, uint64_t period, uint64_t count, uint64_t total,
		     const struct callchain_node *n, int depth, const unsigned char *mask, int idx)
{
	cg_margin(g);
	for (int i = 0; i < depth; i++) {
		fputc_unlocked(mask[i] ? '|' : ' ', g->f);
		if (!idx && i == depth - 1) {
			fputs_unlocked("--", g->f);
			cg_value(g->f, g->o, period, count, total);
			fputs_unlocked("--", g->f);
		} else {
			fputs_unlocked("          ", g->f);
		}
	}
	if (n)
		cg_print_name(g->f, n);
	else
		fputs_unlocked("[...]\n", g->f);
	g->printed = true;
}

/* perf's __callchain__fprintf_graph: parent's shown kids, each with the
 * run it starts, then what is under the run. total is what the values are
 * shares of: the whole profile, or in fractal mode the parent's children. */
static void cg_rec(struct cg *g, const struct callchain_node *parent, uint64_t total, int depth,
		   const unsigned char *mask)
{
	size_t nvis = visible_kids(g, parent), nk = nvis;
	unsigned char *new_mask = xmalloc((size_t)depth + 2);
	uint64_t remaining = total, shown_count = 0;

	if (g->limit && nk > g->limit)	/* the print limit: the rest is not drawn */
		nk = g->limit;
	for (size_t k = 0; k < nk; k++)
		remaining -= parent->kids[k]->period;
	memcpy(new_mask, mask, (size_t)depth);
	new_mask[depth] = 0;
	new_mask[depth + 1] = 0;
	for (size_t k = 0; k < nk; k++) {
		const struct callchain_node *child = parent->kids[k];
		shown_count += child->count;
		/* the last kid shown closes its level's pipe, unless "[...]"
		 * follows (or the print limit hid kids after it) */
		if (k + 1 == nvis && (!g->fractal || !remaining))
			new_mask[depth - 1] = 0;
		cg_line(g, depth, mask);
		const struct callchain_node *n = child;
		int idx = 0;
		for (;;) {
			cg_frame(g, child->period, child->count, total, n, depth, new_mask, idx++);
			if (n->nkids == 1 && n->kids[0]->period == n->period)
				n = n->kids[0];
			else
				break;
		}
		unsigned char save = new_mask[depth];
		new_mask[depth] = 1;
		cg_rec(g, n, g->fractal ? kids_period(n) : total, depth + 1, new_mask);
		new_mask[depth] = save;
	}
	if (g->fractal && remaining && remaining != total && nk) {
		uint64_t rem_count = kids_count(parent) - shown_count;
		if (g->o->callgraph_value != OUT_CG_COUNT || (int64_t)rem_count > 0) {
			new_mask[depth - 1] = 0;
			cg_frame(g, remaining, rem_count, total, NULL, depth, new_mask, 0);
		}
	}
	free(new_mask);
}

/* perf's callchain__fprintf_graph: a single root as wide as the entry is
 * printed as a plain run under "---", the rest as a tree. */
static void print_graph(FILE *f, const struct hist *h, const struct hist_entry *e, const struct out_opts *o)
{
	const struct callchain_node *root = e->callers;
	struct cg g = { .f = f, .o = o, .total = hist_total_period(h),
			.fractal = o->callgraph_mode == OUT_CG_FRACTAL, .limit = o->callgraph_print_limit };
	double lim = o->callgraph_limit;
	if (lim < 0)
		lim = 0;
	g.min_hit = (uint64_t)((double)g.total * (lim / 100.0));
	g.rel = lim / 100.0;
	uint64_t parent_samples = hist_opts(h)->children ? e->children : e->self;
	size_t ntop = visible_kids(&g, root);
	const struct callchain_node *base = root;

	if (ntop == 1 && root->kids[0]->period == parent_samples) {
		const struct callchain_node *n = root->kids[0], *end = run_end(n);
		bool skip_first = o->graph_skip_sym;
		bool printed = false;
		unsigned shown = 0;
		for (int i = 0;; i++) {
			if (!(i == 0 && skip_first)) {
				if (!printed) {
					cg_margin(&g);
					fputs_unlocked("|\n", f);
					cg_margin(&g);
					fputs_unlocked("---", f);
					g.left_margin += 3;
					printed = true;
				} else {
					cg_margin(&g);
				}
				cg_print_name(f, n);
				g.printed = true;
				if (++shown == g.limit)
					break;
			}
			if (n == end)
				break;
			n = n->kids[0];
		}
		base = end;
	}
	unsigned char mask[2] = { 1, 0 };
	cg_rec(&g, base, g.fractal ? parent_samples : g.total, 1, mask);
	if (g.printed)
		fputc_unlocked('\n', f);
}

/* A chain that ends at a node (perf's hit): the node's period less its
 * kids'. The tree is whole in these modes (report builds it without a
 * threshold), so this is exact. */
struct chain_end {
	const struct callchain_node *const *path;	/* first frame .. the node */
	size_t len;
	uint64_t hit, hit_count;
	size_t seq;		/* collection order */
};

struct flat {
	const struct callchain_node **path;
	size_t depth, cap;
	struct chain_end *ends;
	size_t n, ends_cap;
	uint64_t min_hit;
};

static int cmp_kid_key(const void *pa, const void *pb)
{
	const struct callchain_node *a = *(const struct callchain_node *const *)pa;
	const struct callchain_node *b = *(const struct callchain_node *const *)pb;
	return a->key_rank < b->key_rank ? -1 : a->key_rank > b->key_rank;
}

/* perf's __sort_chain_flat: the nodes where chains end, after their kids
 * (in the order of perf's tree of callees), kept if the chains ending
 * there reach the threshold. */
static void flat_collect(struct flat *fl, const struct callchain_node *n)
{
	if (n->nkids) {
		const struct callchain_node **kids = xmalloc(n->nkids * sizeof(*kids));
		memcpy(kids, n->kids, n->nkids * sizeof(*kids));
		qsort(kids, n->nkids, sizeof(*kids), cmp_kid_key);
		for (size_t k = 0; k < n->nkids; k++) {
			ARRAY_GROW(fl->path, fl->cap, fl->depth + 1);
			fl->path[fl->depth++] = kids[k];
			flat_collect(fl, kids[k]);
			fl->depth--;
		}
		free(kids);
	}
	if (!fl->depth)		/* the entry's root: perf's chains have a frame at least */
		return;
	uint64_t hit = n->period - kids_period(n);
	if (!hit || hit < fl->min_hit)
		return;
	ARRAY_GROW(fl->ends, fl->ends_cap, fl->n + 1);
	const struct callchain_node **copy = xmalloc(fl->depth * sizeof(*copy));
	memcpy(copy, fl->path, fl->depth * sizeof(*copy));
	fl->ends[fl->n] = (struct chain_end){ .path = copy, .len = fl->depth, .hit = hit,
					      .hit_count = n->count - kids_count(n), .seq = fl->n };
	fl->n++;
}

/* By the chains' hits, highest first; ties stay in collection order (perf
 * inserts equal ones after). */
static int cmp_chain_end(const void *pa, const void *pb)
{
	const struct chain_end *a = pa, *b = pb;
	if (a->hit != b->hit)
		return a->hit > b->hit ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* -g flat: each chain, its value then its frames one per line, then a blank
 * line; -g folded: its value, then its frames joined by ';' on one line.
 * flat shows the value through the chain's last node, folded the hits
 * ending there (perf's callchain_node__fprintf_value). */
static void print_flat(FILE *f, const struct hist *h, const struct hist_entry *e, const struct out_opts *o)
{
	uint64_t total = hist_total_period(h);
	double lim = o->callgraph_limit > 0 ? o->callgraph_limit : 0;
	struct flat fl = { .min_hit = (uint64_t)((double)total * (lim / 100.0)) };
	bool folded = o->callgraph_mode == OUT_CG_FOLDED;

	flat_collect(&fl, e->callers);
	if (fl.n)
		qsort(fl.ends, fl.n, sizeof(*fl.ends), cmp_chain_end);
	size_t n = o->callgraph_print_limit && fl.n > o->callgraph_print_limit ? o->callgraph_print_limit : fl.n;
	for (size_t i = 0; i < n; i++) {
		const struct chain_end *c = &fl.ends[i];
		const struct callchain_node *last = c->path[c->len - 1];
		if (folded) {
			cg_value(f, o, c->hit, c->hit_count, total);
			fputc_unlocked(' ', f);
			for (size_t j = 0; j < c->len; j++) {
				if (j)
					fputc_unlocked(';', f);
				cg_put_name(f, c->path[j]);
			}
			fputc_unlocked('\n', f);
		} else {
			fputs_unlocked("           ", f);
			cg_value(f, o, last->period, last->count, total);
			fputc_unlocked('\n', f);
			for (size_t j = 0; j < c->len; j++) {
				fputs_unlocked("                ", f);
				cg_print_name(f, c->path[j]);
			}
			fputc_unlocked('\n', f);
		}
	}
	for (size_t i = 0; i < fl.n; i++)
		free((void *)fl.ends[i].path);
	free(fl.ends);
	free(fl.path);
}

void out_print_callgraph(FILE *f, const struct hist *h, const struct hist_entry *e, const struct out_opts *o)
{
	if (!e->callers)
		return;
	if (o->callgraph_mode == OUT_CG_FLAT || o->callgraph_mode == OUT_CG_FOLDED)
		print_flat(f, h, e, o);
	else
		print_graph(f, h, e, o);
}
