/* SPDX-License-Identifier: GPL-2.0-only */
/* BPF program info and BTF as saved in perf.data (HEADER_BPF_PROG_INFO,
 * HEADER_BPF_BTF): fetched from the kernel while the program exists, encoded
 * the way perf does, and decoded with every array bounds-checked. */
#ifndef BPFPERF_PERFDATA_BPF_INFO_H
#define BPFPERF_PERFDATA_BPF_INFO_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct btf;

/* bpf_prog_info with its arrays in data; in the stored form the array
 * pointer fields of info hold offsets into data. */
struct pd_bpf_prog {
	struct bpf_prog_info info;
	uint64_t arrays;	/* bitmask of enum pd_bpil_array present */
	uint32_t data_len;
	uint8_t *data;
};

/* Fetch info + arrays of a loaded program (arrays: PD_BPIL_DEFAULT_ARRAYS).
 * Returns NULL with errno set. */
struct pd_bpf_prog *pd_bpf_prog_fetch(int prog_fd, uint64_t arrays);
/* Raw BTF bytes of a BTF object id; NULL with errno set. */
void *pd_btf_fetch(uint32_t btf_id, uint32_t *size);
void pd_bpf_prog_free(struct pd_bpf_prog *p);

void pd_bpf_progs_encode(struct strbuf *b, struct pd_bpf_prog *const *progs, size_t n);
struct pd_btf_blob {
	uint32_t id;
	uint32_t size;
	void *data;
};
void pd_btfs_encode(struct strbuf *b, const struct pd_btf_blob *btfs, size_t n);

/* Decode HEADER_BPF_PROG_INFO: fn gets each info with the array pointer
 * fields relocated to real addresses in a private copy (valid during the
 * call; an array is where the file puts it, which may be unaligned: read
 * its records with memcpy). Entries with out-of-bounds arrays are skipped with a warning.
 * Returns the number of entries or -1 if the section is malformed. */
typedef void (*pd_bpf_prog_fn)(void *ctx, const struct bpf_prog_info *info);
int pd_bpf_progs_decode(const void *buf, size_t len, pd_bpf_prog_fn fn, void *ctx);
/* Decode HEADER_BPF_BTF; fn gets each blob (pointing into buf). */
typedef void (*pd_btf_fn)(void *ctx, uint32_t id, const void *data, uint32_t size);
int pd_btfs_decode(const void *buf, size_t len, pd_btf_fn fn, void *ctx);

/* perf's name of subprogram sub of a program (synthesize_bpf_prog_name, the
 * kernel's KSYMBOL name too): "bpf_prog_<tag of sub>_<name>", the name being
 * the BTF func name (btf: the program's BTF, or NULL), else the program name
 * for a single-function program (none when it is empty: no "_"), else "F".
 * info's array fields must be real pointers. */
void pd_bpf_prog_name(const struct bpf_prog_info *info, const struct btf *btf, uint32_t sub,
		      char *buf, size_t len);

#endif
