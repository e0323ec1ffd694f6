// SPDX-License-Identifier: GPL-2.0-only
/* hist: sort keys, self/children sums, order, call-graph trees, stack walks.
 * The random tests compare against a brute-force model of perf's rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/filter.h"
#include "hist/hist.h"
#include "util.h"

/* interned strings: distinct static arrays */
static const char S_A[] = "A", S_B[] = "B", S_C[] = "C", S_D[] = "D", S_E[] = "E", S_R[] = "R";
static const char D_APP[] = "app", D_K[] = "[kernel.kallsyms]";
static const char C_A[] = "a", C_B[] = "b";

static struct hist_frame fr(const char *sym)
{
	struct hist_frame f = { .dso = sym == S_E ? D_K : D_APP, .sym = sym, .level = sym == S_E ? 'k' : '.' };
	return f;
}

/* add a stack given leaf first */
static void add(struct hist *h, const char *comm, int n, const char *const *syms, int times)
{
	struct hist_frame f[16];
	for (int i = 0; i < n; i++)
		f[i] = fr(syms[i]);
	for (int k = 0; k < times; k++) {
		struct hist_sample s = { .comm = comm, .pid = comm == C_A ? 10 : 20, .tid = comm == C_A ? 10 : 20,
					 .cpu = k % 2, .period = 100, .nframes = (size_t)n, .frames = f };
		hist_add_sample(h, &s);
	}
}

static struct hist *fixture(bool children)
{
	struct hist_opts o = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3, .children = children,
			       .callchains = true };
	struct hist *h = hist_new(&o);
	add(h, C_A, 3, (const char *[]){ S_C, S_B, S_A }, 3);
	add(h, C_A, 2, (const char *[]){ S_B, S_A }, 1);
	add(h, C_A, 3, (const char *[]){ S_D, S_B, S_A }, 2);
	add(h, C_B, 2, (const char *[]){ S_C, S_E }, 1);
	add(h, C_A, 3, (const char *[]){ S_R, S_R, S_A }, 1);
	hist_finish(h);
	return h;
}

static void test_sort_keys(void **state)
{
	(void)state;
	enum sort_key k[SORT__MAX];
	const char *bad;
	assert_int_equal(sort_keys_parse("comm,dso,sym", k, SORT__MAX, &bad), 3);
	assert_int_equal(k[0], SORT_COMM);
	assert_int_equal(k[2], SORT_SYM);
	assert_int_equal(sort_keys_parse("pid,tid,cpu,symbol", k, SORT__MAX, &bad), 4);
	assert_int_equal(k[3], SORT_SYM);
	assert_int_equal(sort_keys_parse("comm,bogus", k, SORT__MAX, &bad), -1);
	assert_string_equal(bad, "bogus");
	assert_int_equal(sort_keys_parse("", k, SORT__MAX, &bad), -1);
	assert_string_equal(sort_key_name(SORT_SYM), "sym");
	assert_string_equal(sort_key_header(SORT_DSO), "Shared Object");
}

static const struct hist_entry *find(const struct hist *h, const char *comm, const char *sym)
{
	for (size_t i = 0; i < hist_nr_entries(h); i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		if (e->comm == comm && e->sym == sym)
			return e;
	}
	return NULL;
}

static void test_children_sums_and_order(void **state)
{
	(void)state;
	struct hist *h = fixture(true);
	assert_int_equal(hist_total_period(h), 800);
	assert_int_equal(hist_total_samples(h), 8);
	assert_int_equal(hist_nr_entries(h), 7);
	static const struct {
		const char *comm, *sym;
		uint64_t children, self, n;
	} want[] = {
		{ C_A, S_A, 700, 0, 0 },   { C_A, S_B, 600, 100, 1 }, { C_A, S_C, 300, 300, 3 },
		{ C_A, S_D, 200, 200, 2 }, { C_A, S_R, 100, 100, 1 }, /* recursion counted once */
		{ C_B, S_C, 100, 100, 1 }, { C_B, S_E, 100, 0, 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct hist_entry *e = hist_entry_at(h, i);
		assert_ptr_equal(e->comm, want[i].comm);
		assert_ptr_equal(e->sym, want[i].sym);
		assert_int_equal(e->children, want[i].children);
		assert_int_equal(e->self, want[i].self);
		assert_int_equal(e->nr_samples, want[i].n);
	}
	/* call graph of B (children mode, caller order): from B down for the
	 * samples whose leaf is elsewhere, the whole chain when B is the leaf */
	const struct callchain_node *r = find(h, C_A, S_B)->callers;
	assert_non_null(r);
	assert_int_equal(r->period, 600);
	assert_int_equal(r->nkids, 2);
	assert_ptr_equal(r->kids[0]->frame->sym, S_B);
	assert_int_equal(r->kids[0]->period, 500);
	assert_int_equal(r->kids[0]->nkids, 2);
	assert_ptr_equal(r->kids[0]->kids[0]->frame->sym, S_C);
	assert_int_equal(r->kids[0]->kids[0]->period, 300);
	assert_ptr_equal(r->kids[0]->kids[1]->frame->sym, S_D);
	assert_ptr_equal(r->kids[1]->frame->sym, S_A);
	assert_int_equal(r->kids[1]->period, 100);
	assert_ptr_equal(r->kids[1]->kids[0]->frame->sym, S_B);
	hist_free(h);
}

static void test_self_mode(void **state)
{
	(void)state;
	struct hist *h = fixture(false);
	assert_int_equal(hist_nr_entries(h), 5);
	const char *order[] = { S_C, S_D, S_B, S_R, S_C };
	const char *comms[] = { C_A, C_A, C_A, C_A, C_B };
	for (size_t i = 0; i < 5; i++) {
		assert_ptr_equal(hist_entry_at(h, i)->sym, order[i]);
		assert_ptr_equal(hist_entry_at(h, i)->comm, comms[i]);
	}
	const struct hist_entry *b = find(h, C_A, S_B);
	assert_int_equal(b->self, 100);
	assert_int_equal(b->children, 600);
	/* callee order: leaf first, then its callers */
	const struct callchain_node *r = find(h, C_A, S_C)->callers;
	assert_int_equal(r->nkids, 1);
	assert_ptr_equal(r->kids[0]->frame->sym, S_C);
	assert_ptr_equal(r->kids[0]->kids[0]->frame->sym, S_B);
	assert_ptr_equal(r->kids[0]->kids[0]->kids[0]->frame->sym, S_A);
	assert_int_equal(r->kids[0]->kids[0]->kids[0]->period, 300);
	hist_free(h);
}

static void test_sort_pid_cpu(void **state)
{
	(void)state;
	struct hist_opts o = { .keys = { SORT_PID, SORT_CPU }, .nkeys = 2 };
	struct hist *h = hist_new(&o);
	add(h, C_A, 1, (const char *[]){ S_A }, 4);	/* cpu 0,1,0,1 */
	add(h, C_B, 1, (const char *[]){ S_B }, 1);
	hist_finish(h);
	assert_int_equal(hist_nr_entries(h), 3);
	assert_int_equal(hist_entry_at(h, 0)->pid, 10);
	assert_int_equal(hist_entry_at(h, 0)->self, 200);
	assert_int_equal(hist_entry_at(h, 0)->cpu, 0);
	assert_int_equal(hist_entry_at(h, 1)->cpu, 1);
	assert_int_equal(hist_entry_at(h, 2)->pid, 20);
	hist_free(h);
}

struct walk {
	char buf[4096];
	size_t len;
	uint64_t samples;
};

static void walk_cb(void *ctx, const char *comm, const struct hist_frame *const *frames, size_t n,
		    uint64_t period, uint64_t samples)
{
	struct walk *w = ctx;
	(void)period;
	w->len += (size_t)snprintf(w->buf + w->len, sizeof(w->buf) - w->len, "%s", comm);
	for (size_t i = 0; i < n; i++)
		w->len += (size_t)snprintf(w->buf + w->len, sizeof(w->buf) - w->len, ";%s", frames[i]->sym);
	w->len += (size_t)snprintf(w->buf + w->len, sizeof(w->buf) - w->len, " %llu\n", (unsigned long long)samples);
	w->samples += samples;
}

static void test_stacks_walk(void **state)
{
	(void)state;
	struct hist *h = fixture(true);
	struct walk w = { .len = 0 };
	hist_stacks_walk(h, walk_cb, &w);
	assert_string_equal(w.buf, "a;A;B 1\na;A;B;C 3\na;A;B;D 2\na;A;R;R 1\nb;E;C 1\n");
	assert_int_equal(w.samples, 8);
	hist_free(h);
	/* roots split by pid/cpu are merged by comm for the walk */
	struct hist_opts o = { .keys = { SORT_CPU, SORT_SYM }, .nkeys = 2, .callchains = true };
	h = hist_new(&o);
	add(h, C_A, 2, (const char *[]){ S_B, S_A }, 4);
	hist_finish(h);
	memset(&w, 0, sizeof(w));
	hist_stacks_walk(h, walk_cb, &w);
	assert_string_equal(w.buf, "a;A;B 4\n");
	hist_free(h);
	/* without children sums hist_finish leaves the kid lists unbuilt; the
	 * walk still lists kids by name, not in the order they were seen */
	struct hist_opts so = { .keys = { SORT_COMM, SORT_SYM }, .nkeys = 2, .callchains = true,
				.skip_children_sums = true };
	h = hist_new(&so);
	add(h, C_B, 2, (const char *[]){ S_D, S_A }, 1);
	add(h, C_A, 3, (const char *[]){ S_D, S_B, S_A }, 2);
	add(h, C_A, 3, (const char *[]){ S_C, S_B, S_A }, 1);
	add(h, C_A, 2, (const char *[]){ S_B, S_A }, 1);
	hist_finish(h);
	assert_int_equal(hist_entry_at(h, 0)->self, 200);	/* a: D */
	memset(&w, 0, sizeof(w));
	hist_stacks_walk(h, walk_cb, &w);
	assert_string_equal(w.buf, "a;A;B 1\na;A;B;C 1\na;A;B;D 2\nb;A;D 1\n");
	hist_free(h);
}

/* ---- brute-force model -------------------------------------------------- */

#define NSYM 7
#define MAXD 9
static const char *syms[NSYM];

struct msample {
	int comm, n;
	int f[MAXD];	/* leaf first */
	uint64_t period;
};

/* model call-graph tree: nodes with (sym index, period), children as lists */
struct mnode {
	int sym;
	uint64_t period;
	struct mnode *kid, *next;
};

static struct mnode *mchild(struct mnode *p, int sym)
{
	for (struct mnode *k = p->kid; k; k = k->next)
		if (k->sym == sym)
			return k;
	struct mnode *k = xcalloc(1, sizeof(*k));
	k->sym = sym;
	k->next = p->kid;
	p->kid = k;
	return k;
}

static void mfree(struct mnode *n)
{
	while (n) {
		struct mnode *nx = n->next;
		mfree(n->kid);
		free(n);
		n = nx;
	}
}

static void minsert(struct mnode *root, const int *chain, int n, uint64_t w)
{
	root->period += w;
	for (int i = 0; i < n; i++) {
		root = mchild(root, chain[i]);
		root->period += w;
	}
}

/* every model node must exist in the hist tree with the same period, and
 * the hist tree must have no extra node */
static size_t mcompare(const struct mnode *m, const struct callchain_node *c)
{
	size_t n = 0;
	assert_int_equal(m->period, c->period);
	for (const struct mnode *k = m->kid; k; k = k->next) {
		const struct callchain_node *ck = NULL;
		for (size_t i = 0; i < c->nkids; i++)
			if (c->kids[i]->frame->sym == syms[k->sym])
				ck = c->kids[i];
		assert_non_null(ck);
		n += 1 + mcompare(k, ck);
	}
	for (size_t i = 1; i < c->nkids; i++)
		assert_true(c->kids[i - 1]->period >= c->kids[i]->period);
	return n;
}

static size_t count_nodes(const struct callchain_node *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nkids; i++)
		n += 1 + count_nodes(c->kids[i]);
	return n;
}

static void random_check(bool children, bool skip_sums, unsigned seed)
{
	static const char names[NSYM][4] = { "s0", "s1", "s2", "s3", "s4", "s5", "s6" };
	static const char *comms[2] = { "x", "y" };
	enum { NS = 400 };
	struct msample *ms = xcalloc(NS, sizeof(*ms));
	struct hist_opts o = { .keys = { SORT_COMM, SORT_SYM }, .nkeys = 2, .children = children,
			       .callchains = true, .skip_children_sums = skip_sums };
	struct hist *h = hist_new(&o);

	for (int i = 0; i < NSYM; i++)
		syms[i] = names[i];
	srand(seed);
	for (int i = 0; i < NS; i++) {
		struct msample *s = &ms[i];
		struct hist_frame f[MAXD] = { 0 };
		s->comm = rand() % 2;
		s->n = 1 + rand() % MAXD;
		s->period = 1 + (uint64_t)(rand() % 5);
		for (int k = 0; k < s->n; k++) {
			s->f[k] = rand() % NSYM;	/* recursion happens */
			f[k].sym = syms[s->f[k]];
			f[k].dso = D_APP;
			f[k].level = '.';
		}
		struct hist_sample hs = { .comm = comms[s->comm], .period = s->period, .nframes = (size_t)s->n,
					  .frames = f };
		hist_add_sample(h, &hs);
	}
	hist_finish(h);

	size_t nent = 0;
	for (int c = 0; c < 2; c++) {
		for (int e = 0; e < NSYM; e++) {
			uint64_t self = 0, chil = 0;
			struct mnode root = { .sym = -1 };
			for (int i = 0; i < NS; i++) {
				struct msample *s = &ms[i];
				if (s->comm != c)
					continue;
				int outer = -1;	/* outermost occurrence */
				for (int k = 0; k < s->n; k++)
					if (s->f[k] == e)
						outer = k;
				if (outer < 0)
					continue;
				chil += s->period;
				int chain[MAXD], n = 0;
				if (s->f[0] == e) {
					self += s->period;
					if (children)	/* the whole chain, outermost first */
						for (int k = s->n - 1; k >= 0; k--)
							chain[n++] = s->f[k];
					else		/* leaf first */
						for (int k = 0; k < s->n; k++)
							chain[n++] = s->f[k];
					minsert(&root, chain, n, s->period);
				} else if (children) {
					for (int k = outer; k >= 0; k--)
						chain[n++] = s->f[k];
					minsert(&root, chain, n, s->period);
				}
			}
			const struct hist_entry *he = find(h, comms[c], syms[e]);
			bool exists = children ? chil > 0 : self > 0;
			if (!exists) {
				assert_null(he);
				mfree(root.kid);
				continue;
			}
			nent++;
			assert_non_null(he);
			assert_int_equal(he->self, self);
			/* skip_children_sums leaves them out without --children only */
			assert_int_equal(he->children, skip_sums && !children ? 0 : chil);
			assert_non_null(he->callers);
			size_t n = mcompare(&root, he->callers);
			assert_int_equal(n, count_nodes(he->callers));
			mfree(root.kid);
		}
	}
	assert_int_equal(nent, hist_nr_entries(h));
	for (size_t i = 1; i < hist_nr_entries(h); i++) {
		const struct hist_entry *a = hist_entry_at(h, i - 1), *b = hist_entry_at(h, i);
		if (children)
			assert_true(a->children >= b->children);
		else
			assert_true(a->self >= b->self);
	}
	hist_free(h);
	free(ms);
}

static void test_random_vs_model(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 30; seed++) {
		random_check(true, false, seed);
		random_check(false, false, seed);
		random_check(true, true, seed);
		random_check(false, true, seed);
	}
}

/* callgraph_limit prunes branches below the limit, and only those */
/* Frames without symbol (perf 6.1): call-graph nodes by address (ip_sym),
 * the samples' entry by place in the file (sym), and with children the
 * callers' entries by address too. Two processes of one PIE binary: file
 * offsets X (leaf) and M (caller), at addresses X1/M1 and X2/M2. */
static const char S_X[] = "0x0000000000001146", S_M[] = "0x00000000000011c9";
static const char S_X1[] = "0x0000555500001146", S_M1[] = "0x00005555000011c9";
static const char S_X2[] = "0x0000566600001146", S_M2[] = "0x00005666000011c9";

static void add_unresolved(struct hist *h, const char *x, const char *m, int times)
{
	struct hist_frame f[3] = { { .dso = D_APP, .sym = S_X, .ip_sym = x, .level = '.' },
				   { .dso = D_APP, .sym = S_M, .ip_sym = m, .level = '.' }, fr(S_A) };
	for (int k = 0; k < times; k++) {
		struct hist_sample s = { .comm = C_A, .period = 100, .nframes = 3, .frames = f };
		hist_add_sample(h, &s);
	}
}

static void test_unresolved_frames(void **state)
{
	(void)state;
	for (int children = 0; children <= 1; children++) {
		struct hist_opts o = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3,
				       .children = children, .caller_order = true, .callchains = true };
		struct hist *h = hist_new(&o);
		add_unresolved(h, S_X1, S_M1, 3);
		add_unresolved(h, S_X2, S_M2, 2);
		hist_finish(h);
		const struct hist_entry *x = find(h, C_A, S_X);
		assert_non_null(x);
		assert_int_equal(x->self, 500);
		assert_int_equal(x->nr_samples, 5);
		/* A -> {M1 -> X1 (300), M2 -> X2 (200)} */
		const struct callchain_node *a = x->callers;
		assert_int_equal(a->nkids, 1);
		a = a->kids[0];
		assert_ptr_equal(a->frame->sym, S_A);
		assert_int_equal(a->nkids, 2);
		assert_ptr_equal(a->kids[0]->frame->ip_sym, S_M1);
		assert_int_equal(a->kids[0]->period, 300);
		assert_ptr_equal(a->kids[0]->kids[0]->frame->ip_sym, S_X1);
		assert_ptr_equal(a->kids[1]->frame->ip_sym, S_M2);
		assert_int_equal(a->kids[1]->period, 200);
		/* children: one entry per caller address, none by offset */
		assert_null(find(h, C_A, S_M));
		if (children) {
			const struct hist_entry *m1 = find(h, C_A, S_M1), *x2 = find(h, C_A, S_X2);
			assert_non_null(m1);
			assert_int_equal(m1->children, 300);
			assert_int_equal(m1->self, 0);
			assert_non_null(x2);	/* the leaf in the chain: by address */
			assert_int_equal(x2->children, 200);
			assert_int_equal(x->children, 500);
			/* M1's graph: M1 -> X1 */
			assert_ptr_equal(m1->callers->kids[0]->frame->ip_sym, S_M1);
			assert_ptr_equal(m1->callers->kids[0]->kids[0]->frame->ip_sym, S_X1);
		}
		hist_free(h);
	}
}

/* Ties broken as perf breaks them. Entries equal on every number: those
 * without a map ("[unknown]") after the others, those without a symbol
 * after the named ones of their dso (perf's cmp_null), although "0x..."
 * sorts before letters. Call-graph siblings of equal period: by symbol
 * start, descending, within a dso; across dsos by hist_dso_order's rank,
 * highest first, or by name without it. */
static const char D_LIBZ[] = "libz.so", D_UNK[] = "[unknown]";
static const char S_ZETA[] = "zeta", S_HEX[] = "0x0000000000001000", S_UNK[] = "0x00000000deadbeef";
static const struct hist_frame F_ZETA = { .dso = D_APP, .sym = S_ZETA, .start = 0x3000, .level = '.' };
static const struct hist_frame F_HEX = { .dso = D_APP, .sym = S_HEX, .ip_sym = S_HEX, .level = '.' };
static const struct hist_frame F_UNK = { .dso = D_UNK, .sym = S_UNK, .ip_sym = S_UNK, .level = '.' };
static const struct hist_frame F_E = { .dso = D_LIBZ, .sym = S_E, .start = 0x10, .level = '.' };

static uint32_t rank_libz_last(const void *ctx, const char *dso)
{
	(void)ctx;
	return dso == D_LIBZ ? 2 : dso == D_APP ? 1 : 0;
}

static void one(struct hist *h, int n, const struct hist_frame *f)
{
	struct hist_sample s = { .comm = C_A, .pid = 10, .tid = 10, .period = 100, .nframes = (size_t)n,
				 .frames = f };
	hist_add_sample(h, &s);
}

/* perf puts the deeper of two entries of equal children first only when
 * both were made by samples of one thread (he->thread): across threads of
 * one comm the self period decides. D (thread 10, self 200, depth 1) and
 * C (thread 20, self 100, depth 2): D first. */
static void test_children_ties_by_thread(void **state)
{
	(void)state;
	struct hist_opts o = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3, .children = true,
			       .callchains = true };
	struct hist *h = hist_new(&o);
	struct hist_frame d[1] = { fr(S_D) }, cb[2] = { fr(S_C), fr(S_B) }, acb[3] = { fr(S_A), fr(S_C), fr(S_B) };
	for (int k = 0; k < 2; k++) {
		struct hist_sample s = { .comm = C_A, .pid = 10, .tid = 10, .period = 100, .nframes = 1, .frames = d };
		hist_add_sample(h, &s);
	}
	struct hist_sample s1 = { .comm = C_A, .pid = 20, .tid = 20, .period = 100, .nframes = 2, .frames = cb };
	struct hist_sample s2 = { .comm = C_A, .pid = 20, .tid = 20, .period = 100, .nframes = 3, .frames = acb };
	hist_add_sample(h, &s1);
	hist_add_sample(h, &s2);
	hist_finish(h);
	const struct hist_entry *first = hist_entry_at(h, 0);
	assert_ptr_equal(first->sym, S_D);
	assert_int_equal(first->children, 200);
	const struct hist_entry *c = find(h, C_A, S_C);
	assert_non_null(c);
	assert_int_equal(c->children, 200);
	assert_int_equal(c->self, 100);
	hist_free(h);
}

/* --children -g callee: an entry's chains run from its innermost frame up
 * to the outermost caller (perf's snapshot of the callee-order cursor):
 * A, the outermost caller, has no callers; B's go up to A; R (R R A, a
 * recursion) starts at the inner R. */
static void test_children_callee(void **state)
{
	(void)state;
	struct hist_opts o = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3, .children = true,
			       .callchains = true, .callee_children = true };
	struct hist *h = hist_new(&o);
	add(h, C_A, 3, (const char *[]){ S_C, S_B, S_A }, 3);
	add(h, C_A, 2, (const char *[]){ S_B, S_A }, 1);
	add(h, C_A, 3, (const char *[]){ S_D, S_B, S_A }, 2);
	add(h, C_A, 3, (const char *[]){ S_R, S_R, S_A }, 1);
	hist_finish(h);
	const struct callchain_node *a = find(h, C_A, S_A)->callers;
	assert_int_equal(a->nkids, 1);
	assert_ptr_equal(a->kids[0]->frame->sym, S_A);
	assert_int_equal(a->kids[0]->period, 700);
	assert_int_equal(a->kids[0]->count, 7);
	assert_int_equal(a->kids[0]->nkids, 0);
	const struct callchain_node *b = find(h, C_A, S_B)->callers;
	assert_int_equal(b->nkids, 1);
	assert_ptr_equal(b->kids[0]->frame->sym, S_B);
	assert_int_equal(b->kids[0]->period, 600);
	assert_int_equal(b->kids[0]->nkids, 1);
	assert_ptr_equal(b->kids[0]->kids[0]->frame->sym, S_A);
	const struct hist_entry *re = find(h, C_A, S_R);
	assert_int_equal(re->children, 100);
	const struct callchain_node *r = re->callers->kids[0];	/* R R A */
	assert_ptr_equal(r->frame->sym, S_R);
	assert_int_equal(r->nkids, 1);
	assert_ptr_equal(r->kids[0]->frame->sym, S_R);
	assert_ptr_equal(r->kids[0]->kids[0]->frame->sym, S_A);
	hist_free(h);
}

/* --children -g callee: an entry made by samples taken where there is no
 * symbol (named by the offset, its frames in the chains by the address)
 * still draws those samples' chains, as perf */
static void test_children_callee_unresolved(void **state)
{
	(void)state;
	struct hist_opts o = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3, .children = true,
			       .callchains = true, .callee_children = true };
	struct hist *h = hist_new(&o);
	add_unresolved(h, S_X1, S_M1, 3);
	add_unresolved(h, S_X2, S_M2, 2);
	hist_finish(h);
	const struct hist_entry *x = find(h, C_A, S_X);
	assert_non_null(x);
	assert_int_equal(x->self, 500);
	const struct callchain_node *r = x->callers;
	assert_int_equal(r->nkids, 2);	/* X1 -> M1 -> A (300), X2 -> M2 -> A (200) */
	assert_ptr_equal(r->kids[0]->frame->ip_sym, S_X1);
	assert_int_equal(r->kids[0]->period, 300);
	assert_int_equal(r->kids[0]->nkids, 1);
	assert_ptr_equal(r->kids[0]->kids[0]->frame->ip_sym, S_M1);
	assert_ptr_equal(r->kids[0]->kids[0]->kids[0]->frame->sym, S_A);
	assert_ptr_equal(r->kids[1]->frame->ip_sym, S_X2);
	assert_int_equal(r->kids[1]->period, 200);
	hist_free(h);
}

/* two functions of one name in one file (static ones: ld.so has two
 * check_match) are two entries, as perf compares symbols by start */
static void test_same_name_two_symbols(void **state)
{
	(void)state;
	struct hist_opts o = { .keys = { SORT_SYM }, .nkeys = 1, .exact_order = true };
	struct hist *h = hist_new(&o);
	struct hist_frame f1 = { .dso = D_APP, .sym = S_X, .start = 0x8bc0, .level = '.' };
	struct hist_frame f2 = { .dso = D_APP, .sym = S_X, .start = 0xa470, .level = '.' };
	struct hist_sample s1 = { .comm = C_A, .period = 100, .nframes = 1, .frames = &f1 };
	struct hist_sample s2 = { .comm = C_A, .period = 100, .nframes = 1, .frames = &f2 };
	hist_add_sample(h, &s1);
	hist_add_sample(h, &s2);
	hist_add_sample(h, &s1);
	hist_finish(h);
	assert_int_equal(hist_nr_entries(h), 2);
	assert_int_equal(hist_entry_at(h, 0)->self + hist_entry_at(h, 1)->self, 300);
	hist_free(h);
}

static void test_equal_period_order(void **state)
{
	(void)state;
	struct hist_opts o = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3, .callchains = true };
	struct hist *h = hist_new(&o);
	one(h, 1, &F_UNK);
	one(h, 1, &F_HEX);
	one(h, 1, &F_E);
	one(h, 1, &F_ZETA);
	hist_finish(h);
	assert_int_equal(hist_nr_entries(h), 4);
	assert_ptr_equal(hist_entry_at(h, 0)->sym, S_ZETA);
	assert_ptr_equal(hist_entry_at(h, 1)->sym, S_HEX);
	assert_ptr_equal(hist_entry_at(h, 2)->sym, S_E);
	assert_ptr_equal(hist_entry_at(h, 3)->sym, S_UNK);
	hist_free(h);

	/* R calls B (at 0x100), C (at 0x200) and libz's E, once each */
	for (int ranked = 0; ranked <= 1; ranked++) {
		h = hist_new(&o);
		if (ranked)
			hist_dso_order(h, rank_libz_last, NULL);
		const struct hist_frame r = { .dso = D_APP, .sym = S_R, .start = 0x50, .level = '.' };
		const struct hist_frame kids[3] = {
			{ .dso = D_APP, .sym = S_B, .start = 0x100, .level = '.' },
			{ .dso = D_APP, .sym = S_C, .start = 0x200, .level = '.' },
			{ .dso = D_LIBZ, .sym = S_E, .start = 0x10, .level = '.' } };
		for (int k = 0; k < 3; k++) {
			struct hist_frame f[3] = { { .dso = D_APP, .sym = S_X, .start = 0x400, .level = '.' }, kids[k], r };
			one(h, 3, f);
		}
		hist_finish(h);
		const struct hist_entry *x = find(h, C_A, S_X);
		assert_non_null(x);
		const struct callchain_node *n = x->callers;	/* X <- {B, C, E} <- R */
		assert_int_equal(n->nkids, 1);
		n = n->kids[0];
		assert_ptr_equal(n->frame->sym, S_X);
		assert_int_equal(n->nkids, 3);
		if (ranked) {
			assert_ptr_equal(n->kids[0]->frame->sym, S_E);
			assert_ptr_equal(n->kids[1]->frame->sym, S_C);
			assert_ptr_equal(n->kids[2]->frame->sym, S_B);
		} else {
			/* by address within app (C, B), by name across dsos (B, C before E) */
			assert_ptr_equal(n->kids[0]->frame->sym, S_C);
			assert_ptr_equal(n->kids[1]->frame->sym, S_B);
			assert_ptr_equal(n->kids[2]->frame->sym, S_E);
		}
		hist_free(h);
	}

	/* one total order (qsort needs one) with dsos of equal rank and
	 * frames with and without symbol: dso by name, within a dso those with
	 * a symbol first, by address descending */
	h = hist_new(&o);
	hist_dso_order(h, rank_libz_last, NULL);
	const struct hist_frame r = { .dso = D_APP, .sym = S_R, .start = 0x50, .level = '.' };
	const struct hist_frame kids[4] = {
		{ .dso = D_UNK, .sym = S_UNK, .ip_sym = S_UNK, .level = '.' },
		{ .dso = D_APP, .sym = S_HEX, .ip_sym = S_HEX, .level = '.' },
		{ .dso = D_APP, .sym = S_B, .start = 0x100, .level = '.' },
		{ .dso = D_APP, .sym = S_ZETA, .start = 0x3000, .level = '.' } };
	for (int k = 0; k < 4; k++) {
		struct hist_frame f[3] = { { .dso = D_APP, .sym = S_X, .start = 0x400, .level = '.' }, kids[k], r };
		one(h, 3, f);
	}
	hist_finish(h);
	const struct callchain_node *n = find(h, C_A, S_X)->callers->kids[0];
	assert_int_equal(n->nkids, 4);
	assert_ptr_equal(n->kids[0]->frame->sym, S_ZETA);
	assert_ptr_equal(n->kids[1]->frame->sym, S_B);
	assert_ptr_equal(n->kids[2]->frame->ip_sym, S_HEX);
	assert_ptr_equal(n->kids[3]->frame->ip_sym, S_UNK);
	hist_free(h);
}

/* perf's sort list (exact_order): the keys alone order the entries, fields
 * among them where listed; fields only: one entry. hide_unresolved drops
 * samples taken without symbol and cuts symbol-less callers from chains;
 * sym_filter keeps the entries whose symbol contains it; with children,
 * the filter's --dsos picks entries by their own dso. */
static void test_sort_list_and_entry_filters(void **state)
{
	(void)state;
	/* sym, then overhead: "E" before "zeta" although zeta has more */
	struct hist_opts o = { .keys = { SORT_SYM, SORT_OVERHEAD }, .nkeys = 2, .exact_order = true };
	struct hist *h = hist_new(&o);
	one(h, 1, &F_ZETA);
	one(h, 1, &F_ZETA);
	one(h, 1, &F_E);
	hist_finish(h);
	assert_int_equal(hist_nr_entries(h), 2);
	assert_ptr_equal(hist_entry_at(h, 0)->sym, S_E);
	assert_ptr_equal(hist_entry_at(h, 1)->sym, S_ZETA);
	hist_free(h);

	o = (struct hist_opts){ .keys = { SORT_OVERHEAD }, .nkeys = 1, .exact_order = true };
	h = hist_new(&o);
	one(h, 1, &F_ZETA);
	one(h, 1, &F_E);
	hist_finish(h);
	assert_int_equal(hist_nr_entries(h), 1);
	assert_int_equal(hist_entry_at(h, 0)->self, 200);
	hist_free(h);

	o = (struct hist_opts){ .keys = { SORT_SYM }, .nkeys = 1, .callchains = true, .children = true,
				.hide_unresolved = true };
	h = hist_new(&o);
	one(h, 1, &F_HEX);					/* left out */
	one(h, 3, (const struct hist_frame[]){ F_ZETA, F_HEX, F_E });	/* zeta <- E */
	hist_finish(h);
	assert_int_equal(hist_total_samples(h), 1);
	assert_int_equal(hist_hidden_samples(h), 1);
	assert_int_equal(hist_nr_entries(h), 2);
	for (size_t i = 0; i < hist_nr_entries(h); i++)
		assert_ptr_not_equal(hist_entry_at(h, i)->sym, S_HEX);
	hist_free(h);

	o = (struct hist_opts){ .keys = { SORT_SYM }, .nkeys = 1, .sym_filter = "et" };
	h = hist_new(&o);
	one(h, 1, &F_ZETA);
	one(h, 1, &F_E);
	one(h, 1, &F_HEX);
	hist_finish(h);
	assert_int_equal(hist_nr_entries(h), 1);
	assert_ptr_equal(hist_entry_at(h, 0)->sym, S_ZETA);
	assert_int_equal(hist_total_period(h), 300);
	hist_free(h);

	/* --dsos libz with children: E's entry (its own dso) and only it,
	 * with the samples of F_ZETA it called */
	struct hist_filter flt = { 0 };
	assert_int_equal(hist_filter_add_dsos(&flt, D_LIBZ), 0);
	o = (struct hist_opts){ .keys = { SORT_SYM }, .nkeys = 1, .callchains = true, .children = true,
				.filter = &flt, .filter_entries = true };
	h = hist_new(&o);
	one(h, 2, (const struct hist_frame[]){ F_ZETA, F_E });
	one(h, 1, &F_E);
	hist_finish(h);
	assert_int_equal(hist_nr_entries(h), 1);
	assert_ptr_equal(hist_entry_at(h, 0)->sym, S_E);
	assert_int_equal(hist_entry_at(h, 0)->children, 200);
	assert_int_equal(hist_entry_at(h, 0)->self, 100);
	hist_free(h);
	/* for stack walks (folded, flame graphs): samples by their leaf */
	o.filter_entries = false;
	h = hist_new(&o);
	one(h, 2, (const struct hist_frame[]){ F_ZETA, F_E });
	one(h, 1, &F_E);
	hist_finish(h);
	assert_int_equal(hist_filtered_samples(h), 1);
	assert_int_equal(hist_nr_entries(h), 1);
	assert_int_equal(hist_entry_at(h, 0)->children, 100);
	hist_free(h);
	hist_filter_free(&flt);
}

/* perf report --max-stack N in caller order: the chain is the N outermost
 * frames; a sampled function left out of it (off_chain) makes the entry,
 * but its call graph ends at the last frame kept. */
static void test_off_chain_leaf(void **state)
{
	(void)state;
	for (int children = 0; children <= 1; children++) {
		struct hist_opts o = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3,
				       .children = children, .caller_order = true, .callchains = true };
		struct hist *h = hist_new(&o);
		/* C cut off from B <- A (2 samples); C called by B <- A, all kept (1) */
		struct hist_frame f[3] = { fr(S_C), fr(S_B), fr(S_A) };
		f[0].off_chain = true;
		for (int k = 0; k < 2; k++)
			hist_add_sample(h, &(struct hist_sample){ .comm = C_A, .period = 100, .nframes = 3, .frames = f });
		struct hist_frame g[2] = { fr(S_C), fr(S_A) };
		hist_add_sample(h, &(struct hist_sample){ .comm = C_A, .period = 100, .nframes = 2, .frames = g });
		hist_finish(h);
		const struct hist_entry *c = find(h, C_A, S_C);
		assert_non_null(c);
		assert_int_equal(c->self, 300);
		/* A -> {B (200, ends there), C (100)} */
		const struct callchain_node *a = c->callers->kids[0];
		assert_ptr_equal(a->frame->sym, S_A);
		assert_int_equal(a->period, 300);
		assert_int_equal(a->nkids, 2);
		assert_ptr_equal(a->kids[0]->frame->sym, S_B);
		assert_int_equal(a->kids[0]->period, 200);
		assert_int_equal(a->kids[0]->nkids, 0);
		assert_ptr_equal(a->kids[1]->frame->sym, S_C);
		if (children) {
			const struct hist_entry *b = find(h, C_A, S_B);
			assert_non_null(b);
			assert_int_equal(b->children, 200);
			assert_int_equal(b->callers->kids[0]->nkids, 0);	/* B, without C */
			assert_int_equal(c->children, 300);
		}
		hist_free(h);
	}
}

static void test_callgraph_limit(void **state)
{
	(void)state;
	struct hist_opts o = { .keys = { SORT_SYM }, .nkeys = 1, .children = false, .callchains = true,
			       .callgraph_limit = 10 };
	struct hist *h = hist_new(&o);
	add(h, C_A, 3, (const char *[]){ S_C, S_B, S_A }, 95);
	add(h, C_A, 2, (const char *[]){ S_C, S_D }, 5);	/* 5% < 10% */
	hist_finish(h);
	const struct callchain_node *r = hist_entry_at(h, 0)->callers;
	assert_int_equal(r->period, 10000);
	assert_int_equal(r->kids[0]->period, 10000);
	assert_int_equal(r->kids[0]->nkids, 1);	/* D pruned */
	assert_ptr_equal(r->kids[0]->kids[0]->frame->sym, S_B);
	hist_free(h);
}

static void test_empty_and_odd(void **state)
{
	(void)state;
	struct hist_opts o = { .nkeys = 0, .children = true, .callchains = true };	/* defaults */
	struct hist *h = hist_new(&o);
	hist_finish(h);
	assert_int_equal(hist_nr_entries(h), 0);
	assert_null(hist_entry_at(h, 0));
	hist_free(h);
	h = hist_new(&o);
	struct hist_frame f = { 0 };	/* NULL names */
	struct hist_sample s = { .comm = NULL, .period = 1, .nframes = 1, .frames = &f };
	hist_add_sample(h, &s);
	hist_finish(h);
	hist_add_sample(h, &s);	/* ignored after finish */
	assert_int_equal(hist_nr_entries(h), 1);
	assert_string_equal(hist_entry_at(h, 0)->sym, "[unknown]");
	assert_int_equal(hist_total_samples(h), 1);
	hist_free(h);
}

/* Micro-benchmark, not a test: `test_hist bench`. 1M samples, 20-frame
 * stacks, 20k distinct stacks drawn with a skew (a few hot stacks, a long
 * tail), in children and self modes. */
static void bench_1m(void)
{
	enum { NS = 1000000, DEPTH = 20, NF = 5000, K = 20000 };
	static char names[NF][24];
	static const char *dsos[3] = { "[kernel.kallsyms]", "libc.so.6", "app" };
	const char *comms[8] = { "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7" };
	struct hist_frame *stacks = xcalloc((size_t)DEPTH * K, sizeof(*stacks));
	for (int i = 0; i < NF; i++)
		snprintf(names[i], sizeof(names[i]), "func_%d", i);
	for (int k = 0; k < K; k++) {
		uint64_t path = 0;
		for (int d = 0; d < DEPTH; d++) {
			path = path * 1000003 + hash_u64((uint64_t)k * 31 + (uint64_t)d) % 4 + 1;
			int f = (int)(hash_u64(path) % NF);
			struct hist_frame *fr_ = &stacks[k * DEPTH + DEPTH - 1 - d];
			fr_->sym = names[f];
			fr_->dso = dsos[f % 3];
			fr_->level = f % 3 ? '.' : 'k';
		}
	}
	for (int children = 1; children >= 0; children--) {
		struct hist_opts o = { .keys = { SORT_COMM, SORT_DSO, SORT_SYM }, .nkeys = 3, .children = children,
				       .callchains = true, .callgraph_limit = 0.5 };
		struct hist *h = hist_new(&o);
		uint64_t t0 = now_ns();
		for (uint64_t i = 0; i < NS; i++) {
			uint64_t r = hash_u64(i) % 1000000;
			size_t k = (size_t)((double)K * (double)r * (double)r * (double)r / 1e18);
			struct hist_sample s = { .comm = comms[k % 8], .period = 1000000, .nframes = DEPTH,
						 .frames = &stacks[k * DEPTH] };
			hist_add_sample(h, &s);
		}
		uint64_t t1 = now_ns();
		hist_finish(h);
		uint64_t t2 = now_ns();
		fprintf(stderr, "bench: %s: 1M samples x %d frames: add %.3f s, finish %.3f s, %zu entries\n",
			children ? "children" : "self", DEPTH, (double)(t1 - t0) / 1e9, (double)(t2 - t1) / 1e9,
			hist_nr_entries(h));
		hist_free(h);
	}
	free(stacks);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_keys),
		cmocka_unit_test(test_children_sums_and_order),
		cmocka_unit_test(test_self_mode),
		cmocka_unit_test(test_sort_pid_cpu),
		cmocka_unit_test(test_stacks_walk),
		cmocka_unit_test(test_random_vs_model),
		cmocka_unit_test(test_callgraph_limit),
		cmocka_unit_test(test_unresolved_frames),
		cmocka_unit_test(test_off_chain_leaf),
		cmocka_unit_test(test_equal_period_order),
		cmocka_unit_test(test_children_callee),
		cmocka_unit_test(test_children_callee_unresolved),
		cmocka_unit_test(test_same_name_two_symbols),
		cmocka_unit_test(test_children_ties_by_thread),
		cmocka_unit_test(test_sort_list_and_entry_filters),
		cmocka_unit_test(test_empty_and_odd),
	};
	if (argc > 1 && !strcmp(argv[1], "bench")) {
		bench_1m();
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
