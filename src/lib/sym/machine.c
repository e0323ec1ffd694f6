// SPDX-License-Identifier: GPL-2.0-only
/* The address-space model of a recording (machine.h): the machine's creation
 * and end, and its settings. Its concerns are in files of their own: threads
 * and processes (thread.c), DSOs and maps (dso_map.c), BPF programs' KSYMBOL
 * ranges (bpf_ranges.c), the kernel's symbols (kernel_syms.c) and address
 * resolution with the resolve caches (resolve.c); machine_int.h has the
 * state they share. */
#include "machine_int.h"
#include "sym/buildid.h"
#include "log.h"
#include "util.h"

#include <stdlib.h>

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
	oa_init(&m->cache.index, 1 << 13);
	oa_init(&m->kcache.index, 1 << 11);
	oa_init(&m->dso_index, 256);
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
	for (size_t i = 0; i < m->threads.n; i++)
		free(m->threads.v[i].val);
	oa_imap_free(&m->threads);
	for (size_t i = 0; i < m->procs.n; i++) {
		struct proc *p = m->procs.v[i].val;
		free(p->maps);
		free(p);
	}
	oa_imap_free(&m->procs);
	for (size_t i = 0; i < m->ndsos; i++)
		dso_free(m->dsos[i]);
	free(m->dsos);
	oa_free(&m->dso_index);
	if (m->vdso)
		dso_free(m->vdso);
	pr_debug("resolve caches: %zu addresses resolved early (%zu slots), %zu late (%zu slots)",
		 m->cache.count, m->cache.index.mask + 1, m->kcache.count, m->kcache.index.mask + 1);
	symtab_free(&m->ksyms);
	symtab_free(&m->kdata);
	free(m->kmaps);
	free(m->ip_names);
	free(m->hdr_bids);
	free(m->ranked);
	oa_free(&m->rank_index);
	free(m->buildid_dir);
	free(m->bpf);
	free(m->cache.entries);
	oa_free(&m->cache.index);
	free(m->kcache.entries);
	oa_free(&m->kcache.index);
	pthread_mutex_destroy(&m->kmaps_lock);
	strtab_free(m->strs);
	free(m->kallsyms_path);
	free(m->ksyms_problem);
	free(m->modules_path);
	free(m);
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
