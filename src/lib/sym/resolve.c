// SPDX-License-Identifier: GPL-2.0-only
/* Address resolution (machine_resolve and its early and late stages): user
 * addresses through the process's maps and DSOs, kernel text through
 * kallsyms and the kernel maps, BPF programs through their ranges, and the
 * resolve caches that make it cheap: after the first lookup of a (dso,
 * address) pair, a resolve is one hash probe and a struct copy, with no
 * allocation. Also the srcline of a resolved address. */
#include "machine_int.h"
#include "log.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

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

/* ---- the resolve caches ---- */
static inline uint64_t cache_hash(const void *owner, uint64_t key)
{
	return hash_u64(key ^ ((uint64_t)(uintptr_t)owner * 0x9e3779b97f4a7c15ull));
}

static inline const struct resolved *cache_get(const struct rcache *c, const void *owner,
					       uint64_t key)
{
	struct oa_probe p = oa_probe(&c->index, cache_hash(owner, key));
	for (uint32_t i; (i = oa_next(&c->index, &p)) != OA_NONE;)
		if (c->entries[i].owner == owner && c->entries[i].key == key)
			return &c->entries[i].resolved;
	return NULL;
}

/* After a cache_get that found nothing. */
static void cache_put(struct rcache *c, const void *owner, uint64_t key, const struct resolved *r)
{
	struct oa_probe p = oa_probe(&c->index, cache_hash(owner, key));
	while (oa_next(&c->index, &p) != OA_NONE)
		;
	ARRAY_GROW_RAW(c->entries, c->cap, c->count + 1);
	c->entries[c->count] = (struct centry){ .owner = owner, .key = key, .resolved = *r };
	oa_insert(&c->index, &p, (uint32_t)c->count++);
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
/* BPF programs: time-ordered, so on the side-band's thread. */
static bool resolve_bpf(struct machine *m, uint64_t addr, struct resolved *out)
{
	/* the ranges are sorted and apart: most kernel addresses are outside
	 * all of them (kernel text below the JIT's area) */
	if (!m->nbpf || addr < m->bpf[0].start || addr >= m->bpf[m->nbpf - 1].end)
		return false;
	const struct bpf_range *b = machine_bpf_find(m, addr);
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
	machine_load_kernel_symbols(m);	/* on first use */
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
	struct proc *p = machine_proc_of(m, pid, tid);
	const struct map *map = NULL;
	if (p && p->nmaps) {
		size_t lo = 0, hi = p->nmaps;
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
	struct dso_load_opts load_opts = { .live = m->opts.live, .buildid_dir = m->buildid_dir };
	dso_load(d, &load_opts);
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
