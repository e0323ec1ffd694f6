// SPDX-License-Identifier: GPL-2.0-only
/* Text table (perf report --stdio layout, perf 6.1), JSON and folded stacks.
 *
 * Layout facts reproduced from perf (ui/stdio/hist.c, util/sort.c):
 * - "  " before every column, including the first; overhead columns are 8
 *   wide ("%7.2f%%" right-aligned after the separator);
 * - key columns are as wide as their widest value over ALL entries (also
 *   those hidden by --percent-limit), at least the header; every column but
 *   the last is padded, and the symbol column ("[k] name") is never padded;
 * - unresolved symbols widen the symbol column to 22 and the dso to 16;
 * - call graphs: 12 spaces of margin, a single chain whose period equals the
 *   entry's is printed after "---" without percentage, branches as
 *   "|--NN.NN%--" / " --NN.NN%--" with the percentage of the total period,
 *   runs of frames without branch nor samples of their own on one node,
 *   branches below callgraph_limit percent of the total hidden. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "log.h"
#include "out/out.h"
#include "util.h"

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* perf's convert_unit(): "6K", "12M", or the plain number followed by a space. */
static void fmt_samples(char *buf, size_t len, uint64_t n)
{
	char unit = ' ';

	if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'M';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'G';
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)n, unit);
}

static bool is_unresolved_sym(const char *s)
{
	/* machine_resolve() names unresolved addresses "0x%016llx" */
	if (!s || s[0] != '0' || s[1] != 'x' || strlen(s) != 18)
		return false;
	for (int i = 2; i < 18; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static const char *nz(const char *s)
{
	return s ? s : "[unknown]";
}

static bool shown_entry(const struct hist *h, const struct hist_entry *e, const struct out_opts *o)
{
	if (o->percent_limit <= 0)
		return true;
	uint64_t v = hist_opts(h)->children ? e->children : e->self;
	/* perf compares in float */
	float p = (float)pct(v, hist_total_period(h));
	return !(p < (float)o->percent_limit);
}

/* ---- table ----------------------------------------------------------------- */

struct cols {
	bool fields;		/* -F: overhead is "Overhead" even with children */
	int w[SORT__MAX];
	enum sort_key col[2 * SORT__MAX + 2];	/* the columns, in order */
	int n;
};

/* perf's column headers ("Pid:Command" is indented in perf's sort.c) */
static const char *col_header(const struct hist *h, const struct cols *c, enum sort_key k)
{
	if (k == SORT_PID)
		return "    Pid:Command";
	if (k == SORT_OVERHEAD && hist_opts(h)->children && !c->fields)
		return "Self";
	if (sort_key_is_tp(k))
		return hist_opts(h)->tp_cols[k - SORT_TP0].name;
	return sort_key_header(k);
}

static void add_col(struct cols *c, enum sort_key k)
{
	for (int i = 0; i < c->n; i++)
		if (c->col[i] == k)
			return;
	c->col[c->n++] = k;
}

/* The columns: the fields given, else the overheads (children, self), the
 * samples with -n, the period with --show-total-period; then the sort keys
 * not shown yet (perf's perf_hpp__setup_output_field). */
static void pick_cols(const struct hist *h, const struct out_opts *o, struct cols *c)
{
	const struct hist_opts *ho = hist_opts(h);

	c->n = 0;
	c->fields = o->fields && o->nfields > 0 && o->fields_strict;
	if (o->fields && o->nfields > 0) {
		for (int i = 0; i < o->nfields; i++)
			if (!o->elide[o->fields[i]])
				add_col(c, o->fields[i]);
	} else {
		if (ho->children)
			add_col(c, SORT_OVERHEAD_CHILDREN);
		add_col(c, SORT_OVERHEAD);
		if (o->show_nr_samples)
			add_col(c, SORT_SAMPLE);
		if (o->show_total_period)
			add_col(c, SORT_PERIOD);
	}
	for (int k = 0; k < ho->nkeys; k++)
		if (!o->elide[ho->keys[k]])
			add_col(c, ho->keys[k]);
}

static void print_elided(FILE *f, const struct hist *h, const struct out_opts *o)
{
	const struct hist_opts *ho = hist_opts(h);
	bool any = false;
	for (int k = 0; k < ho->nkeys; k++) {
		enum sort_key key = ho->keys[k];
		if (!o->elide[key])
			continue;
		fprintf(f, "%s# %s: %s\n", any ? "" : "#\n", key == SORT_SYM ? "symbol" : sort_key_name(key),
			o->elide[key]);
		any = true;
	}
}

/* A tracepoint key's column: the trace line as wide as the longest one; a
 * field as perf sizes it: its fixed width, the longest value shown (unless
 * --raw-trace), and the size of a dynamic field's data in the entries perf
 * compared by this key while adding samples (approximated: those of two
 * samples or more, and all of them when it is the first key). */
static size_t tp_width(const struct hist *h, int t, size_t w)
{
	const struct hist_opts *ho = hist_opts(h);
	const struct hist_tp_col *col = &ho->tp_cols[t];
	bool first = sort_first_key(ho->keys, ho->nkeys) == SORT_TP0 + t;
	size_t n = hist_nr_entries(h);
	if (!col->left && (size_t)col->min_width > w)
		w = (size_t)col->min_width;
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		if (!e->tp)
			continue;
		size_t l = strlen(e->tp->text[t]);
		if (!col->left && col->raw)
			l = 0;
		if (!col->left && (e->nr_samples > 1 || (first && n > 1)) && e->tp->dyn_len[t] > l)
			l = e->tp->dyn_len[t];
		if (l > w)
			w = l;
	}
	return w;
}

static void compute_widths(const struct hist *h, struct cols *c)
{
	size_t n = hist_nr_entries(h);
	size_t comm = 0, dso = 0, sym = 0, parent = 0, srcline = 0;
	bool unres = false;

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		size_t pl = strlen(e->parent ? e->parent : "[other]");
		if (pl > parent)
			parent = pl;
		pl = strlen(nz(e->srcline));
		if (pl > srcline)
			srcline = pl;
		/* perf sizes the comm and pid columns by the thread's last comm
		 * (a workload's "perf-exec" before its exec does not count) */
		size_t l = e->thread_comm ? strlen(e->thread_comm) : strlen(nz(e->comm));
		if (l > comm)
			comm = l;
		l = strlen(nz(e->dso));
		if (l > dso)
			dso = l;
		l = strlen(nz(e->sym)) + 4;
		if (l > sym)
			sym = l;
		if (is_unresolved_sym(e->sym))
			unres = true;
	}
	if (unres) {
		if (sym < 22)
			sym = 22;
		if (dso < 16)
			dso = 16;
	}
	for (int k = 0; k < c->n; k++) {
		enum sort_key key = c->col[k];
		size_t w = strlen(col_header(h, c, key));
		switch (key) {
		case SORT_COMM:
			w = w > comm ? w : comm;
			break;
		case SORT_PID:
			w = w > comm + 8 ? w : comm + 8;
			break;
		case SORT_TID:
			w = 7;
			break;
		case SORT_DSO:
			w = w > dso ? w : dso;
			break;
		case SORT_SYM:
			w = w > sym ? w : sym;
			break;
		case SORT_PARENT:
			w = w > parent ? w : parent;
			break;
		case SORT_SRCLINE:
			w = w > srcline ? w : srcline;
			break;
		case SORT_PERIOD:
		case SORT_SAMPLE:
			w = 12;
			break;
		case SORT_OVERHEAD:
		case SORT_OVERHEAD_CHILDREN:
			w = 8;
			break;
		case SORT_CPU:
		default:
			if (sort_key_is_tp(key))
				w = tp_width(h, key - SORT_TP0, w);
			break;
		}
		c->w[key] = (int)w;
	}
}

static void print_dots(FILE *f, int n)
{
	for (int i = 0; i < n; i++)
		fputc('.', f);
}

static bool right_aligned(const struct hist *h, enum sort_key k)
{
	return k == SORT_TID || sort_key_is_field(k) ||
	       (sort_key_is_tp(k) && !hist_opts(h)->tp_cols[k - SORT_TP0].left);
}

static void print_header(FILE *f, const struct hist *h, const struct cols *c)
{
	for (int k = 0; k < c->n; k++) {
		enum sort_key key = c->col[k];
		fputs(k ? "  " : "# ", f);
		if (right_aligned(h, key))
			fprintf(f, "%*s", c->w[key], col_header(h, c, key));
		else
			fprintf(f, "%-*s", c->w[key], col_header(h, c, key));
	}
	fputc('\n', f);
	for (int k = 0; k < c->n; k++) {
		fputs(k ? "  " : "# ", f);
		print_dots(f, c->w[c->col[k]]);
	}
	fprintf(f, "\n#\n");
}

static void print_row(FILE *f, const struct hist *h, const struct hist_entry *e, const struct cols *c)
{
	uint64_t total = hist_total_period(h);

	for (int k = 0; k < c->n; k++) {
		enum sort_key key = c->col[k];
		bool last = k == c->n - 1;
		int w = c->w[key];
		fputs("  ", f);
		switch (key) {
		case SORT_OVERHEAD_CHILDREN:	/* perf: N/A without children sums */
			if (hist_opts(h)->children)
				fprintf(f, "%*.2f%%", w - 1, pct(e->children, total));
			else
				fprintf(f, "%*s", w, "N/A");
			break;
		case SORT_OVERHEAD:
			fprintf(f, "%*.2f%%", w - 1, pct(e->self, total));
			break;
		case SORT_SAMPLE:
			fprintf(f, "%*llu", w, (unsigned long long)e->nr_samples);
			break;
		case SORT_PERIOD:
			fprintf(f, "%*llu", w, (unsigned long long)e->self);
			break;
		case SORT_COMM:
			fprintf(f, "%-*.*s", w, w, nz(e->comm));
			break;
		case SORT_PID:
			fprintf(f, "%7d:%-*.*s", e->pid, w - 8, w - 8, nz(e->thread_comm ? e->thread_comm : e->comm));
			break;
		case SORT_TID:
			fprintf(f, "%*d", w, e->tid);
			break;
		case SORT_DSO:
			fprintf(f, "%-*.*s", w, w, nz(e->dso));
			break;
		case SORT_SYM: {
			int n = fprintf(f, "[%c] %s", e->level ? e->level : '?', nz(e->sym));
			if (!last && n < w)
				fprintf(f, "%*s", w - n, "");
			break;
		}
		case SORT_CPU:
			fprintf(f, "%*.*d", w, w, e->cpu);
			break;
		case SORT_STATE:
			fprintf(f, "%-*c", last ? 1 : w, e->state ? e->state : '-');
			break;
		case SORT_PARENT:
			fprintf(f, "%-*s", w, e->parent ? e->parent : "[other]");
			break;
		case SORT_SRCLINE:
			fprintf(f, "%-*s", last ? 0 : w, nz(e->srcline));
			break;
		default:
			if (sort_key_is_tp(key)) {
				int t = key - SORT_TP0;
				const char *v = e->tp ? e->tp->text[t] : "";
				if (hist_opts(h)->tp_cols[t].left)
					fprintf(f, "%-*s", last ? 0 : w, v);
				else
					fprintf(f, "%*.*s", w, w, v);
			}
			break;
		}
	}
	fputc('\n', f);
}

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
		fputs(n->frame && n->frame->sym ? n->frame->sym : "[unknown]", f);
}

static void cg_print_name(FILE *f, const struct callchain_node *n)
{
	cg_put_name(f, n);
	fputc('\n', f);
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
		fprintf(f, "%.2f%%", pct(period, total));
}

static void cg_margin(struct cg *g)
{
	fprintf(g->f, "            %*s", g->left_margin, "");
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
		fputs(mask[i] ? "|          " : "           ", g->f);
	fputc('\n', g->f);
	g->printed = true;
}

/* One line of a run: the first gets its value, "--X%--"; name NULL is
 * fractal mode's "[...]" for what its threshold left out. */
static void cg_frame(struct cg *g, uint64_t period, uint64_t count, uint64_t total,
		     const struct callchain_node *n, int depth, const unsigned char *mask, int idx)
{
	cg_margin(g);
	for (int i = 0; i < depth; i++) {
		fputc(mask[i] ? '|' : ' ', g->f);
		if (!idx && i == depth - 1) {
			fputs("--", g->f);
			cg_value(g->f, g->o, period, count, total);
			fputs("--", g->f);
		} else {
			fputs("          ", g->f);
		}
	}
	if (n)
		cg_print_name(g->f, n);
	else
		fputs("[...]\n", g->f);
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
					fputs("|\n", f);
					cg_margin(&g);
					fputs("---", f);
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
		fputc('\n', f);
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
			fputc(' ', f);
			for (size_t j = 0; j < c->len; j++) {
				if (j)
					fputc(';', f);
				cg_put_name(f, c->path[j]);
			}
			fputc('\n', f);
		} else {
			fputs("           ", f);
			cg_value(f, o, last->period, last->count, total);
			fputc('\n', f);
			for (size_t j = 0; j < c->len; j++) {
				fputs("                ", f);
				cg_print_name(f, c->path[j]);
			}
			fputc('\n', f);
		}
	}
	for (size_t i = 0; i < fl.n; i++)
		free((void *)fl.ends[i].path);
	free(fl.ends);
	free(fl.path);
}

static void print_callgraph(FILE *f, const struct hist *h, const struct hist_entry *e, const struct out_opts *o)
{
	if (!e->callers)
		return;
	if (o->callgraph_mode == OUT_CG_FLAT || o->callgraph_mode == OUT_CG_FOLDED)
		print_flat(f, h, e, o);
	else
		print_graph(f, h, e, o);
}

int out_table(FILE *f, const struct hist *h, const struct out_opts *o)
{
	char nbuf[32];
	struct cols c = { .n = 0 };
	uint64_t nsamples = o->total_samples ? o->total_samples : hist_total_samples(h);

	fmt_samples(nbuf, sizeof(nbuf), nsamples);
	pick_cols(h, o, &c);
	compute_widths(h, &c);
	if (!o->quiet) {
		print_elided(f, h, o);
		fprintf(f, "#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)o->lost_samples);
		fprintf(f, "# Samples: %s of event '%s'", nbuf, o->event_name ? o->event_name : "cpu-clock");
		if (o->time_slices)
			fprintf(f, " (time slices: %s)", o->time_slices);
		fputc('\n', f);
		fprintf(f, "# Event count (approx.): %llu\n#\n", (unsigned long long)hist_total_period(h));
		print_header(f, h, &c);
	}
	for (size_t i = 0; i < hist_nr_entries(h); i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		if (!shown_entry(h, e, o))
			continue;
		print_row(f, h, e, &c);
		if (o->callgraph)
			print_callgraph(f, h, e, o);
	}
	fputs("\n\n", f);
	if (ferror(f))
		return -1;	/* the caller names the file (out/ofile.h) */
	return 0;
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_entries(struct json_writer *jw, const struct hist *h, const struct out_opts *o)
{
	const struct hist_opts *ho = hist_opts(h);
	uint64_t total = hist_total_period(h);
	jw_key(jw, "entries");
	jw_start_array(jw);
	for (size_t i = 0; i < hist_nr_entries(h); i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		if (!shown_entry(h, e, o))
			continue;
		jw_start_object(jw);
		jw_key(jw, "self");
		jw_double_prec(jw, pct(e->self, total), 2);
		jw_key(jw, "children");
		jw_double_prec(jw, pct(e->children, total), 2);
		jw_kv_uint(jw, "samples", e->nr_samples);
		for (int k = 0; k < ho->nkeys; k++) {
			switch (ho->keys[k]) {
			case SORT_COMM:
				jw_kv_string(jw, "comm", nz(e->comm));
				break;
			case SORT_PID:
				jw_kv_int(jw, "pid", e->pid);
				break;
			case SORT_TID:
				jw_kv_int(jw, "tid", e->tid);
				break;
			case SORT_DSO:
				jw_kv_string(jw, "dso", nz(e->dso));
				break;
			case SORT_SYM:
				jw_kv_string(jw, "symbol", nz(e->sym));
				break;
			case SORT_CPU:
				jw_kv_int(jw, "cpu", e->cpu);
				break;
			case SORT_SRCLINE:
				jw_kv_string(jw, "srcline", nz(e->srcline));
				break;
			case SORT_PARENT:
				jw_kv_string(jw, "parent", e->parent ? e->parent : "[other]");
				break;
			case SORT_PERIOD:
				jw_kv_uint(jw, "period", e->self);
				break;
			case SORT_STATE:
				jw_kv_string(jw, "state", e->state == 'S' ? "S" : e->state == 'D' ? "D" :
							   e->state == 'I' ? "I" : "-");
				break;
			default:
				if (sort_key_is_tp(ho->keys[k])) {
					int t = ho->keys[k] - SORT_TP0;
					jw_kv_string(jw, ho->tp_cols[t].left ? "trace" : ho->tp_cols[t].name,
						     e->tp ? e->tp->text[t] : "");
				}
				break;
			}
		}
		jw_end_object(jw);
	}
	jw_end_array(jw);
}

static int json_done(FILE *f, struct json_writer *jw)
{
	jw_free(jw);
	if (ferror(f))
		return -1;	/* the caller names the file (out/ofile.h) */
	return 0;
}

static uint64_t json_samples(const struct hist *h, const struct out_opts *o)
{
	return o->total_samples ? o->total_samples : hist_total_samples(h);
}

int out_json(FILE *f, const struct hist *h, const struct out_opts *o)
{
	return out_json_multi(f, &h, o, 1);
}

int out_json_multi(FILE *f, const struct hist *const *hs, const struct out_opts *os, size_t n)
{
	struct json_writer *jw = jw_new(f, false);
	jw_start_object(jw);
	jw_kv_uint(jw, "total_samples", json_samples(hs[0], &os[0]));
	jw_kv_uint(jw, "lost_samples", os[0].lost_samples);
	jw_kv_uint(jw, "total_period", hist_total_period(hs[0]));
	jw_kv_string(jw, "event", os[0].event_name ? os[0].event_name : "cpu-clock");
	json_entries(jw, hs[0], &os[0]);
	if (n > 1) {
		jw_key(jw, "events");
		jw_start_array(jw);
		for (size_t i = 0; i < n; i++) {
			jw_start_object(jw);
			jw_kv_string(jw, "name", os[i].event_name ? os[i].event_name : "cpu-clock");
			jw_kv_uint(jw, "samples", json_samples(hs[i], &os[i]));
			jw_kv_uint(jw, "period", hist_total_period(hs[i]));
			json_entries(jw, hs[i], &os[i]);
			jw_end_object(jw);
		}
		jw_end_array(jw);
	}
	jw_end_object(jw);
	return json_done(f, jw);
}

/* ---- folded stacks -------------------------------------------------------------- */

static void put_folded_name(FILE *f, const char *s)
{
	/* ';' separates frames and a line is one stack: keep both unambiguous */
	for (; *s; s++) {
		char ch = *s;
		if (ch == ';')
			ch = ':';
		else if (ch == '\n' || ch == '\r')
			ch = ' ';
		fputc(ch, f);
	}
}

struct folded_ctx {
	FILE *f;
	const struct out_folded_opts *o;
};

static void folded_cb(void *ctx, const char *comm, const struct hist_frame *const *frames, size_t nframes,
		      uint64_t period, uint64_t samples)
{
	const struct folded_ctx *c = ctx;
	FILE *f = c->f;

	put_folded_name(f, nz(comm));
	if (c->o->root) {
		fputc(';', f);
		put_folded_name(f, c->o->root);
	}
	for (size_t i = 0; i < nframes; i++) {
		fputc(';', f);
		put_folded_name(f, nz(frames[i]->sym));
	}
	fprintf(f, " %llu\n", (unsigned long long)(c->o->by_period ? period : samples));
}

int out_folded(FILE *f, const struct hist *h)
{
	return out_folded_ex(f, h, &(struct out_folded_opts){ 0 });
}

int out_folded_ex(FILE *f, const struct hist *h, const struct out_folded_opts *o)
{
	struct folded_ctx c = { f, o };
	hist_stacks_walk(h, folded_cb, &c);
	if (ferror(f))
		return -1;	/* the caller names the file (out/ofile.h) */
	return 0;
}

/* ---- record counts (--stats) ------------------------------------------------ */

int out_record_stats(FILE *f, const uint64_t *nr, size_t ntypes, const char *(*type_name)(uint32_t),
		     const struct out_stats_event *ev, size_t nev)
{
	uint64_t total = 0;
	for (size_t i = 0; i < ntypes; i++)
		total += nr[i];
	fprintf(f, "\nAggregated stats:\n%16s events: %10llu\n", "TOTAL", (unsigned long long)total);
	for (size_t i = 0; i < ntypes; i++)
		if (nr[i])
			fprintf(f, "%16s events: %10llu  (%4.1f%%)\n", type_name((uint32_t)i),
				(unsigned long long)nr[i], pct(nr[i], total));
	for (size_t i = 0; i < nev; i++) {
		if (!ev[i].samples)
			continue;
		fprintf(f, "%s stats:\n%16s events: %10llu\n", ev[i].name, "SAMPLE",
			(unsigned long long)ev[i].samples);
	}
	if (ferror(f)) {
		pr_err("writing the record counts: %s; check the output file and the free space",
		       strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
