/* SPDX-License-Identifier: GPL-2.0-only */
/* shared_defs.h: what every header in src/bpf/include/ needs, shared by every
 * BPF program (src/bpf/<f>.bpf.c) and by the user-space code that reads their
 * maps: fixed-width types (__u32, __u64: vmlinux.h on the BPF side, which a
 * program includes first; <linux/types.h> in user space) and SHARED_INLINE.
 *
 * SHARED_INLINE: the BPF side forces inlining, because a BPF-to-BPF call on a
 * per-event hot path costs a call and register spills; user space leaves the
 * choice to the compiler. */
#ifndef BPFPERF_SHARED_DEFS_H
#define BPFPERF_SHARED_DEFS_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#ifdef __bpf__
#define SHARED_INLINE static inline __attribute__((always_inline))
#else
#define SHARED_INLINE static inline
#endif

#endif
