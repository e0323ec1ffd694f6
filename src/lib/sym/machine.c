// SPDX-License-Identifier: GPL-2.0-only
/* The address-space model of a recording: threads and processes with their
 * comm and maps, the kernel (kallsyms), BPF programs (KSYMBOL ranges) and
 * the user DSOs, plus the resolve cache that makes machine_resolve() cheap:
 * after the first lookup of a (dso, address) pair, a resolve is one hash
 * probe and a struct copy, with no allocation. */
#include "machine.h"
#include "sym_int.h"
#include "sym/buildid.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- int -> pointer hash (threads by tid, processes by pid) ---- */
struct islot {
	int key;
	bool used;
	void *val;
};

struct ihash {
	struct islot *slots;
	size_t cap, n;
};

static void *ih_get(const struct ihash *h, int key)
{
	if (!h->cap)
		return NULL;
	size_t i = hash_u64((uint64_t)(int64_t)key) & (h->cap - 1);
	while (h->slots[i].used) {
		if (h->slots[i].key == key)
			return h->slots[i].val;
		i = (i + 1) & (h->cap - 1);
	}
	return NULL;
}

static void ih_put(struct ihash *h, int key, void *val);

static void ih_grow(struct ihash *h)
{
	struct ihash nh = { .cap = h->cap ? h->cap * 2 : 256 };
	nh.slots = xcalloc(nh.cap, sizeof(*nh.slots));
	for (size_t i = 0; i < h->cap; i++)
		if (h->slots[i].used)
			ih_put(&nh, h->slots[i].key, h->slots[i].val);
	free(h->slots);
	*h = nh;
}

static void ih_put(struct ihash *h, int key, void *val)
{
	if ((h->n + 1) * 2 > h->cap)
		ih_grow(h);
	size_t i = hash_u64((uint64_t)(int64_t)key) & (h->cap - 1);
	while (h->slots[i].used) {
		if (h->slots[i].key == key) {
			h->slots[i].val = val;
			return;
		}
		i = (i + 1) & (h->cap - 1);
	}
	h->slots[i].used = true;
	h->slots[i].key = key;
	h->slots[i].val = val;
	h->n++;
}

/* ---- model ---- */
struct map {
	uint64_t start, end, pgoff;
	struct dso *dso;
};

struct proc {
	int pid;
	struct map *maps;	/* sorted by start, non-overlapping */
	size_t n, cap;
};

struct thread {
	int tid, pid;
	const char *comm;
	const char *first_comm;	/* machine_comm_first */
	bool dead;
};

struct bpf_range {
	uint64_t start, end;
	const char *name;
	bool unregistered;
};

struct kmap {			/* kernel maps from MMAP records (modules) */
	uint64_t start, end;
	const char *dso, *path;
};

struct centry {
	const void *owner;	/* dso, or a machine sentinel; NULL = empty */
	uint64_t key;
	struct resolved r;
};

struct rcache {
	struct centry *slots;
	size_t cap, n;		/* cap is a power of two */
};

#define DSO_BUCKETS 4096

struct machine {
	struct machine_opts opts;
	struct srcline_cache *srclines;	/* machine_srcline, opened on first use */
	pthread_mutex_t srcline_lock;
	char *kallsyms_path, *modules_path;
	bool kallsyms_given;	/* opts.kallsyms set: no build-id cache copy */
	struct strtab *strs;

	struct ihash threads, procs;
	int last_pid;
	struct proc *last_proc;

	struct dso *dso_hash[DSO_BUCKETS];
	struct dso *vdso;

	struct symtab ksyms;
	struct symtab kdata;	/* data symbols, loaded on first use */
	bool kdata_loaded;
	bool ksyms_loaded;
	/* why kernel symbols are missing, told at the first kernel address (a
	 * user-only recording has none, and needs no warning) */
	char *ksyms_problem;
	bool ksyms_problem_told;	/* atomic */
	bool ksyms_ready;	/* ksyms complete (atomic: set by the thread that loaded them) */
	struct kmap *kmaps;
	size_t nkmaps, capkmaps;
	/* KASLR: _text in the recording (its [kernel.kallsyms]_text map, to
	 * rec_text_end) and in the symbols read (ksyms_text). When they differ
	 * (a recording of another boot, a kallsyms copy of one) the kernel's
	 * addresses are looked up shifted by the difference, as perf relocates
	 * its kallsyms by the map's reference symbol. Under kmaps_lock. */
	uint64_t rec_text, rec_text_end, ksyms_text;
	bool relocation_told;

	struct bpf_range *bpf;
	size_t nbpf, capbpf;

	struct rcache cache;	/* the early stage's: user space, and the rest once ksyms is ready */
	/* the early stage's names of unresolved user addresses (resolved.ip_sym):
	 * the cache above is by place in the file, shared by processes */
	struct { uint64_t addr; const char *name; } *ip_names;	/* IP_NAMES slots */
	struct rcache kcache;	/* the late stage's own (kernel text, no map): see machine.h */
	pthread_mutex_t kmaps_lock;	/* kmaps, when the kernel side runs on another thread */

	bool demangle_params;
	char *buildid_dir;	/* resolved opts.buildid_dir, NULL if none */
	struct hdr_bid {
		const char *path;	/* interned */
		uint8_t id[20];
		size_t len;
	} *hdr_bids;		/* from HEADER_BUILD_ID */
	size_t nhdr_bids, caphdr_bids;
	bool hdr_bids_sorted;
	const char *s_unknown, *s_kernel;
	char kernel_owner, unknown_owner;	/* addresses used as cache owners */
	/* perf's order of creating its dsos, by shown name (machine_dso_rank):
	 * written by the side-band's thread, read once the records are done */
	struct dso_rank { const char *name; uint32_t rank; } *ranks;
	size_t nranks, rank_slots;
};

struct machine *machine_new(const struct machine_opts *opts)
{
	struct machine *m = xcalloc(1, sizeof(*m));
	pthread_mutex_init(&m->srcline_lock, NULL);
	if (opts)
		m->opts = *opts;
	m->kallsyms_given = m->opts.kallsyms != NULL;
	m->buildid_dir = buildid_dir(m->opts.buildid_dir);
	m->kallsyms_path = xstrdup(m->opts.kallsyms ? m->opts.kallsyms : "/proc/kallsyms");
	m->modules_path = xstrdup(m->opts.modules ? m->opts.modules : "/proc/modules");
	m->opts.kallsyms = m->kallsyms_path;
	m->opts.modules = m->modules_path;
	m->strs = strtab_new();
	m->s_unknown = strtab_intern(m->strs, "[unknown]");
	m->s_kernel = strtab_intern(m->strs, "[kernel.kallsyms]");
	m->cache.cap = 1 << 14;
	m->cache.slots = xcalloc(m->cache.cap, sizeof(*m->cache.slots));
	m->kcache.cap = 1 << 12;
	m->kcache.slots = xcalloc(m->kcache.cap, sizeof(*m->kcache.slots));
	pthread_mutex_init(&m->kmaps_lock, NULL);
	m->last_pid = -1;
	return m;
}

void machine_free(struct machine *m)
{
	if (!m)
		return;
	srcline_cache_free(m->srclines);
	pthread_mutex_destroy(&m->srcline_lock);
	for (size_t i = 0; i < m->threads.cap; i++)
		if (m->threads.slots[i].used)
			free(m->threads.slots[i].val);
	free(m->threads.slots);
	for (size_t i = 0; i < m->procs.cap; i++) {
		if (m->procs.slots[i].used) {
			struct proc *p = m->procs.slots[i].val;
			free(p->maps);
			free(p);
		}
	}
	free(m->procs.slots);
	for (size_t b = 0; b < DSO_BUCKETS; b++) {
		struct dso *d = m->dso_hash[b];
		while (d) {
			struct dso *n = d->hnext;
			dso_free(d);
			d = n;
		}
	}
	if (m->vdso)
		dso_free(m->vdso);
	pr_debug("resolve caches: %zu addresses resolved early (%zu slots), %zu late (%zu slots)",
		 m->cache.n, m->cache.cap, m->kcache.n, m->kcache.cap);
	symtab_free(&m->ksyms);
	symtab_free(&m->kdata);
	free(m->kmaps);
	free(m->ip_names);
	free(m->hdr_bids);
	free(m->ranks);
	free(m->buildid_dir);
	free(m->bpf);
	free(m->cache.slots);
	free(m->kcache.slots);
	pthread_mutex_destroy(&m->kmaps_lock);
	strtab_free(m->strs);
	free(m->kallsyms_path);
	free(m->ksyms_problem);
	free(m->modules_path);
	free(m);
}

const char *machine_srcline(struct machine *m, const struct resolved *r)
{
	char buf[512];
	if (r->level == '.' && r->dso_path && r->dso_path[0] == '/') {
		pthread_mutex_lock(&m->srcline_lock);
		if (!m->srclines)
			m->srclines = srcline_cache_new();
		pthread_mutex_unlock(&m->srcline_lock);
		const char *l = srcline_find(m->srclines, m->strs, strtab_intern(m->strs, r->dso_path),
					     r->rel_addr);
		if (l)
			return l;
	}
	if (r->found && r->sym)
		snprintf(buf, sizeof(buf), "%s+%llu", r->sym, (unsigned long long)(r->rel_addr - r->sym_start));
	else
		snprintf(buf, sizeof(buf), "%s[%llx]", r->dso ? r->dso : "[unknown]",
			 (unsigned long long)r->rel_addr);
	return strtab_intern(m->strs, buf);
}

void machine_set_threaded(struct machine *m, bool on)
{
	strtab_set_locked(m->strs, on);
}

void machine_set_demangle_params(struct machine *m, bool params)
{
	m->demangle_params = params;
}

const char *machine_intern(struct machine *m, const char *s)
{
	return strtab_intern(m->strs, s);
}

static const char *intern_hex(struct machine *m, uint64_t v)
{
	/* perf prints unresolved addresses as "%#.16llx": 16 hex digits with
	 * 0x, except for 0, which has no prefix. By hand: snprintf costs more
	 * than the rest of resolving an address that has no symbol. */
	static const char digits[] = "0123456789abcdef";
	char buf[19];
	char *p = buf;
	if (v) {
		*p++ = '0';
		*p++ = 'x';
	}
	for (int shift = 60; shift >= 0; shift -= 4)
		*p++ = digits[(v >> shift) & 0xf];
	*p = '\0';
	return strtab_intern(m->strs, buf);
}

#define IP_NAMES 4096

/* intern_hex(addr) in front of a direct-mapped cache: for the addresses of
 * unresolved user frames, named on every sample (early stage only). */
static const char *user_ip_name(struct machine *m, uint64_t addr)
{
	if (!m->ip_names)
		m->ip_names = xcalloc(IP_NAMES, sizeof(*m->ip_names));
	__typeof__(*m->ip_names) *e = &m->ip_names[hash_u64(addr) & (IP_NAMES - 1)];
	if (!e->name || e->addr != addr) {
		e->addr = addr;
		e->name = intern_hex(m, addr);
	}
	return e->name;
}

/* ---- threads and processes ---- */
static struct thread *thread_findnew(struct machine *m, int pid, int tid)
{
	struct thread *t = ih_get(&m->threads, tid);
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		t->tid = tid;
		t->pid = pid;
		ih_put(&m->threads, tid, t);
	}
	if (pid >= 0 && pid != t->pid) {	/* the tid was reused */
		t->pid = pid;
		t->comm = NULL;
	}
	return t;
}

static struct proc *proc_findnew(struct machine *m, int pid)
{
	struct proc *p = ih_get(&m->procs, pid);
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		ih_put(&m->procs, pid, p);
		m->last_proc = NULL;	/* a tid-based guess may have been cached */
	}
	return p;
}

static struct proc *proc_of(struct machine *m, int pid, int tid)
{
	if (pid == m->last_pid && m->last_proc)
		return m->last_proc;
	struct proc *p = ih_get(&m->procs, pid);
	if (!p) {
		struct thread *t = ih_get(&m->threads, tid);
		if (t && t->pid != pid)
			p = ih_get(&m->procs, t->pid);
		if (!p)
			return NULL;
	}
	m->last_pid = pid;
	m->last_proc = p;
	return p;
}

void machine_comm(struct machine *m, int pid, int tid, const char *comm, bool exec)
{
	struct thread *t = thread_findnew(m, pid, tid);
	t->comm = strtab_intern(m->strs, comm ? comm : "");
	t->dead = false;
	if (exec) {
		/* The kernel reports the exec's COMM before the new image's MMAPs:
		 * the old address space is gone. */
		struct proc *p = ih_get(&m->procs, pid);
		if (p)
			p->n = 0;
	}
}

void machine_comm_first(struct machine *m, int pid, int tid, const char *comm)
{
	struct thread *t = ih_get(&m->threads, tid);
	if (t && t->first_comm)
		return;
	if (!t)
		t = thread_findnew(m, pid, tid);
	t->first_comm = strtab_intern(m->strs, comm ? comm : "");
}

void machine_fork(struct machine *m, int pid, int tid, int ppid, int ptid)
{
	struct thread *parent = ih_get(&m->threads, ptid);
	const char *comm = parent ? parent->comm : NULL;
	if (!comm) {
		struct thread *pm = ih_get(&m->threads, ppid);
		comm = pm ? pm->comm : NULL;
	}
	struct thread *t = thread_findnew(m, pid, tid);
	t->pid = pid;
	t->comm = comm;
	t->dead = false;
	if (pid == ppid)
		return;		/* a new thread shares its process's maps */
	struct proc *pp = ih_get(&m->procs, ppid);
	struct proc *p = proc_findnew(m, pid);
	p->n = 0;
	if (pp && pp != p && pp->n) {
		ARRAY_GROW(p->maps, p->cap, pp->n);
		memcpy(p->maps, pp->maps, pp->n * sizeof(*p->maps));
		p->n = pp->n;
	}
}

void machine_exit(struct machine *m, int pid, int tid)
{
	(void)pid;
	/* Samples of an exited thread may still follow: keep its comm and maps. */
	struct thread *t = ih_get(&m->threads, tid);
	if (t)
		t->dead = true;
}

const char *machine_thread_comm(struct machine *m, int tid)
{
	struct thread *t = ih_get(&m->threads, tid);
	if (t && t->comm)
		return t->comm;
	char buf[24];
	snprintf(buf, sizeof(buf), ":%d", tid);
	return strtab_intern(m->strs, buf);
}

const char *machine_comm_of(struct machine *m, int pid, int tid)
{
	struct thread *t = ih_get(&m->threads, tid);
	if (t && t->comm)
		return t->comm;
	struct thread *pt = ih_get(&m->threads, pid);
	if (pt && pt->comm)
		return pt->comm;
	if (t && t->first_comm)
		return t->first_comm;
	if (pt && pt->first_comm)
		return pt->first_comm;
	char buf[24];
	snprintf(buf, sizeof(buf), ":%d", tid);
	return strtab_intern(m->strs, buf);
}

/* ---- DSOs ---- */
/* Anonymous memory, as perf sees it: also "/dev/zero (deleted)", the name of
 * shared anonymous mappings (where a JIT may put its code). */
static bool is_anon_name(const char *f)
{
	return !*f || strcmp(f, "//anon") == 0 || strncmp(f, "/dev/zero", 9) == 0 ||
	       strncmp(f, "/anon_hugepage", 14) == 0 || strncmp(f, "/SYSV", 5) == 0 ||
	       strncmp(f, "[anon", 5) == 0;
}

static int cmp_hdr_bid(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct hdr_bid *)a)->path;
	uintptr_t y = (uintptr_t)((const struct hdr_bid *)b)->path;
	return x < y ? -1 : x > y;
}

/* The HEADER_BUILD_ID entry of an interned path (sorted on first use). */
static const struct hdr_bid *hdr_bid_find(struct machine *m, const char *path)
{
	if (!m->hdr_bids_sorted) {
		qsort(m->hdr_bids, m->nhdr_bids, sizeof(*m->hdr_bids), cmp_hdr_bid);
		m->hdr_bids_sorted = true;
	}
	struct hdr_bid key = { .path = path };
	return bsearch(&key, m->hdr_bids, m->nhdr_bids, sizeof(*m->hdr_bids), cmp_hdr_bid);
}

static struct dso *dso_findnew(struct machine *m, const char *filename, const uint8_t *bid,
			       size_t bidlen, int pid)
{
	if (strcmp(filename, "[vdso]") == 0) {
		if (!m->vdso) {
			m->vdso = xcalloc(1, sizeof(*m->vdso));
			m->vdso->kind = DSO_VDSO;
			m->vdso->name = m->vdso->path = strtab_intern(m->strs, "[vdso]");
		}
		return m->vdso;
	}
	enum dso_kind kind = DSO_ELF;
	char buf[64], jit[40];
	const char *short_name = NULL;
	if (is_anon_name(filename)) {
		/* As perf: anonymous code is the process's /tmp/perf-PID.map,
		 * named "[JIT] tid PID", whether a JIT wrote that file or not. */
		kind = DSO_ANON;
		if (pid > 0) {
			snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", pid);
			snprintf(jit, sizeof(jit), "[JIT] tid %d", pid);
			if (access(buf, R_OK) == 0)
				kind = DSO_PERFMAP;
			filename = buf;
			short_name = jit;
		} else if (!*filename) {
			filename = "//anon";
		}
		bidlen = 0;
	} else if (filename[0] == '[') {
		kind = DSO_ANON;	/* [heap], [stack], [vsyscall], [uprobes] ... */
		bidlen = 0;
	}
	if (bidlen > 20)
		bidlen = 20;
	const char *path = strtab_intern(m->strs, filename);
	if (!bidlen && kind == DSO_ELF && m->nhdr_bids) {
		const struct hdr_bid *hb = hdr_bid_find(m, path);
		if (hb) {
			bid = hb->id;
			bidlen = hb->len;
		}
	}
	uint64_t h = hash_u64((uintptr_t)path);
	for (size_t i = 0; i < bidlen; i++)
		h = hash_u64(h ^ bid[i]);
	struct dso **bucket = &m->dso_hash[h % DSO_BUCKETS];
	for (struct dso *d = *bucket; d; d = d->hnext)
		if (d->path == path && d->build_id_len == bidlen &&
		    (!bidlen || memcmp(d->build_id, bid, bidlen) == 0))
			return d;
	struct dso *d = xcalloc(1, sizeof(*d));
	d->kind = kind;
	d->path = path;
	const char *base = strrchr(path, '/');
	d->name = short_name ? strtab_intern(m->strs, short_name)
		  : kind == DSO_ANON || !base ? path : strtab_intern(m->strs, base + 1);
	if (bidlen)
		memcpy(d->build_id, bid, bidlen);
	d->build_id_len = bidlen;
	d->pid = pid;
	d->hnext = *bucket;
	*bucket = d;
	return d;
}

void machine_build_id(struct machine *m, const char *path, const uint8_t *build_id, size_t len)
{
	if (!len || len > 20)
		return;
	ARRAY_GROW(m->hdr_bids, m->caphdr_bids, m->nhdr_bids + 1);
	struct hdr_bid *b = &m->hdr_bids[m->nhdr_bids++];
	m->hdr_bids_sorted = false;
	b->path = strtab_intern(m->strs, path);
	memcpy(b->id, build_id, len);
	b->len = len;
}

/* Replace whatever [start, end) covered in p by the new map (if any). */
static void proc_insert_map(struct proc *p, uint64_t start, uint64_t end, uint64_t pgoff,
			    struct dso *dso)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {	/* first map ending after start */
		size_t mid = lo + (hi - lo) / 2;
		if (p->maps[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t i = lo, j = lo;
	while (j < p->n && p->maps[j].start < end)
		j++;
	struct map repl[3];
	size_t nr = 0;
	if (i < j && p->maps[i].start < start) {
		repl[nr] = p->maps[i];
		repl[nr++].end = start;
	}
	if (dso)
		repl[nr++] = (struct map){ start, end, pgoff, dso };
	if (i < j && p->maps[j - 1].end > end) {
		struct map r = p->maps[j - 1];
		r.pgoff += end - r.start;
		r.start = end;
		repl[nr++] = r;
	}
	size_t removed = j - i;
	if (!removed && !nr)
		return;
	ARRAY_GROW(p->maps, p->cap, p->n - removed + nr);
	if (p->n > j)
		memmove(&p->maps[i + nr], &p->maps[j], (p->n - j) * sizeof(*p->maps));
	if (nr)
		memcpy(&p->maps[i], repl, nr * sizeof(*repl));
	p->n = p->n - removed + nr;
}

static const char *module_dso_name(struct machine *m, const char *filename)
{
	if (filename[0] == '[') {
		const char *close = strchr(filename, ']');
		size_t n = close ? (size_t)(close - filename) + 1 : strlen(filename);
		return strtab_intern_len(m->strs, filename, n);
	}
	const char *base = strrchr(filename, '/');
	base = base ? base + 1 : filename;
	char buf[256];
	size_t n = 0;
	buf[n++] = '[';
	for (; *base && *base != '.' && n < sizeof(buf) - 2; base++)
		buf[n++] = *base == '-' ? '_' : *base;
	buf[n++] = ']';
	return strtab_intern_len(m->strs, buf, n);
}

static uint64_t rank_slot_hash(const void *slot, const void *ctx)
{
	(void)ctx;
	return hash_u64((uintptr_t)((const struct dso_rank *)slot)->name);
}

/* The slot of an interned dso name in the rank table: its own, or the
 * empty one where it would go (the table has room). */
static struct dso_rank *rank_slot(const struct machine *m, const char *name)
{
	size_t mask = m->rank_slots - 1, j = hash_u64((uintptr_t)name) & mask;
	while (m->ranks[j].name && m->ranks[j].name != name)
		j = (j + 1) & mask;
	return &m->ranks[j];
}

/* The next rank for a dso name not seen yet (name interned). */
static void rank_dso(struct machine *m, const char *name)
{
	if ((m->nranks + 1) * 2 > m->rank_slots)
		OA_RESIZE(m->ranks, m->rank_slots, m->rank_slots ? m->rank_slots * 2 : 64, rank_slot_hash, NULL);
	struct dso_rank *r = rank_slot(m, name);
	if (!r->name)
		*r = (struct dso_rank){ name, (uint32_t)++m->nranks };
}

uint32_t machine_dso_rank(const struct machine *m, const char *dso)
{
	return m->rank_slots && dso ? rank_slot(m, dso)->rank : 0;
}

static bool is_kmod_path(const char *path)
{
	const char *ko = strstr(path, ".ko");
	return path[0] == '/' && ko && (!ko[3] || ko[3] == '.');
}

void machine_dso_header(struct machine *m, const char *path, bool kernel)
{
	const char *base = strrchr(path, '/');
	if (kernel && strncmp(path, "[kernel.kallsyms]", 17) == 0)
		rank_dso(m, m->s_kernel);
	else if (kernel && (path[0] == '[' || is_kmod_path(path)))
		rank_dso(m, module_dso_name(m, path));
	else if (!kernel)
		rank_dso(m, strtab_intern(m->strs, path[0] != '[' && base ? base + 1 : path));
}

void machine_mmap(struct machine *m, int pid, int tid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *filename, const uint8_t *build_id,
		  size_t build_id_len, uint32_t prot, bool kernel)
{
	(void)tid;
	if (!filename)
		filename = "";
	uint64_t end = start + len < start ? UINT64_MAX : start + len;
	if (kernel) {
		if (!strcmp(filename, "[kernel.kallsyms]_text") && len) {
			pthread_mutex_lock(&m->kmaps_lock);
			if (!m->rec_text) {
				m->rec_text = start;
				m->rec_text_end = end;
			}
			pthread_mutex_unlock(&m->kmaps_lock);
		}
		if (strncmp(filename, "[kernel.kallsyms]", 17) == 0 || !len) {
			if (len)
				rank_dso(m, m->s_kernel);
			return;	/* the kernel itself: kallsyms covers it */
		}
		const char *dso = module_dso_name(m, filename);
		rank_dso(m, dso);
		const char *path = strtab_intern(m->strs, filename);
		pthread_mutex_lock(&m->kmaps_lock);
		ARRAY_GROW(m->kmaps, m->capkmaps, m->nkmaps + 1);
		m->kmaps[m->nkmaps++] = (struct kmap){ start, end, dso, path };
		pthread_mutex_unlock(&m->kmaps_lock);
		return;
	}
	if (!len)
		return;
	struct proc *p = proc_findnew(m, pid);
	/* Data maps only matter as the end of code that was there before. */
	struct dso *d = (prot & PROT_EXEC) ?
		dso_findnew(m, filename, build_id, build_id_len, pid) : NULL;
	if (d)
		rank_dso(m, d->name);
	proc_insert_map(p, start, end, pgoff, d);
}

/* ---- BPF programs and other KSYMBOL text ---- */
static size_t bpf_first_after(const struct machine *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nbpf;	/* first range with start > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->bpf[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct bpf_range *bpf_find(const struct machine *m, uint64_t addr)
{
	size_t i = bpf_first_after(m, addr);
	if (!i || addr >= m->bpf[i - 1].end)
		return NULL;
	return &m->bpf[i - 1];
}

static bool bpf_overlaps(const struct machine *m, uint64_t start, uint64_t end)
{
	size_t i = bpf_first_after(m, start);
	if (i && m->bpf[i - 1].end > start)
		return true;
	return i < m->nbpf && m->bpf[i].start < end;
}

static void bpf_add(struct machine *m, uint64_t start, uint64_t end, const char *name)
{
	/* A new program replaces whatever overlapped it, unloaded or not. */
	size_t i = bpf_first_after(m, start);
	if (i && m->bpf[i - 1].end > start)
		i--;
	size_t j = i;
	while (j < m->nbpf && m->bpf[j].start < end)
		j++;
	size_t removed = j - i;
	ARRAY_GROW(m->bpf, m->capbpf, m->nbpf - removed + 1);
	if (m->nbpf > j)
		memmove(&m->bpf[i + 1], &m->bpf[j], (m->nbpf - j) * sizeof(*m->bpf));
	m->bpf[i] = (struct bpf_range){ start, end, strtab_intern(m->strs, name), false };
	rank_dso(m, m->bpf[i].name);
	m->nbpf = m->nbpf - removed + 1;
}

void machine_ksymbol(struct machine *m, uint64_t addr, uint32_t len, const char *name,
		     bool unregister)
{
	if (!name || !*name)
		return;
	uint64_t end = addr + (len ? len : 1);
	if (end < addr)
		end = UINT64_MAX;
	if (unregister) {
		/* Keep the range: samples taken before the unload still name it,
		 * until another program takes the place. */
		size_t i = bpf_first_after(m, addr);
		if (i && m->bpf[i - 1].start == addr)
			m->bpf[i - 1].unregistered = true;
		return;
	}
	bpf_add(m, addr, end, name);
}

void machine_bpf_prog_info(struct machine *m, const struct bpf_prog_info *info)
{
	if (!info || !info->jited_ksyms || !info->nr_jited_ksyms)
		return;
	/* The arrays are where the file says, maybe not aligned (writers
	 * before perf's 8-byte rounding packed them): read them by bytes. */
	const uint8_t *ksyms = (const uint8_t *)(uintptr_t)info->jited_ksyms;
	const uint8_t *lens = (const uint8_t *)(uintptr_t)info->jited_func_lens;
	const uint8_t (*tags)[BPF_TAG_SIZE] =
		(const uint8_t (*)[BPF_TAG_SIZE])(uintptr_t)info->prog_tags;
	for (uint32_t i = 0; i < info->nr_jited_ksyms && i < 256; i++) {
		uint64_t addr;
		uint32_t len = 0;
		memcpy(&addr, ksyms + (size_t)i * sizeof(addr), sizeof(addr));
		if (lens && i < info->nr_jited_func_lens)
			memcpy(&len, lens + (size_t)i * sizeof(len), sizeof(len));
		if (!addr)
			continue;
		const uint8_t *tag = tags && i < info->nr_prog_tags ? tags[i] : info->tag;
		char name[128];
		int n = snprintf(name, sizeof(name), "bpf_prog_");
		for (int b = 0; b < BPF_TAG_SIZE; b++)
			n += snprintf(name + n, sizeof(name) - (size_t)n, "%02x", tag[b]);
		char pname[sizeof(info->name) + 1];
		memcpy(pname, info->name, sizeof(info->name));
		pname[sizeof(info->name)] = '\0';
		/* Without the program's BTF, subprograms are "F" as in perf. */
		snprintf(name + n, sizeof(name) - (size_t)n, "_%s",
			 i == 0 && pname[0] ? pname : "F");
		uint64_t end = addr + (len ? len : 1);
		if (end < addr || bpf_overlaps(m, addr, end))
			continue;	/* KSYMBOL records know better */
		bpf_add(m, addr, end, name);
	}
}

/* ---- the resolve caches ---- */
static inline uint64_t cache_hash(const void *owner, uint64_t key)
{
	return hash_u64(key ^ ((uint64_t)(uintptr_t)owner * 0x9e3779b97f4a7c15ull));
}

static inline size_t cache_slot(const void *owner, uint64_t key, size_t cap)
{
	return cache_hash(owner, key) & (cap - 1);
}

static inline const struct resolved *cache_get(const struct rcache *c, const void *owner,
					       uint64_t key)
{
	size_t i = cache_slot(owner, key, c->cap);
	for (;;) {
		const struct centry *e = &c->slots[i];
		if (!e->owner)
			return NULL;
		if (e->owner == owner && e->key == key)
			return &e->r;
		i = (i + 1) & (c->cap - 1);
	}
}

static uint64_t centry_hash(const void *slot, const void *ctx)
{
	const struct centry *e = slot;
	(void)ctx;
	return cache_hash(e->owner, e->key);
}

static void cache_put(struct rcache *c, const void *owner, uint64_t key, const struct resolved *r)
{
	if ((c->n + 1) * 2 > c->cap)
		OA_RESIZE(c->slots, c->cap, c->cap * 2, centry_hash, NULL);
	size_t i = cache_slot(owner, key, c->cap);
	while (c->slots[i].owner)
		i = (i + 1) & (c->cap - 1);
	c->slots[i].owner = owner;
	c->slots[i].key = key;
	c->slots[i].r = *r;
	c->n++;
}

static const char *sym_name(struct machine *m, const char *raw)
{
	if (!m->opts.no_demangle) {
		char *d = sym_demangle_opts(raw, m->demangle_params);
		if (d) {
			const char *s = strtab_intern(m->strs, d);
			free(d);
			return s;
		}
	}
	return strtab_intern(m->strs, raw);
}

/* A symbol's name as shown, interned once per symbol rather than once per
 * address. Symbol tables are only read after loading, but the early and late
 * stages may look up the same kernel symbol at once: both intern the same
 * string (the table is locked then) and store the same pointer. */
static const char *shown_name(struct machine *m, const struct sym *s, bool demangle)
{
	struct sym *ms = (struct sym *)s;	/* the machine owns its symbol tables */
	const char *n = __atomic_load_n(&ms->shown, __ATOMIC_ACQUIRE);
	if (!n) {
		n = demangle ? sym_name(m, s->name) : strtab_intern(m->strs, s->name);
		__atomic_store_n(&ms->shown, n, __ATOMIC_RELEASE);
	}
	return n;
}

/* ---- resolve ---- */
static void set_ksyms_text(struct machine *m, const char *path)
{
	uint64_t t = kallsyms_text_address(path);
	pthread_mutex_lock(&m->kmaps_lock);
	m->ksyms_text = t;
	pthread_mutex_unlock(&m->kmaps_lock);
}

/* The recording's kernel build-id (HEADER_BUILD_ID of [kernel.kallsyms]) in
 * hex when it is not the running kernel's; false when it is, or when either
 * is unknown. The header's build-ids are all in before the first sample. */
static bool other_kernel(const struct machine *m, char *hex)
{
	const struct hdr_bid *kb = NULL;
	for (size_t i = 0; i < m->nhdr_bids && !kb; i++)
		if (!strcmp(m->hdr_bids[i].path, "[kernel.kallsyms]"))
			kb = &m->hdr_bids[i];
	uint8_t run[64];
	size_t rl = kb ? buildid_of_notes("/sys/kernel/notes", run, sizeof(run)) : 0;
	if (!rl || (rl == kb->len && !memcmp(run, kb->id, rl)))
		return false;
	buildid_hex(kb->id, kb->len, hex);
	return true;
}

/* A recording of another kernel: that kernel's kallsyms from the build-id
 * cache (where record copies it), as perf reads it; without it no kernel
 * symbols at all, said once, rather than the running kernel's wrong ones. */
static void load_other_kallsyms(struct machine *m, const char *hex)
{
	bool hidden = false;
	const char *dir = m->buildid_dir;
	char *path = dir ? xasprintf("%s/[kernel.kallsyms]/%s/kallsyms", dir, hex) : NULL;
	long n = path ? kallsyms_load(path, NULL, m->strs, &m->ksyms, &hidden) : -ENOENT;
	if (n > 0) {
		set_ksyms_text(m, path);
		pr_debug("%ld kernel text symbols from %s (the recorded kernel's: not the running one)",
			 n, path);
	} else {
		m->ksyms_problem = xasprintf(
			"the recording is of another kernel (build-id %s, not this one's) and its "
			"symbols cannot be read from %s (%s): kernel addresses stay unresolved; report "
			"where it was recorded, copy that machine's build-id cache here, or pass that "
			"kernel's /proc/kallsyms with --kallsyms", hex,
			path ? path : "the build-id cache (no HOME)",
			n == 0 ? (hidden ? "its addresses are hidden" : "no symbols in it")
			       : open_regular_strerror((int)n));
	}
	free(path);
	__atomic_store_n(&m->ksyms_ready, true, __ATOMIC_RELEASE);
}

static void load_kallsyms(struct machine *m)
{
	m->ksyms_loaded = true;
	bool hidden = false;
	uint64_t t0 = now_ns();
	char hex[2 * BUILDID_MAX + 1];
	if (!m->kallsyms_given && other_kernel(m, hex)) {
		load_other_kallsyms(m, hex);
		return;
	}
	/* The running kernel's symbols: perf's build-id cache copy when it is
	 * current (as cheap to read as a file), else /proc/kallsyms. */
	char copy[4096];
	const struct ksources src = { .buildid_dir = m->buildid_dir };
	if (!m->kallsyms_given && kallsyms_find_copy(&src, copy, sizeof(copy))) {
		long n = kallsyms_load_copy(copy, m->opts.modules, m->strs, &m->ksyms);
		if (n > 0) {
			set_ksyms_text(m, copy);
			pr_debug("%ld kernel text symbols from %s (the running kernel's, saved by "
				 "record) in %.1f ms", n, copy, (double)(now_ns() - t0) / 1e6);
			__atomic_store_n(&m->ksyms_ready, true, __ATOMIC_RELEASE);
			return;
		}
		pr_debug("%s: %s; reading %s", copy,
			 n == -ESTALE ? "its modules are not those loaded now" : open_regular_strerror((int)n),
			 m->opts.kallsyms);
	}
	long n = kallsyms_load(m->opts.kallsyms, m->opts.modules, m->strs, &m->ksyms, &hidden);
	if (n < 0)
		m->ksyms_problem = xasprintf("cannot read kernel symbols from %s: %s; kernel "
					     "addresses stay unresolved (run as root or pass a "
					     "readable kallsyms file)", m->opts.kallsyms,
					     open_regular_strerror((int)n));
	else if (hidden)
		m->ksyms_problem = xasprintf("kernel symbol addresses in %s are hidden "
					     "(kptr_restrict); kernel addresses stay unresolved (run "
					     "as root or set /proc/sys/kernel/kptr_restrict to 0)",
					     m->opts.kallsyms);
	else {
		set_ksyms_text(m, m->opts.kallsyms);
		pr_debug("%ld kernel text symbols from %s in %.1f ms", n, m->opts.kallsyms,
			 (double)(now_ns() - t0) / 1e6);
	}
	/* Complete (even if empty): the early stage may use ksyms from now on. */
	__atomic_store_n(&m->ksyms_ready, true, __ATOMIC_RELEASE);
}

bool machine_kernel_data_symbol(struct machine *m, uint64_t addr, const char **name, uint64_t *off)
{
	if (!m->kdata_loaded) {
		bool hidden = false;
		m->kdata_loaded = true;
		long n = kallsyms_load_data(m->opts.kallsyms, m->opts.modules, m->strs, &m->kdata, &hidden);
		pr_debug("%ld kernel data symbols from %s%s", n < 0 ? 0 : n, m->opts.kallsyms,
			 hidden ? " (addresses hidden)" : "");
	}
	const struct sym *s = symtab_find(&m->kdata, addr);
	if (!s)
		return false;
	*name = s->name;
	*off = addr - s->start;
	return true;
}

int machine_kernel_symbol_addrs(struct machine *m, const char *const *names, uint64_t *addrs, size_t n)
{
	return kallsyms_find_names(m->opts.kallsyms, names, addrs, n);
}

void machine_load_kernel_symbols(struct machine *m)
{
	if (!m->ksyms_loaded)
		load_kallsyms(m);
}

/* BPF programs: time-ordered, so on the side-band's thread. */
static bool resolve_bpf(struct machine *m, uint64_t addr, struct resolved *out)
{
	const struct bpf_range *b = m->nbpf ? bpf_find(m, addr) : NULL;
	if (!b)
		return false;
	*out = (struct resolved){ .dso = b->name, .dso_path = b->name, .sym = b->name,
				  .sym_start = b->start, .rel_addr = addr,
				  .found = true, .level = 'k' };
	return true;
}

/* What to add to a recorded kernel text address to find it among the
 * symbols read (0 when both have _text at the same place). */
static uint64_t kernel_shift(struct machine *m, uint64_t addr)
{
	uint64_t shift = 0;
	pthread_mutex_lock(&m->kmaps_lock);
	if (m->rec_text && m->ksyms_text && m->rec_text != m->ksyms_text && addr >= m->rec_text &&
	    addr < m->rec_text_end) {
		shift = m->ksyms_text - m->rec_text;
		if (!m->relocation_told) {
			m->relocation_told = true;
			pr_info("kernel text at %#llx in the recording, at %#llx in the symbols read "
				"(another boot's KASLR offset): looked up relocated",
				(unsigned long long)m->rec_text, (unsigned long long)m->ksyms_text);
		}
	}
	pthread_mutex_unlock(&m->kmaps_lock);
	return shift;
}

/* Kernel text from kallsyms and the kernel maps: touches only ksyms, the
 * given cache and (locked) kmaps and strs, so it may run on another thread
 * than the side-band with its own cache (see machine_resolve_late in
 * machine.h). */
static void resolve_kernel(struct machine *m, struct rcache *cache, uint64_t addr,
			   struct resolved *out)
{
	const struct resolved *c = cache_get(cache, &m->kernel_owner, addr);
	if (c) {
		*out = *c;
		return;
	}
	if (!m->ksyms_loaded)
		load_kallsyms(m);
	struct resolved r = { .rel_addr = addr, .level = 'k' };
	uint64_t shift = kernel_shift(m, addr);
	const struct sym *s = symtab_find(&m->ksyms, addr + shift);
	if (s) {
		r.dso = s->aux;
		r.sym = shown_name(m, s, false);
		r.sym_start = s->start - shift;
		r.found = true;
	} else {
		r.dso = m->s_kernel;
		r.sym = intern_hex(m, addr);
		r.ip_sym = r.sym;
		if (m->ksyms_problem && !__atomic_exchange_n(&m->ksyms_problem_told, true, __ATOMIC_ACQ_REL))
			pr_warn("%s", m->ksyms_problem);
	}
	r.dso_path = r.dso;
	pthread_mutex_lock(&m->kmaps_lock);
	for (size_t i = 0; i < m->nkmaps; i++) {
		const struct kmap *k = &m->kmaps[i];
		if (addr >= k->start && addr < k->end) {
			if (!s || s->aux == k->dso) {
				r.dso = k->dso;
				r.dso_path = k->path;
			}
			break;
		}
	}
	pthread_mutex_unlock(&m->kmaps_lock);
	cache_put(cache, &m->kernel_owner, addr, &r);
	*out = r;
}

static void resolve_unknown(struct machine *m, struct rcache *cache, uint64_t addr, char level,
			    struct resolved *out)
{
	const struct resolved *c = cache_get(cache, &m->unknown_owner, addr);
	if (c) {
		*out = *c;
		out->level = level;
		return;
	}
	struct resolved r = { .dso = m->s_unknown, .dso_path = m->s_unknown,
			      .sym = intern_hex(m, addr), .rel_addr = addr, .level = level };
	r.ip_sym = r.sym;
	cache_put(cache, &m->unknown_owner, addr, &r);
	*out = r;
}

/* False when no map of the process covers addr. */
static bool resolve_user(struct machine *m, int pid, int tid, uint64_t addr,
			 struct resolved *out)
{
	struct proc *p = proc_of(m, pid, tid);
	const struct map *map = NULL;
	if (p && p->n) {
		size_t lo = 0, hi = p->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (p->maps[mid].start <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && addr < p->maps[lo - 1].end)
			map = &p->maps[lo - 1];
	}
	if (!map)
		return false;
	struct dso *d = map->dso;
	bool identity = d->kind == DSO_ANON || d->kind == DSO_PERFMAP;
	uint64_t key = identity ? addr : addr - map->start + map->pgoff;
	const struct resolved *c = cache_get(&m->cache, d, key);
	if (c) {
		*out = *c;
		/* cached by the place in the file, shared by every process */
		if (!c->found && !identity)
			out->ip_sym = user_ip_name(m, addr);
		return true;
	}
	struct dso_load_opts lo = { .live = m->opts.live, .buildid_dir = m->buildid_dir };
	dso_load(d, &lo);
	struct resolved r = { .dso = d->name, .dso_path = d->path, .level = '.' };
	r.rel_addr = key;
	if (!identity && d->usable)
		dso_off_to_vaddr(d, key, &r.rel_addr);
	const struct sym *s = d->usable ? symtab_find(&d->st, r.rel_addr) : NULL;
	if (s) {
		r.sym = shown_name(m, s, true);
		r.sym_start = s->start;
		r.found = true;
	} else {
		r.sym = intern_hex(m, key);	/* perf: the address in the file (map-relative) */
		r.ip_sym = r.sym;
	}
	cache_put(&m->cache, d, key, &r);
	*out = r;
	if (!r.found && !identity)
		out->ip_sym = user_ip_name(m, addr);
	return true;
}

char machine_resolve_early(struct machine *m, int pid, int tid, uint64_t addr,
			   enum addr_space space, bool defer, struct resolved *out)
{
	if (space == AS_UNKNOWN)	/* the upper half is the kernel's on x86-64 and arm64 */
		space = (addr >> 63) ? AS_KERNEL : AS_USER;
	char what;
	switch (space) {
	case AS_KERNEL:
		if (resolve_bpf(m, addr, out))
			return 0;
		what = 'k';
		break;
	case AS_USER:
		if (resolve_user(m, pid, tid, addr, out))
			return 0;
		what = '.';
		break;
	default:		/* guests: no symbols for them */
		what = '?';
		break;
	}
	/* Once the kernel symbols are complete (loaded by the late stage), this
	 * side resolves the rest too, in its own cache: the late stage's thread
	 * is then left with less to do. */
	if (defer || !__atomic_load_n(&m->ksyms_ready, __ATOMIC_ACQUIRE))
		return what;
	if (what == 'k')
		resolve_kernel(m, &m->cache, addr, out);
	else
		resolve_unknown(m, &m->cache, addr, what, out);
	return 0;
}

void machine_resolve_late(struct machine *m, uint64_t addr, char what, struct resolved *out)
{
	if (what == 'k')
		resolve_kernel(m, &m->kcache, addr, out);
	else
		resolve_unknown(m, &m->kcache, addr, what, out);
}

void machine_resolve(struct machine *m, int pid, int tid, uint64_t addr,
		     enum addr_space space, struct resolved *out)
{
	char what = machine_resolve_early(m, pid, tid, addr, space, false, out);
	if (what)
		machine_resolve_late(m, addr, what, out);
}
