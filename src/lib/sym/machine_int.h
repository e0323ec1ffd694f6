/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to the machine (machine.h), shared by the files that implement it:
 * machine.c (lifetime, settings), thread.c (threads and processes),
 * dso_map.c (DSOs, maps, dso ranks), bpf_ranges.c (BPF programs' KSYMBOL
 * ranges), kernel_syms.c (which kernel symbols are read) and resolve.c
 * (address resolution and its caches). Not for the machine's callers. */
#ifndef BPFPERF_SYM_MACHINE_INT_H
#define BPFPERF_SYM_MACHINE_INT_H

#include "machine.h"
#include "oa.h"
#include "sym_int.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- model ---- */
struct map {
	uint64_t start, end, pgoff;
	struct dso *dso;
};

struct proc {
	int pid;
	struct map *maps;	/* sorted by start, non-overlapping */
	size_t nmaps, capmaps;
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
	const void *owner;	/* dso, or a machine sentinel */
	uint64_t key;
	struct resolved resolved;
};

/* Resolved addresses: entries in order of first sight, found by (owner,
 * key) through an index (oa.h). */
struct rcache {
	struct centry *entries;
	size_t count, cap;
	struct oa_index index;
};

struct machine {
	struct machine_opts opts;
	struct srcline_cache *srclines;	/* machine_srcline, opened on first use */
	pthread_mutex_t srcline_lock;
	char *kallsyms_path, *modules_path;
	bool kallsyms_given;	/* opts.kallsyms set: no build-id cache copy */
	struct strtab *strs;

	struct oa_imap threads, procs;	/* struct thread by tid, struct proc by pid */
	int last_pid;
	struct proc *last_proc;

	/* the dsos (but the vdso) in order of creation, found by (path,
	 * build-id) through an index (oa.h) */
	struct dso **dsos;
	size_t ndsos, dsos_cap;
	struct oa_index dso_index;
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
	struct { uint64_t addr; const char *name; } *ip_names;	/* IP_NAMES slots (resolve.c) */
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
	const char **ranked;		/* dso names in rank order (rank = index + 1) */
	size_t nranks, ranked_cap;
	struct oa_index rank_index;	/* a name's rank - 1 */
};

/* thread.c: the process pid, created empty if new. */
struct proc *machine_proc_findnew(struct machine *m, int pid);
/* thread.c: the process of a sample's (pid, tid), by the thread's process
 * when pid has none; NULL when neither is known. */
struct proc *machine_proc_lookup(struct machine *m, int pid, int tid);
/* The process of (pid, tid): the last one asked for without a lookup (runs
 * of samples of one process), else machine_proc_lookup. */
static inline struct proc *machine_proc_of(struct machine *m, int pid, int tid)
{
	if (pid == m->last_pid && m->last_proc)
		return m->last_proc;
	return machine_proc_lookup(m, pid, tid);
}
/* dso_map.c: the next rank for a dso name not seen yet (name interned). */
void machine_rank_dso(struct machine *m, const char *name);
/* bpf_ranges.c: the BPF program (KSYMBOL range) covering addr, or NULL. */
const struct bpf_range *machine_bpf_find(const struct machine *m, uint64_t addr);

#endif
