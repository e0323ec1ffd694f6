/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to the minimal CO-RE target BTF (core_btf.h): what the minimizer
 * (core_btf_min.c) and the search of the kernel modules' BTF (core_btf.c)
 * share, libbpf's rule for the candidates of a relocated type. */
#ifndef BPFPERF_CORE_BTF_INT_H
#define BPFPERF_CORE_BTF_INT_H

#include "core_btf.h"

#include <bpf/btf.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* A type's kind, enum64 counted as enum (libbpf matches the two). */
static inline int corebtf_kind_class(const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_ENUM64 ? BTF_KIND_ENUM : btf_kind(t);
}

/* Is a target type named tn, of kind class kclass, a candidate for a local
 * type of essential name name[0..len) and kind class root_kclass? The same
 * kind class and essential name, as libbpf finds candidates. */
static inline bool corebtf_is_candidate(int kclass, const char *tn, int root_kclass, const char *name,
					size_t len)
{
	return kclass == root_kclass && !strncmp(tn, name, len) && (!tn[len] || corebtf_essential_len(tn) == len);
}

#endif
