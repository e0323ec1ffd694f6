/* SPDX-License-Identifier: GPL-2.0-only */
/* Stack skipping: a stack taken inside a BPF program (bpf_get_stack,
 * bpf_get_stackid) starts with the tracing machinery that ran the program
 * (bpf_prog_*, bpf_trace_run*, __bpf_trace_*, __traceiter_*, perf_trace_*,
 * trace_call_bpf, trampolines). Every BPF feature that shows kernel stacks
 * drops those frames with the same rule:
 *
 *   1. by symbol class: leading frames whose symbol is tracing machinery;
 *   2. where a leading frame's symbol is unknown, by a count measured per
 *      attach point (STACK_SKIP_*), counted from the top of the stack;
 *   3. a user's explicit count (--stack-skip N) overrides both.
 *
 * Pure functions: no kernel access, no printing. */
#ifndef BPFPERF_STACK_SKIP_H
#define BPFPERF_STACK_SKIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Frames of tracing machinery above the traced kernel function, measured
 * with bpf_get_stack on Linux 6.18 (see shared/reference/measured-facts.md). */
#define STACK_SKIP_CONTENTION_BEGIN 3	/* tp_btf (and raw_tp) lock:contention_begin */
#define STACK_SKIP_SCHED_SWITCH 2	/* tp_btf / raw_tp sched:sched_switch */
#define STACK_SKIP_TRACEPOINT 1		/* classic (perf-event) tracepoint programs */

/* No user override: use the symbol class, then the per-attach count. */
#define STACK_SKIP_AUTO (-1)

/* Is sym a frame of the tracing machinery? NULL or "" is not. */
bool stack_frame_is_tracing(const char *sym);

/* Resolves a kernel address to its symbol name, or NULL when unknown. */
typedef const char *(*stack_sym_fn)(void *ctx, uint64_t ip);

/* How many of the n leading frames of ips to drop. With user_skip >= 0,
 * exactly that many (at most n). Otherwise the leading frames whose symbol
 * is tracing machinery, and while symbols are unknown, frames up to
 * attach_skip (the attach point's measured count). sym may be NULL (every
 * symbol unknown). The result is at most n. */
size_t stack_skip(const uint64_t *ips, size_t n, stack_sym_fn sym, void *ctx, size_t attach_skip,
		  int user_skip);

#endif
