// SPDX-License-Identifier: GPL-2.0-only
/* Source lines of addresses (perf report's srcline key), from the DWARF line
 * tables of the file (or of its separate debug file) through libdwfl. One
 * Dwfl per file, kept open; every (file, address) looked up once. */
#include "oa.h"
#include "sym/sym_int.h"
#include "util.h"

#include <elfutils/libdwfl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sl_file {
	const char *path;	/* interned */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;
};

struct sl_line {
	const char *path;
	uint64_t addr;
	const char *line;	/* interned, or NULL: no line */
};

struct srcline_cache {
	pthread_mutex_t lock;
	struct sl_file *files;
	size_t nfiles, files_cap;
	struct sl_line *lines;	/* looked up, in order */
	size_t n, cap;
	struct oa_index index;	/* a line by (path, addr) */
};

struct srcline_cache *srcline_cache_new(void)
{
	struct srcline_cache *c = xcalloc(1, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	return c;
}

void srcline_cache_free(struct srcline_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nfiles; i++)
		if (c->files[i].dwfl)
			dwfl_end(c->files[i].dwfl);
	free(c->files);
	free(c->lines);
	oa_free(&c->index);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static const struct sl_file *open_file(struct srcline_cache *c, const char *path)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	for (size_t i = 0; i < c->nfiles; i++)
		if (c->files[i].path == path)
			return &c->files[i];
	ARRAY_GROW(c->files, c->files_cap, c->nfiles + 1);
	struct sl_file *f = &c->files[c->nfiles++];
	*f = (struct sl_file){ .path = path };
	f->dwfl = dwfl_begin(&cb);
	if (f->dwfl) {
		f->mod = dwfl_report_offline(f->dwfl, "", path, -1);
		dwfl_report_end(f->dwfl, NULL, NULL);
		if (!f->mod || !dwfl_module_getelf(f->mod, &f->bias))
			f->mod = NULL;
	}
	return f;
}

static const char *lookup(struct srcline_cache *c, struct strtab *strs, const char *path, uint64_t addr)
{
	const struct sl_file *f = open_file(c, path);
	if (!f->mod)
		return NULL;
	Dwfl_Line *l = dwfl_module_getsrc(f->mod, addr + f->bias);
	int line = 0;
	const char *src = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	if (!src || line <= 0)
		return NULL;
	const char *base = strrchr(src, '/');
	char buf[512];
	snprintf(buf, sizeof(buf), "%s:%d", base ? base + 1 : src, line);
	return strtab_intern(strs, buf);
}

static uint64_t sl_hash(const char *path, uint64_t addr)
{
	return hash_u64((uintptr_t)path ^ addr * 0x9e3779b97f4a7c15ull);
}

const char *srcline_find(struct srcline_cache *c, struct strtab *strs, const char *path, uint64_t addr)
{
	pthread_mutex_lock(&c->lock);
	struct oa_probe p = oa_probe(&c->index, sl_hash(path, addr));
	for (uint32_t i; (i = oa_next(&c->index, &p)) != OA_NONE;)
		if (c->lines[i].path == path && c->lines[i].addr == addr) {
			const char *r = c->lines[i].line;
			pthread_mutex_unlock(&c->lock);
			return r;
		}
	const char *r = lookup(c, strs, path, addr);
	ARRAY_GROW(c->lines, c->cap, c->n + 1);
	c->lines[c->n] = (struct sl_line){ .path = path, .addr = addr, .line = r };
	oa_insert(&c->index, &p, (uint32_t)c->n++);
	pthread_mutex_unlock(&c->lock);
	return r;
}
