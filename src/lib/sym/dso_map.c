// SPDX-License-Identifier: GPL-2.0-only
/* The machine's DSOs and maps: user DSOs by path and build-id (with the
 * recording's HEADER_BUILD_ID entries), each process's sorted maps, the
 * kernel's module maps, and perf's order of creating dsos (dso ranks). */
#include "machine_int.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
	struct oa_probe p = oa_probe(&m->dso_index, h);
	for (uint32_t i; (i = oa_next(&m->dso_index, &p)) != OA_NONE;) {
		struct dso *d = m->dsos[i];
		if (d->path == path && d->build_id_len == bidlen &&
		    (!bidlen || memcmp(d->build_id, bid, bidlen) == 0))
			return d;
	}
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
	ARRAY_GROW_RAW(m->dsos, m->dsos_cap, m->ndsos + 1);
	m->dsos[m->ndsos] = d;
	oa_insert(&m->dso_index, &p, (uint32_t)m->ndsos++);
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
	size_t lo = 0, hi = p->nmaps;
	while (lo < hi) {	/* first map ending after start */
		size_t mid = lo + (hi - lo) / 2;
		if (p->maps[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t i = lo, j = lo;
	while (j < p->nmaps && p->maps[j].start < end)
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
	ARRAY_GROW(p->maps, p->capmaps, p->nmaps - removed + nr);
	if (p->nmaps > j)
		memmove(&p->maps[i + nr], &p->maps[j], (p->nmaps - j) * sizeof(*p->maps));
	if (nr)
		memcpy(&p->maps[i], repl, nr * sizeof(*repl));
	p->nmaps = p->nmaps - removed + nr;
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

/* The rank of an interned dso name (0: none yet); *p ready to add it. */
static uint32_t rank_find(const struct machine *m, const char *name, struct oa_probe *p)
{
	*p = oa_probe(&m->rank_index, hash_u64((uintptr_t)name));
	for (uint32_t i; (i = oa_next(&m->rank_index, p)) != OA_NONE;)
		if (m->ranked[i] == name)
			return i + 1;
	return 0;
}

/* The next rank for a dso name not seen yet (name interned). */
void machine_rank_dso(struct machine *m, const char *name)
{
	struct oa_probe p;
	if (rank_find(m, name, &p))
		return;
	ARRAY_GROW(m->ranked, m->ranked_cap, m->nranks + 1);
	m->ranked[m->nranks] = name;
	oa_insert(&m->rank_index, &p, (uint32_t)m->nranks++);
}

uint32_t machine_dso_rank(const struct machine *m, const char *dso)
{
	struct oa_probe p;
	return dso ? rank_find(m, dso, &p) : 0;
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
		machine_rank_dso(m, m->s_kernel);
	else if (kernel && (path[0] == '[' || is_kmod_path(path)))
		machine_rank_dso(m, module_dso_name(m, path));
	else if (!kernel)
		machine_rank_dso(m, strtab_intern(m->strs, path[0] != '[' && base ? base + 1 : path));
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
				machine_rank_dso(m, m->s_kernel);
			return;	/* the kernel itself: kallsyms covers it */
		}
		const char *dso = module_dso_name(m, filename);
		machine_rank_dso(m, dso);
		const char *path = strtab_intern(m->strs, filename);
		pthread_mutex_lock(&m->kmaps_lock);
		ARRAY_GROW(m->kmaps, m->capkmaps, m->nkmaps + 1);
		m->kmaps[m->nkmaps++] = (struct kmap){ start, end, dso, path };
		pthread_mutex_unlock(&m->kmaps_lock);
		return;
	}
	if (!len)
		return;
	struct proc *p = machine_proc_findnew(m, pid);
	/* Data maps only matter as the end of code that was there before. */
	struct dso *d = (prot & PROT_EXEC) ?
		dso_findnew(m, filename, build_id, build_id_len, pid) : NULL;
	if (d)
		machine_rank_dso(m, d->name);
	proc_insert_map(p, start, end, pgoff, d);
}
