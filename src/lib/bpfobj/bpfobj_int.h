/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to src/lib/bpfobj/: the state of one opened object, shared by the
 * files that implement bpfobj.h, and the helpers more than one of them uses. */
#ifndef BPFPERF_BPFOBJ_INT_H
#define BPFPERF_BPFOBJ_INT_H

#include "bpfobj.h"
#include "core_btf.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct btf;
struct btf_fmt_kenums;
struct btf_type;
struct bpf_map;
struct bpf_program;
struct bpf_link;
struct ring_buffer;
struct perf_buffer;

/* Per-program verifier log buffer handed to libbpf (load.c reports from it). */
#define BPFOBJ_PROG_LOG_SIZE (256 * 1024)

/* One streamed map (stream.c). */
struct bpfobj_stream {
	struct bpfobj *bo;
	const struct bpf_map *map;
	uint32_t type_id;	/* 0: hex */
	struct perf_buffer *pb;	/* perf event arrays; ring buffers share bo->rb */
};

/* Heat maps: the previous counts of one histogram, to print interval deltas (dump.c). */
struct bpfobj_hist_state {
	char *name;
	uint64_t *prev;
	uint32_t nr;
};

struct bpfobj {
	char *path;
	struct bpf_object *obj;
	const struct btf *btf;
	char **logs;		/* per program, indexed like progs */
	struct bpf_program **progs;
	int nr_progs;
	/* attach.c */
	struct bpf_link **links;
	size_t nr_links, cap_links;
	/* stream.c */
	struct ring_buffer *rb;
	struct bpfobj_stream *streams;
	int nr_streams;
	int epfd;
	struct bpfobj_output out;
	uint64_t records, lost;
	uint64_t poll_end;	/* now_ns() after which a ring buffer poll hands back */
	/* dump.c */
	struct bpfobj_hist_state *hists;
	int nr_hists;
	/* CO-RE target: minimal BTF in a memfd until loaded */
	struct corebtf_prep core;
	/* globals.c: the running kernel's enums (bpfobj_kenums) */
	struct btf *kbtf;
	struct btf_fmt_kenums *kenums;
	bool kenums_tried;
};

static inline bool bpfobj_has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* globals.c: find variable name in the DATASEC named sec (NULL: any DATASEC)
 * of btf. The one walk of DATASECs: globals, and the .maps definitions. */
bool bpfobj_btf_find_var(const struct btf *btf, const char *sec, const char *name,
			 struct bpfobj_global *g);
/* globals.c: whether m is the internal map of global data section sec (".bss"). */
bool bpfobj_map_is_section(const struct bpf_map *m, const char *sec);

/* globals.c: the running kernel's definitions of the object's named enums
 * (btf_fmt.h), loaded on first use; NULL if none or no kernel BTF. */
const struct btf_fmt_kenums *bpfobj_kenums(struct bpfobj *bo);

/* section.c: NULL if the kernel has what section sec needs, else a sentence
 * naming the missing feature (static storage: use before the next call). */
const char *bpfobj_feature_missing(const char *sec);

/* stream.c: the value type a map definition in .maps declares (the
 * __type(value, T) of a ring buffer, say), or 0. */
uint32_t bpfobj_map_def_value_type(const struct btf *btf, const char *map_name);

#endif
