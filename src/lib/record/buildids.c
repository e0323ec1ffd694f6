// SPDX-License-Identifier: GPL-2.0-only
/* The DSOs a recording hit, for HEADER_BUILD_ID, HEADER_SAMPLE_TIME and the
 * build-id cache. perf record reads every sample back at the end to find the
 * DSOs that got one; a cheaper rule here, without per-sample lookups:
 *   - the kernel, always;
 *   - a module, when a kernel sample's IP is in it (ranges of /proc/modules);
 *   - a user file, when it was mapped executable (MMAP/MMAP2 records, live or
 *     synthesized) by a process that got a sample (user or kernel), or by one of
 *     that process's ancestors (FORK records: a forked child shares the
 *     parent's maps without records of its own).
 * So a library that a sampled process mapped but never ran in is listed too.
 * Samples cost reading their header's first 40 bytes (copied by drain.c). */
#include "record/internal.h"
#include "log.h"
#include "oa.h"
#include "perfdata/format.h"
#include "perfdata/writer.h"
#include "sym/buildid.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BUILD_ID_SIZE_MISC (1u << 15)	/* PERF_RECORD_MISC_BUILD_ID_SIZE */

/* A file mapped, with the build-id its MMAP2 record gave (or none):
 * interned, as thousands of processes map the same few libraries. */
struct hit_file {
	char *name;
	uint8_t id[BUILDID_MAX];
	uint8_t idlen;
	bool used;		/* mapped by a sampled process */
	int pid;		/* such a process, to read the file in its mount namespace */
};

struct hit_map {
	uint32_t pid, file;
};

struct rec_hits {
	struct hit_file *files;
	size_t nfiles, capfiles;
	struct oa_index file_index;	/* files by name and build-id */
	struct hit_map *maps;
	size_t nmaps, capmaps;
	struct { int pid, ppid; } *forks;
	size_t nforks, capforks;
	struct oa_imap pids;	/* the sampled processes (a set: values unused) */
	struct kmod_range *mods;	/* /proc/modules, sorted by start */
	bool *mod_hit;		/* per module: a kernel sample in it */
	size_t nmods;
	uint64_t first_time, last_time;
	bool any_time;
};

void rec_hits_init(struct recording *r)
{
	r->hits = xcalloc(1, sizeof(*r->hits));
	r->hits->nmods = kmods_read("/proc/modules", &r->hits->mods);
	r->hits->mod_hit = xcalloc(r->hits->nmods ? r->hits->nmods : 1, sizeof(bool));
}

static void pid_add(struct rec_hits *h, uint32_t pid)
{
	struct oa_probe p;
	if (pid && !oa_imap_find(&h->pids, pid, &p))
		oa_imap_add(&h->pids, &p, pid, NULL);
}

static bool pid_has(const struct rec_hits *h, uint32_t pid)
{
	struct oa_probe p;
	return pid && oa_imap_find(&h->pids, pid, &p);
}

void rec_hits_sample(struct recording *r, const struct rec_sample_head *s)
{
	struct rec_hits *h = r->hits;
	if (!h)
		return;
	if (!h->any_time || s->time < h->first_time)
		h->first_time = s->time;
	if (!h->any_time || s->time > h->last_time)
		h->last_time = s->time;
	h->any_time = true;
	unsigned mode = s->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	pid_add(h, s->pid);	/* also for kernel samples: its call chains go through its DSOs */
	if (mode == PERF_RECORD_MISC_KERNEL && h->nmods && s->ip >= h->mods[0].start) {
		size_t lo = 0, hi = h->nmods;	/* last module starting at or below ip */
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (h->mods[mid].start <= s->ip)
				lo = mid;
			else
				hi = mid;
		}
		if (s->ip < h->mods[lo].end)
			h->mod_hit[lo] = true;
	}
}

void rec_hits_record(struct recording *r, const void *rec, size_t size)
{
	struct rec_hits *h = r->hits;
	const struct perf_event_header *hd = rec;
	if (!h || size < sizeof(*hd))
		return;
	if (hd->type == PERF_RECORD_FORK && size >= sizeof(struct pd_rec_fork)) {
		const struct pd_rec_fork *f = rec;
		if (f->pid != f->ppid) {
			ARRAY_GROW(h->forks, h->capforks, h->nforks + 1);
			h->forks[h->nforks].pid = (int)f->pid;
			h->forks[h->nforks++].ppid = (int)f->ppid;
		}
		return;
	}
	if ((hd->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return;
	const char *name;
	size_t hl;
	uint32_t prot = PROT_EXEC;
	const struct pd_rec_mmap2 *m2 = rec;
	if (hd->type == PERF_RECORD_MMAP2 && size > sizeof(struct pd_rec_mmap2)) {
		hl = sizeof(struct pd_rec_mmap2);
		prot = m2->prot;
	} else if (hd->type == PERF_RECORD_MMAP && size > sizeof(struct pd_rec_mmap)) {
		hl = sizeof(struct pd_rec_mmap);
	} else {
		return;
	}
	name = (const char *)rec + hl;
	size_t nlen = strnlen(name, size - hl);
	if (!(prot & PROT_EXEC) || nlen == size - hl || name[0] != '/' ||
	    !strncmp(name, "/memfd:", 7) || !strncmp(name, "/dev/", 5) ||
	    !strncmp(name, "/SYSV", 5) || !strncmp(name, "/anon_hugepage", 14))
		return;
	uint8_t id[BUILDID_MAX];
	uint8_t idlen = 0;
	if (hd->type == PERF_RECORD_MMAP2 && (hd->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    m2->build_id_size && m2->build_id_size <= BUILDID_MAX) {
		memcpy(id, m2->build_id, m2->build_id_size);
		idlen = m2->build_id_size;
	}
	uint64_t hv = str_hash(name);	/* NUL-terminated: checked above */
	for (size_t i = 0; i < idlen; i++)
		hv = hash_u64(hv ^ id[i]);
	struct oa_probe p = oa_probe(&h->file_index, hv);
	uint32_t fi;
	while ((fi = oa_next(&h->file_index, &p)) != OA_NONE) {
		const struct hit_file *f = &h->files[fi];
		if (f->idlen == idlen && !memcmp(f->id, id, idlen) && !strncmp(f->name, name, nlen) &&
		    !f->name[nlen])
			break;
	}
	if (fi == OA_NONE) {
		ARRAY_GROW(h->files, h->capfiles, h->nfiles + 1);
		struct hit_file *f = &h->files[h->nfiles];
		memset(f, 0, sizeof(*f));
		f->name = xstrndup(name, nlen);
		memcpy(f->id, id, idlen);
		f->idlen = idlen;
		fi = (uint32_t)h->nfiles++;
		oa_insert(&h->file_index, &p, fi);
	}
	if (h->nmaps && h->maps[h->nmaps - 1].pid == m2->pid && h->maps[h->nmaps - 1].file == fi)
		return;
	ARRAY_GROW(h->maps, h->capmaps, h->nmaps + 1);
	h->maps[h->nmaps++] = (struct hit_map){ m2->pid, fi };
}

/* One HEADER_BUILD_ID entry: {header (misc: cpumode | BUILD_ID_SIZE, size),
 * pid, build_id[20], size, 3 reserved bytes, name padded to 64}. */
static void put_build_id(struct strbuf *b, uint16_t mode, const uint8_t *id, size_t len,
			 const char *name)
{
	size_t nlen = (strlen(name) + 1 + 63) & ~(size_t)63;
	struct {
		struct perf_event_header h;
		int32_t pid;
		uint8_t data[20];
		uint8_t size;
		uint8_t r1;
		uint16_t r2;
	} __attribute__((packed)) e;
	memset(&e, 0, sizeof(e));
	e.h.misc = (uint16_t)(mode | BUILD_ID_SIZE_MISC);
	e.h.size = (uint16_t)(sizeof(e) + nlen);
	e.pid = -1;	/* the host machine, as perf writes it */
	memcpy(e.data, id, len);
	e.size = (uint8_t)len;
	sb_append_len(b, (const char *)&e, sizeof(e));
	char *pad = xcalloc(1, nlen);
	memcpy(pad, name, strlen(name));
	sb_append_len(b, pad, nlen);
	free(pad);
}

static int cmp_file(const void *a, const void *b)
{
	const struct hit_file *x = *(const struct hit_file *const *)a;
	const struct hit_file *y = *(const struct hit_file *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : (int)y->idlen - (int)x->idlen;	/* with a build-id first */
}

/* Mark the sampled processes' ancestors: their maps are the children's too. */
static void mark_ancestors(struct rec_hits *h)
{
	for (int round = 0; round < 16; round++) {
		size_t before = h->pids.n;
		for (size_t i = 0; i < h->nforks; i++)
			if (pid_has(h, (uint32_t)h->forks[i].pid))
				pid_add(h, (uint32_t)h->forks[i].ppid);
		if (h->pids.n == before)
			break;
	}
}

/* Where the file of a map can be read now: in its process's mount
 * namespace while it lives, else at its path; " (deleted)" dropped. */
static char *readable_path(const struct hit_file *m, char *name)
{
	size_t l = strlen(name);
	if (l > 10 && !strcmp(name + l - 10, " (deleted)"))
		name[l - 10] = '\0';
	if (m->pid > 0) {
		char *p = xasprintf("/proc/%d/root%s", m->pid, name);
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
	return xstrdup(name);
}

static bool compressed(const char *p)
{
	const char *dot = strrchr(p, '.');
	return dot && (!strcmp(dot, ".xz") || !strcmp(dot, ".zst") || !strcmp(dot, ".gz"));
}

/* HEADER_SAMPLE_TIME: the times of the first and the last sample. */
static void add_sample_time(struct recording *r, const struct rec_hits *h)
{
	if (!h->any_time)
		return;
	struct strbuf b = { 0 };
	pd_feat_put_u64(&b, h->first_time);
	pd_feat_put_u64(&b, h->last_time);
	pd_writer_add_feature(r->w, PD_FEAT_SAMPLE_TIME, b.buf, b.len);
	sb_free(&b);
}

/* The build-id cache to save the files in (NULL: none, by option), and
 * whether its copy of /proc/kallsyms is this boot's. */
static struct buildid_cache *open_cache(const struct recording *r, bool *kallsyms_current)
{
	*kallsyms_current = false;
	if (r->opts.no_buildid_cache)
		return NULL;
	char *dir = buildid_dir(r->opts.buildid_dir);
	struct buildid_cache *c = buildid_cache_open(dir, NULL);
	*kallsyms_current = buildid_cache_kallsyms_current(dir);
	free(dir);
	return c;
}

/* The kernel's entry; returns the number of entries put (0 or 1). */
static size_t put_kernel(struct strbuf *b, struct buildid_cache *c, bool kallsyms_current)
{
	uint8_t id[BUILDID_MAX];
	size_t n = buildid_of_notes("/sys/kernel/notes", id, sizeof(id));
	if (!n)
		return 0;
	put_build_id(b, PERF_RECORD_MISC_KERNEL, id, n, "[kernel.kallsyms]");
	/* saved again when the addresses changed (another boot) */
	buildid_cache_add(c, "[kernel.kallsyms]", "/proc/kallsyms", "kallsyms", id, n,
			  !kallsyms_current);
	return 1;
}

/* The entries of the modules a kernel sample hit, named by their file
 * (or "[name]" when modules.dep does not know it); returns their number. */
static size_t put_modules(const struct rec_hits *h, struct strbuf *b, struct buildid_cache *c)
{
	char **files = xcalloc(h->nmods ? h->nmods : 1, sizeof(*files));
	bool any_hit = false;
	for (size_t i = 0; i < h->nmods; i++)
		any_hit |= h->mod_hit[i];
	if (any_hit)
		kmod_files(h->mods, h->nmods, files);	/* one read of modules.dep */
	size_t nentries = 0;
	for (size_t i = 0; i < h->nmods; i++) {
		if (!h->mod_hit[i])
			continue;
		uint8_t id[BUILDID_MAX];
		char *notes = xasprintf("/sys/module/%s/notes/.note.gnu.build-id", h->mods[i].name);
		size_t n = buildid_of_notes(notes, id, sizeof(id));
		free(notes);
		if (!n)
			continue;
		const char *path = files[i];
		char *shown = path ? xstrdup(path) : xasprintf("[%s]", h->mods[i].name);
		put_build_id(b, PERF_RECORD_MISC_KERNEL, id, n, shown);
		nentries++;
		if (path && !compressed(path))
			buildid_cache_add(c, path, path, "elf", id, n, false);
		free(shown);
	}
	for (size_t i = 0; i < h->nmods; i++)
		free(files[i]);
	free(files);
	return nentries;
}

/* Mark the files that a sampled process (or an ancestor, see
 * mark_ancestors) mapped, with that process to read them through. */
static void mark_used_files(struct rec_hits *h)
{
	for (size_t i = 0; i < h->nmaps; i++) {
		struct hit_file *f = &h->files[h->maps[i].file];
		if (!f->used && pid_has(h, h->maps[i].pid)) {
			f->used = true;
			f->pid = (int)h->maps[i].pid;
		}
	}
}

/* The entry of one used file: its build-id from its MMAP2 record, else read
 * from the file; returns whether there was one. */
static bool put_user_file(struct strbuf *b, struct buildid_cache *c, const struct hit_file *m)
{
	char *name = xstrdup(m->name);
	char *src = readable_path(m, name);
	uint8_t id[BUILDID_MAX];
	size_t n = m->idlen;
	if (n)
		memcpy(id, m->id, n);
	else
		n = buildid_of_file(src, id, sizeof(id));
	if (n) {
		put_build_id(b, PERF_RECORD_MISC_USER, id, n, name);
		/* a file replaced since its mmap is not saved as the old build-id */
		uint8_t now[BUILDID_MAX];
		if (c && (!m->idlen || (buildid_of_file(src, now, sizeof(now)) == n &&
				       !memcmp(now, id, n))))
			buildid_cache_add(c, name, src, "elf", id, n, false);
	}
	free(src);
	free(name);
	return n != 0;
}

/* The entries of the used files, sorted by path, one a path; returns
 * their number. */
static size_t put_user_files(struct rec_hits *h, struct strbuf *b, struct buildid_cache *c)
{
	struct hit_file **used = xcalloc(h->nfiles + 1, sizeof(*used));
	size_t nused = 0, nentries = 0;
	for (size_t i = 0; i < h->nfiles; i++)
		if (h->files[i].used)
			used[nused++] = &h->files[i];
	qsort(used, nused, sizeof(*used), cmp_file);
	for (size_t i = 0; i < nused; i++) {
		if (i && !strcmp(used[i]->name, used[i - 1]->name))
			continue;	/* one entry per path: the one with a build-id */
		nentries += put_user_file(b, c, used[i]);
	}
	free(used);
	return nentries;
}

void rec_hits_finish(struct recording *r)
{
	struct rec_hits *h = r->hits;
	if (!h)
		return;
	add_sample_time(r, h);
	bool kallsyms_current;
	struct buildid_cache *c = open_cache(r, &kallsyms_current);
	struct strbuf b = { 0 };
	size_t nentries = put_kernel(&b, c, kallsyms_current);
	nentries += put_modules(h, &b, c);
	mark_ancestors(h);
	mark_used_files(h);
	nentries += put_user_files(h, &b, c);
	if (b.len)
		pd_writer_add_feature(r->w, PD_FEAT_BUILD_ID, b.buf, b.len);
	sb_free(&b);
	struct buildid_cache_stats st = { 0 };
	if (c) {
		buildid_cache_close(c, &st);
		pr_info("build-ids of %zu files hit; build-id cache: %zu added (%.1f MiB), %zu already "
			"there, %zu not saved", nentries, st.added, (double)st.bytes / (1 << 20),
			st.present, st.skipped);
	}
}

void rec_hits_free(struct recording *r)
{
	struct rec_hits *h = r->hits;
	if (!h)
		return;
	for (size_t i = 0; i < h->nfiles; i++)
		free(h->files[i].name);
	free(h->files);
	oa_free(&h->file_index);
	free(h->maps);
	free(h->forks);
	oa_imap_free(&h->pids);
	free(h->mods);
	free(h->mod_hit);
	free(h);
	r->hits = NULL;
}
