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
 *   from the leaf to the outermost caller (perf's callee order). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/hist.h"
#include "log.h"
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
};

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
	uint32_t node;
};

struct tnode {
	struct hist_frame frame;	/* roots: sym = comm, dso = NULL, level 'c' */
	uint32_t parent;		/* NONE for roots */
	uint32_t root;			/* index in trie.roots */
	uint64_t self_period;
	uint64_t self_count;
};

struct trie {
	struct tnode *nodes;
	size_t nnodes, cap;
	uint32_t *slots;		/* node index + 1, 0 = empty */
	size_t nslots;			/* power of two */
	struct root_attr *roots;
	size_t nroots, roots_cap;
	uint32_t *rslots;
	size_t nrslots;
	/* built by trie_index() */
	uint64_t *cum_period, *cum_count;
	uint32_t *first_kid, *next_sib;	/* kids sorted by name */
};

static inline uint64_t mix3(uint64_t a, uint64_t b, uint64_t c)
{
	return hash_u64(a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull ^
			(c * 0x94d049bb133111ebull));
}

static inline uint64_t node_hash(uint32_t parent, const char *sym, const char *dso)
{
	return mix3(parent, (uintptr_t)sym, (uintptr_t)dso);
}

static inline uint64_t root_hash(const char *comm, int pid, int tid, int cpu)
{
	return mix3((uintptr_t)comm, ((uint64_t)(uint32_t)pid << 32) | (uint32_t)tid, (uint32_t)cpu);
}

static void trie_init(struct trie *t)
{
	memset(t, 0, sizeof(*t));
	t->nslots = 1024;
	t->slots = xcalloc(t->nslots, sizeof(*t->slots));
	t->nrslots = 64;
	t->rslots = xcalloc(t->nrslots, sizeof(*t->rslots));
}

static void trie_free(struct trie *t)
{
	free(t->nodes);
	free(t->slots);
	free(t->roots);
	free(t->rslots);
	free(t->cum_period);
	free(t->cum_count);
	free(t->first_kid);
	free(t->next_sib);
	memset(t, 0, sizeof(*t));
}

static void trie_rehash(struct trie *t)
{
	size_t n = t->nslots * 2, mask = n - 1;
	uint32_t *s = xcalloc(n, sizeof(*s));

	for (size_t i = 0; i < t->nnodes; i++) {
		const struct tnode *nd = &t->nodes[i];
		if (nd->parent == NONE)
			continue;
		size_t j = node_hash(nd->parent, nd->frame.sym, nd->frame.dso) & mask;
		while (s[j])
			j = (j + 1) & mask;
		s[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = n;
}

static uint32_t trie_new_node(struct trie *t, uint32_t parent, uint32_t root, const char *sym,
			      const char *dso, char level)
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
	nd->frame.sym = sym;
	nd->frame.dso = dso;
	nd->frame.level = level;
	nd->parent = parent;
	nd->root = root;
	nd->self_period = 0;
	nd->self_count = 0;
	return (uint32_t)t->nnodes++;
}

static uint32_t trie_child(struct trie *t, uint32_t parent, const char *sym, const char *dso, char level)
{
	size_t mask = t->nslots - 1;
	size_t j = node_hash(parent, sym, dso) & mask;

	for (;;) {
		uint32_t s = t->slots[j];
		if (!s)
			break;
		const struct tnode *nd = &t->nodes[s - 1];
		if (nd->parent == parent && nd->frame.sym == sym && nd->frame.dso == dso)
			return s - 1;
		j = (j + 1) & mask;
	}
	uint32_t idx = trie_new_node(t, parent, t->nodes[parent].root, sym, dso, level);
	t->slots[j] = idx + 1;
	if (t->nnodes * 2 > t->nslots)
		trie_rehash(t);
	return idx;
}

static void trie_rehash_roots(struct trie *t)
{
	size_t n = t->nrslots * 2, mask = n - 1;
	uint32_t *s = xcalloc(n, sizeof(*s));

	for (size_t i = 0; i < t->nroots; i++) {
		const struct root_attr *r = &t->roots[i];
		size_t j = root_hash(r->comm, r->pid, r->tid, r->cpu) & mask;
		while (s[j])
			j = (j + 1) & mask;
		s[j] = (uint32_t)i + 1;
	}
	free(t->rslots);
	t->rslots = s;
	t->nrslots = n;
}

/* Returns the root's node index. */
static uint32_t trie_root(struct trie *t, const char *comm, int pid, int tid, int cpu)
{
	size_t mask = t->nrslots - 1;
	size_t j = root_hash(comm, pid, tid, cpu) & mask;

	for (;;) {
		uint32_t s = t->rslots[j];
		if (!s)
			break;
		const struct root_attr *r = &t->roots[s - 1];
		if (r->comm == comm && r->pid == pid && r->tid == tid && r->cpu == cpu)
			return r->node;
		j = (j + 1) & mask;
	}
	ARRAY_GROW(t->roots, t->roots_cap, t->nroots + 1);
	uint32_t ri = (uint32_t)t->nroots++;
	struct root_attr *r = &t->roots[ri];
	r->comm = comm;
	r->pid = pid;
	r->tid = tid;
	r->cpu = cpu;
	r->node = trie_new_node(t, NONE, ri, comm, NULL, 'c');
	t->rslots[j] = ri + 1;
	if (t->nroots * 2 > t->nrslots)
		trie_rehash_roots(t);
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
	}
	return 0;
}

/* Cumulative sums, and kid lists sorted by name (roots: first_kid[NONE] is
 * not representable, so roots are listed in t->roots order by the walkers). */
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
	/* a child always has a larger index than its parent */
	for (size_t i = n; i-- > 0;) {
		uint32_t p = t->nodes[i].parent;
		if (p == NONE)
			continue;
		t->cum_period[p] += t->cum_period[i];
		t->cum_count[p] += t->cum_count[i];
	}
	/* kid lists: count, gather, sort per parent, link */
	uint32_t *cnt = xcalloc(n + 1, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		if (t->nodes[i].parent != NONE)
			cnt[t->nodes[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		cnt[i + 1] += cnt[i];
	uint32_t *kids = xmalloc((n ? n : 1) * sizeof(uint32_t));
	uint32_t *pos = xmalloc((n ? n : 1) * sizeof(uint32_t));
	memcpy(pos, cnt, n * sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		if (t->nodes[i].parent != NONE)
			kids[pos[t->nodes[i].parent]++] = (uint32_t)i;
	sort_trie = t;
	for (size_t p = 0; p < n; p++) {
		uint32_t b = cnt[p], e = cnt[p + 1];
		if (e - b > 1)
			qsort(kids + b, e - b, sizeof(uint32_t), cmp_node_name);
		if (e > b) {
			t->first_kid[p] = kids[b];
			for (uint32_t k = b; k + 1 < e; k++)
				t->next_sib[kids[k]] = kids[k + 1];
		}
	}
	sort_trie = NULL;
	free(pos);
	free(kids);
	free(cnt);
}

/* ---- entries and call-graph trees --------------------------------------- */

struct hent {
	struct hist_entry e;
	uint32_t mark;		/* on the current DFS path */
	uint32_t cc_root;	/* call-graph root in hist.cc */
	uint32_t max_depth;	/* longest chain in the call graph (perf's max_depth) */
};

struct ccn {
	const struct hist_frame *frame;
	uint32_t parent;
	uint64_t selfw;
};

struct hist {
	struct hist_opts opts;
	bool key[SORT__MAX];
	struct trie trie;
	uint64_t total_period, total_samples;
	/* last root, to skip the root lookup for runs of samples of one thread */
	const char *last_comm;
	int last_pid, last_tid, last_cpu;
	uint32_t last_root;

	/* entries (after hist_finish) */
	struct hent *ents;
	size_t nents, ents_cap;
	uint32_t *eslots;
	size_t neslots;
	struct hist_entry **sorted;
	size_t nsorted;

	/* call-graph trees */
	struct ccn *cc;
	size_t ncc, cc_cap;
	uint32_t *cslots;
	size_t ncslots;
	struct callchain_node *pub;
	struct callchain_node **pub_kids;

	struct trie *comm_trie;	/* merged by comm, built on demand when roots carry pid/tid/cpu */
	bool finished;
};

struct hist *hist_new(const struct hist_opts *opts)
{
	struct hist *h = xcalloc(1, sizeof(*h));

	h->opts = *opts;
	if (h->opts.nkeys <= 0 || h->opts.nkeys > SORT__MAX) {
		h->opts.nkeys = 3;
		h->opts.keys[0] = SORT_COMM;
		h->opts.keys[1] = SORT_DSO;
		h->opts.keys[2] = SORT_SYM;
	}
	for (int i = 0; i < h->opts.nkeys; i++)
		if ((unsigned)h->opts.keys[i] < SORT__MAX)
			h->key[h->opts.keys[i]] = true;
	trie_init(&h->trie);
	h->last_root = NONE;
	return h;
}

void hist_free(struct hist *h)
{
	if (!h)
		return;
	trie_free(&h->trie);
	if (h->comm_trie) {
		trie_free(h->comm_trie);
		free(h->comm_trie);
	}
	free(h->ents);
	free(h->eslots);
	free(h->sorted);
	free(h->cc);
	free(h->cslots);
	free(h->pub);
	free(h->pub_kids);
	free(h);
}

static const char unknown_str[] = "[unknown]";

void hist_add_sample(struct hist *h, const struct hist_sample *s)
{
	if (h->finished || !s)
		return;
	int pid = h->key[SORT_PID] ? s->pid : 0;
	int tid = h->key[SORT_TID] ? s->tid : 0;
	int cpu = h->key[SORT_CPU] ? s->cpu : 0;
	const char *comm = s->comm ? s->comm : unknown_str;
	uint32_t node;

	if (h->last_root != NONE && comm == h->last_comm && pid == h->last_pid && tid == h->last_tid &&
	    cpu == h->last_cpu) {
		node = h->last_root;
	} else {
		node = trie_root(&h->trie, comm, pid, tid, cpu);
		h->last_root = node;
		h->last_comm = comm;
		h->last_pid = pid;
		h->last_tid = tid;
		h->last_cpu = cpu;
	}
	for (size_t i = s->nframes; i-- > 0;) {
		const struct hist_frame *f = &s->frames[i];
		node = trie_child(&h->trie, node, f->sym ? f->sym : unknown_str,
				  f->dso ? f->dso : unknown_str, f->level ? f->level : '?');
	}
	h->trie.nodes[node].self_period += s->period;
	h->trie.nodes[node].self_count++;
	h->total_period += s->period;
	h->total_samples++;
}

struct ekey {
	const char *comm, *dso, *sym;
	int pid, tid, cpu;
};

static void make_key(const struct hist *h, const struct root_attr *r, const struct hist_frame *f,
		     struct ekey *k)
{
	k->comm = (h->key[SORT_COMM] || h->key[SORT_PID]) ? r->comm : NULL;
	k->pid = h->key[SORT_PID] ? r->pid : 0;
	k->tid = h->key[SORT_TID] ? r->tid : 0;
	k->cpu = h->key[SORT_CPU] ? r->cpu : 0;
	k->sym = h->key[SORT_SYM] ? f->sym : NULL;
	k->dso = (h->key[SORT_SYM] || h->key[SORT_DSO]) ? f->dso : NULL;
}

static inline uint64_t ekey_hash(const struct ekey *k)
{
	return mix3((uintptr_t)k->comm ^ ((uint64_t)(uint32_t)k->pid << 17), (uintptr_t)k->sym ^ (uint32_t)k->tid,
		    (uintptr_t)k->dso ^ ((uint64_t)(uint32_t)k->cpu << 23));
}

static inline bool ekey_match(const struct hist *h, const struct hist_entry *e, const struct ekey *k)
{
	return (!(h->key[SORT_COMM] || h->key[SORT_PID]) || e->comm == k->comm) &&
	       (!h->key[SORT_PID] || e->pid == k->pid) && (!h->key[SORT_TID] || e->tid == k->tid) &&
	       (!h->key[SORT_CPU] || e->cpu == k->cpu) && (!h->key[SORT_SYM] || e->sym == k->sym) &&
	       (!(h->key[SORT_SYM] || h->key[SORT_DSO]) || e->dso == k->dso);
}

static void ents_rehash(struct hist *h)
{
	size_t n = h->neslots ? h->neslots * 2 : 1024, mask = n - 1;
	uint32_t *s = xcalloc(n, sizeof(*s));

	for (size_t i = 0; i < h->nents; i++) {
		struct ekey k;
		const struct hist_entry *e = &h->ents[i].e;
		k.comm = (h->key[SORT_COMM] || h->key[SORT_PID]) ? e->comm : NULL;
		k.pid = h->key[SORT_PID] ? e->pid : 0;
		k.tid = h->key[SORT_TID] ? e->tid : 0;
		k.cpu = h->key[SORT_CPU] ? e->cpu : 0;
		k.sym = h->key[SORT_SYM] ? e->sym : NULL;
		k.dso = (h->key[SORT_SYM] || h->key[SORT_DSO]) ? e->dso : NULL;
		size_t j = ekey_hash(&k) & mask;
		while (s[j])
			j = (j + 1) & mask;
		s[j] = (uint32_t)i + 1;
	}
	free(h->eslots);
	h->eslots = s;
	h->neslots = n;
}

/* Entry of trie node v: lookup, and create when create is set. */
static uint32_t entry_of(struct hist *h, uint32_t v, bool create)
{
	const struct tnode *nd = &h->trie.nodes[v];
	const struct root_attr *r = &h->trie.roots[nd->root];
	struct ekey k;

	make_key(h, r, &nd->frame, &k);
	if (!h->neslots)
		ents_rehash(h);
	size_t mask = h->neslots - 1;
	size_t j = ekey_hash(&k) & mask;
	for (;;) {
		uint32_t s = h->eslots[j];
		if (!s)
			break;
		if (ekey_match(h, &h->ents[s - 1].e, &k))
			return s - 1;
		j = (j + 1) & mask;
	}
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
	he->e.dso = nd->frame.dso;
	he->e.sym = nd->frame.sym;
	he->e.level = nd->frame.level;
	he->cc_root = NONE;
	h->eslots[j] = idx + 1;
	if (h->nents * 2 > h->neslots)
		ents_rehash(h);
	return idx;
}

static inline uint64_t cc_hash(uint32_t parent, const struct hist_frame *f)
{
	return mix3(parent ^ 0x5555u, (uintptr_t)f->sym, (uintptr_t)f->dso);
}

static uint32_t cc_new(struct hist *h, uint32_t parent, const struct hist_frame *f)
{
	ARRAY_GROW(h->cc, h->cc_cap, h->ncc + 1);
	struct ccn *c = &h->cc[h->ncc];
	c->frame = f;
	c->parent = parent;
	c->selfw = 0;
	return (uint32_t)h->ncc++;
}

static void cc_rehash(struct hist *h)
{
	size_t n = h->ncslots ? h->ncslots * 2 : 4096, mask = n - 1;
	uint32_t *s = xcalloc(n, sizeof(*s));

	for (size_t i = 0; i < h->ncc; i++) {
		const struct ccn *c = &h->cc[i];
		if (c->parent == NONE)
			continue;
		size_t j = cc_hash(c->parent, c->frame) & mask;
		while (s[j])
			j = (j + 1) & mask;
		s[j] = (uint32_t)i + 1;
	}
	free(h->cslots);
	h->cslots = s;
	h->ncslots = n;
}

static uint32_t cc_child(struct hist *h, uint32_t parent, const struct hist_frame *f)
{
	if (!h->ncslots)
		cc_rehash(h);
	size_t mask = h->ncslots - 1;
	size_t j = cc_hash(parent, f) & mask;
	for (;;) {
		uint32_t s = h->cslots[j];
		if (!s)
			break;
		const struct ccn *c = &h->cc[s - 1];
		if (c->parent == parent && c->frame->sym == f->sym && c->frame->dso == f->dso)
			return s - 1;
		j = (j + 1) & mask;
	}
	uint32_t idx = cc_new(h, parent, f);
	h->cslots[j] = idx + 1;
	if (h->ncc * 2 > h->ncslots)
		cc_rehash(h);
	return idx;
}

static uint32_t ent_cc_root(struct hist *h, uint32_t e)
{
	if (h->ents[e].cc_root == NONE)
		h->ents[e].cc_root = cc_new(h, NONE, NULL);
	return h->ents[e].cc_root;
}

/* Per-depth state of the DFS in hist_finish. */
struct act {
	uint32_t ent, cc;
};

struct dfs_state {
	uint32_t *path;		/* trie node per depth (1-based; path[0] = root) */
	uint32_t *marked;	/* entry newly marked at this depth, or NONE */
	size_t *aoff;		/* active list of depth d: acts[aoff[d] .. aoff[d+1]) */
	struct act *acts;
	size_t path_cap, marked_cap, aoff_cap, acts_cap;
};

static void finish_dfs(struct hist *h, const uint32_t *eof)
{
	struct trie *t = &h->trie;
	struct dfs_state st = { 0 };
	bool graphs = h->opts.callchains;
	bool children_mode = h->opts.children;

	for (size_t ri = 0; ri < t->nroots; ri++) {
		uint32_t root = t->roots[ri].node;
		size_t d = 0;

		ARRAY_GROW(st.path, st.path_cap, 1);
		ARRAY_GROW(st.marked, st.marked_cap, 1);
		ARRAY_GROW(st.aoff, st.aoff_cap, 2);
		st.path[0] = root;
		st.marked[0] = NONE;
		st.aoff[0] = 0;
		st.aoff[1] = 0;
		uint32_t v = t->first_kid[root];
		while (v != NONE) {
			/* enter v at depth d + 1 */
			d++;
			ARRAY_GROW(st.path, st.path_cap, d + 1);
			ARRAY_GROW(st.marked, st.marked_cap, d + 1);
			ARRAY_GROW(st.aoff, st.aoff_cap, d + 2);
			st.path[d] = v;
			st.marked[d] = NONE;
			const struct tnode *nd = &t->nodes[v];
			uint32_t e = eof[v];
			size_t pb = st.aoff[d - 1], pe = st.aoff[d];
			size_t nb = pe;
			size_t need = nb + (pe - pb) + 1;

			ARRAY_GROW(st.acts, st.acts_cap, need);
			size_t n = nb;
			if (graphs && children_mode)
				for (size_t k = pb; k < pe; k++) {
					st.acts[n].ent = st.acts[k].ent;
					st.acts[n].cc = cc_child(h, st.acts[k].cc, &nd->frame);
					n++;
				}
			if (e != NONE && !h->ents[e].mark) {
				h->ents[e].mark = 1;
				st.marked[d] = e;
				h->ents[e].e.children += t->cum_period[v];
				if (graphs && children_mode) {
					st.acts[n].ent = e;
					st.acts[n].cc = cc_child(h, ent_cc_root(h, e), &nd->frame);
					n++;
				}
			}
			st.aoff[d + 1] = n;

			if (nd->self_count && e != NONE) {
				uint64_t w = nd->self_period;
				h->ents[e].e.self += w;
				h->ents[e].e.nr_samples += nd->self_count;
				if (graphs && children_mode) {
					for (size_t k = nb; k < n; k++)
						if (st.acts[k].ent != e)
							h->cc[st.acts[k].cc].selfw += w;
					uint32_t c = ent_cc_root(h, e);
					for (size_t k = 1; k <= d; k++)
						c = cc_child(h, c, &t->nodes[st.path[k]].frame);
					h->cc[c].selfw += w;
				} else if (graphs) {
					uint32_t c = ent_cc_root(h, e);
					for (size_t k = d; k >= 1; k--)
						c = cc_child(h, c, &t->nodes[st.path[k]].frame);
					h->cc[c].selfw += w;
				}
			}

			/* next node in pre-order */
			if (t->first_kid[v] != NONE) {
				v = t->first_kid[v];
				continue;
			}
			for (;;) {
				/* leave depth d */
				if (st.marked[d] != NONE)
					h->ents[st.marked[d]].mark = 0;
				uint32_t nx = t->next_sib[st.path[d]];
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
	}
	free(st.path);
	free(st.marked);
	free(st.aoff);
	free(st.acts);
}

static const char *frame_name(const struct hist_frame *f)
{
	return f && f->sym ? f->sym : "";
}

static int cmp_cc_pub(const void *pa, const void *pb)
{
	const struct callchain_node *a = *(const struct callchain_node *const *)pa;
	const struct callchain_node *b = *(const struct callchain_node *const *)pb;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	int c = strcmp(frame_name(a->frame), frame_name(b->frame));
	if (c)
		return c;
	return str_cmp_null(a->frame ? a->frame->dso : NULL, b->frame ? b->frame->dso : NULL);
}

/* Turn the internal call-graph nodes into the public tree. */
static void finish_cc(struct hist *h)
{
	size_t n = h->ncc;
	if (!n)
		return;
	uint64_t *period = xmalloc(n * sizeof(uint64_t));
	for (size_t i = 0; i < n; i++)
		period[i] = h->cc[i].selfw;
	for (size_t i = n; i-- > 0;)
		if (h->cc[i].parent != NONE)
			period[h->cc[i].parent] += period[i];

	uint32_t *cnt = xcalloc(n + 1, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		if (h->cc[i].parent != NONE && period[i])
			cnt[h->cc[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		cnt[i + 1] += cnt[i];
	h->pub = xcalloc(n, sizeof(*h->pub));
	h->pub_kids = xmalloc((cnt[n] ? cnt[n] : 1) * sizeof(*h->pub_kids));
	for (size_t i = 0; i < n; i++) {
		h->pub[i].frame = h->cc[i].frame;
		h->pub[i].period = period[i];
		h->pub[i].kids = h->pub_kids + cnt[i];
		h->pub[i].nkids = 0;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t p = h->cc[i].parent;
		if (p != NONE && period[i])
			h->pub[p].kids[h->pub[p].nkids++] = &h->pub[i];
	}
	for (size_t i = 0; i < n; i++)
		if (h->pub[i].nkids > 1)
			qsort(h->pub[i].kids, h->pub[i].nkids, sizeof(*h->pub[i].kids), cmp_cc_pub);
	for (size_t i = 0; i < h->nents; i++)
		h->ents[i].e.callers = h->ents[i].cc_root == NONE ? NULL : &h->pub[h->ents[i].cc_root];
	/* depth of each node and the root it belongs to (parents come first) */
	uint32_t *depth = xmalloc(n * sizeof(uint32_t)), *root = xmalloc(n * sizeof(uint32_t));
	uint32_t *rdepth = xcalloc(n, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++) {
		uint32_t p = h->cc[i].parent;
		depth[i] = p == NONE ? 0 : depth[p] + 1;
		root[i] = p == NONE ? (uint32_t)i : root[p];
		if (period[i] && depth[i] > rdepth[root[i]])
			rdepth[root[i]] = depth[i];
	}
	for (size_t i = 0; i < h->nents; i++)
		if (h->ents[i].cc_root != NONE)
			h->ents[i].max_depth = rdepth[h->ents[i].cc_root];
	free(depth);
	free(root);
	free(rdepth);
	free(cnt);
	free(period);
	/* the internal nodes are no longer needed */
	free(h->cslots);
	h->cslots = NULL;
	h->ncslots = 0;
}

static const struct hist *cmp_hist;	/* qsort context (single-threaded) */

static int cmp_int(int a, int b)
{
	return a < b ? -1 : a > b;
}

static int cmp_entries(const void *pa, const void *pb)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	const struct hist *h = cmp_hist;

	if (h->opts.children) {
		if (a->children != b->children)
			return a->children > b->children ? -1 : 1;
		/* perf: "put caller above callee when they have equal period",
		 * by the depth of their call graphs, for entries of one thread
		 * (approximated here by the comm) */
		const struct hent *ha = (const struct hent *)a, *hb = (const struct hent *)b;
		if (h->opts.callchains && a->comm == b->comm && ha->max_depth != hb->max_depth)
			return ha->max_depth > hb->max_depth ? -1 : 1;
	}
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	for (int i = 0; i < h->opts.nkeys; i++) {
		int c = 0;
		switch (h->opts.keys[i]) {
		case SORT_COMM:
			c = str_cmp_null(a->comm, b->comm);
			break;
		case SORT_PID:
			c = cmp_int(a->pid, b->pid);
			if (!c)
				c = str_cmp_null(a->comm, b->comm);
			break;
		case SORT_TID:
			c = cmp_int(a->tid, b->tid);
			break;
		case SORT_DSO:
			c = str_cmp_null(a->dso, b->dso);
			break;
		case SORT_SYM:
			c = str_cmp_null(a->sym, b->sym);
			break;
		case SORT_CPU:
			c = cmp_int(a->cpu, b->cpu);
			break;
		default:
			break;
		}
		if (c)
			return c;
	}
	/* distinct entries with equal visible keys (e.g. sym in two dsos) */
	int c = str_cmp_null(a->dso, b->dso);
	if (c)
		return c;
	return a < b ? -1 : a > b;
}

void hist_finish(struct hist *h)
{
	if (h->finished)
		return;
	h->finished = true;
	struct trie *t = &h->trie;
	trie_index(t);
	/* the child hash of the trie is not needed any more */
	free(t->slots);
	t->slots = NULL;

	uint32_t *eof = xmalloc((t->nnodes ? t->nnodes : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct tnode *nd = &t->nodes[i];
		if (nd->parent == NONE)
			eof[i] = NONE;
		else if (h->opts.children || nd->self_count)
			eof[i] = entry_of(h, (uint32_t)i, true);
		else
			eof[i] = NONE;
	}
	if (!h->opts.children)
		for (size_t i = 0; i < t->nnodes; i++)
			if (t->nodes[i].parent != NONE && eof[i] == NONE)
				eof[i] = entry_of(h, (uint32_t)i, false);
	finish_dfs(h, eof);
	free(eof);
	if (h->opts.callchains)
		finish_cc(h);

	h->sorted = xmalloc((h->nents ? h->nents : 1) * sizeof(*h->sorted));
	for (size_t i = 0; i < h->nents; i++)
		h->sorted[i] = &h->ents[i].e;
	h->nsorted = h->nents;
	cmp_hist = h;
	qsort(h->sorted, h->nsorted, sizeof(*h->sorted), cmp_entries);
	cmp_hist = NULL;
	free(h->eslots);
	h->eslots = NULL;
	h->neslots = 0;
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
	return h->total_period;
}

uint64_t hist_total_samples(const struct hist *h)
{
	return h->total_samples;
}

/* ---- stack walks ------------------------------------------------------------ */

/* Roots merged by comm: a second trie, built on first use when the roots of
 * the main trie also carry pid/tid/cpu. */
static const struct trie *comm_trie(const struct hist *hc)
{
	struct hist *h = (struct hist *)hc;
	const struct trie *t = &h->trie;

	if (!h->key[SORT_PID] && !h->key[SORT_TID] && !h->key[SORT_CPU])
		return t;
	if (h->comm_trie)
		return h->comm_trie;
	struct trie *m = xmalloc(sizeof(*m));
	trie_init(m);
	uint32_t *map = xmalloc((t->nnodes ? t->nnodes : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct tnode *nd = &t->nodes[i];
		if (nd->parent == NONE)
			map[i] = trie_root(m, t->roots[nd->root].comm, 0, 0, 0);
		else
			map[i] = trie_child(m, map[nd->parent], nd->frame.sym, nd->frame.dso, nd->frame.level);
		m->nodes[map[i]].self_period += nd->self_period;
		m->nodes[map[i]].self_count += nd->self_count;
	}
	free(map);
	trie_index(m);
	free(m->slots);
	m->slots = NULL;
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
		while (v != NONE) {
			ARRAY_GROW(frames, cap, d + 1);
			frames[d++] = &t->nodes[v].frame;
			if (t->nodes[v].self_count)
				fn(ctx, comm, frames, d, t->nodes[v].self_period, t->nodes[v].self_count);
			if (t->first_kid[v] != NONE) {
				v = t->first_kid[v];
				continue;
			}
			for (;;) {
				uint32_t nx = t->next_sib[v];
				d--;
				if (nx != NONE) {
					v = nx;
					break;
				}
				if (d == 0) {
					v = NONE;
					break;
				}
				v = t->nodes[v].parent;
			}
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
		while (v != NONE) {
			d++;
			fn(ctx, (int)d, &t->nodes[v].frame, t->cum_period[v], t->cum_count[v], t->nodes[v].self_count);
			if (t->first_kid[v] != NONE) {
				v = t->first_kid[v];
				continue;
			}
			for (;;) {
				uint32_t nx = t->next_sib[v];
				d--;
				if (nx != NONE) {
					v = nx;
					break;
				}
				if (d == 0) {
					v = NONE;
					break;
				}
				v = t->nodes[v].parent;
			}
		}
	}
	free(roots);
}
