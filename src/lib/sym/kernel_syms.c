// SPDX-License-Identifier: GPL-2.0-only
/* The machine's kernel symbols: which kallsyms is read (the recorded
 * kernel's from the build-id cache, the running kernel's saved copy, or
 * /proc/kallsyms) and why none could be, the kernel's _text in the symbols
 * read (KASLR), and the kernel data symbols and symbol addresses by name. */
#include "machine_int.h"
#include "sym/buildid.h"
#include "log.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
			"kernel's /proc/kallsyms%s", hex, log_hint(LOG_HINT_OTHER_KALLSYMS),
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
